"""World-suite tasks on Calculator (issue 17): arithmetic written in words, a restaurant bill split with a tip (the %
key), a result read back from the history, and the total of the amounts listed in a Markor note.

All four are "answer" tasks: the agent answers with the display's result. Truths come from the parameters' own
arithmetic (in `Decimal`, independent of the calculator's parser) or, for the history and the note, from the state
(the history as it stands, the note's text), and are never round numbers: grids keep only values whose last decimal
digit is not 0, so "$33.28" and "33.28" both match while 33.276 or 33.3 never stand for it. Each episode starts with a
history of past calculations drawn from its seed (`CalculatorInitial.seeded`). Experts type the expression key by key
(clearing a wrong display first), press "=", and answer with the result element's text.

`EVERYDAY` holds a template outside the suite for the goal parser's everyday lines (issue 49): one operation on the
numbers a line names ("What's 17 times 23?", "What is the square root of 144?").
"""  # noqa: D205, D209

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calculator as C
from android_gym.sim.apps import markor
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, tap, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate
from android_gym.tasks.world.notes_expert import markor_item

CALC, MARKOR = C.PACKAGE, markor.PACKAGE
SEEDED = 4
"""Past calculations each episode's history starts with."""
_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_AMOUNT = re.compile(r"\$(\d+\.\d\d)")


def in_words(n: int) -> str:
    """A number below 1000 in English words.

    >>> in_words(7), in_words(42), in_words(300), in_words(915)
    ('seven', 'forty-two', 'three hundred', 'nine hundred fifteen')
    """
    if n >= 100:
        rest = n % 100
        return f"{_ONES[n // 100]} hundred" + (f" {in_words(rest)}" if rest else "")
    if n >= 20:
        return _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")
    return _ONES[n]


def shown(value: Decimal) -> str:
    """A value as the calculator shows it: no trailing zeros, no exponent.

    >>> shown(Decimal("33.280")), shown(Decimal("12.00"))
    ('33.28', '12')
    """
    return f"{value.normalize():f}"


def key_step(target: str, elements: Elements, state: State) -> Action | None:
    """The next step to the Calculator's display holding `target` evaluated (None once its result shows).

    A display that is not a prefix of `target` is cleared first; each step taps the next key (unfolding the advanced
    row first for √, ², ^ and π).
    """
    step = into_app("Calculator", CALC, elements, state)
    if step is not None:
        return step
    c = state_of(state, C.CalculatorState)
    if c["page"] != "home":
        return tap(find(elements, desc="Navigate up")) if find(elements, desc="Navigate up") else wait()
    expression = c["expression"]
    if expression == target and c["result"] == C.evaluate(target):
        return None
    if expression == target:
        key = "="
    elif target.startswith(expression):
        key = target[len(expression)]
    else:
        return tap(find(elements, desc="clear")) if find(elements, desc="clear") else wait()
    button = find(elements, text=C.ADVANCED_LABELS.get(key, (key,))[0], cls=C.BUTTON)
    if button is None and key in C.ADVANCED_KEYS and not c["advanced"]:
        button = find(elements, desc="More functions")  # the advanced row is folded: unfold it first
    return tap(button) if button is not None else wait()


def compute(target: str, elements: Elements, state: State) -> Action:
    """Type `target`, press "=", answer with the result."""
    return key_step(target, elements, state) or answer_with(find(elements, rid=C.RESULT_RID))


class _CalcTemplate(WorldTemplate):
    """Shared shape: suite "world", values from `grid()` split on `split_key`, goals by params["phrasing"]."""

    suite = "world"
    outcome = "answer"
    phrasings: tuple[str, ...] = ()
    split_key = "expression"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict, both splits."""
        raise NotImplementedError

    def split_value(self, params: Params) -> object:
        """The `split_key` parameter, in the calculator's own hash space."""
        return f"calc:{params[self.split_key]}"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The episode's history of past calculations."""
        return {CALC: {"seeded": SEEDED}}


_FORMS = (("×", "+", "times", "plus"), ("×", "−", "times", "minus"), ("+", "+", "plus", "plus"),
          ("÷", "+", "divided by", "plus"), ("+", "−", "plus", "minus"))
"""(first key, second key, their words): forms whose left-to-right reading agrees with precedence."""


