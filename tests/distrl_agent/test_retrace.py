"""Tests of distrl_agent.algorithms.retrace against slow references written from the sum formulas."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from distrl_agent.algorithms.retrace import (
    final_values,
    monte_carlo_returns,
    one_step_td_targets,
    retrace_advantages,
    retrace_targets,
    td_errors,
)
from distrl_agent.errors import ConfigError, DataError


def random_batch(seed: int, batch: int = 8, steps: int = 7, terminal_only: bool = False) -> dict:
    """Random padded float64 inputs: lengths 1..steps, dones anywhere on real steps (or only on last steps)."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, steps + 1, size=batch)
    mask = np.arange(steps)[None, :] < lengths[:, None]
    if terminal_only:
        dones = (np.arange(steps)[None, :] == lengths[:, None] - 1) & (rng.random((batch, 1)) < 0.5)
    else:
        dones = (rng.random((batch, steps)) < 0.3) & mask
    rho = rng.lognormal(0.0, 1.0, size=(batch, steps))
    values = rng.normal(size=(batch, steps + 1))
    values[np.arange(steps + 1)[None, :] > lengths[:, None]] = 1e6  # padding garbage must never leak in
    return {
        "rewards": torch.from_numpy(np.where(mask, rng.normal(size=(batch, steps)), 0.0)),
        "values": torch.from_numpy(values),
        "dones": torch.from_numpy(dones),
        "rho": torch.from_numpy(rho),
        "mask": torch.from_numpy(mask),
        "lengths": lengths,
    }


def reference_retrace(rewards, values, dones, rho, lengths, gamma, lam, rho_clip=1.0) -> np.ndarray:
    """v_t = V(s_t) + sum_{k>=t} gamma^{k-t} (prod_{i=t+1}^{k} c_i) delta_k, the trace ending at a done."""
    rewards, values, dones, rho = (x.numpy() for x in (rewards, values, dones, rho))
    out = np.zeros_like(rewards)
    for b, length in enumerate(lengths):
        c = lam * np.minimum(rho_clip, rho[b])
        delta = [rewards[b, k] + gamma * values[b, k + 1] * (1 - dones[b, k]) - values[b, k] for k in range(length)]
        for t in range(length):
            total, trace = values[b, t], 1.0
            for k in range(t, length):
                if k > t:
                    trace *= c[k]
                total += gamma ** (k - t) * trace * delta[k]
                if dones[b, k]:
                    break
            out[b, t] = total
    return out


def reference_advantages(rewards, values, v_target, dones, lengths, gamma) -> np.ndarray:
    """A_t = r_t + gamma (1 - done_t) v_{t+1} - V(s_t), v_T = V(s_T), step by step."""
    rewards, values, v_target, dones = (x.numpy() for x in (rewards, values, v_target, dones))
    out = np.zeros_like(rewards)
    for b, length in enumerate(lengths):
        for t in range(length):
            v_next = v_target[b, t + 1] if t + 1 < length else values[b, length]
            out[b, t] = rewards[b, t] + gamma * (1 - dones[b, t]) * v_next - values[b, t]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_retrace_matches_sum_formula_on_random_padded_batches(seed):
    """Backward recursion equals the sum formula for random rho, lambda, gamma, lengths, dones and padding."""
    data = random_batch(seed)
    rng = np.random.default_rng(100 + seed)
    gamma, lam, rho_clip = float(rng.uniform(0.3, 1.0)), float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.5, 2.0))
    got = retrace_targets(
        data["rewards"], data["values"], data["dones"], data["rho"], data["mask"], gamma, lam, rho_clip
    )
    expected = reference_retrace(
        data["rewards"], data["values"], data["dones"], data["rho"], data["lengths"], gamma, lam, rho_clip
    )
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_advantages_match_definition_on_random_padded_batches(seed):
    """A_t uses the next Retrace target, or V(s_T) after the last real step."""
    data = random_batch(seed, terminal_only=True)
    v_target = retrace_targets(data["rewards"], data["values"], data["dones"], data["rho"], data["mask"], 0.9, 0.95)
    got = retrace_advantages(data["rewards"], data["values"], v_target, data["dones"], data["mask"], 0.9)
    expected = reference_advantages(data["rewards"], data["values"], v_target, data["dones"], data["lengths"], 0.9)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-10)


