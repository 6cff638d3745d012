"""The files of one checkpoint folder: tensors in safetensors, everything else in JSON; loading one runs no code.

This module alone spells the checkpoint's layout (`runtime/checkpoint.py` saves and finds whole checkpoints in a run
directory with these names). A run directory holds `checkpoint/`, the current checkpoint; a save writes a whole new
one into a fresh folder `checkpoint.new-<seq>-<random>/` beside it. A checkpoint folder holds what `Learner.save`
writes:

    learner.safetensors   policy weights (`policy/<key>`), optimiser tensors (`optimizer/<param id>/<name>`), the
                          torch RNG state (`torch_rng`) and, for a rule with a KL penalty, the frozen reference
                          policy (`reference/<key>`)
    learner.json          policy kind and config, algorithm, optimiser hyper-parameters and scalars, tensor aliases
    replay.npz            the replay (`ReplayBuffer.save`, read with `allow_pickle=False`)
    state.json            version, counters, numpy RNG state, the config keys the weights depend on
    run_state.json        the training loop's clock and totals (`RunState`), written by `save_checkpoint`
    manifest.json         written last: the checkpoint's sequence number and every file's size; a folder is a
                          checkpoint once its manifest is in place (`checkpoint.save_checkpoint`), and only while the
                          sizes match

Neither format can carry code: safetensors is a JSON header plus raw buffers, and JSON is JSON. Checkpoints written
before this module (`learner.pt`, a torch pickle) are still read, with `torch.load(weights_only=True)`, whose
unpickler builds tensors and plain containers only and refuses every other global (issue 20: a checkpoint folder
from a colleague or a hub must not execute what it holds).
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from distrl_agent.errors import CheckpointError
from distrl_agent.policies.base import Policy
from distrl_agent.runtime import checkpoint_checks as checks
from distrl_agent.runtime import durable
from distrl_agent.runtime.progress import RunState

TENSORS_FILE = "learner.safetensors"
META_FILE = "learner.json"
LEGACY_FILE = "learner.pt"
STATE_FILE = "state.json"
REPLAY_FILE = "replay.npz"
RUN_STATE_FILE = "run_state.json"
MANIFEST_FILE = "manifest.json"
FORMAT = "distrl-learner/1"
MANIFEST_FORMAT = "distrl-checkpoint/1"
CURRENT = "checkpoint"
"""The current checkpoint's folder in a run directory."""
STAGING_PREFIX = "checkpoint.new-"
"""A checkpoint being written (no manifest yet), or written but not yet renamed to `CURRENT` (manifest in place)."""
TRASH_PREFIX = "checkpoint.trash-"
"""A superseded checkpoint being removed: never read, whatever is left of it."""
LEGACY_NAMES = {"checkpoint.tmp": 2, CURRENT: 1, "checkpoint.old": 0}
"""Folders of the rename-based saves before issue 43 (no manifest), newest role first: a complete `checkpoint.tmp`
was written after `checkpoint`, which was written after `checkpoint.old`."""


@dataclass
class LearnerBlob:
    """What a learner checkpoint holds besides the replay and state.json.

    Attributes:
        policy: the policy's state_dict.
        optimizer: the optimiser's state_dict (None: not saved, e.g. a weights-only export).
        torch_rng: `torch.get_rng_state()` at save time (None: not saved).
        meta: `policy_kind`, `policy_config` (plain data), `algorithm`, and whatever else the writer added.
        reference: the state_dict of the frozen reference policy a KL penalty pulls towards (None: the rule keeps
            none, or it has not been taken yet).
    """

    policy: dict[str, torch.Tensor]
    optimizer: dict[str, Any] | None
    torch_rng: torch.Tensor | None
    meta: dict[str, Any]
    reference: dict[str, torch.Tensor] | None = None


