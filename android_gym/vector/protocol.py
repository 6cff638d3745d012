"""The typed messages between `AsyncEnvPool` (parent) and its workers: one dataclass per command and per reply.

Commands go parent -> worker, replies worker -> parent, one `multiprocessing` Pipe per worker. A worker answers
every command with exactly one reply, except that a step which ends an episode is followed, unasked, by the reply to
the worker's own background reset (`StepDone(terminated or truncated)` then `ResetDone` or `Failed("reset")`).
A worker's first message is `Ready` (or `Failed("factory")` if the env factory raised). The reset after an episode
uses the seed and options its last `StepCommand` carried.

>>> import pickle
>>> pickle.loads(pickle.dumps(StepCommand(action=3, reset_seed=7)))
StepCommand(action=3, reset_seed=7, reset_options=None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

# -- parent -> worker --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepCommand:
    """Run `env.step(action)`; on episode end, also reset in the background with `reset_seed` and `reset_options`.

    The reset arguments say how the *next* episode starts, if this step ends the current one (None: the env's own
    generator continues). A trainer that plays groups of episodes from one start (GRPO) passes them with every step.
    """

    action: Any
    reset_seed: int | None = None
    reset_options: dict[str, Any] | None = None


@dataclass(frozen=True)
class ResetCommand:
    """Run `env.reset(seed=seed, options=options)`."""

    seed: int | None = None
    options: dict[str, Any] | None = None


@dataclass(frozen=True)
class ApplyCommand:
    """Run `fn(env, *args, **kwargs)` in the worker and send back its (picklable) return value."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CloseCommand:
    """Close the env and exit the worker."""


Command = StepCommand | ResetCommand | ApplyCommand | CloseCommand

# -- worker -> parent --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ready:
    """The env is built; what the parent needs to know about it."""

    pid: int
    observation_space: gym.Space
    action_space: gym.Space
    metadata: dict[str, Any]
    render_mode: str | None


@dataclass(frozen=True)
class StepDone:
    """The outcome of a `StepCommand`."""

    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


@dataclass(frozen=True)
class ResetDone:
    """The first observation of an episode (after a `ResetCommand` or a background reset)."""

    obs: Any
    info: dict[str, Any]


@dataclass(frozen=True)
class ApplyDone:
    """The return value of an `ApplyCommand`."""

    value: Any


@dataclass(frozen=True)
class Failed:
    """A command raised in the worker.

    Attributes:
        phase: "factory" (building the env), "step", "reset", "apply" or "protocol" (an unknown command).
        error: `ExceptionType: message`.
        traceback: the formatted worker-side traceback.
    """

    phase: str
    error: str
    traceback: str


Reply = Ready | StepDone | ResetDone | ApplyDone | Failed
