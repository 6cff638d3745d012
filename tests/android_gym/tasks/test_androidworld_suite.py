"""The AndroidWorld suite (issue 48): every template keeps the template contract under AndroidWorld's name and goal
text, answers to AndroidWorld's names only, and checks what AndroidWorld checks (no stricter than the goal says, no
looser than a near miss)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import gymnasium as gym
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import UnknownNameError
from android_gym.sim.apps import camera
from android_gym.spaces import ObservationConfig, ObservationEncoder
from android_gym.tasks import suites
from android_gym.tasks.androidworld.catalogue import ANDROIDWORLD_TASKS
from android_gym.tasks.base import TaskTemplate
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode

ANDROIDWORLD = suites.templates("androidworld")


@cache
def device(level: str) -> SimDevice:
    """One phone per perturbation level for the module (each episode resets it)."""
    return SimDevice(level)


def test_every_androidworld_task_has_one_template() -> None:
    assert sorted(t.name for t in ANDROIDWORLD) == sorted(ANDROIDWORLD_TASKS)  # all 116, each once
    assert len(ANDROIDWORLD_TASKS) == 116 and all(t.suite == "androidworld" and t.apps for t in ANDROIDWORLD)


@pytest.mark.parametrize("template", ANDROIDWORLD, ids=lambda t: t.name)
def test_splits_are_disjoint_and_the_goal_is_androidworlds(template: TaskTemplate) -> None:
    checks.check_splits_and_goals(template, phrasings=1)  # AndroidWorld phrases each task one way
    goals = {template.goal(p) for p in template.values("train")}
    assert all("{" not in g for g in goals)
    space = ObservationEncoder(ObservationConfig(screenshot_width=0), (1080, 2400)).space["goal"]  # the env's
    assert all(space.contains(g) for g in goals | {template.goal(p) for p in template.values("test")})
    if "{" in template.goal_template:  # a task with parameters says them: its instances read differently
        assert len(goals) >= min(2, len(template.values("train")))


@pytest.mark.parametrize("level", ["hard"])  # the default level's pop-ups, loads and lost taps, more often
@pytest.mark.parametrize("template", ANDROIDWORLD, ids=lambda t: t.name)
def test_expert_solves_train_and_test_under_perturbations(template: TaskTemplate, level: str) -> None:
    checks.check_expert_solves(template, device(level))


@pytest.mark.parametrize("template", ANDROIDWORLD, ids=lambda t: t.name)
def test_no_task_is_solved_at_reset_and_the_budget_follows_the_expert(template: TaskTemplate) -> None:
    checks.check_reset_guard(template, device("none"))
    checks.check_budget_and_apps(template, device("none"))


def test_a_name_that_is_not_androidworlds_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'ContactsAddContact'"):
        gym.make("android_gym/AndroidWorld-v0", task="ContactAddContact")


@pytest.mark.parametrize("name, kind", [("CameraTakePhoto", "photo"), ("CameraTakeVideo", "video")])
def test_one_capture_of_the_kind_from_either_camera_wins_and_a_second_capture_loses(name: str, kind: str) -> None:
    """The goal names no camera: a front-camera capture wins; a capture of the other kind beside it loses."""
    template = next(t for t in ANDROIDWORLD if t.name == name)
    task = template.tasks("train")[0]
    phone = device("none")
    phone.reset(0, task.initial)
    state = phone.state()
    base = state["apps"][camera.PACKAGE]
    shot = {"name": "x", "kind": kind, "facing": "front", "mode": "Video" if kind == "video" else "Selfie",
            "date": "2026-06-10 09:41"}
    other = {**shot, "name": "y", "kind": "photo" if kind == "video" else "video"}
    with_shot = {**state, "apps": {**state["apps"], camera.PACKAGE: {**base, "captures": [shot]}}}
    with_two = {**state, "apps": {**state["apps"], camera.PACKAGE: {**base, "captures": [shot, other]}}}
    assert task.check(with_shot) and not task.check(with_two) and not task.check(state)


def test_an_androidworld_episode_runs_through_gym_make() -> None:
    env = gym.make("android_gym/AndroidWorld-v0", task="ContactsAddContact", split="test")
    try:
        _, info = env.reset(seed=3)
        assert info["goal"].startswith("Create a new contact for ") and "Their number is +1" in info["goal"]
        task = env.unwrapped.task
        assert run_episode(task, seed=3, device=device("none")).success
    finally:
        env.close()
