"""Helpers of the evaluator tests: seeded screens and observations, a judge that counts its calls, a raw server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from android_gym.evaluators.base import Evaluator, Observation, OracleEvaluator, Verdict
from android_gym.tasks.base import Task


def screen(seed: int, height: int = 96, width: int = 48) -> np.ndarray:
    """A random but seeded uint8 RGB screen."""
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


def observation(seed: int = 0, **kwargs: object) -> Observation:
    """An observation with a seeded screen and no device state."""
    return Observation(None, screen(seed), "PRESS_HOME", **kwargs)


class CountingJudge(Evaluator):
    """A screenshot judge that answers like the oracle (or as scripted) and records every call and batch size."""

    needs_screenshot = True

    def __init__(self, answer: Callable[[Task, Observation], Verdict] | None = None) -> None:
        self.answer = answer or (lambda task, obs: OracleEvaluator().judge(task, obs))
        self.calls = 0
        self.batches: list[int] = []
        self.is_closed = False
        self._lock = threading.Lock()

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """One request as a batch of one."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Count, then answer each request."""
        with self._lock:
            self.calls += len(items)
            self.batches.append(len(items))
        return [self.answer(task, obs) for task, obs in items]

    def close(self) -> None:
        """Remember that it was closed."""
        self.is_closed = True


class RawServer:
    """An HTTP server on a free 127.0.0.1 port that answers every POST with whatever bytes the test sets.

    `body` is sent whole (with its Content-Length); with `stream_bytes` set, the body is instead `stream_bytes` bytes
    of '[' sent in 64 KiB chunks (chunked transfer encoding), stopping early when the client hangs up; with
    `declared_length` set, that Content-Length is promised and nothing is sent until the server closes. Use as a
    context manager: it stops even when the test fails.
    """

    def __init__(self) -> None:
        self.body = b""
        self.stream_bytes = 0
        self.declared_length = 0
        self.sent_bytes = 0
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        """"http://127.0.0.1:<port>/v1"."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802  (the http.server naming)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(200)
                try:
                    if owner.declared_length:
                        self.send_header("Content-Length", str(owner.declared_length))
                        self.end_headers()
                        owner._closing.wait(30)
                    elif owner.stream_bytes:
                        self._stream(owner.stream_bytes)
                    else:
                        self.send_header("Content-Length", str(len(owner.body)))
                        self.end_headers()
                        self.wfile.write(owner.body)
                except OSError:  # the client hung up, as a capped reader should
                    pass

            def _stream(self, total: int) -> None:
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"[" * 65536
                frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
                while owner.sent_bytes < total and not owner._closing.is_set():
                    self.wfile.write(frame)
                    owner.sent_bytes += len(chunk)
                self.wfile.write(b"0\r\n\r\n")

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002  (quiet tests)
                return

        return Handler
