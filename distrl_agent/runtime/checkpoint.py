"""Checkpoints of a run directory: save one atomically and durably, find the newest complete one, read its policy.

The files inside one checkpoint folder, and every name of the layout, are `runtime/checkpoint_files.py`'s; this module
re-exports what callers use. `save_checkpoint` explains the steps of a save and why a kill at any of them leaves a
complete checkpoint that `find_checkpoint` finds (issue 43).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.policies.build import PolicyConfig, build_policy, make_policy_config
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.runtime import checkpoint_checks as checks
from distrl_agent.runtime import durable
from distrl_agent.runtime.base import LearnerHandle
from distrl_agent.runtime.checkpoint_files import (
    CURRENT,
    FORMAT,
    LEGACY_FILE,
    LEGACY_NAMES,
    MANIFEST_FILE,
    MANIFEST_FORMAT,
    META_FILE,
    REPLAY_FILE,
    RUN_STATE_FILE,
    STAGING_PREFIX,
    STATE_FILE,
    TENSORS_FILE,
    TRASH_PREFIX,
    LearnerBlob,
    check_blob_fits,
    load_learner_blob,
    read_learner_meta,
    read_run_state,
    read_state,
    save_learner_blob,
    write_state,
)
from distrl_agent.runtime.progress import RunState
from distrl_agent.runtime.weights import to_numpy

__all__ = [
    "FORMAT", "LEGACY_FILE", "META_FILE", "REPLAY_FILE", "RUN_STATE_FILE", "STATE_FILE", "TENSORS_FILE",
    "LearnerBlob", "SavedPolicy", "check_blob_fits", "find_checkpoint", "load_learner_blob", "read_learner_meta",
    "read_policy", "read_run_state", "read_state", "save_checkpoint", "save_learner_blob", "write_state",
]


@dataclass(frozen=True)
class SavedPolicy:
    """The policy of a checkpoint, enough to act with it: its config, its weights as numpy, its version."""

    config: PolicyConfig
    weights: dict[str, np.ndarray]
    version: int


def read_policy(checkpoint: str | Path) -> SavedPolicy:
    """The policy saved in the checkpoint folder `checkpoint` (what `distrl eval` acts with).

    The policy config is checked (`SmallPolicyConfig`'s and `VLMPolicyConfig`'s bounds) before a policy is built
    from it: a learner.json asking for a 25.6 GB embedding is refused without allocating it.

    Raises:
        CheckpointError: no readable checkpoint there, or its policy entries are missing or malformed (the message
            names the file and the key).
    """
    d = Path(checkpoint)
    blob = load_learner_blob(d)
    config = _policy_config(d, blob.meta)
    if isinstance(config, SmallPolicyConfig):  # a VLM is built from its own files; its shapes are checked on load
        with torch.device("meta"):  # shapes only: no memory for the weights
            policy = build_policy(config)
        try:
            policy.check_state_dict(blob.policy)
        except CheckpointError as e:
            raise CheckpointError(f"the policy tensors in {d / TENSORS_FILE} do not fit their config: {e}") from e
    try:
        weights = {k: to_numpy(v) for k, v in blob.policy.items()}
    except (KeyError, TypeError) as e:
        raise CheckpointError(f"cannot read the policy of the checkpoint in {d}: {e}") from e
    return SavedPolicy(config, weights, int(read_state(d)["version"]))


def _policy_config(d: Path, meta: Mapping[str, Any]) -> PolicyConfig:
    where = d / (META_FILE if (d / META_FILE).exists() else LEGACY_FILE)
    kind = meta.get("policy_kind", "small")  # checkpoints before the VLM runtime hold small policies
    if "policy_config" not in meta or not isinstance(kind, str):
        raise CheckpointError(f"cannot read the policy of {where}: it needs `policy_config` and a `policy_kind` name")
    try:
        return make_policy_config(kind, meta["policy_config"], where="policy_config")
    except ConfigError as e:
        raise CheckpointError(f"cannot read the policy of {where}: {e}") from e


@dataclass(frozen=True)
class _Candidate:
    """A folder of a run directory that may hold a checkpoint; `order` ranks complete ones, newest highest."""

    path: Path
    order: tuple[int, int, int]
    problem: str | None  # why it is not a complete checkpoint; None: it is one


def find_checkpoint(run_dir: str | Path) -> Path:
    """The newest complete checkpoint of `run_dir`, wherever a save was interrupted.

    Complete means: a folder (not a link) whose manifest.json lists files that are all there with their sizes, or,
    for checkpoints written before issue 43, `checkpoint/` or `checkpoint.old/` with a readable state.json, or a
    `checkpoint.tmp/` that got as far as run_state.json. The newest is the one with the highest sequence number
    (older layouts rank below every manifest, by learner version then by the order the old save wrote them).

    Raises:
        CheckpointError: `run_dir` holds no complete checkpoint (the message lists what it found and why not).
    """
    run_dir = Path(run_dir)
    candidates = _candidates(run_dir)
    complete = [c for c in candidates if c.problem is None]
    if complete:
        return max(complete, key=lambda c: c.order).path
    found = "".join(f"; {c.path.name}: {c.problem}" for c in candidates)
    raise CheckpointError(f"no checkpoint in {run_dir} (expected {run_dir / CURRENT / MANIFEST_FILE}{found}); "
                          "pass the run_dir of an earlier `distrl train`")


def _candidates(run_dir: Path) -> list[_Candidate]:
    try:
        names = sorted(p.name for p in run_dir.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise CheckpointError(f"cannot list the run directory {run_dir}: {e}") from e
    return [_inspect(run_dir / name) for name in names if name in LEGACY_NAMES or name.startswith(STAGING_PREFIX)]


def _inspect(path: Path) -> _Candidate:
    """Whether `path` is a complete checkpoint, and its rank among them."""
    if path.is_symlink() or not path.is_dir():
        return _Candidate(path, (0, 0, 0), "not a folder (a link is never followed)")
    if (path / MANIFEST_FILE).exists() or path.name.startswith(STAGING_PREFIX):
        try:
            return _Candidate(path, (_read_manifest(path)["seq"], 0, 0), None)
        except CheckpointError as e:
            return _Candidate(path, (0, 0, 0), str(e))
    try:  # a checkpoint of the rename-based save before issue 43
        version = read_state(path)["version"]
        if LEGACY_NAMES[path.name] == max(LEGACY_NAMES.values()) and not (path / RUN_STATE_FILE).exists():
            raise CheckpointError(f"{RUN_STATE_FILE} is missing: the save was interrupted")
    except CheckpointError as e:
        return _Candidate(path, (0, 0, 0), str(e))
    return _Candidate(path, (0, version, LEGACY_NAMES[path.name]), None)


def _read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of `folder`, checked against the files: each listed one a plain file of the listed size.

    Raises:
        CheckpointError: no manifest (the save stopped before it), a malformed one, or a file missing or resized.
    """
    manifest = checks.read_json_object(folder / MANIFEST_FILE)
    seq, files = manifest.get("seq"), manifest.get("files")
    if manifest.get("format") != MANIFEST_FORMAT or type(seq) is not int or seq < 1 or not isinstance(files, dict):
        raise CheckpointError(f"cannot read {folder / MANIFEST_FILE}: expected format {MANIFEST_FORMAT!r}, a `seq` "
                              "number >= 1 and `files`")
    for name in (STATE_FILE, RUN_STATE_FILE):
        if name not in files:
            raise CheckpointError(f"{folder / MANIFEST_FILE} lists no {name}")
    for name, size in files.items():
        path = folder / name
        if "/" in name or name.startswith(".") or type(size) is not int:
            raise CheckpointError(f"{folder / MANIFEST_FILE} lists {name!r} with size {size!r}: not a file of ours")
        if path.is_symlink() or not path.is_file() or path.stat().st_size != size:
            raise CheckpointError(f"{path} is missing or not the {size:,} bytes the manifest lists: the checkpoint "
                                  "is incomplete or was changed")
    return manifest


