"""The parser of the ADB front's shell: a command line into and-or lists of pipelines of simple commands.

Supports what clients send and what injection attempts use: single and double quotes, backslashes, `;`, `&&`,
`||`, `|`, `&`, newlines, `#` comments, `$(...)`, backticks, `$VAR`/`${VAR}`/`$?`, `$((...))` arithmetic, and `<`,
`>`, `>>`, `N>&M` redirections. Anything else (subshells, here-documents) is a `ShellSyntaxError`, as in sh.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class ShellSyntaxError(ValueError):
    """The command line is not valid sh (unterminated quote, unexpected operator)."""


@dataclass
class Part:
    """One piece of a word: literal text, a `$VAR`, or a command substitution; `quoted` stops field splitting."""

    kind: str  # "lit" | "var" | "sub" | "arith"
    text: str
    quoted: bool


@dataclass
class SimpleCommand:
    """Words (each a list of parts) and redirections (fd, operator, target word)."""

    words: list[list[Part]] = field(default_factory=list)
    redirects: list[tuple[int, str, list[Part]]] = field(default_factory=list)


# A program is a list of and-or lists; an and-or list is [(operator before it, pipeline)], a pipeline a command list.
Pipeline = list[SimpleCommand]
AndOr = list[tuple[str, Pipeline]]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_NESTING = 100
"""Deepest `$(...)` nesting inside double quotes the parser follows (it recurses once per level); deeper is a
`ShellSyntaxError` rather than a RecursionError (issue 20). The shell runs only 16 levels anyway."""


class _Parser:
    """Recursive-descent parser over the characters of one command line."""

    def __init__(self, src: str) -> None:
        self.src, self.i = src, 0
        self.depth = 0  # `skip_to_close` calls in progress

    def parse(self, stop: str = "") -> list[AndOr]:
        program: list[AndOr] = []
        and_or: AndOr = []
        pipeline: Pipeline = []
        cmd = SimpleCommand()
        op = ""

        def end_command() -> None:
            nonlocal cmd
            if cmd.words or cmd.redirects:
                pipeline.append(cmd)
            elif pipeline:
                raise ShellSyntaxError("syntax error: missing command after '|'")
            cmd = SimpleCommand()

        def end_pipeline(next_op: str) -> None:
            nonlocal pipeline, op
            end_command()
            if pipeline:
                and_or.append((op, pipeline))
            elif next_op or op:
                raise ShellSyntaxError(f"syntax error: unexpected '{next_op or op}'")
            pipeline, op = [], next_op

        while self.i < len(self.src):
            c = self.src[self.i]
            if c in " \t":
                self.i += 1
            elif c == "#":
                while self.i < len(self.src) and self.src[self.i] != "\n":
                    self.i += 1
            elif c in ";\n" or (c == "&" and self._peek(1) != "&"):
                self.i += 1
                end_pipeline("")
                if and_or:
                    program.append(and_or)
                and_or = []
            elif c in "&|" and self._peek(1) == c:
                self.i += 2
                end_pipeline(c * 2)
            elif c == "|":
                self.i += 1
                if not (cmd.words or cmd.redirects):
                    raise ShellSyntaxError("syntax error: unexpected '|'")
                end_command()
            elif c in "()":
                raise ShellSyntaxError(f"syntax error: unexpected '{c}'")
            elif c in "<>":
                cmd.redirects.append(self._redirect(0 if c == "<" else 1))
            else:
                word = self._word()
                if self.i < len(self.src) and self.src[self.i] in "<>" and _is_fd(word):
                    cmd.redirects.append(self._redirect(int(word[0].text)))
                else:
                    cmd.words.append(word)
        end_pipeline("")
        if op:
            raise ShellSyntaxError(f"syntax error: unexpected end of line after '{op}'")
        if and_or:
            program.append(and_or)
        return program

    def _peek(self, k: int) -> str:
        j = self.i + k
        return self.src[j] if j < len(self.src) else ""

    def _redirect(self, fd: int) -> tuple[int, str, list[Part]]:
        op = self.src[self.i]
        self.i += 1
        if self._peek(0) in (">", "&") and op == ">":
            op += self.src[self.i]
            self.i += 1
        while self._peek(0) in (" ", "\t"):
            self.i += 1
        target = self._word()
        if not target:
            raise ShellSyntaxError(f"syntax error: redirection '{op}' without a target")
        return fd, op, target

    def _word(self) -> list[Part]:
        parts: list[Part] = []
        src = self.src
        while self.i < len(src) and src[self.i] not in " \t\n;&|<>()":
            c = src[self.i]
            if c == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("syntax error: unterminated quoted string")
                parts.append(Part("lit", src[self.i + 1:end], True))
                self.i = end + 1
            elif c == '"':
                self.i += 1
                parts.extend(self._double_quoted())
            elif c == "\\":
                nxt = self._peek(1)
                if nxt != "\n":  # backslash-newline is a line continuation
                    parts.append(Part("lit", nxt, True))
                self.i += 2
            elif c in "$`":
                parts.append(self._dollar(quoted=False))
            else:
                j = self.i
                while j < len(src) and src[j] not in " \t\n;&|<>()'\"\\$`":
                    j += 1
                parts.append(Part("lit", src[self.i:j], False))
                self.i = j
        return parts

    def _double_quoted(self) -> list[Part]:
        parts: list[Part] = []
        buf: list[str] = []
        src = self.src
        while True:
            if self.i >= len(src):
                raise ShellSyntaxError("syntax error: unterminated double-quoted string")
            c = src[self.i]
            if c == '"':
                self.i += 1
                break
            if c == "\\" and self._peek(1) in ('$', '`', '"', "\\", "\n"):
                if self._peek(1) != "\n":
                    buf.append(self._peek(1))
                self.i += 2
            elif c in "$`":
                if buf:
                    parts.append(Part("lit", "".join(buf), True))
                    buf = []
                parts.append(self._dollar(quoted=True))
            else:
                buf.append(c)
                self.i += 1
        parts.append(Part("lit", "".join(buf), True))  # "" is an (empty) word, not nothing
        return parts

    def _dollar(self, quoted: bool) -> Part:
        src = self.src
        if src[self.i] == "`":
            end = self.i + 1
            while end < len(src) and src[end] != "`":
                end += 2 if src[end] == "\\" else 1
            if end >= len(src):
                raise ShellSyntaxError("syntax error: unterminated backquote")
            inner = re.sub(r"\\([$`\\])", r"\1", src[self.i + 1:end])
            self.i = end + 1
            return Part("sub", inner, quoted)
        nxt = self._peek(1)
        if src.startswith("$((", self.i):
            end = src.find("))", self.i + 3)
            if end < 0:
                raise ShellSyntaxError("syntax error: unterminated '$(('")
            expression = src[self.i + 3:end]
            self.i = end + 2
            return Part("arith", expression, quoted)
        if nxt == "(":
            start = self.i + 2
            self.i = start
            self.skip_to_close()
            return Part("sub", src[start:self.i - 1], quoted)
        if nxt == "{":
            end = src.find("}", self.i)
            if end < 0:
                raise ShellSyntaxError("syntax error: bad substitution")
            name = src[self.i + 2:end]
            self.i = end + 1
            return Part("var", name, quoted)
        if nxt in ("?", "$", "#", "!", "@", "*") or nxt.isdigit():
            self.i += 2
            return Part("var", nxt, quoted)
        m = _NAME.match(src, self.i + 1)
        if m:
            self.i = m.end()
            return Part("var", m.group(), quoted)
        self.i += 1
        return Part("lit", "$", quoted)

    def skip_to_close(self) -> None:
        """Advance past the `)` closing a `$(`, skipping quoted text and nested parentheses."""
        if self.depth >= MAX_NESTING:
            raise ShellSyntaxError(f"syntax error: command substitutions nested deeper than {MAX_NESTING}")
        self.depth += 1
        try:
            self._skip_to_close()
        finally:
            self.depth -= 1

    def _skip_to_close(self) -> None:
        depth, src = 1, self.src
        while self.i < len(src):
            c = src[self.i]
            if c == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    break
                self.i = end + 1
                continue
            if c == "\\":
                self.i += 2
                continue
            if c == '"':
                self.i += 1
                self._double_quoted()
                continue
            depth += {"(": 1, ")": -1}.get(c, 0)
            self.i += 1
            if depth == 0:
                return
        raise ShellSyntaxError("syntax error: unterminated '$('")


def _is_fd(word: list[Part]) -> bool:
    # ASCII, at most 9 digits (issue 20): str.isdigit() admits "²" and other digits that int() refuses, and int() of
    # a 5,000-digit run raises ValueError; such a word stays an argument, as in sh.
    if len(word) != 1 or word[0].kind != "lit" or word[0].quoted:
        return False
    text = word[0].text
    return text.isascii() and text.isdigit() and len(text) <= 9


def parse(src: str) -> list[AndOr]:
    """Parse a command line into and-or lists of pipelines.

    Raises:
        ShellSyntaxError: the line is not valid sh, or nests `$(...)` deeper than `MAX_NESTING` inside quotes.
    """
    return _Parser(src).parse()
