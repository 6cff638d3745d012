"""`AdbFront`: a loopback ADB server (the host protocol of port 5037) whose devices are simulated phones.

It speaks what `adbutils` and the `adb` command line send: `host:version`, `host:devices[-l]`, `host:track-devices`,
`host:transport…`/`host:tport:…`, `host-serial:<s>:features|get-state|get-serialno`, `host:connect`/`disconnect`,
`host:emulator:<port>` (an emulator announcing itself), `host:kill`, then the device services of `services.py`.
An emulator whose adb port speaks adbd is served as a real adb server serves it: the front connects to its adbd
(`adbd_client.py`, signing its AUTH token with the user's adb key) and forwards each device service there, copying
bytes both ways. Announcements are taken from our own user only, and never replace a live device (issue 43; see
`host_services._emulator`).

>>> import adbutils
>>> with AdbFront(devices=1, perturbations="none") as front:
...     client = adbutils.AdbClient(port=front.port, socket_timeout=5)
...     print(client.device("sim-0").shell("wm size"))
Physical size: 1080x2400
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Collection, Sequence
from typing import TypeVar

from android_gym.errors import ConfigError, DeviceError, DeviceProtocolError, DeviceTimeoutError, UnsupportedError
from android_gym.heap import return_freed_memory
from android_gym.sim.adb import peers
from android_gym.sim.adb.adbd_client import AdbdStream, RemoteTarget
from android_gym.sim.adb.faults import FaultConfig
from android_gym.sim.adb.host_services import Target, host_service
from android_gym.sim.adb.services import serve
from android_gym.sim.adb.smart_socket import SocketStream, fail, read_request
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.render.shared import SharedRenderer
from android_gym.sim.tcp_listener import TcpListener

FORWARD_POLL_S = 1.0  # how often a forwarding thread waiting on an emulator's output checks for `stop()`
_FORWARD_CHUNK = 256 * 1024  # bytes read from either side at once (adbd's max payload)
_T = TypeVar("_T", SimTarget, RemoteTarget)


class AdbFront:
    """Simulated phones served over the ADB host protocol on `host:port` (loopback by default).

    Guarantees: each request is answered (or faulted) on its own thread, so a hung request never blocks others;
    `stop()` ends every hang and closes every connection. Constructing starts nothing: call `start()` or use `with`.
    `start()` also starts the process's heap trimming (`android_gym.heap`): each request renders and frees frames of
    several MB on its own thread, which glibc would otherwise keep resident in that thread's arena.

    Args:
        devices: how many phones ("sim-0", "sim-1", ...), or their serials, or ready `SimTarget`s.
        host: interface to listen on (keep loopback: the protocol has no authentication).
        port: TCP port; 0 picks a free one (read it from `port` after `start()`).
        perturbations: the phones' pop-up/spinner level.
        faults: fault injection shared by the phones built here.
        emulator_boot_s: seconds an emulator that announces itself (`host:emulator`) takes to boot; inf = never.
        trusted_uids: users besides our own whose emulators may announce themselves (`host:emulator`); the
            announcing process and the one listening on the announced port must each be ours or one of these.
            None turns the check off (any local user could then register a device: only for a single-user machine).

    Attributes:
        peer_uid: maps a client's socket to the uid of the process at its other end (None: unknown);
            `peers.peer_uid` (Linux `/proc/net/tcp`). Tests replace it to play another user.
        listener_uids: maps a port to the uids listening on it (`peers.listener_uids`).
    """

    def __init__(self, devices: int | Sequence[str | SimTarget] = 1, host: str = "127.0.0.1", port: int = 0,
                 perturbations: str | dict | None = "default", faults: FaultConfig | None = None,
                 emulator_boot_s: float = 0.0, trusted_uids: Collection[int] | None = ()) -> None:
        if isinstance(devices, int) and devices < 0:
            raise ConfigError(f"`devices` must be >= 0, got {devices}")
        self.perturbations, self.fault_config, self.emulator_boot_s = perturbations, faults, emulator_boot_s
        self.trusted_uids = None if trusted_uids is None else frozenset(trusted_uids)
        self.peer_uid = peers.peer_uid
        self.listener_uids = peers.listener_uids
        specs = [f"sim-{i}" for i in range(devices)] if isinstance(devices, int) else list(devices)
        self.targets: dict[str, Target] = {}
        self.renderer = SharedRenderer()  # one set of render caches for every phone built here
        self._next_id = 1
        self._lock = threading.Lock()
        for spec in specs:
            self.add(spec if isinstance(spec, SimTarget) else SimTarget(spec, perturbations, faults,
                                                                        renderer=self.renderer))
        self._listener = TcpListener(self._handle, host, port, backlog=64, name="adb-front")
        self._stop = threading.Event()
        self.requests = 0

    # -- lifecycle -----------------------------------------------------------------------------------------------------
    def start(self) -> AdbFront:
        """Bind and start accepting (idempotent); returns self."""
        if self._listener.port is None:
            return_freed_memory()
            self._stop.clear()
            self._listener.start()
        return self

    def stop(self) -> None:
        """Stop accepting, end hangs, close every connection (idempotent)."""
        self._stop.set()
        for target in list(self.targets.values()):
            if isinstance(target, RemoteTarget):
                target.close()
            else:
                target.stop_event.set()
        self._listener.close()

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the front stops (`stop()` or `host:kill`) or `timeout_s` passes; True if it stopped."""
        return self._stop.wait(timeout_s)

    def __enter__(self) -> AdbFront:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The TCP port served (after `start()`)."""
        port = self._listener.port
        if port is None:
            raise ConfigError("the ADB front is not started; call start() first")
        return port

    def add(self, target: _T) -> _T:
        """Serve `target` (replacing one with the same serial: a replaced `RemoteTarget` is closed)."""
        with self._lock:
            target.transport_id = self._next_id
            self._next_id += 1
            old, self.targets[target.serial] = self.targets.get(target.serial), target
        if isinstance(old, RemoteTarget) and old is not target:
            old.close()
        return target

    def remove(self, serial: str) -> None:
        """Stop serving `serial` (a `RemoteTarget`'s connection is closed); nothing happens for an unknown serial."""
        with self._lock:
            old = self.targets.pop(serial, None)
        if isinstance(old, RemoteTarget):
            old.close()
        elif old is not None:
            old.stop_event.set()

    def target(self, serial: str) -> SimTarget:
        """The simulated phone served as `serial`.

        Raises:
            KeyError: no target has that serial.
            UnsupportedError: `serial` is an emulator served through its own adbd: its phone lives in that process.
        """
        target = self.targets[serial]
        if isinstance(target, RemoteTarget):
            raise UnsupportedError(f"`{serial}` is an emulator reached through its adbd at {target.client.address}; "
                                   "its phone lives in that process: drive it over ADB (or ask that process)")
        return target

    # -- connections ---------------------------------------------------------------------------------------------------
    def _handle(self, sock: socket.socket) -> None:
        stream = SocketStream(sock)
        try:
            sock.settimeout(30.0)  # a client that stops mid-request is dropped, not waited on forever
            self._requests(stream)
        except (OSError, ValueError, EOFError):
            pass  # the client went away or sent garbage: drop it, as adb does
        finally:
            stream.close()

    def _requests(self, stream: SocketStream) -> None:
        target: Target | None = None
        while not self._stop.is_set():
            request = read_request(stream)
            if request is None:
                return
            self.requests += 1
            if isinstance(target, RemoteTarget):
                self._forward(target, request, stream)
                return
            if target is not None:
                serve(target, request, stream, lambda: stream.send(b"OKAY"), lambda m: fail(stream, m))
                return
            if request.startswith(("host:transport", "host:tport:")):
                target = self._select(stream, request)
                if target is None:
                    return
                continue
            self._host(stream, request)
            return

    def _select(self, stream: SocketStream, request: str) -> Target | None:
        for prefix in ("host:tport:serial:", "host:transport:"):
            if request.startswith(prefix):
                serial = request[len(prefix):]
                break
        else:
            serial = None  # transport-any / tport:any / transport-local / -usb
        target, error = self.lookup(serial)
        if target is None or target.offline_requests > 0:
            if target is not None:
                target.offline_requests -= 1
            fail(stream, error or "device offline")
            return None
        stream.send(b"OKAY" + (target.transport_id.to_bytes(8, "little") if "tport" in request else b""))
        return target

    @property
    def stopping(self) -> bool:
        """Whether `stop()` (or `host:kill`) has been called."""
        return self._stop.is_set()

    def lookup(self, serial: str | None) -> tuple[Target | None, str]:
        """The connected, live target `serial` (None: the only one), or (None, adb's error message)."""
        with self._lock:
            for s, t in list(self.targets.items()):
                if not t.alive():
                    del self.targets[s]
                    if isinstance(t, RemoteTarget):
                        t.close()
            visible = [t for t in self.targets.values() if t.is_connected]
        if serial is None:
            if len(visible) != 1:
                return None, "no devices/emulators found" if not visible else "more than one device/emulator"
            return visible[0], ""
        for t in visible:
            if t.serial == serial:
                return t, ""
        return None, f"device '{serial}' not found"

    def _host(self, stream: SocketStream, request: str) -> None:
        host_service(self, stream, request)


    # -- forwarding to an emulator's adbd ------------------------------------------------------------------------------
    def _forward(self, target: RemoteTarget, service: str, stream: SocketStream) -> None:
        """Open `service` on the target's adbd, answer the client, then copy bytes both ways until either side closes.

        A refused OPEN is answered `FAIL closed`, as adb answers it; a dead or silent adbd `FAIL device offline`.
        """
        try:
            remote = target.client.open(service)
        except DeviceProtocolError:
            fail(stream, "closed")
            return
        except DeviceError as e:
            fail(stream, f"device offline ({e})")
            return
        try:
            stream.send(b"OKAY")
            threading.Thread(target=_copy_to_device, args=(stream, remote), name=f"adb-forward:{target.serial}",
                             daemon=True).start()
            while not self._stop.is_set():
                try:
                    data = remote.recv(_FORWARD_CHUNK, timeout_s=FORWARD_POLL_S)
                except DeviceTimeoutError:
                    continue  # a command still running on the device
                if not data:
                    return
                stream.send(data)
        finally:
            remote.close()  # the caller closes the client's socket, which ends `_copy_to_device`


def _copy_to_device(stream: SocketStream, remote: AdbdStream) -> None:
    """Copy what the client sends to the device's stream until the client hangs up or the stream closes."""
    try:
        while not remote.is_closed:
            try:
                data = stream.recv(_FORWARD_CHUNK)
            except TimeoutError:
                continue  # the client is waiting for output; the front's socket timeout is not a hang-up here
            if not data:
                return
            remote.send(data)
    except (OSError, DeviceError):
        pass
    finally:
        remote.close()
