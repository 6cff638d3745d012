"""Integration: a real `adb` server drives a simulated phone through the device-side adbd endpoint.

The adb binary is the one bundled in the adbutils wheel (or Debian's): the exact production stack,
AdbDevice -> adb server -> adbd -> phone.

The adb server is isolated: its own free port, a temporary HOME, no mDNS or USB, and `adb kill-server` at teardown
even on failure. The adbd authenticates (issue 43): the key it trusts is the user's `~/.android/adbkey`, and the
test's HOME is the adb server's, so the key the real adb signs with is that one. Skipped with a reason where no adb
binary exists.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import adbutils
import gymnasium as gym
import numpy as np
import pytest

from android_gym.devices.adb import AdbDevice
from android_gym.devices.sim import SimDevice
from android_gym.sim.adb import SimTarget
from android_gym.sim.adb.adbd import AdbdEndpoint
from android_gym.sim.adb.adbkey import AdbKey, AuthorizedKeys


def adb_binary() -> str | None:
    """The adb bundled with adbutils, else one on PATH."""
    bundled = Path(adbutils.__file__).parent / "binaries" / "adb"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return str(bundled)
    return shutil.which("adb")


ADB = adb_binary()
pytestmark = pytest.mark.skipif(ADB is None, reason="no adb binary (neither in adbutils' wheel nor on PATH)")


def free_port() -> int:
    """A free loopback TCP port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def adb_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, dict[str, str]]]:
    """An isolated real adb server; yields (port, environment for adb commands)."""
    port = free_port()
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port), "HOME": str(tmp_path), "ADB_MDNS": "0",
           "ADB_MDNS_AUTO_CONNECT": "0", "ADB_USB": "0", "ANDROID_SDK_HOME": str(tmp_path)}
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.setenv("HOME", str(tmp_path))  # our adbd trusts, and our clients sign with, the adb server's key
    try:
        started = subprocess.run([ADB, "start-server"], env=env, capture_output=True, timeout=30)
        if started.returncode != 0:
            pytest.skip(f"the adb binary cannot start a server here: {started.stderr.decode()[:200]}")
        yield port, env
    finally:
        subprocess.run([ADB, "kill-server"], env=env, capture_output=True, timeout=30)


def test_real_adb_server_drives_a_simulated_phone(adb_server):
    """`adb connect` to the adbd endpoint; the adb CLI and AdbDevice both work; an expert episode matches the sim."""
    port, env = adb_server
    with AdbdEndpoint(SimTarget("sim-adbd", "none")) as endpoint:
        serial = f"127.0.0.1:{endpoint.port}"
        out = subprocess.run([ADB, "connect", serial], env=env, capture_output=True, text=True, timeout=30)
        assert "connected to" in out.stdout, out
        shell = subprocess.run([ADB, "-s", serial, "shell", "wm size; exit 4"], env=env, capture_output=True,
                               text=True, timeout=30)
        assert (shell.stdout, shell.returncode) == ("Physical size: 1080x2400\n", 4)

        dev = AdbDevice(serial, port=port, timeout_s=20, screenshot="raw")
        sim = SimDevice("none")
        dev.reset(0)
        sim.reset(0)
        assert np.array_equal(dev.screenshot(), sim.screenshot())
        assert dev.ui_elements() == sim.ui_elements()

        envs = [gym.make("android_gym/General-v0", device=d, screenshot_width=0) for d in (dev, SimDevice("none"))]
        seed = 4
        obs = [e.reset(seed=seed)[0] for e in envs]
        done = False
        while not done:
            action = envs[1].unwrapped.expert_action()
            steps = [e.step(action) for e in envs]
            assert np.array_equal(steps[0][0]["element_text"], steps[1][0]["element_text"])
            assert steps[0][1:4] == steps[1][1:4] and "error" not in steps[0][4]
            done = steps[1][2] or steps[1][3]
        assert steps[0][4]["success"] and obs[0]["goal"] == obs[1]["goal"]


def test_real_adb_server_with_another_key_fails_to_authenticate(adb_server, tmp_path):
    """An adbd trusting only another key refuses the real adb (its signature, then its public key): no shell runs."""
    port, env = adb_server
    stranger = AuthorizedKeys.of_user(tmp_path / "stranger" / "adbkey")
    target = SimTarget("sim-adbd", "none")
    with AdbdEndpoint(target, authorized_keys=stranger) as endpoint:
        serial = f"127.0.0.1:{endpoint.port}"
        out = subprocess.run([ADB, "connect", serial], env=env, capture_output=True, text=True, timeout=30)
        # adb prints "failed to authenticate" when the refusal reaches it first, and "connected to" when its own TCP
        # connect wins the race (seen on a loaded machine); either way the device must never come up as usable
        assert "authenticate" in out.stdout + out.stderr or "connected to" in out.stdout, out
        devices = subprocess.run([ADB, "devices"], env=env, capture_output=True, text=True, timeout=30)
        assert f"{serial}\tdevice" not in devices.stdout, devices
        shell = subprocess.run([ADB, "-s", serial, "shell", "echo hi"], env=env, capture_output=True, text=True,
                               timeout=30)
        assert shell.returncode != 0 and "hi" not in shell.stdout
        assert target.history == []
    assert AdbKey.load(tmp_path / ".android" / "adbkey")  # the adb server's own key was not the trusted one
