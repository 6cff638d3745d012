"""Tests of `AdbdClient` against the sim's adbd endpoint, and of the ADB front forwarding an emulator to its adbd.

The "emulator" is an `AdbdEndpoint` on a free port announced to the front with `host:emulator:<port>`, as the
`android-gym emulator` process announces itself; the phone lives in the endpoint, never in the front.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
from collections.abc import Iterator

import adbutils
import numpy as np
import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.adb import AdbDevice
from android_gym.errors import DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError, UnsupportedError
from android_gym.sim.adb import AdbFront, SimTarget
from android_gym.sim.adb.adbd import A_AUTH, AdbdEndpoint
from android_gym.sim.adb.adbd_client import AdbdClient, RemoteTarget
from android_gym.sim.adb.adbkey import (
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AdbKey,
    AuthorizedKeys,
    decode_public_key,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> None:
    """The user's adb key (which the endpoints trust and the clients sign with) lives in a temporary HOME."""
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def endpoint() -> Iterator[AdbdEndpoint]:
    """A simulated phone served as adbd on a free loopback port."""
    with AdbdEndpoint(SimTarget("emu", "none")) as endpoint:
        yield endpoint


@pytest.fixture
def front() -> Iterator[AdbFront]:
    """An ADB front with no phones of its own."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


def announce(front: AdbFront, port: int) -> str:
    """Send `host:emulator:<port>` as an emulator does; returns the serial once the front lists it."""
    with socket.create_connection(("127.0.0.1", front.port), timeout=5) as sock:
        request = f"host:emulator:{port}".encode()
        sock.sendall(f"{len(request):04x}".encode() + request)
    serial = f"emulator-{port - 1}"
    deadline = time.monotonic() + 5
    while serial not in front.targets and time.monotonic() < deadline:
        time.sleep(0.01)
    return serial


def serve_socket(handle) -> tuple[socket.socket, int]:
    """A loopback listener whose connections `handle(conn)` serves on a thread; returns (listener, port)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener, listener.getsockname()[1]


# -- the client alone --------------------------------------------------------------------------------------------------
def test_connect_returns_the_device_banner_and_opens_a_service(endpoint):
    """CNXN answers the endpoint's banner; a shell stream yields its output, then b"" after the device's CLSE."""
    with AdbdClient("127.0.0.1", endpoint.port, timeout_s=5) as client:
        assert client.banner == endpoint.target.banner()
        stream = client.open("shell:echo hello")
        out = b""
        while chunk := stream.recv(1024):
            out += chunk
        assert out == b"hello\n" and stream.recv(10) == b""


def test_open_of_an_unknown_service_is_refused_naming_it(endpoint):
    """Adbd answers an unknown service with CLSE: a DeviceProtocolError that names the service."""
    with AdbdClient("127.0.0.1", endpoint.port, timeout_s=5) as client:
        with pytest.raises(DeviceProtocolError, match="nosuch:thing"):
            client.open("nosuch:thing")
        assert client.open("shell:true") is not None  # the connection survives a refusal


def test_recv_after_close_returns_empty(endpoint):
    """A stream closed locally reads b"" and refuses writes; closing the client closes its streams."""
    with AdbdClient("127.0.0.1", endpoint.port, timeout_s=5) as client:
        stream = client.open("sync:")
        stream.close()
        assert stream.recv(4) == b""
        with pytest.raises(DeviceOfflineError):
            stream.send(b"QUIT\0\0\0\0")
        other = client.open("sync:")
    assert other.is_closed and other.recv(4) == b"" and not client.is_connected


def test_concurrent_streams_share_one_connection(endpoint):
    """Several streams interleave on one connection; each gets its own output, large ones in several WRTEs."""
    endpoint.target.files["/sdcard/big.bin"] = big = os.urandom(700_000)
    with AdbdClient("127.0.0.1", endpoint.port, timeout_s=5) as client:
        streams = [client.open(f"shell:echo {i}") for i in range(3)] + [client.open("exec:cat /sdcard/big.bin")]
        outs = [b""] * len(streams)
        for i in reversed(range(len(streams))):
            while chunk := streams[i].recv(100_000):
                outs[i] += chunk
    assert outs == [b"0\n", b"1\n", b"2\n", big]


def test_silent_peer_times_out_stating_seconds():
    """A listener that accepts and says nothing: `connect` raises DeviceTimeoutError within its deadline."""
    held: list[socket.socket] = []
    listener, port = serve_socket(held.append)
    with listener, pytest.raises(DeviceTimeoutError, match="0.3 s"):
        AdbdClient("127.0.0.1", port, timeout_s=0.3).connect()


