"""Small seeded envs for testing and benchmarking vector envs and pools without the simulated phone.

`LatencyEnv` stands in for a phone: Dict observations with a Text goal, the sim's wall-clock latency model per step
and per reset (`android_gym.sim.latency`), and faults on demand (crash, hang, raise) through `inject_fault`.
`CorridorEnv` is a Box/Discrete task that stable-baselines3 can learn in a few updates.

>>> env = LatencyEnv(tag=3, episode_steps=2)
>>> obs, info = env.reset(seed=0)
>>> obs["goal"], info["episode"], int(obs["t"][0])
('env 3 task 30', 1, 0)
>>> env.step(0)[2:4]
(False, False)
>>> env.step(0)[2:4]  # the step budget ends the episode
(False, True)
"""

from __future__ import annotations

import os
import time
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from android_gym.actions import TEXT_CHARSET
from android_gym.errors import ConfigError
from android_gym.sim.latency import LatencyConfig

FAULTS = ("exit", "hang", "raise", "slow_reset")
"""What `LatencyEnv.inject` can do to its next step (or reset): `os._exit(3)`, sleep, raise, or sleep in reset."""

_MOVES = np.array([[0.1, 0.0], [-0.1, 0.0], [0.0, 0.1], [0.0, -0.1]], dtype=np.float32)


def _sleep(seconds: float) -> None:
    if seconds > 0:  # time.sleep(0) still costs a system call (tens of microseconds on a small VM)
        time.sleep(seconds)


class LatencyEnv(gym.Env):
    """A point moved on the unit square, slowed down like a phone, that fails when told to.

    Observation: Dict of `goal` (Text: "env {tag} task {k}", k drawn at reset or given as `options["task"]`),
    `position` (float32 Box (2,)), `t` (int64 Box (1,), the step within the episode) and `flags` (MultiBinary(2): at
    the right edge, at the top).
    Action: Discrete(4) moves by 0.1 (right, left, up, down). Reward 1.0 and terminated on reaching (1, 1);
    truncated after `episode_steps` steps. `info` holds `tag`, `episode` (counted from the last seeded reset, so that
    the same seed and actions give the same infos), `pid` (the process stepping this env), `delay_s` (the seconds
    this call slept) and, on steps, `action`.

    Args:
        latency: a `LatencyConfig` preset name ("off", "emulator", ...), dict or config; delays are real sleeps.
        time_scale: multiplies every latency delay (None keeps the config's).
        episode_steps: the step budget.
        step_delay_s: extra seconds slept every step (to make one env of a pool slow).
        reset_delay_s: extra seconds slept every reset.
        tag: identifies the env in its goal and info; also seeds its latency draws unless `latency_seed` is set.
        latency_seed: seed of the latency draws (independent of `reset(seed=...)`, so that the same env sees the
            same delays whatever the policy does).
        fail_resets: every reset raises `RuntimeError` (an env that cannot start).
        fail_first_builds: the first this-many constructions raise `RuntimeError` (a phone that fails while it
            connects), counted across processes in the file `build_counter`.
        build_counter: a file that gets one byte per construction (needed when `fail_first_builds` > 0).
        render_mode: None or "rgb_array" (a 16x16 image of the point).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, latency: str | dict | LatencyConfig | None = "off", time_scale: float | None = None,
                 episode_steps: int = 10, step_delay_s: float = 0.0, reset_delay_s: float = 0.0, tag: int = 0,
                 latency_seed: int | None = None, fail_resets: bool = False, fail_first_builds: int = 0,
                 build_counter: str | None = None, render_mode: str | None = None) -> None:
        if episode_steps < 1:
            raise ConfigError(f"`episode_steps` must be >= 1, got {episode_steps}")
        if fail_first_builds > 0:
            if build_counter is None:
                raise ConfigError("`fail_first_builds` needs a `build_counter` file to count constructions in")
            with open(build_counter, "ab") as counter:
                counter.write(b".")
                builds = counter.tell()
            if builds <= fail_first_builds:
                raise RuntimeError(f"env {tag}: construction {builds} of the first {fail_first_builds} fails")
        if render_mode not in (None, "rgb_array"):
            raise ConfigError(f"`render_mode` must be None or 'rgb_array', got {render_mode!r}")
        self.latency = LatencyConfig.coerce(latency, time_scale)
        self.episode_steps = episode_steps
        self.step_delay_s, self.reset_delay_s = step_delay_s, reset_delay_s
        self.tag, self.fail_resets, self.render_mode = tag, fail_resets, render_mode
        self.observation_space = spaces.Dict({
            "goal": spaces.Text(64, min_length=1, charset=TEXT_CHARSET),
            "position": spaces.Box(0.0, 1.0, (2,), np.float32),
            "t": spaces.Box(0, 2**31 - 1, (1,), np.int64),
            "flags": spaces.MultiBinary(2),
        })
        self.action_space = spaces.Discrete(4)
        self._latency_rng = np.random.default_rng(tag if latency_seed is None else latency_seed)
        self._position = np.zeros(2, np.float32)
        self._t, self._episode, self._task = 0, 0, 0
        self._fault: tuple[str, float] | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start an episode at a random point of the lower-left quarter (seeded by `seed`); sleeps the reset delay.

        `options["task"]` (an int), if given, replaces the drawn task number (the draw still happens, so the
        generator moves on alike).

        Raises:
            RuntimeError: `fail_resets` is set.
        """
        super().reset(seed=seed)
        if self._fault is not None and self._fault[0] == "slow_reset":
            time.sleep(self._fault[1])
            self._fault = None
        if self.fail_resets:
            raise RuntimeError(f"env {self.tag} cannot reset (fail_resets=True)")
        delay_s = self.reset_delay_s + self.latency.reset_s(self._latency_rng)
        _sleep(delay_s)
        self._position = self.np_random.uniform(0.0, 0.5, 2).astype(np.float32)
        self._task = int(self.np_random.integers(100))
        if options and "task" in options:
            self._task = int(options["task"])
        self._t = 0
        self._episode = 1 if seed is not None else self._episode + 1  # seeded resets replay identically
        return self._obs(), {**self._info(), "delay_s": delay_s}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        """Move, sleep the step delay, and apply an injected fault if there is one.

        Raises:
            RuntimeError: a "raise" fault was injected.
        """
        if self._fault is not None and self._fault[0] != "slow_reset":
            (fault, seconds), self._fault = self._fault, None
            if fault == "exit":
                os._exit(3)
            if fault == "raise":
                raise RuntimeError(f"injected fault in env {self.tag}")
            time.sleep(seconds)
        delay_s = self.step_delay_s + self.latency.step_s(self._latency_rng)
        _sleep(delay_s)
        self._position = np.clip(self._position + _MOVES[int(action)], 0.0, 1.0).astype(np.float32)
        self._t += 1
        terminated = bool(np.all(self._position >= 1.0 - 1e-6))
        truncated = not terminated and self._t >= self.episode_steps
        info = {**self._info(), "action": int(action), "delay_s": delay_s}
        return self._obs(), float(terminated), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        """A 16x16 RGB image with the point in white (render_mode "rgb_array")."""
        if self.render_mode != "rgb_array":
            return None
        frame = np.zeros((16, 16, 3), np.uint8)
        x, y = (self._position * 15).astype(int)
        frame[15 - y, x] = 255
        return frame

    def inject(self, fault: str, seconds: float = 60.0) -> None:
        """Make the next step (or reset, for "slow_reset") fail: one of `FAULTS`; `seconds` is the sleep."""
        if fault not in FAULTS:
            raise ConfigError(f"`fault` must be one of {FAULTS}, got {fault!r}")
        self._fault = (fault, seconds)

    def _obs(self) -> dict[str, Any]:
        return {"goal": f"env {self.tag} task {self._task}", "position": self._position.copy(),
                "t": np.array([self._t], np.int64), "flags": (self._position >= 1.0 - 1e-6).astype(np.int8)}

    def _info(self) -> dict[str, Any]:
        return {"tag": self.tag, "episode": self._episode, "pid": os.getpid()}


