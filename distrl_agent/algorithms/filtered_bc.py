"""Filtered behaviour cloning: imitate the steps of successful trajectories only (DigiRL's and DistRL's baseline).

    L = - mean over steps of trajectories with success of log pi(a_t|s_t)
"""

from __future__ import annotations

import torch

from distrl_agent.algorithms.common import LossOutput, masked_mean, policy_pass
from distrl_agent.algorithms.configs import FilteredBCConfig
from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


def selected_steps(batch: Batch, config: FilteredBCConfig) -> torch.Tensor:
    """The real steps of the batch's successful episodes, the steps the loss imitates: bool [B, L]."""
    good = (batch.rewards * batch.mask).sum(1) >= config.min_return
    return batch.mask & good[:, None]


def filtered_bc_loss(policy: Policy, batch: Batch, config: FilteredBCConfig) -> LossOutput:
    """Negative log-likelihood of the successful trajectories' actions; no priorities (None)."""
    out = policy_pass(policy, batch)
    selected = selected_steps(batch, config)
    loss = -(out.log_pi * selected).sum() / selected.sum().clamp(min=1)
    return LossOutput(loss, {"losses/actor": float(loss.detach()), "losses/total": float(loss.detach()),
                             "charts/selected_fraction": float(selected.any(1).float().mean()),
                             "losses/entropy": float(masked_mean(out.entropy.detach(), batch.mask))}, None)
