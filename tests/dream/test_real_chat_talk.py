"""Real messaging-app talk (REALTALK-style chats between two people) is not memory.

People typing on their phones end questions with "!" or nothing, wish each other a happy new
year, answer "how are you?" at length and lean on what the other just said ("I have never
been", "try this next time", "mentioned him"). Each class is checked in several wordings and
behind the prefixes a chat export puts in front of a message; the facts beside them stay. The
whole path runs through the installed CLI on a real transcript.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from clawmem.dream import light, scaffolding, standalone, topics, worth
from clawmem.dream.text import pieces, untimed
from clawmem.entries import identity

from .test_standalone import locomo_session

PREFIXES = ("", "Elise: ", "[2024-01-01 18:13] Elise: ", "[D3:1] Elise: ")
TALK = [
    # a question to the listener without a question mark
    "What do you and your friends like doing in New York, in such a busy city!",
    "How did the interview go today",
    "Did you end up going to the concert!!",
    "so where are you guys heading for spring break",
    "What does the Julio like girl do",
    "how did the game go",
    "Where were they staying in Lisbon",
    # a wish or a holiday greeting
    "Happy New Years!",
    "Merry Christmas to you and your family!",
    "Hope you have a great weekend!",
    "Have a safe flight!",
    "Oh, good luck with the exam tomorrow!",
    # a request to the listener
    "Tell me more about your job!",
    "Keep me updated on the trip!",
    "fill me in on everything when you're back",
    # how the speaker is, said back to "how are you?"
    "I'm also doing well, thank you for asking.",
    "I am doing good today, thanks for checking in!",
    "Im good, how about you",
    # typed on a phone: typographic apostrophes, old-fashioned greetings, the listener's news
    "Here’s a photo of the gorgeous Hawaii from the last time I was there!",
    "Greetings and salutations!",
    "I’m so glad you had a wonderful cooking session with your mom!",
    "I'm really happy to hear that the interview went well.",
    # sympathy with the listener's news, behind interjections
    "Oh dang that sucks",
    "Ugh, that's rough.",
    "oof that sucks so bad",
    "Dang, that's such a bummer!",
    # a hedge with nothing hedged
    "Ah maybe i guess lol",
    "idk, probably",
    # a reunion greeting, a promise to the listener, a sign-off, small talk
    "Seems like forever since we caught up!",
    "Hey good afternoon it's been a while or at least it feels like it has since we last talked.",
    "feels like an eternity since we chatted",
    "I'll definitely reach out if I need more suggestions.",
    "I will get back to you about the dates.",
    "I'll let you know how it goes!",
    "Gotta run, bye!",
    # why the message was sent, and nothing after it
    "I just wanted to check in.",
    "Just wanted to say hi!",
    "thought id reach out",
    "gtg, ttyl",
    "Not much, just chilling.",
    "Nothing much, same as usual",
    # a wish for the two of them, a picture shown (typed without the apostrophe)
    "Well, I hope both of our travel dreams come true someday, Bella.",
    "I wish we both get into Stanford next year!",
    "Heres a picture of the field me and my friends played football at today!",
]
FACTS = [
    "I have celebrated New Years in New York once and the ball drop was my favorite moment.",
    "Happy to say I got the marketing job at the agency in Miami.",
    "I'm doing well at my new job at the bank in Miami, I started in January.",
    "It's been a while since I moved to Denver, about three years now.",
    "I'll let my sister know that the bakery on Main Street is hiring.",
    "Not much changed at the bank after the merger in March.",
    "I hope our bakery on Main Street opens in March.",
    "If I could afford it I would move to Lisbon with my sister next year.",
    "What I learned at the cooking class is that pasta needs salted water.",
    "I went to Turks and Caicos twice for spring break.",
    "My old car was awful on ice, so I sold it in March.",
    "I guess I'll move to Denver with my sister next year.",
    "What we did in Lisbon was rent bikes for a week.",
    "How the bakery started is a long story: my aunt opened it in 1998.",
    "I wanted to check in at the Hilton in Denver before noon, so I left at six.",
]


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", TALK)
def test_chat_talk_is_refused_behind_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) is not None


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", FACTS)
def test_facts_said_the_same_way_stay(line, prefix):
    assert scaffolding.reason(prefix + line) is None


def verdicts(text: str, *, named: bool = False) -> list[str | None]:
    """Each claim's verdict when ``text`` is a turn of Elise's in a transcript (split into sentences);
    ``named``: as dreaming reads it in a conversation between named people."""
    return [why for _, why in standalone.claims(pieces(f"Elise: {text}", transcript=True), records_allowed=False, named=named)]


@pytest.mark.parametrize(
    "turn",
    [
        "I have never been, you have to keep me updated on this trip!",
        "I actually haven't been there yet.",
        "I’m gonna be sure to try this the next time I am in New York.",
        "I want to see this too!",
        "After a couple of friends mentioned him, I left and made my way home.",
        "I saw her at the mall yesterday.",
        "She told me the whole story at dinner.",
        "I took that pic on a hike near Fort Wayne.",
        "I've been wanting to play this one for a while.",
        "Format check, credo --strict and the tests, it's all in there.",
        # a modal whose verb was the other speaker's, a "she" behind an interjection
        "I could have but I chose to do a cereal bowl instead.",
        "I would have too, honestly.",
        "Nah she said she's free to meet up tomorrow.",
        "Yeah he finally called back about the apartment.",
        "Oh I was going to but I decided I needed a break.",
        "I'd love to!",
        "Especially since it'll be focused on me and my team.",
        "Like their job is purely to just make salads.",
        # a they with no group before it, a test or a girl the line never introduced
        "Yess they gave me moon!!",
        "Hmm I don't know if they allow pets, I'll have to check on that.",
        "I walked their dog for an hour this morning.",
        "Maybe ill take the test again, but im pretty sure introvert for sure.",
        "My girlfriend saw the girl touching my arm while laughing.",
        # the chat's book, a verb whose object was the chat's, the speaker's own earlier words
        "If I switched lives with the celebrity I'd just be rich and surrounded by strangers.",
        "I'd like to visit again maybe next year.",
        "I really want to try too, maybe in spring.",
        "I previously said that I didn't see how it was actually that sad.",
        "I said earlier that my sister hates winter.",
        "A couple days earlier I had gone to the museum with my brother.",
        # this as the object (a thing shown, not named), and "like these"
        "I had this custom made by my Japanese artist friend.",
        "I got this because it symbolizes strength and resilience.",
        "I haven't tried much new lately, but I did get this yesterday.",
        "Our bond feels even stronger when moments like these show up.",
        # that as the object of a verb: what the other speaker named
        "I haven't read that yet but I've heard great things!",
        "I've never tried that before, sounds fun.",
        "We watched that too and loved it.",
        # the answer to a yes-or-no question, a contrast with what was said, the chat's thing
        "I do and i hate that i gravitate towards sweet drinks lol",
        "We did, twice last summer.",
        "My summer however, will start in the US in Hawaii.",
        "I could really use something like that - maybe I'll give painting a go.",
        "I thought this was really awesome and funny.",
        # the chat's series, the answer to a what-if question
        "The series had me hooked for a whole weekend.",
        "If I could choose, I'd love to visit the Roaring Twenties.",
        "if i had to pick one era it would be ancient Rome",
        "The Renaissance would be an incredible choice for me!",
        # an "it" with nothing in the turn to stand for
        "I love the message it sends and the themes it discusses.",
        "Ive watched a couple season of it although it is quite long.",
        "I really liked the way it ended.",
        # the other person's topic taken up
        "As for the lounge, I'm looking forward to the cozy atmosphere and the opportunity to relax.",
        "As for your new job offer, I think it's a great fit.",
        # relief after what happened, one of several the turn has not named
        "Thankfully, my son's ok and that was a reminder that life is precious and to cherish our family.",
        "Luckily everyone was fine.",
        "Thankfully they’re all okay.",
        "Somewhat similar to the last one, but hey, that's just the kind of thing I'm inspired to write about!",
        "I liked the other one better, it had a bigger garden.",
        # two things the other speaker named, a case the other speaker put ("in that case")
        "I'm excited about the possibilities in both cities!",
        "Both of those books have pretty intense plot lines.",
        "Hopefully both our pets will get better lol",
        "Well I hate staying at home drinking bubble tea then!!!",
        "Guess I'll have to get some eggs on the way home then.",
        "I stopped going after i started my training so it was a sad period of time.",
    ],
)
def test_what_leans_on_the_other_speakers_words_is_dropped(turn):
    assert all(why is not None for why in verdicts(turn)), verdicts(turn)


@pytest.mark.parametrize(
    "turn",
    [
        "I have been to Paris twice.",
        "My brother visited last week. I cooked lasagna for him.",
        # an "it" that stands for what the sentence named before it
        "I found a used copy of Dune in Boston and read half of it on the train.",
        "I got a puppy named Rex in May and I'm so proud of it.",
        "I love my new Fender guitar and the sound it makes.",
        "I met Anna at the gym and I helped her with her squats.",
        "I love this song by Adele.",
        # this that introduces (a spoken indefinite) or says when
        "I met this awesome Canadian guy on my trip to Toronto last week.",
        "I went to this wine tasting in Napa this past weekend.",
        "I got a new puppy this morning and named him Toby.",
        "Kate and I went to her favourite Italian place in Brooklyn.",
        "I could have been a doctor if I had studied harder.",
        "Nah, I moved to Denver with my sister in 2019.",
        "I was going to Denver for the marathon in May.",
        "I'd love to move to Lisbon one day.",
        "Like my dad, I love fishing on the lake in Maine.",
        # a they whose group the line names: a plural, people, a collective, "and", a name
        "My parents run a bakery downtown. They open at six every morning.",
        "I went to the shelter last week and they gave me a kitten named Moon.",
        "My friends and I went hiking and they loved the views.",
        "I love my coworkers, they always bring donuts on Fridays.",
        "I visited Kate in Boston and we watched the Celtics, they won by ten.",
        "I passed the bar exam in May, my first try.",
        "My favourite book is Of Mice and Men, I read the book twice.",
        "The book is called Pachinko because one of the sons runs a pachinko business.",
        "I'd love to visit Japan someday with my wife.",
        "I visited Lisbon in May and I want to see it again soon.",
        "As for me, I started a new job at the library in March.",
        "Thankfully my son was fine after the car accident in May.",
        "Luckily my sister is well enough to travel to Boston in June.",
        "I bought two bikes in May and the first one is the one I ride to work.",
        "I can't stop thinking about the screenplay, so I started writing another one while I wait to hear how the first one did.",
        "As for the Alchemist, I started reading it on my flight to Boston.",
        "We booked the lounge at the Hilton for Friday, and as for the lounge, it has a piano.",
        # both of what the turn named or what comes in pairs; then as a time
        "I applied to universities in Paris and London. I'm excited about the possibilities in both cities.",
        "I wear hearing aids in both ears, I have since I was six.",
        "I love both cats and dogs, I have three of each.",
        "I was a waitress in Boston back then.",
        "I stopped going to the gym in Denver after my knee surgery in May.",
        "I wake up at six on school days, so I'm always tired before then.",
    ],
)
def test_a_turn_that_says_who_and_what_stays(turn):
    assert verdicts(turn)[0] is None, verdicts(turn)


ASIDES = [
    # said to the listener: the line keeps who spoke, not who "you" was
    "You should definitely visit Houston or any place in Texas.",
    "Youve definitely heard of Conor McGregor.",
    "Your brother must be thrilled about the new job in Denver.",
    "When you get to Austin try the tacos at the market.",
    "I'm sure your sister will love the scarf you knitted.",
    # about nobody in particular, in general terms
    "Calculus can be quite challenging.",
    "The combination of snow-capped mountains and turquoise lakes promises an unforgettable experience.",
    "Pursuing a career in technology offers a wide range of opportunities in a fast field.",
    "There is so much adrenaline at a real game.",
    "Greek cuisine is known for its delicious and flavorful dishes!",
    # the person addressed by name is nobody the sentence is about
    "Well, Liza, the trains downtown stop running at midnight now.",
    "The trains downtown stop running at midnight now, Bella.",
    # an impression of the listener's news
    'Oh, "The Profector" sounds interesting.',
    "Visiting the Louvre and seeing the Mona Lisa must have been an incredible experience!",
    "The trail to Hanging Lake near Glenwood looks steep.",
    'Ah, "The Alchemist" seems like a book for a long flight.',
    # about the conversation itself
    "Well, Liza, it's been a delightful conversation, discussing everything from travel dreams to hobbies.",
    "I've truly enjoyed our chat.",
    "I really loved this conversation about books.",
    "I feel like a lot of my talks on here have devolved to food, work or travel.",
    # a tip offered to the listener
    "One additional tip I'd like to share is creating a travel playlist.",
    "My suggestion is Spin a couple/few times a week and a weight program, as well.",
    "White or Brown rice is my recommendation.",
    "My advice: stay passionate, focused and resilient.",
    "The best tip for Lisbon is to buy the Viva Viagem card.",
]
ACCOUNT = [
    "Max loves the beach and the dog park.",
    "The bakery on Main Street opened in 2019.",
    "My brother visited last week and we hiked the whole trail.",
    "Kate and I went to her favourite Italian place in Brooklyn.",
    "Rice University is one of our main attractions in Houston.",
    "We bought a house in Denver. It has three bedrooms and a garden.",
    # advice the speaker took or was given is their account
    "I took my coach's advice and moved to the Denver club in March.",
    "My mom gave me advice about bleaching my hair before the wedding.",
]


@pytest.mark.parametrize("turn", ASIDES)
def test_what_is_said_to_the_listener_or_about_nobody_is_no_part_of_the_account(turn):
    asides = (standalone.ADDRESSED, worth.GENERAL_REMARK, standalone.IMPRESSED, standalone.THE_TALK, standalone.OFFERED_TIP)
    assert verdicts(turn, named=True)[0] in asides, verdicts(turn, named=True)
    # the rule is what refuses it: outside a conversation between named people (an assistant's
    # "you should…" is the user's procedure) the same sentence is judged a claim
    assert verdicts(turn)[0] is None, verdicts(turn)


@pytest.mark.parametrize("turn", ACCOUNT)
def test_a_named_speakers_account_of_someone_or_something_stays(turn):
    assert verdicts(turn, named=True) == [None], "a leaning sentence joins the claim it leans on"


def accounts(text: str, speaker: str) -> list[str]:
    """The lines dreaming stages from ``speaker``'s turn ``text`` in a transcript."""
    row = {"text": f"{speaker}: {text}", "kind": "transcript", "origin": "owner", "observed_at": "2024-01-10T10:00:00"}
    return standalone.units(row)


