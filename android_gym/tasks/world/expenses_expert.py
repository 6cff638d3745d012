"""Expert steps and check helpers the Pro Expense templates of the world suite share.

The templates are in `expenses_tasks` and `expenses_cross_tasks`. Each step function reads the UI elements and the
sim's state and returns the next action towards a sub-goal: reach a page of the app (`to_page`), an expense's list row
(`find_row`, `reach`) or details (`to_details`), fill the form (`form_step`), add an expense (`add_step`) or edit one
(`edit_step`). Four helpers serve the templates' set-ups and checks: `expense` (an expense as the app takes it),
`plain` and `same_items` (comparisons with ids and name case aside), and `untouched` (nothing added, removed or
changed since set-up).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_dialogs import day_desc
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap
from android_gym.tasks.world.base import Elements, State, press
from android_gym.ui import UIElement

EXP = X.PACKAGE
LABEL = X.ExpensesApp.label


def expense(name: str, cents: int, category: str, days: int, note: str = "") -> dict[str, Any]:
    """An expense as `ExpensesInitial.expenses` takes it (and as the state shows it, without the id)."""
    return {"name": name, "amount": cents, "category": category, "date": X.iso(-days), "note": note}


def plain(e: Mapping[str, Any]) -> dict[str, Any]:
    """An expense of the state without its id, its name case and spacing folded (for comparisons)."""
    return {**{k: v for k, v in e.items() if k != "id"}, "name": " ".join(e["name"].split()).casefold()}


def same_items(got: Sequence[Mapping[str, Any]], want: Sequence[Mapping[str, Any]]) -> bool:
    """Whether two lists hold the same expenses, ids, order and name case aside."""
    def key(e: Mapping[str, Any]) -> str:
        return repr(sorted(plain(e).items()))
    return sorted(map(key, got)) == sorted(map(key, want))


def untouched(state: State) -> bool:
    """Whether nothing in Pro Expense was added, removed or changed since set-up."""
    e = state_of(state, X.ExpensesState)
    return not (e["added"] or e["removed"] or e["changed"])


# -- expert steps ------------------------------------------------------------------------------------------------------
def to_page(page: str, elements: Elements, state: State) -> Action | None:
    """The next step to Pro Expense's page `page` ("home", "expenses" or "stats"); None once it is in front."""
    step = into_app(LABEL, EXP, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    name = screen["name"]
    if name == page:
        return None
    if name == "drawer":
        item = find(elements, rid=X.DRAWER_ITEM_RID, text={"home": "Home", "expenses": "Expenses",
                                                            "stats": "Statistics"}[page])
        return tap(item) if item is not None else back()
    if name == "form" and screen["args"]["discard"]:
        return press(elements, text="Discard")
    if name in ("category", "date", "delete"):
        return press(elements, text="Cancel")
    if name != "home":
        return back()
    return press(elements, text="See all") if page == "expenses" else press(elements, desc=X.DRAWER_DESC)


def find_row(elements: Elements, name: str, date: str) -> UIElement | None:
    """The list row of the expense `name` dated `date` ("YYYY-MM-DD"), when on screen."""
    return next((e for e in elements if e.rid == X.ROW_RID and e.desc.startswith(f"{name}, ")
                 and e.desc.endswith(f", {X.long_date(date)}")), None)


def reach(elements: Elements, row: UIElement | None) -> Action:
    """Tap `row`; without it, scroll the list on (back towards the top once its end is on screen)."""
    if row is not None:
        return tap(row)
    return swipe_down() if find(elements, rid=X.FOOTER_RID) is not None else swipe_up()


def to_details(name: str, date: str, elements: Elements, state: State) -> Action | None:
    """The next step to the details of expense `name` on `date` (None once they are in front)."""
    e = state_of(state, X.ExpensesState)
    target = next((x for x in e["expenses"] if x["name"] == name and x["date"] == date), None)
    if state["foreground"] == EXP and e["screen"] == "details" and target and e["shown"] == target["id"]:
        return None
    if state["foreground"] == EXP and e["screen"] == "details":
        return back()
    return to_page("expenses", elements, state) or reach(elements, find_row(elements, name, date))


def form_step(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """On the form (or its chooser or picker): make it hold expense `want`, then Save."""
    screen = state["screen"]
    args = screen["args"]
    if screen["name"] == "category":
        return press(elements, text=want["category"], clickable=True)
    if screen["name"] == "date":
        if args["selected"] == want["date"]:
            return press(elements, text="OK")
        d = datetime.date.fromisoformat(want["date"])
        if (args["year"], args["month"]) != (d.year, d.month):
            later = (d.year, d.month) > (args["year"], args["month"])
            return press(elements, desc="Next month" if later else "Previous month")
        return press(elements, desc=day_desc(d))
    if args["discard"]:
        return press(elements, text="Keep editing")
    amount = f"{want['amount'] // 100}.{want['amount'] % 100:02d}"
    step = fill(elements, state, X.AMOUNT_RID, amount) or fill(elements, state, X.NAME_RID, want["name"])
    if step is not None:
        return step
    if args["category"] != want["category"]:
        return press(elements, desc=f"Category: {args['category']}")
    if args["date"] != want["date"]:
        return press(elements, desc=next((e.desc for e in elements if e.desc.startswith("Date: ")), "Date: "))
    return press(elements, text="Save")


def add_step(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """The next step to add expense `want`: the dashboard, Add expense, fill the form, Save."""
    step = into_app(LABEL, EXP, elements, state)
    editing = state_of(state, X.ExpensesState)["editing"]
    if step is None and editing is not None and editing["id"] is None:
        return form_step(want, elements, state)
    return step or to_page("home", elements, state) or press(elements, desc=X.FAB_DESC)


def edit_step(name: str, date: str, want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """The next step to make the expense `name` on `date` read `want`: its details, Edit, the form, Save."""
    step = into_app(LABEL, EXP, elements, state)
    editing = state_of(state, X.ExpensesState)["editing"]
    if step is None and editing is not None and editing["id"] is not None:
        return form_step(want, elements, state)
    return step or to_details(name, date, elements, state) or press(elements, desc="Edit expense")
