"""`AdbChannel`: deadline-bounded requests to one device through an ADB server, and the map from ADB failures to ours.

adbutils' socket timeouts are per `recv` and default to none, so a server that trickles bytes or never answers can
hold a caller forever. Every request here carries one deadline for the whole exchange (connect, transport
selection, OKAY, output), and every failure becomes a `DeviceError` subclass naming the device, the command and
the deadline in seconds. Server-level chores (device lists, `adb connect`, file sync) use adbutils through
`map_adb_error`.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

from android_gym.errors import DeviceError, DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError

MAX_OUTPUT_BYTES = 128 << 20  # a 4K screen in raw RGBA is 33 MiB; more is garbage
T = TypeVar("T")


@dataclass(frozen=True)
class ShellResult:
    """A shell command's output; `exit_code` is None over the legacy protocol (it loses the status)."""

    stdout: bytes
    stderr: bytes
    exit_code: int | None

    @property
    def text(self) -> str:
        """The standard output as text (invalid UTF-8 replaced)."""
        return self.stdout.decode("utf-8", "replace")


class _Deadline:
    def __init__(self, timeout_s: float, what: str) -> None:
        self.timeout_s, self.what = timeout_s, what
        self.end = time.monotonic() + timeout_s

    def arm(self, sock: socket.socket) -> None:
        left = self.end - time.monotonic()
        if left <= 0:
            raise self.expired()
        sock.settimeout(left)

    def expired(self) -> DeviceTimeoutError:
        return DeviceTimeoutError(f"{self.what} did not finish within {self.timeout_s:g} s")


def classify_failure(message: str, what: str) -> DeviceError:
    """The error for an ADB server's FAIL message (offline and not-found devices are offline, the rest protocol)."""
    lowered = message.lower()
    if any(k in lowered for k in ("not found", "offline", "no devices", "unauthorized", "connecting",
                                  "closed", "no such device")):
        hint = " (accept the USB debugging prompt on the phone)" if "unauthorized" in lowered else ""
        return DeviceOfflineError(f"{what}: the ADB server says {message!r}{hint}")
    return DeviceProtocolError(f"{what}: the ADB server refused with {message!r}")


