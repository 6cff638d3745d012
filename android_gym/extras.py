"""The optional dependencies: which extra of `pip install "distrl[...]"` brings which modules, checked by name.

The core install is the environment alone (android_gym with the simulated phone, ADB, the emulator's console, the
state-check and HTTP judges): no torch. A feature that needs more checks for its extra when it is used, before any
import can fail halfway:

>>> require_extra("sb3", "a test")  # installed here, so nothing happens
>>> EXTRAS["mllm"]
('torch', 'transformers')
"""

from __future__ import annotations

import importlib.util

from android_gym.errors import MissingExtraError

EXTRAS: dict[str, tuple[str, ...]] = {
    "mllm": ("torch", "transformers"),
    "sb3": ("stable_baselines3",),
    "agent": ("torch", "transformers", "tqdm", "yaml", "tensorboard", "safetensors"),
    "bench": ("matplotlib", "scipy", "psutil"),
    "ray": ("ray", "grpc"),
    "lora": ("peft",),
    "wandb": ("wandb",),
    "emulator": ("android_env", "grpc", "immutabledict"),
}
"""Each extra of pyproject.toml and the top-level modules it installs (a test holds the two together)."""


def missing_modules(extra: str) -> list[str]:
    """The modules of `extra` that cannot be imported here (found without importing them)."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def require_extra(extra: str, feature: str) -> None:
    """Raise `MissingExtraError` naming `feature` and `extra` unless every module of `extra` is installed.

    Args:
        extra: a key of `EXTRAS`.
        feature: what needs it, as the user asked for it (e.g. "the local multimodal judge (evaluator='mllm:...')").
    """
    missing = missing_modules(extra)
    if missing:
        raise MissingExtraError(f"{feature} needs the `{extra}` extra ({', '.join(missing)} not installed): "
                                f"pip install \"distrl[{extra}]\"")
