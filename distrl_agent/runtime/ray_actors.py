"""The Ray actors' side: `RayWorker` (a `WorkerShell` in an actor), `RayInferenceService` (a host's inference service
in an actor) and `RayLearner` (a proxy of the learner actor).

See `runtime/ray.py` for the dataflow. Ray is imported lazily (`import_ray`), so this module imports without it.
"""  # noqa: D205

from __future__ import annotations

import dataclasses
import os
import re
import threading
import traceback
from typing import Any

from android_gym.heap import return_freed_memory
from distrl_agent.errors import ClusterError, WorkerError
from distrl_agent.runtime.base import LearnerHandle
from distrl_agent.runtime.worker_spec import WorkerSpec

MIN_RAY_VERSION = (2, 52)  # the first Ray with token authentication (RAY_AUTH_MODE=token); issue 20


def import_ray() -> Any:
    """The `ray` module, of a version that has token authentication (>= 2.52).

    Raises:
        ClusterError: Ray is not installed (the message names the extra to install), or it is older than 2.52.
    """
    try:
        import ray
    except ImportError as e:
        raise ClusterError('the Ray runtime needs Ray: pip install ".[ray]" (the `ray` extra of distrl), or use '
                           "runtime.runtime=local") from e
    if ray_version(ray.__version__) < MIN_RAY_VERSION:
        wanted = ".".join(map(str, MIN_RAY_VERSION))
        raise ClusterError(f"the Ray runtime needs Ray >= {wanted} (token authentication, RAY_AUTH_MODE=token); "
                           f'found ray {ray.__version__}: pip install -U "ray>={wanted}"')
    return ray


def ray_version(version: str) -> tuple[int, int]:
    """(major, minor) of a Ray version string; (0, 0) when it does not start with two numbers, which fails checks.

    >>> ray_version("2.60.0"), ray_version("3.0.0.dev0"), ray_version("nightly")
    ((2, 60), (3, 0), (0, 0))
    """
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match[1]), int(match[2])) if match else (0, 0)


class RayWorker:
    """A Ray actor around one `WorkerShell`; asynchronous collection runs in a background thread.

    Args:
        spec: the worker (`WorkerSpec.of_run`).
    """

    def __init__(self, spec: WorkerSpec) -> None:
        self.index, self.spec = spec.index, spec
        self.shell: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._error = ""
        self._start_lock = threading.Lock()  # methods run on two threads (max_concurrency=2)
        self._admission_at_start: Any = None  # the share of a full fleet (`set_fleet_size` scales from it)

    def _ensure_started(self) -> None:
        with self._start_lock:
            self._start_unlocked()

    def _start_unlocked(self) -> None:
        if self.shell is None:
            spec = self.spec
            if spec.service is None:  # acting here: one thread; a worker served by its node's service has no torch
                import torch

                torch.set_num_threads(1)
            else:  # the service of this actor's node (`RayInferenceService`, at the node's own socket path)
                spec = dataclasses.replace(spec, service=spec.service.on_node(self.node_id()))
            return_freed_memory()  # this actor's process collects for hours (android_gym.heap)
            shell = spec.shell()
            shell.start()
            self.shell = shell

    def pid(self) -> int:
        """The actor's process id (for fault injection)."""
        return os.getpid()

    def node_id(self) -> str:
        """The Ray node this actor runs on (a worker whose node leaves the cluster is dropped, not awaited)."""
        return import_ray().get_runtime_context().get_node_id()

    def set_fleet_size(self, workers: int, started_with: int) -> None:
        """The fleet is `workers` strong now (of `started_with`): this worker's admission share grows to match, so
        that the survivors of a lost node may feed the learner what it consumes per update (with the shares of the
        start, the learner's rate limit and their allowances would wait on each other for ever)."""  # noqa: D205, D209
        self._ensure_started()
        worker = self.shell.worker
        if self._admission_at_start is None:
            self._admission_at_start = worker.admission
        start = self._admission_at_start
        if start is not None and workers > 0:
            worker.admission = dataclasses.replace(start, per_update=start.per_update * started_with / workers)

    def set_weights(self, version: int, weights: dict, published_at: float) -> None:
        """Offer newer weights; the collection thread adopts them before its next step."""
        self._ensure_started()
        self.shell.offer(version, weights, published_at)

    def collect(self, timeout_s: float) -> tuple[list, dict]:
        """Finished trajectories since the last call (waiting up to `timeout_s` seconds), and an info dict.

        Raises:
            WorkerError: the collection thread failed (with its traceback).
        """
        with self._start_lock:
            self._start_unlocked()
            if self._thread is None:
                self._thread = threading.Thread(target=self._collect_forever, daemon=True)
                self._thread.start()
        if self._error:
            raise WorkerError(f"worker {self.index}: collection failed:\n{self._error}")
        trajectories = self.shell.outbox.take(timeout_s)
        return trajectories, self._info(trajectories)

    def run_round(self, version: int, weights: dict, published_at: float, episodes: int) -> tuple[list, dict]:
        """Synchronous mode: play `episodes` episodes with `version`; returns them and an info dict."""
        self._ensure_started()
        try:
            trajectories = self.shell.run_round(version, weights, published_at, episodes)
        except Exception:
            if self._stop.is_set():  # `stop` closed the envs under a round the run no longer waits for: drop it
                return [], {"successes": [], "steps": 0, "stats": {}}
            raise
        return trajectories, self._info(trajectories)

    def drain(self) -> tuple[list, dict]:
        """Stop collecting; everything in the outbox and the final counters (the environments stay open)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.shell is None:
            return [], {"successes": [], "steps": 0, "stats": {}}
        trajectories = self.shell.outbox.take(timeout_s=0)
        return trajectories, self._info(trajectories)

    def stop(self) -> None:
        """Stop collecting and close the environments."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.shell is not None:
            self.shell.close()

    def _info(self, trajectories: list) -> dict:
        return {"successes": [t.success for t in trajectories], "steps": sum(t.length for t in trajectories),
                "stats": self.shell.stats()}

    def _collect_forever(self) -> None:
        try:
            while not self._stop.is_set():
                self.shell.collect_step()
        except Exception:  # noqa: BLE001  (surfaced by the next `collect`, which the driver treats as a crash)
            self._error = traceback.format_exc()


