"""Helpers of the evaluator tests: seeded screens and observations, and a judge that counts its calls."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from android_gym.evaluators.base import Evaluator, Observation, OracleEvaluator, Verdict
from android_gym.tasks.base import Task


def screen(seed: int, height: int = 96, width: int = 48) -> np.ndarray:
    """A random but seeded uint8 RGB screen."""
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


def observation(seed: int = 0, **kwargs: object) -> Observation:
    """An observation with a seeded screen and no device state."""
    return Observation(None, screen(seed), "PRESS_HOME", **kwargs)


class CountingJudge(Evaluator):
    """A screenshot judge that answers like the oracle (or as scripted) and records every call and batch size."""

    needs_screenshot = True

    def __init__(self, answer: Callable[[Task, Observation], Verdict] | None = None) -> None:
        self.answer = answer or (lambda task, obs: OracleEvaluator().judge(task, obs))
        self.calls = 0
        self.batches: list[int] = []
        self.is_closed = False
        self._lock = threading.Lock()

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """One request as a batch of one."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Count, then answer each request."""
        with self._lock:
            self.calls += len(items)
            self.batches.append(len(items))
        return [self.answer(task, obs) for task, obs in items]

    def close(self) -> None:
        """Remember that it was closed."""
        self.is_closed = True
