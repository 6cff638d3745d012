"""Writing into folders others can plant things in (run folders, temp folders): links are refused, never followed.

A run folder may come from someone else (downloaded, shared, or a folder in /tmp that another local user prepared).
A symlink planted at `metrics.jsonl` or `eval_test.json` would make a plain `open(path, "a")` append to the link's
target, anywhere the user can write (issue 43). Every write here opens with `O_NOFOLLOW`, and a whole-file write goes
through a fresh temporary file (`O_CREAT | O_EXCL`, so not through a planted one either) renamed over the name: a
rename replaces a link itself, never its target.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "a.json", "{}")
>>> (folder / "b.json").symlink_to(folder / "a.json")
>>> write_text(folder / "b.json", "[]")
Traceback (most recent call last):
...
android_gym.errors.UnsafePathError: refused to write b.json in ...: it is a symbolic link (to .../a.json); \
a run folder's files are written in place, never through a link. Remove the link, or pick another folder
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import IO

from android_gym.errors import UnsafePathError

__all__ = ["UnsafePathError", "ensure_dir", "fsync_dir", "open_append", "private_dir", "refuse_links", "write_bytes",
           "write_text"]


def _refuse_link(path: Path, what: str = "write") -> None:
    if path.is_symlink():
        raise UnsafePathError(f"refused to {what} {path.name} in {path.parent}: it is a symbolic link (to "
                              f"{os.readlink(path)}); a run folder's files are written in place, never through a "
                              "link. Remove the link, or pick another folder")


def refuse_links(folder: str | Path, names: tuple[str, ...]) -> None:
    """Check, before any work starts, that none of `names` in `folder` is a symbolic link (the writes check again).

    Raises:
        UnsafePathError: naming the first link found.
    """
    for name in names:
        _refuse_link(Path(folder) / name)


def write_bytes(path: str | Path, data: bytes, *, durable: bool = False, mode: int = 0o644) -> None:
    """Replace `path` by a file holding `data`, atomically, refusing a symbolic link at `path`.

    Args:
        path: the file; its folder must exist.
        data: the whole content.
        durable: fsync the file and its folder before returning (a crash right after keeps the new content).
        mode: permission bits of a new file (before the umask).

    Raises:
        UnsafePathError: `path` is a symbolic link.
        OSError: the folder is missing or not writable.
    """
    path = Path(path)
    _refuse_link(path)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(path.parent)


def write_text(path: str | Path, text: str, *, durable: bool = False) -> None:
    """`write_bytes` of `text` as UTF-8."""
    write_bytes(path, text.encode("utf-8"), durable=durable)


def open_append(path: str | Path) -> IO[str]:
    """`path` opened for appending text (created 0644 if missing), refusing a symbolic link at `path`.

    Raises:
        UnsafePathError: `path` is a symbolic link (or, racing us, becomes one: `O_NOFOLLOW` refuses it then too).
    """
    path = Path(path)
    _refuse_link(path, "append to")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError:
        if path.is_symlink():
            _refuse_link(path, "append to")
        raise
    return os.fdopen(fd, "a", encoding="utf-8")


def ensure_dir(path: str | Path) -> Path:
    """`path` as a folder (created with its parents if missing), refusing a symbolic link in its place.

    The folder a user names may itself be a link they made (`runs/latest -> runs/2026-12-04`): only folders we
    create inside a run folder go through this.

    Raises:
        UnsafePathError: `path` is a symbolic link, or exists and is not a folder.
    """
    path = Path(path)
    _refuse_link(path, "use the folder")
    path.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or not path.is_dir():
        raise UnsafePathError(f"refused to use {path}: it is not a plain folder")
    return path


def private_dir(path: str | Path) -> Path:
    """`path` as a folder only its owner can enter (0700), created if missing; a folder of another user is refused.

    For logs and keys under shared temp folders: another local user cannot plant links in it or read it.

    Raises:
        UnsafePathError: `path` is a symbolic link, not a folder, owned by another user, or open to others.
    """
    path = Path(path)
    _refuse_link(path, "use the folder")
    try:
        path.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        pass
    info = path.lstat()
    if path.is_symlink() or not path.is_dir():
        raise UnsafePathError(f"refused to use {path}: it is not a plain folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():  # no uids to compare on Windows
        raise UnsafePathError(f"refused to use {path}: it belongs to uid {info.st_uid}, not to you ({os.getuid()}); "
                              "another user may have made it. Remove it or set another folder")
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def fsync_dir(path: str | Path) -> None:
    """Flush the folder `path` to disk (fsync), so that names created or renamed in it survive a crash."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
