"""Tests of the ADB front's defences (issue 43): who may register an emulator, storage quota, typing and dump caps.

"Another user" is played through the front's seams (`peer_uid`, `listener_uids`), since the tests run as one user;
`test_adb_peers.py` checks that the real lookups find our own uid on real loopback connections.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import adbutils
import pytest

from android_gym.sim.adb import AdbFront, SimTarget
from android_gym.sim.adb.commands import FIELD_MAX_CHARS, TEXT_MAX_CHARS, UI_DUMP_MAX_BYTES

OTHER_UID = os.getuid() + 4242


@pytest.fixture(autouse=True)
def isolated_adb(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Never start a real adb daemon; the user's adb key lives in a temporary HOME."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def listener() -> Iterator[int]:
    """A loopback port that accepts and hangs up (a fake emulator's adb port); yields the port."""
    sock = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield sock.getsockname()[1]
    finally:
        stop.set()
        sock.close()


def announce(front: AdbFront, port: int) -> bytes:
    """Send `host:emulator:<port>` as an emulator does and return the front's whole answer."""
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as sock:
        request = f"host:emulator:{port}".encode()
        sock.sendall(f"{len(request):04x}".encode() + request)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        return answer


# -- host:emulator -----------------------------------------------------------------------------------------------------
def test_registration_from_another_users_process_is_refused_naming_why(listener):
    """Before: any local user's `host:emulator:` became a device; after: FAIL naming the uid and the way to allow it."""
    with AdbFront(devices=0, perturbations="none") as front:
        front.peer_uid = lambda sock: OTHER_UID
        answer = announce(front, listener)
        assert answer.startswith(b"FAIL") and f"uid {OTHER_UID}".encode() in answer
        assert f"trusted_uids={{{OTHER_UID}}}".encode() in answer
        assert front.targets == {}


def test_trusted_uid_may_register_deliberately(listener):
    """`trusted_uids` is the deliberate way to take another user's emulators."""
    with AdbFront(devices=0, perturbations="none", trusted_uids={OTHER_UID}) as front:
        front.peer_uid = lambda sock: OTHER_UID
        assert announce(front, listener) == b"OKAY"
        assert f"emulator-{listener - 1}" in front.targets


def test_port_served_by_another_user_is_refused(listener):
    """Our own process announcing a port another user listens on registers nothing."""
    with AdbFront(devices=0, perturbations="none") as front:
        front.listener_uids = lambda port: {OTHER_UID}
        answer = announce(front, listener)
        assert answer.startswith(b"FAIL") and f"served by a process of uid {OTHER_UID}".encode() in answer
        assert front.targets == {}


def test_own_registration_is_taken_with_the_real_lookups(listener):
    """Our uid announcing our own listener (the real /proc lookups) is served, answered OKAY."""
    with AdbFront(devices=0, perturbations="none") as front:
        assert announce(front, listener) == b"OKAY"
        assert isinstance(front.target(f"emulator-{listener - 1}"), SimTarget)


def test_registration_never_replaces_a_live_phone(listener):
    """Before: an announcement replaced a live serial; after: FAIL "is live", the phone and its state stay."""
    serial = f"emulator-{listener - 1}"
    with AdbFront(devices=[serial], perturbations="none") as front:
        phone = front.target(serial)
        phone.run("input keyevent KEYCODE_HOME")
        answer = announce(front, listener)
        assert answer.startswith(b"FAIL") and b"is live" in answer and b"AdbFront.remove" in answer
        assert front.targets[serial] is phone
        front.remove(serial)
        assert announce(front, listener) == b"OKAY" and front.targets[serial] is not phone


def test_bad_port_is_refused():
    """A port that is not a number gets a FAIL, not a dropped connection."""
    with AdbFront(devices=0, perturbations="none") as front:
        assert announce(front, 0).startswith(b"FAIL")
        with socket.create_connection(("127.0.0.1", front.port), timeout=10) as sock:
            sock.sendall(b"0010host:emulator:x1")
            assert sock.recv(4) == b"FAIL"


# -- storage quota -----------------------------------------------------------------------------------------------------
QUOTA = 4 << 20


def raw_push(front: AdbFront, data: bytes, path: str) -> bytes:
    """Push `data` over a raw sync session (adbutils drops the FAIL's message) and return the device's reply."""
    with socket.create_connection(("127.0.0.1", front.port), timeout=30) as sock:
        for request in (b"host:transport:sim-0", b"sync:"):
            sock.sendall(f"{len(request):04x}".encode() + request)
            assert sock.recv(4, socket.MSG_WAITALL) == b"OKAY"
        spec = f"{path},33188".encode()
        sock.sendall(b"SEND" + struct.pack("<I", len(spec)) + spec)
        for i in range(0, len(data), 64 * 1024):
            chunk = data[i:i + 64 * 1024]
            sock.sendall(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
        sock.sendall(b"DONE" + bytes(4))
        reply = sock.recv(8, socket.MSG_WAITALL)
        if reply.startswith(b"FAIL"):
            return reply + sock.recv(struct.unpack("<I", reply[4:])[0], socket.MSG_WAITALL)
        sock.sendall(b"QUIT" + bytes(4))
        return reply


def test_oversized_push_fails_as_a_full_disk_and_memory_stays_bounded(tmp_path):
    """Before: 768 MB pushed in 4 s stayed in RAM; after: past the quota the push fails "No space left on device",
    nothing is stored, and the front's peak allocation stays under 2 x quota + 4 MiB (it held 32 MiB + a copy)."""  # noqa: D205, D209
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(1 << 20) * 32)  # 32 MiB, 8x the quota
    target = SimTarget("sim-0", "none", storage_quota_bytes=QUOTA)
    with AdbFront(devices=[target]) as front:
        device = adbutils.AdbClient(port=front.port, socket_timeout=30).device("sim-0")
        tracemalloc.start()
        try:
            with pytest.raises(adbutils.AdbError, match="FAIL"):  # adbutils keeps only the status, not the text
                device.sync.push(big, "/sdcard/big.bin")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert "/sdcard/big.bin" not in target.files and target.reserved_bytes == 0
        assert peak < 2 * QUOTA + (4 << 20), f"peak {peak >> 20} MiB"
        device.sync.push(b"x" * (QUOTA // 2), "/sdcard/half.bin")  # within the quota: still works afterwards
        assert len(target.files["/sdcard/half.bin"]) == QUOTA // 2


def test_quota_counts_every_file_and_a_replaced_file_frees_its_bytes():
    """Two pushes that together pass the quota: the second fails; pushing over the same path reuses its room."""
    target = SimTarget("sim-0", "none", storage_quota_bytes=QUOTA)
    with AdbFront(devices=[target]) as front:
        assert raw_push(front, b"a" * (3 * QUOTA // 4), "/sdcard/a") == b"OKAY" + bytes(4)
        reply = raw_push(front, b"b" * (QUOTA // 2), "/sdcard/b")
        assert reply.startswith(b"FAIL") and b"write failed: No space left on device" in reply
        assert b"storage_quota_bytes" in reply
        assert raw_push(front, b"c" * (3 * QUOTA // 4), "/sdcard/a") == b"OKAY" + bytes(4)
        assert target.files["/sdcard/a"][:1] == b"c" and "/sdcard/b" not in target.files


def test_shell_redirection_cannot_double_a_file_past_the_quota():
    """`cat f f > g` doubling per command stops at the quota with the shell's full-disk error."""
    target = SimTarget("sim-0", "none", storage_quota_bytes=QUOTA)
    target.files["/sdcard/f"] = b"x" * (QUOTA // 4)
    for _ in range(4):
        result = target.run("cat /sdcard/f /sdcard/f > /sdcard/g && cat /sdcard/g > /sdcard/f")
    assert result.code == 1 and b"No space left on device" in result.err
    assert sum(len(v) for v in target.files.values()) <= QUOTA


def test_screenshots_to_files_stop_at_the_quota():
    """`screencap FILE` under new names, over and over, fails "No space left on device" once the quota is full."""
    target = SimTarget("sim-0", "none", storage_quota_bytes=QUOTA)
    codes = [target.run(f"screencap /sdcard/s{i}.raw").code for i in range(8)]  # ~10 MB each raw
    assert codes[-1] == 1 and b"No space left on device" in target.run("screencap /sdcard/x.raw").err
    assert sum(len(v) for v in target.files.values()) <= QUOTA


# -- typing and dumps --------------------------------------------------------------------------------------------------
def _focus_search(target: SimTarget) -> None:
    """Focus a text field (the launcher's search box)."""
    phone = target.phone
    field = next(v for v in phone.tree().walk() if v.focusable and v.enabled)
    x0, y0, x1, y1 = field.bounds
    phone.tap((x0 + x1) // 2, (y0 + y1) // 2)
    assert phone.top.focus is not None


def test_input_text_is_capped_with_a_clear_error():
    """Before: any length was typed; after: past TEXT_MAX_CHARS `input text` fails naming the cap, typing nothing."""
    target = SimTarget("sim-0", "none")
    _focus_search(target)
    result = target.run(f"input text {'a' * (TEXT_MAX_CHARS + 1)}")
    assert result.code == 255 and f"at most {TEXT_MAX_CHARS}".encode() in result.err
    assert target.phone.top.fields.get(target.phone.top.focus, "") == ""
    assert target.run(f"input text {'a' * 10}").code == 0


def test_a_field_stops_growing_at_its_cap():
    """Repeated typing fills a field to FIELD_MAX_CHARS, then fails ("clear it first"); ADBKeyBoard too."""
    target = SimTarget("sim-0", "none")
    _focus_search(target)
    for _ in range(FIELD_MAX_CHARS // TEXT_MAX_CHARS):
        assert target.run(f"input text {'a' * TEXT_MAX_CHARS}").code == 0
    refused = target.run("input text b")
    assert refused.code == 255 and b"clear it first" in refused.err
    broadcast = target.run("am broadcast -a ADB_INPUT_TEXT --es msg b")
    assert broadcast.code == 255 and b"clear it first" in broadcast.err
    assert len(target.phone.top.fields[target.phone.top.focus]) == FIELD_MAX_CHARS


def test_ui_dump_past_its_cap_fails_naming_the_size(monkeypatch):
    """A hierarchy over UI_DUMP_MAX_BYTES is refused by uiautomator instead of written."""
    target = SimTarget("sim-0", "none")
    monkeypatch.setattr(target.phone, "xml", lambda: "x" * (UI_DUMP_MAX_BYTES + 1))
    result = target.run("uiautomator dump /sdcard/d.xml")
    assert result.code == 1 and str(UI_DUMP_MAX_BYTES + 1).encode() in result.err
    assert "/sdcard/d.xml" not in target.files
