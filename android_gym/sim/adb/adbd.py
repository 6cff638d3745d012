"""`AdbdEndpoint`: the device side of ADB (what `adbd` speaks over TCP) for one simulated phone.

A real `adb` server reaches it with `adb connect 127.0.0.1:<port>` and then drives the phone exactly as it drives an
emulator: CNXN handshake, authenticated by default as on a device with `ro.adb.secure=1` (issue 43: any local user
could drive the phone): the CNXN is answered by `AUTH TOKEN` (20 random bytes), and only an `AUTH SIGNATURE` of it by
an authorized key (`adbkey.AuthorizedKeys`: by default the user's own `~/.android/adbkey`, which a real adb server and
our clients sign with) gets the CNXN back. A wrong signature gets a fresh token (adb then tries its next key); an
`AUTH RSAPUBLICKEY`, which a real device would show in a prompt, is refused and the connection closed, as is a
connection that sends anything else before authenticating or fails `MAX_AUTH_FAILURES` signatures. `is_secure=False`
serves without authentication, like `ro.adb.secure=0`. Then one stream per service — OPEN, OKAY, WRTE, CLSE — with
the legacy one-write-in-flight flow control. Services are those of `services.py`, faults included.
"""

from __future__ import annotations

import logging
import secrets
import socket
import struct
import threading
from collections import deque

from android_gym.errors import ConfigError
from android_gym.sim.adb.adbkey import AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, TOKEN_BYTES, AuthorizedKeys
from android_gym.sim.adb.services import serve
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.tcp_listener import TcpListener

A_CNXN, A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_AUTH = (int.from_bytes(c, "little") for c in
                                                  (b"CNXN", b"OPEN", b"OKAY", b"WRTE", b"CLSE", b"AUTH"))
VERSION = 0x01000001  # skips payload checksums
MAX_PAYLOAD = 256 * 1024
_HEADER = struct.Struct("<6I")
ACK_TIMEOUT_S = 30.0
MAX_AUTH_FAILURES = 10
"""Wrong signatures one connection may send before it is closed (adb signs with each of its keys, usually one)."""
log = logging.getLogger(__name__)


class _Refused(Exception):
    """The connection failed authentication: it is closed (the message says why, for the log)."""


class _Connection:
    """One TCP connection from an adb server: a reader loop plus the streams it opened."""

    def __init__(self, sock: socket.socket, target: SimTarget, keys: AuthorizedKeys | None, port: int) -> None:
        self.sock, self.target, self.keys, self.port = sock, target, keys, port
        self.is_authenticated = keys is None
        self.token: bytes | None = None
        self.auth_failures = 0
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
        except _Refused as e:
            log.warning("adbd on port %d refused a connection: %s", self.port, e)
            return
        finally:
            for stream in list(self.streams.values()):
                stream.hang_up()
            self.sock.close()

    def dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            self.version, self.max_payload = min(arg0, VERSION), min(arg1, MAX_PAYLOAD)
            if self.is_authenticated:
                self.write(A_CNXN, VERSION, MAX_PAYLOAD, self.target.banner().encode())
            else:
                self.challenge()
        elif command == A_AUTH:
            self.authenticate(arg0, data)
        elif not self.is_authenticated:
            raise _Refused(f"it sent {command.to_bytes(4, 'little')!r} before authenticating")
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

    def challenge(self) -> None:
        """Send a fresh AUTH TOKEN to sign."""
        self.token = secrets.token_bytes(TOKEN_BYTES)
        self.write(A_AUTH, AUTH_TOKEN, 0, self.token)

    def authenticate(self, kind: int, data: bytes) -> None:
        """Check an AUTH answer: a good signature gets the CNXN, a wrong one a new token, a public key the door."""
        if self.is_authenticated or self.keys is None:
            return  # adbd ignores AUTH on a connection that is already up
        if kind == AUTH_SIGNATURE and self.token is not None:
            if self.keys.verify(self.token, data):
                self.is_authenticated, self.token = True, None
                self.write(A_CNXN, VERSION, MAX_PAYLOAD, self.target.banner().encode())
                return
            self.auth_failures += 1
            if self.auth_failures >= MAX_AUTH_FAILURES:
                raise _Refused(f"{self.auth_failures} signatures by keys not among {self.keys.source}")
            self.challenge()  # adb signs again with its next key, then offers its public key
        elif kind == AUTH_RSAPUBLICKEY:
            offered = data.rstrip(b"\0").decode("ascii", "replace")
            raise _Refused(f"it offered the public key {offered[:24]}...{offered[-40:]!r}, which is not among "
                           f"{self.keys.source} (a real device would ask on its screen; this one cannot). To allow it "
                           "deliberately, serve the endpoint with AdbdEndpoint(authorized_keys=AuthorizedKeys.load("
                           "<that adbkey.pub>)), or with is_secure=False for no authentication at all")
        else:
            raise _Refused(f"AUTH type {kind} before a token was sent")

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
    and the target's hangs; when secure, no service runs for a connection before it signed a token with an
    authorized key. Constructing starts nothing (nor reads a key).

    Args:
        target: the phone to serve (a fresh one called "sim-adbd" when None).
        host: interface to listen on.
        port: TCP port, 0 for a free one. Avoid 5555-5585 unless you want a local adb server to auto-discover it
            as `emulator-<port - 1>`.
        is_secure: ask for AUTH (`ro.adb.secure=1`, the default); False serves anyone who connects
            (`ro.adb.secure=0`), for tests that need an insecure device.
        authorized_keys: the keys whose signatures are accepted; None: the user's key pair
            (`AuthorizedKeys.of_user()`, read or made by `start()`), what our clients and a real adb server sign with.
    """

    def __init__(self, target: SimTarget | None = None, host: str = "127.0.0.1", port: int = 0,
                 is_secure: bool = True, authorized_keys: AuthorizedKeys | None = None) -> None:
        self.target = target or SimTarget("sim-adbd")
        self.is_secure, self.authorized_keys = is_secure, authorized_keys
        self._listener = TcpListener(self._connection, host, port, name="adbd")

    def start(self) -> AdbdEndpoint:
        """Bind and accept connections (idempotent); a secure endpoint first loads its keys.

        Raises:
            UnsafePathError, ConfigError: the user's key file is a link, not private, or not a key (see
                `AdbKey.load`).
            OSError: the port is taken.
        """
        if self._listener.port is None:
            if self.is_secure and self.authorized_keys is None:
                self.authorized_keys = AuthorizedKeys.of_user()
            self.target.props["ro.adb.secure"] = "1" if self.is_secure else "0"
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
        port = self._listener.port
        if port is None:  # accepted just as the endpoint stopped: dropped, as a stopping adbd drops it
            sock.close()
            return
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _Connection(sock, self.target, self.authorized_keys if self.is_secure else None, port).run()


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)
