"""What a run reports and remembers: JSONL/TensorBoard metrics, the progress bar, and the driver's resumable state."""

from __future__ import annotations

import dataclasses
import json
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from android_gym.safe_files import ensure_dir, open_append, write_text
from distrl_agent.runtime.callbacks import CallbackList
from distrl_agent.runtime.lag import LAG_KEYS, lag_histogram


class MetricsWriter:
    """Where a run reports: JSONL metrics (always, `run_dir/metrics.jsonl`), TensorBoard (when tensorboard is
    installed: scalars grouped by their prefix, the policy-lag bins as one histogram), and the user's callbacks.

    Raises:
        UnsafePathError: `metrics.jsonl` or `tb` in `run_dir` is a symbolic link (a planted one would redirect our
            appends to its target, issue 43).
    """  # noqa: D205

    def __init__(self, run_dir: Path, callbacks: CallbackList | None = None) -> None:
        self.file = open_append(run_dir / "metrics.jsonl")
        self.callbacks = callbacks or CallbackList()
        self._lag_seen = np.zeros(len(LAG_KEYS), np.int64)
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb: Any = SummaryWriter(str(ensure_dir(run_dir / "tb")))
        except ImportError:
            self.tb = None

    @property
    def stop_requested(self) -> bool:
        """Whether a callback asked the run to stop (`Callback.on_metrics` returned False)."""
        return self.callbacks.stop_requested

    def write(self, step: int, elapsed_s: float, metrics: dict[str, Any]) -> None:
        """Append one record at learner version `step`, `elapsed_s` seconds into the run; tell the callbacks."""
        self.file.write(json.dumps({"step": step, "time_s": round(elapsed_s, 2), **metrics}) + "\n")
        self.file.flush()
        if self.tb is not None:
            for k, v in metrics.items():
                if isinstance(v, (int, float)) and k not in _LAG_KEY_SET:
                    self.tb.add_scalar(k, v, step)
            if all(key in metrics for key in LAG_KEYS):  # the steps trained on since the last record, by lag
                counts = np.array([metrics[key] for key in LAG_KEYS], np.int64)
                if (histogram := lag_histogram(counts - self._lag_seen)) is not None:
                    self.tb.add_histogram_raw("learner/lag_steps", global_step=step, **histogram)
                self._lag_seen = counts
        self.callbacks.on_metrics(step, elapsed_s, {k: v for k, v in metrics.items() if isinstance(v, (int, float))})

    def evaluation(self, step: int, elapsed_s: float, success: float, by_task: dict[str, float]) -> None:
        """Record a periodic test evaluation (`charts/test_success`, `test_by_task/<template>`)."""
        self.write(step, elapsed_s, {"charts/test_success": success,
                                     **{f"test_by_task/{task}": r for task, r in by_task.items()}})
        self.callbacks.on_evaluation(step, elapsed_s, success, by_task)

    def checkpointed(self, step: int, path: Path) -> None:
        """Tell the callbacks that a complete checkpoint is in `path`."""
        self.callbacks.on_checkpoint(step, path)

    def close(self) -> None:
        """Flush and close."""
        self.file.close()
        if self.tb is not None:
            self.tb.close()


_LAG_KEY_SET = frozenset(LAG_KEYS)


@dataclass
class RunState:
    """The driver's side of a run, saved beside each learner checkpoint so that a resume continues it.

    Attributes:
        elapsed_s: training wall-clock seconds of previous sessions (the budget `runtime.minutes` spans sessions).
        curve: test-split evaluations: {time_s, env_steps, episodes (collected so far), version, test_success}.
        totals: `runtime/` counters of previous sessions (added to this session's).
        checkpoints: checkpoints written.
        loop_s: seconds in the training loop, evaluation and checkpoint time excluded.
        learner_busy_s: seconds of `train_steps` calls (the learner doing gradient work).
        learner_wait_s: seconds blocked on collection (waiting for data or for a synchronous round).
        publish_s: seconds spent publishing weights, over `publishes` publications.
        resumes: how many times the run was resumed.
        start_weights: SHA-256 of the policy weights the run started from (`warm_start.weights_digest`).
    """

    elapsed_s: float = 0.0
    curve: list[dict[str, float]] = field(default_factory=list)
    totals: dict[str, float] = field(default_factory=dict)
    checkpoints: int = 0
    loop_s: float = 0.0
    learner_busy_s: float = 0.0
    learner_wait_s: float = 0.0
    publish_s: float = 0.0
    publishes: int = 0
    resumes: int = 0
    start_weights: str = ""

    def metrics(self) -> dict[str, float]:
        """The learner-side `runtime/` metrics: idle fraction, wait time, publish latency, checkpoints."""
        return {
            "runtime/learner_idle_fraction": 1.0 - self.learner_busy_s / self.loop_s if self.loop_s > 0 else 1.0,
            "runtime/learner_wait_s": self.learner_wait_s,
            "runtime/publish_ms_mean": 1000 * self.publish_s / self.publishes if self.publishes else 0.0,
            "runtime/publishes": float(self.publishes),
            "runtime/checkpoints": float(self.checkpoints),
        }

    def save(self, path: Path) -> None:
        """Write as JSON, durably, refusing a symbolic link at `path` (read back, checked, by
        `checkpoint.read_run_state`)."""  # noqa: D205, D209
        write_text(path, json.dumps(dataclasses.asdict(self)), durable=True)


