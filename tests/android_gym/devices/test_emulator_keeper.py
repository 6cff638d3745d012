"""Tests of the emulator watchdog: an emulator never outlives the process that launched it (issue 47)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from android_gym.devices.emulator_discovery import process_start
from android_gym.devices.emulator_keeper import is_same_process, stop
from android_gym.testing.executables import emulator_executable

OWNER = """import sys, time
from android_gym.devices.emulator import Emulator, EmulatorConfig
emulator = Emulator(EmulatorConfig(avd="pixel_7", binary=sys.argv[1]), adb_port=int(sys.argv[2]))
emulator.launch()
print(emulator.process.pid, getattr(emulator.keeper, "pid", 0), flush=True)
time.sleep(600)
"""


def gone_within(pid: int, started: float, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not is_same_process(pid, started):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process start times from /proc")
def test_an_emulator_dies_with_the_process_that_launched_it(tmp_path: Path) -> None:
    """SIGKILL the launcher (as an OOM kill or a lost Ray node would): its emulator is stopped, not orphaned."""
    exe = emulator_executable(tmp_path / "emulator", "-sim-boot-s", "0.3")
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(exe), "1"], stdout=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        emulator_pid, keeper_pid = (int(x) for x in owner.stdout.readline().split())
        started, keeper_started = process_start(emulator_pid), process_start(keeper_pid) if keeper_pid else None
        assert started is not None and is_same_process(emulator_pid, started)
        time.sleep(1.0)
        assert is_same_process(emulator_pid, started)  # alive while its launcher is
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(10)
        assert gone_within(emulator_pid, started, 15.0), "the emulator outlived its launcher"
        assert keeper_started is not None and gone_within(keeper_pid, keeper_started, 5.0)  # the watchdog ends too
    finally:
        if owner.poll() is None:
            os.killpg(owner.pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process start times from /proc")
def test_the_watchdog_never_signals_a_process_that_only_shares_the_pid() -> None:
    """A pid whose start time is not the emulator's is another process now: left alone."""
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        started = process_start(bystander.pid)
        stop(bystander.pid, started - 100.0, grace_s=0.2)  # "the emulator" started long before this process
        assert bystander.poll() is None
        stop(bystander.pid, started, grace_s=5.0)
        assert bystander.wait(5) == -signal.SIGTERM
    finally:
        bystander.kill()
        bystander.wait()
