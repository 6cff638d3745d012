"""Markor's modification times and its "Sort by" choice (issue 48): what lets a user find the newest note.

An item's time is its age in days (`MarkorApp.ages`, the notebook's own) and a time of day in minutes after midnight
(`MarkorApp.minutes`): seeded items' times are drawn from a stream of their own (`minutes_of`), so the notebook's
draws stay as they were; what is created, saved or added by a task is stamped at the phone's clock, 9:41 today.
The browser lists by name (folders first), or by date: newest first (folders first too).
"""

from __future__ import annotations

import datetime

import numpy as np

from android_gym.config_model import FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.layout import WIDTH
from android_gym.sim.view import View

DATE = datetime.date(*TODAY[:3])
NOW_MIN = 9 * 60 + 41
"""The phone's clock (9:41) in minutes after midnight: the time of what is created or saved."""
SORTS = ("Name", "Date")
"""The browser's orders: by name, or by modification time, newest first."""
FORMAT = "%Y-%m-%d %H:%M"


def minutes_of(seed: int, ages: dict[str, int]) -> dict[str, int]:
    """Episode `seed`'s times of day (minutes after midnight) of items `ages` days old: today's before the clock."""
    rng = np.random.default_rng(stable_seed("markor-time", seed))
    return {p: int(rng.integers(0, NOW_MIN if ages[p] == 0 else 24 * 60)) for p in sorted(ages)}


def stamp(age: int, minute: int) -> str:
    """The time of an item `age` days old at `minute` after midnight.

    >>> stamp(0, 581), stamp(2, 0)
    ('2026-06-10 09:41', '2026-06-08 00:00')
    """
    return f"{DATE - datetime.timedelta(days=age)} {minute // 60:02d}:{minute % 60:02d}"


def parse(text: str) -> tuple[int, int]:
    """(age in days, minute of the day) of a time "YYYY-MM-DD HH:MM".

    >>> parse("2026-06-09 23:05")
    (1, 1385)

    Raises:
        FieldError: naming `times`, for text that is no such time.
    """
    try:
        when = datetime.datetime.strptime(text, FORMAT)
    except ValueError:
        raise FieldError("times", 'times like "2026-06-10 09:41"', text) from None
    return (DATE - when.date()).days, when.hour * 60 + when.minute


def row_time(age: int, minute: int) -> str:
    """An item's time as a browser row shows it ("Jun 9, 2026, 23:05").

    >>> row_time(1, 1385)
    'Jun 9, 2026, 23:05'
    """
    when = DATE - datetime.timedelta(days=age)
    return f"{when:%b} {when.day}, {when.year}, {minute // 60:02d}:{minute % 60:02d}"


def sort_dialog(package: str, current: str) -> View:
    """The "Sort by" dialog: a radio row per order (event ("sort_by", order)), `current` checked."""
    y = dialog_body_top(560)
    rows = [View("android.widget.RadioButton", (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130), text=order,
                 package=package, clickable=True, focusable=True, checkable=True, checked=order == current,
                 on_tap=("sort_by", order), style="radio") for k, order in enumerate(SORTS)]
    return app_dialog(package, "Sort by", rows, [("Cancel", ("cancel",), True)])
