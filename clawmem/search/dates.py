"""Date matching: a question naming a date is answered by a turn of that date.

"What did Maria donate in December 2022?" or "What painting did Melanie show on October 13,
2023?" name the day; the answering turn rarely repeats it. It was said *on* that day (its
session's date), or it says "last Friday" in a session a week later. So the question's dates
become constraints (day, month, year, any part missing) and every turn gets the dates it is
about: its session's day plus each relative phrase ("yesterday", "last weekend", "two weeks
ago", "last month") resolved against that day. A turn whose dates meet a constraint is
boosted. A small phrase table, not ``dateparser``: its 0.3 s import and whole-string parsing
do not suit a ranking step that reads hundreds of turns per query.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from clawmem.foundation.records import dataclass

MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
MONTH = {name: n for n, name in enumerate(MONTH_NAMES, start=1)} | {name[:3]: n for n, name in enumerate(MONTH_NAMES, start=1)} | {"sept": 9}
WEEKDAY = {name: n for n, name in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])}  # by the first three letters
NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "couple of": 2, "few": 3, "a few": 3, "several": 3}

_M = r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_D = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_Y = r"(?P<year>(?:19|20)\d\d)"
# "October 13, 2023", "13 October 2023", "1 February, 2023", "July 2023", "in June" (May only with a day or year: the verb).
# Pattern strings and flags, compiled by ``re`` on first use and cached there (13 M instructions): each needs a
# month's name or a year's digits, which most queries lack (``_may_name_a_date``), so most searches never compile them.
QUERY_DATES = [
    (rf"\b{_M}\.? {_D},? {_Y}\b", re.IGNORECASE),
    (rf"\b{_D} (?:of )?{_M},? {_Y}\b", re.IGNORECASE),
    (rf"\b{_M}\.? {_D}\b(?!,? (?:19|20)\d\d)", re.IGNORECASE),
    (rf"\b{_M},? {_Y}\b", re.IGNORECASE),
    (rf"\b(?:in|during|of|since|early|late|mid|mid-) {_M}\b(?! \d)", re.IGNORECASE),
    (rf"\b{_Y}-(?P<mnum>[01]\d)-(?P<dnum>[0-3]\d)\b", 0),
]
ISO_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")

_N = r"(?P<n>\d+|a|an|one|two|three|four|five|six|couple of|a few|few|several)"
# A pattern string, compiled by ``re`` on first use and cached there: only a query naming a date
# reads the turns' relative phrases, and compiling it at import cost every search 6.4 M instructions.
RELATIVE = (
    r"\b(?:(?P<yesterday>yesterday|last night)|(?P<today>today|tonight|this morning|this afternoon|this evening)"
    r"|(?P<tomorrow>tomorrow)|(?P<weekend>last weekend|this past weekend|past weekend)"
    r"|(?:last|this past|past|on) (?P<weekday>(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)"
    r"|(?P<lastweek>last week|past week|the other day)|(?P<nextweek>next week)"
    r"|(?P<lastmonth>last month)|(?P<nextmonth>next month)|(?P<lastyear>last year)"
    rf"|{_N} (?P<unit>day|week|month|year)s? ago)\b"
)


@dataclass(frozen=True)
class Wanted:
    """A date a question names; a part left None matches any value."""

    year: int | None
    month: int | None
    day: int | None

    def span(self, year: int) -> tuple[dt.date, dt.date] | None:
        """The days this constraint covers within ``year`` (None if it rules that year out or is invalid)."""
        if self.year is not None and self.year != year:
            return None
        month = self.month
        try:
            if month is None:
                return dt.date(year, 1, 1), dt.date(year, 12, 31)
            if self.day is not None:
                day = dt.date(year, month, self.day)
                return day, day
            return _month_span(year, month)
        except ValueError:
            return None

    def meets(self, start: dt.date, end: dt.date) -> bool:
        """True when the days start..end overlap this constraint."""
        for year in range(start.year, end.year + 1):
            span = self.span(year)
            if span and span[0] <= end and start <= span[1]:
                return True
        return False


def wanted(query: str) -> list[Wanted]:
    """The dates a question names (a bare year is too broad to rank by and is left out)."""
    found: list[Wanted] = []
    if not _may_name_a_date(query):
        return found
    taken: list[tuple[int, int]] = []
    for pattern, flags in QUERY_DATES:
        for match in re.finditer(pattern, query, flags):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            parts = match.groupdict()
            month = int(parts["mnum"]) if parts.get("mnum") else MONTH.get((parts.get("month") or "").casefold())
            day = parts.get("dnum") or parts.get("day")
            year = parts.get("year")
            if month is None:
                continue
            taken.append((match.start(), match.end()))
            found.append(Wanted(int(year) if year else None, month, int(day) if day else None))
    return found


def _may_name_a_date(query: str) -> bool:
    """False only when no pattern of ``QUERY_DATES`` can match: ASCII text with no digit and no month's first three letters.

    Any other text goes to the patterns: case-insensitive matching takes a few letters beyond ASCII (``ſ`` for ``s``).
    """
    if not query.isascii():
        return True
    lowered = query.lower()
    return any(c.isdigit() for c in query) or any(name[:3] in lowered for name in MONTH_NAMES)


def _month_span(year: int, month: int) -> tuple[dt.date, dt.date]:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    first = dt.date(year, month, 1)
    following = dt.date(year + (month == 12), month % 12 + 1, 1)
    return first, following - dt.timedelta(days=1)


def _before(day: dt.date, weekday: int) -> dt.date:
    """The last ``weekday`` strictly before ``day``."""
    return day - dt.timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def spoken_of(text: str, said: dt.date) -> Iterator[tuple[dt.date, dt.date]]:
    """The days a turn said on ``said`` is about: that day, and each relative phrase resolved against it."""
    yield said, said
    for match in re.finditer(RELATIVE, text, re.IGNORECASE):
        kind = match.lastgroup
        if kind == "yesterday":
            yield said - dt.timedelta(days=1), said - dt.timedelta(days=1)
        elif kind == "tomorrow":
            yield said + dt.timedelta(days=1), said + dt.timedelta(days=1)
        elif kind == "weekend":
            saturday = _before(said, 5)
            yield saturday, saturday + dt.timedelta(days=1)
        elif kind == "weekday":
            day = _before(said, WEEKDAY[match.group("weekday").casefold()[:3]])
            yield day, day
        elif kind == "lastweek":
            yield said - dt.timedelta(days=13), said - dt.timedelta(days=1)
        elif kind == "nextweek":
            yield said + dt.timedelta(days=1), said + dt.timedelta(days=13)
        elif kind == "lastmonth":
            yield _month_span(said.year, said.month - 1)
        elif kind == "nextmonth":
            yield _month_span(said.year, said.month + 1)
        elif kind == "lastyear":
            yield dt.date(said.year - 1, 1, 1), dt.date(said.year - 1, 12, 31)
        elif kind == "unit":
            count = match.group("n").casefold()
            n = int(count) if count.isdigit() else NUMBER.get(count, 1)
            days = {"day": 1, "week": 7, "month": 30, "year": 365}[match.group("unit").casefold()] * n
            slack = max(1, days // 4)
            yield said - dt.timedelta(days=days + slack), said - dt.timedelta(days=max(0, days - slack))


def day_of(observed_at: str | None) -> dt.date | None:
    """The calendar day of an entry's ``observed_at`` (as written: the speaker's local day)."""
    match = ISO_DAY.match(observed_at or "")
    if not match:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def factors(query: str, turns: dict[int, tuple[str, str | None]], boost: float) -> dict[int, float]:
    """Entry id -> ``1 + boost`` for turns (text, observed_at) about a date the query names."""
    if boost <= 0:
        return {}
    asked = wanted(query)
    if not asked:
        return {}
    found: dict[int, float] = {}
    for entry_id, (text, observed_at) in turns.items():
        said = day_of(observed_at)
        if said is not None and any(w.meets(a, b) for a, b in spoken_of(text, said) for w in asked):
            found[entry_id] = 1.0 + boost
    return found
