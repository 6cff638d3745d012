"""The seam between `VLMPolicy` and a backbone architecture: the `PolicyBackbone` protocol and what it returns.

Two implementations: the decoder-only `vlm_backbone.Backbone` (Idefics3, Qwen-VL) and AutoUI's encoder-decoder
`autoui_backbone.EncoderDecoderBackbone`. `VLMPolicy` acts, scores and values through these methods only, so the
policy's maths (sampling, teacher forcing, critics) is written once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import torch
from torch import nn

from distrl_agent.errors import CheckpointError


@dataclass
class ScoredTokens:
    """What teacher forcing gives: the states that predict each action token, and the prompt's for the critic.

    Attributes:
        token_hidden: (B, n, h) hidden states, column j the one the LM head reads to predict token j.
        prompt_hidden: (B, S, h) the prompt's states (decoder-only: the prompt's own; encoder-decoder: the encoder's).
        prompt_mask: (B, S) 1 where `prompt_hidden` is real.
    """

    token_hidden: torch.Tensor
    prompt_hidden: torch.Tensor
    prompt_mask: torch.Tensor


class PolicyBackbone(Protocol):
    """What `VLMPolicy` needs of a loaded checkpoint. Hidden states are what `head` reads (B, ..., hidden_size).

    Attributes:
        model: the whole network (`VLMPolicy.backbone`; its weights are the policy's).
        inputs: how prompts and screenshots become row tensors (`vlm_inputs`).
        head: the LM head, hidden states -> (…, vocab_size) logits.
        hidden_size: width of the hidden states (the critics read 2 × hidden_size features).
        vocab_size: width of the logits.
        eos_ids: ids that end an action (the first ends expert actions).
        banned_ids: ids an action never holds (masked to -inf when sampling and scoring).
    """

    model: nn.Module
    inputs: Any
    head: nn.Module
    hidden_size: int
    vocab_size: int
    eos_ids: tuple[int, ...]
    banned_ids: tuple[int, ...]

    @property
    def tokenizer(self) -> Any:
        """The text tokenizer (pads on the left)."""

    @property
    def image_token(self) -> str:
        """What a prompt's `{image}` becomes."""

    @property
    def adapted_model(self) -> nn.Module:
        """The module LoRA adapters and activation checkpointing go into."""

    def start(self, rows: dict[str, torch.Tensor], n_max: int) -> tuple[torch.Tensor, Any]:
        """Read the prompts: (B, h) states predicting each row's first action token, and the state `step` takes."""

    def step(self, state: Any, token: torch.Tensor) -> torch.Tensor:
        """Read (B,) `token`, the next one of every row: (B, h) states predicting the token after it."""

    def score_tokens(self, rows: dict[str, torch.Tensor], tokens: torch.Tensor,
                     token_mask: torch.Tensor) -> ScoredTokens:
        """Teacher forcing of (B, n) `tokens` after the prompts, with gradients."""

    def prompt_features(self, rows: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, S, h) states of the prompts (what V(s) reads) and their mask."""

    def text_features(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, G, h) states of a text alone, no image (what V(g) reads), and its mask."""


def eos_ids(model: nn.Module, tokenizer: Any) -> tuple[int, ...]:
    """The ids that end an action: the generation config's EOS ids first (the first ends expert actions), then the
    tokenizer's.

    Raises:
        CheckpointError: neither names one.
    """  # noqa: D205
    ids: list[int] = []
    for eos in (getattr(getattr(model, "generation_config", None), "eos_token_id", None), tokenizer.eos_token_id):
        for i in [eos] if isinstance(eos, int) else list(eos or ()):
            if int(i) not in ids:
                ids.append(int(i))
    if not ids:
        raise CheckpointError("the checkpoint names no EOS token (generation_config or tokenizer); an action could "
                              "never end")
    return tuple(ids)
