"""The messages of the local runtime's pipes: commands learner -> worker process, replies worker -> learner.

Each worker process has a command pipe and a results pipe of its own (see `runtime/local.py`); both ends match
these types with `match`, as the env pool's `android_gym/vector/protocol.py` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from distrl_agent.types import Trajectory


@dataclass(frozen=True)
class PlayRound:
    """Synchronous mode: read the shared weights, check they are `version`, play `episodes` episodes, answer."""

    version: int
    episodes: int


@dataclass(frozen=True)
class Drain:
    """The run is over: stop collecting, send everything in the outbox and the final counters (`Drained`)."""


@dataclass(frozen=True)
class Stop:
    """Close the envs and exit."""


Command: TypeAlias = PlayRound | Drain | Stop


@dataclass(frozen=True)
class Collected:
    """Asynchronous mode: whole trajectories from the worker's outbox (none: a heartbeat with its counters)."""

    worker: int
    trajectories: list[Trajectory]
    stats: dict[str, Any]


@dataclass(frozen=True)
class RoundPlayed:
    """Synchronous mode: the episodes of the round commanded for `version`."""

    worker: int
    trajectories: list[Trajectory]
    stats: dict[str, Any]
    version: int


@dataclass(frozen=True)
class Failed:
    """The worker raised: its traceback and last counters (the learner process restarts it)."""

    worker: int
    traceback: str
    stats: dict[str, Any]


@dataclass(frozen=True)
class Drained:
    """Answer to `Drain`: the outbox's last trajectories and the counters after it (nothing follows but exit)."""

    worker: int
    trajectories: list[Trajectory]
    stats: dict[str, Any]


Reply: TypeAlias = Collected | RoundPlayed | Drained | Failed
