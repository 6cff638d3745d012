"""The Evaluator contract: judge whether a task is done from the device's state and/or screen."""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from android_gym.tasks.base import Task


@dataclass(frozen=True)
class Verdict:
    """A judge's answer.

    Attributes:
        success: True/False, or None for "unknown" (the judge failed or timed out); the env never turns an unknown
            verdict into a reward — it reports it in `info["verdict"]`.
        score: confidence in success, in [0, 1] (1.0/0.0 for exact checks).
        raw: the judge's raw output (model text), kept for audits.
        latency_s: seconds the call took (0 for cached answers).
        is_cached: whether the answer came from a cache instead of a call.
    """

    success: bool | None
    score: float = 0.0
    raw: str = ""
    latency_s: float = 0.0
    is_cached: bool = False


@dataclass(frozen=True)
class Observation:
    """What a judge may look at after a step: the device state (if it has one), the screen, and the last action."""

    state: Mapping[str, Any] | None
    screenshot: np.ndarray | None = None
    last_action: str = ""


class Evaluator(abc.ABC):
    """Judges one step of one episode. Implementations never raise on judge faults: they return an unknown verdict."""

    #: whether this judge needs a screenshot (the env then renders one even if the observation has none)
    needs_screenshot: bool = False

    @abc.abstractmethod
    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The verdict on `task` given what the device shows now."""

    def close(self) -> None:
        """Release resources (model, connections)."""


class OracleEvaluator(Evaluator):
    """Exact success from the device state via the task's own check (the simulated phone, or ADB state queries)."""

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """`task.check(state)`; unknown when the device reports no state."""
        if observation.state is None:
            return Verdict(None, raw="device reports no state")
        ok = task.check(observation.state)
        return Verdict(ok, 1.0 if ok else 0.0)
