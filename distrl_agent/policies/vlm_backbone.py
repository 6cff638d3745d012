"""Loading a `transformers` image-text-to-text checkpoint for `VLMPolicy`: model, processor, LoRA, token bookkeeping.

`load_backbone(path)` loads a local `save_pretrained` directory through `AutoProcessor` +
`AutoModelForImageTextToText` (the code path of real checkpoints such as SmolVLM / Idefics3; Qwen2-VL, Qwen2.5-VL and
Qwen3-VL through their tokenizer and image processor, `vlm_inputs.QwenInputs`), and returns a `Backbone` that names
what the policy needs: how its inputs are made (`vlm_inputs`), the base model returning hidden states and a KV cache,
the LM head, the EOS ids that end an action, and the ids an action may never contain (image placeholders, ids the
tokenizer cannot decode). `attach_lora` injects `peft` LoRA adapters in place; `peft` is imported only then.

Tested on Idefics3, Qwen2-VL, Qwen2.5-VL and Qwen3-VL; LLaVA and PaliGemma expose the same pieces as Idefics3
(`model.model`, `get_output_embeddings()`, an `image_token` on the processor) and should load too. A folder with
`autoui.json` is AutoUI's encoder-decoder (`autoui_model`), loaded as an `EncoderDecoderBackbone`
(`autoui_backbone`).

The seam between `VLMPolicy` and a family's architecture: both backbones offer `start`/`step` (generation, one
token at a time, with a cache), `score_tokens` (teacher forcing), `prompt_features` and `text_features` (what the
critics read), and `adapted_model` (where LoRA and activation checkpointing go), the `vlm_seam.PolicyBackbone`
protocol; the policy never asks which kind it holds.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.policies.autoui_backbone import EncoderDecoderBackbone, load_autoui_backbone
from distrl_agent.policies.autoui_model import AUTOUI_FILE
from distrl_agent.policies.vlm_inputs import (
    QWEN_MODEL_TYPES,
    ModelInputs,
    ProcessorInputs,
    QwenInputs,
    text_positions,
)
from distrl_agent.policies.vlm_seam import ScoredTokens, eos_ids

IMAGE_TOKEN_ATTRIBUTES = ("image_token_id", "fake_image_token_id", "global_image_token_id", "image_token_index",
                          "video_token_id", "vision_start_token_id", "vision_end_token_id")
"""Processor/config attributes naming image placeholder ids: an action containing one would be read as an image."""
SUPPORTED_FAMILIES = ("Idefics3/SmolVLM (idefics3)", "Qwen2-VL (qwen2_vl)", "Qwen2.5-VL (qwen2_5_vl)",
                      "Qwen3-VL (qwen3_vl)", f"AutoUI's encoder-decoder (a folder with {AUTOUI_FILE}: T5 + a vision "
                      "encoder, see policies/autoui_model.py)")
"""The families `load_backbone` is tested on, as its errors name them."""


@dataclass
class _Decoding:
    """A decoder-only generation between steps: the cache, the mask so far, the following tokens' positions."""

    cache: Any
    mask: torch.Tensor
    following: torch.Tensor
    t: int = 0


