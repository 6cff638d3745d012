"""Tests of distrl_agent.replay.buffer.TrajectoryReplay: capacity, eviction, priorities, staleness, checkpoints."""

from __future__ import annotations

import numpy as np
import pytest

from distrl_agent.errors import CheckpointError, ConfigError, DataError, ReplayError
from distrl_agent.replay import TrajectoryReplay


def fill(replay: TrajectoryReplay, make_trajectory, lengths, version: int = 0) -> list[int]:
    """Add one trajectory per length; return the slots."""
    return [replay.add(make_trajectory(length, version=version)) for length in lengths]


def test_add_keeps_steps_within_capacity(make_trajectory):
    """Whatever the lengths, the held steps never exceed capacity_steps and the counters add up."""
    replay = TrajectoryReplay(capacity_steps=50)
    rng = np.random.default_rng(0)
    for _ in range(200):
        replay.add(make_trajectory(int(rng.integers(1, 12)), rng=rng))
        assert replay.num_steps <= 50
    stats = replay.stats()
    assert stats["replay/inserted"] == 200
    assert stats["replay/inserted"] - stats["replay/evicted"] == len(replay)
    assert replay.num_steps == sum(traj.length for traj in replay._trajectories if traj is not None)


def test_eviction_removes_oldest_first(make_trajectory):
    """Adding past capacity evicts in insertion order and leaves the newest."""
    replay = TrajectoryReplay(capacity_steps=10)
    slots = fill(replay, make_trajectory, [4, 4])
    replay.add(make_trajectory(3))
    assert len(replay) == 2 and replay.num_steps == 7
    assert replay.stats()["replay/evicted"] == 1
    held = replay.sample(64, np.random.default_rng(0)).indices
    assert slots[0] not in held and slots[1] in held


def test_evicted_slots_have_zero_priority_and_are_never_sampled(make_trajectory):
    """After circular eviction the tree holds priority only on live slots."""
    replay = TrajectoryReplay(capacity_steps=12, max_trajectories=4)
    for length in [3, 3, 3, 3, 3, 3, 2, 5]:
        replay.add(make_trajectory(length))
    leaves = replay._tree.priorities
    live = replay._uids >= 0
    assert (leaves[~live] == 0).all() and (leaves[live] > 0).all()
    assert replay._tree.total == pytest.approx(leaves[live].sum())
    draws = replay.sample(4096, np.random.default_rng(1)).indices
    assert live[draws].all()


def test_max_trajectories_bounds_the_slot_ring(make_trajectory):
    """With more slots needed than exist, the oldest trajectory is evicted even if steps would fit."""
    replay = TrajectoryReplay(capacity_steps=100, max_trajectories=3)
    fill(replay, make_trajectory, [1, 1, 1, 1])
    assert len(replay) == 3 and replay.stats()["replay/evicted"] == 1


def test_first_add_uses_initial_priority_and_later_adds_the_current_max(make_trajectory):
    """New trajectories enter at the current maximum priority."""
    replay = TrajectoryReplay(capacity_steps=100, initial_priority=2.0)
    first, second = fill(replay, make_trajectory, [2, 2])
    assert replay._priorities[first] == 2.0 and replay._priorities[second] == 2.0
    replay.update_priorities([first, second], [7.0, 0.5])
    third = replay.add(make_trajectory(3))
    assert replay._priorities[third] == 7.0
    assert replay.stats()["replay/priority_max"] == 7.0


def test_sampling_frequencies_follow_priority_power_alpha(make_trajectory):
    """P(tau) = p^alpha / sum p^alpha is what the sampler draws."""
    replay = TrajectoryReplay(capacity_steps=100, alpha=0.5)
    slots = fill(replay, make_trajectory, [2, 2, 2, 2])
    priorities = np.array([1.0, 4.0, 9.0, 16.0])
    replay.update_priorities(slots, priorities)
    rng = np.random.default_rng(2)
    counts = np.zeros(4)
    for _ in range(2000):
        counts += np.bincount(replay.sample(32, rng).indices, minlength=4)
    expected = np.sqrt(priorities) / np.sqrt(priorities).sum()
    np.testing.assert_allclose(counts / counts.sum(), expected, atol=0.005)


