"""`export_policy`: a trained VLM out of its run folder, as a folder that `transformers` (or `peft`) loads.

A checkpoint keeps the policy beside its optimiser and replay, in this project's format (`runtime/checkpoint.py`).
`distrl export` writes what someone outside the project needs to act with the trained model:

- full fine-tuning (`policy.vlm.lora_rank=0`): the model's `save_pretrained` folder with its processor, loaded by
  `AutoModelForImageTextToText.from_pretrained(OUT)` and `AutoProcessor.from_pretrained(OUT)`; it is also a
  `policy.vlm.model_path` this project trains or evaluates from;
- LoRA: the adapter in PEFT's layout (`adapter_config.json`, whose `base_model_name_or_path` names the base model
  folder the run trained from, and `adapter_model.safetensors`) with the processor, loaded by
  `PeftModel.from_pretrained(base, OUT)`.

An AutoUI encoder-decoder (`policies/autoui_model.py`) exports as its own folder format (`autoui.json`, `text/`,
`vision/`, `projection.safetensors`), which `load_backbone` loads back; a LoRA run's adapters are merged into it
(its projection trains outside the adapters, so an adapter alone would lose it).

All add `distrl_policy.json` (the policy's settings that decide how it acts: the prompt template, temperature, the
longest action; the checkpoint and version it came from) and `value_heads.safetensors` (the critics V(s), V(g)).

A run folder may come from someone else: as for `distrl eval`, the model folder its checkpoint names is loaded only
when the user names it (`policy.vlm.model_path=DIR`) or trusts the folder.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from safetensors.torch import save_file

from android_gym.safe_files import write_text
from distrl_agent.api import run_config, user_model_path
from distrl_agent.errors import ConfigError
from distrl_agent.policies.autoui_model import AutoUIModel, load_autoui_model
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.runtime.checkpoint import TENSORS_FILE, find_checkpoint, read_policy

POLICY_FILE = "distrl_policy.json"
VALUE_HEADS_FILE = "value_heads.safetensors"
ADAPTER_FILE = "adapter_model.safetensors"
_ADAPTER_NAME = "default"  # the adapter name `peft.inject_adapter_in_model` gives, which PEFT's files leave out


@dataclass(frozen=True)
class ExportResult:
    """What `export_policy` wrote.

    Attributes:
        out: the folder.
        kind: "model" (a whole `save_pretrained` model) or "lora-adapter" (a PEFT adapter of `base`).
        base: the base model folder a LoRA adapter applies to (None for a whole model).
        checkpoint: the checkpoint folder the weights came from.
        version: the learner version of those weights.
    """

    out: Path
    kind: Literal["model", "lora-adapter"]
    base: str | None
    checkpoint: Path
    version: int


def export_policy(run_dir: str | Path, out: str | Path, *, overrides: Sequence[str] = (), trust: bool = False,
                  overwrite: bool = False) -> ExportResult:
    """Write the VLM of the newest complete checkpoint in `run_dir` to `out` (see the module docstring).

    Args:
        run_dir: a run folder (`runs/latest`).
        out: the folder to write; it must not exist or be empty, unless `overwrite`.
        overrides: `section.key=value` settings; a folder's model path must be given again here
            (`policy.vlm.model_path=DIR`), or trusted.
        trust: take the model folder the run folder names (`--trust-run-dir`).
        overwrite: write into a non-empty `out` (files of the same names are replaced).

    Raises:
        ConfigError: the run trained a policy that is not a transformers model, or `out` is not empty.
        UntrustedConfigError: the run's model folder was neither given again nor trusted.
        CheckpointError: no complete checkpoint in `run_dir`, or weights that do not fit the model.
    """
    config = run_config(run_dir, overrides, trust)
    checkpoint = find_checkpoint(run_dir)
    saved = read_policy(checkpoint)
    if not isinstance(saved.config, VLMPolicyConfig):
        raise ConfigError(f"`distrl export` writes a transformers model, and the run in {run_dir} trained a "
                          f"{type(saved.config).__name__.removesuffix('Config')} (not one); its weights are the "
                          f"safetensors file {checkpoint / TENSORS_FILE}, which `distrl eval` acts with")
    policy_config = saved.config if trust else user_model_path(saved.config, config, checkpoint)
    target = Path(out)
    if target.exists() and (not target.is_dir() or any(target.iterdir())) and not overwrite:
        raise ConfigError(f"`--out` {str(target)!r} exists and is not an empty folder; choose another, or pass "
                          "--overwrite to write into it")
    policy = VLMPolicy(policy_config)
    policy.load_weights(saved.weights)
    target.mkdir(parents=True, exist_ok=True)
    model_folder = str(Path(policy_config.model_path).expanduser().resolve())
    is_adapter = bool(policy_config.lora_rank) and not isinstance(policy.backbone, AutoUIModel)
    kind: Literal["model", "lora-adapter"] = "lora-adapter" if is_adapter else "model"
    base = model_folder if is_adapter else None
    if is_adapter:
        _save_adapter(policy, policy_config, model_folder, target)
    elif policy_config.lora_rank:
        _merged_autoui(policy, model_folder).save_pretrained(target)
    else:
        policy.backbone.save_pretrained(target)
    policy.parts.inputs.save(target)
    heads = {f"{name}.{key}": tensor.detach().float().contiguous().clone()
             for name in ("value_head", "instruction_value_head")
             for key, tensor in getattr(policy, name).state_dict().items()}
    save_file(heads, str(target / VALUE_HEADS_FILE))
    write_text(target / POLICY_FILE, json.dumps({
        "format": kind, "base_model": base, "policy_config": policy_config.to_data(), "checkpoint": str(checkpoint),
        "version": saved.version, "value_heads": VALUE_HEADS_FILE}, indent=2))
    return ExportResult(target, kind, base, checkpoint, saved.version)


def _save_adapter(policy: VLMPolicy, config: VLMPolicyConfig, base: str, out: Path) -> None:
    """The LoRA adapter in PEFT's layout: its config naming the base folder `base`, its tensors under PEFT's names.

    PEFT saves `base_model.model.<module>.lora_A.weight` where the injected model holds
    `<module>.lora_A.default.weight` (the adapter's name is left out of the file).

    Raises:
        ConfigError: `peft` is not installed.
    """
    try:
        import peft
    except ImportError as exc:
        raise ConfigError('exporting a LoRA adapter needs `peft`: pip install ".[lora]"') from exc
    tensors = {}
    for name, tensor in policy.backbone.state_dict().items():
        if "lora_" in name:
            key = "base_model.model." + name.replace(f".{_ADAPTER_NAME}.", ".")
            tensors[key] = tensor.detach().contiguous().clone()
    save_file(tensors, str(out / ADAPTER_FILE))
    adapter = peft.LoraConfig(r=config.lora_rank, lora_alpha=config.lora_alpha, lora_dropout=config.lora_dropout,
                              target_modules=list(config.lora_target_modules),
                              base_model_name_or_path=base)
    adapter.save_pretrained(str(out))


def _merged_autoui(policy: VLMPolicy, base: str) -> AutoUIModel:
    """The AutoUI model of folder `base` holding `policy`'s weights, each LoRA adapter merged into its layer.

    A LoRA layer `X` holds `X.base_layer.weight` W and the adapter's A, B; the merged `X.weight` is W + ΔW, ΔW being
    PEFT's own `get_delta_weight` (scale · B·A).
    """
    modules = dict(policy.backbone.named_modules())
    state = {}
    for name, tensor in policy.backbone.state_dict().items():
        if "lora_" in name:
            continue
        if ".base_layer." in name:
            owner, _, leaf = name.rpartition(".base_layer.")
            if leaf == "weight":
                tensor = tensor + modules[owner].get_delta_weight(_ADAPTER_NAME).to(tensor.dtype)
            name = f"{owner}.{leaf}"
        state[name] = tensor.detach()
    merged = load_autoui_model(Path(base), next(iter(state.values())).dtype)
    merged.load_state_dict(state)
    return merged
