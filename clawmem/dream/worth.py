"""Worth keeping: does a unit carry information? Preconditions checked before recurrence counts.

Repetition alone is not evidence of worth: "thanks, that worked" recurs in every session.
A unit is no candidate when

- it is social talk: an acknowledgement, greeting or sign-off ("great, that fixed it",
  "hey Mel! good to see you", "talk soon"), i.e. every word is a stop word or a phatic word,
  allowing one name it is addressed to;
- it is a reaction: praise, agreement or sympathy aimed at what the other person just shared
  ("that plate is awesome!", "wow, Caroline, it sounds like you're doing impressive work", "oh
  dang that sucks"): it opens
  on a pointer to the other's words ("that", "it", "what a", "your"), carries an evaluative
  word and names nothing specific beyond the person addressed;
- it is gratitude, sympathy or an offer aimed at the other person ("thanks for the
  recommendation", "sorry about the hike", "keep you posted", "let me know if …");
- it is about the person addressed, or about nobody: no first person, no name and no number,
  and either second person ("so cool you found such a group") or an evaluation ("winning first
  place is amazing!", "nice spot!"): a remark, not a fact ("the kids loved the lake" says what
  happened, and stays);
- it is a passing feeling: the speaker's mood and at most one word of what it is about ("I'm feeling
  confident and won't give up", "I was so happy and thankful for all the support");
- it is a wish or holiday greeting ("Happy New Years!", "have a safe flight!"), a "how are you"
  reply with nothing else in it ("I'm also doing well, thank you for asking.") or the speaker's
  feeling about the listener's news ("I'm so glad you had a lovely time with your mom!");
- it asks the listener to do something ("please bump the versions", "could you check …", "tell
  me more about your job!"):
  a standing request is a directive and goes to ``USER.md`` (``dream.directives``);
- it points at something shown ("check my ideal dance studio", "here's a peek at the space"):
  the picture is not in the memory;
- it is a slogan ("together, we can make a difference"): every word is a slogan's, an opinion or
  a feeling, and it names nobody and is not about the speaker;
- it says that something happened but not what ("since we last chatted, a lot has happened",
  "things have been hectic lately"): every topic word is vague, a feeling or an opinion;
- it rallies the listener ("Together, we can make a difference for our veterans!": "we can",
  "let's" … with a "!", "together" or "each other") or is a general remark (a bare noun, an
  evaluation, the present, nobody in particular: "Pets sure do bring so much joy to us!");
- it points at what follows in the chat ("I've got the following code so far."), or congratulates;
- it names nothing specific (no number, path, command, version, identifier or proper name)
  and each of its topic words is common in this workspace: in more than
  ``dream.common_word_share`` of the index's entries (judged once the index holds
  ``dream.vocabulary_min_entries``; a young workspace has no idea yet what is common).

``answer_talk`` judges the sentences of an assistant's answer as well: its outline (list items,
bold labels, "First, …"), its announcements and offers, its hedged suggestions ("Maybe we can
…"), its advice on the listener's work ("To meet your deadline, you can …") and its
unconditional instructions ("Create the templates …") are how the answer works through the
task at hand, not facts; a procedure with its condition ("If X fails, run Y") stays.
``request_talk`` judges the owner's turns to their agent the same way: an unconditional
instruction about a particular thing ("Bump the build number for me") is a task, not a fact.

Text typed on phones is judged as if typed with care (``plain_typing``: "Here’s" is "Here's",
"Thats" is "That's", "Im sure" is "I'm sure"), so a chat typed without apostrophes meets the same
rules. Cheap and deterministic; the reason names the rule. Questions and short fragments are
refused by ``scaffolding.reason``, which calls this last, so the consolidation validator
refuses the same lines on the way out.
"""

from __future__ import annotations

import re

from clawmem.dream.text import ASKING, RESOLVED, content_words, sentences, words
from clawmem.entries.scaffold import speech
from clawmem.entries.words import STOPWORDS
from clawmem.index.db import Index
from clawmem.recall.symptoms import reports_problem

