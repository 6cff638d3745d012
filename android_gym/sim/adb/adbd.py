"""`AdbdEndpoint`: the device side of ADB (what `adbd` speaks over TCP) for one simulated phone.

A real `adb` server reaches it with `adb connect 127.0.0.1:<port>` and then drives the phone exactly as it drives an
emulator: CNXN handshake (no authentication, like an emulator image with `ro.adb.secure=0`), then one stream per
service — OPEN, OKAY, WRTE, CLSE — with the legacy one-write-in-flight flow control. Services are those of
`services.py`, faults included.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections import deque

from android_gym.errors import ConfigError
from android_gym.sim.adb.services import serve
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.tcp_listener import TcpListener

A_CNXN, A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_AUTH = (int.from_bytes(c, "little") for c in
                                                  (b"CNXN", b"OPEN", b"OKAY", b"WRTE", b"CLSE", b"AUTH"))
VERSION = 0x01000001  # skips payload checksums
MAX_PAYLOAD = 256 * 1024
_HEADER = struct.Struct("<6I")
ACK_TIMEOUT_S = 30.0


class _Connection:
    """One TCP connection from an adb server: a reader loop plus the streams it opened."""

    def __init__(self, sock: socket.socket, target: SimTarget) -> None:
        self.sock, self.target = sock, target
        self.write_lock = threading.Lock()
        self.streams: dict[int, _Stream] = {}
        self.next_id = 1
        self.max_payload = MAX_PAYLOAD
        self.version = VERSION

    def write(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        check = sum(data) & 0xFFFFFFFF if self.version < VERSION else 0
        with self.write_lock:
            self.sock.sendall(_HEADER.pack(command, arg0, arg1, len(data), check, command ^ 0xFFFFFFFF) + data)

    def read(self) -> tuple[int, int, int, bytes] | None:
        header = _recv_exact(self.sock, _HEADER.size)
        if header is None:
            return None
        command, arg0, arg1, length, _, magic = _HEADER.unpack(header)
        if magic != command ^ 0xFFFFFFFF or length > 16 * MAX_PAYLOAD:
            raise ValueError("bad adb message header")
        data = _recv_exact(self.sock, length) if length else b""
        if data is None:
            return None
        return command, arg0, arg1, data

    def run(self) -> None:
        try:
            while True:
                message = self.read()
                if message is None:
                    return
                self.dispatch(*message)
        except (OSError, ValueError):
            return
        finally:
            for stream in list(self.streams.values()):
                stream.hang_up()
            self.sock.close()

    def dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            self.version, self.max_payload = min(arg0, VERSION), min(arg1, MAX_PAYLOAD)
            self.write(A_CNXN, VERSION, MAX_PAYLOAD, self.target.banner().encode())
        elif command == A_OPEN:
            local = self.next_id
            self.next_id += 1
            stream = _Stream(self, local, arg0)
            self.streams[local] = stream
            service = data.rstrip(b"\0").decode("utf-8", "replace")
            threading.Thread(target=self._serve, args=(stream, service), daemon=True).start()
        elif command == A_OKAY and arg1 in self.streams:
            self.streams[arg1].acked.set()
        elif command == A_WRTE and arg1 in self.streams:
            self.streams[arg1].deliver(data)
            self.write(A_OKAY, arg1, arg0)
        elif command == A_CLSE and arg1 in self.streams:
            self.streams.pop(arg1).hang_up()

    def _serve(self, stream: _Stream, service: str) -> None:
        try:
            serve(self.target, service, stream, lambda: self.write(A_OKAY, stream.local, stream.remote),
                  lambda message: stream.refuse())
        except OSError:
            pass
        finally:
            stream.close()
            self.streams.pop(stream.local, None)


class _Stream:
    """One service stream: writes wait for the peer's OKAY (one WRTE in flight), reads take delivered WRTEs."""

    def __init__(self, conn: _Connection, local: int, remote: int) -> None:
        self.conn, self.local, self.remote = conn, local, remote
        self.acked = threading.Event()
        self.acked.set()
        self.inbox: deque[bytes] = deque()
        self.readable = threading.Condition()
        self.closed = False

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        for i in range(0, len(view), self.conn.max_payload):
            if not self.acked.wait(ACK_TIMEOUT_S) or self.closed:
                raise OSError("adb peer stopped acknowledging writes")
            self.acked.clear()
            self.conn.write(A_WRTE, self.local, self.remote, bytes(view[i:i + self.conn.max_payload]))

    def recv(self, n: int) -> bytes:
        with self.readable:
            while not self.inbox and not self.closed:
                self.readable.wait(ACK_TIMEOUT_S)
            if not self.inbox:
                return b""
            chunk = self.inbox.popleft()
            if len(chunk) > n:
                self.inbox.appendleft(chunk[n:])
                chunk = chunk[:n]
            return chunk

    def deliver(self, data: bytes) -> None:
        with self.readable:
            self.inbox.append(data)
            self.readable.notify_all()

    def hang_up(self) -> None:
        """The peer closed the stream."""
        with self.readable:
            self.closed = True
            self.readable.notify_all()
        self.acked.set()

    def refuse(self) -> None:
        """Refuse the OPEN (adbd answers an unknown or failing service with CLSE)."""
        self.closed = True
        self.conn.write(A_CLSE, 0, self.remote)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.conn.write(A_CLSE, self.local, self.remote)
            except OSError:
                pass


class AdbdEndpoint:
    """A simulated phone listening as adbd on `host:port` (loopback by default).

    Guarantees: every connection and stream runs on its own thread; `stop()` closes the listener, the connections
    and the target's hangs. Constructing starts nothing.

    Args:
        target: the phone to serve (a fresh one called "sim-adbd" when None).
        host: interface to listen on.
        port: TCP port, 0 for a free one. Avoid 5555-5585 unless you want a local adb server to auto-discover it
            as `emulator-<port - 1>`.
    """

    def __init__(self, target: SimTarget | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.target = target or SimTarget("sim-adbd")
        self._listener = TcpListener(self._connection, host, port, name="adbd")

    def start(self) -> AdbdEndpoint:
        """Bind and accept connections (idempotent)."""
        if self._listener.port is None:
            self.target.stop_event.clear()
            self._listener.start()
        return self

    def stop(self) -> None:
        """Close everything (idempotent)."""
        self.target.stop_event.set()
        self._listener.close()

    def __enter__(self) -> AdbdEndpoint:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The TCP port served (after `start()`)."""
        port = self._listener.port
        if port is None:
            raise ConfigError("the adbd endpoint is not started; call start() first")
        return port

    def _connection(self, sock: socket.socket) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _Connection(sock, self.target).run()


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)
