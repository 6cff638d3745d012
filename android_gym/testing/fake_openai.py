"""`FakeChatServer`: a scripted OpenAI-compatible chat-completion server on 127.0.0.1, for testing HTTP judges.

It answers `POST .../chat/completions` from a script — a list of `Reply`s consumed one per request, then a default —
and can fail on demand: any status code, bodies that are not JSON, `Retry-After` headers, delays, and hangs (no
answer until the server closes). It records every request (path, headers, JSON body) and the most requests it had in
flight at once.

>>> with FakeChatServer([Reply(status=429)], default=Reply(content="Status: success")) as server:
...     server.base_url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

POLL_INTERVAL_S = 0.02
"""How often the serving loop checks for `close()` (it bounds how long closing takes)."""

HANG_LIMIT_S = 60.0
"""A hanging reply is released after this many seconds even if the server is never closed."""


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    Attributes:
        status: the HTTP status.
        content: the assistant message text of a normal chat completion.
        body: the raw body instead of a chat completion (e.g. "<html>oops</html>" to test non-JSON replies).
        headers: extra response headers (e.g. {"Retry-After": "0"}).
        delay_s: seconds to wait before answering.
        hang: never answer (until the server closes, or `HANG_LIMIT_S`).
        top_logprobs: (token, log-probability) pairs of the first answer token, for judges in logits mode.
    """

    status: int = 200
    content: str = "Status: success"
    body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    hang: bool = False
    top_logprobs: tuple[tuple[str, float], ...] = ()

    def render(self, model: str) -> bytes:
        """The response body."""
        if self.body is not None:
            return self.body.encode()
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": self.content}}
        if self.top_logprobs:
            first = self.top_logprobs[0]
            choice["logprobs"] = {"content": [{"token": first[0], "logprob": first[1], "top_logprobs": [
                {"token": token, "logprob": logprob} for token, logprob in self.top_logprobs]}]}
        return json.dumps({"id": "fake", "object": "chat.completion", "model": model, "choices": [choice]}).encode()


Script = Reply | Callable[[dict[str, Any]], Reply]
"""A fixed reply, or a function of the request's JSON body."""


@dataclass
class Request:
    """What the server received: path, headers (lower-case names) and the JSON body (None if it was not JSON)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None


class FakeChatServer:
    """The scripted server (see the module docstring).

    `start()` (or `with`) binds a free port; `close()` stops it, releasing hanging requests.
    """

    def __init__(self, replies: Sequence[Reply] = (), default: Script = Reply()) -> None:
        self.replies = list(replies)
        self.default = default
        self.requests: list[Request] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """"http://127.0.0.1:<port>/v1"."""
        if self._server is None:
            raise RuntimeError("FakeChatServer is not started; call start() or use `with`")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> FakeChatServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread (idempotent)."""
        if self._server is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
            self._server.daemon_threads = True
            self._thread = threading.Thread(target=self._server.serve_forever, args=(POLL_INTERVAL_S,),
                                            name="fake-chat-server", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, release hanging requests, and free the port (idempotent)."""
        self._closing.set()
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next_reply(self, body: dict[str, Any] | None) -> Reply:
        with self._lock:
            if self.replies:
                return self.replies.pop(0)
        return self.default(body or {}) if callable(self.default) else self.default

    def _enter(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1


def _handler_for(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802  (the http.server naming)
            length = int(self.headers.get("Content-Length") or 0)
            data = self.rfile.read(length)
            try:
                body = json.loads(data)
            except ValueError:
                body = None
            server._enter(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            left = False
            try:
                reply = server._next_reply(body)
                if reply.hang:
                    server._closing.wait(HANG_LIMIT_S)
                    return
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                payload = reply.render(str((body or {}).get("model", "")))
                # Out of flight before the first byte goes back: once the client has its answer it may send
                # the next request, and this thread must not still count the old one (max_in_flight would
                # read one over the client's real concurrency).
                server._leave()
                left = True
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json" if reply.body is None else "text/html")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except OSError:  # the client gave up (its deadline passed): nothing to answer
                pass
            finally:
                if not left:
                    server._leave()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (keep test output quiet)
            return

    return Handler
