"""Who is at the other end of a loopback TCP connection, and who listens on a loopback port (Linux `/proc/net/tcp`).

The ADB front takes `host:emulator:<port>` only from our own user (issue 43: another local user registered a fake
device whose answers fed the reward). TCP carries no credentials, but the kernel lists every socket with its owner's
uid in `/proc/net/tcp` and `/proc/net/tcp6`: the announcer's end of a connection is the entry whose local address
is our peer and whose remote address is us. (`psutil.net_connections` reports uids only for our own processes, and
`SO_PEERCRED` works on Unix sockets only.) An end its process already closed is orphaned: the kernel then lists it
with inode 0 and uid 0, which says nothing about who it was, so it reads as unknown. A listening socket is never
orphaned: `listener_uids` tells who serves a port for as long as it is served.

>>> parse_address("0100007F:15B3")
('127.0.0.1', 5555)
>>> parse_address("0000000000000000FFFF00000100007F:15B3")
('127.0.0.1', 5555)
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from collections.abc import Iterator
from dataclasses import dataclass

TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
_LISTEN = "0A"  # TCP_LISTEN in the `st` column
_ANY = {"0.0.0.0", "::"}


@dataclass(frozen=True)
class SocketEntry:
    """One row of `/proc/net/tcp{,6}`: a socket's two addresses, TCP state (hex), owner uid and inode (0: orphaned)."""

    local: tuple[str, int]
    remote: tuple[str, int]
    state: str
    uid: int
    inode: int


def parse_address(text: str) -> tuple[str, int]:
    """An address of `/proc/net/tcp{,6}` ("0100007F:15B3": 32-bit words in host order, then the port in hex).

    IPv4-mapped IPv6 addresses come back as IPv4, so one connection reads the same in either table.
    """
    hex_ip, hex_port = text.split(":")
    raw = b"".join(struct.pack("=I", int(hex_ip[i:i + 8], 16)) for i in range(0, len(hex_ip), 8))
    ip = ipaddress.ip_address(raw)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip), int(hex_port, 16)


def entries(tables: tuple[str, ...] = TABLES) -> Iterator[SocketEntry]:
    """Every TCP socket the kernel lists (tables that do not exist, as on other systems, are skipped)."""
    for table in tables:
        try:
            with open(table, encoding="ascii") as handle:
                lines = handle.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) >= 10:
                yield SocketEntry(parse_address(fields[1]), parse_address(fields[2]), fields[3], int(fields[7]),
                                  int(fields[9]))


def _normal(address: tuple) -> tuple[str, int]:
    ip = ipaddress.ip_address(address[0].split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip), int(address[1])


def peer_uid(sock: socket.socket, tables: tuple[str, ...] = TABLES) -> int | None:
    """The uid owning the other end of `sock`'s TCP connection, or None when unknown.

    Unknown: the peer already closed its end (orphaned), the kernel does not list it (another network namespace, a
    non-Linux system), or `sock` is not a connected TCP socket.
    """
    try:
        ours, theirs = _normal(sock.getsockname()), _normal(sock.getpeername())
    except (OSError, ValueError, IndexError):
        return None
    for entry in entries(tables):
        if entry.local == theirs and entry.remote == ours:
            return entry.uid if entry.inode else None
    return None


def listener_uids(port: int, tables: tuple[str, ...] = TABLES) -> set[int]:
    """The uids of the sockets listening on `port` that a connection to 127.0.0.1:`port` can reach (empty: none)."""
    return {e.uid for e in entries(tables)
            if e.state == _LISTEN and e.local[1] == port and (e.local[0] in _ANY or ipaddress.ip_address(
                e.local[0]).is_loopback)}
