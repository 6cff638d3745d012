"""The worker side of every transport: a `Worker` plus weight adoption, latency accounting and a bounded outbox.

The local runtime runs a `WorkerShell` in a worker process, the Ray runtime in an actor; both feed it weights with
`offer()` and take finished trajectories from its `Outbox`, so the rules below hold under either transport:

* weights are adopted between batched steps, never mid-step, newest version only (older offers are ignored);
* the broadcast latency of a version is measured from the learner's `published_at` (wall clock, seconds) to the
  moment the worker acts with it (a worker's first weights, which also waited for it to start, are not counted);
* while the learner is not reading, finished trajectories wait in a bounded FIFO; when it is full the oldest is
  dropped and counted (`dropped_trajectories`), so a worker that cannot reach the learner keeps collecting with
  bounded memory and delivers the newest data when the learner reads again.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from distrl_agent.errors import ConfigError
from distrl_agent.runtime.worker import Worker
from distrl_agent.types import Trajectory


class Outbox:
    """A thread-safe bounded FIFO of finished trajectories; when full, `put` drops the oldest and counts it.

    Its counts move together under one lock, so `counts()` always satisfies put = dropped + taken + held.

    Args:
        capacity: the most trajectories held.

    Raises:
        ConfigError: `capacity` < 1.

    >>> box = Outbox(2)
    >>> box.put(["a", "b", "c"]); box.take(timeout_s=0), box.dropped
    (['b', 'c'], 1)
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ConfigError(f"`capacity` must be >= 1, got {capacity}")
        self._items: deque[Any] = deque()
        self._capacity = capacity
        self._ready = threading.Condition()
        self.dropped = 0
        self.put_total = 0
        self.taken_total = 0
        self._counters: dict[str, Any] | None = None  # the producer's counters as of the last `put`

    def __len__(self) -> int:
        return len(self._items)

    def put(self, items: list[Any], counters: Mapping[str, Any] | None = None) -> None:
        """Append `items`, dropping the oldest held ones beyond the capacity.

        `counters`, the producer's counters at this moment (e.g. episodes ended), are kept with the counts, so that
        a reader on another thread sees both as of one instant (`counts`).
        """
        with self._ready:
            if counters is not None:
                self._counters = dict(counters)
            if not items:
                return
            self.put_total += len(items)
            for item in items:
                if len(self._items) == self._capacity:
                    self._items.popleft()
                    self.dropped += 1
                self._items.append(item)
            self._ready.notify_all()

    def take(self, timeout_s: float, max_items: int | None = None) -> list[Any]:
        """Remove and return up to `max_items` items (all by default), waiting up to `timeout_s` seconds for one."""
        with self._ready:
            if not self._items and timeout_s > 0:
                self._ready.wait_for(lambda: bool(self._items), timeout=timeout_s)
            count = len(self._items) if max_items is None else min(max_items, len(self._items))
            self.taken_total += count
            return [self._items.popleft() for _ in range(count)]

    def counts(self) -> dict[str, Any]:
        """The producer's counters of the last `put` (None before), `shipped` (put), `dropped_trajectories`, `sent`
        (taken) and `buffered` (held), all read at one instant."""  # noqa: D205, D209
        with self._ready:
            return {"counters": self._counters, "shipped": self.put_total, "dropped_trajectories": self.dropped,
                    "sent": self.taken_total, "buffered": len(self._items)}


class WorkerShell:
    """Runs one `Worker` for a transport: adopts offered weights between steps and fills a bounded `Outbox`.

    Args:
        worker: the worker, not started (`start()` starts it).
        outbox_capacity: trajectories held while nobody takes them (see the module docstring).

    `offer()` may be called from another thread than `collect_step()`; everything else belongs to one thread.
    """

    def __init__(self, worker: Worker, outbox_capacity: int) -> None:
        self.worker = worker
        self.outbox = Outbox(outbox_capacity)
        self._pending: tuple[int, Mapping[str, Any], float] | None = None
        self._held = -1  # the version adopted; -1: none yet (the worker's own random init is never used)
        self._lock = threading.Lock()
        self._offered = threading.Event()
        self._latency = {"adopted": 0, "latency_s_sum": 0.0, "latency_s_max": 0.0}
        self._round_shipped = 0  # trajectories handed over by synchronous rounds (they bypass the outbox)

    def start(self) -> None:
        """Start the worker's environments."""
        self.worker.start()

    def close(self) -> None:
        """Close the worker's environments."""
        self.worker.close()

    @property
    def version(self) -> int:
        """The newest version offered or held (-1 before the first offer)."""
        with self._lock:
            return self._held if self._pending is None else max(self._pending[0], self._held)

    def offer(self, version: int, weights: Mapping[str, Any], published_at: float) -> None:
        """Hand over weights of `version` (published at `published_at`, `time.time()` seconds); newest wins."""
        with self._lock:
            if version > self._held and (self._pending is None or version > self._pending[0]):
                self._pending = (int(version), weights, float(published_at))
                self._offered.set()

    def adopt_pending(self) -> None:
        """Load the newest offered weights now, if any, and record their broadcast latency."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is None:
            return
        version, weights, published_at = pending
        self.worker.set_weights(weights, version)
        is_first, self._held = self._held < 0, version
        if is_first:  # the first weights of a (re)started worker also waited for it to start: not a broadcast
            return
        latency = max(0.0, time.time() - published_at)
        self._latency["adopted"] += 1
        self._latency["latency_s_sum"] += latency
        self._latency["latency_s_max"] = max(self._latency["latency_s_max"], latency)

    def collect_step(self) -> int:
        """Asynchronous collection: adopt pending weights, one batched step, finished episodes into the outbox.

        Returns:
            The number of trajectories that finished on this step (0 without a step while no weights were offered:
            the worker never acts with its own random initialisation).
        """
        self.adopt_pending()
        if self._held < 0:
            self._offered.wait(timeout=0.1)
            return 0
        finished = self.worker.step()
        self.outbox.put(finished, self._worker_counters())  # one instant: the episodes ended and those shipped
        if self.worker.is_held:  # admission: nothing may start before newer weights; wait for them, not spin
            self._offered.clear()
            if self._pending is None:
                self._offered.wait(timeout=0.1)
        return len(finished)

    def run_round(self, version: int, weights: Mapping[str, Any], published_at: float,
                  episodes: int) -> list[Trajectory]:
        """Synchronous mode: adopt `version` and play exactly `episodes` episodes with it (all slots end idle)."""
        self.offer(version, weights, published_at)
        self.adopt_pending()
        trajectories = self.worker.run_episodes(episodes)
        self._round_shipped += len(trajectories)
        return trajectories

    def stats(self) -> dict[str, float]:
        """The worker's counters plus `in_progress`, the outbox's counts (`Outbox.counts`) and the adoption latency."""
        counts = self.outbox.counts()
        worker = counts.pop("counters") or self._worker_counters()  # none put yet (or sync rounds): as they are now
        counts["shipped"] += self._round_shipped
        counts["sent"] += self._round_shipped
        return {**worker, **counts, "version": self.worker.version, **self._latency}

    def _worker_counters(self) -> dict[str, Any]:
        """The worker's counters with what it holds now: `in_progress` episodes and `held_in_groups` trajectories."""
        return {**self.worker.stats, "in_progress": self.worker.stats["started"] - self.worker.stats["episodes"],
                "held_in_groups": self.worker.held_in_groups}
