"""Tests of the World suite's AnkiDroid templates beyond the contract: each loses to its near miss (the twin deck or
another card answered, renamed, added to, studied, moved or deleted; a wrong name, back or answer button), answers are
accepted as people write them, and the task decks hold the counts the templates rely on."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import anki_tasks as T
from android_gym.tasks.world.anki_expert import answer, deck_counts, deck_spec, study
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

DUE, SIZE, BACK, WHEN, DECK, MOST_NEW, CREATE, RENAME, ADD, ADD_REVERSED, STUDY, MOVE, DELETE = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin deck's name."""
    return p["twin"]


def first_card(p: dict) -> str:
    """The front of the deck's first card (a new one, never the task's card)."""
    return deck_spec(p["deck"], p["n"])["cards"][0]["front"]


def last_card(p: dict) -> str:
    """The front of the deck's last card (a review due later, never the task's card)."""
    return deck_spec(p["deck"], p["n"])["cards"][-1]["front"]


def twin_card(p: dict) -> str:
    """The front of the twin deck's first card."""
    return deck_spec(p["twin"], p["n"] + 1)["cards"][0]["front"]


def answering(text: Any) -> Any:
    """A near miss: declare the task complete with `text(params)` at once."""
    def make(task: Task) -> Any:
        return lambda elements, state: answer(text(task.params))
    make.__name__ = "answering at once"
    return make


class StudyEasyTemplate(T.StudyGoodTemplate):
    """The study task's expert answering Easy instead of Good."""

    def expert(self, params: Any, elements: Any, state: Any) -> Action:
        """Study, answering Easy."""
        return study(params["deck"], "Easy", elements, state)


@pytest.mark.parametrize(("template", "near_misses"), [
    (DUE, [playing(DUE, deck=twin)]),
    (SIZE, [playing(SIZE, deck=twin)]),
    (BACK, [playing(BACK, front=first_card)]),
    (WHEN, [playing(WHEN, front=last_card)]),
    (DECK, [playing(DECK, front=twin_card)]),
    (MOST_NEW, [answering(lambda p: p["others"][1])]),
    (CREATE, [playing(CREATE, new=lambda p: p["new"] + "s")]),
    (RENAME, [playing(RENAME, deck=twin), playing(RENAME, new=lambda p: p["new"] + "s")]),
    (ADD, [playing(ADD, deck=twin), playing(ADD, back=lambda p: p["back"] + "s")]),
    (ADD_REVERSED, [playing(ADD)]),
    (STUDY, [playing(STUDY, deck=twin), playing(StudyEasyTemplate())]),
    (MOVE, [playing(MOVE, front=first_card)]),
    (DELETE, [playing(DELETE, front=first_card)]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_answers_are_accepted_as_people_write_them() -> None:
    """Counts with a unit or in words, a back without its article, a day in the usual spellings; not a neighbour."""
    p = DUE.values("train")[0]
    assert DUE.answer_matches(p, "3 cards", "3") and DUE.answer_matches(p, "three", "3")
    assert not DUE.answer_matches(p, "13", "3") and not DUE.answer_matches(p, "3 or 4", "3")
    assert BACK.answer_matches(p, "Apple", "the apple") and not BACK.answer_matches(p, "the apples", "the apple")
    assert all(WHEN.answer_matches(p, s, "2026-06-12") for s in ("Jun 12, 2026", "June 12", "2026-06-12", "12 June"))
    assert not WHEN.answer_matches(p, "June 13", "2026-06-12")
    assert MOST_NEW.answer_matches(p, "The Music theory deck", "Music theory")
    assert not MOST_NEW.answer_matches(p, "Music", "Music theory")


def test_task_decks_hold_the_counts_the_templates_rely_on() -> None:
    """Every instance's counts: a card due later beside the due ones; the twin's Due count always differs."""
    for n in range(60):
        new, learning, due, future = deck_counts(n)
        assert new >= 1 and due >= 1 and future >= 1 and new + learning + due + future <= 10
        assert deck_counts(n + 1)[2] != due
    top = [p for p in MOST_NEW.values("train")[:3]]
    assert all(deck_counts(p["n"])[0] == 3 for p in top)
