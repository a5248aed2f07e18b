"""Text as FTS5 sees it: CJK runs become overlapping bigrams so keyword search works there.

``unicode61`` treats a run of Chinese, Japanese or Korean characters as one long token, so
"部署" would never match inside "部署服务". Indexing each CJK run as its character bigrams (and
the lone character of a one-character run), and querying the same way, fixes that without a
second table or a dictionary.
"""

from __future__ import annotations

import re

# A pattern string, compiled by ``re`` on first use and cached there: compiling it walks its
# 40,000 code points (a fifth of the interpreter's own start-up), and ASCII text, most queries
# and entries, holds no CJK run, so it never needs it.
CJK_RUN = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff66-\uff9f]+"
WORD = re.compile(r"\w+", re.UNICODE)
# Function words carry no topic; OR-ing them into a query makes every entry a lexical hit.
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from", "had", "has", "have", "having", "he", "her", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "my", "myself", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "our", "ours", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "about", "again", "all", "am", "any", "because", "before", "below", "between", "both", "during", "each", "few", "further", "here", "more", "most", "other", "s", "t", "don", "now", "ever", "tell", "know", "like", "get", "got", "also"]  # noqa: E501
)


def cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def cjk_runs(text: str) -> list[str]:
    """The runs of CJK characters in ``text``, in order."""
    return [] if text.isascii() else re.findall(CJK_RUN, text)


def fts_text(text: str) -> str:
    """The form of ``text`` stored in the FTS5 table."""
    if text.isascii():
        return text
    return re.sub(CJK_RUN, lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", text)


def query_terms(query: str, *, drop_stopwords: bool = True) -> list[str]:
    """Distinct search terms of a query, in order, with CJK runs split into bigrams.

    Stopwords are dropped unless the query has nothing else.
    """
    terms: list[str] = []
    seen: set[str] = set()
    for word in WORD.findall(fts_text(query)):
        if word.casefold() not in seen:
            seen.add(word.casefold())
            terms.append(word)
    content = [t for t in terms if t.casefold() not in STOPWORDS]
    return content if drop_stopwords and content else terms
