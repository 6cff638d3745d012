"""`VLMPolicyConfig`: the shape and behaviour of a `VLMPolicy` (its own module: configs load without transformers)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
from distrl_agent.errors import ConfigError

EntropyEstimate = Literal["token_entropy", "neg_log_prob"]
"""How the VLM estimates its sequence entropy (`policies/sequence_entropy.py`)."""


class VLMPolicyConfig(ConfigModel):
    """Shape and behaviour of a `VLMPolicy`; two policies exchange weights only if their checkpoints and heads match.

    Attributes:
        model_path: local directory of an image-text-to-text checkpoint and its processor (`save_pretrained`).
        max_new_tokens: longest action in tokens (128: an AutoUI tap string is ~40 BPE tokens, ~120 bytes).
        temperature: π = softmax(logits / temperature), both when sampling and when scoring (1.0: the model's own
            distribution).
        prompt_template: the prompt; `{image}` is replaced by the processor's image token, `{goal}` and
            `{previous_action}` by the step's texts (AutoUI's "Previous Actions / Goal / Next Action" layout).
        goal_template: the text the instruction value V(g) reads.
        value_hidden_dim: width of the value heads' hidden layer.
        critic_trains_backbone: whether critic gradients reach the VLM (False: heads on detached features).
        entropy_estimate: "token_entropy" (Σ per-token entropies along the stored sequence) or "neg_log_prob" (−log π
            of it); both with gradients that follow ∇H (see `policies/sequence_entropy.py`).
        lora_rank: LoRA rank (0: no LoRA, every weight trains). Needs `peft`.
        lora_alpha: LoRA scaling numerator (scale = alpha / rank).
        lora_dropout: dropout on the LoRA input (0 keeps act and evaluate exactly consistent in train mode).
        lora_target_modules: names of the linear layers that get adapters.
        dtype: torch dtype name of the backbone ("float32", "bfloat16", "float16"); heads stay float32.
        gradient_checkpointing: recompute the backbone's activations in the backward pass (transformers' gradient
            checkpointing): activation memory of about one layer instead of all, for a second forward per update;
            with `learner.micro_batch_size`, what lets a 3B-7B model train on one GPU.
        device: where the policy lives ("cpu", "cuda", "cuda:1", or "auto": the first GPU when torch sees one, else
            the CPU); a GPU that torch cannot see here is refused when the policy is built, before anything runs.
        max_memory_gib: the most one copy of the model's weights may take in `dtype` (None: no budget); a larger
            checkpoint is refused from its files' headers before it is loaded (`policies/vlm_budget.py`).
        chat_template: wrap each prompt in the tokenizer's chat template as one user turn with the assistant's turn
            opened (an instruction-tuned model's format); a tokenizer without one is refused when the policy is built.

    Sizes are bounded above as well as below, and checked before anything is built, because a config also arrives
    inside a checkpoint's learner.json, which `distrl eval` builds a policy from (issue 43). Each bound is far above
    any use; the reason is beside it.
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    model_path: str
    # 2048 tokens: 50x an AutoUI action (~40); every replay step stores this many int64 ids (16 KiB).
    max_new_tokens: Annotated[int, Field(ge=1, le=2048)] = 128
    temperature: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0
    # 8192 characters per template: the prompt is re-tokenised at every step; AutoUI's is under 100.
    prompt_template: Annotated[str, Field(max_length=8192)] = \
        "{image}Previous Actions: {previous_action}\nGoal: {goal}\nNext Action: "
    goal_template: Annotated[str, Field(max_length=8192)] = "Goal: {goal}"
    # 8192: 32x the default; with a 4096-wide backbone, the two heads then hold 64M weights (256 MiB float32).
    value_hidden_dim: Annotated[int, Field(ge=1, le=8192)] = 256
    critic_trains_backbone: bool = False
    entropy_estimate: EntropyEstimate = "token_entropy"
    # 512: LoRA ranks in use are 4-256; each adapter holds rank x (in + out) weights per targeted layer.
    lora_rank: Annotated[int, Field(ge=0, le=512)] = 0
    lora_alpha: Annotated[float, Field(allow_inf_nan=False)] = 16.0
    lora_dropout: Annotated[float, Field(ge=0, lt=1)] = 0.0
    # 64 layer names: a decoder has under a dozen kinds of linear layers.
    lora_target_modules: Annotated[tuple[Annotated[str, Field(max_length=256)], ...], Field(max_length=64)] = (
        "q_proj", "k_proj", "v_proj", "o_proj")
    dtype: str = "float32"
    gradient_checkpointing: bool = False
    device: str = "cpu"
    max_memory_gib: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    chat_template: bool = False

    @model_validator(mode="after")
    def _check(self) -> VLMPolicyConfig:
        import torch  # only to check the names; the config itself holds plain data

        if not isinstance(getattr(torch, self.dtype, None), torch.dtype):
            raise FieldError("dtype", "the name of a torch dtype such as 'float32' or 'bfloat16'", self.dtype)
        if "{image}" not in self.prompt_template or "{goal}" not in self.prompt_template:
            raise FieldError("prompt_template", "a template with {image} and {goal}", self.prompt_template)
        try:
            torch.device("cpu" if self.device == "auto" else self.device)
        except RuntimeError as exc:
            raise FieldError("device", f"a torch device ({exc})", self.device) from exc
        return self

    def torch_device(self) -> str:
        """`device` on this machine: "auto" resolved, a GPU checked.

        Raises:
            ConfigError: `device` names a GPU torch cannot see here (a CPU build of torch, no driver, a wrong index).
        """
        import torch

        if self.device == "auto":
            return "cuda" if torch.cuda.is_available() else "cpu"
        device = torch.device(self.device)
        if device.type == "cuda":
            count = torch.cuda.device_count() if torch.cuda.is_available() else 0
            if (device.index or 0) >= count:
                raise ConfigError(f"`policy.vlm.device` is {self.device!r} but torch sees {count} GPU(s) here "
                                  f"(torch {torch.__version__}, CUDA {torch.version.cuda or 'not built in'}): install "
                                  "a CUDA build of torch, pick another index, or set policy.vlm.device=cpu (or auto)")
        return self.device
