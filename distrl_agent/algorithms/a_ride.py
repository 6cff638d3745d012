"""A-RIDE: Advantage-based Retrace Improved by Distributed prioritized Experience replay.

Paper: DistRL (Wang et al., ICLR 2025, arXiv:2410.14803); specification: shared/docs/A-RIDE.md.

    critic:  L_V = mean_t w_IS (V_phi(s_t) - stopgrad(v_t))^2,      v_t the Retrace(lambda) target
    actor:   A_t = r_t + gamma (1 - done_t) v_{t+1} - V(s_t)         (no-Retrace ablation: A_t = delta_t, one-step)
             rho_bar_t = min(rho_bar_max, pi(a_t|s_t) / mu(a_t|s_t))   (`behaviour_weight` "truncate", the paper's;
                         "mask": rho_t, 0 above rho_bar_max > 1, AReaL's; "uncapped": rho_t)
             L_pi = - mean_t w_IS rho_bar_t (A_t - lambda_P P_t) log pi_theta(a_t|s_t) - beta mean_t H(pi(.|s_t)) / k
                    (optional `trust_region` epsilon: a step's term is 0 where A_t - lambda_P P_t > 0 and
                     rho_t > 1 + epsilon, or < 0 and rho_t < 1 - epsilon: PPO's clip as a stop, around mu)
                    + kl_coef mean_t w_IS k3_t     (optional: k3_t = r_t - log r_t - 1, r_t = pi_ref / pi_theta of a_t,
                                                    pi_ref the policy at the learner's first update: the warm start)
             (`ratio_level` for actions of tokens a_t = (a_t,1 .. a_t,n_t): "sequence" as written; "sequence_mean"
              with rho_t = exp(mean_k log(pi_k / mu_k)) and (1 / n_t) log pi_theta(a_t|s_t), GSPO's; "token" with
              sum_k rho_bar_t,k (A_t - lambda_P P_t) log pi_theta(a_t,k|s_t, a_t,<k), each token's ratio on its own)
             k: times the step's trajectory has been drawn from the replay, this draw included (1 with
                `entropy_per_draw` off)
    priority p(tau) = w1 mean|delta_t| + w2 mean rho_bar_t + w3 mean(-log pi(a_t|s_t)) + eps

The policy and critic share an encoder here, so the two losses are summed (L = L_pi + c_V L_V) and stepped together;
the critic's target is computed from the pre-update values, as "critic, then actor" would see it.
"""

from __future__ import annotations

import numpy as np
import torch

from distrl_agent.algorithms.common import (
    LogProbs,
    LossOutput,
    behaviour_log_probs,
    behaviour_weight,
    kl_to_reference,
    masked_mean,
    policy_log_probs,
    policy_pass,
    reference_log_probs,
)
from distrl_agent.algorithms.configs import ARideConfig
from distrl_agent.algorithms.retrace import one_step_td_targets, retrace_advantages, retrace_targets, td_errors
from distrl_agent.policies.base import Policy
from distrl_agent.replay.priority import trajectory_priority
from distrl_agent.types import Batch


def a_ride_prepare(policy: Policy, batch: Batch, config: ARideConfig, reference: Policy | None = None) -> LogProbs:
    """The batch's log pi_ref per step and token, once per batch (the learner asks for it when `kl_coef` > 0).

    Raises:
        ValueError: no `reference` given.
    """
    return reference_log_probs(reference, batch, config.kl_coef, "A-RIDE")