@pytest.mark.parametrize(
    "turn",
    [
        "The Louvre is a treasure trove of art and history.",
        "Greek cuisine is known for its delicious dishes! Another popular Greek dish is souvlaki, which is grilled meat.",
        "Paris in the spring is lovely. The Seine at sunset is a sight.",
    ],
)
def test_a_named_speakers_turn_about_the_world_is_no_account(turn):
    assert accounts(turn, "Paola") == []
    # the rule is what refuses it: the user's turn is judged by what it says
    assert accounts(turn, "user") != []


@pytest.mark.parametrize(
    "turn",
    [
        "Mediterranean food has a rich palette. As for art, I'm drawn to impressionist paintings by Monet.",
        "Greek cuisine is known for its dishes! Another Greek dish I cook every week is souvlaki.",
        "The bakery on Main Street opened in 2019, and my sister works there.",
    ],
)
def test_a_named_speakers_turn_that_says_something_of_them_stays(turn):
    kept = accounts(turn, "Paola")
    assert len(kept) == 1 and kept[0].startswith("Paola said: ") and any(w in kept[0] for w in ("I'm", " I ", "my")), kept


def test_a_general_remark_after_a_fact_leaves_the_fact():
    turn = "I joined a basketball league with my friends this winter. It's always fun to spend time together on the court."
    assert verdicts(turn, named=True) == [None, worth.GENERAL_REMARK]
    assert verdicts(turn) == [None], "outside a named conversation it leans on the fact and joins it"