class RayInferenceService:
    """A Ray actor holding one node's inference service (`runtime/inference.py`): the policy, built once for every
    worker actor on the node, which connect to it over the node's private Unix socket (`ServiceAddress.on_node`).

    The driver pins one to each node that runs workers and pushes it each version (`set_weights`: the weights ref is
    resolved once per node); the workers receive only the version number.

    Args:
        spec: the service (its address has a `{node}` field, filled in with this actor's node).
    """  # noqa: D205

    def __init__(self, spec: Any) -> None:
        from distrl_agent.runtime.inference import PushedWeights

        node = import_ray().get_runtime_context().get_node_id()
        self.spec = dataclasses.replace(spec, address=spec.address.on_node(node))
        self.weights = PushedWeights()
        self.service = self.spec.build(self.weights)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.service.serve, args=(self._stop.is_set,), daemon=True)
        self._thread.start()

    def set_weights(self, version: int, weights: dict, published_at: float) -> None:
        """Hold the weights of `version`; the service adopts them before its next batch."""
        self.weights.push(version, weights, published_at)

    def stats(self) -> dict[str, float]:
        """What the service has done (`ServiceStats`)."""
        return dataclasses.asdict(self.service.stats)

    def pid(self) -> int:
        """The actor's process id (for fault injection and memory figures)."""
        return os.getpid()

    def stop(self) -> None:
        """Stop serving, close the socket and remove its directory."""
        self._stop.set()
        self._thread.join(timeout=10)
        self.service.close()
        self.spec.address.remove()


class RayLearner(LearnerHandle):
    """A `LearnerHandle` whose learner is a Ray actor: each call runs there and is awaited, except `ingest` (fire and
    forget: it runs before any later call) and `weights` (a ref, stored once in the object store)."""  # noqa: D205, D209

    def __init__(self, actor: Any) -> None:
        self.actor = actor
        self._ray = import_ray()

    def ingest(self, trajectories: Any) -> None:
        """Queue a ref (or list) of trajectories on the learner; it runs before any later call. The ref travels in a
        list, unresolved, so that a batch lost with its node costs the learner a bounded wait, not its calls."""  # noqa: D205, D209
        self.actor.ingest_boxed.remote([trajectories])

    def ready(self) -> bool:
        """Whether the replay holds enough trajectories to train."""
        return self._ray.get(self.actor.ready.remote())

    def train_steps(self, count: int) -> dict[str, float]:
        """Up to `count` updates (see `Learner.train_steps`)."""
        return self._ray.get(self.actor.train_steps.remote(count))

    def weights(self) -> Any:
        """A ref to the current weights, stored once in the object store."""
        return self.actor.weights.remote()

    def get_version(self) -> int:
        """The learner's weights version."""
        return self._ray.get(self.actor.get_version.remote())

    def set_policy_weights(self, weights: Any) -> None:
        """Load weights into the learner's policy."""
        self._ray.get(self.actor.set_policy_weights.remote(weights))

    def set_lr_scale(self, scale: float) -> None:
        """Scale the learner's learning rate."""
        self._ray.get(self.actor.set_lr_scale.remote(scale))

    def stats(self) -> dict[str, Any]:
        """The learner's counters."""
        return self._ray.get(self.actor.stats.remote())

    def save(self, directory: str) -> None:
        """Checkpoint the learner into `directory` (a path the actor's node can write)."""
        self._ray.get(self.actor.save.remote(directory))

    def load(self, directory: str) -> None:
        """Restore the learner from `directory`."""
        self._ray.get(self.actor.load.remote(directory))
