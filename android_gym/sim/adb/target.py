"""`SimTarget`: one simulated phone as the ADB front serves it — shell, files, properties, settings, screen, faults."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import numpy as np
from PIL import Image

from android_gym.devices.adb_shell import ADB_KEYBOARD_IME, encode_raw_screencap
from android_gym.sim.adb.commands import programs
from android_gym.sim.adb.dump import activity_name
from android_gym.sim.adb.faults import FaultConfig, FaultInjector
from android_gym.sim.adb.logd import LogBuffer
from android_gym.sim.adb.shell import Result, Shell
from android_gym.sim.latency import LatencyConfig, Settling
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.render.shared import SharedRenderer

LATIN_IME = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"

DEFAULT_PROPS = {
    "ro.product.model": "android_gym_sim", "ro.product.name": "sdk_gphone64_x86_64", "ro.product.device": "emu64x",
    "ro.product.manufacturer": "Google", "ro.build.version.release": "14", "ro.build.version.sdk": "34",
    "ro.build.type": "userdebug", "ro.kernel.qemu": "1", "ro.adb.secure": "0", "sys.boot_completed": "1",
    "init.svc.bootanim": "stopped", "ro.android_gym.sim": "1",
}
"""Properties of a simulated phone: an Android 14 emulator image, plus `ro.android_gym.sim` so clients can tell."""

STORAGE_QUOTA_BYTES = 64 << 20
"""Bytes of files one simulated phone holds (pushed, redirected, dumped): its files live in the front's memory, and
a client pushed 768 MB into it in 4 s (issue 43). Past it a write fails as on a full disk, "No space left on device".
64 MiB holds every file the tasks use (screenshots of ~10 MB, UI dumps of ~100 kB) several times over."""


class SimTarget:
    """A `SimPhone` behind the ADB front (the `ProgramTarget` its shell's programs act on).

    Guarantees: commands run one at a time per target (`lock`); the phone starts reset with seed 0; `history` lists
    every argv the shell executed (command substitutions included; the newest `shell.HISTORY_LIMIT`), which is how
    tests detect injection; `logd` is its log (the activity manager's lines appear as activities come to the front,
    seen after every command and screenshot, and by a following logcat).

    Args:
        serial: the serial clients select it by.
        perturbations: the phone's pop-up/spinner/ignored-tap level (as `SimDevice` takes it).
        faults: fault injection for this target's requests (none by default).
        adb_keyboard: install and select the ADBKeyBoard IME (Unicode text input by broadcast), as test farms do.
        is_connected: False for a remote device that appears only after `adb connect` (`host:connect`).
        renderer: draws the screen; an `AdbFront` hands all its phones one (default: a renderer of its own).
        storage_quota_bytes: most bytes its files may hold together (`STORAGE_QUOTA_BYTES`); a push or a
            redirection past it fails with "No space left on device".
        latency: how slowly the phone settles after input and loads a snapshot (`Settling`; off by default).
        latency_seed: seeds the delays.
    """

    def __init__(self, serial: str, perturbations: str | dict | PerturbationConfig | None = "default",
                 faults: FaultConfig | None = None, adb_keyboard: bool = True, is_connected: bool = True,
                 renderer: SharedRenderer | None = None, storage_quota_bytes: int = STORAGE_QUOTA_BYTES,
                 latency: str | dict | LatencyConfig | None = "off", latency_seed: int = 0) -> None:
        self.serial = serial
        self.settling = Settling(latency, latency_seed)
        self.storage_quota_bytes = storage_quota_bytes
        self.reserved_bytes = 0  # bytes of pushes still arriving (`services._receive_file`), under `lock`
        self.phone = SimPhone(PerturbationConfig.coerce(perturbations))
        self.phone.reset(0)
        self.faults = FaultInjector(faults)
        self.lock = threading.RLock()
        self.files: dict[str, bytes] = {}
        self.props = dict(DEFAULT_PROPS)
        self.settings: dict[tuple[str, str], str] = {
            ("secure", "default_input_method"): ADB_KEYBOARD_IME if adb_keyboard else LATIN_IME}
        self.imes = [LATIN_IME] + ([ADB_KEYBOARD_IME] if adb_keyboard else [])
        self.canned: dict[str, Result] = {}
        self.is_connected = is_connected
        self.offline_requests = 0
        self.transport_id = 0
        self.alive: Callable[[], bool] = lambda: True
        self.announced_port: int | None = None  # the adb port of the (fake) emulator this phone stands in for
        self.shell = Shell(programs(self), env={"PATH": "/system/bin", "HOME": "/", "USER": "shell"}, files=self.files,
                           storage_quota_bytes=storage_quota_bytes)
        self.renderer = renderer if renderer is not None else SharedRenderer()
        self._frame: tuple[int, np.ndarray] | None = None
        self._raw: tuple[np.ndarray, bytes] | None = None
        self.stop_event = threading.Event()
        self.logd = LogBuffer()
        self.observe()

    @property
    def history(self) -> list[list[str]]:
        """Every argv the shell executed, in order (the newest `shell.HISTORY_LIMIT`)."""
        return self.shell.history

    @property
    def state(self) -> str:
        """"device" or "offline" (what `adb devices` lists)."""
        return "offline" if self.offline_requests > 0 else "device"

    def free_bytes(self, replacing: str = "") -> int:
        """Bytes a new file may still hold: the quota less the files (but `replacing`) and pushes in flight."""
        with self.lock:
            used = sum(len(data) for path, data in self.files.items() if path != replacing)
            return self.storage_quota_bytes - used - self.reserved_bytes

    def run(self, command: str) -> Result:
        """Run one shell command line (a canned output wins, for tests replaying real captures)."""
        with self.lock:
            if command in self.canned:
                self.shell.record(["<canned>", command])
                return self.canned[command]
            result = self.shell.run(command)
            self.observe()
            return result

    def observe(self) -> None:
        """Let the log see the front activity (the activity manager logs one that came to the front)."""
        with self.lock:
            self.logd.observe(tuple(activity_name(package, name) for package, name in self.phone.activities()))

    def frame(self) -> np.ndarray:
        """The screen at full resolution, uint8 RGB (H, W, 3), cached while the phone does not change."""
        with self.lock:
            if self._frame is None or self._frame[0] != self.phone.version:
                self.observe()
                image = self.renderer.render(self.phone.tree(), self.phone.width,
                                             dark=bool(self.phone.system["dark_theme"]))
                self._frame = (self.phone.version, image)
            return self._frame[1]

    def raw(self) -> bytes:
        """The screen as `screencap` (no -p) writes it; kept per frame, like the compositor's RGBA buffer."""
        with self.lock:
            frame = self.frame()
            if self._raw is None or self._raw[0] is not frame:
                self._raw = (frame, encode_raw_screencap(frame))
            return self._raw[1]

    def png(self) -> bytes:
        """The screen as `screencap -p` writes it."""
        buf = io.BytesIO()
        Image.fromarray(self.frame()).save(buf, "PNG")
        return buf.getvalue()

    def features(self) -> str:
        """The adbd feature list this target advertises."""
        return "shell_v2,cmd,fixed_push_mkdir,apex,abb,abb_exec"

    def banner(self) -> str:
        """The device banner of an adbd CNXN reply."""
        p = self.props
        return (f"device::ro.product.name={p['ro.product.name']};ro.product.model={p['ro.product.model']};"
                f"ro.product.device={p['ro.product.device']};features={self.features()}")
