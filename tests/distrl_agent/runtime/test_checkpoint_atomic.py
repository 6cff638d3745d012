"""`save_checkpoint` and `find_checkpoint` under kills: every step of a save is interrupted, once and twice.

A kill is `Killed` (a BaseException, so no `except Exception` of the code under test runs, as with SIGKILL) raised
after a chosen step of a save: each file the learner writes, each fsync, each rename, each removal, or halfway
through a manifest write or a removal. After it, `find_checkpoint` must return a complete checkpoint holding the
newest version whose manifest was committed, and that checkpoint must load.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
import torch

from distrl_agent.config import load_config
from distrl_agent.errors import CheckpointError
from distrl_agent.replay import TrajectoryReplay
from distrl_agent.runtime import durable
from distrl_agent.runtime import learner as learner_module
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.checkpoint import (
    LearnerBlob,
    find_checkpoint,
    load_learner_blob,
    read_run_state,
    read_state,
    save_checkpoint,
    save_learner_blob,
    write_state,
)
from distrl_agent.runtime.checkpoint_files import CURRENT, MANIFEST_FILE, REPLAY_FILE, RUN_STATE_FILE
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.progress import RunState

TINY = ["runtime.minutes=0.1", "learner.batch_size=4", "learner.min_replay_trajectories=4"]
STEPS = ("make_private_dir", "write_new_file", "fsync_file", "fsync_dir", "rename", "remove_tree")
"""The `durable` functions a save is made of; each is a step a kill can follow."""


class Killed(BaseException):
    """The process died here: raised past every `except Exception`."""


class Killer:
    """Counts the steps of saves and kills the process after step `at` (None: never), optionally halfway through it.

    Attributes:
        log: (step name, path) of every step taken, in order.
        commits: indices in `log` of the manifest renames (the step that makes a checkpoint count).
    """

    def __init__(self, at: int | None = None, halfway: bool = False, real_fsync: bool = True) -> None:
        self.at, self.halfway, self.real_fsync = at, halfway, real_fsync
        self.log: list[tuple[str, Path]] = []
        self.commits: list[int] = []

    def step(self, name: str, path: Path, run: Callable[[], object], half: Callable[[], object] | None = None) -> None:
        """Take one step: run it (or half of it when this is the halfway kill), log it, and die if it is `at`."""
        index = len(self.log)
        self.log.append((name, Path(path)))
        if index == self.at and self.halfway and half is not None:
            half()
            raise Killed(f"halfway through step {index}: {name} {path}")
        if name.startswith("fsync") and not self.real_fsync:
            pass  # ordering is what the matrix checks; durability itself needs a power cut to test
        else:
            run()
        if name == "rename" and Path(path).name == f"{MANIFEST_FILE}.tmp":
            self.commits.append(index)
        if index == self.at:
            raise Killed(f"after step {index}: {name} {path}")


@contextmanager
def killing(monkeypatch: pytest.MonkeyPatch, killer: Killer) -> Iterator[Killer]:
    """Route every `durable` step, and the learner's own file writes, through `killer`."""
    real = {name: getattr(durable, name) for name in STEPS}

    def wrap(name: str) -> Callable[..., object]:
        def step(*args: object) -> object:
            result: list[object] = []
            half = None
            if name == "write_new_file":
                def half() -> None:
                    Path(args[0]).write_bytes(bytes(args[1])[: len(args[1]) // 2])  # type: ignore[arg-type]
            elif name == "remove_tree" and Path(args[0]).is_dir() and not Path(args[0]).is_symlink():
                def half() -> None:
                    first = sorted(Path(args[0]).iterdir())[:1]
                    for path in first:
                        path.unlink()
            killer.step(name, Path(str(args[0])), lambda: result.append(real[name](*args)), half)
            return result[0] if result else None
        return step

    for name in STEPS:
        monkeypatch.setattr(durable, name, wrap(name))
    yield killer
    for name in STEPS:
        monkeypatch.setattr(durable, name, real[name])


class FileLearner:
    """A `LearnerHandle` that saves a tiny but real checkpoint (safetensors, JSON, replay) of version `version`."""

    def __init__(self, killer: Killer) -> None:
        self.version, self.killer = 0, killer

    def save(self, directory: str) -> None:
        """Write learner.safetensors + learner.json, replay.npz and state.json, one step per file."""
        d = Path(directory)
        blob = LearnerBlob({"w": torch.full((2, 2), float(self.version))}, None, None,
                           {"policy_kind": "small", "policy_config": {}, "algorithm": "x"})
        self.killer.step("learner files", d, lambda: save_learner_blob(d, blob))
        self.killer.step("replay", d, lambda: TrajectoryReplay(8).save(d / REPLAY_FILE))
        self.killer.step("state", d, lambda: write_state(d, {"version": self.version, "counters": {},
                                                               "rng": np.random.default_rng(0).bit_generator.state}))


class KilledRunState(RunState):
    """A `RunState` whose save is a step of `killer` (set on the instance)."""

    def save(self, path: Path) -> None:
        """Write it, then let the killer decide."""
        self.killer.step("run_state", path, lambda: RunState.save(self, path))  # type: ignore[attr-defined]


def run_state(killer: Killer, checkpoints: int) -> RunState:
    state = KilledRunState(checkpoints=checkpoints)
    state.killer = killer  # type: ignore[attr-defined]
    return state


def save(run_dir: Path, handle: FileLearner, version: int, killer: Killer) -> bool:
    """Save `version`; whether the save ran to its end (False: `killer` killed it)."""
    handle.version = version
    try:
        save_checkpoint(handle, run_state(killer, version), run_dir)  # type: ignore[arg-type]
    except Killed:
        return False
    return True


def checkpoint_names(run_dir: Path) -> list[str]:
    return sorted(p.name for p in run_dir.iterdir() if p.name.startswith("checkpoint"))


def second_save_steps(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The step names of a save over an existing checkpoint, and the index of its commit among them."""
    killer = Killer()
    with killing(monkeypatch, killer):
        handle = FileLearner(killer)
        save(run_dir, handle, 1, killer)
        start = len(killer.log)
        save(run_dir, handle, 2, killer)
    return [name for name, _ in killer.log[start:]], killer.commits[-1] - start


def assert_loads(found: Path, version: int) -> None:
    """`found` is a complete checkpoint of `version` whose every file reads back."""
    assert read_state(found)["version"] == version
    assert torch.equal(load_learner_blob(found).policy["w"], torch.full((2, 2), float(version)))
    TrajectoryReplay(8).load(found / REPLAY_FILE)
    assert read_run_state(found).checkpoints == version


def test_every_single_kill_leaves_the_newest_committed_checkpoint(tmp_path, monkeypatch) -> None:
    """A kill after (or halfway through) any step of a save: the previous checkpoint, or the new one once committed."""
    steps, commit = second_save_steps(tmp_path / "count", monkeypatch)
    assert len(steps) > 15 and {"learner files", "fsync_file", "rename", "remove_tree"} <= set(steps)
    for at, name in enumerate(steps):
        for halfway in (False, True) if name in ("write_new_file", "remove_tree") else (False,):
            run_dir = tmp_path / f"run{at}{'h' if halfway else ''}"
            run_dir.mkdir()
            killer = Killer()
            with killing(monkeypatch, killer):
                handle = FileLearner(killer)
                assert save(run_dir, handle, 1, killer)
                killer.at, killer.halfway = len(killer.log) + at, halfway
                assert not save(run_dir, handle, 2, killer)
            assert_loads(find_checkpoint(run_dir), 2 if at >= commit else 1)
            with killing(monkeypatch, Killer()) as clean:  # the next save tidies whatever the kill left
                assert save(run_dir, FileLearner(clean), 3, clean)
            assert checkpoint_names(run_dir) == [CURRENT]
            assert_loads(find_checkpoint(run_dir), 3)


def test_every_pair_of_kills_leaves_the_newest_committed_checkpoint(tmp_path, monkeypatch) -> None:
    """A kill in one save, then another in the next, at every pair of steps: never less than the last committed."""
    steps, commit = second_save_steps(tmp_path / "count", monkeypatch)
    for first in range(len(steps)):
        for second in range(len(steps) + 3):  # the third save may have leftovers to remove: it can be longer
            run_dir = tmp_path / f"run{first}-{second}"
            run_dir.mkdir()
            killer = Killer(real_fsync=False)
            with killing(monkeypatch, killer):
                handle = FileLearner(killer)
                assert save(run_dir, handle, 1, killer)
                killer.at = len(killer.log) + first
                assert not save(run_dir, handle, 2, killer)
                start = len(killer.log)
                killer.at = start + second
                is_complete = save(run_dir, handle, 3, killer)
            newest = 3 if killer.commits and killer.commits[-1] >= start else 2 if first >= commit else 1
            assert_loads(find_checkpoint(run_dir), newest)
            if is_complete:  # only its checkpoint is left
                assert checkpoint_names(run_dir) == [CURRENT]


@pytest.fixture(scope="module")
def learners() -> tuple[Learner, Learner]:
    """A learner that saves and one that resumes (each takes seconds to build)."""
    return build_learner(load_config(overrides=TINY)), build_learner(load_config(overrides=TINY))


def test_a_kill_at_any_step_of_a_real_learner_save_resumes_the_learner(learners, tmp_path, monkeypatch) -> None:
    """The real learner's checkpoint, killed after each step of a save: `Learner.load` resumes the one found."""
    learner, fresh = learners
    writes = {name: getattr(learner_module, name) for name in ("save_learner_blob", "write_state")}
    killer = Killer()
    for name in writes:  # the learner's own file writes are steps too
        monkeypatch.setattr(learner_module, name, lambda *args, name=name: killer.step(
            name, Path(args[0]), lambda: writes[name](*args)))

    def two_saves(run_dir: Path, at: int | None) -> int:
        """Save version 5, then version 6 killed after step `at` of its own; the index its steps start at."""
        run_dir.mkdir()
        killer.at, killer.log, killer.commits = None, [], []
        with killing(monkeypatch, killer):
            learner.version = 5
            save_checkpoint(learner, RunState(checkpoints=1), run_dir)
            start = len(killer.log)
            killer.at = None if at is None else start + at
            learner.version = 6
            try:
                save_checkpoint(learner, RunState(checkpoints=2), run_dir)
            except Killed:
                pass
        return start

    start = two_saves(tmp_path / "count", None)
    steps = len(killer.log) - start
    assert steps > 15
    for at in range(steps):
        start = two_saves(tmp_path / f"run{at}", at)
        committed = killer.commits[-1] >= start
        found = find_checkpoint(tmp_path / f"run{at}")
        fresh.load(found)
        assert fresh.version == (6 if committed else 5), (at, killer.log[start + at])
        assert read_run_state(found).checkpoints == (2 if committed else 1)


def test_fsyncs_come_before_the_commit_and_the_old_checkpoint_goes_after_the_new_is_current(tmp_path,
                                                                                            monkeypatch) -> None:
    """Files are fsynced before the manifest commits them; `run_dir` is fsynced before anything old is removed."""
    killer = Killer()
    with killing(monkeypatch, killer):
        handle = FileLearner(killer)
        save(tmp_path, handle, 1, killer)
        start = len(killer.log)
        save(tmp_path, handle, 2, killer)
    log = killer.log[start:]
    commit = killer.commits[-1] - start
    staging = log[commit][1].parent
    synced = {path.name for name, path in log[:commit] if name == "fsync_file"}
    assert synced == {p.name for p in (tmp_path / CURRENT).iterdir()} - {MANIFEST_FILE}
    assert ("write_new_file", staging / f"{MANIFEST_FILE}.tmp") in log[:commit]  # write_new_file fsyncs itself
    promoted = log.index(("rename", staging))
    assert ("fsync_dir", staging) in log[commit:promoted] and ("fsync_dir", tmp_path) in log[commit:promoted]
    removals = [i for i, (name, _) in enumerate(log) if name == "remove_tree"]
    assert removals and ("fsync_dir", tmp_path) in log[promoted:min(removals)]


def test_only_a_complete_checkpoint_tmp_left_by_the_old_save_is_found(learners, tmp_path) -> None:
    """The old rename-based save, killed between its renames and again in the next save, left only checkpoint.tmp."""
    learner, fresh = learners
    learner.version = 7
    learner.save(str(tmp_path / "checkpoint.tmp"))
    RunState(checkpoints=7).save(tmp_path / "checkpoint.tmp" / RUN_STATE_FILE)
    assert find_checkpoint(tmp_path) == tmp_path / "checkpoint.tmp"
    fresh.load(find_checkpoint(tmp_path))
    assert fresh.version == 7
    save_checkpoint(learner, RunState(checkpoints=8), tmp_path)  # the new save takes over and tidies the old layout
    assert checkpoint_names(tmp_path) == [CURRENT] and read_run_state(tmp_path / CURRENT).checkpoints == 8


@pytest.mark.parametrize(("layout", "expected"), [
    ({"checkpoint": 3, "checkpoint.old": 2}, "checkpoint"),
    ({"checkpoint.old": 2, "checkpoint.tmp": None}, "checkpoint.old"),  # .tmp (of version 9) without run_state.json
    ({"checkpoint": 3, "checkpoint.tmp": 4}, "checkpoint.tmp"),
    ({"checkpoint": 4, "checkpoint.tmp": 4}, "checkpoint.tmp"),  # same version: .tmp was written last
    ({"checkpoint.old": 5, "checkpoint": 4}, "checkpoint.old"),  # the higher version wins
])
def test_older_layouts_are_found_by_version_then_by_the_order_they_were_written(tmp_path, layout, expected) -> None:
    """Checkpoints without a manifest (before issue 43) rank by learner version, then .tmp > checkpoint > .old."""
    for name, version in layout.items():
        handle = FileLearner(Killer())
        handle.version = version or 9  # None: an interrupted save of a newer version
        handle.save(str(tmp_path / name))
        if version is not None:
            RunState(checkpoints=version).save(tmp_path / name / RUN_STATE_FILE)
    assert find_checkpoint(tmp_path) == tmp_path / expected


def test_a_committed_checkpoint_outranks_every_older_layout(tmp_path) -> None:
    """A checkpoint with a manifest is newer than any pre-issue-43 folder, whatever their versions."""
    handle = FileLearner(Killer())
    handle.version = 99
    handle.save(str(tmp_path / "checkpoint.tmp"))
    RunState().save(tmp_path / "checkpoint.tmp" / RUN_STATE_FILE)
    (tmp_path / "checkpoint.tmp").rename(tmp_path / "checkpoint.old")
    handle.version = 1
    save_checkpoint(handle, RunState(), tmp_path)  # type: ignore[arg-type]
    assert find_checkpoint(tmp_path) == tmp_path / CURRENT and read_state(tmp_path / CURRENT)["version"] == 1
    assert checkpoint_names(tmp_path) == [CURRENT]


def test_a_changed_or_missing_file_makes_a_checkpoint_incomplete(tmp_path) -> None:
    """A file whose size differs from the manifest's, or is gone, disqualifies its folder; the error names it."""
    handle = FileLearner(Killer())
    handle.version = 1
    save_checkpoint(handle, RunState(), tmp_path)  # type: ignore[arg-type]
    with open(tmp_path / CURRENT / REPLAY_FILE, "ab") as f:
        f.write(b"x")
    with pytest.raises(CheckpointError, match=rf"no checkpoint in .*{REPLAY_FILE} is missing or not the"):
        find_checkpoint(tmp_path)
    (tmp_path / CURRENT / REPLAY_FILE).unlink()
    with pytest.raises(CheckpointError, match=rf"{REPLAY_FILE} is missing"):
        find_checkpoint(tmp_path)


@pytest.mark.parametrize("name", ["checkpoint.tmp", "checkpoint", "checkpoint.old", "checkpoint.new-999999999-x"])
def test_a_planted_link_in_the_run_folder_is_never_written_through_or_read(tmp_path, name) -> None:
    """A link to a folder elsewhere, under any checkpoint name: the save writes nothing there and removes the link."""
    elsewhere, run_dir = tmp_path / "elsewhere", tmp_path / "run"
    elsewhere.mkdir()
    run_dir.mkdir()
    (elsewhere / "keep.txt").write_text("precious")
    (run_dir / name).symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(CheckpointError, match="a link is never followed"):
        find_checkpoint(run_dir)
    handle = FileLearner(Killer())
    handle.version = 1
    save_checkpoint(handle, RunState(checkpoints=1), run_dir)  # type: ignore[arg-type]
    assert sorted(os.listdir(elsewhere)) == ["keep.txt"] and (elsewhere / "keep.txt").read_text() == "precious"
    assert checkpoint_names(run_dir) == [CURRENT] and not (run_dir / CURRENT).is_symlink()
    assert_loads(find_checkpoint(run_dir), 1)


def test_links_planted_at_the_temporary_file_names_are_not_written_through(tmp_path) -> None:
    """`Learner.save` into a folder with links at every temp name: the links go, their targets stay untouched."""
    target = tmp_path / "target.txt"
    target.write_text("precious")
    folder = tmp_path / "ckpt"
    folder.mkdir()
    for name in ("learner.safetensors.tmp", "learner.json.tmp", "state.json.tmp", f"{REPLAY_FILE}.tmp"):
        (folder / name).symlink_to(target)
    handle = FileLearner(Killer())
    handle.version = 3
    handle.save(str(folder))
    assert target.read_text() == "precious"
    assert read_state(folder)["version"] == 3 and not any(p.is_symlink() for p in folder.iterdir())


def test_a_save_that_fails_removes_its_folder_and_keeps_the_previous_checkpoint(tmp_path) -> None:
    """An ordinary error before the commit (disk full) raises CheckpointError and leaves no half checkpoint."""
    handle = FileLearner(Killer())
    handle.version = 1
    save_checkpoint(handle, RunState(), tmp_path)  # type: ignore[arg-type]

    class Full(FileLearner):
        def save(self, directory: str) -> None:
            super().save(directory)
            raise OSError(28, "No space left on device")

    with pytest.raises(CheckpointError, match="No space left on device"):
        save_checkpoint(Full(Killer()), RunState(), tmp_path)  # type: ignore[arg-type]
    assert checkpoint_names(tmp_path) == [CURRENT] and read_state(find_checkpoint(tmp_path))["version"] == 1
