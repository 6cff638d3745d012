"""Wrappers, one per module: `SB3Observation` and `GridActions` make the env usable by stable-baselines3."""

from __future__ import annotations

import gymnasium as gym

from android_gym.wrappers.grid_actions import GridActions
from android_gym.wrappers.sb3_observation import SB3Observation


def make_sb3_env(env_id: str = "android_gym/General-v0", **kwargs: object) -> gym.Env:
    """`gym.make(env_id, **kwargs)` wrapped for SB3: a Dict of Box observations (SB3's `MultiInputPolicy` takes it)
    and MultiDiscrete actions (with the answer and impossible kinds when the suite has tasks won by declaring:
    `suites.declares`)."""  # noqa: D205, D209
    from android_gym.tasks import suites

    env = gym.make(env_id, **kwargs)
    return GridActions(SB3Observation(env), declare=suites.declares(env.unwrapped.config.suite))


__all__ = ["GridActions", "SB3Observation", "make_sb3_env"]
