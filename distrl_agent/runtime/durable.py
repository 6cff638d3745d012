"""The file-system steps a checkpoint is made of: private folders, exclusive files, fsync, rename, removal.

Each step is one function so that a test can stop a save at any of them, the way a kill or a power cut would
(`tests/distrl_agent/runtime/test_checkpoint_atomic.py`). None of them follows a symbolic link it did not make:
folders are created fresh (`mkdir` fails on anything already there, a link included), files are created with
`O_CREAT | O_EXCL | O_NOFOLLOW`, and removal unlinks a link instead of descending into its target (issue 43: a
run folder may come from someone else, and a link planted in it must not redirect our writes or deletions).

>>> import pathlib, tempfile
>>> parent = pathlib.Path(tempfile.mkdtemp())
>>> folder = make_private_dir(parent, "demo-")
>>> write_new_file(folder / "a.json", b"{}")
>>> (folder / "a.json").read_bytes()
b'{}'
>>> write_new_file(folder / "a.json", b"[]")
Traceback (most recent call last):
...
FileExistsError: [Errno 17] File exists: ...
>>> remove_tree(folder); folder.exists()
False
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from android_gym.safe_files import fsync_dir  # one definition, shared with run-folder writes

__all__ = ["fsync_dir", "fsync_file", "make_private_dir", "remove_tree", "rename", "write_new_file"]


def make_private_dir(parent: Path, prefix: str) -> Path:
    """A new, empty folder in `parent` named `prefix` plus a random suffix, that only its owner can enter (0700).

    Raises:
        OSError: `parent` is missing or not writable.
    """
    return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))


def write_new_file(path: Path, data: bytes) -> None:
    """Create `path` holding `data` and fsync it; `path` must not exist (a planted file or link is refused).

    Raises:
        FileExistsError: something, a symbolic link included, is already at `path`.
        OSError: the folder is missing or the write failed.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def fsync_file(path: Path) -> None:
    """Flush `path`'s data to the disk (whichever process wrote it); a symbolic link is refused, not followed.

    Raises:
        OSError: `path` is missing or a symbolic link (ELOOP).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def rename(source: Path, target: Path) -> None:
    """Rename `source` to `target` in one atomic step (a link is moved as itself, never its target).

    Raises:
        FileExistsError: `target` exists (it is never replaced: callers pick names nothing else uses).
        OSError: `source` is missing, or the two are on different file systems.
    """
    if os.path.lexists(target):
        raise FileExistsError(f"refused to rename {source.name} to {target}: the target exists")
    os.rename(source, target)


def remove_tree(path: Path) -> None:
    """Remove `path`: a folder with everything in it, or a file or link itself (a link's target is never touched).

    Raises:
        OSError: something in it could not be removed.
    """
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
        return
    shutil.rmtree(path)  # descends through file descriptors and unlinks the links it meets without following them
