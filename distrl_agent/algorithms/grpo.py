"""GRPO on asynchronous data: group-relative advantages instead of a critic, with decoupled PPO's clip.

Shao et al. 2024 (DeepSeekMath, arXiv:2402.03300) for the group-relative advantage, as MobileRL (Xu et al. 2025,
arXiv:2509.18119) trains phone agents with it; the clip and the behaviour correction are decoupled PPO's (Hilton et al.
2021, arXiv:2110.00641), exactly as `ppo.py` runs them on stale rollouts; the mean over every step of the batch
(not a mean per episode first) and no KL penalty to a reference policy follow DAPO (Yu et al. 2025,
arXiv:2503.14476), with the KL penalty to a reference policy optional (DeepSeekMath's k3 estimator). A worker plays G
episodes of one task from one start (`runtime/groups.py`) and ships the ones that survived faults with their return
and their group's return mean and sample std (ddof 1); groups whose members all returned the same carry no signal
and are never shipped. The return of episode i (`GroupSpec.episode_return`) is R_i = Σ_t r_t, less λ T_i when it
succeeded (MobileRL's shortest-path reward adjustment, in our form: λ = `length_penalty`, 0 by default). With μ the
behaviour policy that acted, π_prox the learner's policy when the batch was drawn and π_ref the policy at the
learner's first update (the warm start):

    prepare (once per batch, no gradient):
        Â_i = (R_i - mean_group R) / (std_group R + eps)        (the same for every step of episode i)
        log π_prox(a_t|s_t), and log π_ref(a_t|s_t) when kl_coef > 0
    each of `epochs` gradient steps on that batch:
        r_t = π_θ(a_t|s_t) / π_prox(a_t|s_t),      w_t = min(c̄, π_prox(a_t|s_t) / μ(a_t|s_t))
        k_t = π_ref(a_t|s_t) / π_θ(a_t|s_t) - log(π_ref(a_t|s_t) / π_θ(a_t|s_t)) - 1      (>= 0; its mean estimates
                                                                                      KL(π_θ || π_ref))
        L = - mean_t w_t min(r_t Â_i, clip(r_t, 1 - ε, 1 + ε) Â_i) - β mean_t H(π_θ(·|s_t)) + kl_coef mean_t k_t

No critic is trained: the policy's value heads get no gradient. With `epochs` = 1 the ratio r_t is 1 at the step
and L is the behaviour-corrected policy gradient; the clip binds from the second epoch on.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from distrl_agent.algorithms.common import (
    LogProbs,
    LossOutput,
    behaviour_log_probs,
    decoupled_clipped_surrogate,
    kl_to_reference,
    masked_mean,
    policy_log_probs,
    policy_pass,
    reference_log_probs,
)
from distrl_agent.algorithms.configs import GRPOConfig
from distrl_agent.errors import DataError
from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


@dataclass(frozen=True)
class GRPOTargets:
    """What `grpo_prepare` computes once per batch, detached.

    Attributes:
        log_prox: [B, L] log π_prox(a_t|s_t), zero on padding.
        advantages: [B] Â_i, each episode's group-relative advantage.
        log_ref: log π_ref of the batch's actions, per step and token (zero on padding); None without a KL penalty.
        token_log_prox: [B, L, K] log π_prox of each token of a sequence policy's actions, or None.
    """

    log_prox: torch.Tensor
    advantages: torch.Tensor
    log_ref: LogProbs | None = None
    token_log_prox: torch.Tensor | None = None


def group_advantages(batch: Batch, eps: float) -> torch.Tensor:
    """[B] (R_i - group mean) / (group std + eps) of each trajectory of `batch`.

    Raises:
        DataError: a trajectory carries no group statistics (it was not collected by a worker playing groups).
    """
    stats = (batch.group_return, batch.group_mean, batch.group_std)
    if any(x is None for x in stats) or not all(torch.isfinite(x).all() for x in stats):
        raise DataError("GRPO needs trajectories collected in groups (`metadata['group']`, written by workers with "
                        "a `GroupSpec`, as the runtimes make them when learner.algorithm=grpo); this batch has "
                        "trajectories without one")
    return (batch.group_return - batch.group_mean) / (batch.group_std + eps)


def grpo_prepare(policy: Policy, batch: Batch, config: GRPOConfig, reference: Policy | None = None) -> GRPOTargets:
    """The group-relative advantages of `batch`, its proximal log-probs under the current (pre-update) weights, and
    with `config.kl_coef` > 0 its log-probs under `reference`.

    Raises:
        DataError: as `group_advantages`.
        ValueError: `kl_coef` > 0 without a `reference`.
    """  # noqa: D205
    advantages = group_advantages(batch, config.eps)
    log_ref = reference_log_probs(reference, batch, config.kl_coef, "GRPO") if config.kl_coef > 0 else None
    with torch.no_grad():
        prox = policy_pass(policy, batch)  # policy_pass zeroes padding
    return GRPOTargets(prox.log_pi, advantages.to(prox.log_pi.device), log_ref, prox.token_log_pi)


def grpo_loss(policy: Policy, batch: Batch, targets: GRPOTargets,
              config: GRPOConfig) -> LossOutput:
    """One epoch's GRPO loss on `batch` against its `targets`; it keeps no priorities (None)."""
    c, mask = config, batch.mask
    out = policy_pass(policy, batch)
    pi, prox = policy_log_probs(out), LogProbs(targets.log_prox, targets.token_log_prox, out.token_mask)
    actor_loss, clip_metrics = decoupled_clipped_surrogate(pi, prox,
                                                           behaviour_log_probs(batch, out, c.ratio_level),
                                                           targets.advantages[:, None], mask, c.clip_eps, c.is_clip,
                                                           c.behaviour_weight, c.ratio_level)
    entropy = masked_mean(out.entropy, mask)
    loss = actor_loss - c.entropy_coef * entropy
    kl = torch.zeros(())
    if targets.log_ref is not None:
        kl = kl_to_reference(pi, targets.log_ref, mask, c.ratio_level)
        loss = loss + c.kl_coef * kl
    m = mask.float()
    metrics = {
        "losses/actor": float(actor_loss.detach()), "losses/entropy": float(entropy.detach()),
        "losses/kl_to_reference": float(kl.detach()), "losses/total": float(loss.detach()), **clip_metrics,
        "charts/advantage_abs_mean": float(targets.advantages.abs().mean()),
        "charts/group_std_mean": float(batch.group_std.mean()),
        "replay/staleness_mean": float((batch.staleness.float() * m).sum() / m.sum().clamp(min=1)),
    }
    return LossOutput(loss, metrics, None)
