"""Tampered checkpoints: every kind of damage to every file ends in `CheckpointError` naming the file, nothing else.

Each case copies a real checkpoint (a learner with replay, Adam state and a run state), damages one file, and fixes
the manifest's size for it (as someone editing the folder could), so that the damage reaches the reader of that file
instead of stopping at `find_checkpoint`. Then it resumes the way `distrl train --resume` does (`find_checkpoint`,
`Learner.load`, `read_run_state`) and reads the policy the way `distrl eval` does (`read_policy`).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from safetensors.torch import load_file, save_file

from distrl_agent.config import load_config
from distrl_agent.errors import CheckpointError
from distrl_agent.runtime import checkpoint_checks
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy, read_run_state, save_checkpoint
from distrl_agent.runtime.checkpoint_files import (
    CURRENT,
    MANIFEST_FILE,
    META_FILE,
    REPLAY_FILE,
    RUN_STATE_FILE,
    STATE_FILE,
    TENSORS_FILE,
)
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.progress import RunState
from distrl_agent.types import Trajectory

TINY = ["runtime.minutes=0.1", "learner.batch_size=4", "learner.min_replay_trajectories=4"]
FILES = (TENSORS_FILE, META_FILE, STATE_FILE, RUN_STATE_FILE, REPLAY_FILE)


def _trajectory(length: int, seed: int) -> Trajectory:
    rng = np.random.default_rng(seed)
    return Trajectory(observations={"screenshot": rng.integers(0, 256, (length + 1, 2, 2, 3), dtype=np.uint8),
                                    "goal": np.array(["open settings"] * (length + 1))},
                      actions={"action_type": rng.integers(0, 7, size=length)},
                      rewards=np.zeros(length, np.float32), dones=np.zeros(length, bool),
                      log_mu=np.log(rng.uniform(0.1, 1.0, size=length)), policy_version=np.zeros(length, np.int64),
                      penalty=np.zeros(length), goal="open settings", task="general/settings", success=False,
                      worker_id=0, metadata={})


@pytest.fixture(scope="module")
def learners() -> tuple[Learner, Learner]:
    """A learner with replay and Adam state, and one to resume into (each takes seconds to build)."""
    learner = build_learner(load_config(overrides=TINY))
    for seed in range(3):
        learner.replay.add(_trajectory(2 + seed, seed))
    sum(p.sum() for p in learner.policy.parameters()).backward()
    learner.optimizer.step()  # Adam now holds exp_avg/exp_avg_sq/step per parameter
    learner.version = 3
    return learner, build_learner(load_config(overrides=TINY))


@pytest.fixture(scope="module")
def saved(learners, tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("saved")
    save_checkpoint(learners[0], RunState(checkpoints=2, curve=[{"time_s": 1.0, "test_success": 0.5}]), run_dir)
    return run_dir


@pytest.fixture
def run_dir(saved, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(saved, copy)
    return copy


def resume_and_read_policy(run_dir: Path, fresh: Learner) -> None:
    """What `distrl train --resume` and `distrl eval` read from a run directory."""
    found = find_checkpoint(run_dir)
    fresh.load(found)
    read_run_state(found)
    read_policy(found)


def rewrite(run_dir: Path, name: str, data: bytes) -> None:
    """Replace checkpoint file `name` by `data` and record its new size in the manifest."""
    folder = run_dir / CURRENT
    (folder / name).write_bytes(data)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    manifest["files"][name] = len(data)
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))


def edit_json(run_dir: Path, name: str, change: Callable[[Any], Any]) -> None:
    rewrite(run_dir, name, json.dumps(change(json.loads((run_dir / CURRENT / name).read_text()))).encode())


def edit_tensors(run_dir: Path, change: Callable[[dict[str, torch.Tensor]], None]) -> None:
    tensors = load_file(str(run_dir / CURRENT / TENSORS_FILE))
    change(tensors)
    save_file(tensors, str(run_dir / "t.tmp"), metadata={"format": "distrl-learner/1"})
    rewrite(run_dir, TENSORS_FILE, (run_dir / "t.tmp").read_bytes())


def edit_replay(run_dir: Path, change: Callable[[dict[str, np.ndarray]], None]) -> None:
    with np.load(run_dir / CURRENT / REPLAY_FILE) as data:
        arrays = {k: data[k] for k in data.files}
    change(arrays)
    with open(run_dir / "r.tmp", "wb") as f:
        np.savez(f, **arrays)
    rewrite(run_dir, REPLAY_FILE, (run_dir / "r.tmp").read_bytes())


def _set(path: str, value: Any) -> Callable[[Any], Any]:
    """A change setting the dotted `path` of a JSON document to `value`."""
    def change(doc: Any) -> Any:
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
        return doc
    return change


def _first_policy_key(tensors: dict[str, torch.Tensor]) -> str:
    return next(k for k in sorted(tensors) if k.startswith("policy/") and tensors[k].dim() == 2)


def _reshape(tensors: dict[str, torch.Tensor], key: str) -> None:
    tensors[key] = torch.zeros(tensors[key].numel() + 1)


TAMPERINGS: dict[str, tuple[str, str, Callable[[Path], None]]] = {
    # name: (file named by the error, what else the message names, damage)
    "tensors truncated": (TENSORS_FILE, "not a safetensors file", lambda r: rewrite(
        r, TENSORS_FILE, (r / CURRENT / TENSORS_FILE).read_bytes()[:-100])),
    "tensors header garbage": (TENSORS_FILE, "not a safetensors file", lambda r: rewrite(
        r, TENSORS_FILE, b"\xff" * 8 + (r / CURRENT / TENSORS_FILE).read_bytes()[8:])),
    "policy tensor of another shape": (TENSORS_FILE, "mis-shaped", lambda r: edit_tensors(
        r, lambda t: _reshape(t, _first_policy_key(t)))),
    "policy tensor missing": (TENSORS_FILE, "missing", lambda r: edit_tensors(
        r, lambda t: t.pop(_first_policy_key(t)))),
    "policy tensor unexpected": (TENSORS_FILE, "unexpected", lambda r: edit_tensors(
        r, lambda t: t.update({"policy/extra": torch.zeros(2)}))),
    "adam moment of another shape": (TENSORS_FILE, "exp_avg", lambda r: edit_tensors(
        r, lambda t: _reshape(t, "optimizer/0/exp_avg"))),
    "torch rng of another dtype": (TENSORS_FILE, "torch_rng", lambda r: edit_tensors(
        r, lambda t: t.update({"torch_rng": torch.zeros(3)}))),
    "meta not an object": (META_FILE, "JSON object", lambda r: rewrite(r, META_FILE, b"[1, 2]")),
    "meta not json": (META_FILE, "JSONDecodeError", lambda r: rewrite(r, META_FILE, b"{\"format\": ")),
    "meta deeply nested": (META_FILE, "RecursionError", lambda r: rewrite(r, META_FILE, b"[" * 100_000)),
    "meta of another format": (META_FILE, "format", lambda r: edit_json(r, META_FILE, _set("format", "x/9"))),
    "param_groups a string": (META_FILE, "optimizer.param_groups", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_groups", "groups"))),
    "param_groups empty": (META_FILE, "optimizer.param", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_groups", []))),
    "group params not ids": (META_FILE, "optimizer.param_groups.0.params", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_groups.0.params", ["a"]))),
    "group lr a string": (META_FILE, "param_groups.0.lr", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_groups.0.lr", "fast"))),
    "group lr missing": (META_FILE, "param_groups.0.lr", lambda r: edit_json(
        r, META_FILE, lambda m: m["optimizer"]["param_groups"][0].pop("lr") and m)),
    "group betas short": (META_FILE, "param_groups.0.betas", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_groups.0.betas", [0.9]))),
    "param_ids a number": (META_FILE, "optimizer.param_ids", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_ids", 5))),
    "param_ids unknown": (META_FILE, "optimizer.param_ids", lambda r: edit_json(
        r, META_FILE, _set("optimizer.param_ids", ["999999"]))),
    "scalars a list": (META_FILE, "optimizer.scalars", lambda r: edit_json(
        r, META_FILE, _set("optimizer.scalars", []))),
    "scalar a list": (META_FILE, "optimizer.scalars.0.x", lambda r: edit_json(
        r, META_FILE, _set("optimizer.scalars", {"0": {"x": [1]}}))),
    "alias to nowhere": (META_FILE, "alias `policy/x`", lambda r: edit_json(
        r, META_FILE, _set("aliases", {"policy/x": "policy/nowhere"}))),
    "aliases a list": (META_FILE, "aliases", lambda r: edit_json(r, META_FILE, _set("aliases", ["a"]))),
    "policy config too big": (META_FILE, "vocab_size", lambda r: edit_json(
        r, META_FILE, _set("policy_config.vocab_size", 100_000_000))),
    "policy kind a number": (META_FILE, "policy_kind", lambda r: edit_json(r, META_FILE, _set("policy_kind", 5))),
    "state a list": (STATE_FILE, "JSON object", lambda r: rewrite(r, STATE_FILE, b"[]")),
    "state version a string": (STATE_FILE, "version", lambda r: edit_json(r, STATE_FILE, _set("version", "3"))),
    "state version negative": (STATE_FILE, "version", lambda r: edit_json(r, STATE_FILE, _set("version", -1))),
    "state version missing": (STATE_FILE, "version", lambda r: edit_json(
        r, STATE_FILE, lambda s: {k: v for k, v in s.items() if k != "version"})),
    "state counter a string": (STATE_FILE, "counters", lambda r: edit_json(
        r, STATE_FILE, _set("counters", {"learner/updates": "many"}))),
    "state rng of another generator": (STATE_FILE, "rng", lambda r: edit_json(
        r, STATE_FILE, _set("rng", {"bit_generator": "MT19937", "state": {}}))),
    "state rng garbage": (STATE_FILE, "rng", lambda r: edit_json(r, STATE_FILE, _set("rng.state", "x"))),
    "run state garbage": (RUN_STATE_FILE, "JSONDecodeError", lambda r: rewrite(r, RUN_STATE_FILE, b"garbage")),
    "run state a list": (RUN_STATE_FILE, "JSON object", lambda r: rewrite(r, RUN_STATE_FILE, b"[]")),
    "run state clock a string": (RUN_STATE_FILE, "elapsed_s", lambda r: edit_json(
        r, RUN_STATE_FILE, _set("elapsed_s", "long"))),
    "run state clock NaN": (RUN_STATE_FILE, "finite", lambda r: rewrite(r, RUN_STATE_FILE, b"{\"elapsed_s\": NaN}")),
    "run state curve a number": (RUN_STATE_FILE, "curve", lambda r: edit_json(r, RUN_STATE_FILE, _set("curve", 5))),
    "run state total a string": (RUN_STATE_FILE, "totals", lambda r: edit_json(
        r, RUN_STATE_FILE, _set("totals", {"runtime/env_steps": "x"}))),
    "replay truncated": (REPLAY_FILE, "could not read", lambda r: rewrite(
        r, REPLAY_FILE, (r / CURRENT / REPLAY_FILE).read_bytes()[:-200])),
    "replay not a zip": (REPLAY_FILE, "could not read", lambda r: rewrite(r, REPLAY_FILE, b"garbage" * 10)),
    "replay of objects (pickle)": (REPLAY_FILE, "could not read", lambda r: edit_replay(
        r, lambda a: a.update({"priorities": np.array([object()] * len(a["priorities"]))}))),
    "replay priorities ints": (REPLAY_FILE, "priorities", lambda r: edit_replay(
        r, lambda a: a.update({"priorities": a["priorities"].astype(np.int64)}))),
    "replay priorities NaN": (REPLAY_FILE, "priorities", lambda r: edit_replay(
        r, lambda a: a.update({"priorities": np.full_like(a["priorities"], np.nan)}))),
    "replay lengths short": (REPLAY_FILE, "lengths", lambda r: edit_replay(
        r, lambda a: a.update({"lengths": a["lengths"][:2]}))),
    "replay lengths 2-d": (REPLAY_FILE, "lengths", lambda r: edit_replay(
        r, lambda a: a.update({"lengths": a["lengths"][:, None]}))),
    "replay ring short": (REPLAY_FILE, "ring", lambda r: edit_replay(r, lambda a: a.update({"ring": a["ring"][:3]}))),
    "replay ring size wrong": (REPLAY_FILE, "size", lambda r: edit_replay(
        r, lambda a: a["ring"].__setitem__(3, 99))),
    "replay ring head out of range": (REPLAY_FILE, "head", lambda r: edit_replay(
        r, lambda a: a["ring"].__setitem__(0, 10**9))),
    "replay steps disagree": (REPLAY_FILE, "num_steps", lambda r: edit_replay(
        r, lambda a: a["lengths"].__setitem__(0, a["lengths"][0] + 1))),
    "replay leaf on an empty slot": (REPLAY_FILE, "leaves", lambda r: edit_replay(
        r, lambda a: a["leaves"].__setitem__(-1, 1.0))),
    "replay config of another buffer": (REPLAY_FILE, "other arguments", lambda r: edit_replay(
        r, lambda a: a.update({"config": np.array(json.dumps({"capacity_steps": 1}))}))),
    "replay counters garbage": (REPLAY_FILE, "counters", lambda r: edit_replay(
        r, lambda a: a.update({"counters": np.array("[1, 2]")}))),
    "replay trajectory missing": (REPLAY_FILE, "slot 0", lambda r: edit_replay(
        r, lambda a: a.pop("traj/0/header"))),
    "replay trajectory header garbage": (REPLAY_FILE, "slot 0", lambda r: edit_replay(
        r, lambda a: a.update({"traj/0/header": np.array("[]")}))),
    "replay stray trajectory": (REPLAY_FILE, "traj/77", lambda r: edit_replay(
        r, lambda a: a.update({"traj/77/rewards": np.zeros(1)}))),
    "manifest garbage": (MANIFEST_FILE, "no checkpoint", lambda r: (r / CURRENT / MANIFEST_FILE).write_text("{")),
    "manifest lists a path outside": (MANIFEST_FILE, "not a file of ours", lambda r: edit_json(
        r, MANIFEST_FILE, _set("files", {"../../etc/passwd": 1, STATE_FILE: 1, RUN_STATE_FILE: 1}))),
}


@pytest.mark.parametrize("case", list(TAMPERINGS))
def test_a_tampered_file_raises_checkpoint_error_naming_it(run_dir, learners, case) -> None:
    """Each damage ends in CheckpointError whose message names the damaged file and the entry, never another error."""
    name, detail, damage = TAMPERINGS[case]
    resume_and_read_policy(run_dir, learners[1])  # the copy is good before the damage
    damage(run_dir)
    with pytest.raises(CheckpointError) as raised:
        resume_and_read_policy(run_dir, learners[1])
    assert name in str(raised.value) and detail in str(raised.value), str(raised.value)


def test_a_json_file_past_the_size_cap_is_refused_before_it_is_read(run_dir, learners, monkeypatch) -> None:
    """A huge learner.json is refused from its size, not parsed (the cap is lowered here to keep the test small)."""
    monkeypatch.setattr(checkpoint_checks, "MAX_JSON_BYTES", 1000)
    edit_json(run_dir, META_FILE, _set("padding", "x" * 2000))
    reads: list[Path] = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or b"")
    with pytest.raises(CheckpointError, match=rf"refused to read .*{META_FILE}: \d,\d+ bytes"):
        read_policy(run_dir / CURRENT)
    assert reads == []


def test_the_learner_is_unchanged_by_a_replay_it_refuses(run_dir, learners) -> None:
    """A replay that fails its checks leaves the buffer as it was (it is checked whole before anything is set)."""
    fresh = learners[1]
    fresh.load(find_checkpoint(run_dir))
    before = fresh.replay.state_dict()
    edit_replay(run_dir, lambda a: a["ring"].__setitem__(3, 99))
    with pytest.raises(CheckpointError, match="size"):
        fresh.replay.load(run_dir / CURRENT / REPLAY_FILE)
    after = fresh.replay.state_dict()
    assert before.keys() == after.keys() and all(np.array_equal(before[k], after[k]) for k in before)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FILES), cut=st.floats(0, 1), flips=st.lists(st.tuples(st.floats(0, 1), st.integers(1, 255)),
                                                                        max_size=3))
def test_any_truncation_or_byte_flip_resumes_or_raises_checkpoint_error(saved, learners, tmp_path_factory, name,
                                                                        cut, flips) -> None:
    """Whatever bytes a file is cut to or flipped at, resuming either works or raises CheckpointError."""
    run_dir = tmp_path_factory.mktemp("fuzz") / "run"
    shutil.copytree(saved, run_dir)
    data = bytearray((run_dir / CURRENT / name).read_bytes())
    for where, xor in flips:
        data[int(where * (len(data) - 1))] ^= xor
    rewrite(run_dir, name, bytes(data[: max(1, int(cut * len(data)))] if cut < 1 else data))
    try:
        resume_and_read_policy(run_dir, learners[1])
    except CheckpointError as e:
        assert name in str(e) or re.search(r"\.(json|npz|safetensors)", str(e)), str(e)


def test_eval_refuses_policy_tensors_that_do_not_fit_their_config_naming_the_file(run_dir) -> None:
    """`read_policy` (what `distrl eval` acts with) checks the tensors' shapes against the saved config, by name."""
    edit_tensors(run_dir, lambda t: _reshape(t, _first_policy_key(t)))
    with pytest.raises(CheckpointError, match=rf"{TENSORS_FILE} do not fit their config: .*mis-shaped"):
        read_policy(find_checkpoint(run_dir))
