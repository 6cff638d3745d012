"""What the training loop needs from a transport (`Runtime`) and from its learner (`LearnerHandle`), what it receives
(`Delivery`), and worker accounting.

`LocalRuntime` (runtime/local.py) and `RayRuntime` (runtime/ray.py) implement `Runtime` around the same
`WorkerShell`; `Learner` (runtime/learner.py, in process) and `RayLearner` (runtime/ray_actors.py, the proxy of a
learner actor) implement `LearnerHandle`; `train.run_loop` is written against this file only.
"""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from distrl_agent.errors import WorkerError
from distrl_agent.runtime import counters
from distrl_agent.runtime.counters import COUNTERS, Combine


@dataclass
class Delivery:
    """Whole trajectories from one worker, as they arrived.

    Attributes:
        worker: the worker index.
        trajectories: the `Trajectory` list (local), or a Ray object ref to it (the learner actor resolves it, so
            trajectories travel worker -> learner without passing through the driver).
        successes: one flag per trajectory (what the progress bar needs without fetching the data).
        steps: the number of steps in the trajectories.
        version: the weights version of a synchronous round; None for asynchronous collection.
    """

    worker: int
    trajectories: Any
    successes: list[bool] = field(default_factory=list)
    steps: int = 0
    version: int | None = None


class Runtime(Protocol):
    """A set of rollout workers behind one transport.

    Callers must `start` before anything else and `close` at the end (both are idempotent). No method blocks longer
    than its timeout or deadline; crashed workers are restarted inside `poll`/`run_round` and counted.
    """

    num_workers: int
    book: WorkerBook  # per-worker counters (`book.current[i]` is empty until worker i has reported)

    def start(self, version: int, weights: Any) -> None:
        """Start the workers with initial weights (a numpy state_dict, or what `Learner.weights` returned)."""

    def publish(self, version: int, weights: Any) -> None:
        """Make `version` the newest weights for every worker (one copy per version); never waits for workers."""

    def poll(self, timeout_s: float) -> list[Delivery]:
        """Asynchronous mode: what arrived, waiting up to `timeout_s` seconds for the first delivery."""

    def run_round(self, version: int, episodes: int, deadline: float) -> list[Delivery]:
        """Synchronous mode: every worker plays `episodes` episodes with `version`; returns when all have finished.

        A worker that crashes mid-round is restarted and replays its share; on `deadline` (time.monotonic()) the
        round is abandoned and what finished is returned.
        """

    def fetch(self, handle: Any) -> Any:
        """The value behind a handle: weights, or a delivery's trajectories (the handle itself when local)."""

    def stats(self) -> dict[str, float]:
        """`runtime/` counters summed over workers and their incarnations."""

    def drain(self, timeout_s: float) -> list[Delivery]:
        """The run is over: workers stop collecting and hand over what they hold, within `timeout_s` seconds.

        Afterwards the counters are final: every episode a worker started is ended and shipped, dropped, unfinished,
        or lost with a worker that died (`WorkerBook.totals`). Asynchronous deliveries only (`version` None).
        """

    def close(self) -> None:
        """Stop every worker within a deadline."""


class LearnerHandle(Protocol):
    """The calls the training loop makes on its learner, each a plain call with plain-data arguments and results, so
    that a learner in another process (a Ray actor) answers them the same way (see `Learner` for what each does)."""  # noqa: D205, D209

    def ingest(self, trajectories: Any) -> Any:
        """Add trajectories (a list, or a Ray ref to one) to the replay."""
        ...

    def ready(self) -> bool:
        """Whether the replay holds enough trajectories to train."""
        ...

    def train_steps(self, count: int) -> dict[str, float]:
        """Up to `count` gradient steps; the metrics of the last."""
        ...

    def weights(self) -> Any:
        """The current trainable weights (numpy arrays, or a Ray ref to them)."""
        ...

    def get_version(self) -> int:
        """The current weights version: gradient steps made."""
        ...

    def set_policy_weights(self, weights: Any) -> None:
        """Load trainable weights (a warm start, or initial weights)."""
        ...

    def set_lr_scale(self, scale: float) -> None:
        """Scale the learning rate (the decay schedule)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counters of the learner and its replay."""
        ...

    def save(self, directory: str) -> None:
        """Write a checkpoint into `directory`."""
        ...

    def load(self, directory: str) -> None:
        """Restore the checkpoint in `directory`."""
        ...


