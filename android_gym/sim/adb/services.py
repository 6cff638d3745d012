"""Device services of the ADB front (`shell:`, `shell,v2:`, `exec:`, `sync:`, `framebuffer:`) over any byte stream.

The host-protocol server (`server.py`) and the adbd endpoint (`adbd.py`) differ only in how bytes travel; both call
`serve()`, which draws the request's fault, acknowledges the service (OKAY *before* running the command, as adbd
does, so client timeouts cover the command), and runs it.
"""

from __future__ import annotations

import stat
import struct
import threading
from collections.abc import Callable
from typing import Protocol

from android_gym.sim.adb.coreutils import DIRECTORIES
from android_gym.sim.adb.logd import follow_argv, parse_logcat
from android_gym.sim.adb.target import SimTarget

SYNC_CHUNK = 64 * 1024
_V2_STDOUT, _V2_STDERR, _V2_EXIT = 1, 2, 3


class Stream(Protocol):
    """A bidirectional byte stream to the client."""

    def send(self, data: bytes) -> None:
        """Send all of `data` (raises `OSError` if the client went away)."""

    def recv(self, n: int) -> bytes:
        """Up to `n` bytes; b"" at end of stream."""

    def close(self) -> None:
        """Close the stream (idempotent)."""


class _Discard:
    """A stream whose output is lost: a `drop_late` fault runs the command, then the connection dies."""

    def send(self, data: bytes) -> None:
        pass

    def recv(self, n: int) -> bytes:
        return b""

    def close(self) -> None:
        pass


Handler = Callable[[SimTarget, str, Stream], None]


def serve(target: SimTarget, service: str, stream: Stream, okay: Callable[[], None],
          fail: Callable[[str], None]) -> None:
    """Run one device service request for `target`, injecting the fault its `FaultInjector` draws.

    Args:
        target: the device.
        service: the service string ("shell,v2,raw:wm size").
        stream: the client stream (closed on return).
        okay: acknowledges the service to the client.
        fail: refuses the service with a message.
    """
    fate = target.faults.draw()
    if fate == "offline":
        target.offline_requests = target.faults.config.offline_requests
        fail("device offline")
        return
    if fate == "hang":
        target.stop_event.wait(target.faults.config.hang_s)
        stream.close()
        return
    if fate == "drop":
        stream.close()
        return
    if fate == "garbage":
        stream.send(target.faults.garbage())
        stream.close()
        return
    if fate == "delay":
        target.stop_event.wait(target.faults.config.delay_s)
    handler = resolve(service)
    if handler is None:
        fail(f"unknown service: {service.split(':', 1)[0]}")
        return
    okay()
    if fate == "garbage_late":
        stream.send(target.faults.garbage(256))
    elif fate == "drop_late":
        handler(target, service, _Discard())
    else:
        handler(target, service, stream)
    stream.close()


def resolve(service: str) -> Handler | None:
    """The handler of a device service string, or None when the front does not offer it."""
    name = service.split(":", 1)[0].split(",")[0]
    return _HANDLERS.get(name)


def _shell(target: SimTarget, service: str, stream: Stream) -> None:
    options, command = service.split(":", 1)
    if not command.strip():
        stream.send(b"android_gym sim: interactive shells are not supported; pass a command\n")
        return
    if (logcat := follow_argv(command)) is not None:
        _follow_logcat(target, logcat, stream, v2="v2" in options.split(","))
        return
    out, err, code, merged = target.run(command)
    if "v2" not in options.split(","):
        stream.send(merged or out + err)  # the legacy protocol merges the streams and loses the exit status
        return
    for kind, data in ((_V2_STDOUT, out), (_V2_STDERR, err)):
        for i in range(0, len(data), SYNC_CHUNK * 4):
            chunk = data[i:i + SYNC_CHUNK * 4]
            stream.send(bytes([kind]) + struct.pack("<I", len(chunk)) + chunk)
    stream.send(bytes([_V2_EXIT]) + struct.pack("<I", 1) + bytes([code & 0xFF]))


def _follow_logcat(target: SimTarget, args: list[str], stream: Stream, v2: bool) -> None:
    """A logcat that follows: its lines as they are logged, until the client hangs up or the phone stops."""
    gone = threading.Event()

    def watch() -> None:  # the client's only message from now on is its hang-up (v2 stdin packets are ignored)
        while True:
            try:
                if not stream.recv(4096):
                    break
            except TimeoutError:
                continue  # the front's socket timeout: the client is still there, reading
            except OSError:
                break
        gone.set()

    def send(data: bytes) -> None:
        stream.send(bytes([_V2_STDOUT]) + struct.pack("<I", len(data)) + data if v2 else data)

    threading.Thread(target=watch, name=f"logcat:{target.serial}", daemon=True).start()
    target.observe()
    target.logd.follow(parse_logcat(args), send, lambda: gone.is_set() or target.stop_event.is_set(), target.observe)
    if v2 and not gone.is_set():
        stream.send(bytes([_V2_EXIT]) + struct.pack("<I", 1) + b"\0")


def _exec(target: SimTarget, service: str, stream: Stream) -> None:
    if (logcat := follow_argv(service.split(":", 1)[1])) is not None:
        _follow_logcat(target, logcat, stream, v2=False)
        return
    out = target.run(service.split(":", 1)[1]).out
    stream.send(out)  # exec: is a raw pipe of stdout (binary-safe); stderr stays on the device


