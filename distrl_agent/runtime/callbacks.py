"""Callbacks: your code at a training run's events, as SB3's and Lightning's callbacks are.

`train(config, callbacks=[...])` calls each hook of each callback, in the order given, in the learner's process:

- `on_start(config)` once the run's folder holds its config.yaml (after the warm start), before training;
- `on_metrics(step, elapsed_s, metrics)` at every metrics record (about once a second while the learner trains, and
  after each evaluation); return False to stop the run (it then ends as at its budget: the workers hand over what
  they hold, a final checkpoint, the final evaluations);
- `on_evaluation(step, elapsed_s, success, by_task)` after each periodic evaluation on the test split;
- `on_checkpoint(step, path)` after each checkpoint is complete;
- `on_end(summary)` with the run's summary (what `summary.json` holds).

`step` is the learner's version (its update count); `elapsed_s` counts training seconds across resumes. A hook that
raises stops the run as any error does (a checkpoint is written first). Hooks run on the learner's thread: a slow hook
slows the learner, so send work elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distrl_agent.config import TrainConfig


class Callback:
    """The hooks of a training run, each a no-op here: subclass and override the ones you need."""

    def on_start(self, config: TrainConfig) -> None:
        """The run starts, in `config.run_dir`."""

    def on_metrics(self, step: int, elapsed_s: float, metrics: Mapping[str, float]) -> bool | None:
        """A metrics record (the keys of metrics.jsonl); False asks the run to stop."""
        return None

    def on_evaluation(self, step: int, elapsed_s: float, success: float, by_task: Mapping[str, float]) -> None:
        """A periodic evaluation of the greedy policy on the test split: its success rate, overall and per template."""

    def on_checkpoint(self, step: int, path: Path) -> None:
        """A complete checkpoint is in `path`."""

    def on_end(self, summary: Mapping[str, Any]) -> None:
        """The run ended; `summary` is what summary.json holds."""


class CallbackList(Callback):
    """Several callbacks as one, in order; remembers whether any asked the run to stop."""

    def __init__(self, callbacks: Iterable[Callback] = ()) -> None:
        self.callbacks = list(callbacks)
        self.stop_requested = False
        for callback in self.callbacks:
            if not isinstance(callback, Callback):
                from distrl_agent.errors import ConfigError

                raise ConfigError(f"callbacks must be distrl_agent.Callback instances, got {callback!r}")

    def on_start(self, config: TrainConfig) -> None:  # noqa: D102
        for callback in self.callbacks:
            callback.on_start(config)

    def on_metrics(self, step: int, elapsed_s: float, metrics: Mapping[str, float]) -> bool | None:  # noqa: D102
        for callback in self.callbacks:
            if callback.on_metrics(step, elapsed_s, metrics) is False:
                self.stop_requested = True
        return not self.stop_requested

    def on_evaluation(self, step: int, elapsed_s: float, success: float,  # noqa: D102
                      by_task: Mapping[str, float]) -> None:
        for callback in self.callbacks:
            callback.on_evaluation(step, elapsed_s, success, by_task)

    def on_checkpoint(self, step: int, path: Path) -> None:  # noqa: D102
        for callback in self.callbacks:
            callback.on_checkpoint(step, path)

    def on_end(self, summary: Mapping[str, Any]) -> None:  # noqa: D102
        for callback in self.callbacks:
            callback.on_end(summary)
