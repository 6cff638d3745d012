"""The small policy's factorised action distribution: a mode, an element to tap or to answer with, a goal span to type.

    π(a|s) = p(mode) · p(element)^[mode=TAP] · q(element)^[mode=ANSWER] · (p(start) · p(length | start))^[mode=TYPE]

where q is the same element logits over the elements that carry text (an answer is an element's text).
With `copy_from_screen` (issue 50) TYPE first chooses its source, and the TYPE factor becomes

    p(source) · (p(start) · p(length | start))^[source=GOAL] · c(element)^[source=SCREEN] · r(slot)^[source=MEMORY]

(c: a pointer over the on-screen elements with text; r: over the texts remembered from earlier screens), whose
entropy term is H(source) + p(GOAL) H_span + p(SCREEN) H(c) + p(MEMORY) H(r). So
log π = log p(mode) + 1[TAP] log p(element) + 1[ANSWER] log q(element) + 1[TYPE] (log p(start) + log p(length | start)),
and the entropy of the joint action, computed exactly (the unused factors are not part of the action), is

    H = H(mode) + p(TAP) H(element) + p(ANSWER) H(q) + p(TYPE) (H(start) + Σ_s p(s) H(length | s)).

Invalid choices get the logit `NEG_LOGIT` instead of −inf: their probability underflows to exactly 0, and
0 · log p stays 0 instead of NaN, so entropies are finite even when a single option is valid, or none (a head
whose every option is masked is uniform, and then its mode is masked too, so it never counts).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from distrl_agent.policies.modes import Mode, Source  # defined torch-free there; still importable from here

NEG_LOGIT = -1e9
"""Logit of an impossible choice (a large negative number, not −inf, so that no NaN can arise)."""

ACTION_KEYS = ("mode", "element", "span_start", "span_length")
"""The fields of a small-policy action; `span_length` is in words (1..max_span_length), the others are indices."""
COPY_ACTION_KEYS = (*ACTION_KEYS, "type_source", "memory_slot")
"""The fields with `copy_from_screen`: `type_source` is a `Source`, `memory_slot` a remembered text's row."""


@dataclass(frozen=True)
class CopyTables:
    """Masked log-probability tables of TYPE's source and of the texts it can copy (`copy_from_screen`).

    Attributes:
        log_p_source: (B, 3) log p(source), a `Source` per column.
        log_p_copy: (B, K) log c(element) over the on-screen elements with text.
        log_p_recall: (B, M) log r(slot) over the remembered texts (a single impossible column without memory).
    """

    log_p_source: torch.Tensor
    log_p_copy: torch.Tensor
    log_p_recall: torch.Tensor

    def rows(self, index: torch.Tensor) -> CopyTables:
        """The tables of rows `index` (B',)."""
        return CopyTables(*(t.index_select(0, index) for t in (self.log_p_source, self.log_p_copy, self.log_p_recall)))


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
        copy: TYPE's source and copy pointers (`copy_from_screen`), or None: TYPE types a goal span.
    """

    log_p_mode: torch.Tensor
    log_p_element: torch.Tensor
    log_p_start: torch.Tensor
    log_p_length: torch.Tensor
    log_p_answer: torch.Tensor
    copy: CopyTables | None = None

    def rows(self, index: torch.Tensor) -> FactorisedDistribution:
        """The distribution of rows `index` (B',) of this one: each table's rows, gathered (differentiable; repeated
        rows' gradients add up in a fixed order)."""  # noqa: D205, D209
        return FactorisedDistribution(*(table.index_select(0, index) for table in (
            self.log_p_mode, self.log_p_element, self.log_p_start, self.log_p_length, self.log_p_answer)),
            copy=None if self.copy is None else self.copy.rows(index))

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
        if self.copy is not None:
            log_p_type = self._log_p_copy_type(actions, element, log_p_type)
        zero = torch.zeros_like(log_p)
        return (log_p + torch.where(mode == Mode.TAP, log_p_tap, zero)
                + torch.where(mode == Mode.ANSWER, log_p_answer, zero)
                + torch.where(mode == Mode.TYPE, log_p_type, zero))

    def _log_p_copy_type(self, actions: dict[str, torch.Tensor], element: torch.Tensor,
                         log_p_span: torch.Tensor) -> torch.Tensor:
        """Return log p(source) plus the chosen source's own factor (span, copied element or recalled text)."""
        assert self.copy is not None
        source = actions["type_source"].long().clamp(0, len(Source) - 1)
        slot = actions["memory_slot"].long().clamp(0, self.copy.log_p_recall.shape[1] - 1)
        log_p_source = self.copy.log_p_source.gather(1, source[:, None]).squeeze(1)
        log_p_copy = self.copy.log_p_copy.gather(1, element[:, None]).squeeze(1)
        log_p_recall = self.copy.log_p_recall.gather(1, slot[:, None]).squeeze(1)
        return log_p_source + torch.where(source == Source.GOAL, log_p_span,
                                          torch.where(source == Source.SCREEN, log_p_copy, log_p_recall))

    def entropy(self) -> torch.Tensor:
        """Exact entropy H(π(·|s)) of the joint action in nats (B,), differentiable."""
        p_mode = self.log_p_mode.exp()
        h_length = categorical_entropy(self.log_p_length)  # (B, G): H(length | start = s)
        h_span = categorical_entropy(self.log_p_start) + (self.log_p_start.exp() * h_length).sum(-1)
        if self.copy is not None:
            p_source = self.copy.log_p_source.exp()
            h_span = (categorical_entropy(self.copy.log_p_source) + p_source[:, Source.GOAL] * h_span
                      + p_source[:, Source.SCREEN] * categorical_entropy(self.copy.log_p_copy)
                      + p_source[:, Source.MEMORY] * categorical_entropy(self.copy.log_p_recall))
        return (categorical_entropy(self.log_p_mode) + p_mode[:, Mode.TAP] * categorical_entropy(self.log_p_element)
                + p_mode[:, Mode.ANSWER] * categorical_entropy(self.log_p_answer) + p_mode[:, Mode.TYPE] * h_span)

    def sample(self, deterministic: bool = False,
               generator: torch.Generator | None = None) -> dict[str, torch.Tensor]:
        """Draw one action per row (every field is drawn; the mode says which ones count).

        Args:
            deterministic: take the most likely value of each factor (length given the chosen start) instead.
            generator: the random generator to sample with; None uses torch's global one.

        Returns:
            `ACTION_KEYS` (`COPY_ACTION_KEYS` with `copy`) -> (B,) int64 tensors.
        """
        mode = _draw(self.log_p_mode, deterministic, generator)
        element = _draw(self.log_p_element, deterministic, generator)
        start = _draw(self.log_p_start, deterministic, generator)
        rows = torch.arange(mode.shape[0], device=mode.device)
        length = _draw(self.log_p_length[rows, start], deterministic, generator) + 1
        answer = _draw(self.log_p_answer, deterministic, generator)  # drawn last: earlier draws keep their stream
        element = torch.where(mode == Mode.ANSWER, answer, element)
        actions = {"mode": mode, "element": element, "span_start": start, "span_length": length}
        if self.copy is None:
            return actions
        source = _draw(self.copy.log_p_source, deterministic, generator)  # after the others: their stream is kept
        copied = _draw(self.copy.log_p_copy, deterministic, generator)
        slot = _draw(self.copy.log_p_recall, deterministic, generator)
        copying = (mode == Mode.TYPE) & (source == Source.SCREEN)
        return {**actions, "element": torch.where(copying, copied, element), "type_source": source,
                "memory_slot": slot}
