"""Tests of `distrl_agent.runtime.shell`: the bounded outbox and weight adoption between steps."""

from __future__ import annotations

import threading
import time

import pytest

from distrl_agent.config import EnvSection, TrainConfig, load_config
from distrl_agent.errors import ConfigError
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.shell import Outbox, WorkerShell
from distrl_agent.runtime.worker import Worker
from distrl_agent.runtime.worker_spec import WorkerSpec


def test_outbox_drops_oldest_when_full_and_counts() -> None:
    """Beyond its capacity the outbox keeps the newest items and counts the dropped ones."""
    box = Outbox(3)
    box.put([1, 2])
    box.put([3, 4, 5])
    assert box.dropped == 2 and len(box) == 3
    assert box.take(timeout_s=0) == [3, 4, 5]


def test_outbox_take_waits_for_an_item_until_timeout() -> None:
    """`take` returns early when an item arrives and empty-handed after its timeout."""
    box = Outbox(2)
    assert box.take(timeout_s=0.01) == []
    threading.Timer(0.05, box.put, args=([9],)).start()
    assert box.take(timeout_s=5) == [9]
    assert box.take(timeout_s=0, max_items=1) == []


def test_outbox_rejects_zero_capacity() -> None:
    """A capacity below one is a ConfigError."""
    with pytest.raises(ConfigError, match="capacity"):
        Outbox(0)


@pytest.fixture
def shell():
    """A started shell around a one-environment worker."""
    s = WorkerShell(Worker(0, EnvSection(), 1), outbox_capacity=4)
    s.start()
    yield s
    s.close()


def test_shell_never_steps_before_weights_arrive(shell) -> None:
    """Without an offer the worker does not act with its own random initialisation."""
    assert shell.collect_step() == 0 and shell.worker.stats["steps"] == 0 and shell.version == -1


def test_shell_adopts_newest_offer_only(shell) -> None:
    """Of several offers the newest wins; an older offer after it is ignored; latency counts from the 2nd."""
    weights = build_learner(load_config()).weights()
    shell.offer(0, weights, time.time())
    shell.collect_step()
    assert shell.worker.version == 0 and shell.stats()["adopted"] == 0  # first weights: start-up, not broadcast
    shell.offer(3, weights, time.time())
    shell.offer(5, weights, time.time())
    shell.offer(4, weights, time.time())
    shell.collect_step()
    assert shell.worker.version == 5 and shell.version == 5
    stats = shell.stats()
    assert stats["adopted"] == 1 and 0 <= stats["latency_s_max"] < 60


def test_shell_collect_step_fills_outbox_with_finished_episodes(shell) -> None:
    """Finished episodes land in the outbox; with the learner not reading, the oldest are dropped beyond 4."""
    shell.offer(0, build_learner(load_config()).weights(), time.time())
    finished = sum(shell.collect_step() for _ in range(80))
    assert finished == shell.worker.stats["episodes"] >= 5
    assert len(shell.outbox) == 4 and shell.stats()["dropped_trajectories"] == finished - 4


def test_a_worker_spec_carries_the_runs_worker_settings_and_no_config() -> None:
    """What a worker process receives: its index, envs, seed, protocol and groups, built from the run's config."""
    config = load_config(overrides=["learner.algorithm=grpo", "runtime.sync=true", "runtime.envs_per_worker=3",
                                    "runtime.seed=2", "runtime.worker_buffer_trajectories=7"])
    spec = WorkerSpec.of_run(1, config)
    assert not any(isinstance(value, TrainConfig) for value in vars(spec).values())
    shell = spec.shell()
    worker = shell.worker
    assert (worker.worker_id, worker.num_envs, worker.seed, worker.lockstep) == (1, 3, 2001, True)
    assert worker.held_in_groups == 0 and "groups_released" in worker.stats  # it plays GRPO's groups
    assert worker.first_env_index == 3 and shell.outbox._capacity == 7
    async_spec = WorkerSpec.of_run(0, load_config(overrides=["runtime.sync=false"]))
    assert not async_spec.lockstep and async_spec.groups is None and async_spec.unknown_prefixes
