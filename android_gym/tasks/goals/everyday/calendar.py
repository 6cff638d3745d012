"""Everyday phrasings of the calendar tasks (issue 49), mapped onto the World suite's templates.

* An event to create, named with its day and maybe its time ("Create a calendar event for lunch with Sam next Friday
  at noon", "Add a meeting with the design team tomorrow at 3pm", "Put Grandma's birthday on the calendar for July
  14"): `CreateEventTemplate` with {"title", "date", "start"} (no end: whatever the editor proposes; no time: all day
  or any time); more than two months on, `CreateLaterEventTemplate` (the same check, a budget for paging the
  date picker). A bare "Add a {...}" must name a kind of event ("meeting", "appointment", ...), a day and a time, so
  that "Add milk to my list tomorrow" is never an event.
* An event named by its time moved to another ("Move my 2 pm meeting to 4 pm"): `ChangeStartTemplate` on today's
  "Meeting" at that time, its length kept.
* An event named by its title deleted ("Delete the event called Team sync"): `DeleteEventTemplate`, the event put
  on a day drawn from the title.
* A day's events ("What's on my calendar tomorrow?"): `DayScheduleTemplate`, Calendar's day view paged to that day.

Dates are read against the sim's today (Wednesday 10 June 2026) by `goals.when`; a day that has passed is refused
for a new event.

>>> read_event("lunch with sam next friday at noon")
Event(title='Lunch with sam', date='2026-06-19', start='12:00')
>>> read_event("dentist appointment on march 3rd at 9:30")
Event(title='Dentist appointment', date='2027-03-03', start='09:30')
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, NamedTuple

from android_gym.sim.app import stable_seed
from android_gym.sim.apps import calendar as C
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Parsed, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.goals.when import DATE_WORDS, NUMBER_WORDS, parse_clock, parse_date
from android_gym.tasks.world.calendar_everyday_tasks import (
    NEAR_MONTHS,
    PAGED_DAYS,
    CreateLaterEventTemplate,
    DayScheduleTemplate,
    months_ahead,
)
from android_gym.tasks.world.calendar_tasks import (
    DAYS,
    STARTS,
    ChangeStartTemplate,
    CreateEventTemplate,
    DeleteEventTemplate,
    iso,
)

KINDS = ("meeting", "appointment", "lunch", "dinner", "breakfast", "brunch", "call", "party", "interview", "class",
         "lesson", "session", "visit", "checkup", "check-up", "drinks", "coffee", "birthday", "event", "reservation",
         "practice", "rehearsal", "review", "sync", "standup", "conference", "webinar", "workshop", "presentation",
         "demo", "concert", "game", "match", "haircut", "massage", "date", "anniversary", "ceremony")
"""Words that name a kind of event: a bare "Add a ..." line must hold one to be read as a calendar event."""


class Event(NamedTuple):
    """An event a line names: its title (first letter capitalised), its date (ISO) and start ("HH:MM") or None."""

    title: str
    date: str
    start: str | None


def read_event_time(text: str) -> str:
    """A start time ("3pm", "noon", "9:30": a bare hour is a working-day one, "at 3" is 3 PM) as "HH:MM".

    Raises:
        UnknownValue: not a time, or minutes the editor's dial cannot set (steps of five).
    """
    hour, minute = parse_clock(text, bare="daytime")
    if minute % 5:
        raise UnknownValue(f"{text!r}: Calendar's time dial sets minutes in steps of five")
    return f"{hour:02d}:{minute:02d}"


def read_event_date(text: str) -> str:
    """A day for a new event, today or later, as "YYYY-MM-DD".

    Raises:
        UnknownValue: not a date, or one that has passed.
    """
    date = parse_date(text)
    if date < C.DATE:
        raise UnknownValue(f"{text!r} has passed (today is {C.long_date(str(C.DATE))})")
    return str(date)


def read_title(text: str) -> str:
    """An event's title as the line gives it, first letter capitalised ("grandmas birthday" -> "Grandmas birthday").

    Raises:
        UnknownValue: no words.
    """
    title = " ".join(words(text))
    if not title:
        raise UnknownValue("an empty event title")
    return title[0].upper() + title[1:]


def _when(rest: list[str]) -> tuple[datetime.date, str | None]:
    """(date, start) of the words after a title: "{date}", "{date} at {time}" or "at {time} [on] {date}"."""
    text = " ".join(rest)
    if rest and rest[0] == "at":
        for cut in range(2, len(rest)):
            try:
                return parse_date(" ".join(rest[cut:])), read_event_time(" ".join(rest[1:cut]))
            except UnknownValue:
                continue
        raise UnknownValue(f"{text!r} is not a time and a day")
    if "at" in rest:
        cut = len(rest) - 1 - rest[::-1].index("at")
        return parse_date(" ".join(rest[:cut])), read_event_time(" ".join(rest[cut + 1:]))
    return parse_date(text), None


def read_event(text: str) -> Event:
    """An event as "{title} {date} [at {time}]" or "{title} at {time} {date}": the shortest title whose rest reads
    as a day (and a time) wins ("lunch with sam next friday at noon": "next friday", noon).

    Raises:
        UnknownValue: no split reads as a title and a day, or the day has passed.
    """  # noqa: D205
    tokens = words(text)
    for cut in range(1, len(tokens)):
        try:
            date, start = _when(tokens[cut:])
        except UnknownValue:
            continue
        if date < C.DATE:
            raise UnknownValue(f"{' '.join(tokens[cut:])!r} has passed (today is {C.long_date(str(C.DATE))})")
        return Event(read_title(" ".join(tokens[:cut])), str(date), start)
    raise UnknownValue(f"{text!r} names no day for the event (say 'tomorrow at 3pm' or 'on March 3rd')")


def read_timed_kind(text: str) -> Event:
    """A kind of event whose start is named and that needs a day and time ("meeting with the team tomorrow at 3pm").

    Raises:
        UnknownValue: no kind of event (`KINDS`) in its title, or no time.
    """
    event = read_event(text)
    if event.start is None:
        raise UnknownValue(f"{text!r} names no time for the event")
    if not set(words(event.title)) & set(KINDS):
        raise UnknownValue(f"{event.title!r} names no kind of event (a meeting, an appointment, a lunch, ...)")
    return event


def read_event_at(text: str) -> tuple[str, str]:
    """An event named by its start, "2 pm meeting", as (start "HH:MM", its kind capitalised: "Meeting").

    Raises:
        UnknownValue: the last word is no kind of event, or the rest no time.
    """
    tokens = words(text)
    if len(tokens) < 2 or tokens[-1] not in KINDS:
        raise UnknownValue(f"{text!r} names no event by its time ('my 2 pm meeting')")
    return read_event_time(" ".join(tokens[:-1])), tokens[-1].capitalize()


def read_day(text: str) -> str:
    """A day whose events to show, at most `PAGED_DAYS` from today (the day view pages one day per tap).

    Raises:
        UnknownValue: not a date, or too far away.
    """
    date = parse_date(text)
    if abs((date - C.DATE).days) > PAGED_DAYS:
        raise UnknownValue(f"{text!r} is {abs((date - C.DATE).days)} days from today: the day view task pages at most "
                           f"{PAGED_DAYS}")
    return str(date)


_TIME_WORDS = ("am", "pm", "noon", "midnight", *NUMBER_WORDS)
READERS = {
    "event": Parsed("event", read_event, (*DATE_WORDS, *_TIME_WORDS, "at")),
    "timed_event": Parsed("event", read_timed_kind, (*DATE_WORDS, *_TIME_WORDS, "at", *KINDS)),
    "event_title": Parsed("event title", read_title),
    "event_date": Parsed("date", read_event_date, tuple(DATE_WORDS)),
    "event_time": Parsed("time", read_event_time, _TIME_WORDS),
    "event_at": Parsed("event at a time", read_event_at, (*_TIME_WORDS, *KINDS)),
    "new_event_time": Parsed("time", read_event_time, _TIME_WORDS),
    "day": Parsed("day", read_day, tuple(DATE_WORDS)),
}
"""The readers of this module's slots."""


