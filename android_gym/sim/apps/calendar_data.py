"""The Calendar app's data: the simulated date, the seeded events, pure helpers over events and times, the typed seam.

The simulated today is `TODAY` (Wednesday 10 June 2026; every app of the sim reads its date from here). Seeded events
are drawn per episode from `stable_seed("calendar", phone.seed)` (`events`), never from the episode RNG. The helpers
turn an event dict and its "HH:MM" times into the text Calendar shows (`clock`, `long_date`, `row_text`) and say which
list view lists it (`in_view`). The typed seam is here too: the schema of the app's state (`CalendarState`, an event
being an `EventState`) and the model of its initial conditions (`CalendarInitial`). The views, events and live state
are `android_gym.sim.apps.calendar.CalendarApp`'s.
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Literal, NotRequired, Self

import numpy as np
from pydantic import field_validator, model_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed

TODAY = (2026, 6, 10, "Wednesday")
"""The simulated date: Wednesday 10 June 2026 (the month has 30 days; weeks start on Monday the 8th)."""
DATE = datetime.date(*TODAY[:3])
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SEEDED_TITLES = ("Team standup", "Dentist", "Lunch with Sam", "Project review", "Yoga class", "Flight to Denver",
                 "Mom's birthday", "1:1 with manager", "Book club", "Haircut", "Soccer practice",
                 "Parent-teacher meeting", "Quarterly planning", "Coffee with Priya", "Car service", "Concert")


def events(seed: int) -> list[dict[str, Any]]:
    """The month's seeded events of episode `seed`, in date order: {"title", "day" (1-30), "hour", "weekday"}."""
    rng = np.random.default_rng(stable_seed("calendar", seed))
    month = rng.choice(np.arange(1, 31), size=10, replace=False)
    week = rng.choice(np.arange(TODAY[2] + 1, 15), size=2, replace=False)  # a busy week: today and two more days
    days = sorted({int(d) for d in (*month, *week, TODAY[2])})
    return [{"title": SEEDED_TITLES[int(rng.integers(len(SEEDED_TITLES)))], "day": d,
             "hour": int(rng.integers(8, 20)), "weekday": _WEEKDAYS[(d - 8) % 7]} for d in days]


def in_view(event: dict[str, Any], view: str, day: datetime.date = DATE) -> bool:
    """Whether `view` lists `event` (an `events()` dict, or the app's with a "date"): `day` (day: today unless the
    day view was paged), the rest of this week (week, to Sunday the 14th), this month (month), today on
    (schedule)."""  # noqa: D205, D209
    d = datetime.date.fromisoformat(event["date"]) if "date" in event else DATE.replace(day=event["day"])
    if view == "day":
        return d == day
    if view == "week":
        return DATE <= d <= datetime.date(2026, 6, 14)
    return d >= DATE if view == "schedule" else (d.year, d.month) == (DATE.year, DATE.month)


def clock(hhmm: str) -> str:
    """A 24-hour "HH:MM" as Calendar shows it.

    >>> clock("14:30"), clock("09:00"), clock("00:15")
    ('2:30 PM', '9:00 AM', '12:15 AM')
    """
    h, m = (int(p) for p in hhmm.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'PM' if h >= 12 else 'AM'}"


def long_date(iso: str) -> str:
    """A date as the event page shows it.

    >>> long_date("2026-06-12")
    'Friday, June 12'
    """
    d = datetime.date.fromisoformat(iso)
    return f"{d:%A}, {d:%B} {d.day}" + ("" if d.year == DATE.year else f", {d.year}")


def row_text(event: dict[str, Any]) -> str:
    """An event's row in a list view.

    >>> row_text({"title": "Gym", "date": "2026-06-12", "start": "18:00", "all_day": False})
    'Gym · Fri, Jun 12 · 6:00 PM'
    """
    d = datetime.date.fromisoformat(event["date"])
    when = "All day" if event["all_day"] else clock(event["start"])
    return f"{event['title']} \u00b7 {d:%a}, {d:%b} {d.day} \u00b7 {when}"


def minutes(hhmm: str) -> int:
    """Minutes after midnight of "HH:MM"."""
    h, m = (int(p) for p in hhmm.split(":"))
    return 60 * h + m


def hhmm(total: int) -> str:
    """The "HH:MM" of `total` minutes after midnight (kept within the day)."""
    total = max(0, min(total, 23 * 60 + 55))
    return f"{total // 60:02d}:{total % 60:02d}"


