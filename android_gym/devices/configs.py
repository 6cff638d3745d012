"""Typed configs of the devices, and `parse_device`: the `device` spec of an env config becomes one of them.

Plain data only (no ADB client, no simulated phone): `android_gym.config` checks a spec and its options with these
when the config is built, and `AndroidEnv` builds the device from the parsed config.

>>> parse_device("adb:emulator-5554", {"timeout_s": 2}).timeout_s
2.0
>>> parse_device("sim", None, perturbations="none").perturbations.dialog_prob
0.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError, unknown_name
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
        adb_path: the `adb` binary `start_server` runs; None: `<sdk>/platform-tools/adb` of $ANDROID_SDK_ROOT (else
            $ANDROID_HOME) when it exists, else the one adbutils ships.
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
    adb_path: str | None = None

    def adb_binary(self) -> str | None:
        """The `adb` to run: `adb_path`, else the SDK's platform-tools one, else None (adbutils' own)."""
        if self.adb_path:
            return self.adb_path
        root = sdk_root()
        exe = Path(root) / "platform-tools" / "adb" if root else None
        return str(exe) if exe is not None and exe.is_file() else None


class SimDeviceConfig(ConfigModel):
    """The built-in simulated phone (`SimDevice`).

    Attributes:
        perturbations: pop-ups, spinners and ignored taps (`PerturbationConfig`, from a level name or fields).
        latency: emulator-like wall-clock delays (`LatencyConfig`, from a preset name or fields, time scale applied).
    """

    perturbations: PerturbationConfig = Field(default_factory=PerturbationConfig)
    latency: LatencyConfig = Field(default_factory=LatencyConfig)


GRPC_OFFSET = 3000
"""An emulator's gRPC port is its console port + 3000 by convention (5554 -> 8554)."""
HEADLESS_FLAGS = ("-no-window", "-no-audio", "-no-boot-anim", "-read-only", "-no-snapshot-save")


def sdk_root(configured: str | None = None) -> str | None:
    """The Android SDK: `configured`, else $ANDROID_SDK_ROOT, else $ANDROID_HOME (None: none is set)."""
    return configured or os.environ.get("ANDROID_SDK_ROOT") or os.environ.get("ANDROID_HOME") or None


class EmulatorConfig(ConfigModel):
    """How to launch and manage one AVD.

    Attributes:
        avd: the AVD name (`emulator -list-avds`).
        sdk_root: the Android SDK; None means $ANDROID_SDK_ROOT, else $ANDROID_HOME (read at launch).
        binary: the emulator executable; None means <sdk_root>/emulator/emulator.
        flags: launch flags (headless and read-only by default, so N instances can share one AVD).
        extra_args: more arguments (e.g. ("-gpu", "swiftshader_indirect")).
        snapshot: snapshot loaded at every reset (None: no snapshot load; the device just goes HOME).
        boot_timeout_s: deadline for the emulator to come online and finish booting, seconds.
        console_timeout_s: deadline of each console command, seconds.
        max_relaunches: extra launch attempts when a launch or boot fails.
        restart_every: relaunch after this many episodes (0 = never), against slow leaks in long runs.
        console_token_path: the console auth token; None means ~/.emulator_console_auth_token.
        grpc_use_token: launch with `-grpc-use-token`, so only this user's processes that read the emulator's
            discovery file may use its gRPC port (True by default: phones only for their owner; the device passes
            the token itself). False leaves the port open to every local process, as the emulator's own default.
    """

    avd: str
    sdk_root: str | None = None
    binary: str | None = None
    flags: tuple[str, ...] = HEADLESS_FLAGS
    extra_args: tuple[str, ...] = ()
    snapshot: str | None = None
    boot_timeout_s: Annotated[float, Field(gt=0)] = 300.0
    console_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    max_relaunches: Annotated[int, Field(ge=0)] = 2
    restart_every: Annotated[int, Field(ge=0)] = 0
    console_token_path: str | None = None
    grpc_use_token: bool = True

    @field_validator("avd")
    @classmethod
    def _names_an_avd(cls, avd: str) -> str:
        if not avd:
            raise FieldError("avd", "the name of an AVD (see `emulator -list-avds`)", avd)
        return avd

    def executable(self) -> str:
        """The emulator binary to run."""
        if self.binary:
            return self.binary
        root = sdk_root(self.sdk_root)
        if not root:
            raise ConfigError("set `sdk_root` (or $ANDROID_SDK_ROOT) or `binary` to find the emulator")
        return str(Path(root) / "emulator" / "emulator")


