"""The Python API: `train` a run and `evaluate` a run's checkpoint, with typed results.

    import distrl_agent as distrl

    if __name__ == "__main__":                      # the workers are processes
        result = distrl.train({"runtime": {"minutes": 2}}, callbacks=[MyCallback()])
        print(result.test_success, result.run_dir)
        print(distrl.evaluate(result.run_dir, split="test", episodes=50).success)

A config is a `TrainConfig`, a mapping of its sections, a YAML file's path, or None (the defaults), with `overrides`
(`"section.key=value"`, as on the command line) applied last. `distrl train` and `distrl eval` run these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from distrl_agent.config import TrainConfig, apply_overrides, load_config, override_key
from distrl_agent.policies.custom_config import CustomPolicyConfig
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.run_folder import load_run_config
from distrl_agent.runtime.callbacks import Callback

ConfigLike = TrainConfig | Mapping[str, Any] | str | Path | None
"""What `train` takes as a config: a `TrainConfig`, a mapping of its sections, a YAML path, or None (defaults)."""


@dataclass(frozen=True)
class TrainResult:
    """What a training run achieved; `summary` holds every figure (what summary.json holds).

    Attributes:
        run_dir: the run's folder (checkpoint, config.yaml, metrics.jsonl, tb/, summary.json).
        train_success, test_success: final greedy success rates on the train and test splits.
        env_steps, updates, minutes: what the run spent (across resumes).
        summary: the whole summary.
    """

    run_dir: Path
    train_success: float
    test_success: float
    env_steps: int
    updates: int
    minutes: float
    summary: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class EvalResult:
    """A checkpoint's greedy evaluation on one split.

    Attributes:
        success: the success rate over `episodes` episodes.
        by_task: success per template.
        split, episodes, seed: what was played.
        version: the learner version of the checkpoint.
        checkpoint: the checkpoint folder read.
    """

    success: float
    by_task: dict[str, float]
    split: str
    episodes: int
    seed: int
    version: int
    checkpoint: Path


def as_config(config: ConfigLike = None, overrides: Sequence[str] = ()) -> TrainConfig:
    """A `TrainConfig` from any `ConfigLike`, with `overrides` applied last.

    Raises:
        ConfigError: a bad file, key or value (naming it).
    """
    if isinstance(config, TrainConfig):
        if not overrides:
            return config
        config = config.to_dict()
    if config is None or isinstance(config, (str, Path)):
        return load_config(config, list(overrides))
    data = {k: dict(v) if isinstance(v, Mapping) else v for k, v in config.items()}
    apply_overrides(data, list(overrides))
    return TrainConfig.from_data(data)


def train(config: ConfigLike = None, *, overrides: Sequence[str] = (), callbacks: Sequence[Callback] = (),
          resume: str | Path | None = None, overwrite: bool = False, show_progress: bool = True) -> TrainResult:
    """Train until the budget is spent (`runtime.minutes`, `max_updates`, `max_env_steps`) or a callback stops it.

    Args:
        config: the run (see `as_config`); without `run_dir` it gets a new folder under `runs/`.
        overrides: `section.key=value` settings applied to `config` last.
        callbacks: hooks at the run's events (`distrl_agent.Callback`; `distrl_agent.WandbLogger` logs to W&B).
        resume: continue the run in this folder from its checkpoint; with `config` None, the folder's own config
            (vetted as `run_config` does: its judge, phones, task file, model or cluster must be given again in
            `overrides`).
        overwrite: a `run_dir` holding an earlier run loses that run's files instead of being refused.
        show_progress: draw the progress bar.

    Raises:
        ConfigError, RunDirError, CheckpointError, WorkerError, ClusterError: as `distrl_agent.runtime.train.train`.
    """
    from distrl_agent.runtime.run_dir import prepare_run_dir
    from distrl_agent.runtime.train import train as run_training

    if resume is not None and config is None:
        base = run_config(resume, overrides)
        if not any(override_key(o) == "run_dir" for o in overrides):  # where the run is, not where it was written
            base = base.replace(run_dir=None)
    else:
        base = as_config(config, overrides)
    resolved = prepare_run_dir(base, resume, overwrite)
    summary = run_training(resolved, resume=resume, show_progress=show_progress, overwrite=overwrite,
                           callbacks=callbacks)
    return TrainResult(run_dir=Path(str(resolved.run_dir)), train_success=summary["train_success"],
                       test_success=summary["test_success"], env_steps=int(summary["env_steps"]),
                       updates=int(summary["updates"]), minutes=float(summary["minutes"]), summary=summary)


def run_config(run_dir: str | Path, overrides: Sequence[str] = (), trust: bool = False) -> TrainConfig:
    """The config of the run in `run_dir` (its config.yaml, vetted as a downloaded folder's: see `run_folder`).

    Raises:
        UntrustedConfigError: the folder names a judge, phones, task file, model or cluster that `overrides` do not
            give again, and `trust` is off.
    """
    return load_run_config(run_dir, None, overrides, trust=trust)


def evaluate(run_dir: str | Path, split: str = "test", episodes: int | None = None, seed: int = 12345, *,
             overrides: Sequence[str] = (), trust: bool = False) -> EvalResult:
    """Evaluate the newest complete checkpoint of the run in `run_dir`, greedily, on `split`.

    Args:
        run_dir: a run folder.
        split: "train", "test", or on World "unseen_templates" / "unseen_apps".
        episodes: how many (default: the run's `runtime.eval_episodes`); spread evenly over the split's templates.
        seed: seeds the evaluation episodes.
        overrides: `section.key=value` settings applied to the run's config (a folder's judge, phones, task file or
            model path must be given again here, or trusted).
        trust: take those from the folder as they are (`--trust-run-dir`).

    Raises:
        ConfigError: a split the run's suite lacks, `episodes` < 1, a bad override, an untrusted folder key.
        CheckpointError: no complete checkpoint in `run_dir`.
    """
    from android_gym.tasks import suites
    from distrl_agent.errors import ConfigError
    from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
    from distrl_agent.runtime.collect import evaluate_by_task

    extra = [f"runtime.eval_episodes={episodes}"] if episodes is not None else []
    config = run_config(run_dir, [*overrides, *extra], trust)
    known = suites.splits_of(config.env.suite)
    if split not in known:
        raise ConfigError(f"split {split!r}: the suite {config.env.suite!r} of this run has no such split; it has "
                          f"{', '.join(known)}")
    checkpoint = find_checkpoint(run_dir)
    saved = read_policy(checkpoint)
    if isinstance(saved.config, VLMPolicyConfig) and not trust:
        saved = replace(saved, config=user_model_path(saved.config, config, checkpoint))
    if isinstance(saved.config, CustomPolicyConfig):  # code: never from the checkpoint, trusted or not
        saved = replace(saved, config=user_policy_class(saved.config, config, checkpoint))
    count = config.runtime.eval_episodes
    rate, by_task = evaluate_by_task(config, saved.weights, saved.version, split, count, seed, saved.config)
    return EvalResult(success=rate, by_task=by_task, split=split, episodes=count, seed=seed, version=saved.version,
                      checkpoint=checkpoint)


def user_policy_class(saved: CustomPolicyConfig, config: TrainConfig, checkpoint: Path) -> CustomPolicyConfig:
    """The user's custom policy config in place of the checkpoint's (whose class would be imported from its words).

    Raises:
        UntrustedConfigError: the user named no custom policy.
    """
    from distrl_agent.errors import UntrustedConfigError

    if config.policy.custom is None:
        raise UntrustedConfigError(
            f"the checkpoint in {checkpoint} holds a custom policy, {saved.target!r}; a checkpoint cannot choose code "
            "to import. Name the class yourself: `policy.kind=custom policy.custom.target=<module>:<class>` (and "
            "`policy.custom.config` as trained)")
    return config.policy.custom


def user_model_path(saved: VLMPolicyConfig, config: TrainConfig, checkpoint: Path) -> VLMPolicyConfig:
    """The checkpoint's VLM policy config with the model folder the user named (`policy.vlm.model_path`).

    A checkpoint's learner.json is data like its config.yaml: the model folder it names is loaded only when the user
    names it (the weights then come from the checkpoint) or trusts the folder.

    Raises:
        UntrustedConfigError: the user named no VLM model folder.
    """
    from distrl_agent.errors import UntrustedConfigError
    from distrl_agent.run_folder import TRUST_FLAG

    if config.policy.vlm is None:
        raise UntrustedConfigError(
            f"the checkpoint in {checkpoint} holds a VLM policy whose model folder is {saved.model_path!r}; a run "
            "folder cannot choose a model folder to load for you. Give it yourself "
            f"(`policy.kind=vlm policy.vlm.model_path=DIR`), or pass {TRUST_FLAG} if you trust {checkpoint.parent}")
    return saved.replace(model_path=config.policy.vlm.model_path)
