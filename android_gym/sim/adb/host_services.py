"""Host services of the ADB front: the `host:` and `host-serial:` requests that do not open a device stream."""

from __future__ import annotations

import logging
import os
import re
import select
import socket
import threading
from collections.abc import Callable, Collection
from typing import Protocol

from android_gym.errors import DeviceError
from android_gym.sim.adb.adbd_client import AdbdClient, RemoteTarget
from android_gym.sim.adb.faults import FaultConfig
from android_gym.sim.adb.smart_socket import SERVER_VERSION, SocketStream, fail, okay_block
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.render.shared import SharedRenderer

EMULATOR_PROBE_S = 1.0
"""Seconds an announced emulator's adb port has to answer a CNXN before the front serves a phone of its own there
(loopback adbd answers in milliseconds; today's fake emulator hangs up at once)."""
EMULATOR_TIMEOUT_S = 30.0
"""Seconds any single wait on a forwarded emulator's adbd may take (as long as the front waits on its clients)."""

Target = SimTarget | RemoteTarget
log = logging.getLogger(__name__)


class Front(Protocol):
    """What host services read and change of the ADB front that received the request (`AdbFront` implements it)."""

    targets: dict[str, Target]
    perturbations: str | dict | None
    fault_config: FaultConfig | None
    emulator_boot_s: float
    renderer: SharedRenderer
    trusted_uids: Collection[int] | None
    peer_uid: Callable[[socket.socket], int | None]
    listener_uids: Callable[[int], set[int]]

    @property
    def stopping(self) -> bool:
        """Whether the front is stopping."""
        ...

    def add(self, target: Target) -> Target:
        """Serve `target`."""
        ...

    def lookup(self, serial: str | None) -> tuple[Target | None, str]:
        """The target `serial` (None: the only one), or (None, adb's error message)."""
        ...

    def stop(self) -> None:
        """Stop serving."""
        ...


HostHandler = Callable[[Front, SocketStream, str], None]


def _devices_text(front: Front, long: bool) -> str:
    lines = []
    for t in list(front.targets.values()):
        if not t.is_connected or not t.alive():
            continue
        if long:
            p = {k: t.props.get(f"ro.product.{k}", "unknown") for k in ("name", "model", "device")}
            lines.append(f"{t.serial:<22} {t.state} product:{p['name']} model:{p['model']} device:{p['device']} "
                         f"transport_id:{t.transport_id}")
        else:
            lines.append(f"{t.serial}\t{t.state}")
    return "".join(line + "\n" for line in lines)


def _version(front: Front, stream: SocketStream, arg: str) -> None:
    okay_block(stream, f"{SERVER_VERSION:04x}")


def _devices(front: Front, stream: SocketStream, arg: str) -> None:
    okay_block(stream, _devices_text(front, long=arg == "-l"))


def _track(front: Front, stream: SocketStream, arg: str) -> None:
    """Send the device list now and again whenever it changes, until the client hangs up."""
    stream.send(b"OKAY")
    last = None
    while not front.stopping:
        text = _devices_text(front, long=arg == "-l")
        if text != last:
            data = text.encode()
            stream.send(f"{len(data):04x}".encode() + data)
            last = text
        readable, _, _ = select.select([stream.sock], [], [], 0.1)
        if readable and not stream.sock.recv(1, socket.MSG_PEEK):
            return


def _kill(front: Front, stream: SocketStream, arg: str) -> None:
    stream.send(b"OKAY")
    threading.Thread(target=front.stop, daemon=True).start()


def _connect(front: Front, stream: SocketStream, arg: str) -> None:
    addr = arg if ":" in arg else f"{arg}:5555"
    target = front.targets.get(addr)
    if target is None:
        okay_block(stream, f"failed to connect to '{addr}': Connection refused")
    elif target.is_connected:
        okay_block(stream, f"already connected to {addr}")
    else:
        target.is_connected = True
        okay_block(stream, f"connected to {addr}")


