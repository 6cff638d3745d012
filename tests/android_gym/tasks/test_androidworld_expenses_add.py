"""Tests of AndroidWorld's Pro Expense additions on the suite: `ExpenseAddSingle`, `ExpenseAddMultiple` (the rows in
the goal, as CSV or text blocks) and `ExpenseAddMultipleFromMarkor` (the rows marked Reimbursable in Markor's
my_expenses.txt). Played through Pro Expense: the rows added with name, amount, category and note win, whatever the
date or the name's case; a note left out, a cent off, a row short or one extra loses, as AndroidWorld's row check
has it."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import markor, with_apps
from android_gym.tasks.androidworld import expenses
from android_gym.tasks.base import Task

BY_NAME = {t.name: t for t in expenses.TEMPLATES}
SINGLE, MULTIPLE = BY_NAME["ExpenseAddSingle"], BY_NAME["ExpenseAddMultiple"]
FROM_MARKOR = BY_NAME["ExpenseAddMultipleFromMarkor"]
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Pro Expense and Markor for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(X.ExpensesApp, markor.MarkorApp))


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def listed(state: State) -> list[dict[str, Any]]:
    """Pro Expense's expenses, without ids."""
    return [{k: v for k, v in e.items() if k != "id"} for e in state_of(state, X.ExpensesState)["expenses"]]


def add(phone: SimDevice, want: Mapping[str, Any], limit: int = 40) -> None:
    """Add expense `want` through the app (the templates' `add_noted`), dated today."""
    before = len(listed(phone.state()))
    for _ in range(limit):
        if len(listed(phone.state())) > before:
            return
        phone.perform(expenses.add_noted({**want, "date": X.iso(0)}, phone.ui_elements(), phone.state()))
        phone.tick()
    raise AssertionError("the expense was not added")


def held_out(template: Any) -> Task:
    """The template's first test instance, or its last train one where its one goal keeps it out of test (issue 50)."""
    return (template.tasks("test") or template.tasks("train")[-1:])[0]


def test_the_goal_writes_the_rows_as_androidworld_does_in_both_formats() -> None:
    tasks = MULTIPLE.tasks("train")
    assert {t.params["form"] for t in tasks} == {"csv", "text_block"}
    for task in tasks[:6]:
        targets = task.params["targets"]
        lines = task.goal.split("\n")
        assert lines[0] == "Add the following expenses into the pro expense:" and len(targets) == 3
        if task.params["form"] == "csv":
            assert lines[1:] == ["name|amount_dollars|category_name|note",
                                 *(f"{t['name']}|${t['amount'] / 100}|{t['category']}|{t['note']}" for t in targets)]
        else:
            assert all(f"Expense: {t['name']}\n amount_dollars: ${t['amount'] / 100}\n category_name: "
                       f"{t['category']}\n note: {t['note']}\n" in task.goal for t in targets)


@pytest.mark.parametrize("template", [SINGLE, MULTIPLE, FROM_MARKOR], ids=lambda t: t.name)
def test_pro_expense_holds_the_noise_alone_names_apart_from_the_targets(template) -> None:
    task = held_out(template)
    shown = listed(started(task).state())
    assert sorted(map(repr, shown)) == sorted(map(repr, task.params["noise"]))
    assert len(shown) == template.noise and not {e["name"] for e in shown} & {t["name"] for t in
                                                                             task.params["targets"]}


@pytest.mark.parametrize("template", [SINGLE, MULTIPLE], ids=lambda t: t.name)
@pytest.mark.parametrize("end", [0, -1], ids=["first", "last"])
def test_the_rows_added_win_in_any_case_and_one_more_loses(template, end) -> None:
    task = (template.tasks("train") + template.tasks("test"))[end]
    phone = started(task)
    first, *rest = task.params["targets"]
    add(phone, {**first, "name": first["name"].upper()})  # the name's case aside, as AndroidWorld's fuzzy match
    for target in rest:
        assert not task.check(phone.state())  # a row short
        add(phone, target)
    assert task.check(phone.state())
    add(phone, task.params["noise"][0])
    assert not task.check(phone.state())


@pytest.mark.parametrize("change", ["note", "amount", "category"])
def test_a_row_with_its_note_left_out_a_cent_off_or_another_category_loses(change: str) -> None:
    task = SINGLE.tasks("train")[0]
    (target,) = task.params["targets"]
    other = next(c for c in X.CATEGORIES if c != target["category"])
    wrong = {**target, **{"note": {"note": ""}, "amount": {"amount": target["amount"] + 1},
                          "category": {"category": other}}[change]}
    phone = started(task)
    add(phone, wrong)
    assert not task.check(phone.state())


def test_markors_file_holds_the_rows_two_marked_reimbursable() -> None:
    task = FROM_MARKOR.tasks("train")[0]
    text = state_of(started(task).state(), markor.MarkorState)["files"]["my_expenses.txt"]
    lines = text.split("\n")
    assert lines[0] == "name|amount_dollars|category_name|note" and len(lines) == 103
    marked = [line for line in lines if line.endswith(". Reimbursable.")]
    assert sorted(marked) == sorted(f"{t['name']}|${t['amount'] / 100}|{t['category']}|{t['note']}. Reimbursable."
                                    for t in task.params["targets"])
    assert task.goal == ("Go through the transactions in my_expenses.txt in Markor. Log the reimbursable "
                         "transactions in the pro expense.")


@pytest.mark.parametrize("marked", [False, True], ids=["as drawn", "with the mark"])
def test_the_reimbursable_rows_logged_win_with_their_notes_as_drawn(marked: bool) -> None:
    """AndroidWorld's reference rows carry the notes without ". Reimbursable." (its fuzzy match fails with it)."""
    task = held_out(FROM_MARKOR)
    phone = started(task)
    for t in task.params["targets"]:
        add(phone, {**t, "note": t["note"] + (". Reimbursable." if marked else "")})
    assert task.check(phone.state()) is not marked


def test_a_noise_row_logged_instead_of_a_reimbursable_one_loses() -> None:
    task = FROM_MARKOR.tasks("train")[1]
    phone = started(task)
    add(phone, task.params["targets"][0])
    add(phone, task.params["noise"][0])
    assert not task.check(phone.state())
