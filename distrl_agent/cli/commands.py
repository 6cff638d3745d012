"""The `distrl` subcommands: train, eval, collect, config and export, each from a resolved `TrainConfig`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from android_gym.safe_files import write_text
from distrl_agent.cli.config_help import describe_config, section_names
from distrl_agent.cli.parser import SHORTCUTS
from distrl_agent.config import RuntimeSection, TrainConfig, load_config
from distrl_agent.errors import ConfigError
from distrl_agent.run_folder import load_run_config
from distrl_agent.runtime.accounting import episode_accounting, group_accounting, replay_accounting
from distrl_agent.runtime.run_dir import prepare_run_dir


def resolve_config(args: argparse.Namespace, run_dir: str | Path | None = None) -> TrainConfig:
    """The config of a command: `--config` (else `run_dir`'s config.yaml, vetted, else defaults), then flags, then
    positional overrides.

    A run folder's config.yaml is data (`distrl_agent.run_folder`): the judge, phones, task file, model path and
    cluster it names are used only when given again or with `--trust-run-dir`.
    """  # noqa: D205
    overrides = config_overrides(args)
    if run_dir is None:
        return load_config(args.config, overrides)
    return load_run_config(run_dir, args.config, overrides, trust=getattr(args, "trust_run_dir", False))


def config_overrides(args: argparse.Namespace) -> list[str]:
    """The command line's settings as overrides: the runtime flags and shortcuts first, then `key=value`s."""
    overrides = []
    fields = RuntimeSection.model_fields
    for name, dotted in [*((name, f"runtime.{name}") for name in fields), *SHORTCUTS.items()]:
        value = getattr(args, name, None)
        if value is not None:
            is_flag = name in fields and fields[name].annotation is bool
            overrides.append(f"{dotted}={str(value).lower() if is_flag else value}")
    return overrides + args.override


def cmd_train(args: argparse.Namespace) -> int:
    """Train with the resolved config; print it first and the summary last."""
    from distrl_agent.runtime.train import train
    from distrl_agent.runtime.wandb_logger import WandbLogger

    if args.resume and args.run_dir is None:
        args.run_dir = args.resume  # a resumed run writes where it is, whatever its config.yaml says
    config = with_worker_count(resolve_config(args, args.resume))
    callbacks = [WandbLogger(args.wandb)] if args.wandb else []  # before anything starts: wandb may be missing
    config = prepare_run_dir(config, args.resume, args.overwrite)
    print(f"resolved config (saved to {config.run_dir}/config.yaml):\n" + config.to_yaml(), flush=True)
    summary = train(config, resume=args.resume, show_progress=not args.quiet, overwrite=args.overwrite,
                    callbacks=callbacks)
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
    from distrl_agent.api import evaluate

    run = Path(args.checkpoint)
    result = evaluate(run, args.split, seed=args.eval_seed, overrides=config_overrides(args),
                      trust=args.trust_run_dir)
    record = {"checkpoint": str(result.checkpoint), "version": result.version, "split": result.split,
              "episodes": result.episodes, "success": result.success, "success_by_task": result.by_task}
    out = Path(args.out) if args.out else run / f"eval_{args.split}.json"
    write_text(out, json.dumps(record, indent=2))
    print(json.dumps(record))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write the run's VLM to `--out` (`distrl_agent.export`); print what was written."""
    from distrl_agent.export import export_policy

    result = export_policy(args.checkpoint, args.out, overrides=config_overrides(args), trust=args.trust_run_dir,
                           overwrite=args.overwrite)
    what = "model" if result.base is None else f"LoRA adapter of {result.base}"
    print(f"exported the {what} of {result.checkpoint} (version {result.version}) to {result.out}")
    return 0


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


COMMANDS = {"train": cmd_train, "eval": cmd_eval, "collect": cmd_collect, "config": cmd_config,
            "export": cmd_export}
"""Subcommand name -> function (`--help-config` on any of them runs `cmd_help_config` instead)."""
