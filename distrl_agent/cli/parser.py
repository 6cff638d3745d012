"""The `distrl` command line: subcommands, the flags built from the config's `runtime` section, and overrides.

`section.key=value` overrides may stand anywhere on the line, before or after flags (argparse alone takes
positionals only in one run); every boolean setting has a `--no-` form; every flag's help gives the setting's
description and default from the config's own docstrings (`ConfigModel.field_docs`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from android_gym.tasks.suites import SUITE_SPLITS
from distrl_agent.algorithms.configs import ALGORITHMS
from distrl_agent.config import RuntimeSection
from distrl_agent.run_folder import TRUST_FLAG

SHORTCUTS = {"algorithm": "learner.algorithm", "env_id": "env.env_id", "run_dir": "run_dir"}
"""Flags that set a key outside `runtime` (`--algorithm ppo` is `learner.algorithm=ppo`)."""
ALIASES = {"eval": {"eval_episodes": ("--episodes",)}}
"""Other names of a runtime flag in one subcommand: `distrl eval --episodes N` is `--eval-episodes N`."""
OVERRIDES_HELP = ("overrides: any number of section.key=value anywhere on the line (values are YAML), e.g. "
                  "learner.algorithm=digirl runtime.minutes=5 'learner.coefficients={entropy_coef: 0.02}'; "
                  "`--help-config [SECTION]` lists every key with its value and what it does")


class OneLineErrors(argparse.ArgumentParser):
    """An `ArgumentParser` whose usage errors are one line and exit 2, pointing at `--help` for the usage."""

    def error(self, message: str) -> NoReturn:  # noqa: D102
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser(description: str | None = None) -> argparse.ArgumentParser:
    """The `distrl` argument parser (overrides are collected by `parse_args`, not declared here)."""
    parser = OneLineErrors(prog="distrl", description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{train,eval,collect,config,export}")
    train_p = sub.add_parser("train", help="train an agent (the main job)", epilog=OVERRIDES_HELP,
                             description="Train an agent; each run writes into a new folder "
                                         "runs/<date>-<time>-<algorithm>-<suite> (runs/latest points at it).")
    train_p.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its checkpoint")
    train_p.add_argument("--overwrite", action="store_true",
                         help="with --run-dir: replace the earlier run in that folder (its config, metrics, "
                              "TensorBoard files, checkpoints, evaluations) instead of refusing it")
    train_p.add_argument("--quiet", action="store_true", help="no progress bar")
    train_p.add_argument("--wandb", metavar="PROJECT",
                         help='also log the run to Weights & Biases, in PROJECT (pip install -e ".[wandb]")')
    eval_p = sub.add_parser("eval", help="evaluate a checkpoint", epilog=OVERRIDES_HELP,
                            description="Evaluate a run's checkpoint on a split of its suite.")
    eval_p.add_argument("--checkpoint", required=True, metavar="DIR", help="a run folder (e.g. runs/latest)")
    eval_p.add_argument("--split", choices=SUITE_SPLITS, default="test",
                        help="held-out values (test, default), the training tasks (train), or, on World, held-out "
                             "templates or apps")
    eval_p.add_argument("--eval-seed", type=int, default=12345, metavar="N",
                        help="seeds the evaluation episodes (default: 12345)")
    eval_p.add_argument("--out", metavar="FILE", help="result file (default: DIR/eval_<split>.json)")
    collect_p = sub.add_parser("collect", help="collect data only, for throughput measurement", epilog=OVERRIDES_HELP)
    collect_p.add_argument("--seconds", type=float, default=30.0, help="measured collection time (default: 30)")
    collect_p.add_argument("--save", metavar="FILE", help="also write the trajectories to this .npz")
    config_p = sub.add_parser("config", help="print the resolved config and start nothing", epilog=OVERRIDES_HELP,
                              description="Print the config that `distrl train` would run with these flags and "
                                          "overrides, as YAML (loadable with --config), and start nothing.")
    export_p = sub.add_parser("export", help="write a trained VLM as a transformers model (or a LoRA adapter)",
                              epilog=OVERRIDES_HELP,
                              description="Write the VLM of a run's newest checkpoint to a folder that "
                                          "transformers loads (save_pretrained with its processor), or, for a "
                                          "LoRA run, the adapter that peft loads on its base model.")
    export_p.add_argument("--checkpoint", required=True, metavar="DIR", help="a run folder (e.g. runs/latest)")
    export_p.add_argument("--out", required=True, metavar="DIR", help="the folder to write (new, or empty)")
    export_p.add_argument("--overwrite", action="store_true", help="write into a folder that holds files already")
    for name, p in (("train", train_p), ("eval", eval_p), ("collect", collect_p), ("config", config_p),
                    ("export", export_p)):
        p.set_defaults(command_parser=p)
        add_config_flags(p, ALIASES.get(name, {}))
    for p in (train_p, eval_p, export_p):
        p.add_argument(TRUST_FLAG, action="store_true",
                       help="take the judge, phones, task file, model path and Ray address that the run folder's "
                            "config.yaml names (without it, each must be given again)")
    return parser


def add_config_flags(parser: argparse.ArgumentParser, aliases: dict[str, tuple[str, ...]] | None = None) -> None:
    """`--config`, `--help-config`, a flag per `runtime` setting (booleans with `--no-`), and the shortcuts."""
    parser.add_argument("--config", metavar="FILE", help="a YAML config file (`distrl config` writes one)")
    parser.add_argument("--help-config", nargs="?", const="", metavar="SECTION",
                        help="list every setting (of SECTION: env, policy, learner, learner.coefficients, runtime, "
                             "...) with its value and what it does, then exit")
    group = parser.add_argument_group("runtime settings (each sets runtime.<name>)")
    docs = RuntimeSection.field_docs()
    for name, field in RuntimeSection.model_fields.items():
        flags = ["--" + name.replace("_", "-"), *(aliases or {}).get(name, ())]
        text = f"{_first_sentence(docs.get(name, ''))} ({_default(field.get_default(call_default_factory=True))})"
        if field.annotation is bool:
            group.add_argument(*flags, dest=name, action=argparse.BooleanOptionalAction, default=None,
                               help=text.replace("%", "%%"))
        else:
            group.add_argument(*flags, dest=name, metavar="VALUE", help=text.replace("%", "%%"))
    for name, dotted in SHORTCUTS.items():
        known = f" (one of: {', '.join(ALGORITHMS)})" if name == "algorithm" else ""
        parser.add_argument("--" + name.replace("_", "-"), dest=name, metavar="VALUE", help=f"sets {dotted}{known}")


def parse_args(argv: Sequence[str] | None = None, description: str | None = None) -> argparse.Namespace:
    """Parse a command line; `args.override` holds the `key=value` tokens wherever they stood.

    Exits 2 with one usage line for anything else argparse does not know (as argparse does).

    >>> args = parse_args(["train", "learner.algorithm=digirl", "--sync", "runtime.minutes=5", "--no-fault-prefixes"])
    >>> args.override, args.sync, args.fault_prefixes
    (['learner.algorithm=digirl', 'runtime.minutes=5'], True, False)
    """
    parser = build_parser(description)
    args, extra = parser.parse_known_args(argv)
    overrides = [token for token in extra if _is_override(token)]
    unknown = [token for token in extra if not _is_override(token)]
    if unknown:
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)} (overrides look like "
                                  "section.key=value)")
    if args.help_config and "=" in args.help_config:  # `--help-config key=value`: an override, not a section
        overrides.insert(0, args.help_config)
        args.help_config = ""
    args.override = overrides
    return args


def _is_override(token: str) -> bool:
    return "=" in token and not token.startswith("-")


def _first_sentence(text: str) -> str:
    """The text up to its first full stop or semicolon outside brackets (help lines stay one or two lines)."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch in ".;" and (i + 1 == len(text) or text[i + 1] == " ") and not _abbreviation(text, i):
            return text[:i]
    return text


def _abbreviation(text: str, i: int) -> bool:
    return text[max(0, i - 3):i + 1] in ("e.g.", "i.e.")


def _default(value: Any) -> str:
    shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"default: {shown}"
