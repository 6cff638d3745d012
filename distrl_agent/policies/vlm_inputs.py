"""How each VLM family's inputs are made, kept by row, handed to its model, and positioned (issue 46).

`VLMPolicy` needs three things of a model family that differ between families:
- **encode**: prompts and screenshots into tensors whose first axis is the row (one screen), so that the learner can
  select the rows of a batch (`algorithms.common.policy_pass` indexes every tensor by row);
- **model kwargs**: those rows back into the inputs the model itself takes;
- **positions**: the position ids of the prompt's tokens, and of the tokens generated or scored after it.

Three kinds are supported:
- `ProcessorInputs`: Idefics3 / SmolVLM (and LLaVA-like checkpoints): the checkpoint's processor makes batch-first
  image tensors already, and positions count the unmasked tokens (1-D).
- `QwenInputs`: Qwen2-VL, Qwen2.5-VL, Qwen3-VL. Their image processor returns the patches of all images in one
  flat list ([Σ patches, D]) with each image's (t, h, w) grid, and their text model takes 3-D rotary positions
  (M-RoPE: temporal, height, width) that depend on where each image sits in the prompt. Here each row keeps its own
  patches, zero-padded to the batch's largest image ([B, P, D], `image_patches` [B] saying how many are real), and
  the model gets the flat list back. Positions come from the model's own `get_rope_index` for the prompt; a token
  after the prompt is text, at the prompt's largest position + 1 + j in all three axes, as the model itself
  continues them. The positions are computed here and passed explicitly, so the model never falls back to the
  `rope_deltas` it caches between calls (stale across batches of other prompts).
- `AutoUIInputs`: AutoUI's encoder-decoder (`autoui_model`): the prompt is text alone (its `{image}` is empty), the
  screenshot a batch-first `pixel_values` (B, C, H, W) for the vision encoder, whose features join the T5 encoder's
  output; T5's relative positions need no position ids.
The Qwen path builds its inputs from the checkpoint's tokenizer and image processor (`AutoTokenizer`,
`AutoImageProcessor`) rather than its `AutoProcessor`, which needs torchvision for its video half; it writes the
prompt's image tokens as the Qwen processors do: one `<|image_pad|>` per merged patch (grid t·h·w / merge²) between
`<|vision_start|>` and `<|vision_end|>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from distrl_agent.policies.autoui_model import TEXT_FOLDER, VISION_FOLDER

QWEN_MODEL_TYPES = frozenset({"qwen2_vl", "qwen2_5_vl", "qwen3_vl"})
"""`config.model_type`s read by `QwenInputs`."""
TEXT_KEYS = frozenset({"input_ids", "attention_mask", "token_type_ids", "goal_ids", "goal_mask"})
"""Row tensors that are text, not image inputs."""
_QWEN_KEYS = ("pixel_values", "image_patches", "image_grid_thw")


def text_positions(attention_mask: torch.Tensor) -> torch.Tensor:
    """1-D positions counting only unmasked tokens, so a left-padded row sees an unpadded row's positions."""
    return (attention_mask.long().cumsum(-1) - 1).clamp(min=0)


