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


def cmd_ls(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ls [dir]`: names of the files under `dir`."""
    prefix = argv[-1].rstrip("/") + "/" if len(argv) > 1 else ""
    return ok("".join(p.rsplit("/", 1)[-1] + "\n" for p in sorted(t.files) if p.startswith(prefix)))


COREUTILS: dict[str, Callable[[ProgramTarget, list[str], bytes], Out]] = {
    "echo": cmd_echo, "cat": cmd_cat, "ls": cmd_ls, "rm": cmd_rm, "touch": cmd_touch, "grep": cmd_grep,
    "sleep": cmd_sleep, "reboot": cmd_reboot, "true": _const(""), "false": _const("", 1), "mkdir": _const(""),
    "log": _const(""), "whoami": _const("shell\n"),
    "id": _const("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n"),
    "date": lambda t, argv, stdin: ok(time.strftime(argv[1][1:] if argv[1:2] and argv[1].startswith("+")
                                                    else "%a %b %d %H:%M:%S %Z %Y") + "\n"),
}
"""Name -> program."""