def test_a_real_chat_keeps_the_facts_and_none_of_the_talk(ws, clawmem, days_ago):
    for n in (3, 2, 1):
        locomo_session(clawmem, n, days_ago(n), [
            ("Emi", "Happy New Years! What did you do to celebrate this year"),
            ("elise", f"I'm also doing well, thank you for asking. I went to Turks and Caicos for spring break, trip {n}."),
            ("Emi", "I have never been, you have to keep me updated on this trip!"),
            ("elise", "After a couple of friends mentioned him, I left and made my way home. Tell me more about your job!"),
            ("Emi", "You should definitely visit Houston or any place in Texas. Calculus can be quite challenging."),
        ])
    data = clawmem("dream", "--json", "--explain").json()
    staged = {untimed(e["text"]) for e in data["explain"] if e["candidate_id"]}
    assert "elise said: I went to Turks and Caicos for spring break, trip 1." in staged, staged
    talk = ("Happy New Years", "celebrate", "doing well", "never been", "mentioned him", "your job", "Houston", "Calculus")
    assert not any(t in s for s in staged for t in talk), staged


def test_a_long_account_split_in_two_does_not_leave_its_he_behind():
    """A turn too long for one line is cut into claims; the part whose "he" was named in the
    other part does not stand on its own."""
    turn = (
        "I was on my way home and saw my ex today driving somewhere near my house, right past the bakery on Main Street. "
        "Funny thing is I always looked out for the car when I was out driving around town with my sister and her kids on the "
        "weekends, but never saw it once in the eight months since we broke up in the spring. "
        "After a couple of friends mentioned him, I left and made my way home. "
        "He was probably meeting some friends that live around me back home near the park."
    )
    found = [(p.unit, why) for p, why in standalone._accounts(
        standalone.claims(pieces(f"Elise: {turn}", transcript=True), records_allowed=False), lambda _: "Elise")]
    kept = [unit for unit, why in found if why is None]
    assert len(found) > 1 and kept and all("ex today" in unit or "him" not in unit for unit in kept), found
    assert not any(unit.startswith(("After a couple", "He was")) for unit in kept), found


def test_a_sentence_too_short_and_pointing_back_is_not_leaned_on():
    assert all(why is not None for why in verdicts("I actually have not been. I will take note of it so I can visit them next time!"))


