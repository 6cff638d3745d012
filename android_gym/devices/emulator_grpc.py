"""The emulator's gRPC `EmulatorController` as a device path: `EmulatorGrpc` (the client) and `GrpcPath` (its use).

A real emulator answers a screenshot over gRPC in tens of milliseconds where `adb screencap` takes hundreds (issue 18).
The stubs are `android_env.proto`'s, imported when first needed: without `grpc` or `android_env` the path is off and
the device stays on ADB. The channel is AndroidEnv's (`emulator_simulator.py`), local credentials, but bounded where
AndroidEnv's is unlimited: a reply over `MAX_REPLY_BYTES` is refused by gRPC before it is buffered (issue 43). Keys go
as XKB keysyms, what the emulator expects on Linux hosts (Escape is BACK, as AndroidEnv users send).

An emulator run with `-grpc-use-token` (ours launch it so, issue 43) refuses calls without its token: `EmulatorGrpc`
sends `authorization: Bearer <token>` on every call when given one, and `GrpcPath` finds the token of the emulator on
the port it dials in the emulator's discovery file (`emulator_discovery.py`), unless the device was given one.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from android_gym.devices import adb_shell as sh
from android_gym.devices.emulator_discovery import discovery_dir, find_grpc_token
from android_gym.devices.xkb import KEYSYM_BY_KEYCODE
from android_gym.errors import (
    ConfigError,
    DeviceError,
    DeviceOfflineError,
    DeviceProtocolError,
    DeviceTimeoutError,
    UnsupportedError,
    unknown_name,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
CONNECT_TIMEOUT_S = 2.0  # a listening emulator is ready in milliseconds; a dead port must not stall start() or reset()
SWIPE_STEPS = 10  # moves between touch-down and lift, like `input swipe`'s interpolated motion events
MAX_REPLY_BYTES = 64 * 1024 * 1024
"""The largest reply the client reads: the biggest is a screenshot, and a 2160x4800 RGBA one (wider than any phone)
is 41.5 MB. A larger reply fails its call with RESOURCE_EXHAUSTED (a `DeviceProtocolError`), never filling memory."""
MAX_REQUEST_BYTES = 4 * 1024 * 1024  # what we send is touches, keys and snapshot names: a few hundred bytes each


def load_stubs() -> tuple[Any, Any, Any]:
    """`(grpc, emulator_controller_pb2, emulator_controller_pb2_grpc)`.

    Raises:
        UnsupportedError: either package is missing or too old (the message says which and what to install).
    """
    try:
        import grpc
        from android_env.proto import emulator_controller_pb2, emulator_controller_pb2_grpc
    except (ImportError, RuntimeError) as e:  # RuntimeError: stubs generated for a newer grpcio
        raise UnsupportedError(f"the gRPC device path needs `grpcio` and `android-env` ({e}); "
                               "`pip install grpcio android-env`, or use ADB") from e
    return grpc, emulator_controller_pb2, emulator_controller_pb2_grpc


def xkb_keysym(key: int | str) -> int | None:
    """The XKB keysym of an Android key (keycode, "KEYCODE_BACK" or a Device key name), None where gRPC has none.

    >>> hex(xkb_keysym("back")), hex(xkb_keysym("KEYCODE_HOME")), hex(xkb_keysym(66)), xkb_keysym("wakeup")
    ('0xff1b', '0xff50', '0xff0d', None)

    Raises:
        UnknownNameError: a name that is no Android key (with the closest one).
    """
    if isinstance(key, str):
        names = {**sh.KEYCODES, **sh.KEYCODE_NAMES}
        if key not in names:
            raise unknown_name("key", key, list(names))
        key = names[key]
    return KEYSYM_BY_KEYCODE.get(int(key))


class TokenRefusedError(DeviceProtocolError):
    """The emulator refused our gRPC token (UNAUTHENTICATED or PERMISSION_DENIED): a setting, not a passing fault."""


class EmulatorGrpc:
    """A client of one emulator's `EmulatorController` on `host:port`; every call has the deadline `timeout_s`.

    Call `connect()` first and `close()` at the end (or use `with`). Coordinates are pixels of the device screen.

    Args:
        port: the emulator's gRPC port (console port + 3000 for emulators launched by `Emulator`).
        timeout_s: deadline of each call, seconds.
        host: where the emulator listens.
        token: the emulator's `-grpc-use-token` token, sent as `authorization: Bearer <token>` on every call (None:
            no header, for an emulator without one).
        max_reply_bytes: replies larger than this are refused (`MAX_REPLY_BYTES`).

    Raises (every call):
        DeviceTimeoutError: no reply within `timeout_s` (DEADLINE_EXCEEDED).
        DeviceOfflineError: nothing answers (UNAVAILABLE, or not connected).
        DeviceProtocolError: any other gRPC status (`TokenRefusedError`: the token is missing or wrong;
            RESOURCE_EXHAUSTED, a reply over `max_reply_bytes`), or a reply that cannot be understood.
    """

    def __init__(self, port: int, timeout_s: float = 10.0, host: str = "127.0.0.1", token: str | None = None,
                 max_reply_bytes: int = MAX_REPLY_BYTES) -> None:
        self.port, self.timeout_s, self.host, self.max_reply_bytes = port, timeout_s, host, int(max_reply_bytes)
        self._metadata = (("authorization", f"Bearer {token}"),) if token else None
        self._channel: Any = None
        self._stub: Any = None

    def connect(self, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        """Open the channel, wait for it to be ready and ask `getStatus`, all within `timeout_s` seconds each.

        Raises:
            UnsupportedError: `grpc` or `android_env` cannot be imported.
            DeviceOfflineError: nothing listens on the port, or the channel is not ready in time.
        """
        grpc, _, pb2_grpc = load_stubs()
        self.close()
        try:  # a refused port fails here at once, where gRPC would retry until the deadline
            socket.create_connection((self.host, self.port), timeout=timeout_s).close()
        except OSError as e:
            raise DeviceOfflineError(f"nothing answers gRPC on {self.host}:{self.port} ({e})") from e
        options = [("grpc.max_send_message_length", MAX_REQUEST_BYTES),
                   ("grpc.max_receive_message_length", self.max_reply_bytes)]
        self._channel = grpc.secure_channel(f"{self.host}:{self.port}", grpc.local_channel_credentials(), options)
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout_s)
        except grpc.FutureTimeoutError as e:
            self.close()
            raise DeviceOfflineError(f"the gRPC channel to {self.host}:{self.port} was not ready within "
                                     f"{timeout_s:g} s") from e
        self._stub = pb2_grpc.EmulatorControllerStub(self._channel)
        self.status()

    def status(self) -> dict[str, Any]:
        """`{"version": str, "uptime_ms": int, "booted": bool}` from `getStatus`."""
        from google.protobuf import empty_pb2

        reply = self._call("getStatus", empty_pb2.Empty())
        return {"version": reply.version, "uptime_ms": int(reply.uptime), "booted": bool(reply.booted)}

    def screenshot(self, width: int, height: int) -> np.ndarray:
        """The screen as uint8 RGB (height, width, 3), from an RGBA8888 `getScreenshot` with its alpha dropped.

        Raises:
            DeviceProtocolError: the reply is empty, of another size, or shorter than its stated size.
        """
        _, pb2, _ = load_stubs()
        request = pb2.ImageFormat(format=pb2.ImageFormat.ImgFormat.RGBA8888, width=width, height=height)
        reply = self._call("getScreenshot", request)
        h, w = reply.format.height, reply.format.width
        if (w, h) != (width, height) or len(reply.image) < w * h * 4:
            raise DeviceProtocolError(f"gRPC screenshot on port {self.port}: asked {width}x{height} RGBA, got "
                                      f"{w}x{h} with {len(reply.image)} bytes")
        rgba = np.frombuffer(reply.image, dtype=np.uint8, count=w * h * 4).reshape(h, w, 4)
        return np.ascontiguousarray(rgba[:, :, :3])

    def tap(self, x: int, y: int) -> None:
        """Touch down (pressure 1) then lift (pressure 0) at pixel (x, y)."""
        self._touch(x, y, 1)
        self._touch(x, y, 0)

    def swipe(self, x0: int, y0: int, x1: int, y1: int, duration_ms: int = 300) -> None:
        """Touch down at (x0, y0), `SWIPE_STEPS` moves spread over `duration_ms` milliseconds, lift at (x1, y1)."""
        self._touch(x0, y0, 1)
        for k in range(1, SWIPE_STEPS + 1):
            time.sleep(duration_ms / 1000 / SWIPE_STEPS)
            f = k / SWIPE_STEPS
            self._touch(round(x0 + f * (x1 - x0)), round(y0 + f * (y1 - y0)), 1)
        self._touch(x1, y1, 0)

    def key(self, key: int | str) -> None:
        """Press and release an Android key (keycode, "KEYCODE_BACK" or "back") as its XKB keysym.

        Raises:
            UnsupportedError: a key with no XKB keysym here (send it over ADB).
            UnknownNameError: no such key.
        """
        _, pb2, _ = load_stubs()
        keysym = xkb_keysym(key)
        if keysym is None:
            raise UnsupportedError(f"key {key!r} has no XKB keysym in KEYSYM_BY_KEYCODE; send it with `input keyevent`")
        event = pb2.KeyboardEvent(codeType=pb2.KeyboardEvent.KeyCodeType.XKB,
                                  eventType=pb2.KeyboardEvent.KeyEventType.keypress, keyCode=keysym)
        self._call("sendKey", event)

    def close(self) -> None:
        """Close the channel (idempotent)."""
        if self._channel is not None:
            self._channel.close()
        self._channel = self._stub = None

    def __enter__(self) -> EmulatorGrpc:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _touch(self, x: int, y: int, pressure: int) -> None:
        _, pb2, _ = load_stubs()
        touch = pb2.Touch(x=int(x), y=int(y), pressure=pressure, identifier=0)
        self._call("sendTouch", pb2.TouchEvent(touches=[touch]))

    def _call(self, method: str, request: Any) -> Any:
        grpc, _, _ = load_stubs()
        if self._stub is None:
            raise DeviceOfflineError(f"gRPC `{method}` on port {self.port}: not connected; call connect() first")
        try:
            return getattr(self._stub, method)(request, timeout=self.timeout_s, metadata=self._metadata)
        except grpc.RpcError as e:
            code, details = e.code(), e.details()
            what = f"gRPC `{method}` on {self.host}:{self.port}"
            if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                raise DeviceTimeoutError(f"{what} did not answer within {self.timeout_s:g} s") from e
            if code == grpc.StatusCode.UNAVAILABLE:
                raise DeviceOfflineError(f"{what}: the emulator is unavailable ({details})") from e
            if code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
                sent = "a token" if self._metadata else "no token"
                raise TokenRefusedError(f"{what} was refused with {code.name} ({details}): we sent {sent}; the "
                                          "emulator runs with -grpc-use-token, so its token must come from its "
                                          "discovery file (pid_<pid>.ini, `grpc.token`) or the device's "
                                          "`grpc_token`") from e
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise DeviceProtocolError(f"{what} was refused with RESOURCE_EXHAUSTED ({details}): a reply over "
                                          f"{self.max_reply_bytes} bytes is not read (`max_reply_bytes`)") from e
            raise DeviceProtocolError(f"{what} failed with {code.name}: {details}") from e


class GrpcPath:
    """A device's optional gRPC path: used while it works, ADB otherwise, reconnected at the next `open()`.

    Fallback rules: `open()` raises only `ConfigError`, for a refused token (a setting to fix, said at start); a
    missing package, a dead port or another failed `getStatus` leave the path off and are logged once per reason. A
    failed read closes the path and returns "use ADB". A failed input does the
    same when nothing was reached (`DeviceOfflineError`); a timeout or bad reply is raised, since the touch may have
    landed and ADB must not repeat it (inputs are never retried). Counters: `grpc/<what>` and `adb/<what>` per call,
    `grpc/connects`, `grpc/connect_failures`, `grpc/fallbacks`, `grpc/faults/<error>`.

    Token: `token` when set (the device's `grpc_token`), else the `grpc.token` of the emulator advertising the port
    in `discovery` (found at each connect, so a relaunched emulator's new token is used), else none.

    Args:
        timeout_s: deadline of each call, seconds.
        counters: where to count (the device's).
        token: the emulator's gRPC token (None: look it up in the discovery directory).
        discovery: the discovery directory (None: `discovery_dir()` of this process's environment).
    """

    def __init__(self, timeout_s: float, counters: Counter[str], token: str | None = None,
                 discovery: Path | None = None) -> None:
        self.timeout_s, self.counters = timeout_s, counters
        self.token, self.discovery = token, discovery
        self.port: int | None = None
        self.client: EmulatorGrpc | None = None
        self.reason = "no gRPC port is configured"
        self._is_unsupported = False

    def open(self, port: int | None) -> bool:
        """Connect to `port` unless connected there already (None turns the path off); whether it is connected."""
        if port != self.port:
            self.close()
            self.port = port
        if self.client is not None or port is None or self._is_unsupported:
            return self.client is not None
        token = self.token or find_grpc_token(port, self.discovery)
        client = EmulatorGrpc(port, self.timeout_s, token=token)
        try:
            client.connect(min(CONNECT_TIMEOUT_S, self.timeout_s))
        except UnsupportedError as e:
            self._is_unsupported = True
            self._say(str(e))
            return False
        except DeviceError as e:
            client.close()
            if isinstance(e, TokenRefusedError):  # a setting to fix, not a fault to ride
                source = ("the device's `grpc_token`" if self.token else
                          f"the emulator's discovery file in {self.discovery or discovery_dir()}" if token else
                          f"nothing: no discovery file in {self.discovery or discovery_dir()} names port {port}")
                raise ConfigError(f"the emulator's gRPC port {port} refused our token (from {source}): it runs with "
                                  "-grpc-use-token; pass its `grpc.token` as `device_options.grpc_token`, or run "
                                  "this as the user who launched it with the same $XDG_RUNTIME_DIR") from e
            self.counters["grpc/connect_failures"] += 1
            self._say(f"gRPC port {port} did not answer `getStatus` ({e}); using ADB")
            return False
        self.client = client
        self.counters["grpc/connects"] += 1
        self._say(f"screenshots, touches and keys go over gRPC on port {port}", level=logging.INFO)
        self.reason = ""
        return True

    def call(self, what: str, fn: Callable[[EmulatorGrpc], T], is_input: bool = False) -> tuple[bool, T | None]:
        """`(True, fn(client))` over gRPC, or `(False, None)`: the caller uses ADB (counted as `adb/<what>`)."""
        if self.client is None:
            if self.port is not None:  # ADB-only devices keep their counters as they were
                self.counters[f"adb/{what}"] += 1
            return False, None
        try:
            value = fn(self.client)
        except DeviceError as e:
            self.counters["grpc/fallbacks"] += 1
            self.counters[f"grpc/faults/{type(e).__name__}"] += 1
            self.close()
            self._say(f"gRPC {what} on port {self.port} failed ({e}); using ADB until the next reset")
            if is_input and not isinstance(e, DeviceOfflineError):
                raise
            self.counters[f"adb/{what}"] += 1
            return False, None
        self.counters[f"grpc/{what}"] += 1
        return True, value

    def close(self) -> None:
        """Close the channel (idempotent); the next `open()` reconnects."""
        if self.client is not None:
            self.client.close()
        self.client = None

    def _say(self, reason: str, level: int = logging.WARNING) -> None:
        if reason != self.reason:
            log.log(level, "%s", reason)
        self.reason = reason