def save_checkpoint(learner: LearnerHandle, state: RunState, run_dir: Path) -> None:
    """Write a whole new checkpoint, make it `run_dir/checkpoint` durably, then remove the older ones.

    The steps, and what a kill (or a power cut) after each leaves to `find_checkpoint`:

    1. a fresh private folder `checkpoint.new-<seq>-<random>` (seq: one more than any checkpoint there) receives
       the learner's files and run_state.json; every file is fsynced. Killed here: no manifest, so the folder is
       ignored and the previous checkpoint is found.
    2. manifest.json (seq, every file's size) is written as manifest.json.tmp, fsynced, and renamed into place: the
       one atomic step that makes the new checkpoint count; then the folder and `run_dir` are fsynced.
       From here the new checkpoint is found, whichever of the steps below a kill interrupts.
    3. the current `checkpoint/` is renamed to `checkpoint.trash-<random>`, the new folder to `checkpoint/`, and
       `run_dir` is fsynced.
    4. every other checkpoint folder (older ones, interrupted saves, pre-issue-43 `checkpoint.old/` and
       `checkpoint.tmp/`) is renamed to trash and removed; a kill mid-removal leaves trash, which is never read and
       goes at the next save.

    Nothing is written through a link: the new folder is created fresh with `mkdir`, and links planted under any of
    these names are removed as links.

    Raises:
        CheckpointError: a file could not be written, or the learner wrote something other than plain files.
    """
    run_dir = Path(run_dir)
    seq = 1 + max((c.order[0] for c in _candidates(run_dir)), default=0)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        staging = durable.make_private_dir(run_dir, f"{STAGING_PREFIX}{seq:09d}-")
    except OSError as e:
        raise CheckpointError(f"cannot create a checkpoint folder in {run_dir}: {e}") from e
    try:
        learner.save(str(staging.resolve()))  # absolute: a Ray learner actor has another working directory
        state.save(staging / RUN_STATE_FILE)
        _seal(staging, seq)
    except Exception as e:
        durable.remove_tree(staging)  # never made current: nothing refers to it
        if isinstance(e, CheckpointError):
            raise
        raise CheckpointError(f"cannot write the checkpoint in {staging}: {type(e).__name__}: {e}") from e
    try:
        durable.fsync_dir(run_dir)
        current = run_dir / CURRENT
        if os.path.lexists(current):
            durable.rename(current, _trash_name(run_dir))
        durable.rename(staging, current)
        durable.fsync_dir(run_dir)
        _remove_others(run_dir)
    except OSError as e:
        raise CheckpointError(f"the checkpoint in {staging} is complete (resume finds it), but making it "
                              f"{run_dir / CURRENT} failed: {e}") from e


