"""Tests of `distrl_agent.runtime.checkpoint`: learner checkpoints round-trip as data and never run planted code."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import torch

from distrl_agent.errors import CheckpointError
from distrl_agent.runtime.checkpoint import (
    LEGACY_FILE,
    META_FILE,
    TENSORS_FILE,
    LearnerBlob,
    load_learner_blob,
    save_learner_blob,
)


class _Payload:
    """Unpickling this runs `exec`, which writes `marker`: what a malicious checkpoint would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return exec, (f"open({str(self.marker)!r}, 'w').write('ran')",)


def _blob() -> LearnerBlob:
    layer = torch.nn.Linear(3, 2)
    optimizer = torch.optim.Adam(layer.parameters(), lr=1e-3)
    layer(torch.randn(4, 3)).sum().backward()
    optimizer.step()
    shared = torch.randn(5, 4)
    policy = {"w": layer.weight.detach(), "b": layer.bias.detach(), "embed": shared, "lm_head": shared,
              "row": shared[1], "half": torch.randn(3, dtype=torch.bfloat16)}
    return LearnerBlob(policy, optimizer.state_dict(), torch.get_rng_state(),
                       {"policy_kind": "small", "policy_config": {"hidden": 8, "names": ["a", "b"]}, "algorithm": "x"})


def _plant_pickle(path: Path, marker: Path) -> None:
    torch.save({"policy": {"w": torch.zeros(1)}, "evil": _Payload(marker)}, path)


def test_round_trip_keeps_tensors_aliases_optimizer_and_meta(tmp_path) -> None:
    """Everything saved comes back equal; tied tensors stay tied; bf16 stays bf16; Adam resumes from its state."""
    blob = _blob()
    save_learner_blob(tmp_path, blob)
    loaded = load_learner_blob(tmp_path)
    assert set(loaded.policy) == set(blob.policy)
    for key, value in blob.policy.items():
        assert loaded.policy[key].dtype == value.dtype and torch.equal(loaded.policy[key], value), key
    assert loaded.policy["embed"] is loaded.policy["lm_head"]  # stored once, as the model tied them
    assert loaded.meta == {**blob.meta, "format": "distrl-learner/1"}
    assert torch.equal(loaded.torch_rng, blob.torch_rng)
    restored = torch.optim.Adam(torch.nn.Linear(3, 2).parameters(), lr=1e-3)
    restored.load_state_dict(loaded.optimizer)
    for param_id, state in blob.optimizer["state"].items():
        for name, value in state.items():
            assert torch.equal(restored.state_dict()["state"][param_id][name], value), (param_id, name)
    assert restored.state_dict()["param_groups"][0]["lr"] == 1e-3


def test_saved_files_are_safetensors_and_json_without_pickle(tmp_path) -> None:
    """learner.safetensors starts with its JSON header length; no pickle opcode stream is written; learner.pt goes."""
    (tmp_path / LEGACY_FILE).write_bytes(b"stale")
    save_learner_blob(tmp_path, _blob())
    raw = (tmp_path / TENSORS_FILE).read_bytes()
    (header_len,) = struct.unpack("<Q", raw[:8])
    assert json.loads(raw[8:8 + header_len])["__metadata__"] == {"format": "distrl-learner/1"}
    assert not raw.startswith(b"\x80") and b"PK\x03\x04" not in raw[:8]  # not a pickle, not torch's zip
    json.loads((tmp_path / META_FILE).read_text())
    assert not (tmp_path / LEGACY_FILE).exists()


def test_planted_pickle_in_legacy_checkpoint_is_refused_and_runs_nothing(tmp_path) -> None:
    """A learner.pt carrying an `exec` payload raises CheckpointError naming the file; the payload never runs."""
    live = tmp_path / "live"
    live.mkdir()
    _plant_pickle(live / LEGACY_FILE, live / "marker")
    torch.load(live / LEGACY_FILE, weights_only=False)  # the payload is real: a full unpickler runs it
    assert (live / "marker").exists()

    checkpoint = tmp_path / "checkpoint"
    checkpoint.mkdir()
    _plant_pickle(checkpoint / LEGACY_FILE, tmp_path / "marker")
    with pytest.raises(CheckpointError, match=rf"refused to load .*{LEGACY_FILE}.*Nothing in it was run"):
        load_learner_blob(checkpoint)
    assert not (tmp_path / "marker").exists()


