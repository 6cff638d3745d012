"""One copy of the policy per host: an inference service that batches the act requests of every worker on the host.

With the policy in every worker process, a host running N workers holds N copies of the model: for a 3B VLM that is
not a design anyone can run. Here one process of the host (`serve`) holds the policy; each worker's `ServiceActor`
sends it the observations its env slots are waiting on and gets back their actions, behaviour log-probabilities, env
actions and the version that chose them (`ActResult`). The service answers every request that arrived together with
one batched `act` (the VLM's generation is batch-independent per row: `test_vlm_families`), so N workers stepping at
once cost one forward pass, and adopts new weights once for the host, between batches, from the same broadcast the
workers would read (`SharedWeights` on the local runtime).

Transport: a Unix socket in a private directory (0700, this user's): nothing listens on the network. A connection
starts with a handshake of raw bytes, each side waiting at most `HANDSHAKE_S` for the other (the service sends a
random challenge, the worker its HMAC-SHA256 under the run's key); nothing is unpickled before it succeeds, and only
processes given the `ServiceAddress` pass it. Then messages are pickled between our own processes, as on every
worker pipe:

    service -> worker:  Welcome(reader) after the handshake (Refused() and a close for a wrong key)
    worker -> service:  ActRequest(observations, deterministic)
    service -> worker:  Acted(result) or ActFailed(reason), per request

The worker never builds the model: the `Welcome` carries the policy's `ObservationReader` (`policies/reader.py`),
which unpickles without torch. What a worker waits for is bounded: an act the service has not answered within
`ServiceAddress.timeout_s` raises `WorkerError` (the runtime restarts the worker); a service that died is restarted
by the runtime and the worker reconnects and asks again (the action was never taken, so nothing is half-recorded).

A service behind an OpenAI-compatible engine (vLLM, SGLang) would implement the same request/answer pair; see
docs/TRAINING.md for what it would need.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import multiprocessing.connection as mpc
import os
import queue
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from distrl_agent.errors import WorkerError
from distrl_agent.policies.reader import ObservationReader
from distrl_agent.runtime.actor import ActResult

log = logging.getLogger("distrl")
SOCKET_NAME = "inference.sock"
HANDSHAKE_S = 5.0
"""Seconds each side of a handshake waits for the other's next message: a peer that connects and says nothing (a
frozen process) cannot hold up the service's accepting, nor a worker's start, for longer."""


@dataclass(frozen=True)
class ServiceAddress:
    """Where a host's inference service listens and the key that lets a worker in.

    Attributes:
        path: the Unix socket's path (in a private 0700 directory).
        authkey: the HMAC key of the handshake (random per run).
        timeout_s: seconds a worker waits for an answer (or to reach a restarting service) before it fails.
    """

    path: str
    authkey: bytes = field(repr=False)
    timeout_s: float = 600.0

    @classmethod
    def fresh(cls, timeout_s: float = 600.0) -> ServiceAddress:
        """A new address in a new private temp directory (`tempfile.mkdtemp` makes it 0700)."""
        return cls(os.path.join(tempfile.mkdtemp(prefix="distrl-inference-"), SOCKET_NAME), os.urandom(32), timeout_s)

    @classmethod
    def per_node(cls, timeout_s: float = 600.0) -> ServiceAddress:
        """An address for services on several machines (Ray): a path with a `{node}` field that each node fills in
        (`on_node`), under that node's temp directory, in a folder named by a random token of this run."""  # noqa: D205, D209
        token = os.urandom(6).hex()
        return cls(os.path.join(tempfile.gettempdir(), f"distrl-inference-{token}-{{node}}", SOCKET_NAME),
                   os.urandom(32), timeout_s)

    def on_node(self, node_id: str) -> ServiceAddress:
        """This address on the node `node_id` (a `per_node` address; any other is returned as it is)."""
        return dataclasses.replace(self, path=self.path.replace("{node}", node_id[:16]))

    def make_private_directory(self) -> None:
        """Create the socket's directory, 0700, or check that an existing one is this user's and private.

        Raises:
            PermissionError: it exists and belongs to another user or others may enter it (someone could place a
                socket of their own there).
        """
        directory = os.path.dirname(self.path)
        os.makedirs(directory, mode=0o700, exist_ok=True)
        info = os.stat(directory)
        if info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise PermissionError(f"{directory} must be this user's and private (0700) to hold the inference socket")

    def connect(self) -> mpc.Connection:
        """A connection to the service, before its handshake (raises OSError while nothing listens there)."""
        return mpc.Client(self.path, family="AF_UNIX")

    def digest(self, challenge: bytes) -> bytes:
        """The handshake's answer to `challenge`: its HMAC-SHA256 under the run's key."""
        return hmac.new(self.authkey, challenge, hashlib.sha256).digest()

    def remove(self) -> None:
        """Delete the socket file and its private directory (the service is gone)."""
        for remove, target in ((os.unlink, self.path), (os.rmdir, os.path.dirname(self.path))):
            try:
                remove(target)
            except OSError:
                pass


