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
        device: where the policy lives ("cpu", "cuda", "cuda:1").
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    model_path: str
    max_new_tokens: Annotated[int, Field(ge=1)] = 128
    temperature: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0
    prompt_template: str = "{image}Previous Actions: {previous_action}\nGoal: {goal}\nNext Action: "
    goal_template: str = "Goal: {goal}"
    value_hidden_dim: Annotated[int, Field(ge=1)] = 256
    critic_trains_backbone: bool = False
    entropy_estimate: EntropyEstimate = "token_entropy"
    lora_rank: Annotated[int, Field(ge=0)] = 0
    lora_alpha: float = 16.0
    lora_dropout: Annotated[float, Field(ge=0, lt=1)] = 0.0
    lora_target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    dtype: str = "float32"
    device: str = "cpu"

    @model_validator(mode="after")
    def _check(self) -> VLMPolicyConfig:
        import torch  # only to check the names; the config itself holds plain data

        if not isinstance(getattr(torch, self.dtype, None), torch.dtype):
            raise FieldError("dtype", "the name of a torch dtype such as 'float32' or 'bfloat16'", self.dtype)
        if "{image}" not in self.prompt_template or "{goal}" not in self.prompt_template:
            raise FieldError("prompt_template", "a template with {image} and {goal}", self.prompt_template)
        try:
            torch.device(self.device)
        except RuntimeError as exc:
            raise FieldError("device", f"a torch device ({exc})", self.device) from exc
        return self
