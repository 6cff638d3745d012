"""The SB3 wrappers: stable-baselines3's checker accepts them and PPO trains on them."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.logger import Logger

from android_gym.wrappers import make_sb3_env


def test_sb3_check_env_accepts_flattened_env():
    """SB3's env checker passes on the flattened env, with and without screenshots."""
    for width in (0, 32):
        check_env(make_sb3_env("android_gym/General-v0", screenshot_width=width), warn=False)


def test_ppo_runs_on_flattened_env():
    """PPO collects and updates on the flattened env."""
    env = make_sb3_env("android_gym/WebShop-v0", screenshot_width=0)
    model = PPO("MultiInputPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0, device="cpu")
    model.set_logger(Logger(None, []))  # no /tmp/SB3-<date> folder per test run
    model.learn(total_timesteps=64)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs)
    assert np.asarray(action).shape == (3,)


def test_grid_type_action_types_a_goal_span():
    """The `type` kind types goal words [start, start+length)."""
    env = make_sb3_env("android_gym/WebShop-v0", screenshot_width=0)
    env.reset(seed=0)
    action = env.action(np.array([1, 0, 0 * 4 + 1]))
    words = env.unwrapped.task.goal.split()
    assert action.text.split()[0] in words[0] and len(action.text.split()) == 2


@pytest.mark.parametrize("screenshot_width", [0, 64])
def test_sb3_check_env_passes_without_a_warning(screenshot_width: int) -> None:
    """SB3's own checker: no error and no warning (every entry but the screenshot a 1-D vector)."""
    import warnings

    env = make_sb3_env("android_gym/General-v0", screenshot_width=screenshot_width)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    assert all(len(space.shape) == 1 for key, space in env.observation_space.spaces.items() if key != "screenshot")
