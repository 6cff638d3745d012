"""Tests of the host's inference service (`distrl_agent.runtime.inference`): batching, answers row for row, weights
adopted once for the host, failures that reach the asking worker, and the local runtime running on it."""  # noqa: D205, D209

from __future__ import annotations

import dataclasses
import multiprocessing.connection as mpc
import os
import signal
import threading
import time

import gymnasium as gym
import numpy as np
import pytest

from distrl_agent.config import load_config
from distrl_agent.errors import WorkerError
from distrl_agent.policies.build import build_seeded_policy
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.runtime.accounting import episode_balance
from distrl_agent.runtime.actor import PolicyActor
from distrl_agent.runtime.build import make_runtime
from distrl_agent.runtime.collect import initial_weights
from distrl_agent.runtime.inference import InferenceService, ServiceActor, ServiceAddress, Welcome
from distrl_agent.runtime.weights import trainable_weights

CONFIG = SmallPolicyConfig()


class Published:
    """A weight source holding one version (what `SharedWeights` shows the service)."""

    def __init__(self, version: int, weights: dict) -> None:
        self.version, self.weights, self.reads = version, weights, 0

    def read_into(self, load):  # noqa: D102
        self.reads += 1
        load(self.weights, self.version)
        return self.version, time.time()


def _observations(count: int, seed: int) -> list[dict]:
    env = gym.make("android_gym/General-v0")
    out = []
    for i in range(count):
        obs, _ = env.reset(seed=seed + i)
        out.append(SmallPolicy.reader(CONFIG).observe(obs, None))
    env.close()
    return out


@pytest.fixture
def service():
    """A service thread on the small policy, its weights published as version 3 (another seed than it was built)."""
    weights = trainable_weights(build_seeded_policy(CONFIG, 1))
    source = Published(3, weights)
    address = ServiceAddress.fresh(timeout_s=30)
    served = InferenceService(PolicyActor(build_seeded_policy(CONFIG, 0), seed=0), SmallPolicy.reader(CONFIG),
                              source, address, batch_window_s=0.5)
    served.listen()
    stop = threading.Event()
    thread = threading.Thread(target=served.serve, args=(stop.is_set, 0.05), daemon=True)
    thread.start()
    try:
        yield served, address, weights
    finally:
        stop.set()
        thread.join(10)
        served.close()
        address.remove()


def test_workers_asking_together_share_one_batched_act_and_each_gets_its_own_rows() -> None:
    weights = trainable_weights(build_seeded_policy(CONFIG, 1))
    address = ServiceAddress.fresh(timeout_s=60)
    served = InferenceService(PolicyActor(build_seeded_policy(CONFIG, 0), seed=0), SmallPolicy.reader(CONFIG),
                              Published(3, weights), address, batch_window_s=0)
    served.listen()  # not serving yet: both requests wait in their sockets, then one `serve_once` takes them
    reference = PolicyActor(build_seeded_policy(CONFIG, 2), seed=0)
    reference.set_weights(weights, 3)
    asks = {0: _observations(2, seed=10), 1: _observations(3, seed=20)}
    clients = {k: ServiceActor(address) for k in asks}
    results = {}
    threads = [threading.Thread(target=lambda k=k: results.__setitem__(k, clients[k].act(asks[k], True)))
               for k in asks]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(mpc.wait(list(served._clients), timeout=0.1)) < 2 and time.monotonic() < deadline:
            pass
        assert served.serve_once(wait_s=1) == 2
        for t in threads:
            t.join(30)
    finally:
        served.close()
        address.remove()
    assert served.stats.batches == 1 and served.stats.rows == 5 and served.stats.requests == 2
    for k, observations in asks.items():
        alone = reference.act(observations, deterministic=True)
        got = results[k]
        assert got.version == 3  # the published weights, adopted by the service, chose them
        assert {key: v.tolist() for key, v in got.actions.items()} == {key: v.tolist()
                                                                        for key, v in alone.actions.items()}
        np.testing.assert_allclose(got.log_mu, alone.log_mu, atol=1e-5)
        assert got.env_actions == alone.env_actions
    assert served.stats.versions_adopted == 1
    for client in clients.values():
        client.close()


def test_the_reader_reaches_the_worker_and_weights_are_read_once_per_version(service) -> None:
    served, address, _ = service
    client = ServiceActor(address)
    assert client.observation_keys == SmallPolicy.observation_keys
    for seed in (1, 2, 3):
        client.act(_observations(1, seed), deterministic=False)
    assert served.weights.reads == 1  # one copy for the host, not one per request
    served.weights.version = 4
    assert client.act(_observations(1, 4), deterministic=False).version == 4
    assert served.weights.reads == 2
    client.close()


def test_a_failed_act_reaches_the_asking_worker_and_the_service_goes_on(service) -> None:
    served, address, _ = service
    client = ServiceActor(address)
    broken = {k: v for k, v in _observations(1, 5)[0].items() if k != "element_mask"}
    with pytest.raises(WorkerError, match="failed to act"):
        client.act([broken], deterministic=True)
    assert served.stats.failed == 1
    assert len(client.act(_observations(1, 5), deterministic=True).env_actions) == 1
    client.close()