@pytest.mark.parametrize(
    "turn, kept",
    [
        # a greeting or a "hang tight" opens no claim, so the fact after it is a line of its own
        ("Seems like forever since we caught up! I'm now mentoring the younger players on my team.", "I'm now mentoring the younger players"),
        ("Hang tight. This week has been swamped with exams for me but I'm plowing through.", "This week (the week of 2024-01-08) has been swamped"),
        ("I just wanted to check in. Last week I volunteered at the homeless shelter and they gave me a medal!", "Last week (the week of 2024-01-01) I volunteered"),
        # the "I" that chat drops before a past verb: the speaker's own account, not a remark about the world
        ('I haven\'t read that yet. Just finished "A Dance with Dragons" by George Martin.', 'Just finished "A Dance with Dragons"'),
        ("Joined a travel club in Berlin last month.", "Joined a travel club in Berlin"),
    ],
)
def test_talk_around_a_fact_leaves_the_fact_alone(turn, kept):
    lines = accounts(turn, "Tim")
    assert len(lines) == 1 and lines[0].startswith(f"Tim said: {kept}"), lines


@pytest.mark.parametrize("turn", ["This week has been swamped with exams.", "This morning I ran ten kilometres along the river."])
def test_a_time_counted_from_today_leans_on_nothing(turn):
    assert not standalone._leans(turn)
    assert standalone._leans("That week was swamped with exams.")



# What a speaker is doing as they type: true for a moment, kept in the transcript for search, never
# a claim of the curated core. Varied by marker ("rn", "right now", "atm", "at the moment", "now
# I'm …", "just woke up"), by position in the turn and by spelling as typed on a phone.
MOMENT = [
    "Morning im cooking my soup rn",
    "Right now im enjoying my latte",
    "im eating popcorn rn so idk",
    "At the moment I'm sitting on the bus to campus.",
    "I'm just getting ready to go out with friends!",
    "As for me, I'm getting ready for a fun game of basketball with my friends.",
    "im getting ready to step out for a new years event",
    "I just woke up but I already forgot what my dream was about.",
    "Just got home and now I'm having some breakfast.",
    "now im chilling on the couch",
    "I’m at home now watching the game atm",
    "Hey, I just had lunch with my brother.",
]
LASTING = [
    ("Right now I love living in Miami, I've lived here since I was young.", "Right now I love living in Miami"),
    ("I'm at home now, I work at the bakery on weekends.", "I'm at home now, I work at the bakery"),
    ("I just moved to Leeds for a new job at the hospital.", "I just (as of January 2024) moved to Leeds"),
    ('Just finished "A Dance with Dragons" by George Martin.', 'Just finished "A Dance with Dragons"'),
    ("I'm currently reading Pachinko, it's a chonker.", "I'm currently reading Pachinko"),
    ("I went to the beach today with my cousins.", "I went to the beach today (2024-01-10)"),
    ("I started going to the gym today and I need to get in shape.", "I started going to the gym today"),
    ("I'm getting ready for a dance comp near me next month.", "I'm getting ready for a dance comp near me next month"),
    # the letters as a word: a nurse, a cash machine
    ("My sister is an RN at Mercy Hospital in Tulsa.", "My sister is an RN at Mercy Hospital"),
    ("The ATM on Main Street ate my debit card.", "The ATM on Main Street ate my debit card"),
]


@pytest.mark.parametrize("turn", MOMENT)
def test_what_the_speaker_is_doing_as_they_type_is_no_claim(turn):
    assert verdicts(turn, named=True) == [worth.OF_THE_MOMENT], verdicts(turn, named=True)
    assert accounts(turn, "Nico") == []
    # the rule is what refuses it: with it switched off the same turn is a line of its own
    assert verdicts(turn) == [None]


@pytest.mark.parametrize(("turn", "kept"), LASTING)
def test_a_moment_with_something_lasting_in_it_stays(turn, kept):
    lines = accounts(turn, "Nico")
    assert len(lines) == 1 and lines[0].startswith(f"Nico said: {kept}"), lines


@pytest.mark.parametrize(("fact", "talk", "rule"), [
    pytest.param("My exam went really well, I got an A in organic chemistry.", "Now I am having a coffee with my friends.", "of_the_moment", id="moment"),
    pytest.param("I'm a nursing student at UCLA, in my third year.", "Today I had 9 hours of lessons and studied all evening.", "ordinary_day", id="ordinary-day"),
])
def test_talk_of_the_day_leaves_the_fact_beside_it(monkeypatch, fact, talk, rule):
    assert [untimed(line) for line in accounts(f"{fact} {talk}", "Paola")] == [f"Paola said: {fact}"]
    monkeypatch.setattr(worth, rule, lambda said: None)
    assert len(" ".join(accounts(f"{fact} {talk}", "Paola"))) > len(f"Paola said: {fact}"), "with the rule off the talk is part of the account"


MOMENT_TURNS = [("Nico", "Morning im cooking my famous tomato soup rn"), ("Nico", "I work at the bakery on Main Street on weekends.")]


def _three_days(clawmem, ws, days_ago, turns: list[tuple[str, str]], query: str) -> str:
    """``turns`` said on three days, each day looked up with ``query``, then a dream: MEMORY.md."""
    for n in (3, 2, 1):
        locomo_session(clawmem, n, days_ago(n), turns)
        clawmem("search", query)
    clawmem("dream")
    return (ws.root / "MEMORY.md").read_text(encoding="utf-8")


# An opinion the speaker's "I" only frames, about nobody in particular, and a hypothetical: no part
# of their account. What the frame frames decides: a clause about them or someone named stays.
FRAMED = [
    "I've been thinking about how human bodies are very fragile but also very resilient.",
    "I mean, if AI can store memories like conversations and stuff, the conversations are never really deleted.",
    "Honestly I think social media is ruining attention spans.",
    "I guess winter is just harder on everyone.",
    "In my opinion pineapple absolutely belongs on pizza.",
    "Imagine we invent a machine that lets us read animals minds.",
    "What if the moon was made of cheese.",
    "If it was a few thousand years ago and I had this fever I wouldn't know what to do with myself.",
    "If I had a dog I'd name it Biscuit.",
]
FRAMED_ABOUT_SOMEONE = [
    "I feel like majority of the time i gravitate towards the bad boy persona.",
    "I think my favorite book is Of Mice and Men.",
    "I think for authors I'd pick John Steinbeck or Kentaro Miura.",
    "I'm pretty sure the bakery on Main Street closes at six.",
    "I think I will move to Denver next year.",
    "If I was late to my shift, my boss at the bakery docked my pay.",
]