@pytest.mark.parametrize("kwargs", [{"prioritized": False}, {"alpha": 0.0}])
def test_uniform_modes_ignore_priorities(make_trajectory, kwargs):
    """`prioritized=False` and `alpha=0` sample trajectories uniformly with unit IS weights."""
    replay = TrajectoryReplay(capacity_steps=100, **kwargs)
    slots = fill(replay, make_trajectory, [1, 2, 3, 4])
    replay.update_priorities(slots, [0.01, 1.0, 10.0, 100.0])
    rng = np.random.default_rng(3)
    sampled = [replay.sample(32, rng) for _ in range(500)]
    counts = np.bincount(np.concatenate([s.indices for s in sampled]), minlength=4)
    np.testing.assert_allclose(counts / counts.sum(), 0.25, atol=0.01)
    assert all(np.allclose(s.w_is, 1.0) for s in sampled)
    assert replay._priorities[slots[3]] == 100.0  # still recorded for stats and later modes


def test_is_weights_match_formula(make_trajectory):
    """w_IS = (N P)^(-beta) / max over the buffer of (N P)^(-beta)."""
    replay = TrajectoryReplay(capacity_steps=100, alpha=0.7)
    slots = fill(replay, make_trajectory, [2, 3, 4])
    priorities = np.array([0.5, 2.0, 8.0])
    replay.update_priorities(slots, priorities)
    sampled = replay.sample(16, np.random.default_rng(4), beta=0.6)
    probabilities = priorities**0.7 / (priorities**0.7).sum()
    weights = (3 * probabilities) ** -0.6
    expected = weights[sampled.indices] / weights.max()
    np.testing.assert_allclose(sampled.w_is, expected, rtol=1e-6)
    np.testing.assert_allclose(sampled.probabilities, probabilities[sampled.indices], rtol=1e-12)
    assert sampled.w_is.dtype == np.float32 and sampled.w_is.max() <= 1.0


def test_staleness_is_learner_version_minus_behaviour_version_per_step(make_trajectory):
    """Staleness is reported for every step, including trajectories whose version changed mid-episode."""
    replay = TrajectoryReplay(capacity_steps=100)
    traj = make_trajectory(3, version=2)
    traj.policy_version = np.array([2, 3, 5])
    replay.add(traj)
    sampled = replay.sample(2, np.random.default_rng(0), learner_version=6)
    assert sampled.learner_version == 6
    assert [s.tolist() for s in sampled.staleness] == [[4, 3, 1], [4, 3, 1]]
    assert sampled.to_batch().staleness.tolist() == [[4, 3, 1], [4, 3, 1]]


def test_stale_trajectory_is_dropped_at_insertion_and_counted(make_trajectory):
    """In drop mode a trajectory lagging by more than max_staleness is not inserted."""
    replay = TrajectoryReplay(capacity_steps=100, max_staleness=2)
    assert replay.add(make_trajectory(2, version=3), learner_version=5) >= 0
    assert replay.add(make_trajectory(2, version=2), learner_version=5) == -1
    assert len(replay) == 1 and replay.stats()["replay/dropped_stale"] == 1


def test_stale_trajectories_are_dropped_when_the_learner_version_advances(make_trajectory):
    """Advancing the version purges held trajectories beyond the cap and leaves a consistent ring."""
    replay = TrajectoryReplay(capacity_steps=20, max_staleness=1)
    replay.add(make_trajectory(3, version=0))
    kept = replay.add(make_trajectory(3, version=2))
    replay.add(make_trajectory(3, version=1))
    replay.set_learner_version(3)
    assert len(replay) == 1 and replay.num_steps == 3
    assert replay.stats()["replay/dropped_stale"] == 2
    assert set(replay.sample(32, np.random.default_rng(0)).indices.tolist()) == {kept}
    for _ in range(10):  # the ring skips the holes the drops left
        replay.add(make_trajectory(4, version=3))
        assert replay.num_steps <= 20


