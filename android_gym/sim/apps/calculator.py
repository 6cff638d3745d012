"""The Calculator app: a display and a keypad; "=" evaluates the expression (+, −, ×, ÷ with precedence).

The expression is evaluated by `evaluate`, a small operator-precedence parser over the keypad's own tokens: no
Python `eval`, so nothing typed can run. State: {"expression", "result"} (the result of the last "=", or None).
"""

from __future__ import annotations

import re
from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import BUTTON, CONTENT_BOTTOM, CONTENT_TOP, MARGIN, TEXT_VIEW, WIDTH
from android_gym.sim.view import View

PACKAGE = "com.google.android.calculator"
KEYS = (("C", "(", ")", "÷"), ("7", "8", "9", "×"), ("4", "5", "6", "−"), ("1", "2", "3", "+"), ("0", ".", "⌫", "="))
_TOKEN = re.compile(r"\d+(?:\.\d*)?|\.\d+|[()+−×÷]")
_PRECEDENCE = {"+": 1, "−": 1, "×": 2, "÷": 2}
MAX_CHARS = 40


def evaluate(expression: str) -> str:
    """The value of a keypad expression as the display shows it ("Error" when it does not evaluate).

    >>> evaluate("2+3×4"), evaluate("(2+3)×4"), evaluate("7÷2"), evaluate("1÷0"), evaluate("2+")
    ('14', '20', '3.5', 'Error', 'Error')
    """
    tokens = _TOKEN.findall(expression)
    if "".join(tokens) != expression or not tokens:
        return "Error"
    values: list[float] = []
    ops: list[str] = []

    def reduce() -> None:
        op, b, a = ops.pop(), values.pop(), values.pop()
        if op == "÷" and b == 0:
            raise ZeroDivisionError
        values.append({"+": a + b, "−": a - b, "×": a * b, "÷": a / b if b else 0.0}[op])

    try:
        expect_value = True
        for t in tokens:
            if expect_value:
                if t == "(":
                    ops.append(t)
                    continue
                if t in _PRECEDENCE or t == ")":
                    return "Error"
                values.append(float(t))
                expect_value = False
            elif t == ")":
                while ops and ops[-1] != "(":
                    reduce()
                if not ops:
                    return "Error"
                ops.pop()
            elif t in _PRECEDENCE:
                while ops and ops[-1] != "(" and _PRECEDENCE[ops[-1]] >= _PRECEDENCE[t]:
                    reduce()
                ops.append(t)
                expect_value = True
            else:
                return "Error"
        if expect_value:
            return "Error"
        while ops:
            if ops[-1] == "(":
                return "Error"
            reduce()
    except (ZeroDivisionError, IndexError, OverflowError):
        return "Error"
    value = values[0]
    return f"{value:.10g}" if value != int(value) or abs(value) >= 1e15 else str(int(value))


class CalculatorApp(App):
    """A calculator: one screen, the expression and its result over a 5x4 keypad."""

    package = PACKAGE
    label = "Calculator"
    icon = "app"
    aliases = ("calc", "calculator app")

    def reset(self) -> None:
        """An empty display."""
        self.expression = ""
        self.result: str | None = None

    def home(self) -> Screen:
        """The keypad."""
        return Screen(PACKAGE, "home")

    def build(self, screen: Screen) -> list[View]:
        """The display (expression, then result) and the keypad."""
        top = CONTENT_TOP + 40
        views = [View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 200), text=self.expression or "0",
                      rid=f"{PACKAGE}:id/formula", package=PACKAGE, style="title"),
                 View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320), text=self.result or "",
                      rid=f"{PACKAGE}:id/result_final", package=PACKAGE)]
        pad_top = top + 400
        rows, cols = len(KEYS), len(KEYS[0])
        h, w = (CONTENT_BOTTOM - pad_top) // rows, WIDTH // cols
        for r, row in enumerate(KEYS):
            for c, key in enumerate(row):
                views.append(View(BUTTON, (c * w, pad_top + r * h, (c + 1) * w, pad_top + (r + 1) * h), text=key,
                                  desc={"⌫": "delete", "C": "clear"}.get(key, key), package=PACKAGE,
                                  clickable=True, focusable=True, on_tap=("key", key), style="button"))
        return views

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """A key: append, delete, clear or evaluate."""
        match event:
            case ("key", "C"):
                self.expression, self.result = "", None
            case ("key", "⌫"):
                self.expression = self.expression[:-1]
            case ("key", "="):
                self.result = evaluate(self.expression)
            case ("key", key) if len(self.expression) < MAX_CHARS:
                self.expression += key
            case _:
                return False
        return True

    def state(self) -> dict[str, Any]:
        """{"expression": what the display shows typed, "result": the last "=" result or None}."""
        return {"expression": self.expression, "result": self.result}