def _created(later: bool) -> Callable[[Slots], dict[str, Any]]:
    """The build of a new event's params (from one `event` slot, or from a title, a date and maybe a time).

    It refuses the other template's events: more than `NEAR_MONTHS` months on unless `later`, fewer if `later`.
    """
    def build(slots: Slots) -> dict[str, Any]:
        event = slots.get("event") or slots.get("timed_event")
        if event is None:
            event = Event(slots["event_title"], slots["event_date"], slots.get("event_time"))
        if (months_ahead(event.date) > NEAR_MONTHS) != later:
            raise UnknownValue(f"{C.long_date(event.date)} is {months_ahead(event.date)} months on: the "
                               f"{'later' if not later else 'near'} event template's")
        return {"title": event.title, "date": event.date, "start": event.start}
    return build


def _moved(slots: Slots) -> dict[str, Any]:
    """Today's event of that kind at that time, moved to the new time; seeded events of that kind are cleared so
    that "my 2 pm meeting" is the only one."""  # noqa: D205, D209
    start, kind = slots["event_at"]
    if slots["new_event_time"] == start:
        raise UnknownValue(f"the {kind.lower()} starts at {C.clock(start)} already")
    clash = [t for t in C.SEEDED_TITLES if kind.lower() in words(t)]
    return {"title": kind, "date": str(C.DATE), "start": start, "length": 60, "new_start": slots["new_event_time"],
            "absent": clash}


