"""Run an expert (or any action source) on a task directly on a device, without the env: for tests and benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.devices.base import Device, Outcome
from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import Task
from android_gym.ui import UIElement

ActionSource = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


@dataclass
class Episode:
    """What happened: success, steps taken, and the (action, outcome) log."""

    success: bool
    steps: int
    log: list[tuple[Action, Outcome]] = field(default_factory=list)


def run_episode(task: Task, seed: int, policy: ActionSource | None = None, device: Device | None = None,
                perturbations: str = "default") -> Episode:
    """Play one episode of `task` with `policy` (default: the task's expert) within its step budget.

    Success is checked after every step, as the env does (a declaration counts when the device accepted it). Raises
    `AssertionError` if the task's start state is wrong (`Task.reset_problem`).
    """
    device = device or SimDevice(perturbations=perturbations)
    act = policy or task.expert_action
    device.reset(seed, task.initial)
    problem = task.reset_problem(device.state())
    if problem is not None:
        raise AssertionError(f"{task} {problem} before the first step (seed {seed})")
    episode = Episode(False, 0)
    for _ in range(task.max_steps):
        action = act(device.ui_elements(), device.state())
        outcome = device.perform(action)
        device.tick()
        episode.steps += 1
        episode.log.append((action, outcome))
        if task.check(device.state(), action if outcome.is_valid else None):
            episode.success = True
            break
        if action.action_type in (ActionType.STATUS_TASK_COMPLETE, ActionType.STATUS_TASK_IMPOSSIBLE):
            break
    return episode


def drive(device: Device, policy: ActionSource, done: Callable[[Mapping[str, Any]], bool], limit: int = 60) -> None:
    """Act on `device` with `policy` (ticking after each action) until `done` holds of its state: a test's way to put
    the phone in a state through the UI (a near miss played to its end, a deletion made the app's way).

    Raises:
        AssertionError: `done` did not hold within `limit` actions.
    """  # noqa: D205
    for _ in range(limit):
        if done(device.state()):
            return
        device.perform(policy(device.ui_elements(), device.state()))
        device.tick()
    raise AssertionError(f"the policy did not get there in {limit} actions")
