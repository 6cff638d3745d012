"""Host slots (issue 47): `{slot}` and `{port}` in a device spec number the envs of one machine 0, 1, 2, ... across
processes, so that a worker on a second host drives that host's own phones, not the ones `{index}` would name."""  # noqa: D205, D209

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the envs)
from android_gym.devices.host_slots import HostSlot, fill
from android_gym.errors import ConfigError
from android_gym.sim.adb import AdbFront


@pytest.fixture(scope="module")
def front():
    with AdbFront(devices=3, perturbations="none") as f:
        yield f


def make(front: AdbFront, spec: str = "adb:sim-{slot}") -> gym.Env:
    return gym.make("android_gym/General-v0", device=spec, device_options={"port": front.port, "timeout_s": 5})


def serial(env: gym.Env) -> str:
    return env.unwrapped.device.config.serial


def test_envs_of_one_process_take_the_lowest_free_slots_and_give_them_back_at_close(front) -> None:
    first, second = make(front), make(front)
    try:
        assert (serial(first), serial(second)) == ("sim-0", "sim-1")
        first.close()
        third = make(front)
        assert serial(third) == "sim-0"  # the slot first gave back
        third.reset(seed=0)  # and it drives that phone
        third.close()
    finally:
        first.close()
        second.close()


def test_a_slot_held_by_another_process_is_skipped_until_that_process_dies(front) -> None:
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from android_gym.devices.host_slots import HostSlot
        print(HostSlot.claim().number, flush=True)
        time.sleep(120)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "0"
        env = make(front)
        assert serial(env) == "sim-1"
        env.close()
    finally:
        holder.kill()
        holder.wait()
    env = make(front)  # the dead holder's claim is stale: taken over
    try:
        assert serial(env) == "sim-0"
    finally:
        env.close()


def test_port_is_the_console_port_of_the_slots_emulator_and_a_failed_build_gives_its_slot_back(front) -> None:
    assert [fill("emulator@{port}", k) for k in range(3)] == ["emulator@5554", "emulator@5556", "emulator@5558"]
    with pytest.raises(ConfigError, match="emulator@"):
        make(front, "emulator@{port}0000")  # 55540000 is no port: refused when the config is read
    slot = HostSlot.claim()
    try:
        assert slot.number == 0  # nothing leaked from the refused spec or the earlier tests
    finally:
        slot.release()
        slot.release()  # idempotent: it never releases a later holder's claim
    held = [HostSlot.claim(), HostSlot.claim()]
    slot.release()
    held.append(HostSlot.claim())
    try:
        assert [s.number for s in held] == [0, 1, 2]
    finally:
        for s in held:
            s.release()