GREETINGS = frozenset(
    """
    hi hey hello hiya howdy yo morning evening afternoon night goodnight bye goodbye later soon talk see catch care
    take ttyl cya ya meet meeting welcome chat greetings salutations
    """.split()  # noqa: SIM905
)
PHATIC = GREETINGS | frozenset(
    """
    thanks thank thx ty cheers appreciate appreciated ok okay k kk yeah yep yup nope sure alright right fine good great
    nice cool awesome amazing perfect excellent wonderful fantastic brilliant lovely sweet super glad happy hear sounds
    sound worked works work working fixed fixes fix solved helped helps help trick did will do done got gotcha noted
    understood agreed exactly indeed totally absolutely definitely true lol haha hahaha wow omg yay woohoo hmm hm ah oh gotta gtg
    um uh well congrats congratulations luck sorry np problem worries thing stuff check sec moment brb lot lots much
    so really pretty too agree keep long yes remember remembered note mind know knew let tell ask asked hope anytime
    anything else pleasure course ready feel free question questions reach thankful grateful blessed touched honored
    honoured plan like guess idk maybe perhaps probably nah fair enough makes sense point
    merci beaucoup danke schön gracias grazie mille obrigado obrigada bedankt arigato oui ja sí nein non nee marche funciona funktioniert
    """.split()  # noqa: SIM905 - the last line: the same said in the other languages people mix into a chat
)
EVALUATIVE = frozenset(
    """
    awesome amazing gorgeous beautiful cute lovely impressive inspiring inspired incredible stunning adorable fun cool great
    nice wonderful fantastic proud love loving loved glad happy sweet pretty kind neat brilliant excellent touching
    special powerful fascinating interesting exciting remarkable admirable rad epic wild unreal means mean go good huge
    difference deserve deserves best rock rocks star strong brave hero talented gifted capable tough matter matters
    """.split()  # noqa: SIM905
)
INTERJECTIONS = frozenset(
    ["wow", "woah", "whoa", "oh", "ohh", "ooh", "aw", "aww", "omg", "yay", "haha", "hahaha", "hey", "ah", "yes", "yeah", "dang", "damn", "darn", "ugh", "oof",
     "yikes", "geez", "jeez", "man", "dude"]
)
# "Oh dang that sucks", "ugh, that's rough": sympathy with the other's news, a reaction like praise
SYMPATHETIC = frozenset(("sucks", "suck", "sucked", "bummer", "rough", "awful", "terrible", "horrible", "unfortunate", "shame", "harsh", "brutal", "heartbreaking"))
POINTERS = frozenset(["that", "that's", "thats", "it", "it's", "its", "what", "how", "you", "you're", "your", "yours", "keep", "loving", "looks", "sounds", "seems", "must", "so", "way", "good"])  # noqa: E501
OWN = frozenset(["my", "mine", "myself", "we", "our", "ours", "us"])  # a sentence about the speaker's own life is not a reaction
# "I love the thought Nate!", "I love the idea, Jon!": the other's idea taken up, with nothing said
# of it ("I love the idea of adopting a dog" says what); only with an evaluative verb ("love")
TAKEN_UP_IDEA = frozenset(("idea", "thought", "sound", "suggestion", "plan", "vibe", "vibes", "concept"))
CONTRACTIONS = frozenset(("s", "ll", "re", "ve", "d", "m", "t"))  # what "that's", "I'm", "you'll" leave after the apostrophe
# A technical problem stated without what fixes it, causes it or when it happens: "the linker
# error is back", "the aarch64 cross build fails at link time", "login just spins forever" are
# complaints, not memories (their words still become the fix's triggers).
NEVER_ENDS = r"(?:loads?|finish(?:es)?|returns?|completes?|responds?)\b"  # "it never finishes": a symptom, not the rule "never …"
COMPLAINT = re.compile(
    r"\b(?:fails|failed|failing|keeps failing|fail to|crash(?:es|ed|ing)?|(?:is|are|was|were|got|still) broken|broke|errors? out|"
    r"panic(?:s|ked)|times out|timed out|not working|does(?:n'?t| not) work|won'?t (?:build|compile|start|run|load|link|work)|"
    r"(?:is|are) back|(?:an?|the|this|that|same|new) (?:\w+ )?error|dies|died|(?:keeps?|kept) dying|hangs|hung|freezes|froze|oom|out of memory|flak(?:y|ing|es)|"
    # how a symptom is told in other words: "login just spins forever", "the model gives rubbish",
    # "some rows just fail", "nothing happens", "it never finishes"
    r"(?:just |still |now )fail|(?:just |keeps |still )?spin(?:s|ning)? forever|just spins|keeps spinning|"
    r"(?:is|are|gets?|got) stuck|stuck on|nothing happens|blank (?:screen|page)|"
    # "last night's report stopped counting at 7 pm", "Argo's UI is painfully slow today"
    r"stopped (?:working|counting|sending|syncing|loading|showing|running|responding|updating|firing)|(?:is|are|was|were|got) (?:\w+ )?(?:slow|sluggish|laggy)|"
    r"(?:gives?|giving|returns?|returning|spits? out|comes? out(?: as)?) (?:\w+ )?(?:rubbish|garbage|nonsense|junk|gibberish)|"
    rf"never {NEVER_ENDS}|does(?:n'?t| not) (?:load|respond|finish|return|compile|build|start|connect))\b",
    re.IGNORECASE,
)
RESOLUTION = re.compile(
    r"\b(?:fix(?:es|ed)?|solved?|solution|workaround|because|caused|cause|due to|so that|run|use|add|set|install|upgrade|downgrade|"
    r"pin|revert|instead|needs?|requires?|without|unless|when(?:ever)?|if|until|try|disable|enable|remove|delete|clear|restart|"
    rf"switch|avoid|must|should|always|never(?! {NEVER_ENDS})|only|means|rather than|retr(?:y|ies|ied))\b",
    re.IGNORECASE,
)
# How things stand right now ("9 protocol tests pass", "CI is green again"): true for a moment.
STATUS = re.compile(
    r"^(?:\d+ |all |the )?(?:\w+ )?(?:tests?|checks?|specs?) (?:now )?(?:pass|passed|fail|failed|are green|is green|are red)\b|"
    r"^(?:ci|the build|build|the pipeline|pipeline) (?:is )?(?:now )?(?:green|red|passing)\b",
    re.IGNORECASE,
)
# Aimed at the other person: thanks for something, sympathy, an offer to help or to report back
COURTESY = re.compile(
    r"^(?:[\w']+\s*){0,2}[,!]?\s*(?:(?:many |big )?thanks|thank you|thx|(?:i |we )?(?:really |truly |so |totally )?appreciate|"
    r"kudos|hats off|congrat(?:s|ulations)|well done|"
    r"(?:i'?m |i am |so |really )*sorry(?: to hear)?)\b(?!,)|"
    r"^(?:let me know|keep (?:you|me) posted|(?:i'?ll |i will )?keep you (?:updated|posted|in the loop)|"
    # "I'll definitely reach out if I need more suggestions": a promise to the listener
    r"(?:i'?ll |i will )(?:(?:definitely|totally|surely|for sure|be sure to)\s+)?(?:reach out|let you know|get back to you|hit you up)|"
    r"(?:just )?(?:tell|ask) me if|(?:i'?m |i am )?(?:here|always here) (?:for you|if you need))\b",
    re.IGNORECASE,
)
# Asking the listener to do something: "please bump the versions", "can you check the logs?",
# "Tell me more about your job!", "keep me updated on the trip"
REQUEST = re.compile(
    r"^(?:\w+[,!]\s*)?(?:please|(?:can|could|would|will) you|(?:i need|i want|i'd like) you to|tell me|fill me in|keep me (?:updated|posted|in the loop)|"
    r"update me|show me|send me)\b",
    re.IGNORECASE,
)
# A wish or a holiday greeting for the other person: "Happy New Years!", "Merry Christmas to you
# and your family!", "Have a safe flight!", "Enjoy your weekend!" ("Happy to say I got the job"
# is not one, and neither is anything the speaker says about themselves)
WISH = re.compile(
    r"^(?:\w+[,!]\s*)?(?:(?:i |we )?(?:hope|wish) (?:you|your|u)\b|happy(?! to\b)|merry|have (?:a|an|fun)\b|enjoy (?:your|the|it)\b|"
    r"good luck|best of luck|best wishes|safe (?:travels|flight|trip)|get well|sleep well|sweet dreams|cheers to)",
    re.IGNORECASE,
)
# "I hope both of our travel dreams come true, Bella", "Wish we both get in": a wish for the
# speaker and the listener together (the "our" is theirs, not a fact of the speaker's)
SHARED_WISH = re.compile(r"^(?:\w+[,!]\s*)?(?:i |we )?(?:hope|wish) (?:we both|both of (?:us|our)|we (?:can|could|will|get to) both)\b", re.IGNORECASE)
# "I just wanted to check in.", "Just wanted to say hi!": why the message was sent, nothing after it
CHECKING_IN = re.compile(
    r"^(?:[\w']+[,!]\s*)?(?:i |we )?(?:just )?(?:wanted|want|thought i'?d) (?:to )?(?:check in|say hi|say hello|touch base|reach out)"
    r"(?:\s+(?:with|on) you)?\W*$",
    re.IGNORECASE,
)
# How the speaker is, said back to "how are you?": "I'm also doing well, thank you for asking."
# ("I'm doing great, I just got back from Lisbon" says more, and stays)
WELL_BEING = re.compile(
    r"^(?:\w+[,!]\s*)?(?:(?:not much|nothing much|same old)\b|(?:i'?m|i am|im|we'?re|we are|all is|everything'?s|things are)\s+"
    r"(?:(?:also|still|just|really|pretty|so|very|doing|feeling)\s+)*(?:good|well|fine|great|okay|ok|alright|not bad|wonderful|amazing|better)\b)",
    re.IGNORECASE,
)
QUOTES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'"})
# Contractions typed without their apostrophe that are no other word: "Thats", "dont", "theyre".
# "its", "id" and "ill" are words too, so "its" and "id" count only before what a contraction
# is followed by ("its been", "id rather"); "ill", "were", "well", "lets" never do.
BARE_CONTRACTIONS = {
    **{w: w[:-1] + "'" + w[-1] for w in "dont doesnt didnt cant couldnt wouldnt shouldnt isnt arent wasnt werent havent hasnt hadnt aint wont mustnt".split()},  # noqa: E501, SIM905
    **{w: w[:-1] + "'" + w[-1] for w in "thats whats wheres theres heres whos hows shes hes".split()},  # noqa: SIM905
    **{w: w[:-2] + "'" + w[-2:] for w in "youre theyre youve theyve weve youll theyll youd theyd".split()},  # noqa: SIM905
    "im": "I'm", "ive": "I've",
}
BARE_CONTRACTION = re.compile(
    rf"\b(?:(?P<word>{'|'.join(BARE_CONTRACTIONS)})"
    r"|(?P<its>its)(?=\s+(?:been|not|so|a|an|the|always|really|just|pretty|very|gonna|going|ok|okay|fine|great|hard|easy|all|kinda|"
    r"like|still|also|too|only|nice|good|bad|fun|cool|crazy|true|actually|probably|definitely|super|getting|raining|snowing|cold|hot|"
    r"late|early|because|about|what|time|over|never|such|almost|finally|something|nothing)\b)"
    r"|(?P<id>id)(?=\s+(?:be|rather|love|like|say|have|go|probably|never|definitely|want|recommend|prefer|guess|do|better|need|really|"
    r"also|just|still|get|try|think|imagine|been|totally|lose|hate|pick|choose|visit)\b))\b",
    re.IGNORECASE,
)
# "I'm so glad you had a wonderful cooking session with your mom!": the speaker's feeling about
# the listener's news
ABOUT_YOUR_NEWS = re.compile(
    r"^(?:\w+[,!]\s*)?(?:i'?m|i am|im)\s+(?:so |really |very |super |just )*(?:glad|happy|sorry|excited|thrilled|proud)\s+(?:that\s+)?(?:you|your|to hear)\b",
    re.IGNORECASE,
)
SMALL_TALK = frozenset(("doing", "asking", "today", "tonight", "also", "feeling", "thanks", "checking", "usual", "old", "chilling"))
SECOND_PERSON = frozenset(("you", "your", "yours", "yourself", "yourselves", "ya", "u"))
FIRST_PERSON = OWN | frozenset(("i", "me", "ourselves", "im", "ive", "id"))
SINGULAR = frozenset(("i", "me", "my", "mine", "myself", "im", "ive", "id"))
OPINION = EVALUATIVE | frozenset(
    """
    vital important key essential crucial worth worthwhile necessary rewarding meaningful beautiful healthy precious
    valuable helpful useful hard tough easy awful terrible sad scary amazing joy joys fun grace beauty happiness bliss
    magic inspiration blast relaxing calming creative therapeutic soothing
    """.split()  # noqa: SIM905
)
FEELINGS = frozenset(
    """
    feel feeling feels felt happy excited scared nervous confident proud grateful thankful glad stoked thrilled sad bored
    tired anxious hopeful optimistic relieved overwhelmed upbeat positive motivated inspired determined blessed lucky
    mix mixed calm relaxed content pumped psyched worried stressed afraid frightened emotional touched moved fulfilled
    give giving gave up quit hanging hang hanging trying try tried best hard challenge challenged
    """.split()  # noqa: SIM905
)
# "X is amazing", "it's a wild ride", "nice spot!": an evaluation rather than something that happened
COPULA = re.compile(r"\b(?:is|are|was|were|be|been|being|seems?|looks?|sounds?)\b|\w['’]s\b", re.IGNORECASE)
# "check my ideal dance studio", "here's a peek at …", "look at this", "come see!": pointing at a picture
SHOWN = re.compile(
    r"^(?:\w+[,!]\s*|(?:and|so|plus|also)\s+)?(?:check(?: it)?(?: out)?|here(?:'s|s| is| are)|look(?: at)?|take a look|come (?:and )?(?:see|look)"
    r"|see|peep|behold)\b(?!\s+(?:if|whether|that)\b)"
    r"|[,;–—]\s*(?:and\s+)?here(?:'s|s| is| are)\b",  # "Nature's amazing, here's a painting I did"
    re.IGNORECASE,
)
# "I've got the following code so far.", "It should look something like this:": a pointer at what
# follows in the chat (a code block, a list), which is not in the line
FOLLOWING = re.compile(r"(?:\b(?:like|as)(?: this| so| follows)?|\bthe following(?: \w+){0,2}?(?: so far)?|\bbelow)\s*[.:]?\s*$", re.IGNORECASE)
SPECIFIC = re.compile(r"\d|[/\\_@=~#$%`]|\w[.-]\w|[a-z][A-Z]")
EDGE = "\"'()[]{}<>,;:!?.*“”‘’"


