"""Tests of distrl_agent.types: Trajectory validation and serialisation, collation into a padded Batch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from distrl_agent.errors import DataError
from distrl_agent.types import Batch, SampledBatch, Trajectory, collate


def test_validate_returns_self_when_well_formed(make_trajectory):
    """A factory trajectory validates and reports its length, termination and behaviour version."""
    traj = make_trajectory(4, version=2)
    assert traj.validate() is traj
    assert (traj.length, traj.is_terminated, traj.behaviour_version) == (4, True, 2)


def test_constructor_coerces_dtypes_and_defaults_penalty():
    """Lists become arrays of the documented dtypes and a missing penalty becomes zeros."""
    traj = Trajectory({}, {}, rewards=[0, 1], dones=[0, 1], log_mu=[-1, -2], policy_version=[1, 1])
    assert traj.rewards.dtype == np.float32 and traj.dones.dtype == np.bool_
    assert traj.log_mu.dtype == np.float32 and traj.policy_version.dtype == np.int64
    assert traj.penalty.dtype == np.float32 and traj.penalty.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("rewards", [0.0, np.nan, 1.0], "`rewards` contains NaN or inf at steps \\[1\\]"),
        ("rewards", [0.0, 0.0, np.inf], "`rewards` contains NaN or inf"),
        ("log_mu", [-0.1, -np.inf, -0.2], "`log_mu` contains NaN or inf"),
        ("penalty", [0.0, -1.0, 0.0], "`penalty` must be >= 0"),
        ("dones", [True, False, True], "`dones` is true before the last step"),
        ("log_mu", [-0.1, -0.2], "`log_mu` has shape \\(2,\\), expected \\(3,\\)"),
        ("policy_version", [0, -1, 0], "`policy_version` must be >= 0"),
    ],
)
def test_validate_raises_data_error_naming_field(make_trajectory, field, value, match):
    """Each malformed per-step field raises DataError naming that field."""
    traj = make_trajectory(3)
    setattr(traj, field, np.asarray(value, dtype=getattr(traj, field).dtype))
    with pytest.raises(DataError, match=match):
        traj.validate()


def test_validate_raises_on_empty_trajectory():
    """T == 0 is rejected as an empty trajectory."""
    traj = Trajectory({"x": np.zeros((1, 2))}, {}, rewards=[], dones=[], log_mu=[], policy_version=[])
    with pytest.raises(DataError, match="non-empty"):
        traj.validate()


def test_validate_raises_when_final_observation_missing(make_trajectory):
    """Observations need T+1 entries (the bootstrap state)."""
    traj = make_trajectory(3)
    traj.observations["screenshot"] = traj.observations["screenshot"][:3]
    with pytest.raises(DataError, match="`observations\\['screenshot'\\]` has shape"):
        traj.validate()


def test_validate_raises_on_nan_float_action(make_trajectory):
    """A NaN inside a float action field is caught."""
    traj = make_trajectory(2)
    traj.actions["touch"][1, 0] = np.nan
    with pytest.raises(DataError, match="`actions\\['touch'\\]` contains NaN"):
        traj.validate()


def test_constructor_raises_on_unreadable_field():
    """A ragged per-step field cannot be coerced and raises DataError naming it."""
    with pytest.raises(DataError, match="`rewards` could not be read"):
        Trajectory({}, {}, rewards=[[0.0], [0.0, 1.0]], dones=[0, 1], log_mu=[0, 0], policy_version=[0, 0])


def test_to_arrays_round_trip_preserves_every_field(make_trajectory):
    """from_arrays(to_arrays()) gives back equal arrays, text and header fields."""
    traj = make_trajectory(5, version=9)
    back = Trajectory.from_arrays(traj.to_arrays(prefix="t/0/"), prefix="t/0/")
    for group in ("observations", "actions"):
        original, restored = getattr(traj, group), getattr(back, group)
        assert original.keys() == restored.keys()
        for key in original:
            np.testing.assert_array_equal(original[key], restored[key])
    for name in ("rewards", "dones", "log_mu", "policy_version", "penalty"):
        np.testing.assert_array_equal(getattr(traj, name), getattr(back, name))
    assert (back.goal, back.task, back.success, back.worker_id, back.metadata) == (
        traj.goal,
        traj.task,
        traj.success,
        traj.worker_id,
        traj.metadata,
    )


def test_to_arrays_raises_on_object_dtype(make_trajectory):
    """Object arrays would need pickle, so they are refused."""
    traj = make_trajectory(2)
    traj.observations["raw"] = np.array([{"a": 1}] * 3, dtype=object)
    with pytest.raises(DataError, match="dtype object"):
        traj.to_arrays()


def test_from_arrays_raises_on_missing_key(make_trajectory):
    """A missing per-step array is reported by key."""
    arrays = make_trajectory(2).to_arrays()
    del arrays["log_mu"]
    with pytest.raises(DataError, match="lacks key 'log_mu'"):
        Trajectory.from_arrays(arrays)


def test_collate_pads_batch_major_with_mask(make_trajectory):
    """Per-step tensors are [B, L], observations [B, L+1], padding is zero and masked out."""
    short, long = make_trajectory(2, version=1), make_trajectory(4, version=3, is_terminated=False)
    batch = collate([short, long], w_is=np.array([0.5, 1.0]), indices=np.array([7, 2]), learner_version=4)
    assert batch.rewards.shape == (2, 4) and batch.observations["screenshot"].shape == (2, 5, 4, 3, 3)
    assert batch.mask.tolist() == [[True, True, False, False], [True] * 4]
    assert batch.lengths.tolist() == [2, 4] and batch.num_steps == 6 and batch.batch_size == 2
    assert batch.staleness.tolist() == [[3, 3, 0, 0], [1, 1, 1, 1]]
    assert batch.dones.tolist() == [[False, True, False, False], [False] * 4]
    torch.testing.assert_close(
        batch.observations["screenshot"][0, 2], torch.from_numpy(short.observations["screenshot"][2])
    )
    assert int(batch.observations["screenshot"][0, 3:].abs().sum()) == 0
    assert batch.observation_mask.tolist()[0] == [True, True, True, False, False]
    assert batch.w_is.dtype == torch.float32 and batch.indices.tolist() == [7, 2]
    assert batch.goals == [short.goal, long.goal]


def test_collate_keeps_text_fields_as_padded_numpy(make_trajectory):
    """String observations/actions stay numpy arrays, padded with empty strings."""
    batch = collate([make_trajectory(1), make_trajectory(3)])
    text = batch.actions["text"]
    assert isinstance(text, np.ndarray) and text.shape == (2, 3)
    assert text[0].tolist() == ["hi", "", ""]
    assert batch.w_is.tolist() == [1.0, 1.0] and batch.indices.tolist() == [-1, -1]


def test_collate_raises_on_different_keys(make_trajectory):
    """Trajectories with different observation keys cannot share a batch."""
    other = make_trajectory(2)
    del other.observations["goal"]
    with pytest.raises(DataError, match="disagree on keys"):
        collate([make_trajectory(2), other])


def test_collate_raises_on_empty_sequence():
    """An empty list is refused with a message naming the argument."""
    with pytest.raises(DataError, match="`trajectories` is empty"):
        collate([])


def test_batch_to_moves_every_tensor(make_trajectory):
    """`to(device)` returns a Batch whose tensors are on the device and leaves text alone."""
    batch = collate([make_trajectory(2), make_trajectory(3)])
    moved = batch.to("meta")
    assert isinstance(moved, Batch) and moved.rewards.device.type == "meta"
    assert moved.observations["screenshot"].device.type == "meta"
    assert moved.actions["text"] is batch.actions["text"]


def test_sampled_batch_to_batch_carries_replay_fields(make_trajectory):
    """A SampledBatch collates with its weights, slots and learner version."""
    trajectories = [make_trajectory(2, version=0), make_trajectory(1, version=1)]
    sampled = SampledBatch(
        trajectories=trajectories,
        indices=np.array([3, 5]),
        uids=np.array([10, 11]),
        w_is=np.array([0.25, 1.0], np.float32),
        draws=np.array([1, 7]),
        probabilities=np.array([0.5, 0.5]),
        staleness=[2 - t.policy_version for t in trajectories],
        learner_version=2,
    )
    batch = sampled.to_batch()
    assert batch.w_is.tolist() == [0.25, 1.0] and batch.indices.tolist() == [3, 5]
    assert batch.draws.tolist() == [1, 7]
    assert batch.staleness.tolist() == [[2, 2], [1, 0]]


def with_tokens(traj: Trajectory, k: int = 4, seed: int = 0) -> Trajectory:
    """`traj` as a sequence policy records it: each step's log mu split over 1..k tokens, zeros after them."""
    rng = np.random.default_rng(seed)
    parts = np.zeros((traj.length, k), np.float32)
    for t, log_mu in enumerate(traj.log_mu):
        n = int(rng.integers(1, k + 1))
        share = rng.dirichlet(np.ones(n)).astype(np.float32)
        parts[t, :n] = share * log_mu
    traj.log_mu = parts.sum(1)  # float32 sums, as the adder stores them
    traj.token_log_mu = parts
    return traj


