"""Tests of `distrl_agent.runtime.ray` on a local two-CPU Ray cluster (skipped when Ray is not installed)."""

from __future__ import annotations

import importlib.util
import socket
import sys
import time

import pytest

from distrl_agent.config import load_config
from distrl_agent.errors import ClusterError
from distrl_agent.runtime.collect import initial_weights
from distrl_agent.runtime.ray import RayRuntime, import_ray
from distrl_agent.runtime.train import train

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason='needs the ray extra (pip install ".[ray]")')
TINY = ["runtime.runtime=ray", "runtime.workers=1", "runtime.envs_per_worker=2",
        "runtime.worker_resources={emulator: 1}"]


@pytest.fixture(scope="module")
def ray_cluster():
    """A private cluster bound to loopback: 2 CPUs, 2 `emulator` resources, a small object store."""
    ray = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        mp.setenv("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=2, resources={"emulator": 2}, include_dashboard=False, object_store_memory=200 << 20,
                 log_to_driver=False)
        yield ray
        ray.shutdown()


def _poll_until(runtime: RayRuntime, condition, timeout_s: float = 90) -> list:
    deliveries, deadline = [], time.monotonic() + timeout_s
    while not condition(deliveries) and time.monotonic() < deadline:
        deliveries += runtime.poll(timeout_s=0.5)
    assert condition(deliveries), f"timed out waiting for the workers: {runtime.stats()} {runtime.book.last_error}"
    return deliveries


def test_import_ray_without_ray_names_the_extra(monkeypatch) -> None:
    """Without Ray installed the error says which extra to install."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=r'pip install "\.\[ray\]"'):
        import_ray()


@needs_ray
def test_unreachable_address_fails_within_timeout() -> None:
    """An address where nothing answers raises ClusterError naming it and the timeout."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    config = load_config(overrides=[*TINY, f"runtime.address=127.0.0.1:{port}", "runtime.connect_timeout_s=1"])
    start = time.monotonic()
    with pytest.raises(ClusterError, match=rf":{port}' did not answer within 1\.0 s"):
        RayRuntime(config).connect()
    assert time.monotonic() - start < 30


@needs_ray
def test_ray_train_async_end_to_end_on_emulator_hosts(ray_cluster, tmp_path) -> None:
    """`train` with runtime=ray: worker actors on `emulator` resources, the learner actor checkpoints to run_dir."""
    config = load_config(overrides=[*TINY, "runtime.minutes=0.1", "runtime.warm_start_episodes=4",
                                    "runtime.warm_start_updates=5", "runtime.eval_episodes=4",
                                    "learner.batch_size=4", "learner.min_replay_trajectories=4", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["runtime"] == "ray" and summary["updates"] > 0 and summary["env_steps"] > 0
    assert summary["runtime/weights_adopted"] > 0 and summary["learner/ingested"] > 0
    assert (tmp_path / "checkpoint" / "learner.pt").exists()
    deadline = time.monotonic() + 30  # actors are released asynchronously after `ray.kill`
    while ray_cluster.available_resources().get("emulator") != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ray_cluster.available_resources().get("emulator") == 2


@needs_ray
def test_ray_worker_killed_is_restarted_by_ray(ray_cluster, tmp_path) -> None:
    """SIGKILL of a worker actor: Ray restarts it, the driver counts it and collection resumes."""
    runtime = RayRuntime(load_config(overrides=[*TINY, f"run_dir={tmp_path}"]))
    runtime.start(0, initial_weights(runtime.config))
    try:
        _poll_until(runtime, lambda d: len(d) >= 1)
        runtime.kill_worker(0)
        after = _poll_until(runtime, lambda d: runtime.restarts == 1 and len(d) >= 1)
        stats = runtime.stats()
        assert stats["runtime/worker_restarts"] == 1 and stats["runtime/discarded_partial_episodes"] == 2
        for trajectory in runtime.fetch(after[-1].trajectories):
            trajectory.validate()
    finally:
        runtime.close()


@needs_ray
def test_ray_sync_rounds_use_the_published_version(ray_cluster, tmp_path) -> None:
    """Sync mode on two worker actors: each round's episodes all carry the version published for it."""
    runtime = RayRuntime(load_config(overrides=[*TINY, "runtime.workers=2", "runtime.sync=true",
                                                f"run_dir={tmp_path}"]))
    weights = initial_weights(runtime.config)
    runtime.start(2, weights)
    try:
        for version in (2, 6):
            runtime.publish(version, weights)
            deliveries = runtime.run_round(version, 3, time.monotonic() + 120)
            assert sorted(d.worker for d in deliveries) == [0, 1]
            trajectories = [t for d in deliveries for t in runtime.fetch(d.trajectories)]
            assert len(trajectories) == 6
            assert {int(v) for t in trajectories for v in t.policy_version} == {version}
    finally:
        runtime.close()
