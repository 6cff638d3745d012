"""The Ray runtime (`runtime.runtime=ray`, `pip install ".[ray]"`): workers and the learner as Ray actors.

The actors run the same classes as the local runtime: `RayWorker` (runtime/ray_actors.py) wraps a `WorkerShell`
(whose `Worker` collects in a background thread of the actor), and the learner actor is `Learner` itself. Dataflow
(driven by `train.run_loop`):

    worker actor i:  WorkerShell.collect_step() in a thread -> bounded outbox
    driver:          one `collect` call in flight per worker; `ray.wait` returns whichever finish first; each result
                     is (trajectories ref, small info); the ref goes to `learner.ingest` untouched, so trajectories
                     travel worker -> learner through the object store, never through the driver
    learner actor:   ingest -> train_steps -> `weights()`: its return value is stored in the object store once per
                     version and that one ref is passed to every worker's `set_weights`
    sync mode:       every worker's `run_round(weights ref, v, n)`; the driver waits for all of them

One copy of the policy per node (`runtime.inference=host`, or "auto" with the VLM): after the worker actors start, the
driver pins one `RayInferenceService` actor to each node they run on (no CPU reserved; a GPU when the policy is on
one), pushes it every version (the one weights ref, resolved once per node) and sends the workers only the version
number; each worker acts through its node's service over a private Unix socket on that node. A service that dies is
restarted by Ray and gets the newest version again at the next worker failure it causes (it refuses to act without
weights).

Placement: workers reserve `runtime.worker_cpus` CPUs and `runtime.worker_resources` (e.g. {"emulator": 1}, so they land
on hosts started with `ray start --resources='{"emulator": 4}'`); the learner reserves no CPU and is pinned to the
driver's node, so its checkpoints land in the driver's run directory; a policy on a GPU reserves one of that node's GPUs
(a driver's node without one is refused at start: run the driver where the GPU is). A crashed worker actor is restarted
by Ray (`max_restarts`); the driver sees its call fail, counts the restart and the discarded in-progress episodes, and
re-sends the newest weights. A worker whose node has left the cluster (a host lost, its raylet killed) is dropped
instead: reported once, its envs and what it had under way counted (`runtime/workers_dropped`), no call sent to it
again, the survivors' admission shares grow to cover the learner's consumption, and the run goes on with them (it stops
only when none is left). A resource no node of the cluster has at all is refused at start, naming
`runtime.worker_resources`.

Closed by default (issue 20): a Ray cluster runs code for anyone who can reach it, and its processes listen on every
interface, so `connect` starts or joins clusters only with Ray's token authentication (RAY_AUTH_MODE=token; the
checks are in runtime/ray_auth.py).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

from distrl_agent.config import RuntimeSection
from distrl_agent.errors import ClusterError, WorkerError
from distrl_agent.runtime.base import Delivery, WorkerBook
from distrl_agent.runtime.inference import ServiceSpec
from distrl_agent.runtime.learner import LearnerActor
from distrl_agent.runtime.learner_spec import LearnerSpec
from distrl_agent.runtime.ray_actors import RayInferenceService, RayLearner, RayWorker, import_ray
from distrl_agent.runtime.ray_auth import (
    check_cluster_auth,
    loopback_node,
    private_token_file,
    require_token_mode,
    token_header,
)
from distrl_agent.runtime.worker_spec import WorkerSpec

__all__ = ["RayLearner", "RayRuntime", "RayWorker", "import_ray", "resolve_address"]

log = logging.getLogger("distrl")
COLLECT_WAIT_S = 0.25  # a collect call returns after this long even if no episode finished (keeps stats fresh)
MAX_CONSECUTIVE_FAILURES = 20  # calls to one worker failing in a row, never answering in between, fail the run
PRIVATE_SYSTEM_CONFIG = {"worker_niceness": 0}
"""Ray settings of the private cluster. Ray starts its workers at niceness 15 (`worker_niceness`), meant for helper
tasks beside a busy driver; here the workers are the run (the learner actor and every rollout worker), and at 15 they
got ~3% of a core beside two busy processes of the same session, a round of rollouts taking minutes instead of
seconds. A cluster the run joins keeps its own setting (`ray start --system-config '{"worker_niceness": 0}'`)."""


def resolve_address(address: str, timeout_s: float) -> str:
    """`address` ("auto" or "host:port") as host:port, after checking that it answers within `timeout_s` seconds.

    Raises:
        ClusterError: no cluster found for "auto", or nothing accepts connections at the address in time.
    """
    import_ray()
    from ray._private import services

    resolved = services.canonicalize_bootstrap_address(address)
    if resolved is None:
        raise ClusterError(f"`runtime.address` {address!r}: no running Ray cluster found on this machine; start one "
                           "with `ray start --head`, pass its host:port, or use runtime.address=null for a private one")
    host, _, port = resolved.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except (OSError, ValueError) as e:
        raise ClusterError(f"`runtime.address` {resolved!r} did not answer within {timeout_s} s "
                           f"(`runtime.connect_timeout_s`): {e}. Is `ray start --head` running there?") from e
    return resolved


class RayRuntime:
    """Worker actors on a Ray cluster (implements `runtime.base.Runtime`), plus the learner actor (`connect`).

    Args:
        workers: one spec per worker actor (`WorkerSpec.of_run`).
        settings: the run's `runtime` section (cluster address and timeout, resources per worker, restarts, sync).
        service: the per-node inference service the workers' specs name (its address `ServiceAddress.per_node`), or
            None: each worker actor holds its own copy of the policy.

    Raises (from `connect`, `poll`, `run_round`):
        ClusterError: Ray is missing or too old, token authentication is off or fails, or the address does not answer.
        WorkerError: a worker died more than `runtime.max_worker_restarts` times.
    """

    def __init__(self, workers: Sequence[WorkerSpec], settings: RuntimeSection,
                 service: ServiceSpec | None = None) -> None:
        self.specs, self.settings = list(workers), settings
        self.service_spec = service
        self.services: dict[str, Any] = {}  # node id -> its inference service actor
        self.num_workers = len(self.specs)
        self.book = WorkerBook(self.num_workers, settings.max_worker_restarts, settings.envs_per_worker)
        self.actors: list[Any] = []
        self.learner_actor: Any = None
        self._calls: dict[Any, tuple[int, Any]] = {}  # info ref -> (worker index, trajectories ref)
        self._failures: list[int] = []  # consecutive failed calls per worker
        self._node_refs: list[Any] = []  # per worker: the ref of its node id (read once it is ready)
        self._nodes: list[str | None] = []
        self._latest: tuple[int, Any, float] | None = None  # (version, weights ref, published_at)
        self._owns_cluster = False
        self._connected = False

    @property
    def restarts(self) -> int:
        """Worker restarts so far, all workers together."""
        return sum(self.book.restarts)

    def connect(self) -> None:
        """Join the cluster at `runtime.address` (or start a private one), with token authentication.

        A no-op if already connected; if Ray is already initialised in this process, that session is used (and must
        run with token authentication).

        Raises:
            ClusterError: Ray is missing or < 2.52; RAY_AUTH_MODE is not "token" (unset is fine for a private cluster);
                no token to join with; within `runtime.connect_timeout_s` the address does not answer, refuses the
                token or answers without one; or Ray runs without token authentication after all.
        """
        ray = import_ray()
        from ray._private.authentication.authentication_utils import is_token_auth_enabled

        rt = self.settings
        if self._connected:
            return
        deadline = time.monotonic() + rt.connect_timeout_s
        address = resolve_address(rt.address, rt.connect_timeout_s) if rt.address else None
        if not ray.is_initialized():
            from ray._raylet import AuthenticationTokenLoader

            # The token as it is now (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token): Ray caches the first one
            # it read in this process, and a process that ran on one cluster and joins another must not offer the old.
            AuthenticationTokenLoader.instance().reset_cache()
            require_token_mode(ray, address)
            self._owns_cluster = True
            if address is None:
                self._start_private(ray)
            else:
                check_cluster_auth(address, deadline - time.monotonic(), token_header(address))
                self._init_with_timeout(ray, address, deadline, rt.connect_timeout_s)
        if not is_token_auth_enabled():
            if self._owns_cluster:
                ray.shutdown()
            raise ClusterError("this process runs Ray without token authentication (RAY_AUTH_MODE is "
                               f"{os.environ.get('RAY_AUTH_MODE')!r}); start Python with RAY_AUTH_MODE=token, and "
                               "call ray.init() after setting it (Ray reads it at `import ray` and at ray.init)")
        self._connected = True

    def _start_private(self, ray: Any) -> None:
        rt = self.settings
        needed = self.num_workers * rt.worker_cpus
        if needed > (os.cpu_count() or 1):
            log.warning("%d workers x %s CPUs on %d cores: the private cluster oversubscribes them",
                        self.num_workers, rt.worker_cpus, os.cpu_count())
        resources = {k: v * self.num_workers for k, v in rt.worker_resources.items()}
        private_token_file()  # 0600 before Ray writes it with the umask
        # "local": a new cluster even where RAY_ADDRESS or a `ray start` on this machine would make ray.init join one
        with loopback_node(ray):
            ray.init(address="local", num_cpus=max(os.cpu_count() or 1, int(needed + 0.999)),
                     resources=resources or None, include_dashboard=False, object_store_memory=256 << 20,
                     log_to_driver=False, _node_ip_address="127.0.0.1", _system_config=PRIVATE_SYSTEM_CONFIG)

    def make_learner(self, spec: LearnerSpec) -> RayLearner:
        """Create the learner actor (no CPU reserved) on the driver's node, its parts built there; returns its proxy.

        A policy on a GPU (`device` "cuda...") reserves one of that node's GPUs for the learner.

        Raises:
            ClusterError: the policy is on a GPU and the driver's node declares none (the learner stays with the
                driver so that its checkpoints land in the run folder: run `distrl train` on the GPU host).
        """
        ray = import_ray()
        self.connect()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        node_id = ray.get_runtime_context().get_node_id()
        gpus = 1 if str(getattr(spec.policy, "device", "cpu")).startswith("cuda") else 0
        if gpus:
            have = next((n["Resources"].get("GPU", 0) for n in ray.nodes() if n["NodeID"] == node_id and n["Alive"]),
                        0)
            if have < gpus:
                raise ClusterError(f"the policy is on {spec.policy.device!r} but this node (where the learner runs, "
                                   "beside the driver, so that its checkpoints land in the run folder) declares no "
                                   "GPU: run `distrl train` on the GPU host (its `ray start --num-gpus=1`), or set "
                                   "policy.device=cpu")
        here = NodeAffinitySchedulingStrategy(node_id=node_id, soft=False)
        self.learner_actor = ray.remote(LearnerActor).options(num_cpus=0, num_gpus=gpus,
                                                              scheduling_strategy=here).remote(spec)
        return RayLearner(self.learner_actor)

    @staticmethod
    def _init_with_timeout(ray: Any, address: str, deadline: float, timeout_s: float) -> None:
        failure: list[BaseException] = []

        def join() -> None:
            try:
                ray.init(address=address, log_to_driver=False)
            except BaseException as e:  # noqa: BLE001  (re-raised below in the caller's thread)
                failure.append(e)

        thread = threading.Thread(target=join, daemon=True)
        thread.start()
        thread.join(max(deadline - time.monotonic(), 0.0))
        if thread.is_alive():
            raise ClusterError(f"`runtime.address` {address!r} accepted a connection but Ray did not join it within "
                               f"{timeout_s} s (`runtime.connect_timeout_s`); is it a Ray head node of this version?")
        if failure:
            raise ClusterError(f"could not join the Ray cluster at {address!r}: {failure[0]}") from failure[0]

    def start(self, version: int, weights: Any) -> None:
        """Create the worker actors, hand them the weights and (async mode) start collection."""
        ray = import_ray()
        self.connect()
        rt = self.settings
        cls = ray.remote(RayWorker).options(num_cpus=rt.worker_cpus, resources=dict(rt.worker_resources) or None,
                                            max_restarts=rt.max_worker_restarts, max_concurrency=2)
        available = ray.cluster_resources()
        for name, amount in {"CPU": rt.worker_cpus, **rt.worker_resources}.items():
            if amount > 0 and name != "CPU" and available.get(name, 0) <= 0:
                raise ClusterError(f"no node of the cluster has the resource {name!r} that `runtime.worker_resources`"
                                   f" asks for ({dict(rt.worker_resources)}): start the hosts that run the phones "
                                   f"with `ray start --resources='{{\"{name}\": N}}'`, or change the setting")
            if amount * self.num_workers > available.get(name, 0):
                log.warning("%d workers need %s %s in all, the cluster has %s: some wait for resources",
                            self.num_workers, amount * self.num_workers, name, available.get(name, 0))
        self.actors = [cls.remote(spec) for spec in self.specs]
        self._node_refs = [actor.node_id.remote() for actor in self.actors]
        self._nodes = [None] * self.num_workers
        self._failures = [0] * self.num_workers
        if self.service_spec is not None:
            self._start_services(ray)
        self.publish(version, weights)
        if not rt.sync:
            for index in range(self.num_workers):
                self._issue_collect(index)

    def _start_services(self, ray: Any) -> None:
        """One inference service actor on each node the workers run on (see the module docstring)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self._nodes = list(ray.get(self._node_refs))  # the actors are up: __init__ builds nothing
        gpus = 1 if str(getattr(self.service_spec.policy, "device", "cpu")).startswith("cuda") else 0
        for node in dict.fromkeys(self._nodes):
            here = NodeAffinitySchedulingStrategy(node_id=node, soft=False)
            self.services[node] = ray.remote(RayInferenceService).options(
                num_cpus=0, num_gpus=gpus, max_restarts=self.settings.max_worker_restarts, max_concurrency=2,
                scheduling_strategy=here).remote(self.service_spec)

    def publish(self, version: int, weights: Any) -> None:
        """Pass the one weights ref of `version` to every worker (a plain state_dict is `ray.put` once first), or,
        with per-node services, to every service and only the version to the workers."""  # noqa: D205, D209
        ray = import_ray()
        if not isinstance(weights, ray.ObjectRef):
            weights = ray.put(weights)
        self._latest = (version, weights, time.time())
        for service in self.services.values():
            service.set_weights.remote(*self._latest)
        for index in self._live():
            self.actors[index].set_weights.remote(*self._for_workers())

    def _for_workers(self) -> tuple[int, Any, float]:
        """The newest (version, weights, published_at) as the workers get it: without weights when services act."""
        version, weights, published_at = self._latest
        return version, (None if self.services else weights), published_at

    def fetch(self, handle: Any) -> Any:
        """The value behind a ref (weights, or a delivery's trajectories)."""
        ray = import_ray()
        return ray.get(handle) if isinstance(handle, ray.ObjectRef) else handle

    def _issue_collect(self, index: int) -> None:
        trajectories, info = self.actors[index].collect.options(num_returns=2).remote(COLLECT_WAIT_S)
        self._calls[info] = (index, trajectories)

    def poll(self, timeout_s: float) -> list[Delivery]:
        """Results of finished collect calls (`ray.wait`, up to `timeout_s` s for the first); re-issues them."""
        ray = import_ray()
        pending = list(self._calls)
        ready, _ = ray.wait(pending, num_returns=1, timeout=timeout_s)
        if ready:
            ready, _ = ray.wait(pending, num_returns=len(pending), timeout=0)
        deliveries = []
        for ref in ready:
            index, trajectories = self._calls.pop(ref)
            deliveries += self._collected(ref, index, trajectories)
            if index not in self.book.dropped:
                self._issue_collect(index)
        return deliveries

    def _collected(self, ref: Any, index: int, trajectories: Any) -> list[Delivery]:
        """What a finished collect (or drain) call of worker `index` delivers, its counters recorded; [] if none."""
        info = self._get(ref, index)
        if info is None:
            return []
        self.book.update(index, info["stats"])
        self.book.receive(index, len(info["successes"]))
        return [Delivery(index, trajectories, info["successes"], info["steps"])] if info["successes"] else []

    def run_round(self, version: int, episodes: int, deadline: float) -> list[Delivery]:
        """Every worker plays `episodes` episodes with the published `version`; crashed ones replay their share."""
        ray = import_ray()
        if self._latest is None or self._latest[0] != version:
            raise WorkerError(f"publish version {version} before commanding its round")
        calls = {}
        for index in self._live():
            calls.update(self._issue_round(index, episodes))
        deliveries = []
        while calls and time.monotonic() < deadline:
            ready, _ = ray.wait(list(calls), num_returns=1, timeout=min(1.0, max(0.0, deadline - time.monotonic())))
            for ref in ready:
                index, trajectories = calls.pop(ref)
                info = self._get(ref, index, episodes)
                if info is None:
                    if index not in self.book.dropped:
                        calls.update(self._issue_round(index, episodes))
                    continue
                self.book.update(index, info["stats"])
                self.book.receive(index, len(info["successes"]))
                deliveries.append(Delivery(index, trajectories, info["successes"], info["steps"], version))
        return deliveries

    def _issue_round(self, index: int, episodes: int) -> dict[Any, tuple[int, Any]]:
        trajectories, info = self.actors[index].run_round.options(num_returns=2).remote(*self._for_workers(),
                                                                                        episodes)
        return {info: (index, trajectories)}

    def _get(self, ref: Any, index: int, round_episodes: int | None = None) -> dict | None:
        """The info of a finished call, or None after counting a crash (the actor is restarted and re-fed weights)."""
        ray = import_ray()
        try:
            info = ray.get(ref)
            self._failures[index] = 0
            return info
        except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError, ray.exceptions.RayTaskError) as e:
            self.book.last_error[index] = str(e)
            if self._has_lost_its_node(index):
                self._drop(index, round_episodes)
                return None
            self._failures[index] += 1
            if self._failures[index] > MAX_CONSECUTIVE_FAILURES:
                raise WorkerError(f"worker {index} failed {self._failures[index]} calls in a row without answering "
                                  f"once; last error:\n{e}") from e
            if self._failures[index] == 1:  # later failures are calls that met the same death while it restarts
                log.warning("worker %d failed (%s); Ray restarts it", index, type(e).__name__)
                if isinstance(e, ray.exceptions.RayTaskError):  # alive but broken: make Ray replace it
                    ray.kill(self.actors[index], no_restart=False)
                self.book.retire(index, self.book.in_progress(self.settings.sync, round_episodes))
            self.actors[index].set_weights.remote(*self._for_workers())
            for service in self.services.values():  # a restarted service holds none until it is given them
                service.set_weights.remote(*self._latest)
            if self.book.dropped:  # a restarted survivor starts with a full fleet's share
                self.actors[index].set_fleet_size.remote(len(self._live()), self.num_workers)
            return None

    def _live(self) -> list[int]:
        """The workers not dropped."""
        return [i for i in range(len(self.actors)) if i not in self.book.dropped]

    def _has_lost_its_node(self, index: int) -> bool:
        """Whether worker `index`'s node (known once it has answered once) has left the cluster."""
        ray = import_ray()
        if self._nodes[index] is None:
            ready, _ = ray.wait([self._node_refs[index]], timeout=0)
            try:
                self._nodes[index] = ray.get(ready[0]) if ready else None
            except ray.exceptions.RayError:
                return False  # it died before saying where it ran: treat it as a crash
        node = self._nodes[index]
        return node is not None and not any(n["NodeID"] == node and n["Alive"] for n in ray.nodes())

    def _drop(self, index: int, round_episodes: int | None) -> None:
        """Drop worker `index`, whose node has left: report it, count it, never call it again."""
        ray = import_ray()
        envs = self.settings.envs_per_worker
        log.warning("the node of worker %d (%s) has left the cluster: its %d envs are dropped, the run goes on with "
                    "%d workers", index, self._nodes[index], envs, len(self._live()) - 1)
        self.book.drop(index, self.book.in_progress(self.settings.sync, round_episodes))
        try:
            ray.kill(self.actors[index], no_restart=True)
        except ray.exceptions.RayError:
            pass
        for live in self._live():  # their admission shares grow to the whole of what the learner consumes
            self.actors[live].set_fleet_size.remote(len(self._live()), self.num_workers)

    def drain(self, timeout_s: float) -> list[Delivery]:
        """Every actor stops collecting and returns its outbox; the collect calls in flight are delivered too."""
        ray = import_ray()
        calls = dict(self._calls)
        self._calls = {}
        for index in self._live():
            trajectories, info = self.actors[index].drain.options(num_returns=2).remote()
            calls[info] = (index, trajectories)
        deliveries = []
        ready, _ = ray.wait(list(calls), num_returns=len(calls), timeout=timeout_s)
        for ref in ready:
            deliveries += self._collected(ref, *calls.pop(ref))
        if calls:
            log.warning("%d worker calls did not finish within %.0f s of the end; what they held is counted as "
                        "lost", len(calls), timeout_s)
        return deliveries

    def stats(self) -> dict[str, float]:
        """`runtime/` counters (see `WorkerBook.totals`)."""
        return self.book.totals()

    def kill_worker(self, index: int) -> int:
        """SIGKILL worker actor `index`'s process (fault injection); returns its pid."""
        import signal

        pid = import_ray().get(self.actors[index].pid.remote())
        os.kill(pid, signal.SIGKILL)
        return pid

    def close(self) -> None:
        """Stop the worker and learner actors; shut Ray down if this runtime started or joined it."""
        ray = import_ray()
        if not ray.is_initialized():
            return
        live = [self.actors[i] for i in self._live()]
        ray.wait([actor.stop.remote() for actor in live], num_returns=len(live), timeout=10)
        for actor in self.actors:
            ray.kill(actor, no_restart=True)
        services = list(self.services.values())
        ray.wait([s.stop.remote() for s in services], num_returns=len(services), timeout=10)
        for service in services:
            ray.kill(service, no_restart=True)
        self.services = {}
        if self.learner_actor is not None:
            ray.kill(self.learner_actor, no_restart=True)
        self.actors, self.learner_actor, self._calls = [], None, {}
        if self._owns_cluster and ray.is_initialized():
            ray.shutdown()
