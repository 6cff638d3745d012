"""The Pro Expense app (com.arduia.expense): weekly dashboard, expenses by day, editor, details, statistics.

The expense records live in `android_gym.sim.apps.expenses_data`: the `Expense` dict (amount in cents, shown as `money`
writes it: "$1,234.50") and the `ExpenseSpec` a task adds, the categories, the date labels, the totals per period ("this
week" runs Monday to Sunday around today) and the 8-20 expenses each episode seeds; this module re-exports the names
other modules import from it (`CATEGORIES`, `POOL`, `money`, `totals`, `seeded_expenses`...).

Screens: "home" (the dashboard: this week's total, recent expenses, "See all", the "Add expense" FAB), "drawer" (Home /
Expenses / Statistics), "expenses" (every expense under day headers, ending with a count), "details" (args {"id"}: Edit
and Delete expense in the app bar), "delete" (the "Delete this expense?" dialog), "form"
(args {"id": the edited expense or None, "category", "date", "original", "error", "discard"}: Amount, Name and Note
fields, Category and Date rows, Save; BACK or "Navigate up" with unsaved changes asks "Discard changes?"), "category"
(the chooser), "date" (the picker: args {"year", "month", "selected"}) and "stats" (totals per category for "This week"
or "This month"; the period stays chosen while the app is closed). Overlays lie over the inert screen beneath. Tasks
read the state as an `ExpensesState` and set initial conditions with an `ExpensesInitial`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal

from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert, month_grid
from android_gym.sim.app_state import closed
from android_gym.sim.apps.expenses_data import (
    CATEGORIES,
    WEEK_START,
    Category,
    Expense,
    ExpenseSpec,
    day_label,
    long_date,
    money,
    parse_amount,
    row_desc,
    seeded_expenses,
    totals,
)
from android_gym.sim.apps.expenses_data import POOL as POOL  # re-exported: the importers' names keep working
from android_gym.sim.apps.todo import DATE, iso
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.arduia.expense"
PERIODS = {"week": "This week", "month": "This month"}
AMOUNT_RID, NAME_RID, NOTE_RID = (f"{PACKAGE}:id/{n}" for n in ("edt_amount", "edt_name", "edt_note"))
ROW_RID = f"{PACKAGE}:id/cl_expense_item"
ROW_AMOUNT_RID = f"{PACKAGE}:id/tv_amount"
AMOUNT_RID_DETAIL = f"{PACKAGE}:id/tv_amount_value"
TOTAL_RID = f"{PACKAGE}:id/tv_total_cost"
STAT_ROW_RID = f"{PACKAGE}:id/cl_statistic_item"
STAT_NAME_RID = f"{PACKAGE}:id/tv_category_name"
STAT_AMOUNT_RID = f"{PACKAGE}:id/tv_category_amount"
HEADER_RID = f"{PACKAGE}:id/tv_date_header"
FOOTER_RID = f"{PACKAGE}:id/tv_footer"
DRAWER_ITEM_RID = f"{PACKAGE}:id/design_menu_item_text"
FAB_DESC = "Add expense"
DRAWER_DESC = "Open navigation drawer"
DRAWER_ITEMS = (("Home", "home"), ("Expenses", "expenses"), ("Statistics", "stats"))
FIELDS = (AMOUNT_RID, NAME_RID, NOTE_RID)
"""The form's fields in ENTER order."""
ROW_H = 190
HEADER_H = 110
RECENT = 10


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Period = Literal["week", "month"]
ExpensesScreen = Literal["home", "drawer", "expenses", "details", "delete", "form", "category", "date", "stats"]


@closed
class ExpenseEdit(TypedDict):
    """The open form: the expense edited (None: a new one), the Amount, Name and Note fields' texts, its category and
    date."""  # noqa: D205, D209

    id: int | None
    amount: str
    name: str
    note: str
    category: Category
    date: str


@closed
class ExpensesState(TypedDict):
    """What Pro Expense reports (`ExpensesApp.state`).

    Attributes:
        expenses: every expense, newest first (by date, then by id).
        screen: the front Pro Expense screen's name, None when another app's screen is in front.
        shown: the id on a front "details" screen, else None.
        period: the statistics period.
        editing: the open form, None when no form is open.
        added: expenses not there at set-up; removed: set-up expenses no longer there, as they were; changed:
            expenses still there that differ from set-up, as they are now.
    """

    expenses: list[Expense]
    screen: ExpensesScreen | None
    shown: int | None
    period: Period
    editing: ExpenseEdit | None
    added: list[Expense]
    removed: list[Expense]
    changed: list[Expense]


