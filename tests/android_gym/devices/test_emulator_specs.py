"""Tests of the emulator device specs (issue 47): `emulator:<avd>` launches through an SDK's binaries, found as a real
SDK's are ($ANDROID_SDK_ROOT, `emulator_path`, `adb_path`); `emulator@<port>` attaches; bad settings fail at start
with the setting named."""  # noqa: D205, D209

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.devices.configs import AdbConfig, EmulatorDeviceConfig, parse_device
from android_gym.devices.emulator import Emulator, EmulatorConfig
from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.adb import AdbFront
from android_gym.testing.executables import adb_executable, emulator_executable

pytest.importorskip("grpc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An Android SDK folder whose `emulator/emulator` is `android-gym emulator` and `platform-tools/adb` is
    `android-gym-adb`, named by $ANDROID_SDK_ROOT, with an AVD store holding `pixel_7`."""  # noqa: D205, D209
    root = tmp_path / "sdk"
    (root / "emulator").mkdir(parents=True)
    (root / "platform-tools").mkdir()
    emulator_executable(root / "emulator" / "emulator", "-sim-boot-s", "0.3")
    adb_executable(root / "platform-tools" / "adb")
    store = tmp_path / ".android" / "avd"  # $HOME is tmp_path (the devices conftest)
    store.mkdir(parents=True)
    (store / "pixel_7.ini").write_text("path=pixel_7.avd\n")
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(root))
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    return root


@pytest.fixture
def adb_server_port(sdk: Path) -> Iterator[int]:
    """A free port for the ADB server the SDK's `adb` starts; the server is stopped afterwards."""
    port = free_port()
    yield port
    subprocess.run([str(sdk / "platform-tools" / "adb"), "-P", str(port), "kill-server"], capture_output=True,
                   timeout=30, check=False)


@pytest.mark.parametrize("spec, options, check", [
    ("emulator:pixel_7", {"emulator_path": "/bin/true", "snapshot": "s", "timeout_s": 3},
     lambda c: (c.emulator.avd, c.emulator.binary, c.emulator.snapshot, c.adb.timeout_s) == ("pixel_7", "/bin/true",
                                                                                             "s", 3.0)),
    ("emulator@5556", {"snapshot": "s", "port": 5038},
     lambda c: (c.console_port, c.snapshot, c.adb.grpc_port, c.adb.port) == (5556, "s", 8556, 5038)),
    ("emulator@5556", {"grpc_port": 9000, "grpc_token": "t"}, lambda c: (c.adb.grpc_port, c.grpc_token) == (9000, "t")),
])
def test_emulator_specs_parse_into_a_typed_config(spec: str, options: dict, check) -> None:
    config = parse_device(spec, options)
    assert isinstance(config, EmulatorDeviceConfig) and isinstance(config.adb, AdbConfig) and check(config)


@pytest.mark.parametrize("spec, options, error, message", [
    ("emulator:pixel_7", {"emulator_path": "/no/such/emulator"}, ConfigError, "device_options.emulator_path"),
    ("emulator:pixel_7", {"emulator_pth": "/bin/true"}, UnknownNameError, "did you mean 'emulator_path'"),
    ("emulator:", {"emulator_path": "/bin/true"}, ConfigError, "avd"),
    ("emulator@55x4", None, ValueError, "'emulator@<console-port>'"),  # a FieldError: the env config's ConfigError
    ("emulator@5554", {"boot_timeout_s": 3}, UnknownNameError, "boot_timeout_s"),  # a launch setting when attaching
    ("emulatr:pixel_7", None, ValueError, "'emulator:<avd>'"),
])
def test_bad_emulator_specs_name_the_setting(spec: str, options: dict | None, error: type, message: str) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_device(spec, options)


def test_without_an_sdk_the_spec_says_where_the_emulator_was_looked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANDROID_SDK_ROOT", raising=False)
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    with pytest.raises(ConfigError, match="ANDROID_SDK_ROOT"):
        parse_device("emulator:pixel_7")


def test_an_env_launches_the_sdks_emulator_by_spec_and_kills_it_at_close(sdk: Path, adb_server_port: int) -> None:
    """`device="emulator:pixel_7"` finds the emulator and adb in $ANDROID_SDK_ROOT, starts the ADB server the
    emulator announces itself to, launches, plays an episode's steps over it, and kills it at close."""  # noqa: D205, D209
    env = gym.make("android_gym/General-v0", device="emulator:pixel_7", screenshot_width=0,
                   device_options={"port": adb_server_port, "timeout_s": 5.0, "boot_timeout_s": 30.0,
                                   "snapshot": "default_boot"})
    try:
        env.reset(seed=0)
        device = env.unwrapped.device
        process = device.instance.process
        assert device.serial.startswith("emulator-") and device.instance.config.avd == "pixel_7"
        assert Path(device.instance.config.executable()) == sdk / "emulator" / "emulator"
        for _ in range(3):
            _, _, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            assert "error" not in info
            if terminated or truncated:
                break
        assert device.stats()["emulator/launches"] == 1
    finally:
        env.close()
    assert process.poll() is not None  # killed with the env


def test_an_avd_the_emulator_does_not_list_is_refused_before_any_launch(sdk: Path, adb_server_port: int,
                                                                       tmp_path: Path) -> None:
    """Refused when the env is built (it starts its device), naming the AVDs the emulator lists."""
    with pytest.raises(UnknownNameError, match=r"unknown AVD .*'Pixel_9'.*Known: pixel_7"):
        gym.make("android_gym/General-v0", device="emulator:Pixel_9", screenshot_width=0,
                 device_options={"port": adb_server_port, "timeout_s": 5.0})
    assert not list(tmp_path.glob(".android/avd/running/*.ini"))  # no emulator was launched


@pytest.fixture
def running_emulator(sdk: Path) -> Iterator[tuple[Emulator, AdbFront]]:
    """An emulator launched apart (as another tool would), announced to an ADB front, booted."""
    with AdbFront(devices=0, perturbations="none") as front:
        emulator = Emulator(EmulatorConfig(avd="pixel_7", sdk_root=str(sdk), boot_timeout_s=30.0), front.port)
        emulator.launch()
        try:
            emulator.wait_booted()
            yield emulator, front
        finally:
            emulator.kill()


def test_an_env_attaches_to_a_running_emulator_and_leaves_it_running(running_emulator) -> None:
    emulator, front = running_emulator
    env = gym.make("android_gym/General-v0", device=f"emulator@{emulator.console_port}", screenshot_width=0,
                   device_options={"port": front.port, "timeout_s": 5.0, "snapshot": "default_boot"})
    try:
        env.reset(seed=0)
        env.step(env.unwrapped.expert_action())
        device = env.unwrapped.device
        assert device.serial == emulator.serial and device.stats()["grpc/connects"] >= 1  # its token: discovery file
    finally:
        env.close()
    assert emulator.is_running()


def test_a_wrong_grpc_token_is_a_config_error_when_the_env_starts(running_emulator) -> None:
    """Not a silent fall back to ADB: the setting is wrong, and said so when the env is built."""
    emulator, front = running_emulator
    with pytest.raises(ConfigError, match="refused our token .*grpc_token.*device_options.grpc_token"):
        gym.make("android_gym/General-v0", device=f"emulator@{emulator.console_port}", screenshot_width=0,
                 device_options={"port": front.port, "timeout_s": 5.0, "grpc_token": "not-its-token"})
    assert emulator.is_running()
