"""Evidence that stands on its own: who said it, and when "last week" was.

A transcript sentence read months later in ``MEMORY.md`` must not depend on the conversation
around it. Two deterministic rewrites, applied when light stages a unit (and by audit, which
reads evidence the same way), so the staged text is the evidence grounding compares against:

- **Attribution.** In a conversation between named people (a ``speaker`` in the transcript)
  every sentence is somebody's account, so it is prefixed ``"Caroline said: …"``. In a plain
  user/assistant session only a sentence in the first person singular needs it (``"The user
  said: I prefer tabs."``): an assistant's directive ("If the build fails, run make clean") or a
  "we" of the owner's team ("We use Postgres 16 everywhere.", the way MEMORY.md is written by
  hand) already reads right for the agent, and a prefix would stop it merging with the
  hand-written line that says the same.
- **Relative dates** are resolved against the day the sentence was observed: "yesterday
  (2023-05-07)", "last week (the week of 2023-05-01)", "last month (April 2023)". A table of
  phrases, not ``dateparser``: that is a large dependency that parses whole strings, not
  phrases inside sentences, and its results move with locale settings. A vague count ("a few
  weeks ago", "several years ago") is anchored, not guessed, to the month (the year, for years)
  it was said in: "a few weeks ago (as of May 2023)", so the same account said on several days
  stays one wording. So are "recently", "lately" and the recent past of "just" ("I just (as of
  December 2023) found a stray cat"; "I just use Oribe" and "I just wanted to say" tell of no
  event), unless their sentence dates itself ("I just joined … last Tues (2023-07-18)"). A
  season is named ("last summer (summer 2022)": the last one that has ended; "this winter": the
  one under way, else the coming one), and a bare weekday ("on Friday") is the one just gone,
  or the coming one when its sentence speaks of what is to come ("I'm going on Saturday").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping

from clawmem.dream import credentials, scaffolding, store, worth
from clawmem.dream.directive_grammar import directives_in, states_directive
from clawmem.dream.paraphrase import NUMBER_WORDS, specific
from clawmem.dream.text import COUNTED, MONTHS, STOPWORDS, WORD, Piece, content_words, pieces, speaker_label, words
from clawmem.entries import scaffold
from clawmem.foundation.records import dataclass, replace
from clawmem.transcripts.model import host_speaker

ROLES = frozenset(("user", "assistant", "system", "tool", "developer", "function"))
YES = r"(?:yes|yeah|yep|yup|nope)"  # an answer to the other speaker's question
# A sentence opening on one of these leans on what came before it ("They are called Rex and
# Max.", "That is the same workaround as before.", "And it finally worked."): it joins the claim
# before it in the same turn, or is dropped when the turn has none.
DEPENDENT = re.compile(
    r"^(?:(?:thankfully|luckily|fortunately|unfortunately|sadly|honestly|actually|especially|hopefully|really|like)[,!]?\s+)?"
    # "This week has been swamped", "This morning I ran 5k": a time counted from the day it was said leans on nothing
    r"(?!this (?:week|weekend|morning|afternoon|evening|month|year|summer|winter|spring|fall|autumn|semester|season)\b)"
    r"(?:he|she|they|them|it|it's|its|this|that|that's|these|those|his|her|hers|their|theirs|him|which|whose|"
    r"and|but|or|nor|so|then|too|plus|though|although|because|anyway|still|yet|besides|otherwise|instead|thus|hence|however|"
    # "Even made a tattoo to remind myself about it": "even" adds to what was said before ("even if …" opens a clause)
    r"even(?!\s+(?:though|if|when|whenever|while|after|before|with|without|as|during|so)\b)|"
    rf"therefore|same|both|either|neither|such|{YES}|the same|the other|one of them|as well|another|if not|if so|"
    r"especially (?:since|because|when|if|with|after)"
    # "In the meantime, …", "After that, …": a discourse opener continues what was said before
    r"|in the meantime|meanwhile|after that|since then|by then|at that point|afterwards|later on|on top of that|apart from that|"
    r"other than that|speaking of which|that said|even so|in that case|as a result|because of (?:that|this)|for that reason"
    # "I bet they bring lots of joy", "I'm sure it helps": a hedge before a pronoun from earlier
    r"|(?:i bet|i'?m sure|i think|i guess|i hope|i wish|i know|i love how|i'?m glad)\s+(?:he|she|they|it|that|this|these|those)(?:'s|'re)?"
    # "I do and I hate that …", "We did, twice": the answer to the other speaker's yes-or-no question
    r"|(?:i|we)\s+(?:do|did|have|had|am|was|will|would|can|could)(?:n't| not)?(?=\s*(?:[,.!;]|$)|\s+(?:and|but|too|though|as well|also)\b)"
    # "I really hope not, I hate being sick", "I don't think so": "so" and "not" stand for what the other said
    r"|(?:(?:i|we)\s+(?:really\s+|sure\s+|(?:do|did)(?:n'?t| not)\s+)?(?:hope|think|guess|believe|suppose|doubt|expect)|i'?m afraid|i am afraid)\s+(?:so|not)"
    r"(?=\s*(?:[,.!;]|$)|\s+(?:and|but|though|because|too)\b)"
    # "My summer however, will start in Hawaii": a contrast with what was said before
    r"|(?:[\w']+\s+){1,2}however)\b",
    re.IGNORECASE,
)


def _opener(word: str) -> re.Pattern[str]:
    """Up to two of ``word`` opening a sentence, each with its punctuation (read on
    ``worth.plain_typing``'s text, where "im" is "I'm")."""
    return re.compile(rf"^(?:{word}[,!.]*\s+){{1,2}}", re.IGNORECASE)


# What opens a reply before its sentence proper: an interjection or a form of address ("Bro same
# because …", "Oh, those are …", "Lol same"). A sentence leans or not by what follows it.
INTERJECTION = r"(?:o+h+|a+h+|aha|hmm+|bro|dude|man|lol|lmao|(?:ha)+|omg|wow|aw+|ok|okay|well|right)"
REPLY_OPENER = _opener(INTERJECTION)
# In a chat between people, a "yes" before the speaker's own account opens it too: "Yeah, I play
# clarinet!" answers a friend's question about their life. A "yes" before anything else ("Yeah,
# it was great", "Yep, Gina, thanks") answers the other person and leans (``DEPENDENT``), as does
# the owner's "Yeah, I rebooted for the Go upgrade" to an agent's finding.
CHAT_REPLY_OPENER = _opener(rf"(?:{INTERJECTION}|{YES}(?=[,!.]*\s+(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b))")
# "They're switching off the SFTP. The exports land in an S3 bucket instead.": a bare "instead" (no "of")
# names the other half of a change said just before it, so the sentence joins the claim before it
# when there is one (alone it stays a claim: what it replaces may be in another turn).
INSTEAD = re.compile(r"\binstead\b(?!\s+of\b)", re.IGNORECASE)
# "I chose them because …", "the kids loved it", "never had a chance to visit it", "sometimes I
# even use it": the object is a pronoun whose noun was said earlier (no noun phrase of its own
# before it: the words up to the pronoun hold no determiner or possessive).
OBJECT_PRONOUN = re.compile(
    r"^(?:(?:sometimes|never|also|just|really|finally|even|actually|still|then|now|recently|totally|definitely|always|ever)\s+)*"
    r"(?:(?:i|we|you|they|the kids|my kids|everyone|everybody)(?:'ve|'d|'m|'re)?\s+)?"
    r"(?:(?!(?:the|a|an|my|our|your|his|her|their|this|that|some|any|no|every|each)\b)[\w']+\s+){0,4}?"
    r"(?:them|it|those|these|him|her)\b(?!\s*(?:is|was|are|were|'s|will|would)\b)",
    re.IGNORECASE,
)
# "… make it a rule: all money …": up to three words after the pronoun, then a colon and what it stands for
SPELLED_OUT = re.compile(r"(?:\s+[\w'-]+){0,3}\s*:\s*\S+(?:\s+\S+){2}")
# "Two weekends later", "a couple days earlier", "the next day": a time counted from an event said earlier, which the line
# does not hold; the sentence leans on the one before it like a pronoun does
EVENT_TIME = re.compile(
    r"\b(?:(?:\d+|a|an|one|two|three|four|five|six|a few|a couple of|couple of|several)\s+)?(?:days?|nights?|weeks?|weekends?|months?|years?)\s+(?:later|earlier)\b|"
    r"\bthe (?:next|following|previous) (?:day|night|morning|week|weekend|month|year)\b|\blater that (?:day|night|week|evening)\b|"
    r"\b(?:on|by|at|since|from) that (?:day|night|morning|week|weekend|time)\b",
    re.IGNORECASE,
)
# Words that point back into the chat at something the line does not hold: "that pic", "that
# roadtrip", "the accident", "the book you recommended". When the noun was said earlier in the same
# turn the line holds it; otherwise the sentence is dropped.
DEMONSTRATIVE = re.compile(
    r"(?:^|[,;:–—]\s*|\s-\s|\b(?:of|in|at|on|from|with|about|for|to|by|after|before|during|like|into|through|since|over|remember|miss|loved?|enjoyed)\s+)"
    r"(?:that|those)\s+(?P<noun>[a-z][\w'-]*)(?!\s+(?:where|when|who|which|that)\b)",
    re.IGNORECASE,
)
NOT_REFERENTS = frozenset(
    """
    much many way kind sort one ones who which is was are were will would can could should has had must might may does did do
    sounds sound looks look seems seem makes made really so too just all day days night week weekend month year time times
    """.split()  # noqa: SIM905
)
EVENT_NOUN = re.compile(
    r"\bthe\s+(?:(?:whole|same|official|big|grand|first|final)\s+)?(?P<noun>accident|incident|news|situation|setback|mishap|scare|emergency|"
    r"surgery|diagnosis|breakup|fight|argument|ordeal|trip|roadtrip|event|party|concert|performance|interview|pic|pics|picture|photo|"
    r"photos|video|opening|launch|premiere|debut|recital|ceremony|show|competition|tournament|test|exam|quiz|"
    # "how the book was actually that sad", "switched lives with the celebrity": what the chat was about
    r"book|movie|film|song|episode|series|podcast|album|novel|article|celebrity|question|topic|"
    # "she saw the girl touching my arm": a person the line has not introduced
    r"girl|guy|lady|dude|man|woman|boy"
    # "The fix doesn't need dev anyway": the work at hand, unless the line says which ("the fix for …")
    # or what it is ("the problem was a stale lockfile", "the fix: …")
    r"|(?:fix|workaround|bug|problem|issue|error|failure|crash|outage|regression)"
    r"(?!\s*(?::|\s(?:for|of|in|on|with|behind|where|when|that|which|is|was|turned out|came down)\b)))\b",
    re.IGNORECASE,
)
# "As for the lounge, I'm looking forward to …", "As for your question, …": the speaker takes up what
# the other person raised, which the line does not hold
TAKEN_UP = re.compile(r"^(?:\w+[,!]\s*)?as for (?:the|that|this|those|these|your)\s+(?:[\w'-]+\s+){0,2}?(?P<noun>(?-i:[a-z])[\w'-]*)\s*[,:]", re.IGNORECASE)
# "4. Language Basics: If the destination has a different language, I try to learn a few phrases":
# in a chat, the heading of a list item whose sentence says it all with its own subject
ITEM_HEADING = re.compile(
    r"^[A-Z][\w'&/-]*(?:\s+(?:[A-Z][\w'&/-]*|and|&|of|the|for|to))*\s*:\s+(?=(?i:i|i'm|i've|we|my|our|if|when|whenever|before|after)\b)"
)
ACRONYM = re.compile(r"[A-Z]{2,5}s?")  # "PR", "CI", "APIs": a kind of thing, not one
# "The column thing is my fault", "the book thing": a name for something talked about before, not
# "the best thing", "the only thing", "the same thing" (what a superlative or a determiner picks out)
NAMED_THING = re.compile(
    r"\bthe\s+(?!(?:only|same|first|last|next|main|other|one|new|old|right|wrong|real|good|bad|big|little|best|worst|"
    r"funny|weird|important|nice|cool|great|hard|easy|single|very)\b)(?P<noun>[a-z][\w'-]*?)(?<!est)\s+thing\b",
    re.IGNORECASE,
)
LISTENER_REFERENCE = re.compile(
    r"\b(?:the|that|this|those|these)\s+(?:[\w'-]+\s+){1,3}?(?:that\s+)?you(?:'ve| have)?\s+"
    r"(?:recommended|mentioned|suggested|told|showed|sent|shared|gave|talked|said|lent|brought|made)\b",
    re.IGNORECASE,
)
# "After a couple of friends mentioned him.": he, him, his, she, her need someone said before them
# in the turn (a name, or a person: "my brother", "a guy"); a pronoun with nobody to stand for
# points at the other speaker's words
PERSONAL = re.compile(r"\b(?:he|him|his|she|her|hers|himself|herself)\b", re.IGNORECASE)
PERSON_NOUNS = frozenset(
    """
    brother sister dad mom mum father mother son daughter husband wife boyfriend girlfriend fiance fiancee friend bestie boss
    coworker colleague guy man woman boy girl teacher doctor partner kid baby neighbor neighbour uncle aunt cousin grandma
    grandpa grandmother grandfather nephew niece stepdad stepmom roommate date ex manager mentor coach student client
    customer dog cat puppy kitten horse pet
    """.split()  # noqa: SIM905
)
# "Yess they gave me moon!!", "I don't know if they allow pets": they, them, their need a group
# said before them in the turn (a plural, a name, a person, "my friends and I") or one of these
GROUP = re.compile(r"\b(?:they|them|their|theirs|themselves)\b", re.IGNORECASE)
COLLECTIVE_NOUNS = frozenset(
    """
    family team company firm staff crew band group class school college university store shop restaurant bakery cafe club
    church hospital clinic shelter office government police army crowd audience couple everyone everybody people
    """.split()  # noqa: SIM905
)
# an opening word that is not a name: a day, an adverb or an interjection ("Nah she said …")
NOT_A_NAME = worth.INTERJECTIONS | frozenset(
    ("yesterday", "today", "tonight", "tomorrow", "honestly", "actually", "well", "luckily", "sadly", "nah", "no", "yep", "ok", "okay", "lol", "hmm", "um", "uh")
)
NAME = re.compile(r"(?<=[\w,;:'’\"])\s+[A-Z][a-z][\w'’-]*")  # a capitalised word inside a sentence
# "I’m gonna try this the next time I'm in New York", "I have never been.": an object or a place
# left to the other speaker's words ("this" before no noun; "been" with nowhere after it)
BARE_THIS = re.compile(
    r"\bthis\b(?=\s*(?:[.,!?;:]|$)|\s+(?:the|a|an|next|someday|soon|too|again|later|sometime|tomorrow|when|if|as well|out"
    # "I had this custom made", "I got this because …", "I did get this yesterday": this as the object, a thing shown
    r"|because|yesterday|today|custom|made|and|since|while)\b)"
    # "moments like these", "something like that": the ones the chat was about
    r"|\blike (?:these|those)\b|\b(?:something|anything|one|stuff) like (?:that|this)\b"
    # "I thought this was really awesome": an opinion of what the chat showed
    r"|\b(?:thought|think|guess|bet|knew|felt)\s+(?:this|that)\s+(?:was|is|would|will)\b",
    re.IGNORECASE,
)
# "I took that pic near Fort Wayne", "wanting to play this one for a while": what was shown or
# named in the chat, not in the line
SHOWN_BACK = re.compile(
    r"\b(?:this|that|these|those) (?:pic|pics|picture|pictures|photo|photos|shot|video|snap)\b|\b(?:this|that) one\b(?! of\b)"
    r"|\b(?:it'?s|that'?s|they'?re|(?:it|that) is|(?:they|these) are) (?:all )?in there\b",  # "… the tests, it's all in there"
    re.IGNORECASE,
)
BARE_BEEN = re.compile(
    r"\b(?:have|has|had|haven't|hasn't|hadn't|i've|we've)\s+(?:(?:never|not|actually|ever|also|already|yet|just)\s+)*been\b"
    r"(?=\s*(?:[.,!?;]|$)|\s+(?:there|before|yet|either|too|but|and|so|you|i)\b)",
    re.IGNORECASE,
)
# "I could have but I chose a cereal bowl instead", "I was going to but I needed a break", "I'd
# love to!", "I stopped going after I started my training": a verb left to the other speaker's
# question, or going nowhere the line says
BARE_VERB = re.compile(
    r"\b(?:(?:could|would|should|might|must|may)(?:n't| not)?\s+have|(?:going|gonna|wanted|want|had|have|needed|need|tried|trying|love|like|hope|hoping|planned|planning)\s+to)"
    r"(?=\s*(?:[.,!?;]|$)|\s+(?:too|either|but|and|so|though|anyway)\b)"
    r"|\b(?:stopped|quit|started|stop|start)\s+going(?=\s*(?:[.,!?;]|$)|\s+(?:after|when|because|since|once|again|but|and|so|though|anyway)\b)",
    re.IGNORECASE,
)
# "I haven't read that yet", "I've never tried that before": that as a verb's object is what the
# other speaker named (after "know", "think" or "said" it opens a clause, so those verbs are not here)
BARE_THAT = re.compile(
    r"\b(?:read|seen|saw|watched|tried|played|heard of|visited|finished|listened to|eaten|tasted|bought|used)\s+that"
    r"(?=\s*(?:[.,!?;]|$)|\s+(?:yet|before|either|too|already|one|but|and|so|though)\b)",
    re.IGNORECASE,
)
# "If I could choose, I'd visit the Roaring Twenties", "That would be an incredible choice": the
# answer to the other speaker's what-if question, no fact about anyone
HYPOTHETICAL = re.compile(
    r"^(?:\w+[,!]\s*)?if i (?:could|had to|were to|got to|was able to)\s+(?:choose|pick|go|travel|live|meet|be|have|visit|switch)\b"
    r"|\bwould be (?:a|an|my)\s+(?:[\w'-]+\s+){0,2}(?:choice|pick|option|answer|idea)\b",
    re.IGNORECASE,
)
# "I love the message it sends", "I've watched a couple seasons of it": an "it" with nothing before
# it in its turn to stand for (the show or the book was the other speaker's); "the sound it makes"
# after "my new guitar" has one (``_bare_it``)
RELATIVE_IT = re.compile(r"\b(?:the|a|an)\s+(?:[\w'-]+\s+){0,2}?it\s+(?!is\b|was\b|has\b|had\b)[a-z]+(?:s|ed)\b", re.IGNORECASE)
PART_OF_IT = re.compile(
    r"\b(?:some|most|all|much|part|parts|half|a lot|a bit|(?:a couple|a few|\d+)(?: of)? (?:seasons?|episodes?|chapters?|pages?|songs?)|"
    r"(?:seasons?|episodes?|chapters?|pages?))\s+of it\b",
    re.IGNORECASE,
)
# what may come before such an "it" with nothing for it to stand for: a feeling, a way of taking something in
BEFORE_BARE_IT = frozenset(
    """
    love loved like liked enjoy enjoyed adore hate hated really also just definitely actually ive watched watch seen saw read
    played heard finished listened
    """.split()  # noqa: SIM905
)
# "The book is called Pachinko", "the movie titled Oppenheimer": the line names what it points at
NAMED_HERE = re.compile(r"\s+(?:(?:is|was)\s+)?(?:called|named|titled)\b", re.IGNORECASE)
# "I'd like to visit again", "I want to try it too" without the it: a verb whose object was the chat's
BARE_OBJECT = re.compile(r"\b(?:visit|see|watch|read|try|play|buy|get|order|make)\s+(?:again|too|sometime|someday|soon)\b", re.IGNORECASE)
# "Thankfully, my son's ok", "Luckily everyone was fine": relief after what happened, which the
# line does not say ("… fine after the crash in May" does)
RELIEF = re.compile(
    r"^(?:thankfully|luckily|fortunately|phew)\b[,!]?\s+(?:\w+\s+){0,3}?\w+(?:'s|'re|\s+(?:is|are|was|were|got out|came out|turned out))\s+"
    r"(?:(?:totally|completely|all|perfectly|doing|okay and|ok and)\s+)?(?:ok|okay|fine|alright|all right|safe|unharmed|unhurt|well)\b(?!\s+(?:enough|to|for)\b)"
    r"(?![^.!?]*\b(?:after|despite|from|following|when|during)\b)",
    re.IGNORECASE,
)
# "Somewhat similar to the last one", "I liked the other one better": one of several the turn has not named
THE_ONE = re.compile(r"\bthe (?:last|previous|other|first|second|same|new|old) one\b", re.IGNORECASE)
MAX_BEFORE_ONE = 2
# "I previously said that …", "as I mentioned": the speaker's own words earlier in the chat
SAID_BEFORE = re.compile(
    r"\b(?:i|you|we)\s+(?:previously|already|just|earlier)\s+(?:said|mentioned|told|asked)\b|\bas (?:i|you)\s+(?:said|mentioned|told)\b|"
    r"\b(?:i|you)\s+(?:said|mentioned)\s+(?:earlier|before)\b",
    re.IGNORECASE,
)
# "Well I hate staying at home drinking bubble tea then!!!": a closing "then" says "in that case",
# the case the other speaker put (not "back then", "before then", "since then": a time)
IN_THAT_CASE = re.compile(r"(?<!\bback)(?<!\bbefore)(?<!\bsince)(?<!\buntil)(?<!\btill)(?<!\bby)(?<!\bfrom)(?<!\bjust)\s+then\W*$", re.IGNORECASE)
# "the possibilities in both cities", "both options", "both of those books": the two things the
# chat named, unless the turn named them ("Paris and London", "two") or the noun is what comes in
# pairs ("both hands"; "both my parents" has no article and never matches)
BOTH = re.compile(r"\bboth\s+(?:of\s+)?(?:(?:the|these|those|our|your|their)\s+)?(?P<noun>[a-z][\w'-]*s)\b(?!\s+and\b)", re.IGNORECASE)
PAIRED = frozenset("hands arms legs feet ears eyes knees wrists ankles shoulders cheeks sides ends ways parents genders sexes twins".split())  # noqa: SIM905
POINTS_BACK = "not self-contained (points back at something said earlier in the conversation)"
INTRODUCES_A_RECORD = "introduces the code or output that follows it (the transcript keeps both), not a fact"
DIRECTIVE = "a directive about the user (dreaming writes it to USER.md)"
# "Always answer in British English. Colour, organise, licence, the lot.", "Keep golangci-lint clean.
# I shouldn't be finding out from the pipeline.", "We do CTEs, not nested subqueries. Import CTEs at
# the top, one final select.": what the owner says right after a directive spells it out or gives
# its reason; alone in MEMORY.md it means nothing. A sentence naming something of its own stays
# ("Our customers are UK councils", "We have a package-lock.json").
ABOUT_THE_DIRECTIVE = "said right after a directive, about it (USER.md keeps the rule, the transcript this)"
MAX_ASIDE_WORDS = 12
# a turn that opens on a topic ("Emails: we moved …", "Postgres upgrade: …"): what follows is about it;
# "New feature: …", "Bug: …" open a request of the moment instead
OPENS_ON_TOPIC = re.compile(
    r"^(?!(?i:(?:\w+ )?(?:feature|task|todo|bug|job|request|question|ticket|issue)s?):)[A-Z][\w'-]*(?: [\w'-]+){0,2}: \S"
    # "A decision for the sync protocol: we're switching to postcard. Every frame gets a version prefix."
    r"|^(?i:(?:a|an|one|our|the)\s+)?(?i:decision|change|update|plan|heads-up)\s+(?i:for|on|about|regarding)\s+[^:]{1,40}:\s\S"
)
# Refused on its own, but what the sentences after it lean on: "Flowers bring joy. They were
# part of my wedding decor." is judged again once joined
LEANED_ON = frozenset((scaffolding.TOO_SHORT, worth.GENERAL_REMARK))
MAX_CLAIM_CHARS = scaffolding.MAX_UNIT_CHARS
# A leaning sentence with at most this many content words that is only talk ("It was so cool.",
# "Check it out!") is dropped; a longer one says something about the claim before it ("It's been a
# dream to adopt and give kids a home.") and joins it, whatever its tone.
MAX_TALK_WORDS = 3
FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll|im|ive)\b|\bI['’]", re.IGNORECASE)
# In a conversation between named people a line keeps who said it, but not who they said it to:
# "You should definitely visit Houston", "Youve definitely heard of Conor McGregor" name a "you"
# the line cannot (typed without the apostrophe too)
ADDRESSEE = worth.SECOND_PERSON | frozenset(("youve", "youre", "youll", "youd", "yall"))
ADDRESSED = "not self-contained (says 'you': the person addressed is not named in the line)"
# "We love painting together lately", "We even went on another camping trip": a named speaker's "we"
# with nobody beside them in the line ("my husband and I", "the kids", "our family", a name)
US = frozenset(("we", "our", "ours", "us", "ourselves"))
CODE_LIKE = re.compile(r"[/_@`]|\w\.\w")  # "src/app.py", "v1.2", "fly.io": a work's own names
OWN_NAME_WORDS = frozenset(("name", "names", "called", "btw", "hi", "hey", "hello", "by", "way", "m"))  # "m": what is left of "I'm"
OWN_NAME = "says only the speaker's own name, which the line's attribution gives"
UNNAMED_WE = "not self-contained (says 'we': who the speaker is with is not named in the line)"
# A named speaker's sentence about no one (no first person, no name, no person, no number) is a
# remark about the world, not the speaker's account ("Greek cuisine is known for its dishes!",
# "Calculus can be quite challenging."). One that leans on the sentence before it is about what
# that sentence named ("It has three bedrooms.") unless it says what something "can be" or what
# it "is always" or "all about" ("It's always fun to spend time together on the court.").
# The person addressed by name ("Well, Liza, it's been …") is nobody the sentence is about.
GENERAL_TERMS = re.compile(r"\b(?:can|could|may|might) be\b|^(?:it|that|this)(?:'s| is) (?:always|all about)\b", re.IGNORECASE)
# "Oh, The Profector sounds interesting.", "Visiting the Louvre must have been incredible!": how
# the other's news strikes the speaker, who says nothing of their own
IMPRESSION = re.compile(r"\b(?:sounds?|looks?|seems?|must (?:have been|be))\b", re.IGNORECASE)
IMPRESSED = "an impression of what the other person said, no fact about the speaker"
# "I've truly enjoyed our chat.", "It's been a delightful conversation": the talk itself
ABOUT_THE_TALK = re.compile(
    r"\b(?:our|this|been a|such a)\s+(?:\w+\s+){0,2}?(?:chat|conversation|talk|discussion)s?\b"
    # "a lot of my talks on here have devolved to food": the chat, where it happens
    r"|\bon here\b",
    re.IGNORECASE,
)
THE_TALK = "about the conversation itself, no fact"
OWN_WORDS = worth.FIRST_PERSON | frozenset(("weve",))  # "we've" typed without its apostrophe
# "I feel like it's always better when friends are around", "I've been thinking about how human
# bodies are fragile", "I mean, if AI can store memories …": the speaker's first person frames an
# opinion, and what it frames says nothing of them ("I feel like I gravitate towards …" does)
OPINION_FRAME = re.compile(
    r"^(?:(?:honestly|tbh|idk|well|so|but|and)[,!]?\s+)?(?:i\s+(?:really\s+|kinda\s+|just\s+)?(?:feel like|feel that|think|thought|guess|believe|bet|reckon|mean|suppose)|"
    r"i'?ve been thinking(?: a lot)?(?: about)?|i(?:'?m| am)\s+(?:pretty\s+|fairly\s+)?sure|in my (?:opinion|view|experience)|imo|imho)\b[,:]?\s*(?:that\s+|how\s+)?",
    re.IGNORECASE,
)
# "Imagine we invent a machine that reads animals' minds", "What if the moon was cheese", "If it was
# a few thousand years ago I wouldn't know what to do", "Id be mad at my friend if I got sick
# because of them": no fact
IMAGINING = re.compile(
    r"^(?:(?:just|but|and|so)\s+)?(?:imagine|what if|hypothetically)\b"
    r"|^(?:(?:but|and|so)\s+)?if (?:it|i|we|you|they|he|she) (?:was|were|had)\b[^.!?]*\b(?:would|wouldn'?t|could|couldn'?t|i'?d)\b"
    r"|^(?:(?:but|and|so|honestly)\s+)?(?:i|we)(?:'d| would)(?: (?:probably|definitely|totally|honestly))? (?:be|feel|get)\b[^.!?]*\bif\b",
    re.IGNORECASE,
)
IMAGINED = "a hypothetical, no fact about anyone"
# "One additional tip I'd like to share is creating a travel playlist.", "My suggestion is spin a
# few times a week", "My advice: stay passionate", "White or brown rice is my recommendation": a
# tip offered to the person addressed, which tells what the listener might do, not the speaker
TIP = r"(?:tips?|advice|suggestions?|recommendations?|pieces? of advice)"
OFFERED = re.compile(
    rf"^(?:one|another|my|a|an|the|some)\s+(?:[\w']+\s+){{0,2}}?{TIP}(?:\s+(?:i|i'?d|i would|i have|i can|for|on|about)\b[^.!?:]*?)?\s*(?:is|are|would be|:)"
    rf"|\b(?:is|are|would be) (?:my|one|another) (?:\w+ )?{TIP}\W*$",
    re.IGNORECASE,
)
OFFERED_TIP = "a tip offered to the person addressed, no fact about the speaker"
# "Just finished Dune", "Joined a travel club last week": chat drops the "I" before a past verb
PAST_VERBS = (
    r"got|went|had|made|took|saw|bought|found|met|ran|began|won|lost|left|came|did|wrote|heard|felt|spent|gave|sold|built|caught|drove|"
    r"flew|ate|slept|woke|became"
)
DROPPED_I = re.compile(
    rf"^(?:(?:just|finally|recently|also|actually|already|then)\s+)*(?:[a-z]{{3,}}ed|{PAST_VERBS})\b(?!\s+(?:is|was|are|were)\b)",
    re.IGNORECASE,
)

NUMBER = r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|couple of|a few|few|several)"
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2,
}
VAGUE = frozenset(("a few", "few", "several"))  # counts nobody said: "a few weeks ago" is anchored, not computed
SATURDAY = 5  # date.weekday()
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SHORT_DAYS = {"tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday"}
RELATIVE = re.compile(
    r"\b(?P<phrase>the day before yesterday|yesterday|last night|today|tonight|this (?:morning|afternoon|evening)|tomorrow"
    rf"|(?P<which>last|this|next) (?P<unit>week|month|year)|{NUMBER} (?P<units>days?|weeks?|weekends?|months?|years?) ago"
    r"|(?P<weekend>(?:this past|past|last|this|next) weekend)"
    rf"|last (?P<weekday>{'|'.join(WEEKDAYS)}|{'|'.join(SHORT_DAYS)}))\b(?! \()",
    re.IGNORECASE,
)
# "recently", "lately", and "just" before a past ("I just found a cat", "she's just got back"):
# not "I just use Oribe" (no past), "I just wanted to say" (a hedge), "I'm just tired" (no event)
RECENT = re.compile(
    r"\b(?:recently|lately)\b(?! \()"
    r"|(?:\b(?:i|we|he|she|they|you)|['’]ve|['’]s|\bha(?:ve|s|d))\s+just(?! \()(?=\s+(?!(?:wanted|needed|thought|felt|meant|wished|hoped|liked|loved|used|tried)\b)"
    r"(?:got|came|went|found|made|had|saw|met|took|bought|won|lost|left|began|did|wrote|heard|gave|sold|built|caught|drove|flew|ate|spent|ran|[a-z]{2,}ed)\b)",
    re.IGNORECASE,
)
DATED = re.compile(r"\([^()]*\b\d{4}\b[^()]*\)")  # a time resolved in the sentence: "(2023-07-18)", "(June 2023)"
# "I went to visit some friends", "We laughed and cheered", "Started my healthy eating diet": an
# account of something the speaker did, in the simple past ("I used to" is a habit; "I need" no past)
PAST_ACCOUNT = re.compile(
    rf"\b(?:i|we)\s+(?:(?:just|also|finally|actually|really|even|then|first|once)\s+){{0,2}}"
    rf"(?:{PAST_VERBS}|was|were|(?!(?:used|need|feed|speed|proceed|exceed|succeed|bleed|breed|shed|wed|embed)\b)[a-z]{{2,}}ed)\b",
    re.IGNORECASE,
)
# "I've lived here since I was young", "We always went camping": a state or a habit, no one time to anchor
HABITUAL = re.compile(r"\b(?:since|always|usually|every|often|whenever|used to)\b", re.IGNORECASE)
ACCOUNT_SENTENCE = re.compile(r"\S.*?(?:[.!?]+(?=\s|$)|$)", re.DOTALL)  # up to its end, not a decimal point ("2.5 miles")
# a time the speaker named, which the account is then told against: a year, a month, a day of the week, "long ago"
TIMED = re.compile(rf"\b(?:(?:19|20)\d\d|{MONTHS}|{'|'.join(WEEKDAYS)}|ago)\b", re.IGNORECASE)