@pytest.mark.parametrize("turn", FRAMED)
def test_an_opinion_framed_by_i_about_nobody_is_no_part_of_the_account(turn):
    assert verdicts(turn, named=True)[0] in (worth.GENERAL_REMARK, standalone.IMAGINED), verdicts(turn, named=True)
    assert accounts(turn, "Akib") == []
    # the rule is what refuses it: the owner's turn to their agent is judged by what it says
    assert verdicts(turn)[0] is None, verdicts(turn)


@pytest.mark.parametrize("turn", FRAMED_ABOUT_SOMEONE)
def test_a_framed_clause_about_the_speaker_or_someone_named_stays(turn):
    [line] = accounts(turn, "Akib")
    assert line.startswith("Akib said: " + turn[:20]), line


# A pledge to keep at something, said back to the other's encouragement: no part of the account.
# A habit with its rhythm, or a keep with an object that is a thing, stays.
PLEDGES = [
    "I'll definitely keep pursuing my passion for writing.",
    "I'll keep plugging away and stay optimistic.",
    "I'm gonna keep pushing and never give up on my dream.",
    "Thanks! I will totally keep at it.",
    "I'm going to keep working hard, for sure.",
    "I'll try my best to keep going with the band.",
    "I'll stay motivated and do my best.",
]
KEPT_AT = [
    "I'll keep volunteering at the shelter every Saturday.",
    "I'll keep my job at the bakery through the summer.",
    "I'll continue painting landscapes since I sold two of them at the fair.",
]


@pytest.mark.parametrize("turn", PLEDGES)
def test_a_pledge_to_keep_at_it_is_no_part_of_the_account(turn):
    assert worth.pledge(turn.removeprefix("Thanks! ")) == worth.PLEDGED
    assert accounts(turn, "Joanna") == []


@pytest.mark.parametrize("turn", KEPT_AT)
def test_a_keep_with_a_habit_or_a_thing_stays(turn):
    assert worth.pledge(turn) is None
    assert accounts(turn, "Joanna") != []


PLEDGE_TURNS = [
    ("Nate", "Keep doing what you love!"),
    ("Joanna", "Thanks, Nate! I'll definitely keep pursuing my passion for writing screenplays."),
    ("Joanna", "My screenplay about a lighthouse keeper won the Rhode Island film festival prize."),
]


@pytest.mark.parametrize("turn", [
    "This quote kept me positive through tough times. Even made a tattoo to remind myself about it.",
    "That trip was wild. Even my mom liked it.",
    "Even better, they gave us the room for free.",
])
def test_a_sentence_opening_on_even_adds_to_what_was_said_before(turn):
    assert accounts(turn, "Gina") == []


@pytest.mark.parametrize("turn", [
    "Even though the forecast was bad, we hiked Ben Nevis on Saturday.",
    "Even when I'm tired, I run five miles before work.",
    "I adopted a second dog named Rex. Even my landlord likes him.",  # it leans on the fact before it and joins it
])
def test_even_opening_a_clause_or_after_its_fact_stays(turn):
    assert len(accounts(turn, "Gina")) == 1


@pytest.mark.parametrize(("turn", "kept"), [
    ("Hey Jon, my online clothing store has been a roller coaster but rewarding.", "Gina said: My online clothing store has been"),
    ("Hi Maria - I adopted a puppy named Coco last week.", "Gina said: I adopted a puppy named Coco"),
    ("Hello everyone, I started a new job at the library.", "Gina said: I started a new job at the library"),
])
def test_a_greeting_before_the_news_is_a_wrapper(turn, kept):
    [line] = accounts(turn, "Gina")
    assert line.startswith(kept), line
    assert verdicts("Hey Jon!", named=True) == [worth.reason("Hey Jon!")]  # alone it is still a greeting, and said so


# Chat is typed without apostrophes ("Thats", "Im sure", "theyre") or with a phone's curly ones:
# the rules judge it as typed with care (worth.plain_typing), whatever the rule.
TYPED_WITH_CARE = [
    "That's what makes sports unique and special, and why we cherish competing in a team!",
    "I'm sure it helps a lot with the stress.",
    "I've been watching every game whenever they're on.",
    "It's always better when friends are around.",
    "I don't think he's coming back to the bakery.",
    "I'd be mad at my friend if I got sick because of them.",
    "I've been thinking about how human bodies are very fragile but also very resilient.",
    "If I had a dog I'd name it Biscuit.",
    "I'm working at the bakery on Main Street on weekends.",
    "I've lived in Miami since I was young.",
    "I don't eat meat since I moved to Denver in 2021.",
]
TYPINGS = {"no apostrophes": lambda s: s.replace("'", ""), "curly": lambda s: s.replace("'", "’")}


def _refused(verdict: list[str | None]) -> list[bool]:
    return [why is not None for why in verdict]


@pytest.mark.parametrize("typing", TYPINGS.values(), ids=TYPINGS.keys())
@pytest.mark.parametrize("turn", TYPED_WITH_CARE + [s for s in FRAMED + FRAMED_ABOUT_SOMEONE + PLEDGES + KEPT_AT if "'" in s])
def test_chat_typed_without_care_gets_the_verdict_typed_with_care(turn, typing):
    assert _refused(verdicts(typing(turn), named=True)) == _refused(verdicts(turn, named=True))


def test_the_verdicts_differ_when_typed_without_care():
    """Some of the sentences above are refused only as typed with care (the test above means something)."""
    assert any(_refused(verdicts(s, named=True)) != [False] for s in TYPED_WITH_CARE)
    assert any(_refused(verdicts(s, named=True)) == [True] for s in TYPED_WITH_CARE)
    assert any(_refused(verdicts(s, named=True)) == [False] for s in TYPED_WITH_CARE)


@pytest.mark.parametrize(("typed", "judged"), [
    ("Thats what makes it", "That's what makes it"),
    ("Im sure", "I'm sure"),
    ("im sure", "I'm sure"),
    ("Ive got it", "I've got it"),
    ("theyre home and dont care", "they're home and don't care"),
    ("its been great", "it's been great"),
    ("Id rather stay", "I'd rather stay"),
    ("Here’s the cake", "Here's the cake"),
    # words of their own stay as typed
    ("its own shape", "its own shape"),
    ("My ID is 4", "My ID is 4"),
    ("I was ill last week", "I was ill last week"),
    ("We were there, well, lets go", "We were there, well, lets go"),
])
def test_plain_typing_puts_back_only_apostrophes_that_are_no_other_word(typed, judged):
    assert worth.plain_typing(typed) == judged


