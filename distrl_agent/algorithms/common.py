"""What the update rules share: their result type, one forward pass of a policy over a padded `Batch` (values of every
state, log-probs and entropies of every step), masked means, importance ratios at a chosen grain, behaviour weights,
decoupled PPO's clipped surrogate, and the KL penalty to a reference policy."""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from distrl_agent.errors import DataError
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
        token_log_pi: [B, L, K] log pi_theta of each token of a sequence policy's actions (differentiable), or None.
        token_mask: [B, L, K] bool, true on each step's tokens, or None.
    """

    values: torch.Tensor
    log_pi: torch.Tensor
    entropy: torch.Tensor
    instruction_values: torch.Tensor
    token_log_pi: torch.Tensor | None = None
    token_mask: torch.Tensor | None = None


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
    token_log_pi = token_mask = None
    if out.token_log_prob is not None and out.token_mask is not None:
        k = out.token_log_prob.shape[1]
        at = (s_rows.to(dev), s_cols.to(dev))
        token_log_pi = torch.zeros(b_size, l_size, k, device=dev).index_put(at, out.token_log_prob)
        token_mask = torch.zeros(b_size, l_size, k, dtype=torch.bool, device=dev).index_put(at, out.token_mask)
    first = torch.from_numpy(np.flatnonzero(cols == 0))  # s_0 of each trajectory, in row order
    instruction_values = policy.instruction_value({k: v[first] for k, v in inputs.items()})
    return BatchPass(values, log_pi, entropy, instruction_values, token_log_pi, token_mask)


@dataclass(frozen=True)
class LogProbs:
    """Log-probabilities of a batch's stored actions, per step and (for a sequence policy) per token.

    Attributes:
        steps: [B, L] log p(a_t|s_t), the sum over the action's tokens.
        tokens: [B, L, K] log p of each token, zero after a step's tokens; None for a policy whose actions are one
            choice (then each step is one part, and every ratio level reads `steps`).
        token_mask: [B, L, K] bool, true on each step's tokens; set with `tokens`.
    """

    steps: torch.Tensor
    tokens: torch.Tensor | None = None
    token_mask: torch.Tensor | None = None

    def at_level(self, level: str, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Log p at `level`'s grain and the mask of that grain, given the batch's step `mask` [B, L].

            sequence:       [B, L]     Σ_k log p(a_t,k | s_t, a_t,<k)           (the paper's: the whole action)
            sequence_mean:  [B, L]     (1 / n_t) Σ_k log p(a_t,k | ...)        (GSPO's length-normalised sequence)
            token:          [B, L, K]  log p(a_t,k | s_t, a_t,<k)               (each token on its own)

        A difference of two of these is a log importance ratio at that grain. Without tokens every level is the
        sequence's.

        >>> lp = LogProbs(torch.tensor([[-3.0]]), torch.tensor([[[-1.0, -2.0, 0.0]]]),
        ...               torch.tensor([[[True, True, False]]]))
        >>> steps = torch.tensor([[True]])
        >>> [lp.at_level(level, steps)[0].tolist() for level in ("sequence", "sequence_mean", "token")]
        [[[-3.0]], [[-1.5]], [[[-1.0, -2.0, 0.0]]]]
        """
        if self.tokens is None or self.token_mask is None or level == "sequence":
            return self.steps, mask
        token_mask = self.token_mask & mask[..., None]
        if level == "token":
            return torch.where(token_mask, self.tokens, 0.0), token_mask
        if level == "sequence_mean":
            count = token_mask.sum(-1).clamp(min=1).to(self.steps.dtype)
            return torch.where(token_mask, self.tokens, 0.0).sum(-1) / count, mask
        raise ValueError(f"ratio level {level!r} is not one of sequence, sequence_mean, token")


def policy_log_probs(out: BatchPass) -> LogProbs:
    """The policy pass's log π, per step and per token."""
    return LogProbs(out.log_pi, out.token_log_pi, out.token_mask)


def behaviour_log_probs(batch: Batch, out: BatchPass, level: str) -> LogProbs:
    """The batch's log μ at the same grain as `out`'s log π (the token mask is the policy pass's: the same actions).

    Raises:
        DataError: `level` reads tokens, the policy scores tokens, and the batch holds no behaviour log-prob per
            token (trajectories collected before workers stored them).
    """
    if out.token_log_pi is None or level == "sequence":
        return LogProbs(batch.log_mu)
    if batch.token_log_mu is None:
        raise DataError(f"ratio level {level!r} reads each token's behaviour log-prob, and this batch's trajectories "
                        "carry none (`Trajectory.token_log_mu`); use the level 'sequence' for them")
    return LogProbs(batch.log_mu, batch.token_log_mu.to(out.token_log_pi.device), out.token_mask)


