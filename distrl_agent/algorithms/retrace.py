"""Retrace(lambda) state-value targets and advantages, as pure functions of padded batch-major tensors.

Paper: DistRL (Wang et al., ICLR 2025, arXiv:2410.14803), the A-RIDE critic; Retrace from Munos et al. 2016
(arXiv:1606.02647). With rho_i = pi(a_i|s_i) / mu(a_i|s_i):

    delta_k = r_k + gamma V(s_{k+1}) (1 - done_k) - V(s_k)                          (one-step TD error)
    c_i     = lambda min(c_bar, rho_i)                                               (truncated trace, c_bar = 1)
    v_t     = V(s_t) + sum_{k=t}^{T-1} gamma^{k-t} (prod_{i=t+1}^{k} c_i) delta_k     (empty product = 1)

computed backwards as v_t - V(s_t) = delta_t + gamma c_{t+1} (v_{t+1} - V(s_{t+1})), with v_T - V(s_T) = 0. The
actor's Retrace-corrected advantage is

    A_t = r_t + gamma (1 - done_t) v_{t+1} - V(s_t),    v_T := V(s_T) (the bootstrap of a truncated episode).

Layout (see `distrl_agent.types.Batch`): per-step tensors are [B, T], `values` is [B, T+1] and holds V(s_0..s_T) of
each trajectory with its final state V(s_{T_b}) at index T_b; `mask` is true on the first T_b steps of row b. The
trace is cut at episode ends (`dones`) and at padding. Targets and advantages come back detached, zero on padding:
the critic loss w_IS (V_phi(s_t) - v_t)^2 then trains V_phi through its own V_phi(s_t) only.
"""

from __future__ import annotations

import torch

from distrl_agent.errors import ConfigError, DataError


def _check(rewards: torch.Tensor, values: torch.Tensor | None, gamma: float, **per_step: torch.Tensor | None) -> None:
    if rewards.ndim != 2:
        raise DataError(f"`rewards` must be [B, T], got shape {tuple(rewards.shape)}")
    batch, steps = rewards.shape
    if values is not None and tuple(values.shape) != (batch, steps + 1):
        raise DataError(f"`values` must be [B, T+1] = {(batch, steps + 1)} (V(s_0..s_T)), got {tuple(values.shape)}")
    for name, tensor in per_step.items():
        if tensor is not None and tuple(tensor.shape) != (batch, steps):
            raise DataError(f"`{name}` must be [B, T] = {(batch, steps)} like `rewards`, got {tuple(tensor.shape)}")
    if not 0.0 <= gamma <= 1.0:
        raise ConfigError(f"`gamma` must be in [0, 1], got {gamma}")


def _next_step_mask(mask: torch.Tensor) -> torch.Tensor:
    """mask_{t+1} as a [B, T] bool tensor (false after the last column)."""
    return torch.cat([mask[:, 1:], torch.zeros_like(mask[:, :1])], dim=1).to(torch.bool)


def td_errors(
    rewards: torch.Tensor, values_t: torch.Tensor, values_tp1: torch.Tensor, dones: torch.Tensor, gamma: float
) -> torch.Tensor:
    """delta_t = r_t + gamma V(s_{t+1}) (1 - done_t) - V(s_t), elementwise (differentiable; padding is not masked).

    >>> td_errors(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 0.5]), torch.tensor([0.5, 9.0]),
    ...           torch.tensor([False, True]), gamma=0.5)
    tensor([-0.2500,  0.5000])
    """
    return rewards + gamma * values_tp1 * (1.0 - dones.to(values_t.dtype)) - values_t


def retrace_targets(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    rho: torch.Tensor,
    mask: torch.Tensor,
    gamma: float,
    lam: float,
    rho_clip: float = 1.0,
) -> torch.Tensor:
    """v_target: the Retrace(lambda) targets v_t, [B, T], detached, zero on padding.

    Args:
        rewards: r_t, [B, T].
        values: V(s_t) for t = 0..T, [B, T+1] (final state at index T_b).
        dones: true on the last step of terminated episodes, [B, T].
        rho: importance ratios rho_t = pi/mu (unitless, >= 0), [B, T].
        mask: true on real steps, [B, T].
        gamma: discount in [0, 1].
        lam: trace coefficient lambda in [0, 1]; 0 gives the one-step TD target.
        rho_clip: c_bar, the truncation level of the traces (> 0).

    Raises:
        ConfigError: `gamma`, `lam` or `rho_clip` out of range.
        DataError: shapes that do not match the layout.

    >>> rewards, dones = torch.tensor([[0.0, 1.0]]), torch.tensor([[False, True]])
    >>> values, mask = torch.tensor([[0.2, 0.4, 0.0]]), torch.ones(1, 2, dtype=torch.bool)
    >>> retrace_targets(rewards, values, dones, torch.ones(1, 2), mask, gamma=0.5, lam=1.0)
    tensor([[0.5000, 1.0000]])
    """
    _check(rewards, values, gamma, dones=dones, rho=rho, mask=mask)
    if not 0.0 <= lam <= 1.0:
        raise ConfigError(f"`lam` must be in [0, 1], got {lam}")
    if not rho_clip > 0:
        raise ConfigError(f"`rho_clip` must be > 0, got {rho_clip}")
    with torch.no_grad():
        mask = mask.to(torch.bool)
        values_t, values_tp1 = values[:, :-1].detach(), values[:, 1:].detach()
        delta = torch.where(mask, td_errors(rewards, values_t, values_tp1, dones, gamma), 0.0)
        c = lam * torch.clamp(rho.detach(), max=rho_clip)
        c_tp1 = torch.cat([c[:, 1:], torch.zeros_like(c[:, :1])], dim=1)
        # The trace from t+1 reaches t only inside one episode: t not terminal and t+1 a real step.
        carries = _next_step_mask(mask) & ~dones.to(torch.bool)
        gamma_c_tp1 = torch.where(carries, gamma * c_tp1, 0.0)
        correction = torch.zeros_like(values_t)  # v_t - V(s_t)
        running = torch.zeros_like(values_t[:, 0])
        for t in reversed(range(rewards.shape[1])):
            running = delta[:, t] + gamma_c_tp1[:, t] * running
            correction[:, t] = running
        return torch.where(mask, values_t + correction, 0.0)