def _specific(text: str) -> list[str]:
    """Tokens that name something: numbers, paths, versions, identifiers, acronyms, proper names."""
    found = []
    for position, raw in enumerate(text.split()):
        token = raw.strip(EDGE)
        bare = token.split("'")[0].split("’")[0]
        if not bare or bare.casefold() in PHATIC:
            continue
        if SPECIFIC.search(token) or (len(bare) > 1 and bare.isupper()) or (position and bare[0].isupper() and bare != "I"):
            found.append(token)
    return found


class Vocabulary:
    """Document frequency of words over the index's entries (its FTS table, so "memories" and
    "memory" count as one word), looked up once per word."""

    def __init__(self, index: Index, *, common_share: float, min_entries: int) -> None:
        self.index = index
        self.common_share = common_share
        self.total = index.query("SELECT count(*) AS n FROM entries_fts")[0]["n"]
        self.judged = self.total >= min_entries
        self.cache: dict[str, int] = {}

    def frequency(self, word: str) -> int:
        if word not in self.cache:
            quoted = '"' + word.replace('"', '""') + '"'
            self.cache[word] = self.index.query("SELECT count(*) AS n FROM entries_fts WHERE entries_fts MATCH ?", (quoted,))[0]["n"]
        return self.cache[word]

    def common(self, word: str) -> bool:
        return self.frequency(word) > self.common_share * self.total


