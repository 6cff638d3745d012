"""The local runtime (default): rollout workers as processes on this machine, the learner in the main process.

Channels of worker process i (spawned, so torch's OpenMP state is never forked):

    weights:   SharedWeights (one shared-memory copy per version, seqlock)     learner -> every worker
    its pipe:  `messages.Command` (PlayRound, Drain, Stop)                     learner -> worker i
               `messages.Reply` (Collected, RoundPlayed, Drained, Failed)      worker i -> learner

The process and its pipe are an `android_gym.vector.process.ChildProcess`, the handle the env pool starts, kills,
reaps and explains its env processes with. One pipe per worker, never shared: a worker killed mid-send (SIGKILL)
leaves at most a truncated message in its own pipe, which the learner reads as end-of-file and discards; complete
messages before it are whole trajectories and are kept. Its in-progress episodes were never sent, so nothing is
half-inserted; they are counted (`runtime/discarded_partial_episodes`) and the worker is respawned with the current
weights.

Asynchronous mode: the worker's main thread steps and adopts the newest weights between steps; a sender thread
drains its bounded outbox into the pipe, blocking while the learner is busy (the pipe is the retry: the data goes
as soon as the learner reads), while collection continues and the outbox drops its oldest beyond
`runtime.worker_buffer_trajectories` (counted).

At the end of a run `drain` sends Drain: a worker stops collecting, its sender thread sends what it had taken, and
the worker answers Drained with the rest of its outbox and its final counters, so no trajectory is left in flight.

With `runtime.inference` on the host, one more child process, the host's inference service (`runtime/inference.py`),
holds the only copy of the policy: it reads each version from the same shared memory and answers the workers'
requests over a private Unix socket; workers then read only the version number, never the weights. A service that
dies is restarted (`runtime/inference_restarts`); its workers reconnect and ask again.

Synchronous mode: the learner publishes version v, then sends PlayRound(v, n) to every worker; a worker reads the
shared weights only after the command arrives, checks that it holds exactly v, plays n episodes and answers
RoundPlayed(..., v). The learner does not publish again before every worker has answered, so all of a round's steps
carry version v.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from android_gym.heap import return_freed_memory
from android_gym.vector.process import ChildProcess, stop_children
from distrl_agent.config import RuntimeSection
from distrl_agent.errors import WorkerError
from distrl_agent.runtime.base import Delivery, WorkerBook
from distrl_agent.runtime.inference import ServiceSpec, service_main
from distrl_agent.runtime.messages import Collected, Drain, Drained, Failed, PlayRound, Reply, RoundPlayed, Stop
from distrl_agent.runtime.weights import SharedWeights
from distrl_agent.runtime.worker_spec import WorkerSpec
from distrl_agent.types import Trajectory

log = logging.getLogger("distrl")
_CTX = mp.get_context("spawn")  # torch + fork can deadlock in OpenMP; spawn is the safe default
HEARTBEAT_S = 1.0  # a worker reports its counters at least this often, with or without trajectories


def _newest(spec: WorkerSpec, shared: SharedWeights) -> tuple[int, Any, float] | None:
    """The newest published (version, weights, published_at), or None: read whole, or only its version where the
    host's inference service holds the model (the worker never copies the weights then)."""  # noqa: D205, D209
    if spec.service is None:
        return shared.read()
    return None if shared.version < 0 else (shared.version, None, shared.published_at)


