"""AndroidWorld's Pro Expense task `ExpenseDeleteSingle` ("Delete the following expenses from pro expense:
{expense_names}.").

AndroidWorld clears the app's database, inserts one random expense (a category of its 11, a name of that category,
$10.00-$500.00 in cents, one of 7 notes, a time between October 1 and today, October 15, 2023) and checks the database
afterwards: that row gone, every other row as it was, none added. Here the expense is drawn the same way from the
sim's 7 categories and their names (`NAMES`: the app's seeded names and the World tasks' expenses), with notes of our
own, and its date rebased onto the sim's calendar: the 15 days up to today, Wednesday 2026-06-10 (May 27 to June 10).
Pro Expense's seeded expenses are cleared as AndroidWorld clears the table, so the list holds exactly the one
expense. The World template `expenses_delete_expense` plays the instance; the check is its own, note included:
exactly that expense removed as it was set up, nothing added, nothing changed.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from typing import Any

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.expenses_expert import expense, same_items
from android_gym.tasks.world.expenses_tasks import ITEMS, DeleteExpenseTemplate

NAMES: dict[str, tuple[str, ...]] = {
    category: (*(n for n, _, _ in X.POOL[category]), *(n for n, c, _ in ITEMS if c == category))
    for category in X.CATEGORIES}
"""Expense names per category: the app's seeded names, then the World tasks' expenses filed under it."""
NOTES = ("Paid in cash", "Split with Alex", "Every month", "Nice to have", "Essential", "Keep the receipt",
         "Claim it back")
"""Notes an expense is drawn with (AndroidWorld's are short remarks of the same kind, 7 of them)."""
DAYS_BACK = 14
"""The oldest expense is this many days before today (AndroidWorld's October 1 is 14 days before October 15)."""
SEEDED = tuple(n for items in X.POOL.values() for n, _, _ in items)
"""Every name Pro Expense may seed an episode with: `absent` clears them all, as AndroidWorld clears the table."""


def random_expense(rng: random.Random) -> dict[str, Any]:
    """An expense as AndroidWorld's generator draws one: date, category, a name of it, cents, note.

    >>> random_expense(random.Random(0))
    {'name': 'Phone bill', 'amount': 3653, 'category': 'Bills', 'date': '2026-05-28', 'note': 'Every month'}
    """
    days = rng.randint(0, DAYS_BACK)
    category = pick(rng, X.CATEGORIES)
    name = pick(rng, NAMES[category])
    cents = rng.randint(1000, 50000)
    return expense(name, cents, category, days, note=pick(rng, NOTES))


class ExpenseDeleteSingle(AndroidWorldTemplate):
    """Delete expense {expense_names}, the only expense in Pro Expense: exactly it removed, nothing else changed."""

    name, split_key = "ExpenseDeleteSingle", "expense_names"
    goal_template = "Delete the following expenses from pro expense: {expense_names}."
    like = DeleteExpenseTemplate()
    max_steps = 12  # the expert takes 6 steps to the one expense (`like` budgets for scrolling past seeded ones)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The expense, and its name as the goal lists it."""
        target = random_expense(rng)
        return {"expense_names": target["name"], "expense": target}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The expense's name, amount, category and days before today (what `like`'s expert finds its row by)."""
        e = params["expense"]
        days = (X.DATE - datetime.date.fromisoformat(e["date"])).days
        return {"name": e["name"], "cents": e["amount"], "category": e["category"], "days": days}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Pro Expense holds the expense and nothing else."""
        return {X.PACKAGE: {"absent": [*SEEDED, params["expense"]["name"]], "expenses": [params["expense"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the expense removed, as set up (note included); nothing added or changed."""
        e = state_of(state, X.ExpensesState)
        return same_items(e["removed"], [params["expense"]]) and not e["added"] and not e["changed"]


TEMPLATES = (ExpenseDeleteSingle(),)