# "Thanks, that did it for the ticket", "Glad it links again": an opener of thanks or relief with
# at most two topic words after it acknowledges what was said; it states nothing new
ACK_OPENERS = frozenset(("thanks", "thank", "thx", "ty", "cheers", "glad", "great", "perfect", "nice", "awesome", "cool", "ok", "okay", "yay", "sweet", "brilliant"))
# "Caroline, so glad …", "Hey Mel! …": the person addressed, after a greeting or interjection if any
VOCATIVE = re.compile(r"^\W*(?:(?i:hey|hi|hello|hiya|oh|wow|woah|whoa|aw+|thanks|yo|dear|so|well)[\s,!]+)?(?P<name>[A-Z][\w'’-]+)\s*[,!]")
# "The kids look so cute, Mel!": a name after the last comma, closing the sentence, is the person addressed
TRAILING_VOCATIVE = re.compile(r",\s*(?P<name>[A-Z][\w'’-]+)\s*[!.?…]*\s*$")
# "Sounds like you had a great time", "looks like you two are close": a remark on the listener's news
ON_YOUR_NEWS = re.compile(r"^(?:[\w']+[,!]\s*){0,2}(?:it |that )?(?:sounds|looks|seems)(?: like)? (?:you|your)\b", re.IGNORECASE)
# "Together, we can make a difference", "even small things can mean a lot": words of a slogan,
# which carry no fact about anyone when a sentence holds nothing else
SLOGAN = frozenset(
    """
    together difference differences future brighter better world change changes impact positive positivity make makes
    making bring brings show shows help helps support supports happen happens matter matters count counts real way ways
    however can always forever keep keeps stay stays staying strong stronger dream dreams big little small things thing
    life live living love hope heart step steps journey each other everyone everybody people take taking care times
    mean means lot lots even reminder remind reminds stand believe ourselves us yourself yourselves
    """.split()  # noqa: SIM905
)
# Words that say something happened without saying what: "a lot's happened since we last talked"
VAGUE = frozenset(
    """
    happen happens happened happening going goes went busy hectic crazy wild lately recently since last chat chats chatted
    chatting talk talks talked talking spoke speak speaking catch catching caught news update updates much quite ages
    while big stuff things lots whole bunch been here life going-on everything something anything few day days meantime
    forever eternity awhile seems least
    """.split()  # noqa: SIM905
)


