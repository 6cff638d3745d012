"""`SB3Observation`: the env's observation as a flat Dict of Boxes, the only kind stable-baselines3 accepts."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

GOAL_BYTES = 64


class SB3Observation(gym.ObservationWrapper):
    """Replace the Text goal by its UTF-8 bytes, and the element arrays by flat (1-D) Boxes.

    The screenshot (if any) stays an image Box, so SB3's `MultiInputPolicy` puts a CNN on it; every other entry is a
    vector, as SB3's `check_env` asks (its extractor flattens them anyway: the values are the same).

    >>> import android_gym, gymnasium as gym
    >>> env = SB3Observation(gym.make("android_gym/General-v0", screenshot_width=0))
    >>> sorted(env.observation_space.spaces)[:3]
    ['element_boxes', 'element_class', 'element_flags']
    """

    def __init__(self, env: gym.Env, goal_bytes: int = GOAL_BYTES) -> None:
        super().__init__(env)
        self.goal_bytes = goal_bytes
        out: dict[str, spaces.Space] = {}
        for key, space in env.observation_space.spaces.items():
            if isinstance(space, spaces.Text):
                out[key] = spaces.Box(0, 255, (goal_bytes,), np.uint8)
            elif isinstance(space, spaces.MultiBinary):
                out[key] = spaces.Box(0, 1, (int(np.prod(space.n)),), np.uint8)
            elif isinstance(space, spaces.Box) and space.dtype == np.int64:
                out[key] = spaces.Box(0, float(space.high.max()), (int(np.prod(space.shape)),), np.float32)
            elif isinstance(space, spaces.Box) and len(space.shape) > 1 and key != "screenshot":
                out[key] = spaces.Box(space.low.reshape(-1), space.high.reshape(-1), dtype=space.dtype)
            else:
                out[key] = space
        self.observation_space = spaces.Dict(out)

    def observation(self, observation: dict[str, Any]) -> dict[str, np.ndarray]:
        """Encode one observation."""
        out = {}
        for key, space in self.observation_space.spaces.items():
            value = observation[key]
            if isinstance(value, str):
                raw = value.encode("utf-8")[: self.goal_bytes]
                arr = np.zeros(self.goal_bytes, np.uint8)
                arr[: len(raw)] = np.frombuffer(raw, np.uint8)
                out[key] = arr
            else:
                out[key] = np.asarray(value, dtype=space.dtype).reshape(space.shape)
        return out
