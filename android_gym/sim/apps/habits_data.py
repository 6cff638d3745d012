"""Loop Habit Tracker's data: the typed state tasks read (`HabitsState`), the initial conditions they set
(`HabitsInitial`), the figures the app computes from a habit's history (score, streaks, counts) and how it writes
them, and the habits a fresh phone holds.

A habit is a `HabitState`: its name, question, kind ("yes_no", or "measurable": a number per day with a unit and a
daily target), frequency as Loop stores it (`times` in `days`: every day 1/1, every 3 days 1/3, 3 times per week
3/7, 5 times per month 5/30), colour, reminder ("HH:MM", 24-hour, "" for none), notes, whether it is archived, and
its history: ISO day to value (1 for a checked yes/no day; the day's number for a measurable habit; a day not listed
holds nothing). A day counts as done when its value reaches the target (1 for yes/no habits).

The figures follow the app's detail page: the score is an exponential average of done days since the first entry
(Loop's: each day keeps 0.5 ** (sqrt(times / days) / 13) of the score before it), the current streak counts the done
days running up to today (or to yesterday while today is not done yet: the day is not over), the best streak is the
longest run, the total counts done days, and the history counts done days per month.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, iso_day, refuse_blank
from android_gym.sim.apps.calendar import TODAY

PACKAGE = "org.isoron.uhabits"
DATE = datetime.date(*TODAY[:3])
COLORS = ("Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple", "Pink", "Grey")
"""The colour palette of the habit form, in its order."""
SORTS = ("Manually", "By name", "By color", "By score", "By status")
"""The list's sort orders (the Sort menu)."""
SEED_HABITS = (
    ("Meditate", "Did you meditate today?", "", 0), ("Exercise", "Did you exercise today?", "", 0),
    ("Floss", "Did you floss today?", "", 0), ("Journal", "Did you write in your journal?", "", 0),
    ("Practice guitar", "Did you practice guitar?", "", 0), ("Stretch", "Did you stretch today?", "", 0),
    ("Read", "How many pages did you read?", "pages", 20), ("Drink water", "How many glasses of water?", "glasses", 8),
    ("Walk", "How many minutes did you walk?", "minutes", 30),
)
"""The seeded habits: name, question, unit and daily target (measurable ones have a unit)."""


def frequency_label(times: int, days: int) -> str:
    """A frequency as the habit form and the detail page write it.

    >>> frequency_label(1, 1), frequency_label(1, 3), frequency_label(3, 7), frequency_label(5, 30)
    ('Every day', 'Every 3 days', '3 times per week', '5 times per month')
    >>> frequency_label(1, 7)
    'Every week'
    """
    if times == 1:
        return "Every day" if days == 1 else "Every week" if days == 7 else f"Every {days} days"
    if days == 7:
        return f"{times} times per week"
    return f"{times} times per month" if days == 30 else f"{times} times in {days} days"


def reminder_label(reminder: str) -> str:
    """A reminder as the form shows it (12-hour, as the phone's clock).

    >>> reminder_label("07:30"), reminder_label("19:05"), reminder_label("")
    ('7:30 AM', '7:05 PM', 'Off')
    """
    if not reminder:
        return "Off"
    h, m = map(int, reminder.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def parse_time(text: str) -> str | None:
    """A typed time ("7:30", "07:30", "19:05", "7:30 pm") as "HH:MM", or None when it is not one.

    >>> parse_time("7:30"), parse_time("7:30 PM"), parse_time("12:15 am"), parse_time("25:00"), parse_time("x")
    ('07:30', '19:30', '00:15', None, None)
    """
    t = text.strip().lower().replace(".", "")
    half = t[-2:] if t.endswith(("am", "pm")) else ""
    h, sep, m = t.removesuffix(half).strip().partition(":")
    if not (sep and h.isdigit() and m.isdigit() and len(m) == 2):
        return None
    hour, minute = int(h), int(m)
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "pm" else 0)
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


def is_done(habit: Mapping[str, Any], value: int) -> bool:
    """Whether a day's `value` counts as done for `habit` (reaches its target; yes/no habits: checked)."""
    return value >= max(1, habit["target"]) if habit["kind"] == "measurable" else value > 0


def done_days(habit: Mapping[str, Any]) -> list[datetime.date]:
    """The days `habit` was done, oldest first."""
    return sorted(datetime.date.fromisoformat(d) for d, v in habit["entries"].items() if is_done(habit, v))


def current_streak(habit: Mapping[str, Any], today: datetime.date = DATE) -> int:
    """Done days running up to `today`, or up to yesterday while today is not done.

    >>> h = {"kind": "yes_no", "target": 0, "entries": {"2026-06-08": 1, "2026-06-09": 1, "2026-06-06": 1}}
    >>> current_streak(h), best_streak(h), total(h)
    (2, 2, 3)
    """
    days = set(done_days(habit))
    day = today if today in days else today - datetime.timedelta(days=1)
    count = 0
    while day in days:
        count, day = count + 1, day - datetime.timedelta(days=1)
    return count


def best_streak(habit: Mapping[str, Any]) -> int:
    """The longest run of done days."""
    best = run = 0
    previous = None
    for day in done_days(habit):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best, previous = max(best, run), day
    return best


def total(habit: Mapping[str, Any]) -> int:
    """How many days `habit` was done."""
    return len(done_days(habit))


def month_count(habit: Mapping[str, Any], year: int, month: int) -> int:
    """How many days of `month` (of `year`) `habit` was done."""
    return sum(1 for d in done_days(habit) if (d.year, d.month) == (year, month))


