"""Entropy terms for policies over token sequences whose gradient, in expectation over a ~ π, is ∇H(π).

The entropy of a distribution over sequences, H = −Σ_a π(a) log π(a), is intractable; what a learner can afford is a
per-sequence term S(a) on the stored actions. The value of S(a) estimates H, and its gradient must estimate ∇H, which
is the part an entropy bonus acts through. Differentiating the value alone does not do that:
∇(−log π(a)) has expectation 0 under a ~ π (Σ_a π ∇log π = ∇Σ_a π = 0), so "−log π(a) with autograd" adds nothing to
the gradient. With ∇H = −Σ_a log π(a) ∇π(a) = E_a[−log π(a) ∇log π(a)] (score function), the two estimates are:

    "neg_log_prob":  value −log π(a);   gradient −log π(a) ∇log π(a)
    "token_entropy": value Σ_j H_j,     gradient Σ_j ∇H_j + Σ_i ∇log π(a_i|a_<i) · Σ_{j>i} H_j

where H_j = H(π(·|s, a_<j)) is the exact entropy of token j's distribution given the stored prefix. The second follows
from H = E_a[Σ_j H_j] (the chain rule of entropy; positions after the sequence's end count 0): its gradient is
E[Σ_j ∇H_j] plus the score term E[Σ_j H_j ∇log π(a)], in which only the tokens before j can move H_j (a later token's
score has expectation 0 given the prefix). It has the lower variance of the two. Both are written as surrogates: their
values are the estimates above, and autograd gives the gradients above (x − stopgrad(x) is 0 in value, ∇x in gradient).
"""

from __future__ import annotations

import torch

from distrl_agent.errors import ConfigError, DataError

ENTROPY_ESTIMATES = ("neg_log_prob", "token_entropy")


def sequence_entropy(log_p: torch.Tensor, tokens: torch.Tensor, token_mask: torch.Tensor,
                     estimate: str = "token_entropy") -> torch.Tensor:
    """The entropy surrogate S(a) of each stored sequence, [N]: its value estimates H, its gradient ∇H.

    Args:
        log_p: [N, n, V] log-probabilities of every vocabulary entry at each of the n positions, given the stored
            prefix (teacher forcing); entries the policy can never emit are -inf or very negative.
        tokens: [N, n] int64 stored token ids (any value on padding).
        token_mask: [N, n] bool, true on the sequence's real tokens.
        estimate: "token_entropy" or "neg_log_prob" (see the module docstring).

    Raises:
        ConfigError: an unknown `estimate`.
        DataError: shapes that do not match.
    """
    if estimate not in ENTROPY_ESTIMATES:
        raise ConfigError(f"`estimate` must be one of {ENTROPY_ESTIMATES}, got {estimate!r}")
    if log_p.ndim != 3 or tuple(tokens.shape) != tuple(log_p.shape[:2]) or tokens.shape != token_mask.shape:
        raise DataError(f"`log_p` must be [N, n, V] with `tokens` and `token_mask` [N, n]; got {tuple(log_p.shape)}, "
                        f"{tuple(tokens.shape)} and {tuple(token_mask.shape)}")
    token_log_p = torch.where(token_mask, log_p.gather(-1, tokens[..., None]).squeeze(-1), 0.0)
    score = token_log_p - token_log_p.detach()  # 0 in value, ∇log π(a_j|a_<j) in gradient
    if estimate == "neg_log_prob":
        log_prob = token_log_p.sum(1).detach()
        return -log_prob - log_prob * score.sum(1)
    # 0·log 0 = 0: clamp -inf (masked vocabulary entries) before multiplying by their zero probability
    per_token = -(log_p.exp() * log_p.clamp(min=torch.finfo(log_p.dtype).min)).sum(-1)
    per_token = torch.where(token_mask, per_token, 0.0)
    later = per_token.detach().flip(1).cumsum(1).flip(1) - per_token.detach()  # Σ_{j>i} H_j
    return per_token.sum(1) + (score * later).sum(1)
