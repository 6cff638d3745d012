"""Producer-side admission (runtime/admission.py): a worker starts no more episodes than its share of what the learner
consumes within η updates, idles until newer weights raise it, and a run under it neither deadlocks nor exceeds the
fleet's bound."""  # noqa: D205, D209

from __future__ import annotations

import math
import time

import pytest

from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection, load_config
from distrl_agent.errors import ConfigError
from distrl_agent.runtime.admission import Admission
from distrl_agent.runtime.collect import collect
from distrl_agent.runtime.shell import WorkerShell
from distrl_agent.runtime.train import train
from distrl_agent.runtime.worker import Worker
from distrl_agent.runtime.worker_spec import WorkerSpec

TINY = ["runtime.minutes=0.15", "runtime.envs_per_worker=4", "runtime.warm_start_episodes=4",
        "runtime.warm_start_updates=5", "runtime.eval_episodes=4", "learner.batch_size=4",
        "learner.min_replay_trajectories=4", "learner.max_samples_per_insert=0"]  # R = the batch: η = 1 starts


def test_the_allowance_grows_by_r_per_update_from_the_first_weights_in_whole_groups() -> None:
    rule = Admission(eta=2, per_update=3.0)
    assert [rule.allowed(v, 0) for v in (0, 1, 2)] == [9, 12, 15]
    assert rule.allowed(7, 5) == 15  # a restarted worker counts from its own first weights
    assert Admission(eta=1, per_update=3.0, group_size=4).allowed(0, 0) == 8  # 6, up to two whole groups
    ppo = Admission(eta=1, per_update=8.0, versions_per_update=4)  # an update of 4 epochs is 4 versions
    assert [ppo.allowed(v, 0) for v in (0, 4, 8)] == [16, 24, 32]


def test_a_worker_starts_at_most_its_allowance_then_holds_until_newer_weights() -> None:
    worker = Worker(0, EnvSection(), 4, seed=3, admission=Admission(eta=1, per_update=1.0))  # 2 at the start
    shell = WorkerShell(worker, outbox_capacity=64)
    shell.start()
    try:
        weights = worker.policy.state_dict()
        shell.offer(0, weights, time.time())
        for _ in range(400):
            shell.collect_step()
            assert worker.stats["started"] <= 2
            if worker.is_held:
                break
        assert worker.is_held and worker.stats["started"] == 2 and worker.stats["admission_waits"] > 0
        start = time.monotonic()
        assert shell.collect_step() == 0 and time.monotonic() - start >= 0.05  # it waits for weights, not spins
        shell.offer(1, weights, time.time())
        for _ in range(400):
            shell.collect_step()
            if worker.stats["started"] == 3 and worker.is_held:  # its episode ended and the slot's reset arrived
                break
        assert worker.stats["started"] == 3 and worker.is_held  # one more version, one more episode
        worker.stats["faulty_episodes"] += 1  # an episode lost to a fault never reaches the learner: its place frees
        assert worker.admitted == 2 and not worker.is_held
    finally:
        shell.close()


@pytest.mark.parametrize("envs", [3, 6])
def test_a_started_group_always_finishes_under_admission(envs: int) -> None:
    """A worker draws each slot's next start ahead (its reset seed goes with every action), so the members of a GRPO
    group wait in slots that free up in any order. Admission must let every member of a group it started start too:
    admitted slot by slot, 6 slots with room for one group of 4 started two groups halfway and held their ended
    members for good (World, instant phone: 0 updates in 10 minutes); with fewer slots than members, the held
    worker also stopped taking the resets that bring a group's last member."""  # noqa: D205, D209
    world = load_config(overrides=["env.env_id=android_gym/World-v0"])  # episodes of many lengths: slots free apart
    worker = Worker(0, world.env, envs, seed=3, policy_config=world.policy.small, groups=GroupSpec(size=4),
                    admission=Admission(eta=1, per_update=2.0, group_size=4))  # room for one group, and no update
    shell = WorkerShell(worker, outbox_capacity=64)
    shell.start()
    try:
        shell.offer(0, worker.policy.state_dict(), time.time())
        finished = lambda: sum(worker.stats[k] for k in ("groups_released", "groups_uniform", "groups_too_small"))  # noqa: E731
        for _ in range(2000):
            shell.collect_step()
            assert worker.admitted <= 4  # one group at a time, started or still to start
            # held back for newer weights: every group it started has ended and shipped or been dropped
            assert not worker.is_held or worker.held_in_groups == 0, (worker.held_in_groups, worker.stats)
            if worker.is_held or finished() >= 4:
                break
        # an untrained policy fails most groups, which are dropped and make room: the worker goes on
        assert finished() >= 4 or (worker.is_held and worker.stats["groups_released"] == 1), worker.stats
    finally:
        shell.close()