# -- messages ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Welcome:
    """The service's first message on a connection: how the policy reads observations."""

    reader: ObservationReader


@dataclass(frozen=True)
class Refused:
    """The handshake failed: the worker's key is not this run's."""


@dataclass(frozen=True)
class ActRequest:
    """Actions for these observations (sampled, or the mode if `deterministic`)."""

    observations: list[dict[str, Any]]
    deterministic: bool


@dataclass(frozen=True)
class Acted:
    """The answer to one `ActRequest`, row for row."""

    result: ActResult


@dataclass(frozen=True)
class ActFailed:
    """The service could not act on one `ActRequest` (the traceback); it goes on serving the others."""

    reason: str


# -- the service ---------------------------------------------------------------------------------------------------
class WeightSource(Protocol):
    """Where the service finds new weights: the newest `version`, and `read_into(load)`, which hands the newest
    weights to `load(weights, version)` and returns (version, published_at), or None before the first
    (`SharedWeights` on the local runtime: views of its shared memory, so the service holds one copy, its model's)."""  # noqa: D205, D209

    @property
    def version(self) -> int:
        """The newest version published (-1: none yet)."""

    def read_into(self, load: Callable[[Mapping[str, Any], int], None]) -> tuple[int, float] | None:
        """Hand the newest weights and their version to `load`; (version, published_at), or None before the first."""


@dataclass
class ServiceStats:
    """What the service has done: requests answered, batched `act` calls, their rows, failures, weight versions."""

    requests: int = 0
    batches: int = 0
    rows: int = 0
    failed: int = 0
    versions_adopted: int = 0
    clients: int = 0

    @property
    def mean_batch_rows(self) -> float:
        """Rows per batched `act` (how much batching the host's workers got)."""
        return self.rows / self.batches if self.batches else 0.0


