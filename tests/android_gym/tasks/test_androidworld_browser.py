"""AndroidWorld's browser tasks on the suite: the seed drawn as AndroidWorld draws it, the goal its preamble and page
task, task.html in Download; won as AndroidWorld's are, by the page showing "Success!" in Chrome in front, and lost
by each page's near miss (a move short of the goal, a wrong product, a colour missing) and by the page behind."""  # noqa: D205, D209

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import browser as B
from android_gym.sim.apps import files as F
from android_gym.sim.web import local as L
from android_gym.tasks.androidworld import browser as A
from android_gym.tasks.base import Task
from android_gym.testing.rollout import drive

DRAW, MAZE, MULTIPLY = A.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def played(task: Task, until: Any) -> State:
    """The state once the task's expert has played until `until` holds of the state."""
    phone().reset(0, task.initial)
    drive(phone(), task.expert_action, until, limit=40)
    return phone().state()


def local(state: State) -> dict[str, Any] | None:
    """Chrome's local page in front."""
    return state["apps"][B.PACKAGE]["local"]


def tap_text(text: str) -> None:
    """Tap the element reading `text`."""
    e = next(e for e in phone().ui_elements() if e.text == text)
    phone().perform(Action.tap(e.center[0] / 1080, e.center[1] / 2400))


@pytest.mark.parametrize("template", A.TEMPLATES, ids=lambda t: t.name)
def test_the_seed_is_drawn_in_androidworlds_range_and_the_file_is_in_download(template: A._BrowserTask) -> None:
    seeds = [p["browser_task_seed"] for p in template.values("train") + template.values("test")]
    assert len(seeds) >= 100 and all(0 <= s < 2**32 for s in seeds) and max(seeds) > 2**31
    task = template.tasks("train")[-1]  # one goal: it trains only (issue 50)
    assert task.goal.startswith(A.PREAMBLE + " Then ")
    assert task.initial[F.PACKAGE]["files"][0]["path"] == "Download/task.html"
    assert task.initial[B.PACKAGE]["local_pages"][0]["seed"] == task.params["browser_task_seed"]


def test_maze_wins_on_the_goal_and_not_a_move_before() -> None:
    task = MAZE.tasks("train")[0]
    near = played(task, lambda s: local(s) is not None and L.solution_length(
        local(s)["layout"], tuple(local(s)["position"])) == 1)
    assert not task.check(near)
    phone().perform(task.expert_action(phone().ui_elements(), near))
    assert task.check(phone().state())


def test_multiply_wins_with_the_product_only() -> None:
    task = MULTIPLY.tasks("train")[-1]  # one goal: it trains only (issue 50)
    state = played(task, lambda s: local(s) is not None and local(s)["form"])
    product = math.prod(local(state)["numbers"])
    field = next(e for e in phone().ui_elements() if e.rid == L.ANSWER_RID)
    phone().perform(Action.tap(field.center[0] / 1080, field.center[1] / 2400))
    phone().perform(Action.type(str(product * 2)))
    tap_text("Submit")
    assert not task.check(phone().state())
    won = played(task, task.check)
    assert task.check(won) and local(won)["numbers"] == L.numbers(task.params["browser_task_seed"])


def test_draw_wins_with_all_three_colours_and_loses_with_two_or_behind_home() -> None:
    task = DRAW.tasks("train")[0]
    played(task, lambda s: local(s) is not None and len(local(s)["used"]) == 2)
    tap_text("Submit")
    assert not task.check(phone().state())
    won = played(task, task.check)
    assert set(local(won)["targets"]) <= set(local(won)["used"])
    phone().perform(Action.key(ActionType.PRESS_HOME))
    assert not task.check(phone().state())
