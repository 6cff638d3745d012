"""Tiny random-weight vision-language checkpoints, built offline, for testing `VLMPolicy` on the real loading path.

`build_tiny_idefics3(directory)` writes an Idefics3 checkpoint (SmolVLM's model type: a SigLIP-style vision
encoder, a pixel-shuffle connector and a Llama text model) of ~60k parameters together with its processor, so that
`AutoProcessor.from_pretrained(directory)` + `AutoModelForImageTextToText.from_pretrained(directory)` load it exactly
as they load SmolVLM. `build_tiny_qwen_vl(directory, family)` writes a Qwen2-VL, Qwen2.5-VL or Qwen3-VL checkpoint
(a patch-merging vision transformer and a text model with 3-D rotary positions) with its tokenizer and image
processor. `build_tiny_autoui(directory)` writes AutoUI's encoder-decoder folder (`autoui_model`: a T5, a SigLIP
vision encoder and the projection between them). Nothing is downloaded and torchvision is not needed (the PIL image
processors are used).

The tokenizer is byte-level: every UTF-8 byte is one token (the 256 symbols of `tokenizers`' ByteLevel alphabet,
no merges), after a few special tokens, so any text round-trips and action strings cost one token per byte.
"""

from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
from transformers import (
    Idefics3Config,
    Idefics3ForConditionalGeneration,
    Idefics3Processor,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    Qwen2_5_VLConfig,
    Qwen2_5_VLForConditionalGeneration,
    Qwen2VLConfig,
    Qwen2VLForConditionalGeneration,
    Qwen3VLConfig,
    Qwen3VLForConditionalGeneration,
    SiglipVisionConfig,
    SiglipVisionModel,
    T5Config,
    T5ForConditionalGeneration,
)
from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil

from distrl_agent.policies.autoui_model import AutoUIModel
from distrl_agent.policies.vlm_inputs import AutoUIInputs

SPECIAL_TOKENS = ("<pad>", "<s>", "</s>", "<image>", "<fake_token_around_image>", "<global-img>",
                  "<end_of_utterance>")
"""Special tokens, ids 0..6: padding, BOS, EOS, and the image tokens the Idefics3 processor writes."""
PAD_ID, BOS_ID, EOS_ID = 0, 1, 2


def byte_level_tokenizer() -> PreTrainedTokenizerFast:
    """A byte-level tokenizer (7 special tokens + 256 bytes = 263 ids), built offline with `tokenizers`.

    >>> tok = byte_level_tokenizer()
    >>> len(tok), tok.decode(tok("hé!").input_ids)
    (263, 'hé!')
    """
    vocab = {token: i for i, token in enumerate(SPECIAL_TOKENS)}
    for symbol in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab[symbol] = len(vocab)
    backend = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", bos_token="<s>", eos_token="</s>")


def build_tiny_idefics3(directory: str | Path, *, hidden_size: int = 32, num_layers: int = 2, image_size: int = 32,
                        seed: int = 0) -> Path:
    """Write a tiny random Idefics3 checkpoint and its processor into `directory` (created if needed).

    Args:
        directory: where `save_pretrained` writes (config, safetensors weights, tokenizer, processor config).
        hidden_size: width of the text model (and twice the vision width floor); another value gives a checkpoint
            of another shape.
        num_layers: text-model decoder layers (the vision encoder has one).
        image_size: pixels of the square the screenshot is resized to (patches of 8 pixels; with the connector's
            scale factor 2 an image becomes (image_size / 16)² tokens).
        seed: seeds the random weights.

    Returns:
        The directory, as a `Path`.

    Raises:
        ValueError: `image_size` is not a positive multiple of 16, or `hidden_size` is not even.
    """
    if image_size < 16 or image_size % 16:
        raise ValueError(f"`image_size` must be a positive multiple of 16 pixels, got {image_size}")
    if hidden_size < 2 or hidden_size % 2:
        raise ValueError(f"`hidden_size` must be even (two attention heads), got {hidden_size}")
    directory = Path(directory)
    tokenizer = byte_level_tokenizer()
    image_processor = Idefics3ImageProcessorPil(do_image_splitting=False, size={"longest_edge": image_size},
                                                max_image_size={"longest_edge": image_size})
    image_seq_len = (image_size // 8) ** 2 // 4
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer, image_seq_len=image_seq_len)
    config = Idefics3Config(
        vision_config={"hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2,
                       "image_size": image_size, "patch_size": 8},
        text_config={"model_type": "llama", "hidden_size": hidden_size, "intermediate_size": 2 * hidden_size,
                     "num_hidden_layers": num_layers, "num_attention_heads": 2, "num_key_value_heads": 2,
                     "vocab_size": len(tokenizer), "max_position_embeddings": 1024, "pad_token_id": PAD_ID,
                     "bos_token_id": BOS_ID, "eos_token_id": EOS_ID},
        image_token_id=tokenizer.convert_tokens_to_ids("<image>"), scale_factor=2, pad_token_id=PAD_ID)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Idefics3ForConditionalGeneration(config)
    model.generation_config.eos_token_id = EOS_ID
    model.save_pretrained(directory)
    processor.save_pretrained(directory)
    return directory


