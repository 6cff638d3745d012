r"""The Android emulator's discovery files: where a running emulator advertises its ports and its gRPC token.

A running emulator writes `pid_<pid>.ini` (`key=value` lines: `port.serial`, `port.adb`, `avd.name`, `grpc.port`,
and `grpc.token` when it runs with `-grpc-use-token`) into its discovery directory, which Android Studio and the
emulator's own Python tools read to find it and to authenticate (`authorization: Bearer <grpc.token>`). The
directory is `$XDG_RUNTIME_DIR/avd/running` on Linux (else `/run/user/<uid>/avd/running` when that exists, else
the emulator's user directory `~/.android/avd/running`), `~/Library/Caches/TemporaryItems/avd/running` on macOS and
`%LOCALAPPDATA%/Temp/avd/running` on Windows.

Both ends of the token live here (issue 43): `advertise` is what the simulated emulator writes (the directory made
0700 and refused when another user owns it or may write it; the file created 0600 in one step, never chmod'ed
after, so the token is never readable by others even for an instant), and `find_grpc_token` is what our gRPC
client reads (only files this user owns, of a live process, for the port it dials). A file is only as alive as the
process that wrote it: an emulator killed outright leaves its file behind, and when the system gives its pid to a
new process the file would look alive again, with a dead emulator's token for a port another emulator may serve
now. So a file older than its pid's process start is stale, and `advertise` removes this user's stale files.

>>> parse_discovery("port.serial=5554\ngrpc.port=8554\ngrpc.token=abc\n")
{'port.serial': '5554', 'grpc.port': '8554', 'grpc.token': 'abc'}
>>> discovery_dir({"XDG_RUNTIME_DIR": "/run/user/1000"}, platform="linux").as_posix()
'/run/user/1000/avd/running'
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

from android_gym.errors import ConfigError, UnsafePathError
from android_gym.safe_files import private_dir

FILE_PATTERN = re.compile(r"pid_(\d+)\.ini")
MAX_FILE_BYTES = 64 * 1024  # a discovery file is a dozen short lines; a bigger one is not the emulator's
START_SLACK_S = 1.0  # the boot time /proc gives is in whole seconds


def discovery_dir(env: Mapping[str, str] | None = None, platform: str = sys.platform) -> Path:
    """The directory running emulators advertise in, as the emulator computes it (see the module docstring).

    Args:
        env: the environment to read (None: `os.environ`).
        platform: `sys.platform`'s value for the host.
    """
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    if platform.startswith("win"):
        root = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local") / "Temp"
    elif platform == "darwin":
        root = home / "Library" / "Caches" / "TemporaryItems"
    elif env.get("XDG_RUNTIME_DIR"):
        root = Path(env["XDG_RUNTIME_DIR"])
    elif hasattr(os, "getuid") and Path(f"/run/user/{os.getuid()}").is_dir():
        root = Path(f"/run/user/{os.getuid()}")
    else:  # the emulator's user directory
        root = Path(env["ANDROID_EMULATOR_HOME"]) if env.get("ANDROID_EMULATOR_HOME") else home / ".android"
    return root / "avd" / "running"


def parse_discovery(text: str) -> dict[str, str]:
    """The `key=value` lines of a discovery file (other lines skipped; a repeated key keeps its last value)."""
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def advertise(directory: Path, props: Mapping[str, str], pid: int | None = None) -> Path:
    """Write `pid_<pid>.ini` holding `props` into `directory`, created owner-only (0600) in one step.

    A stale file of that name (a dead process whose pid came round again) is replaced.

    Args:
        directory: the discovery directory (`discovery_dir()`), made 0700 if missing.
        props: the keys and values; neither may hold a newline or `=` in a key.
        pid: the advertising process (None: this one).

    Returns:
        The file's path; the caller removes it when the emulator stops.

    Raises:
        ConfigError: the directory is unsafe (a link, not a directory, or another user's: `safe_files.private_dir`
            makes it 0700 or closes one of ours), or a key or value cannot be written.
        OSError: the file cannot be created.
    """
    for key, value in props.items():
        if "=" in key or any(c in key + value for c in "\r\n"):
            raise ConfigError(f"discovery entry {key!r}={value!r}: keys hold no '=', neither holds a newline")
    try:
        private_dir(directory)
    except UnsafePathError as e:  # another user could read or swap the gRPC token there
        raise ConfigError(f"the emulator discovery directory is unsafe: {e} (or set $XDG_RUNTIME_DIR to a "
                          "directory of yours)") from e
    path = directory / f"pid_{os.getpid() if pid is None else pid}.ini"
    path.unlink(missing_ok=True)
    remove_stale(directory)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("".join(f"{key}={value}\n" for key, value in props.items()))
    return path


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, another user's (its file is refused for its owner anyway)
    return True


def process_start(pid: int) -> float | None:
    """When process `pid` started, in seconds since the epoch.

    None: not known here (no such process, or neither Linux's /proc nor psutil to ask).
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # the command name in parentheses may hold spaces
        with open("/proc/stat", "rb") as f:
            boot = next(float(line.split()[1]) for line in f if line.startswith(b"btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, `starttime`, in clock ticks
    except (OSError, IndexError, ValueError, StopIteration):
        pass
    try:
        import psutil
        return psutil.Process(pid).create_time()
    except Exception:  # psutil missing, or the process gone  # noqa: BLE001
        return None


def _is_current(pid: int, info: os.stat_result) -> bool:
    """Whether the file `info` describes was written by the process now holding `pid`.

    That process must be alive and have started before the file was written (a reused pid's process started after).
    """
    if not _is_alive(pid):
        return False
    started = process_start(pid)
    return started is None or info.st_mtime >= started - START_SLACK_S


def _trusted_stat(path: Path) -> os.stat_result | None:
    """`path`'s lstat when it is a trustworthy discovery file (see `read_discovery`), else None."""
    match = FILE_PATTERN.fullmatch(path.name)
    try:
        info = path.lstat()
    except OSError:
        return None
    if (match is None or not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES
            or (hasattr(os, "getuid") and info.st_uid != os.getuid()) or not _is_current(int(match.group(1)), info)):
        return None
    return info


def remove_stale(directory: Path) -> list[Path]:
    """Remove this user's discovery files in `directory` whose emulator is gone; returns what was removed.

    Gone: the pid dead, or reused by a process started after the file was written. Other users' files stay.
    """
    removed = []
    for path in _files(directory):
        match = FILE_PATTERN.fullmatch(path.name)
        try:
            info = path.lstat()
        except OSError:
            continue
        ours = not hasattr(os, "getuid") or info.st_uid == os.getuid()
        if match and ours and stat.S_ISREG(info.st_mode) and not _is_current(int(match.group(1)), info):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _files(directory: Path) -> list[Path]:
    try:
        return sorted(directory.iterdir())
    except OSError:
        return []


def read_discovery(path: Path) -> dict[str, str] | None:
    """The entries of discovery file `path`, or None when it is not a trustworthy file of a live emulator.

    Trustworthy: a regular file (not a link) this user owns, at most `MAX_FILE_BYTES`, named `pid_<pid>.ini` for a
    process that is alive and started before the file was written (else the pid was reused: the file is stale).
    """
    read = _read(path)
    return None if read is None else read[1]


def _read(path: Path) -> tuple[os.stat_result, dict[str, str]] | None:
    info = _trusted_stat(path)
    if info is None:
        return None
    try:
        return info, parse_discovery(path.read_text(errors="replace"))
    except OSError:
        return None


def find_grpc_token(port: int, directory: Path | None = None) -> str | None:
    """The `grpc.token` of the live emulator of this user's advertising gRPC port `port` (None: none advertises it,
    or it runs without a token).

    Args:
        port: the gRPC port the caller dials.
        directory: where to look (None: `discovery_dir()`).
    """  # noqa: D205
    directory = discovery_dir() if directory is None else directory
    found = []  # (written at, token): when two live files name the port, the newer one's emulator holds it now
    for path in _files(directory):
        match _read(path):
            case (info, props) if props.get("grpc.port") == str(port):
                found.append((info.st_mtime, props.get("grpc.token") or None))
    return max(found, key=lambda pair: pair[0])[1] if found else None