class WordsArithmeticTemplate(_CalcTemplate):
    """What is {words}? The expression in words (left to right agrees with precedence); answered with its value."""

    name, max_steps = "calculator_words_answer", 22
    apps = (CALC,)
    phrasings = ("What is {words}? Work it out with the Calculator", "Use Calculator to compute {words} and tell me "
                 "the result", "Calculate {words} on the calculator. What do you get?")

    def grid(self) -> list[dict[str, Any]]:
        """60 expressions, drawn from a fixed seed, in every form."""
        rng = np.random.default_rng(stable_seed("calc-words"))
        out = []
        for i in range(60):
            op1, op2, w1, w2 = _FORMS[i % len(_FORMS)]
            b = int(rng.integers(3, 40))
            a = b * int(rng.integers(2, 30)) if op1 == "÷" else int(rng.integers(11, 400))
            first = {"×": a * b, "+": a + b, "÷": a // b}[op1]
            c = int(rng.integers(2, min(300, first)))  # below the first value: a difference stays positive
            out.append({"expression": f"{a}{op1}{b}{op2}{c}", "words": f"{in_words(a)} {w1} {in_words(b)} {w2} "
                        f"{in_words(c)}", "a": a, "b": b, "c": c, "ops": f"{op1}{op2}", "phrasing": i})
        return out

    def answer(self, params: Params, state: State) -> str | None:
        """The arithmetic of the parameters."""
        a, b, c = params["a"], params["b"], params["c"]
        first = {"×": a * b, "+": a + b, "÷": a // b}[params["ops"][0]]
        return str(first + c if params["ops"][1] == "+" else first - c)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Type it, "=", answer."""
        return compute(params["expression"], elements, state)


class SplitBillTemplate(_CalcTemplate):
    """A ${bill} bill plus a {tip}% tip split {people} ways: each share, to the cent (the grid keeps exact cents)."""

    name, max_steps = "calculator_split_bill_answer", 26
    apps = (CALC,)
    phrasings = ("Dinner came to ${bill} and we want to leave a {tip}% tip. Split evenly {people} ways, how much "
                 "does each of us pay? Use the Calculator", "Use Calculator: the bill is ${bill}, add {tip}% tip and "
                 "divide by {people} people. What is each share?", "How much is each person's share of a ${bill} bill "
                 "with a {tip}% tip, split between {people}? Calculate it")

    def grid(self) -> list[dict[str, Any]]:
        """Bills, tips and party sizes whose share is an exact, non-round number of cents."""
        out = []
        for cents in range(2405, 19000, 385):
            for tip in (10, 15, 18, 20, 25):
                for people in (2, 3, 4, 5):
                    share = Decimal(cents) * (100 + tip) / 10000 / people
                    if share == share.quantize(Decimal("0.01")) and int(share * 100) % 10:
                        bill = shown(Decimal(cents) / 100)
                        out.append({"bill": f"{Decimal(cents) / 100:.2f}", "tip": tip, "people": people,
                                    "expression": f"{bill}×{100 + tip}%÷{people}", "phrasing": len(out)})
        return out

    def answer(self, params: Params, state: State) -> str | None:
        """Each share: the bill with the tip, over the people."""
        return shown(Decimal(params["bill"]) * (100 + params["tip"]) / 100 / params["people"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Type bill × (100 + tip)% ÷ people, "=", answer."""
        return compute(params["expression"], elements, state)


class HistoryAnswerTemplate(_CalcTemplate):
    """What was the result of my {nth} most recent calculation? Read off the history (drawn per episode)."""

    name, max_steps = "calculator_history_answer", 9
    apps = (CALC,)
    split_key = "key"
    ORDINALS = ("", "", "second ", "third ")
    phrasings = ("What was the result of my {nth}most recent calculation in Calculator?",
                 "Check the Calculator history: what did my {nth}latest calculation come to?",
                 "Tell me the answer of the {nth}last calculation I did on the calculator")

    def grid(self) -> list[dict[str, Any]]:
        """The last three entries of histories of 4 to 12 past calculations."""
        return [{"k": k, "seeded": n, "nth": self.ORDINALS[k], "key": f"{k}:{n}", "phrasing": k + n}
                for k in (1, 2, 3) for n in range(4, 13)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A history of `seeded` past calculations."""
        return {CALC: {"seeded": params["seeded"]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The k-th newest entry's result, while the history is as it started (None after a new "=")."""
        history = state_of(state, C.CalculatorState)["history"]
        return history[-params["k"]]["result"] if len(history) == params["seeded"] else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """History (it opens on the newest), answer with the k-th row from the bottom."""
        step = into_app("Calculator", CALC, elements, state)
        if step is not None:
            return step
        if state_of(state, C.CalculatorState)["page"] != "history":
            return tap(find(elements, desc="History")) if find(elements, desc="History") else wait()
        results = [e for e in elements if e.rid == f"{CALC}:id/history_result"]
        return answer_with(results[-params["k"]] if len(results) >= params["k"] else None)


_ITEMS = ("Groceries", "Taxi", "Lunch", "Movie tickets", "Pharmacy", "Gas", "Books", "Coffee beans", "Parking",
          "Haircut", "Dry cleaning", "Flowers")


def note_total(text: str) -> str | None:
    r"""The sum of the dollar amounts in `text`, as the calculator shows it (None when there are none).

    >>> note_total("- Taxi: $12.35\n- Lunch: $8.99"), note_total("nothing")
    ('21.34', None)
    """
    amounts = [Decimal(a) for a in _AMOUNT.findall(text)]
    return shown(sum(amounts, Decimal(0))) if amounts else None


class NoteTotalTemplate(_CalcTemplate):
    """Total the amounts listed in Markor note {name} with Calculator; an older note beside it lists others."""

    name, max_steps = "calculator_note_total_answer", 39
    apps = (MARKOR, CALC)
    split_key = "name"
    phrasings = ("Add up the amounts in my Markor note {name} with Calculator and tell me the total",
                 "What do the expenses listed in {name} (Markor) come to? Use the Calculator",
                 "Open {name} in Markor, total its amounts on the calculator and tell me the sum")
    STEMS = ("trip_costs", "march_spending", "party_budget", "weekend_expenses", "shared_costs", "moving_costs",
             "school_supplies", "camping_costs", "birthday_costs", "office_supplies", "holiday_gifts", "car_costs")

    def _lines(self, key: str) -> list[tuple[str, str]]:
        rng = np.random.default_rng(stable_seed("calc-note", key))
        items = rng.choice(len(_ITEMS), size=3, replace=False)
        return [(_ITEMS[int(i)], f"{int(rng.integers(3, 60))}.{int(rng.integers(1, 100)):02d}") for i in items]

    def grid(self) -> list[dict[str, Any]]:
        """Every stem, with three amounts drawn from it (a total with a non-zero last cent)."""
        out = []
        for i, stem in enumerate(self.STEMS):
            for v in range(4):
                lines = self._lines(f"{stem}:{v}")
                total = sum(Decimal(a) for _, a in lines)
                if int(total * 100) % 10:
                    out.append({"name": f"{stem}.md", "variant": v, "phrasing": i + v,
                                "expression": "+".join(a for _, a in lines)})
        return out

    def _text(self, params: Params, twin: bool = False) -> str:
        lines = self._lines(f"{params['name'][:-3]}:{params['variant']}{':old' if twin else ''}")
        return f"# {params['name'][:-3].replace('_', ' ').capitalize()}\n" + "".join(
            f"- {item}: ${amount}\n" for item, amount in lines)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note, its older version beside it, the episode's calculator history."""
        old = params["name"].replace(".md", "_old.md")
        return {MARKOR: {"files": {params["name"]: self._text(params), old: self._text(params, twin=True)}},
                CALC: {"seeded": SEEDED}}

    def answer(self, params: Params, state: State) -> str | None:
        """The sum of the amounts the note holds now."""
        text = state_of(state, markor.MarkorState)["files"].get(params["name"])
        return None if text is None else note_total(text)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor (to read it), then type its amounts in Calculator, "=", answer."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["name"]:
            return markor_item(params["name"], elements, state)
        return compute(params["expression"], elements, state)


# -- everyday arithmetic (issue 49): the goal parser's calculator lines, not in the World suite ---------------------
ARITHMETIC = {"+": "{a} plus {b}", "−": "{a} minus {b}", "×": "{a} times {b}", "÷": "{a} divided by {b}",
              "%": "{a}% of {b}", "√": "the square root of {a}"}
"""The operations `ArithmeticAnswerTemplate` asks for, and how its goals word them."""


def displayed(value: Decimal) -> str:
    """A value as the Calculator's display writes it: a whole number in full, else ten significant digits.

    >>> displayed(Decimal(1000) / 7), displayed(Decimal(391)), displayed(Decimal("12.50"))
    ('142.8571429', '391', '12.5')
    """
    if value == value.to_integral_value() and abs(value) < Decimal("1e15"):
        return str(int(value))
    return f"{float(value):.10g}"


def arithmetic(op: str, a: Decimal, b: Decimal | None = None, phrasing: int = 0) -> dict[str, Any]:
    """The parameters of `ArithmeticAnswerTemplate` for `a` `op` `b` (no `b` for "√"); numbers are non-negative.

    The expression typed is the keypad's: "15% of 80" is 80×15%, "the square root of 144" is √144.

    >>> arithmetic("%", Decimal(15), Decimal(80))["expression"], arithmetic("√", Decimal(144))["expression"]
    ('80×15%', '√144')

    Raises:
        ValueError: an unknown operation, a missing or extra operand, a division by zero, a negative operand, or an
            expression longer than the display takes (`calculator.MAX_CHARS`).
    """
    if op not in ARITHMETIC or (b is None) != (op == "√"):
        raise ValueError(f"`op` {op!r} takes {'one operand' if op == '√' else 'two operands'}; got a={a}, b={b}")
    if a < 0 or (b is not None and b < 0):
        raise ValueError(f"the keypad has no minus sign for a negative operand: a={a}, b={b}")
    if op == "÷" and b == 0:
        raise ValueError(f"{a} divided by zero has no value")
    x, y = shown(a), None if b is None else shown(b)
    expression = {"%": f"{y}×{x}%", "√": f"√{x}"}.get(op, f"{x}{op}{y}")
    if len(expression) > C.MAX_CHARS:
        raise ValueError(f"{expression!r} is longer than the display's {C.MAX_CHARS} characters")
    return {"op": op, "a": x, "b": y, "expression": expression, "phrasing": phrasing}


class ArithmeticAnswerTemplate(_CalcTemplate):
    """What is {a} {op} {b} (or {a}% of {b}, or the square root of {a})? Answered with the value the display shows.

    The truth is the parameters' own arithmetic in `Decimal`, written as the display writes it (`displayed`: 1000
    divided by 7 is "142.8571429"). The square root needs the advanced row ("More functions").
    """

    name, max_steps = "calculator_arithmetic_answer", 18
    apps = (CALC,)
    phrasings = ("What is {words}? Use the Calculator", "Calculate {words} on the calculator",
                 "Use the calculator to work out {words} and tell me the result")

    def grid(self) -> list[dict[str, Any]]:
        """48 operations, eight of each kind, with operands drawn from a fixed seed."""
        rng = np.random.default_rng(stable_seed("calc-arithmetic"))
        out = []
        for i in range(48):
            op = tuple(ARITHMETIC)[i % len(ARITHMETIC)]
            a, b = Decimal(int(rng.integers(2, 1000))), Decimal(int(rng.integers(2, 100)))
            if op == "√":
                a, b = Decimal(int(rng.integers(2, 40)) ** 2), None
            out.append(arithmetic(op, a, b, phrasing=i))
        return out

    def goal(self, params: Params) -> str:
        """The instruction, the operation in words."""
        words = ARITHMETIC[params["op"]].format(a=params["a"], b=params["b"])
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(words=words)

    def answer(self, params: Params, state: State) -> str | None:
        """The operation's value (`Decimal` arithmetic of the parameters), as the display writes it."""
        a = Decimal(params["a"])
        b = Decimal(params["b"]) if params["b"] is not None else Decimal(0)
        value = {"+": lambda: a + b, "−": lambda: a - b, "×": lambda: a * b, "÷": lambda: a / b,
                 "%": lambda: a * b / 100, "√": a.sqrt}[params["op"]]()
        return displayed(value)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Type the expression (unfolding the advanced row for √), "=", answer."""
        return compute(params["expression"], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (WordsArithmeticTemplate(), SplitBillTemplate(), HistoryAnswerTemplate(),
                                      NoteTotalTemplate())
EVERYDAY: tuple[TaskTemplate, ...] = (ArithmeticAnswerTemplate(),)
"""Templates the goal parser maps everyday lines onto (issue 49); not in the World suite, whose tasks stay fixed."""