# "Together, we can make a difference for our veterans!", "We'll make some awesome memories!":
# rallying the listener, no fact (with a "!", "together" or "each other"; "We should use pnpm" stays)
EXHORTATION = re.compile(r"^(?:together[,!]?\s+)?(?:let'?s|let us|we can|we could|we'?ll|we will|we gotta|we'?ve got to|we have to|we need to)\b", re.IGNORECASE)
RALLYING = re.compile(r"!\s*$|\btogether\b|\beach other\b", re.IGNORECASE)
# A general remark may still name what the sentences after it in the turn are about
# ("Flowers bring joy. They were part of my wedding decor."): it stays open for them to lean on
GENERAL_REMARK = "a general remark, no fact about anyone"
PAST = frozenset(("was", "were", "had", "did", "went", "got", "made", "used"))
# The assistant talking about its own answer: announcing what it will do ("Let's create a detailed
# sprint plan…", "We'll break down the tasks", "Here's how you can…", "This schedule should help
# you…") or offering more ("If you need further details, feel free to ask")
ANNOUNCEMENT = re.compile(
    r"^(?:(?:certainly|absolutely|sure|great|of course|alright|okay|ok|first(?:ly)?|second(?:ly)?|next|then|now|finally|lastly|"
    r"additionally|also|so|in summary|to summari[sz]e|overall|for (?:example|instance)|again|just|understood|noted|got it|will do|"
    r"sounds good|agreed|makes sense|fair enough|no problem|right)\s*[,!.:—–-]?\s+)*"
    # "Understood — I won't reset the database": a promise to the owner, who said it first
    r"(?:let'?s|let us|let me|we'?ll|we will|i'?ll|i will|i won'?t|i will not|i'?m (?:not )?going to|"
    r"here'?s|here is|here are|below (?:is|are)|the following|following (?:these|this|the)|"
    r"by following|with (?:these|this) (?:changes|steps|setup|plan|approach)|(?:this|these) (?:will|should|ensures?|helps?|approach|plan|"
    r"setup|structure|schedule|steps|changes|strategies|example|code)|feel free|if you (?:need|have|want|'?d like|would like|run into|encounter)|"
    r"(?:i )?hope (?:this|that) helps|would you like|do you want"
    # what the listener will see next: "Your application should now be running on …", "You should see …"
    r"|(?:now )?you (?:should|will|can|could|might) (?:now )?(?:see|receive|get|notice|test|access|verify|check|try|run|open|navigate)|"
    r"your \w+ (?:should|will) now|when you run|open your browser)\b|\b(?:let me know|feel free to (?:ask|reach out))\b",
    re.IGNORECASE,
)
# An answer opening on an acknowledgement joined to what follows ("Noted: local work only against
# the dev target", "Got it — httptest for external HTTP, …") restates what it acknowledges, the
# owner's turn just before it, whose own words are the evidence. "Noted. A check in the handler
# …" goes on in its own words, and so does "Noted, but …".
ACKNOWLEDGING = re.compile(
    r"^(?:ok(?:ay)?[,!]?\s+)?(?:noted|understood|got it|roger(?: that)?|copy(?: that)?|clear|all clear|will do|makes sense|good to know|"
    r"fair enough|sounds good)(?:\s*[:,;]|\s+[—–-])\s*(?!(?:but|however|though|although|except)\b)(?=\S)",
    re.IGNORECASE,
)
ECHO = "the assistant restating what the owner just said (the owner's own words are the evidence)"
# An answer asking whether to do something ("Want that too?", "Should I add it?", "Want me to
# wire it up?") offers it; its "would" and "could" sentences say what the offer would bring
OFFER = re.compile(
    r"^(?:(?:so|ok|okay|or),?\s+)?(?:(?:do you |would you )?want (?:me to|that|it|this|those|them)|should i|shall i|"
    r"would you like (?:me to|that|it))\b[^?]*\?\s*$",
    re.IGNORECASE,
)
PROPOSED = re.compile(r"\b(?:would|could)\b(?!\s+(?:you|u)\b)", re.IGNORECASE)
PROPOSAL = "the assistant's proposal the owner has not taken up, not a fact"
OFFERED = "the assistant announcing its answer or offering more, not a fact"
# "First, create a virtual environment", "Next, install the packages": a step of the answer's sequence
STEP = re.compile(r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|next|then|now|finally|lastly|after that|afterwards)\b", re.IGNORECASE)
# "Define your `User` model", "Create the necessary templates", "Bump the build number for me": an
# unconditional instruction is about the listener's work at hand; one with a condition ("If the
# build fails, run …") is a procedure and stays
IMPERATIVE = frozenset(
    """
    create define initialize initialise run install add update use ensure make set open go navigate configure import replace
    place call check verify test write implement enable disable consider follow try start keep apply modify change move store
    include register generate review focus optimize optimise integrate handle validate estimate divide list assign conduct
    prepare schedule allocate adjust refine restart save build bump put fix rename delete remove rerun push commit merge deploy
    revert refactor split wire hook route look find grab pull tidy clean drop rewrite ship tag release ping send text email notify remind warn reject block allow show hide
    """.split()  # noqa: SIM905
)
# "Maybe we can prioritize …", "You might want to add …", "It could help to …": a hedged proposal
# for the work in progress, not something known
SUGGESTION = re.compile(
    r"^(?:(?:maybe|perhaps|possibly)\b|(?:we|you) (?:could|might|may want to|may wish to)\b|it (?:might|may|could) (?:be|help)\b)",
    re.IGNORECASE,
)
# The assistant's advice on the listener's work: a proposal after the goal it serves ("To ensure
# you meet your deadline, you can break down the project into tasks", "Given the constraints, we
# should also consider a CDN"), or a truism about it ("Adjusting your project timeline …
# requires careful planning"). One that names a problem (in its goal, if it has one) is a fix and
# stays ("To get past the linker error, you can pass -latomic").
ADVICE = re.compile(
    r"^(?P<goal>(?:to|given|considering|with|for)\b[^,]{1,200}),\s+(?:(?:we|you) (?:can|could|should|might)(?: also)?|consider)\b"
    r"|\byour\b.*\b(?:requires?|needs?|calls for|involves) (?:careful|thoughtful|proper|good|some|a lot of)\b",
    re.IGNORECASE,
)
# What follows a noun, never an imperative's object: a finite verb or "of" right after a word
# IMPERATIVE knows makes it a noun ("Build broke", "Deploy scripts live in ops/", "Change of plan")
AFTER_A_NOUN = frozenset(
    """
    of is are was were has have had does did broke breaks fails failed live lives goes went runs ran needs needed uses used takes
    took should must can could will would keeps kept works worked gets got sits sat lands landed starts started stopped belongs
    """.split()  # noqa: SIM905
)
# An imperative's object that is one thing at hand, not things in general
PARTICULAR = frozenset(("the", "this", "that", "these", "those", "it", "them", "my", "our", "your", "his", "her", "their", "a", "an", "me", "us"))
MAX_LABEL_WORDS = 12  # a label before a colon or a dash names the thing an instruction after it is about
LABEL_END = re.compile(r":\s|\s[—–]\s")
# the labelled thing, pointed at after the colon ("the Python bit: write it with pandas"); "Releases: push a tag" is how things work
LABELLED = frozenset(("it", "them", "this", "that", "these", "those"))
# "Two changes from this morning's team meeting.", "A few things before you start:": a count of
# what comes next, with no verb of its own
LIST_OPENER = re.compile(
    r"^(?:(?:so|ok|okay|right|alright|also),?\s+)?(?:two|three|four|five|a few|a couple of|couple of|several|a bunch of|some) "
    r"(?:(?:quick|small|big|more|new|other) )?(?:changes|things|notes|updates|points|items|questions|requests|decisions|bits|news)\b"
    r"(?!.*\b(?:is|are|was|were|has|have|had|will|need|needs|go|goes|went|came)\b)[^.!?:]*[.:!]?$",
    re.IGNORECASE,
)
# "Credo is such a pedant.", "Jenkins is a total nightmare!": a name for something, no fact about it
EPITHET = re.compile(r"^[\w.'-]+(?: [\w.'-]+)? (?:is|are|was|were) (?:such an?|a real|a total|an absolute|a complete) [\w-]+[.!]*$", re.IGNORECASE)
# A label naming a piece of work: "New feature:", "First bug:", "Next task:"
WORK_LABEL = re.compile(
    r"^(?:(?:first|second|third|next|new|another|one more|last|small|quick|big|the) )?"
    r"(?:feature|task|todo|to-do|bug|fix|job|request|ticket|issue|story|chore|thing)(?: request)?$",
    re.IGNORECASE,
)
# What a piece of work is to do, after its label: "Task: `rivet status` should ask the daemon …"
REQUIRED = re.compile(r"\b(?:should|must|needs? to|has to|have to|is supposed to|are supposed to|ought to)\b", re.IGNORECASE)
# Something the owner wants built or changed: "I want a conflict check: …", "I want the kiosk to
# ask for …", "We need a subscriptions table"; not how they want things ("I want answers short")
WANTS = re.compile(
    r"^(?:\w+,\s*)?(?:i|we) (?:really |also |just )?(?:want|need|'d like|would like) "
    r"(?:(?:a|an|some) \w|(?:the|this|that|these|those|it|them)\b[^.,;:]{0,60}? to \w)",
    re.IGNORECASE,
)
# Work left to do: "Fatima's ETA sync needs finishing", "the importer still needs a look",
# "Staging model for the trips next."
STILL_TO_DO = re.compile(
    r"\bneeds? (?:finishing|fixing|doing|done|a look|looking at|cleaning up|tidying|updating|reviewing|testing|sorting out)\b|"
    r"^[^.!?]{0,60}\b(?:next|next up)\s*[.!]?$",
    re.IGNORECASE,
)
TASK = "the owner's request for the work at hand, not a fact"
# "I'm not sure how to proceed with the migration script", "I need help with the implementation",
# "I want to make sure the modals display correctly": the owner asking for help with the work at hand
HELP = re.compile(rf"^(?:(?:but|and|so|however|now|still|also)[,]?\s+)?(?:{ASKING})", re.IGNORECASE)
HELP_WANTED = "the owner asking for help with the work at hand, not a fact"
# "- **Nov 16 - Dec 15, 2023:** Implement user authentication", "- Week 2: set up CI": a row of a
# schedule laid out for the work at hand, whose heading and project are not in the row
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
SCHEDULE_ROW = re.compile(
    rf"^\**\s*(?:(?:week|day)s?\s*\d+(?:\s*[-–—]\s*\d+)?|{MONTH}\s+\d{{1,2}}(?:,?\s*\d{{4}})?\s*[-–—]\s*(?:{MONTH}\s+)?\d{{1,2}}(?:,?\s*\d{{4}})?)"
    r"\s*\**\s*:",
    re.IGNORECASE,
)
SCHEDULED = "a row of a schedule laid out for the work at hand, not a fact"
# What a speaker in a chat is doing as they type: "Morning im cooking my soup rn", "Right now im
# enjoying my latte", "I'm just getting ready to go out", "I just woke up", "now I'm home". True
# for a moment; the transcript keeps it for search, the curated core does not. Narrow on purpose:
# a dated account of the day ("I went to the beach today"), something done ("Just finished Dune")
# and a change that lasts ("I just moved to Leeds", "I just got a new job") are not of the moment.
AT_THIS_MOMENT = re.compile(
    r"\b(?:(?-i:rn|atm)|right now|at the moment|as we speak|as i type)\b|"  # "rn", "atm" as typed, not an RN or an ATM
    r"^(?:\w+[,!]?\s+)?(?:i'?m|im|i am)\s+(?:just|busy)\s+\w+ing\b|"
    r"\b(?:i'?m|im|i am)\s+(?:just\s+|now\s+)?getting ready\b|"  # to go out, for bed, for a game, whatever opens the turn
    r"\b(?:i'?m|im|i am)\s+(?:\w+\s+)?(?:home|at home|back home|in bed|at work|on my way|on the way)\s+now\b|"
    r"\bnow\s+(?:i'?m|im|i am)\s+(?:home|at home|back|in bed|having|eating|drinking|watching|sitting|lying|chilling|relaxing|getting)\b|"
    r"(?:^|\bi\s+|\b(?:i'?m|im|i am)\s+(?:\w+\s+)?)just\s+(?:woke up|got (?:up|home|back home|off work|out of bed)|came (?:back )?home|arrived home|"
    r"ate|had (?:breakfast|lunch|dinner|a nap|a shower)|took a (?:nap|shower))\b",
    re.IGNORECASE,
)
# what makes a sentence about the moment tell something lasting after all ("new years" is a night, not years)
LASTING = re.compile(
    r"\b(?:always|usually|every|often|never|since|(?<!\bnew )years?|favou?rite|loves?|hates?|prefer|allergic|live|lived|job|"
    # "I work at a bakery" is a job; "catching up on some work for school" is a day's chore
    r"(?<!\bsome )(?<!\bthe )(?<!\bon )(?<!\bof )(?<!\bmore )(?<!\bany )works? (?:at|as|for|in)|weekends|"
    r"started|moved|decided|learn(?:ed|ing|t)?|in general|generally|lately|these days|nowadays|everyday|tradition|habit|(?:first|last) day|"
    r"next (?:week|month|year|season|semester|summer|spring|fall|autumn|winter))\b",  # "getting ready for a dance comp next month": a plan
    re.IGNORECASE,
)
OF_THE_MOMENT = "what the speaker is doing as they type, true for a moment (the transcript keeps it), not a lasting fact"
# An ordinary day told in a chat: "Today I hit the gym for a chest workout", "I had 9 hours of
# lessons today", "I called out of work today", "I'm about to take a shower". It tells
# of the speaker's day (``THE_DAY``) and its doings are routine (``ROUTINE``: meals, the gym,
# chores, school, work, rest, a screen), with nothing named and nothing ``LASTING``. A day with
# something of its own stays: "Today I went to Art Basel", "I went to a pottery workshop today",
# "I started going to the gym today".
THE_DAY = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|all day|(?:the rest of )?(?:the|my) day|later (?:on|in the (?:day|evening))"
    r"|about to|getting ready|just (?:finished|got (?:back|done)|came))\b",
    re.IGNORECASE,
)
ROUTINE = re.compile(
    r"\b(?:gym|work(?:ing)? ?out|workouts?|breakfast|brunch|lunch|dinner|coffee|snacks?|shower|nap|sleep|errands|chores|laundry|"
    r"groceries|grocery|study(?:ing)?|studied|homework|school ?work|school|lessons?|class(?:es)?|exams?|work|shift|home|"
    r"tv|movies?|cinema|series|hang(?:ing)? out|hung out|catch(?:ing)? up|chat(?:ting)?|sleepover)\b",
    re.IGNORECASE,
)
ORDINARY_DAY = "an ordinary day's doings (routine, nothing named), true for a day (the transcript keeps it), not a lasting fact"
# "Thanks! I'll definitely keep pursuing my passion for writing", "I'm gonna keep pushing and never give
# up", "I'll stay positive": a chat speaker's pledge to keep at it, said back to the other's
# encouragement; what they keep at was their news, told in its own words. A habit with its
# rhythm stays ("I'll keep volunteering at the shelter every Saturday": ``LASTING``).
KEEPING_AT_IT = (
    r"(?:(?:keep|continue)\s+(?:on\s+)?(?:\w+ing\b|at it|it up|up the (?:good )?work)|"
    r"(?:stay|remain)\s+(?:positive|optimistic|strong|motivated|focused|hopeful|determined|on track)|"
    r"never (?:give up|stop)|not give up|(?:do|try) my (?:best|hardest))"
)
PLEDGE = re.compile(
    r"^(?:\w+[,!]?\s+)?(?:i'?ll|i will|i'?m (?:gonna|going to)|im gonna|i am going to)\s+(?:(?:definitely|totally|certainly|surely|really|just|always|def)\s+)?"
    rf"{KEEPING_AT_IT}(?:[^,.!?]*?(?:,\s*|\s+)and\s+{KEEPING_AT_IT})*",
    re.IGNORECASE,
)
PLEDGED = "a pledge to keep at it, said back to the other person, no new fact"
# "Hopefully I don't stay sick for too long", "I hope that the team will have a great season",
# "I really hope not, …", "Hoping my screenplay gets noticed": how the speaker hopes things turn
# out, no fact. "I hope to adopt a child one day" is a plan of theirs, and one that names
# something ("I hope our bakery on Main Street opens in March") tells of it: both stay.
HOPE = re.compile(r"^(?:\w+[,!]\s*)?(?:hopefully\b|hoping\b(?!\s+to\b)|(?:i|we)\s+(?:really\s+|just\s+|do\s+|truly\s+|sure\s+)?hope\b(?!\s+to\b))", re.IGNORECASE)
HOPED = "a hope of how things turn out, no fact"
# "I haven't played any horror games myself", "I havent been over to my friends house in a while":
# what the speaker has not done, no event and no fact about them. A contrast or a reason says
# more ("I haven't been to Italy yet, but it's on my bucket list"), and so does a counted span,
# which makes the absence a habit ("I haven't eaten meat in ten years", "… since 2019").
ABSENCE = re.compile(
    r"^(?:(?:no|nope|nah|honestly|actually|as for me)[,!]?\s+)?(?:i|we)\s+(?:(?:really|actually|just|personally)\s+)?"
    r"(?:haven'?t|havent|have not|hadn'?t|had not)\s+(?:(?:ever|yet|really|actually|even|personally)\s+)?"
    r"(?:been|had|done|seen|gone|heard|read|won|met|made|tried|played|watched|visited|[a-z]{3,}ed)\b"
    r"(?![^.!?]*\b(?:but|though|although|because|since|except|(?:in|for) (?:\d+|two|three|four|five|six|seven|eight|nine|ten|many|several) \w+))",
    re.IGNORECASE,
)
ABSENT = "what the speaker has not done, no event and no fact about them"
# "Project: rivet — a file sync tool in Rust", "millrace is the data pipeline for Pedala", "This is
# quayside, the berth-planning API for …", "Fresh start on ledgerline, our billing API — …": the
# owner says what the project is. The sentences after it in the turn ("Cargo workspace with …",
# "Go 1.23, chi for routing, …") describe it, the project their unsaid subject.
PRODUCT = (
    r"(?:app|application|api|service|dashboard|tool|library|cli|site|website|backend|frontend|monorepo|repo|repository|project|"
    r"server|daemon|bot|pipeline|platform|system|sdk|plugin|extension|engine|game|codebase|crate|package|framework)s?"
)
INTRODUCTION = re.compile(
    r"^(?:project|repo|codebase)\s*:\s*`?[\w.-]+`?\s*(?:[—–-]|,|is\b)\s*(?:a|an|the|our|my)\b"
    r"|^(?:this is|meet|welcome to|(?:a )?(?:fresh|new) start on|(?:we'?re |i'?m )?(?:starting|working) on)\s+`?[\w.-]+`?,\s+"
    rf"(?:our|the|a|an|my)\s+(?:[\w-]+\s+){{0,4}}?{PRODUCT}\b"
    rf"|^`?[\w.-]+`? is (?:our|the|a|an|my) (?:[\w-]+ ){{0,4}}?{PRODUCT}\b",
    re.IGNORECASE,
)
CONDITION = frozenset(("if", "when", "whenever", "unless", "before", "after", "otherwise", "because", "since", "instead", "until", "avoid"))


