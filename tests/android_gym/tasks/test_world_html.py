"""The World suite's local page tasks: each is won only by its page showing "Success!" in Chrome in front (the X on
the goal, the right product, every target colour drawn), and lost by the near miss (the X a move short, a product
off by one, two colours of three, the page behind another app); the walls answer counts the maze's walls."""  # noqa: D205, D209

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import browser as B
from android_gym.sim.web import local as L
from android_gym.tasks.base import Task
from android_gym.tasks.world import html_tasks as T
from android_gym.testing.rollout import drive

State = Mapping[str, Any]
MAZE, MULTIPLY, COLORS, WALLS = T.TEMPLATES


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


def test_the_maze_is_won_on_the_goal_not_a_move_before() -> None:
    task = MAZE.tasks("train")[-1]  # its few goals all train (issue 50): the last instance
    near = played(task, lambda s: local(s) is not None and L.solution_length(local(s)["layout"],
                                                                            tuple(local(s)["position"])) == 1)
    assert not task.check(near)
    phone().perform(task.expert_action(phone().ui_elements(), near))
    assert task.check(phone().state())


def test_multiply_is_won_by_the_product_not_by_one_more() -> None:
    task = MULTIPLY.tasks("train")[0]
    state = played(task, lambda s: local(s) is not None and local(s)["form"])
    field = next(e for e in phone().ui_elements() if e.rid == L.ANSWER_RID)
    phone().perform(Action.tap(field.center[0] / 1080, field.center[1] / 2400))
    phone().perform(Action.type(str(math.prod(local(state)["numbers"]) + 1)))
    submit = next(e for e in phone().ui_elements() if e.text == "Submit")
    phone().perform(Action.tap(submit.center[0] / 1080, submit.center[1] / 2400))
    assert local(phone().state())["form"] and not task.check(phone().state())


def test_colors_lose_with_two_of_three_and_behind_another_app() -> None:
    task = COLORS.tasks("train")[1]
    two = played(task, lambda s: local(s) is not None and len(local(s)["used"]) == 2)
    submit = next(e for e in phone().ui_elements() if e.text == "Submit")
    phone().perform(Action.tap(submit.center[0] / 1080, submit.center[1] / 2400))
    assert not task.check(phone().state()) and len(set(local(two)["used"])) == 2
    won = played(task, task.check)
    assert task.check(won)
    phone().perform(Action.key(ActionType.PRESS_HOME))
    assert not task.check(phone().state())  # AndroidWorld reads "Success!" on Chrome's screen in front


def test_the_walls_answer_counts_the_mazes_walls() -> None:
    task = WALLS.tasks("train")[0]
    state = played(task, lambda s: local(s) is not None)
    walls = sum(row.count("#") for row in local(state)["layout"])
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=str(walls)))
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=str(16 - walls)))