def test_retrace_on_policy_lambda_one_full_episodes_equals_monte_carlo():
    """With rho = 1 and lambda = 1, terminated episodes get the discounted return whatever V is."""
    data = random_batch(7, terminal_only=True)
    dones = data["dones"].clone()
    dones[torch.arange(8), torch.from_numpy(data["lengths"] - 1)] = True
    ones = torch.ones_like(data["rho"])
    got = retrace_targets(data["rewards"], data["values"], dones, ones, data["mask"], gamma=0.5, lam=1.0)
    expected = monte_carlo_returns(data["rewards"], dones, data["mask"], gamma=0.5)
    torch.testing.assert_close(got, expected)


def test_retrace_lambda_zero_equals_one_step_td_target():
    """With lambda = 0 every trace is cut: v_t = r_t + gamma (1 - done_t) V(s_{t+1})."""
    data = random_batch(8)
    got = retrace_targets(data["rewards"], data["values"], data["dones"], data["rho"], data["mask"], 0.7, lam=0.0)
    expected = one_step_td_targets(data["rewards"], data["values"], data["dones"], data["mask"], 0.7)
    torch.testing.assert_close(got, expected)


def test_retrace_truncated_episode_bootstraps_from_final_value():
    """A truncated episode's targets include gamma^(T-t) V(s_T); a terminated one's do not."""
    rewards = torch.tensor([[0.0, 0.0], [0.0, 0.0]])
    values = torch.tensor([[0.0, 0.0, 10.0], [0.0, 0.0, 10.0]])
    dones = torch.tensor([[False, False], [False, True]])
    mask = torch.ones(2, 2, dtype=torch.bool)
    got = retrace_targets(rewards, values, dones, torch.ones(2, 2), mask, gamma=0.5, lam=1.0)
    torch.testing.assert_close(got, torch.tensor([[2.5, 5.0], [0.0, 0.0]]))
    bootstrapped = monte_carlo_returns(rewards, dones, mask, 0.5, bootstrap=final_values(values, mask))
    torch.testing.assert_close(bootstrapped, got)
    advantage = retrace_advantages(rewards, values, got, dones, mask, gamma=0.5)
    torch.testing.assert_close(advantage, torch.tensor([[2.5, 5.0], [0.0, 0.0]]))


def test_retrace_zero_rho_cuts_trace_to_one_step():
    """With rho = 0 everywhere, v_t is the one-step target even with lambda = 1."""
    data = random_batch(9)
    zeros = torch.zeros_like(data["rho"])
    got = retrace_targets(data["rewards"], data["values"], data["dones"], zeros, data["mask"], 0.9, 1.0)
    expected = one_step_td_targets(data["rewards"], data["values"], data["dones"], data["mask"], 0.9)
    torch.testing.assert_close(got, expected)


def test_retrace_ignores_nan_on_padding():
    """NaN rewards, ratios and values on padded steps leave real targets finite and unchanged."""
    data = random_batch(10)
    clean = retrace_targets(data["rewards"], data["values"], data["dones"], data["rho"], data["mask"], 0.9, 0.9)
    padding = ~data["mask"]
    rewards, rho = data["rewards"].clone(), data["rho"].clone()
    rewards[padding], rho[padding] = float("nan"), float("nan")
    values = data["values"].clone()
    values[:, :-1][padding & (torch.arange(7)[None, :] > torch.from_numpy(data["lengths"])[:, None])] = float("nan")
    dirty = retrace_targets(rewards, values, data["dones"], rho, data["mask"], 0.9, 0.9)
    torch.testing.assert_close(dirty, clean)