def test_a_line_keeps_the_speakers_own_typing():
    assert accounts("Im working at the bakery on Main Street on weekends.", "Nico") == ["Nico said: Im working at the bakery on Main Street on weekends."]


# A hope of how things turn out is no fact; a plan ("I hope to …") and a hope that names something stay.
HOPES = [
    "Hopefully I don't stay sick for too long",
    "I hope so but like where would we even meet",
    "I really hope not, I hate being sick.",
    "Hoping my screenplay gets noticed and makes it to the screen.",
    "I hope that the team will have a great season.",
    "We just hope it all works out in the end!",
]
HOPES_THAT_TELL = [
    "I hope to adopt a child one day.",
    "We hope to move to Denver next spring.",
    "I hope our bakery on Main Street opens in March.",
]


@pytest.mark.parametrize("turn", HOPES)
def test_a_hope_of_how_things_turn_out_is_no_claim(turn):
    assert verdicts(turn, named=True) == [worth.HOPED]
    assert accounts(turn, "Akib") == []


@pytest.mark.parametrize("turn", HOPES_THAT_TELL)
def test_a_hope_that_is_a_plan_or_names_something_stays(turn):
    assert worth.hoped(turn) is None
    assert len(accounts(turn, "Akib")) == 1


@pytest.mark.parametrize("turn", [
    "Id be mad at my friend if I got sick because they had covid and didnt tell me",
    "I'd be thrilled if my sister moved to Denver.",
    "Honestly I would feel terrible if the bakery closed.",
])
def test_what_the_speaker_would_feel_if_is_a_hypothetical(turn):
    assert verdicts(turn, named=True) == [standalone.IMAGINED]


def test_what_the_speaker_would_love_to_do_stays():
    assert verdicts("I'd love to visit Japan one day.", named=True) == [None]


HOPE_TURNS = [
    ("Muhhamed", "Get well soon!"),
    ("Akib", "Thanks. Hopefully I don't stay sick for too long, it ruins my whole week."),
    ("Akib", "I work night shifts as a nurse at Mercy Hospital in Chicago."),
]


ABSENCES = [
    "I haven't played any horror games myself",
    "I havent been over to my friends house in a while",
    "Nope, I have not been to the natural history museum in Chicago yet.",
    "We haven't tried the new ramen place on Fifth.",
    "As for me, I hadn’t even heard of the band.",
]
ABSENCES_THAT_TELL = [
    "I haven't been to Italy yet, but it's on my bucket list!",  # a contrast says what is
    "I haven't eaten meat in ten years.",  # a counted span makes it a habit
    "I haven't smoked since 2019.",
    "I have been to Lisbon twice.",
]


@pytest.mark.parametrize("turn", ABSENCES)
def test_what_the_speaker_has_not_done_is_no_claim(turn):
    assert verdicts(turn, named=True) == [worth.ABSENT]
    assert accounts(turn, "Akib") == []
    assert verdicts(turn) != [worth.ABSENT], "outside a chat between named people the rule does not apply"


@pytest.mark.parametrize("turn", ABSENCES_THAT_TELL)
def test_an_absence_with_a_contrast_or_a_span_stays(turn):
    assert worth.absence(turn) is None
    assert len(accounts(turn, "Akib")) == 1, accounts(turn, "Akib")


@pytest.mark.parametrize(("turn", "kept"), [
    ("Dyed my hair last week - come see!", "Nate said: Dyed my hair last week (the week of 2024-01-01)."),
    ("I've done an abstract painting too, take a look!", "Nate said: I've done an abstract painting too."),
    ("I painted my kitchen blue, check it out!", "Nate said: I painted my kitchen blue (as of January 2024)."),
    ("We built a treehouse for the kids — come and see it!", "Nate said: We built a treehouse for the kids (as of January 2024)."),
])
def test_an_invitation_to_look_after_a_comma_or_a_dash_leaves_the_claim(turn, kept):
    assert accounts(turn, "Nate") == [kept]


@pytest.mark.parametrize("turn", ["My parents come and see us in Denver every May.", "Our bakery on Main Street opens in March, so we can take a look at ovens."])
def test_a_visit_or_a_plan_is_no_invitation_to_look(turn):
    assert len(accounts(turn, "Nate")) == 1, accounts(turn, "Nate")


def test_a_list_items_heading_in_a_chat_is_left_out_when_its_sentence_says_it_all():
    turn = ("Before a trip:\n  1. Language Basics: If the destination has another language, I learn a few phrases.\n"
            "  2. Money and Finances: I tell my bank about our travel plans.\n  3. Camera: a Fujifilm X100V.")
    row = {"text": f"Paola: {turn}", "kind": "transcript", "origin": "owner", "observed_at": "2024-01-10T10:00:00"}
    lines = standalone.units(row)
    assert lines == ["Paola said: If the destination has another language, I learn a few phrases. I tell my bank about our travel plans. "
                     "Camera: a Fujifilm X100V."], lines
    # the owner's own list to their agent keeps its labels: "Testing:" is the topic the account is about
    row = {"text": "user: Stack notes:\n- Testing: We use pytest with xdist.", "kind": "transcript", "origin": "owner", "observed_at": "2024-01-10T10:00:00"}
    assert standalone.units(row) == ["Testing: We use pytest with xdist."]


@pytest.mark.parametrize(("speaker", "turn"), [("Kevin", "My name is Kevin."), ("Kevin", "Im Kevin btw"), ("Fahim Khan", "Hi, I am Fahim Khan!")])
def test_a_speaker_saying_only_their_own_name_is_no_claim(monkeypatch, speaker, turn):
    assert accounts(turn, speaker) == []
    monkeypatch.setattr(standalone, "_own_name_only", lambda said, speaker: False)
    assert accounts(turn, speaker) != [], "with the rule off the name is a line"


@pytest.mark.parametrize("turn", ["My name is Kevin and I study at Stanford.", "I am called Kev.", "My brother is called Kevin too."])
def test_a_name_with_more_or_another_name_stays(turn):
    assert len(accounts(turn, "Kevin")) == 1


