"""Wrappers, one per module: `SB3Observation` and `GridActions` make the env usable by stable-baselines3."""

from __future__ import annotations

import gymnasium as gym

from android_gym.wrappers.grid_actions import GridActions
from android_gym.wrappers.sb3_observation import SB3Observation


def make_sb3_env(env_id: str = "android_gym/General-v0", **kwargs: object) -> gym.Env:
    """`gym.make(env_id, **kwargs)` wrapped for SB3: flat Box observations and MultiDiscrete actions."""
    return GridActions(SB3Observation(gym.make(env_id, **kwargs)))


__all__ = ["GridActions", "SB3Observation", "make_sb3_env"]
