"""The Calculator app: a display and a keypad; "=" evaluates the expression (+, −, ×, ÷ with precedence, and %).

The expression is evaluated by `evaluate`, a small operator-precedence parser over the keypad's own tokens: no
Python `eval`, so nothing typed can run. "%" divides the number (or bracket) before it by 100, as Android's
calculator does ("50+10%" is 50.1, "200×15%" is 30). Every "=" that gives a value is kept in the history. "More
functions" shows a row of advanced keys above the keypad (square root, square, power, pi: `ADVANCED_KEYS`), as the
real app's advanced panel does; "Hide functions" folds it away.

Screens: "home" (the display, a delete key, the More functions toggle and a History button over the keypad) and
"history" (past calculations, oldest first; tapping one puts its result into the expression, "Clear" empties the
history). A fresh install has no history and the advanced row folded; a task's initial conditions may seed a history
(`CalculatorInitial`: `history`, or `seeded` entries drawn from `stable_seed("calculator", phone.seed)`). Tasks read
the state as a `CalculatorState`.
"""

from __future__ import annotations

import math
import re
from typing import Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_state import closed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.calculator"
KEYS = (("C", "(", ")", "÷"), ("7", "8", "9", "×"), ("4", "5", "6", "−"), ("1", "2", "3", "+"), ("%", "0", ".", "="))
RESULT_RID = f"{PACKAGE}:id/result_final"
FORMULA_RID = f"{PACKAGE}:id/formula"
HISTORY_RID = f"{PACKAGE}:id/history_row"
HISTORY_ROW_H = 220
ADVANCED_KEYS = ("√", "²", "^", "π")
"""The row "More functions" shows above the keypad: square root, square, power, pi."""
ADVANCED_LABELS = {"√": ("√", "square root"), "²": ("x²", "square"), "^": ("xʸ", "power"), "π": ("π", "pi")}
"""Each advanced key's (text, content-desc); a tap appends the key itself to the expression."""
_TOKEN = re.compile(r"\d+(?:\.\d*)?|\.\d+|[()+−×÷%√²^π]")
_PRECEDENCE = {"+": 1, "−": 1, "×": 2, "÷": 2, "^": 3}
MAX_CHARS = 40


def _reduce(values: list[float], ops: list[str]) -> None:
    """Apply the binary operator on top of `ops` to the two values on top of `values`."""
    op, b, a = ops.pop(), values.pop(), values.pop()
    match op:
        case "+":
            value = a + b
        case "−":
            value = a - b
        case "×":
            value = a * b
        case "÷":
            if b == 0:
                raise ZeroDivisionError
            value = a / b
        case _:  # "^"
            value = a ** b
    if isinstance(value, complex):  # a negative number to a fractional power
        raise ValueError(op)
    values.append(value)


def _roots(values: list[float], ops: list[str]) -> None:
    """A value just completed takes the square roots written before it ("√√16" is 2)."""
    while ops and ops[-1] == "√":
        ops.pop()
        values[-1] = math.sqrt(values[-1])


def evaluate(expression: str) -> str:
    """The value of a keypad expression as the display shows it ("Error" when it does not evaluate).

    >>> evaluate("2+3×4"), evaluate("(2+3)×4"), evaluate("7÷2"), evaluate("1÷0"), evaluate("2+")
    ('14', '20', '3.5', 'Error', 'Error')
    >>> evaluate("50+10%"), evaluate("200×15%"), evaluate("(1+1)%"), evaluate("%5")
    ('50.1', '30', '0.02', 'Error')

    The advanced keys: "√" takes the root of the number or bracket after it, "²" squares the one before it, "^"
    raises to a power (before × and ÷, right to left), "π" is a number.

    >>> evaluate("√144"), evaluate("√(9+16)"), evaluate("3²+4²"), evaluate("2^3^2"), evaluate("2×π")
    ('12', '5', '25', '512', '6.283185307')
    >>> evaluate("√2"), evaluate("√(1−5)"), evaluate("2√4"), evaluate("10^400")
    ('1.414213562', 'Error', 'Error', 'Error')
    """
    tokens = _TOKEN.findall(expression)
    if "".join(tokens) != expression or not tokens:
        return "Error"
    values: list[float] = []
    ops: list[str] = []
    try:
        expect_value = True
        for t in tokens:
            if expect_value:
                if t in ("(", "√"):
                    ops.append(t)
                    continue
                if t in _PRECEDENCE or t in (")", "%", "²"):
                    return "Error"
                values.append(math.pi if t == "π" else float(t))
                _roots(values, ops)
                expect_value = False
            elif t == "%":
                values[-1] /= 100
            elif t == "²":
                values[-1] **= 2
            elif t == ")":
                while ops and ops[-1] != "(":
                    _reduce(values, ops)
                if not ops:
                    return "Error"
                ops.pop()
                _roots(values, ops)
            elif t in _PRECEDENCE:
                while ops and ops[-1] not in ("(", "√") and _binds_first(ops[-1], t):
                    _reduce(values, ops)
                ops.append(t)
                expect_value = True
            else:
                return "Error"
        if expect_value:
            return "Error"
        while ops:
            if ops[-1] == "(":
                return "Error"
            _reduce(values, ops)
    except (ZeroDivisionError, IndexError, OverflowError, ValueError):
        return "Error"
    value = values[0]
    if not math.isfinite(value):
        return "Error"
    return f"{value:.10g}" if value != int(value) or abs(value) >= 1e15 else str(int(value))