@dataclass
class Backbone:
    """The pieces of a loaded VLM checkpoint that `VLMPolicy` uses.

    Attributes:
        model: the `AutoModelForImageTextToText` model (LoRA-injected in place when `attach_lora` ran).
        inputs: how the family's inputs are made, kept by row and positioned (`vlm_inputs`); its tokenizer pads on
            the left, so prompts end at the last column.
        base: `model.model`, called with `input_ids`, `attention_mask`, `position_ids`, image inputs and a cache;
            returns `last_hidden_state` (after the final norm).
        head: the LM head mapping hidden states to vocabulary logits.
        hidden_size: width of the text model's hidden states.
        vocab_size: width of the LM head's logits (may exceed the tokenizer's length).
        eos_ids: ids that end a generated action (the generation config's EOS ids, then the tokenizer's).
        banned_ids: ids an action never contains (image placeholders, ids past the tokenizer); masked to -inf.
        cache_argument: the name of the KV-cache keyword of `base` ("cache" in transformers 5, else
            "past_key_values").
    """

    model: nn.Module
    inputs: ModelInputs
    base: nn.Module
    head: nn.Module
    hidden_size: int
    vocab_size: int
    eos_ids: tuple[int, ...]
    banned_ids: tuple[int, ...]
    cache_argument: str

    @property
    def tokenizer(self) -> Any:
        """The text tokenizer."""
        return self.inputs.tokenizer

    @property
    def image_token(self) -> str:
        """What a prompt writes where the screenshot goes."""
        return self.inputs.image_token

    @property
    def adapted_model(self) -> nn.Module:
        """The module LoRA adapters and activation checkpointing go into: the whole model."""
        return self.model

    def run(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, extra: dict[str, torch.Tensor],
            positions: torch.Tensor, cache: Any = None, use_cache: bool = False) -> tuple[torch.Tensor, Any]:
        """Final hidden states (B, n, h) of `input_ids` (the last n columns of `attention_mask`) at `positions`
        ((B, n), or (3, B, n) for M-RoPE), and the cache."""  # noqa: D205, D209
        out = self.base(input_ids=input_ids, attention_mask=attention_mask, position_ids=positions,
                        use_cache=use_cache, **{self.cache_argument: cache}, **extra)
        return out.last_hidden_state, getattr(out, self.cache_argument, None)

    def prompt_inputs(self, rows: dict[str, torch.Tensor]) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
        """The model's image inputs of the rows and their prompt positions (`vlm_inputs`)."""
        return self.inputs.model_kwargs(rows), self.inputs.positions(self.base, rows)

    def start(self, rows: dict[str, torch.Tensor], n_max: int) -> tuple[torch.Tensor, _Decoding]:
        """Read the prompts: (B, h) states predicting the first action token, and the state `step` continues."""
        extra, positions = self.prompt_inputs(rows)
        hidden, cache = self.run(rows["input_ids"], rows["attention_mask"], extra, positions, use_cache=True)
        return hidden[:, -1], _Decoding(cache, rows["attention_mask"], self.inputs.after(positions, n_max))

    def step(self, state: _Decoding, token: torch.Tensor) -> torch.Tensor:
        """Read (B,) `token`, the next one of every row: (B, h) states predicting the token after it."""
        state.mask = torch.cat([state.mask, torch.ones_like(state.mask[:, :1])], 1)
        hidden, state.cache = self.run(token[:, None], state.mask, {}, state.following[..., state.t:state.t + 1],
                                       cache=state.cache, use_cache=True)
        state.t += 1
        return hidden[:, -1]

    def score_tokens(self, rows: dict[str, torch.Tensor], tokens: torch.Tensor,
                     token_mask: torch.Tensor) -> ScoredTokens:
        """Teacher forcing: one forward over prompt + `tokens` (B, n), masked by `token_mask` (B, n)."""
        ids, mask = rows["input_ids"], rows["attention_mask"]
        extra, positions = self.prompt_inputs(rows)
        positions = torch.cat([positions, self.inputs.after(positions, tokens.shape[1])], -1)
        hidden, _ = self.run(torch.cat([ids, tokens], 1), torch.cat([mask, token_mask.to(mask.dtype)], 1), extra,
                             positions)
        s = ids.shape[1]
        return ScoredTokens(hidden[:, s - 1:s - 1 + tokens.shape[1]], hidden[:, :s], mask)  # s-1+j predicts j

    def prompt_features(self, rows: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, S, h) hidden states of the prompts (screen, goal, previous action) and their mask."""
        extra, positions = self.prompt_inputs(rows)
        return self.run(rows["input_ids"], rows["attention_mask"], extra, positions)[0], rows["attention_mask"]

    def text_features(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, G, h) hidden states of a text alone (no image) and its mask."""
        return self.run(ids, mask, {}, text_positions(mask))[0], mask


