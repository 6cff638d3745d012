"""Tests of the World suite's OpenTracks templates beyond the contract: each loses to its near miss (the twin track
answered, renamed, recategorised, deleted or texted; a wrong activity type; the distance texted to someone else)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import opentracks_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

DISTANCE, DURATION, RENAME, RECATEGORISE, DELETE, TEXT = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin track's name."""
    return p["twin"]


@pytest.mark.parametrize(("template", "near_misses"), [
    (DISTANCE, [playing(DISTANCE, name=twin)]),
    (DURATION, [playing(DURATION, name=twin)]),
    (RENAME, [playing(RENAME, name=twin), playing(RENAME, new=lambda p: p["new"] + "s")]),
    (RECATEGORISE, [playing(RECATEGORISE, name=twin),
                    playing(RECATEGORISE, new_category=lambda p: p["new_category"].split()[-1] + "s")]),
    (DELETE, [playing(DELETE, name=twin)]),
    (TEXT, [playing(TEXT, name=twin), playing(TEXT, person="Dana Whitfield")]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)
