"""Everyday phrasings of the expense goals (issue 49), mapped onto the World suite's Pro Expense templates.

"Add an expense of $12.50 for lunch", "Log 45 dollars for gas yesterday", "Delete the expense for the taxi", "How much
did I spend on coffee this week?". The expense's name is what the line spends on, capitalised ("Lunch"); its date the
line's (today when it names none, never a day to come). A line names no category, so an added expense may be filed
under any (the expert files it where the app's own expenses of that name go, `expenses_tasks.usual_category`). The
expense a line deletes is put on the phone by the task (this week, at a usual price for its name); a question about
this week's spending is about a category when the line names one ("food"), else about the expenses of that name.

    >>> from android_gym.tasks.goals import parse_goal
    >>> [parse_goal(f"Log 45 dollars for gas{day}").params["days"] for day in (" yesterday", "")]
    [1, 0]
"""

from __future__ import annotations

import datetime
from typing import Any

from android_gym.sim.apps import expenses as X
from android_gym.tasks.goals.everyday.notes import Dated, Words
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Names, Parsed, UnknownValue
from android_gym.tasks.goals.when import parse_money
from android_gym.tasks.world.expenses_tasks import (
    ITEMS,
    AddExpenseTemplate,
    CategoryWeekAnswerTemplate,
    DeleteExpenseTemplate,
    day_phrase,
    on_day,
    usual_category,
)

_CATEGORY = Names("expense category", {c: c for c in X.CATEGORIES}, {
    "transportation": "Transport", "travel": "Transport", "commuting": "Transport", "bill": "Bills",
    "utilities": "Bills", "fun": "Entertainment", "going out": "Entertainment", "medical": "Health",
    "healthcare": "Health", "food and drink": "Food", "eating out": "Food", "misc": "Other", "miscellaneous": "Other"})


class Spending:
    """What a question about spending is about: ("category", a Pro Expense category) or ("name", an expense name)."""

    def read(self, text: str) -> tuple[str, str]:
        """The category `text` names, else the expense name it is.

        Raises:
            UnknownValue: no words.
        """
        try:
            return "category", _CATEGORY.read(text)
        except UnknownValue:
            return "name", Words("expense name").read(text)

    def vocabulary(self) -> set[str]:
        """The categories' words."""
        return _CATEGORY.vocabulary()


def _amount(text: str) -> int:
    """An amount of money in cents (more than nothing)."""
    cents = round(parse_money(text) * 100)
    if cents <= 0:
        raise UnknownValue(f"{text!r}: an expense costs more than nothing")
    return cents


_READERS = {"money": Parsed("amount of money", _amount, ("dollars", "dollar", "bucks")),
            "what": Dated("expense", "Pro Expense"), "spending": Spending()}


def _usual_cents(name: str) -> int:
    """What an expense called `name` usually costs, in cents: the middle of the app's seeded range for it, a World
    task expense's amount, else $15.00."""  # noqa: D205, D209
    for items in X.POOL.values():
        for n, low, high in items:
            if n.casefold() == name.casefold():
                return (low + high) // 10 * 5
    return next((base for n, _, base in ITEMS if n.casefold() == name.casefold()), 1500)


def _day(date: datetime.date | None, default: int) -> int:
    """Days before today of the line's date (`default` when it names none)."""
    days = default if date is None else (X.DATE - date).days
    if days < 0:
        raise UnknownValue(f"{date:%A, %B} {date.day} is still to come: an expense is dated today or earlier")
    return days


def _expense(name: str, cents: int, days: int) -> dict[str, Any]:
    """`_ExpenseTemplate` parameters for expense `name` of `cents`, `days` ago, with no category said (None)."""
    return {"name": name, "category": None, "cents": cents, "amount": X.money(cents), "days": days,
            "day": day_phrase(days), "on": on_day(days), "phrasing": 0}


def _added(slots: Slots) -> dict[str, Any]:
    """The expense the line adds, today unless it names the day; a namesake of another day is already there."""
    name, date = slots["what"]
    return _expense(name, slots["money"], _day(date, 0))


def _deleted(slots: Slots) -> dict[str, Any]:
    """The expense the line deletes: on the day it names (a namesake on another day beside it), else alone of its
    name, two days ago."""  # noqa: D205, D209
    name, date = slots["what"]
    return {**_expense(name, _usual_cents(name), _day(date, 2)), "namesake": date is not None}


def _week(slots: Slots) -> dict[str, Any]:
    """This week's spending on a category, or on the expenses of a name."""
    kind, value = slots["spending"]
    if kind == "category":
        return {"category": value, "cents": 1200, "key": f"{value}/0", "phrasing": 0}
    return {"name": value, "category": usual_category(value), "cents": _usual_cents(value), "key": value,
            "phrasing": 0}


_VERB = "(add|log|record|enter|track|save)"

RULES: tuple[Rule, ...] = (
    rule("expenses", AddExpenseTemplate(), (
        f"{_VERB} [a|an] [new] expense of {{money}} (for|on) {{what}}",
        f"{_VERB} [a|an] {{money}} expense (for|on) {{what}}",
        f"{_VERB} {{money}} (for|on) {{what}}",
        f"{_VERB} [a|an] [new] expense (for|on) {{what}} (of|for) {{money}}",
        "i (spent|paid) {money} (for|on) {what}",
    ), _added, readers=_READERS),
    rule("expenses", DeleteExpenseTemplate(), (
        "(delete|remove) [the|my] expense (for|of|called|named) {what}",
        "(delete|remove) [the|my] {what} expense",
    ), _deleted, readers=_READERS),
    rule("expenses", CategoryWeekAnswerTemplate(), (
        "how much (did|have) i (spend|spent) (on|for) {spending} this week",
        "(what is|what's) my {spending} spending (this week|for this week|for the week)",
        "how much (did|have) i (spend|spent) this week (on|for) {spending}",
    ), _week, readers=_READERS),
)
"""The expense families: add one, delete one, and this week's spending."""
