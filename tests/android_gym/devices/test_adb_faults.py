"""The fault suite: injected disconnects, hangs, garbage and offline spells through the whole env stack.

Hangs last an hour on the front while the client's deadline is a fraction of a second, so anything that blocked
past its timeout would stall this module until pytest-timeout fails it: finishing is the proof, no clock needed.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

from android_gym.devices.adb import AdbDevice
from android_gym.devices.adb_channel import AdbChannel
from android_gym.errors import DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError
from android_gym.sim.adb import AdbFront, FaultConfig

KIND_ERRORS = {"drop": DeviceOfflineError, "drop_late": DeviceOfflineError, "hang": DeviceTimeoutError,
               "garbage": DeviceProtocolError, "garbage_late": DeviceProtocolError, "offline": DeviceOfflineError}


@pytest.mark.parametrize(("kind", "error"), list(KIND_ERRORS.items()))
def test_each_fault_kind_becomes_its_typed_error(kind, error):
    """Every injected fault surfaces as the matching DeviceError subclass, within the deadline."""
    with AdbFront(devices=1, perturbations="none", faults=FaultConfig(**{kind: 1.0})) as front:
        channel = AdbChannel("sim-0", "127.0.0.1", front.port)
        with pytest.raises(error):
            channel.shell("wm size", timeout_s=0.3)
        assert front.target("sim-0").faults.counts[kind] == 1


def test_offline_spell_is_ridden_out_by_read_retries():
    """A device offline for two requests answers the third: reads retry, and count it."""
    with AdbFront(devices=1, perturbations="none") as front:
        dev = AdbDevice("sim-0", port=front.port, timeout_s=1, retries=3)
        dev.start()
        front.target("sim-0").offline_requests = 2
        assert dev.ui_elements()
        assert dev.stats()["retries"] == 2


def run_faulty_episodes(episodes: int, rate: float, seed: int) -> tuple[dict, dict, dict]:
    """Expert episodes on an ADB device with faults vs fault-free references; returns outcome counts and stats."""
    outcomes = {"clean": 0, "faulty": 0, "steps": 0}
    faults = FaultConfig.mixed(rate, seed=seed, hang_s=3600)
    with AdbFront(devices=1, perturbations="default", faults=faults) as front:
        dev = AdbDevice("sim-0", port=front.port, timeout_s=0.25, retries=4, connect_timeout_s=2)
        env = gym.make("android_gym/General-v0", device=dev, screenshot_width=64)
        ref = gym.make("android_gym/General-v0", screenshot_width=64)
        for episode in range(episodes):
            env.reset(seed=episode)
            ref.reset(seed=episode)
            done = False
            while not done:
                action = ref.unwrapped.expert_action()
                _, reward, terminated, truncated, info = env.step(action)  # must never raise
                _, r_ref, term_ref, trunc_ref, _ = ref.step(action)
                outcomes["steps"] += 1
                if "error" in info:
                    assert truncated and not terminated and reward == 0.0 and info["success"] is False
                    assert info["verdict"].success is None
                    outcomes["faulty"] += 1
                    break
                # a clean step is exactly the reference step: nothing silently wrong
                assert (reward, terminated, truncated) == (r_ref, term_ref, trunc_ref)
                done = terminated or truncated
            else:
                outcomes["clean"] += 1
        counts = dict(front.target("sim-0").faults.counts)
        stats = {**env.unwrapped.stats, **{f"device/{k}": v for k, v in dev.stats().items()}}
        env.close()
    return outcomes, counts, stats


def test_fault_run_truncates_every_faulty_episode_and_nothing_escapes():
    """At >= 10% faulty requests, every episode ends: faulty ones truncated with an error, the rest exact."""
    outcomes, counts, stats = run_faulty_episodes(episodes=16, rate=0.15, seed=7)
    assert counts["requests"] > 100
    assert sum(counts[k] for k in KIND_ERRORS) >= 0.10 * counts["requests"]
    assert outcomes["faulty"] >= 1 and outcomes["clean"] >= 1
    assert outcomes["faulty"] + outcomes["clean"] == 16
    assert stats["device_faults"] == outcomes["faulty"]
    assert stats["device_restarts"] >= outcomes["faulty"] - 1  # healed before each next episode
    assert stats["device/retries"] >= 1
