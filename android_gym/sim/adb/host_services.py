"""Host services of the ADB front: the `host:` and `host-serial:` requests that do not open a device stream."""

from __future__ import annotations

import re
import select
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from android_gym.sim.adb.target import SimTarget

if TYPE_CHECKING:
    from android_gym.sim.adb.server import AdbFront, _SocketStream

HostHandler = Callable[["AdbFront", "_SocketStream", str], None]


def _devices_text(front: AdbFront, long: bool) -> str:
    lines = []
    for t in list(front.targets.values()):
        if not t.is_connected or not t.alive():
            continue
        if long:
            p = t.props
            lines.append(f"{t.serial:<22} {t.state} product:{p['ro.product.name']} model:{p['ro.product.model']} "
                         f"device:{p['ro.product.device']} transport_id:{t.transport_id}")
        else:
            lines.append(f"{t.serial}\t{t.state}")
    return "".join(line + "\n" for line in lines)


def _version(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    from android_gym.sim.adb.server import SERVER_VERSION, _okay_block

    _okay_block(stream, f"{SERVER_VERSION:04x}")


def _devices(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    from android_gym.sim.adb.server import _okay_block

    _okay_block(stream, _devices_text(front, long=arg == "-l"))


def _track(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    """Send the device list now and again whenever it changes, until the client hangs up."""
    stream.send(b"OKAY")
    last = None
    while not front._stop.is_set():
        text = _devices_text(front, long=arg == "-l")
        if text != last:
            data = text.encode()
            stream.send(f"{len(data):04x}".encode() + data)
            last = text
        readable, _, _ = select.select([stream.sock], [], [], 0.1)
        if readable and not stream.sock.recv(1, socket.MSG_PEEK):
            return


def _kill(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    stream.send(b"OKAY")
    threading.Thread(target=front.stop, daemon=True).start()


def _connect(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    from android_gym.sim.adb.server import _okay_block

    addr = arg if ":" in arg else f"{arg}:5555"
    target = front.targets.get(addr)
    if target is None:
        _okay_block(stream, f"failed to connect to '{addr}': Connection refused")
    elif target.is_connected:
        _okay_block(stream, f"already connected to {addr}")
    else:
        target.is_connected = True
        _okay_block(stream, f"connected to {addr}")


def _disconnect(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    from android_gym.sim.adb.server import _fail, _okay_block

    target = front.targets.get(arg)
    if target is None or not target.is_connected:
        _fail(stream, f"no such device '{arg}'")
        return
    target.is_connected = False
    _okay_block(stream, f"disconnected {arg}")


def _emulator(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    """An emulator announces its adb port; it stays listed while something listens on that port."""
    port = int(arg)
    target = SimTarget(f"emulator-{port - 1}", front.perturbations, front.fault_config, renderer=front.renderer)
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


def _host_features(front: AdbFront, stream: _SocketStream, arg: str) -> None:
    from android_gym.sim.adb.server import _okay_block

    _okay_block(stream, "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,abb_exec")


_HOST: dict[str, HostHandler] = {
    "version": _version, "devices": _devices, "devices-l": lambda f, s, a: _devices(f, s, "-l"),
    "track-devices": _track, "track-devices-l": lambda f, s, a: _track(f, s, "-l"), "kill": _kill,
    "connect": _connect, "disconnect": _disconnect, "emulator": _emulator, "host-features": _host_features,
}

_DEVICE_QUERIES = {"features", "get-state", "get-serialno", "get-devpath", "list-forward", "host-features"}


def _device_query(front: AdbFront, stream: _SocketStream, serial: str | None, query: str) -> None:
    from android_gym.sim.adb.server import _fail, _okay_block

    if query == "host-features":
        _host_features(front, stream, "")
        return
    target, error = front._lookup(serial)
    if target is not None and target.offline_requests > 0:
        target.offline_requests -= 1  # an offline spell lasts a number of requests, queries included
        if query == "get-state":
            _okay_block(stream, "offline")
            return
    if target is None:
        _fail(stream, error)
    elif query == "get-state":
        _okay_block(stream, target.state)
    elif query == "features":
        _okay_block(stream, target.features())
    elif query == "get-serialno":
        _okay_block(stream, target.serial)
    elif query == "list-forward":
        _okay_block(stream, "")
    else:
        _okay_block(stream, "unknown")


def _split_serial(front: AdbFront, rest: str) -> tuple[str, str]:
    """Split "<serial>:<query>" where the serial may itself hold a colon ("127.0.0.1:5555")."""
    for serial in sorted(front.targets, key=len, reverse=True):
        if rest.startswith(serial + ":"):
            return serial, rest[len(serial) + 1:]
    m = re.match(r"^(.+?:\d+):(.*)$", rest)
    if m and m.group(2) in _DEVICE_QUERIES:
        return m.group(1), m.group(2)
    serial, _, query = rest.partition(":")
    return serial, query


def host_service(front: AdbFront, stream: _SocketStream, request: str) -> None:
    """Answer one host request (FAIL for unknown ones, as adb does)."""
    from android_gym.sim.adb.server import _fail

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
        _fail(stream, f"unknown host service '{request[:40]}'")
        return
    name, _, arg = request[len("host:"):].partition(":")
    if name in _DEVICE_QUERIES:
        _device_query(front, stream, None, name)
        return
    handler = _HOST.get(name)
    if handler is None:
        _fail(stream, f"unknown host service '{name}'")
        return
    handler(front, stream, arg)
