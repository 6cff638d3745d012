"""Tests of `peers`: the real /proc/net/tcp lookups find our own uid, on IPv4 and IPv6 loopback."""

from __future__ import annotations

import os
import socket

import pytest

from android_gym.sim.adb import peers

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="no /proc/net/tcp (not Linux)")


@pytest.mark.parametrize(("family", "host"), [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")])
def test_peer_of_a_real_loopback_connection_is_our_uid(family, host):
    """The announcer's end of a live connection reads as our uid; the port's listener too."""
    try:
        server = socket.create_server((host, 0), family=family)
    except OSError:
        pytest.skip(f"no {host} here")
    with server, socket.create_connection((host, server.getsockname()[1]), timeout=5) as client:
        accepted, _ = server.accept()
        with accepted:
            assert peers.peer_uid(accepted) == os.getuid()
            assert peers.peer_uid(client) == os.getuid()
            if family == socket.AF_INET:
                assert peers.listener_uids(server.getsockname()[1]) == {os.getuid()}


def test_peer_that_closed_its_end_is_unknown_not_root():
    """An orphaned end is listed with uid 0 and inode 0: it reads as unknown (None), never as root."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(("127.0.0.1", server.getsockname()[1]), timeout=5)
        accepted, _ = server.accept()
        client.close()
        with accepted:
            assert accepted.recv(1) == b""  # its FIN arrived: the end is orphaned or gone
            assert peers.peer_uid(accepted) is None


def test_nothing_listening_has_no_owner():
    """A closed port has no listener uid."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert peers.listener_uids(port) == set()