# An ordinary day's doings: routine (meals, the gym, chores, school, work, rest, a screen), told
# of the speaker's day, naming nothing. Written fresh, in the ways chats tell a day.
ORDINARY_DAYS = [
    "Today I hit the gym for a solid chest and abs workout.",
    "I had 9 hours of lessons today and it was pretty tough.",
    "I called out of work today because of a stomach ache.",
    "I'm about to take a shower and go to sleep.",
    "im just about to cook dinner lol",
    "This morning I did laundry and ran some errands.",
    "I have been home for the rest of the day.",
    "I had an exam today, which I did great on.",
    "Tonight I'm going to watch a movie with my roommate.",
    "I've been studying all day for my biology exam.",
    "Later on I'm grabbing coffee and catching up with an old friend.",
    "Today I've been finishing some work for class and chatting with my cousins.",
    "I spent the afternoon on the work in my office, nothing exciting today.",
]
NAMED_DAYS = [
    ("Today I went to Art Basel in Miami with my sister.", "Today (2024-01-10) I went to Art Basel"),
    ("I went to a pottery workshop today and made a bowl.", "I went to a pottery workshop today"),
    ("I started going to the gym today because I need to get in shape.", "I started going to the gym today"),
    ("Today I had brunch with a friend, a Sunday tradition of ours.", "Today (2024-01-10) I had brunch"),
    ("I had my last day of school today, I start again in February.", "I had my last day of school today"),
    ("I work out at the gym every morning before my shift.", "I work out at the gym every morning"),
    ("I had dinner at Nobu with my parents tonight.", "I had dinner at Nobu"),
    ("I work as a barista on weekdays, today I had a long shift.", "I work as a barista"),
]


@pytest.mark.parametrize("turn", ORDINARY_DAYS)
def test_an_ordinary_days_doings_are_no_claim(turn):
    assert worth.ordinary_day(turn) == worth.ORDINARY_DAY
    assert verdicts(turn, named=True) == [worth.ORDINARY_DAY], verdicts(turn, named=True)
    assert accounts(turn, "Paola") == []


@pytest.mark.parametrize(("turn", "kept"), NAMED_DAYS)
def test_a_day_with_something_of_its_own_stays(turn, kept):
    assert worth.ordinary_day(turn) is None
    lines = accounts(turn, "Paola")
    assert len(lines) == 1 and lines[0].startswith(f"Paola said: {kept}"), lines


DAY_TURNS = [("Kevin", "How was your day?"), ("Paola", "I had nine hours of lessons and now I'm about to cook dinner and take a shower."),
             ("Paola", "I'm a nursing student at UCLA, in my third year.")]


# A named speaker's "we" with nobody beside them in the line: who they were with is not said.
UNNAMED_WE = [
    "We even went on another camping trip in the forest.",
    "We love painting together lately, especially nature-inspired ones.",
    "Last week, we had a blast at a live music event.",
    "Some of our favorite moments were sitting by the beach with a drink!",
    # behind an "I" that only frames the opinion
    "I think baking and cooking really brings us together!",
    "Honestly I feel like long walks keep us sane.",
]
NAMED_WE = [
    "We took the kids to the beach in July, they loved it.",
    "We're considering adopting a rescue dog to teach our kids responsibility.",
    "My husband and I went to Paris in May. We loved the Louvre.",
    "Our family moved to Denver in 2020.",
    "I think our kids love the new house.",
    "I think we met at Stanford in 2019.",
    "We moved to Denver in 2020.",  # a name: who "we" were the line may not say, where they went it does
]


@pytest.mark.parametrize("turn", UNNAMED_WE)
def test_a_we_with_nobody_named_is_not_self_contained(turn):
    assert accounts(turn, "Melanie") == []


@pytest.mark.parametrize("turn", NAMED_WE)
def test_a_we_beside_someone_named_stays(turn):
    assert len(accounts(turn, "Melanie")) == 1


WE_TURNS = [("Caroline", "What have you been up to?"), ("Melanie", "We love painting together lately, especially nature-inspired ones."),
            ("Melanie", "I teach art at Lincoln Elementary in Boise.")]
# "Bro same because …": a form of address before a leaning opener leans too (``standalone.CHAT_REPLY_OPENER``)
REPLY_TURNS = [("Vanessa", "It's been snowing nonstop here, snow days are so rare!"),
               ("Nicolas", "Bro same because snow is rare nowadays where i live and we never get a full snow day"),
               ("Nicolas", "I teach chemistry at Denver North High.")]
# "both cities": the two the other speaker named (``standalone.BOTH``)
BOTH_TURNS = [("Kevin", "I'm choosing between universities in Paris and London for my masters."),
              ("Paola", "I'm excited about the possibilities in both cities for tech startups!"),
              ("Paola", "I work as a barista at Blue Bottle in Oakland.")]

# "I haven't played any horror games myself": what the speaker has not done (``worth.absence``)
ABSENCE_TURNS = [("Muhhamed", "Have you played Outlast?"), ("Akib", "I haven't played any horror games myself"),
                 ("Akib", "I work night shifts as a nurse at Mercy Hospital in Chicago.")]


# Through the CLI: a kind of talk said on three days, looked up each day, stays out of MEMORY.md
# beside a fact that is promoted; with its rule switched off the talk lands.
THROUGH_THE_CLI = [
    pytest.param(MOMENT_TURNS, "tomato soup bakery Main Street weekends", "bakery on Main Street", "tomato soup",
                 (worth, "of_the_moment", lambda said: None), id="moment"),
    pytest.param(PLEDGE_TURNS, "passion for writing screenplays lighthouse film festival", "lighthouse keeper", "keep pursuing",
                 (worth, "pledge", lambda said: None), id="pledge"),
    pytest.param(HOPE_TURNS, "sick week nurse night shifts Mercy Hospital", "Mercy Hospital", "Hopefully",
                 (worth, "hoped", lambda said: None), id="hope"),
    pytest.param(DAY_TURNS, "lessons cook dinner shower nursing student UCLA", "nursing student at UCLA", "take a shower",
                 (worth, "ordinary_day", lambda said: None), id="ordinary-day"),
    pytest.param(WE_TURNS, "painting together art teacher Lincoln Elementary", "Lincoln Elementary", "painting together",
                 (standalone, "_unnamed_we", lambda said: False), id="unnamed-we"),
    pytest.param(REPLY_TURNS, "snow rare snow day chemistry Denver North High", "Denver North High", "Bro same",
                 (standalone, "CHAT_REPLY_OPENER", re.compile("(?!)")), id="reply-opener"),
    pytest.param(BOTH_TURNS, "possibilities both cities tech startups barista Blue Bottle Oakland", "Blue Bottle in Oakland", "both cities",
                 (standalone, "_both_unnamed", lambda said, earlier: False), id="both"),
    pytest.param(ABSENCE_TURNS, "horror games nurse night shifts Mercy Hospital", "Mercy Hospital", "horror games",
                 (worth, "absence", lambda said: None), id="absence"),
]


