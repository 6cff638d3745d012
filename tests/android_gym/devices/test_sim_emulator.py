"""Emulator management against `android-gym emulator`: a process that hosts its own phone, serves the console and
adbd, and announces itself to the ADB front, which then reaches that phone through the emulator's adbd as an adb
server does. Unlike fake_emulator.py (a console and a listening port), every command the manager sends over ADB lands
on the emulator process's own phone."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.emulator import EmulatorConfig, EmulatorDevice
from android_gym.errors import DeviceError, DeviceProtocolError
from android_gym.sim.adb import AdbFront
from android_gym.sim.adb.adbd_client import RemoteTarget
from android_gym.testing.executables import emulator_executable


@pytest.fixture
def binary(tmp_path: Path) -> Path:
    """An `emulator` executable running `android-gym emulator` (a path, as emulator managers take one)."""
    return emulator_executable(tmp_path / "emulator")


@pytest.fixture
def adb_front() -> Iterator[AdbFront]:
    """An ADB server with no phones of its own: emulators announce themselves to it."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


def config(binary: Path, *extra_args: str, **kwargs) -> EmulatorConfig:
    """The sim emulator booting in 0.3 s (plus `extra_args`), with short deadlines unless `kwargs` say otherwise."""
    return EmulatorConfig(**{"avd": "pixel_7", "binary": str(binary), "extra_args": ("-sim-boot-s", "0.3", *extra_args),
                             "boot_timeout_s": 20.0, "console_timeout_s": 5.0, **kwargs})


def test_a_device_boots_plays_on_the_emulators_own_phone_and_resets_through_its_snapshot(binary, adb_front):
    """Launch, boot wait, the front forwarding to the process's adbd, an app opened there, a snapshot reset, kill."""
    device = EmulatorDevice(config(binary, snapshot="default_boot"), port=adb_front.port)
    try:
        device.reset(0)
        assert isinstance(adb_front.targets[device.serial], RemoteTarget)  # no phone of the front's own
        assert device.screenshot().shape[2] == 3 and device.state()["foreground"].endswith("launcher")
        device.perform(Action(ActionType.OPEN_APP, text="Settings"))
        assert device.state()["foreground"] == "com.android.settings"
        assert any(e.text == "Network & internet" for e in device.ui_elements())
        device.reset(1)
        assert device.state()["foreground"].endswith("launcher")
        assert device.stats()["emulator/snapshot_loads"] == 2
        assert "default_boot" in device._console().send("avd snapshot list")
        process = device.instance.process
    finally:
        device.close()
    assert process.wait(timeout=10) == 0  # the console's kill ends it cleanly
    assert device.serial not in adb_front.targets or not adb_front.targets[device.serial].alive()


def test_a_snapshot_the_emulator_does_not_hold_is_refused_naming_it(binary, adb_front):
    device = EmulatorDevice(config(binary, snapshot="nightly"), port=adb_front.port)
    try:
        with pytest.raises(DeviceProtocolError, match="nightly"):
            device.reset(0)
    finally:
        device.close()


def test_an_emulator_that_never_boots_times_out_after_its_relaunches(binary, adb_front):
    device = EmulatorDevice(config(binary, "-sim-fault", "hang", boot_timeout_s=1.0, max_relaunches=1),
                            port=adb_front.port)
    try:
        with pytest.raises(DeviceError, match="boot"):
            device.reset(0)
    finally:
        device.close()
