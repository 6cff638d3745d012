"""`Supervisor`: the pool's engine room. It owns the worker processes and each env's state machine, reads replies,
enforces deadlines, and heals failures (kill, respawn, truncate, reset). `AsyncEnvPool` validates and delegates.
"""  # noqa: D205

from __future__ import annotations

import pickle
import selectors
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from multiprocessing.reduction import ForkingPickler
from typing import Any

from android_gym.errors import ConfigError
from android_gym.vector.checks import STATS_KEYS
from android_gym.vector.errors import PoolArgumentError, PoolTimeoutError, WorkerFailedError
from android_gym.vector.process import stop_children
from android_gym.vector.protocol import ApplyDone, Failed, Ready, ResetCommand, ResetDone, StepDone
from android_gym.vector.types import EnvState, PoolConfig, PoolResult, Row
from android_gym.vector.worker import EnvFactory, WorkerProcess


def encode(command: object, what: str) -> bytes:
    """`command` pickled for a worker; raises `PoolArgumentError` (naming `what`) if it cannot be pickled."""
    try:
        return bytes(ForkingPickler.dumps(command))
    except Exception as e:
        raise PoolArgumentError(f"{what} cannot be pickled for the worker ({type(e).__name__}: {e}); pass "
                                "picklable values (module-level functions, arrays, plain data)") from e


_RESET = encode(ResetCommand(), "reset")


class Slot:
    """One env: its worker process and where its episode stands (`EnvState`)."""

    def __init__(self, worker: WorkerProcess) -> None:
        self.worker = worker
        self.generation = 0  # bumped at every (re)start and stop; selector events of an older process are ignored
        self.state = EnvState.NEEDS_RESET
        self.deadline: float | None = None  # time.monotonic() by which the command in flight must be answered
        self.timeout_s: float | None = None
        self.pending: deque[tuple[int, Row]] = deque()  # (arrival number, row), not yet delivered
        self.last_obs: Any = None
        self.lost: str | None = None  # the worker died while idle: the next step truncates with this error
        self.failures_in_row = 0
        self.resume_state = EnvState.NEEDS_RESET  # the state an `apply` returns to
        self.apply_reply: tuple[bool, Any] | None = None
        # the pickled ResetCommand a respawn replays: the reset in flight, or the one the step in flight asked for
        self.next_reset = _RESET


