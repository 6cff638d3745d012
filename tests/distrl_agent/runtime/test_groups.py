"""Tests of GRPO's groups: `GroupCollector`, and workers that play each group from one start."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection, load_config
from distrl_agent.errors import ConfigError
from distrl_agent.runtime import worker as worker_module
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.groups import GroupCollector
from distrl_agent.runtime.worker import Worker

SLOW = EnvSection(latency="emulator", latency_time_scale=0.002)


def member(make_trajectory, reward: float):
    trajectory = make_trajectory(3)
    trajectory.rewards[:] = 0.0
    trajectory.rewards[-1] = reward
    return trajectory


def test_plan_puts_consecutive_draws_in_one_group() -> None:
    plan = GroupCollector(GroupSpec(3), worker_id=0)
    assert [plan.draw() for _ in range(7)] == [0, 0, 0, 1, 1, 1, 2]
    with pytest.raises(RuntimeError, match="more than its size"):
        plan.started(0)  # draw() counted each member as started
    with pytest.raises(ValueError, match="at least 2"):
        GroupSpec(1)
    with pytest.raises(ValueError, match="length_penalty"):
        GroupSpec(2, length_penalty=-0.1)


def test_collector_releases_a_group_once_every_member_ended_with_its_return_statistics(make_trajectory) -> None:
    collector = GroupCollector(GroupSpec(3), worker_id=4)
    for _ in range(3):
        collector.started(0)
    collector.started(1)
    assert collector.ended(0, member(make_trajectory, 1.0)) == []
    assert collector.ended(0, member(make_trajectory, 0.0)) == [] and collector.held == 2
    released = collector.ended(0, member(make_trajectory, 0.0))
    assert len(released) == 3 and collector.held == 0
    for t in released:
        assert t.metadata["group"] == {"id": "4:0", "members": 3, "mean": pytest.approx(1 / 3),
                                       "std": pytest.approx(np.std([1, 0, 0], ddof=1)),
                                       "return": float(t.rewards.sum())}
        t.validate()  # the statistics pass the learner's check
    assert collector.stats["groups_released"] == 1
    # group 1 has started one member only: however its members end, nothing ships before the other two start
    assert collector.ended(1, member(make_trajectory, 1.0)) == []


def test_collector_goes_on_without_lost_members_and_drops_groups_without_signal(make_trajectory) -> None:
    collector = GroupCollector(GroupSpec(3), worker_id=0)
    for group in range(3):
        for _ in range(3):
            collector.started(group)
    # group 0: one member lost to a fault; the two survivors differ, so they ship as a group of 2
    assert collector.ended(0, None) == [] and collector.ended(0, member(make_trajectory, 1.0)) == []
    released = collector.ended(0, member(make_trajectory, 0.0))
    assert [t.metadata["group"]["members"] for t in released] == [2, 2]
    # group 1: all failed alike (every advantage would be 0); group 2: one survivor has nothing to compare with
    assert [collector.ended(1, member(make_trajectory, 0.0)) for _ in range(3)] == [[], [], []]
    assert [collector.ended(2, t) for t in (None, None, member(make_trajectory, 1.0))] == [[], [], []]
    assert collector.stats == {"groups_released": 1, "groups_uniform": 1, "groups_too_small": 1,
                               "group_members_lost": 3, "group_members_dropped": 4}  # 3 alike + 1 alone
    with pytest.raises(RuntimeError, match="no member running"):
        collector.ended(2, None)
    with pytest.raises(RuntimeError, match="more than its size"):
        for _ in range(4):
            collector.started(5)


def test_length_penalty_ranks_shorter_successes_higher_and_gives_all_success_groups_a_signal(make_trajectory) -> None:
    """Shortest-path returns: a success loses λ per step, a failure nothing; successes of unequal length now differ."""
    spec = GroupSpec(2, length_penalty=0.05)
    short, long_ = member(make_trajectory, 1.0), make_trajectory(6)
    long_.rewards[:] = 0.0
    long_.rewards[-1] = 1.0
    assert spec.episode_return(short) == pytest.approx(1 - 0.05 * 3) and spec.episode_return(long_) == pytest.approx(
        1 - 0.05 * 6)
    assert spec.episode_return(member(make_trajectory, 0.0)) == 0.0
    collector = GroupCollector(spec, worker_id=0)
    collector.started(0)
    collector.started(0)
    released = collector.ended(0, short) or collector.ended(0, long_)
    assert [t.metadata["group"]["return"] for t in released] == pytest.approx([0.85, 0.7])
    plain = GroupCollector(GroupSpec(2), worker_id=0)  # without the penalty both returned 1: no signal
    plain.started(0)
    plain.started(0)
    assert plain.ended(0, member(make_trajectory, 1.0)) == [] and plain.ended(0, member(make_trajectory, 1.0)) == []
    assert plain.stats["groups_uniform"] == 1


class RecordResets(gym.Wrapper):
    """Logs (seed, task, first observation) of every reset into a shared list."""

    def __init__(self, env: gym.Env, log: list) -> None:
        super().__init__(env)
        self.log = log

    def reset(self, *, seed=None, options=None):
        """The wrapped env's reset, logged."""
        obs, info = self.env.reset(seed=seed, options=options)
        self.log.append((seed, info["task"], {k: np.array(v, copy=True) for k, v in obs.items()}))
        return obs, info


