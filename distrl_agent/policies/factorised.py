"""The small policy's factorised action distribution: a mode, an element to tap or to answer with, a goal span to type.

    π(a|s) = p(mode) · p(element)^[mode=TAP] · q(element)^[mode=ANSWER] · (p(start) · p(length | start))^[mode=TYPE]

where q is the same element logits over the elements that carry text (an answer is an element's text). So
log π = log p(mode) + 1[TAP] log p(element) + 1[ANSWER] log q(element) + 1[TYPE] (log p(start) + log p(length | start)),
and the entropy of the joint action, computed exactly (the unused factors are not part of the action), is

    H = H(mode) + p(TAP) H(element) + p(ANSWER) H(q) + p(TYPE) (H(start) + Σ_s p(s) H(length | s)).

Invalid choices get the logit `NEG_LOGIT` instead of −inf: their probability underflows to exactly 0, and
0 · log p stays 0 instead of NaN, so entropies are finite even when a single option is valid, or none (a head
whose every option is masked is uniform, and then its mode is masked too, so it never counts).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import torch

NEG_LOGIT = -1e9
"""Logit of an impossible choice (a large negative number, not −inf, so that no NaN can arise)."""


class Mode(enum.IntEnum):
    """What the small policy does this step; the integers index the mode head."""

    TAP = 0
    TYPE = 1
    BACK = 2
    HOME = 3
    ENTER = 4
    SCROLL_DOWN = 5  # the finger moves up: the content moves up and reveals what is below
    SCROLL_UP = 6
    WAIT = 7
    ANSWER = 8  # declare the task complete, answering with the chosen element's text
    IMPOSSIBLE = 9  # declare the task impossible


ACTION_KEYS = ("mode", "element", "span_start", "span_length")
"""The fields of a small-policy action; `span_length` is in words (1..max_span_length), the others are indices."""


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """log-softmax over the last axis with `mask == False` entries made impossible.

    >>> lp = masked_log_softmax(torch.zeros(1, 3), torch.tensor([[True, True, False]]))
    >>> [round(p, 3) for p in lp.exp()[0].tolist()]
    [0.5, 0.5, 0.0]
    """
    return torch.log_softmax(logits.masked_fill(~mask, NEG_LOGIT), dim=-1)


def categorical_entropy(log_p: torch.Tensor) -> torch.Tensor:
    """Entropy in nats over the last axis of a (masked) log-probability table; finite when entries are impossible.

    >>> round(float(categorical_entropy(masked_log_softmax(torch.zeros(4), torch.tensor([1, 1, 0, 0]).bool()))), 4)
    0.6931
    """
    return -(log_p.exp() * log_p).sum(-1)


def _draw(log_p: torch.Tensor, deterministic: bool, generator: torch.Generator | None) -> torch.Tensor:
    """One index per row of a (B, N) log-probability table: the argmax, or a sample."""
    if deterministic:
        return log_p.argmax(-1)
    return torch.multinomial(log_p.exp(), 1, generator=generator).squeeze(-1)


@dataclass(frozen=True)
class FactorisedDistribution:
    """Masked log-probability tables of every factor of the action.

    Attributes:
        log_p_mode: (B, M) log p(mode).
        log_p_element: (B, K) log p(element), used when mode is TAP.
        log_p_start: (B, G) log p(start), used when mode is TYPE.
        log_p_length: (B, G, L) log p(length = l + 1 | start = s), used when mode is TYPE.
        log_p_answer: (B, K) log q(element), over the elements with text, used when mode is ANSWER.
    """

    log_p_mode: torch.Tensor
    log_p_element: torch.Tensor
    log_p_start: torch.Tensor
    log_p_length: torch.Tensor
    log_p_answer: torch.Tensor

    def rows(self, index: torch.Tensor) -> FactorisedDistribution:
        """The distribution of rows `index` (B',) of this one: each table's rows, gathered (differentiable; repeated
        rows' gradients add up in a fixed order)."""  # noqa: D205, D209
        return FactorisedDistribution(*(table.index_select(0, index) for table in (
            self.log_p_mode, self.log_p_element, self.log_p_start, self.log_p_length, self.log_p_answer)))

    def log_prob(self, actions: dict[str, torch.Tensor]) -> torch.Tensor:
        """Return log π(a|s) of a batch of actions (B,), differentiable; unused fields of an action are ignored.

        Args:
            actions: `ACTION_KEYS` -> (B,) int64 tensors.
        """
        mode = actions["mode"].long()
        log_p = self.log_p_mode.gather(1, mode[:, None]).squeeze(1)
        element = actions["element"].long().clamp(0, self.log_p_element.shape[1] - 1)
        log_p_tap = self.log_p_element.gather(1, element[:, None]).squeeze(1)
        log_p_answer = self.log_p_answer.gather(1, element[:, None]).squeeze(1)
        start = actions["span_start"].long().clamp(0, self.log_p_start.shape[1] - 1)
        length_index = (actions["span_length"].long() - 1).clamp(0, self.log_p_length.shape[2] - 1)
        rows = torch.arange(mode.shape[0], device=mode.device)
        log_p_type = self.log_p_start[rows, start] + self.log_p_length[rows, start, length_index]
        zero = torch.zeros_like(log_p)
        return (log_p + torch.where(mode == Mode.TAP, log_p_tap, zero)
                + torch.where(mode == Mode.ANSWER, log_p_answer, zero)
                + torch.where(mode == Mode.TYPE, log_p_type, zero))

    def entropy(self) -> torch.Tensor:
        """Exact entropy H(π(·|s)) of the joint action in nats (B,), differentiable."""
        p_mode = self.log_p_mode.exp()
        h_length = categorical_entropy(self.log_p_length)  # (B, G): H(length | start = s)
        h_span = categorical_entropy(self.log_p_start) + (self.log_p_start.exp() * h_length).sum(-1)
        return (categorical_entropy(self.log_p_mode) + p_mode[:, Mode.TAP] * categorical_entropy(self.log_p_element)
                + p_mode[:, Mode.ANSWER] * categorical_entropy(self.log_p_answer) + p_mode[:, Mode.TYPE] * h_span)

    def sample(self, deterministic: bool = False,
               generator: torch.Generator | None = None) -> dict[str, torch.Tensor]:
        """Draw one action per row (every field is drawn; the mode says which ones count).

        Args:
            deterministic: take the most likely value of each factor (length given the chosen start) instead.
            generator: the random generator to sample with; None uses torch's global one.

        Returns:
            `ACTION_KEYS` -> (B,) int64 tensors.
        """
        mode = _draw(self.log_p_mode, deterministic, generator)
        element = _draw(self.log_p_element, deterministic, generator)
        start = _draw(self.log_p_start, deterministic, generator)
        rows = torch.arange(mode.shape[0], device=mode.device)
        length = _draw(self.log_p_length[rows, start], deterministic, generator) + 1
        answer = _draw(self.log_p_answer, deterministic, generator)  # drawn last: earlier draws keep their stream
        element = torch.where(mode == Mode.ANSWER, answer, element)
        return {"mode": mode, "element": element, "span_start": start, "span_length": length}
