"""DigiRL's update rule (Bai et al., 2024, arXiv:2406.11896) as specified in shared/docs/A-RIDE.md, on our replay.

    step critic:        V(s_t)  regressed on the Monte-Carlo return G_t
    instruction critic: V(g)    regressed on the episode return G_0
    advantage:          A_t = V(s_{t+1}) - V(s_t) + r_t + G_t - 0.05
    curriculum filter:  only the top `top_fraction` episodes of the batch by G_0 - V(g) (with every episode tied
                        with the last one kept: a threshold, as DigiRL's filter is, not an arbitrary cut)
    actor (hard AWR):   L_pi = - mean over kept steps with A_t > 0 of log pi(a_t|s_t)        (no importance ratio)
"""

from __future__ import annotations

import numpy as np
import torch

from distrl_agent.algorithms.common import LossOutput, masked_mean, policy_pass
from distrl_agent.algorithms.configs import DigiRLConfig
from distrl_agent.algorithms.retrace import monte_carlo_returns
from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


def digirl_loss(policy: Policy, batch: Batch, config: DigiRLConfig) -> LossOutput:
    """DigiRL's summed critic + filtered-AWR actor loss; it keeps no priorities (None)."""
    c = config
    out = policy_pass(policy, batch)
    mask = batch.mask
    returns = monte_carlo_returns(batch.rewards, batch.dones, mask, c.gamma)  # G_t, no bootstrap (DigiRL's MC)
    episode_return = returns[:, 0]
    step_critic = masked_mean((out.values[:, :-1] - returns) ** 2, mask)
    instruction_critic = ((out.instruction_values - episode_return) ** 2).mean()

    values = out.values.detach()
    v_tp1 = torch.where(batch.dones, torch.zeros_like(values[:, 1:]), values[:, 1:])  # V(s_T) = 0 at episode ends
    advantage = v_tp1 - values[:, :-1] + batch.rewards + returns - c.advantage_offset

    # Curriculum: keep the top fraction of episodes by how much better they did than the instruction critic expects.
    surprise = episode_return - out.instruction_values.detach()
    k = max(1, int(np.ceil(c.top_fraction * batch.batch_size)))
    keep = surprise >= torch.topk(surprise, k).values[-1]  # ties with the k-th all kept (episodes of one goal tie)
    selected = mask & keep[:, None] & (advantage > 0)
    actor_loss = -(out.log_pi * selected).sum() / selected.sum().clamp(min=1)
    loss = c.actor_coef * actor_loss + c.value_coef * (step_critic + instruction_critic)
    metrics = {"losses/actor": float(actor_loss.detach()), "losses/critic": float(step_critic.detach()),
               "losses/instruction_critic": float(instruction_critic.detach()), "losses/total": float(loss.detach()),
               "charts/selected_fraction": float(selected.sum() / mask.sum().clamp(min=1)),
               "charts/advantage_mean": float(masked_mean(advantage, mask)),
               "losses/entropy": float(masked_mean(out.entropy.detach(), mask))}
    return LossOutput(loss, metrics, None)
