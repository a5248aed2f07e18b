"""Attacker text in notes, transcripts, MEMORY.md and triggers renders as text, never as markup.

The page is parsed with ``html.parser``: if escaping failed anywhere, the planted tags would be
elements or attributes here (the browser test checks the same in Chromium's DOM).
"""

from __future__ import annotations

from tests.report.conftest import ATTACKS
from tests.report.htmlcheck import Page

OUR_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "nav", "a", "main", "section",
    "div", "b", "table", "tr", "th", "td", "span", "ul", "li", "pre", "details", "summary", "code", "figure", "figcaption",
    "svg", "line", "text", "polyline", "circle",
}


def _page(clawmem, root, tmp_path) -> tuple[str, Page]:
    out = tmp_path / "report.html"
    result = clawmem("report", "-w", str(root), "-o", str(out))
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    return html, Page(html)


def test_attacks_render_as_text_not_markup(clawmem, attacked_ws, tmp_path):
    html, page = _page(clawmem, attacked_ws, tmp_path)
    tags = {tag for tag, _ in page.elements}
    assert tags <= OUR_TAGS, tags - OUR_TAGS  # no script, img, iframe, svg onload, forged frame element
    assert not {"script", "img", "iframe", "clawmem-recall", "untrusted-content"} & tags
    for tag, attrs in page.elements:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        assert "javascript:" not in " ".join(str(v) for v in attrs.values()).lower(), (tag, attrs)
    assert all((a.get("href") or "").startswith("#") for a in page.tags("a"))
    # the planted text is there, as text, in the places the report shows it
    for attack in ATTACKS:
        assert attack in page.text, attack
    assert "<script>" not in html and "onerror=\"" not in html


def test_one_style_one_csp_first_in_head(clawmem, attacked_ws, tmp_path):
    html, page = _page(clawmem, attacked_ws, tmp_path)
    assert len(page.tags("style")) == 1 and "display:none" not in "".join(page.style_texts)
    metas = page.tags("meta")
    csp = [m for m in metas if (m.get("http-equiv") or "").lower() == "content-security-policy"]
    assert len(csp) == 1 and not [m for m in metas if (m.get("http-equiv") or "").lower() == "refresh"]
    policy = {d.split()[0]: d.split()[1:] for d in csp[0]["content"].split(";") if d.strip()}
    assert policy["default-src"] == ["'none'"] and "script-src" not in policy
    assert policy["img-src"] == ["data:"] and policy["form-action"] == ["'none'"]
    head = html[: html.index("</head>")]
    assert head.index("Content-Security-Policy") < head.index("<title>")  # before any workspace-derived text
    linked = [(tag, k, v) for tag, attrs in page.elements for k, v in attrs.items() if k != "xmlns" and v and ("://" in v or v.startswith("//"))]
    assert not linked  # no external asset, no outside link


def test_untrusted_lines_are_framed_and_their_text_kept_out_of_curated(clawmem, attacked_ws, tmp_path):
    _, page = _page(clawmem, attacked_ws, tmp_path)
    framed = [a for a in page.tags("div") if a.get("class") == "untrusted"]
    assert framed, "quarantined and untrusted lines are shown inside a frame"
    memory = (attacked_ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "untrusted says" not in memory and "system says" not in memory  # the gates held; the report only shows
