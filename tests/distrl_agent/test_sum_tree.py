"""Tests of distrl_agent.replay.sum_tree: sums, search, proportional sampling and edge cases."""

from __future__ import annotations

import numpy as np
import pytest

from distrl_agent.errors import ConfigError, DataError, ReplayError
from distrl_agent.replay.sum_tree import SumTree


def reference_find(priorities: np.ndarray, prefix: float) -> int:
    """Linear-scan reference: the first slot whose cumulative sum exceeds `prefix`."""
    return int(np.searchsorted(np.cumsum(priorities), prefix, side="right"))


@pytest.mark.parametrize("capacity", [1, 2, 5, 8, 13, 100])
def test_total_max_min_match_leaves_after_random_updates(capacity):
    """After many random updates the root aggregates equal those of the leaves, for any capacity."""
    rng = np.random.default_rng(capacity)
    tree = SumTree(capacity)
    for _ in range(200):
        slots = rng.integers(0, capacity, size=rng.integers(1, 4))
        tree.update_many(slots, rng.choice([0.0, 0.5, 3.0, 10.0], size=slots.size) * rng.random(slots.size))
    leaves = tree.priorities
    assert tree.total == pytest.approx(leaves.sum(), rel=1e-12)
    assert tree.max == leaves.max()
    assert tree.min == (leaves[leaves > 0].min() if (leaves > 0).any() else 0.0)


def test_find_matches_linear_reference_on_random_prefixes():
    """`find_many` agrees with a cumulative-sum search, zero slots included."""
    rng = np.random.default_rng(0)
    priorities = rng.random(37) * (rng.random(37) > 0.3)
    tree = SumTree(37)
    tree.update_many(np.arange(37), priorities)
    prefixes = rng.random(2000) * tree.total
    found = tree.find_many(prefixes)
    expected = [reference_find(priorities, p) for p in prefixes]
    np.testing.assert_array_equal(found, expected)
    assert (priorities[found] > 0).all()


@pytest.mark.parametrize("alpha", [0.0, 0.6, 1.0])
def test_sampling_frequencies_match_priority_power_alpha(alpha):
    """Over 200k stratified draws, frequencies match p^alpha / sum p^alpha within a chi-square bound."""
    priorities = np.array([0.1, 1.0, 2.0, 0.0, 5.0, 0.5, 3.0, 0.05, 1.5, 4.0])
    leaves = np.where(priorities > 0, priorities**alpha, 0.0)
    tree = SumTree(priorities.size)
    tree.update_many(np.arange(priorities.size), leaves)
    rng = np.random.default_rng(123)
    draws = np.concatenate([tree.sample(32, rng) for _ in range(6250)])
    counts = np.bincount(draws, minlength=priorities.size)
    assert counts[3] == 0  # zero priority: never drawn
    expected = draws.size * leaves / leaves.sum()
    positive = expected > 0
    chi_square = (((counts - expected) ** 2)[positive] / expected[positive]).sum()
    degrees = int(positive.sum()) - 1
    assert chi_square < degrees + 6 * np.sqrt(2 * degrees)  # far in the tail of chi2(df) for a correct sampler


def test_sample_never_returns_zero_priority_slots():
    """Slots set back to zero are never drawn, even at the round-off edges of the prefix range."""
    tree = SumTree(16)
    tree.update_many(np.arange(16), np.ones(16))
    tree.update_many([0, 5, 15], [0.0, 0.0, 0.0])
    draws = np.concatenate([tree.sample(64, np.random.default_rng(seed)) for seed in range(50)])
    assert not np.isin(draws, [0, 5, 15]).any()
    assert tree.find(-1.0) == 1 and tree.find(tree.total) == 14 and tree.find(tree.total * 2) == 14


def test_single_slot_tree_always_returns_slot_zero():
    """A one-slot tree works and samples only that slot."""
    tree = SumTree(1)
    tree.update(0, 2.5)
    assert tree.total == 2.5 and tree.max == 2.5
    assert tree.sample(5, np.random.default_rng(0)).tolist() == [0] * 5


def test_sample_raises_when_every_priority_is_zero():
    """Sampling an all-zero tree is a ReplayError, not an arbitrary slot."""
    tree = SumTree(4)
    with pytest.raises(ReplayError, match="all 0"):
        tree.sample(1, np.random.default_rng(0))
    assert tree.min == 0.0 and tree.max == 0.0


def test_update_many_keeps_last_write_for_repeated_slots():
    """Repeated indices take the last value given."""
    tree = SumTree(3)
    tree.update_many([1, 2, 1], [5.0, 1.0, 2.0])
    assert tree.get([0, 1, 2]).tolist() == [0.0, 2.0, 1.0]
    assert tree.total == 3.0


@pytest.mark.parametrize("priority", [-1.0, np.nan, np.inf])
def test_update_raises_on_invalid_priority(priority):
    """Negative, NaN and infinite priorities are DataErrors."""
    with pytest.raises(DataError, match="`priorities` must be finite and >= 0"):
        SumTree(2).update(0, priority)


@pytest.mark.parametrize("index", [-1, 4, 100])
def test_update_raises_on_out_of_range_index(index):
    """Indices outside [0, capacity) are refused."""
    with pytest.raises(ReplayError, match="`indices` must be ints in \\[0, 4\\)"):
        SumTree(4).update(index, 1.0)


def test_constructor_raises_on_bad_capacity():
    """A capacity below one is a ConfigError naming the argument."""
    with pytest.raises(ConfigError, match="`capacity`"):
        SumTree(0)


def test_set_all_rebuilds_a_tree_that_samples_identically():
    """A tree rebuilt from its leaves gives bit-identical totals and samples."""
    rng = np.random.default_rng(5)
    tree = SumTree(50)
    for _ in range(300):
        tree.update(int(rng.integers(50)), float(rng.random()))
    rebuilt = SumTree(50)
    rebuilt.set_all(tree.priorities)
    assert rebuilt.total == tree.total and rebuilt.max == tree.max and rebuilt.min == tree.min
    np.testing.assert_array_equal(
        tree.sample(256, np.random.default_rng(1)), rebuilt.sample(256, np.random.default_rng(1))
    )
