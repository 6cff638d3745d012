"""Everyday values in words: numbers ("twenty three"), times ("seven thirty", "half past six"), dates ("tomorrow",
"next Friday", "March 3rd"), durations ("an hour and a half") and amounts of money ("$12.50", "45 dollars").

Dates are read against the simulated phone's today (`calendar.DATE`, Wednesday 10 June 2026), the day every app of the
sim shows as today; its clock reads 9:41. Each parser raises `UnknownValue` saying what it could not read.

>>> parse_date("next Friday"), parse_date("tomorrow"), parse_date("March 3rd")
(datetime.date(2026, 6, 19), datetime.date(2026, 6, 11), datetime.date(2027, 3, 3))
>>> parse_clock("seven thirty"), parse_clock("3", bare="daytime"), parse_duration("an hour and a half")
((7, 30), (15, 0), 5400)
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re

from android_gym.sim.apps.calendar import DATE as TODAY
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.text import words

_UNITS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000}
NUMBER_WORDS = frozenset([*_UNITS, *_TENS, *_SCALES, "a", "an", "and", "half", "quarter", "dozen"])
"""Every word `parse_number` reads (the parser's repair vocabulary)."""


def parse_number(text: str) -> float:
    """A number written in digits or words: "23", "1,000", "12.5", "twenty three", "a hundred and five", "a dozen".

    >>> parse_number("twenty-three"), parse_number("one hundred and five"), parse_number("1,000"), parse_number("a")
    (23, 105, 1000, 1)

    Raises:
        UnknownValue: `text` is not a number.
    """
    t = text.lower().replace(",", "").replace("-", " ").strip()
    if re.fullmatch(r"\d+(\.\d+)?", t):
        return float(t) if "." in t else int(t)
    total, current, seen = 0, 0, False
    for word in t.split():
        if word in ("a", "an") and not seen:
            current, seen = 1, True
        elif word in _UNITS:
            current, seen = current + _UNITS[word], True
        elif word in _TENS:
            current, seen = current + _TENS[word], True
        elif word == "dozen":
            current, seen = max(current, 1) * 12, True
        elif word in _SCALES:
            current, seen = max(current, 1) * _SCALES[word], True
            if word == "thousand":
                total, current = total + current, 0
        elif word == "and" and seen:
            continue
        else:
            raise UnknownValue(f"{text!r} is not a number")
    if not seen:
        raise UnknownValue(f"{text!r} is not a number")
    return total + current


# -- times of day ------------------------------------------------------------------------------------------------------
_DIGITAL = re.compile(r"^(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?$")
_SUFFIX = re.compile(r"\s*(a\.?m\.?|p\.?m\.?|in the morning|in the afternoon|in the evening|at night|tonight|"
                     r"o'?clock|oclock)$")
_PM_WORDS = ("pm", "p.m.", "p.m", "in the afternoon", "in the evening", "at night", "tonight")


def parse_clock(text: str, bare: str = "morning") -> tuple[int, int]:
    """A time of day as (hour 0-23, minute), in digits or words: "6:45 am", "10:40 PM", "17:05", "seven thirty",
    "half past six", "quarter to eight", "7 o'clock", "noon", "midnight", "9 in the evening".

    Args:
        text: the time, as `text.words` leaves it (lower case, "o'clock" as "oclock").
        bare: how an hour of 1-12 without am/pm is read: "morning" (as written, 1-11 am and 12 noon: a wake-up
            time) or "daytime" (the hours of a working day: 7-11 am, 12-6 pm, so "at 3" is 3 pm).

    >>> parse_clock("half past six"), parse_clock("quarter to 8 pm"), parse_clock("5:30", bare="daytime")
    ((6, 30), (19, 45), (17, 30))

    Raises:
        UnknownValue: `text` is not a time of day.
    """  # noqa: D205
    t = " ".join(text.lower().replace("-", " ").split())
    if t in ("noon", "midday", "12 noon"):
        return 12, 0
    if t == "midnight":
        return 0, 0
    suffix = ""
    while (m := _SUFFIX.search(t)) is not None and m.start() > 0:
        suffix = suffix or m[1].replace(".", "")
        t = t[: m.start()].strip()
    pm = suffix in _PM_WORDS or suffix.startswith("p")
    am = suffix.startswith("a") or suffix == "in the morning"
    hour, minute = _hour_minute(t, text)
    if hour > 23 or minute > 59:
        raise UnknownValue(f"{text!r} is not a time of day")
    if am or pm:
        if not 1 <= hour <= 12:
            raise UnknownValue(f"{text!r}: a 12-hour time needs an hour from 1 to 12")
        return hour % 12 + (12 if pm else 0), minute
    if hour == 0 or hour > 12:
        return hour, minute
    if bare == "daytime" and (hour <= 6 or hour == 12):
        return hour % 12 + 12, minute
    return hour, minute


def _hour_minute(t: str, text: str) -> tuple[int, int]:
    """(hour, minute) of a time without its am/pm: "7:30", "7", "seven thirty", "half past six", "quarter to 8"."""
    if (m := _DIGITAL.match(t)) is not None:
        return int(m["h"]), int(m["m"] or 0)
    if (m := re.fullmatch(r"(half|quarter|\S+(?: \S+)?) (past|after|to|before) (\S+)", t)) is not None:
        part = {"half": 30, "quarter": 15}.get(m[1])
        minutes = part if part is not None else _whole(m[1].removesuffix(" minutes"), text)
        hour = _whole(m[3], text)
        if m[2] in ("past", "after"):
            return hour, minutes
        return (hour - 1) % 24, 60 - minutes
    parts = t.split()
    for cut in range(1, len(parts)):  # "seven thirty", "seven oh five", "eleven forty five"
        try:
            hour, minute = _whole(" ".join(parts[:cut]), text), _whole(" ".join(parts[cut:]), text)
        except UnknownValue:
            continue
        if hour <= 23 and minute <= 59:
            return hour, minute
    return _whole(t, text), 0


def _whole(words_: str, text: str) -> int:
    value = parse_number(words_)
    if value != int(value):
        raise UnknownValue(f"{text!r} is not a time of day")
    return int(value)


# -- dates -------------------------------------------------------------------------------------------------------------
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH_ALIASES = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9} | {m: i + 1 for i, m in enumerate(MONTHS)}
_ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th)?$")
DATE_WORDS = frozenset([*WEEKDAYS, *MONTHS, *_MONTH_ALIASES, "today", "tonight", "tomorrow", "yesterday", "next",
                        "this", "coming", "on", "the", "of", "in", "days", "day", "weeks", "week", "after"])
