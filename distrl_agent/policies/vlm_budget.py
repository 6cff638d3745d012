"""How much memory a VLM checkpoint's weights take at a dtype, read from its files without loading them, and the
configured budget (`policy.vlm.max_memory_gib`) checked before the model is built.

The size is the parameter count in the folder's safetensors files (their headers: shapes, no data read) times the
bytes of one element of the dtype the policy loads in. It is one copy of the weights: a learner holds float32 master
weights and Adam's two moments of what trains beside it, a worker or service one copy; the budget is for the copy.
"""  # noqa: D205

from __future__ import annotations

import math
from pathlib import Path

import torch

from distrl_agent.errors import ConfigError

GIB = 1024**3


def parameter_count(directory: str | Path) -> int | None:
    """Elements in every safetensors file under `directory` (AutoUI's halves included); None when it has none."""
    from safetensors import safe_open

    files = sorted(Path(directory).expanduser().rglob("*.safetensors"))
    if not files:
        return None
    total = 0
    for path in files:
        with safe_open(str(path), framework="numpy") as f:
            total += sum(math.prod(f.get_slice(key).get_shape()) for key in f.keys())  # noqa: SIM118
    return total


def weights_gib(directory: str | Path, dtype: torch.dtype) -> float | None:
    """GiB of one copy of the checkpoint's weights in `dtype`; None when the folder has no safetensors file."""
    count = parameter_count(directory)
    return None if count is None else count * torch.empty((), dtype=dtype).element_size() / GIB


def check_budget(directory: str | Path, dtype: torch.dtype, budget_gib: float | None) -> None:
    """Refuse, before anything is loaded, a checkpoint whose weights in `dtype` exceed `budget_gib` (None: no budget).

    Raises:
        ConfigError: the weights exceed the budget (naming both, and what would fit), or a budget is set and the
            folder has no safetensors file to measure.
    """
    if budget_gib is None:
        return
    size = weights_gib(directory, dtype)
    if size is None:
        raise ConfigError(f"`policy.vlm.max_memory_gib` is {budget_gib:g} but {str(directory)!r} has no safetensors "
                          "file to measure the model by; save it with save_pretrained (safetensors) or unset the "
                          "budget")
    if size > budget_gib:
        name = str(dtype).removeprefix("torch.")
        raise ConfigError(f"the model in {str(directory)!r} takes {size:.2f} GiB in {name} (one copy of its "
                          f"weights), over `policy.vlm.max_memory_gib` = {budget_gib:g}: choose a smaller model, a "
                          "narrower `policy.vlm.dtype` (bfloat16 halves float32), or raise the budget")
