"""Lock-step use of an `AsyncEnvPool` (step every env, wait for all) in the same-step autoreset form, plus the
picklable helpers that adapters run in workers with `AsyncEnvPool.apply`.

Both adapters (the Gymnasium `PoolVectorEnv` and the SB3 `PoolVecEnv`) return, for an env whose episode ended, the
next episode's first observation in the same step and the final one on the side: the pool's background reset row
is awaited in the same call, so no action is ever spent on a reset.
"""  # noqa: D205

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from android_gym.vector.pool import AsyncEnvPool
from android_gym.vector.types import PoolResult


@dataclass
class LockStepRow:
    """One env's outcome of a lock-step `step_all`.

    Attributes:
        obs: the observation to act on next: the next episode's first one when this step ended the episode.
        reward: the step's reward.
        terminated: the step's termination flag.
        truncated: the step's truncation flag (also True when the pool truncated a failed worker's episode).
        info: the step's info (`error` and `traceback` keys on failures).
        final_obs: the episode's last observation if the step ended it, else None.
        reset_info: the next episode's reset info if the step ended the episode, else None.
    """

    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    final_obs: Any = None
    reset_info: dict[str, Any] | None = None

    @property
    def is_done(self) -> bool:
        """Whether the step ended the episode."""
        return self.terminated or self.truncated


def step_all(pool: AsyncEnvPool, actions: Sequence[Any]) -> list[LockStepRow]:
    """Send one action to every env, then `collect_all`.

    Raises:
        PoolStateError: an env of the pool is not idle (use `drain` first).
        PoolArgumentError: not one action per env.
        WorkerFailedError: an env failed too often in a row.
    """
    pool.send(actions)
    return collect_all(pool)


def collect_all(pool: AsyncEnvPool) -> list[LockStepRow]:
    """Wait for every env's step and for the resets of the episodes that ended; rows by env id."""
    rows: dict[int, LockStepRow] = {}
    waiting = set(range(pool.num_envs))
    while waiting:
        result = pool.recv(min_envs=1)
        for k, env_id in enumerate(result.env_ids.tolist()):
            info = result.infos[k]
            if info.get("is_reset"):
                row = rows[env_id]
                row.final_obs, row.obs, row.reset_info = row.obs, result.obs[k], info
                waiting.discard(env_id)
            else:
                rows[env_id] = LockStepRow(result.obs[k], float(result.rewards[k]), bool(result.terminations[k]),
                                           bool(result.truncations[k]), info)
                if not rows[env_id].is_done:
                    waiting.discard(env_id)
    return [rows[i] for i in range(pool.num_envs)]


def drain(pool: AsyncEnvPool) -> None:
    """Receive and drop every result in flight (after an interrupted `step_all`), so that every env is idle."""
    while pool.outstanding():
        pool.recv(min_envs=1)


def reset_all(pool: AsyncEnvPool, seeds: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | Sequence[dict[str, Any] | None] | None = None) -> PoolResult:
    """Reset every env (dropping whatever was in flight) and return their first observations by env id."""
    drain(pool)
    return pool.reset(seeds=seeds, options=options)


# -- functions run in workers through AsyncEnvPool.apply (module-level so that they pickle by reference) --------------


def call_env(env: gym.Env, name: str, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None) -> Any:
    """`env.name(*args, **kwargs)` if it is a method, else the attribute's value (wrappers are searched)."""
    value = env.get_wrapper_attr(name)
    return value(*args, **(kwargs or {})) if callable(value) else value


def get_env_attr(env: gym.Env, name: str) -> Any:
    """The attribute `name` of the env or of one of its wrappers."""
    return env.get_wrapper_attr(name)


def set_env_attr(env: gym.Env, name: str, value: Any) -> None:
    """Set the attribute `name` on the env (on the wrapper that has it, if one does)."""
    env.set_wrapper_attr(name, value)


def render_env(env: gym.Env) -> Any:
    """`env.render()`."""
    return env.render()


def is_wrapped(env: gym.Env, wrapper_class: type) -> bool:
    """Whether `wrapper_class` is among the wrappers of `env`."""
    while isinstance(env, gym.Wrapper):
        if isinstance(env, wrapper_class):
            return True
        env = env.env
    return False
