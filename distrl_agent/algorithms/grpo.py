"""GRPO on asynchronous data: group-relative advantages instead of a critic, with decoupled PPO's clip.

Shao et al. 2024 (DeepSeekMath, arXiv:2402.03300) for the group-relative advantage, as MobileRL (Xu et al. 2025,
arXiv:2509.18119) trains phone agents with it; the clip and the behaviour correction are decoupled PPO's (Hilton et al.
2021, arXiv:2110.00641), exactly as `ppo.py` runs them on stale rollouts; the mean over every step of the batch
(not a mean per episode first) and no KL penalty to a reference policy follow DAPO (Yu et al. 2025,
arXiv:2503.14476). A worker plays G episodes of one task from one start (`runtime/groups.py`) and ships the ones that
survived faults with their group's return mean and sample std (ddof 1); groups whose members all returned the same
carry no signal and are never shipped. With R_i = Σ_t r_t the return of episode i, μ the behaviour policy that acted
and π_prox the learner's policy when the batch was drawn:

    prepare (once per batch, no gradient):
        Â_i = (R_i - mean_group R) / (std_group R + eps)        (the same for every step of episode i)
        log π_prox(a_t|s_t)
    each of `epochs` gradient steps on that batch:
        r_t = π_θ(a_t|s_t) / π_prox(a_t|s_t),      w_t = min(c̄, π_prox(a_t|s_t) / μ(a_t|s_t))
        L = - mean_t w_t min(r_t Â_i, clip(r_t, 1 - ε, 1 + ε) Â_i) - β mean_t H(π_θ(·|s_t))

No critic is trained: the policy's value heads get no gradient. With `epochs` = 1 the ratio r_t is 1 at the step
and L is the behaviour-corrected policy gradient; the clip binds from the second epoch on.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from distrl_agent.algorithms.common import masked_mean, policy_pass
from distrl_agent.errors import ConfigError, DataError
from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


@dataclass(frozen=True)
class GRPOConfig:
    """Coefficients of GRPO.

    Attributes:
        group_size: G, episodes per group, played by one worker from the same reset seed (4: a first choice,
            unmeasured; with success near 50%, 2 x 0.5^4 = 12.5% of groups are uniform and dropped).
        clip_eps: ε of the clipped surrogate.
        is_clip: c̄, the truncation of the behaviour correction π_prox / μ.
        epochs: gradient steps on each sampled batch (each one a weights version).
        eps: added to the group's std.
        entropy_coef: β, the entropy bonus (as for PPO, so the rules compare).
    """

    group_size: int = 4
    clip_eps: float = 0.2
    is_clip: float = 1.0
    epochs: int = 1
    eps: float = 1e-6
    entropy_coef: float = 0.01

    def __post_init__(self) -> None:
        if self.group_size < 2:
            raise ConfigError(f"`group_size` must be >= 2 (a group compares its episodes), got {self.group_size}")
        if not 0 < self.clip_eps < 1:
            raise ConfigError(f"`clip_eps` must be in (0, 1), got {self.clip_eps}")
        if not self.is_clip > 0:
            raise ConfigError(f"`is_clip` must be > 0, got {self.is_clip}")
        if self.epochs < 1:
            raise ConfigError(f"`epochs` must be >= 1, got {self.epochs}")
        if not self.eps > 0 or self.entropy_coef < 0:
            raise ConfigError(f"`eps` must be > 0 and `entropy_coef` >= 0, got {self.eps}, {self.entropy_coef}")


@dataclass(frozen=True)
class GRPOTargets:
    """What `grpo_prepare` computes once per batch, detached.

    Attributes:
        log_prox: [B, L] log π_prox(a_t|s_t), zero on padding.
        advantages: [B] Â_i, each episode's group-relative advantage.
    """

    log_prox: torch.Tensor
    advantages: torch.Tensor


def group_advantages(batch: Batch, eps: float) -> torch.Tensor:
    """[B] (R_i - group mean) / (group std + eps) of each trajectory of `batch`.

    Raises:
        DataError: a trajectory carries no group statistics (it was not collected by a worker playing groups).
    """
    if batch.group_mean is None or batch.group_std is None or not torch.isfinite(batch.group_mean).all():
        raise DataError("GRPO needs trajectories collected in groups (`metadata['group']`, written by workers with "
                        "`group_size` > 1, as the runtimes make them when learner.algorithm=grpo); this batch has "
                        "trajectories without one")
    returns = torch.where(batch.mask, batch.rewards, 0.0).sum(dim=1)
    return (returns - batch.group_mean) / (batch.group_std + eps)


def grpo_prepare(policy: Policy, batch: Batch, config: GRPOConfig) -> GRPOTargets:
    """The group-relative advantages of `batch` and its proximal log-probs under the current (pre-update) weights."""
    advantages = group_advantages(batch, config.eps)
    with torch.no_grad():
        log_prox = policy_pass(policy, batch).log_pi  # policy_pass zeroes padding
    return GRPOTargets(log_prox, advantages.to(log_prox.device))


def grpo_loss(policy: Policy, batch: Batch, targets: GRPOTargets,
              config: GRPOConfig) -> tuple[torch.Tensor, dict[str, float], None]:
    """One epoch's GRPO loss on `batch` against its `targets`; it keeps no priorities (None)."""
    c, mask = config, batch.mask
    out = policy_pass(policy, batch)
    log_ratio = torch.where(mask, out.log_pi - targets.log_prox, 0.0)
    ratio = torch.exp(log_ratio)
    behaviour = torch.exp(torch.where(mask, targets.log_prox - batch.log_mu, 0.0)).clamp(max=c.is_clip)
    a = targets.advantages[:, None]
    surrogate = torch.minimum(ratio * a, ratio.clamp(1 - c.clip_eps, 1 + c.clip_eps) * a)
    actor_loss = -masked_mean(behaviour * surrogate, mask)
    entropy = masked_mean(out.entropy, mask)
    loss = actor_loss - c.entropy_coef * entropy
    m = mask.float()
    n = m.sum().clamp(min=1)
    metrics = {
        "losses/actor": float(actor_loss.detach()), "losses/entropy": float(entropy.detach()),
        "losses/total": float(loss.detach()),
        "charts/clip_fraction": float((((ratio - 1).abs() > c.clip_eps).float() * m).sum() / n),
        "charts/approx_kl": float((((ratio - 1) - log_ratio).detach() * m).sum() / n),
        "charts/behaviour_weight_mean": float((behaviour * m).sum() / n),
        "charts/advantage_abs_mean": float(targets.advantages.abs().mean()),
        "charts/group_std_mean": float(batch.group_std.mean()),
        "replay/staleness_mean": float((batch.staleness.float() * m).sum() / n),
    }
    return loss, metrics, None
