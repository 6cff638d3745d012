"""Conformance: whole expert episodes through AdbDevice -> adbutils-style ADB -> the sim's front equal SimDevice's.

Same seed, same actions: identical observations (UI element arrays; full-resolution screenshots through the raw
path), rewards, terminations, truncations and success, for both suites. The expert reads its next action from
the ADB side, so any divergence in elements or state would also change the actions.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from android_gym.devices.adb import AdbDevice
from android_gym.sim.adb import AdbFront

SUITES = ["android_gym/General-v0", "android_gym/WebShop-v0"]


def assert_same(obs_a: dict, obs_b: dict) -> None:
    """Every observation entry is equal (arrays exactly, text by value)."""
    assert obs_a.keys() == obs_b.keys()
    for key, value in obs_b.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(obs_a[key], value), key
        else:
            assert obs_a[key] == value, key


def run_pair(env_id: str, seeds: list[int], screenshot_width: int) -> list[tuple[float, bool]]:
    """Play the expert on both devices for `seeds`, asserting equality at every step; returns (return, success)."""
    results = []
    with AdbFront(devices=1, perturbations="default") as front:
        adb = gym.make(env_id, device=AdbDevice("sim-0", port=front.port, timeout_s=10, screenshot="raw"),
                       screenshot_width=screenshot_width)
        sim = gym.make(env_id, screenshot_width=screenshot_width)
        for seed in seeds:
            obs_a, info_a = adb.reset(seed=seed)
            obs_b, info_b = sim.reset(seed=seed)
            assert info_a["goal"] == info_b["goal"]
            assert_same(obs_a, obs_b)
            total, done = 0.0, False
            while not done:
                action = adb.unwrapped.expert_action()
                assert action == sim.unwrapped.expert_action()
                obs_a, r_a, term_a, trunc_a, info_a = adb.step(action)
                obs_b, r_b, term_b, trunc_b, info_b = sim.step(action)
                assert "error" not in info_a, info_a.get("error")
                assert_same(obs_a, obs_b)
                assert (r_a, term_a, trunc_a, info_a["success"]) == (r_b, term_b, trunc_b, info_b["success"])
                assert info_a["ui_elements"] == info_b["ui_elements"]
                total += r_a
                done = term_a or trunc_a
            results.append((total, bool(info_a["success"])))
        adb.close()
        sim.close()
    return results


@pytest.mark.parametrize("env_id", SUITES)
def test_expert_episodes_match_the_sim_with_elements(env_id):
    """Element observations, rewards and success agree over many seeds (pop-ups and spinners included)."""
    results = run_pair(env_id, list(range(16)), screenshot_width=0)
    assert sum(success for _, success in results) >= 12  # the expert mostly succeeds, through ADB too


@pytest.mark.parametrize("env_id", SUITES)
def test_expert_episodes_match_the_sim_with_native_screenshots(env_id):
    """Full-resolution screenshots fetched raw over ADB equal the sim's render, step by step."""
    run_pair(env_id, [3, 11], screenshot_width=1080)


@pytest.mark.parametrize("env_id", SUITES)
def test_check_env_passes_with_an_adb_device(env_id):
    """Gymnasium's own checker accepts the env on an AdbDevice (screenshots and elements)."""
    with AdbFront(devices=1, perturbations="default") as front:
        env = gym.make(env_id, device=AdbDevice("sim-0", port=front.port, timeout_s=10), screenshot_width=64)
        check_env(env.unwrapped, skip_render_check=True)
        env.close()