def test_downweight_mode_scales_weights_of_stale_trajectories(make_trajectory):
    """In downweight mode stale trajectories stay and w_IS is multiplied by decay^(staleness - cap)."""
    replay = TrajectoryReplay(capacity_steps=100, max_staleness=1, stale_mode="downweight", stale_decay=0.5)
    old = replay.add(make_trajectory(2, version=0))
    fresh = replay.add(make_trajectory(2, version=3))
    sampled = replay.sample(64, np.random.default_rng(0), beta=0.0, learner_version=3)
    assert len(replay) == 2
    np.testing.assert_allclose(sampled.w_is[sampled.indices == old], 0.25)
    np.testing.assert_allclose(sampled.w_is[sampled.indices == fresh], 1.0)
    assert replay.stats()["replay/downweighted_stale"] == (sampled.indices == old).sum()


def test_update_priorities_skips_slots_reused_since_sampling(make_trajectory):
    """With `uids`, a priority meant for an evicted trajectory does not land on its slot's new occupant."""
    replay = TrajectoryReplay(capacity_steps=4, max_trajectories=2)
    fill(replay, make_trajectory, [2, 2])
    sampled = replay.sample(2, np.random.default_rng(0))
    fill(replay, make_trajectory, [2, 2])  # both slots now hold new trajectories
    applied = replay.update_priorities(sampled.indices, [50.0, 50.0], uids=sampled.uids)
    assert applied == 0 and replay.stats()["replay/skipped_priority_updates"] == 2
    assert replay.stats()["replay/priority_max"] == 1.0


def test_draws_count_the_samples_of_each_trajectory_since_it_entered(make_trajectory):
    """`draws` is 1 on a trajectory's first sample and counts every later one (twice in one batch: both).

    It starts again for the trajectory that takes over an evicted slot.
    """
    replay = TrajectoryReplay(capacity_steps=4, max_trajectories=2, prioritized=False)
    first, second = fill(replay, make_trajectory, [2, 2])
    rng = np.random.default_rng(0)
    seen = {first: 0, second: 0}
    for _ in range(5):
        batch = replay.sample(3, rng)
        for slot in batch.indices.tolist():
            seen[slot] += 1
        assert batch.draws.tolist() == [seen[slot] for slot in batch.indices.tolist()]
    assert replay.state_dict()["draws"][[first, second]].tolist() == [seen[first], seen[second]]
    fill(replay, make_trajectory, [2])  # evicts the oldest, `first`, and takes its slot
    batch = replay.sample(8, rng)
    fresh = batch.indices == first
    assert fresh.any() and batch.draws[fresh].max() == fresh.sum()


def test_a_trajectory_drawn_max_times_sampled_times_is_retired_before_the_next_draw(make_trajectory, tmp_path):
    """Reverb's `max_times_sampled`: a batch may draw a trajectory up to its last allowed draw; the next sample no
    longer sees it (counted `retired_sampled`), and `usable` says so before that sample."""  # noqa: D205, D209
    replay = TrajectoryReplay(capacity_steps=100, prioritized=False, max_times_sampled=2)
    fill(replay, make_trajectory, [2, 3, 4, 5])
    rng = np.random.default_rng(1)
    drawn: dict[int, int] = {}
    while replay.usable():
        batch = replay.sample(2, rng)
        for uid in batch.uids.tolist():
            drawn[uid] = drawn.get(uid, 0) + 1
        assert max(batch.draws.tolist()) <= 3  # at most one draw past the limit, within the batch that reached it
        assert replay.usable() == sum(drawn.get(uid, 0) < 2 for uid in replay.live_uids().tolist())
    retired = len(drawn)
    with pytest.raises(ReplayError, match="empty"):
        replay.sample(1, rng)
    assert replay.count("retired_sampled") == retired == 4 and len(replay) == 0
    again = TrajectoryReplay(capacity_steps=100, prioritized=False, max_times_sampled=2)
    fill(again, make_trajectory, [2])
    again.save(tmp_path / "r.npz")
    with pytest.raises(CheckpointError, match="other arguments"):  # the limit is part of the buffer's arguments
        TrajectoryReplay(capacity_steps=100, prioritized=False).load(tmp_path / "r.npz")
    with pytest.raises(ConfigError, match="max_times_sampled"):
        TrajectoryReplay(max_times_sampled=0)


