"""The simulated emulator's gRPC services (`GrpcServer`): EmulatorController and SnapshotService over one `SimTarget`.

The real emulator serves `android.emulation.control.EmulatorController` and `SnapshotService` on its `-grpc` port;
DeepMind's AndroidEnv drives it through them (`getStatus` until booted, `getScreenshot`, `sendTouch`, `sendKey`,
`setVmState`, `ListSnapshots`/`LoadSnapshot`/`SaveSnapshot`). This module serves the same services from the stubs
AndroidEnv ships (`android_env.proto`), on 127.0.0.1 only, with local credentials (what AndroidEnv's
`grpc.local_channel_credentials()` needs). Every input acts on the phone as the ADB shell's `input` does (issue 18):
a touch down then up at one place is `input tap`, with moves in between `input swipe`; keys go through the same
Android keys. RPCs not served here answer UNIMPLEMENTED (the generated base classes do that).

Access and bounds (issue 43): with `-grpc-use-token` every call must carry the process's bearer token, checked by
`grpc_access.TokenInterceptor` before any method runs (and an allowlist may open or close methods); without it, as
the real emulator without a token, any local process may call. Messages are bounded both ways: a request over
`MAX_RECEIVE_BYTES` is refused with RESOURCE_EXHAUSTED before it is buffered whole, and no reply exceeds
`MAX_SEND_BYTES`.

Importing this module needs `grpcio` and `android-env` (`pip install 'distrl[emulator]'`); `process.py` imports it
only when `-grpc` is given, and runs without it when they are missing.
"""

from __future__ import annotations

import io
import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass

import grpc
import numpy as np
from android_env.proto import emulator_controller_pb2 as ec
from android_env.proto import emulator_controller_pb2_grpc as ec_grpc
from android_env.proto import snapshot_service_pb2 as ss
from android_env.proto import snapshot_service_pb2_grpc as ss_grpc
from google.protobuf import empty_pb2
from PIL import Image

from android_gym.devices.xkb import (
    KEYCODE_BACK,
    KEYCODE_BY_KEYSYM,
    KEYCODE_DEL,
    KEYCODE_ENTER,
    KEYCODE_HOME,
    keysym_text,
)
from android_gym.errors import AndroidGymError, ConfigError
from android_gym.sim.adb.commands import PHONE_KEYS
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.emulator.console import Snapshots
from android_gym.sim.emulator.grpc_access import AccessPolicy, TokenInterceptor
from android_gym.sim.phone import SWIPE_MIN_PX

log = logging.getLogger("android_gym.sim.emulator")

