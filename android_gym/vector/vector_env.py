"""`PoolVectorEnv`: a Gymnasium `VectorEnv` over `AsyncEnvPool`, for code that expects lock-step `step()`.

It is the `vector_entry_point` of the android_gym ids, so
`gym.make_vec("android_gym/General-v0", num_envs=8, vectorization_mode="vector_entry_point")` returns one.

Autoreset is `AutoresetMode.SAME_STEP`: when a step ends an episode, the returned observation is already the next
episode's first (reset in the background by the pool and awaited in the same call) and `infos["final_obs"]` /
`infos["final_info"]` hold the last ones (masks `infos["_final_obs"]`, ...). A worker that crashes or hangs truncates
its episode: `truncations[i]` is True and `infos["final_info"]["error"][i]` says why. Observations are batched with
`gymnasium.vector.utils` without shared memory: Box/MultiBinary entries as stacked arrays, Text entries as a tuple of
strings (gymnasium 1.4's shared-memory Text returns garbage).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import load_env_creator
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from android_gym.vector.lockstep import call_env, get_env_attr, render_env, reset_all, set_env_attr, step_all
from android_gym.vector.pool import AsyncEnvPool
from android_gym.vector.types import PoolConfig


@dataclass(frozen=True)
class EnvFactory:
    """A picklable env constructor: `entry_point(**kwargs)`, optionally inside a `TimeLimit`.

    Attributes:
        entry_point: "module:attr" (loaded in the worker, as gymnasium loads entry points) or a picklable callable.
        kwargs: the constructor's keyword arguments.
        max_episode_steps: wrap in `gymnasium.wrappers.TimeLimit` with this many steps (None: no wrapper).
    """

    entry_point: str | Callable[..., gym.Env]
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    max_episode_steps: int | None = None

    def __call__(self) -> gym.Env:
        """Build the env."""
        creator = load_env_creator(self.entry_point) if isinstance(self.entry_point, str) else self.entry_point
        env = creator(**self.kwargs)
        if self.max_episode_steps is not None:
            env = gym.wrappers.TimeLimit(env, self.max_episode_steps)
        return env


class PoolVectorEnv(VectorEnv):
    """A Gymnasium `VectorEnv` whose sub-envs run in an `AsyncEnvPool` (see the module docstring for semantics).

    Unlike the pool itself, the constructor starts the workers: Gymnasium's `VectorEnv` contract needs the spaces
    at construction, and asking a worker for them avoids building a throwaway env (and loading its models) here.

    Args:
        env_fns: one picklable env factory per sub-env.
        pool_config: a `PoolConfig` or a dict of its fields.
        copy: return copies of the batched observations (False reuses one buffer between calls).

    Raises:
        WorkerFailedError: an env factory raised; ConfigError: the sub-envs' spaces differ.
    """

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]],
                 pool_config: PoolConfig | Mapping[str, Any] | None = None, copy: bool = True) -> None:
        self.pool = AsyncEnvPool(env_fns, PoolConfig.from_data(pool_config, where="pool_config")).start()
        self.num_envs = self.pool.num_envs
        self.copy = copy
        self.single_observation_space = self.pool.observation_space
        self.single_action_space = self.pool.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {**self.pool.metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
        self.render_mode = self.pool.render_mode
        self._observations = create_empty_array(self.single_observation_space, self.num_envs)

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every sub-env; an int `seed` gives sub-env i the seed `seed + i`.

        Anything still in flight (after an interrupted `step`) is received and dropped first.
        """
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        result = reset_all(self.pool, seed, options)
        infos: dict[str, Any] = {}
        for i, info in enumerate(result.infos):
            infos = self._add_info(infos, info, i)
        return self._batch(result.obs), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env once and wait for all of them (and for the resets of the episodes that ended).

        Args:
            actions: a batch in `action_space`, or a list with one action per sub-env (e.g. raw model text).

        Returns:
            (observations, rewards float64, terminations, truncations, infos) with same-step autoreset.
        """
        per_env = actions if isinstance(actions, list) else list(iterate(self.action_space, actions))
        rows = step_all(self.pool, per_env)
        infos: dict[str, Any] = {}
        for i, row in enumerate(rows):
            if row.is_done:
                infos = self._add_info(infos, {"final_obs": row.final_obs, "final_info": row.info}, i)
                infos = self._add_info(infos, row.reset_info or {}, i)
            else:
                infos = self._add_info(infos, row.info, i)
        return (self._batch([row.obs for row in rows]), np.array([row.reward for row in rows], np.float64),
                np.array([row.terminated for row in rows], bool), np.array([row.truncated for row in rows], bool),
                infos)

    def render(self) -> tuple[Any, ...] | None:
        """Each sub-env's `render()`."""
        return tuple(self.pool.apply(render_env))

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call the method `name` of every sub-env (or read the attribute, if it is not callable)."""
        return tuple(self.pool.apply(call_env, name, args, kwargs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute `name` of every sub-env."""
        return tuple(self.pool.apply(get_env_attr, name))

    def set_attr(self, name: str, values: Any | list[Any] | tuple[Any, ...]) -> None:
        """Set the attribute `name` of every sub-env: to `values[i]` if a list/tuple, else to `values`."""
        per_env = values if isinstance(values, (list, tuple)) else [values] * self.num_envs
        if len(per_env) != self.num_envs:
            raise ValueError(f"`values` has {len(per_env)} entries for {self.num_envs} sub-envs")
        for i, value in enumerate(per_env):
            self.pool.apply(set_env_attr, name, value, env_ids=[i])

    def close_extras(self, **kwargs: Any) -> None:
        """Close the pool (every worker ends within `PoolConfig.close_timeout_s`)."""
        self.pool.close()

    def _batch(self, observations: list[Any]) -> Any:
        batched = concatenate(self.single_observation_space, observations, self._observations)
        return deepcopy(batched) if self.copy else batched


def make_vector_env(entry_point: str | Callable[..., gym.Env], num_envs: int = 1,
                    pool_config: PoolConfig | Mapping[str, Any] | None = None, max_episode_steps: int | None = None,
                    **env_kwargs: Any) -> PoolVectorEnv:
    """A `PoolVectorEnv` of `num_envs` copies of `entry_point(**env_kwargs)`: a generic `vector_entry_point`.

    Register it for any env with `functools.partial`, e.g.
    `gym.register("my/Env-v0", entry_point="pkg:Env", vector_entry_point=partial(make_vector_env, "pkg:Env"))`.
    """
    if num_envs < 1:
        raise ValueError(f"`num_envs` must be >= 1, got {num_envs}")
    factory = EnvFactory(entry_point, dict(env_kwargs), max_episode_steps)
    return PoolVectorEnv([factory] * num_envs, pool_config)


def make_android_vector_env(num_envs: int = 1, pool_config: PoolConfig | Mapping[str, Any] | None = None,
                            **env_kwargs: Any) -> PoolVectorEnv:
    """The `vector_entry_point` of the android_gym ids: `num_envs` `AndroidEnv(**env_kwargs)` in a pool.

    `env_kwargs` are `EnvConfig` fields (the id's `suite` comes from its registration); `pool_config` configures
    the pool (`{"step_timeout_s": 30}`).
    """
    return make_vector_env("android_gym.env:AndroidEnv", num_envs, pool_config, **env_kwargs)