def test_targets_are_detached_while_the_critic_stays_differentiable():
    """Targets carry no graph; the loss (V - stopgrad(v))^2 still trains V through V(s_t) only."""
    data = random_batch(11, terminal_only=True)
    values = data["values"].clone().requires_grad_(True)
    v_target = retrace_targets(data["rewards"], values, data["dones"], data["rho"], data["mask"], 0.9, 0.95)
    advantage = retrace_advantages(data["rewards"], values, v_target, data["dones"], data["mask"], 0.9)
    assert not v_target.requires_grad and not advantage.requires_grad
    mask = data["mask"].to(values.dtype)
    loss = (((values[:, :-1] - v_target) ** 2) * mask).sum()
    loss.backward()
    expected = torch.zeros_like(values)
    expected[:, :-1] = 2 * (values[:, :-1] - v_target).detach() * mask
    torch.testing.assert_close(values.grad, expected)


def test_targets_work_in_float32():
    """float32 inputs give float32 targets close to the float64 ones."""
    data = random_batch(12)
    args64 = (data["rewards"], data["values"], data["dones"], data["rho"], data["mask"])
    args32 = tuple(x.float() if x.is_floating_point() else x for x in args64)
    got = retrace_targets(*args32, 0.5, 0.95)
    assert got.dtype == torch.float32
    torch.testing.assert_close(got.double(), retrace_targets(*args64, 0.5, 0.95), rtol=1e-5, atol=1e-3)


def test_td_errors_follow_definition():
    """delta_t = r_t + gamma V(s_{t+1}) (1 - done_t) - V(s_t)."""
    got = td_errors(
        torch.tensor([1.0, 0.0]), torch.tensor([0.5, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([True, False]), 0.9
    )
    torch.testing.assert_close(got, torch.tensor([0.5, 1.6]))


def test_monte_carlo_returns_match_loop_reference():
    """G_t accumulates discounted rewards backwards within each episode."""
    data = random_batch(13)
    got = monte_carlo_returns(data["rewards"], data["dones"], data["mask"], 0.8)
    rewards, dones = data["rewards"].numpy(), data["dones"].numpy()
    for b, length in enumerate(data["lengths"]):
        following = 0.0
        for t in reversed(range(length)):
            following = rewards[b, t] + 0.8 * (1 - dones[b, t]) * following
            assert float(got[b, t]) == pytest.approx(following, rel=1e-12, abs=1e-12)
    assert (got.numpy()[~data["mask"].numpy()] == 0).all()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"gamma": 1.5}, ConfigError, "`gamma`"),
        ({"lam": -0.1}, ConfigError, "`lam`"),
        ({"rho_clip": 0.0}, ConfigError, "`rho_clip`"),
    ],
)
def test_retrace_raises_on_out_of_range_hyperparameters(kwargs, error, match):
    """A gamma or lambda outside [0, 1] or a non-positive rho_clip is a ConfigError naming the argument."""
    data = random_batch(0)
    arguments = {"gamma": 0.9, "lam": 0.9, "rho_clip": 1.0, **kwargs}
    with pytest.raises(error, match=match):
        retrace_targets(data["rewards"], data["values"], data["dones"], data["rho"], data["mask"], **arguments)


def test_retrace_raises_on_layout_mismatch():
    """The layout is enforced: values [B, T+1], per-step tensors [B, T], bootstrap [B]."""
    data = random_batch(0)
    with pytest.raises(DataError, match="`values` must be \\[B, T\\+1\\]"):
        retrace_targets(data["rewards"], data["values"][:, :-1], data["dones"], data["rho"], data["mask"], 0.9, 0.9)
    with pytest.raises(DataError, match="`rho` must be \\[B, T\\]"):
        retrace_targets(data["rewards"], data["values"], data["dones"], data["rho"][:, :3], data["mask"], 0.9, 0.9)
    with pytest.raises(DataError, match="`bootstrap` must be \\[B\\]"):
        monte_carlo_returns(data["rewards"], data["dones"], data["mask"], 0.9, bootstrap=torch.zeros(3))
