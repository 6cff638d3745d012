"""Tests of the Gymnasium environment contract on the simulated phone."""

from __future__ import annotations

import subprocess
import sys
from unittest import mock

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError, DeviceTimeoutError, EnvStateError, UnknownNameError

ENV_IDS = list(android_gym.ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_passes_for_every_registered_id(env_id):
    """Gymnasium's own checker accepts both suites (with screenshots and elements)."""
    env = gym.make(env_id, screenshot_width=64)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_expert_reaches_reward_one_through_env(env_id):
    """Stepping the expert's actions ends the episode with reward 1 and terminated=True."""
    env = gym.make(env_id, screenshot_width=0)
    for seed in range(3):
        env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            total += reward
            done = terminated or truncated
        assert terminated and total == 1.0 and info["success"]


def test_same_seed_same_actions_give_same_observations():
    """Determinism: two envs with one seed and one action sequence see identical screens and elements."""
    envs = [gym.make("android_gym/WebShop-v0", screenshot_width=64) for _ in range(2)]
    obs = [e.reset(seed=7)[0] for e in envs]
    for _ in range(8):
        assert np.array_equal(obs[0]["screenshot"], obs[1]["screenshot"])
        assert np.array_equal(obs[0]["element_text"], obs[1]["element_text"])
        action = envs[0].unwrapped.expert_action()
        obs = [e.step(action)[0] for e in envs]


def test_make_without_prior_import_finds_the_id():
    """`gym.make("android_gym:android_gym/General-v0")` imports the package itself."""
    code = ("import gymnasium as gym; e = gym.make('android_gym:android_gym/General-v0'); "
            "print(e.reset(seed=0)[1]['goal'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()


def test_bad_kwarg_names_the_closest_field():
    """A misspelt kwarg is refused at construction with a suggestion."""
    with pytest.raises(UnknownNameError, match="screenshot_width"):
        gym.make("android_gym/General-v0", screenshot_widht=64)


@pytest.mark.parametrize("kwargs", [{"split": "validation"}, {"suite": "genral"}, {"screenshot_width": 5},
                                    {"max_steps": 0}, {"perturbations": "extreme"}, {"latency": "slow"},
                                    {"task": "no_such_template"}])
def test_bad_kwarg_values_raise_config_error(kwargs):
    """Bad values fail at construction with ConfigError."""
    with pytest.raises(ConfigError):
        android_gym.env.AndroidEnv(**kwargs)


def test_step_before_reset_raises_state_error():
    """Stepping before reset is a named state error."""
    env = gym.make("android_gym/General-v0", screenshot_width=0)
    with pytest.raises(EnvStateError):
        env.unwrapped.step(Action.key(ActionType.PRESS_HOME))


@pytest.mark.parametrize("action", [
    "Output in incorrect format.",
    {"action_type": 0, "touch": [1.5, 0.2], "lift": [1.5, 0.2], "text": ""},
    {"action_type": 1, "touch": [0, 0], "lift": [0, 0], "text": 42},
    {"action_type": 99},
    {"action_type": 0, "touch": [0.5, 0.5], "lift": [0.5, 0.5], "text": "", "bogus": 1},
    Action.type("hello"),  # no focused field on the home screen
])
def test_bad_actions_are_reported_invalid_not_raised(action):
    """Unparsable, out-of-range or inapplicable actions become invalid no-ops with a reason and a penalty."""
    env = gym.make("android_gym/General-v0", screenshot_width=0, perturbations="none")
    obs, _ = env.reset(seed=0)
    obs2, reward, terminated, truncated, info = env.step(action)
    assert not info["action_valid"] and info["invalid_reason"] and info["penalty"] > 0
    assert reward == 0.0 and not terminated
    assert np.array_equal(obs["element_text"], obs2["element_text"])


def test_step_after_termination_is_invalid_and_changes_nothing():
    """After the episode ends, further steps report an invalid action and keep the final observation."""
    env = gym.make("android_gym/General-v0", screenshot_width=0)
    env.reset(seed=0)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(env.unwrapped.expert_action())
        done = terminated or truncated
    again, reward, terminated, _, info = env.step(Action.key(ActionType.PRESS_HOME))
    assert terminated and reward == 0.0 and not info["action_valid"] and "reset" in info["invalid_reason"]
    assert np.array_equal(again["element_text"], obs["element_text"])


def test_budget_truncates_episode():
    """A do-nothing agent is truncated exactly at the step budget."""
    env = gym.make("android_gym/General-v0", screenshot_width=0, max_steps=4)
    env.reset(seed=0)
    flags = [env.step(Action.key(ActionType.WAIT))[2:4] for _ in range(4)]
    assert flags[-1] == (False, True) and all(f == (False, False) for f in flags[:-1])


def test_device_fault_truncates_with_error_and_restarts_device():
    """A device fault in step() truncates with info['error']; the next reset restarts the device."""
    env = gym.make("android_gym/General-v0", screenshot_width=0)
    env.reset(seed=0)
    device: SimDevice = env.unwrapped.device
    with mock.patch.object(device, "_tap_impl", side_effect=DeviceTimeoutError("tap timed out after 5 s")):
        _, reward, terminated, truncated, info = env.step(Action.tap(0.5, 0.5))
    assert truncated and not terminated and reward == 0.0 and "timed out" in info["error"]
    with mock.patch.object(device, "start", wraps=device.start) as start:
        env.reset(seed=1)
    assert start.called and env.unwrapped.stats["device_restarts"] == 1


def test_restart_that_fails_after_a_fault_is_retried_by_reset():
    """After a fault, a device whose first restart fails is restarted again: reset still returns an episode."""
    env = gym.make("android_gym/General-v0", screenshot_width=0)
    env.reset(seed=0)
    device: SimDevice = env.unwrapped.device
    with mock.patch.object(device, "_tap_impl", side_effect=DeviceTimeoutError("tap timed out after 5 s")):
        env.step(Action.tap(0.5, 0.5))
    real_start, calls = device.start, []

    def flaky_start() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise DeviceTimeoutError("connect timed out after 2 s")
        real_start()

    with mock.patch.object(device, "start", side_effect=flaky_start) as start:
        obs, info = env.reset(seed=1)
    assert start.call_count == 2 and env.unwrapped.stats["device_restarts"] == 2 and info["goal"]


def test_render_returns_rgb_frame():
    """render_mode='rgb_array' returns an RGB frame of the requested width."""
    env = gym.make("android_gym/General-v0", render_mode="rgb_array", render_width=120, screenshot_width=0)
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape[1:] == (120, 3)


def test_reset_options_choose_a_task_by_index_and_goal():
    """`options={"task": ...}` picks a task by index or by goal text."""
    env = gym.make("android_gym/WebShop-v0", screenshot_width=0)
    task = env.unwrapped.tasks[5]
    assert env.reset(seed=0, options={"task": 5})[1]["goal"] == task.goal
    assert env.reset(seed=0, options={"task": task.goal})[1]["goal"] == task.goal
    with pytest.raises(ConfigError):
        env.reset(options={"task": 10**9})


def test_goal_is_contained_in_the_text_space():
    """Real goals pass the observation space's Text.contains (charset covers punctuation)."""
    env = gym.make("android_gym/WebShop-v0", screenshot_width=0)
    for task in env.unwrapped.tasks[:200]:
        assert env.observation_space["goal"].contains(task.goal), task.goal


def test_info_describes_the_screen_the_returned_observation_shows():
    """After `step`, `info["ui_elements"]` and `info["ui_xml"]` are the screen after the action, as the observation is,
    not the screen the action was taken on (issue 49, item 3)."""  # noqa: D205, D209
    env = gym.make("android_gym/General-v0", include_xml=True).unwrapped
    _, info = env.reset(seed=3)
    before, changed = info["ui_elements"], 0
    for _ in range(6):
        obs, _, terminated, truncated, info = env.step(env.expert_action())
        now = env.device.ui_elements()
        assert info["ui_elements"] == now and info["ui_xml"] == env.device.ui_xml()
        assert int(obs["element_mask"].sum()) == min(len(now), obs["element_mask"].shape[0])
        changed += now != before
        before = now
        if terminated or truncated:
            break
    assert changed >= 1  # the expert's actions change the screen: the check above could tell the two apart
    env.close()
