"""`AdbDevice`: an Android emulator, a phone, or the sim's ADB front, driven over ADB.

Every call has a deadline (`AdbConfig.timeout_s`); failures are `DeviceError`s (offline, timeout, protocol), never a
hang and never a silent black screenshot. Read-only calls (screenshot, UI dump, state) retry; inputs do not (a lost
reply may hide a tap that happened, and repeating it would tap twice), so a failed input ends the episode
truncated. Text is typed literally whatever it holds: see `android_gym.devices.adb_shell`. With `grpc_port` set,
screenshots, touches and keys go over the emulator's gRPC while it answers (`GrpcPath` states the fallback rules);
text always goes over ADB.

Observations are snapshots per agent step: the screenshot, UI dump and state are fetched once and reused until the
next input, `tick()` or `reset()`.
"""

from __future__ import annotations

import base64
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from PIL import Image

from android_gym.actions import Action, ActionType
from android_gym.devices import adb_shell as sh
from android_gym.devices.adb_channel import AdbChannel, ShellResult
from android_gym.devices.adb_connect import Connector
from android_gym.devices.base import Device, Outcome
from android_gym.devices.configs import AdbConfig
from android_gym.devices.emulator_grpc import EmulatorGrpc, GrpcPath, xkb_keysym
from android_gym.errors import ConfigError, DeviceError, DeviceProtocolError, UnsupportedError
from android_gym.ui import UIElement, parse_uiautomator_xml

log = logging.getLogger(__name__)
T = TypeVar("T")
DUMP_PATH = "/sdcard/android_gym_dump.xml"
UI_DUMP_MAX_BYTES = 8 << 20
"""Bytes of `uiautomator dump` output read at most (issue 43: a device could hand us any size to parse); a real
screen dumps 20-300 kB. Past it the read stops and the dump fails (a fault, retried like any read)."""
TYPE_MAX_CHARS = 4096
"""Characters one TYPE action may hold; more is an invalid action (the sim's `input text` takes as many)."""
__all__ = ["AdbConfig", "AdbDevice"]