@dataclass
class ProcessorInputs:
    """Families whose processor makes batch-first image tensors, with 1-D positions (Idefics3 / SmolVLM)."""

    processor: Any

    @property
    def image_token(self) -> str:
        """What a prompt writes where the screenshot goes (the processor expands it)."""
        return str(self.processor.image_token)

    @property
    def tokenizer(self) -> Any:
        """The text tokenizer."""
        return self.processor.tokenizer

    def encode(self, prompts: Sequence[str], images: Sequence[np.ndarray]) -> dict[str, torch.Tensor]:
        """Left-padded `input_ids`/`attention_mask` (B, S) and the processor's image tensors, one screenshot a row."""
        batch = self.processor(text=list(prompts), images=[[image] for image in images], return_tensors="pt",
                               padding=True)
        return {k: v for k, v in batch.items() if isinstance(v, torch.Tensor) and k != "token_type_ids"}

    def model_kwargs(self, rows: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """The image tensors of `rows`, as the model takes them."""
        return {k: v for k, v in rows.items() if k not in TEXT_KEYS}

    def positions(self, base: nn.Module, rows: Mapping[str, torch.Tensor]) -> torch.Tensor:
        """(B, S) positions of the prompt tokens."""
        return text_positions(rows["attention_mask"])

    def after(self, positions: torch.Tensor, n: int) -> torch.Tensor:
        """(B, n) positions of the n tokens that follow the prompt."""
        return positions[:, -1:] + 1 + torch.arange(n, device=positions.device)

    def save(self, directory: Any) -> None:
        """Write the processor next to an exported model."""
        self.processor.save_pretrained(directory)


@dataclass
class QwenInputs:
    """Qwen2-VL / Qwen2.5-VL / Qwen3-VL inputs kept by row, with M-RoPE positions (see the module docstring)."""

    tokenizer: Any
    image_processor: Any
    merge_size: int
    image_pad: str = "<|image_pad|>"
    vision_start: str = "<|vision_start|>"
    vision_end: str = "<|vision_end|>"

    @property
    def image_token(self) -> str:
        """The screenshot's place in a prompt: start, one pad (expanded in `encode`), end."""
        return f"{self.vision_start}{self.image_pad}{self.vision_end}"

    @property
    def image_pad_id(self) -> int:
        """The id of the image pad token."""
        return int(self.tokenizer.convert_tokens_to_ids(self.image_pad))

    def encode(self, prompts: Sequence[str], images: Sequence[np.ndarray]) -> dict[str, torch.Tensor]:
        """`input_ids`/`attention_mask` (B, S) left-padded, `pixel_values` (B, P, D) zero-padded per row,
        `image_patches` (B,) real patches per row and `image_grid_thw` (B, 3).

        Raises:
            ValueError: a prompt does not hold the image pad exactly once.
        """  # noqa: D205
        processed = self.image_processor(images=list(images), return_tensors="pt")
        grid = processed["image_grid_thw"].long()
        patches = grid.prod(-1)
        texts = []
        for prompt, count in zip(prompts, (patches // self.merge_size ** 2).tolist(), strict=True):
            if prompt.count(self.image_pad) != 1:
                raise ValueError(f"a Qwen prompt must hold {self.image_pad!r} once (the screenshot), got {prompt!r}")
            texts.append(prompt.replace(self.image_pad, self.image_pad * count))
        text = self.tokenizer(texts, return_tensors="pt", padding=True)
        flat = processed["pixel_values"]
        rows = flat.new_zeros(len(texts), int(patches.max()), flat.shape[-1])
        for b, chunk in enumerate(torch.split(flat, patches.tolist())):
            rows[b, :len(chunk)] = chunk
        return {"input_ids": text["input_ids"], "attention_mask": text["attention_mask"], "pixel_values": rows,
                "image_patches": patches, "image_grid_thw": grid}

    def model_kwargs(self, rows: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """The rows' patches as the model's flat list, with their grids; {} for rows without image inputs."""
        if "pixel_values" not in rows:
            return {}
        counts = rows["image_patches"].tolist()
        flat = torch.cat([rows["pixel_values"][b, :n] for b, n in enumerate(counts)])
        return {"pixel_values": flat, "image_grid_thw": rows["image_grid_thw"]}

    def positions(self, base: nn.Module, rows: Mapping[str, torch.Tensor]) -> torch.Tensor:
        """(3, B, S) M-RoPE positions of the prompt tokens, from the model's `get_rope_index`."""
        ids, mask = rows["input_ids"], rows["attention_mask"]
        types = (ids == self.image_pad_id).int()
        positions, _ = base.get_rope_index(input_ids=ids, mm_token_type_ids=types, image_grid_thw=rows[
            "image_grid_thw"], attention_mask=mask)
        return positions

    def after(self, positions: torch.Tensor, n: int) -> torch.Tensor:
        """(3, B, n) positions of the n text tokens after the prompt: its largest position + 1 + j on every axis."""
        start = positions.amax(dim=(0, 2)) + 1  # (B,)
        following = start[:, None] + torch.arange(n, device=positions.device)
        return following[None].expand(3, -1, -1)

    def save(self, directory: Any) -> None:
        """Write the tokenizer and image processor next to an exported model."""
        self.tokenizer.save_pretrained(directory)
        self.image_processor.save_pretrained(directory)


@dataclass
class AutoUIInputs:
    """AutoUI's inputs: a text prompt for T5 and the screenshot for its vision encoder (see the module docstring)."""

    tokenizer: Any
    image_processor: Any
    image_token: str = ""  # the screenshot is not a place in the text: its features join the encoder's output

    def encode(self, prompts: Sequence[str], images: Sequence[np.ndarray]) -> dict[str, torch.Tensor]:
        """Left-padded `input_ids`/`attention_mask` (B, S) and `pixel_values` (B, C, H, W), one screenshot a row."""
        text = self.tokenizer(list(prompts), return_tensors="pt", padding=True)
        pixels = self.image_processor(images=list(images), return_tensors="pt")["pixel_values"]
        return {"input_ids": text["input_ids"], "attention_mask": text["attention_mask"], "pixel_values": pixels}

    def model_kwargs(self, rows: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """The rows' `pixel_values` (none for rows without a screenshot)."""
        return {"pixel_values": rows["pixel_values"]} if "pixel_values" in rows else {}

    def save(self, directory: Any) -> None:
        """Write the tokenizer into `text/` and the image processor into `vision/` of an AutoUI folder."""
        self.tokenizer.save_pretrained(Path(directory) / TEXT_FOLDER)
        self.image_processor.save_pretrained(Path(directory) / VISION_FOLDER)


ModelInputs = ProcessorInputs | QwenInputs | AutoUIInputs
