"""World-suite tasks over Pro Expense (issue 17): add one or three expenses, delete or edit one named on a day, answer
what an expense or a category's week cost, and declare a deletion impossible. The two templates that span Gmail or
Markor are in `expenses_cross_tasks`; the expert steps and check helpers all share are in `expenses_expert`.

Every task puts its expenses on the phone under fixed names (`initial`) among the seeded ones, next to a near miss
(a namesake on another day, a receipt from another shop, spending earlier in the month than this week), so the seeded
expenses only shift positions. Checks read Pro Expense's state and its record of what was added, removed and changed
since set-up, so touching the near miss, or anything else, fails. Amounts in goals are written as the app shows them
(`expenses.money`: "$12.50"); dates as a weekday and a day ("Wednesday, June 3"), or "today" and "yesterday". Splits
hold out expense names (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry
dropped taps by acting on the unchanged screen again.

Everyday lines (issue 49, `goals.everyday.expenses`) name no category ("category" None: any will do, the expert
files the expense under `usual_category`), may name no day (no namesake: "namesake" False), and ask this week's
spending on the expenses of a name ("name", in `CategoryWeekAnswerTemplate`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import find, swipe_up, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.expenses_cross_tasks import MonthTotalToNoteTemplate, ReceiptToExpenseTemplate
from android_gym.tasks.world.expenses_expert import (
    EXP,
    LABEL,
    add_step,
    edit_step,
    expense,
    find_row,
    plain,
    same_items,
    to_details,
    to_page,
    untouched,
)
from android_gym.tasks.world.infeasible_tasks import impossible, looking_at

ITEMS = (("Movie tickets", "Entertainment", 2450), ("Farmers market", "Food", 3875), ("Car insurance", "Bills", 11200),
         ("Yoga class", "Health", 1800), ("Birthday gift", "Shopping", 4599), ("Hardware store", "Other", 2735),
         ("Ice cream", "Food", 675), ("Bike repair", "Transport", 3500), ("Takeaway", "Food", 2390),
         ("Taxi to airport", "Transport", 4820), ("Office supplies", "Shopping", 1965),
         ("Swimming pool", "Health", 950), ("Book fair", "Entertainment", 2210), ("Flowers", "Shopping", 1599),
         ("Vet visit", "Other", 8500), ("Dry cleaning", "Other", 1640), ("Printer ink", "Shopping", 3299),
         ("Car wash", "Transport", 1200), ("Water park", "Entertainment", 5600), ("Sandwich", "Food", 845),
         ("Board game", "Entertainment", 2899), ("Eye drops", "Health", 1150), ("Noodle bar", "Food", 1780),
         ("Toll road", "Transport", 650), ("Hair salon", "Other", 3800), ("Gift card", "Shopping", 5000),
         ("Bus ticket", "Transport", 275), ("Theatre", "Entertainment", 6500), ("Plumber", "Other", 12500),
         ("Tennis lessons", "Health", 4000))
"""Task expenses: name, usual category, base amount in cents."""
DAYS = (0, 1, 2, 3, 4, 6, 8, 10, 13)
"""Days before the sim's today a task's expense is dated (up to the start of the seeded three weeks)."""


def usual_category(name: str) -> str:
    """The category an expense called `name` goes in: a seeded or task expense's, else "Other".

    >>> usual_category("coffee"), usual_category("Taxi to airport"), usual_category("Gas")
    ('Food', 'Transport', 'Other')
    """
    known = {n.casefold(): c for c, items in X.POOL.items() for n, _, _ in items}
    known |= {n.casefold(): c for n, c, _ in ITEMS}
    return known.get(name.casefold(), "Other")


def day_phrase(days: int) -> str:
    """The date `days` before today as a goal says it.

    >>> day_phrase(0), day_phrase(1), day_phrase(7)
    ('today', 'yesterday', 'Wednesday, June 3')
    """
    if days < 2:
        return ("today", "yesterday")[days]
    d = datetime.date.fromisoformat(X.iso(-days))
    return f"{d:%A}, {d:%B} {d.day}"


def on_day(days: int) -> str:
    """The date `days` before today as a goal says when something happened.

    >>> on_day(0), on_day(7)
    ('today', 'on Wednesday, June 3')
    """
    return day_phrase(days) if days < 2 else f"on {day_phrase(days)}"


class _ExpenseTemplate(WorldTemplate):
    """A template on one task expense ({name}, {cents}, {category}, {days} ago) with phrasing and split by name."""

    split_key = "name"
    apps: tuple[str, ...] = (EXP,)

    def grid(self) -> list[dict[str, Any]]:
        """Every task expense on three days, the amount and the phrasing rotating."""
        out = []
        for i, (name, category, base) in enumerate(ITEMS):
            for k in range(3):
                days = nth(DAYS, i + 3 * k)
                cents = base + 135 * ((i + k) % 4)
                out.append({"name": name, "category": category, "cents": cents, "amount": X.money(cents),
                            "days": days, "day": day_phrase(days), "on": on_day(days), "phrasing": i + k})
        return out

    def target(self, params: Params) -> dict[str, Any]:
        """The task's expense as set up (a category the goal leaves out, None, is the name's usual one)."""
        category = params["category"] or usual_category(params["name"])
        return expense(params["name"], params["cents"], category, params["days"])

    def namesake(self, params: Params) -> list[dict[str, Any]]:
        """The same name on another day, for a different amount (the near miss); none for params with "namesake":
        False (an everyday line that names no day, issue 49: the one expense of the name is the one it means)."""  # noqa: D205, D209
        if not params.get("namesake", True):
            return []
        days = params["days"] + 2 if params["days"] < 10 else params["days"] - 3
        return [{**self.target(params), "amount": params["cents"] + 310, "date": X.iso(-days)}]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The expense and its namesake; no other expense of that name."""
        return {EXP: {"absent": [params["name"]], "expenses": [self.target(params), *self.namesake(params)]}}