def load_backbone(path: str | Path, dtype: torch.dtype = torch.float32,
                  device: str | torch.device = "cpu") -> Backbone | EncoderDecoderBackbone:
    """Load the VLM checkpoint and processor saved in directory `path`, in `dtype` on `device`.

    A folder with `autoui.json` loads as AutoUI's encoder-decoder (`autoui_backbone`); any other through
    `AutoModelForImageTextToText`.

    Raises:
        CheckpointError: `path` is not a directory; it holds no loadable checkpoint; it is not a family this loads
            (e.g. a text-only LLM; the message names its model type and the supported families); or its processor
            has no image processor, tokenizer or image token.
    """
    from transformers import AutoModelForImageTextToText

    directory = Path(path).expanduser()  # "~/models/x" from a config override is not expanded by the shell
    if not directory.is_dir():
        raise CheckpointError(f"`model_path` {str(path)!r} is not a directory; VLMPolicy loads local checkpoints "
                              "written by save_pretrained (model + processor), never downloads")
    if (directory / AUTOUI_FILE).is_file():
        return load_autoui_backbone(directory, dtype, device)
    try:
        model = AutoModelForImageTextToText.from_pretrained(directory, dtype=dtype, local_files_only=True)
    except (ValueError, KeyError, OSError) as exc:
        raise CheckpointError(f"`model_path` {str(path)!r} {_family_of(directory)}, not an image-text-to-text "
                              f"checkpoint (AutoModelForImageTextToText: {type(exc).__name__}: {str(exc)[:200]}). "
                              f"VLMPolicy reads these families: {'; '.join(SUPPORTED_FAMILIES)}") from exc
    inputs = _qwen_inputs(model, directory) if model.config.model_type in QWEN_MODEL_TYPES else \
        _processor_inputs(directory)
    base, head = getattr(model, "model", None), model.get_output_embeddings()
    if base is None or head is None:
        raise CheckpointError(f"{type(model).__name__} in {str(path)!r} lacks a `model` base or an LM head; "
                              f"VLMPolicy reads these families: {'; '.join(SUPPORTED_FAMILIES)}")
    inputs.tokenizer.padding_side = "left"
    model.to(device)
    return Backbone(model=model, inputs=inputs, base=base, head=head,
                    hidden_size=int(model.config.get_text_config().hidden_size), vocab_size=int(head.out_features),
                    eos_ids=eos_ids(model, inputs.tokenizer), banned_ids=_banned_ids(model, inputs, head),
                    cache_argument=_cache_argument(base))


def _family_of(directory: Path) -> str:
    """What `directory`'s config.json says it holds: "holds a 't5' model (T5ForConditionalGeneration)"."""
    try:
        config = json.loads((directory / "config.json").read_text())
    except (OSError, ValueError):
        return "has no readable config.json"
    if not isinstance(config, dict):
        return "has a config.json that is not a JSON object"
    found = f"holds a {config.get('model_type')!r} model ({', '.join(map(str, config.get('architectures') or []))})"
    if config.get("model_type") in ("t5", "mt5"):  # AutoUI's text half alone
        found += f" without the vision encoder and {AUTOUI_FILE} that make it AutoUI's encoder-decoder"
    return found


def _processor_inputs(directory: Path) -> ProcessorInputs:
    """The checkpoint's `AutoProcessor`, which must have an image processor, a tokenizer and an image token."""
    from transformers import AutoProcessor

    try:
        processor = AutoProcessor.from_pretrained(directory, local_files_only=True)
    except (ValueError, KeyError, OSError) as exc:
        raise CheckpointError(f"`model_path` {str(directory)!r} has no loadable processor: {exc}") from exc
    for part in ("image_processor", "tokenizer"):
        if getattr(processor, part, None) is None:
            raise CheckpointError(f"the processor in {str(directory)!r} ({type(processor).__name__}) has no `{part}`; "
                                  "save the model's full processor next to it")
    if not isinstance(getattr(processor, "image_token", None), str):
        raise CheckpointError(f"the processor in {str(directory)!r} ({type(processor).__name__}) names no image "
                              "token; VLMPolicy supports Idefics3/SmolVLM-like and Qwen2/2.5/3-VL checkpoints")
    return ProcessorInputs(processor)