VERSION = "35.1.4.0 (android_gym sim)"
MAX_WORKERS = 4  # AndroidEnv makes one call at a time; a few more let a status poll overlap a screenshot
STOP_GRACE_S = 1.0  # lets the reply to setVmState(SHUTDOWN) reach the client before the server closes
LONG_PRESS_S = 0.5  # as `input swipe x y x y 500`: a still press held this long is a long press
MIN_WIDTH, MAX_WIDTH = 16, 2160  # the renderer's range of screenshot widths, in pixels
MAX_SCREENSHOT_BYTES = MAX_WIDTH * (MAX_WIDTH * 2400 // 1080) * 4  # the widest RGBA screenshot: 2160 x 4800 x 4
# The real emulator leaves gRPC's default receive limit (4 MiB): every request it serves is a few hundred bytes
# (touches, keys, snapshot names); a 512 MB message was accepted here before issue 43.
MAX_RECEIVE_BYTES = 4 * 1024 * 1024
MAX_SEND_BYTES = MAX_SCREENSHOT_BYTES + 64 * 1024  # the largest reply, with room for its header fields
VM_CONFIG = ec.VmConfiguration(hypervisorType=ec.VmConfiguration.KVM, numberOfCpuCores=4,
                               ramSizeBytes=2 * 1024 ** 3)

KEYCODE_APP_SWITCH = 187
RAW_HEADER_BYTES = 16  # `SimTarget.raw()`: width, height, format, colour space, then RGBA_8888 rows
# W3C key names (the event's `key` field, which the real emulator reads before `keyCode`) -> Android keycodes; the
# phone acts on keycodes as `input keyevent` does (PHONE_KEYS, shared with commands.py).
W3C_KEYCODES = {"Enter": KEYCODE_ENTER, "Backspace": KEYCODE_DEL, "Escape": KEYCODE_BACK, "GoBack": KEYCODE_BACK,
                "Home": KEYCODE_HOME, "GoHome": KEYCODE_HOME, "AppSwitch": KEYCODE_APP_SWITCH}


def screenshot_width(width: int, height: int) -> int:
    """The width of the screenshot `getScreenshot` returns for a requested width/height (0: not constrained).

    As the emulator: the aspect ratio is kept and the image never exceeds a requested side; neither given is native.

    >>> screenshot_width(0, 0), screenshot_width(320, 0), screenshot_width(0, 800), screenshot_width(320, 240)
    (1080, 320, 360, 108)
    """
    limits = [1080]
    if width or height:
        limits = [width] if width else []
        if height:
            limits.append(math.floor(height * 1080 / 2400))
    return max(MIN_WIDTH, min(MAX_WIDTH, *limits))


@dataclass
class _Pointer:
    """One finger (or the mouse) between its down and its up: where it went down, when, and where it is now."""

    x0: int
    y0: int
    down_s: float
    x: int
    y: int


def _on_screen(target: SimTarget, x: int, y: int) -> bool:
    return 0 <= x < target.phone.width and 0 <= y < target.phone.height  # as `input`: off-screen events hit nothing


class Gestures:
    """Per-pointer touch state turned into the phone's gestures on release, as `input tap`/`input swipe` act.

    Guarantees: a pointer that goes up within `SWIPE_MIN_PX` of where it went down taps there (a long press after
    `LONG_PRESS_S` seconds), otherwise swipes from its down point to the last point it was pressed at; the position of
    the lift itself is ignored, as a touchscreen reports none for a finger leaving (AndroidEnv lifts at (0, 0));
    off-screen gestures do nothing. The caller holds `target.lock`.
    """

    def __init__(self, target: SimTarget) -> None:
        self.target = target
        self._pointers: dict[object, _Pointer] = {}

    def move(self, pointer: object, x: int, y: int, is_down: bool) -> None:
        """Pointer `pointer` is at device pixels (x, y), pressed or not."""
        p = self._pointers.get(pointer)
        if is_down:
            if p is None:
                self._pointers[pointer] = _Pointer(x, y, time.monotonic(), x, y)
            else:
                p.x, p.y = x, y
        elif p is not None:
            del self._pointers[pointer]
            self._release(p, p.x, p.y)

    def _release(self, p: _Pointer, x: int, y: int) -> None:
        phone = self.target.phone
        if not (_on_screen(self.target, p.x0, p.y0) and _on_screen(self.target, x, y)):
            return
        is_still = abs(x - p.x0) < SWIPE_MIN_PX and abs(y - p.y0) < SWIPE_MIN_PX
        try:
            if is_still and time.monotonic() - p.down_s >= LONG_PRESS_S:
                phone.long_press(p.x0, p.y0)
            elif is_still:
                phone.tap(p.x0, p.y0)
            else:
                phone.swipe(p.x0, p.y0, x, y)
        except AndroidGymError as e:  # the phone refused (a launch it cannot do); `input` reports it, a touch cannot
            log.debug("gesture ignored: %s", e)


class EmulatorControllerServicer(ec_grpc.EmulatorControllerServicer):
    """`EmulatorController` over one `SimTarget`: status, screenshots, touch, mouse, keys and the VM state.

    Args:
        target: the phone (every call holds `target.lock`).
        on_stop: what `setVmState(SHUTDOWN|TERMINATE)` calls (the process's stop, as the console's `kill`).
        is_stopped: whether the process is stopping (`getVmState` then answers SHUTDOWN).
    """

    def __init__(self, target: SimTarget, on_stop: Callable[[], None], is_stopped: Callable[[], bool]) -> None:
        self.target, self.on_stop, self.is_stopped = target, on_stop, is_stopped
        self.started_s = time.monotonic()
        self.gestures = Gestures(target)
        self._seq = 0

    def getStatus(self, request: empty_pb2.Empty, context: grpc.ServicerContext) -> ec.EmulatorStatus:  # noqa: N802
        """Booted once `sys.boot_completed` is 1; uptime in ms since the service started."""
        with self.target.lock:
            is_booted = self.target.props.get("sys.boot_completed") == "1"
            width, height = self.target.phone.width, self.target.phone.height
        hardware = ec.EntryList(entry=[ec.Entry(key=k, value=v) for k, v in (
            ("hw.lcd.width", str(width)), ("hw.lcd.height", str(height)), ("hw.lcd.density", "420"),
            ("hw.cpu.ncore", str(VM_CONFIG.numberOfCpuCores)), ("hw.ramSize", str(VM_CONFIG.ramSizeBytes >> 20)))])
        return ec.EmulatorStatus(version=VERSION, uptime=int((time.monotonic() - self.started_s) * 1000),
                                 booted=is_booted, vmConfig=VM_CONFIG, hardwareConfig=hardware)

    def getScreenshot(self, request: ec.ImageFormat, context: grpc.ServicerContext) -> ec.Image:  # noqa: N802
        """The screen at the requested size (aspect kept, 0 = native) as PNG, RGBA8888 or RGB888 bytes."""
        if request.display != 0:
            context.abort(grpc.StatusCode.NOT_FOUND, f"display {request.display} does not exist; the simulated "
                                                     "phone has display 0 only")
        width = screenshot_width(request.width, request.height)
        self.target.settling.wait_settled()
        with self.target.lock:
            if width == self.target.phone.width:
                frame = self.target.frame()
            else:
                frame = self.target.renderer.render(self.target.phone.tree(), width,
                                                    dark=bool(self.target.phone.system["dark_theme"]))
            self._seq += 1
            seq = self._seq
        height = frame.shape[0]
        match request.format:
            case ec.ImageFormat.RGBA8888 if width == self.target.phone.width:
                # the compositor's RGBA buffer, kept per frame (what `screencap` sends, less its 16-byte header)
                data = self.target.raw()[RAW_HEADER_BYTES:]
            case ec.ImageFormat.RGBA8888:
                rgba = np.empty((height, width, 4), np.uint8)
                rgba[:, :, :3], rgba[:, :, 3] = frame, 255
                data = rgba.tobytes()
            case ec.ImageFormat.RGB888:
                data = np.ascontiguousarray(frame).tobytes()
            case _:
                buf = io.BytesIO()
                Image.fromarray(frame).save(buf, "PNG")
                data = buf.getvalue()
        form = ec.ImageFormat(format=request.format, width=width, height=height,
                              rotation=ec.Rotation(rotation=ec.Rotation.PORTRAIT))
        return ec.Image(format=form, width=width, height=height, image=data, seq=seq,
                        timestampUs=time.time_ns() // 1000)

    def sendTouch(self, request: ec.TouchEvent, context: grpc.ServicerContext) -> empty_pb2.Empty:  # noqa: N802
        """Each touch moves its finger (by `identifier`); pressure 0 lifts it, completing a tap or a swipe."""
        if request.display == 0:
            with self.target.lock:
                for touch in request.touches:
                    self.gestures.move(("touch", touch.identifier), touch.x, touch.y, touch.pressure > 0)
                self.target.observe()  # an app a tap opened is in the log at once, as the activity manager logs it
            self.target.settling.touched()
        return empty_pb2.Empty()

    def sendMouse(self, request: ec.MouseEvent, context: grpc.ServicerContext) -> empty_pb2.Empty:  # noqa: N802
        """The mouse as one finger: button 1 held is down."""
        if request.display == 0:
            with self.target.lock:
                self.gestures.move("mouse", request.x, request.y, bool(request.buttons & 1))
                self.target.observe()
            self.target.settling.touched()
        return empty_pb2.Empty()

    def sendKey(self, request: ec.KeyboardEvent, context: grpc.ServicerContext) -> empty_pb2.Empty:  # noqa: N802
        """`text` types; otherwise the key (`key` name, else an XKB `keyCode`) acts on keydown and keypress."""
        with self.target.lock:
            if request.text:
                self._type(request.text)
            elif request.eventType != ec.KeyboardEvent.keyup:
                self._key(request)
            self.target.observe()
        self.target.settling.touched()
        return empty_pb2.Empty()

    def _key(self, request: ec.KeyboardEvent) -> None:
        text, keycode = None, W3C_KEYCODES.get(request.key)
        if keycode is None and len(request.key) == 1:
            text = request.key
        elif keycode is None and request.codeType == ec.KeyboardEvent.XKB:
            keycode, text = KEYCODE_BY_KEYSYM.get(request.keyCode), keysym_text(request.keyCode)
        if text is not None:
            self._type(text)
        elif keycode in PHONE_KEYS:
            self.target.phone.key(PHONE_KEYS[keycode])
        elif keycode is None:
            log.debug("key %r (code %d, type %d) has no Android key in the sim; ignored", request.key,
                      request.keyCode, request.codeType)

    def _type(self, text: str) -> None:
        """Type through the phone; a newline is the ENTER key, as `input text` does."""
        for k, line in enumerate(text.split("\n")):
            if k:
                self.target.phone.key("enter")
            if line:
                self.target.phone.type_text(line)

    def setVmState(self, request: ec.VmRunState, context: grpc.ServicerContext) -> empty_pb2.Empty:  # noqa: N802
        """SHUTDOWN and TERMINATE stop the process (as the console's `kill`); RUNNING is accepted."""
        match request.state:
            case ec.VmRunState.SHUTDOWN | ec.VmRunState.TERMINATE:
                log.info("gRPC: setVmState %s: stopping the emulator", ec.VmRunState.RunState.Name(request.state))
                self.on_stop()
            case ec.VmRunState.RUNNING:
                pass
            case _:
                context.abort(grpc.StatusCode.UNIMPLEMENTED,
                              f"setVmState {ec.VmRunState.RunState.Name(request.state)}: the simulated emulator "
                              "supports RUNNING, SHUTDOWN and TERMINATE only")
        return empty_pb2.Empty()

    def getVmState(self, request: empty_pb2.Empty, context: grpc.ServicerContext) -> ec.VmRunState:  # noqa: N802
        """RUNNING, or SHUTDOWN once the process is stopping."""
        return ec.VmRunState(state=ec.VmRunState.SHUTDOWN if self.is_stopped() else ec.VmRunState.RUNNING)


class SnapshotServicer(ss_grpc.SnapshotServiceServicer):
    """`SnapshotService` over the console's in-memory `Snapshots`: list, load, save, delete.

    Failures come back as the real emulator sends them: `success` False and `err` (UTF-8) naming the snapshot.

    Args:
        target: the phone snapshots save and load.
        snapshots: the store the console shares.
        is_refusing_loads: every load fails (the `refuse-snapshot` sim fault).
    """

    def __init__(self, target: SimTarget, snapshots: Snapshots, is_refusing_loads: bool = False) -> None:
        self.target, self.snapshots, self.is_refusing_loads = target, snapshots, is_refusing_loads

    def ListSnapshots(self, request: ss.SnapshotFilter, context: grpc.ServicerContext) -> ss.SnapshotList:  # noqa: N802
        """Every held snapshot (all are compatible: they are this process's own)."""
        return ss.SnapshotList(snapshots=[ss.SnapshotDetails(snapshot_id=name, status=ss.SnapshotDetails.Compatible)
                                          for name in self.snapshots.names()])

    def LoadSnapshot(self, request: ss.SnapshotPackage, context: grpc.ServicerContext) -> ss.SnapshotPackage:  # noqa: N802
        """Swap snapshot `snapshot_id` into the phone."""
        if self.is_refusing_loads:
            return _failed(request.snapshot_id, f"failed to load snapshot '{request.snapshot_id}' "
                                                "(sim fault refuse-snapshot)")
        return self._do("load", request.snapshot_id, lambda name: self.snapshots.load(self.target, name))

    def SaveSnapshot(self, request: ss.SnapshotPackage, context: grpc.ServicerContext) -> ss.SnapshotPackage:  # noqa: N802
        """Save the phone as `snapshot_id` (replacing one of that name)."""
        return self._do("save", request.snapshot_id, lambda name: self.snapshots.save(self.target, name))

    def DeleteSnapshot(self, request: ss.SnapshotPackage, context: grpc.ServicerContext) -> ss.SnapshotPackage:  # noqa: N802
        """Forget snapshot `snapshot_id`."""
        return self._do("delete", request.snapshot_id, self.snapshots.delete)

    def _do(self, verb: str, name: str, action: Callable[[str], None]) -> ss.SnapshotPackage:
        if not name:
            return _failed(name, f"cannot {verb} a snapshot without a name: set `snapshot_id`")
        try:
            action(name)
        except ConfigError as e:
            return _failed(name, f"cannot {verb} snapshot '{name}': {e}")
        log.info("gRPC: snapshot %s %s", verb, name)
        return ss.SnapshotPackage(snapshot_id=name, success=True)


def _failed(name: str, message: str) -> ss.SnapshotPackage:
    return ss.SnapshotPackage(snapshot_id=name, success=False, err=message.encode())


class GrpcServer:
    """Both services on `127.0.0.1:port`, local credentials, a small thread pool, bounded messages.

    Guarantees: constructing starts nothing; `start()` binds and serves or raises `OSError` when the port is taken;
    `stop()` is idempotent and lets calls in flight finish for `STOP_GRACE_S` seconds (so `setVmState(SHUTDOWN)`,
    which stops the process from inside a call, still gets its reply). With `policy`, a call it refuses never
    reaches a servicer (UNAUTHENTICATED or PERMISSION_DENIED) and is counted in `denied`. A request over
    `MAX_RECEIVE_BYTES` is refused with RESOURCE_EXHAUSTED.

    Args:
        controller: the EmulatorController servicer.
        snapshots: the SnapshotService servicer.
        port: the TCP port (`-grpc`).
        policy: the token (and allowlist) every call is checked against; None: no token (any local process).
    """

    def __init__(self, controller: EmulatorControllerServicer, snapshots: SnapshotServicer, port: int,
                 policy: AccessPolicy | None = None) -> None:
        self.controller, self.snapshots, self.port, self.policy = controller, snapshots, port, policy
        self.denied = 0
        self._server: grpc.Server | None = None
        self._lock = threading.Lock()

    def _on_denied(self, method: str, code: grpc.StatusCode) -> None:
        with self._lock:
            self.denied += 1
        log.warning("gRPC: refused %s (%s): the caller lacks the `-grpc-use-token` token", method, code.name)

    def start(self) -> GrpcServer:
        """Bind and serve (idempotent); raises `OSError` when the port cannot be bound."""
        with self._lock:
            if self._server is not None:
                return self
            interceptors = [] if self.policy is None else [TokenInterceptor(self.policy, self._on_denied)]
            server = grpc.server(futures.ThreadPoolExecutor(MAX_WORKERS, thread_name_prefix="emulator-grpc"),
                                 interceptors=interceptors,
                                 options=[("grpc.max_send_message_length", MAX_SEND_BYTES),
                                          ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
                                          ("grpc.so_reuseport", 0)])
            ec_grpc.add_EmulatorControllerServicer_to_server(self.controller, server)
            ss_grpc.add_SnapshotServiceServicer_to_server(self.snapshots, server)
            try:
                bound = server.add_secure_port(f"127.0.0.1:{self.port}", grpc.local_server_credentials())
            except RuntimeError as e:  # newer grpcio raises instead of returning 0
                bound = 0
                log.debug("gRPC bind failed: %s", e)
            if bound == 0:
                server.stop(None)
                raise OSError(f"cannot bind the gRPC port 127.0.0.1:{self.port} (is it taken?)")
            server.start()
            self._server = server
        log.info("gRPC service listening on port %d (%s)", self.port,
                 "token required" if self.policy else "no token: any local process may call it")
        return self

    def stop(self) -> None:
        """Stop serving (idempotent; returns at once, calls in flight get `STOP_GRACE_S` seconds)."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            server.stop(STOP_GRACE_S)
