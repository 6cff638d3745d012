"""`TrainConfig`: one frozen tree of every knob of a training run, loaded from YAML with dotted overrides."""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from distrl_agent.algorithms import ALGORITHMS
from distrl_agent.errors import ConfigError


@dataclass(frozen=True)
class EnvSection:
    """Which environments the workers run.

    Attributes:
        env_id: a registered android_gym id.
        perturbations: "none", "default" or "hard".
        latency: sim latency preset ("off", "emulator", "fast-emulator"); off for training on the sim.
        latency_time_scale: multiplies sim latency (benchmarks shrink emulator time).
        max_elements: UI-element rows in observations.
    """

    env_id: str = "android_gym/General-v0"
    perturbations: str = "default"
    latency: str = "off"
    latency_time_scale: float = 1.0
    max_elements: int = 48


@dataclass(frozen=True)
class LearnerSection:
    """The learner's update loop.

    Attributes:
        algorithm: one of `distrl_agent.algorithms.ALGORITHMS`.
        coefficients: overrides of the algorithm's config dataclass (e.g. {"entropy_coef": 0.01}).
        lr: Adam learning rate (a small CPU policy wants more than the paper's 1e-4 for 7B models).
        batch_size: trajectories per update.
        updates_per_round: updates after each ingest of new trajectories.
        max_grad_norm: gradient clipping.
        replay_capacity_steps: replay size in steps (paper: 10,000).
        alpha: priority exponent; beta_start -> beta_end over `beta_anneal_updates` updates (IS correction).
        max_staleness: drop trajectories whose policy lags the learner by more versions (updates) than this.
        refresh_every_updates: recompute every priority this often (they go stale as pi moves).
        min_replay_trajectories: updates start once the replay holds this many.
    """

    algorithm: str = "a-ride"
    coefficients: dict[str, Any] = field(default_factory=dict)
    lr: float = 1e-3
    batch_size: int = 32
    updates_per_round: int = 4
    max_grad_norm: float = 1.0
    replay_capacity_steps: int = 10_000
    alpha: float = 0.6
    beta_start: float = 0.4
    beta_end: float = 1.0
    beta_anneal_updates: int = 2_000
    max_staleness: int = 1000
    refresh_every_updates: int = 200
    min_replay_trajectories: int = 32


@dataclass(frozen=True)
class RuntimeSection:
    """How collection runs.

    Attributes:
        runtime: "local" (processes on this machine) or "ray".
        address: Ray address ("auto" joins a running cluster; None starts a local one).
        workers: rollout worker processes (default: cores - 1, at least 1).
        envs_per_worker: environments each worker steps in one batch.
        sync: DigiRL's synchronous protocol (all workers finish a round, then the learner trains).
        episodes_per_round: episodes each worker plays per round in sync mode.
        minutes: wall-clock budget of the run.
        eval_every_s: seconds between evaluations on the test split.
        eval_episodes: episodes per evaluation (and in the final summary, per split).
        warm_start_episodes: noisy expert demonstrations for behaviour cloning before RL (0 = cold start).
        warm_start_noise: probability a demonstration step is replaced by a random action.
        warm_start_updates: behaviour-cloning gradient steps.
        seed: seeds workers, learner and evaluation.
    """

    runtime: str = "local"
    address: str | None = None
    workers: int | None = None
    envs_per_worker: int = 8
    sync: bool = False
    episodes_per_round: int = 16
    minutes: float = 20.0
    eval_every_s: float = 120.0
    eval_episodes: int = 100
    warm_start_episodes: int = 400
    warm_start_noise: float = 0.5
    warm_start_updates: int = 150
    seed: int = 0


@dataclass(frozen=True)
class TrainConfig:
    """The whole run: env, learner, runtime, and where outputs go."""

    env: EnvSection = field(default_factory=EnvSection)
    learner: LearnerSection = field(default_factory=LearnerSection)
    runtime: RuntimeSection = field(default_factory=RuntimeSection)
    run_dir: str = "runs/latest"

    def __post_init__(self) -> None:
        if self.learner.algorithm not in ALGORITHMS:
            close = difflib.get_close_matches(self.learner.algorithm, ALGORITHMS, 1)
            raise ConfigError(f"`learner.algorithm` {self.learner.algorithm!r} is unknown"
                              f"{f'; did you mean {close[0]!r}?' if close else ''} Known: {', '.join(ALGORITHMS)}")
        if self.runtime.runtime not in ("local", "ray"):
            raise ConfigError(f"`runtime.runtime` must be 'local' or 'ray', got {self.runtime.runtime!r}")
        for name, value in (("runtime.envs_per_worker", self.runtime.envs_per_worker),
                            ("learner.batch_size", self.learner.batch_size),
                            ("runtime.eval_episodes", self.runtime.eval_episodes)):
            if value < 1:
                raise ConfigError(f"`{name}` must be >= 1, got {value}")
        if self.runtime.workers is not None and self.runtime.workers < 1:
            raise ConfigError(f"`runtime.workers` must be >= 1, got {self.runtime.workers}")
        if self.runtime.minutes <= 0:
            raise ConfigError(f"`runtime.minutes` must be > 0, got {self.runtime.minutes}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for YAML)."""
        return dataclasses.asdict(self)


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """A `TrainConfig` from an optional YAML file and `key.sub=value` overrides (values parsed as YAML).

    Raises:
        ConfigError: unknown keys (with the closest name), bad values, unreadable file.

    >>> load_config(overrides=["learner.algorithm=digirl", "runtime.workers=2"]).runtime.workers
    2
    """
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = yaml.safe_load(Path(path).read_text()) or {}
        except (OSError, yaml.YAMLError) as e:
            raise ConfigError(f"cannot read config file {path}: {e}") from e
        if not isinstance(data, dict):
            raise ConfigError(f"config file {path} must hold a mapping, got {type(data).__name__}")
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep:
            raise ConfigError(f"override {item!r} must look like section.key=value")
        node = data
        parts = key.strip().split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = yaml.safe_load(raw)
    return _build(TrainConfig, data, "")


def _build(cls: type, data: dict[str, Any], prefix: str) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs = {}
    for key, value in data.items():
        if key not in fields:
            close = difflib.get_close_matches(key, list(fields), 1)
            hint = f"; did you mean {prefix}{close[0]!r}?" if close else ""
            raise ConfigError(f"unknown config key {prefix}{key!r}{hint} Known: {', '.join(fields)}")
        ftype = fields[key].type
        sub = {"EnvSection": EnvSection, "LearnerSection": LearnerSection, "RuntimeSection": RuntimeSection}.get(
            ftype if isinstance(ftype, str) else getattr(ftype, "__name__", ""))
        if sub is not None:
            if not isinstance(value, dict):
                raise ConfigError(f"config key {prefix}{key!r} must be a mapping, got {value!r}")
            kwargs[key] = _build(sub, value, f"{prefix}{key}.")
        else:
            kwargs[key] = value
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise ConfigError(f"bad config values in {prefix or 'the top level'}: {e}") from e