class ExpensesInitial(ConfigModel):
    """The initial conditions a Pro Expense task may set (applied in this order).

    Attributes:
        absent: names (any case) no expense has: the seeded expenses so named are removed.
        absent_amounts: amounts (cents) no seeded expense has: those of these amounts are removed (a question on "the
            expense of this amount" holds one answer whatever the episode seeded).
        expenses: expenses added to the seeded ones, with the next ids in this order.
    """

    absent: tuple[str, ...] = ()
    absent_amounts: tuple[int, ...] = ()
    expenses: tuple[ExpenseSpec, ...] = ()


class ExpensesApp(App):
    """Pro Expense: record expenses, browse them by day, edit or delete them, and see totals per category."""

    package = PACKAGE
    label = "Pro Expense"
    icon = "expense"
    aliases = ("expenses", "expense", "expense tracker", "pro expense manager")
    state_schema = ExpensesState
    initial_model = ExpensesInitial

    def reset(self) -> None:
        """The episode's seeded expenses; statistics for this week."""
        self.expenses: list[dict[str, Any]] = seeded_expenses(self.phone.seed)
        self.period = "week"
        self._baseline = {e["id"]: dict(e) for e in self.expenses}

    def set_up(self, initial: ExpensesInitial) -> None:
        """Remove the expenses of the `absent` names, add the given ones; all of it is the starting point."""
        gone = {n.casefold() for n in initial.absent}
        self.expenses = [e for e in self.expenses
                         if e["name"].casefold() not in gone and e["amount"] not in initial.absent_amounts]
        for spec in initial.expenses:
            self.expenses.append({"id": self._next_id(), "name": spec.name, "amount": spec.amount,
                                  "category": spec.category, "date": spec.date, "note": spec.note})
        self._baseline = {e["id"]: dict(e) for e in self.expenses}

    def _next_id(self) -> int:
        """An id no expense of the episode has had (deleted ones included)."""
        return max([0, *self._baseline, *(e["id"] for e in self.expenses)]) + 1

    def home(self) -> Screen:
        """The dashboard."""
        return Screen(PACKAGE, "home")

    def find(self, expense_id: int) -> dict[str, Any] | None:
        """The expense with id `expense_id`, or None."""
        return next((e for e in self.expenses if e["id"] == expense_id), None)

    def ordered(self) -> list[dict[str, Any]]:
        """Every expense, newest first (by date, then by id)."""
        return sorted(self.expenses, key=lambda e: (e["date"], e["id"]), reverse=True)

    def state(self) -> ExpensesState:
        """The expenses, where the app is, and what changed since set-up (see `ExpensesState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine and self.phone.top is mine[-1] else None
        form = next((s for s in reversed(mine) if s.name == "form"), None)
        editing = None if form is None else {
            "id": form.args["id"], "amount": form.fields.get(AMOUNT_RID, ""), "name": form.fields.get(NAME_RID, ""),
            "note": form.fields.get(NOTE_RID, ""), "category": form.args["category"], "date": form.args["date"]}
        now = {e["id"]: e for e in self.expenses}
        return {"expenses": [dict(e) for e in self.ordered()], "screen": front.name if front else None,
                "shown": front.args["id"] if front is not None and front.name == "details" else None,
                "period": self.period, "editing": editing,
                "added": [dict(e) for i, e in now.items() if i not in self._baseline],
                "removed": [dict(e) for i, e in self._baseline.items() if i not in now],
                "changed": [dict(e) for i, e in now.items() if i in self._baseline and e != self._baseline[i]]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or an overlay (drawer, chooser, picker, dialog) over the inert page beneath it."""
        pages = {"home": self._home, "expenses": self._list, "details": self._details, "form": self._form,
                 "stats": self._stats}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        overlay = {"drawer": self._drawer, "category": self._chooser, "date": self._picker}.get(screen.name,
                                                                                               self._confirm)
        return [*inert(pages[below.name](below), below.scroll), overlay(screen)]

    def _bar(self, title: str, left: tuple[str, str, Any], actions: list[tuple[str, str, tuple]]) -> View:
        """The app bar: a leading button (desc, icon, event), the title, trailing icon buttons."""
        b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        kids = [View(IMAGE_BUTTON, (0, b[1], TOOLBAR_H, b[3]), desc=left[0], package=PACKAGE, clickable=True,
                     focusable=True, on_tap=left[2], icon=left[1]),
                View(TEXT_VIEW, (TOOLBAR_H, b[1], WIDTH - TOOLBAR_H * len(actions), b[3]), text=title,
                     rid=f"{PACKAGE}:id/toolbar_title", package=PACKAGE, style="title")]
        kids += [View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, b[1], WIDTH - i * TOOLBAR_H, b[3]), desc=desc,
                      rid=f"{PACKAGE}:id/{icon}", package=PACKAGE, clickable=True, focusable=True, on_tap=event,
                      icon=icon) for i, (desc, icon, event) in enumerate(actions)]
        return View(FRAME, b, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=kids)

    def _fab(self) -> View:
        return View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                    rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True, on_tap=("add",),
                    style="fab", icon="add")

    def _row(self, e: Mapping[str, Any], y: int) -> View:
        """An expense row: name over "category · day", the amount on the right; a tap opens the details."""
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=row_desc(e), rid=ROW_RID, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=("open", e["id"]), style="row", children=[
                        View(TEXT_VIEW, (MARGIN, y + 30, 700, y + 110), text=e["name"], rid=f"{PACKAGE}:id/tv_name",
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN, y + 110, 700, y + 170), text=f"{e['category']} \u00b7 "
                             f"{day_label(e['date'])}", rid=f"{PACKAGE}:id/tv_date", package=PACKAGE,
                             style="row_summary"),
                        View(TEXT_VIEW, (700, y + 50, WIDTH - MARGIN, y + 140), text=money(e["amount"]),
                             rid=ROW_AMOUNT_RID, package=PACKAGE, style="price")])

    def _home(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        week = sum(totals(self.expenses, "week").values())
        y = top + 30
        rows = [View(FRAME, (MARGIN, y, WIDTH - MARGIN, y + 330), rid=f"{PACKAGE}:id/cv_weekly", package=PACKAGE,
                     style="card", children=[
                         View(TEXT_VIEW, (MARGIN + 40, y + 40, WIDTH - MARGIN - 40, y + 120), text="This week",
                              package=PACKAGE, style="secondary"),
                         View(TEXT_VIEW, (MARGIN + 40, y + 120, WIDTH - MARGIN - 40, y + 240), text=money(week),
                              rid=TOTAL_RID, package=PACKAGE, style="title"),
                         View(TEXT_VIEW, (MARGIN + 40, y + 240, WIDTH - MARGIN - 40, y + 310),
                              text=f"{WEEK_START:%b} {WEEK_START.day} \u2013 {DATE:%b} {DATE.day}", package=PACKAGE,
                              style="secondary")])]
        y += 370
        rows += [View(TEXT_VIEW, (MARGIN, y, 700, y + HEADER_H), text="Recent", package=PACKAGE, style="section"),
                 View(BUTTON, (700, y, WIDTH - MARGIN, y + HEADER_H), text="See all", rid=f"{PACKAGE}:id/btn_more",
                      package=PACKAGE, clickable=True, focusable=True, on_tap=("go", "expenses"),
                      style="text_button")]
        y += HEADER_H
        recent = self.ordered()[:RECENT]
        for e in recent:
            rows.append(self._row(e, y))
            y += ROW_H
        if not recent:
            rows.append(View(TEXT_VIEW, (MARGIN, y + 100, WIDTH - MARGIN, y + 220), text="No expenses yet",
                             package=PACKAGE, style="hint"))
            y += 220
        rows.append(View(VIEW, (0, y, WIDTH, y + 300), package=PACKAGE))  # room to scroll clear of the FAB
        return [self._bar("Pro Expense", (DRAWER_DESC, "menu", ("drawer",)), []),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/rv_recent"), self._fab()]

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows: list[View] = []
        y, day = top, None
        for e in self.ordered():
            if e["date"] != day:
                day = e["date"]
                rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + HEADER_H), text=day_label(day),
                                 rid=HEADER_RID, package=PACKAGE, style="secondary"))
                y += HEADER_H
            rows.append(self._row(e, y))
            y += ROW_H
        n = len(self.expenses)
        rows.append(View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 120),
                         text=f"{n} expense{'' if n == 1 else 's'}" if n else "No expenses yet", rid=FOOTER_RID,
                         package=PACKAGE, style="hint"))
        rows.append(View(VIEW, (0, y + 120, WIDTH, y + 400), package=PACKAGE))
        return [self._bar("Expenses", ("Navigate up", "back", NavKey("back")), []),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/rv_expense"), self._fab()]

    def _details(self, screen: Screen) -> list[View]:
        e = self.find(screen.args["id"])
        actions = [("Delete expense", "delete", ("ask_delete",))] if e else []
        bar = self._bar("Expense details", ("Navigate up", "back", NavKey("back")), actions)
        if e is None:  # only while a screen outlives its expense; never on top
            return [bar]
        bar.children.append(View(BUTTON, (WIDTH - 2 * TOOLBAR_H - 40, CONTENT_TOP + 30, WIDTH - TOOLBAR_H,
                                          CONTENT_TOP + TOOLBAR_H - 30), text="Edit", desc="Edit expense",
                                 rid=f"{PACKAGE}:id/edit", package=PACKAGE, clickable=True, focusable=True,
                                 on_tap=("edit",), style="text_button"))
        y = CONTENT_TOP + TOOLBAR_H + 60
        views = [bar, View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 160), text=money(e["amount"]),
                           rid=AMOUNT_RID_DETAIL, package=PACKAGE, style="title")]
        y += 200
        for label, value, rid in (("Name", e["name"], "tv_name_value"),
                                  ("Category", e["category"], "tv_category_value"),
                                  ("Date", f"{long_date(e['date'])}, {e['date'][:4]}", "tv_date_value"),
                                  ("Note", e["note"] or "No note", "tv_note_value")):
            views += [View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 70), text=label, package=PACKAGE,
                           style="secondary"),
                      View(TEXT_VIEW, (MARGIN, y + 70, WIDTH - MARGIN, y + 160), text=value,
                           rid=f"{PACKAGE}:id/{rid}", package=PACKAGE, style="row_title")]
            y += 200
        return views

    def _confirm(self, screen: Screen) -> View:
        e = self.find(screen.args["id"]) or {"name": "", "amount": 0}
        return alert_dialog(PACKAGE, "Delete this expense?",
                            f"\u201c{e['name']}\u201d ({money(e['amount'])}) will be deleted.",
                            [("Cancel", ("cancel",)), ("Delete", ("delete",))], ("cancel",))

    def _form(self, screen: Screen) -> list[View]:
        args, f = screen.args, screen.fields
        bar = self._bar("Edit expense" if args["id"] else "New expense", ("Navigate up", "back", NavKey("back")), [])
        views = [bar]
        y = CONTENT_TOP + TOOLBAR_H + 30
        if args["error"]:
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 80), text=args["error"],
                              rid=f"{PACKAGE}:id/tv_error", package=PACKAGE, style="link"))
            y += 90
        for rid, hint in ((AMOUNT_RID, "Amount"), (NAME_RID, "Name")):
            views.append(text_field((MARGIN, y, WIDTH - MARGIN, y + 140), rid, f.get(rid, ""), hint,
                                    screen.focus == rid, PACKAGE))
            y += 170
        for label, value, event, rid in (("Category", args["category"], ("choose",), "tv_category"),
                                         ("Date", f"{long_date(args['date'])}, {args['date'][:4]}", ("pick_date",),
                                          "tv_date")):
            views.append(View(LINEAR, (0, y, WIDTH, y + 150), desc=f"{label}: {value}", package=PACKAGE,
                              clickable=True, focusable=True, on_tap=event, style="row", children=[
                                  View(TEXT_VIEW, (MARGIN, y + 30, 360, y + 120), text=label, package=PACKAGE,
                                       style="secondary"),
                                  View(TEXT_VIEW, (360, y + 30, WIDTH - MARGIN, y + 120), text=value,
                                       rid=f"{PACKAGE}:id/{rid}", package=PACKAGE, style="row_title")]))
            y += 170
        views.append(text_field((MARGIN, y, WIDTH - MARGIN, y + 140), NOTE_RID, f.get(NOTE_RID, ""), "Note",
                                screen.focus == NOTE_RID, PACKAGE))
        y += 180
        views.append(View(BUTTON, (MARGIN, y, WIDTH - MARGIN, y + 140), text="Save", rid=f"{PACKAGE}:id/btn_save",
                          package=PACKAGE, clickable=True, focusable=True, on_tap=("save",), style="button"))
        if args["discard"]:
            views.append(alert_dialog(PACKAGE, "Discard changes?", "Your changes to this expense will not be saved.",
                                      [("Keep editing", ("keep",)), ("Discard", ("discard",))], ("keep",)))
        return views

    def _drawer(self, screen: Screen) -> View:
        y = CONTENT_TOP + 40
        kids = [View(TEXT_VIEW, (MARGIN, y, 780, y + 120), text="Pro Expense", package=PACKAGE, style="title")]
        y += 160
        for label, target in DRAWER_ITEMS:
            kids.append(View(TEXT_VIEW, (0, y, 820, y + 150), text=label, rid=DRAWER_ITEM_RID, package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("go", target), style="row"))
            y += 150
        panel = View(FRAME, (0, CONTENT_TOP, 840, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/nav_view", package=PACKAGE,
                     clickable=True, style="toolbar", children=kids)
        return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, clickable=True,
                    on_tap=("cancel",), style="scrim", children=[panel])

    def _chooser(self, screen: Screen) -> View:
        y = dialog_body_top(400)
        body = [View("android.widget.RadioButton", (130, y + k * 130, WIDTH - 130, y + k * 130 + 120), text=c,
                     rid=f"{PACKAGE}:id/rb_category", package=PACKAGE, clickable=True, focusable=True, checkable=True,
                     checked=c == screen.args["selected"], on_tap=("category", c), style="radio")
                for k, c in enumerate(CATEGORIES)]
        return app_dialog(PACKAGE, "Choose category", body, [("Cancel", ("cancel",), True)], top=400)

    def _picker(self, screen: Screen) -> View:
        args = screen.args
        year, month = args["year"], args["month"]
        body = month_grid(PACKAGE, year, month, args["selected"], "day", dialog_body_top(300))
        return app_dialog(PACKAGE, "Date", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)], top=300)

    def _stats(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        views = [self._bar("Statistics", ("Navigate up", "back", NavKey("back")), [])]
        for k, (key, label) in enumerate(PERIODS.items()):
            views.append(View(BUTTON, (MARGIN + k * 330, top + 30, MARGIN + k * 330 + 300, top + 150), text=label,
                              package=PACKAGE, clickable=True, focusable=True, checkable=True,
                              checked=self.period == key, on_tap=("period", key), style="chip"))
        sums = totals(self.expenses, self.period)
        total = sum(sums.values())
        y = top + 190
        views += [View(TEXT_VIEW, (MARGIN, y, 640, y + 120), text="Total", package=PACKAGE, style="section"),
                  View(TEXT_VIEW, (640, y, WIDTH - MARGIN, y + 120), text=money(total),
                       rid=f"{PACKAGE}:id/tv_total_amount", package=PACKAGE, style="price")]
        y += 150
        rows = []
        for category, cents in sums.items():
            share = f"{round(100 * cents / total)}%"
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=f"{category}, {money(cents)}, {share}",
                             rid=STAT_ROW_RID, package=PACKAGE, style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 30, 640, y + 110), text=category, rid=STAT_NAME_RID,
                                      package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN, y + 110, 640, y + 170), text=share,
                                      rid=f"{PACKAGE}:id/tv_percentage", package=PACKAGE, style="row_summary"),
                                 View(TEXT_VIEW, (640, y + 50, WIDTH - MARGIN, y + 140), text=money(cents),
                                      rid=STAT_AMOUNT_RID, package=PACKAGE, style="price")]))
            y += ROW_H
        if not rows:
            rows.append(View(TEXT_VIEW, (MARGIN, y + 60, WIDTH - MARGIN, y + 180), text="No expenses in this period",
                             package=PACKAGE, style="hint"))
        return [*views, scroll_list(top + 340, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/rv_statistic")]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Rows, the drawer, the app bars, dialog buttons, the form's rows and Save, the picker and the chooser."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case _, ("drawer",):
                return self.phone.push(Screen(PACKAGE, "drawer"))
            case "drawer", ("go", target):
                self.phone.pop()  # the drawer opens over the dashboard only
                return True if target == "home" else self.phone.push(Screen(PACKAGE, target))
            case _, ("go", target):
                return self.phone.push(Screen(PACKAGE, target))
            case _, ("add",):
                return self.phone.push(self._form_screen(None))
            case _, ("open", expense_id):
                return self.phone.push(Screen(PACKAGE, "details", {"id": expense_id}))
            case "details", ("edit",):
                return self.phone.push(self._form_screen(self.find(screen.args["id"])))
            case "details", ("ask_delete",):
                return self.phone.push(Screen(PACKAGE, "delete", {"id": screen.args["id"]}))
            case "delete", ("delete",):
                self.expenses = [e for e in self.expenses if e["id"] != screen.args["id"]]
                self.phone.pop()
                return self.phone.pop()
            case "stats", ("period", key):
                changed = self.period != key
                self.period = key
                return changed
        if screen.name in ("form", "category", "date"):
            return self._form_event(event, screen)
        return False

    def _form_screen(self, e: Mapping[str, Any] | None) -> Screen:
        values = {AMOUNT_RID: "", NAME_RID: "", NOTE_RID: ""} if e is None else {
            AMOUNT_RID: f"{e['amount'] // 100}.{e['amount'] % 100:02d}", NAME_RID: e["name"], NOTE_RID: e["note"]}
        category, date = ("Other", iso(0)) if e is None else (e["category"], e["date"])
        return Screen(PACKAGE, "form", {"id": e["id"] if e else None, "category": category, "date": date,
                                        "original": {**values, "category": category, "date": date}, "error": "",
                                        "discard": False}, dict(values), focus=AMOUNT_RID if e is None else None)

    def _form_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match screen.name, event:
            case "form", ("choose",):
                return self.phone.push(Screen(PACKAGE, "category", {"selected": args["category"]}))
            case "form", ("pick_date",):
                d = datetime.date.fromisoformat(args["date"])
                return self.phone.push(Screen(PACKAGE, "date", {"year": d.year, "month": d.month,
                                                                "selected": args["date"]}))
            case "form", ("save",):
                return self._save(screen)
            case "form", ("keep",):
                args["discard"] = False
                return True
            case "form", ("discard",):
                return self.phone.pop()
            case "category", ("category", c):
                self.phone.pop()
                self.phone.top.args["category"] = c
                return True
            case "date", ("month", step):
                m = args["year"] * 12 + args["month"] - 1 + step
                args["year"], args["month"] = divmod(m, 12)
                args["month"] += 1
                return True
            case "date", ("day", day):
                changed = args["selected"] != day
                args["selected"] = day
                return changed
            case "date", ("ok",):
                self.phone.pop()
                self.phone.top.args["date"] = args["selected"]
                return True
        return False

    def _save(self, screen: Screen) -> bool:
        """Save the form: refused with a message without a positive amount or a name."""
        args, f = screen.args, screen.fields
        cents, name = parse_amount(f.get(AMOUNT_RID, "")), " ".join(f.get(NAME_RID, "").split())
        if cents is None or not name:
            args["error"] = "Enter an amount greater than 0" if cents is None else "Enter a name"
            screen.focus = None
            return True
        fields = {"name": name, "amount": cents, "category": args["category"], "date": args["date"],
                  "note": f.get(NOTE_RID, "").strip()}
        old = self.find(args["id"]) if args["id"] is not None else None
        if old is None:
            self.expenses.append({"id": self._next_id(), **fields})
        else:
            old.update(fields)
        screen.focus = None
        return self.phone.pop()

    @staticmethod
    def _edited(screen: Screen) -> bool:
        now = {**{r: screen.fields.get(r, "") for r in FIELDS}, "category": screen.args["category"],
               "date": screen.args["date"]}
        return now != screen.args["original"]

    def on_back(self, screen: Screen) -> bool:
        """BACK on the form with unsaved changes asks first; BACK on that dialog keeps editing."""
        if screen.name != "form":
            return False
        if screen.args["discard"]:
            screen.args["discard"] = False
            return True
        if self._edited(screen):
            screen.args["discard"] = True
            screen.focus = None
            return True
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in Amount moves to Name; in Name, to Note; in Note it closes the keyboard."""
        if screen.name != "form" or rid not in FIELDS[:-1]:
            return False
        screen.focus = FIELDS[FIELDS.index(rid) + 1]
        return True
