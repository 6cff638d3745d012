"""`MemoryEncoder`: the episode memory (`episode_memory`) -> remembered-text encodings and a term added to the state.

Architecture (d = `hidden_dim`, w = `word_dim`; the word embedding is the `UIEncoder`'s):

- each of the last k actions: mode embedding + position (how many steps ago) + a projection of the mean embedding of
  the words it acted with -> ReLU; mean over the actions the episode has had -> a (d);
- each remembered text: [mean word embedding, its goal-match features] -> MLP -> m_j (d), which the recall head
  points over; pooled by attention queried by the goal g -> r (d);
- the state gains W [a; r]: s' = s + W [a; r], so what the policy did and saw tells apart screens that look alike.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch
from torch import nn

from distrl_agent.policies.base import Inputs
from distrl_agent.policies.features import MEMORY_FEATURES
from distrl_agent.policies.layers import attention_pool, masked_mean, mlp
from distrl_agent.policies.modes import Mode
from distrl_agent.policies.packing import distinct_rows, unpack

if TYPE_CHECKING:
    from distrl_agent.policies.small_config import SmallPolicyConfig


class MemoryEncoder(nn.Module):
    """Encodes `features.encode_memory` outputs; see the module docstring for the layers."""

    def __init__(self, config: SmallPolicyConfig) -> None:
        super().__init__()
        w, d = config.word_dim, config.hidden_dim
        self.mode_embedding = nn.Embedding(len(Mode) + 1, d, padding_idx=0)
        self.step_embedding = nn.Embedding(config.memory_steps, d)
        self.action_words = nn.Linear(w, d)
        self.text_encoder = mlp(w + MEMORY_FEATURES, d, d)
        self.text_query = nn.Linear(d, d)
        self.to_state = nn.Linear(2 * d, d)

    def texts(self, inputs: Inputs, word_embedding: torch.Tensor) -> torch.Tensor:
        """m_j (B, M, d): the remembered texts' encodings (0 where `memory_mask` is False).

        Each distinct (words, goal-match features) pair of the batch is encoded once (`packing`): the steps of an
        episode remember mostly the same texts, so a learner's batch of World trajectories holds each ~10 times, and
        the padding (most of the M slots early in an episode) is not encoded at all.
        """
        mask = inputs["memory_mask"]
        real = mask.nonzero(as_tuple=True)
        rows = {"ids": inputs["memory_ids"][real], "features": inputs["memory_features"][real]}
        distinct = distinct_rows(rows)
        texts, inverse = distinct if distinct is not None else (rows, None)
        bag = nn.functional.embedding_bag(texts["ids"], word_embedding, mode="mean", padding_idx=0)
        encoded = self.text_encoder(torch.cat([bag, texts["features"].to(bag.dtype)], -1))
        if inverse is not None:
            encoded = encoded.index_select(0, inverse)
        return unpack(encoded, real, mask.shape)

    def forward(self, inputs: Inputs, texts: torch.Tensor, word_embedding: torch.Tensor,
                goal: torch.Tensor) -> torch.Tensor:
        """The term W [a; r] (B, d) added to the state s, from the remembered texts' encodings `texts` (`texts()`)."""
        modes, ids = inputs["history_mode"], inputs["history_ids"]
        b, k, n_words = ids.shape
        bag = nn.functional.embedding_bag(ids.reshape(b * k, n_words), word_embedding, mode="mean",
                                          padding_idx=0).reshape(b, k, -1)
        steps = torch.relu(self.mode_embedding(modes) + self.step_embedding.weight + self.action_words(bag))
        actions = masked_mean(steps, modes > 0)
        scores = (texts @ self.text_query(goal).unsqueeze(-1)).squeeze(-1) / math.sqrt(texts.shape[-1])
        recalled = attention_pool(texts, scores, inputs["memory_mask"])
        return self.to_state(torch.cat([actions, recalled], -1))
