"""`AutoUIModel`: AutoUI's encoder-decoder network (T5 reading a vision encoder's features), and its model folder.

AutoUI (Zhan & Zhang, arXiv 2309.11436), the policy of DistRL and DigiRL: a T5 encoder reads the text (goal and
previous actions), a frozen vision encoder reads the screenshot, and its patch features, projected to T5's width,
join the encoder's output; the T5 decoder cross-attends to both and writes the action text. Here the projected
patches are prepended to the encoder's hidden states:
    E(s) = [W·vision(screen) + b ; T5Encoder(text)]          (B, P + S, d_model),
with mask [1..1 ; text mask], and the decoder reads E(s) as T5's decoder reads its encoder's output.

The model folder loads without executing code (safetensors and JSON only):
    autoui.json               {"format": "autoui", "format_version": 1, "text": "text", "vision": "vision",
                               "projection": "projection.safetensors", "freeze_vision": true}
    text/                     `T5ForConditionalGeneration.save_pretrained` + its tokenizer
    vision/                   a transformers vision encoder (`SiglipVisionModel`, `CLIPVisionModel`) + image processor
    projection.safetensors    `weight` (d_model, vision width) and `bias` (d_model,)
`AutoUIModel.save_pretrained(directory)` writes the model's part of it; `vlm_inputs.AutoUIInputs.save` the tokenizer
and image processor.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file, save_file
from torch import nn

from distrl_agent.errors import CheckpointError

AUTOUI_FILE = "autoui.json"
"""The file that marks a model folder as AutoUI's and names its parts."""
AUTOUI_FORMAT = {"format": "autoui", "format_version": 1}
TEXT_FOLDER, VISION_FOLDER, PROJECTION_FILE = "text", "vision", "projection.safetensors"
VISION_MODELS = ("SiglipVisionModel", "CLIPVisionModel")
"""Vision encoder classes tested as AutoUI's image reader (any `*VisionModel` returning `last_hidden_state` loads)."""