def plain_typing(text: str) -> str:
    """``text`` with typographic apostrophes as typed on a keyboard ("Here’s" is "Here's") and
    the apostrophes chat leaves out put back ("Thats" is "That's", ``BARE_CONTRACTIONS``), so the
    rules' patterns hold for text from phones and chat apps. For judging only: a line keeps the
    speaker's own typing."""
    return BARE_CONTRACTION.sub(_with_apostrophe, text.translate(QUOTES))


def judged(text: str) -> str:
    """What ``text`` says as every rule judges it: its speech (``speech``: no scaffolding, no
    attribution, no resolved date: ``RESOLVED``), typed with care (``plain_typing``)."""
    return plain_typing(RESOLVED.sub("", speech(text)))


def _with_apostrophe(m: re.Match[str]) -> str:
    typed = m[0]
    full = "it's" if m["its"] else "I'd" if m["id"] else BARE_CONTRACTIONS[typed.casefold()]
    return full[0].upper() + full[1:] if typed[0].isupper() else full


def answer_talk(said: str, *, item: bool, offered: bool = False) -> str | None:
    """Why a sentence of the assistant's answer is the answer's own structure rather than a fact
    (``None``: it may be one). The owner's facts are the owner's to state; an answer's outline or
    plan steps (list items, bold-labelled lines) and its announcements are how it is laid out; in
    an answer that ``offered`` to do something (``OFFER``: "Want that too?"), what would or could
    be done is the offer's proposal, which the owner has not taken up."""
    if offered and PROPOSED.search(said):
        return PROPOSAL
    if OFFER.match(said):
        return OFFERED
    if item or STEP.match(said):
        return "a step of the assistant's formatted plan or outline, not a fact"
    if ANNOUNCEMENT.search(said):
        return OFFERED
    advice = ADVICE.search(said)
    if SUGGESTION.match(said) or (advice and not reports_problem(advice["goal"] or said)):
        return "the assistant's suggestion for the work at hand, not a fact"
    return "the assistant's instruction for the work at hand, not a fact" if _instruction(words(said)) else None


