"""distrl_agent: the DistRL trainer (asynchronous actor-learner with A-RIDE) for `android_gym` environments.

The Python API (`distrl_agent.api`): `train(config, callbacks=[...]) -> TrainResult`, `evaluate(run_dir, split) ->
EvalResult`, `run_config(run_dir)`, `load_config(path, overrides)`, `Callback` (hooks at a run's events),
`WandbLogger`, and `export_policy(run_dir, out)` (a trained VLM as a transformers model: `distrl_agent.export`).
They load on first use, so `import distrl_agent` stays light (no torch); they need the `agent` extra
(`pip install "distrl[agent]"`: torch, transformers, ...), and say so when it is missing.

It depends on `android_gym` only through Gymnasium and the environment's public types; the replay buffer, the
trajectory containers and the maths under `algorithms/` depend on numpy and torch alone.
"""

from __future__ import annotations

import importlib
from typing import Any

from android_gym.extras import require_extra

__version__ = "0.1.0"

_EXPORTS = {
    "train": "distrl_agent.api", "evaluate": "distrl_agent.api", "run_config": "distrl_agent.api",
    "TrainResult": "distrl_agent.api", "EvalResult": "distrl_agent.api",
    "load_config": "distrl_agent.config", "TrainConfig": "distrl_agent.config",
    "Callback": "distrl_agent.runtime.callbacks", "WandbLogger": "distrl_agent.runtime.wandb_logger",
    "export_policy": "distrl_agent.export", "ExportResult": "distrl_agent.export",
}
__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        require_extra("agent", f"distrl_agent.{name}")  # the core install is the environment alone
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'distrl_agent' has no attribute {name!r}")