class AdbDevice(Device):
    """A device behind an ADB server, through the Device contract.

    Connects on first use (or `start()`); `close()` forgets the connection and `start()` heals it (re-`adb connect`
    for remote serials, a fresh server if none answers). `stats()` counts calls, retries, faults and fallbacks.

    Args:
        serial: shorthand for `config.serial`.
        config: the full configuration (defaults to `AdbConfig()`).
        **overrides: `AdbConfig` fields, e.g. `AdbDevice("emulator-5554", timeout_s=5)`.

    Raises:
        ConfigError: an invalid field; `UnknownNameError` for an unknown one (with the closest name).
    """

    def __init__(self, serial: str | None = None, config: AdbConfig | None = None, **overrides: Any) -> None:
        if serial is not None:
            overrides["serial"] = serial
        config = config or AdbConfig()
        self.config = config.replace(**overrides) if overrides else config
        self.connector = Connector(self.config)
        self.counters: Counter[str] = Counter()
        self._cache: dict[Any, Any] = {}
        self._packages: set[str] | None = None
        self._raw_failures = 0
        self.grpc = GrpcPath(self.config.timeout_s, self.counters)

    # -- lifecycle -----------------------------------------------------------------------------------------------------
    @property
    def channel(self) -> AdbChannel:
        """The deadline-bounded channel to the device (connects on first use)."""
        self.start()
        assert self.connector.channel is not None
        return self.connector.channel

    @property
    def serial(self) -> str | None:
        """The serial in use (known after `start()` when none was configured)."""
        return self.connector.channel.serial if self.connector.channel else self.config.serial

    @property
    def is_simulated(self) -> bool:
        """Whether the device is the sim's ADB front (it then takes seeded resets and reports its full state)."""
        return self.connector.info(self.channel).is_simulated

    @property
    def screen_size(self) -> tuple[int, int]:  # type: ignore[override]
        """(width, height) pixels: from the config, else `wm size` (connecting if needed)."""
        return self.config.screen_size or self.connector.info(self.channel).size

    def start(self) -> None:
        """Connect (idempotent).

        Reaches the server (starting a local one if allowed), `adb connect`s remote serials, waits for the device to
        be online and booted within `connect_timeout_s`, and probes it.

        Raises:
            DeviceOfflineError: no server, unknown serial (the message lists attached ones), device offline.
            DeviceTimeoutError: the device did not come online or finish booting in time.
        """
        if self.connector.channel is None:
            self.connector.connect(self.counters)
            self.grpc.open(self.config.grpc_port)

    def close(self) -> None:
        """Forget the connection and every cached observation (idempotent); the next call reconnects."""
        self.connector.disconnect()
        self.grpc.close()
        self._cache.clear()

    def health(self) -> bool:
        """Whether the device answers a trivial command within `timeout_s`; never raises."""
        try:
            return self.channel.shell("echo ok", self.config.timeout_s).text.strip() == "ok"
        except DeviceError:
            return False

    def stats(self) -> dict[str, int]:
        """Counters: calls, retries, faults by kind, screenshot fallbacks, connects, and grpc/… adb/… per path."""
        return dict(self.counters)

    def refresh(self) -> None:
        """Drop the step's cached screenshot, UI dump and state, so the next read fetches them anew.

        Inputs, `tick()` and `reset()` do this themselves; call it when the screen changed on its own (a real
        device finishing an animation or receiving a notification).
        """
        self._cache.clear()

    # -- shared rules: retries for reads, none for inputs --------------------------------------------------------------
    def _read(self, what: str, fn: Callable[[], T]) -> T:
        """Run a side-effect-free call, retrying `retries` times on device faults."""
        for attempt in range(self.config.retries + 1):
            self.counters["calls"] += 1
            try:
                return fn()
            except DeviceError as e:
                self.counters[f"faults/{type(e).__name__}"] += 1
                if attempt == self.config.retries:
                    raise type(e)(f"{what} failed {attempt + 1} times; last: {e}") from e
                self.counters["retries"] += 1
                log.debug("retrying %s on %s after %s", what, self.serial, e)
                if self.config.retry_backoff_s:
                    time.sleep(min(1.0, self.config.retry_backoff_s * 2**attempt))
        raise AssertionError("unreachable")

    def _input(self, command: str, check: bool = True) -> ShellResult:
        """Run an input command once (no retry); caches are dropped first since the screen may change."""
        self._cache.clear()
        self.counters["calls"] += 1
        try:
            result = self.channel.shell(command, self.config.timeout_s, self.connector.info(self.channel).shell_v2)
        except DeviceError as e:
            self.counters[f"faults/{type(e).__name__}"] += 1
            raise
        if check and result.exit_code not in (0, None):
            raise DeviceProtocolError(f"`{command[:80]}` on {self.serial} exited {result.exit_code}: "
                                      f"{(result.stderr or result.stdout).decode('utf-8', 'replace')[:200]!r}")
        return result

    def _shell(self, command: str) -> ShellResult:
        return self.channel.shell(command, self.config.timeout_s, self.connector.info(self.channel).shell_v2)

    def _cached(self, key: Any, what: str, fn: Callable[[], T]) -> T:
        if key not in self._cache:
            self._cache[key] = self._read(what, fn)
        return self._cache[key]

    # -- episodes ------------------------------------------------------------------------------------------------------
    def reset(self, seed: int, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Bring the device to its home screen with `initial` conditions.

        The sim's front takes the seed and every initial condition; a real device goes HOME and applies `system`
        settings it knows (Wi-Fi, Bluetooth, ...); app state needs a snapshot (see `EmulatorDevice`).

        Raises:
            UnsupportedError: initial conditions this device cannot set.
            ConfigError: the sim refused the initial conditions.
            DeviceError: still failing after `retries` reconnects.
        """
        self._cache.clear()
        if self.connector.channel is not None:  # else start() opens it
            self.grpc.open(self.config.grpc_port)  # reconnects a path that failed last episode
        for attempt in range(self.config.retries + 1):
            try:
                self._reset_once(seed, initial or {})
                return
            except DeviceError:
                if attempt == self.config.retries:
                    raise
                self.counters["reset_retries"] += 1
                AdbDevice.close(self)  # reconnect only: a subclass's close may stop the device (an emulator)
        raise AssertionError("unreachable")

    def _reset_once(self, seed: int, initial: dict[str, dict[str, Any]]) -> None:
        if self.is_simulated:
            payload = base64.b64encode(json.dumps(initial).encode()).decode("ascii")
            result = self._shell(f"cmd android_gym reset {int(seed)} {payload}")
            if result.exit_code == 2:
                raise ConfigError(f"the simulated phone refused initial conditions {initial}: {result.stderr!r}")
            if result.exit_code not in (0, None):
                raise DeviceProtocolError(f"sim reset exited {result.exit_code}: {result.stderr[:200]!r}")
            return
        unsupported = sorted(set(initial) - {"system"})
        if unsupported:
            raise UnsupportedError(f"{type(self).__name__} cannot set initial state of {unsupported} on a real "
                                   "device; load an emulator snapshot that has it (EmulatorDevice)")
        known = {s.key: s for s in sh.SETTINGS}
        commands = ["input keyevent KEYCODE_WAKEUP", "input keyevent KEYCODE_HOME"]
        for key, value in initial.get("system", {}).items():
            if key not in known:
                raise UnsupportedError(f"no Android setting is known for system key {key!r}; known: {sorted(known)}")
            s = known[key]
            commands.append(f"settings put {s.namespace} {s.name} {sh.quote(s.encode(value))}")
        self._input(" && ".join(commands))

    def tick(self) -> None:
        """End of a step: the sim advances its pop-ups and spinners; a real device gets `settle_s` to settle."""
        self._cache.clear()
        if self.is_simulated:
            self._input("cmd android_gym tick")
        elif self.config.settle_s:
            time.sleep(self.config.settle_s)

    # -- observations --------------------------------------------------------------------------------------------------
    def screenshot(self, width: int | None = None) -> np.ndarray:
        """The screen, uint8 RGB (H, W, 3), resized to `width` (aspect kept) when given; read-only array.

        Raises:
            DeviceProtocolError: garbage, a truncated image, or an all-black screen (when `black_is_error`).
        """
        full = self._cached("screen", "screenshot", self._capture)
        if not width or width == full.shape[1]:
            return full
        key = ("screen", width)
        if key not in self._cache:
            h = round(width * full.shape[0] / full.shape[1])
            small = np.asarray(Image.fromarray(full).resize((width, h), Image.BILINEAR))
            small.flags.writeable = False
            self._cache[key] = small
        return self._cache[key]

    def _capture(self) -> np.ndarray:
        is_grpc, image = self.grpc.call("screenshots", lambda g: g.screenshot(*self.screen_size))
        image = image if is_grpc and image is not None else self._capture_adb()
        if self.config.black_is_error and not image.any():
            raise DeviceProtocolError(f"the screenshot of {self.serial} is entirely black (screen off, locked, or a "
                                      "secure window); set black_is_error=False to accept it")
        image.flags.writeable = False
        return image

    def _capture_adb(self) -> np.ndarray:
        mode = self.config.screenshot
        if mode == "auto" and self._raw_failures >= 3:
            mode = "png"
        if mode in ("auto", "raw"):
            try:
                image = sh.decode_raw_screencap(self.channel.exec_out("screencap", self.config.timeout_s))
                self._raw_failures = 0
            except DeviceProtocolError:
                if mode == "raw":
                    raise
                self._raw_failures += 1
                self.counters["screenshot_fallbacks"] += 1
                image = self._png()
        else:
            image = self._png()
        return image

    def _png(self) -> np.ndarray:
        return sh.decode_png(self.channel.exec_out("screencap -p", self.config.timeout_s), str(self.serial))

    def ui_xml(self) -> str:
        """The current `uiautomator dump` XML (validated)."""
        return self._cached("ui", "UI dump", self._dump)[0]

    def ui_elements(self) -> list[UIElement]:
        """The interesting elements of the current dump (the same list object until the screen may change)."""
        return self._cached("ui", "UI dump", self._dump)[1]

    def _dump(self) -> tuple[str, list[UIElement]]:
        command = f"uiautomator dump {DUMP_PATH} >/dev/null && cat {DUMP_PATH}"
        result = self.channel.shell(command, self.config.timeout_s, self.connector.info(self.channel).shell_v2,
                                    max_bytes=UI_DUMP_MAX_BYTES)
        text = result.text
        start = text.find("<?xml")
        start = text.find("<hierarchy") if start < 0 else start
        if start < 0:
            raise DeviceProtocolError(f"`uiautomator dump` on {self.serial} printed no hierarchy: {text[:200]!r} "
                                      f"{result.stderr[:200]!r}")
        xml = text[start:]
        return xml, parse_uiautomator_xml(xml)

    def state(self) -> dict[str, Any]:
        """Device state for task checks.

        The sim's full state, or on real devices `foreground`, `activity`, the `system` settings under the sim's
        key names, and `alarms` when `state_alarms`.

        Raises:
            DeviceProtocolError: the reply cannot be understood (the sim's state is not a JSON object, a real
                device printed the wrong number of sections).
        """
        return self._cached("state", "state query", self._query_state)

    def _query_state(self) -> dict[str, Any]:
        if self.is_simulated:
            try:
                state = json.loads(self._shell("cmd android_gym state").text)
            except (json.JSONDecodeError, RecursionError) as e:  # RecursionError: 100,000-deep nesting (issue 20)
                raise DeviceProtocolError(f"the sim's state on {self.serial} is not JSON ({e})") from e
            if not isinstance(state, dict):
                raise DeviceProtocolError(f"the sim's state on {self.serial} is not an object")
            return state
        text = self._shell(sh.state_query(self.config.state_alarms)).text
        return sh.parse_state(text, self.config.state_alarms)

    # -- inputs --------------------------------------------------------------------------------------------------------
    def perform(self, action: Action) -> Outcome:
        """As `Device.perform`, plus: text this device cannot type is an invalid action, not a fault."""
        if action.action_type == ActionType.TYPE and isinstance(action.text, str) and action.text:
            reason = self._untypable(action.text)
            if reason:
                return Outcome(False, False, reason)
        return super().perform(action)

    def _untypable(self, text: str) -> str:
        if len(text) > TYPE_MAX_CHARS:
            return f"text of {len(text)} characters; one TYPE action types at most {TYPE_MAX_CHARS}"
        if self._uses_ime():
            return ""
        bad = sorted({c for c in text if c not in sh.INPUT_TEXT_SAFE and c != "\n"})
        return f"`input text` cannot type {bad!r} on {self.serial}; install ADBKeyBoard" if bad else ""

    def _uses_ime(self) -> bool:
        mode = self.config.text_input
        return mode == "ime" or (mode == "auto" and self.connector.info(self.channel).adb_keyboard)

    def _grpc_input(self, what: str, fn: Callable[[EmulatorGrpc], None]) -> bool:
        """Send an input over gRPC when connected (dropping the caches first); False: send it over ADB."""
        if self.grpc.client is not None:
            self._cache.clear()
            self.counters["calls"] += 1
        return self.grpc.call(what, fn, is_input=True)[0]

    def _tap_impl(self, x: int, y: int) -> None:
        if not self._grpc_input("taps", lambda g: g.tap(x, y)):
            self._input(f"input tap {x} {y}")

    def _swipe_impl(self, x0: int, y0: int, x1: int, y1: int) -> None:
        if not self._grpc_input("swipes", lambda g: g.swipe(x0, y0, x1, y1, 300)):
            self._input(f"input swipe {x0} {y0} {x1} {y1} 300")

    def _long_press_impl(self, x: int, y: int) -> None:
        if not self._grpc_input("long_presses", lambda g: g.swipe(x, y, x, y, 1000)):
            self._input(f"input swipe {x} {y} {x} {y} 1000")

    def _key_impl(self, key: str) -> None:
        if xkb_keysym(key) is None or not self._grpc_input("keys", lambda g: g.key(key)):
            self._input(f"input keyevent {sh.KEYCODES[key]}")

    def _type_impl(self, text: str) -> None:
        if self._uses_ime():
            result = self._input(sh.adb_keyboard_command(text))
            if b"Broadcast completed" not in result.stdout:
                raise DeviceProtocolError(f"the ADBKeyBoard broadcast on {self.serial} was not delivered: "
                                          f"{result.stdout[:200]!r}")
            return
        commands: list[str] = []
        for k, line in enumerate(text.split("\n")):
            if k:
                commands.append(f"input keyevent {sh.KEYCODES['enter']}")
            commands += sh.input_text_commands(line)
        self._input(" && ".join(commands))

    def _launch_impl(self, app: str) -> None:
        if self._packages is None:
            listing = self._read("package list", lambda: self._shell("pm list packages").text)
            self._packages = {ln[len("package:"):].strip() for ln in listing.splitlines() if ln.startswith("package:")}
        package = sh.resolve_app(app, self._packages, self.config.apps)
        if package is None:
            raise ConfigError(f"`app` {app!r} is not installed on {self.serial} (no package or known name matches)")
        result = self._input(f"monkey -p {sh.quote(package)} -c android.intent.category.LAUNCHER 1", check=False)
        if b"No activities found" in result.stdout + result.stderr:
            raise ConfigError(f"`app` {app!r} ({package}) has no launcher activity on {self.serial}")