class AdbChannel:
    """Requests to device `serial` through the ADB server at `host:port`, each bounded by a deadline.

    Args:
        serial: the device serial ("emulator-5554", "R58M123ABC", "192.168.1.20:5555"); None: the server's only
            device (`host:transport-any`, which the server refuses when there are several).
        host, port: the ADB server.
    """

    def __init__(self, serial: str | None, host: str, port: int) -> None:
        self.serial, self.host, self.port = serial, host, port

    # -- requests ----------------------------------------------------------------------------------------------------
    def host_request(self, service: str, timeout_s: float) -> str:
        """A host service answered by OKAY + a length-prefixed string ("host:version", "host-serial:s:get-state")."""
        deadline = _Deadline(timeout_s, f"ADB server request {service!r}")
        with self._connect(deadline) as sock:
            self._request(sock, service, deadline)
            length = self._hex_length(sock, deadline)
            return self._read_exact(sock, length, deadline).decode("utf-8", "replace")

    def shell(self, command: str, timeout_s: float, v2: bool = True,
              max_bytes: int = MAX_OUTPUT_BYTES) -> ShellResult:
        """Run `command` in the device shell (shell protocol v2 when the device has it, for exit status).

        Raises:
            DeviceProtocolError: the output (stdout and stderr together) exceeds `max_bytes`; reading stops there.
            DeviceTimeoutError, DeviceOfflineError: as every request.
        """
        what = f"`adb -s {self.serial} shell {_short(command)}`"
        deadline = _Deadline(timeout_s, what)
        with self._device_stream(f"shell,v2,raw:{command}" if v2 else f"shell:{command}", deadline) as sock:
            if not v2:
                return ShellResult(self._read_all(sock, deadline, max_bytes), b"", None)
            return self._read_v2(sock, deadline, what, max_bytes)

    def host_command(self, service: str, timeout_s: float) -> None:
        """A host service answered by a bare OKAY ("host:kill")."""
        deadline = _Deadline(timeout_s, f"ADB server request {service!r}")
        with self._connect(deadline) as sock:
            self._request(sock, service, deadline)

    def open(self, service: str, timeout_s: float) -> socket.socket:
        """A device service stream, acknowledged (OKAY) within `timeout_s`; the caller reads it (no timeout left
        set) and closes it."""  # noqa: D205, D209
        deadline = _Deadline(timeout_s, f"`adb -s {self.serial} {_short(service)}`")
        sock = self._device_stream(service, deadline)
        sock.settimeout(None)
        return sock

    def exec_out(self, command: str, timeout_s: float) -> bytes:
        """Run `command` and return its raw stdout (`adb exec-out`: binary-safe, no terminal translation)."""
        deadline = _Deadline(timeout_s, f"`adb -s {self.serial} exec-out {_short(command)}`")
        with self._device_stream(f"exec:{command}", deadline) as sock:
            return self._read_all(sock, deadline)

    # -- plumbing ----------------------------------------------------------------------------------------------------
    def _connect(self, deadline: _Deadline) -> socket.socket:
        left = deadline.end - time.monotonic()
        if left <= 0:
            raise deadline.expired()
        try:
            sock = socket.create_connection((self.host, self.port), timeout=min(left, 5.0))
        except ConnectionRefusedError as e:
            raise DeviceOfflineError(f"{deadline.what}: no ADB server at {self.host}:{self.port} (connection "
                                     "refused); start one with `adb start-server` or pass its `port`") from e
        except TimeoutError as e:
            raise DeviceTimeoutError(f"{deadline.what}: connecting to the ADB server at {self.host}:{self.port} "
                                     f"did not finish within {min(left, 5.0):g} s") from e
        except OSError as e:
            raise DeviceOfflineError(f"{deadline.what}: cannot reach the ADB server at {self.host}:{self.port}: "
                                     f"{e}") from e
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def _device_stream(self, service: str, deadline: _Deadline) -> socket.socket:
        sock = self._connect(deadline)
        try:
            self._request(sock, "host:transport-any" if self.serial is None else f"host:transport:{self.serial}",
                          deadline)
            self._request(sock, service, deadline)
        except BaseException:
            sock.close()
            raise
        return sock

    def _request(self, sock: socket.socket, service: str, deadline: _Deadline) -> None:
        data = service.encode("utf-8")
        self._io(deadline, sock, lambda: sock.sendall(f"{len(data):04x}".encode() + data))
        status = self._read_exact(sock, 4, deadline)
        if status == b"OKAY":
            return
        if status == b"FAIL":
            length = self._hex_length(sock, deadline)
            message = self._read_exact(sock, min(length, 4096), deadline).decode("utf-8", "replace")
            raise classify_failure(message, deadline.what)
        raise DeviceProtocolError(f"{deadline.what}: the ADB server answered garbage {status!r} instead of "
                                  "OKAY/FAIL")

    def _hex_length(self, sock: socket.socket, deadline: _Deadline) -> int:
        raw = self._read_exact(sock, 4, deadline)
        try:
            return int(raw.decode("ascii"), 16)
        except (UnicodeDecodeError, ValueError) as e:
            raise DeviceProtocolError(f"{deadline.what}: garbage length {raw!r} from the ADB server") from e

    def _io(self, deadline: _Deadline, sock: socket.socket, fn: Callable[[], T]) -> T:
        deadline.arm(sock)
        try:
            return fn()
        except TimeoutError as e:
            raise deadline.expired() from e
        except OSError as e:
            raise DeviceOfflineError(f"{deadline.what}: the connection dropped ({e})") from e

    def _read_exact(self, sock: socket.socket, n: int, deadline: _Deadline) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            want = min(n - len(buf), 1 << 20)
            chunk = self._io(deadline, sock, lambda: sock.recv(want))  # noqa: B023  (called at once, in this loop)
            if not chunk:
                raise DeviceOfflineError(f"{deadline.what}: the connection closed after {len(buf)} of {n} bytes")
            buf += chunk
        return bytes(buf)

    def _read_all(self, sock: socket.socket, deadline: _Deadline, max_bytes: int = MAX_OUTPUT_BYTES) -> bytes:
        buf = bytearray(min(1 << 20, max_bytes + 1))
        view, size = memoryview(buf), 0
        while True:
            if size == len(buf):  # grow geometrically; recv_into avoids a copy per chunk (screenshots are ~10 MB)
                if size > max_bytes:
                    view.release()
                    raise DeviceProtocolError(f"{deadline.what}: output exceeds {max_bytes} bytes (garbage?)")
                view.release()
                buf.extend(bytes(min(size, max_bytes + 1 - size)))
                view = memoryview(buf)
            start = size
            n = self._io(deadline, sock, lambda: sock.recv_into(view[start:]))  # noqa: B023  (called at once)
            if not n:
                view.release()
                del buf[size:]
                return bytes(buf)
            size += n

    def _read_v2(self, sock: socket.socket, deadline: _Deadline, what: str,
                 max_bytes: int = MAX_OUTPUT_BYTES) -> ShellResult:
        out, err = bytearray(), bytearray()
        while True:
            header = self._read_exact(sock, 5, deadline)
            kind, length = header[0], struct.unpack("<I", header[1:])[0]
            if kind not in (1, 2, 3) or length > MAX_OUTPUT_BYTES:
                raise DeviceProtocolError(f"{what}: garbage in the shell protocol (packet id {kind}, length {length})")
            if len(out) + len(err) + length > max_bytes:
                raise DeviceProtocolError(f"{what}: output exceeds {max_bytes} bytes; nothing past that is read")
            data = self._read_exact(sock, length, deadline) if length else b""
            if kind == 3:
                if length != 1:
                    raise DeviceProtocolError(f"{what}: garbage exit packet of {length} bytes")
                return ShellResult(bytes(out), bytes(err), data[0])
            (out if kind == 1 else err).extend(data)


def map_adb_error(error: BaseException, what: str) -> DeviceError:
    """Our error for an adbutils error or a raw `OSError` raised while doing `what`."""
    if isinstance(error, DeviceError):
        return error
    if isinstance(error, AdbTimeout | TimeoutError | socket.timeout):
        return DeviceTimeoutError(f"{what} timed out: {error}")
    if isinstance(error, AdbConnectionError | ConnectionError | EOFError):
        return DeviceOfflineError(f"{what}: connection failed: {error}")
    if isinstance(error, AdbError):
        return classify_failure(str(error), what)
    if isinstance(error, OSError):
        return DeviceOfflineError(f"{what}: {error}")
    return DeviceProtocolError(f"{what}: unexpected {type(error).__name__}: {error}")


def call_adbutils(fn: Callable[[], T], what: str) -> T:
    """Run an adbutils call, translating its errors (and raw `OSError`s) with `map_adb_error`."""
    try:
        return fn()
    except (AdbError, OSError, EOFError, ValueError) as e:
        raise map_adb_error(e, what) from e


def _short(command: str) -> str:
    return command if len(command) <= 80 else command[:77] + "..."