class InferenceService:
    """Serves one policy to every worker of a host (see the module docstring).

    Args:
        actor: the policy, acting in this process (`PolicyActor`).
        reader: the policy's `ObservationReader`, sent to every worker on connect.
        weights: where new versions appear; adopted between batches, newest only.
        address: where to listen.
        max_batch_rows: the most rows of one `act` (whole requests are never split; one larger request goes alone).
        batch_window_s: after a first request arrives, how long to wait for the other workers' before acting (0: act
            on what has arrived).
    """

    def __init__(self, actor: Any, reader: ObservationReader, weights: WeightSource, address: ServiceAddress,
                 max_batch_rows: int = 64, batch_window_s: float = 0.002) -> None:
        self.actor, self.reader, self.weights, self.address = actor, reader, weights, address
        self.max_batch_rows, self.batch_window_s = max_batch_rows, batch_window_s
        self.stats = ServiceStats()
        self.version = -1  # the version of the weights held (-1: none yet; requests wait for none: workers start later)
        self._clients: list[mpc.Connection] = []
        self._lock = threading.Lock()
        self._listener: mpc.Listener | None = None
        self._closed = threading.Event()

    def listen(self) -> None:
        """Bind the socket (replacing a dead predecessor's file) and accept workers in a background thread."""
        self.address.make_private_directory()
        try:
            os.unlink(self.address.path)
        except FileNotFoundError:
            pass
        self._listener = mpc.Listener(self.address.path, family="AF_UNIX")
        threading.Thread(target=self._accept, name="inference-accept", daemon=True).start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn = self._listener.accept()  # type: ignore[union-attr]
            except OSError:
                if self._closed.is_set():
                    return
                continue
            try:
                admitted = self._admit(conn)
            except (OSError, EOFError):  # it died during the handshake
                admitted = False
            if not admitted:
                conn.close()
                continue
            with self._lock:
                self._clients.append(conn)
                self.stats.clients += 1

    def _admit(self, conn: mpc.Connection) -> bool:
        """The handshake (see the module docstring): True and a `Welcome` sent when the peer knows the key."""
        challenge = os.urandom(32)
        conn.send_bytes(challenge)
        if not conn.poll(HANDSHAKE_S):
            return False
        if not hmac.compare_digest(conn.recv_bytes(64), self.address.digest(challenge)):
            conn.send(Refused())
            return False
        conn.send(Welcome(self.reader))
        return True

    def serve(self, should_stop: Callable[[], bool], poll_s: float = 0.2) -> None:
        """Answer requests until `should_stop()` (checked at least every `poll_s` seconds)."""
        while not should_stop():
            self.serve_once(poll_s)

    def serve_once(self, wait_s: float) -> int:
        """Wait up to `wait_s` seconds for a request, then answer every request that has arrived (after waiting
        `batch_window_s` for the other workers', when some are still silent); returns how many were answered."""  # noqa: D205, D209
        with self._lock:
            clients = list(self._clients)
        if not clients:
            time.sleep(wait_s / 4)
            return 0
        ready = mpc.wait(clients, timeout=wait_s)
        if not ready:
            return 0
        if self.batch_window_s > 0 and len(ready) < len(clients):
            time.sleep(self.batch_window_s)  # the other workers' requests of this step are on their way
            ready = mpc.wait(clients, timeout=0)
        requests = [(conn, message) for conn in ready if (message := self._receive(conn)) is not None]
        if requests:
            self.answer(requests)
        return len(requests)

    def _receive(self, conn: mpc.Connection) -> ActRequest | None:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the worker went away (it is restarted and reconnects)
            self._drop(conn)
            return None
        if not isinstance(message, ActRequest):
            self._reply(conn, ActFailed(f"the inference service takes ActRequest, got {type(message).__name__}"))
            return None
        return message

    def answer(self, requests: Sequence[tuple[mpc.Connection, ActRequest]]) -> None:
        """Adopt the newest weights, then answer `requests` with as few batched `act` calls as the limits allow.

        A service that holds no weights yet (a restarted one, before the next version reaches it) refuses: acting
        with the model's initial weights would put actions of no version into the data.
        """
        self._adopt()
        if self.version < 0:
            for conn, _ in requests:
                self.stats.failed += 1
                self._reply(conn, ActFailed("the inference service holds no weights yet (restarted?); the next "
                                            "version published reaches it"))
            return
        for deterministic in (False, True):
            batch: list[tuple[mpc.Connection, ActRequest]] = []
            for conn, request in requests:
                if request.deterministic != deterministic:
                    continue
                if batch and sum(len(r.observations) for _, r in batch) + len(request.observations) > \
                        self.max_batch_rows:
                    self._act(batch, deterministic)
                    batch = []
                batch.append((conn, request))
            if batch:
                self._act(batch, deterministic)

    def _act(self, batch: Sequence[tuple[mpc.Connection, ActRequest]], deterministic: bool) -> None:
        observations = [obs for _, request in batch for obs in request.observations]
        try:
            result = self.actor.act(observations, deterministic)
        except Exception:  # noqa: BLE001  (each asker's worker reports it; the service goes on)
            reason = traceback.format_exc()
            log.error("the inference service failed to act on %d rows:\n%s", len(observations), reason)
            self.stats.failed += len(batch)
            for conn, _ in batch:
                self._reply(conn, ActFailed(reason))
            return
        self.stats.batches += 1
        self.stats.rows += len(observations)
        start = 0
        for conn, request in batch:
            rows = range(start, start + len(request.observations))
            start = rows.stop
            self.stats.requests += 1  # before the answer: an asker reading the stats then sees it counted
            self._reply(conn, Acted(result.rows(rows)))

    def _adopt(self) -> None:
        if self.weights.version <= self.version:
            return
        got = self.weights.read_into(self.actor.set_weights)  # into the model directly: no copy held beside it
        if got is not None:
            self.version = got[0]
            self.stats.versions_adopted += 1

    def _reply(self, conn: mpc.Connection, message: Acted | ActFailed) -> None:
        try:
            conn.send(message)
        except OSError:  # the worker died waiting: it is restarted and asks again
            self._drop(conn)

    def _drop(self, conn: mpc.Connection) -> None:
        with self._lock:
            if conn in self._clients:
                self._clients.remove(conn)
        conn.close()

    def close(self) -> None:
        """Stop accepting, close every connection and the socket."""
        self._closed.set()
        if self._listener is not None:
            self._listener.close()
        with self._lock:
            for conn in self._clients:
                conn.close()
            self._clients.clear()