def sort_key(event: dict[str, Any]) -> tuple:
    """Date order, all-day events first in a day, then by start time."""
    return event["date"], not event["all_day"], event["start"] or "", event["id"]


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
CalendarScreen = Literal["schedule", "day", "week", "month", "event", "menu", "delete", "edit", "date", "time",
                         "repeat"]
Repeat = Literal["daily", "weekly", "monthly", "yearly"]
"""How an event recurs (forever, from its date): the editor's "Every day", "Every week on <its weekday>", ...."""


def repeat_label(repeat: str, date: str) -> str:
    """The editor's words for a repeat rule ("" for none) of an event on `date`.

    >>> repeat_label("", "2026-06-12"), repeat_label("weekly", "2026-06-12"), repeat_label("yearly", "2026-06-12")
    ('Does not repeat', 'Every week on Friday', 'Every year on June 12')
    """
    d = datetime.date.fromisoformat(date)
    return {"": "Does not repeat", "daily": "Every day", "weekly": f"Every week on {d:%A}",
            "monthly": f"Every month on day {d.day}", "yearly": f"Every year on {d:%B} {d.day}"}[repeat]
_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d")


@closed
class EventFields(TypedDict):
    """An event's fields: title, "YYYY-MM-DD" date, 24-hour "HH:MM" start and end (None when all-day), place, notes."""

    title: str
    date: str
    start: str | None
    end: str | None
    all_day: bool
    location: str
    description: str
    repeat: NotRequired[Repeat]
    """Set only on a recurring event (the sim lists it on its first date alone)."""


@closed
class EventState(EventFields):
    """An event on the calendar, with its id (the seeded events count from 1, later ones from the highest id on)."""

    id: int


@closed
class EventDraft(EventFields):
    """The open editor's event as it would be saved (title as typed), with the id of the event it edits."""

    id: int | None


@closed
class CalendarState(TypedDict):
    """What the Calendar app reports (`CalendarApp.state`).

    Attributes:
        view: the front Calendar screen's name, None when Calendar has no screen on the stack.
        event: the open event's title (on its page), else None.
        events: every event in date order (`sort_key`).
        shown: the ids the front list view lists, in order ([] off a list view).
        editing: the open editor's draft (its id None for a new event), None without an editor.
        added: ids of the events created this episode, in order.
        edited: ids of the events changed this episode (each once, in order).
        deleted: the events deleted this episode, as they were.
        opened: ids of the event pages opened from a list, in order.
        day: the date the day view shows ("YYYY-MM-DD", today until paged), None off the day view.
    """

    view: CalendarScreen | None
    event: str | None
    events: list[EventState]
    shown: list[int]
    editing: EventDraft | None
    added: list[int]
    edited: list[int]
    deleted: list[EventState]
    opened: list[int]
    day: str | None


class EventSpec(ConfigModel):
    """An event a task puts on the calendar.

    Attributes:
        title: its title.
        date: its day, "YYYY-MM-DD".
        start, end: 24-hour "HH:MM" times, the end after the start (ignored for an all-day event).
        all_day: whether it lasts the day (it then has no times).
        location: its place ("" for none).
        description: its notes ("" for none).
        repeat: how it recurs ("" for a one-off event).
    """

    title: str
    date: str
    start: str | None = "09:00"
    end: str | None = "10:00"
    all_day: bool = False
    location: str = ""
    description: str = ""
    repeat: Literal["", "daily", "weekly", "monthly", "yearly"] = ""

    @field_validator("date")
    @classmethod
    def _iso_date(cls, date: str) -> str:
        try:
            if str(datetime.date.fromisoformat(date)) == date:
                return date
        except ValueError:
            pass
        raise FieldError("date", 'a "YYYY-MM-DD" date', date)

    @model_validator(mode="after")
    def _times(self) -> Self:
        if self.all_day:
            return self
        for field in ("start", "end"):
            value = getattr(self, field)
            if value is None or not _HHMM.fullmatch(value):
                raise FieldError(field, 'a 24-hour "HH:MM" time (or the event all-day)', value)
        if minutes(self.end) <= minutes(self.start):
            raise FieldError("end", f"a time after the start ({self.start})", self.end)
        return self


class CalendarInitial(ConfigModel):
    """The initial conditions a Calendar task may set, applied in this order.

    Attributes:
        absent: titles whose events are removed (case aside), seeded ones included.
        events: events added (ids on from the highest id there, in this order).
    """

    absent: tuple[str, ...] = ()
    events: tuple[EventSpec, ...] = ()
