"""The framing of the ADB host protocol (adb's "smart socket" on port 5037), as the ADB front speaks it.

A request is four hex digits of length and that many bytes ("000chost:version"); a reply is `OKAY` or `FAIL`, a
block being `OKAY`/`FAIL` then four hex digits of length and the text.
"""

from __future__ import annotations

import socket

SERVER_VERSION = 41  # what adb 1.0.41 (platform-tools 29+) reports; adbutils then uses host:tport


class SocketStream:
    """A client socket as a `services.Stream`."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def send(self, data: bytes) -> None:
        """Send all of `data`."""
        self.sock.sendall(data)

    def recv(self, n: int) -> bytes:
        """Up to `n` bytes (b"" when the client hung up)."""
        return self.sock.recv(n)

    def close(self) -> None:
        """Shut the connection down both ways and close it."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def read_request(stream: SocketStream) -> str | None:
    """The next request's text, or None when the client hung up.

    Raises:
        ValueError: the length is not four hex digits (garbage: the caller drops the connection).
    """
    header = recv_exact(stream, 4)
    if header is None:
        return None
    length = int(header.decode("ascii"), 16)
    body = recv_exact(stream, length) if length else b""
    if body is None:
        return None
    return body.decode("utf-8")


def recv_exact(stream: SocketStream, n: int) -> bytes | None:
    """Exactly `n` bytes, or None when the client hung up first."""
    buf = bytearray()
    while len(buf) < n:
        chunk = stream.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def fail(stream: SocketStream, message: str) -> None:
    """A FAIL block: the client raises `message`."""
    data = message.encode("utf-8")
    stream.send(b"FAIL" + f"{len(data):04x}".encode() + data)


def okay_block(stream: SocketStream, text: str) -> None:
    """An OKAY block carrying `text`."""
    data = text.encode("utf-8")
    stream.send(b"OKAY" + f"{len(data):04x}".encode() + data)