def test_token_log_mu_is_checked_kept_and_collated(make_trajectory):
    """Per-token behaviour log-probs must be [T, K], finite and sum to each step's log mu; they survive the array
    transport and collate to [B, L, K], zero on padded steps."""  # noqa: D205, D209
    long, short = with_tokens(make_trajectory(3)).validate(), with_tokens(make_trajectory(2), seed=1).validate()
    back = Trajectory.from_arrays(long.to_arrays(prefix="t/"), prefix="t/")
    np.testing.assert_array_equal(back.token_log_mu, long.token_log_mu)
    batch = collate([long, short])
    assert tuple(batch.token_log_mu.shape) == (2, 3, 4)
    np.testing.assert_array_equal(batch.token_log_mu[1, 2].numpy(), np.zeros(4, np.float32))
    torch.testing.assert_close(batch.token_log_mu.sum(-1), batch.log_mu)
    assert collate([make_trajectory(2)]).token_log_mu is None

    off = with_tokens(make_trajectory(3))
    off.token_log_mu[1, 0] += 0.5  # a token of another draw: its step's sum no longer matches
    with pytest.raises(DataError, match=r"do not sum to `log_mu` at steps \[1\]"):
        off.validate()
    wrong = with_tokens(make_trajectory(3))
    wrong.token_log_mu = wrong.token_log_mu[:2]
    with pytest.raises(DataError, match=r"expected \(3, K\)"):
        wrong.validate()
    bad = with_tokens(make_trajectory(3))
    bad.token_log_mu[0, 0] = np.nan
    with pytest.raises(DataError, match="token_log_mu` contains NaN"):
        bad.validate()
    with pytest.raises(DataError, match="1 of 2 trajectories carry `token_log_mu`"):
        collate([with_tokens(make_trajectory(2)), make_trajectory(2)])