def request_talk(said: str, *, item: bool = False) -> str | None:
    """Why a sentence of the owner's turn to their agent is a task rather than a fact ("Bump the
    build number to 1.6.0+58 for me", "Put it in the Makefile"): an unconditional instruction
    about a particular thing is the work at hand, also after a label naming it ("Meanwhile, the
    Python bit that works out trip distance: write it with pandas, please"), any instruction or
    requirement after a label naming a piece of work ("New feature: text members before …",
    "Task: `rivet status` should ask the daemon …"), a particular
    thing after a verb for a label ("Commit: the mailer change first, …"), and something the
    owner wants built or changed (``WANTS``: "I want the kiosk to ask for a waiver …"), and a
    hedged suggestion for it (``SUGGESTION``: "Maybe we can prioritize the critical features"), and
    the owner asking for help (``HELP``: "I'm not sure how to proceed", "I want to make sure …"),
    an ``item`` of a schedule laid out by its days (``SCHEDULE_ROW``: "- **Nov 16 - Dec 15, 2023:**
    Implement user authentication", "- Week 2: …"). One about
    things in general ("Import CTEs at the top") may be a convention and stays, as does a
    procedure with its condition; a directive ``directive_grammar`` knows goes to ``USER.md`` on its own."""
    if item and SCHEDULE_ROW.match(said):
        return SCHEDULED
    labelled = _label(said)
    if labelled is not None:
        label, rest = labelled
        tokens = words(rest)
        if (
            _particular_instruction(tokens, LABELLED)
            or (WORK_LABEL.match(label) is not None and (_imperative(tokens) or REQUIRED.search(rest) is not None))
            or (label.casefold() in IMPERATIVE and tokens[:1] != [] and tokens[0] in PARTICULAR and not AFTER_A_NOUN & set(tokens))
        ):
            return TASK
    if WANTS.match(said) or STILL_TO_DO.search(said) or SUGGESTION.match(said):
        return TASK
    if HELP.match(said):
        return HELP_WANTED
    return TASK if _particular_instruction(words(said), PARTICULAR) else None


def _label(said: str) -> tuple[str, str] | None:
    """The label opening ``said`` before a colon or a dash, and what follows it (None: none)."""
    match = LABEL_END.search(said)
    if match is None or len(said[: match.start()].split()) > MAX_LABEL_WORDS:
        return None
    return said[: match.start()], said[match.end() :]


def _particular_instruction(tokens: list[str], particular: frozenset[str]) -> bool:
    """An instruction about a particular thing ("Put it in the Makefile"), also after a first verb
    and "and" ("Pull and check it all still builds", "Go ahead and bump the version")."""
    if tokens[:3] == ["go", "ahead", "and"]:
        tokens = tokens[3:]
    elif tokens[1:2] == ["and"] and tokens[:1] and tokens[0] in IMPERATIVE:
        tokens = tokens[2:]
    return len(tokens) > 1 and tokens[1] in particular and _instruction(tokens)


def _instruction(tokens: list[str]) -> bool:
    """An imperative without a condition: "Create the templates", not "If the build fails, run …"."""
    return _imperative(tokens) and not CONDITION & set(tokens)


def _imperative(tokens: list[str]) -> bool:
    """Opens on a verb ``IMPERATIVE`` knows, not on a noun ("Build broke on the pi", "Release
    notes live in docs/", "Change of plan: …")."""
    return bool(tokens) and tokens[0] in IMPERATIVE and not AFTER_A_NOUN & set(tokens[1:3])


def instruction(said: str) -> bool:
    """Whether a sentence opens as an instruction (``_imperative``): "Import CTEs at the top, …"."""
    return _imperative(words(plain_typing(said)))


def _generic(tokens: list[str]) -> bool:
    """A general remark: a bare noun as subject, an evaluation, in the present, about nobody in
    particular ("Pets sure do bring so much joy to us!", "Horses have such grace!")."""
    if not tokens or tokens[0] in STOPWORDS or tokens[0] in FIRST_PERSON | SECOND_PERSON or set(tokens) & (SINGULAR | SECOND_PERSON | PAST):
        return False
    topic = [w for w in tokens if w not in STOPWORDS and w not in PHATIC and w not in FEELINGS and w not in OPINION and w not in SLOGAN]
    return bool(OPINION & set(tokens)) and len(topic) <= 2


def _reaction(tokens: list[str], names: list[str]) -> bool:
    """Praise, agreement or sympathy pointing at the other's words, naming nothing beyond the addressee."""
    if len(names) > 1 or any(SPECIFIC.search(n) for n in names) or not any(w in EVALUATIVE or w in SYMPATHETIC for w in tokens):
        return False
    addressed = {n.casefold().strip(EDGE) for n in names}
    rest = [w for w in tokens if w not in INTERJECTIONS and w not in addressed]
    if OWN & set(rest):
        return False
    if rest[:2] == ["i", "love"] and rest[2:3] in (["how"], ["that"], ["it"], ["your"]):
        return True
    if rest[:1] == ["i"] and len(rest) == 4 and rest[2] == "the" and rest[3] in TAKEN_UP_IDEA:
        return True
    return bool(rest) and rest[0] in POINTERS


