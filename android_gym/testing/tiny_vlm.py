"""A tiny random-weight Idefics3 (SmolVLM's model type) checkpoint, built offline in well under a second.

Its answers are noise — it exists so tests and benchmarks exercise the exact `from_pretrained(path)` code path a real
SmolVLM checkpoint takes (processor, chat template, image tokens, batching), without downloading anything. The
tokenizer is byte-level (256 byte tokens plus Idefics3's special tokens), built with `tokenizers`.
"""

from __future__ import annotations

from pathlib import Path

CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] | capitalize }}:"
    "{% for part in message['content'] %}{% if part['type'] == 'text' %}{{ part['text'] }}{% else %}<image>{% endif %}"
    "{% endfor %}<end_of_utterance>\n{% endfor %}{% if add_generation_prompt %}Assistant:{% endif %}"
)
"""SmolVLM's chat layout ("<|im_start|>User:...<end_of_utterance>\\nAssistant:"), shortened."""

IMAGE_SIZE_PX = 64
PATCH_SIZE_PX = 16
SCALE_FACTOR = 2


def build_tiny_idefics3(folder: str | Path, seed: int = 0) -> Path:
    """Write a tiny random Idefics3 checkpoint (config, weights, processor, tokenizer, chat template) to `folder`.

    Load it back with `AutoProcessor.from_pretrained(folder)` and `AutoModelForImageTextToText.from_pretrained(folder)`
    (or `MllmEvaluator(MllmJudgeConfig(path=str(folder)))`). About 200 kB; the same `seed` gives the same weights.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
        Idefics3Processor,
        PreTrainedTokenizerFast,
    )
    from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    core = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    specials = ["<|im_start|>", "<end_of_utterance>", "<fake_token_around_image>", "<image>", "<global-img>"]
    specials += [f"<row_{i}_col_{j}>" for i in range(1, 7) for j in range(1, 7)]
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, bos_token="<|im_start|>", eos_token="<end_of_utterance>",
                                        pad_token="<|endoftext|>", unk_token="<|endoftext|>",
                                        additional_special_tokens=specials)
    image_processor = Idefics3ImageProcessorPil(do_image_splitting=False, size={"longest_edge": IMAGE_SIZE_PX},
                                                max_image_size={"longest_edge": IMAGE_SIZE_PX})
    image_seq_len = (IMAGE_SIZE_PX // PATCH_SIZE_PX) ** 2 // SCALE_FACTOR**2
    processor = Idefics3Processor(image_processor, tokenizer, image_seq_len=image_seq_len, chat_template=CHAT_TEMPLATE)
    config = Idefics3Config(
        vision_config={"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
                       "image_size": IMAGE_SIZE_PX, "patch_size": PATCH_SIZE_PX},
        text_config={"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
                     "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": len(tokenizer),
                     "max_position_embeddings": 4096, "pad_token_id": tokenizer.pad_token_id},
        image_token_id=tokenizer.convert_tokens_to_ids("<image>"), scale_factor=SCALE_FACTOR,
        pad_token_id=tokenizer.pad_token_id)
    generator_state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    try:
        model = Idefics3ForConditionalGeneration(config)
    finally:
        torch.random.set_rng_state(generator_state)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder
