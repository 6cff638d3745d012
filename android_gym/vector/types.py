"""The pools' value types: `PoolConfig` (their knobs), `Row` and `PoolResult` (one `recv`), and the two state enums."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
from pydantic import Field

from android_gym.config_model import ConfigModel

StartMethod = Literal["forkserver", "spawn", "fork"]


class PoolConfig(ConfigModel):
    """How `AsyncEnvPool` runs its workers (`SyncEnvPool`, in process, reads only `max_consecutive_failures`).

    Attributes:
        start_method: "forkserver" (default), "spawn" or "fork". forkserver forks every worker, respawns included,
            from a small single-threaded server process: a respawn costs milliseconds (no re-import), it is safe
            while the trainer runs threads (torch, our own), and workers do not inherit the trainer's memory
            (weights, replay) or the other workers' pipes. "fork" inherits all three; "spawn" re-imports per worker.
            forkserver and spawn need picklable env factories (module-level functions, classes, `functools.partial`)
            and, in a script, the usual `if __name__ == "__main__":` guard (the workers import the main module).
        preload_modules: imported once in the forkserver so that workers start without importing them again (the
            worker's own module included: importing `android_gym.vector` took 0.2 s of every respawn); only
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

    A dict of its fields (as `gym.make_vec(..., pool_config={...})` passes it) becomes one with `from_data`; an
    unknown field or a bad value raises `ConfigError` naming it:

    >>> PoolConfig.from_data({"step_timeout_s": 5}, where="pool_config").step_timeout_s
    5.0
    """

    start_method: StartMethod = "forkserver"
    preload_modules: tuple[str, ...] = ("numpy", "gymnasium", "android_gym", "android_gym.vector.worker")
    step_timeout_s: float | None = Field(default=120.0, gt=0)
    reset_timeout_s: float | None = Field(default=600.0, gt=0)
    apply_timeout_s: float = Field(default=60.0, gt=0)
    start_timeout_s: float = Field(default=600.0, gt=0)
    close_timeout_s: float = Field(default=10.0, gt=0)
    max_consecutive_failures: int = Field(default=3, ge=1)


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


class Row(NamedTuple):
    """One undelivered result of one env (a step, or an episode's first observation with reward 0)."""

    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


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

    @classmethod
    def from_rows(cls, rows: Sequence[Row], env_ids: Sequence[int]) -> PoolResult:
        """The result holding `rows`, row k of env `env_ids[k]`."""
        return cls([r.obs for r in rows], np.array([r.reward for r in rows], dtype=np.float64),
                   np.array([r.terminated for r in rows], dtype=bool),
                   np.array([r.truncated for r in rows], dtype=bool), [r.info for r in rows],
                   np.array(env_ids, dtype=np.int64))

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