def _remark(said: str, tokens: list[str], names: list[str]) -> str | None:
    """Why a sentence is talk aimed at the listener rather than a fact about anyone (module doc)."""
    if LIST_OPENER.match(said):
        return "announces what follows, says nothing itself"
    if EPITHET.match(said):
        return "an opinion about nobody in particular, no fact"
    if COURTESY.match(said):
        return "thanks, sympathy or an offer to the other person, no information"
    if CHECKING_IN.match(said):
        return "a greeting or sign-off, no information"
    if REQUEST.match(said):
        return "a request to the other person (a standing one goes to USER.md), not a fact"
    if ABOUT_YOUR_NEWS.match(said):
        return "a remark about the person addressed, no fact"
    if (WISH.match(said) and not OWN & set(tokens)) or SHARED_WISH.match(said):
        return "a wish or greeting for the other person, no information"
    if WELL_BEING.match(said) and len([w for w in tokens if w not in STOPWORDS and w not in PHATIC and w not in SMALL_TALK]) <= 1:
        return "small talk about how the speaker is, no information"
    if (SHOWN.search(said) and not any(SPECIFIC.search(n) for n in names)) or FOLLOWING.search(said):
        return "points at something shown in the conversation (the picture is not in memory)"
    if ON_YOUR_NEWS.match(said) and (EVALUATIVE | FEELINGS) & set(tokens):
        return "a remark about the person addressed, no fact"
    own = FIRST_PERSON & set(tokens)
    addressed = {m["name"] for m in (VOCATIVE.match(said), TRAILING_VOCATIVE.search(said)) if m}
    named = [n for n in names if n.strip(EDGE) not in addressed]
    vague = VAGUE | {a.casefold() for a in addressed}  # what says nothing about what happened, the listener's name included
    if not own and not named:
        if SECOND_PERSON & set(tokens):
            return "a remark about the person addressed, no fact"
        if OPINION & set(tokens) and (COPULA.search(said) or len(tokens) <= 4):
            return "an opinion about nobody in particular, no fact"
    topic = [w for w in tokens if w not in STOPWORDS and w not in PHATIC and w not in FEELINGS and w not in OPINION]
    if own and not names and len(topic) <= 1 and FEELINGS & set(tokens):
        return "a passing feeling, no fact it is about"
    if not named and all(w in vague for w in topic):
        return "says that something happened, not what"
    if not named and not SINGULAR & set(tokens) and all(w in SLOGAN or w in STOPWORDS or w in OPINION or w in FEELINGS for w in tokens):
        return "a slogan or general sentiment, no fact about anyone"
    if not named and not SINGULAR & set(tokens) and EXHORTATION.match(said) and RALLYING.search(said):
        return "rallying the listener, no fact about anyone"
    if not named and _generic(tokens):
        return GENERAL_REMARK
    return None


def of_the_moment(said: str) -> str | None:
    """Why a chat sentence tells only what its speaker is doing as they type (``AT_THIS_MOMENT``,
    nothing ``LASTING``); ``None`` when it is not."""
    said = plain_typing(said)
    return OF_THE_MOMENT if AT_THIS_MOMENT.search(said) and not LASTING.search(said) else None


def ordinary_day(said: str) -> str | None:
    """Why a chat sentence tells only of an ordinary day (``THE_DAY``, ``ROUTINE``, no name but a
    count, nothing ``LASTING``); ``None`` when it tells more."""
    said = plain_typing(said)
    named = [token for token in _specific(said) if not token.strip(EDGE).isdigit()]
    if named or LASTING.search(said) or not (THE_DAY.search(said) and ROUTINE.search(said)):
        return None
    return ORDINARY_DAY


def pledge(said: str) -> str | None:
    """Why a chat sentence only pledges to keep at something (``PLEDGE``, nothing ``LASTING``);
    ``None`` when it does more."""
    m = PLEDGE.match(plain_typing(said))
    return PLEDGED if m and not LASTING.search(said, m.end()) else None


def hoped(said: str) -> str | None:
    """Why a chat sentence only hopes (``HOPE``, naming nothing: ``_specific``); ``None`` when it
    says more than a hope."""
    said = plain_typing(said)
    return HOPED if HOPE.match(said) and not _specific(said) else None


def absence(said: str) -> str | None:
    """Why a chat sentence tells only what its speaker has not done (``ABSENCE``); ``None`` when
    it tells more."""
    return ABSENT if ABSENCE.match(plain_typing(said)) else None


def introduces(said: str) -> bool:
    """Whether one of the sentences of ``said`` introduces the project the owner works on (``INTRODUCTION``)."""
    return any(INTRODUCTION.match(sentence) for sentence in sentences(plain_typing(said)))


def social(text: str) -> str | None:
    """Why ``text`` is talk between the speakers (greeting, thanks, reaction, remark, mood, news
    without content) rather than information; ``None`` when it is not. Judged on the sentence
    alone, so a leaning sentence ("It was so cool.") can be dropped instead of joining a claim."""
    return _talk(judged(text))


def _talk(said: str) -> str | None:
    """``social`` on what was said (``speech`` and ``plain_typing`` already applied)."""
    tokens = [w for w in words(said) if w not in CONTRACTIONS]
    leftover = [w for w in tokens if w not in STOPWORDS and w not in PHATIC]
    names = _specific(said)
    vocative = VOCATIVE.match(said)
    if vocative and vocative["name"].casefold() not in PHATIC | INTERJECTIONS and vocative["name"] not in names:
        names = [vocative["name"], *names]
    if any(w in PHATIC for w in tokens) and len(leftover) <= 1 and len(names) == len(leftover):
        kind = "a greeting or sign-off" if any(w in GREETINGS for w in tokens) else "an acknowledgement"
        return f"{kind}, no information"
    if tokens and tokens[0] in ACK_OPENERS and len(leftover) <= 2 and not any(SPECIFIC.search(n) for n in names):
        return "an acknowledgement, no information"
    if _reaction(tokens, names):
        return "a reaction to what the other person shared, no information"
    return _remark(said, tokens, names)


def reason(text: str, vocabulary: Vocabulary | None = None) -> str | None:
    """Why ``text`` carries no information worth keeping; ``None`` when it does."""
    said = judged(text)
    talk = _talk(said)
    if talk:
        return talk
    if STATUS.search(said) and not RESOLUTION.search(said):
        return "a status report of the moment, not a durable fact"
    if COMPLAINT.search(said) and not RESOLUTION.search(said):
        return "a complaint without a resolution (no fix, cause or condition)"
    if vocabulary is None or not vocabulary.judged or _specific(said):
        return None
    topic = content_words(said) - PHATIC
    if all(vocabulary.common(w) for w in topic):
        return f"names nothing specific and its words are common here (each in over {vocabulary.common_share:.0%} of entries)"
    return None
