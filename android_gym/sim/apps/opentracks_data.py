"""OpenTracks' data: the typed state tasks read (`OpenTracksState`), the initial conditions they set
(`OpenTracksInitial`), how the app writes distances, times and dates, and the tracks a fresh phone holds.

A track is a `TrackState`: its name, category (OpenTracks' free-text "activity type", "" when none was given),
description, start day ("YYYY-MM-DD") and time ("HH:MM", 24-hour), total time in seconds, distance in metres and
elevation gain and loss in metres. The app shows distances in kilometres with two decimals and times as Android's
elapsed-time format ("45:00", "1:30:00"), so a distance of whole tens of metres reads back exactly.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, iso_day, refuse_blank
from android_gym.sim.apps.calendar import TODAY

PACKAGE = "de.dennisguse.opentracks"
DATE = datetime.date(*TODAY[:3])
NOW = "09:41"
"""The phone's time of day at reset (the status bar's clock): a track recorded now starts then."""
SEED_TRACKS = {
    "running": ("Morning Run", "Evening Run", "Park Loop", "Tempo Run", "Riverside Jog"),
    "cycling": ("Commute Ride", "Hill Repeats", "Coffee Ride", "Long Ride", "Gravel Loop"),
    "walking": ("Dog Walk", "Lunch Walk", "Evening Stroll", "Market Walk"),
    "hiking": ("Ridge Hike", "Forest Trail", "Lake Hike", "Summit Push"),
    "swimming": ("Pool Laps", "Open Water Swim"),
}
"""The seeded tracks' activity types and names."""
SPEED_M_PER_MIN = {"running": 170, "cycling": 350, "walking": 80, "hiking": 60, "swimming": 35}
"""Each seeded activity type's pace, in metres per minute (a track's distance follows its time)."""
RECORDING_M_PER_S = 3
"""How far a track being recorded goes per second (one agent step): a jogging pace."""


def distance_label(metres: int) -> str:
    """A distance as the app shows it: kilometres with two decimals.

    >>> distance_label(5230), distance_label(0), distance_label(12000)
    ('5.23 km', '0.00 km', '12.00 km')
    """
    return f"{metres / 1000:.2f} km"


def time_label(seconds: int) -> str:
    """A total time as the app shows it (Android's elapsed time: minutes and seconds, hours when there are any).

    >>> time_label(45 * 60), time_label(90 * 60), time_label(7)
    ('45:00', '1:30:00', '00:07')
    """
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


def start_label(day: str, start: str) -> str:
    """A track's start as the list shows it.

    >>> start_label("2026-06-08", "17:45"), start_label("2026-06-10", "06:05")
    ('Jun 8, 2026 5:45 PM', 'Jun 10, 2026 6:05 AM')
    """
    d, (h, m) = datetime.date.fromisoformat(day), map(int, start.split(":"))
    return f"{d:%b} {d.day}, {d.year} {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def speed_label(metres: int, seconds: int) -> str:
    """An average speed in km/h with one decimal.

    >>> speed_label(5000, 1800), speed_label(100, 0)
    ('10.0 km/h', '0.0 km/h')
    """
    return f"{metres / seconds * 3.6 if seconds else 0:.1f} km/h"


def seeded_tracks(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s tracks, oldest first: 5-10 of them over the 40 days before today, distances to 10 m."""
    rng = np.random.default_rng(stable_seed("opentracks", seed))
    count = int(rng.integers(5, 11))
    ages = sorted((int(a) + 1 for a in rng.choice(40, size=count, replace=False)), reverse=True)
    kinds = tuple(SEED_TRACKS)
    out = []
    for age in ages:
        kind = kinds[int(rng.integers(len(kinds)))]
        minutes = int(rng.integers(10, 151))
        climb = int(rng.integers(0, 300)) if kind in ("hiking", "cycling", "running") else 0
        out.append({"name": SEED_TRACKS[kind][int(rng.integers(len(SEED_TRACKS[kind])))], "category": kind,
                    "description": "", "date": str(DATE - datetime.timedelta(days=age)),
                    "start": f"{int(rng.integers(6, 20)):02d}:{int(rng.integers(0, 4)) * 15:02d}",
                    "duration_s": minutes * 60, "distance_m": round(minutes * SPEED_M_PER_MIN[kind], -1),
                    "elevation_gain_m": climb, "elevation_loss_m": climb})
    return out


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["tracks", "track", "edit", "delete", "recording", "statistics"]


@closed
class TrackState(TypedDict):
    """A track: name, activity type, description, start day and time, total time (s), distance and elevation (m)."""

    name: str
    category: str
    description: str
    date: str
    start: str
    duration_s: int
    distance_m: int
    elevation_gain_m: int
    elevation_loss_m: int


@closed
class RecordingState(TypedDict):
    """The track being recorded: seconds and metres so far."""

    elapsed_s: int
    distance_m: int


@closed
class EditState(TypedDict):
    """One saved edit of a track: its name before, and its name, activity type and description after."""

    track: str
    name: str
    category: str
    description: str


@closed
class OpenTracksState(TypedDict):
    """What OpenTracks reports (`OpenTracksApp.state`).

    Attributes:
        tracks: every track, newest first (as the list shows them).
        recording: the track being recorded, or None.
        screen: the front OpenTracks screen's name, None when the app has none on the stack.
        open: the name of the track whose details (or edit form, or delete dialog) are in front, or None.
        last_opened: the last track opened from the list this episode, or None.
        added: the current names of the tracks recorded this episode.
        removed: the names of the tracks deleted this episode.
        edited: the episode's saved edits, in order (a Save that changed nothing is none).
    """

    tracks: list[TrackState]
    recording: RecordingState | None
    screen: Page | None
    open: str | None
    last_opened: str | None
    added: list[str]
    removed: list[str]
    edited: list[EditState]


class TrackSpec(ConfigModel):
    """A track a task puts on the phone.

    Attributes:
        name: its name (not blank).
        category: its activity type ("" for none).
        description: its description.
        date: the day it started ("YYYY-MM-DD"; default the sim's today).
        start: the time it started ("HH:MM", 24-hour).
        duration_s: its total time in seconds.
        distance_m: its distance in metres.
        elevation_gain_m: metres climbed.
        elevation_loss_m: metres descended.
    """

    name: str
    category: str = ""
    description: str = ""
    date: str = str(DATE)
    start: str = "08:00"
    duration_s: int = Field(ge=0)
    distance_m: int = Field(ge=0)
    elevation_gain_m: int = Field(default=0, ge=0)
    elevation_loss_m: int = Field(default=0, ge=0)

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)

    @field_validator("date")
    @classmethod
    def _iso_day(cls, date: str) -> str:
        return iso_day("date", date)

    @field_validator("start")
    @classmethod
    def _clock(cls, start: str) -> str:
        h, _, m = start.partition(":")
        if len(h) == len(m) == 2 and h.isdigit() and m.isdigit() and int(h) < 24 and int(m) < 60:
            return start
        raise FieldError("start", 'a 24-hour time reading "07:30"', start)


class OpenTracksInitial(ConfigModel):
    """The initial conditions an OpenTracks task may set, applied in this order; they are the set-up, not changes
    (nothing counts as added or removed).

    Attributes:
        clear: whether every seeded track is removed first (AndroidWorld empties the tracks table).
        absent: names of seeded tracks removed.
        tracks: tracks added (listed by start among the others).
    """  # noqa: D205

    clear: bool = False
    absent: tuple[str, ...] = ()
    tracks: tuple[TrackSpec, ...] = ()