def _worker_main(spec: WorkerSpec, shared: SharedWeights, conn: mpc.Connection) -> None:
    """Body of a worker process: serve rounds (sync) or collect continuously (async) until told to stop."""
    if spec.service is None:  # acting here: one thread (the workers share the cores); else torch is never imported
        import torch

        torch.set_num_threads(1)
    return_freed_memory()  # hours of freed batches and frames must not stay resident (android_gym.heap)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the learner's to handle: it checkpoints, then stops us
    index, send_lock = spec.index, threading.Lock()

    def send(message: Reply) -> None:
        with send_lock:  # the sender thread and the main thread both answer
            conn.send(message)

    shell = spec.shell()
    sending, sender = threading.Event(), None
    try:
        shell.start()
        if not spec.sync:
            sending.set()
            sender = threading.Thread(target=_send_outbox, args=(index, shell, send, sending), daemon=True)
            sender.start()
        while True:
            if conn.poll(0.0 if not spec.sync and sending.is_set() else 0.5):
                match conn.recv():
                    case Stop():
                        break
                    case Drain():
                        sending.clear()  # the sender sends what it took, then stops; the rest goes here
                        if sender is not None:
                            sender.join()
                        send(Drained(index, shell.outbox.take(timeout_s=0), shell.stats()))
                    case PlayRound(version, episodes):
                        got = _newest(spec, shared)
                        if got is None or got[0] != version:
                            raise WorkerError(f"worker {index}: round for version {version}, but the shared weights "
                                              f"hold {None if got is None else got[0]}")
                        send(RoundPlayed(index, shell.run_round(*got, episodes), shell.stats(), version))
            elif not spec.sync and sending.is_set():
                # collect_step adopts the offer before the next read overwrites the arrays it views
                if shared.version > shell.version and (got := _newest(spec, shared)) is not None:
                    shell.offer(*got)
                shell.collect_step()
    except (EOFError, BrokenPipeError):  # the learner process went away: nothing left to do
        pass
    except Exception:  # noqa: BLE001  (reported to the learner process, which restarts this worker)
        try:
            send(Failed(index, traceback.format_exc(), shell.stats()))
        except OSError:
            pass
        raise SystemExit(1) from None
    finally:
        shell.close()


def _send_outbox(index: int, shell: Any, send: Any, sending: threading.Event) -> None:
    """Sender thread: outbox -> results pipe (blocks while the learner is not reading); heartbeats when idle.

    Runs while `sending` is set; what it took before that is sent first, so nothing taken is left behind.
    """
    last = 0.0
    try:
        while sending.is_set():
            batch = shell.outbox.take(timeout_s=0.2, max_items=32)
            if batch or time.monotonic() - last > HEARTBEAT_S:
                send(Collected(index, batch, shell.stats()))
                last = time.monotonic()
    except OSError:  # the learner went away
        return


def _delivery(worker: int, trajectories: list[Trajectory], version: int | None) -> Delivery:
    return Delivery(worker, trajectories, [t.success for t in trajectories], sum(t.length for t in trajectories),
                    version)


_STOP = pickle.dumps(Stop())


@dataclass
class _Proc:
    """One worker process as the runtime sees it: its handle, the round it owes, the messages read but not handled."""

    index: int
    child: ChildProcess
    round: tuple[int, int] | None = None  # (version, episodes) of the round it owes us
    is_dead: bool = False
    is_drained: bool = False  # it answered `Drain`: it sends nothing more
    messages: list[Reply] = field(default_factory=list)

    @property
    def conn(self) -> mpc.Connection:
        assert self.child.conn is not None
        return self.child.conn


