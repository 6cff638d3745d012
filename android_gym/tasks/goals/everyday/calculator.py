"""Everyday phrasings of the calculator tasks (issue 49), mapped onto `calculator_tasks.ArithmeticAnswerTemplate`.

"What's 17 times 23?", "Use the calculator to add 128 and 256", "Calculate 15% of 80", "Divide 1000 by 7", "What is
the square root of 144?": one operation on the numbers the line names (digits or words, `when.parse_number`). Each
is an answer task: the agent answers with the value the Calculator shows ("142.8571429" for 1000 divided by 7), the
truth being the numbers' own arithmetic. `text.words` drops the "%" of "15% of 80", so "{a} of {b}" after
"calculate" or "what is" reads as a percentage: no other sum is worded that way.

    >>> NUMBER.read("twenty three"), NUMBER.read("1,000")
    (Decimal('23'), Decimal('1000'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.when import NUMBER_WORDS, parse_number
from android_gym.tasks.world.calculator_tasks import ArithmeticAnswerTemplate, arithmetic


@dataclass(frozen=True)
class Operand:
    """A non-negative number in digits or words ("17", "1,000", "twenty three"); anything else is refused."""

    def read(self, text: str) -> Decimal:
        """The number, exactly (`Decimal`)."""
        return Decimal(str(parse_number(text)))

    def vocabulary(self) -> set[str]:
        """The number words (`when.NUMBER_WORDS`)."""
        return set(NUMBER_WORDS)


NUMBER = Operand()
_READERS = {"a": NUMBER, "b": NUMBER}
_TEMPLATE = ArithmeticAnswerTemplate()
_WHAT = "(whats|what is|how much is)"
_USE = "[(use|open) [the] calculator (to|and)]"
_ON = "[(on|with|using) [the] calculator]"
_DO = "(calculate|compute|work out|figure out|find)"


def _build(op: str, swap: bool = False) -> Callable[[Slots], dict[str, Any]]:
    """The template's parameters for `op` on the slots' numbers (`swap`: the line names them the other way round)."""
    def build(slots: Slots) -> dict[str, Any]:
        a, b = slots["a"], slots.get("b")
        try:
            return arithmetic(op, *((b, a) if swap else (a, b)))
        except ValueError as e:  # a division by zero, a number too long for the display
            raise UnknownValue(str(e)) from e
    return build


RULES: tuple[Rule, ...] = (
    rule("calculator", _TEMPLATE, (
        f"{_WHAT} {{a}} (times|multiplied by|x) {{b}} {_ON}",
        f"{_USE} (multiply|times) {{a}} (by|and|with|times) {{b}} {_ON}",
        f"{_USE} {_DO} {{a}} (times|multiplied by) {{b}} {_ON}",
        f"{_USE} {_DO} the product of {{a}} and {{b}} {_ON}",
    ), _build("×"), readers=_READERS),
    rule("calculator", _TEMPLATE, (
        f"{_WHAT} {{a}} (plus|and|added to) {{b}} {_ON}",
        f"{_USE} add [up] {{a}} (and|to|plus) {{b}} {_ON}",
        f"{_USE} {_DO} {{a}} plus {{b}} {_ON}",
        f"{_USE} {_DO} the sum of {{a}} and {{b}} {_ON}",
    ), _build("+"), readers=_READERS),
    rule("calculator", _TEMPLATE, (
        f"{_WHAT} {{a}} minus {{b}} {_ON}",
        f"{_USE} {_DO} {{a}} minus {{b}} {_ON}",
        f"{_USE} {_DO} the difference between {{a}} and {{b}} {_ON}",
    ), _build("−"), readers=_READERS),
    rule("calculator", _TEMPLATE, (
        f"{_USE} (subtract|take) {{a}} (from|away from) {{b}} {_ON}",
    ), _build("−", swap=True), readers=_READERS),
    rule("calculator", _TEMPLATE, (
        f"{_WHAT} {{a}} divided by {{b}} {_ON}",
        f"{_USE} divide {{a}} by {{b}} {_ON}",
        f"{_USE} {_DO} {{a}} divided by {{b}} {_ON}",
    ), _build("÷"), readers=_READERS),
    rule("calculator", _TEMPLATE, (  # the "%" is gone from the words: "15% of 80" arrives as "15 of 80"
        f"{_WHAT} {{a}} [percent|per cent] of {{b}} {_ON}",
        f"{_USE} {_DO} {{a}} [percent|per cent] of {{b}} {_ON}",
    ), _build("%"), readers=_READERS),
    rule("calculator", _TEMPLATE, (
        f"{_WHAT} the square root of {{a}} {_ON}",
        f"{_USE} {_DO} the square root of {{a}} {_ON}",
        f"{_USE} (take|get) the square root of {{a}} {_ON}",
    ), _build("√"), readers=_READERS),
)
"""Calculator: one operation (+, −, ×, ÷, a percentage, a square root) on the numbers the line names."""