def a_ride_loss(policy: Policy, batch: Batch, log_ref: LogProbs | None = None, *,
                config: ARideConfig) -> LossOutput:
    """The A-RIDE loss of one prioritised batch, its metrics, and the refreshed priority of each trajectory.

    `log_ref`: `a_ride_prepare`'s log-probs under the reference policy, for the KL penalty (`config.kl_coef` > 0).
    """
    c = config
    out = policy_pass(policy, batch)
    mask, w_is = batch.mask, batch.w_is
    rewards, dones = batch.rewards, batch.dones
    values = out.values.detach()

    # Importance ratios of the stored actions under the current policy: the actor's at `ratio_level`'s grain ([B, L],
    # or [B, L, K] per token); the critic's traces read the step's, length-normalised unless the level is the sequence.
    pi, mu = policy_log_probs(out), behaviour_log_probs(batch, out, c.ratio_level)
    log_pi, grain = pi.at_level(c.ratio_level, mask)
    rho_actor = torch.exp(torch.where(grain, log_pi.detach() - mu.at_level(c.ratio_level, mask)[0], 0.0))
    rho_bar = behaviour_weight(rho_actor, c.behaviour_weight, c.rho_bar_max)
    trace_level = "sequence" if c.ratio_level == "sequence" else "sequence_mean"
    rho = torch.exp(torch.where(mask, pi.at_level(trace_level, mask)[0].detach() - mu.at_level(trace_level, mask)[0],
                                0.0))

    # Critic: Retrace(lambda) targets, regressed with IS weights; the actor's advantage is built on them.
    if c.use_retrace:
        v_target = retrace_targets(rewards, values, dones, rho, mask, c.gamma, c.lam)
        advantage = retrace_advantages(rewards, values, v_target, dones, mask, c.gamma)
    else:  # the ablation: one-step TD targets, and the advantage is the TD error delta_t itself
        v_target = one_step_td_targets(rewards, values, dones, mask, c.gamma)
        advantage = torch.where(mask, v_target - values[:, :-1], 0.0)
    critic_loss = masked_mean((out.values[:, :-1] - v_target) ** 2, mask, w_is)

    # Actor: clipped ratio, penalty folded in, entropy bonus.
    step_signal = advantage - c.penalty_coef * batch.penalty
    signal = rho_bar * (step_signal[..., None] if grain.ndim == 3 else step_signal)
    stopped = torch.zeros_like(grain)
    if c.trust_region is not None:  # no further push on an action already moved epsilon from mu the signal's way
        stopped = grain & (((signal > 0) & (rho_actor > 1 + c.trust_region))
                           | ((signal < 0) & (rho_actor < 1 - c.trust_region)))
        signal = torch.where(stopped, 0.0, signal)
    per_step = signal.detach() * log_pi
    actor_loss = -masked_mean(per_step.sum(-1) if grain.ndim == 3 else per_step, mask, w_is)
    entropy = masked_mean(out.entropy, mask)
    # The bonus is paid in full on a trajectory's first draw and fades as 1/k over its replays, whose advantages
    # mostly cancel by then; paid in full each time it alone drove the policy on slow devices (ARideConfig).
    draws = batch.draws if c.entropy_per_draw and batch.draws is not None else torch.ones_like(batch.lengths)
    entropy_bonus = masked_mean(out.entropy, mask, 1.0 / draws.clamp(min=1).to(out.entropy.dtype))
    kl = torch.zeros(()) if log_ref is None else kl_to_reference(pi, log_ref, mask, c.ratio_level, w_is)
    loss = c.actor_coef * (actor_loss - c.entropy_coef * entropy_bonus + c.kl_coef * kl) + c.value_coef * critic_loss

    delta = td_errors(rewards, values[:, :-1], values[:, 1:], dones, c.gamma)
    g = grain.float()
    rho_bar_step = (rho_bar * g).sum(-1) / g.sum(-1).clamp(min=1) if grain.ndim == 3 else rho_bar
    priorities = trajectory_priority(delta, rho_bar_step, out.log_pi.detach(), mask, w1=c.w1, w2=c.w2, w3=c.w3,
                                     epsilon=c.epsilon)
    m = mask.float()
    n, n_grain = m.sum().clamp(min=1), g.sum().clamp(min=1)
    metrics = {
        "losses/actor": float(actor_loss.detach()), "losses/critic": float(critic_loss.detach()),
        "losses/entropy": float(entropy.detach()), "losses/entropy_bonus": float(entropy_bonus.detach()),
        "losses/kl_to_reference": float(kl.detach()),
        "losses/total": float(loss.detach()), "charts/rho_mean": float((rho_actor * g).sum() / n_grain),
        "charts/clip_fraction": float(((rho_actor > c.rho_bar_max).float() * g).sum() / n_grain),  # truncated/masked
        "charts/trust_region_stopped": float(stopped.float().sum() / n_grain),
        "charts/advantage_mean": float((advantage * m).sum() / n),
        "charts/td_abs_mean": float((delta.abs() * m).sum() / n),
        "charts/value_mean": float((values[:, :-1] * m).sum() / n),
        "charts/penalty_mean": float((batch.penalty * m).sum() / n),
        "replay/priority_mean": float(priorities.mean()),
        "replay/staleness_mean": float((batch.staleness.float() * m).sum() / n),
        "replay/w_is_mean": float(w_is.mean()),
    }
    return LossOutput(loss, metrics, priorities.cpu().numpy().astype(np.float64))
