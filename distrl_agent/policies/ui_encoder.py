"""`UIEncoder`: goal words and UI elements -> goal-word encodings, element encodings and a state vector.

The small policy's actor heads read one; with `critic_encoder="separate"` its critic heads read a second one of the
same shape (see `SmallPolicyConfig`). Architecture (d = `hidden_dim`, w = `word_dim`):

- goal words: hashed embedding + position, a width-3 convolution for neighbour context -> c_g (w); the goal alone
  pools (mean + attention) into g (d), which feeds the instruction value V(g) and queries the elements. Screen features
  (the word is in some label / in the focused field) are added to c_g after that pooling, so V(g) never sees the screen.
- elements: box, centre, size, class embedding, flags, mean hashed-word embedding of the label, match features against
  the goal, the mean c_g of the goal words the label contains, and (`word_affinity`) a learned bilinear affinity of
  the label's words to each goal word (the attended c_g and the strongest affinity) -> MLP -> h_k (d).
- state: s = MLP([g, attention-pool of h_k queried by g, mean h_k, mean c_g]), plus, with `memory_steps`, the
  episode memory's term (`memory_encoder`).

The element MLP runs on the real elements only (`packing`); h_k is 0 on padding, which every reader masks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import torch
from torch import nn

from android_gym.spaces import ELEMENT_CLASSES, ELEMENT_FLAGS
from distrl_agent.policies.base import Inputs
from distrl_agent.policies.factorised import masked_log_softmax
from distrl_agent.policies.features import GOAL_FEATURES, LABEL_FEATURES
from distrl_agent.policies.layers import attention_pool, masked_mean, mlp
from distrl_agent.policies.memory_encoder import MemoryEncoder
from distrl_agent.policies.packing import unpack

if TYPE_CHECKING:
    from distrl_agent.policies.small_config import SmallPolicyConfig


class Encoding(NamedTuple):
    """What `UIEncoder` makes of a batch: what the policy's heads read."""

    goal_words: torch.Tensor
    """c_g (B, G, w): the goal's words in context, with screen features."""
    elements: torch.Tensor
    """h_k (B, K, d): the elements (0 on padding)."""
    state: torch.Tensor
    """s (B, d): the state, with the episode memory's term when there is a memory."""
    texts: torch.Tensor | None
    """m_j (B, M, d): the remembered texts (0 on padding), which the recall head points over; None without memory."""


