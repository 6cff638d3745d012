"""`FaultLog`: why a worker's episodes were cut by faults, logged without flooding the log."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("distrl")


class FaultLog:
    """Says why episodes were cut by faults, without flooding the log.

    The first `first` faults are logged in full, then at most one line per `every_s` seconds with the number of
    faults since the last line. A worker's faults are otherwise only a count (`faulty_episodes`), and a run with
    faults nobody injected needs the reason (a device timing out under load, a crashed env process, a parse error).
    """

    def __init__(self, worker_id: int, first: int = 5, every_s: float = 60.0) -> None:
        self.worker_id, self.first, self.every_s = worker_id, first, every_s
        self.count = 0
        self._unlogged = 0
        self._last_s = -float("inf")

    def add(self, error: str) -> None:
        """Record one episode cut by `error` (`info["error"]`), logging it if due."""
        self.count += 1
        now = time.monotonic()
        if self.count > self.first and now - self._last_s < self.every_s:
            self._unlogged += 1
            return
        since = f" ({self._unlogged} more since the last report)" if self._unlogged else ""
        log.warning("worker %d: episode cut by a fault%s: %s", self.worker_id, since, error)
        self._unlogged, self._last_s = 0, now