def _framebuffer(target: SimTarget, service: str, stream: Stream) -> None:
    frame = target.frame()
    h, w, _ = frame.shape
    rgba = bytearray(w * h * 4)
    rgba[0::4], rgba[1::4], rgba[2::4] = frame[:, :, 0].tobytes(), frame[:, :, 1].tobytes(), frame[:, :, 2].tobytes()
    rgba[3::4] = b"\xff" * (w * h)
    # version 1: bpp, size, width, height, then (offset, length) of red, blue, green, alpha
    header = struct.pack("<13I", 1, 32, len(rgba), w, h, 0, 8, 16, 8, 8, 8, 24, 8)
    stream.send(header + bytes(rgba))


def _recv_exact(stream: Stream, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = stream.recv(n - len(buf))
        if not chunk:
            raise EOFError("client closed the sync stream")
        buf += chunk
    return bytes(buf)


def _stat(target: SimTarget, path: str) -> tuple[int, int, int]:
    if path in target.files:
        return stat.S_IFREG | 0o644, len(target.files[path]), 1_700_000_000
    if path in DIRECTORIES or any(p.startswith(path.rstrip("/") + "/") for p in target.files):
        return stat.S_IFDIR | 0o771, 4096, 1_700_000_000
    return 0, 0, 0


def _sync(target: SimTarget, service: str, stream: Stream) -> None:
    """The file-sync protocol: STAT, LIST, RECV, SEND, QUIT (version 1 requests)."""
    try:
        while True:
            request = _recv_exact(stream, 8)
            kind, length = request[:4], struct.unpack("<I", request[4:])[0]
            if kind == b"QUIT":
                return
            if length > 4096:
                stream.send(b"FAIL" + struct.pack("<I", 17) + b"path is too long")
                return
            path = _recv_exact(stream, length).decode("utf-8", "replace")
            if kind == b"STAT":
                stream.send(b"STAT" + struct.pack("<III", *_stat(target, path)))
            elif kind == b"LIST":
                prefix = path.rstrip("/") + "/"
                with target.lock:
                    names = sorted(p[len(prefix):] for p in target.files if p.startswith(prefix))
                for name in (n for n in names if "/" not in n):
                    mode, size, mtime = _stat(target, prefix + name)
                    raw = name.encode()
                    stream.send(b"DENT" + struct.pack("<IIII", mode, size, mtime, len(raw)) + raw)
                stream.send(b"DONE" + bytes(16))
            elif kind == b"RECV":
                _send_file(target, path, stream)
            elif kind == b"SEND":
                if not _receive_file(target, path, stream):
                    return
            else:
                stream.send(b"FAIL" + struct.pack("<I", 22) + b"unknown sync request!")
                return
    except EOFError:
        return


def _send_file(target: SimTarget, path: str, stream: Stream) -> None:
    data = target.files.get(path)
    if data is None:
        message = f"remote object '{path}' does not exist".encode()
        stream.send(b"FAIL" + struct.pack("<I", len(message)) + message)
        return
    for i in range(0, len(data), SYNC_CHUNK):
        chunk = data[i:i + SYNC_CHUNK]
        stream.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
    stream.send(b"DONE" + bytes(4))


def _sync_fail(stream: Stream, message: str) -> None:
    data = message.encode()
    stream.send(b"FAIL" + struct.pack("<I", len(data)) + data)


def _receive_file(target: SimTarget, spec: str, stream: Stream) -> bool:
    """A SEND: the file's DATA chunks until DONE, held only while within the phone's storage quota.

    Past the quota it answers FAIL "write failed: No space left on device" at once, as adbd does on a full disk,
    and reads and drops the rest of the upload (so the client reads the FAIL instead of a broken pipe): what a push
    holds in memory never exceeds the room the phone had (issue 43). Returns False when the sync session must end.
    """
    path = spec.rsplit(",", 1)[0]
    buf = bytearray()
    try:
        while True:
            header = _recv_exact(stream, 8)
            kind, length = header[:4], struct.unpack("<I", header[4:])[0]
            if kind == b"DONE":
                break
            if kind != b"DATA" or length > SYNC_CHUNK:
                _sync_fail(stream, "bad SEND data")
                return False
            chunk = _recv_exact(stream, length)
            with target.lock:
                is_full = target.free_bytes(replacing=path) < len(chunk)
                if is_full:
                    target.reserved_bytes -= len(buf)
                else:
                    target.reserved_bytes += len(chunk)
            if is_full:
                del buf[:]  # released before the FAIL goes out: a client that reads it finds the room back
                _sync_fail(stream, f"write failed: No space left on device (the simulated phone holds "
                                   f"{target.storage_quota_bytes} bytes of files; raise SimTarget("
                                   "storage_quota_bytes=...) to allow more)")
                _drop_upload(stream)
                return False
            buf += chunk
        with target.lock:
            target.files[path] = bytes(buf)
    finally:
        with target.lock:
            target.reserved_bytes -= len(buf)
    stream.send(b"OKAY" + bytes(4))
    return True


def _drop_upload(stream: Stream) -> None:
    """Read and drop DATA chunks until DONE (or anything else), as adbd does after failing a SEND."""
    while True:
        kind, length = _recv_exact(stream, 4), struct.unpack("<I", _recv_exact(stream, 4))[0]
        if kind != b"DATA" or length > SYNC_CHUNK:
            return
        while length:
            length -= len(_recv_exact(stream, min(length, SYNC_CHUNK)))


_HANDLERS: dict[str, Handler] = {"shell": _shell, "exec": _exec, "sync": _sync, "framebuffer": _framebuffer}