def score(habit: Mapping[str, Any], today: datetime.date = DATE) -> int:
    """The habit's score in percent (0-100), Loop's exponential average from its first entry up to `today`.

    >>> score({"kind": "yes_no", "target": 0, "times": 1, "days": 1, "entries": {}})
    0
    """
    days = done_days(habit)
    if not habit["entries"]:
        return 0
    keep = 0.5 ** (math.sqrt(habit["times"] / habit["days"]) / 13.0)
    start = min(datetime.date.fromisoformat(d) for d in habit["entries"])
    done, value = set(days), 0.0
    for k in range((today - start).days + 1):
        value = value * keep + (1 - keep) * ((start + datetime.timedelta(days=k)) in done)
    return round(100 * value)


def seeded_habits(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s habits: 4-6 of `SEED_HABITS`, each with a history over the 30-70 days before today."""
    rng = np.random.default_rng(stable_seed("habits", seed))
    picks = sorted(rng.choice(len(SEED_HABITS), size=int(rng.integers(4, 7)), replace=False))
    out = []
    for k in picks:
        name, question, unit, target = SEED_HABITS[k]
        rate, age = float(rng.uniform(0.35, 0.9)), int(rng.integers(30, 71))
        entries: dict[str, int] = {}
        for back in range(age, 0, -1):
            if rng.random() < rate:
                value = int(rng.integers(target // 2, target * 2)) if unit else 1
                entries[str(DATE - datetime.timedelta(days=back))] = value
        out.append(habit(name, question=question, kind="measurable" if unit else "yes_no", unit=unit,
                         target=target, color=COLORS[int(k) % len(COLORS)], entries=entries))
    return out


def habit(name: str, **fields: Any) -> dict[str, Any]:
    """A habit's data: `name` and `fields` over the form's defaults (a yes/no habit every day, no reminder)."""
    base = {"name": name, "question": "", "kind": "yes_no", "times": 1, "days": 1, "color": "Teal", "reminder": "",
            "notes": "", "unit": "", "target": 0, "archived": False, "entries": {}}
    return {**base, **fields}


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["list", "habit", "form"]
Kind = Literal["yes_no", "measurable"]


@closed
class HabitState(TypedDict):
    """A habit: its form's fields, whether it is archived, and its history (ISO day to value)."""

    name: str
    question: str
    kind: Kind
    times: int
    days: int
    color: str
    reminder: str
    notes: str
    unit: str
    target: int
    archived: bool
    entries: dict[str, int]


@closed
class EntryChange(TypedDict):
    """One day's value set this episode (0: the day cleared)."""

    habit: str
    day: str
    value: int


@closed
class HabitEdit(TypedDict):
    """One saved edit of a habit's form: its name before, and the fields that changed with their new values."""

    habit: str
    changes: dict[str, str | int]


@closed
class HabitsState(TypedDict):
    """What Loop Habit Tracker reports (`HabitsApp.state`).

    Attributes:
        habits: every habit, archived ones too, in the app's manual order.
        sort: the list's sort order (one of `SORTS`).
        show_archived: whether the list shows archived habits.
        screen: the front screen's name, None when the app has none on the stack.
        open: the name of the habit whose page or edit form is in front, or None.
        last_opened: the last habit whose page was opened this episode, or None.
        added: the names of the habits created this episode (as they are named now).
        removed: the names of the habits deleted this episode.
        edited: the episode's saved form edits, in order (a Save that changed nothing is none).
        archived: the names of habits archived this episode, in order.
        unarchived: the names of habits unarchived this episode, in order.
        entries: the days' values set this episode, in order.
    """

    habits: list[HabitState]
    sort: str
    show_archived: bool
    screen: Page | None
    open: str | None
    last_opened: str | None
    added: list[str]
    removed: list[str]
    edited: list[HabitEdit]
    archived: list[str]
    unarchived: list[str]
    entries: list[EntryChange]


class HabitSpec(ConfigModel):
    """A habit a task puts on the phone.

    Attributes:
        name: its name (not blank).
        question: its question.
        kind: "yes_no" or "measurable".
        times: how many times per `days` it is meant to be done.
        days: the period of the frequency, in days.
        color: one of `COLORS`.
        reminder: its reminder ("HH:MM", 24-hour; "" for none).
        notes: its notes.
        unit: a measurable habit's unit ("pages").
        target: a measurable habit's daily target.
        archived: whether it is archived.
        entries: its history: ISO day ("2026-06-09") to value (1 for a checked yes/no day).
    """

    name: str
    question: str = ""
    kind: Kind = "yes_no"
    times: int = Field(default=1, ge=1)
    days: int = Field(default=1, ge=1)
    color: str = "Teal"
    reminder: str = ""
    notes: str = ""
    unit: str = ""
    target: int = Field(default=0, ge=0)
    archived: bool = False
    entries: dict[str, int] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)

    @field_validator("reminder")
    @classmethod
    def _clock(cls, reminder: str) -> str:
        if reminder and parse_time(reminder) != reminder:
            raise FieldError("reminder", 'a 24-hour time reading "07:30", or ""', reminder)
        return reminder

    @field_validator("color")
    @classmethod
    def _color(cls, color: str) -> str:
        if color not in COLORS:
            raise FieldError("color", f"one of {', '.join(COLORS)}", color)
        return color

    @field_validator("entries")
    @classmethod
    def _days(cls, entries: dict[str, int]) -> dict[str, int]:
        for day in entries:
            iso_day("entries", day)
        return entries


class HabitsInitial(ConfigModel):
    """The initial conditions a Loop Habit Tracker task may set, applied in this order; they are the set-up, not
    changes (nothing counts as added or edited).

    Attributes:
        clear: whether every seeded habit is removed first.
        absent: names of seeded habits removed.
        habits: habits added after the others (in the manual order).
    """  # noqa: D205

    clear: bool = False
    absent: tuple[str, ...] = ()
    habits: tuple[HabitSpec, ...] = ()
