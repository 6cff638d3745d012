"""PPO on asynchronous data: decoupled PPO's proximal policy, GAE advantages, and a truncated behaviour correction.

Schulman et al. 2017 (arXiv:1707.06347) for the clipped surrogate, GAE from Schulman et al. 2015 (arXiv:1506.02438),
the decoupled objective from Hilton et al. 2021 (arXiv:2110.00641) as AReaL runs it on stale rollouts. With μ the
behaviour policy that acted (a worker's older weights) and π_prox the learner's policy when the batch was drawn:

    prepare (once per batch, no gradient):
        log π_prox(a_t|s_t), V_old(s_t) from the pre-update weights
        δ_t = r_t + γ V_old(s_{t+1}) (1 - done_t) - V_old(s_t)
        Â_t = Σ_k (γλ)^k δ_{t+k} within the episode (GAE),       R_t = Â_t + V_old(s_t)   (the critic's target)
        Â_t ← (Â_t - mean Â) / (std Â + 1e-8) over the batch's steps (when `normalize_advantages`)
    each of `epochs` gradient steps on that batch:
        r_t = π_θ(a_t|s_t) / π_prox(a_t|s_t),      w_t = min(c̄, π_prox(a_t|s_t) / μ(a_t|s_t))   (`behaviour_weight`
                                                    "truncate"; "mask": 0 above c̄ > 1, AReaL's; "uncapped")
        L_π = - mean_t w_t min(r_t Â_t, clip(r_t, 1 - ε, 1 + ε) Â_t) - β mean_t H(π_θ(·|s_t))
        L_V = mean_t (V_φ(s_t) - R_t)²      (unclipped: the small policy's critic has its own encoder)
        L = actor_coef L_π + c_V L_V

The clip keeps the epochs near π_prox (not near μ, which may be many versions old); w_t corrects for the staleness
between μ and π_prox and is truncated at c̄ so an old, unlikely action cannot blow up a step (or, as AReaL does,
such a step is masked out; or, as Hilton et al. write it, left uncapped). GAE is the Retrace
target with every ratio 1 (c_i = λ), so it reuses `retrace_targets`.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from distrl_agent.algorithms.common import (
    LogProbs,
    LossOutput,
    behaviour_log_probs,
    decoupled_clipped_surrogate,
    masked_mean,
    policy_log_probs,
    policy_pass,
)
from distrl_agent.algorithms.configs import PPOConfig
from distrl_agent.algorithms.retrace import retrace_targets
from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


@dataclass(frozen=True)
class PPOTargets:
    """What `ppo_prepare` computes once per batch, [B, L] each, detached, zero on padding.

    Attributes:
        log_prox: log π_prox(a_t|s_t), the pre-update policy's log-probs.
        advantages: Â_t (normalised if configured).
        returns: R_t, the critic's regression target.
        token_log_prox: [B, L, K] log π_prox of each token of a sequence policy's actions, or None.
    """

    log_prox: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor
    token_log_prox: torch.Tensor | None = None


def ppo_prepare(policy: Policy, batch: Batch, config: PPOConfig) -> PPOTargets:
    """The proximal log-probs and GAE advantages of `batch` under the current (pre-update) weights."""
    c, mask = config, batch.mask
    with torch.no_grad():
        out = policy_pass(policy, batch)
        values = out.values
        lambda_returns = retrace_targets(batch.rewards, values, batch.dones, torch.ones_like(batch.rewards), mask,
                                         c.gamma, c.lam)
        advantages = torch.where(mask, lambda_returns - values[:, :-1], 0.0)
        if c.normalize_advantages:
            real = advantages[mask]
            std = real.std() if real.numel() > 1 else torch.ones(())
            advantages = torch.where(mask, (advantages - real.mean()) / (std + 1e-8), 0.0)
        return PPOTargets(out.log_pi, advantages, lambda_returns, out.token_log_pi)  # policy_pass zeroes padding


def ppo_loss(policy: Policy, batch: Batch, targets: PPOTargets,
             config: PPOConfig) -> LossOutput:
    """One epoch's PPO loss on `batch` against its `targets`; it keeps no priorities (None)."""
    c, mask = config, batch.mask
    out = policy_pass(policy, batch)
    a = targets.advantages
    prox = LogProbs(targets.log_prox, targets.token_log_prox, out.token_mask)
    actor_loss, clip_metrics = decoupled_clipped_surrogate(policy_log_probs(out), prox,
                                                           behaviour_log_probs(batch, out, c.ratio_level), a, mask,
                                                           c.clip_eps, c.is_clip, c.behaviour_weight, c.ratio_level)
    critic_loss = masked_mean((out.values[:, :-1] - targets.returns) ** 2, mask)
    entropy = masked_mean(out.entropy, mask)
    loss = c.actor_coef * (actor_loss - c.entropy_coef * entropy) + c.value_coef * critic_loss
    m = mask.float()
    n = m.sum().clamp(min=1)
    metrics = {
        "losses/actor": float(actor_loss.detach()), "losses/critic": float(critic_loss.detach()),
        "losses/entropy": float(entropy.detach()), "losses/total": float(loss.detach()), **clip_metrics,
        "charts/advantage_mean": float((a * m).sum() / n),
        "replay/staleness_mean": float((batch.staleness.float() * m).sum() / n),
    }
    return LossOutput(loss, metrics, None)
