"""Tests of `PoolVecEnv`, the stable-baselines3 adapter: PPO trains on it, SB3's done/terminal semantics, healing."""

from __future__ import annotations

import functools
import importlib.util
import multiprocessing
import os
import signal

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.logger import Logger  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402

from android_gym.errors import ConfigError  # noqa: E402
from android_gym.testing.envs import CorridorEnv, LatencyEnv  # noqa: E402
from android_gym.vector.sb3 import PoolVecEnv  # noqa: E402

POOL = {"close_timeout_s": 1.0}
SUITES_READY = all(importlib.util.find_spec(f"android_gym.tasks.{name}") for name in ("web", "apps"))


@pytest.fixture
def venv() -> PoolVecEnv:
    vec = PoolVecEnv([functools.partial(CorridorEnv, length=2, max_steps=4)] * 2, POOL)
    yield vec
    vec.close()


def test_ppo_runs_a_few_updates(venv: PoolVecEnv) -> None:
    model = PPO("MlpPolicy", venv, n_steps=16, batch_size=16, n_epochs=2, seed=0, device="cpu")
    model.set_logger(Logger(None, []))  # no /tmp/SB3-<date> folder per test run
    model.learn(total_timesteps=64)  # 2 rollouts of 16 steps x 2 envs, 2 updates
    assert model.num_timesteps >= 64 and model._n_updates >= 2
    stats = venv.pool.stats()
    assert stats["steps"] >= 64 and stats["episodes"] > 0 and stats["restarts"] == 0


def test_done_env_returns_next_episode_and_terminal_observation(venv: PoolVecEnv) -> None:
    venv.seed(0)
    obs = venv.reset()
    assert obs.shape == (2, 2) and obs.dtype == np.float32
    for _ in range(4):  # walking right reaches the end within 2 steps; walking left times out at 4
        obs, rewards, dones, infos = venv.step(np.array([1, 0]))
        if dones[1]:
            break
    assert dones[1] and infos[1]["TimeLimit.truncated"] and infos[1]["terminal_observation"][1] == 1.0
    assert obs[1][1] == 0.0  # the returned observation already starts the next episode
    assert rewards.dtype == np.float32 and venv.reset_infos[1] == {"is_reset": True}


def test_killed_worker_ends_its_episode_with_error(venv: PoolVecEnv) -> None:
    venv.reset()
    os.kill(venv.pool.pids[0], signal.SIGKILL)
    _, _, dones, infos = venv.step(np.array([0, 0]))
    assert dones[0] and "SIGKILL" in infos[0]["error"] and infos[0]["TimeLimit.truncated"]
    assert "error" not in infos[1]


def test_attribute_and_method_access(venv: PoolVecEnv) -> None:
    venv.reset()
    assert venv.get_attr("length") == [2, 2]
    venv.set_attr("max_steps", 7, indices=[1])
    assert venv.get_attr("max_steps") == [4, 7]
    assert venv.env_method("_obs", indices=0)[0].shape == (2,)
    assert venv.env_is_wrapped(Monitor) == [False, False]


def test_text_observations_are_rejected_and_workers_closed() -> None:
    with pytest.raises(ConfigError, match="flattening wrapper"):
        PoolVecEnv([LatencyEnv], POOL)
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("android_gym-pool")]


@pytest.mark.skipif(not SUITES_READY, reason="the task suites (android_gym.tasks.web/apps) are not written yet")
def test_flattened_android_env_steps() -> None:
    wrappers = pytest.importorskip("android_gym.wrappers")
    venv = PoolVecEnv([functools.partial(wrappers.make_sb3_env, screenshot_width=0)] * 2, POOL)
    try:
        obs = venv.reset()
        assert obs["goal"].shape[0] == 2
        venv.action_space.seed(0)
        for _ in range(3):
            obs, rewards, dones, infos = venv.step(np.stack([venv.action_space.sample() for _ in range(2)]))
        assert venv.observation_space.contains({key: value[0] for key, value in obs.items()})
    finally:
        venv.close()
