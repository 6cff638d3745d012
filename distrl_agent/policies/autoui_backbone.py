"""`EncoderDecoderBackbone`: AutoUI's encoder-decoder (`autoui_model`) behind the seam `VLMPolicy` acts through.

The same methods as the decoder-only `vlm_backbone.Backbone`, computed the encoder-decoder way:
- `start`: encode the prompt and screenshot once, E(s) (`AutoUIModel.encode`), then run the decoder on its start id;
- `step`: one more decoder token, self-attention cached, cross-attention to E(s) (its keys and values cached too);
- `score_tokens`: teacher forcing, the decoder reading [start, a_1 .. a_{n-1}] against E(s), whose column j predicts
  a_{j+1};
- `prompt_features`: E(s), masked (the critic V(s) reads its [mean, last]; the last column is the prompt's last
  token, since text follows the image features and is left-padded);
- `text_features`: the T5 encoder over a text alone (the goal, for V(g)).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from distrl_agent.errors import CheckpointError
from distrl_agent.policies.autoui_model import AutoUIModel, load_autoui_model, read_spec
from distrl_agent.policies.vlm_inputs import AutoUIInputs
from distrl_agent.policies.vlm_seam import ScoredTokens, eos_ids


@dataclass
class _Decoding:
    """An encoder-decoder generation between steps: E(s), its mask, and the decoder's cache."""

    encoded: torch.Tensor
    mask: torch.Tensor
    cache: Any


@dataclass
class EncoderDecoderBackbone:
    """The pieces of a loaded AutoUI folder that `VLMPolicy` uses (see `vlm_backbone.Backbone` for the fields).

    Attributes:
        model: the `AutoUIModel` (T5 LoRA-injected in place when `attach_lora` ran on `adapted_model`).
        inputs: the tokenizer (left padding) and the vision encoder's image processor.
        head: T5's LM head, reading `AutoUIModel.decode`'s scaled states.
        hidden_size: T5's d_model.
        vocab_size: width of the LM head's logits.
        eos_ids: ids that end a generated action.
        banned_ids: ids an action never contains (those past the tokenizer); masked to -inf.
        decoder_start_id: the id the decoder reads first (T5's `decoder_start_token_id`, its pad).
    """

    model: AutoUIModel
    inputs: AutoUIInputs
    head: nn.Module
    hidden_size: int
    vocab_size: int
    eos_ids: tuple[int, ...]
    banned_ids: tuple[int, ...]
    decoder_start_id: int

    @property
    def tokenizer(self) -> Any:
        """The text tokenizer."""
        return self.inputs.tokenizer

    @property
    def image_token(self) -> str:
        """Empty: the screenshot's features join the encoder's output, not the text."""
        return self.inputs.image_token

    @property
    def adapted_model(self) -> nn.Module:
        """The module LoRA adapters and activation checkpointing go into: the T5 (the projection keeps training, the
        vision encoder keeps its setting)."""  # noqa: D205, D209
        return self.model.text

    def _start_ids(self, rows: int, device: torch.device) -> torch.Tensor:
        return torch.full((rows, 1), self.decoder_start_id, dtype=torch.long, device=device)

    def start(self, rows: dict[str, torch.Tensor], n_max: int) -> tuple[torch.Tensor, _Decoding]:
        """Encode the rows: (B, h) decoder states predicting the first action token, and the state `step` continues.

        `n_max` (the longest action) is not needed: T5 positions are relative.
        """
        encoded, mask = self.prompt_features(rows)
        hidden, cache = self.model.decode(self._start_ids(encoded.shape[0], encoded.device), encoded, mask,
                                          use_cache=True)
        return hidden[:, -1], _Decoding(encoded, mask, cache)

    def step(self, state: _Decoding, token: torch.Tensor) -> torch.Tensor:
        """Read (B,) `token`, the next one of every row: (B, h) states predicting the token after it."""
        hidden, state.cache = self.model.decode(token[:, None], state.encoded, state.mask, cache=state.cache,
                                                use_cache=True)
        return hidden[:, -1]

    def score_tokens(self, rows: dict[str, torch.Tensor], tokens: torch.Tensor,
                     token_mask: torch.Tensor) -> ScoredTokens:
        """Teacher forcing of (B, n) `tokens`; padding after a row's tokens is never read by its earlier columns
        (causal self-attention), so `token_mask` is not needed here."""  # noqa: D205, D209
        encoded, mask = self.prompt_features(rows)
        decoder_ids = torch.cat([self._start_ids(tokens.shape[0], tokens.device), tokens[:, :-1]], 1)
        hidden, _ = self.model.decode(decoder_ids, encoded, mask)
        return ScoredTokens(hidden, encoded, mask)

    def prompt_features(self, rows: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """E(s) (B, P + S, h) of the rows' screenshots and prompts, and its mask."""
        return self.model.encode(rows["input_ids"], rows["attention_mask"], rows.get("pixel_values"))

    def text_features(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, G, h) T5 encoder states of a text alone (no image) and its mask."""
        return self.model.encode(ids, mask)


def load_autoui_backbone(directory: Path, dtype: torch.dtype = torch.float32,
                         device: str | torch.device = "cpu") -> EncoderDecoderBackbone:
    """Load the AutoUI folder `directory` (`autoui_model`) with its tokenizer and image processor.

    Raises:
        CheckpointError: the folder is malformed (`autoui_model.load_autoui_model`), or lacks the tokenizer in its
            text part or the image processor in its vision part.
    """
    from transformers import AutoImageProcessor, AutoTokenizer

    spec = read_spec(directory)
    model = load_autoui_model(directory, dtype)
    try:
        tokenizer = AutoTokenizer.from_pretrained(directory / spec["text"], local_files_only=True)
        image_processor = AutoImageProcessor.from_pretrained(directory / spec["vision"], local_files_only=True)
    except (ValueError, KeyError, OSError) as exc:
        raise CheckpointError(f"the AutoUI folder {str(directory)!r} lacks the tokenizer (in `{spec['text']}`) or the "
                              f"image processor (in `{spec['vision']}`): {exc}") from exc
    tokenizer.padding_side = "left"
    head = model.get_output_embeddings()
    start = model.text.config.decoder_start_token_id
    if start is None:
        raise CheckpointError(f"the T5 config in {str(directory / spec['text'])!r} names no `decoder_start_token_id`")
    model.to(device)
    return EncoderDecoderBackbone(
        model=model, inputs=AutoUIInputs(tokenizer, image_processor), head=head, hidden_size=model.d_model,
        vocab_size=int(head.out_features), eos_ids=eos_ids(model.text, tokenizer),
        banned_ids=tuple(range(len(tokenizer), int(head.out_features))), decoder_start_id=int(start))
