"""Tests of `distrl_agent.runtime.local.LocalRuntime`: worker processes, kills and restarts, rounds, buffering."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from distrl_agent.config import load_config
from distrl_agent.errors import WorkerError
from distrl_agent.runtime.accounting import episode_balance
from distrl_agent.runtime.build import worker_specs
from distrl_agent.runtime.collect import initial_weights
from distrl_agent.runtime.local import LocalRuntime


def _runtime(tmp_path, *overrides: str) -> LocalRuntime:
    # no learner publishes new versions here: admission off, or it would hold the workers after their first batch
    config = load_config(overrides=["runtime.workers=1", "runtime.envs_per_worker=2", f"run_dir={tmp_path}",
                                    "runtime.max_offpolicyness=null", *overrides])
    return LocalRuntime(worker_specs(config), config.runtime)


def _poll_until(runtime: LocalRuntime, condition, timeout_s: float = 60) -> list:
    deliveries, deadline = [], time.monotonic() + timeout_s
    while not condition(deliveries) and time.monotonic() < deadline:
        deliveries += runtime.poll(timeout_s=0.2)
    assert condition(deliveries), "timed out waiting for the workers"
    return deliveries


def test_worker_killed_mid_episode_is_restarted_and_partial_discarded(tmp_path, caplog) -> None:
    """SIGKILL of a collecting worker: it is respawned, its in-progress episodes counted, nothing half-delivered;
    the log says how it died; `close` lets the respawned worker stop on its own."""  # noqa: D205, D209
    runtime = _runtime(tmp_path)
    weights = initial_weights(load_config())
    runtime.start(0, weights)
    try:
        _poll_until(runtime, lambda d: len(d) >= 2)
        runtime.kill_worker(0)
        with caplog.at_level(logging.WARNING, logger="distrl"):
            after = _poll_until(runtime, lambda d: runtime.restarts == 1 and len(d) >= 2)
        assert "worker 0 was killed by SIGKILL; restarting it (restart 1)" in caplog.text
        stats = runtime.stats()
        assert stats["runtime/worker_restarts"] == 1
        assert stats["runtime/discarded_partial_episodes"] == 2  # both slots were mid-episode
        assert stats["runtime/episodes"] >= sum(len(d.successes) for d in after)
        for delivery in after:
            for trajectory in delivery.trajectories:
                trajectory.validate()  # whole episodes only
        received = sum(len(d.trajectories) for d in [*after, *runtime.drain(timeout_s=30)])
        balance = episode_balance(runtime.stats())
        assert balance["unaccounted"] == 0 and balance["in_flight"] == 0, balance  # the kill included
        assert balance["received"] >= received
        respawned = runtime.procs[0].child
    finally:
        runtime.close()
    assert runtime.procs == []
    assert respawned.exit_reason() == "exited with code 0"  # it read its Stop: not killed


def test_sync_rounds_share_one_version_and_survive_a_kill(tmp_path, caplog, monkeypatch) -> None:
    """Two workers play each round with the published version; one killed mid-round replays its share."""
    monkeypatch.setattr("os.cpu_count", lambda: 1)  # two workers on "one core": warned, still run
    runtime = _runtime(tmp_path, "runtime.workers=2", "runtime.sync=true")
    weights = initial_weights(load_config())
    with caplog.at_level(logging.WARNING, logger="distrl"):
        runtime.start(3, weights)
    assert "share cores" in caplog.text
    try:
        first = runtime.run_round(3, 4, time.monotonic() + 120)
        assert sorted(d.worker for d in first) == [0, 1]
        assert all(len(d.trajectories) == 4 and d.version == 3 for d in first)
        runtime.publish(4, weights)
        killer = threading.Timer(0.3, runtime.kill_worker, args=(1,))
        killer.start()
        second = runtime.run_round(4, 60, time.monotonic() + 120)  # long enough to be killed in
        killer.join()
        assert runtime.restarts == 1 and sorted(d.worker for d in second) == [0, 1]
        assert runtime.stats()["runtime/discarded_partial_episodes"] == 2
        for delivery in second:
            assert len(delivery.trajectories) == 60
            assert {int(t.policy_version.min()) for t in delivery.trajectories} == {4}
            assert {int(t.policy_version.max()) for t in delivery.trajectories} == {4}
        with pytest.raises(WorkerError, match="publish version 9"):
            runtime.run_round(9, 1, time.monotonic() + 5)
    finally:
        runtime.close()


def test_worker_buffers_bounded_while_learner_does_not_read(tmp_path) -> None:
    """A learner that stops reading costs the oldest trajectories beyond the buffer, counted; collection goes on."""
    runtime = _runtime(tmp_path, "runtime.worker_buffer_trajectories=2")
    runtime.start(0, initial_weights(load_config()))
    try:
        _poll_until(runtime, lambda d: len(d) >= 1)
        time.sleep(3)  # the learner is "unreachable": nobody reads the results pipe
        _poll_until(runtime, lambda d: runtime.stats()["runtime/dropped_trajectories"] > 0, timeout_s=30)
        deliveries = _poll_until(runtime, lambda d: len(d) >= 1)
        assert all(t.length > 0 for d in deliveries for t in d.trajectories)
    finally:
        runtime.close()


@pytest.mark.parametrize("sync", [False, True])
def test_workers_with_env_processes_collect(tmp_path, sync: bool) -> None:
    """With slow (emulator-like) envs each worker runs its envs in processes of its own, in both protocols.

    Regression: worker processes were daemons, which may not start children, so this died at the first reset.
    """
    runtime = _runtime(tmp_path, "env.latency=fast-emulator", "env.latency_time_scale=0.001",
                       f"runtime.sync={str(sync).lower()}")
    runtime.start(0, initial_weights(load_config()))
    try:
        if sync:
            deliveries = runtime.run_round(0, 3, time.monotonic() + 60)
        else:
            deliveries = _poll_until(runtime, lambda got: sum(len(d.successes) for d in got) >= 3)
        assert sum(len(d.successes) for d in deliveries) >= 3
        assert runtime.stats()["runtime/worker_restarts"] == 0
    finally:
        runtime.close()
