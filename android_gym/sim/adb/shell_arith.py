"""`$((...))`, the arithmetic expansion of the ADB front's shell, as mksh (Android's /system/bin/sh) evaluates it.

Integers only, 32-bit signed with wrap-around as in mksh: decimal and `0x` hex literals, variables by name (`x` or
`$x`; unset or empty is 0), `( )`, unary `+ - ! ~`, `* / %`, `+ -`, `<< >>`, `< <= > >=`, `== !=`, `&`, `^`, `|`,
`&&`, `||`. A bad expression or a division by zero raises `ArithmeticError` with mksh's wording; the shell then
prints it and skips the command (status 1). No assignment operators.

>>> arithmetic("1+2*3", {}), arithmetic("(x - 1) % 4", {"x": "10"}), arithmetic("$n << 2", {"n": "3"})
(7, 1, 12)
>>> arithmetic("2147483647 + 1", {})
-2147483648
>>> arithmetic("1/0", {})
Traceback (most recent call last):
...
ArithmeticError: 1/0: division by zero
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MAX_LENGTH = 4096
"""Longest expression evaluated (a command line is bounded anyway; this bounds the recursion)."""
MAX_DEPTH = 64
"""Deepest nesting of parentheses and unary operators (each recurses once)."""
_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)|\$?([A-Za-z_]\w*)|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()!~<>&^|]))")
_BINARY = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("<<", ">>"), ("+", "-"),
           ("*", "/", "%"))
"""Binary operators by precedence, loosest first (C's order, as mksh's)."""


def arithmetic(expression: str, env: Mapping[str, str]) -> int:
    """The value of `expression` with `env`'s variables.

    Raises:
        ArithmeticError: a syntax error, a variable that is not an integer, or a division by zero (mksh's words).
    """
    text = expression.strip()
    if len(text) > MAX_LENGTH:
        raise ArithmeticError(f"{text[:40]}...: expression too long")
    return _Evaluator(text, env).run()


def _wrap(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


class _Evaluator:
    def __init__(self, text: str, env: Mapping[str, str]) -> None:
        self.text, self.env = text, env
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip():
                    raise ArithmeticError(f"{text}: unexpected '{text[pos:].strip()[0]}'")
                break
            number, name, op = m.groups()
            self.tokens.append(("num", number) if number else ("name", name) if name else ("op", op))
            pos = m.end()
        self.i, self.depth = 0, 0

    def run(self) -> int:
        if not self.tokens:
            return 0
        value = self._binary(0)
        if self.i < len(self.tokens):
            raise ArithmeticError(f"{self.text}: unexpected '{self.tokens[self.i][1]}'")
        return value

    def _peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) and self.tokens[self.i][0] == "op" else None

    def _binary(self, level: int) -> int:
        if level == len(_BINARY):
            return self._unary()
        left = self._binary(level + 1)
        while (op := self._peek()) in _BINARY[level]:
            self.i += 1
            right = self._binary(level + 1)
            left = self._apply(op, left, right)
        return left

    def _apply(self, op: str, a: int, b: int) -> int:
        if op in ("/", "%") and b == 0:
            raise ArithmeticError(f"{self.text}: division by zero")
        result = {
            "||": lambda: int(bool(a) or bool(b)), "&&": lambda: int(bool(a) and bool(b)), "|": lambda: a | b,
            "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b), "!=": lambda: int(a != b),
            "<": lambda: int(a < b), "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b),
            "<<": lambda: a << (b & 31), ">>": lambda: a >> (b & 31), "+": lambda: a + b, "-": lambda: a - b,
            "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a - int(a / b) * b,  # C truncates toward 0
        }[op]()
        return _wrap(result)

    def _unary(self) -> int:
        op = self._peek()
        if op in ("+", "-", "!", "~"):
            self.i += 1
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ArithmeticError(f"{self.text[:40]}...: expression nested too deeply")
            value = self._unary()
            self.depth -= 1
            return _wrap({"+": value, "-": -value, "!": int(not value), "~": ~value}[op])
        return self._primary()

    def _primary(self) -> int:
        if self.i >= len(self.tokens):
            raise ArithmeticError(f"{self.text}: unexpected end of expression")
        kind, text = self.tokens[self.i]
        self.i += 1
        if kind == "num":
            if len(text) > 40:  # wraps either way; bounded so that int() stays cheap
                raise ArithmeticError(f"{self.text[:40]}...: number too long")
            return _wrap(int(text, 16) if text[:2].lower() == "0x" else int(text))
        if kind == "name":
            raw = self.env.get(text, "").strip() or "0"
            if not re.fullmatch(r"[-+]?\d{1,40}", raw):
                raise ArithmeticError(f"{self.text}: {text}: bad number '{raw[:40]}'")
            return _wrap(int(raw))
        if text == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ArithmeticError(f"{self.text[:40]}...: expression nested too deeply")
            value = self._binary(0)
            self.depth -= 1
            if self._peek() != ")":
                raise ArithmeticError(f"{self.text}: missing ')'")
            self.i += 1
            return value
        raise ArithmeticError(f"{self.text}: unexpected '{text}'")
