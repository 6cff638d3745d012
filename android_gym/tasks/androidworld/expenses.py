"""AndroidWorld's Pro Expense tasks: the additions `ExpenseAddSingle`, `ExpenseAddMultiple` ("Add the following
expenses into the pro expense:" and the rows, as CSV or text blocks) and `ExpenseAddMultipleFromMarkor`, and the
deletions: `ExpenseDeleteSingle`, `ExpenseDeleteMultiple` and `ExpenseDeleteMultiple2`
("Delete the following expenses from pro expense: {expense_names}."), `ExpenseDeleteDuplicates` and
`ExpenseDeleteDuplicates2` ("Delete all but one of any expenses in pro expense that are exact duplicates, ...").

AndroidWorld clears the app's database, inserts one random expense (a category of its 11, a name of that category,
$10.00-$500.00 in cents, one of 7 notes, a time between October 1 and today, October 15, 2023) and checks the database
afterwards: that row gone, every other row as it was, none added. Here the expense is drawn the same way from the
sim's 7 categories and their names (`NAMES`: the app's seeded names and the World tasks' expenses), with notes of our
own, and its date rebased onto the sim's calendar: the 15 days up to today, Wednesday 2026-06-10 (May 27 to June 10).
Pro Expense's seeded expenses are cleared as AndroidWorld clears the table, so the list holds exactly the one
expense. The World template `expenses_delete_expense` plays the instance; the check is its own, note included:
exactly that expense removed as it was set up, nothing added, nothing changed.

`ExpenseDeleteMultiple` deletes three expenses of distinct names (and `ExpenseDeleteMultiple2` the same among 50 noise
expenses, all 53 names distinct): exactly those three removed, the noise untouched. `ExpenseDeleteDuplicates` inserts
one expense twice among 5 others (all distinct); `ExpenseDeleteDuplicates2` twice among 37 others and 3 variants of it
($0.50-$9.99 dearer, each on a day of its own draw, as AndroidWorld perturbs amount and date): either copy removed
wins, nothing else removed, added or changed (a variant deleted loses). These play with an expert of their own
(`delete_step`: the row whose name, category, amount and date are the target's, its details checked before Delete).

The additions draw one or three expenses (distinct rows) and 10 noise expenses of other names that Pro Expense holds
alone at the start, and write the rows in AndroidWorld's formats: "name|amount_dollars|category_name|note" lines, or
"Expense: <name>" blocks with " amount_dollars: ...", " category_name: ...", " note: ..." lines; amounts as
AndroidWorld writes them ("$36.5": dollars as a Python float). AndroidWorld compares name, amount, category and note
of each added row (name and note fuzzily, 90% alike, case aside) and asks that no other row was added, removed or
changed; here the name and note must match case and spacing aside (nearer than fuzzy), amount and category exactly,
any date (the goal names none). `ExpenseAddMultipleFromMarkor` writes 102 such CSV rows, shuffled, into Markor's
my_expenses.txt, two of them with ". Reimbursable." after their note; the check wants those two logged, with their
notes as drawn (AndroidWorld's reference rows: the note without ". Reimbursable.", which its fuzzy match would not
pass either). AndroidWorld clears Markor's folder first; here Markor's seeded notes stay beside the file (the check
reads Pro Expense only). The experts type the note too (`add_noted`); every date is drawn on the sim's calendar.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import markor
from android_gym.sim.apps.expenses_data import row_desc
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, wait
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.expenses_expert import EXP, LABEL, add_step, expense, plain, reach, same_items, to_page
from android_gym.tasks.world.expenses_tasks import (
    ITEMS,
    AddExpenseTemplate,
    AddThreeExpensesTemplate,
    DeleteExpenseTemplate,
)
from android_gym.tasks.world.notes_expert import MARKOR, markor_item

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


def distinct_expenses(rng: random.Random, n: int, key: str = "name") -> list[dict[str, Any]]:
    """`n` expenses drawn one by one, one equal to an earlier one in `key` skipped (AndroidWorld's loops: by name
    for the multiple deletions, by the whole row, `key` "row", for the duplicates' noise).

    >>> [e["name"] for e in distinct_expenses(random.Random(0), 3)]
    ['Phone bill', 'Bowling', 'Taxi']
    """  # noqa: D205, D209
    def of(e: dict[str, Any]) -> str:
        return e["name"] if key == "name" else repr(sorted(e.items()))
    out: list[dict[str, Any]] = []
    while len(out) < n:
        candidate = random_expense(rng)
        if all(of(candidate) != of(e) for e in out):
            out.append(candidate)
    return out


def delete_step(target: dict[str, Any], elements: Elements, state: State) -> Action:
    """The next step to delete an expense that reads `target` exactly: its row in Expenses, its details (checked:
    a variant of another amount or day goes back), Delete expense, Delete."""  # noqa: D205, D209
    step = into_app(LABEL, EXP, elements, state)
    if step is not None:
        return step
    e = state_of(state, X.ExpensesState)
    if e["screen"] == "delete":
        return press(elements, text="Delete")
    if e["screen"] == "details":
        shown = next((x for x in e["expenses"] if x["id"] == e["shown"]), None)
        return press(elements, desc="Delete expense") if shown and plain(shown) == plain(target) else back()
    step = to_page("expenses", elements, state)
    if step is not None:
        return step
    row = next((r for r in elements if r.rid == X.ROW_RID and r.desc == row_desc(target)), None)
    # the list stays scrolled after a deletion: scroll towards the target's place (newest first), not always down
    order = [row_desc(x) for x in e["expenses"]]
    shown = [order.index(r.desc) for r in elements if r.rid == X.ROW_RID and r.desc in order]
    if row is None and shown and order.index(row_desc(target)) < min(shown):
        return swipe_down()
    return reach(elements, row)


class ExpenseDeleteMultiple(ExpenseDeleteSingle):
    """Delete three expenses named in the goal (distinct names), alone or among `noise` others: exactly those
    three removed as set up, nothing added, nothing changed."""  # noqa: D205, D209

    name = "ExpenseDeleteMultiple"
    targets: ClassVar[int] = 3
    noise: ClassVar[int] = 0
    """Expenses of other names beside the targets (AndroidWorld's `n_rows_noise`)."""
    max_steps = 19  # the expert takes 12 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The targets and the noise, all names distinct; the goal lists the targets' names joined by ", "."""
        rows = distinct_expenses(rng, self.targets + self.noise)
        targets = rows[: self.targets]
        return {"expense_names": ", ".join(e["name"] for e in targets), "targets": targets,
                "noise": rows[self.targets:]}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The first target's (what `like`'s look test reads)."""
        return super().world_params({"expense": params["targets"][0]})

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Pro Expense holds the targets and the noise and nothing else."""
        rows = [*params["targets"], *params["noise"]]
        return {X.PACKAGE: {"absent": [*SEEDED, *(e["name"] for e in rows)], "expenses": rows}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the targets removed, as set up; nothing added or changed."""
        e = state_of(state, X.ExpensesState)
        return same_items(e["removed"], params["targets"]) and not e["added"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Delete the first target still there, then the next."""
        there = [plain(x) for x in state_of(state, X.ExpensesState)["expenses"]]
        todo = [t for t in params["targets"] if plain(t) in there]
        return delete_step(todo[0], elements, state) if todo else wait()


class ExpenseDeleteMultiple2(ExpenseDeleteMultiple):
    """Delete three expenses named in the goal among 50 expenses of other names."""

    name = "ExpenseDeleteMultiple2"
    noise = 50
    max_steps = 40  # the expert scrolls past 53 rows: 17-35 steps


class ExpenseDeleteDuplicates(ExpenseDeleteMultiple):
    """One expense is there twice among `noise` other expenses: delete one copy; nothing else removed or changed."""

    name, split_key = "ExpenseDeleteDuplicates", "duplicate"
    goal_template = ("Delete all but one of any expenses in pro expense that are exact duplicates, ensuring at least "
                     "one instance of each unique expense remains.")
    noise = 5
    variants: ClassVar[int] = 0
    """Copies of the duplicated expense with another amount and day, among the noise."""
    max_steps = 12  # the expert takes 6 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Distinct rows, the last one duplicated (its name is the split's key), then the variants (AndroidWorld
        draws `noise` + 1 - 3 rows for ExpenseDeleteDuplicates2, adding 3 variants)."""  # noqa: D205, D209
        rows = distinct_expenses(rng, self.noise + 1 - self.variants, key="row")
        target = rows.pop()
        dearer = rng.sample(range(50, 1000), self.variants)
        variants = [{**target, "amount": target["amount"] + cents, "date": X.iso(-rng.randint(0, DAYS_BACK))}
                    for cents in dearer]
        return {"duplicate": target["name"], "targets": [target, target], "noise": [*rows, *variants]}

    def check(self, params: Params, state: State) -> bool:
        """One copy of the duplicate removed (either), as set up; nothing else removed, nothing added or changed."""
        e = state_of(state, X.ExpensesState)
        return same_items(e["removed"], params["targets"][:1]) and not e["added"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Delete one copy (the row that reads the duplicate exactly)."""
        return wait() if self.check(params, state) else delete_step(params["targets"][0], elements, state)


class ExpenseDeleteDuplicates2(ExpenseDeleteDuplicates):
    """The duplicate among 37 other expenses and 3 variants of it (dearer, other days): delete one copy only."""

    name = "ExpenseDeleteDuplicates2"
    noise, variants = 40, 3
    max_steps = 21  # the expert scrolls to the copies: 6-15 steps


def rows_text(rows: list[dict[str, Any]], form: str) -> str:
    """`rows` as AndroidWorld writes expenses for a goal or a file: "csv" (a header, then "|"-separated rows) or
    "text_block" (one block per expense, blank-line separated).

    >>> print(rows_text([expense("Coffee", 450, "Food", 0, "A need")], "csv"))
    name|amount_dollars|category_name|note
    Coffee|$4.5|Food|A need
    >>> print(rows_text([expense("Coffee", 450, "Food", 0, "A need")], "text_block"))
    Expense: Coffee
     amount_dollars: $4.5
     category_name: Food
     note: A need
    <BLANKLINE>
    """  # noqa: D205, D209
    fields = [(e["name"], f"${e['amount'] / 100}", e["category"], e["note"]) for e in rows]
    if form == "csv":
        return "\n".join(["name|amount_dollars|category_name|note", *("|".join(f) for f in fields)])
    return "\n".join(f"Expense: {n}\n amount_dollars: {a}\n category_name: {c}\n note: {t}\n" for n, a, c, t in fields)


def folded(e: dict[str, Any]) -> tuple[str, int, str, str]:
    """What an added expense is compared on: name and note (case and spacing aside), amount, category."""
    def fold(text: str) -> str:
        return " ".join(text.split()).casefold()
    return fold(e["name"]), e["amount"], e["category"], fold(e["note"])


def add_noted(want: dict[str, Any], elements: Elements, state: State) -> Action:
    """The next step to add expense `want` note and all: `add_step`, the Note field typed before Save."""
    editing = state_of(state, X.ExpensesState)["editing"]
    screen = state["screen"]
    if (state["foreground"] == EXP and editing is not None and editing["id"] is None and screen["name"] == "form"
            and not screen["args"]["discard"] and editing["note"] != want["note"]):
        step = fill(elements, state, X.NOTE_RID, want["note"])
        if step is not None:
            return step
    return add_step(want, elements, state)


class ExpenseAddMultiple(AndroidWorldTemplate):
    """Add the goal's three expenses (name, amount, category, note) to Pro Expense holding 10 others: exactly those
    added, any date; nothing removed or changed."""  # noqa: D205, D209

    name, split_key = "ExpenseAddMultiple", "expense_names"
    goal_template = "Add the following expenses into the pro expense:\n{expenses}"
    like = AddThreeExpensesTemplate()
    targets: ClassVar[int] = 3
    noise: ClassVar[int] = 10
    max_steps = 50  # the expert takes 30-32 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The targets (distinct rows), the noise (distinct rows of other names), the format (CSV or text blocks)."""
        targets = distinct_expenses(rng, self.targets, key="row")
        names = {t["name"] for t in targets}
        noise: list[dict[str, Any]] = []
        while len(noise) < self.noise:
            candidate = random_expense(rng)
            if candidate["name"] not in names and candidate not in noise:
                noise.append(candidate)
        form = pick(rng, ("csv", "text_block"))
        return {"expense_names": ", ".join(t["name"] for t in targets), "targets": targets, "noise": noise,
                "form": form, "expenses": rows_text(targets, form)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """Unused: the template starts, checks and plays the instance itself."""
        return {}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Pro Expense holds the noise and nothing else."""
        names = [e["name"] for e in [*params["targets"], *params["noise"]]]
        return {X.PACKAGE: {"absent": [*SEEDED, *names], "expenses": params["noise"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the targets added (name, amount, category, note; any date); nothing removed or changed."""
        e = state_of(state, X.ExpensesState)
        return (sorted(map(folded, e["added"])) == sorted(map(folded, params["targets"]))
                and not e["removed"] and not e["changed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add the first target not added yet, dated today (the form's default), note and all."""
        added = [folded(x) for x in state_of(state, X.ExpensesState)["added"]]
        todo = [t for t in params["targets"] if folded(t) not in added]
        return add_noted({**todo[0], "date": X.iso(0)}, elements, state) if todo else wait()


class ExpenseAddSingle(ExpenseAddMultiple):
    """Add the goal's one expense (name, amount, category, note) to Pro Expense holding 10 others."""

    name = "ExpenseAddSingle"
    like = AddExpenseTemplate()
    targets = 1
    max_steps = 20  # the expert takes 10-12 steps


class ExpenseAddMultipleFromMarkor(ExpenseAddMultiple):
    """Log the two rows of Markor's my_expenses.txt whose note ends "Reimbursable." (among 100 others) in Pro
    Expense, with their notes as drawn (without the mark): exactly those two added, nothing else changed."""  # noqa: D205, D209

    name = "ExpenseAddMultipleFromMarkor"
    goal_template = ("Go through the transactions in my_expenses.txt in Markor. Log the reimbursable transactions in "
                     "the pro expense.")
    apps = (EXP, MARKOR)
    targets, noise = 2, 100
    max_steps = 41  # the expert takes 24-26 steps
    FILE = "my_expenses.txt"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """AndroidWorld's draw, then the file's rows: the targets marked Reimbursable and the noise, shuffled."""
        params = super().draw(rng)
        marked = [{**t, "note": t["note"] + ". Reimbursable."} for t in params["targets"]]
        rows = [*marked, *params["noise"]]
        rng.shuffle(rows)
        return {**params, "file": rows_text(rows, "csv")}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Pro Expense holds the noise alone; Markor has my_expenses.txt at its root."""
        return {**super().initial(params), MARKOR: {"absent": [self.FILE], "files": {self.FILE: params["file"]}}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open my_expenses.txt in Markor (to read it), then add the two expenses."""
        if state_of(state, markor.MarkorState)["last_opened"] != self.FILE:
            return markor_item(self.FILE, elements, state)
        return super().expert(params, elements, state)


TEMPLATES = (ExpenseAddSingle(), ExpenseAddMultiple(), ExpenseAddMultipleFromMarkor(), ExpenseDeleteSingle(),
             ExpenseDeleteMultiple(), ExpenseDeleteMultiple2(), ExpenseDeleteDuplicates(), ExpenseDeleteDuplicates2())
"""AndroidWorld's Pro Expense tasks on the suite, in its registry's order."""
