"""Run folders: every fresh `distrl train` writes into a folder of its own, and `runs/latest` points at the newest.

Without `run_dir` a run gets `runs/<YYYYmmdd>-<HHMMSS>-<algorithm>-<suite>` (with `-2`, `-3`, ... when two start in
the same second), and `runs/latest` becomes a link to it. A `run_dir` the user names must be absent or empty: a fresh
run there would append its metrics to the earlier run's, overlap its TensorBoard steps and replace its checkpoint.
`--resume` continues the run in its own folder (resolved once, so a later run moving `runs/latest` does not move
this one's writes); `--overwrite` removes the earlier run's files (`RUN_FILES`, checkpoints, evaluations) first and
leaves anything else in the folder alone.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
import shutil
from pathlib import Path

from distrl_agent.config import TrainConfig
from distrl_agent.errors import RunDirError

log = logging.getLogger("distrl")
RUNS_ROOT = Path("runs")
"""Where runs without a `run_dir` go (relative to the working directory, as SB3's and HF's run folders)."""
LATEST = "latest"
"""The link in `RUNS_ROOT` to the newest fresh run."""
WARM_START_FILE = "warm_start.safetensors"
"""A run's clone (`runtime/warm_start.py`): what `runtime.warm_start_from` takes to skip the cloning next time."""
RUN_FILES = ("config.yaml", "metrics.jsonl", "summary.json", "tb", WARM_START_FILE)
"""What a run writes in its run_dir besides checkpoints (none may be a symbolic link, issue 43; `save_checkpoint`
removes links planted under checkpoint names without following them)."""


def prepare_run_dir(config: TrainConfig, resume: str | Path | None = None, overwrite: bool = False,
                    root: Path = RUNS_ROOT, now: dt.datetime | None = None, kind: str | None = None) -> TrainConfig:
    """`config` with `run_dir` set to the folder this run writes into, which is made ready for it.

    Args:
        config: the run; `run_dir` None asks for a new folder under `root`.
        resume: the run folder to continue; the run writes there unless `run_dir` names another (empty) folder.
        overwrite: remove an earlier run's files from `run_dir` instead of refusing it.
        root: where new folders go (`RUNS_ROOT`).
        now: the time in the new folder's name (default: now).
        kind: what a new folder's name says the run is (default: `<algorithm>-<suite>`); a run of another kind
            (`distrl collect`'s "collect-<suite>") leaves `root/latest` pointing at the newest training run.

    Raises:
        RunDirError: `resume` is not a folder; `run_dir` is not a folder, or holds an earlier run without `overwrite`.
    """
    if resume is not None:
        resumed = Path(resume)
        if not resumed.is_dir():
            raise RunDirError(f"--resume {resume}: no such run folder (`distrl train` prints where each run goes; "
                              f"{root / LATEST} is the newest)")
        if config.run_dir is None or _same_folder(config.run_dir, resumed):
            return config.replace(run_dir=str(resumed.resolve()))
    if config.run_dir is None:
        name = kind or f"{config.learner.algorithm}-{config.env.suite}"
        return config.replace(run_dir=str(new_run_dir(root, name, now, latest=kind is None)))
    claim(Path(config.run_dir), overwrite)
    return config


def new_run_dir(root: Path, name: str, now: dt.datetime | None = None, latest: bool = True) -> Path:
    """A new empty folder `root/<YYYYmmdd>-<HHMMSS>-<name>` (suffixed when taken); `root/latest` then points at it.

    `latest` False leaves the link alone.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> first = new_run_dir(root, "ppo-general", dt.datetime(2026, 12, 5, 9, 30))
    >>> second = new_run_dir(root, "ppo-general", dt.datetime(2026, 12, 5, 9, 30))
    >>> first.name, second.name, (root / "latest").resolve() == second.resolve()
    ('20261205-093000-ppo-general', '20261205-093000-ppo-general-2', True)
    """
    stamp = f"{(now or dt.datetime.now()):%Y%m%d-%H%M%S}-{name}"
    root.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        path = root / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        if latest:
            point_latest(root, path)
        return path
    raise RunDirError(f"{root} holds 999 runs named {stamp}*; remove some or give --run-dir")


def point_latest(root: Path, run: Path) -> None:
    """Make `root/latest` a relative link to `run`, atomically (a reader sees the old link or the new one).

    A real folder called `latest` (the single run folder of earlier versions) is left alone, with a warning.
    """
    latest = root / LATEST
    if latest.exists() and not latest.is_symlink():
        log.warning("%s is a folder, not a link (an earlier version's single run folder): left as it is; this run "
                    "is in %s", latest, run)
        return
    staged = root / f".{LATEST}-{secrets.token_hex(4)}"
    try:
        os.symlink(os.path.relpath(run, root), staged)
        os.replace(staged, latest)  # rename replaces the link itself, never what it points at
    except OSError as e:  # links can be unavailable (some Windows setups); the run itself is unaffected
        staged.unlink(missing_ok=True)
        log.warning("could not point %s at %s: %s", latest, run, e)


def claim(path: Path, overwrite: bool) -> None:
    """Make sure the user-named run folder `path` holds no earlier run (removing its files when `overwrite`).

    Raises:
        RunDirError: `path` is not a folder, or it holds anything and `overwrite` is off.
    """
    if not path.exists() and not path.is_symlink():
        return
    if not path.is_dir():
        raise RunDirError(f"run_dir {path} is not a folder; name a folder (or leave run_dir out: each run then "
                          f"gets {RUNS_ROOT}/<date>-<time>-<algorithm>-<suite>)")
    held = sorted(p.name for p in path.iterdir())
    if not held:
        return
    if not overwrite:
        shown = ", ".join(held[:4]) + (f" and {len(held) - 4} more" if len(held) > 4 else "")
        raise RunDirError(f"run_dir {path} is not empty (it holds {shown}): a new run there would mix with what is "
                          f"there. Continue it with `--resume {path}`, pass --overwrite to replace its run, or leave "
                          f"--run-dir out (each run gets {RUNS_ROOT}/<date>-<time>-<algorithm>-<suite>)")
    for name in held:
        if _is_run_file(name):
            _remove(path / name)


def _is_run_file(name: str) -> bool:
    """Whether a run wrote `name` into its folder: `RUN_FILES`, a checkpoint, or an evaluation."""
    # here, not at the top: checkpoint_files imports torch, which `distrl config` and `--help` do not need
    from distrl_agent.runtime.checkpoint_files import CURRENT, LEGACY_NAMES, STAGING_PREFIX, TRASH_PREFIX

    return (name in RUN_FILES or name == CURRENT or name in LEGACY_NAMES or name.startswith(STAGING_PREFIX)
            or name.startswith(TRASH_PREFIX) or (name.startswith("eval_") and name.endswith(".json")))


def _remove(path: Path) -> None:
    """Remove a file, a link (never what it points at) or a folder tree."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _same_folder(a: str | Path, b: Path) -> bool:
    try:
        return Path(a).resolve() == b.resolve()
    except OSError:
        return False