def _item(value: torch.Tensor | np.ndarray, b: int, t: int) -> np.ndarray:
    item = value[b, t]
    return item.numpy() if isinstance(item, torch.Tensor) else item


def masked_mean(x: torch.Tensor, mask: torch.Tensor, weights: torch.Tensor | None = None) -> torch.Tensor:
    """Mean of `x` over `mask` ([B, L], or [B, L, K] per token), each row weighted by `weights` ([B]) if given."""
    m = mask.to(x.dtype)
    if weights is not None:
        m = m * weights.reshape(-1, *([1] * (m.dim() - 1))).to(x.dtype)
    return (x * m).sum() / mask.sum().clamp(min=1)


def reference_log_probs(reference: Policy | None, batch: Batch, kl_coef: float, rule: str) -> LogProbs:
    """The log π_ref of the batch's stored actions, per step and per token (zero on padding), without gradients.

    Raises:
        ValueError: `reference` is None (`rule` names the rule whose `kl_coef` > 0 asked for it).
    """
    if reference is None:
        raise ValueError(f"{rule} with kl_coef {kl_coef} > 0 needs the reference policy (the learner passes its "
                         f"frozen copy)")
    with torch.no_grad():
        return policy_log_probs(policy_pass(reference, batch))


def kl_to_reference(pi: LogProbs, ref: LogProbs, mask: torch.Tensor, level: str = "sequence",
                    weights: torch.Tensor | None = None) -> torch.Tensor:
    """The k3 estimate of KL(π_θ || π_ref) at `level`'s grain (`LogProbs.at_level`): the mean over the batch's steps,
    or over their tokens at the token level (per token, as DeepSeekMath's GRPO), of r - log r - 1, r = π_ref / π_θ of
    the stored action or token (Schulman's estimator): never negative, zero where the two agree, differentiable in
    `pi`. `weights` ([B]) weigh each trajectory's terms (A-RIDE's IS weights)."""  # noqa: D205, D209
    log_pi, grain = pi.at_level(level, mask)
    log_ratio = torch.where(grain, ref.at_level(level, mask)[0] - log_pi, 0.0)
    return masked_mean(torch.exp(log_ratio) - log_ratio - 1, grain, weights)


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


def decoupled_clipped_surrogate(pi: LogProbs, prox: LogProbs, mu: LogProbs, advantages: torch.Tensor,
                                mask: torch.Tensor, clip_eps: float, is_clip: float, weighting: str = "truncate",
                                level: str = "sequence") -> tuple[torch.Tensor, dict[str, float]]:
    """Decoupled PPO's actor loss (Hilton et al. 2021), shared by PPO and GRPO, and its diagnostics.

        r = π_θ(a|s) / π_prox(a|s),      w = behaviour_weight(π_prox(a|s) / μ(a|s))
        L_π = - mean w min(r Â, clip(r, 1 - ε, 1 + ε) Â)

    at the grain `level` names (`LogProbs.at_level`): per step with the whole action's ratio (sequence), per step
    with GSPO's length-normalised ratio exp(mean_k log(π_k / π_prox,k)) (sequence_mean), or per token with each
    token's own ratios and the step's advantage, the mean taken over every token of the batch (token: DAPO's
    token-level loss). For a policy whose actions are one choice the three coincide.

    Args:
        pi: log π_θ of the taken actions (differentiable).
        prox: log π_prox of the taken actions.
        mu: log μ, the behaviour policy's.
        advantages: Â, [B, L] per step or [B, 1] per trajectory (broadcast over its steps and tokens).
        mask: [B, L] real steps.
        clip_eps: ε.
        is_clip: c̄.
        weighting: how w is made from π_prox / μ (`behaviour_weight`).
        level: "sequence", "sequence_mean" or "token".

    Returns:
        (L_π, {"charts/clip_fraction", "charts/approx_kl", "charts/behaviour_weight_mean",
        "charts/behaviour_masked_fraction"}), the charts over the level's grain (steps or tokens).
    """
    log_pi, grain = pi.at_level(level, mask)
    log_prox, log_mu = prox.at_level(level, mask)[0], mu.at_level(level, mask)[0]
    if log_pi.ndim == 3:  # per token: each token of a step shares the step's advantage
        advantages = advantages[..., None]
    mask = grain
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