def inject_fault(env: gym.Env, fault: str, seconds: float = 60.0) -> None:
    """`env.unwrapped.inject(fault, seconds)`: for `AsyncEnvPool.apply(inject_fault, "hang", env_ids=[1])`."""
    env.unwrapped.inject(fault, seconds)  # type: ignore[attr-defined]


class CorridorEnv(gym.Env):
    """Walk right along a corridor of `length` cells: a Box/Discrete task PPO learns in a few updates.

    Observation: float32 Box (2,): position / length and t / max_steps. Action: Discrete(2), 0 left, 1 right.
    Reward 1.0 and terminated at the right end; -0.01 per other step; truncated after `max_steps`.
    """

    metadata = {"render_modes": []}

    def __init__(self, length: int = 5, max_steps: int = 20) -> None:
        self.length, self.max_steps = length, max_steps
        self.observation_space = spaces.Box(0.0, 1.0, (2,), np.float32)
        self.action_space = spaces.Discrete(2)
        self._position, self._t = 0, 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Start at a random cell of the left half."""
        super().reset(seed=seed)
        self._position, self._t = int(self.np_random.integers(0, self.length // 2 + 1)), 0
        return self._obs(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Move one cell left or right."""
        self._position = int(np.clip(self._position + (1 if int(action) == 1 else -1), 0, self.length))
        self._t += 1
        terminated = self._position == self.length
        truncated = not terminated and self._t >= self.max_steps
        return self._obs(), 1.0 if terminated else -0.01, terminated, truncated, {}

    def _obs(self) -> np.ndarray:
        return np.array([self._position / self.length, self._t / self.max_steps], np.float32)