def save_learner_blob(directory: str | Path, blob: LearnerBlob) -> None:
    """Write `blob` into `directory` as learner.safetensors + learner.json, each replaced atomically.

    Tensors that share memory (tied embeddings) are stored once and recorded as aliases; a tensor that overlaps
    another without being the same view is stored as a copy.

    Raises:
        CheckpointError: a value of `blob.meta` or of the optimiser's hyper-parameters is not plain JSON data, or a
            file cannot be written.
    """
    d = Path(directory)
    tensors: dict[str, torch.Tensor] = {}
    aliases: dict[str, str] = {}
    views: dict[tuple, str] = {}
    storages: set[int] = set()

    def put(key: str, tensor: torch.Tensor) -> None:
        t = tensor.detach().cpu()
        view = (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), t.stride(), t.dtype)
        if t.numel() and view in views:
            aliases[key] = views[view]
            return
        if t.numel() and t.untyped_storage().data_ptr() in storages:
            t = t.clone()  # overlaps a stored tensor in another shape: safetensors refuses shared memory
        storages.add(t.untyped_storage().data_ptr())
        views[view] = key
        tensors[key] = t.contiguous()

    for key, value in blob.policy.items():
        put(f"policy/{key}", value)
    for key, value in (blob.reference or {}).items():
        put(f"reference/{key}", value)
    optimizer_meta = None
    if blob.optimizer is not None:
        scalars: dict[str, dict[str, Any]] = {}
        for param_id, state in blob.optimizer["state"].items():
            for name, value in state.items():
                if isinstance(value, torch.Tensor):
                    put(f"optimizer/{param_id}/{name}", value)
                else:
                    scalars.setdefault(str(param_id), {})[name] = value
        optimizer_meta = {"param_groups": blob.optimizer["param_groups"], "scalars": scalars,
                          "param_ids": [str(p) for p in blob.optimizer["state"]]}
    if blob.torch_rng is not None:
        put("torch_rng", blob.torch_rng)
    meta = {"format": FORMAT, **blob.meta, "optimizer": optimizer_meta, "aliases": aliases}
    try:
        text = json.dumps(meta, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"cannot write the learner checkpoint in {d}: its metadata is not plain JSON "
                              f"({e})") from e
    try:
        d.mkdir(parents=True, exist_ok=True)
        for name in (TENSORS_FILE, META_FILE):
            (d / f"{name}.tmp").unlink(missing_ok=True)  # a link planted there goes, its target is not written
        save_file(tensors, str(d / f"{TENSORS_FILE}.tmp"), metadata={"format": FORMAT})
        (d / f"{TENSORS_FILE}.tmp").replace(d / TENSORS_FILE)
        durable.write_new_file(d / f"{META_FILE}.tmp", text.encode())
        (d / f"{META_FILE}.tmp").replace(d / META_FILE)
    except (OSError, SafetensorError) as e:
        raise CheckpointError(f"cannot write the learner checkpoint in {d}: {e}") from e
    (d / LEGACY_FILE).unlink(missing_ok=True)  # an older learner.pt beside it would be stale


def load_learner_blob(directory: str | Path) -> LearnerBlob:
    """Read the learner checkpoint in `directory` without executing anything it holds.

    Reads learner.safetensors + learner.json; a folder with only a learner.pt (written before issue 20) is read with
    torch's weights-only unpickler.

    Raises:
        CheckpointError: no learner checkpoint in `directory`, or a file that is not what its name says (a pickle
            in place of safetensors, a learner.pt holding code or objects other than tensors and plain data,
            malformed JSON, missing entries); the message names the file and the reason.
    """
    d = Path(directory)
    if (d / TENSORS_FILE).exists() or (d / META_FILE).exists():
        return _load_safetensors(d)
    if (d / LEGACY_FILE).exists():
        return _load_legacy(d / LEGACY_FILE)
    raise CheckpointError(f"no learner checkpoint in {d}: expected {TENSORS_FILE} and {META_FILE}")


def _load_safetensors(d: Path) -> LearnerBlob:
    for name in (TENSORS_FILE, META_FILE):
        if not (d / name).exists():
            raise CheckpointError(f"incomplete learner checkpoint in {d}: {name} is missing")
    meta = read_learner_meta(d)  # first: it is small, and a bad one must fail before the tensors are read
    try:
        tensors = load_file(str(d / TENSORS_FILE))
    except (SafetensorError, OSError, ValueError, RuntimeError, MemoryError) as e:
        raise CheckpointError(f"cannot read {d / TENSORS_FILE}: not a safetensors file ({e}). Nothing in it was "
                              "run; re-save it or delete the folder") from e
    for key, target in meta.pop("aliases", {}).items():
        if target not in tensors:
            raise CheckpointError(f"cannot read {d / META_FILE}: alias `{key}` points to {target!r}, which is not "
                                  f"a tensor of {TENSORS_FILE}")
        tensors[key] = tensors[target]
    checks.check_torch_rng(d / TENSORS_FILE, tensors.get("torch_rng"))
    policy = {k.removeprefix("policy/"): v for k, v in tensors.items() if k.startswith("policy/")}
    reference = {k.removeprefix("reference/"): v for k, v in tensors.items() if k.startswith("reference/")}
    optimizer = _optimizer_state(meta.pop("optimizer"), tensors)
    return LearnerBlob(policy, optimizer, tensors.get("torch_rng"), meta, reference or None)


