"""`JudgeService`: one judge (one model in memory) shared by many environments of a process, with batching.

Environments (or threads) submit requests to a bounded queue; one worker thread takes up to `max_batch` of them —
waiting at most `max_wait_s` after the first for more — and answers them with a single `judge_batch` call. Each
caller waits at most `timeout_s`. A full queue, a timeout, a closed service or a judge that raises all give an
"unknown" verdict that says why, never an exception into the env (which reports it in `info["verdict"]`, so the
trainer can drop the step instead of learning from a fake reward).

One bad request spoils only its own verdict (#43: one bad reply made all 8 of its batch unknown): when `judge_batch`
raises or returns the wrong number of verdicts, each request of the batch is judged again alone, and an answer that
is not a `Verdict` becomes unknown for that request only.

    service = JudgeService(MllmEvaluator(MllmJudgeConfig(path="/models/smolvlm")))
    envs = [gym.make("android_gym/General-v0", evaluator=service.client()) for _ in range(8)]
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from dataclasses import dataclass

from pydantic import Field

from android_gym.config_model import ConfigModel
from android_gym.errors import EnvStateError
from android_gym.evaluators.base import Evaluator, Observation, Verdict, unknown
from android_gym.tasks.base import Task

log = logging.getLogger(__name__)


class ServiceConfig(ConfigModel):
    """How a judge service batches and how long callers wait.

    Attributes:
        max_batch: requests per `judge_batch` call (8 matches a typical env pool; a GPU takes more).
        max_wait_s: seconds the worker waits for more requests after the first of a batch (trades a little
            latency for fuller batches).
        queue_size: requests waiting at most; beyond it callers get "unknown" at once (back-pressure).
        timeout_s: seconds a caller waits for its verdict; must exceed the judge's own deadline.
    """

    max_batch: int = Field(default=8, ge=1)
    max_wait_s: float = Field(default=0.005, ge=0)
    queue_size: int = Field(default=64, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)


@dataclass
class _Request:
    task: Task
    observation: Observation
    future: Future


_STOP = object()


class JudgeService:
    """A judge behind a bounded queue and a batching worker thread (see the module docstring).

    `start()` (or the first request, or `with`) starts the worker; `close()` stops it, answers what is still queued
    with "unknown", and closes the judge. Thread-safe.
    """

    def __init__(self, evaluator: Evaluator, config: ServiceConfig | None = None) -> None:
        self.evaluator = evaluator
        self.config = config or ServiceConfig()
        self._queue: queue.Queue = queue.Queue(self.config.queue_size)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._is_closed = False
        self._counts = {"service/requests": 0, "service/batches": 0, "service/timeouts": 0, "service/rejected": 0,
                        "service/failures": 0, "service/rejudged": 0}

    def __repr__(self) -> str:
        return f"JudgeService({self.evaluator!r}, max_batch={self.config.max_batch})"

    def start(self) -> None:
        """Start the worker thread (idempotent).

        Raises:
            EnvStateError: the service is closed.
        """
        with self._lock:
            if self._is_closed:
                raise EnvStateError("the judge service is closed; build a new one")
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="judge-service", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop the worker, answer queued requests with "unknown", and close the judge (idempotent)."""
        with self._lock:
            if self._is_closed:
                return
            self._is_closed = True
            thread = self._thread
        self._drain("the judge service closed")
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout=self.config.timeout_s)
        self._drain("the judge service closed")
        self.evaluator.close()

    def __enter__(self) -> JudgeService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stats(self) -> dict[str, float]:
        """The judge's counters plus the service's.

        The service's: `service/requests`, `service/batches`, `service/timeouts`, `service/rejected` (queue full),
        `service/failures` (judge calls that raised or answered the wrong number of verdicts) and `service/rejudged`
        (requests judged again alone after their batch failed).
        """
        with self._lock:
            return {**self.evaluator.stats(), **self._counts}

    def client(self, on_close: Callable[[], None] | None = None) -> ServiceClient:
        """An `Evaluator` that judges through this service (one per env); `on_close` runs when it is closed."""
        return ServiceClient(self, on_close)

    # -- the async pair ------------------------------------------------------------------------------------------------
    def judge_async(self, task: Task, observation: Observation) -> Future:
        """Queue one request; the future resolves to its `Verdict` (unknown at once when the queue is full).

        Raises:
            EnvStateError: the service is closed.
        """
        self.start()
        future: Future = Future()
        self._count("service/requests")
        try:
            self._queue.put_nowait(_Request(task, observation, future))
        except queue.Full:
            self._count("service/rejected")
            future.set_result(unknown(f"the judge queue is full ({self.config.queue_size} waiting)", source="service"))
        return future

    def judge_wait(self, future: Future, timeout_s: float | None = None) -> Verdict:
        """The verdict of `future`, waiting at most `timeout_s` (default `config.timeout_s`); never raises."""
        timeout_s = self.config.timeout_s if timeout_s is None else timeout_s
        try:
            return future.result(timeout=timeout_s)
        except FutureTimeoutError:
            future.cancel()  # if it has not started, the worker skips it
            self._count("service/timeouts")
            return unknown(f"no verdict within {timeout_s:.3g} s (the judge is busy or slow)", source="service")

    # -- worker --------------------------------------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch, is_stopping = self._collect(first)
            self._answer(batch)
            if is_stopping:
                return

    def _collect(self, first: _Request) -> tuple[list[_Request], bool]:
        batch = [first]
        until = time.monotonic() + self.config.max_wait_s
        while len(batch) < self.config.max_batch:
            try:
                item = self._queue.get(timeout=max(0.0, until - time.monotonic()))
            except queue.Empty:
                break
            if item is _STOP:
                return batch, True
            batch.append(item)
        return batch, False

    def _answer(self, batch: list[_Request]) -> None:
        live = [r for r in batch if r.future.set_running_or_notify_cancel()]
        if not live:
            return
        self._count("service/batches")
        items = [(r.task, r.observation) for r in live]
        verdicts, failure = self._judge_batch(items)
        if failure is not None and len(live) > 1:
            # Which request broke the batch is unknown: judge each alone, so it alone gets the unknown verdict.
            log.warning("judge service: %r %s on a batch of %d; judging each request alone", self.evaluator,
                        failure, len(live))
            for _ in live:
                self._count("service/rejudged")
            verdicts = [self._judge_alone(item) for item in items]
        elif failure is not None:
            log.warning("judge service: %r %s", self.evaluator, failure)
            verdicts = [unknown(f"the judge {failure}", source="service")]
        for request, verdict in zip(live, verdicts, strict=True):
            request.future.set_result(verdict)

    def _judge_alone(self, item: tuple[Task, Observation]) -> Verdict:
        verdicts, failure = self._judge_batch([item])
        return verdicts[0] if failure is None else unknown(f"the judge {failure}", source="service")

    def _judge_batch(self, items: list[tuple[Task, Observation]]) -> tuple[list[Verdict], str | None]:
        """The judge's verdicts for `items` and None, or ([], why) when it raised or answered the wrong number.

        Answers that are not `Verdict`s become unknown one by one: the others are still good.
        """
        try:
            verdicts = list(self.evaluator.judge_batch(items))
        except Exception as e:  # noqa: BLE001  (a judge bug becomes unknown verdicts, never a dead worker)
            self._count("service/failures")
            return [], f"raised {type(e).__name__}: {e}"
        if len(verdicts) != len(items):
            self._count("service/failures")
            return [], f"returned {len(verdicts)} verdicts for {len(items)} requests"
        return [v if isinstance(v, Verdict) else unknown(f"the judge returned {type(v).__name__}, not a Verdict",
                                                         source="service") for v in verdicts], None

    def _drain(self, reason: str) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not _STOP and item.future.set_running_or_notify_cancel():
                item.future.set_result(unknown(reason, source="service"))

    def _count(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1


class ServiceClient(Evaluator):
    """An env's handle on a shared `JudgeService`: judges through it and never raises."""

    def __init__(self, service: JudgeService, on_close: Callable[[], None] | None = None) -> None:
        self.service = service
        self.needs_screenshot = service.evaluator.needs_screenshot
        self.screenshot_history = service.evaluator.screenshot_history
        self._on_close = on_close
        self._is_closed = False

    def __repr__(self) -> str:
        return f"ServiceClient({self.service!r})"

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The service's verdict, or unknown (closed service, full queue, timeout)."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Queue every request, then wait for each (so they can share the service's batches)."""
        try:
            futures = [self.service.judge_async(task, observation) for task, observation in items]
        except EnvStateError as e:
            return [unknown(str(e), source="service") for _ in items]
        deadline = time.monotonic() + self.service.config.timeout_s
        return [self.service.judge_wait(f, max(0.0, deadline - time.monotonic())) for f in futures]

    def start(self) -> None:
        """Start the service (loads its judge's model where the judge does so on start)."""
        self.service.start()
        self.service.evaluator.start()

    def stats(self) -> dict[str, float]:
        """The shared service's counters (all clients together)."""
        return self.service.stats()

    def close(self) -> None:
        """Detach from the service (idempotent); the service stays up for other clients."""
        if not self._is_closed:
            self._is_closed = True
            if self._on_close is not None:
                self._on_close()