SUCCESS_WINDOW = 200
"""Judged episodes the bar's rolling train success (`charts/train_success`) covers, at least."""


def judged_episodes(totals: Mapping[str, float]) -> tuple[float, float]:
    """(Episodes that ended with a verdict, successes) in a run's counters: device faults and unknown verdicts have
    none."""  # noqa: D205, D209
    judged = totals.get("runtime/episodes", 0.0) - totals.get("runtime/faulty_episodes", 0.0) \
        - totals.get("runtime/unknown_verdict_cuts", 0.0)
    return judged, totals.get("runtime/successes", 0.0)


class SuccessWindow:
    """The success rate of the last ~`SUCCESS_WINDOW` judged episodes, read from a run's cumulative counters as they
    grow (`judged_episodes`): every episode the workers judged counts, whether or not it reached the learner. The
    live bar (`Progress`) and the learner traces of kept runs (`benchmarks.learner_trace`) both read it."""  # noqa: D205, D209

    def __init__(self, totals: Mapping[str, float] | None = None) -> None:
        """A window that starts at `totals` (the counters of a resumed run's earlier sessions; none: zero)."""
        # (judged episodes, successes) as the counters stood at each change, oldest first: the window's start
        self._marks: deque[tuple[float, float]] = deque([judged_episodes(totals or {})])

    @property
    def rate(self) -> float | None:
        """Successes over judged episodes since the window's start; None before any."""
        (judged_then, successes_then), (judged, successes) = self._marks[0], self._marks[-1]
        return (successes - successes_then) / (judged - judged_then) if judged > judged_then else None

    def record(self, totals: Mapping[str, float]) -> None:
        """Note the counters (`runtime/episodes`, `runtime/successes`, ...); the start moves up to the last mark at
        least `SUCCESS_WINDOW` judged episodes back."""  # noqa: D205, D209
        mark = judged_episodes(totals)
        if mark[0] > self._marks[-1][0]:
            self._marks.append(mark)
        while len(self._marks) > 2 and mark[0] - self._marks[1][0] >= SUCCESS_WINDOW:
            self._marks.popleft()


class Progress:
    """The progress bar (steps, episodes, recent train success, last test success, updates, throughput).

    The train success is read from the workers' counters, not from what they deliver (`SuccessWindow`): every judged
    episode counts, those a rule's workers hold back included (GRPO drops groups whose members all returned the same,
    most of them all failures, so the delivered episodes alone read 38-62% where 20% of its episodes succeeded).
    """

    def __init__(self, budget_s: float, start_fraction: float, enabled: bool = True,
                 totals: Mapping[str, float] | None = None) -> None:
        """A bar over the run's `budget_s` seconds, started at `start_fraction` of it; `totals`: the counters of
        earlier sessions (a resumed run), where the rolling train success starts.

        It advances by the spent fraction of the whole budget, so a run that stops at `runtime.max_updates` or
        `max_env_steps` still ends full.
        """  # noqa: D205, D209
        self.bar = tqdm(total=int(budget_s), initial=int(min(start_fraction, 1.0) * budget_s), unit="s",
                        desc="distrl train", dynamic_ncols=True, mininterval=1.0, disable=not enabled)
        self._window = SuccessWindow(totals)
        self._last = 0.0
        self._fraction = start_fraction

    @property
    def success(self) -> float:
        """Success rate of the last ~`SUCCESS_WINDOW` judged episodes (0 before any)."""
        rate = self._window.rate
        return 0.0 if rate is None else rate

    def record(self, stats: Mapping[str, float]) -> None:
        """Note the run's counters (`runtime/episodes`, `runtime/successes`, ... combined over its sessions)."""
        self._window.record(stats)

    def show(self, fraction: float, session_s: float, session_steps: float, stats: dict[str, float], version: int,
             test_success: float | None) -> None:
        """Refresh the bar at most once a second (`fraction`: of the budget spent; throughput: this session's)."""
        self._fraction = fraction
        if time.monotonic() - self._last < 1.0:
            return
        self._last = time.monotonic()
        self.bar.n = int(min(fraction, 1.0) * self.bar.total)
        steps = int(stats.get("runtime/env_steps", 0))
        self.bar.set_postfix(steps=steps, episodes=int(stats.get("runtime/episodes", 0)),
                             success=f"{self.success:.2f}",
                             test="-" if test_success is None else f"{test_success:.2f}", updates=version,
                             steps_per_s=f"{session_steps / max(session_s, 1e-9):.0f}",
                             refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        """Show the final spent fraction and close the bar."""
        self.bar.n = int(min(self._fraction, 1.0) * self.bar.total)
        self.bar.close()
