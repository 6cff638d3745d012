"""How `AdbDevice` is configured (`AdbConfig`) and how it reaches its device (`Connector`).

The connector finds the server, `adb connect`s remote serials, waits for the device to be online and booted, and
probes it.

Kept apart from the device so that healing (reconnect, start a server that is gone, re-`adb connect` a remote
device) is one readable sequence with bounded attempts, each step under a stated deadline.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import time
from collections import Counter
from dataclasses import dataclass

import adbutils

from android_gym.devices import adb_shell as sh
from android_gym.devices.adb_channel import AdbChannel, call_adbutils
from android_gym.devices.configs import AdbConfig
from android_gym.errors import DeviceError, DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError

log = logging.getLogger(__name__)
SERVER_START_TIMEOUT_S = 20.0
POLL_S = 0.2
_REMOTE = re.compile(r"^[\w.\-\[\]:]+:\d+$")
_PROBE = "; echo @@; ".join(["getprop ro.android_gym.sim", "getprop sys.boot_completed", "wm size",
                             "settings get secure default_input_method"])


@dataclass(frozen=True)
class DeviceInfo:
    """What the probe learnt about a device."""

    is_simulated: bool
    size: tuple[int, int]
    shell_v2: bool
    adb_keyboard: bool


def is_remote(serial: str) -> bool:
    """Whether `serial` names a device reached over TCP with `adb connect` ("host:port").

    >>> is_remote("192.168.1.20:5555"), is_remote("emulator-5554"), is_remote("R58M123ABC")
    (True, False, False)
    """
    return bool(_REMOTE.match(serial))


class Connector:
    """Connects `AdbConfig` to a device; `channel` is None until `connect()` succeeds."""

    def __init__(self, config: AdbConfig) -> None:
        self.config = config
        self.channel: AdbChannel | None = None
        self._info: DeviceInfo | None = None
        self._has_connected = False

    @property
    def port(self) -> int:
        """The ADB server port: the config's, else $ANDROID_ADB_SERVER_PORT, else 5037."""
        return self.config.port or int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))

    def disconnect(self) -> None:
        """Forget the channel and the probe (the next `connect()` starts over)."""
        self.channel, self._info = None, None

    def connect(self, counters: Counter[str]) -> None:
        """Connect with up to `retries` extra attempts; an unknown serial fails at once.

        Raises:
            DeviceOfflineError, DeviceTimeoutError: see `AdbDevice.start`.
        """
        last: DeviceError | None = None
        for attempt in range(self.config.retries + 1):
            try:
                self._connect_once()
                counters["connects"] += 1
                return
            except DeviceError as e:
                if "not found" in str(e) and not is_remote(self.config.serial or ""):
                    raise
                last = e
            counters["connect_retries"] += 1
            log.info("connect attempt %d to %s failed: %s", attempt + 1, self.config.serial, last)
        assert last is not None
        raise last

    def info(self, channel: AdbChannel) -> DeviceInfo:
        """The device's probe (cached until `disconnect()`)."""
        if self._info is None:
            self._info = self._probe(channel)
        return self._info

    # -- steps ---------------------------------------------------------------------------------------------------------
    def _connect_once(self) -> None:
        c = self.config
        server = AdbChannel(c.serial or "", c.host, self.port)
        self.reach_server(server)
        serial = c.serial or self._only_device(server)
        channel = AdbChannel(serial, c.host, self.port)
        if is_remote(serial):
            self._adb_connect(channel)
        deadline = time.monotonic() + c.connect_timeout_s
        self._wait_online(channel, deadline)
        self._wait_booted(channel, deadline)
        self.channel, self._info, self._has_connected = channel, None, True
        self.info(channel)

    def reach_server(self, server: AdbChannel | None = None) -> None:
        """Make sure the ADB server answers: a local one that refuses is started (`adb start-server`, with
        `adb_binary()`) when `start_server` allows.

        Raises:
            DeviceOfflineError, DeviceTimeoutError: no server answers and none could be started.
        """  # noqa: D205
        server = server or AdbChannel("", self.config.host, self.port)
        try:
            server.host_request("host:version", self.config.timeout_s)
            return
        except DeviceOfflineError as e:
            local = self.config.host in ("127.0.0.1", "localhost", "::1")
            if not (self.config.start_server and local and "refused" in str(e)):
                raise
        exe = self.config.adb_binary() or call_adbutils(adbutils.adb_path, "finding the adb binary")
        try:
            proc = subprocess.run([exe, "-P", str(self.port), "start-server"], capture_output=True,
                                  timeout=SERVER_START_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as e:
            raise DeviceTimeoutError(f"`{exe} start-server` did not finish within {SERVER_START_TIMEOUT_S:g} s") from e
        except OSError as e:
            raise DeviceOfflineError(f"no ADB server on port {self.port}, and `{exe}` cannot run: {e}") from e
        if proc.returncode != 0:
            raise DeviceOfflineError(f"no ADB server on port {self.port}, and `{exe} start-server` failed "
                                     f"(exit {proc.returncode}): {proc.stderr.decode(errors='replace')[:200]}")
        server.host_request("host:version", self.config.timeout_s)

    def _only_device(self, server: AdbChannel) -> str:
        listing = server.host_request("host:devices", self.config.timeout_s)
        serials = [ln.split("\t")[0] for ln in listing.splitlines() if ln.endswith("\tdevice")]
        if len(serials) != 1:
            raise DeviceOfflineError(f"`serial` is None but {len(serials)} devices are online ({serials}); pass "
                                     "`serial` to choose one")
        return serials[0]

    def _adb_connect(self, channel: AdbChannel) -> None:
        if self._has_connected:  # healing: drop a transport that may be stale before connecting again
            try:
                channel.host_request(f"host:disconnect:{channel.serial}", self.config.timeout_s)
            except DeviceError:
                pass
        reply = channel.host_request(f"host:connect:{channel.serial}", self.config.timeout_s)
        if "connected to" not in reply:
            raise DeviceOfflineError(f"`adb connect {channel.serial}` failed: {reply.strip()!r}")

    def _wait_online(self, channel: AdbChannel, deadline: float) -> None:
        state = "unknown"
        while True:
            try:
                state = channel.host_request(f"host-serial:{channel.serial}:get-state", self.config.timeout_s)
            except DeviceOfflineError as e:
                if "not found" in str(e) and not is_remote(channel.serial):
                    raise DeviceOfflineError(f"{e}; attached: {self._attached(channel)}") from e
                state = str(e)
            if state.strip() == "device":
                return
            if time.monotonic() + POLL_S > deadline:
                raise DeviceTimeoutError(f"device {channel.serial!r} stayed {state.strip()!r} for "
                                         f"{self.config.connect_timeout_s:g} s (connect_timeout_s)")
            time.sleep(POLL_S)

    def _attached(self, channel: AdbChannel) -> list[str]:
        try:
            listing = channel.host_request("host:devices", self.config.timeout_s)
        except DeviceError:
            return []
        return [ln.split("\t")[0] for ln in listing.splitlines() if "\t" in ln]

    def _wait_booted(self, channel: AdbChannel, deadline: float) -> None:
        while True:
            if channel.shell("getprop sys.boot_completed", self.config.timeout_s).text.strip() == "1":
                return
            if time.monotonic() + POLL_S > deadline:
                raise DeviceTimeoutError(f"device {channel.serial!r} did not finish booting within "
                                         f"{self.config.connect_timeout_s:g} s (sys.boot_completed != 1)")
            time.sleep(POLL_S)

    def _probe(self, channel: AdbChannel) -> DeviceInfo:
        features = channel.host_request(f"host-serial:{channel.serial}:features", self.config.timeout_s)
        v2 = "shell_v2" in features.split(",")
        parts = channel.shell(_PROBE, self.config.timeout_s, v2).text.split("@@\n")
        if len(parts) != 4:
            raise DeviceProtocolError(f"probing {channel.serial} printed {len(parts)} sections instead of 4")
        size = self.config.screen_size or sh.parse_wm_size(parts[2])
        return DeviceInfo(is_simulated=parts[0].strip() == "1", size=size, shell_v2=v2,
                          adb_keyboard=parts[3].strip() == sh.ADB_KEYBOARD_IME)