# -- the worker's side ---------------------------------------------------------------------------------------------
class ServiceActor:
    """A worker's `Actor` that asks the host's inference service (see the module docstring).

    Args:
        address: the service's address (in the worker's spec).

    Raises:
        WorkerError: the service cannot be reached within `address.timeout_s` seconds.
    """

    def __init__(self, address: ServiceAddress) -> None:
        self.address = address
        self.version = -1
        self._conn: mpc.Connection | None = None
        self._outgoing: queue.SimpleQueue[tuple[mpc.Connection, ActRequest] | None] = queue.SimpleQueue()
        threading.Thread(target=self._send_loop, name="inference-send", daemon=True).start()
        self.reader = self._connect()
        self.observation_keys = self.reader.keys

    def _connect(self) -> ObservationReader:
        """Connect (retrying while the service starts or restarts), pass the handshake, read its `Welcome`."""
        deadline = time.monotonic() + self.address.timeout_s
        while True:
            try:
                conn = self.address.connect()
                greeting = self._handshake(conn, min(HANDSHAKE_S, max(0.1, deadline - time.monotonic())))
                break
            except (OSError, EOFError) as e:
                if time.monotonic() > deadline:
                    raise WorkerError(f"the inference service at {self.address.path} did not answer within "
                                      f"{self.address.timeout_s:g} s ({e}); see the learner's log for its failure"
                                      ) from None
                time.sleep(0.05)
        match greeting:
            case Welcome(reader):
                self._conn = conn
                return reader
            case Refused():
                raise WorkerError(f"the inference service at {self.address.path} refused this worker's key: the "
                                  "address belongs to another run")
            case _:
                raise WorkerError(f"the inference service at {self.address.path} greeted with "
                                  f"{type(greeting).__name__}, not Welcome")

    def _handshake(self, conn: mpc.Connection, wait_s: float) -> Any:
        """Answer the challenge; the service's greeting (raises OSError when either side keeps silent)."""
        try:
            if not conn.poll(wait_s):
                raise OSError(f"no challenge within {wait_s:g} s")
            conn.send_bytes(self.address.digest(conn.recv_bytes(64)))
            if not conn.poll(wait_s):
                raise OSError(f"no greeting within {wait_s:g} s")
            return conn.recv()
        except BaseException:
            conn.close()
            raise

    def _send_loop(self) -> None:
        """Send the requests `act` queues (a full socket blocks here, while `act` waits with its timeout)."""
        while (item := self._outgoing.get()) is not None:
            conn, request = item
            try:
                conn.send(request)
            except OSError:  # the service went away: `act` sees end-of-file and reconnects
                pass

    def observe(self, observation: Mapping[str, Any], previous_action: Any,
                previous_observation: Mapping[str, Any] | None) -> dict[str, Any]:
        """The policy's `ObservationReader` at work (no model in this process)."""
        return self.reader.observe(observation, previous_action, previous_observation)

    def act(self, observations: Sequence[Mapping[str, Any]], deterministic: bool) -> ActResult:
        """Ask the service; once more after reconnecting if it died meanwhile (the action was never taken).

        Raises:
            WorkerError: no answer within `address.timeout_s` seconds, or the service failed to act (its traceback).
        """
        sent = (*self.observation_keys, "goal")  # what `preprocess` reads: the stored entries and the goal
        request = ActRequest([{k: obs[k] for k in sent if k in obs} for obs in observations], deterministic)
        for attempt in range(2):
            try:
                assert self._conn is not None
                self._outgoing.put((self._conn, request))  # sent by `_send_loop`: a service that stops reading
                if not self._conn.poll(self.address.timeout_s):  # blocks that thread, never this wait
                    raise WorkerError(f"the inference service did not answer within {self.address.timeout_s:g} s")
                answer = self._conn.recv()
                break
            except (EOFError, OSError):
                if attempt:
                    raise WorkerError("the inference service closed the connection twice in a row") from None
                self._conn.close()  # type: ignore[union-attr]
                self._connect()
        match answer:
            case Acted(result):
                self.version = max(self.version, result.version)
                return result
            case ActFailed(reason):
                raise WorkerError(f"the inference service failed to act:\n{reason}")
            case _:
                raise WorkerError(f"the inference service answered {type(answer).__name__}, not Acted")

    def set_weights(self, weights: Mapping[str, Any] | None, version: int) -> None:
        """The service adopts weights itself; only the version is news here (the weights are not read)."""

    def close(self) -> None:
        """Close the connection (the service drops it) and stop the sending thread."""
        self._outgoing.put(None)
        if self._conn is not None:
            self._conn.close()
            self._conn = None