def retrace_advantages(
    rewards: torch.Tensor,
    values: torch.Tensor,
    v_target: torch.Tensor,
    dones: torch.Tensor,
    mask: torch.Tensor,
    gamma: float,
) -> torch.Tensor:
    """A_t = r_t + gamma (1 - done_t) v_{t+1} - V(s_t), [B, T], detached, zero on padding.

    v_{t+1} is the Retrace target of the next step, or V(s_T) after the last real step (the bootstrap of a
    truncated episode; a terminated one multiplies it by 0).

    Raises:
        ConfigError: `gamma` out of range.
        DataError: shapes that do not match the layout.

    >>> rewards, dones = torch.tensor([[0.0, 0.5]]), torch.tensor([[False, False]])
    >>> values, v_target = torch.tensor([[0.2, 0.4, 0.8]]), torch.tensor([[0.3, 0.6]])
    >>> retrace_advantages(rewards, values, v_target, dones, torch.ones(1, 2, dtype=torch.bool), gamma=0.5)
    tensor([[0.1000, 0.5000]])
    """
    _check(rewards, values, gamma, v_target=v_target, dones=dones, mask=mask)
    with torch.no_grad():
        mask = mask.to(torch.bool)
        values = values.detach()
        v_target_tp1 = torch.cat([v_target[:, 1:].detach(), torch.zeros_like(v_target[:, :1])], dim=1)
        v_tp1 = torch.where(_next_step_mask(mask), v_target_tp1, values[:, 1:])
        advantage = td_errors(rewards, values[:, :-1], v_tp1, dones, gamma)
        return torch.where(mask, advantage, 0.0)


def one_step_td_targets(
    rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor, mask: torch.Tensor, gamma: float
) -> torch.Tensor:
    """r_t + gamma (1 - done_t) V(s_{t+1}), [B, T], detached, zero on padding (the "no Retrace" ablation).

    Raises:
        ConfigError: `gamma` out of range.
        DataError: shapes that do not match the layout.

    >>> one_step_td_targets(torch.tensor([[0.0, 1.0]]), torch.tensor([[0.2, 0.4, 0.8]]),
    ...                     torch.tensor([[False, False]]), torch.tensor([[True, True]]), gamma=0.5)
    tensor([[0.2000, 1.4000]])
    """
    _check(rewards, values, gamma, dones=dones, mask=mask)
    with torch.no_grad():
        values = values.detach()
        target = rewards + gamma * (1.0 - dones.to(values.dtype)) * values[:, 1:]
        return torch.where(mask.to(torch.bool), target, 0.0)


def monte_carlo_returns(
    rewards: torch.Tensor,
    dones: torch.Tensor,
    mask: torch.Tensor,
    gamma: float,
    bootstrap: torch.Tensor | None = None,
) -> torch.Tensor:
    """G_t = r_t + gamma (1 - done_t) G_{t+1}, with G after the last real step = `bootstrap` (or 0); [B, T].

    Args:
        rewards: r_t, [B, T].
        dones: true on the last step of terminated episodes, [B, T].
        mask: true on real steps, [B, T].
        gamma: discount in [0, 1].
        bootstrap: [B] value of the final state (e.g. `final_values(values, mask)`); None means 0.

    Raises:
        ConfigError: `gamma` out of range.
        DataError: shapes that do not match the layout.

    >>> monte_carlo_returns(torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
    ...                     torch.tensor([[False, False, True], [False, False, False]]),
    ...                     torch.tensor([[True, True, True], [True, True, False]]), gamma=0.5,
    ...                     bootstrap=torch.tensor([7.0, 2.0]))
    tensor([[0.2500, 0.5000, 1.0000],
            [1.5000, 1.0000, 0.0000]])
    """
    _check(rewards, None, gamma, dones=dones, mask=mask)
    if bootstrap is not None and tuple(bootstrap.shape) != (rewards.shape[0],):
        raise DataError(f"`bootstrap` must be [B] = ({rewards.shape[0]},), got {tuple(bootstrap.shape)}")
    with torch.no_grad():
        mask = mask.to(torch.bool)
        tail = torch.zeros_like(rewards[:, 0]) if bootstrap is None else bootstrap.detach().to(rewards.dtype)
        next_is_real = _next_step_mask(mask)
        not_done = 1.0 - dones.to(rewards.dtype)
        returns = torch.zeros_like(rewards)
        running = torch.zeros_like(tail)
        for t in reversed(range(rewards.shape[1])):
            following = torch.where(next_is_real[:, t], running, tail)
            running = torch.where(mask[:, t], rewards[:, t] + gamma * not_done[:, t] * following, 0.0)
            returns[:, t] = running
        return returns


def final_values(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """V(s_{T_b}) of each row: `values` [B, T+1] read at index T_b = mask.sum(1); [B], keeps the graph.

    >>> final_values(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), torch.tensor([[True, True], [True, False]]))
    tensor([3., 5.])
    """
    lengths = mask.to(torch.int64).sum(dim=1, keepdim=True)
    return values.gather(1, lengths).squeeze(1)