def read_learner_meta(directory: str | Path) -> dict[str, Any]:
    """learner.json of the checkpoint in `directory`, checked (format, aliases, optimiser entries), tensors unread.

    Raises:
        CheckpointError: missing, not JSON, another format, or malformed entries; names the file and the key.
    """
    path = Path(directory) / META_FILE
    meta = checks.read_json_object(path)
    if meta.get("format") != FORMAT:
        raise CheckpointError(f"cannot read {path}: expected \"format\": {FORMAT!r}, got {meta.get('format')!r:.80}")
    checks.check_learner_meta(path, meta)
    meta.setdefault("optimizer", None)
    return meta


def _optimizer_state(saved: Mapping[str, Any] | None, tensors: Mapping[str, torch.Tensor]) -> dict[str, Any] | None:
    if saved is None:
        return None
    state: dict[int, dict[str, Any]] = {}
    for param_id in saved["param_ids"]:
        entry = dict(saved["scalars"].get(param_id, {}))
        prefix = f"optimizer/{param_id}/"
        entry.update({k.removeprefix(prefix): v for k, v in tensors.items() if k.startswith(prefix)})
        state[int(param_id)] = entry
    return {"state": state, "param_groups": list(saved["param_groups"])}


def _load_legacy(path: Path) -> LearnerBlob:
    try:
        blob = torch.load(path, weights_only=True, map_location="cpu")
    except pickle.UnpicklingError as e:
        raise CheckpointError(f"refused to load {path}: it holds objects other than tensors and plain data, which "
                              f"only an unpickler that runs code could build ({str(e).splitlines()[0]}). Nothing "
                              "in it was run; re-save the checkpoint with this version, or delete it") from e
    except (OSError, RuntimeError, EOFError, ValueError) as e:
        raise CheckpointError(f"cannot read {path}: {type(e).__name__}: {e}") from e
    if not isinstance(blob, dict) or "policy" not in blob:
        raise CheckpointError(f"cannot read {path}: expected a dict with a `policy` entry")
    meta = {k: v for k, v in blob.items() if k not in ("policy", "optimizer", "torch_rng")}
    return LearnerBlob(blob["policy"], blob.get("optimizer"), blob.get("torch_rng"), meta)


def write_state(directory: str | Path, state: dict[str, Any]) -> None:
    """Write the learner's state.json (plain JSON data) in `directory`, replaced atomically (a link there goes)."""
    d = Path(directory)
    (d / f"{STATE_FILE}.tmp").unlink(missing_ok=True)
    durable.write_new_file(d / f"{STATE_FILE}.tmp", json.dumps(state).encode())
    (d / f"{STATE_FILE}.tmp").replace(d / STATE_FILE)


def read_state(directory: str | Path) -> dict[str, Any]:
    """The learner's state.json in `directory`, checked: `version`, `counters`, a numpy `rng` state, `config`.

    Raises:
        CheckpointError: it is missing, not JSON, or an entry is missing or of the wrong type (named).
    """
    path = Path(directory) / STATE_FILE
    return checks.check_state(path, checks.read_json_object(path))


def read_run_state(checkpoint: str | Path) -> RunState:
    """The training loop's `RunState` saved in the checkpoint folder `checkpoint` (fresh if it has none).

    Raises:
        CheckpointError: run_state.json is not JSON or a field has the wrong type (named).
    """
    path = Path(checkpoint) / RUN_STATE_FILE
    if not path.exists():  # checkpoints before `RunState` was saved
        return RunState()
    return checks.parse_run_state(path, checks.read_json_object(path))


def check_blob_fits(directory: str | Path, blob: LearnerBlob, policy: Policy, optimizer: torch.optim.Optimizer) -> None:
    """The tensors of `blob` (read from `directory`) fit `policy` and `optimizer`, before either loads them.

    Raises:
        CheckpointError: missing, unexpected or mis-shaped tensors, another optimiser layout or hyper-parameter type;
            the message names the file.
    """
    d = Path(directory)
    is_legacy = not (d / TENSORS_FILE).exists()
    tensors, meta = (LEGACY_FILE, LEGACY_FILE) if is_legacy else (TENSORS_FILE, META_FILE)
    checks.check_blob_fits(d / tensors, d / meta, blob.policy, blob.reference, blob.optimizer, policy, optimizer)