def _binds_first(left: str, right: str) -> bool:
    """Whether operator `left`, already read, applies before `right` ("^" groups right to left)."""
    return _PRECEDENCE[left] > _PRECEDENCE[right] or (_PRECEDENCE[left] == _PRECEDENCE[right] and right != "^")


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class Calculation(TypedDict):
    """A past calculation: the expression "=" evaluated and its result as the display showed it."""

    expression: str
    result: str


@closed
class CalculatorState(TypedDict):
    """What the Calculator reports (`CalculatorApp.state`).

    Attributes:
        expression: what the display shows typed ("" when nothing is).
        result: the last "=" result ("Error" when it did not evaluate), None before any "=" and after "C" or the
            reuse of a past result.
        history: past calculations, oldest first.
        page: the front Calculator screen's name, None when the Calculator has no screen on the stack.
        advanced: whether the row of advanced keys is shown.
    """

    expression: str
    result: str | None
    history: list[Calculation]
    page: Literal["home", "history"] | None
    advanced: bool


class CalculatorInitial(ConfigModel):
    """The initial conditions a Calculator task may set.

    Attributes:
        seeded: past calculations drawn from the episode seed, oldest first.
        history: expressions (each must evaluate) put with their results among the seeded ones, at positions drawn
            from the episode seed, in this order.
    """

    seeded: int = Field(default=0, ge=0)
    history: tuple[str, ...] = ()

    @field_validator("history")
    @classmethod
    def _evaluates(cls, history: tuple[str, ...]) -> tuple[str, ...]:
        bad = [e for e in history if evaluate(e) == "Error"]
        if bad:
            raise FieldError("history", "expressions that evaluate", bad)
        return history


