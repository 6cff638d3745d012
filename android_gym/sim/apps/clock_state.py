"""The Clock app's typed seam and starting data: its state schemas, its initial conditions, the seeded alarms.

Tasks read `ClockState` (what `ClockApp.state` reports) and set `ClockInitial` (applied by `ClockApp.set_up`). The
tables the seam checks against live here too: the days of the week (`DAYS`) and the world-clock cities (`CITIES`),
with the cities of a fresh install (`WORLD`). An episode's distractor alarms (`ClockInitial.seeded`) are drawn by
`seeded_alarms` from `stable_seed("clock", phone.seed)` (never from the episode RNG). The app that shows and edits all
this is `android_gym.sim.apps.clock.ClockApp`.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CITIES = {
    "Honolulu": -600, "Anchorage": -480, "Los Angeles": -420, "Vancouver": -420, "Denver": -360,
    "Mexico City": -360, "Chicago": -300, "New York": -240, "Toronto": -240, "Sao Paulo": -180,
    "Buenos Aires": -180, "Reykjavik": 0, "Lisbon": 60, "London": 60, "Lagos": 60, "Paris": 120, "Berlin": 120,
    "Rome": 120, "Madrid": 120, "Johannesburg": 120, "Cairo": 180, "Athens": 180, "Istanbul": 180, "Moscow": 180,
    "Nairobi": 180, "Dubai": 240, "Karachi": 300, "Mumbai": 330, "Kathmandu": 345, "Dhaka": 360, "Bangkok": 420,
    "Jakarta": 420, "Singapore": 480, "Hong Kong": 480, "Manila": 480, "Seoul": 540, "Tokyo": 540,
    "Adelaide": 570, "Sydney": 600, "Auckland": 720,
}
"""The world clock's cities and their UTC offsets in minutes (summer time); the phone's own zone is UTC."""
WORLD = ("New York", "London", "Tokyo")
"""The world clock's cities on a fresh install."""
SEEDED_LABELS = ("Wake up", "Medicine", "School run", "Walk the dog", "Standup", "Lunch", "")
"""Labels of the seeded distractor alarms (task templates name other labels)."""
SEEDED_DAYS = ((), (), DAYS[:5], DAYS[5:], DAYS, ("Tuesday", "Thursday"))
MAX_SEEDED = 8


def seeded_alarms(seed: int, n: int, taken: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """Episode `seed`'s `n` distractor alarms at 5-minute times from 5 AM to 10 PM, none at a `taken` (hour, minute)."""
    rng = np.random.default_rng(stable_seed("clock", seed))
    taken, out = set(taken), []
    while len(out) < n:
        hour, minute = int(rng.integers(5, 23)), 5 * int(rng.integers(12))
        if (hour, minute) not in taken:  # the fields are drawn in the dict's order, so a seed fixes them
            taken.add((hour, minute))
            out.append({"hour": hour, "minute": minute, "enabled": bool(rng.random() < 0.7),
                        "label": SEEDED_LABELS[int(rng.integers(len(SEEDED_LABELS)))],
                        "days": list(SEEDED_DAYS[int(rng.integers(len(SEEDED_DAYS)))])})
    return out


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Day = Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
Tab = Literal["Alarm", "Clock", "Timer", "Stopwatch"]


@closed
class AlarmState(TypedDict):
    """An alarm as tasks see it: 24-hour time, whether it will ring, its label ("" for none)."""

    hour: int
    minute: int
    enabled: bool
    label: str


@closed
class AlarmCard(AlarmState):
    """An alarm with its id (alarms set at reset count from 0) and repeat days (Monday first)."""

    id: int
    days: list[Day]


@closed
class AlarmEdit(TypedDict):
    """One edit of the episode's log: what was done to which alarm."""

    op: Literal["add", "time", "label", "days", "on", "off", "delete"]
    id: int


@closed
class TimerEntry(TypedDict):
    """The keypad's digits ("hhmmss", right-aligned) and whether any timer runs."""

    digits: str
    running: bool


@closed
class TimerState(TypedDict):
    """A timer: its set and remaining seconds, whether it runs, its label."""

    duration_s: int
    remaining_s: int
    running: bool
    label: str


@closed
class StopwatchState(TypedDict):
    """The stopwatch: running or not, and the laps taken."""

    running: bool
    laps: int


@closed
class ClockState(TypedDict):
    """What the Clock app reports (`ClockApp.state`).

    Attributes:
        alarms: every alarm sorted by time (alarms of one time in the order they were set).
        alarm_cards: the same alarms with ids and repeat days.
        alarm_edits: the episode's edits in order.
        tab: the tab in front when the app is (the last tab used otherwise).
        screen: the front Clock screen's name, None when the Clock has no screen on the stack.
        cities: the world clock's cities in order.
        timer: the keypad's entry; timers: every timer in order; stopwatch: the stopwatch.
    """

    alarms: list[AlarmState]
    alarm_cards: list[AlarmCard]
    alarm_edits: list[AlarmEdit]
    tab: Tab
    screen: str | None
    cities: list[str]
    timer: TimerEntry
    timers: list[TimerState]
    stopwatch: StopwatchState


class AlarmSpec(ConfigModel):
    """An alarm a task puts on the phone.

    Attributes:
        hour: 0-23; minute: 0-59.
        enabled: whether it will ring.
        label: its label ("" for none).
        days: the days it repeats on (none: once).
    """

    hour: int = Field(ge=0, le=23)
    minute: int = Field(ge=0, le=59)
    enabled: bool = True
    label: str = ""
    days: tuple[Day, ...] = ()


def alarm_of(spec: AlarmSpec) -> dict[str, Any]:
    """An alarm of the app's list from its initial-conditions spec (days in the week's order)."""
    return {"hour": spec.hour, "minute": spec.minute, "enabled": spec.enabled, "label": spec.label,
            "days": [d for d in DAYS if d in spec.days]}


class ClockInitial(ConfigModel):
    """The initial conditions a Clock task may set.

    Attributes:
        alarms: alarms set before the episode (ids 0, 1, ... in this order).
        seeded: distractor alarms drawn from the episode seed (`seeded_alarms`), at times no given alarm and no
            `free` time takes.
        free: (hour, minute) times the seeded alarms keep clear (a time the task will set).
        cities: the world clock's cities, replacing the fresh install's three; None keeps them.
        tab: the tab the app opens on; None keeps the Alarm tab.
        stopwatch_running: whether the stopwatch runs; laps: the laps it has taken (a paused one with laps was run
            before; AndroidWorld's stopwatch tasks start from several such states).
    """

    alarms: tuple[AlarmSpec, ...] = ()
    seeded: int = Field(default=0, ge=0, le=MAX_SEEDED)
    free: tuple[tuple[int, int], ...] = ()
    cities: tuple[str, ...] | None = None
    tab: Tab | None = None
    stopwatch_running: bool = False
    laps: int = Field(default=0, ge=0, le=99)

    @field_validator("cities")
    @classmethod
    def _known_cities(cls, cities: tuple[str, ...] | None) -> tuple[str, ...] | None:
        unknown = [c for c in cities or () if c not in CITIES]
        if unknown:
            raise FieldError("cities", f"world-clock cities ({', '.join(CITIES)})", unknown)
        return cities