@pytest.mark.parametrize(("turns", "query", "fact", "talk", "rule"), THROUGH_THE_CLI)
def test_talk_said_on_three_days_stays_out_of_memory_beside_a_fact(ws, clawmem, days_ago, turns, query, fact, talk, rule):
    memory = _three_days(clawmem, ws, days_ago, turns, query)
    assert fact in memory and talk not in memory, memory


@pytest.mark.parametrize(("turns", "query", "fact", "talk", "rule"), THROUGH_THE_CLI)
def test_with_its_rule_off_the_talk_lands(ws, clawmem, days_ago, monkeypatch, turns, query, fact, talk, rule):
    monkeypatch.setattr(*rule)
    assert talk in _three_days(clawmem, ws, days_ago, turns, query)


# A friend's "yes" before their own account: the answer is a fact about them
YES_TURNS = [("Caroline", "Do you still play music?"), ("Melanie", "Yeah, I play clarinet in the Boise community band every Thursday.")]


def test_a_yes_before_ones_own_account_reaches_memory(ws, clawmem, days_ago):
    memory = _three_days(clawmem, ws, days_ago, YES_TURNS, "clarinet Boise community band Thursday")
    assert "I play clarinet in the Boise community band" in memory, memory


def test_with_the_yes_read_as_leaning_the_account_is_lost(ws, clawmem, days_ago, monkeypatch):
    monkeypatch.setattr(standalone, "CHAT_REPLY_OPENER", standalone.REPLY_OPENER)
    assert "clarinet" not in _three_days(clawmem, ws, days_ago, YES_TURNS, "clarinet Boise community band Thursday")


# An account that names no time, read months later, leaves "when?" open: it is anchored to the
# month it was told (``standalone.anchor_account``); ``accounts`` tells it on 2024-01-10.
@pytest.mark.parametrize(("turn", "anchored"), [
    ("I went to visit some friends who had moved here from another country.",
     "Akib said: I went to visit some friends who had moved here from another country (as of January 2024)."),
    ("Started my healthy eating diet.", "Akib said: Started my healthy eating diet (as of January 2024)."),
    ("I spent the afternoon playing football with my friends. We laughed a lot at the park.",
     "Akib said: I spent the afternoon playing football with my friends (as of January 2024). We laughed a lot at the park."),
    ("We ran 2.5 miles along the river with the dog!", "Akib said: We ran 2.5 miles along the river with the dog (as of January 2024)!"),
])
def test_an_account_that_names_no_time_is_anchored_to_the_month_it_was_told(turn, anchored):
    assert accounts(turn, "Akib") == [anchored]


@pytest.mark.parametrize("turn", [
    "I went to the beach yesterday with my sister and her kids.",  # told against its own time
    "I went to Lisbon in March with my sister.",
    "I was born in 1990 in Porto, near the river.",
    "I have two cats and a dog named Rex.",  # no past: a fact as it stands
    "I've lived in Miami since I was young.",  # a state that lasts, a habit: no one time
    "I used to paint landscapes every weekend.",
])
def test_an_account_told_against_a_time_or_lasting_gets_no_month(turn):
    [line] = accounts(turn, "Akib")
    assert "(as of" not in line, line


def test_outside_a_chat_between_named_people_no_month_is_added():
    row = {"text": "user: I fixed the arm64 build by pinning openssl to 3.0.", "kind": "transcript", "origin": "owner", "observed_at": "2024-01-10T10:00:00"}
    assert standalone.units(row) == ["The user said: I fixed the arm64 build by pinning openssl to 3.0."]


def test_a_joined_line_gives_each_month_once():
    line = "Paola said: I visited a rooftop lounge with views of the skyline (as of January 2024)."
    added = ["The rooftop lounge I visited was in Salt Lake City (as of January 2024).", "I went back with my sister (as of March 2024)."]
    assert topics._joined(line, added, first=False) == (
        "Paola said: I visited a rooftop lounge with views of the skyline (as of January 2024). "
        "The rooftop lounge I visited was in Salt Lake City. I went back with my sister (as of March 2024)."
    )


BEAGLE = "I adopted a beagle called Scout from the Tucson shelter."


def _told_across_a_month(clawmem, days_ago) -> list[dt.datetime]:
    """``BEAGLE`` told on the last two days of last month and the first of this one."""
    first = days_ago(0).replace(day=1)
    days = [first - dt.timedelta(days=2), first - dt.timedelta(days=1), first]
    for n, when in enumerate(days, 1):
        locomo_session(clawmem, n, when, [("Caroline", BEAGLE), ("Melanie", "Aww, so cute!")])
    return days


def test_an_account_told_in_two_months_is_one_account_in_its_latest_words(ws, clawmem, days_ago):
    days = _told_across_a_month(clawmem, days_ago)
    data = clawmem("dream", "--json", "--explain").json()
    line = f"Caroline said: {BEAGLE[:-1]} (as of {days[-1]:%B %Y})."
    assert len({e["candidate_id"] for e in data["explain"] if e["candidate_id"]}) == 1, data["explain"]
    assert [c["text"] for c in data["promoted"]] == [line]
    assert line in ws.memory_md.read_text()


def test_with_the_month_compared_the_three_tellings_are_two_accounts(ws, clawmem, days_ago, monkeypatch):
    monkeypatch.setattr(light.Matcher, "form", staticmethod(identity.normalise))
    _told_across_a_month(clawmem, days_ago)
    data = clawmem("dream", "--json", "--explain").json()
    assert len({e["candidate_id"] for e in data["explain"] if e["candidate_id"]}) == 2, data["explain"]
