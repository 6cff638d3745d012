"""Answers and impossibility declarations end to end through the env: `Action`s, the Dict space, both text formats,
the SB3 wrapper and the verdict cache."""  # noqa: D205, D209

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import Action, ActionType
from android_gym.actions_text import format_action
from android_gym.evaluators.base import Observation, Verdict
from android_gym.evaluators.cache import CachingEvaluator
from android_gym.wrappers import make_sb3_env


def world(task: str) -> gym.Env:
    """A World env on one template, elements only."""
    return gym.make("android_gym/World-v0", task=task, screenshot_width=0)


def walk_to_answer(env: gym.Env, seed: int = 0) -> Action:
    """Reset, play the expert until its next action is a declaration, and return that declaration."""
    env.reset(seed=seed)
    for _ in range(env.unwrapped.max_steps):
        action = env.unwrapped.expert_action()
        if action.action_type in (ActionType.STATUS_TASK_COMPLETE, ActionType.STATUS_TASK_IMPOSSIBLE):
            return action
        _, reward, terminated, truncated, _ = env.unwrapped.step(action)  # under any action wrapper
        assert not (reward or terminated or truncated)
    raise AssertionError("the expert never declared")


def test_the_right_answer_wins_in_every_form_and_a_wrong_one_ends_the_episode_unrewarded() -> None:
    env = world("contact_number_answer")
    truth = walk_to_answer(env)
    forms = [truth, truth.to_dict(), format_action(truth, "autoui"), format_action(truth, "androidworld")]
    assert json.loads(forms[3]) == {"action_type": "answer", "text": truth.text}
    for form in forms:
        walk_to_answer(env)
        _, reward, terminated, _, info = env.step(form)
        assert (reward, terminated, info["success"]) == (1.0, True, True), form
        assert info["action"].text == truth.text and info["verdict"].source == "oracle"
    walk_to_answer(env)
    _, reward, terminated, _, info = env.step(Action(ActionType.STATUS_TASK_COMPLETE, text="(000) 555-0000"))
    assert (reward, terminated, info["success"]) == (0.0, True, False)
    env.close()


def test_an_answer_without_text_is_an_invalid_action_that_does_not_end_the_episode() -> None:
    env = world("contact_number_answer")
    walk_to_answer(env)
    _, reward, terminated, _, info = env.step('{"action_type": "answer"}')
    assert (reward, terminated, info["action_valid"]) == (0.0, False, False)
    assert "text" in info["invalid_reason"]
    env.close()


def test_declaring_impossible_wins_an_infeasible_task_and_nothing_else() -> None:
    env = world("call_missing_contact")
    declared = walk_to_answer(env)
    assert declared.action_type == ActionType.STATUS_TASK_IMPOSSIBLE
    _, reward, terminated, _, _ = env.step('{"action_type": "status", "goal_status": "infeasible"}')
    assert (reward, terminated) == (1.0, True)
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(Action(ActionType.STATUS_TASK_COMPLETE, text="done"))
    assert (reward, terminated) == (0.0, True)
    env.close()
    feasible = world("call_contact")
    feasible.reset(seed=0)
    _, reward, terminated, _, _ = feasible.step(Action.key(ActionType.STATUS_TASK_IMPOSSIBLE))
    assert (reward, terminated) == (0.0, True)
    feasible.close()


def test_sb3_wrapper_answers_with_the_text_under_a_cell() -> None:
    env = make_sb3_env("android_gym/World-v0", task="contact_number_answer", screenshot_width=0)
    kinds = env.kinds
    assert env.action_space.nvec[0] == len(kinds) and kinds[-2:] == ("answer", "impossible")
    truth = walk_to_answer(env)
    cols, rows = env.grid
    element = next(e for e in env.unwrapped.device.ui_elements() if e.text == truth.text)
    width, height = env.unwrapped.device.screen_size
    x, y = element.center
    cell = int(y / height * rows) * cols + int(x / width * cols)
    _, reward, terminated, _, info = env.step(np.array([kinds.index("answer"), cell, 0]))
    assert (reward, terminated, info["action"].text) == (1.0, True, truth.text)
    general = make_sb3_env("android_gym/General-v0", screenshot_width=0)
    assert "answer" not in general.kinds and general.action_space.nvec[0] == 7  # no declarations in General
    env.close()
    general.close()


class _Counting:
    """A model judge stand-in that counts its calls and always says yes."""

    needs_screenshot, screenshot_history = True, 1

    def __init__(self) -> None:
        self.calls = 0

    def judge_batch(self, items: list) -> list[Verdict]:
        self.calls += len(items)
        return [Verdict(True, 1.0, source="test") for _ in items]


@pytest.mark.parametrize("task_name, cached", [("contact_info", True), ("contact_number_answer", False)])
def test_the_verdict_cache_never_reuses_a_verdict_on_a_declaration(task_name: str, cached: bool) -> None:
    from android_gym.tasks import suites

    inner = _Counting()
    judge = CachingEvaluator(inner)  # type: ignore[arg-type]
    task = suites.tasks("world", "train", task_name)[0]
    screen = np.zeros((8, 8, 3), np.uint8)
    for text in ("A", "B"):
        judge.judge(task, Observation(None, screen, text, action=Action(ActionType.STATUS_TASK_COMPLETE, text=text)))
    assert inner.calls == (1 if cached else 2)
