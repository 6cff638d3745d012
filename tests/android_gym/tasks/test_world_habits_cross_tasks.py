"""Tests of the World suite's Loop Habit Tracker templates across apps beyond the contract: each loses to its near
miss (the twin habit's streak, count or reminder carried; the text to someone else; the to-do of the other list; the
other event's start), and a written figure is read as the only number besides the habit's name."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import habits_cross_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

TEXT, NOTE, ALARM, TODO, EVENT = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin habit's name."""
    return p["twin"]


@pytest.mark.parametrize(("template", "near_misses"), [
    (TEXT, [playing(TEXT, name=twin), playing(TEXT, person="Dana Whitfield")]),
    (NOTE, [playing(NOTE, name=twin), playing(NOTE, note="other_note.md")]),
    (ALARM, [playing(ALARM, name=twin)]),
    (TODO, [playing(TODO, list=lambda p: p["other_list"])]),
    (EVENT, [playing(EVENT, event=lambda p: p["other"]), playing(EVENT, name=twin)]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


@pytest.mark.parametrize(("text", "name", "numbers"), [
    ("Bed before 11: 6 days", "Bed before 11", ["6"]), ("6 days in a row", "Plank", ["6"]),
    ("11 days", "Bed before 11", []), ("Plank: 4.", "Plank", ["4"]),
])
def test_the_figure_is_the_only_number_besides_the_habits_name(text: str, name: str, numbers: list) -> None:
    assert T.numbers_besides(text, name) == numbers
