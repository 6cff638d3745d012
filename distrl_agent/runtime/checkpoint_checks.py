"""Checks that a checkpoint's files hold what their writer wrote, before anything is built from them.

A checkpoint folder may come from someone else (issue 43). Everything read from it is checked here, so that a
tampered or truncated file ends in `CheckpointError` naming the file and the entry, never in a traceback from deep
inside torch, numpy or the training loop:

- JSON files are refused past `MAX_JSON_BYTES` before they are read, and must hold an object;
- `state.json`, `learner.json`'s optimiser entries and `run_state.json` are checked against their schema (pydantic,
  strict: no "3" for 3, no `true` for a count);
- tensors are checked against the live policy and optimiser (`check_blob_fits`): names, shapes, hyper-parameter
  types, before `load_state_dict` copies anything.

The file names themselves are `runtime/checkpoint.py`'s: this module gets paths.
"""

from __future__ import annotations

import json
import math
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import (
    Annotated,
    Any,
    NotRequired,  # pydantic needs these on Python < 3.12
)

import numpy as np
import torch
from pydantic import Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from distrl_agent.errors import CheckpointError
from distrl_agent.policies.base import Policy
from distrl_agent.runtime.progress import RunState

MAX_JSON_BYTES = 64 * 2**20
"""Largest JSON file of a checkpoint read (64 MiB). The biggest we write is a LoRA VLM's learner.json (a few hundred
KiB of optimiser ids) or a long run's run_state.json (a learning curve of ~100 bytes per evaluation); a bigger one is
not ours, and reading it would cost its size in memory."""

JsonScalar = int | float | bool | str | None


class StateFile(TypedDict):
    """The learner's state.json: `Learner.save` writes these keys (others are ignored)."""

    version: Annotated[int, Field(ge=0)]
    counters: dict[str, int | float]
    rng: dict[str, Any]
    config: NotRequired[dict[str, Any]]


class OptimizerMeta(TypedDict):
    """The `optimizer` entry of learner.json: the optimiser's state_dict less its tensors (those are in safetensors)."""

    param_groups: list[dict[str, Any]]
    scalars: dict[str, dict[str, JsonScalar]]
    param_ids: list[str]


