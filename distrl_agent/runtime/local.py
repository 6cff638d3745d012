"""The local runtime (default): rollout workers as processes on this machine, the learner in the main process.

Dataflow (`train_local`):

    worker process i:  newest weights (queue i, drained to the last) -> Worker.step() -> finished trajectories
                       -> trajectory queue (shared)                        [async: never waits for the learner]
    main process:      trajectory queue (drained, never waited on while the replay has data) -> Learner.ingest
                       -> Learner.update() x K -> weights to every worker queue (once per round, newest only)
    sync mode:         each round every worker plays `episodes_per_round` episodes with the same weights, the learner
                       waits for all of them, trains, then sends weights (DigiRL's protocol).
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import queue
import time
import traceback
from dataclasses import dataclass
from typing import Any

from distrl_agent.config import TrainConfig

log = logging.getLogger("distrl")
_CTX = mp.get_context("spawn")  # torch + fork can deadlock in OpenMP; spawn is the safe default


@dataclass
class WorkerHandle:
    """The main process's view of one worker process."""

    index: int
    process: Any
    weights: Any  # queue of (version, state_dict)
    commands: Any  # queue of sync-mode commands


def _worker_main(index: int, config: TrainConfig, weights_q: Any, commands_q: Any, out_q: Any, stop: Any) -> None:
    import torch

    from distrl_agent.runtime.worker import Worker

    torch.set_num_threads(1)
    try:
        worker = Worker(index, config.env, config.runtime.envs_per_worker, seed=config.runtime.seed * 1000 + index)
        worker.start()
        while not stop.is_set():
            latest = None
            try:
                while True:
                    latest = weights_q.get_nowait()
            except queue.Empty:
                pass
            if latest is not None:
                worker.set_weights(latest[1], latest[0])
            if config.runtime.sync:
                try:
                    count = commands_q.get(timeout=0.2)
                except queue.Empty:
                    continue
                if latest is None:  # the round's weights travel just before its command
                    version, weights = weights_q.get(timeout=60)
                    worker.set_weights(weights, version)
                out_q.put(("trajectories", index, worker.run_episodes(count), dict(worker.stats)))
            else:
                finished = worker.step()
                if finished:
                    out_q.put(("trajectories", index, finished, dict(worker.stats)))
        worker.close()
    except Exception:  # noqa: BLE001  (reported to the main process, which restarts the worker)
        out_q.put(("error", index, traceback.format_exc(), {}))


class LocalRuntime:
    """Starts, feeds, restarts and stops worker processes for one training run."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.num_workers = config.runtime.workers or max(1, (os.cpu_count() or 2) - 1)
        if self.num_workers > (os.cpu_count() or 1):
            log.warning("%d workers on %d cores: they will share cores", self.num_workers, os.cpu_count())
        self.out_q: Any = None
        self.stop_event: Any = None
        self.workers: list[WorkerHandle] = []
        self.restarts = 0

    def start(self) -> None:
        """Spawn the worker processes."""
        self.out_q = _CTX.Queue()
        self.stop_event = _CTX.Event()
        self.workers = [self._spawn(i) for i in range(self.num_workers)]

    def _spawn(self, index: int) -> WorkerHandle:
        weights_q, commands_q = _CTX.Queue(), _CTX.Queue()
        p = _CTX.Process(target=_worker_main, args=(index, self.config, weights_q, commands_q, self.out_q,
                                                    self.stop_event), daemon=True, name=f"distrl-worker-{index}")
        p.start()
        return WorkerHandle(index, p, weights_q, commands_q)

    def broadcast(self, version: int, weights: dict) -> None:
        """Send the newest weights to every worker (workers drain to the newest)."""
        for w in self.workers:
            w.weights.put((version, weights))

    def command_round(self, episodes: int) -> None:
        """Sync mode: ask every worker for `episodes` episodes with the weights just broadcast."""
        for w in self.workers:
            w.commands.put(episodes)

    def poll(self, timeout: float) -> list[tuple]:
        """Messages from workers within `timeout` seconds (the first one waits, the rest are drained)."""
        messages = []
        try:
            messages.append(self.out_q.get(timeout=timeout))
            while True:
                messages.append(self.out_q.get_nowait())
        except queue.Empty:
            pass
        self._heal(messages)
        return [m for m in messages if m[0] == "trajectories"]

    def _heal(self, messages: list[tuple]) -> None:
        dead = {m[1] for m in messages if m[0] == "error"}
        for m in messages:
            if m[0] == "error":
                log.error("worker %d failed:\n%s", m[1], m[2])
        for w in self.workers:
            if not w.process.is_alive():
                dead.add(w.index)
        for index in dead:  # a dead worker loses its partial episodes (never shipped) and is replaced
            old = self.workers[index]
            if old.process.is_alive():
                old.process.kill()
            old.process.join(timeout=5)
            self.workers[index] = self._spawn(index)
            self.restarts += 1

    def close(self) -> None:
        """Stop every worker within a deadline."""
        if self.stop_event is not None:
            self.stop_event.set()
        deadline = time.monotonic() + 10
        for w in self.workers:
            w.process.join(timeout=max(0.1, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(timeout=5)
        self.workers = []