def _disconnect(front: Front, stream: SocketStream, arg: str) -> None:
    target = front.targets.get(arg)
    if target is None or not target.is_connected:
        fail(stream, f"no such device '{arg}'")
        return
    target.is_connected = False
    okay_block(stream, f"disconnected {arg}")


def _emulator(front: Front, stream: SocketStream, arg: str) -> None:
    """An emulator announces its adb port, as a real one does to its adb server; answered OKAY, or FAIL and why.

    Only our own user's emulators are taken (issue 43): the announcing process and the process listening on the port
    must both belong to our uid (or to `front.trusted_uids`), and an announcement never replaces a live device of
    another origin (a phone of the front's own, or an emulator announced on another port).
    If the port speaks adbd, the front connects to it, as adb does, and forwards the device services of
    `emulator-<port - 1>` there (a `RemoteTarget`, listed while the connection lasts). Otherwise (a fake emulator that
    only listens) the front serves a phone of its own under that serial, listed while something listens on the port.
    """
    if not arg.isdigit() or not 1 < int(arg) < 65536:
        fail(stream, f"refused host:emulator:{arg[:20]}: the adb port must be a number in 2..65535")
        return
    port, serial = int(arg), f"emulator-{int(arg) - 1}"
    refusal = _announcement_refusal(front, stream.sock, port) or _replacement_refusal(front, serial, port)
    if refusal:
        log.warning("ADB front: %s", refusal)
        fail(stream, refusal)
        return
    known = front.targets.get(serial)
    if isinstance(known, RemoteTarget) and known.alive():
        stream.send(b"OKAY")  # announced again while connected: keep the connection (and the streams on it)
        return
    client = AdbdClient("127.0.0.1", port, timeout_s=EMULATOR_TIMEOUT_S)
    try:
        client.connect(timeout_s=EMULATOR_PROBE_S)
    except DeviceError as e:
        if client.is_unauthorized:  # an adbd that refused our key is no fake emulator: serve nothing for it
            log.warning("ADB front: refused host:emulator:%d: %s", port, e)
            fail(stream, f"refused host:emulator:{port}: {e}")
            return
        _local_emulator(front, port)
        stream.send(b"OKAY")
        return
    front.add(RemoteTarget(serial, client))
    stream.send(b"OKAY")


def _announcement_refusal(front: Front, sock: socket.socket, port: int) -> str:
    """Why the announcement of `port` on `sock` is refused ("": it is not): another user announced it or serves it."""
    if front.trusted_uids is None:
        return ""  # the check is off (AdbFront(trusted_uids=None))
    allowed = {os.getuid(), *front.trusted_uids}
    how = (f"this front takes emulators of uid {sorted(allowed)} only. To allow that user deliberately, start the "
           "front with AdbFront(trusted_uids={{{UID}}})")
    announcer = front.peer_uid(sock)
    if announcer is not None and announcer not in allowed:
        return f"refused host:emulator:{port} from a process of uid {announcer}: {how.format(UID=announcer)}"
    owners = front.listener_uids(port)
    if not owners:
        return (f"refused host:emulator:{port}: nothing this front can see listens on 127.0.0.1:{port} (it must be "
                "the emulator's adb port, served by the announcing user)")
    if foreign := sorted(owners - allowed):
        return (f"refused host:emulator:{port}: port {port} is served by a process of uid {foreign[0]}: "
                f"{how.format(UID=foreign[0])}")
    return ""


def _replacement_refusal(front: Front, serial: str, port: int) -> str:
    """Why registering `serial` for `port` would replace a live device ("": it would not)."""
    known = front.targets.get(serial)
    if known is None or not known.alive():
        return ""
    if isinstance(known, RemoteTarget) and known.client.port == port:
        return ""  # the same emulator announced again
    if isinstance(known, SimTarget) and known.announced_port == port:
        return ""  # a phone the front serves for this port's (fake) emulator: a relaunch replaces it
    origin = (f"an emulator reached through its adbd at {known.client.address}" if isinstance(known, RemoteTarget)
              else "a phone of this front's own")
    return (f"refused host:emulator:{port}: {serial} is live ({origin}) and an announcement never replaces a live "
            f"device. Stop it first (or remove it with AdbFront.remove({serial!r})) to let an emulator take the "
            "serial")