QWEN_FAMILIES = ("qwen2_vl", "qwen2_5_vl", "qwen3_vl")
"""The Qwen-VL model types `build_tiny_qwen_vl` writes."""
QWEN_TOKENS = ("<|image_pad|>", "<|vision_start|>", "<|vision_end|>", "<|video_pad|>")


def build_tiny_qwen_vl(directory: str | Path, family: str = "qwen2_vl", *, hidden_size: int = 32,
                       image_size: int = 32, seed: int = 0) -> Path:
    """Write a tiny random Qwen2-VL / Qwen2.5-VL / Qwen3-VL checkpoint, its tokenizer and image processor.

    Args:
        directory: where `save_pretrained` writes (created if needed).
        family: one of `QWEN_FAMILIES`.
        hidden_size: width of the text model (two heads of hidden_size / 2, rotary sections 2+3+3 of its half for
            16; other widths scale the sections).
        image_size: the screenshot is resized to about this many pixels squared (patches of 8 pixels, merged 2x2).
        seed: seeds the random weights.

    Returns:
        The directory, as a `Path`.

    Raises:
        ValueError: an unknown family, or a `hidden_size` that is not a positive multiple of 16.
    """
    if family not in QWEN_FAMILIES:
        raise ValueError(f"`family` must be one of {QWEN_FAMILIES}, got {family!r}")
    if hidden_size < 16 or hidden_size % 16:
        raise ValueError(f"`hidden_size` must be a positive multiple of 16, got {hidden_size}")
    directory = Path(directory)
    tokenizer = byte_level_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": list(QWEN_TOKENS)})
    ids = {f"{name}_token_id": tokenizer.convert_tokens_to_ids(token) for name, token in
           zip(("image", "vision_start", "vision_end", "video"), QWEN_TOKENS, strict=True)}
    half_head = hidden_size // 4  # two heads of hidden_size / 2; M-RoPE splits half a head's dims in 3 sections
    sections = [half_head - 2 * (3 * half_head // 8), 3 * half_head // 8, 3 * half_head // 8]
    rope = {"rope_type": "default", "mrope_section": sections, "rope_theta": 10000.0}
    text = {"hidden_size": hidden_size, "intermediate_size": 2 * hidden_size, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 2, "vocab_size": len(tokenizer),
            "max_position_embeddings": 1024, "rope_parameters": rope, "pad_token_id": PAD_ID, "bos_token_id": BOS_ID,
            "eos_token_id": EOS_ID}
    vision = {"depth": 2, "hidden_size": 16, "num_heads": 2, "patch_size": 8, "spatial_merge_size": 2,
              "temporal_patch_size": 2, "in_channels": 3}
    if family == "qwen2_vl":
        config_class, model_class = Qwen2VLConfig, Qwen2VLForConditionalGeneration
        vision = {**vision, "depth": 1, "embed_dim": 16, "hidden_size": hidden_size, "mlp_ratio": 2}
    elif family == "qwen2_5_vl":
        config_class, model_class = Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration
        vision = {**vision, "intermediate_size": 32, "out_hidden_size": hidden_size, "window_size": 32,
                  "fullatt_block_indexes": [1]}
    else:
        config_class, model_class = Qwen3VLConfig, Qwen3VLForConditionalGeneration
        vision = {**vision, "intermediate_size": 32, "out_hidden_size": hidden_size, "num_position_embeddings": 16,
                  "deepstack_visual_indexes": [0]}
        text = {**text, "head_dim": hidden_size // 2, "rope_parameters": {**rope, "mrope_interleaved": True}}
    config = config_class(vision_config=vision, text_config=text, pad_token_id=PAD_ID, **ids)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = model_class(config)
    model.generation_config.eos_token_id = EOS_ID
    pixels = image_size * image_size
    image_processor = Qwen2VLImageProcessorPil(min_pixels=pixels, max_pixels=pixels, patch_size=8,
                                               temporal_patch_size=2, merge_size=2)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    image_processor.save_pretrained(directory)
    return directory


def build_tiny_autoui(directory: str | Path, *, d_model: int = 32, image_size: int = 32, freeze_vision: bool = True,
                      seed: int = 0, num_heads: int = 2, decoder_layers: int = 2, position_buckets: int = 8,
                      max_distance: int = 32) -> Path:
    """Write a tiny random AutoUI folder (`autoui_model`): T5 (2+2 layers), a one-layer SigLIP, the projection.

    Args:
        directory: where the folder is written (created if needed).
        d_model: T5's width (`num_heads` heads of d_model / num_heads).
        image_size: pixels of the square the screenshot is resized to (patches of 8: (image_size / 8)² features).
        freeze_vision: AutoUI's setting (True: the vision encoder never trains), written into `autoui.json`.
        seed: seeds the random weights.
        num_heads: T5's attention heads.
        decoder_layers: T5's decoder layers (the encoder has 2).
        position_buckets: T5's relative-position buckets of self-attention, up to `max_distance` tokens (T5's own
            are 32 up to 128: what a decoder needs to learn ~150-token action strings, `benchmarks/vlm_families.py`).
        max_distance: see `position_buckets`.

    Returns:
        The directory, as a `Path`.

    Raises:
        ValueError: `image_size` is not a positive multiple of 8, or `d_model` is not a positive multiple of
            `num_heads`.
    """
    if image_size < 8 or image_size % 8:
        raise ValueError(f"`image_size` must be a positive multiple of 8 pixels, got {image_size}")
    if d_model < num_heads or d_model % num_heads:
        raise ValueError(f"`d_model` must be a positive multiple of `num_heads` ({num_heads}), got {d_model}")
    directory = Path(directory)
    tokenizer = byte_level_tokenizer()
    # dropout 0: the policy's act and evaluate then agree in train mode too (T5 ships with 0.1)
    text_config = T5Config(vocab_size=len(tokenizer), d_model=d_model, d_kv=d_model // num_heads, d_ff=2 * d_model,
                           num_layers=2, num_decoder_layers=decoder_layers, num_heads=num_heads,
                           relative_attention_num_buckets=position_buckets,
                           relative_attention_max_distance=max_distance, dropout_rate=0.0, pad_token_id=PAD_ID,
                           eos_token_id=EOS_ID, decoder_start_token_id=PAD_ID)
    vision_config = SiglipVisionConfig(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                       num_attention_heads=2, image_size=image_size, patch_size=8)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = AutoUIModel(T5ForConditionalGeneration(text_config), SiglipVisionModel(vision_config),
                            torch.nn.Linear(vision_config.hidden_size, d_model), freeze_vision)
    model.text.generation_config.eos_token_id = EOS_ID
    model.save_pretrained(directory)
    image_processor = SiglipImageProcessorPil(size={"height": image_size, "width": image_size})
    AutoUIInputs(tokenizer, image_processor).save(directory)
    return directory


def build_tiny_text_model(directory: str | Path, *, seed: int = 0) -> Path:
    """Write a tiny random text-only Llama checkpoint (not a VLM) and its tokenizer into `directory`.

    Used to check that `VLMPolicy` refuses checkpoints that cannot see screenshots.
    """
    directory = Path(directory)
    tokenizer = byte_level_tokenizer()
    config = LlamaConfig(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
                         num_key_value_heads=2, vocab_size=len(tokenizer), pad_token_id=PAD_ID, bos_token_id=BOS_ID,
                         eos_token_id=EOS_ID)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
