"""Tests of the World suite's Play Store templates beyond the contract: each loses to its near miss (the twin app
answered, installed, uninstalled, updated, wishlisted or noted; an install for a wishlist), answers accept a figure
with or without its unit and refuse another figure, and the checks refuse extra changes (Update all, a second
install)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor, playstore
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import playstore_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

RATING, DOWNLOADS, DEVELOPER, INSTALL, UNINSTALL, UPDATE, NOTE, WISH = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin app."""
    return p["twin"]


@pytest.mark.parametrize(("template", "near_misses"), [
    (RATING, [playing(RATING, app=twin)]),
    (DOWNLOADS, [playing(DOWNLOADS, app=twin)]),
    (DEVELOPER, [playing(DEVELOPER, app=twin)]),
    (INSTALL, [playing(INSTALL, app=twin)]),
    (UNINSTALL, [playing(UNINSTALL, app=twin)]),
    (UPDATE, [playing(UPDATE, app=twin)]),
    (NOTE, [playing(NOTE, app=twin)]),
    (WISH, [playing(WISH, app=twin), playing(INSTALL)]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_expert_wins_an_answer_and_an_edit() -> None:
    for template in (RATING, UPDATE):
        assert run_episode(template.tasks("test")[0], seed=3, device=device()).success


def test_answers_accept_units_and_refuse_other_figures() -> None:
    p = RATING.values("train")[0]
    truth = playstore.app_info(p["app"])["rating"]
    assert all(RATING.answer_matches(p, given, truth) for given in (truth, f"{truth} stars", f"{truth}/5"))
    assert not RATING.answer_matches(p, truth.replace(".", ""), truth)
    assert not RATING.answer_matches(p, playstore.app_info(p["twin"])["rating"], truth)
    assert DOWNLOADS.answer_matches(p, "1 million+ downloads", "1M+") and not DOWNLOADS.answer_matches(p, "1M", "5M+")
    assert DEVELOPER.answer_matches(p, "zen labs", "Zen Labs") and not DEVELOPER.answer_matches(p, "Zen", "Zen Labs")


def store(**fields: Any) -> dict[str, Any]:
    """A device state whose Play Store reports `fields` (nothing else changed) and whose Markor holds no note."""
    base = {"installed": [], "installing": [], "updates": [], "updating": [], "updated": [], "page": None,
            "query": None, "viewed": [], "wishlist": []}
    return {"apps": {playstore.PACKAGE: {**base, **fields},
                     markor.PACKAGE: {"files": {}, "edits": []}}}


def test_the_checks_refuse_extra_changes() -> None:
    p = UPDATE.values("test")[0]
    app, other = p["app"], p["twin"]
    both = sorted([app, other])
    assert UPDATE.check(p, store(installed=both, updated=[app], updates=[other]))
    assert not UPDATE.check(p, store(installed=both, updated=both))  # Update all
    assert INSTALL.check(p, store(installed=[app]))
    assert not INSTALL.check(p, store(installed=sorted([app, other])))
    assert not INSTALL.check(p, store(installed=[app], installing=[other]))
    assert UNINSTALL.check(p, store(installed=[other])) and not UNINSTALL.check(p, store(installed=[]))
    assert WISH.check(p, store(wishlist=[app])) and not WISH.check(p, store(wishlist=[app], installed=[app]))
    assert RATING.answer(p, store(installed=[app])) is None  # an answer read after changing the store is none
    assert RATING.answer(p, store(wishlist=[app])) is None


def test_the_note_holds_the_rating_and_nothing_else() -> None:
    p = NOTE.values("train")[0]
    rating = playstore.app_info(p["app"])["rating"]
    state = store()
    edits = [{"op": "create", "path": p["note"]}, {"op": "save", "path": p["note"]}]
    state["apps"][markor.PACKAGE] = {"files": {p["note"]: f"{rating} stars\n"}, "edits": edits}
    assert NOTE.check(p, state)
    state["apps"][markor.PACKAGE] = {"files": {p["note"]: f"{rating} stars, by {p['app']}"}, "edits": edits}
    assert not NOTE.check(p, state)
    state["apps"][markor.PACKAGE] = {"files": {p["note"]: rating}, "edits": [*edits, {"op": "delete", "path": "x.md"}]}
    assert not NOTE.check(p, state)