class Supervisor:
    """Runs N workers; every method is called by `AsyncEnvPool` after it has validated its arguments."""

    def __init__(self, env_fns: Sequence[EnvFactory], config: PoolConfig) -> None:
        self.config = config
        context = self._context()
        self.slots = [Slot(WorkerProcess(i, fn, context)) for i, fn in enumerate(env_fns)]
        self.stats = dict.fromkeys(STATS_KEYS, 0)
        self.errors: list[WorkerFailedError] = []
        self._selector = selectors.DefaultSelector()
        self._arrivals = 0

    # -- start and stop ------------------------------------------------------------------------------------------------
    def start(self) -> Ready:
        """Start every worker and wait for every `Ready`; returns env 0's. Raises as `AsyncEnvPool.start`."""
        for slot in self.slots:
            try:
                self._start_worker(slot)
            except (pickle.PicklingError, AttributeError, TypeError) as e:  # only the first start pickles anew
                raise PoolArgumentError(
                    f"`env_fns[{slot.worker.index}]` cannot be sent to a {self.config.start_method!r} worker "
                    f"({type(e).__name__}: {e}); use a module-level function or class, or functools.partial of "
                    "one (or start_method='fork')") from e
        deadline = time.monotonic() + self.config.start_timeout_s
        for slot in self.slots:
            slot.worker.ready = self._await_first_ready(slot, deadline)
            first = self.slots[0].worker.ready
            assert first is not None
            ready = slot.worker.ready
            if (ready.observation_space, ready.action_space) != (first.observation_space, first.action_space):
                raise ConfigError(f"env {slot.worker.index} has other spaces than env 0 ({ready.observation_space}"
                                  f" vs {first.observation_space}); a pool holds copies of one env")
        assert self.slots[0].worker.ready is not None
        return self.slots[0].worker.ready

    def close(self, timeout_s: float, goodbye: bytes) -> None:
        """Send `goodbye` to every worker, wait up to `timeout_s` seconds for them to exit, SIGKILL the rest."""
        stop_children([slot.worker for slot in self.slots], goodbye, timeout_s)
        self._selector.close()

    # -- commands ------------------------------------------------------------------------------------------------------
    def step(self, slot: Slot, payload: bytes, reset_payload: bytes | None = None) -> None:
        """Send a pickled `StepCommand` to an idle env; `reset_payload`: its reset as a `ResetCommand` (None: plain)."""
        self._set(slot, EnvState.STEPPING, self.config.step_timeout_s)
        reset_payload = slot.next_reset = reset_payload or _RESET
        if slot.lost is not None:  # its worker died while idle (already respawned): this step is the episode's last
            error, slot.lost = slot.lost, None
            self._push_truncation(slot, error, "")
            self.reset(slot, reset_payload)
        elif not slot.worker.send(payload):
            self._on_exit(slot)

    def reset(self, slot: Slot, payload: bytes) -> None:
        """Send a pickled `ResetCommand` (reviving a broken env first)."""
        if slot.state is EnvState.BROKEN:
            slot.failures_in_row = 0
            self._start_worker(slot)
            self.stats["restarts"] += 1
        slot.lost = None
        slot.next_reset = payload
        self._set(slot, EnvState.RESETTING, self.config.reset_timeout_s)
        if not slot.worker.send(payload):
            self._on_exit(slot)

    def apply(self, slot: Slot, payload: bytes) -> None:
        """Send a pickled `ApplyCommand`; the reply lands in `slot.apply_reply`."""
        slot.resume_state, slot.apply_reply = slot.state, None
        self._set(slot, EnvState.APPLYING, self.config.apply_timeout_s)
        if not slot.worker.send(payload):
            self._on_exit(slot)

    # -- waiting and delivering ----------------------------------------------------------------------------------------
    def wait_until(self, is_done: Callable[[], bool], timeout_s: float | None, what: str) -> None:
        """Handle worker events until `is_done()`; raise the first `WorkerFailedError` or `PoolTimeoutError`."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        self.poll(0.0)
        while True:
            if self.errors:
                errors, self.errors = self.errors, []
                for other in errors[1:]:
                    errors[0].add_note(f"also: {other}")
                raise errors[0]
            if is_done():
                return
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise PoolTimeoutError(f"waited {timeout_s:g} s for {what}; what did arrive stays buffered")
            self.poll(remaining)

    def deliver(self, slots: Sequence[Slot]) -> PoolResult:
        """Pop the oldest row of each slot into a `PoolResult`."""
        return PoolResult.from_rows([slot.pending.popleft()[1] for slot in slots], [s.worker.index for s in slots])

    def poll(self, timeout_s: float | None) -> None:
        """Wait up to `timeout_s` seconds (None: until something happens) and handle every message, exit and
        overrun deadline."""  # noqa: D205, D209
        deadlines = [s.deadline for s in self.slots if s.deadline is not None]
        if deadlines:
            until_deadline = max(0.0, min(deadlines) - time.monotonic())
            timeout_s = until_deadline if timeout_s is None else min(timeout_s, until_deadline)
        for key, _ in self._selector.select(timeout_s):
            slot, kind, generation = key.data
            if generation != slot.generation:
                continue  # an event of a process replaced earlier in this loop
            if kind == "conn":
                self._read_one(slot)  # level-triggered: a second message wakes the next select at once
            else:
                self._drain(slot)  # what it sent before it died counts
                if generation == slot.generation:
                    self._on_exit(slot)
        now = time.monotonic()
        for slot in self.slots:
            if slot.deadline is not None and now >= slot.deadline:
                self._drain(slot)  # the answer may have just arrived
                if slot.deadline is not None and now >= slot.deadline:
                    what = {EnvState.STEPPING: "step", EnvState.RESETTING: "reset"}.get(slot.state, "apply")
                    self._fail(slot, "timeouts", f"its {what} overran its {slot.timeout_s:g} s deadline")

    # -- internals -----------------------------------------------------------------------------------------------------
    def _read_one(self, slot: Slot) -> None:
        assert slot.worker.conn is not None
        try:
            message = slot.worker.conn.recv()
        except (EOFError, OSError):
            self._on_exit(slot)
            return
        self._handle(slot, message)

    def _drain(self, slot: Slot) -> None:
        generation, conn = slot.generation, slot.worker.conn
        assert conn is not None
        try:
            while slot.generation == generation and conn.poll():
                self._handle(slot, conn.recv())
        except (EOFError, OSError):
            if slot.generation == generation:
                self._on_exit(slot)

    def _handle(self, slot: Slot, message: object) -> None:
        match message:
            case Ready():
                slot.worker.ready = message
            case StepDone() if slot.state is EnvState.STEPPING:
                slot.failures_in_row = 0
                self.stats["steps"] += 1
                message.info["is_reset"] = False
                self._push(slot, Row(message.obs, message.reward, message.terminated, message.truncated,
                                     message.info))
                if message.terminated or message.truncated:
                    self.stats["episodes"] += 1
                    self._set(slot, EnvState.RESETTING, self.config.reset_timeout_s)  # the worker resets on its own
                else:
                    self._set(slot, EnvState.IDLE, None)
            case ResetDone() if slot.state is EnvState.RESETTING:
                slot.failures_in_row = 0
                self.stats["resets"] += 1
                message.info["is_reset"] = True
                self._push(slot, Row(message.obs, 0.0, False, False, message.info))
                self._set(slot, EnvState.IDLE, None)
            case ApplyDone() if slot.state is EnvState.APPLYING:
                slot.apply_reply = (True, message.value)
                self._set(slot, slot.resume_state, None)
            case Failed(phase="apply") if slot.state is EnvState.APPLYING:
                slot.apply_reply = (False, message)
                self._set(slot, slot.resume_state, None)
            case Failed():
                self._fail(slot, "errors", f"its {message.phase} raised {message.error}", message.traceback)
            case _:
                self._fail(slot, "errors", f"protocol error: {type(message).__name__} while {slot.state.value}")

    def _on_exit(self, slot: Slot) -> None:
        slot.worker.process.join(0.5)  # for the exit code in the message
        self._fail(slot, "crashes", f"its worker process {slot.worker.exit_reason()}")

    def _fail(self, slot: Slot, counter: str, reason: str, traceback: str = "") -> None:
        """Kill the worker, account for what it had in flight, and respawn it (unless it fails too often)."""
        was, index, pid = slot.state, slot.worker.index, slot.worker.pid
        self._stop_worker(slot)
        self.stats[counter] += 1
        slot.failures_in_row += 1
        error = f"env {index} (worker pid {pid}): {reason}"
        if was is EnvState.APPLYING:
            slot.apply_reply = (False, Failed("apply", error, traceback))
            was = slot.resume_state
        if was is EnvState.STEPPING:
            self._push_truncation(slot, error, traceback)
        if slot.failures_in_row > self.config.max_consecutive_failures:
            self._set(slot, EnvState.BROKEN, None)
            self.errors.append(WorkerFailedError(index, f"failed {slot.failures_in_row} times in a row; last: "
                                                 f"{reason}", traceback))
            return
        self._start_worker(slot)
        self.stats["restarts"] += 1
        if was in (EnvState.STEPPING, EnvState.RESETTING):
            self.reset(slot, slot.next_reset)  # the same start the lost command would have made
        else:  # nothing was in flight: an idle env loses its episode at its next step, a fresh one just waits
            self._set(slot, was, None)
            slot.lost = error if was is EnvState.IDLE else None

    def _push(self, slot: Slot, row: Row) -> None:
        self._arrivals += 1
        slot.pending.append((self._arrivals, row))
        slot.last_obs = row.obs

    def _push_truncation(self, slot: Slot, error: str, traceback: str) -> None:
        info: dict[str, Any] = {"error": error, "is_reset": False}
        if traceback:
            info["traceback"] = traceback
        self.stats["steps"] += 1
        self.stats["episodes"] += 1
        self._push(slot, Row(slot.last_obs, 0.0, False, True, info))

    @staticmethod
    def _set(slot: Slot, state: EnvState, timeout_s: float | None) -> None:
        slot.state, slot.timeout_s = state, timeout_s
        slot.deadline = None if timeout_s is None else time.monotonic() + timeout_s

    def _context(self) -> BaseContext:
        context = get_context(self.config.start_method)
        if self.config.start_method == "forkserver" and self.config.preload_modules:
            from multiprocessing import forkserver

            # Merge with any preload list the user set; it only matters before this process's forkserver starts.
            current = list(getattr(forkserver._forkserver, "_preload_modules", ["__main__"]))
            context.set_forkserver_preload(current + [m for m in self.config.preload_modules if m not in current])
        return context

    def _start_worker(self, slot: Slot) -> None:
        slot.worker.start()
        slot.generation += 1
        assert slot.worker.conn is not None
        self._selector.register(slot.worker.conn.fileno(), selectors.EVENT_READ, (slot, "conn", slot.generation))
        self._selector.register(slot.worker.sentinel, selectors.EVENT_READ, (slot, "exit", slot.generation))

    def _stop_worker(self, slot: Slot) -> None:
        assert slot.worker.conn is not None
        for fd in (slot.worker.conn.fileno(), slot.worker.sentinel):
            try:
                self._selector.unregister(fd)
            except (KeyError, ValueError):
                pass
        slot.worker.kill()
        slot.generation += 1

    def _await_first_ready(self, slot: Slot, deadline: float) -> Ready:
        """`_await_ready`, respawning a worker whose factory raised or whose process died.

        A phone that fails while the env connects to it is a device fault like any other. It gets
        `max_consecutive_failures` respawns, as a failing step or reset would; a factory that always raises (a bad
        argument) still fails `start`, with the last traceback.
        """
        while True:
            try:
                return self._await_ready(slot, deadline)
            except WorkerFailedError as e:
                slot.failures_in_row += 1
                self.stats["errors"] += 1
                if slot.failures_in_row > self.config.max_consecutive_failures:
                    e.add_note(f"env {slot.worker.index} failed {slot.failures_in_row} times in a row at start")
                    raise
            self._stop_worker(slot)
            self._start_worker(slot)
            self.stats["restarts"] += 1

    def _await_ready(self, slot: Slot, deadline: float) -> Ready:
        conn, index = slot.worker.conn, slot.worker.index
        assert conn is not None
        if not conn.poll(max(0.0, deadline - time.monotonic())):
            raise PoolTimeoutError(f"env {index} was not built within start_timeout_s={self.config.start_timeout_s:g}"
                                   " s")
        try:
            message = conn.recv()
        except (EOFError, OSError) as e:
            slot.worker.process.join(1.0)
            raise WorkerFailedError(index, f"its worker {slot.worker.exit_reason()} before the env was built"
                                           f"{_main_guard_hint()}") from e
        if isinstance(message, Failed):
            raise WorkerFailedError(index, f"the env factory raised {message.error}", message.traceback)
        if not isinstance(message, Ready):
            raise WorkerFailedError(index, f"protocol error: {type(message).__name__} before Ready")
        return message


def _main_guard_hint() -> str:
    """A hint for a worker that died at once under a script: the most common cause is a missing main guard."""
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", None) is None:  # an interactive session or `python -c`: not that
        return ""
    return ("; if this is a script, is the code that makes the pool under `if __name__ == \"__main__\":`? "
            "(its traceback, above, says so)")
