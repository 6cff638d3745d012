"""Tests of the World suite's cross-app AnkiDroid templates beyond the contract: each loses to its near miss (cards
made in the wrong deck or of too few lines, another word, the twin deck's count texted or noted, the text sent to
someone else, the reminder for the wrong deck or in the wrong list)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import todo
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import anki_cross_tasks as X
from android_gym.tasks.world.base import nth
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

MARKOR, JOPLIN, TEXT, NOTE, REMINDER = X.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def other_language(p: dict) -> str:
    """The twin language deck the task puts beside its own."""
    return nth(X.LANGUAGES, X.LANGUAGES.index(p["deck"]) + 1)


@pytest.mark.parametrize(("template", "near_misses"), [
    (MARKOR, [playing(MARKOR, deck=other_language), playing(MARKOR, count=lambda p: p["count"] - 1)]),
    (JOPLIN, [playing(JOPLIN, deck=other_language), playing(JOPLIN, v=lambda p: p["v"] + 1)]),
    (TEXT, [playing(TEXT, deck=lambda p: p["twin"]), playing(TEXT, person="Dana Whitfield")]),
    (NOTE, [playing(NOTE, deck=lambda p: p["twin"])]),
    (REMINDER, [playing(REMINDER, deck=lambda p: p["others"][0]),
                playing(REMINDER, list=lambda p: nth(todo.LISTS, todo.LISTS.index(p["list"]) + 1))]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_notes_hold_the_words_the_checks_want() -> None:
    """The Markor note lists each pair as "front - back"; the Joplin note names the word and its meaning."""
    p = MARKOR.values("train")[0]
    text = MARKOR.initial(p)[X.MARKOR]["files"][p["note"]]
    assert all(f"{f} - {b}" in text.splitlines() for f, b in X._pairs(p)) and len(X._pairs(p)) == p["count"]
    q = JOPLIN.values("train")[0]
    (front, back), = X._pairs(q)
    body = JOPLIN.initial(q)[X.J.PACKAGE]["notes"][0]["body"]
    assert front in body and back in body