def _placed(slots: Slots) -> dict[str, Any]:
    """An event named by its title alone, on a day and at a time drawn from the title (an hour long)."""
    title = slots["event_title"]
    k = stable_seed("everyday-event", title.casefold())
    return {"title": title, "date": iso(DAYS[k % len(DAYS)]), "start": STARTS[k % len(STARTS)], "length": 60}


def _day(slots: Slots) -> dict[str, Any]:
    return {"date": slots["day"]}


_CREATE = "(create|add|make|schedule|set up|put|plan)"
_NEW_EVENT = (
    f"{_CREATE} [a|an|new|the] [calendar] event (for|called|named|titled) {{event}} [(in|on|to) [my|the] calendar]",
    f"{_CREATE} [a|an|my] {{timed_event}}",
    f"{_CREATE} [a|an|my] {{event}} (in|on|to) [my|the] calendar",
    "(put|add) {event_title} (on|to|in) [my|the] calendar (for|on) {event_date} [at {event_time}]",
)
"""How a new event is asked for (a bare "Add a ..." only with a kind of event, a day and a time)."""

RULES: tuple[Rule, ...] = (
    rule("calendar", CreateEventTemplate(), _NEW_EVENT, _created(later=False), readers=READERS),
    rule("calendar", CreateLaterEventTemplate(), _NEW_EVENT, _created(later=True), readers=READERS),
    rule("calendar", ChangeStartTemplate(), (
        "(move|change|push|reschedule|shift) [my|the] {event_at} to {new_event_time}",
        "(move|change|push|reschedule) [my|the] {event_at} to start at {new_event_time}",
    ), _moved, readers=READERS),
    rule("calendar", DeleteEventTemplate(), (
        "(delete|remove|cancel) [the|my] [calendar] event (called|named|titled) {event_title} [from my calendar]",
        "(delete|remove) [the|my] {event_title} event [from my calendar]",
    ), _placed, readers=READERS),
    rule("calendar", DayScheduleTemplate(), (
        "(whats|what is|what's) on my (calendar|schedule|agenda) [for] {day}",
        "what (do i have|have i got) [on] [my calendar] [for] {day}",
        "(show me|open) my (calendar|schedule|agenda|events) (for|on) {day}",
    ), _day, readers=READERS),
)
"""The calendar families' everyday rules (see the module docstring)."""
