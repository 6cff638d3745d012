"""A run folder is data: what `distrl train --resume DIR` and `distrl eval --checkpoint DIR` take from its config.yaml.

A run folder may come from anyone (a colleague, a paper's artefacts, a hub). Its config.yaml is needed to rebuild the
run (env, policy, learner), but some keys do more than shape the run: they name something outside the folder to
reach or to run (issue 43). A judge endpoint receives every screenshot and goal, with the API key of a variable the
file names; a task file's lines are sent to that judge; a model folder with `trust_remote_code` runs its Python; a
device spec or a Ray address drives machines. Those keys, `REACHING_KEYS`, are taken from a folder only when the user
says so:

- by giving the key again (`env.evaluator=...` on the command line): the user's value replaces the folder's whole
  group (its judge options go with its judge);
- or by `--trust-run-dir`, which takes the folder's values as they are.

Otherwise the command stops before building anything, naming each key, the folder's value and both ways to allow it.
An option that imports code (`trust_remote_code`, a `py:` judge, a custom policy's `policy.custom.target`) is never
taken from a folder, trusted or not: it comes only from the command line or the user's own `--config`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from android_gym.evaluators.factory import code_terms
from distrl_agent.config import TrainConfig, apply_overrides, override_key, read_config_file
from distrl_agent.errors import UntrustedConfigError

CONFIG_FILE = "config.yaml"
TRUST_FLAG = "--trust-run-dir"
CODE_OPTIONS = ("trust_remote_code",)
"""Option names that make a loader import code shipped with a model (transformers' `trust_remote_code`)."""


@dataclass(frozen=True)
class ReachingGroup:
    """Config keys that together reach one thing outside the run folder.

    Attributes:
        keys: dotted keys; the user giving any of them replaces the folder's values of all of them.
        reaches: what the keys would reach, for the refusal message.
    """

    keys: tuple[str, ...]
    reaches: str


REACHING_KEYS: tuple[ReachingGroup, ...] = (
    ReachingGroup(("env.evaluator", "env.evaluator_options"),
                  "the reward judge: an endpoint that receives every screenshot and goal (with the API key of the "
                  "variable `api_key_env` names), or a model folder to load, with its prompt file"),
    ReachingGroup(("env.device", "env.device_options"), "the phones to drive: ADB serials, servers and hosts"),
    ReachingGroup(("env.task_file",), "a file whose every line becomes a goal, sent to the judge"),
    ReachingGroup(("policy.vlm.model_path",), "a model folder to load"),
    ReachingGroup(("runtime.address",), "a Ray cluster to join and run code on"),
)
"""Every key of a `TrainConfig` that names something outside the run to reach, read or run."""

_MISSING = object()


def load_run_config(run_dir: str | Path, user_config: str | Path | None, overrides: Sequence[str],
                    trust: bool = False) -> TrainConfig:
    """The config of a command on the run folder `run_dir`: the user's `--config` if given, else the folder's.

    The folder's `config.yaml` (if any) is vetted: its `REACHING_KEYS` must be given again in `overrides` or
    allowed by `trust`, and no option importing code is taken from it. `overrides` apply last, as in `load_config`.

    Args:
        run_dir: the run folder (`--resume` / `--checkpoint`).
        user_config: the user's own `--config` file; when given, the folder's config.yaml is not read.
        overrides: the command line's `section.key=value` overrides (flags included).
        trust: `--trust-run-dir`: take the folder's reaching keys as they are.

    Raises:
        UntrustedConfigError: the folder's config.yaml sets a reaching key the user neither gave nor trusted, or an
            option importing code; the message names each key and how to allow it.
        ConfigError: the files or overrides are invalid (as `load_config`).
    """
    path = Path(run_dir) / CONFIG_FILE
    if user_config is not None:
        data = read_config_file(user_config)
    elif path.exists():
        data = vet_folder_config(read_config_file(path), path, [override_key(o) for o in overrides], trust)
    else:
        data = {}
    apply_overrides(data, overrides)
    return TrainConfig.from_data(data)


def vet_folder_config(data: Mapping[str, Any], path: Path, given: Iterable[str], trust: bool) -> dict[str, Any]:
    """`data` (a folder's config) with the reaching groups the user gave again removed (theirs will apply).

    Raises:
        UntrustedConfigError: see `load_run_config`.
    """
    code = list(_code_options(data))
    given = list(given)
    for key, named, what in (("env.evaluator", code_terms(_get(data, "env.evaluator", None)), "a judge"),
                             ("policy.custom.target", [p] if (p := _get(data, "policy.custom.target", None)) else [],
                              "a policy class")):
        if named and not any(_overlaps(user_key, key) for user_key in given):
            raise UntrustedConfigError(
                f"{path} sets `{key}: {_short(named[0])}`, {what} imported from Python code by name. A run folder "
                f"cannot choose code to run, even with {TRUST_FLAG}: give `{key}=...` yourself on the command line "
                "or in your own --config")
    if code:
        raise UntrustedConfigError(
            f"{path} sets {', '.join(f'`{k}: true`' for k in code)}, which would run Python shipped with a model. "
            f"A run folder cannot turn that on, even with {TRUST_FLAG}: give the option yourself on the command "
            "line or in your own --config, after reading the code it would run")
    defaults = TrainConfig().to_dict()
    out = copy.deepcopy(dict(data))
    refused: list[tuple[ReachingGroup, list[tuple[str, Any]]]] = []
    for group in REACHING_KEYS:
        chosen = [(key, value) for key in group.keys
                  if (value := _get(data, key)) is not _MISSING and value != _get(defaults, key, None)]
        if not chosen:
            continue
        if any(_overlaps(user_key, key) for user_key in given for key in group.keys):
            for key in group.keys:
                _remove(out, key)
        elif not trust:
            refused.append((group, chosen))
    if refused:
        raise UntrustedConfigError(_refusal(path, refused))
    return out


def _refusal(path: Path, refused: list[tuple[ReachingGroup, list[tuple[str, Any]]]]) -> str:
    lines = [f"{path} names things outside its run folder, which a run folder cannot choose for you:"]
    for group, chosen in refused:
        values = ", ".join(f"`{key}: {_short(value)}`" for key, value in chosen)
        lines.append(f"  - {values}: {group.reaches}")
    example = refused[0][1][0]
    lines.append(f"Give each again yourself (e.g. `{example[0]}=...`; your value replaces the folder's, options "
                 f"included), or pass {TRUST_FLAG} if you trust {path.parent} and want its values as they are")
    return "\n".join(lines)


def _code_options(node: Any, prefix: str = "") -> Iterable[str]:
    """Dotted keys of every `CODE_OPTIONS` entry set to a true value anywhere in `node`."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            dotted = f"{prefix}{key}"
            if key in CODE_OPTIONS and value:
                yield dotted
            yield from _code_options(value, dotted + ".")
    elif isinstance(node, list | tuple):
        for index, value in enumerate(node):
            yield from _code_options(value, f"{prefix}{index}.")


def _overlaps(user_key: str, key: str) -> bool:
    """Whether the user's override `user_key` sets `key` or a part of it (or a section holding it)."""
    return user_key == key or user_key.startswith(key + ".") or key.startswith(user_key + ".")


def _get(data: Any, dotted: str, default: Any = _MISSING) -> Any:
    node = data
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return default
        node = node[part]
    return node


def _remove(data: dict[str, Any], dotted: str) -> None:
    *parents, last = dotted.split(".")
    node: Any = data
    for part in parents:
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, dict):
        node.pop(last, None)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