def _qwen_inputs(model: nn.Module, directory: Path) -> QwenInputs:
    """A Qwen-VL checkpoint's tokenizer and image processor (its `AutoProcessor` needs torchvision for video)."""
    from transformers import AutoImageProcessor, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(directory, local_files_only=True)
        image_processor = AutoImageProcessor.from_pretrained(directory, local_files_only=True)
    except (ValueError, KeyError, OSError) as exc:
        raise CheckpointError(f"`model_path` {str(directory)!r} lacks the tokenizer or image processor of its "
                              f"{model.config.model_type} model: {exc}") from exc
    inputs = QwenInputs(tokenizer, image_processor, int(model.config.vision_config.spatial_merge_size))
    for token in (inputs.image_pad, inputs.vision_start, inputs.vision_end):
        if tokenizer.convert_tokens_to_ids(token) in (None, tokenizer.unk_token_id):
            raise CheckpointError(f"the tokenizer in {str(directory)!r} has no {token!r} token, which Qwen-VL "
                                  "prompts need")
    return inputs


def attach_lora(model: nn.Module, rank: int, alpha: float, dropout: float, target_modules: Sequence[str]) -> int:
    """Inject LoRA adapters into `model` in place and freeze every other backbone weight.

    Returns:
        The number of trainable (adapter) parameters.

    Raises:
        ConfigError: `peft` is not installed, or no module of `model` matches `target_modules`.
    """
    try:
        peft = importlib.import_module("peft")
    except ImportError as exc:
        raise ConfigError(f"`lora_rank`={rank} needs the `peft` package, which is not installed; install it "
                          "(pip install peft) or set `lora_rank=0` to fine-tune every weight") from exc
    config = peft.LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=dropout, target_modules=list(target_modules))
    try:
        peft.inject_adapter_in_model(config, model)
    except ValueError as exc:
        linear = sorted({name.rsplit(".", 1)[-1] for name, m in model.named_modules() if isinstance(m, nn.Linear)})
        raise ConfigError(f"`lora_target_modules`={list(target_modules)} match no module of "
                          f"{type(model).__name__} (its linear layers are named {linear[:12]}): {exc}") from exc
    trainable = 0
    for name, parameter in model.named_parameters():
        parameter.requires_grad_("lora_" in name)
        trainable += parameter.numel() if parameter.requires_grad else 0
    return trainable


def checkpoint_activations(model: nn.Module) -> None:
    """Recompute the model's layer activations during the backward pass instead of keeping them from the forward
    (transformers' gradient checkpointing): memory for activations falls from one set per layer to about one layer's,
    for one more forward per backward. Non-reentrant checkpoints, which need no input that requires grad (LoRA's
    frozen embeddings).

    Raises:
        ConfigError: the model's class does not support it.
    """  # noqa: D205, D209
    if not getattr(model, "supports_gradient_checkpointing", False):
        raise ConfigError(f"{type(model).__name__} does not support gradient checkpointing; set "
                          "`gradient_checkpointing: false`")
    kwargs = {"use_reentrant": False}
    if hasattr(model, "activation_checkpointing_enable"):  # transformers 5's name; the old one warns until v6
        model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
    else:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)


def _banned_ids(model: nn.Module, inputs: ModelInputs, head: nn.Module) -> tuple[int, ...]:
    banned = set(range(len(inputs.tokenizer), int(head.out_features)))
    owners = [model.config, getattr(inputs, "processor", None)]
    if isinstance(inputs, QwenInputs):  # the image pad and the vision markers are ids an action never holds
        banned |= {int(inputs.tokenizer.convert_tokens_to_ids(t)) for t in
                   (inputs.image_pad, inputs.vision_start, inputs.vision_end)}
    for owner in owners:
        for attribute in IMAGE_TOKEN_ATTRIBUTES:
            value = getattr(owner, attribute, None)
            if isinstance(value, int) and value >= 0:
                banned.add(value)
    return tuple(sorted(banned))


def _cache_argument(base: nn.Module) -> str:
    parameters = inspect.signature(base.forward).parameters
    return "cache" if "cache" in parameters else "past_key_values"
