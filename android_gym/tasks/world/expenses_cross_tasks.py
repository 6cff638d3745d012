"""Pro Expense templates of the world suite that span two apps (issue 17): log a Gmail receipt as an expense
(`ReceiptToExpenseTemplate`) and write the month's spending into a Markor note (`MonthTotalToNoteTemplate`). They
follow the other Pro Expense templates in the suite (`expenses_tasks.TEMPLATES`) and keep their conventions.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import markor
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.expenses_expert import EXP, add_step, expense, same_items, to_page, untouched
from android_gym.tasks.world.messaging_expert import find_mail, to_email
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_write, only_touched

STORES = (("Corner Bakery", "Food"), ("City Cabs", "Transport"), ("Bookworm", "Shopping"), ("PowerCo", "Bills"),
          ("Cineplex", "Entertainment"), ("Green Pharmacy", "Health"), ("Quick Print", "Other"),
          ("Fresh Market", "Food"), ("Metro Rail", "Transport"), ("Style Hub", "Shopping"))
"""Shops whose receipts Gmail holds, with the category their purchase belongs in."""
NOTES = ("spending_june.md", "budget_check.md", "monthly_total.md", "expenses_summary.md", "money_notes.md",
         "june_budget.md", "spent_so_far.md", "finance_log.md", "budget_2026.md", "month_report.md")


class ReceiptToExpenseTemplate(WorldTemplate):
    """Log the purchase of the Gmail receipt from {store} as a {category} expense named {store}, dated today."""

    name, max_steps, split_key = "expenses_log_receipt", 22, "store"
    apps = (G.PACKAGE, EXP)
    phrasings = ('Log my {store} receipt from Gmail as a {category} expense named "{store}" in Pro Expense',
                 "Check the {store} receipt email and record its total in Pro Expense as {category}, "
                 'named "{store}", dated today',
                 'Add the amount I was charged by {store} (see the receipt in Gmail) to Pro Expense: name "{store}", '
                 "category {category}")

    def grid(self) -> list[dict[str, Any]]:
        """Every shop with six totals."""
        return [{"store": s, "category": c, "cents": 1275 + 389 * v + 97 * i, "other": nth(STORES, i + 1 + v)[0],
                 "phrasing": i + v} for i, (s, c) in enumerate(STORES) for v in range(6)]

    def receipt(self, store: str, cents: int) -> dict[str, Any]:
        """The receipt email from `store` charging `cents`."""
        domain = store.lower().replace(" ", "")
        return {"sender": store, "email": f"receipts@{domain}.com", "subject": f"Your {store} receipt",
                "body": f"Thank you for shopping at {store}. Total charged: {X.money(cents)}. Paid with Visa ending "
                        "4242.", "unread": True}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The receipt, and one from another shop for a different total; no expense of the shop's name."""
        return {G.PACKAGE: {"emails": [self.receipt(params["store"], params["cents"]),
                                       self.receipt(params["other"], params["cents"] + 830)]},
                EXP: {"absent": [params["store"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that expense added, dated today (any note); nothing removed or changed."""
        e = state_of(state, X.ExpensesState)
        added = [{**x, "note": ""} for x in e["added"]]
        want = expense(params["store"], params["cents"], params["category"], 0)
        return same_items(added, [want]) and not e["removed"] and not e["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the receipt in Gmail to read the total, then add the expense in Pro Expense."""
        mail = find_mail(state, params["store"], f"Your {params['store']} receipt")
        if mail is not None and mail["unread"]:
            return to_email(params["store"], mail["subject"], elements, state) or wait()
        return add_step(expense(params["store"], params["cents"], params["category"], 0), elements, state)


class MonthTotalToNoteTemplate(WorldTemplate):
    """Write this month's total spending, as Pro Expense's Statistics show it, into a new Markor note {note}."""

    name, max_steps, split_key = "expenses_month_total_to_note", 22, "note"
    apps = (EXP, MARKOR)
    phrasings = ('Write how much I have spent this month, according to Pro Expense, in a new Markor note named '
                 '"{note}"',
                 "Check my total spending for this month in Pro Expense and save it in a Markor note called {note}",
                 "Create a note {note} in Markor holding this month's expense total from Pro Expense")

    def grid(self) -> list[dict[str, Any]]:
        """Every note name with four extra expenses earlier this month."""
        return [{"note": n, "cents": 2150 + 433 * v + 59 * i, "phrasing": i + v}
                for i, n in enumerate(NOTES) for v in range(4)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """An expense earlier this month but before this week (so the week's total is not the month's)."""
        return {EXP: {"expenses": [expense("Groceries", params["cents"], "Food", 6)]},
                MARKOR: {"absent": [params["note"]]}}

    def total(self, state: State) -> str:
        """This month's total as the app shows it."""
        return X.money(sum(X.totals(state_of(state, X.ExpensesState)["expenses"], "month").values()))

    def check(self, params: Params, state: State) -> bool:
        """The note in the root holds just the total; no other note edited and no expense changed."""
        m = state_of(state, markor.MarkorState)
        return (m["files"].get(params["note"], "").strip() == self.total(state)
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Statistics in Pro Expense, This month (which stays chosen), then create the note in Markor and type it."""
        if state_of(state, X.ExpensesState)["period"] != "month":
            return to_page("stats", elements, state) or press(elements, text="This month")
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], self.total(state), elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)
