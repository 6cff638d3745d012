"""DeepMind's AndroidEnv, unmodified from PyPI, runs `android-gym emulator` as its Android emulator.

Its `EmulatorSimulator` launches our executable with the emulator's command line, connects to the gRPC port with
local credentials, waits for `getStatus().booted`, takes RGBA screenshots, sends touches and keys, saves and loads
snapshots through the SnapshotService, and shuts the process down with `setVmState`. Its `adb` binary is
`android-gym-adb` (no real adb is installed here): AndroidEnv runs it for `adb devices`, device settings, `dumpsys
input`, reset steps and a streaming `logcat`, from which `android_env.load`'s task manager takes rewards and episode
ends. The ADB server on the port AndroidEnv names is our front (the emulator announces itself there), started by a
fixture, or by `android-gym-adb` itself as adb starts its daemon.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import dm_env
import numpy as np
import pytest

pytest.importorskip("grpc")
pytest.importorskip("android_env")

from android_env.components import config_classes  # noqa: E402
from android_env.components.simulators.emulator import emulator_simulator  # noqa: E402
from android_env.proto import state_pb2  # noqa: E402

from android_gym.devices.adb import AdbDevice  # noqa: E402
from android_gym.devices.emulator_console import GRPC_OFFSET, PortAllocator  # noqa: E402
from android_gym.sim.adb import AdbFront  # noqa: E402
from android_gym.testing.executables import adb_executable, emulator_executable  # noqa: E402

ESCAPE = 0xFF1B  # the XKB keysym AndroidEnv users send for Android's BACK


@pytest.fixture
def adb_front() -> Iterator[AdbFront]:
    """The ADB server AndroidEnv names: the emulator announces itself here; the test reads its phone through it."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


@pytest.fixture
def launch_ports(monkeypatch) -> Iterator[int]:
    """Reserve the ports AndroidEnv will launch our emulator on, and make AndroidEnv pick them.

    Left to itself, AndroidEnv takes adb 5555 and gRPC 8554 when they are free at construction time, and binds them
    only later, when the emulator starts: another test worker's emulator can take them in between, and AndroidEnv
    then waits 100 s for a gRPC channel that is not its emulator's. Our allocator reserves a triple across workers.
    """
    console = PortAllocator.allocate()
    monkeypatch.setattr(emulator_simulator, "_pick_adb_port", lambda: console + 1)
    monkeypatch.setattr(emulator_simulator, "_pick_emulator_grpc_port", lambda: console + GRPC_OFFSET)
    yield console
    PortAllocator.release(console)


def simulator_config(tmp_path: Path, adb_port: int) -> config_classes.EmulatorConfig:
    """AndroidEnv's config for our emulator: an SDK layout whose `emulator` is `android-gym emulator` (booting in
    0.3 s) and whose `adb` is `android-gym-adb`."""  # noqa: D205, D209
    emulator = emulator_executable(tmp_path / "sdk" / "emulator" / "emulator", "-sim-boot-s", "0.3")
    adb = adb_executable(tmp_path / "sdk" / "platform-tools" / "adb")
    launcher = config_classes.EmulatorLauncherConfig(  # ports left 0: AndroidEnv picks them and launches
        emulator_path=str(emulator), android_sdk_root=str(tmp_path / "sdk"), avd_name="pixel_7",
        android_avd_home=str(tmp_path / "avd"), tmp_dir=str(tmp_path / "android_env"))
    return config_classes.EmulatorConfig(
        emulator_launcher=launcher, logfile_path=str(tmp_path / "emulator.log"),
        adb_controller=config_classes.AdbControllerConfig(adb_path=str(adb), adb_server_port=adb_port,
                                                          default_timeout=10.0))


def test_android_envs_emulator_simulator_drives_android_gym_emulator(tmp_path, adb_front, launch_ports,
                                                                     monkeypatch):
    """Boot, a screenshot equal to the phone's, a tap, BACK, snapshots, shutdown: all AndroidEnv's own calls."""
    monkeypatch.setenv("HOME", str(tmp_path))
    simulator = emulator_simulator.EmulatorSimulator(simulator_config(tmp_path, adb_front.port))
    try:
        simulator.launch()
        assert simulator.adb_device_name() == f"emulator-{launch_ports}"  # on the ports reserved for it
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


OPEN_SETTINGS_TASK = r"""
id: "android_gym_open_settings"
name: "Open Settings on the android-gym phone"
description: "From the home screen, open the Settings app. Rewarded by the activity manager's log line."
reset_steps: [
  { adb_request: { press_button: { button: HOME } } }
]
max_episode_steps: 20
log_parsing_config: {
  filters: ["ActivityTaskManager:I"]
  log_regexps: {
    reward_event: { event: "^Displayed com\\.android\\.settings/.*" reward: 1.0 }
    episode_end: "^Displayed com\\.android\\.settings/.*"
  }
}
"""
"""An AndroidEnv task without an APK: the reward and the episode's end come from logcat, as AndroidEnv's own tasks'."""


def test_android_env_load_runs_a_logcat_rewarded_task_on_android_gym_emulator(tmp_path, launch_ports,
                                                                               monkeypatch):
    """`android_env.load` end to end: AndroidEnv starts the ADB server through `android-gym-adb`, launches the
    emulator, applies its device settings, resets the task (HOME), and a touch on Settings ends the episode with
    reward 1 read from the streamed logcat; touches elsewhere earn nothing."""  # noqa: D205, D209
    from android_env import loader

    monkeypatch.setenv("HOME", str(tmp_path))
    (task := tmp_path / "open_settings.textproto").write_text(OPEN_SETTINGS_TASK)
    port = PortAllocator.allocate()  # a free port for the ADB server android-gym-adb will start
    simulator = simulator_config(tmp_path, port)
    adb = simulator.adb_controller.adb_path
    env = loader.load(config_classes.AndroidEnvConfig(task=config_classes.FilesystemTaskConfig(path=str(task)),
                                                            simulator=simulator))
    try:
        first = env.reset()
        assert first.first() and first.observation["pixels"].shape == (2400, 1080, 3)
        phone = AdbDevice(env._simulator.adb_device_name(), port=port, timeout_s=10.0)  # noqa: SLF001
        phone.start()
        x, y = next(e for e in phone.ui_elements() if e.text == "Settings").center
        phone.close()

        def touch(px: float, py: float) -> dm_env.TimeStep:
            env.step({"action_type": np.array(0), "touch_position": np.array([px / 1080, py / 2400], np.float32)})
            return env.step({"action_type": np.array(1), "touch_position": np.zeros(2, np.float32)})  # lift at 0,0

        assert touch(540, 300).reward == 0.0  # the wallpaper: nothing opens, nothing is logged
        timestep = touch(x, y)
        for _ in range(20):  # the log line travels device -> server -> android-gym-adb -> AndroidEnv's thread
            if timestep.reward:
                break
            time.sleep(0.1)
            timestep = env.step({"action_type": np.array(2), "touch_position": np.zeros(2, np.float32)})
        assert timestep.reward == 1.0 and timestep.last()  # the reward_event and the episode_end line
        assert env.reset().first()  # a second episode: HOME again, and nothing left over from the first
    finally:
        env.close()
        subprocess.run([adb, "-P", str(port), "kill-server"], check=False, timeout=30)
        PortAllocator.release(port)
