"""Typed configs of the devices, and `parse_device`: the `device` spec of an env config becomes one of them.

Plain data only (no ADB client, no simulated phone): `android_gym.config` checks a spec and its options with these
when the config is built, and `AndroidEnv` builds the device from the parsed config.

>>> parse_device("adb:emulator-5554", {"timeout_s": 2}).timeout_s
2.0
>>> parse_device("sim", None, perturbations="none").perturbations.dialog_prob
0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError
from android_gym.sim.latency import LatencyConfig
from android_gym.sim.perturbations import PerturbationConfig


class AdbConfig(ConfigModel):
    """How to reach and drive one device over ADB.

    Attributes:
        serial: "emulator-5554", a USB serial, or "host:port" for a device reached with `adb connect`; None uses
            the only attached device.
        host, port: the ADB server; port None means $ANDROID_ADB_SERVER_PORT, else 5037.
        timeout_s: deadline of every single ADB call, seconds (a 1080p screenshot takes ~0.3 s on an emulator).
        connect_timeout_s: how long `start()` waits for the device to come online and finish booting, seconds.
        retries: extra attempts for read-only calls and for `start()`/`reset()` (inputs are never retried).
        retry_backoff_s: pause before the first retry, doubling per retry up to 1 s (rides out offline blips).
        screenshot: "auto" (raw `exec-out screencap`, falling back to PNG where raw fails), "raw" or "png".
        text_input: "auto" (the ADBKeyBoard IME when it is selected, else `input text`), "ime" or "input".
        settle_s: seconds `tick()` waits after each step for animations on a real device (0 for the sim).
        start_server: start a local ADB server (`adb start-server`, 20 s deadline) when none answers.
        screen_size: (width, height) pixels, to skip asking `wm size` when the env is built.
        apps: extra app names -> packages for OPEN_APP.
        state_alarms: include pending alarms (`dumpsys alarm`, slow on real phones) in `state()`.
        black_is_error: treat an all-black screenshot as a fault (screen off or a secure window).
        grpc_port: the emulator's gRPC port (console port + 3000); when it answers, screenshots, touches and keys go
            over gRPC (tens of ms where `adb screencap` takes hundreds), else over ADB. None (the default) is off:
            phones have no gRPC; `EmulatorDevice` sets it for the emulators it launches.
    """

    serial: str | None = None
    host: str = "127.0.0.1"
    port: int | None = None
    timeout_s: float = Field(default=10.0, gt=0)
    connect_timeout_s: float = Field(default=30.0, gt=0)
    retries: int = Field(default=3, ge=0)
    retry_backoff_s: float = Field(default=0.05, ge=0)
    screenshot: Literal["auto", "raw", "png"] = "auto"
    text_input: Literal["auto", "ime", "input"] = "auto"
    settle_s: float = Field(default=0.0, ge=0)
    start_server: bool = True
    screen_size: tuple[int, int] | None = None
    apps: dict[str, str] = Field(default_factory=dict)
    state_alarms: bool = False
    black_is_error: bool = True
    grpc_port: int | None = Field(default=None, ge=1, le=65535)


class SimDeviceConfig(ConfigModel):
    """The built-in simulated phone (`SimDevice`).

    Attributes:
        perturbations: pop-ups, spinners and ignored taps (`PerturbationConfig`, from a level name or fields).
        latency: emulator-like wall-clock delays (`LatencyConfig`, from a preset name or fields, time scale applied).
    """

    perturbations: PerturbationConfig = Field(default_factory=PerturbationConfig)
    latency: LatencyConfig = Field(default_factory=LatencyConfig)


DeviceConfig = SimDeviceConfig | AdbConfig
"""The config of any device an env config's `device` spec names."""


def parse_device(spec: str, options: Mapping[str, Any] | None = None, perturbations: Any = "default",
                 latency: Any = "off", latency_time_scale: float = 1.0) -> DeviceConfig:
    """The config of the device `spec` names: "sim", "adb" (the only attached device), "adb:<serial>".

    Args:
        spec: the env config's `device` string.
        options: `AdbConfig` fields for an ADB device (none for the sim).
        perturbations: the sim's pop-up level or fields (ignored for ADB, whose phone has its own).
        latency: the sim's latency preset or fields (ignored for ADB).
        latency_time_scale: multiplies the sim's delays.

    Raises:
        ConfigError: an unknown spec, options for the sim, an unknown or bad option (naming `device_options.<key>`).
    """
    kind, _, serial = spec.partition(":") if isinstance(spec, str) else ("", "", "")
    if kind == "adb" or spec == "adb":
        fields = {**(options or {}), **({"serial": serial} if serial else {})}
        return AdbConfig.from_data(fields, where="device_options")
    if spec != "sim":
        raise FieldError("device", "'sim', 'adb' or 'adb:<serial>' (or a Device instance)", spec)
    if options:
        raise ConfigError(f"`device_options` apply to 'adb:...' devices only; `device` is {spec!r}")
    return SimDeviceConfig(perturbations=PerturbationConfig.coerce(perturbations),
                           latency=LatencyConfig.coerce(latency, latency_time_scale))