_STATE = TypeAdapter(StateFile)
_OPTIMIZER = TypeAdapter(OptimizerMeta | None)
_ALIASES = TypeAdapter(dict[str, str])
_RUN_STATE = TypeAdapter(TypedDict("RunStateFile", typing.get_type_hints(RunState), total=False))
"""The fields of run_state.json: `RunState`'s, each optional (files of earlier versions lack the newer ones)."""


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in `path`, refused before reading when bigger than `MAX_JSON_BYTES`.

    Raises:
        CheckpointError: `path` is missing, too big, not JSON (or nested too deep), or not an object; names `path`.
    """
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise CheckpointError(f"refused to read {path}: {size:,} bytes, more than the {MAX_JSON_BYTES:,} a "
                                  "checkpoint's JSON file can hold; it was not written by distrl_agent")
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as e:
        raise CheckpointError(f"cannot read {path}: {type(e).__name__}: {e}") from e
    if not isinstance(data, dict):
        raise CheckpointError(f"cannot read {path}: expected a JSON object, got {type(data).__name__}")
    return data


def _validated(adapter: TypeAdapter, data: Any, path: Path, where: str) -> Any:
    try:
        return adapter.validate_python(data, strict=True)  # no "3" for 3, no `true` for a count
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(str(part) for part in (where, *first["loc"]) if part != "")
        raise CheckpointError(f"cannot read {path}: `{key}` {first['msg'].lower()}, got {first['input']!r:.80}; "
                              "the file was damaged or not written by distrl_agent") from e


def check_state(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """`data` (state.json at `path`) checked: version, counters, a numpy PCG64 RNG state, config keys.

    Raises:
        CheckpointError: a key is missing or of the wrong type, or `rng` is not a PCG64 state; names the key.
    """
    state = dict(_validated(_STATE, data, path, ""))
    try:
        np.random.PCG64().state = state["rng"]
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        raise CheckpointError(f"cannot read {path}: `rng` is not a numpy PCG64 state ({type(e).__name__}: {e})") from e
    return state


def check_learner_meta(path: Path, meta: dict[str, Any]) -> None:
    """The `aliases` and `optimizer` entries of learner.json are well formed (`path` names the file in messages).

    Raises:
        CheckpointError: wrong types, optimiser ids that are not integers or belong to no parameter group.
    """
    _validated(_ALIASES, meta.get("aliases", {}), path, "aliases")
    saved = _validated(_OPTIMIZER, meta.get("optimizer"), path, "optimizer")
    if saved is None:
        return
    grouped: set[int] = set()
    for i, group in enumerate(saved["param_groups"]):
        params = group.get("params")
        if not (isinstance(params, list) and all(type(p) is int for p in params)):
            raise CheckpointError(f"cannot read {path}: `optimizer.param_groups.{i}.params` must be a list of "
                                  f"integer ids, got {params!r:.80}")
        grouped.update(params)
    for param_id in saved["param_ids"]:
        if not param_id.isdigit() or int(param_id) not in grouped:
            raise CheckpointError(f"cannot read {path}: `optimizer.param_ids` holds {param_id!r}, which is not the id "
                                  "of a parameter in `optimizer.param_groups`")
    if stray := sorted(set(saved["scalars"]) - set(saved["param_ids"])):
        raise CheckpointError(f"cannot read {path}: `optimizer.scalars` has ids {stray[:5]} missing from "
                              "`optimizer.param_ids`")


def check_torch_rng(path: Path, rng: torch.Tensor | None) -> None:
    """`rng` (the `torch_rng` tensor of `path`) is what `torch.get_rng_state()` gives: uint8 of its length.

    Raises:
        CheckpointError: another dtype or shape.
    """
    expected = torch.get_rng_state()
    if rng is not None and (rng.dtype != expected.dtype or rng.shape != expected.shape):
        raise CheckpointError(f"cannot read {path}: `torch_rng` is {rng.dtype} {tuple(rng.shape)}, expected "
                              f"{expected.dtype} {tuple(expected.shape)}")


def parse_run_state(path: Path, data: dict[str, Any]) -> RunState:
    """The `RunState` in `data` (run_state.json at `path`); keys of other versions are ignored.

    Raises:
        CheckpointError: a field of the wrong type (names it).
    """
    known = typing.get_type_hints(RunState)
    state = RunState(**_validated(_RUN_STATE, {k: v for k, v in data.items() if k in known}, path, ""))
    numbers = [state.elapsed_s, state.loop_s, state.learner_busy_s, state.learner_wait_s, state.publish_s]
    if not all(math.isfinite(x) and x >= 0 for x in numbers):
        raise CheckpointError(f"cannot read {path}: its clocks must be finite and >= 0 seconds, got {numbers}")
    return state


def check_blob_fits(path: Path, meta_path: Path, policy: Mapping[str, torch.Tensor],
                    reference: Mapping[str, torch.Tensor] | None, optimizer_state: Mapping[str, Any] | None,
                    live_policy: Policy, live_optimizer: torch.optim.Optimizer) -> None:
    """The tensors read from `path` (and the optimiser entries from `meta_path`) fit the live policy and optimiser.

    `load_state_dict` of an optimiser takes tensors of any shape and hyper-parameters of any type; a wrong one would
    only fail at the next update, far from the file that caused it.

    Raises:
        CheckpointError: missing, unexpected or mis-shaped policy tensors (also of the reference policy), other
            parameter groups, a hyper-parameter of another type (names `meta_path`), or optimiser state of another
            shape (names `path`).
    """
    for what, state in (("policy", policy), ("reference", reference)):
        if state is not None:
            try:
                live_policy.check_state_dict(state)
            except CheckpointError as e:
                raise CheckpointError(f"the {what} tensors in {path} do not fit: {e}") from e
    if optimizer_state is not None:
        try:
            _check_optimizer_fits(path, meta_path, optimizer_state, live_optimizer)
        except (KeyError, TypeError, AttributeError, ValueError) as e:  # a legacy learner.pt is not schema-checked
            raise CheckpointError(f"the optimiser in {meta_path} is malformed: {type(e).__name__}: {e}") from e


def _check_optimizer_fits(path: Path, meta_path: Path, saved: Mapping[str, Any], live: torch.optim.Optimizer) -> None:
    groups = saved["param_groups"]
    if len(groups) != len(live.param_groups):
        raise CheckpointError(f"the optimiser in {meta_path} has {len(groups)} parameter groups, this run's has "
                              f"{len(live.param_groups)}")
    params: dict[int, torch.Tensor] = {}
    for i, (group, mine) in enumerate(zip(groups, live.param_groups, strict=True)):
        if len(group["params"]) != len(mine["params"]):
            raise CheckpointError(f"the optimiser in {meta_path}: group {i} holds {len(group['params'])} parameters, "
                                  f"this run's {len(mine['params'])}")
        params.update(zip(group["params"], mine["params"], strict=True))
        for key, value in mine.items():
            if key != "params" and not _same_kind(group.get(key, ...), value):
                raise CheckpointError(f"the optimiser in {meta_path}: `param_groups.{i}.{key}` is "
                                      f"{group.get(key, 'missing')!r:.60}, expected a value like {value!r}")
    for param_id, entries in saved["state"].items():
        if (param := params.get(param_id)) is None:
            raise CheckpointError(f"the optimiser in {meta_path} has state for parameter {param_id!r}, which is in no "
                                  "parameter group")
        for name, value in entries.items():
            if isinstance(value, torch.Tensor) and value.dim() and value.shape != param.shape:
                raise CheckpointError(f"the optimiser in {path}: `{name}` of parameter {param_id} is "
                                      f"{tuple(value.shape)}, the parameter is {tuple(param.shape)}")


def _same_kind(saved: Any, live: Any) -> bool:
    """Whether a saved hyper-parameter can stand in for the live one (JSON turned tuples into lists)."""
    if live is None or isinstance(live, bool):
        return saved is None or isinstance(saved, bool)
    if isinstance(live, (int, float)):
        return isinstance(saved, (int, float)) and not isinstance(saved, bool) and math.isfinite(saved)
    if isinstance(live, (tuple, list)):
        return isinstance(saved, (tuple, list)) and len(saved) == len(live) and all(
            _same_kind(s, v) for s, v in zip(saved, live, strict=True))
    return type(saved) is type(live)
