"""`AdbdClient`: the host side of the ADB transport (what an adb server speaks to a device's adbd over TCP).

It speaks what `adbd.py` serves and what an emulator's adbd accepts: CNXN handshake (version 0x01000001, no payload
checksums), authenticated as adb authenticates: an `AUTH TOKEN` is answered with its signature by the user's adb key
(`adbkey.AdbKey`, `~/.android/adbkey`), and a second token (the signature was refused) with the public key, which a
phone shows in its prompt and our adbd refuses; then one `AdbdStream` per service — OPEN, OKAY, WRTE, CLSE — with
the legacy flow control (one WRTE in flight per stream, each acknowledged by an OKAY). One reader thread per
connection hands packets to streams by local id, so many streams share a connection.
`RemoteTarget` is a device the ADB front serves through such a client.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections import deque
from collections.abc import Callable

from android_gym.errors import DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError, EnvStateError
from android_gym.sim.adb.adbd import A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, MAX_PAYLOAD, VERSION
from android_gym.sim.adb.adbkey import AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, AdbKey

_HEADER = struct.Struct("<6I")  # command, arg0, arg1, payload length, checksum, magic


class AdbdStream:
    """One service stream of an `AdbdClient`, made by `AdbdClient.open`.

    Guarantees: `send` returns once every chunk was acknowledged; `recv` returns delivered bytes in order, then b""
    once the device closed the stream (or `close()` was called). Acknowledgement of a received WRTE waits until its
    bytes are read, so a slow reader slows the device down instead of growing a buffer.
    """

    def __init__(self, client: AdbdClient, local: int, service: str) -> None:
        self.client, self.local, self.remote, self.service = client, local, 0, service
        self._cond = threading.Condition()
        self._state = "opening"  # -> "open" -> "closed"; "refused" when the OPEN is answered by CLSE
        self._inbox: deque[bytes] = deque()
        self._is_acked = True  # our last WRTE was acknowledged
        self._owes_ack = False  # a WRTE was received and not yet acknowledged
        self._is_accepted = False  # the device answered the OPEN with OKAY (it may have closed since)

    @property
    def is_closed(self) -> bool:
        """Whether the stream was closed by either side."""
        return self._state in ("closed", "refused")

    def send(self, data: bytes) -> None:
        """Send `data` as WRTEs of at most the device's max payload, waiting for each one's OKAY.

        Raises:
            DeviceTimeoutError: a chunk was not acknowledged within the client's `timeout_s` seconds.
            DeviceOfflineError: the stream or the connection is closed.
        """
        view = memoryview(data)
        for i in range(0, len(view), self.client.max_payload):
            with self._cond:
                self._wait(lambda: self._is_acked or self.is_closed, "an OKAY for the previous write")
                if self.is_closed:
                    raise DeviceOfflineError(f"cannot write to {self.service!r}: the stream is closed")
                self._is_acked = False
            self.client.write(A_WRTE, self.local, self.remote, bytes(view[i:i + self.client.max_payload]))

    def recv(self, n: int, timeout_s: float | None = None) -> bytes:
        """Up to `n` bytes; b"" once the stream is closed and drained.

        Args:
            n: most bytes to return.
            timeout_s: seconds to wait for data (default: the client's `timeout_s`).

        Raises:
            DeviceTimeoutError: nothing arrived within `timeout_s` seconds.
        """
        with self._cond:
            self._wait(lambda: bool(self._inbox) or self.is_closed, "data", timeout_s)
            if not self._inbox or self._state == "refused":
                return b""
            chunk = self._inbox.popleft()
            if len(chunk) > n:
                self._inbox.appendleft(chunk[n:])
                chunk = chunk[:n]
            must_ack = self._owes_ack and not self._inbox and not self.is_closed
            self._owes_ack = self._owes_ack and not must_ack
        if must_ack:
            self.client.write(A_OKAY, self.local, self.remote)
        return chunk

    def close(self) -> None:
        """Close the stream (idempotent); sends CLSE unless the device closed it first.

        Bytes not yet read are dropped, unless the device closed first (then `recv` still drains them).
        """
        with self._cond:
            was_open = self._state in ("opening", "open")
            if was_open:
                self._state = "closed"
                self._inbox.clear()
            self._cond.notify_all()
        self.client.forget(self.local)
        if was_open:
            try:
                self.client.write(A_CLSE, self.local, self.remote)
            except DeviceOfflineError:
                pass

    def wait_open(self) -> None:
        """Block until the device accepts the OPEN (for `AdbdClient.open`)."""
        with self._cond:
            self._wait(lambda: self._state != "opening", f"the device to accept {self.service!r}")
            state = self._state
        if self._is_accepted:
            return  # even if it already sent its output and closed
        if state == "refused":
            raise DeviceProtocolError(f"the device refused service {self.service!r} (its adbd answered CLSE to "
                                      "OPEN); check the service name and that the device offers it")
        if state == "closed":
            raise DeviceOfflineError(f"the connection closed while opening {self.service!r}")

    # -- called by the client's reader thread ------------------------------------------------------------------------
    def on_okay(self, remote: int) -> None:
        """The device accepted the OPEN or acknowledged a WRTE."""
        with self._cond:
            if self._state == "opening":
                self.remote, self._state, self._is_accepted = remote, "open", True
            else:
                self._is_acked = True
            self._cond.notify_all()

    def on_write(self, data: bytes) -> None:
        """The device sent bytes (acknowledged once they are read)."""
        with self._cond:
            self._inbox.append(data)
            self._owes_ack = True
            self._cond.notify_all()

    def on_close(self) -> None:
        """The device closed the stream (or refused the OPEN), or the connection died."""
        with self._cond:
            self._state = "refused" if self._state == "opening" and self.client.is_connected else "closed"
            self._cond.notify_all()

    def _wait(self, ready: Callable[[], bool], what: str, timeout_s: float | None = None) -> None:
        timeout_s = self.client.timeout_s if timeout_s is None else timeout_s
        if not self._cond.wait_for(ready, timeout_s):
            raise DeviceTimeoutError(f"no {what} on {self.service!r} from {self.client.address} within "
                                     f"{timeout_s:g} s")


class AdbdClient:
    """A connection to a device's adbd over TCP, carrying any number of concurrent `AdbdStream`s.

    Guarantees: every wait (handshake, OPEN, each write's OKAY, reads) ends within `timeout_s` seconds with a
    `DeviceTimeoutError`; `close()` closes every stream and the socket. Constructing connects nothing: call
    `connect()` (or use `with`).

    Args:
        host: the device's address.
        port: its adbd TCP port (an emulator's is its console port + 1).
        timeout_s: seconds any single wait may take.
        key: the key to answer AUTH with; None: the user's (`AdbKey.load_or_create()`, read by `connect()`).
    """

    def __init__(self, host: str, port: int, timeout_s: float = 10.0, key: AdbKey | None = None) -> None:
        self.host, self.port, self.timeout_s, self.key = host, port, timeout_s, key
        self.auth_answers = 0  # AUTH packets sent: 1 signature, then the public key
        self.banner = ""
        self.max_payload = MAX_PAYLOAD
        self._sock: socket.socket | None = None
        self._write_lock = threading.Lock()
        self._lock = threading.Condition()
        self._streams: dict[int, AdbdStream] = {}
        self._next_id = 1
        self._handshake: str | None = None  # "cnxn", "unauthorized", "closed" or "garbage" once the device answered
        self._is_closed = False

    @property
    def address(self) -> str:
        """"host:port"."""
        return f"{self.host}:{self.port}"

    @property
    def is_unauthorized(self) -> bool:
        """Whether the device refused our key (it closed the handshake after our AUTH answers)."""
        return self._handshake == "unauthorized"

    @property
    def is_connected(self) -> bool:
        """Whether the handshake succeeded and the connection is still up."""
        return self._handshake == "cnxn" and not self._is_closed

    def connect(self, timeout_s: float | None = None) -> str:
        """Open the TCP connection and do the CNXN handshake; returns the device's banner ("device::ro...").

        Args:
            timeout_s: seconds for the whole handshake (default: `timeout_s`).

        Raises:
            EnvStateError: already connected.
            DeviceTimeoutError: no answer within `timeout_s` seconds (something listens but does not speak adbd, or
                a phone still shows its prompt for our key).
            DeviceOfflineError: refused, or closed before answering (not an adbd).
            DeviceProtocolError: the device refused our key (`is_unauthorized`), or answered garbage.
            UnsafePathError, ConfigError: the user's key file is a link, not private, or not a key.
        """
        if self._sock is not None:
            raise EnvStateError(f"AdbdClient({self.address}) is already connected; make a new client to reconnect")
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        if self.key is None:
            self.key = AdbKey.load_or_create()
        try:
            self._sock = socket.create_connection((self.host, self.port), timeout=timeout_s)
        except TimeoutError as e:
            raise DeviceTimeoutError(f"connecting to adbd at {self.address} took over {timeout_s:g} s") from e
        except OSError as e:
            raise DeviceOfflineError(f"cannot connect to adbd at {self.address}: {e}") from e
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.settimeout(self.timeout_s)  # bounds sendall; the reader retries its timeouts
        threading.Thread(target=self._read_loop, args=(self._sock,), name=f"adbd-client:{self.port}",
                         daemon=True).start()
        try:
            self.write(A_CNXN, VERSION, MAX_PAYLOAD, b"host::\0")
        except (DeviceOfflineError, DeviceTimeoutError):
            pass  # the peer hung up first: the reader records the outcome below
        with self._lock:
            answered = self._lock.wait_for(lambda: self._handshake is not None, timeout_s)
        outcome = self._handshake
        if outcome == "cnxn":
            return self.banner
        self.close()
        if not answered:
            if self.auth_answers > 1:
                raise DeviceTimeoutError(f"adbd at {self.address} did not accept our public key within {timeout_s:g} "
                                         "s: accept the USB debugging prompt on the device")
            raise DeviceTimeoutError(f"{self.address} sent no CNXN within {timeout_s:g} s: is it an adbd?")
        if outcome == "unauthorized":
            where = self.key.path if self.key is not None and self.key.path else "our adb key"
            raise DeviceProtocolError(f"adbd at {self.address} refused {where}: it is not among the device's "
                                      f"authorized keys. To allow it deliberately, add {where}.pub to them (an "
                                      "emulator trusts the adbkey.pub in the home of the user who started it), or "
                                      "turn authentication off on the device (ro.adb.secure=0)")
        if outcome == "garbage":
            raise DeviceProtocolError(f"{self.address} answered the CNXN with something that is not ADB")
        raise DeviceOfflineError(f"{self.address} closed the connection during the CNXN handshake: is it an adbd?")

    def open(self, service: str) -> AdbdStream:
        """Open `service` ("shell,v2,raw:wm size", "sync:", ...) and wait for the device to accept it.

        Raises:
            EnvStateError: not connected (call `connect()` first).
            DeviceProtocolError: the device refused the service (CLSE).
            DeviceTimeoutError: no answer within `timeout_s` seconds.
            DeviceOfflineError: the connection died.
        """
        if not self.is_connected:
            raise EnvStateError(f"AdbdClient({self.address}) is not connected; call connect() before open()")
        with self._lock:
            stream = AdbdStream(self, self._next_id, service)
            self._streams[stream.local] = stream
            self._next_id += 1
        try:
            self.write(A_OPEN, stream.local, 0, service.encode() + b"\0")
            stream.wait_open()
        except BaseException:
            stream.close()
            raise
        return stream

    def write(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        """Send one packet (streams call this).

        Raises:
            DeviceOfflineError: the connection is closed.
            DeviceTimeoutError: the device did not take the bytes within `timeout_s` seconds (the client closes).
        """
        sock = self._sock
        if sock is None or self._is_closed:
            raise DeviceOfflineError(f"the connection to adbd at {self.address} is closed")
        packet = _HEADER.pack(command, arg0, arg1, len(data), 0, command ^ 0xFFFFFFFF) + data
        try:
            with self._write_lock:
                sock.sendall(packet)
        except TimeoutError as e:
            self.close()  # a partial packet leaves the connection unusable
            raise DeviceTimeoutError(f"adbd at {self.address} took no data for {self.timeout_s:g} s") from e
        except OSError as e:
            self.close()
            raise DeviceOfflineError(f"the connection to adbd at {self.address} dropped: {e}") from e

    def forget(self, local: int) -> None:
        """Drop a closed stream from the dispatch table (streams call this)."""
        with self._lock:
            self._streams.pop(local, None)

    def close(self) -> None:
        """Close every stream and the socket (idempotent)."""
        with self._lock:
            self._is_closed = True
            streams, self._streams = list(self._streams.values()), {}
            self._lock.notify_all()
        for stream in streams:
            stream.on_close()
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._sock.close()

    def __enter__(self) -> AdbdClient:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the reader thread ------------------------------------------------------------------------------------------
    def _read_loop(self, sock: socket.socket) -> None:
        outcome = "closed"
        try:
            while (packet := self._read_packet(sock)) is not None:
                self._dispatch(*packet)
        except ValueError:
            outcome = "garbage"
        except OSError:
            pass
        with self._lock:
            if self._handshake is None:
                self._handshake = "unauthorized" if self.auth_answers and outcome == "closed" else outcome
        self.close()

    def _read_packet(self, sock: socket.socket) -> tuple[int, int, int, bytes] | None:
        header = self._recv_exact(sock, _HEADER.size)
        if header is None:
            return None
        command, arg0, arg1, length, _, magic = _HEADER.unpack(header)
        if magic != command ^ 0xFFFFFFFF or length > 16 * MAX_PAYLOAD:
            raise ValueError("bad adb message header")
        data = self._recv_exact(sock, length) if length else b""
        return None if data is None else (command, arg0, arg1, data)

    def _recv_exact(self, sock: socket.socket, n: int) -> bytes | None:
        buf = bytearray()
        while len(buf) < n and not self._is_closed:
            try:
                chunk = sock.recv(n - len(buf))
            except TimeoutError:
                continue  # the socket's timeout bounds writes; an idle connection is fine
            if not chunk:
                return None
            buf += chunk
        return bytes(buf) if len(buf) == n else None

    def _dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            with self._lock:
                self.banner = data.rstrip(b"\0").decode("utf-8", "replace")
                self.max_payload = max(1, min(arg1, MAX_PAYLOAD))
                self._handshake = self._handshake or "cnxn"
                self._lock.notify_all()
            return
        if command == A_AUTH:
            self._answer_auth(arg0, data)
            return
        with self._lock:
            stream = self._streams.get(arg1)
        if stream is None:
            return  # a stream we already closed
        if command == A_OKAY:
            stream.on_okay(arg0)
        elif command == A_WRTE:
            stream.on_write(data)
        elif command == A_CLSE:
            self.forget(arg1)
            stream.on_close()


    def _answer_auth(self, kind: int, token: bytes) -> None:
        """Sign the first token; offer the public key for the second (adb's order); then wait for the device."""
        if kind != AUTH_TOKEN or self._handshake is not None or self.key is None:
            return
        self.auth_answers += 1
        try:
            if self.auth_answers == 1:
                self.write(A_AUTH, AUTH_SIGNATURE, 0, self.key.sign(token))
            elif self.auth_answers == 2:
                self.write(A_AUTH, AUTH_RSAPUBLICKEY, 0, self.key.public_text().encode() + b"\0")
        except (DeviceOfflineError, DeviceTimeoutError):
            pass  # the device hung up: the reader records the outcome


def parse_banner(banner: str) -> tuple[dict[str, str], str]:
    """The properties and feature list of a device banner.

    >>> parse_banner("device::ro.product.model=Pixel;features=shell_v2,cmd")
    ({'ro.product.model': 'Pixel'}, 'shell_v2,cmd')
    """
    props = dict(item.split("=", 1) for item in banner.partition("::")[2].split(";") if "=" in item)
    return props, props.pop("features", "")


class RemoteTarget:
    """A device the ADB front serves through the device's own adbd (an emulator process hosting its phone).

    Guarantees: it reads like a `SimTarget` to the host services (serial, state, props, features, liveness,
    transport id); its device services are forwarded over `client` by the front. Its props are those of the CNXN
    banner (product name, model, device).

    Args:
        serial: the serial clients select it by ("emulator-5554").
        client: a connected `AdbdClient` (the target closes it in `close()`).
    """

    def __init__(self, serial: str, client: AdbdClient) -> None:
        self.serial, self.client = serial, client
        self.props, self._features = parse_banner(client.banner)
        self.is_connected = True
        self.offline_requests = 0
        self.transport_id = 0
        self.state = "device"

    def alive(self) -> bool:
        """Whether the connection to its adbd is up."""
        return self.client.is_connected

    def features(self) -> str:
        """The feature list its adbd advertised."""
        return self._features

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self.client.close()