class UIEncoder(nn.Module):
    """Encodes a preprocessed batch (`features.encode_observations`); see the module docstring for the layers."""

    def __init__(self, config: SmallPolicyConfig) -> None:
        super().__init__()
        w, d, g = config.word_dim, config.hidden_dim, config.max_goal_words
        self.word_embedding = nn.Embedding(config.vocab_size, w, padding_idx=0)
        self.goal_position = nn.Embedding(g, w)
        self.goal_context = nn.Conv1d(w, w, kernel_size=3, padding=1)
        self.goal_norm = nn.LayerNorm(w)
        self.goal_attention = nn.Linear(w, 1)
        self.goal_pool = mlp(2 * w, d, d)
        self.goal_screen = nn.Linear(GOAL_FEATURES, w)
        self.class_embedding = nn.Embedding(len(ELEMENT_CLASSES), config.class_dim)
        element_in = 8 + config.class_dim + len(ELEMENT_FLAGS) + w + LABEL_FEATURES + w + 1
        self.label_affinity = nn.Linear(w, w, bias=False) if config.word_affinity else None
        if self.label_affinity is not None:
            element_in += w + 1
        self.element_encoder = mlp(element_in, d, d)
        self.element_query = nn.Linear(d, d)
        self.state_encoder = mlp(3 * d + w, d, d)
        # built only with memory, so that a policy without it keeps its weights' layout
        self.memory = MemoryEncoder(config) if config.memory_steps else None

    def forward(self, inputs: Inputs) -> Encoding:
        """The batch's `Encoding`: c_g (B, G, w) with screen features, h_k (B, K, d), s (B, d), m_j (B, M, d)."""
        goal_words, goal = self.encode_goal(inputs)
        return Encoding(goal_words, *self.encode_state(inputs, goal_words, goal))

    def goal_only(self, inputs: Inputs) -> torch.Tensor:
        """The pooled goal g (B, d) from the goal words alone (reads only `goal_ids` and `goal_mask`)."""
        return self._goal_only(inputs)[1]

    def encode_goal(self, inputs: Inputs) -> tuple[torch.Tensor, torch.Tensor]:
        """(c_g (B, G, w) with screen features, g (B, d) goal only)."""
        context, goal = self._goal_only(inputs)
        mask = inputs["goal_mask"].unsqueeze(-1).to(context.dtype)
        return context + self.goal_screen(inputs["goal_features"]) * mask, goal

    def encode_state(self, inputs: Inputs, goal_words: torch.Tensor,
                     goal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """(h_k (B, K, d), s (B, d), m_j (B, M, d) or None without memory); h_k is computed on the real elements only
        and is 0 on padding (`packing`)."""  # noqa: D205, D209
        mask = inputs["element_mask"]
        real = mask.nonzero(as_tuple=True)  # the M real elements of the batch, as (row, element) index pairs
        boxes, label_ids = inputs["element_boxes"][real], inputs["label_ids"][real]
        centre, size = (boxes[:, :2] + boxes[:, 2:]) / 2, boxes[:, 2:] - boxes[:, :2]
        # the mean embedding of a label's words (id 0, padding, left out; no word: zeros), without a (M, W, w) copy
        label_bag = nn.functional.embedding_bag(label_ids, self.word_embedding.weight, mode="mean", padding_idx=0)
        match = inputs["match"]
        matched_words = ((match / match.sum(-1, keepdim=True).clamp(min=1.0)) @ goal_words)[real]
        has_word = (label_ids > 0).any(-1, keepdim=True).to(boxes.dtype)
        parts = [boxes, centre, size, self.class_embedding(inputs["element_class"][real]),
                 inputs["element_flags"][real], label_bag, inputs["label_features"][real], matched_words, has_word]
        if self.label_affinity is not None:
            keys = unpack(self.label_affinity(label_bag), real, mask.shape)
            parts += [part[real] for part in self._affinity(keys, goal_words, inputs["goal_mask"])]
        elements = unpack(self.element_encoder(torch.cat(parts, -1)), real, mask.shape)
        scores = (elements @ self.element_query(goal).unsqueeze(-1)).squeeze(-1) / math.sqrt(elements.shape[-1])
        pooled = [attention_pool(elements, scores, mask), masked_mean(elements, mask),
                  masked_mean(goal_words, inputs["goal_mask"])]
        state = self.state_encoder(torch.cat([goal, *pooled], -1))
        if self.memory is None:
            return elements, state, None
        texts = self.memory.texts(inputs, self.word_embedding.weight)  # once: the state and the recall head read them
        return elements, state + self.memory(inputs, texts, self.word_embedding.weight, goal), texts

    def _affinity(self, keys: torch.Tensor, goal_words: torch.Tensor,
                  goal_mask: torch.Tensor) -> list[torch.Tensor]:
        """Learned label-goal relatedness beyond exact word matches ("alarm" -> Clock, "dark theme" -> Display).

        Args:
            keys: (B, K, w) `label_affinity` of each element's label bag.
            goal_words: (B, G, w) c_g.
            goal_mask: (B, G) the goal's words.

        Returns [the goal words attended by the label (B, K, w), the strongest affinity (B, K, 1)]; zeros when the
        goal has no words.
        """
        affinity = keys @ goal_words.transpose(1, 2) / math.sqrt(goal_words.shape[-1])
        valid = goal_mask[:, None, :].expand_as(affinity)
        weights = masked_log_softmax(affinity, valid).exp() * goal_mask.any(1)[:, None, None].to(affinity.dtype)
        strongest = affinity.masked_fill(~valid, -torch.inf).amax(-1, keepdim=True)
        return [weights @ goal_words, torch.where(torch.isfinite(strongest), strongest, torch.zeros_like(strongest))]

    def _goal_only(self, inputs: Inputs) -> tuple[torch.Tensor, torch.Tensor]:
        """(goal-only word encodings (B, G, w), g (B, d)), computed once per distinct goal of the batch.

        Every state of a trajectory carries its goal, so a batch of ~10-step trajectories holds each goal ~10 times.
        """
        ids, mask = inputs["goal_ids"], inputs["goal_mask"]
        distinct, inverse = torch.unique(torch.cat([ids, mask.to(ids.dtype)], 1), dim=0, return_inverse=True)
        ids, mask = distinct[:, :ids.shape[1]], distinct[:, ids.shape[1]:].to(torch.bool)
        context = self._goal_context(ids, mask)
        # index_select: its gradient sums a goal's copies in a fixed order, where indexing's does not (`packing`)
        return context.index_select(0, inverse), self._pool_goal(context, mask).index_select(0, inverse)

    def _goal_context(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Goal-only word encodings (B, G, w): embedding + position + neighbour context; zero on padding."""
        m = mask.unsqueeze(-1).to(self.goal_position.weight.dtype)
        x = (self.word_embedding(ids) + self.goal_position.weight) * m
        x = x + torch.relu(self.goal_context(x.transpose(1, 2))).transpose(1, 2)
        return self.goal_norm(x) * m

    def _pool_goal(self, words_g: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Return g (B, d): the goal pooled by mean and by learned attention."""
        attended = attention_pool(words_g, self.goal_attention(words_g).squeeze(-1), mask)
        return self.goal_pool(torch.cat([masked_mean(words_g, mask), attended], -1))
