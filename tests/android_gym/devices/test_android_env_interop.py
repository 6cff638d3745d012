"""DeepMind's AndroidEnv, unmodified from PyPI, runs `android-gym emulator` as its Android emulator.

Its `EmulatorSimulator` launches our executable with the emulator's command line, connects to the gRPC port with
local credentials, waits for `getStatus().booted`, takes RGBA screenshots, sends touches and keys, saves and loads
snapshots through the SnapshotService, and shuts the process down with `setVmState`. The only stand-in is the `adb`
binary: in these flows AndroidEnv runs just `adb devices` (to start a server), and no real adb is installed here, so
a two-line shim answers it. Our own ADB front listens on the ADB server port AndroidEnv names, which the emulator
announces itself to, so the test reads the emulator's phone over ADB to check what each gRPC call did.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("grpc")
pytest.importorskip("android_env")

from android_env.components import config_classes  # noqa: E402
from android_env.components.simulators.emulator import emulator_simulator  # noqa: E402
from android_env.proto import state_pb2  # noqa: E402

from android_gym.devices.adb import AdbDevice  # noqa: E402
from android_gym.devices.emulator_console import PortAllocator  # noqa: E402
from android_gym.sim.adb import AdbFront  # noqa: E402

ESCAPE = 0xFF1B  # the XKB keysym AndroidEnv users send for Android's BACK


@pytest.fixture
def adb_front() -> Iterator[AdbFront]:
    """The ADB server AndroidEnv names: the emulator announces itself here; the test reads its phone through it."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


def simulator_config(tmp_path: Path, adb_port: int) -> config_classes.EmulatorConfig:
    """AndroidEnv's config for our emulator: an SDK layout whose emulator is `android-gym emulator`, an adb shim."""
    emulator = tmp_path / "sdk" / "emulator" / "emulator"
    emulator.parent.mkdir(parents=True)
    emulator.write_text(f"#!{sys.executable}\nimport sys\nfrom android_gym.sim.emulator.process import main\n"
                        "sys.exit(main([*sys.argv[1:], '-sim-boot-s', '0.3']))\n")
    adb = tmp_path / "sdk" / "platform-tools" / "adb"
    adb.parent.mkdir(parents=True)
    adb.write_text("#!/bin/sh\nexit 0\n")
    for exe in (emulator, adb):
        exe.chmod(0o755)
    launcher = config_classes.EmulatorLauncherConfig(  # ports left 0: AndroidEnv picks them and launches
        emulator_path=str(emulator), android_sdk_root=str(tmp_path / "sdk"), avd_name="pixel_7",
        android_avd_home=str(tmp_path / "avd"), tmp_dir=str(tmp_path / "android_env"))
    return config_classes.EmulatorConfig(
        emulator_launcher=launcher, logfile_path=str(tmp_path / "emulator.log"),
        adb_controller=config_classes.AdbControllerConfig(adb_path=str(adb), adb_server_port=adb_port,
                                                          default_timeout=10.0))


def test_android_envs_emulator_simulator_drives_android_gym_emulator(tmp_path, adb_front, monkeypatch):
    """Boot, a screenshot equal to the phone's, a tap, BACK, snapshots, shutdown: all AndroidEnv's own calls."""
    monkeypatch.setenv("HOME", str(tmp_path))
    simulator = emulator_simulator.EmulatorSimulator(simulator_config(tmp_path, adb_front.port))
    try:
        simulator.launch()
        phone = AdbDevice(simulator.adb_device_name(), port=adb_front.port, timeout_s=10.0)
        phone.start()

        def foreground() -> str:
            phone.refresh()  # the phone changed behind this device's back (over gRPC): drop its cached reads
            return phone.state()["foreground"]

        shot = simulator.get_screenshot()
        assert shot.ndim == 3 and shot.shape[2] == 3 and shot.dtype == np.uint8
        assert np.array_equal(shot, phone.screenshot(width=shot.shape[1]))
        assert simulator.save_state(state_pb2.SaveStateRequest(args={"snapshot_name": "home"})).status == \
            state_pb2.SaveStateResponse.Status.OK
        settings = next(e for e in phone.ui_elements() if e.text == "Settings")
        x, y = settings.center
        simulator.send_touch([(x, y, True, 0)])
        simulator.send_touch([(x, y, False, 0)])
        assert foreground() == "com.android.settings"
        simulator.send_key(np.int32(ESCAPE), "keypress")
        assert foreground().endswith("launcher")
        simulator.send_touch([(x, y, True, 0)])
        simulator.send_touch([(x, y, False, 0)])
        loaded = simulator.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "home"}))
        assert loaded.status == state_pb2.LoadStateResponse.Status.OK
        assert foreground().endswith("launcher")
        missing = simulator.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "nightly"}))
        assert missing.status == state_pb2.LoadStateResponse.Status.NOT_FOUND
        phone.close()
    finally:
        simulator.close()  # setVmState(SHUTDOWN), then waits for the process to end
    assert adb_front.lookup(simulator.adb_device_name())[0] is None  # gone from the ADB server's list


def test_android_env_attaches_to_a_running_android_gym_emulator_by_its_ports(tmp_path, adb_front):
    """Given all three ports, AndroidEnv attaches instead of launching: boot confirmed, a screenshot, a tap."""
    console, adb, grpc_port = (PortAllocator.allocate() for _ in range(3))
    env = {**os.environ, "HOME": str(tmp_path), "ANDROID_ADB_SERVER_PORT": str(adb_front.port)}
    process = subprocess.Popen([sys.executable, "-m", "android_gym.sim.emulator.process", "-avd", "pixel_7",
                                "-ports", f"{console},{adb + 1}", "-grpc", str(grpc_port), "-sim-boot-s", "0.3"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        config = simulator_config(tmp_path, adb_front.port)
        launcher = config.emulator_launcher
        launcher.emulator_console_port, launcher.adb_port, launcher.grpc_port = console, adb + 1, grpc_port
        simulator = emulator_simulator.EmulatorSimulator(config)
        try:
            simulator.launch()  # connects to the gRPC port and waits for getStatus().booted
            assert simulator.adb_device_name() == f"emulator-{adb}"
            assert simulator.get_screenshot().shape == (2400, 1080, 3)
            simulator.send_touch([(540, 1200, True, 0)])
            simulator.send_touch([(540, 1200, False, 0)])
        finally:
            simulator.close()  # an attached emulator is left running, as AndroidEnv promises
        assert process.poll() is None
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
        for port in (console, adb, grpc_port):
            PortAllocator.release(port)
