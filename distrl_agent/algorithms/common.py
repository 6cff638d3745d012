"""What the update rules share: their result type, one forward pass of a policy over a padded `Batch` (values of every
state, log-probs and entropies of every step), masked means, coefficient checks, and decoupled PPO's clipped
surrogate."""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from distrl_agent.policies.base import Policy
from distrl_agent.types import Batch


class LossOutput(NamedTuple):
    """What an update rule's loss returns.

    Attributes:
        loss: the scalar to minimise (differentiable).
        metrics: "losses/..." and "targets/..." figures of this batch, floats.
        priorities: [B] new replay priorities of the batch's trajectories (prioritised rules), or None.
    """

    loss: torch.Tensor
    metrics: dict[str, float]
    priorities: np.ndarray | None


@dataclass
class BatchPass:
    """Policy outputs laid out like the batch (zeros on padding).

    Attributes:
        values: [B, L+1] V_phi(s_t) for t = 0..T_b (differentiable).
        log_pi: [B, L] log pi_theta(a_t|s_t) (differentiable).
        entropy: [B, L] H(pi_theta(.|s_t)) (differentiable).
        instruction_values: [B] V(g) of each trajectory's goal (differentiable).
    """

    values: torch.Tensor
    log_pi: torch.Tensor
    entropy: torch.Tensor
    instruction_values: torch.Tensor


def policy_pass(policy: Policy, batch: Batch) -> BatchPass:
    """Run `policy` over every real state and step of `batch`: one preprocess, `evaluate_states` and V(g).

    The preprocess is skipped when `batch.inputs` already holds the encodings (the learner's `EncodingCache`).
    """
    b_size, l_size = batch.rewards.shape
    obs_mask = batch.observation_mask.numpy()
    rows, cols = np.nonzero(obs_mask)  # every s_t, t = 0..T_b
    if batch.inputs is not None:
        inputs = batch.inputs
    else:
        observations = [{k: _item(v, b, t) for k, v in batch.observations.items()}
                        for b, t in zip(rows, cols, strict=True)]
        inputs = policy.preprocess(observations, [batch.goals[b] for b in rows])
    step = torch.from_numpy(cols < batch.lengths.numpy()[rows])  # states that have an action (t < T_b)
    step_index = torch.nonzero(step).squeeze(1)
    s_rows, s_cols = torch.from_numpy(rows)[step_index], torch.from_numpy(cols)[step_index]
    actions = {k: torch.as_tensor(batch.actions[k])[s_rows, s_cols].long().to(policy.device)
               for k in policy.action_keys}
    out = policy.evaluate_states(inputs, actions, step)  # V of the final states (t = T_b) too
    dev = out.values.device
    values = torch.zeros(b_size, l_size + 1, device=dev)
    values = values.index_put((torch.from_numpy(rows).to(dev), torch.from_numpy(cols).to(dev)), out.values)
    log_pi = torch.zeros(b_size, l_size, device=dev).index_put((s_rows.to(dev), s_cols.to(dev)), out.log_prob)
    entropy = torch.zeros(b_size, l_size, device=dev).index_put((s_rows.to(dev), s_cols.to(dev)), out.entropy)
    first = torch.from_numpy(np.flatnonzero(cols == 0))  # s_0 of each trajectory, in row order
    instruction_values = policy.instruction_value({k: v[first] for k, v in inputs.items()})
    return BatchPass(values, log_pi, entropy, instruction_values)


def _item(value: torch.Tensor | np.ndarray, b: int, t: int) -> np.ndarray:
    item = value[b, t]
    return item.numpy() if isinstance(item, torch.Tensor) else item


def masked_mean(x: torch.Tensor, mask: torch.Tensor, weights: torch.Tensor | None = None) -> torch.Tensor:
    """Mean of `x` over `mask` ([B, L]), each row weighted by `weights` ([B]) if given."""
    m = mask.to(x.dtype)
    if weights is not None:
        m = m * weights[:, None].to(x.dtype)
    return (x * m).sum() / mask.sum().clamp(min=1)


def behaviour_weight(ratio: torch.Tensor, mode: str, cap: float) -> torch.Tensor:
    """w_t, the weight of a step in a policy-gradient loss, from its behaviour importance ratio ρ_t (π/μ or π_prox/μ).

        truncate:  w_t = min(c̄, ρ_t)                  every step kept, large ratios shrunk (Retrace, V-trace)
        mask:      w_t = ρ_t if ρ_t <= c̄, else 0       a step that far off-policy leaves the loss; the mean over the
                                                        batch's steps still counts it (AReaL's behaviour cap, c̄ > 1)
        uncapped:  w_t = ρ_t                           unbiased, unbounded variance (Hilton et al.'s decoupled PPO)

    >>> behaviour_weight(torch.tensor([0.5, 1.5, 3.0]), "mask", 2.0).tolist()
    [0.5, 1.5, 0.0]
    """
    match mode:
        case "truncate":
            return ratio.clamp(max=cap)
        case "mask":
            return torch.where(ratio <= cap, ratio, 0.0)
        case "uncapped":
            return ratio
    raise ValueError(f"behaviour weight {mode!r} is not one of truncate, mask, uncapped")


def decoupled_clipped_surrogate(log_pi: torch.Tensor, log_prox: torch.Tensor, log_mu: torch.Tensor,
                                advantages: torch.Tensor, mask: torch.Tensor, clip_eps: float,
                                is_clip: float, weighting: str = "truncate") -> tuple[torch.Tensor, dict[str, float]]:
    """Decoupled PPO's actor loss (Hilton et al. 2021), shared by PPO and GRPO, and its diagnostics.

        r_t = π_θ(a_t|s_t) / π_prox(a_t|s_t),      w_t = behaviour_weight(π_prox(a_t|s_t) / μ(a_t|s_t))
        L_π = - mean_t w_t min(r_t Â_t, clip(r_t, 1 - ε, 1 + ε) Â_t)

    Args:
        log_pi: [B, L] log π_θ of the taken actions (differentiable).
        log_prox: [B, L] log π_prox of the taken actions.
        log_mu: [B, L] log μ, the behaviour policy's.
        advantages: Â, [B, L] per step or [B, 1] per trajectory (broadcast over its steps).
        mask: [B, L] real steps.
        clip_eps: ε.
        is_clip: c̄.
        weighting: how w_t is made from π_prox / μ (`behaviour_weight`).

    Returns:
        (L_π, {"charts/clip_fraction", "charts/approx_kl", "charts/behaviour_weight_mean",
        "charts/behaviour_masked_fraction"}).
    """
    log_ratio = torch.where(mask, log_pi - log_prox, 0.0)
    ratio = torch.exp(log_ratio)
    behaviour_ratio = torch.exp(torch.where(mask, log_prox - log_mu, 0.0))
    behaviour = behaviour_weight(behaviour_ratio, weighting, is_clip)
    surrogate = torch.minimum(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages)
    actor_loss = -masked_mean(behaviour * surrogate, mask)
    m = mask.float()
    n = m.sum().clamp(min=1)
    return actor_loss, {
        "charts/clip_fraction": float((((ratio - 1).abs() > clip_eps).float() * m).sum() / n),
        "charts/approx_kl": float((((ratio - 1) - log_ratio).detach() * m).sum() / n),
        "charts/behaviour_weight_mean": float((behaviour * m).sum() / n),
        "charts/behaviour_masked_fraction": float(((behaviour_ratio > is_clip).float() * m).sum() / n)
        if weighting == "mask" else 0.0,
    }
