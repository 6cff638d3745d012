"""`TcpListener`: the accept loop the simulated phone's servers share (the ADB front, adbd, the emulator console)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable


class TcpListener:
    """Listens on `host:port`; each accepted connection is served by `serve(sock)` on a thread of its own.

    Guarantees: `start()` binds (SO_REUSEADDR, as the emulator's own servers do) or raises `OSError` when the port is
    taken, and is idempotent; `close()` stops accepting and shuts down every connection still open (idempotent); a
    connection leaves the open set when its `serve` returns, so a long-lived server keeps no closed sockets.

    Args:
        serve: runs one connection (it may close the socket itself).
        host: the interface (keep loopback: none of these protocols authenticates much).
        port: the TCP port, 0 for a free one (read `port` after `start()`).
        backlog: the listen queue.
        name: the accept thread's name, before ":<port>".
    """

    def __init__(self, serve: Callable[[socket.socket], None], host: str = "127.0.0.1", port: int = 0,
                 backlog: int = 8, name: str = "tcp") -> None:
        self.serve, self.host, self.requested_port = serve, host, port
        self.backlog, self.name = backlog, name
        self._sock: socket.socket | None = None
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> TcpListener:
        """Bind and start accepting (idempotent); returns self."""
        if self._sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((self.host, self.requested_port))
                sock.listen(self.backlog)
            except OSError:
                sock.close()
                raise
            self._sock = sock
            threading.Thread(target=self._accept, args=(sock,), name=f"{self.name}:{self.port}", daemon=True).start()
        return self

    @property
    def port(self) -> int | None:
        """The TCP port served; None before `start()` and after `close()`."""
        return None if self._sock is None else int(self._sock.getsockname()[1])

    def close(self) -> None:
        """Stop accepting and shut down every open connection (idempotent)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        with self._lock:
            conns, self._conns = list(self._conns), set()
        for sock in conns:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                sock, _ = listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                self._conns.add(sock)
            threading.Thread(target=self._serve_one, args=(sock,), daemon=True).start()

    def _serve_one(self, sock: socket.socket) -> None:
        try:
            self.serve(sock)
        finally:
            with self._lock:
                self._conns.discard(sock)
