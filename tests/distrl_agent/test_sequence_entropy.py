"""The sequence entropy surrogates against the exact entropy of a small autoregressive categorical.

The toy policy writes up to 3 tokens from a vocabulary of 4 (id 2 ends the sequence, id 3 is never emitted), each
token's distribution depending on its position and the previous token. Every sequence can be enumerated, so H and ∇H
are exact, and so is the expectation of a surrogate's gradient over a ~ π: Σ_a π(a) ∇S(a).
"""

from __future__ import annotations

import itertools

import pytest
import torch

from distrl_agent.errors import ConfigError, DataError
from distrl_agent.policies.sequence_entropy import ENTROPY_ESTIMATES, sequence_entropy

VOCAB, EOS, NEVER, MAX_LEN = 4, 2, 3, 3


def toy_logits(seed: int) -> torch.Tensor:
    """[position, previous token (VOCAB = start), VOCAB] logits, the parameters of the toy policy."""
    return torch.randn(MAX_LEN, VOCAB + 1, VOCAB, generator=torch.Generator().manual_seed(seed)).requires_grad_()


def all_sequences() -> list[tuple[int, ...]]:
    """Every sequence the toy policy can write: it stops at EOS or after MAX_LEN tokens."""
    out = []
    for length in range(1, MAX_LEN + 1):
        for seq in itertools.product(range(NEVER), repeat=length):
            if EOS not in seq[:-1] and (seq[-1] == EOS or length == MAX_LEN):
                out.append(seq)
    return out


def teacher_forced(logits: torch.Tensor, seq: tuple[int, ...]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(log_p [1, MAX_LEN, VOCAB], tokens [1, MAX_LEN], mask [1, MAX_LEN]) of one stored sequence."""
    prev = [VOCAB, *seq[:-1]] + [0] * (MAX_LEN - len(seq))
    rows = logits[torch.arange(MAX_LEN), torch.tensor(prev)]
    rows = rows.masked_fill(torch.arange(VOCAB) == NEVER, float("-inf"))
    tokens = torch.tensor([*seq] + [0] * (MAX_LEN - len(seq)))
    return torch.log_softmax(rows, -1)[None], tokens[None], (torch.arange(MAX_LEN) < len(seq))[None]


def sequence_log_prob(logits: torch.Tensor, seq: tuple[int, ...]) -> torch.Tensor:
    log_p, tokens, mask = teacher_forced(logits, seq)
    return torch.where(mask, log_p.gather(-1, tokens[..., None]).squeeze(-1), 0.0).sum()


def test_the_toy_policy_is_a_distribution() -> None:
    logits = toy_logits(0)
    total = sum(sequence_log_prob(logits, seq).exp() for seq in all_sequences())
    assert float(total.detach()) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("estimate", ENTROPY_ESTIMATES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_expected_value_and_gradient_are_the_exact_entropy_and_its_gradient(estimate: str, seed: int) -> None:
    logits = toy_logits(seed)
    sequences = all_sequences()
    log_probs = [sequence_log_prob(logits, seq) for seq in sequences]
    exact = -sum(lp.exp() * lp for lp in log_probs)
    (exact_grad,) = torch.autograd.grad(exact, logits)
    assert exact_grad.abs().max() > 0.05  # the entropy does move with the weights

    expected_value, expected_grad = 0.0, torch.zeros_like(logits)
    for seq, lp in zip(sequences, log_probs, strict=True):
        weight = float(lp.detach().exp())  # π(a), a constant: this is E_{a~π}, not a term to differentiate
        surrogate = sequence_entropy(*teacher_forced(logits, seq), estimate=estimate)[0]
        (grad,) = torch.autograd.grad(surrogate, logits)
        expected_value += weight * float(surrogate.detach())
        expected_grad += weight * grad
    assert expected_value == pytest.approx(float(exact.detach()), rel=1e-5)
    torch.testing.assert_close(expected_grad, exact_grad, rtol=1e-4, atol=1e-6)


def test_plain_autograd_of_the_sampled_estimate_has_no_expected_gradient() -> None:
    """Why the surrogates exist: differentiating −log π(a) alone gives E∇ = 0, an entropy bonus that does nothing."""
    logits = toy_logits(0)
    expected_grad = torch.zeros_like(logits)
    for seq in all_sequences():
        lp = sequence_log_prob(logits, seq)
        (grad,) = torch.autograd.grad(-lp, logits)
        expected_grad += float(lp.detach().exp()) * grad
    assert expected_grad.abs().max() < 1e-6


def test_token_entropy_value_is_the_sum_of_per_token_entropies_along_the_sequence() -> None:
    logits = toy_logits(3)
    log_p, tokens, mask = teacher_forced(logits, (0, 1, EOS))
    per_token = -(log_p.exp() * log_p.clamp(min=-1e30)).sum(-1)
    value = float(sequence_entropy(log_p, tokens, mask)[0].detach())
    assert value == pytest.approx(float(per_token.sum().detach()), rel=1e-6)


def test_bad_estimate_or_shapes_are_refused() -> None:
    log_p, tokens, mask = teacher_forced(toy_logits(0), (0, EOS))
    with pytest.raises(ConfigError, match="estimate"):
        sequence_entropy(log_p, tokens, mask, estimate="exact")
    with pytest.raises(DataError, match=r"\[N, n, V\]"):
        sequence_entropy(log_p[0], tokens, mask)
