"""Tests of `Worker` over env processes (`AsyncEnvPool`): DistRL collection, acting on whichever env is ready."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.vector import AsyncEnvPool, SyncEnvPool
from distrl_agent.config import EnvSection, load_config
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.worker import Worker

SLOW = EnvSection(latency="emulator", latency_time_scale=0.002)  # heavy-tailed delays of a few milliseconds


@pytest.fixture
def pool_worker():
    """A started pool worker with four slow environments and the learner's initial weights at version 3."""
    with Worker(1, SLOW, 4, seed=2) as w:
        w.set_weights(build_learner(load_config()).weights(), 3)
        yield w


def test_worker_uses_processes_only_for_slow_envs(pool_worker) -> None:
    """One process per env for latency-bound envs, in-process stepping for the instant sim (same worker class)."""
    assert Worker(0, SLOW, 2).uses_processes and Worker(0, EnvSection(env_processes=True), 2).uses_processes
    assert not Worker(0, EnvSection(), 2).uses_processes
    # a phone over ADB or an emulator waits on the device every step: stepped in turn, 8 emulators went at the pace
    # of one (issue 47's fleet benchmark: 1.1 steps/s for 4 emulators, 5.2 steps/s with a process each)
    for device in ("adb:sim-{index}", "emulator@5554"):
        assert EnvSection(device=device).uses_processes
        assert not EnvSection(device=device, env_processes=False).uses_processes
    assert isinstance(pool_worker.pool, AsyncEnvPool)
    with Worker(0, EnvSection(), 1) as in_process:
        assert isinstance(in_process.pool, SyncEnvPool)


def test_step_ships_valid_trajectories_with_goal_and_version(pool_worker) -> None:
    """Trajectories from the pool are whole, validated, tagged with the task and the acting version."""
    finished = []
    for _ in range(2000):
        finished += pool_worker.step()
        if len(finished) >= 4:
            break
    assert len(finished) >= 4
    for trajectory in finished:
        trajectory.validate()
        assert trajectory.goal and trajectory.task.startswith("general/")
        assert set(trajectory.policy_version.tolist()) == {3} and trajectory.worker_id == 1
        assert trajectory.observations["element_mask"].shape[0] == trajectory.length + 1
        assert np.isfinite(trajectory.log_mu).all()


def test_run_episodes_plays_exact_count_and_leaves_nothing_running(pool_worker) -> None:
    """`run_episodes(n)` finishes exactly n episodes (no faults on the sim) and leaves no step in flight."""
    assert len(pool_worker.run_episodes(6)) == 6
    assert pool_worker.in_progress == 0 and pool_worker.stats["episodes"] == 6
    assert len(pool_worker.run_episodes(3)) == 3 and pool_worker.stats["episodes"] == 9


def test_killed_env_process_truncates_its_episode_and_is_discarded(pool_worker, caplog) -> None:
    """An env process killed mid-episode comes back as a faulty episode: counted, never shipped."""
    import os
    import signal

    pool_worker.step()
    os.kill(pool_worker.pool.pids[0], signal.SIGKILL)
    shipped = []
    with caplog.at_level("WARNING", logger="distrl"):
        for _ in range(3000):
            shipped += pool_worker.step()
            if pool_worker.stats["faulty_episodes"]:
                break
    assert pool_worker.stats["faulty_episodes"] >= 1
    assert any("episode cut by a fault" in r.getMessage() for r in caplog.records)  # and why, in the log
    for trajectory in shipped:
        trajectory.validate()


def test_run_episodes_plays_a_task_plan_over_env_processes(pool_worker) -> None:
    """A plan's tasks reach background resets as reset options: exactly the planned tasks are played."""
    tasks = pool_worker.pool.apply(_task_goals, env_ids=[0])[0]
    plan = [3, 3, 0, 7, 1, 5]
    trajectories = pool_worker.run_episodes(len(plan), tasks=plan)
    assert sorted(t.goal for t in trajectories) == sorted(tasks[i] for i in plan)
    assert pool_worker.in_progress == 0


def _task_goals(env) -> list[str]:
    return [task.goal for task in env.unwrapped.tasks]


@pytest.mark.parametrize("count", [4, 6])
def test_lockstep_round_acts_on_every_running_episode_at_each_step(count: int) -> None:
    """DigiRL's collector: step t of a batch is one policy call over every episode still running at t."""
    with Worker(1, SLOW, 4, seed=5, lockstep=True) as worker:
        worker.set_weights(build_learner(load_config()).weights(), 0)
        calls: list[int] = []
        act = worker.policy.act

        def counting_act(inputs, *args, **kwargs):
            calls.append(int(next(iter(inputs.values())).shape[0]))
            return act(inputs, *args, **kwargs)

        worker.policy.act = counting_act
        trajectories = worker.run_episodes(count)
        assert len(trajectories) == count and worker.in_progress == 0
    # Batches of up to 4 episodes, the second starting after the first one's last step (so the first 4 episodes
    # returned are the first batch); step t of a batch is one call over its episodes longer than t.
    lengths = [t.length for t in trajectories]
    batches = [lengths[:4], lengths[4:]] if count > 4 else [lengths]
    assert calls == [sum(n > t for n in batch) for batch in batches for t in range(max(batch))]
