"""The pool's value types: `PoolConfig` (its knobs), `PoolResult` (one `recv`), and the two state enums."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from android_gym.errors import ConfigError, unknown_name

START_METHODS = ("forkserver", "spawn", "fork")


@dataclass(frozen=True)
class PoolConfig:
    """How `AsyncEnvPool` runs its workers.

    Attributes:
        start_method: "forkserver" (default), "spawn" or "fork". forkserver forks every worker, respawns included,
            from a small single-threaded server process: a respawn costs milliseconds (no re-import), it is safe
            while the trainer runs threads (torch, our own), and workers do not inherit the trainer's memory
            (weights, replay) or the other workers' pipes. "fork" inherits all three; "spawn" re-imports per worker.
            forkserver and spawn need picklable env factories (module-level functions, classes, `functools.partial`)
            and, in a script, the usual `if __name__ == "__main__":` guard (the workers import the main module).
        preload_modules: imported once in the forkserver so that workers start without importing them again; only
            applies if this process has not started its forkserver yet.
        step_timeout_s: seconds a step may take before its worker is killed and respawned and the episode
            truncated (emulator steps take 0.5-5 s with a heavy tail, so two minutes means wedged); None: no limit.
        reset_timeout_s: seconds a reset may take, worker start-up included (snapshot restores take tens of
            seconds, cold boots minutes); None: no limit.
        apply_timeout_s: seconds an `apply` (attribute access, method call) may take.
        start_timeout_s: seconds `start()` waits for every env factory to finish.
        close_timeout_s: seconds `close()` gives workers to exit before they are killed.
        max_consecutive_failures: failures of one env in a row (no good result in between) before the pool stops
            respawning it and `recv` raises `WorkerFailedError` (a factory or reset that always fails).
    """

    start_method: str = "forkserver"
    preload_modules: tuple[str, ...] = ("numpy", "gymnasium", "android_gym")
    step_timeout_s: float | None = 120.0
    reset_timeout_s: float | None = 600.0
    apply_timeout_s: float = 60.0
    start_timeout_s: float = 600.0
    close_timeout_s: float = 10.0
    max_consecutive_failures: int = 3

    def __post_init__(self) -> None:
        if self.start_method not in START_METHODS:
            raise unknown_name("start method", self.start_method, START_METHODS)
        for name in ("step_timeout_s", "reset_timeout_s", "apply_timeout_s", "start_timeout_s", "close_timeout_s"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"`{name}` must be a positive number of seconds, got {value!r}")
        if self.max_consecutive_failures < 1:
            raise ConfigError(f"`max_consecutive_failures` must be >= 1, got {self.max_consecutive_failures}")

    @classmethod
    def coerce(cls, value: PoolConfig | Mapping[str, Any] | None) -> PoolConfig:
        """A config, a dict of its fields (as `gym.make_vec(..., pool_config={...})` passes it), or None (defaults).

        >>> PoolConfig.coerce({"step_timeout_s": 5}).step_timeout_s
        5
        """
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            known = [f.name for f in fields(cls)]
            for key in value:
                if key not in known:
                    raise unknown_name("pool config field", key, known)
            return cls(**value)
        raise ConfigError(f"`pool_config` must be a PoolConfig, a dict of its fields or None, got {value!r}")


class PoolState(enum.Enum):
    """The pool's life cycle: CREATED -> RUNNING (after `start`) -> CLOSED."""

    CREATED = "created"
    RUNNING = "running"
    CLOSED = "closed"


class EnvState(enum.Enum):
    """Where one env of the pool stands.

    NEEDS_RESET (started, no episode) -> RESETTING -> IDLE (its last result awaits an action) -> STEPPING -> IDLE,
    or STEPPING -> RESETTING when the step ended the episode (the background reset). APPLYING is a running `apply`;
    BROKEN an env that failed too often in a row (only `reset_async` revives it).
    """

    NEEDS_RESET = "needs_reset"
    RESETTING = "resetting"
    IDLE = "idle"
    STEPPING = "stepping"
    APPLYING = "applying"
    BROKEN = "broken"


IN_FLIGHT = frozenset({EnvState.RESETTING, EnvState.STEPPING, EnvState.APPLYING})


@dataclass(frozen=True)
class PoolResult:
    """The results one `recv` (or `reset`) delivers: row k belongs to env `env_ids[k]`.

    An env appears at most once per result. A row is either a step result (`info["is_reset"]` False) or the first
    observation of an episode (`info["is_reset"]` True, reward 0.0, not terminated, not truncated).

    Attributes:
        obs: one observation per row, as the env returned it (a dict for Dict spaces).
        rewards: float64, shape (rows,).
        terminations: bool, shape (rows,).
        truncations: bool, shape (rows,).
        infos: one info dict per row.
        env_ids: int64, shape (rows,).
    """

    obs: list[Any]
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    infos: list[dict[str, Any]]
    env_ids: np.ndarray

    def __len__(self) -> int:
        return len(self.env_ids)

    @property
    def is_reset(self) -> np.ndarray:
        """bool, shape (rows,): which rows are first observations of an episode."""
        return np.array([bool(info.get("is_reset", False)) for info in self.infos], dtype=bool)

    @property
    def dones(self) -> np.ndarray:
        """bool, shape (rows,): rows that end an episode (their env's reset result follows in a later `recv`)."""
        return self.terminations | self.truncations
