"""Tests of the World suite's Joplin templates beyond the contract: each loses to its near miss (the twin note
touched, the wrong notebook, a title one letter off, a done to-do counted, the twin's item or password), and an
answer is read from the screen the expert reached."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import joplin as J
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import joplin_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing
from android_gym.ui import UIElement

COUNT, UNTICKED, NEW_TODO, MOVE, COMPLETE, PASSWORD = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def counting_every_box(task: Task) -> Any:
    """A near miss of the count: the notebook's to-dos, done ones too."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        action = task.expert_action(elements, state)
        if action.action_type != ActionType.STATUS_TASK_COMPLETE:
            return action
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(sum(e.rid == J.ROW_CHECK_RID for e in elements)))
    return act


@pytest.mark.parametrize("template, near_misses", [
    (COUNT, [counting_every_box]),
    (UNTICKED, [playing(UNTICKED, title=lambda p: f"{p['title']} (old)")]),
    (NEW_TODO, [playing(NEW_TODO, folder=lambda p: p["other"]), playing(NEW_TODO, title=lambda p: p["title"] + "s")]),
    (MOVE, [playing(MOVE, title=lambda p: p["twin"])]),
    (COMPLETE, [playing(COMPLETE, title=lambda p: p["twin"])]),
    (PASSWORD, [playing(PASSWORD, title=lambda p: f"{p['title']} (old)")]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_count_and_the_item_are_read_from_the_screen() -> None:
    """The expert's answers are what the screen shows, and they match the task's truth."""
    for template in (COUNT, UNTICKED):
        task = template.tasks("test")[1]
        episode = run_episode(task, seed=5, device=device())
        action = episode.log[-1][0]
        assert episode.success and action.text == template.answer(task.params, device().state())
