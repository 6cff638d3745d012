"""Tests of distrl_agent.replay.priority: the A-RIDE trajectory priority formula."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from distrl_agent.errors import ConfigError, DataError
from distrl_agent.replay.priority import masked_mean, trajectory_priority


def reference_priority(delta, rho_bar, log_pi, length, w1, w2, w3, epsilon) -> float:
    """Loop-by-loop p(tau) over the first `length` steps."""
    steps = range(length)
    return (
        w1 * sum(abs(delta[t]) for t in steps) / length
        + w2 * sum(rho_bar[t] for t in steps) / length
        + w3 * sum(-log_pi[t] for t in steps) / length
        + epsilon
    )


def test_priority_matches_formula_on_real_steps():
    """Random padded batches agree with the per-trajectory reference."""
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 9, size=16)
    mask = torch.from_numpy(np.arange(8)[None, :] < lengths[:, None])
    delta = torch.from_numpy(rng.normal(size=(16, 8)))
    rho_bar = torch.from_numpy(rng.uniform(0, 1, size=(16, 8)))
    log_pi = torch.from_numpy(np.log(rng.uniform(0.01, 1, size=(16, 8))))
    got = trajectory_priority(delta, rho_bar, log_pi, mask, w1=50.0, w2=1.0, w3=0.01, epsilon=1e-3)
    expected = [
        reference_priority(delta[b], rho_bar[b], log_pi[b], int(lengths[b]), 50.0, 1.0, 0.01, 1e-3) for b in range(16)
    ]
    np.testing.assert_allclose(got.numpy(), np.array(expected, dtype=np.float64), rtol=1e-10)


def test_priority_ignores_nan_on_padding():
    """Values on masked-out steps, even NaN, do not reach the priority."""
    delta = torch.tensor([[1.0, float("nan")]])
    rho_bar = torch.tensor([[0.5, float("nan")]])
    log_pi = torch.tensor([[-2.0, float("inf")]])
    got = trajectory_priority(delta, rho_bar, log_pi, torch.tensor([[True, False]]), epsilon=0.0)
    assert got.tolist() == pytest.approx([50.0 + 0.5 + 0.02])


def test_priority_without_mask_accepts_one_trajectory_and_stays_positive():
    """A 1-D trajectory gives a 0-d priority, at least epsilon even when every term is zero."""
    zeros = torch.zeros(5)
    got = trajectory_priority(zeros, zeros, zeros, epsilon=1e-6)
    assert got.shape == () and float(got) == pytest.approx(1e-6)


def test_priority_is_detached_from_the_graph():
    """Priorities carry no gradient even when their inputs do."""
    delta = torch.randn(2, 3, requires_grad=True)
    got = trajectory_priority(delta, torch.ones(2, 3), -torch.ones(2, 3))
    assert not got.requires_grad


def test_masked_mean_of_an_all_padding_row_is_zero():
    """A row with no real step averages to 0 instead of NaN."""
    assert masked_mean(torch.ones(1, 3), torch.zeros(1, 3, dtype=torch.bool)).tolist() == [0.0]


@pytest.mark.parametrize(("name", "value"), [("w1", -1.0), ("w2", float("nan")), ("w3", -0.1), ("epsilon", -1e-6)])
def test_priority_raises_config_error_on_bad_weight(name, value):
    """Negative or NaN weights are refused with the weight's name."""
    ones = torch.ones(1, 2)
    with pytest.raises(ConfigError, match=f"`{name}`"):
        trajectory_priority(ones, ones, ones, **{name: value})


def test_priority_raises_data_error_on_shape_mismatch_or_nan():
    """Mismatched shapes and NaN on a real step are DataErrors naming the culprit."""
    ones = torch.ones(2, 3)
    with pytest.raises(DataError, match="`rho_bar` has shape \\(2, 2\\)"):
        trajectory_priority(ones, torch.ones(2, 2), ones)
    with pytest.raises(DataError, match="not finite"):
        trajectory_priority(torch.full((2, 3), float("nan")), ones, ones)
