r"""A small POSIX-sh interpreter for the ADB front: quoting, `;` `&&` `||` `|`, `$(...)`, backticks, `$VAR`, redirects.

The front runs every `shell:` command line through this interpreter the way Android's `/system/bin/sh` (mksh) would,
so a client that fails to quote model-generated text gets the injected command *executed* — and recorded in
`Shell.history`. That is what the text-input safety tests look for: a quoting bug shows up as an extra command.

Only what clients send is supported; anything else is a syntax error with sh's exit status 2.

>>> sh = Shell({"echo": lambda ctx, argv, stdin: ((" ".join(argv[1:]) + "\n").encode(), b"", 0)})
>>> sh.run("echo 'a;b' && echo $(echo x)y; echo `echo z`").out
b'a;b\nxy\nz\n'
>>> [argv[0] for argv in sh.history]
['echo', 'echo', 'echo', 'echo', 'echo']
"""

from __future__ import annotations

import re
import weakref
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from android_gym.heap import track_cache
from android_gym.sim.adb.shell_arith import arithmetic
from android_gym.sim.adb.shell_parse import Part, Pipeline, ShellSyntaxError, SimpleCommand, parse

__all__ = ["Command", "Result", "Shell", "ShellSyntaxError", "parse"]


class Result(NamedTuple):
    """What a command printed and its exit status; `merged` is both streams in the order the commands of the line
    wrote them (each command's stdout, then its stderr), as a terminal shows them (empty: `out + err`)."""  # noqa: D205, D209

    out: bytes
    err: bytes
    code: int
    merged: bytes = b""


Command = Callable[["Shell", list[str], bytes], tuple[bytes, bytes, int]]
"""A program: (shell, argv, stdin bytes) -> (stdout, stderr, exit status)."""