"""Every word `parse_date` reads (the parser's repair vocabulary)."""


def parse_date(text: str, today: datetime.date = TODAY) -> datetime.date:
    """A date in everyday words, against `today`: "today", "tonight", "tomorrow", "yesterday", "the day after tomorrow",
    "Friday" / "this Friday" (the next one, today's excluded), "next Friday" (the one of next week), "March 3rd",
    "3 March", "July 14", "the 14th" (this month's, or next month's once passed), "in 3 days", "in two weeks",
    "next week" (a week from today).

    A month and day without a year is the next such date from today.

    >>> parse_date("friday"), parse_date("the 14th"), parse_date("the 2nd"), parse_date("in two weeks")
    (datetime.date(2026, 6, 12), datetime.date(2026, 6, 14), datetime.date(2026, 7, 2), datetime.date(2026, 6, 24))

    Raises:
        UnknownValue: `text` is not a date.
    """  # noqa: D205
    t = " ".join(words(text.replace(",", " ")))
    t = re.sub(r"^on ", "", t)
    fixed = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1, "the day after tomorrow": 2,
             "day after tomorrow": 2, "the day before yesterday": -2, "next week": 7, "a week from today": 7}
    if t in fixed:
        return today + datetime.timedelta(days=fixed[t])
    if (m := re.fullmatch(r"in (\S+(?: \S+)?) (day|days|week|weeks)", t)) is not None:
        n = _whole(m[1], text)
        return today + datetime.timedelta(days=n * (7 if m[2].startswith("week") else 1))
    if (m := re.fullmatch(r"(?:(this|next|coming|this coming) )?(\w+)", t)) is not None and m[2] in WEEKDAYS:
        ahead = (WEEKDAYS.index(m[2]) - today.weekday()) % 7 or 7
        if m[1] == "next":  # the one of next week: the Monday-to-Sunday week after this one
            ahead = WEEKDAYS.index(m[2]) - today.weekday() + 7
        return today + datetime.timedelta(days=ahead)
    t = re.sub(r"^(?:\w+day )", "", t) if t.split()[0] in WEEKDAYS and len(t.split()) > 1 else t
    month = day = None
    parts = [p for p in t.split() if p not in ("the", "of")]
    if len(parts) == 2 and parts[0] in _MONTH_ALIASES and _ORDINAL.match(parts[1]):
        month, day = _MONTH_ALIASES[parts[0]], int(_ORDINAL.match(parts[1])[1])  # type: ignore[index]
    elif len(parts) == 2 and parts[1] in _MONTH_ALIASES and _ORDINAL.match(parts[0]):
        month, day = _MONTH_ALIASES[parts[1]], int(_ORDINAL.match(parts[0])[1])  # type: ignore[index]
    elif len(parts) == 1 and (m := _ORDINAL.match(parts[0])) is not None and m[2]:
        day = int(m[1])
    if day is None:
        raise UnknownValue(f"{text!r} is not a date")
    return _next_date(month, day, today, text)