def test_peer_that_hangs_up_is_offline_and_one_refusing_our_key_names_it(tmp_path):
    """A port that hangs up at once is offline; an adbd that refuses our signature gets the public key (adb's order),
    then its hang-up is a protocol error naming the key file and how to allow it."""  # noqa: D205, D209
    closing, closing_port = serve_socket(lambda conn: conn.close())
    answers: list[tuple[int, bytes]] = []

    def refuse(conn: socket.socket) -> None:
        conn.recv(4096)  # the CNXN
        for _ in range(2):
            conn.sendall(struct.pack("<6I", A_AUTH, 1, 0, 20, 0, A_AUTH ^ 0xFFFFFFFF) + bytes(range(20)))
            header = conn.recv(24, socket.MSG_WAITALL)
            kind, length = struct.unpack("<6I", header)[1], struct.unpack("<6I", header)[3]
            answers.append((kind, conn.recv(length, socket.MSG_WAITALL)))
        conn.close()

    refusing, refusing_port = serve_socket(refuse)
    with closing, refusing:
        with pytest.raises(DeviceOfflineError, match="closed the connection"):
            AdbdClient("127.0.0.1", closing_port, timeout_s=2).connect()
        with pytest.raises(DeviceProtocolError, match=r"refused .*adbkey.*authorized keys.*adbkey\.pub"):
            AdbdClient("127.0.0.1", refusing_port, timeout_s=2).connect()
    key = AdbKey.load(tmp_path / ".android" / "adbkey")
    assert [kind for kind, _ in answers] == [AUTH_SIGNATURE, AUTH_RSAPUBLICKEY]
    assert AuthorizedKeys([key.private_key.public_key()]).verify(bytes(range(20)), answers[0][1])
    assert decode_public_key(answers[1][1].rstrip(b"\0").decode()).public_numbers() == \
        key.private_key.public_key().public_numbers()


# -- the front forwarding to an emulator's adbd ------------------------------------------------------------------------
def test_front_lists_an_announced_adbd_emulator(front, endpoint):
    """`devices`, `devices -l`, get-state and features describe the remote target from its banner."""
    serial = announce(front, endpoint.port)
    assert isinstance(front.targets[serial], RemoteTarget)
    client = adbutils.AdbClient(port=front.port, socket_timeout=5)
    assert [(d.serial, d.state) for d in client.list()] == [(serial, "device")]
    with client.make_connection() as c:
        c.send_command("host:devices-l")
        c.check_okay()
        listing = c.read_string_block()
    assert f"model:{endpoint.target.props['ro.product.model']} " in listing and listing.startswith(serial)
    device = client.device(serial)
    assert device.get_state() == "device" and device.get_features() == endpoint.target.features()
    with pytest.raises(UnsupportedError, match="adbd"):
        front.target(serial)


def test_adb_device_drives_the_emulator_phone_not_a_copy(front, endpoint):
    """Screenshots equal the endpoint phone's render; an app launch and a tap change the endpoint's phone."""
    serial = announce(front, endpoint.port)
    dev = AdbDevice(serial, port=front.port, timeout_s=10, connect_timeout_s=2, screenshot="raw")
    phone = endpoint.target.phone
    assert np.array_equal(dev.screenshot(), endpoint.target.frame())
    assert dev.perform(Action(ActionType.OPEN_APP, text="Settings")).is_valid
    assert phone.foreground == "com.android.settings"
    before = phone.version
    dev.perform(Action.tap(0.5, 0.3))
    assert phone.version != before and any(argv[:2] == ["input", "tap"] for argv in endpoint.target.history)
    dev.close()


def test_shell_exit_code_and_large_push_pull_round_trip(front, endpoint):
    """Shell v2 carries the exit status; a multi-megabyte push and pull go through the forwarding intact."""
    serial = announce(front, endpoint.port)
    client = adbutils.AdbClient(port=front.port, socket_timeout=10)
    device = client.device(serial)
    result = device.shell2("echo out; exit 3", v2=True)
    assert (result.returncode, result.output) == (3, "out\n")
    data = os.urandom(3 * 1024 * 1024 + 17)
    device.sync.push(data, "/sdcard/blob.bin")
    assert endpoint.target.files["/sdcard/blob.bin"] == data
    assert device.sync.read_bytes("/sdcard/blob.bin") == data
    with client.make_connection() as c:  # adbd refuses: FAIL "closed", as adb answers
        c.send_command(f"host:transport:{serial}")
        c.check_okay()
        c.send_command("nosuch:service")
        with pytest.raises(adbutils.AdbError, match="closed"):
            c.check_okay()


def test_two_concurrent_clients_each_get_their_own_answers(front, endpoint):
    """Two clients hammering the forwarded emulator at once each read their own outputs."""
    serial = announce(front, endpoint.port)
    errors: list[str] = []

    def client(tag: str) -> None:
        device = adbutils.AdbClient(port=front.port, socket_timeout=10).device(serial)
        for i in range(15):
            out = device.shell(f"echo {tag}{i}")
            if out != f"{tag}{i}":
                errors.append(out)

    threads = [threading.Thread(target=client, args=(tag,)) for tag in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and not any(t.is_alive() for t in threads)


def test_emulator_going_away_drops_it_from_the_list(front, endpoint):
    """When the emulator's adbd closes, the target leaves `devices` and selecting it fails."""
    serial = announce(front, endpoint.port)
    client = adbutils.AdbClient(port=front.port, socket_timeout=5)
    assert [d.serial for d in client.list()] == [serial]
    endpoint.stop()
    deadline = time.monotonic() + 5
    while client.list() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert client.list() == []
    with pytest.raises(adbutils.AdbError, match="not found"):
        client.device(serial).shell("true")


def test_port_that_does_not_speak_adbd_gets_a_local_phone(front):
    """Today's fake emulator (accepts, hangs up) still gets a SimTarget of the front's own."""
    listener, port = serve_socket(lambda conn: conn.close())
    with listener:
        serial = announce(front, port)
        assert isinstance(front.target(serial), SimTarget)
        device = adbutils.AdbClient(port=front.port, socket_timeout=5).device(serial)
        assert device.shell("getprop sys.boot_completed") == "1"