def _local_emulator(front: Front, port: int) -> None:
    target = SimTarget(f"emulator-{port - 1}", front.perturbations, front.fault_config, renderer=front.renderer)
    target.announced_port = port
    target.alive = lambda: _listening(port)
    if front.emulator_boot_s > 0:
        target.props["sys.boot_completed"] = ""
        if front.emulator_boot_s != float("inf"):
            timer = threading.Timer(front.emulator_boot_s, target.props.__setitem__, ("sys.boot_completed", "1"))
            timer.daemon = True
            timer.start()
    front.add(target)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _host_features(front: Front, stream: SocketStream, arg: str) -> None:
    okay_block(stream, "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,abb_exec")


_HOST: dict[str, HostHandler] = {
    "version": _version, "devices": _devices, "devices-l": lambda f, s, a: _devices(f, s, "-l"),
    "track-devices": _track, "track-devices-l": lambda f, s, a: _track(f, s, "-l"), "kill": _kill,
    "connect": _connect, "disconnect": _disconnect, "emulator": _emulator, "host-features": _host_features,
}

_DEVICE_QUERIES = {"features", "get-state", "get-serialno", "get-devpath", "list-forward", "host-features"}


def _device_query(front: Front, stream: SocketStream, serial: str | None, query: str) -> None:
    if query == "host-features":
        _host_features(front, stream, "")
        return
    target, error = front.lookup(serial)
    if target is not None and target.offline_requests > 0:
        target.offline_requests -= 1  # an offline spell lasts a number of requests, queries included
        if query == "get-state":
            okay_block(stream, "offline")
            return
    if target is None:
        fail(stream, error)
    elif query == "get-state":
        okay_block(stream, target.state)
    elif query == "features":
        okay_block(stream, target.features())
    elif query == "get-serialno":
        okay_block(stream, target.serial)
    elif query == "list-forward":
        okay_block(stream, "")
    else:
        okay_block(stream, "unknown")


def _split_serial(front: Front, rest: str) -> tuple[str, str]:
    """Split "<serial>:<query>" where the serial may itself hold a colon ("127.0.0.1:5555")."""
    for serial in sorted(front.targets, key=len, reverse=True):
        if rest.startswith(serial + ":"):
            return serial, rest[len(serial) + 1:]
    m = re.match(r"^(.+?:\d+):(.*)$", rest)
    if m and m.group(2) in _DEVICE_QUERIES:
        return m.group(1), m.group(2)
    serial, _, query = rest.partition(":")
    return serial, query


def host_service(front: Front, stream: SocketStream, request: str) -> None:
    """Answer one host request (FAIL for unknown ones, as adb does)."""
    if request.startswith("host-serial:"):
        serial, query = _split_serial(front, request[len("host-serial:"):])
        _device_query(front, stream, serial, query)
        return
    if request.startswith("host-transport-id:"):
        tid, _, query = request[len("host-transport-id:"):].partition(":")
        serial = next((t.serial for t in front.targets.values() if str(t.transport_id) == tid), f"id {tid}")
        _device_query(front, stream, serial, query)
        return
    if not request.startswith("host:"):
        fail(stream, f"unknown host service '{request[:40]}'")
        return
    name, _, arg = request[len("host:"):].partition(":")
    if name in _DEVICE_QUERIES:
        _device_query(front, stream, None, name)
        return
    handler = _HOST.get(name)
    if handler is None:
        fail(stream, f"unknown host service '{name}'")
        return
    handler(front, stream, arg)