class AddExpenseTemplate(_ExpenseTemplate):
    """Add expense {name} of {amount} in {category} on {day}; a namesake on another day is already there."""

    name, max_steps = "expenses_add_expense", 22
    phrasings = ('In Pro Expense, add an expense "{name}" of {amount} in the {category} category dated {day}',
                 'Record that I spent {amount} on "{name}" ({category}) {on} in Pro Expense',
                 'Log a {category} expense called "{name}" for {amount}, date: {day}, in my expense tracker')

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the namesake."""
        return {EXP: {"absent": [params["name"]], "expenses": self.namesake(params)}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that expense added (any note; any category when the goal names none: "category" None);
        nothing removed or changed."""  # noqa: D205, D209
        e = state_of(state, X.ExpensesState)
        anyhow = {"note": ""} if params["category"] else {"note": "", "category": ""}
        added = [{**x, **anyhow} for x in e["added"]]
        return same_items(added, [{**self.target(params), **anyhow}]) and not e["removed"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add expense, amount, name, category, date (page the picker, pick the day, OK), Save."""
        return add_step(self.target(params), elements, state)


class AddThreeExpensesTemplate(WorldTemplate):
    """Add three expenses of today: {a}, {b} and {c}, each with its amount and category."""

    name, max_steps, split_key = "expenses_add_three", 38, "a"
    apps = (EXP,)
    phrasings = ("Add these three expenses for today in Pro Expense: {list}",
                 "I bought three things today; record them in Pro Expense: {list}",
                 "In my expense app, log today's purchases: {list}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task expense with two others of its split (so no test name is ever seen in train), amounts rotating."""
        out = []
        for split in ("train", "test"):
            pool = [item for item in ITEMS if split_of(item[0]) == split]
            for i in range(len(pool)):
                picked = [pool[(i + j) % len(pool)] for j in (0, 2, 5)]
                trio = [(n, c, base + 55 * k) for k, (n, c, base) in enumerate(picked)]
                said = "; ".join(f'"{n}", {X.money(cents)}, {c}' for n, c, cents in trio)
                out.append({"a": trio[0][0], "b": trio[1][0], "c": trio[2][0], "items": trio, "list": said,
                            "phrasing": i})
        return out

    def wanted(self, params: Params) -> list[dict[str, Any]]:
        """The three expenses, dated today."""
        return [expense(n, cents, c, 0) for n, c, cents in params["items"]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """None of the three names there yet."""
        return {EXP: {"absent": [params["a"], params["b"], params["c"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the three added (any notes); nothing removed or changed."""
        e = state_of(state, X.ExpensesState)
        added = [{**x, "note": ""} for x in e["added"]]
        return same_items(added, self.wanted(params)) and not e["removed"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add the first one not added yet (Add expense, fill the form, Save), three times."""
        added = {plain(x)["name"] for x in state_of(state, X.ExpensesState)["added"]}
        todo = [w for w in self.wanted(params) if plain(w)["name"] not in added]
        return add_step(todo[0], elements, state) if todo else wait()


class DeleteExpenseTemplate(_ExpenseTemplate):
    """Delete the expense {name} of {day}; its namesake of another day stays."""

    name, max_steps = "expenses_delete_expense", 14
    phrasings = ('Delete the "{name}" expense from {day} in Pro Expense',
                 "In Pro Expense, remove the {name} expense dated {day}",
                 "Get rid of the expense {name} I logged for {day} in my expense app")

    def check(self, params: Params, state: State) -> bool:
        """Only that expense removed; nothing added or changed."""
        e = state_of(state, X.ExpensesState)
        return same_items(e["removed"], [self.target(params)]) and not e["added"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Expenses, its row, Delete expense, Delete."""
        step = into_app(LABEL, EXP, elements, state)
        if step is None and state["screen"]["name"] == "delete":
            return press(elements, text="Delete")
        date = self.target(params)["date"]
        return step or to_details(params["name"], date, elements, state) or press(elements, desc="Delete expense")


class _EditTemplate(_ExpenseTemplate):
    """Change one field of expense {name} of {day} (`edited`); the namesake stays as it was."""

    def edited(self, params: Params) -> dict[str, Any]:
        """The expense once the goal is met."""
        raise NotImplementedError

    def check(self, params: Params, state: State) -> bool:
        """Only that expense changed, to `edited` (any note); nothing added or removed."""
        e = state_of(state, X.ExpensesState)
        changed = [{**x, "note": ""} for x in e["changed"]]
        return same_items(changed, [self.edited(params)]) and not e["added"] and not e["removed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Expenses, its row, Edit expense, change the field, Save."""
        return edit_step(params["name"], self.target(params)["date"], self.edited(params), elements, state)


class ChangeCategoryTemplate(_EditTemplate):
    """Move expense {name} of {day} to category {to}."""

    name, max_steps = "expenses_change_category", 17
    phrasings = ('In Pro Expense, change the category of "{name}" from {day} to {to}',
                 "The {name} expense from {day} belongs in {to}: fix it in Pro Expense",
                 'Recategorise my "{name}" expense dated {day} as {to}')

    def grid(self) -> list[dict[str, Any]]:
        """Every task expense on three days, with another category."""
        return [{**p, "to": nth([c for c in X.CATEGORIES if c != p["category"]], p["phrasing"])}
                for p in super().grid()]

    def edited(self, params: Params) -> dict[str, Any]:
        """In the new category."""
        return {**self.target(params), "category": params["to"]}


class ChangeAmountTemplate(_EditTemplate):
    """Change the amount of expense {name} of {day} to {new}."""

    name, max_steps = "expenses_change_amount", 25
    phrasings = ('In Pro Expense, change the amount of "{name}" from {day} to {new}',
                 "I paid {new} for {name} {on}, not what Pro Expense says: correct it",
                 'Update my "{name}" expense from {day} to {new}')

    def grid(self) -> list[dict[str, Any]]:
        """Every task expense on three days, with a new amount."""
        return [{**p, "new_cents": p["cents"] + 1000 + 25 * (p["phrasing"] % 5),
                 "new": X.money(p["cents"] + 1000 + 25 * (p["phrasing"] % 5))} for p in super().grid()]

    def edited(self, params: Params) -> dict[str, Any]:
        """The new amount."""
        return {**self.target(params), "amount": params["new_cents"]}


class ExpenseAmountAnswerTemplate(_ExpenseTemplate):
    """How much did I spend on {name} on {day}? Answered with the amount on its details; a namesake cost more."""

    name, max_steps = "expenses_amount_answer", 12
    outcome = "answer"
    phrasings = ('How much did I spend on "{name}" {on}, according to Pro Expense?',
                 "What did {name} cost me {on}? Check Pro Expense",
                 "Look up the amount of my {name} expense from {day} in Pro Expense")

    def answer(self, params: Params, state: State) -> str | None:
        """The amount of the one expense of that name and date, while nothing was added, removed or changed."""
        found = [x for x in state_of(state, X.ExpensesState)["expenses"]
                 if x["name"] == params["name"] and x["date"] == self.target(params)["date"]]
        return X.money(found[0]["amount"]) if len(found) == 1 and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Expenses, its row, answer with the amount on the details."""
        step = to_details(params["name"], self.target(params)["date"], elements, state)
        return step or answer_with(find(elements, rid=X.AMOUNT_RID_DETAIL))


class CategoryWeekAnswerTemplate(WorldTemplate):
    """How much did I spend on {category} this week? Answered with the category's total on Statistics."""

    name, max_steps, split_key = "expenses_category_week_answer", 11, "key"
    outcome, apps = "answer", (EXP,)
    phrasings = ("How much did I spend on {category} this week? Use Pro Expense",
                 "What is my {category} spending for this week in Pro Expense?",
                 "Tell me this week's total for {category} from my expense app")

    def grid(self) -> list[dict[str, Any]]:
        """Every category with eight amounts."""
        return [{"category": c, "cents": 1200 + 317 * v + 41 * i, "key": f"{c}/{v}", "phrasing": i + v}
                for i, c in enumerate(X.CATEGORIES) for v in range(8)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A category expense this week, and a bigger one earlier this month (in the month's total only).

        Params with a "name" (an everyday line's question about one kind of expense, issue 49: "coffee"): two
        expenses so named this week, a bigger one last week, and no other so named.
        """
        if params.get("name"):
            name, cents, category = params["name"], params["cents"], params["category"]
            return {EXP: {"absent": [name], "expenses": [expense(name, cents, category, 0),
                                                         expense(name, cents + 125, category, 1),
                                                         expense(name, cents + 2000, category, 5)]}}
        name = nth([n for n, c, _ in ITEMS if c == params["category"]] or ["Misc"], params["phrasing"])
        return {EXP: {"expenses": [expense(name, params["cents"], params["category"], 1),
                                   expense(name, params["cents"] + 2000, params["category"], 5)]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The category's spending this week (with a "name": the spending on expenses so named, case aside), while
        nothing was added, removed or changed."""  # noqa: D205, D209
        expenses = state_of(state, X.ExpensesState)["expenses"]
        if params.get("name"):
            mine = [e for e in expenses if plain(e)["name"] == params["name"].casefold()]
            return X.money(sum(X.totals(mine, "week").values())) if mine and untouched(state) else None
        sums = X.totals(expenses, "week")
        return X.money(sums[params["category"]]) if params["category"] in sums and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Drawer, Statistics, This week, answer with the amount on the category's row.

        With a "name": the list of expenses, and the sum of this week's rows of that name (the amounts as the rows
        show them, read from the state: the rows may not all fit on one screen).
        """
        if params.get("name"):
            return to_page("expenses", elements, state) or Action(ActionType.STATUS_TASK_COMPLETE,
                                                                  text=self.answer(params, state) or "")
        step = to_page("stats", elements, state)
        if step is not None:
            return step
        if state_of(state, X.ExpensesState)["period"] != "week":
            return press(elements, text="This week")
        label = find(elements, rid=X.STAT_NAME_RID, text=params["category"])
        if label is None:
            return swipe_up()
        return answer_with(next((e for e in elements if e.rid == X.STAT_AMOUNT_RID
                                 and label.bounds[1] <= e.center[1] < label.bounds[3] + 60), None))


class DeleteMissingExpenseTemplate(_ExpenseTemplate):
    """Delete the expense {name} of {day}, which is not there: its namesake of another day is (delete neither)."""

    name, max_steps = "expenses_delete_missing", 14
    outcome = "infeasible"
    phrasings = DeleteExpenseTemplate.phrasings

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the namesake."""
        return {EXP: {"absent": [params["name"]], "expenses": self.namesake(params)}}

    def check(self, params: Params, state: State) -> bool:
        """No expense of that name on that day, and nothing added, removed or changed."""
        date = self.target(params)["date"]
        return untouched(state) and not any(x["name"] == params["name"] and x["date"] == date
                                            for x in state_of(state, X.ExpensesState)["expenses"])

    def looked(self, params: Params, state: State) -> bool:
        """The list of all expenses in front."""
        return looking_at(state, X.ExpensesState, "expenses") is not None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Expenses, scroll to the end of the list; without the row, declare the task impossible."""
        step = to_page("expenses", elements, state)
        if step is not None:
            return step
        if find_row(elements, params["name"], self.target(params)["date"]) is not None:
            return wait()  # the expense is there after all: the task is not infeasible, so do nothing
        return impossible() if find(elements, rid=X.FOOTER_RID) is not None else swipe_up()


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddExpenseTemplate(), AddThreeExpensesTemplate(), DeleteExpenseTemplate(), ChangeCategoryTemplate(),
    ChangeAmountTemplate(), ExpenseAmountAnswerTemplate(), CategoryWeekAnswerTemplate(),
    DeleteMissingExpenseTemplate(), ReceiptToExpenseTemplate(), MonthTotalToNoteTemplate(),
)
"""The Pro Expense templates of the world suite."""
