"""The coreutils of the ADB front's shell: `echo`, `cat`, `ls`, `rm`, `touch`, `grep`, `sleep`, `reboot`, `id`, ...

Enough for what device clients pipe and redirect (`uiautomator dump ... && cat ...`, `dumpsys ... | grep ...`),
and for injection attempts to leave a trace (`touch` creates a file, every argv lands in the shell's history).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget

Out = tuple[bytes, bytes, int]
DIRECTORIES = frozenset({"/", "/sdcard", "/sdcard/", "/data", "/data/local", "/data/local/tmp", "/data/local/tmp/",
                         "/storage/emulated/0", "/dev"})
"""Directories every simulated phone has, whatever files it holds (`ls` and the sync service's STAT see them)."""


def ok(text: str = "") -> Out:
    """Success with `text` on stdout."""
    return text.encode("utf-8"), b"", 0


def err(text: str, code: int = 1) -> Out:
    """Failure `code` with `text` (newline-terminated) on stderr."""
    return b"", (text if text.endswith("\n") else text + "\n").encode("utf-8"), code


def cmd_echo(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`echo [-n] words...`."""
    newline = not (len(argv) > 1 and argv[1] == "-n")
    return ok(" ".join(argv[1 + (not newline):]) + ("\n" if newline else ""))


def cmd_cat(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`cat [files...]`."""
    if len(argv) == 1:
        return stdin, b"", 0
    out = bytearray()
    for path in argv[1:]:
        if path not in t.files:
            return bytes(out), f"cat: {path}: No such file or directory\n".encode(), 1
        out += t.files[path]
    return bytes(out), b"", 0


def cmd_rm(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`rm [-f] [-r] paths...` (-r also removes every file under a directory path)."""
    is_recursive = any(a.startswith("-") and ("r" in a or "R" in a) for a in argv[1:])
    for path in (a for a in argv[1:] if not a.startswith("-")):
        t.files.pop(path, None)
        if is_recursive:
            prefix = path.rstrip("/") + "/"
            for name in [p for p in t.files if p.startswith(prefix)]:
                del t.files[name]
    return ok()


def cmd_touch(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`touch files...` (creates empty files)."""
    for path in argv[1:]:
        t.files.setdefault(path, b"")
    return ok()


def cmd_grep(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`grep [-E] [-i] [-v] PATTERN` over stdin."""
    flags = [a for a in argv[1:] if a.startswith("-")]
    args = [a for a in argv[1:] if not a.startswith("-")]
    if not args:
        return err("usage: grep [-Eiv] PATTERN", 2)
    pattern = re.compile(args[0], re.I if "-i" in flags else 0)
    invert = "-v" in flags
    lines = [ln for ln in stdin.decode("utf-8", "replace").splitlines(keepends=True)
             if bool(pattern.search(ln)) != invert]
    return "".join(lines).encode(), b"", 0 if lines else 1


def cmd_sleep(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`sleep SECONDS` (at most 10 s; ends early when the front stops)."""
    try:
        seconds = min(10.0, float(argv[1]))
    except (IndexError, ValueError):
        return err("usage: sleep SECONDS")
    t.stop_event.wait(seconds) if seconds > 0 else None
    return ok()


def cmd_reboot(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`reboot`: the phone comes back reset (the command is recorded in the history like any other)."""
    t.phone.reset(t.phone.seed)
    return ok()


def _const(text: str, code: int = 0) -> Callable[[ProgramTarget, list[str], bytes], Out]:
    return lambda t, argv, stdin: (text.encode(), b"", code)


LS_MTIME = "2023-11-14 22:13"
"""The time `ls -l` shows for every entry (the sync service's stat says 1,700,000,000 too)."""


def cmd_ls(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ls [-1adl] [paths...]`, as toybox: a directory's entries sorted, a file's own path, `-l` long lines, `-d` the
    directory itself; a missing path is reported on stderr and the status is 1."""  # noqa: D205, D209
    flags, paths = set(), []
    for arg in argv[1:]:
        if arg.startswith("-") and len(arg) > 1:
            unknown = set(arg[1:]) - set("1adlhsR")
            if unknown:
                return err(f"ls: Unknown option '{sorted(unknown)[0]}' (see \"ls --help\")")
            flags |= set(arg[1:])
        else:
            paths.append(arg)
    out, errors, code = [], [], 0
    listed = paths or ["."]
    for n, path in enumerate(listed):
        full = "/" if path in (".", "", "./") else path if path.startswith("/") else "/" + path  # the cwd is /
        kind = _kind(t, full)
        if kind is None:
            errors.append(f"ls: {path}: No such file or directory\n")
            code = 1
            continue
        if kind == "file" or "d" in flags:
            out.append(_ls_line(t, full, path, kind, "l" in flags))
            continue
        if len(listed) > 1:
            out.append(("\n" if n else "") + f"{path}:\n")
        entries = _entries(t, full)
        if "a" in flags:
            entries = {".": "dir", "..": "dir", **entries}
        out += [_ls_line(t, f"{full.rstrip('/')}/{name}", name, entry, "l" in flags)
                for name, entry in sorted(entries.items())]
    return "".join(out).encode(), "".join(errors).encode(), code


def _kind(t: ProgramTarget, path: str) -> str | None:
    """"file", "dir" or None (missing) for an absolute path."""
    path = path.rstrip("/") or "/"
    if path in t.files:
        return "file"
    prefix = "/" if path == "/" else path + "/"
    if path in DIRECTORIES or any(p.startswith(prefix) for p in t.files) or any(
            d.startswith(prefix) for d in DIRECTORIES):
        return "dir"
    return None


def _entries(t: ProgramTarget, path: str) -> dict[str, str]:
    """The names directly in directory `path`, each "file" or "dir" (directories implied by deeper files)."""
    prefix = "/" if path.rstrip("/") in ("", "/") else path.rstrip("/") + "/"
    entries: dict[str, str] = {}
    for p in [*t.files, *DIRECTORIES]:
        if p.startswith(prefix) and len(p) > len(prefix):
            name, _, rest = p[len(prefix):].partition("/")
            if name:
                entries[name] = "dir" if rest or p not in t.files else entries.get(name, "file")
    return entries


def _ls_line(t: ProgramTarget, full: str, shown: str, kind: str, is_long: bool) -> str:
    if not is_long:
        return shown + "\n"
    if kind == "file":
        return f"-rw-rw---- 1 shell shell {len(t.files.get(full, b'')):>8} {LS_MTIME} {shown}\n"
    return f"drwxrwx--x 2 shell shell {4096:>8} {LS_MTIME} {shown}\n"


COREUTILS: dict[str, Callable[[ProgramTarget, list[str], bytes], Out]] = {
    "echo": cmd_echo, "cat": cmd_cat, "ls": cmd_ls, "rm": cmd_rm, "touch": cmd_touch, "grep": cmd_grep,
    "sleep": cmd_sleep, "reboot": cmd_reboot, "true": _const(""), "false": _const("", 1), "mkdir": _const(""),
    "log": _const(""), "whoami": _const("shell\n"),
    "id": _const("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n"),
    "date": lambda t, argv, stdin: ok(time.strftime(argv[1][1:] if argv[1:2] and argv[1].startswith("+")
                                                    else "%a %b %d %H:%M:%S %Z %Y") + "\n"),
}
"""Name -> program."""