_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.S)
_MAX_DEPTH = 16  # nested substitutions; deeper is refused like a fork bomb would be
HISTORY_LIMIT = 1_000
"""Executed argvs `Shell.history` keeps, the newest: far more than a test looks back over (a step is ~8 commands),
and bounded, so a phone serving a day of requests does not grow (a 30-minute soak executed ~470,000 commands; issue
20). It was 10,000: at ~4 Python blocks per argv, 24 phones then held ~1M blocks, and the phones used only for
evaluations took the whole 80-minute soak to fill theirs, which the soak's memory fit read as a leak."""
_LIVE: weakref.WeakSet[Shell] = weakref.WeakSet()  # for the heap log's count of cached entries
track_cache("adb shell history", lambda: sum(len(sh._history) for sh in list(_LIVE)))


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Shell:
    """Runs command lines against a table of programs, recording every executed argv in `history` (the newest).

    Args:
        programs: command name -> program; unknown names fail with mksh's message and status 127.
        env: initial variables.
        files: the file system that redirections read and write (path -> bytes); shared with the programs.
        storage_quota_bytes: most bytes `files` may hold after a redirection (None: no limit); past it the
            redirection fails as on a full disk and writes nothing.
    """

    def __init__(self, programs: dict[str, Command], env: dict[str, str] | None = None,
                 files: dict[str, bytes] | None = None, storage_quota_bytes: int | None = None) -> None:
        self.programs = programs
        self.storage_quota_bytes = storage_quota_bytes
        self.env = dict(env or {})
        self.files = files if files is not None else {}
        self._history: deque[list[str]] = deque(maxlen=HISTORY_LIMIT)
        _LIVE.add(self)
        self.status = 0
        self._depth = 0

    @property
    def history(self) -> list[list[str]]:
        """The executed argvs, oldest first (a copy; at most `HISTORY_LIMIT`, the newest)."""
        return list(self._history)

    def record(self, argv: list[str]) -> None:
        """Add `argv` to the history (as the interpreter does for every command it executes)."""
        self._history.append(argv)

    def run(self, src: str, stdin: bytes = b"") -> Result:
        """Run one command line; syntax errors print sh's message to stderr with status 2."""
        try:
            program = parse(src)
        except ShellSyntaxError as e:
            self.status = 2
            return Result(b"", f"/system/bin/sh: {e}\n".encode(), 2)
        out, err, merged = bytearray(), bytearray(), bytearray()
        for and_or in program:
            for op, pipeline in and_or:
                if (op == "&&" and self.status != 0) or (op == "||" and self.status == 0):
                    continue
                try:
                    o, e, self.status = self._pipeline(pipeline, stdin)
                except _Exit as stop:
                    self.status = stop.code
                    return Result(bytes(out), bytes(err), self.status, bytes(merged))
                out += o
                err += e
                merged += o + e
        return Result(bytes(out), bytes(err), self.status, bytes(merged))

    def _pipeline(self, pipeline: Pipeline, stdin: bytes) -> tuple[bytes, bytes, int]:
        data, err, code = stdin, bytearray(), 0
        for cmd in pipeline:
            data, e, code = self._simple(cmd, data)
            err += e
        return data, bytes(err), code

    def _simple(self, cmd: SimpleCommand, stdin: bytes) -> tuple[bytes, bytes, int]:
        argv: list[str] = []
        try:
            for word in cmd.words:
                argv.extend(self._expand(word))
        except ArithmeticError as e:  # mksh: the command does not run, status 1
            return b"", f"/system/bin/sh: {e}\n".encode(), 1
        assignments: dict[str, str] = {}
        while argv and (m := _ASSIGN.fullmatch(argv[0])):
            assignments[m.group(1)] = m.group(2)
            argv.pop(0)
        if not argv:
            self.env.update(assignments)
            return b"", b"", 0
        for _fd, op, target in cmd.redirects:
            if op == "<":
                path = "".join(self._expand(target))
                if path not in self.files:
                    return b"", f"/system/bin/sh: can't open {path}: No such file or directory\n".encode(), 1
                stdin = self.files[path]
        self.record(argv)
        if argv[0] == "exec":  # runs the command in the shell's place (the commands after it are left to the caller)
            if len(argv) == 1:
                return b"", b"", 0
            argv = argv[1:]
        if argv[0] == "export":  # `export NAME=value ...` (real adb's logcat line starts with one)
            self.env.update({m.group(1): m.group(2) for a in argv[1:] if (m := _ASSIGN.fullmatch(a))})
            return b"", b"", 0
        if argv[0] == "exit":
            # "²".isdigit() is True but int("²") raises, as does int() of 4,301+ digits (fuzz tests, issue 20)
            code = argv[1] if len(argv) > 1 else ""
            raise _Exit(int(code) if code.isascii() and code.isdigit() and len(code) <= 9 else self.status)
        program = self.programs.get(argv[0])
        if program is None:
            out, err, code = b"", f"/system/bin/sh: {argv[0]}: inaccessible or not found\n".encode(), 127
        else:
            out, err, code = program(self, argv, stdin)
        return self._redirect(cmd, out, err, code)

    def _redirect(self, cmd: SimpleCommand, out: bytes, err: bytes, code: int) -> tuple[bytes, bytes, int]:
        for fd, op, target in cmd.redirects:
            if op == "<":
                continue
            path = "".join(self._expand(target))
            if op == ">&":
                if fd == 2 and path == "1":
                    out, err = out + err, b""
                elif fd == 1 and path == "2":
                    out, err = b"", err + out
                continue
            data = out if fd == 1 else err
            if fd == 1:
                out = b""
            else:
                err = b""
            if path != "/dev/null":
                content = (self.files.get(path, b"") if op == ">>" else b"") + data
                if self.storage_quota_bytes is not None and len(content) + sum(
                        len(v) for k, v in self.files.items() if k != path) > self.storage_quota_bytes:
                    # `cat f f >> f` doubles a file per command (issue 43): the phone's disk fills, the shell says so
                    return out, err + (f"/system/bin/sh: {path}: No space left on device (the simulated phone "
                                       f"holds {self.storage_quota_bytes} bytes of files; raise SimTarget("
                                       "storage_quota_bytes=...) to allow more)\n").encode(), 1
                self.files[path] = content
        return out, err, code

    def _expand(self, word: list[Part]) -> list[str]:
        """Expand a word into fields: quoted parts stay whole, unquoted expansions split on whitespace."""
        fields: list[str] = []
        current: str | None = None
        for part in word:
            if part.kind == "lit":
                value = part.text
            elif part.kind == "var":
                value = str(self.status) if part.text == "?" else self.env.get(part.text, "")
            elif part.kind == "arith":
                value = str(arithmetic(part.text, self.env))
            else:
                value = self._substitute(part.text)
            if part.quoted or part.kind == "lit":
                current = (current or "") + value
                continue
            pieces = value.split()
            if not pieces:
                continue
            if value[:1].isspace() and current is not None:
                fields.append(current)
                current = None
            for k, piece in enumerate(pieces):
                if k == 0:
                    current = (current or "") + piece
                else:
                    fields.append(current or "")
                    current = piece
            if value[-1:].isspace():
                fields.append(current or "")
                current = None
        if current is not None:
            fields.append(current)
        return fields

    def _substitute(self, src: str) -> str:
        if self._depth >= _MAX_DEPTH:
            return ""
        self._depth += 1
        try:
            out = self.run(src).out
        finally:
            self._depth -= 1
        return out.decode("utf-8", "replace").rstrip("\n")