def test_pickle_in_place_of_safetensors_is_refused_and_runs_nothing(tmp_path) -> None:
    """A pickle renamed learner.safetensors is not a safetensors file: refused, named, not run."""
    save_learner_blob(tmp_path, _blob())
    _plant_pickle(tmp_path / TENSORS_FILE, tmp_path / "marker")
    with pytest.raises(CheckpointError, match=rf"{TENSORS_FILE}: not a safetensors file"):
        load_learner_blob(tmp_path)
    assert not (tmp_path / "marker").exists()


def test_legacy_checkpoint_of_tensors_and_plain_data_still_loads(tmp_path) -> None:
    """A learner.pt written before safetensors (tensors, dicts, numbers, strings) loads with the weights-only reader."""
    blob = _blob()
    torch.save({"policy": blob.policy, "optimizer": blob.optimizer, "torch_rng": blob.torch_rng, **blob.meta},
               tmp_path / LEGACY_FILE)
    loaded = load_learner_blob(tmp_path)
    assert torch.equal(loaded.policy["w"], blob.policy["w"]) and loaded.meta["algorithm"] == "x"
    assert loaded.optimizer["param_groups"][0]["lr"] == 1e-3


@pytest.mark.parametrize("broken", ["missing_meta", "bad_json", "wrong_format", "dangling_alias"])
def test_damaged_checkpoint_names_the_file(tmp_path, broken) -> None:
    """Each kind of damage raises CheckpointError naming the file that is wrong."""
    save_learner_blob(tmp_path, _blob())
    meta = json.loads((tmp_path / META_FILE).read_text())
    match broken:
        case "missing_meta":
            (tmp_path / META_FILE).unlink()
        case "bad_json":
            (tmp_path / META_FILE).write_text("{not json")
        case "wrong_format":
            (tmp_path / META_FILE).write_text(json.dumps({**meta, "format": "other/9"}))
        case "dangling_alias":
            (tmp_path / META_FILE).write_text(json.dumps({**meta, "aliases": {"policy/x": "policy/nowhere"}}))
    with pytest.raises(CheckpointError, match=META_FILE):
        load_learner_blob(tmp_path)


def test_empty_folder_says_what_was_expected(tmp_path) -> None:
    """No checkpoint files: the error names the folder and the files it looked for."""
    with pytest.raises(CheckpointError, match=rf"no learner checkpoint in {tmp_path}.*{TENSORS_FILE}"):
        load_learner_blob(tmp_path)


def test_non_json_metadata_is_refused_before_writing(tmp_path) -> None:
    """Metadata that JSON cannot hold (an object) raises instead of being pickled."""
    blob = _blob()
    blob.meta["config"] = object()
    with pytest.raises(CheckpointError, match="not plain JSON"):
        save_learner_blob(tmp_path, blob)
    assert not (tmp_path / TENSORS_FILE).exists()


def test_only_the_checkpoint_module_spells_the_checkpoint_layout() -> None:
    """The file names of a checkpoint appear in `runtime/checkpoint_files.py` alone: a new format is one file's."""
    import re
    from pathlib import Path

    import distrl_agent

    repo = Path(distrl_agent.__file__).resolve().parents[1]
    names = re.compile(r"[\"'](state\.json|run_state\.json|replay\.npz|learner\.(pt|json|safetensors)|checkpoint\.old)")
    spelled = [f"{path.relative_to(repo)}:{n}" for package in ("distrl_agent", "benchmarks", "android_gym")
               for path in sorted((repo / package).rglob("*.py")) if path.name != "checkpoint_files.py"
               for n, line in enumerate(path.read_text().splitlines(), 1) if names.search(line)]
    assert not spelled, spelled
