"""Tests of the Pro Expense app of the simulated phone: screens, state, dialogs, back, XML, pixels, seeding."""

from __future__ import annotations

import datetime

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps.expenses import ExpensesApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(ExpensesApp)
KNOWN = [{"name": "Lunch", "amount": 1250, "category": "Food", "date": X.iso(0)},
         {"name": "Taxi", "amount": 2300, "category": "Transport", "date": X.iso(-1), "note": "To the station"},
         {"name": "Lunch", "amount": 990, "category": "Food", "date": X.iso(-4)},
         {"name": "Internet", "amount": 4500, "category": "Bills", "date": X.iso(-12)}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Pro Expense installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """Pro Expense open on its dashboard, holding only the known expenses."""
    names = {e["name"] for e in X.seeded_expenses(0)}
    phone = make_phone(initial={X.PACKAGE: {"absent": sorted(names), "expenses": KNOWN}})
    phone.launch("Pro Expense")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def ex(phone: SimPhone) -> dict:
    """Pro Expense's state."""
    return phone.state()["apps"][X.PACKAGE]


def row(phone: SimPhone, name: str, date: str) -> None:
    """Tap the list row of expense `name` on `date`."""
    target = next((e for e in phone.elements() if e.rid == X.ROW_RID and e.desc.startswith(f"{name}, ")
                   and e.desc.endswith(X.long_date(date))), None)
    assert target is not None, f"no row {name} {date}"
    phone.tap(*target.center)


def test_dashboard_shows_this_weeks_total_and_recent_expenses():
    """The card holds the week's total (Monday on, older expenses excluded); rows are newest first."""
    phone = known_phone()
    assert find(phone.elements(), rid=X.TOTAL_RID).text == "$35.50"  # 12.50 + 23.00; Jun 6 is last week
    rows = [e.desc for e in phone.elements() if e.rid == X.ROW_RID]
    assert rows[0] == "Lunch, Food, $12.50, Wednesday, June 10" and rows[-1].startswith("Internet, Bills, $45.00")
    assert "Today" not in labels(phone) and "Food \u00b7 Today" in labels(phone)


def test_new_expense_with_enter_a_category_and_a_date_from_last_month():
    """Add expense focuses Amount; ENTER moves to Name; the chooser and the picker set the rows; Save adds it."""
    phone = known_phone()
    press(phone, desc=X.FAB_DESC)
    assert phone.top.name == "form" and phone.top.focus == X.AMOUNT_RID and "New expense" in labels(phone)
    phone.type_text("7.5")
    phone.key("enter")
    assert phone.top.focus == X.NAME_RID
    phone.type_text("Cinema")
    press(phone, desc="Category: Other")
    assert "Choose category" in labels(phone) and len([e for e in phone.elements() if e.checkable]) == 7
    press(phone, text="Entertainment")
    press(phone, desc="Date: Wednesday, June 10, 2026")
    press(phone, desc="Previous month")
    assert "May 2026" in labels(phone)
    press(phone, desc="Friday, May 29, 2026")
    press(phone, text="OK")
    assert ex(phone)["editing"]["date"] == "2026-05-29" and ex(phone)["editing"]["category"] == "Entertainment"
    press(phone, text="Save")
    state = ex(phone)
    assert state["screen"] == "home" and not state["removed"] and not state["changed"]
    assert [{k: v for k, v in e.items() if k != "id"} for e in state["added"]] == [
        {"name": "Cinema", "amount": 750, "category": "Entertainment", "date": "2026-05-29", "note": ""}]


@pytest.mark.parametrize("amount, name, error", [("", "Tea", "Enter an amount greater than 0"),
                                                 ("1.234", "Tea", "Enter an amount greater than 0"),
                                                 ("4", "  ", "Enter a name")])
def test_save_refuses_a_bad_amount_or_no_name(amount: str, name: str, error: str):
    """The form stays open with a message and nothing is added."""
    phone = known_phone()
    press(phone, desc=X.FAB_DESC)
    phone.type_text(amount) if amount else None
    press(phone, rid=X.NAME_RID)
    phone.type_text(name)
    press(phone, text="Save")
    assert phone.top.name == "form" and error in labels(phone) and not ex(phone)["added"]


def test_back_on_a_changed_form_asks_before_discarding():
    """BACK (or Navigate up) with changes asks; BACK on the dialog keeps editing; Discard closes; unchanged: closes."""
    phone = known_phone()
    press(phone, desc=X.FAB_DESC)
    phone.key("back")  # closes the keyboard first
    assert phone.top.name == "form" and phone.top.focus is None
    phone.key("back")  # nothing typed: the form closes
    assert phone.top.name == "home"
    press(phone, desc=X.FAB_DESC)
    phone.type_text("3")
    phone.key("back")
    press(phone, desc="Navigate up")
    assert "Discard changes?" in labels(phone)
    phone.key("back")
    assert "Discard changes?" not in labels(phone) and phone.top.name == "form"
    press(phone, desc="Navigate up")
    press(phone, text="Discard")
    assert phone.top.name == "home" and not ex(phone)["added"]


def test_details_edit_and_delete_with_a_confirmation():
    """A row opens its details; Edit changes it; Delete asks "Delete this expense?" (Cancel keeps it)."""
    phone = known_phone()
    press(phone, text="See all")
    row(phone, "Taxi", X.iso(-1))
    assert ex(phone)["screen"] == "details" and {"$23.00", "Transport", "To the station"} <= set(labels(phone))
    press(phone, desc="Edit expense")
    assert phone.top.fields[X.AMOUNT_RID] == "23.00"
    press(phone, rid=X.AMOUNT_RID)
    phone.type_text("5")
    press(phone, text="Save")  # "23.005" has three decimals: refused
    assert phone.top.name == "form" and "Enter an amount greater than 0" in labels(phone)
    phone.key("back")
    press(phone, text="Discard")
    assert ex(phone)["screen"] == "details" and not ex(phone)["changed"]
    press(phone, desc="Delete expense")
    assert "Delete this expense?" in labels(phone)
    press(phone, text="Cancel")
    assert ex(phone)["screen"] == "details" and not ex(phone)["removed"]
    press(phone, desc="Delete expense")
    press(phone, text="Delete")
    state = ex(phone)
    assert state["screen"] == "expenses" and [e["name"] for e in state["removed"]] == ["Taxi"]


def test_an_edit_is_reported_as_changed():
    """Editing the category of one of two namesakes changes only that one."""
    phone = known_phone()
    press(phone, text="See all")
    row(phone, "Lunch", X.iso(-4))
    press(phone, desc="Edit expense")
    press(phone, desc="Category: Food")
    press(phone, text="Other")
    press(phone, text="Save")
    state = ex(phone)
    assert [(e["name"], e["date"], e["category"]) for e in state["changed"]] == [("Lunch", X.iso(-4), "Other")]
    assert "Other" in labels(phone) and not state["added"] and not state["removed"]


def test_the_list_groups_by_day_and_ends_with_a_count():
    """Day headers in date order; a long list scrolls to its footer."""
    phone = known_phone()
    press(phone, text="See all")
    headers = [e.text for e in phone.elements() if e.rid == X.HEADER_RID]
    assert headers == ["Today", "Yesterday", "Sat, Jun 6", "Fri, May 29"]
    assert find(phone.elements(), rid=X.FOOTER_RID).text == "4 expenses"
    long = make_phone(4)
    long.launch("Pro Expense")
    press(long, text="See all")
    assert find(long.elements(), rid=X.FOOTER_RID) is None
    for _ in range(6):
        long.swipe(540, 1700, 540, 800)
    assert find(long.elements(), rid=X.FOOTER_RID).text == f"{len(ex(long)['expenses'])} expenses"
    press(long, desc="Navigate up")
    assert long.top.name == "home"


def test_statistics_total_each_category_and_keep_the_period():
    """This week and This month totals per category; the period stays chosen after the app is reopened."""
    phone = known_phone()
    press(phone, desc=X.DRAWER_DESC)
    press(phone, text="Statistics")
    rows = [e.desc for e in phone.elements() if e.rid == X.STAT_ROW_RID]
    assert rows == ["Transport, $23.00, 65%", "Food, $12.50, 35%"] and "$35.50" in labels(phone)
    press(phone, text="This month")
    rows = [e.desc for e in phone.elements() if e.rid == X.STAT_ROW_RID]
    assert rows == ["Transport, $23.00, 51%", "Food, $22.40, 49%"] and ex(phone)["period"] == "month"
    phone.launch("Pro Expense")
    press(phone, desc=X.DRAWER_DESC)
    press(phone, text="Statistics")
    assert find(phone.elements(), text="This month").checked
    phone.key("back")
    assert phone.top.name == "home"


@pytest.mark.parametrize("name, package", [("Pro Expense", X.PACKAGE), ("expenses", X.PACKAGE),
                                           ("Expense tracker", X.PACKAGE)])
def test_the_app_opens_by_label_and_alias(name: str, package: str):
    """Its label and aliases find it; the launcher's drawer shows its icon."""
    phone = make_phone()
    assert phone.find_app(name).package == package
    phone.swipe(540, 1500, 540, 600)
    assert "Pro Expense" in labels(phone)


@pytest.mark.parametrize("steps", [(), ("drawer",), ("all",), ("all", "open"), ("all", "open", "delete"), ("add",),
                                   ("add", "category"), ("add", "date"), ("drawer", "stats")])
def test_xml_parses_and_lists_what_the_screen_shows(steps: tuple[str, ...]):
    """Every screen's XML parses into the same elements the phone reports, with its key texts."""
    phone = known_phone()
    actions = {"drawer": {"desc": X.DRAWER_DESC}, "all": {"text": "See all"}, "open": {"text": "Taxi"},
               "delete": {"desc": "Delete expense"}, "add": {"desc": X.FAB_DESC},
               "category": {"desc": "Category: Other"},
               "date": {"desc": "Date: Wednesday, June 10, 2026"}, "stats": {"text": "Statistics"}}
    for step in steps:
        press(phone, **actions[step])
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {(): "See all", "drawer": "Expenses", "all": "Yesterday", "open": "To the station",
                "delete": "Delete this expense?", "add": "Amount", "category": "Health", "date": "June 2026",
                "stats": "This month"}[steps[-1] if steps else ()]
    assert expected in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """The total and the FAB are drawn (not blank), and the delete dialog dims the details."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {X.PACKAGE: {"expenses": KNOWN}})
    device.phone.launch("Pro Expense")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    total = find(device.ui_elements(), rid=X.TOTAL_RID).bounds
    fab = find(device.ui_elements(), desc=X.FAB_DESC).bounds
    assert region(total).std() > 20 and region(fab)[:, 2].mean() > region(fab)[:, 0].mean() + 60  # text; blue FAB
    first = find(device.ui_elements(), rid=X.ROW_RID)
    device.phone.tap(*first.center)
    amount = find(device.ui_elements(), rid=X.AMOUNT_RID_DETAIL).bounds
    before = region(amount).mean()
    assert region(amount).std() > 20
    device.phone.tap(*find(device.ui_elements(), desc="Delete expense").center)
    assert region(amount).mean() < before - 40  # the scrim behind the dialog


def test_initial_data_is_seeded():
    """The same seed gives the same expenses; other seeds give others: 8-20 over three weeks, two this week."""
    def data(seed: int) -> list:
        return make_phone(seed).state()["apps"][X.PACKAGE]["expenses"]

    assert data(5) == data(5)
    assert len({repr(data(s)) for s in range(8)}) == 8
    for s in range(8):
        rows = data(s)
        days = [(X.DATE - datetime.date.fromisoformat(e["date"])).days for e in rows]
        assert 8 <= len(rows) <= 20 and all(0 <= d < 21 for d in days) and sum(d <= 2 for d in days) >= 2
        assert all(e["category"] in X.CATEGORIES and e["amount"] > 0 for e in rows)


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with Pro Expense draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Pro Expense")
    press(mine, desc=X.FAB_DESC)
    press(mine, desc="Category: Other")
    mine.state()
    # The generator's whole state, not a draw: a bounded integer draw uses half a word and keeps the rest buffered.
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


GOOD = {"name": "x", "amount": 100, "category": "Food", "date": "2026-06-01"}


@pytest.mark.parametrize("initial, field", [
    ({"items": []}, "items"), ({"expenses": [{"name": "x", "amount": 100}]}, "expenses.0.category"),
    ({"expenses": [{**GOOD, "amount": 1.5}]}, "expenses.0.amount"),
    ({"expenses": [{**GOOD, "amount": 0}]}, "expenses.0.amount"),
    ({"expenses": [{**GOOD, "category": "Fun"}]}, "expenses.0.category"),
    ({"expenses": [{**GOOD, "tags": []}]}, "expenses.0.tags")])
def test_apply_refuses_unknown_keys_and_bad_expenses(initial: dict, field: str):
    """Unknown keys, missing fields, non-integer cents, unknown categories, unknown fields: the field is named."""
    with pytest.raises(ConfigError, match=rf"`Pro Expense\.{field}`"):
        make_phone(initial={X.PACKAGE: initial})


def test_apply_adds_and_removes_as_the_starting_point():
    """Set-up removes every expense of a name and adds others; none of it counts as a change."""
    seeded = X.seeded_expenses(3)
    phone = make_phone(3, {X.PACKAGE: {"absent": [seeded[0]["name"]], "expenses": KNOWN[:1]}})
    state = ex(phone)
    assert not any(e["name"] == seeded[0]["name"] for e in state["expenses"])
    assert {"name": "Lunch", "amount": 1250, "category": "Food", "date": X.iso(0), "note": ""} in [
        {k: v for k, v in e.items() if k != "id"} for e in state["expenses"]]
    assert not (state["added"] or state["removed"] or state["changed"]) and state["screen"] is None


def test_state_hands_out_containers_of_its_own():
    """Mutating what `state()` returned (mid-edit, after a change) reaches neither the app nor the next reader."""
    phone = known_phone()
    press(phone, text="See all")
    row(phone, "Taxi", X.iso(-1))
    press(phone, desc="Delete expense")
    press(phone, text="Delete")
    press(phone, desc=X.FAB_DESC)
    app = phone.apps[X.PACKAGE]
    first = app.state()
    kept = repr(first)
    for value in first.values():
        if isinstance(value, list):
            for item in value:
                item.clear()
            value.clear()
        elif isinstance(value, dict):
            value.clear()
    assert repr(app.state()) == kept and first["removed"] == []
