"""The A-RIDE trajectory priority (DistRL, arXiv:2410.14803), as a pure function of per-step tensors.

    p(tau) = w1 * mean_t |delta_t| + w2 * mean_t rho_bar_t + w3 * mean_t (-log pi(a_t|s_t)) + epsilon

The means run over the real steps of each trajectory (a mask excludes padding). delta_t is the one-step TD error of
the current critic, rho_bar_t = min(rho_bar_max, pi/mu) the truncated importance ratio, -log pi the policy's
surprise at the action taken (nats). The defaults are the paper code's weights 50 / 1 / 0.01.
"""

from __future__ import annotations

import torch

from distrl_agent.errors import ConfigError, DataError

W1_TD = 50.0
W2_RHO = 1.0
W3_SURPRISE = 0.01
EPSILON = 1e-6


def masked_mean(values: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """Mean over the last axis counting only steps where `mask` is true (0.0 for an all-false row).

    >>> masked_mean(torch.tensor([[1.0, 3.0, 100.0]]), torch.tensor([[True, True, False]]))
    tensor([2.])
    """
    if mask is None:
        return values.mean(dim=-1)
    mask = mask.to(torch.bool)
    total = torch.where(mask, values, torch.zeros_like(values)).sum(dim=-1)
    return total / mask.sum(dim=-1).clamp(min=1).to(values.dtype)


def trajectory_priority(
    delta: torch.Tensor,
    rho_bar: torch.Tensor,
    log_pi: torch.Tensor,
    mask: torch.Tensor | None = None,
    *,
    w1: float = W1_TD,
    w2: float = W2_RHO,
    w3: float = W3_SURPRISE,
    epsilon: float = EPSILON,
) -> torch.Tensor:
    """p(tau) for each trajectory of a padded batch, detached.

    Args:
        delta: TD errors delta_t, [B, T] (or [T] for one trajectory).
        rho_bar: truncated importance ratios rho_bar_t (unitless), same shape.
        log_pi: log pi(a_t|s_t) of the current policy (nats), same shape.
        mask: true on real steps; None means every step is real.
        w1: weight of the mean absolute TD error.
        w2: weight of the mean truncated ratio.
        w3: weight of the mean negative log-likelihood.
        epsilon: keeps every priority > 0 so no trajectory becomes unsampleable.

    Returns:
        [B] (or a 0-d tensor) of priorities > 0, detached from the graph.

    Raises:
        ConfigError: a weight or `epsilon` is negative.
        DataError: shapes differ, or a priority came out NaN/inf.

    >>> delta = torch.tensor([[0.1, -0.3], [0.0, 0.0]])
    >>> rho_bar = torch.ones(2, 2)
    >>> log_pi = torch.log(torch.full((2, 2), 0.5))
    >>> mask = torch.tensor([[True, True], [True, False]])
    >>> trajectory_priority(delta, rho_bar, log_pi, mask, epsilon=0.0)
    tensor([11.0069,  1.0069])
    """
    for name, weight in (("w1", w1), ("w2", w2), ("w3", w3)):
        if not weight >= 0:
            raise ConfigError(f"`{name}` must be >= 0, got {weight}")
    if not epsilon >= 0:
        raise ConfigError(f"`epsilon` must be >= 0 (use > 0 so every trajectory stays sampleable), got {epsilon}")
    for name, value in (("rho_bar", rho_bar), ("log_pi", log_pi), ("mask", mask)):
        if value is not None and value.shape != delta.shape:
            raise DataError(f"`{name}` has shape {tuple(value.shape)}, expected {tuple(delta.shape)} like `delta`")
    with torch.no_grad():
        priority = (
            w1 * masked_mean(delta.abs(), mask)
            + w2 * masked_mean(rho_bar, mask)
            + w3 * masked_mean(-log_pi, mask)
            + epsilon
        )
    if not torch.isfinite(priority).all():
        raise DataError("`delta`, `rho_bar` or `log_pi` holds NaN/inf on a real step: the priority is not finite")
    return priority
