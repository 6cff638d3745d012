"""`PoolVecEnv`: a stable-baselines3 `VecEnv` over `AsyncEnvPool`, so SB3 algorithms collect from worker processes
that heal themselves.

SB3 takes Box, Discrete, MultiDiscrete and MultiBinary spaces (and flat Dicts of them for observations), so the env
factories must already flatten the phone env, e.g. `android_gym.wrappers.make_sb3_env`. Semantics are SB3's: a done
env's returned observation is the next episode's first, with `infos[i]["terminal_observation"]` and
`infos[i]["TimeLimit.truncated"]`; a worker crash or hang shows up as a truncated episode with `infos[i]["error"]`.

Importing this module imports stable-baselines3 (and torch); `android_gym.vector` does not import it.
"""  # noqa: D205

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from android_gym.errors import ConfigError
from android_gym.extras import require_extra
from android_gym.vector.lockstep import (
    call_env,
    collect_all,
    get_env_attr,
    is_wrapped,
    render_env,
    reset_all,
    set_env_attr,
)
from android_gym.vector.pool import AsyncEnvPool
from android_gym.vector.types import PoolConfig

require_extra("sb3", "android_gym.vector.sb3 (PoolVecEnv)")  # named, rather than a bare ModuleNotFoundError below

from stable_baselines3.common.vec_env.base_vec_env import (  # noqa: E402
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

SB3_SPACES = (spaces.Box, spaces.Discrete, spaces.MultiDiscrete, spaces.MultiBinary)


def check_sb3_spaces(observation_space: gym.Space, action_space: gym.Space) -> None:
    """Raise `ConfigError` unless SB3 can use these spaces (flat Dict observations allowed, Dict actions not)."""
    entries = observation_space.spaces.values() if isinstance(observation_space, spaces.Dict) else [observation_space]
    bad = [s for s in entries if not isinstance(s, SB3_SPACES)]
    if bad or not isinstance(action_space, SB3_SPACES):
        raise ConfigError(f"stable-baselines3 needs Box/Discrete/MultiDiscrete/MultiBinary spaces, got observation "
                          f"{observation_space} and action {action_space}; build the envs with a flattening "
                          "wrapper (android_gym.wrappers.make_sb3_env)")


class PoolVecEnv(VecEnv):
    """An SB3 `VecEnv` whose envs run in an `AsyncEnvPool` (lock-step, like `SubprocVecEnv`, but self-healing).

    The constructor starts the workers (SB3's `VecEnv` needs the spaces and render mode at construction).

    Args:
        env_fns: one picklable env factory per env, returning envs with SB3-compatible spaces.
        pool_config: a `PoolConfig` or a dict of its fields.

    Raises:
        ConfigError: the spaces are not SB3-compatible (the pool is closed again).
        WorkerFailedError: an env factory raised.
    """

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]],
                 pool_config: PoolConfig | Mapping[str, Any] | None = None) -> None:
        self.pool = AsyncEnvPool(env_fns, PoolConfig.from_data(pool_config, where="pool_config")).start()
        try:
            check_sb3_spaces(self.pool.observation_space, self.pool.action_space)
        except ConfigError:
            self.pool.close()
            raise
        super().__init__(self.pool.num_envs, self.pool.observation_space, self.pool.action_space)

    def reset(self) -> VecEnvObs:
        """Reset every env with the seeds/options set by `seed()`/`set_options()` (used once)."""
        result = reset_all(self.pool, list(self._seeds), [options or None for options in self._options])
        self.reset_infos = list(result.infos)
        self._reset_seeds()
        self._reset_options()
        return self._stack(result.obs)

    def step_async(self, actions: np.ndarray) -> None:
        """Send one action per env (rows of `actions`)."""
        self.pool.send(list(actions))

    def step_wait(self) -> VecEnvStepReturn:
        """Wait for every env (and for the background resets of finished episodes)."""
        rows = collect_all(self.pool)
        infos = []
        for i, row in enumerate(rows):
            info = dict(row.info)
            if row.is_done:
                info["terminal_observation"] = row.final_obs
                info["TimeLimit.truncated"] = row.truncated and not row.terminated
                self.reset_infos[i] = row.reset_info or {}
            infos.append(info)
        return (self._stack([row.obs for row in rows]), np.array([row.reward for row in rows], np.float32),
                np.array([row.is_done for row in rows], bool), infos)

    def close(self) -> None:
        """Close the pool (every worker ends within `PoolConfig.close_timeout_s`)."""
        self.pool.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of each env in `indices` (wrappers searched)."""
        return self.pool.apply(get_env_attr, attr_name, env_ids=self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set the attribute on each env in `indices`."""
        self.pool.apply(set_env_attr, attr_name, value, env_ids=self._get_indices(indices))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """Call the method on each env in `indices`."""
        return self.pool.apply(call_env, method_name, method_args, method_kwargs, env_ids=self._get_indices(indices))

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """Whether each env in `indices` is wrapped in `wrapper_class`."""
        return self.pool.apply(is_wrapped, wrapper_class, env_ids=self._get_indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Each env's `render()` (envs made with render_mode="rgb_array")."""
        return self.pool.apply(render_env)

    def _stack(self, observations: list[Any]) -> VecEnvObs:
        if isinstance(self.observation_space, spaces.Dict):
            return {key: np.stack([obs[key] for obs in observations]) for key in self.observation_space.spaces}
        return np.stack(observations)
