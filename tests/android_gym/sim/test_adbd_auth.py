"""Tests of adbd authentication (issue 43: our adbd took any CNXN) and of the user's adb key file.

A raw host speaks the handshake byte by byte, so that each refusal is seen as the peer sees it.
"""

from __future__ import annotations

import os
import socket
import struct
from pathlib import Path

import pytest

from android_gym.errors import DeviceProtocolError, UnsafePathError
from android_gym.sim.adb import SimTarget
from android_gym.sim.adb.adbd import A_AUTH, A_CNXN, A_OPEN, AdbdEndpoint
from android_gym.sim.adb.adbd_client import AdbdClient
from android_gym.sim.adb.adbkey import (
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    AdbKey,
    AuthorizedKeys,
    user_key_path,
)

HEADER = struct.Struct("<6I")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's adb key lives in a temporary HOME."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


class RawHost:
    """A host that sends and reads single adb packets."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        """One packet."""
        self.sock.sendall(HEADER.pack(command, arg0, arg1, len(data), 0, command ^ 0xFFFFFFFF) + data)

    def read(self) -> tuple[int, int, bytes] | None:
        """(command, arg0, payload), or None once the device closed."""
        header = self.sock.recv(HEADER.size, socket.MSG_WAITALL)
        if len(header) < HEADER.size:
            return None
        command, arg0, _, length, _, _ = HEADER.unpack(header)
        return command, arg0, self.sock.recv(length, socket.MSG_WAITALL) if length else b""

    def cnxn(self) -> tuple[int, int, bytes] | None:
        """Send CNXN, read the answer."""
        self.send(A_CNXN, 0x01000001, 256 * 1024, b"host::\0")
        return self.read()


def test_cnxn_gets_a_token_and_only_a_trusted_signature_gets_the_device():
    """Before: CNXN got the banner at once; after: AUTH TOKEN, a wrong signature a fresh token, the right one CNXN."""
    key, stranger = AdbKey.generate(), AdbKey.generate()
    with AdbdEndpoint(SimTarget("emu", "none"), authorized_keys=AuthorizedKeys([key.private_key.public_key()])) as e:
        host = RawHost(e.port)
        command, kind, token = host.cnxn()
        assert (command, kind, len(token)) == (A_AUTH, AUTH_TOKEN, 20)
        host.send(A_AUTH, AUTH_SIGNATURE, 0, stranger.sign(token))
        command, kind, second = host.read()
        assert (command, kind) == (A_AUTH, AUTH_TOKEN) and second != token
        host.send(A_AUTH, AUTH_SIGNATURE, 0, key.sign(token))  # a signature of a stale token is refused too
        _, _, third = host.read()
        host.send(A_AUTH, AUTH_SIGNATURE, 0, key.sign(third))
        command, _, banner = host.read()
        assert command == A_CNXN and banner.startswith(b"device::")


def test_public_key_offer_is_refused_and_the_connection_closed():
    """A real device would prompt for RSAPUBLICKEY; ours refuses, even the public half of a trusted key."""
    key = AdbKey.generate()
    with AdbdEndpoint(SimTarget("emu", "none"), authorized_keys=AuthorizedKeys([key.private_key.public_key()])) as e:
        host = RawHost(e.port)
        host.cnxn()
        host.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, key.public_text().encode() + b"\0")
        assert host.read() is None


def test_service_before_authentication_runs_nothing_and_closes():
    """An OPEN before AUTH closes the connection; the shell never ran."""
    target = SimTarget("emu", "none")
    with AdbdEndpoint(target, authorized_keys=AuthorizedKeys([])) as e:
        host = RawHost(e.port)
        host.cnxn()
        host.send(A_OPEN, 1, 0, b"shell:echo pwned\0")
        assert host.read() is None
    assert target.history == []


def test_our_client_signs_with_the_users_key_and_a_stranger_is_unauthorized(home):
    """The default endpoint trusts ~/.android/adbkey (made 0600 on first use) and our client signs with it."""
    with AdbdEndpoint(SimTarget("emu", "none")) as endpoint:
        with AdbdClient("127.0.0.1", endpoint.port, timeout_s=5) as client:
            assert client.banner.startswith("device::")
        assert endpoint.target.props["ro.adb.secure"] == "1"
        stranger = AdbKey.load_or_create(home / "other" / "adbkey")
        client = AdbdClient("127.0.0.1", endpoint.port, timeout_s=5, key=stranger)
        with pytest.raises(DeviceProtocolError, match="refused .*other/adbkey"):
            client.connect()
        assert client.is_unauthorized
    assert os.stat(user_key_path()).st_mode & 0o777 == 0o600


def test_insecure_endpoint_answers_cnxn_at_once():
    """is_secure=False is ro.adb.secure=0: no AUTH, no key file made."""
    with AdbdEndpoint(SimTarget("emu", "none"), is_secure=False) as endpoint:
        command, _, banner = RawHost(endpoint.port).cnxn()
        assert command == A_CNXN and banner.startswith(b"device::")
        assert endpoint.target.props["ro.adb.secure"] == "0"
    assert not user_key_path().exists()


def test_key_file_behind_a_link_or_open_to_others_is_refused(home):
    """The private key is read with O_NOFOLLOW, and only when it is the user's own 0600 file."""
    real = AdbKey.load_or_create(home / "real" / "adbkey")
    link = home / "linked" / "adbkey"
    link.parent.mkdir()
    link.symlink_to(real.path)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        AdbKey.load_or_create(link)
    os.chmod(real.path, 0o644)
    with pytest.raises(UnsafePathError, match="chmod 600"):
        AdbKey.load(real.path)


def test_pub_file_is_written_beside_the_key_and_reads_back(home):
    """adbkey.pub holds the public half in adb's format, which `AuthorizedKeys.load` reads."""
    key = AdbKey.load_or_create(home / "k" / "adbkey")
    keys = AuthorizedKeys.load(home / "k" / "adbkey.pub")
    assert keys.verify(bytes(20), key.sign(bytes(20)))