class LocalRuntime:
    """Starts, feeds, restarts and stops worker processes for one run (implements `runtime.base.Runtime`).

    Args:
        workers: one spec per worker process (`WorkerSpec.of_run`); a restarted worker starts from its spec again.
        settings: the run's `runtime` section (restarts allowed, envs per worker, sync rounds).
        service: the host's inference service, which the workers' specs name (`WorkerSpec.service`), or None.

    Raises (from `poll` and `run_round`):
        WorkerError: a worker died more than `runtime.max_worker_restarts` times.
    """

    def __init__(self, workers: Sequence[WorkerSpec], settings: RuntimeSection,
                 service: ServiceSpec | None = None) -> None:
        self.specs, self.settings = list(workers), settings
        self.service_spec = service
        self.service: ChildProcess | None = None
        self.num_workers = len(self.specs)
        self.book = WorkerBook(self.num_workers, settings.max_worker_restarts, settings.envs_per_worker)
        self.shared: SharedWeights | None = None
        self.procs: list[_Proc] = []

    @property
    def restarts(self) -> int:
        """Worker restarts so far, all workers together."""
        return sum(self.book.restarts)

    def start(self, version: int, weights: Any) -> None:
        """Publish the initial weights and spawn the worker processes (warns when they outnumber the cores)."""
        cores = os.cpu_count() or 1
        if self.num_workers > cores:
            log.warning("%d workers on %d cores: they will share cores (throughput per worker drops)",
                        self.num_workers, cores)
        self.shared = SharedWeights(weights, _CTX)
        self.shared.publish(version, weights)
        if self.service_spec is not None:  # before the workers, which connect to it (retrying while it starts)
            self.service = ChildProcess("distrl-inference", service_main, (self.service_spec, self.shared), _CTX)
            self.service.start()
        self.procs = [self._spawn(i) for i in range(self.num_workers)]
        atexit.register(self.close)  # runs before multiprocessing's own exit hook would wait for the workers

    def _spawn(self, index: int) -> _Proc:
        # Not a daemon: a worker whose envs run in their own processes (slow devices) must be able to start them. An
        # atexit hook (see `start`) stops workers if the learner exits without closing the runtime.
        child = ChildProcess(f"distrl-worker-{index}", _worker_main, (self.specs[index], self.shared), _CTX,
                             daemon=False)
        child.start()
        return _Proc(index, child)

    def publish(self, version: int, weights: Any) -> None:
        """Write `version` into shared memory once; workers pick it up between steps."""
        self.shared.publish(version, weights)  # type: ignore[union-attr]

    def fetch(self, handle: Any) -> Any:
        """Local handles are the values themselves."""
        return handle

    def poll(self, timeout_s: float) -> list[Delivery]:
        """Deliveries that arrived, waiting up to `timeout_s` seconds for the first; heals dead workers."""
        return [d for d in self._receive(timeout_s) if d.version is None]

    def run_round(self, version: int, episodes: int, deadline: float) -> list[Delivery]:
        """Every worker plays `episodes` episodes with the published `version` (see the module docstring)."""
        if self.shared is None or self.shared.version != version:
            raise WorkerError(f"publish version {version} before commanding its round")
        for proc in self.procs:
            self._command_round(proc, version, episodes)
        deliveries: list[Delivery] = []
        while any(p.round is not None for p in self.procs) and time.monotonic() < deadline:
            for delivery in self._receive(min(1.0, max(0.0, deadline - time.monotonic()))):
                proc = self.procs[delivery.worker]
                if delivery.version == version and proc.round is not None:
                    proc.round = None
                    deliveries.append(delivery)
                else:
                    self.book.stale_round += len(delivery.trajectories)
        return deliveries

    def _command_round(self, proc: _Proc, version: int, episodes: int) -> None:
        proc.round = (version, episodes)
        if not proc.child.send_message(PlayRound(version, episodes)):
            proc.is_dead = True  # healed (and re-commanded) by the next _receive

    def _receive(self, timeout_s: float) -> list[Delivery]:
        readers = {p.conn: p for p in self.procs}
        sentinels = {p.child.sentinel: p for p in self.procs}
        for ready in mpc.wait([*readers, *sentinels], timeout=timeout_s):
            proc = readers.get(ready) or sentinels[ready]  # type: ignore[call-overload]
            self._drain(proc, until_eof=ready in sentinels)
        for proc in self.procs:
            if not proc.is_dead and not proc.child.is_alive():
                self._drain(proc, until_eof=True)  # keep the whole messages it sent before dying
                proc.is_dead = True
        deliveries = []
        for proc in self.procs:
            for message in proc.messages:
                self.book.update(message.worker, message.stats)
                if isinstance(message, Collected | RoundPlayed | Drained):
                    self.book.receive(message.worker, len(message.trajectories))
                match message:
                    case Failed(index, failure):
                        self.book.last_error[index] = failure
                        log.error("worker %d failed:\n%s", index, failure)
                    case RoundPlayed(index, trajectories, _, version):
                        deliveries.append(_delivery(index, trajectories, version))
                    case Collected(index, trajectories) if trajectories:  # an empty one is a heartbeat
                        deliveries.append(_delivery(index, trajectories, None))
                    case Drained(index, trajectories):
                        proc.is_drained = True
                        if trajectories:
                            deliveries.append(_delivery(index, trajectories, None))
            proc.messages.clear()
        for proc in list(self.procs):
            if proc.is_dead:
                self._restart(proc)
        self._heal_service()
        return deliveries

    def _heal_service(self) -> None:
        """Restart the host's inference service if it died (its workers reconnect by themselves).

        Raises:
            WorkerError: it died more than `runtime.max_worker_restarts` times.
        """
        if self.service is None or self.service.is_alive():
            return
        reason = self.service.exit_reason()
        self.service.kill()
        self.book.inference_restarts += 1
        if self.book.inference_restarts > self.settings.max_worker_restarts:
            raise WorkerError(f"the inference service {reason} {self.book.inference_restarts} times "
                              f"(`runtime.max_worker_restarts`={self.settings.max_worker_restarts})")
        log.warning("the inference service %s; restarting it (restart %d)", reason, self.book.inference_restarts)
        self.service.start()

    def _drain(self, proc: _Proc, until_eof: bool) -> None:
        """Read every complete message of `proc`; a truncated one (killed mid-send) marks it dead, unread."""
        try:
            while proc.conn.poll(0.05 if until_eof else 0.0):
                proc.messages.append(proc.conn.recv())
        except (EOFError, OSError):
            proc.is_dead = True

    def _restart(self, proc: _Proc) -> None:
        proc.child.process.join(0.5)  # reaped, for its exit code
        reason = proc.child.exit_reason()  # "stopped answering" if its pipe broke while it still runs
        proc.child.kill()
        self.book.retire(proc.index, self.book.in_progress(self.settings.sync, proc.round and proc.round[1]))
        log.warning("worker %d %s; restarting it (restart %d)", proc.index, reason, self.book.restarts[proc.index])
        fresh = self._spawn(proc.index)
        self.procs[proc.index] = fresh
        if proc.round is not None:  # it owed us a round: the replacement plays it from scratch
            self._command_round(fresh, *proc.round)

    def drain(self, timeout_s: float) -> list[Delivery]:
        """The run is over: every worker stops collecting and sends what it holds; returns those deliveries.

        Waits up to `timeout_s` seconds for every live worker's `Drained`; the counters are final afterwards (a
        worker that dies meanwhile is restarted and counted as usual, and its replacement drained too).
        """
        deadline = time.monotonic() + timeout_s
        commanded: set[int] = set()
        deliveries: list[Delivery] = []
        while time.monotonic() < deadline:
            for proc in self.procs:
                if id(proc) not in commanded and not proc.is_drained:
                    commanded.add(id(proc))
                    if not proc.child.send_message(Drain()):
                        proc.is_dead = True
            if all(p.is_drained for p in self.procs):
                break
            deliveries += self._receive(min(0.5, max(0.0, deadline - time.monotonic())))
        if not all(p.is_drained for p in self.procs):
            log.warning("%d workers did not drain within %.0f s; what they held is counted as lost",
                        sum(not p.is_drained for p in self.procs), timeout_s)
        return [d for d in deliveries if d.version is None]

    def stats(self) -> dict[str, float]:
        """`runtime/` counters (see `WorkerBook.totals`)."""
        return self.book.totals()

    def kill_worker(self, index: int) -> int:
        """SIGKILL worker `index` (fault injection for tests and drills); returns its pid."""
        child = self.procs[index].child
        child.process.kill()  # not child.kill(): the runtime must find out by itself, as after a real crash
        assert child.pid is not None
        return child.pid

    def close(self) -> None:
        """Ask every worker to stop, then kill those still alive after 10 s."""
        stop_children([p.child for p in self.procs], _STOP, timeout_s=10)
        self.procs = []
        if self.service is not None:  # after the workers: none is left waiting on it
            stop_children([self.service], _STOP, timeout_s=10)
            self.service = None
        if self.service_spec is not None:
            self.service_spec.address.remove()
        atexit.unregister(self.close)
