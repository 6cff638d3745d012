"""Tests of the long Loop Habit Tracker and AnkiDroid templates beyond the contract: each loses to its near misses
(another note, reminder or frequency; another second habit; a twin's streak in the note; habits from the wrong list;
a card short or in the twin deck; Easy on the wrong card; the wrong card moved; another deck name, a line left out),
and the parameters hold what the goals promise."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import habits_anki_long_tasks as L
from android_gym.tasks.world.anki_expert import deck_spec
from android_gym.tasks.world.habits_expert import TWINS, create_habit, habits_state
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import ActionSource
from android_gym.testing.template_checks import playing

FULL, TWO, STREAKS, TODOS, THREE, STUDY, MOVE, MARKOR_DECK = L.TEMPLATES
TWIN_OF = dict(TWINS)


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def third_card(p: dict) -> str:
    """A card of the deck that the move task does not name."""
    return next(c["front"] for c in deck_spec(p["deck"], p["n"])["cards"] if c["front"] not in (p["front"],
                                                                                               p["front2"]))


def other_session_card(p: dict) -> str:
    """Another card of the study session than the Easy one."""
    return next(f for f in L._session(p) if f != p["front"])


def done_todo_too(task: Task) -> ActionSource:
    """A near miss of the to-do task: a habit for the list's completed to-do first, then the expert's."""
    done = {"name": task.params["done"], "times": 1, "days": 1}

    def act(elements: Any, state: Any) -> Any:
        added = {n.casefold() for n in habits_state(state)["added"]}
        return create_habit(done, elements, state) if done["name"].casefold() not in added else task.expert_action(
            elements, state)
    return act


@pytest.mark.parametrize(("template", "near_misses"), [
    (FULL, [playing(FULL, notes="Some other note"), playing(FULL, reminder="05:50"),
            playing(FULL, times=lambda p: p["times"] + 1)]),
    (TWO, [playing(TWO, name2="Juggling"), playing(TWO, reminder2="05:50")]),
    (STREAKS, [playing(STREAKS, habits=lambda p: [*p["habits"][:3], TWIN_OF[p["habits"][3]]])]),
    (TODOS, [playing(TODOS, list=lambda p: p["other_list"]), done_todo_too]),
    (THREE, [playing(THREE, deck=lambda p: p["twin"]), playing(THREE, pairs=lambda p: p["pairs"][:2])]),
    (STUDY, [playing(STUDY, front=other_session_card)]),
    (MOVE, [playing(MOVE, front2=third_card)]),
    (MARKOR_DECK, [playing(MARKOR_DECK, new=lambda p: p["new"] + " 2"),
                   playing(MARKOR_DECK, count=lambda p: p["count"] - 1)]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_goals_name_every_item() -> None:
    """Each goal names all its items: the streak habits, the three cards, both cards moved, both habits."""
    p = STREAKS.values("train")[0]
    assert len(set(p["habits"])) == 4 and all(h in STREAKS.goal(p) for h in p["habits"])
    q = THREE.values("train")[0]
    goal = THREE.goal(q)
    assert len({f for f, _ in q["pairs"]}) == 3 and all(f in goal and b in goal for f, b in q["pairs"])
    m = MOVE.values("test")[0]
    assert m["front"] != m["front2"] and m["front"] in MOVE.goal(m) and m["front2"] in MOVE.goal(m)
    t = TWO.values("train")[0]
    assert t["name"] != t["name2"] and t["name2"] in TWO.goal(t)


def test_the_todo_list_holds_a_done_item_and_the_study_session_is_long() -> None:
    """The list's completed to-do is the near miss the check refuses; each study session has seven cards or more."""
    p = TODOS.values("train")[0]
    todos = TODOS.initial(p)[L.todo.PACKAGE]["lists"][p["list"]]
    assert [t["title"] for t in todos if t.get("completed")] == [p["done"]] and p["done"] not in p["open"]
    assert all(len(L._session(s)) >= 7 and s["front"] in L._session(s) for s in STUDY.values("train"))
