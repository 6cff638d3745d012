"""The `distrl` subcommands: train, eval, collect and config, each from a resolved `TrainConfig`."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from android_gym.safe_files import write_text
from distrl_agent.cli.config_help import describe_config, section_names
from distrl_agent.cli.parser import SHORTCUTS
from distrl_agent.config import RuntimeSection, TrainConfig, load_config
from distrl_agent.errors import ConfigError, UntrustedConfigError
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.run_folder import TRUST_FLAG, load_run_config
from distrl_agent.runtime.accounting import episode_accounting, group_accounting, replay_accounting
from distrl_agent.runtime.run_dir import prepare_run_dir


def resolve_config(args: argparse.Namespace, run_dir: str | Path | None = None) -> TrainConfig:
    """The config of a command: `--config` (else `run_dir`'s config.yaml, vetted, else defaults), then flags, then
    positional overrides.

    A run folder's config.yaml is data (`distrl_agent.run_folder`): the judge, phones, task file, model path and
    cluster it names are used only when given again or with `--trust-run-dir`.
    """  # noqa: D205
    overrides = []
    fields = RuntimeSection.model_fields
    for name, dotted in [*((name, f"runtime.{name}") for name in fields), *SHORTCUTS.items()]:
        value = getattr(args, name, None)
        if value is not None:
            is_flag = name in fields and fields[name].annotation is bool
            overrides.append(f"{dotted}={str(value).lower() if is_flag else value}")
    overrides += args.override
    if run_dir is None:
        return load_config(args.config, overrides)
    return load_run_config(run_dir, args.config, overrides, trust=getattr(args, "trust_run_dir", False))


def cmd_train(args: argparse.Namespace) -> int:
    """Train with the resolved config; print it first and the summary last."""
    from distrl_agent.runtime.train import train

    if args.resume and args.run_dir is None:
        args.run_dir = args.resume  # a resumed run writes where it is, whatever its config.yaml says
    config = with_worker_count(resolve_config(args, args.resume))
    config = prepare_run_dir(config, args.resume, args.overwrite)
    print(f"resolved config (saved to {config.run_dir}/config.yaml):\n" + config.to_yaml(), flush=True)
    summary = train(config, resume=args.resume, show_progress=not args.quiet, overwrite=args.overwrite)
    unseen = "".join(f", {k.removesuffix('_success').replace('_', ' ')} success {v:.1%}" for k, v in summary.items()
                     if k.startswith("unseen_") and k.endswith("_success"))
    print(f"done: train success {summary['train_success']:.1%}, test success {summary['test_success']:.1%}{unseen} "
          f"after {summary['minutes']} min, {summary['env_steps']} env steps, {summary['updates']} updates; "
          f"outputs in {config.run_dir} (summary.json holds every figure)")
    print(episode_accounting(summary))
    print(replay_accounting(summary))
    if (groups := group_accounting(summary)) is not None:
        print(groups)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Evaluate a run's checkpoint on a split; print the result and write it to `--out`."""
    from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
    from distrl_agent.runtime.collect import evaluate_by_task

    run = Path(args.checkpoint)
    config = resolve_config(args, run)
    checkpoint = find_checkpoint(run)
    saved = read_policy(checkpoint)
    if isinstance(saved.config, VLMPolicyConfig) and not args.trust_run_dir:
        saved = replace(saved, config=user_model_path(saved.config, config, checkpoint))
    version = saved.version
    check_split(config, args.split)
    episodes = config.runtime.eval_episodes
    rate, by_task = evaluate_by_task(config, saved.weights, version, args.split, episodes, args.eval_seed,
                                     saved.config)
    result = {"checkpoint": str(checkpoint), "version": version, "split": args.split, "episodes": episodes,
              "success": rate, "success_by_task": by_task}
    out = Path(args.out) if args.out else run / f"eval_{args.split}.json"
    write_text(out, json.dumps(result, indent=2))
    print(json.dumps(result))
    return 0


def user_model_path(saved: VLMPolicyConfig, config: TrainConfig, checkpoint: Path) -> VLMPolicyConfig:
    """The checkpoint's VLM policy config with the model folder the user named (`policy.vlm.model_path`).

    A checkpoint's learner.json is data like its config.yaml: the model folder it names is loaded only when the user
    names it (the weights then come from the checkpoint) or trusts the folder.

    Raises:
        UntrustedConfigError: the user named no VLM model folder.
    """
    if config.policy.vlm is None:
        raise UntrustedConfigError(
            f"the checkpoint in {checkpoint} holds a VLM policy whose model folder is {saved.model_path!r}; a run "
            "folder cannot choose a model folder to load for you. Give it yourself "
            f"(`policy.kind=vlm policy.vlm.model_path=DIR`), or pass {TRUST_FLAG} if you trust {checkpoint.parent}")
    return saved.replace(model_path=config.policy.vlm.model_path)


def cmd_collect(args: argparse.Namespace) -> int:
    """Collect with the untrained policy for `--seconds`; print throughput and write it to run_dir/collect.json.

    collect.json holds the resolved config too (a run's own config.yaml in the same run_dir is left alone).
    """
    from distrl_agent.runtime.collect import collect

    config = with_worker_count(resolve_config(args))
    if config.run_dir is None:  # a folder of its own, which `runs/latest` does not point at (it is no training run)
        config = prepare_run_dir(config, kind=f"collect-{config.env.suite}")
    print("resolved config:\n" + config.to_yaml(), flush=True)
    run_dir = Path(str(config.run_dir))
    run_dir.mkdir(parents=True, exist_ok=True)
    result = collect(config, args.seconds, save_to=args.save)
    write_text(run_dir / "collect.json", json.dumps({**result, "config": config.to_dict()}, indent=2))
    print(json.dumps(result))
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    """Print the config `distrl train` would run with these flags and overrides, as YAML; start nothing."""
    config = with_worker_count(resolve_config(args))
    print("# the resolved config (`distrl train --config FILE` runs it; run_dir null: a new folder under runs/)")
    print(config.to_yaml(), end="")
    return 0


def cmd_help_config(args: argparse.Namespace) -> int:
    """`--help-config [SECTION]`: every setting of the resolved config, with what it does; start nothing."""
    config = resolve_config(args)
    section = args.help_config or None
    if section is not None and section not in section_names(config):
        raise ConfigError(f"`--help-config {section}`: no such section; sections: {', '.join(section_names(config))}")
    print(describe_config(config, section), end="")
    return 0


def with_worker_count(config: TrainConfig) -> TrainConfig:
    """`config` with `runtime.workers` resolved to the count the run uses (None: the cores minus one)."""
    return config.replace(runtime=config.runtime.replace(workers=config.runtime.worker_count()))


def check_split(config: TrainConfig, split: str) -> None:
    """Refuse a split the run's suite does not hold (World alone holds out templates and apps).

    Raises:
        ConfigError: naming the split, the suite and the splits it has.
    """
    from android_gym.tasks import suites

    known = suites.splits_of(config.env.suite)
    if split not in known:
        raise ConfigError(f"`--split {split}`: the suite {config.env.suite!r} of this run has no such split; it has "
                          f"{', '.join(known)}")


COMMANDS = {"train": cmd_train, "eval": cmd_eval, "collect": cmd_collect, "config": cmd_config}
"""Subcommand name -> function (`--help-config` on any of them runs `cmd_help_config` instead)."""