def test_a_wrong_key_is_refused_at_once_and_the_service_serves_on(service) -> None:
    _, address, _ = service
    intruder = dataclasses.replace(address, authkey=os.urandom(32), timeout_s=0.5)
    began = time.monotonic()
    with pytest.raises(WorkerError, match="refused this worker's key"):
        ServiceActor(intruder)
    assert time.monotonic() - began < 5  # at once: a wrong key is not worth retrying
    client = ServiceActor(address)  # the service still serves the right key
    assert len(client.act(_observations(1, 6), deterministic=True).env_actions) == 1
    client.close()


def test_a_service_that_stops_answering_fails_the_worker_within_its_timeout() -> None:
    silent = ServiceAddress.fresh(timeout_s=0.5)  # listening, never accepting: the handshake itself is bounded
    idle = mpc.Listener(silent.path, family="AF_UNIX")
    try:
        with pytest.raises(WorkerError, match="did not answer within 0.5 s"):
            ServiceActor(silent)
    finally:
        idle.close()
        silent.remove()

    address = ServiceAddress.fresh(timeout_s=0.5)
    listener = mpc.Listener(address.path, family="AF_UNIX")
    held = []

    def welcome_then_nothing() -> None:  # a service that is alive and says nothing more after its welcome
        conn = listener.accept()
        held.append(conn)
        challenge = os.urandom(32)
        conn.send_bytes(challenge)
        assert conn.recv_bytes() == address.digest(challenge)
        conn.send(Welcome(SmallPolicy.reader(CONFIG)))

    thread = threading.Thread(target=welcome_then_nothing, daemon=True)
    thread.start()
    try:
        client = ServiceActor(address)
        began = time.monotonic()
        with pytest.raises(WorkerError, match="did not answer within 0.5 s"):
            client.act(_observations(1, 7), deterministic=True)
        assert time.monotonic() - began < 10
    finally:
        listener.close()
        address.remove()


def _loads_torch(pid: int) -> bool:
    with open(f"/proc/{pid}/maps") as maps:
        return any("libtorch" in line for line in maps)


def _poll_until(runtime, condition, timeout_s: float = 120) -> list:
    deliveries, deadline = [], time.monotonic() + timeout_s
    while not condition(deliveries) and time.monotonic() < deadline:
        deliveries += runtime.poll(timeout_s=0.2)
    assert condition(deliveries), "timed out waiting for the workers"
    return deliveries


def test_local_runtime_on_a_host_service_collects_with_each_version_and_survives_its_death(tmp_path, caplog) -> None:
    """Two torch-free workers act through one service; a new version reaches their data through it; a killed
    service is restarted and collection goes on, every episode accounted for."""  # noqa: D205, D209
    config = load_config(overrides=["runtime.workers=2", "runtime.envs_per_worker=2", f"run_dir={tmp_path}",
                                    "runtime.max_offpolicyness=null", "runtime.inference=host"])
    runtime, _ = make_runtime(config, with_learner=False)
    weights = initial_weights(config)
    runtime.start(0, weights)
    try:
        first = _poll_until(runtime, lambda d: len(d) >= 2)
        assert {int(v) for d in first for t in d.trajectories for v in t.policy_version} == {0}
        assert not any(_loads_torch(p.child.pid) for p in runtime.procs)  # the workers hold no model
        assert _loads_torch(runtime.service.pid)
        runtime.publish(1, weights)
        _poll_until(runtime, lambda d: any(1 in t.policy_version for x in d for t in x.trajectories))
        os.kill(runtime.service.pid, signal.SIGKILL)
        _poll_until(runtime, lambda d: runtime.stats()["runtime/inference_restarts"] == 1 and len(d) >= 2)
        assert "the inference service was killed by SIGKILL; restarting it (restart 1)" in caplog.text
        assert runtime.restarts == 0  # the workers reconnected: none of them died with it
        runtime.drain(timeout_s=30)
        balance = episode_balance(runtime.stats())
        assert balance["unaccounted"] == 0, balance
    finally:
        address = runtime.service_spec.address
        runtime.close()
    assert not os.path.exists(os.path.dirname(address.path))


def test_sync_rounds_through_a_host_service_carry_the_round_version(tmp_path) -> None:
    config = load_config(overrides=["runtime.workers=2", "runtime.envs_per_worker=2", f"run_dir={tmp_path}",
                                    "runtime.sync=true", "runtime.inference=host"])
    runtime, _ = make_runtime(config, with_learner=False)
    weights = initial_weights(config)
    runtime.start(5, weights)
    try:
        deliveries = runtime.run_round(5, 3, time.monotonic() + 120)
        runtime.publish(6, weights)
        deliveries += runtime.run_round(6, 3, time.monotonic() + 120)
    finally:
        runtime.close()
    versions = [{int(v) for t in d.trajectories for v in t.policy_version} for d in deliveries]
    assert versions == [{5}, {5}, {6}, {6}]


def test_auto_inference_picks_the_host_for_a_vlm_only() -> None:
    assert not load_config().inference_on_host()
    assert load_config(overrides=["runtime.inference=host"]).inference_on_host()
    assert load_config(overrides=["runtime.runtime=ray", "runtime.inference=host"]).inference_on_host()