class WorkerBook:
    """Worker counters across incarnations: a restarted worker's counters start from zero, the totals do not.

    Args:
        num_workers: worker indices are 0..num_workers-1.
        max_restarts: restarts allowed per worker.
        envs_per_worker: environments per worker.
    """

    SUMMED = counters.reported(Combine.SUM)
    MAXED = counters.reported(Combine.MAX)
    GAUGES = counters.reported(Combine.GAUGE)
    """A live worker's state now, not a count: its episodes under way, trajectories waiting for their group or in
    its outbox (after `Runtime.drain`, what was left when the run ended)."""

    def __init__(self, num_workers: int, max_restarts: int, envs_per_worker: int) -> None:
        self.max_restarts, self.envs_per_worker = max_restarts, envs_per_worker
        self.current: list[dict[str, float]] = [{} for _ in range(num_workers)]
        self.retired = dict.fromkeys(self.SUMMED, 0.0)
        self.maxima = dict.fromkeys(self.MAXED, 0.0)  # over every incarnation of every worker
        self.restarts = [0] * num_workers
        self.discarded_partial = 0
        self.received = [0] * num_workers  # trajectories the runtime received from each worker's current incarnation
        self.received_retired = 0
        self.stale_round = 0  # trajectories of a synchronous round answered for an older version: not used
        self.lost_in_progress = 0  # episodes a dead worker's last report had under way (a lower bound of the truth)
        self.lost_with_workers = 0  # finished trajectories a dead worker held (outbox, group, pipe) when it died
        self.last_error: list[str] = [""] * num_workers
        self.dropped: set[int] = set()  # workers whose node left the cluster: no calls go to them any more
        self.inference_restarts = 0  # the host's inference service, restarted after it died

    def receive(self, index: int, trajectories: int) -> None:
        """The runtime received `trajectories` from worker `index` (its current incarnation)."""
        self.received[index] += trajectories

    def update(self, index: int, stats: dict[str, float]) -> None:
        """Record the newest counters of worker `index` (its current incarnation)."""
        if stats:
            self.current[index] = stats
            for key in self.MAXED:
                self.maxima[key] = max(self.maxima[key], float(stats.get(key, 0.0)))

    def retire(self, index: int, in_progress: int) -> None:
        """Worker `index` died: keep its counters, count the restart and its `in_progress` episodes as discarded.

        Raises:
            WorkerError: the worker has now been restarted more than `max_restarts` times.
        """
        self._bank(index, in_progress)
        self.restarts[index] += 1
        if self.restarts[index] > self.max_restarts:
            raise WorkerError(f"worker {index} died {self.restarts[index]} times (`runtime.max_worker_restarts`="
                              f"{self.max_restarts}); last error:\n{self.last_error[index] or 'killed (no traceback)'}")

    def drop(self, index: int, in_progress: int) -> None:
        """Worker `index` is gone for good (its node left the cluster): keep its counters, count its `in_progress`
        episodes as discarded, and send it nothing more (idempotent).

        Raises:
            WorkerError: no worker is left.
        """  # noqa: D205
        if index in self.dropped:
            return
        self._bank(index, in_progress)
        self.dropped.add(index)
        if len(self.dropped) == len(self.current):
            raise WorkerError("every worker is gone: their nodes left the cluster; last error:\n"
                              f"{self.last_error[index] or 'node lost'}")

    def _bank(self, index: int, in_progress: int) -> None:
        """Move the counters of worker `index`'s ended incarnation to the totals kept over incarnations."""
        last = self.current[index]
        for key in self.SUMMED:
            self.retired[key] += float(last.get(key, 0.0))
        if "started" in last:  # what its last report had under way and in hand, for the episode balance
            self.lost_in_progress += int(last["started"] - last["episodes"])
            self.lost_with_workers += int(last["shipped"] - last["dropped_trajectories"] - self.received[index]
                                          + last.get("held_in_groups", 0))
        self.discarded_partial += in_progress
        self.received_retired += self.received[index]
        self.received[index] = 0
        self.current[index] = {}

    def in_progress(self, is_sync: bool, round_episodes: int | None) -> int:
        """Episodes a worker loses when it dies now.

        Every slot while collecting asynchronously (a slot starts its next episode at once), the slots its round
        keeps busy while it owes one (`round_episodes`), none between rounds.
        """
        if not is_sync:
            return self.envs_per_worker
        return min(self.envs_per_worker, round_episodes) if round_episodes else 0

    def totals(self) -> dict[str, float]:
        """Every `runtime/` total of `counters.COUNTERS`: the workers' counters combined over workers and their
        incarnations, and the book's own (restarts, received, in flight, lost, discarded, mean latency)."""  # noqa: D205, D209
        value = {key: self.retired[key] + sum(float(s.get(key, 0.0)) for s in self.current) for key in self.SUMMED}
        value.update(self.maxima)
        value.update({key: sum(float(s.get(key, 0.0)) for s in self.current) for key in self.GAUGES})
        received = self.received_retired + sum(self.received)
        adopted = value["adopted"]
        book = {
            "trajectories_received": received,
            # in live workers' outboxes or pipes, not (yet) read: at the end of a run, after `drain`, 0
            "trajectories_in_flight": sum(float(s.get("sent", 0.0)) for s in self.current) - sum(self.received)
            + value["buffered"],
            "lost_in_progress": self.lost_in_progress, "lost_with_workers": self.lost_with_workers,
            "stale_round_trajectories": self.stale_round, "worker_restarts": sum(self.restarts),
            "workers_dropped": len(self.dropped), "inference_restarts": self.inference_restarts,
            "discarded_partial_episodes": self.discarded_partial,
            "broadcast_latency_ms_mean": 1000 * value["latency_s_sum"] / adopted if adopted else 0.0,
        }
        return {c.total: c.scale * float(value[c.key] if c.key else book[c.total.removeprefix("runtime/")])
                for c in COUNTERS if c.total}