def _next_date(month: int | None, day: int, today: datetime.date, text: str) -> datetime.date:
    """The first date on or after `today` with that day (and month, when given)."""
    for ahead in range(0, 13):
        year, m = divmod(today.month - 1 + ahead, 12)
        candidate_month = month or m + 1
        candidate_year = today.year + year if month is None else today.year + (
            1 if (month, day) < (today.month, today.day) else 0)
        try:
            candidate = datetime.date(candidate_year, candidate_month, day)
        except ValueError:
            if month is not None:
                break
            continue
        if candidate >= today:
            return candidate
    raise UnknownValue(f"{text!r} is not a date")


# -- durations and money -----------------------------------------------------------------------------------------------
_UNIT_SECONDS = {"second": 1, "sec": 1, "s": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "h": 3600}
DURATION_WORDS = frozenset(["seconds", "second", "secs", "sec", "minutes", "minute", "mins", "min", "hours", "hour",
                            "hrs", "hr", "and", "a", "an", "half"])
"""Every unit word `parse_duration` reads (the parser's repair vocabulary)."""


def parse_duration(text: str) -> int:
    """A length of time in seconds: "10 minutes", "five minute", "an hour and a half", "1 hour 30 minutes",
    "half an hour", "90 seconds", "2 hrs".

    >>> parse_duration("1 hour 30 minutes"), parse_duration("half an hour"), parse_duration("five minute")
    (5400, 1800, 300)

    Raises:
        UnknownValue: `text` is not a length of time.
    """  # noqa: D205
    t = " ".join(text.lower().replace("-", " ").split())
    if (m := re.fullmatch(r"half an? (hour|minute)", t)) is not None:
        return _UNIT_SECONDS[m[1]] // 2
    total, found = 0, False
    for m in re.finditer(r"(?:^|\s|and\s)(?P<n>[\w.]+(?: \w+)?)\s*(?P<u>seconds?|secs?|minutes?|mins?|hours?|hrs?)"
                         r"(?P<half> and a half)?(?=\s|$)", t):
        unit = _UNIT_SECONDS[m["u"].rstrip("s")] if m["u"].rstrip("s") in _UNIT_SECONDS else _UNIT_SECONDS[m["u"]]
        amount = parse_number(m["n"])
        total += int(round(amount * unit)) + (unit // 2 if m["half"] else 0)
        found = True
    leftover = re.sub(r"[\w.]+(?: \w+)?\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)(?: and a half)?|\band\b", "",
                      t).strip()
    if not found or leftover:
        raise UnknownValue(f"{text!r} is not a length of time (say '10 minutes' or 'an hour and a half')")
    return total


_MONEY = re.compile(r"^(?:\$|usd ?)?(?P<n>\d+(?:\.\d{1,2})?|[a-z][a-z -]*?)\s*(?:\$|dollars?|bucks|usd)?$")


def parse_money(text: str) -> float:
    """An amount of money in dollars: "$12.50", "45 dollars", "30 dollar", "12 bucks", "twenty dollars".

    >>> parse_money("$12.50"), parse_money("45 dollars"), parse_money("twenty bucks")
    (12.5, 45.0, 20.0)

    Raises:
        UnknownValue: `text` is not an amount.
    """
    t = " ".join(text.lower().split())
    m = _MONEY.match(t)
    if m is None or not any(c in t for c in "$0123456789") and not re.search(r"dollars?|bucks|usd", t):
        raise UnknownValue(f"{text!r} is not an amount of money")
    return float(parse_number(m["n"].strip()))