class AutoUIModel(nn.Module):
    """T5 + a vision encoder + a linear projection between them (see the module docstring).

    Attributes:
        text: the `T5ForConditionalGeneration` (encoder, decoder, LM head).
        vision: the vision encoder; frozen (no gradients, run without autograd) when `is_vision_frozen`.
        projection: vision width -> d_model.
        is_vision_frozen: AutoUI's setting (True): only the projection and T5 train.
    """

    def __init__(self, text: nn.Module, vision: nn.Module, projection: nn.Linear,
                 is_vision_frozen: bool = True) -> None:
        super().__init__()
        self.text, self.vision, self.projection = text, vision, projection
        self.is_vision_frozen = is_vision_frozen
        self.vision.requires_grad_(not is_vision_frozen)
        # the decoder's cache keyword: `cache` in transformers 5, `past_key_values` before
        parameters = inspect.signature(text.decoder.forward).parameters
        self._cache_argument = "cache" if "cache" in parameters else "past_key_values"

    @property
    def d_model(self) -> int:
        """Width of T5's hidden states."""
        return int(self.text.config.d_model)

    def get_output_embeddings(self) -> nn.Module:
        """T5's LM head (vocabulary logits of the decoder's scaled hidden states, see `decode`)."""
        return self.text.get_output_embeddings()

    def image_features(self, pixel_values: torch.Tensor) -> torch.Tensor:
        """(B, P, d_model) projected patch features of (B, C, H, W) images (no autograd through a frozen encoder)."""
        with torch.set_grad_enabled(torch.is_grad_enabled() and not self.is_vision_frozen):
            dtype = next(self.vision.parameters()).dtype
            patches = self.vision(pixel_values=pixel_values.to(dtype)).last_hidden_state
        return self.projection(patches)

    def encode(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
               pixel_values: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """E(s) (B, P + S, d_model) and its mask (B, P + S): image features (if any) before the T5 encoder's states.

        The text comes last, so a left-padded prompt's last column is its last token.
        """
        hidden = self.text.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        if pixel_values is None:
            return hidden, attention_mask
        image = self.image_features(pixel_values).to(hidden.dtype)
        image_mask = attention_mask.new_ones(image.shape[:2])
        return torch.cat([image, hidden], 1), torch.cat([image_mask, attention_mask], 1)

    def decode(self, decoder_ids: torch.Tensor, encoded: torch.Tensor, encoded_mask: torch.Tensor,
               cache: Any = None, use_cache: bool = False) -> tuple[torch.Tensor, Any]:
        """The decoder's hidden states (B, n, d_model) as the LM head reads them, and the cache.

        `decoder_ids` are the n tokens after those in `cache` (the first is the decoder start id); causal attention
        over them, cross-attention to `encoded` where `encoded_mask` is 1. T5 scales the states by d_model^-0.5
        before a tied LM head, as `T5ForConditionalGeneration.forward` does.
        """
        out = self.text.decoder(input_ids=decoder_ids, encoder_hidden_states=encoded,
                                encoder_attention_mask=encoded_mask, use_cache=use_cache,
                                **{self._cache_argument: cache})
        hidden = out.last_hidden_state
        if getattr(self.text.config, "scale_decoder_outputs", self.text.config.tie_word_embeddings):
            hidden = hidden * self.d_model ** -0.5
        return hidden, getattr(out, self._cache_argument, None)

    def save_pretrained(self, directory: str | Path) -> None:
        """Write `autoui.json`, `text/`, `vision/` and `projection.safetensors` into `directory` (created)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.text.save_pretrained(directory / TEXT_FOLDER)
        self.vision.save_pretrained(directory / VISION_FOLDER)
        save_file({k: v.detach().contiguous().clone() for k, v in self.projection.state_dict().items()},
                  str(directory / PROJECTION_FILE))
        spec = {**AUTOUI_FORMAT, "text": TEXT_FOLDER, "vision": VISION_FOLDER, "projection": PROJECTION_FILE,
                "freeze_vision": self.is_vision_frozen}
        (directory / AUTOUI_FILE).write_text(json.dumps(spec, indent=2) + "\n")


def read_spec(directory: Path) -> dict[str, Any]:
    """The parsed `autoui.json` of `directory`, its part names checked to be plain names inside the folder.

    Raises:
        CheckpointError: the file is not JSON of the AutoUI format, or a part is missing or not a plain name.
    """
    path = directory / AUTOUI_FILE
    try:
        spec = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"{str(path)!r} is not readable JSON: {exc}") from exc
    if not isinstance(spec, dict) or spec.get("format") != AUTOUI_FORMAT["format"]:
        raise CheckpointError(f"{str(path)!r} must hold {AUTOUI_FORMAT} and the parts' names, got {spec!r:.200}")
    if spec.get("format_version") != AUTOUI_FORMAT["format_version"]:
        raise CheckpointError(f"{str(path)!r} has `format_version` {spec.get('format_version')!r}; this version "
                              f"reads {AUTOUI_FORMAT['format_version']}")
    for key in ("text", "vision", "projection"):
        name = spec.get(key)
        if not isinstance(name, str) or not name or Path(name).name != name or name in (".", ".."):
            raise CheckpointError(f"{str(path)!r}: `{key}` must name a file or folder inside {str(directory)!r}, "
                                  f"got {name!r}")
        if not (directory / name).exists():
            raise CheckpointError(f"{str(path)!r} names `{key}` {name!r}, which {str(directory)!r} lacks")
    if not isinstance(spec.get("freeze_vision", True), bool):
        raise CheckpointError(f"{str(path)!r}: `freeze_vision` must be true or false, got {spec['freeze_vision']!r}")
    return spec


def load_autoui_model(directory: Path, dtype: torch.dtype = torch.float32) -> AutoUIModel:
    """Load the AutoUI model folder `directory` (weights in `dtype`; safetensors only, no code executed).

    Raises:
        CheckpointError: `autoui.json` is malformed, a part does not load, the vision part is not a vision encoder,
            or the projection's shape does not join the two.
    """
    from transformers import AutoModel, T5ForConditionalGeneration

    spec = read_spec(directory)
    try:
        text = T5ForConditionalGeneration.from_pretrained(directory / spec["text"], dtype=dtype,
                                                          local_files_only=True, use_safetensors=True)
        vision = AutoModel.from_pretrained(directory / spec["vision"], dtype=dtype, local_files_only=True,
                                           use_safetensors=True)
        weights = load_file(str(directory / spec["projection"]))
    except (ValueError, KeyError, OSError) as exc:
        raise CheckpointError(f"the AutoUI folder {str(directory)!r} does not load: {type(exc).__name__}: "
                              f"{str(exc)[:300]}") from exc
    if not type(vision).__name__.endswith("VisionModel"):
        raise CheckpointError(f"`{spec['vision']}` in {str(directory)!r} holds a {type(vision).__name__}, not a "
                              f"vision encoder; AutoUI reads images with one of {VISION_MODELS}")
    width, d_model = int(vision.config.hidden_size), int(text.config.d_model)
    shapes = {k: tuple(v.shape) for k, v in weights.items()}
    if shapes != {"weight": (d_model, width), "bias": (d_model,)}:
        raise CheckpointError(f"`{spec['projection']}` in {str(directory)!r} must hold weight ({d_model}, {width}) "
                              f"and bias ({d_model},) (vision width {width} -> T5 d_model {d_model}), got {shapes}")
    projection = nn.Linear(width, d_model, dtype=dtype)
    projection.load_state_dict(weights)
    return AutoUIModel(text, vision, projection, spec.get("freeze_vision", True))