# "last summer", "this winter": a season, with the northern hemisphere's months (its first month)
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "winter": 12}
SEASON = re.compile(r"\b(?P<which>last|this|next) (?P<season>spring|summer|fall|autumn|winter)\b(?! \()", re.IGNORECASE)
# "I won the tournament on Friday": a weekday without "last" or "next" is the one just gone,
BARE_WEEKDAY = re.compile(rf"\b(?:on|this past|past) (?P<weekday>{'|'.join(WEEKDAYS)})\b(?! \()", re.IGNORECASE)
# ... unless its sentence speaks of what is to come: a future or plan, a scheduled event in the present
# tense ("the bucket gets deleted on Friday", "the release ships on Friday", "Marta joins the team on
# Monday", "it's due on Monday"), or an arrangement ("we're flying out on Friday", "she's joining on Monday")
FUTURE = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan|planning|planned|next|tomorrow|can't wait|looking forward|hope to|want to"
    r"|(?:gets?|is|are) (?:\w+ )?(?:deleted|removed|shut down|switched off|turned off|decommissioned|released|deployed|due|scheduled)"
    r"|'s due|goes live|go live|ships|launches|expires|kicks off|joins|arrives|starts|begins|returns"
    r"|(?:'re|'m|'s|am|are|is) (?:going|leaving|flying|heading|moving|starting|meeting|visiting|coming|shipping|releasing|deploying|presenting"
    r"|joining|arriving|returning|beginning))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Unit:
    """One claim of an entry: as written, without wrappers, and as it reads on its own
    (``text`` is empty when it is no claim; ``reason`` then says why, None for a bare wrapper)."""

    piece: Piece
    text: str
    reason: str | None = None


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _month(day: dt.date, back: int) -> str:
    index = day.year * 12 + day.month - 1 - back
    return dt.date(index // 12, index % 12 + 1, 1).strftime("%B %Y")


def _absolute(m: re.Match[str], day: dt.date) -> str | None:
    """What a relative phrase means on ``day`` (None: the table does not know it)."""
    phrase = m["phrase"].casefold()
    fixed = {"the day before yesterday": -2, "yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "tomorrow": 1}
    if phrase in fixed or (phrase.startswith("this ") and m["unit"] is None and m["weekend"] is None):
        return (day + dt.timedelta(days=fixed.get(phrase, 0))).isoformat()
    if m["weekday"]:
        weekday = SHORT_DAYS.get(m["weekday"].casefold(), m["weekday"].casefold())
        back = (day.weekday() - WEEKDAYS.index(weekday) - 1) % 7 + 1
        return (day - dt.timedelta(days=back)).isoformat()
    if m["weekend"]:
        # "this weekend" is this week's; "this past weekend" the one just gone (today's, said on one)
        which = m["weekend"].casefold().rsplit(" ", 1)[0]
        shift = {"this": 0, "next": 1, "last": -1}.get(which, -1 if day.weekday() < SATURDAY else 0)
        return f"the weekend of {(_monday(day) + dt.timedelta(weeks=shift, days=SATURDAY)).isoformat()}"
    if m["unit"]:
        unit, shift = m["unit"].casefold(), {"last": -1, "this": 0, "next": 1}[m["which"].casefold()]
    elif m["n"].casefold() in VAGUE:  # no count to subtract: anchored to when it was said (module doc)
        return f"as of {day.year if m['units'].casefold().startswith('year') else day.strftime('%B %Y')}"
    else:
        unit, shift = m["units"].casefold().rstrip("s"), -int(NUMBERS.get(m["n"].casefold(), 0) or m["n"])
    if unit == "day":
        return (day + dt.timedelta(days=shift)).isoformat()
    if unit == "week":
        return f"the week of {(_monday(day) + dt.timedelta(weeks=shift)).isoformat()}"
    if unit == "weekend":  # "two weekends ago": the weekend just gone is one ago, as "last weekend" is
        return f"the weekend of {(_monday(day) + dt.timedelta(weeks=shift, days=SATURDAY)).isoformat()}"
    if unit == "month":
        return _month(day, -shift)
    return str(day.year + shift)


def _season(m: re.Match[str], day: dt.date) -> str:
    """Which season "last summer", "this winter" or "next spring" was on ``day``: the last one
    that has ended; the one under way, else the coming one; the coming one after that (a winter
    is named by its two years)."""
    name = m["season"].casefold().replace("autumn", "fall")
    now = day.year * 12 + day.month - 1
    spans = [(year, year * 12 + SEASONS[name] - 1) for year in range(day.year - 2, day.year + 3)]  # (year, first month)
    ended = [year for year, first in spans if first + 2 < now]
    under_way = [year for year, first in spans if first <= now <= first + 2]
    coming = [year for year, first in spans if first > now]
    this = under_way[0] if under_way else coming[0]
    which = m["which"].casefold()
    year = ended[-1] if which == "last" else this if which == "this" else next(y for y in coming if y != this)
    return f"winter {year}/{str(year + 1)[-2:]}" if name == "winter" else f"{name} {year}"


def _sentence(m: re.Match[str], text: str) -> str:
    """The sentence of ``text`` that ``m`` is in."""
    start = max(text.rfind(end, 0, m.start()) for end in ".!?") + 1
    stops = [i for i in (text.find(end, m.end()) for end in ".!?") if i >= 0]
    return text[start : min(stops, default=len(text))]


def _weekday(m: re.Match[str], text: str, day: dt.date) -> str:
    """The date "on Friday" meant on ``day``: the one before it, or the one after it when its
    sentence speaks of what is to come ("I'm going on Friday")."""
    sentence = _sentence(m, text)
    target = WEEKDAYS.index(SHORT_DAYS.get(m["weekday"].casefold(), m["weekday"].casefold()))
    if FUTURE.search(sentence):
        return (day + dt.timedelta(days=(target - day.weekday()) % 7 or 7)).isoformat()
    return (day - dt.timedelta(days=(day.weekday() - target) % 7 or 7)).isoformat()


def resolve_dates(text: str, day: dt.date) -> str:
    """``text`` with each relative date phrase followed by what it meant on ``day``."""
    def sub(m: re.Match[str]) -> str:
        meant = _absolute(m, day)
        return f"{m[0]} ({meant})" if meant else m[0]

    text = RELATIVE.sub(sub, text)
    text = RECENT.sub(lambda m: m[0] if DATED.search(_sentence(m, text)) else f"{m[0]} (as of {day.strftime('%B %Y')})", text)
    text = SEASON.sub(lambda m: f"{m[0]} ({_season(m, day)})", text)
    return BARE_WEEKDAY.sub(lambda m: f"{m[0]} ({_weekday(m, text, day)})", text)


def anchor_account(text: str, day: dt.date) -> str:
    """``text`` with its first account of something done (``PAST_ACCOUNT``, or a past verb with
    the "I" dropped) anchored, at the end of its sentence, to the month it was told: "I went to
    visit some friends (as of January 2024)". Read months later, an account that names no time
    leaves "when?" open; the month it was told is the latest it can have happened, and a month
    (not the day) keeps an account told on several days of one month one wording. A unit that
    names or resolved a time anywhere (``DATED``, ``TIMED``) is told against that time already,
    and a habit or a state that lasts (``HABITUAL``) has no one time."""
    told = scaffold.unattributed(text)
    if DATED.search(told) or TIMED.search(told):
        return text
    for sentence in ACCOUNT_SENTENCE.finditer(told):
        said = sentence[0]
        if (PAST_ACCOUNT.search(said) or DROPPED_I.match(said.lstrip())) and not HABITUAL.search(said):
            end = len(text) - len(told) + sentence.start() + len(said.rstrip().rstrip(".!?"))
            return f"{text[:end]} (as of {day.strftime('%B %Y')}){text[end:]}"
    return text


def attribute(text: str, label: str | None, origin: str) -> str:
    """``text`` prefixed with who said it, when it needs that to stand on its own (module docstring).

    ``label`` is the turn's speaker label (a name, or its role); a named speaker of agent origin
    is the assistant, and is treated like one."""
    if not label:
        return text
    role = label.casefold() if label.casefold() in ROLES else ("assistant" if origin == "agent" else None)
    if role is None:
        return f"{label} said: {text}"
    if role in ("user", "assistant") and FIRST_PERSON.search(text):
        return f"{'The ' + role if label.casefold() in ROLES else label} said: {text}"
    return text


def unattributed(text: str) -> str:
    """``text`` without an attribution prefix (what the speaker said)."""
    return scaffold.unattributed(text)


def speaker(text: str) -> str | None:
    """Who a staged unit is attributed to (None: nobody named)."""
    return scaffold.attributed_to(text)


def observed_day(row: Mapping) -> dt.date | None:
    """The day an index entry was observed: its recorded time, else its daily note's date."""
    seen = store.when(row.get("observed_at"))
    if seen is not None:
        return seen.date()
    return dt.date.fromisoformat(row["file_date"]) if row.get("file_date") else None


def _join(first: Piece, second: Piece) -> Piece:
    return Piece(f"{first.said} {second.said}", f"{first.unit} {second.unit}", first.speaker, None)


def _points_back(said: str, earlier: set[str], someone: bool) -> bool:
    """Whether ``said`` names something by pointing back into the conversation ("that pic", "the
    accident", "the column thing", "as for the lounge", "thankfully my son's ok", "the last one",
    "the book you recommended", "try this", "read that yet", "never been", "I could have",
    "mentioned him", "if I could choose", "the message it sends", "both cities", "… then") at what
    its turn has not said before it (``earlier``: its words; ``someone``: whether it named a
    person), or at the speaker's own earlier words ("as I said")."""
    rules = (LISTENER_REFERENCE, BARE_THIS, BARE_THAT, BARE_BEEN, BARE_VERB, BARE_OBJECT, SHOWN_BACK, SAID_BEFORE, HYPOTHETICAL, RELIEF, IN_THAT_CASE)
    if any(rule.search(said) for rule in rules) or _both_unnamed(said, earlier):
        return True
    if not earlier and (_bare_it(said) or _bare_one(said)):
        return True
    for m in (*DEMONSTRATIVE.finditer(said), *EVENT_NOUN.finditer(said), *NAMED_THING.finditer(said), *TAKEN_UP.finditer(said)):
        noun, known = m["noun"].casefold(), earlier | set(words(said[: m.start()]))
        if noun not in NOT_REFERENTS and noun not in known and noun.rstrip("s") not in known and not NAMED_HERE.match(said, m.end()):
            return True
    return (not someone and _unnamed_person(said)) or _unnamed_group(said, earlier)


def _both_unnamed(said: str, earlier: set[str]) -> bool:
    """Whether ``said`` says "both <things>" (``BOTH``) with neither the things nor a pair of them
    said before it in its turn (``earlier``: its words so far; "and", "two", the noun itself)."""
    m = BOTH.search(said)
    if m is None:
        return False
    noun = m["noun"].casefold()
    if noun in PAIRED:
        return False
    known = earlier | set(words(said[: m.start()]))
    return not known & {"and", "two", "pair", "couple", noun, noun[:-1], f"{noun[:-3]}y"}


def _bare_it(said: str) -> bool:
    """Whether ``said`` has an "it" that no word before it in the sentence can stand for: part of
    it ("a couple seasons of it") or "the X it does", after nothing but a feeling or a way of
    taking it in ("I love", "I've watched")."""
    m = PART_OF_IT.search(said) or RELATIVE_IT.search(said)
    return m is not None and content_words(said[: m.start()]) <= BEFORE_BARE_IT


def _unnamed_group(said: str, earlier: set[str]) -> bool:
    """Whether ``said`` has a they or them with no group before it, in its own words or in
    ``earlier`` (its turn's words so far): a plural, a name, a person, a collective, or "and"."""
    pronoun = GROUP.search(said)
    if pronoun is None:
        return False
    before = said[: pronoun.start()]
    tokens = earlier | set(words(before))
    return not (_plural(tokens) or "and" in tokens or tokens & COLLECTIVE_NOUNS or _people(tokens) or names_someone(before, opener=False))


def _bare_one(said: str) -> bool:
    """Whether ``said`` has "the last one", "the other one" (``THE_ONE``) after next to nothing it
    could be one of: no plural, at most ``MAX_BEFORE_ONE`` content words ("Somewhat similar to the
    last one"; "I started another screenplay while I wait to hear how the first one did" names it)."""
    one = THE_ONE.search(said)
    if one is None:
        return False
    before = said[: one.start()]
    return not _plural(set(words(before))) and len(content_words(before)) <= MAX_BEFORE_ONE


def _plural(tokens: set[str]) -> bool:
    """Whether ``tokens`` hold a plural noun (a word ending in s that is no stopword: "bikes", not "this")."""
    return any(len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) and w not in STOPWORDS for w in tokens)


def _unnamed_person(said: str) -> bool:
    """Whether ``said`` has a he or she with nobody named before it in its own words."""
    pronoun = PERSONAL.search(said)
    return bool(pronoun and not names_someone(said[: pronoun.start()]))


def names_someone(text: str, *, opener: bool = True) -> bool:
    """Whether ``text`` names a person a he or she could stand for (a name, or "my brother");
    ``opener=False`` does not count a capitalised first word, which every sentence has."""
    first = re.match(r"\W*([A-Z][a-z][\w'’-]*)", text) if opener else None
    named_first = first is not None and first[1].casefold() not in STOPWORDS | NOT_A_NAME
    return bool(set(words(text)) & PERSON_NOUNS or NAME.search(text) or named_first)


def _about_someone(said: str, tokens: set[str]) -> bool:
    """Whether ``said`` (its words: ``tokens``) is about someone or something in particular: the
    speaker ("I", "we"), a name inside it, a person ("my brother", "the kids") or a number."""
    return bool(tokens & OWN_WORDS or _people(tokens) or names_someone(said, opener=False) or re.search(r"\d", said))


def _people(tokens: set[str]) -> bool:
    """Whether ``tokens`` name a person, one or many ("my brother", "the kids")."""
    return bool((tokens | {w[:-1] for w in tokens if w.endswith("s")}) & PERSON_NOUNS)


def _to_listener(said: str, *, leaning: bool = False) -> str | None:
    """Why a named speaker's sentence is no part of their account (``None``: it may be): it
    speaks to the person addressed, gives an impression of their news or talks about the talk,
    or it is about nobody in particular (``leaning``: it leans on the sentence before it, whose
    subject its opening pronoun stands for, and counts as general only in general terms)."""
    tokens = words(said)
    if set(tokens) & ADDRESSEE:
        return ADDRESSED
    if ABOUT_THE_TALK.search(said):
        return THE_TALK
    if IMAGINING.match(said):
        return IMAGINED
    if OFFERED.search(said):
        return OFFERED_TIP
    framed = OPINION_FRAME.match(said)
    told = said[framed.end() :] if framed else said  # what an opinion frame frames
    tokens = words(told)
    if set(tokens) & OWN_WORDS:
        return None
    if IMPRESSION.search(told):
        return IMPRESSED
    if _about_someone(_unaddressed(told), set(tokens)):
        return None
    return worth.GENERAL_REMARK if GENERAL_TERMS.search(told) or not leaning or framed else None


def _unaddressed(said: str) -> str:
    """``said`` without the name of the person it is addressed to ("Well, Liza, …", "…, Bella.")."""
    for rule in (worth.VOCATIVE, worth.TRAILING_VOCATIVE):
        if m := rule.search(said):
            said = said[: m.start("name")] + said[m.end("name") :]
    return said


def _leans(unit: str, *, chat: bool = False) -> bool:
    """Whether a sentence leans on the one before it (a pronoun, a connective, a time counted from
    it), judged past the ``REPLY_OPENER`` it opens with (``CHAT_REPLY_OPENER`` in a ``chat``
    between people).

    A pronoun object that a colon spells out points forward, not back ("Let's make it a rule: all
    money is stored in pence", "Put it this way: …")."""
    unit = (CHAT_REPLY_OPENER if chat else REPLY_OPENER).sub("", worth.plain_typing(unit))
    pronoun = OBJECT_PRONOUN.match(unit)
    if pronoun is not None and SPELLED_OUT.match(unit, pronoun.end()):
        pronoun = None
    dependent = DEPENDENT.match(unit) is not None and not worth.introduces(unit)  # "This is quayside, the berth-planning API …"
    return dependent or pronoun is not None or EVENT_TIME.search(unit) is not None


def claims(
    found: list[Piece], *, records_allowed: bool, answer: bool = False, request: bool = False, named: bool = False, replying: bool = False
) -> list[tuple[Piece, str | None]]:
    """The claims of an entry's pieces, each with why it is none (None: it is one, or a bare wrapper).

    A claim is one sentence that stands on its own, plus the sentences right after it that lean
    on it (``_leans``; or name, with a bare "instead", the other half of a change: ``INSTEAD``):
    "I have two dogs. They are called Rex and Max." is one claim. A
    leaning sentence with nothing to lean on is dropped, and so is one that is only talk
    (``worth.social``: "It was so cool.", "Check it out!"), one that gives a credential's value
    (``credentials.reason``), one that points back at something the
    turn has not said (``_points_back``), and in an assistant's ``answer`` its outline,
    announcements and what an offer would bring (``worth.answer_talk``), in the owner's ``request`` to their agent its tasks
    (``worth.request_talk``) and its directives (``USER.md``'s, not a claim's part), and an answer
    ``replying`` to the owner's turn right before it that opens by acknowledging it
    (``worth.ACKNOWLEDGING``: "Noted: local work only against dev"), which restates the owner's
    words; so are records (``scaffold.record``) unless
    ``records_allowed`` (an owner's own note), the sentence ending on a colon that introduces one
    (``_introduces_a_record``), and sentences ``scaffolding.reason`` refuses, which
    leave the claim before them open for what follows. In a conversation between ``named``
    people, a sentence spoken to the listener or about no one in particular (``_to_listener``)
    is no claim either: a general remark stays open for a sentence that leans on it ("Flowers
    bring joy. They were part of my wedding decor."). The sentences of an item of a list counted
    in prose ("One: we've dropped the develop branch. Trunk-based from now on. Two: …",
    ``text.COUNTED``) are one claim: they say one thing from two sides. In a chat, a list item's
    heading before a sentence with its own subject (``ITEM_HEADING``) is left out."""
    out: list[tuple[Piece, str | None]] = []
    open_at: int | None = None  # the claim a leaning sentence would join
    earlier: set[str] = set()  # the words of this turn's claims so far: what a back-reference may point at
    someone = False  # whether those claims named a person a "he" or "she" may stand for
    item_at: int | None = None  # the claim a counted item opened ("One: …"): its sentences up to the next count are one claim
    offered = answer and any(worth.OFFER.match(piece.said) for piece in found)
    after_directive = False  # whether the sentences since the last directive all were about it
    for at, piece in enumerate(found):
        if piece.record and not records_allowed:
            out.append((piece, piece.record))
            open_at = None
            continue
        if not records_allowed and _introduces_a_record(found, at):
            out.append((piece, INTRODUCES_A_RECORD))  # "Here's how we could implement the cache:" before the code
            continue
        if not piece.unit:
            out.append((Piece(piece.said, "", piece.speaker), None))
            continue
        if named and piece.item and (heading := ITEM_HEADING.match(piece.unit)):
            piece = replace(piece, unit=piece.unit[heading.end() :])
        secret = credentials.reason(piece.unit)
        if secret:
            out.append((piece, secret))  # the claim before it stays open: the rest of the turn still counts
            continue
        said = worth.judged(piece.unit)
        if answer and replying and not out and worth.ACKNOWLEDGING.match(piece.said):
            out.append((piece, worth.ECHO))  # what follows it in the answer is the answer's own
            continue
        if request and states_directive(piece.said):
            out.append((piece, DIRECTIVE))  # alone: the fact said before it in the turn stays a claim
            after_directive = True
            continue
        if after_directive and _about_the_directive(piece.unit):
            out.append((piece, ABOUT_THE_DIRECTIVE))
            continue
        after_directive = False
        # the owner's word before a colon is a label, not a speaker ("Commit: the mailer change first")
        structure = None
        if answer:
            structure = worth.answer_talk(said, item=piece.item, offered=offered)
        elif request:
            structure = worth.request_talk(worth.plain_typing(piece.unit), item=piece.item)
        if structure:
            out.append((piece, structure))
            open_at = None if piece.item else open_at
            item_at = None
            continue
        if not _leans(piece.unit, chat=named) and not (open_at is not None and INSTEAD.search(said)):
            why = scaffolding.reason(said)
            if why in (None, *LEANED_ON) and _points_back(said, earlier, someone):
                why = POINTS_BACK  # nothing after it may lean on it either
            elif why is None and named:
                why = _aside(said)
            counted = COUNTED.match(piece.said) is not None
            if why is None and not counted and item_at is not None and _fits(out[item_at][0], piece):
                out[item_at] = (_join(out[item_at][0], piece), None)  # "One: we've dropped develop. Trunk-based from now on."
                open_at = item_at
            else:
                out.append((piece, why))
                open_at = len(out) - 1 if why is None or why in LEANED_ON else open_at
                item_at = (len(out) - 1 if why is None else None) if counted else item_at
            if why is None:
                earlier.update(words(said))
                someone = someone or names_someone(said)
            continue
        if scaffolding.asks(said):
            out.append((piece, scaffolding.ASKING))  # "… launch. So can you help me weigh …?" asks; joined, the claim would too
            continue
        talk = worth.social(said) if len(content_words(said)) <= MAX_TALK_WORDS else None
        if talk or _points_back(said, earlier, someone):
            out.append((piece, talk or POINTS_BACK))
        elif named and (aside := _aside(said, leaning=True)):
            out.append((piece, aside))
        elif named and open_at is not None and out[open_at][1] in LEANED_ON and not set(words(said)) & OWN_WORDS:
            out.append((piece, worth.GENERAL_REMARK))  # "Greek food is known for … Another dish is …": the world still
        elif open_at is not None and _fits(out[open_at][0], piece):
            joined = _join(out[open_at][0], piece)
            out[open_at] = (joined, scaffolding.reason(scaffold.speech(joined.unit)))
            earlier.update(words(said))
            someone = someone or names_someone(said)
        else:
            out.append((piece, "not self-contained (leans on words said before it)"))
    return out


def _introduces_a_record(found: list[Piece], at: int) -> bool:
    """Whether the piece at ``at`` ends on a colon right before a record (code, a config, output):
    "Here's an example of how we could implement the cache, keeping the app under 2.5MB:" says
    what follows, which the transcript keeps and the curated core does not."""
    return at + 1 < len(found) and found[at].said.rstrip().endswith(":") and found[at + 1].record is not None


def _aside(said: str, *, leaning: bool = False) -> str | None:
    """Why a named speaker's sentence in a chat is no part of their account (``None``: it may be):
    said to the listener or about no one (``_to_listener``), what they are doing as they type or
    the doings of an ordinary day, a pledge to keep at it, a hope of how things turn out, or what
    they have not done. One list for a sentence that stands alone and one that leans."""
    return (
        _to_listener(said, leaning=leaning) or worth.of_the_moment(said) or worth.ordinary_day(said) or worth.pledge(said) or worth.hoped(said)
        or worth.absence(said)
    )


def _about_the_directive(unit: str) -> bool:
    """Whether a sentence right after a directive is about it (``ABOUT_THE_DIRECTIVE``): it leans on
    it, opens as an instruction, or is short and names nothing of its own (``paraphrase.specific``,
    a person)."""
    said = worth.judged(unit)
    if _leans(unit) or worth.instruction(said):
        return True
    return len(words(said)) <= MAX_ASIDE_WORDS and not specific(said) and not names_someone(said, opener=False)


def _own_account(who: str, unit: str, topic: bool) -> bool:
    """Whether ``unit`` is part of its speaker's account: anything a named person says, and the
    user's claims that are no directive (those go to ``USER.md`` on their own) when they are
    first-person or the turn opened on a ``topic`` label ("Emails: we moved to Postmark. The
    token is in the Gigalixir config."). An assistant's claims and the user's other sentences stay apart."""
    if who.casefold() not in ROLES:
        return True

    return who.casefold() == "user" and (topic or bool(FIRST_PERSON.search(unit))) and not states_directive(unit)


def _accounts(found: list[tuple[Piece, str | None]], speaker_of) -> list[tuple[Piece, str | None]]:
    """A speaker's turn is one account (``_own_account``): their claims in it become one (while
    it stays compact), so a turn about someone's pets is one line naming them all, a user's
    self-introduction one line, not four fragments restating each other, and so is what a user
    says under a topic label. An assistant's claims stay apart: an answer holds several
    independent instructions, each of which recurs on its own in other answers. A user's claim
    that names a thing their account named joins it too (``_names_the_same``: "We moved hosting
    from Vercel to Cloudflare Pages. Prod is still tidepool.app, but it's served by Pages now.")."""
    out: list[tuple[Piece, str | None]] = []
    open_at: int | None = None
    last: int | None = None  # the claim right before: a user's claim naming the same thing joins it
    first = next((piece.unit for piece, why in found if piece.unit and not why), "")  # after a "Hi."
    topic = OPENS_ON_TOPIC.match(first) is not None
    for piece, why in found:
        who = speaker_of(piece)
        if why or not piece.unit or not who:
            out.append((piece, why))
            last = None if piece.unit else last  # a bare wrapper ("Got it.") parts nothing
            if why == DIRECTIVE:  # "… Tailwind. Please use npm for everything. We have a package-lock.json …": the account ends
                open_at, topic = None, False
            continue
        # "millrace is the data pipeline for Pedala. Dagster orchestrates, dbt does the modelling. Python 3.12.":
        # after the project's introduction the user's claims describe it, as under a topic label
        topic = topic or (who.casefold() == "user" and worth.introduces(scaffold.speech(piece.unit)))
        own = _own_account(who, piece.unit, topic)
        into = open_at if own else last if last is not None and _goes_on(out[last][0], piece, who) else None
        if into is not None and speaker_of(out[into][0]) == who and _fits(out[into][0], piece):
            out[into] = (_join(out[into][0], piece), None)
            last = into
            continue
        if not own:
            out.append((piece, why))
            last = len(out) - 1
            continue
        if _unnamed_person(worth.judged(piece.unit)):  # its "he" was named in a part of the turn it is now apart from
            out.append((piece, POINTS_BACK))
            continue
        out.append((piece, None))
        open_at = last = len(out) - 1
    return out


def _fits(claim: Piece, piece: Piece) -> bool:
    """Whether ``piece`` may join ``claim`` and leave it a compact claim."""
    return len(claim.unit) + len(piece.unit) < MAX_CLAIM_CHARS


def _goes_on(claim: Piece, piece: Piece, who: str) -> bool:
    """Whether a user's claim that is no part of their account goes on with the ``claim`` right
    before it: both name the same thing (``_names_the_same``), and it holds no rule ("New code uses
    Req from now on, and …" is ``USER.md``'s, and stays apart)."""
    return who.casefold() == "user" and _names_the_same(claim.unit, piece.unit) and not directives_in(piece.said, transcript=False)


def _names_the_same(first: str, second: str) -> bool:
    """Whether two claims name one thing, a name or an identifier (``paraphrase.specific``): a
    number alone is no thing ("2 replicas" and "port 2"), nor is an acronym for a kind of thing
    ("your PR description", "PR descriptions"), which ``specific`` cannot tell from a name."""
    acronyms = {w.casefold() for w in WORD.findall(f"{first} {second}") if ACRONYM.fullmatch(w)}
    shared = specific(first) & specific(second)
    return any(not (token.isdigit() or token in NUMBER_WORDS or token in acronyms) for token in shared)


def _of_the_speaker(said: str) -> bool:
    """Whether a named speaker's account is about them or the people in their life ("I", "we",
    "my brother", "the kids", or no subject before a past verb: "Just finished Dune"); one that is
    not ("The Louvre is a treasure trove of art.") is a remark about the world."""
    tokens = set(words(said))
    return bool(tokens & OWN_WORDS) or _people(tokens) or DROPPED_I.match(said) is not None


def _unnamed_we(said: str) -> bool:
    """Whether a named speaker's claim says "we" (``US``) and never who with: no "I", no person, no
    group, no name, nothing of a work of theirs ("We love painting together lately"; "We took the
    kids to the beach" names them, "We switched the wire format to postcard" names the work). An
    "I" that only frames an opinion (``OPINION_FRAME``) says nobody: "I think cooking brings us together"."""
    framed = OPINION_FRAME.match(said)
    told = said[framed.end() :] if framed else said
    tokens = set(words(told))
    if not tokens & US or tokens & worth.SINGULAR:
        return False
    work = any(ACRONYM.fullmatch(w) for w in WORD.findall(told)) or CODE_LIKE.search(told) is not None
    return not (_people(tokens) or tokens & COLLECTIVE_NOUNS or names_someone(told, opener=False) or work)


def _outside_the_account(unit: str, speaker: str | None) -> str | None:
    """Why a named speaker's whole claim is no part of their account (``None``: it is): it says
    nothing of them (``_of_the_speaker``), a "we" with nobody beside it, or only their own name.
    Each rule reads what the claim says as ``worth.judged`` gives it, computed once here."""
    said = worth.judged(unit)
    if not _of_the_speaker(said):
        return worth.GENERAL_REMARK
    if _unnamed_we(said):
        return UNNAMED_WE
    return OWN_NAME if _own_name_only(said, speaker) else None


def _own_name_only(said: str, speaker: str | None) -> bool:
    """Whether a named speaker's claim (``said``, as judged) says nothing but their own name ("My
    name is Kevin", "Im Kevin btw"), which the line's attribution already gives."""
    told = set(words(said)) - STOPWORDS - OWN_NAME_WORDS
    return bool(speaker and told and told <= set(words(speaker)))


def read(row: Mapping, *, relayed: bool = True, replying: bool = False) -> list[Unit]:
    """The claims of an index entry (needs ``text``, ``kind``, ``origin``; ``observed_at`` and
    ``file_date`` when known) as dreaming stages them: attributed, dates resolved. ``relayed``:
    whether its transcript relays a chat (``text.relays_chat``), so a name opening a user's line
    is its speaker; ``replying``: whether the entry comes right after a turn of the user's, which
    an answer opening on an acknowledgement restates (``claims``)."""
    transcript = row["kind"] == "transcript"
    label = speaker_label(row["text"]) if transcript else None
    day = observed_day(row)
    found = []
    owner_note = not transcript and row["origin"] == "owner"

    def speaker_of(piece: Piece) -> str | None:
        return label if not piece.speaker or (label and label.casefold() not in ROLES) else piece.speaker

    answer = transcript and (row["origin"] == "agent" or (label or "").casefold() == "assistant")
    named = transcript and label is not None and label.casefold() not in ROLES and not host_speaker(label)
    request = transcript and not answer and (label or "").casefold() == "user"
    found_claims = claims(pieces(row["text"], transcript=transcript, relayed=relayed), records_allowed=owner_note, answer=answer, request=request, named=named, replying=replying)
    for piece, why in _accounts(found_claims, speaker_of):
        if named and not why and piece.unit:
            why = _outside_the_account(piece.unit, speaker_of(piece))
        if why or not piece.unit:
            found.append(Unit(piece, "", why))
            continue
        text = attribute(piece.unit, speaker_of(piece), row["origin"])
        if day:
            text = resolve_dates(text, day)
            text = anchor_account(text, day) if named else text
        found.append(Unit(piece, text))
    return found


def units(row: Mapping, *, relayed: bool = True) -> list[str]:
    """The standalone wording of each unit of an index entry that says something."""
    return [u.text for u in read(row, relayed=relayed) if u.text]
