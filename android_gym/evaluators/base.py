"""The Evaluator contract: judge whether a task is done from the device's state and/or screen."""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.actions_text import format_action
from android_gym.errors import ConfigError
from android_gym.tasks.base import Task


@dataclass(frozen=True)
class Verdict:
    """A judge's answer.

    Attributes:
        success: True/False, or None for "unknown" (the judge failed, timed out, or answered neither yes nor no);
            the env never turns an unknown verdict into a reward — it reports it in `info["verdict"]`.
        score: confidence in success, in [0, 1] (1.0/0.0 for exact checks; P(yes) for logit-read judges).
        raw: the judge's raw output (model text, server body), kept for audits.
        latency_s: seconds the call took (0 for cached answers).
        is_cached: whether the answer came from a cache instead of a call.

    Equality compares the answer (success, score, raw, error, source), not `latency_s` or `is_cached`, so equal
    steps give equal `info` (Gymnasium's determinism check) whether or not a cache answered.
        error: why the verdict is unknown ("" when the judge answered).
        source: which judge answered ("oracle", "mllm", "http", or a combination's part).
    """

    success: bool | None
    score: float = 0.0
    raw: str = ""
    latency_s: float = field(default=0.0, compare=False)
    is_cached: bool = field(default=False, compare=False)
    error: str = ""
    source: str = ""

    @property
    def is_known(self) -> bool:
        """Whether the judge said yes or no (False for unknown verdicts)."""
        return self.success is not None


def unknown(error: str, raw: str = "", latency_s: float = 0.0, source: str = "") -> Verdict:
    """An unknown verdict that says why (`error`) and keeps whatever the judge returned (`raw`).

    >>> unknown("timed out after 5 s", source="http").is_known
    False
    """
    return Verdict(None, 0.0, raw, latency_s, False, error, source)


def action_text(action: Action) -> str:
    """`action` as a judge reads it: DigiRL's AutoUI string, AndroidWorld JSON where AutoUI has no form, else repr.

    >>> action_text(Action.tap(0.5, 0.5))[:16]
    'Action Decision:'
    """
    for style in ("autoui", "androidworld"):
        try:
            return format_action(action, style)
        except ConfigError:
            continue
    return repr(action)


@dataclass(frozen=True)
class Observation:
    """What a judge may look at after a step.

    Attributes:
        state: the device state (sim or ADB state queries), None when the device exposes none.
        screenshot: the screen now, uint8 (H, W, 3), when the evaluator `needs_screenshot`.
        last_action: the action just performed, in the AutoUI/DigiRL text form.
        history: earlier judged screens of this episode, oldest first (at most `screenshot_history - 1`).
        action: the action just performed, as the env executed it (an answer task reads its declared answer).
    """

    state: Mapping[str, Any] | None
    screenshot: np.ndarray | None = None
    last_action: str = ""
    history: tuple[np.ndarray, ...] = ()
    action: Action | None = None


class Evaluator(abc.ABC):
    """Judges one step of one episode. Implementations never raise on judge faults: they return an unknown verdict.

    Callers may `start()` an evaluator (or use `with`) to load models early; judges also start on first use.
    `close()` releases what they hold.
    """

    #: whether this judge needs a screenshot (the env then renders one even if the observation has none)
    needs_screenshot: bool = False
    #: how many screens (the current one included) this judge wants; the env keeps the earlier ones in `history`
    screenshot_history: int = 1

    @abc.abstractmethod
    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The verdict on `task` given what the device shows now."""

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Verdicts for many (task, observation) pairs, in order; judges that batch (MLLM, HTTP) override this."""
        return [self.judge(task, observation) for task, observation in items]

    def prejudge(self, task: Task, observation: Observation) -> Verdict | None:
        """The verdict `judge` would give, if it can be told without the screenshot; None when the screen is needed.

        `observation` has no screenshot. The env asks this first and captures a screenshot (over ADB, a whole frame)
        only when it returns None: a combination whose state check settles most steps (`judge&oracle`,
        `oracle|judge`) then pays for screens only on the steps its model judge actually sees. Default: the judge
        itself when it needs no screenshot, else None.
        """
        return None if self.needs_screenshot else self.judge(task, observation)

    def start(self) -> None:  # noqa: B027  (an optional hook: most evaluators hold nothing to start)
        """Load models or open connections now rather than on the first call (idempotent)."""

    def close(self) -> None:  # noqa: B027  (an optional hook)
        """Release resources (model, connections)."""

    def stats(self) -> dict[str, float]:
        """Counters since construction, keys namespaced `judge/` (calls, unknown verdicts, cache hits, ...)."""
        return {}

    def __enter__(self) -> Evaluator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class OracleEvaluator(Evaluator):
    """Exact success from the device state via the task's own check (the simulated phone, or ADB state queries).

    Unknown when the device reports no state, or when the task's template says it has no check for these parameters
    (an optional `has_check(params) -> bool` method, e.g. a goal list without state checks), so that
    `"oracle|mllm:<path>"` hands exactly those tasks to the model judge.
    """

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """`task.check(state, action)`; unknown when the device reports no state.

        `latency_s` stays 0 (microseconds; see `benchmarks/judges.py`) so that equal steps give equal `info`.
        """
        if observation.state is None:
            return unknown("device reports no state", source="oracle")
        has_check = getattr(task.template, "has_check", None)
        if has_check is not None and not has_check(task.params):
            return unknown("the task has no state check", source="oracle")
        ok = task.check(observation.state, observation.action)
        return Verdict(ok, 1.0 if ok else 0.0, source="oracle")

    def __repr__(self) -> str:
        return "OracleEvaluator()"