class EmulatorDeviceConfig(ConfigModel):
    """An Android emulator as the device: launched from an AVD (`emulator:<avd>`) or attached (`emulator@<port>`).

    Attributes:
        emulator: what to launch (None: attach to the running emulator on `console_port`).
        console_port: the attached emulator's console port (its serial is `emulator-<console_port>`).
        snapshot: the snapshot an attached emulator reloads at every reset (a launched one: `emulator.snapshot`).
        grpc_token: an attached emulator's gRPC token (None: read from its discovery file, as for a launched one).
        adb: how its ADB side is reached (the server, deadlines, retries; `grpc_port` for an attached emulator's
            gRPC, by default its console port + 3000).
    """

    emulator: EmulatorConfig | None = None
    console_port: int | None = Field(default=None, ge=1, le=65535)
    snapshot: str | None = None
    grpc_token: str | None = None
    adb: AdbConfig = Field(default_factory=AdbConfig)


DeviceConfig = SimDeviceConfig | AdbConfig | EmulatorDeviceConfig
"""The config of any device an env config's `device` spec names."""


def parse_device(spec: str, options: Mapping[str, Any] | None = None, perturbations: Any = "default",
                 latency: Any = "off", latency_time_scale: float = 1.0) -> DeviceConfig:
    """The config of the device `spec` names.

    Specs: "sim"; "adb" (the only attached device), "adb:<serial>" or "adb:<host>:<port>" (`adb connect`);
    "emulator:<avd>" (launch that AVD's emulator, on ports this host allocates); "emulator@<console-port>" (attach
    to the emulator running there).

    Args:
        spec: the env config's `device` string.
        options: the device's settings, `device_options`: `AdbConfig` fields for ADB; for an emulator also
            `EmulatorConfig` fields (`emulator_path` is its `binary`) when launching, or `snapshot` and `grpc_token`
            when attaching.
            None for the sim.
        perturbations: the sim's pop-up level or fields (ignored for ADB, whose phone has its own).
        latency: the sim's latency preset or fields (ignored for ADB).
        latency_time_scale: multiplies the sim's delays.

    Raises:
        ConfigError: an unknown spec, options for the sim, an unknown or bad option (naming `device_options.<key>`),
            an emulator binary that is not there.
    """
    kind, _, serial = spec.partition(":") if isinstance(spec, str) else ("", "", "")
    if kind == "adb" or spec == "adb":
        fields = {**(options or {}), **({"serial": serial} if serial else {})}
        return AdbConfig.from_data(fields, where="device_options")
    if isinstance(spec, str) and spec.startswith(("emulator:", "emulator@")):
        return _emulator_device(spec, dict(options or {}))
    if spec != "sim":
        raise FieldError("device", "'sim', 'adb', 'adb:<serial>', 'emulator:<avd>' or 'emulator@<console-port>' (or "
                         "a Device instance)", spec)
    if options:
        raise ConfigError(f"`device_options` apply to 'adb:...' and 'emulator...' devices only; `device` is {spec!r}")
    return SimDeviceConfig(perturbations=PerturbationConfig.coerce(perturbations),
                           latency=LatencyConfig.coerce(latency, latency_time_scale))


def _emulator_device(spec: str, options: dict[str, Any]) -> EmulatorDeviceConfig:
    """`emulator:<avd>` or `emulator@<console-port>` with its `device_options` split between the emulator and ADB."""
    if "emulator_path" in options:
        options["binary"] = options.pop("emulator_path")
    launching = spec.startswith("emulator:")
    mine = set(EmulatorConfig.model_fields) - {"avd"} if launching else {"snapshot", "grpc_token"}
    for key in options:
        if key not in mine and key not in AdbConfig.model_fields:
            known = [*mine - {"binary"}, *(["emulator_path"] if launching else []), *AdbConfig.model_fields]
            raise unknown_name(f"`device_options` key of {spec.split(':')[0].split('@')[0]!r} devices", key, known)
    emulator_options = {k: v for k, v in options.items() if k in mine}
    adb = AdbConfig.from_data({k: v for k, v in options.items() if k not in mine}, where="device_options")
    if launching:
        emulator = EmulatorConfig.from_data({"avd": spec.removeprefix("emulator:"), **emulator_options},
                                            where="device_options")
        _check_binary(emulator)
        return EmulatorDeviceConfig(emulator=emulator, adb=adb)
    port = spec.removeprefix("emulator@")
    if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise FieldError("device", "'emulator@<console-port>', e.g. 'emulator@5554'", spec)
    grpc_port = adb.grpc_port or int(port) + GRPC_OFFSET
    return EmulatorDeviceConfig(console_port=int(port), snapshot=emulator_options.get("snapshot"),
                                grpc_token=emulator_options.get("grpc_token"), adb=adb.replace(grpc_port=grpc_port))


def _check_binary(emulator: EmulatorConfig) -> None:
    """Refuse an emulator binary that is not there now, naming the setting that chose it (at start, not mid-run)."""
    exe = Path(emulator.executable())
    if not exe.is_file() or not os.access(exe, os.X_OK):
        setting = ("device_options.emulator_path" if emulator.binary else
                   "device_options.sdk_root" if emulator.sdk_root else "$ANDROID_SDK_ROOT")
        raise ConfigError(f"no emulator binary at {exe} (from {setting}): install the SDK's emulator package, or set "
                          "`device_options.emulator_path` to the `emulator` executable")