def test_update_priorities_raises_on_bad_input(make_trajectory):
    """NaN or negative priorities and foreign indices raise named errors."""
    replay = TrajectoryReplay(capacity_steps=10)
    slot = replay.add(make_trajectory(2))
    with pytest.raises(DataError, match="`priorities` must be finite"):
        replay.update_priorities([slot], [np.nan])
    with pytest.raises(DataError, match="`priorities` has 2 entries for 1"):
        replay.update_priorities([slot], [1.0, 2.0])
    with pytest.raises(ReplayError, match="`indices` must be slots"):
        replay.update_priorities([10], [1.0])


def test_refresh_all_recomputes_every_priority(make_trajectory):
    """refresh_all calls fn on chunks and stores its priorities for every held trajectory."""
    replay = TrajectoryReplay(capacity_steps=100)
    slots = fill(replay, make_trajectory, [1, 2, 3, 4, 5])
    calls = []

    def by_length(trajectories, uids):
        calls.append(uids.tolist())
        return [float(traj.length) for traj in trajectories]

    assert replay.refresh_all(by_length, chunk_size=2) == 5
    assert calls == [[0, 1], [2, 3], [4]]  # each chunk with its insertion serials, as sampled batches carry them
    assert replay._priorities[slots].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(DataError, match="`fn` returned 1 priorities for 2"):
        replay.refresh_all(lambda trajectories, uids: [1.0], chunk_size=2)


def test_save_load_round_trip_samples_identically(make_trajectory, tmp_path):
    """A buffer saved and loaded into a fresh one samples the same batches with the same rng state."""
    config = {"capacity_steps": 30, "alpha": 0.6, "max_trajectories": 8, "max_staleness": 5}
    replay = TrajectoryReplay(**config)
    rng = np.random.default_rng(9)
    for version in range(15):
        replay.add(make_trajectory(int(rng.integers(1, 6)), rng=rng, version=version), learner_version=version)
        batch = replay.sample(4, rng)
        replay.update_priorities(batch.indices, rng.random(4) * 10, uids=batch.uids)
    replay.save(tmp_path / "replay.npz")
    restored = TrajectoryReplay(**config)
    restored.load(tmp_path / "replay.npz")
    assert restored.stats() == replay.stats()
    for _ in range(5):
        a, b = replay.sample(8, np.random.default_rng(42)), restored.sample(8, np.random.default_rng(42))
        np.testing.assert_array_equal(a.indices, b.indices)
        np.testing.assert_array_equal(a.w_is, b.w_is)
        np.testing.assert_array_equal(a.draws, b.draws)
        for x, y in zip(a.trajectories, b.trajectories, strict=True):
            np.testing.assert_array_equal(x.observations["screenshot"], y.observations["screenshot"])
            np.testing.assert_array_equal(x.actions["text"], y.actions["text"])
            assert x.metadata == y.metadata
    assert restored.add(make_trajectory(3, version=15)) == replay.add(make_trajectory(3, version=15))


