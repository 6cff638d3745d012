"""`WandbLogger`: a run's config, metrics and summary in Weights & Biases (`pip install -e ".[wandb]"`).

`distrl train --wandb PROJECT` adds one; from Python, `train(config, callbacks=[WandbLogger("my-project")])`. W&B's
own settings apply (`WANDB_MODE=offline` logs locally, `WANDB_API_KEY`, `WANDB_DIR`); the run folder is its `dir`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from distrl_agent.config import TrainConfig
from distrl_agent.errors import ConfigError
from distrl_agent.runtime.callbacks import Callback


def require_wandb() -> Any:
    """The `wandb` module.

    Raises:
        ConfigError: wandb is not installed (naming the extra that installs it).
    """
    try:
        return importlib.import_module("wandb")
    except ImportError as e:
        raise ConfigError('logging to W&B needs wandb: pip install -e ".[wandb]" (or pip install wandb)') from e


class WandbLogger(Callback):
    """Log a training run to W&B: the resolved config at the start, every metrics record at the learner's version,
    the checkpoints' paths, and the summary at the end.

    Args:
        project: the W&B project (None: W&B's default, e.g. $WANDB_PROJECT).
        **init_kwargs: more `wandb.init` arguments (`entity`, `name`, `tags`, `mode`, ...).

    Raises:
        ConfigError: wandb is not installed.
    """  # noqa: D205

    def __init__(self, project: str | None = None, **init_kwargs: Any) -> None:
        self.wandb = require_wandb()
        self.project, self.init_kwargs = project, init_kwargs
        self.run: Any = None

    def on_start(self, config: TrainConfig) -> None:  # noqa: D102
        name = Path(str(config.run_dir)).name
        self.run = self.wandb.init(project=self.project, config=config.to_dict(), dir=config.run_dir,
                                   **{"name": name, **self.init_kwargs})

    def on_metrics(self, step: int, elapsed_s: float, metrics: Mapping[str, float]) -> bool | None:  # noqa: D102
        if self.run is not None:
            self.run.log({**metrics, "time_s": elapsed_s}, step=step)
        return None

    def on_checkpoint(self, step: int, path: Path) -> None:  # noqa: D102
        if self.run is not None:
            self.run.summary["checkpoint"] = str(path)

    def on_end(self, summary: Mapping[str, Any]) -> None:  # noqa: D102
        if self.run is not None:
            self.run.summary.update({k: v for k, v in summary.items() if isinstance(v, (int, float, str))})
            self.run.finish()
            self.run = None