def _seal(folder: Path, seq: int) -> None:
    """Fsync every file of `folder`, then commit it with its manifest (the atomic step of `save_checkpoint`)."""
    files: dict[str, int] = {}
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_symlink() or not entry.is_file():
            raise CheckpointError(f"refused to commit the checkpoint in {folder}: {entry.name} is not a plain file")
        durable.fsync_file(Path(entry.path))
        files[entry.name] = entry.stat(follow_symlinks=False).st_size
    manifest = json.dumps({"format": MANIFEST_FORMAT, "seq": seq, "files": files}, indent=1).encode()
    durable.write_new_file(folder / f"{MANIFEST_FILE}.tmp", manifest)
    durable.rename(folder / f"{MANIFEST_FILE}.tmp", folder / MANIFEST_FILE)
    durable.fsync_dir(folder)


def _trash_name(run_dir: Path) -> Path:
    return run_dir / f"{TRASH_PREFIX}{secrets.token_hex(6)}"


def _remove_others(run_dir: Path) -> None:
    """Remove every checkpoint folder but `CURRENT`: each is renamed to trash first, so none is ever half-removed."""
    for path in sorted(run_dir.iterdir()):
        name = path.name
        if name != CURRENT and (name in LEGACY_NAMES or name.startswith(STAGING_PREFIX)):
            trash = _trash_name(run_dir)
            durable.rename(path, trash)
            path = trash
        if path.name.startswith(TRASH_PREFIX):
            durable.remove_tree(path)
