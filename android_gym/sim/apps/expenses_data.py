"""The Pro Expense app's expense records: their types, categories, amounts and dates as the app writes them, and seeds.

Expenses are drawn per episode from `stable_seed("expenses", phone.seed)` (never the episode RNG) by `seeded_expenses`:
8-20 of them over the three weeks up to the sim's today (`todo.DATE`, from `calendar.TODAY`, so every app agrees on the
date), with names and amounts from `POOL`. An expense is an `Expense` (amount in cents) whose amount shows as `money`
writes it ("$1,234.50"); a task adds one as an `ExpenseSpec`. "This week" runs Monday to Sunday around today
(`WEEK_START`), and `totals` sums a period per category. The app that shows and edits the expenses is
`android_gym.sim.apps.expenses.ExpensesApp`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, refuse_blank
from android_gym.sim.apps.todo import DATE, iso

Category = Literal["Food", "Transport", "Shopping", "Bills", "Entertainment", "Health", "Other"]
CATEGORIES: tuple[Category, ...] = get_args(Category)
WEEK_START = DATE - datetime.timedelta(days=DATE.weekday())
POOL: dict[str, tuple[tuple[str, int, int], ...]] = {
    "Food": (("Groceries", 2500, 9000), ("Lunch", 900, 1800), ("Coffee", 350, 650), ("Pizza", 1400, 3200),
             ("Bakery", 400, 1500), ("Dinner out", 3000, 9000)),
    "Transport": (("Bus pass", 2000, 4000), ("Taxi", 1200, 3500), ("Fuel", 3500, 7000), ("Parking", 300, 1500),
                  ("Train ticket", 900, 4500)),
    "Shopping": (("T-shirt", 1200, 3000), ("Shoes", 4500, 12000), ("Headphones", 3000, 15000), ("Books", 900, 4000),
                 ("Phone case", 1000, 2500)),
    "Bills": (("Electricity", 4000, 12000), ("Internet", 3500, 7000), ("Water bill", 2000, 5000),
              ("Phone bill", 2500, 6000)),
    "Entertainment": (("Cinema", 1000, 3000), ("Concert", 4000, 12000), ("Streaming", 800, 1800),
                      ("Bowling", 1500, 4000), ("Museum", 1000, 2500)),
    "Health": (("Pharmacy", 600, 4000), ("Gym", 2500, 6000), ("Vitamins", 1000, 3000), ("Dentist", 6000, 15000)),
    "Other": (("Haircut", 1500, 4500), ("Laundry", 500, 2000), ("Donation", 1000, 5000), ("Post office", 300, 2500)),
}
"""Per category: seeded expense names with their amount range in cents."""


@closed
class Expense(TypedDict):
    """An expense: its id, name, amount (cents), category, date ("YYYY-MM-DD") and note ("" for none)."""

    id: int
    name: str
    amount: int
    category: Category
    date: str
    note: str


class ExpenseSpec(ConfigModel):
    """An expense a task puts on the phone.

    Attributes:
        name: its name (not blank).
        amount: in cents, at least 1.
        category: one of `CATEGORIES`.
        date: the day it was spent, "YYYY-MM-DD".
        note: its note ("" for none).
    """

    name: str
    amount: int = Field(ge=1)
    category: Category
    date: str
    note: str = ""

    @field_validator("name")
    @classmethod
    def _named(cls, name: str) -> str:
        return refuse_blank("name", name)

    @field_validator("date")
    @classmethod
    def _iso_date(cls, date: str) -> str:
        try:
            if datetime.date.fromisoformat(date).isoformat() == date:
                return date
        except ValueError:
            pass
        raise FieldError("date", 'a date written "YYYY-MM-DD"', date)


def money(cents: int) -> str:
    """An amount in cents as the app shows it.

    >>> money(1250), money(123456), money(5)
    ('$12.50', '$1,234.56', '$0.05')
    """
    return f"${cents // 100:,}.{cents % 100:02d}"


_AMOUNT = re.compile(r"^\$?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$")


def parse_amount(text: str) -> int | None:
    """What the Amount field holds, in cents; None when it is not a positive amount with at most two decimals.

    >>> parse_amount("12.5"), parse_amount("$1,200"), parse_amount("7"), parse_amount("1.234"), parse_amount("0")
    (1250, 120000, 700, None, None)
    """
    m = _AMOUNT.match(text.strip())
    if m is None or not (m.group(1) or m.group(2)):
        return None
    cents = int((m.group(1) or "0").replace(",", "")) * 100 + int((m.group(2) or "0").ljust(2, "0"))
    return cents or None


def day_label(date: str) -> str:
    """A date as the list's headers show it.

    >>> day_label("2026-06-10"), day_label("2026-06-09"), day_label("2026-06-03")
    ('Today', 'Yesterday', 'Wed, Jun 3')
    """
    d = datetime.date.fromisoformat(date)
    return {0: "Today", 1: "Yesterday"}.get((DATE - d).days) or f"{d:%a}, {d:%b} {d.day}"


def long_date(date: str) -> str:
    """A date as the details screen and the rows' descriptions read it ("Wednesday, June 3")."""
    d = datetime.date.fromisoformat(date)
    return f"{d:%A}, {d:%B} {d.day}"


def row_desc(e: Mapping[str, Any]) -> str:
    """An expense row's content-desc: "Coffee, Food, $4.50, Wednesday, June 3"."""
    return f"{e['name']}, {e['category']}, {money(e['amount'])}, {long_date(e['date'])}"


def in_period(date: str, period: str) -> bool:
    """Whether `date` falls in "week" (Monday to Sunday around today) or "month" (today's calendar month)."""
    d = datetime.date.fromisoformat(date)
    if period == "week":
        return 0 <= (d - WEEK_START).days < 7
    return (d.year, d.month) == (DATE.year, DATE.month)


def totals(expenses: Iterable[Mapping[str, Any]], period: str) -> dict[str, int]:
    """Cents spent per category in `period`, categories with spending only, largest first."""
    out: dict[str, int] = {}
    for e in expenses:
        if in_period(e["date"], period):
            out[e["category"]] = out.get(e["category"], 0) + e["amount"]
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], CATEGORIES.index(kv[0]))))


def seeded_expenses(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s expenses: 8-20 over the last 21 days (two of them this week), ids from 1 in date order."""
    rng = np.random.default_rng(stable_seed("expenses", seed))
    drawn = []
    for k in range(int(rng.integers(8, 21))):
        category = CATEGORIES[int(rng.integers(len(CATEGORIES)))]
        name, low, high = POOL[category][int(rng.integers(len(POOL[category])))]
        cents = int(rng.integers(low, high))
        cents -= cents % 5 if rng.random() < 0.6 else 0  # most prices end in 0 or 5 cents
        back = int(rng.integers(0, (DATE - WEEK_START).days + 1 if k < 2 else 21))
        drawn.append({"name": name, "amount": cents, "category": category, "date": iso(-back), "note": ""})
    drawn.sort(key=lambda e: e["date"])
    return [{"id": i + 1, **e} for i, e in enumerate(drawn)]