# -- the service's process -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ServiceSpec:
    """What a host's service process needs: where to listen, which policy, and its batching limits.

    Attributes:
        address: where it listens (each worker's spec carries the same).
        policy: the policy's config (the learner's shape, so it loads the learner's weights).
        seed: seeds its action sampling (one stream for the host: a worker's draws depend on what else is batched).
        max_batch_rows: see `InferenceService`.
        batch_window_s: see `InferenceService`.
    """

    address: ServiceAddress
    policy: Any
    seed: int
    max_batch_rows: int = 64
    batch_window_s: float = 0.002

    def build(self, weights: WeightSource) -> InferenceService:
        """The policy built here, its service listening (call `serve` next)."""
        from distrl_agent.policies.build import build_policy
        from distrl_agent.runtime.actor import PolicyActor

        policy = build_policy(self.policy)
        service = InferenceService(PolicyActor(policy, self.seed), type(policy).reader(policy.config), weights,
                                   self.address, self.max_batch_rows, self.batch_window_s)
        service.listen()
        return service


class PushedWeights:
    """A `WeightSource` fed by calls (`push`), for a service that is handed each version (Ray's, from the driver)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: tuple[int, Mapping[str, Any], float] | None = None

    @property
    def version(self) -> int:
        """The newest version pushed (-1: none yet)."""
        with self._lock:
            return -1 if self._latest is None else self._latest[0]

    def push(self, version: int, weights: Mapping[str, Any], published_at: float) -> None:
        """Hold `weights` as `version` (an older version than the one held is ignored)."""
        with self._lock:
            if self._latest is None or version > self._latest[0]:
                self._latest = (int(version), weights, float(published_at))

    def read_into(self, load: Callable[[Mapping[str, Any], int], None]) -> tuple[int, float] | None:
        """Hand the newest weights and their version to `load`; (version, published_at), or None before the first."""
        with self._lock:
            latest = self._latest
        if latest is None:
            return None
        version, weights, published_at = latest
        load(weights, version)
        return version, published_at


def service_main(spec: ServiceSpec, weights: WeightSource, conn: mpc.Connection) -> None:
    """Body of a host's service process: build the policy once, listen, serve until told to stop (or orphaned).

    `conn` is its pipe to the runtime: a message or end-of-file there stops it.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the learner's: it checkpoints, then stops us
    service = spec.build(weights)
    try:
        service.serve(lambda: conn.poll(0))
    finally:
        service.close()