def test_a_state_saved_before_draws_were_counted_resumes_with_fresh_draws(make_trajectory):
    """Checkpoints written before `draws` existed still load; their trajectories count as never drawn."""
    replay = TrajectoryReplay(capacity_steps=10)
    slot = replay.add(make_trajectory(2))
    replay.sample(2, np.random.default_rng(0))
    state = {key: value for key, value in replay.state_dict().items() if key != "draws"}
    restored = TrajectoryReplay(capacity_steps=10)
    restored.load_state_dict(state)
    assert restored.sample(1, np.random.default_rng(0)).draws.tolist() == [1]
    assert restored.sample(1, np.random.default_rng(0)).indices.tolist() == [slot]


def test_load_raises_on_other_config_or_missing_file(make_trajectory, tmp_path):
    """A checkpoint from another configuration, or no file, is a CheckpointError."""
    replay = TrajectoryReplay(capacity_steps=10)
    replay.add(make_trajectory(2))
    replay.save(tmp_path / "replay.npz")
    with pytest.raises(CheckpointError, match="capacity_steps"):
        TrajectoryReplay(capacity_steps=20).load(tmp_path / "replay.npz")
    with pytest.raises(CheckpointError, match="could not read"):
        replay.load(tmp_path / "missing.npz")


def test_save_raises_on_unserialisable_trajectory(make_trajectory, tmp_path):
    """Object arrays are refused rather than pickled, and no partial file is left."""
    replay = TrajectoryReplay(capacity_steps=10)
    traj = make_trajectory(2)
    traj.observations["raw"] = np.array([None] * 3, dtype=object)
    replay.add(traj)
    with pytest.raises(CheckpointError, match="dtype object"):
        replay.save(tmp_path / "replay.npz")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda traj: setattr(traj, "rewards", np.array([0.0, np.nan], np.float32)), "`rewards` contains NaN"),
        (lambda traj: setattr(traj, "log_mu", np.array([np.inf, 0.0], np.float32)), "`log_mu` contains NaN"),
    ],
)
def test_add_raises_data_error_on_bad_values(make_trajectory, mutate, match):
    """NaN/inf rewards or log-probs are refused on insertion and nothing is stored."""
    replay = TrajectoryReplay(capacity_steps=10)
    traj = make_trajectory(2)
    mutate(traj)
    with pytest.raises(DataError, match=match):
        replay.add(traj)
    assert len(replay) == 0 and replay.stats()["replay/inserted"] == 0


def test_add_raises_on_empty_or_oversized_trajectory(make_trajectory):
    """An empty trajectory is a DataError; one longer than the capacity is a ReplayError."""
    replay = TrajectoryReplay(capacity_steps=3)
    empty = make_trajectory(1)
    empty.rewards = empty.rewards[:0]
    with pytest.raises(DataError, match="non-empty"):
        replay.add(empty)
    with pytest.raises(ReplayError, match="more than `capacity_steps`=3"):
        replay.add(make_trajectory(4))


def test_sample_raises_when_empty():
    """Sampling before any insert is a ReplayError that says what to do."""
    with pytest.raises(ReplayError, match="empty replay"):
        TrajectoryReplay(capacity_steps=10).sample(1, np.random.default_rng(0))


def test_learner_version_cannot_go_backwards(make_trajectory):
    """A lower learner version than the current one is refused."""
    replay = TrajectoryReplay(capacity_steps=10)
    replay.set_learner_version(3)
    with pytest.raises(ReplayError, match="`version` went backwards"):
        replay.add(make_trajectory(1), learner_version=2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"capacity_steps": 0}, "`capacity_steps`"),
        ({"alpha": -0.1}, "`alpha`"),
        ({"max_staleness": -1}, "`max_staleness`"),
        ({"stale_mode": "dorp"}, "did you mean 'drop'"),
        ({"stale_decay": 0.0}, "`stale_decay`"),
        ({"initial_priority": 0.0}, "`initial_priority`"),
        ({"max_trajectories": 0}, "`max_trajectories`"),
    ],
)
def test_constructor_raises_config_error_naming_argument(kwargs, match):
    """Out-of-range arguments raise ConfigError naming the argument."""
    with pytest.raises(ConfigError, match=match):
        TrajectoryReplay(**kwargs)