class CalculatorApp(App):
    """A calculator: the expression and its result over a 5x4 keypad, and the history of past calculations."""

    package = PACKAGE
    label = "Calculator"
    icon = "calculator"
    aliases = ("calc", "calculator app")
    state_schema = CalculatorState
    initial_model = CalculatorInitial

    def reset(self) -> None:
        """An empty display, no history, the advanced row folded."""
        self.expression = ""
        self.result: str | None = None
        self.history: list[dict[str, str]] = []
        self.advanced = False

    def set_up(self, initial: CalculatorInitial) -> None:
        """`initial.seeded` calculations drawn per episode, then the given ones evaluated among them."""
        rng = np.random.default_rng(stable_seed("calculator", self.phone.seed))
        for _ in range(initial.seeded):
            a, b, op = int(rng.integers(2, 500)), int(rng.integers(2, 100)), "+−×"[int(rng.integers(3))]
            self.history.append({"expression": f"{a}{op}{b}", "result": evaluate(f"{a}{op}{b}")})
        low = 0
        for expression in initial.history:
            low = int(rng.integers(low, len(self.history) + 1))
            self.history.insert(low, {"expression": expression, "result": evaluate(expression)})
            low += 1

    def home(self) -> Screen:
        """The keypad."""
        return Screen(PACKAGE, "home")

    def build(self, screen: Screen) -> list[View]:
        """The keypad screen or the history."""
        return self._history() if screen.name == "history" else self._keypad()

    def _keypad(self) -> list[View]:
        top = CONTENT_TOP + 40
        toggle = ("Hide functions", "close") if self.advanced else ("More functions", "more")
        views = [View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 200), text=self.expression or "0",
                      rid=FORMULA_RID, package=PACKAGE, style="title"),
                 View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320), text=self.result or "",
                      rid=RESULT_RID, package=PACKAGE),
                 View(IMAGE_BUTTON, (MARGIN, top + 330, MARGIN + 150, top + 460), desc="History", package=PACKAGE,
                      rid=f"{PACKAGE}:id/history", clickable=True, focusable=True, on_tap=("history",), icon="history"),
                 View(IMAGE_BUTTON, (WIDTH // 2 - 75, top + 330, WIDTH // 2 + 75, top + 460), desc=toggle[0],
                      rid=f"{PACKAGE}:id/collapse_expand", package=PACKAGE, clickable=True, focusable=True,
                      on_tap=("advanced",), icon=toggle[1]),
                 View(IMAGE_BUTTON, (WIDTH - MARGIN - 150, top + 330, WIDTH - MARGIN, top + 460), desc="delete",
                      rid=f"{PACKAGE}:id/del", package=PACKAGE, clickable=True, focusable=True, on_tap=("key", "⌫"),
                      icon="backspace")]
        pad_top = top + 480
        keys = (ADVANCED_KEYS, *KEYS) if self.advanced else KEYS
        rows, cols = len(keys), len(KEYS[0])
        h, w = (CONTENT_BOTTOM - pad_top) // rows, WIDTH // cols
        for r, row in enumerate(keys):
            for c, key in enumerate(row):
                text, desc = ADVANCED_LABELS.get(key, (key, {"C": "clear", "%": "percent"}.get(key, key)))
                views.append(View(BUTTON, (c * w, pad_top + r * h, (c + 1) * w, pad_top + (r + 1) * h), text=text,
                                  desc=desc, package=PACKAGE, clickable=True, focusable=True, on_tap=("key", key),
                                  style="button"))
        return views

    def _history(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for i, h in enumerate(self.history):
            y = top + i * HISTORY_ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + HISTORY_ROW_H), desc=f"{h['expression']} = {h['result']}",
                             rid=HISTORY_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("reuse", i),
                             style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 110), text=h["expression"],
                                      rid=f"{PACKAGE}:id/history_formula", package=PACKAGE, style="secondary"),
                                 View(TEXT_VIEW, (MARGIN, y + 110, WIDTH - MARGIN, y + 210), text=h["result"],
                                      rid=f"{PACKAGE}:id/history_result", package=PACKAGE, style="title")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 160), text="No history yet",
                         package=PACKAGE, style="hint")]
        bar = toolbar("History", PACKAGE, PACKAGE)
        bar.children.append(View(BUTTON, (WIDTH - 260, CONTENT_TOP + 24, WIDTH - MARGIN, CONTENT_TOP + TOOLBAR_H - 24),
                                 text="Clear", desc="Clear history", package=PACKAGE, clickable=True, focusable=True,
                                 enabled=bool(self.history), on_tap=("clear_history",), style="text_button"))
        return [bar, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/history_list")]

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """A key (append, delete, clear, evaluate), the advanced row, the history, reusing a past result, clearing the
        history."""  # noqa: D205, D209
        match event:
            case ("key", "C"):
                self.expression, self.result = "", None
            case ("key", "⌫"):
                self.expression = self.expression[:-1]
            case ("key", "="):
                self.result = evaluate(self.expression)
                if self.result != "Error":
                    self.history.append({"expression": self.expression, "result": self.result})
            case ("key", key) if len(self.expression) < MAX_CHARS:
                self.expression += key
            case ("advanced",):
                self.advanced = not self.advanced
            case ("history",):
                return self.phone.push(Screen(PACKAGE, "history", scroll=10**6))  # opens on the newest entries
            case ("reuse", index):
                value = self.history[index]["result"]
                ends_in_value = bool(self.expression) and self.expression[-1] not in "+−×÷(^√"
                self.expression = (value if ends_in_value else self.expression + value)[:MAX_CHARS]
                self.result = None
                return self.phone.pop()
            case ("clear_history",):
                self.history = []
            case _:
                return False
        return True

    def state(self) -> CalculatorState:
        """What the display shows, the history, the page and the advanced row (see `CalculatorState`)."""
        mine = self.phone.screens(PACKAGE)
        return {"expression": self.expression, "result": self.result, "history": [dict(h) for h in self.history],
                "page": mine[-1].name if mine else None, "advanced": self.advanced}