def test_a_member_lost_to_a_fault_does_not_keep_the_next_group_out() -> None:
    """A member of a started group lost to a fault frees one place, less than a group: the worker must still open the
    next group (going over by less than a group), or the fleet stays one trajectory under what the learner needs to
    start (η = 3 lets it deliver exactly `min_replay_trajectories`) and the run never makes its first update."""  # noqa: D205, D209
    world = load_config(overrides=["env.env_id=android_gym/World-v0"])
    worker = Worker(0, world.env, 4, seed=3, policy_config=world.policy.small, groups=GroupSpec(size=4),
                    admission=Admission(eta=1, per_update=2.0, group_size=4))  # room for one group, and no update
    shell = WorkerShell(worker, outbox_capacity=64)
    shell.start()
    try:
        shell.offer(0, worker.policy.state_dict(), time.time())
        # a first group started whole; one member was cut by a fault and the other three shipped: one place is free
        worker.stats["started"], worker.stats["faulty_episodes"] = 4, 1
        assert worker.admitted == 3 and not worker.is_held
        for _ in range(2000):
            shell.collect_step()
            if worker.stats["started"] == 8:
                break
        assert worker.stats["started"] == 8 and worker.admitted <= 3 + 4  # the next group, whole: over by under one
    finally:
        shell.close()


def test_bad_admission_settings_are_refused_naming_the_key() -> None:
    with pytest.raises(ConfigError, match="max_offpolicyness"):
        load_config(overrides=["runtime.max_offpolicyness=0"])
    with pytest.raises(ConfigError, match=r"`learner.max_staleness` \(2\) is below `runtime.max_offpolicyness` \(4\)"):
        load_config(overrides=["runtime.max_offpolicyness=4", "learner.max_staleness=2"])
    with pytest.raises(ConfigError, match=r"min_replay_trajectories.*use η >= 15"):  # 32 / 16 draws: 2 per update
        load_config(overrides=["runtime.max_offpolicyness=1", "learner.max_samples_per_insert=16"])
    # η counts updates, as AReaL's versions: PPO's 4 epochs on a batch are one, so η = 1 starts as for the others
    assert load_config(overrides=["learner.algorithm=ppo", "runtime.max_offpolicyness=1",
                                  "learner.max_samples_per_insert=0"]).runtime.max_offpolicyness == 1
    for algorithm in ("a-ride", "ppo", "grpo", "digirl", "filtered-bc"):  # the defaults start every rule: one batch
        assert load_config(overrides=[f"learner.algorithm={algorithm}"]).runtime.max_offpolicyness == 3
    with pytest.raises(ConfigError, match=r"`learner.max_staleness` \(10\) is below .*\(3\) updates of 4 versions"):
        load_config(overrides=["learner.algorithm=ppo", "runtime.max_offpolicyness=3", "learner.max_staleness=10"])
    sync = load_config(overrides=["runtime.max_offpolicyness=1", "runtime.sync=true"])
    assert WorkerSpec.of_run(0, sync).admission is None  # rounds bound themselves


@pytest.mark.parametrize("algorithm", ["a-ride", "grpo"])
def test_a_run_under_admission_trains_and_its_fleet_stays_within_the_bound(tmp_path, algorithm: str) -> None:
    """Two workers, η = 1: the learner trains, workers were held back, and what the fleet admitted stays within
    (η + versions + 1) R, plus one group or episode of rounding per worker."""  # noqa: D205, D209
    # GRPO learns from groups with a success in them only (all-failure groups are dropped): a policy warm-started
    # on 4 demonstrations made few, and under a loaded suite a 9-second run could end without an update; it runs
    # until its third update instead, with a policy that sometimes succeeds
    group = ["learner.coefficients={group_size: 2}", "runtime.warm_start_episodes=24", "runtime.warm_start_updates=40",
             "runtime.minutes=2", "runtime.max_updates=3"] if algorithm == "grpo" else []
    config = load_config(overrides=[*TINY, f"learner.algorithm={algorithm}", "runtime.workers=2", *group,
                                    "runtime.max_offpolicyness=1", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    versions = summary["updates"]
    assert versions >= 2 and summary["runtime/admission_waits"] > 0
    s = {k.removeprefix("runtime/"): v for k, v in summary.items() if k.startswith("runtime/")}
    lost = (s["faulty_episodes"] - s["fault_prefixes"] + s["unknown_verdict_cuts"] - s["unknown_verdict_prefixes"]
            + s.get("group_members_dropped", 0))
    rounding = 2 * (2 if algorithm == "grpo" else 1)
    bound = (1 + versions + 1) * config.learner.consumed_per_update() + rounding  # an update is a version here
    assert s["episodes_started"] - lost <= bound, (s["episodes_started"], lost, bound)
    assert math.isfinite(summary["test_success"])


def test_collect_runs_without_admission(tmp_path) -> None:
    """`distrl collect` has no learner, so no version follows the first: a set η must not hold its workers."""
    config = load_config(overrides=["runtime.workers=1", "runtime.envs_per_worker=2", "runtime.max_offpolicyness=1",
                                    "learner.batch_size=4", "learner.min_replay_trajectories=4",
                                    "learner.max_samples_per_insert=0", f"run_dir={tmp_path}"])
    result = collect(config, seconds=3)
    assert result["runtime/admission_waits"] == 0 and result["episodes"] > (1 + 1) * 4  # beyond the first allowance
