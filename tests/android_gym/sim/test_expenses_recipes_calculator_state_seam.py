"""The typed seam (issue 48) of Pro Expense, Broccoli and Calculator: initial conditions refused by each app's model
with the field named (the closest key for an unknown one), and each app's state after a rich set-up fitting its
schema."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app_state import state_of, state_problems
from android_gym.sim.apps import calculator as C
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import recipes as R
from android_gym.sim.phone import SimPhone

LUNCH = {"name": "Lunch", "amount": 1250, "category": "Food", "date": X.iso(0)}


@pytest.mark.parametrize("package, initial, message", [
    (X.PACKAGE, {"expense": []}, r"unknown config key `Pro Expense\.expense`; did you mean `Pro Expense\.expenses`\?"),
    (X.PACKAGE, {"expenses": [{**LUNCH, "amout": 5}]},
     r"`Pro Expense\.expenses\.0\.amout`; did you mean `Pro Expense\.expenses\.0\.amount`\?"),
    (R.PACKAGE, {"absnet": ["Pancakes"]}, r"unknown config key `Broccoli\.absnet`; did you mean `Broccoli\.absent`\?"),
    (R.PACKAGE, {"recipes": [{"title": "Soup", "ingredient": []}]},
     r"`Broccoli\.recipes\.0\.ingredient`; did you mean `Broccoli\.recipes\.0\.ingredients`\?"),
    (C.PACKAGE, {"seed": 3}, r"unknown config key `Calculator\.seed`; did you mean `Calculator\.seeded`\?"),
])
def test_an_unknown_initial_key_is_refused_naming_the_closest(package: str, initial: dict, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("package, initial, message", [
    (X.PACKAGE, {"expenses": [{**LUNCH, "amount": 0}]},
     r"`Pro Expense\.expenses\.0\.amount` must be greater than or equal to 1, got 0"),
    (X.PACKAGE, {"expenses": [{**LUNCH, "category": "Fod"}]},
     r"`Pro Expense\.expenses\.0\.category` must be 'Food', .* \(did you mean 'Food'\?\), got 'Fod'"),
    (X.PACKAGE, {"expenses": [{**LUNCH, "date": "June 3"}]},
     r"`Pro Expense\.expenses\.0\.date` must be a date written \"YYYY-MM-DD\", got 'June 3'"),
    (X.PACKAGE, {"expenses": [{**LUNCH, "name": "  "}]}, r"`Pro Expense\.expenses\.0\.name` must be a name that"),
    (X.PACKAGE, {"absent": "Lunch"}, r"`Pro Expense\.absent` must be a valid tuple"),
    (R.PACKAGE, {"recipes": [{"title": " "}]}, r"`Broccoli\.recipes\.0\.title` must be a title that is not blank"),
    (R.PACKAGE, {"recipes": [{"title": "Soup", "servings": 4}]},
     r"`Broccoli\.recipes\.0\.servings` must be a valid string, got 4"),
    (R.PACKAGE, {"recipes": [{"description": "No title"}]}, r"`Broccoli\.recipes\.0\.title` is required"),
    (C.PACKAGE, {"seeded": -1}, r"`Calculator\.seeded` must be greater than or equal to 0, got -1"),
    (C.PACKAGE, {"history": ["2+2", "7÷"]}, r"`Calculator\.history` must be expressions that evaluate, got \['7÷'\]"),
])
def test_a_bad_initial_value_is_refused_naming_the_field(package: str, initial: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


def test_pro_expense_after_a_rich_set_up_fits_its_schema_mid_edit_too() -> None:
    phone = SimPhone()
    seeded = X.seeded_expenses(4)
    phone.reset(4, {X.PACKAGE: {"absent": [seeded[0]["name"].upper()],
                                "expenses": [LUNCH, {**LUNCH, "name": "Taxi", "amount": 2300, "category": "Transport",
                                                     "date": X.iso(-1), "note": "To the station"}]}})
    assert state_problems(phone.state()) == []
    mine = state_of(phone.state(), X.ExpensesState)
    assert not any(e["name"] == seeded[0]["name"] for e in mine["expenses"])
    assert {**LUNCH, "note": ""} in [{k: v for k, v in e.items() if k != "id"} for e in mine["expenses"]]
    assert mine["editing"] is None and mine["screen"] is None and not (mine["added"] or mine["removed"])
    phone.launch("Pro Expense")
    phone.apps[X.PACKAGE].handle(("add",), phone.top)  # the form open: `editing` filled, `screen` "form"
    state = phone.state()
    assert state_problems(state) == [] and state_of(state, X.ExpensesState)["editing"]["id"] is None


def test_broccoli_after_a_rich_set_up_fits_its_schema_mid_edit_too() -> None:
    phone = SimPhone()
    phone.reset(1, {R.PACKAGE: {"absent": [title for title, *_ in R.POOL[:10]],
                                "recipes": [{"title": "Tomato Soup", "description": "Quick soup", "servings": "4",
                                             "prep_time": "30 min", "categories": ["Soup"],
                                             "ingredients": ["6 tomatoes", "1 onion"], "directions": "Blend.",
                                             "favourite": True},
                                            {"title": "Apple Crumble"}]}})
    assert state_problems(phone.state()) == []
    mine = state_of(phone.state(), R.RecipesState)
    soup = next(r for r in mine["recipes"] if r["title"] == "Tomato Soup")
    assert soup["ingredients"] == ["6 tomatoes", "1 onion"] and soup["categories"] == ["Soup"] and soup["favourite"]
    crumble = next(r for r in mine["recipes"] if r["title"] == "Apple Crumble")
    assert crumble["servings"] == "" and crumble["ingredients"] == [] and not crumble["favourite"]
    phone.launch("Broccoli")
    phone.apps[R.PACKAGE].handle(("open", soup["id"]), phone.top)
    phone.apps[R.PACKAGE].handle(("edit",), phone.top)
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, R.RecipesState)
    assert mine["screen"] == "form" and mine["last_opened"] == "Tomato Soup" and mine["editing"]["id"] == soup["id"]


def test_calculator_after_a_rich_set_up_fits_its_schema() -> None:
    phone = SimPhone()
    phone.reset(2, {C.PACKAGE: {"seeded": 5, "history": ["7×7", "√144"]}})
    mine = state_of(phone.state(), C.CalculatorState)
    assert state_problems(phone.state()) == [] and len(mine["history"]) == 7
    assert {"expression": "√144", "result": "12"} in mine["history"] and mine["page"] is None
    phone.launch("Calculator")
    for key in ("7", "÷", "0", "="):  # an "=" that gives "Error": the result is a string, not None
        phone.apps[C.PACKAGE].handle(("key", key), phone.top)
    state = phone.state()
    assert state_problems(state) == [] and state_of(state, C.CalculatorState)["result"] == "Error"