def same_start(a: tuple, b: tuple) -> bool:
    return a[:2] == b[:2] and all(np.array_equal(a[2][k], b[2][k]) for k in a[2])


def assert_released_groups_are_whole(finished, collector_stats, groups: int, size: int) -> None:
    done = collector_stats["groups_released"] + collector_stats["groups_uniform"] + collector_stats["groups_too_small"]
    assert done == groups and collector_stats["group_members_lost"] == 0
    by_group: dict[str, list] = {}
    for t in finished:
        by_group.setdefault(t.metadata["group"]["id"], []).append(t)
    assert len(by_group) == collector_stats["groups_released"]
    for members in by_group.values():
        assert len(members) == size and len({t.goal for t in members}) == 1 and len({t.task for t in members}) == 1
        assert np.std([t.metadata["group"]["return"] for t in members], ddof=1) == pytest.approx(
            members[0].metadata["group"]["std"])
        assert [t.metadata["group"]["return"] for t in members] == [float(t.rewards.sum()) for t in members]


def test_worker_plays_each_group_from_the_same_reset(monkeypatch) -> None:
    """In-process: the members of a group reset with one seed (same task, same first screen); groups differ."""
    log: list = []
    make_env = worker_module.make_env
    monkeypatch.setattr(worker_module, "make_env", lambda *a, **k: RecordResets(make_env(*a, **k), log))
    with Worker(0, EnvSection(), 3, seed=1, groups=GroupSpec(2)) as w:
        finished = w.run_episodes(8)
        stats = dict(w.stats)
    # 3 slots started, then 5 more episodes (4 groups of 2), and the background resets of slots whose episode ended
    # after the round's last start, which wait unplayed (at most one per slot)
    assert 8 <= len(log) <= 8 + 3
    for k in range(0, 8, 2):
        assert same_start(log[k], log[k + 1])
    assert len({entry[0] for entry in log[:8]}) == 4
    assert_released_groups_are_whole(finished, stats, groups=4, size=2)
    with pytest.raises(ValueError, match="task plan"):
        Worker(0, EnvSection(), 2, groups=GroupSpec(2)).run_episodes(2, tasks=[0, 1])


def test_pool_worker_sends_each_group_member_its_reset_seed() -> None:
    """Env processes reset in the background: each member's reset (seed, task, screen) still matches its group's."""
    arrivals: list = []
    with Worker(0, SLOW, 3, seed=1, groups=GroupSpec(2)) as w:
        w.set_weights(build_learner(load_config()).weights(), 1)
        arrive = w._arrive

        def spy(i, obs, info):
            group, seed = w._upcoming[i].group, w._upcoming[i].seed
            arrivals.append((group, (seed, info["task"], {k: np.array(v, copy=True) for k, v in obs.items()})))
            arrive(i, obs, info)

        w._arrive = spy
        for k, slot in enumerate(w._episodes):  # the first resets arrived in start(), before the spy
            assert slot.group == [0, 0, 1][k]
        finished = w.run_episodes(6)
        stats = dict(w.stats)
    by_group: dict[int, list] = {}
    for group, start in arrivals:
        by_group.setdefault(group, []).append(start)
    assert set(by_group) >= {1, 2}
    for starts in by_group.values():
        assert len(starts) <= 2 and all(same_start(starts[0], s) for s in starts)
    assert by_group[2][0][0] != by_group[1][0][0]
    assert_released_groups_are_whole(finished, stats, groups=3, size=2)


def test_config_asks_workers_for_groups_only_under_grpo() -> None:
    assert load_config().learner.group_spec is None
    assert load_config(overrides=["learner.algorithm=grpo"]).learner.group_spec == GroupSpec(4)
    grpo_8 = ["learner.algorithm=grpo", "learner.coefficients={group_size: 8, length_penalty: 0.01}"]
    assert load_config(overrides=grpo_8).learner.group_spec == GroupSpec(8, 0.01)
    with pytest.raises(ConfigError, match="multiple of the group size 8"):
        load_config(overrides=[*grpo_8, "runtime.sync=true", "runtime.episodes_per_round=12"])
    with pytest.raises(ConfigError, match="group_size"):
        load_config(overrides=["learner.algorithm=grpo", "learner.coefficients={group_size: 1}"])


def test_learner_under_grpo_rejects_trajectories_collected_without_groups(make_trajectory) -> None:
    learner = build_learner(load_config(overrides=["learner.algorithm=grpo"]))
    grouped = make_trajectory(3)
    grouped.metadata["group"] = {"id": "0:0", "members": 2, "return": 1.0, "mean": 0.5, "std": 0.7}
    assert learner.ingest([make_trajectory(3), grouped]) == 1
    assert learner.stats()["learner/rejected"] == 1
    malformed = make_trajectory(3)
    malformed.metadata["group"] = {"id": "0:1", "members": 2, "return": 1.0, "mean": 0.5, "std": 0.0}
    assert learner.ingest([malformed]) == 0 and learner.stats()["learner/rejected"] == 2
