"""Tests of AndroidWorld's `ExpenseDeleteSingle` on the suite: the goal, the draws (AndroidWorld's amounts, its 15
days rebased onto the sim's calendar, a category's names, a note) and the phone's start (that one expense alone), and
the check played through Pro Expense: deleting the expense wins, note and all; editing it instead, adding one besides
or typing it in again after the deletion loses, as AndroidWorld's row check has it."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import with_apps
from android_gym.tasks.androidworld import expenses
from android_gym.tasks.base import Task
from android_gym.tasks.world.expenses_expert import add_step, edit_step, plain
from android_gym.tasks.world.expenses_tasks import DeleteExpenseTemplate
from android_gym.testing.rollout import drive
from android_gym.ui import UIElement

TEMPLATE = next(t for t in expenses.TEMPLATES if t.name == "ExpenseDeleteSingle")  # the others: *_delete, *_add
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Pro Expense for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(X.ExpensesApp))


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def listed(state: State) -> list[dict[str, Any]]:
    """Pro Expense's expenses, without ids."""
    return [{k: v for k, v in e.items() if k != "id"} for e in state_of(state, X.ExpensesState)["expenses"]]


def delete(phone: SimDevice, task: Task) -> None:
    """Delete the task's expense through the app (the World template's expert)."""
    params = TEMPLATE.world_params(task.params)
    drive(phone, lambda e, s: DeleteExpenseTemplate().expert(params, e, s), lambda s: not listed(s))


@pytest.mark.parametrize("split", ["train", "test"])
def test_the_goal_names_the_expense_and_pro_expense_holds_it_alone(split) -> None:
    task = TEMPLATE.tasks(split)[0]
    target = task.params["expense"]
    assert task.goal == f"Delete the following expenses from pro expense: {target['name']}."
    assert listed(started(task).state()) == [target]


def test_expenses_are_drawn_as_androidworld_draws_them_on_the_sims_dates() -> None:
    """$10-$500 in cents, a name of the drawn category, a note, a day of the 15 up to today (May 27 - June 10)."""
    drawn = [p["expense"] for split in ("train", "test") for p in TEMPLATE.values(split)]
    assert all(1000 <= e["amount"] <= 50000 and e["name"] in expenses.NAMES[e["category"]] for e in drawn)
    assert {e["date"] for e in drawn} == {X.iso(-d) for d in range(15)}
    assert {e["category"] for e in drawn} == set(X.CATEGORIES) and {e["note"] for e in drawn} == set(expenses.NOTES)


@pytest.mark.parametrize("split", ["train", "test"])
def test_deleting_the_expense_wins_note_and_all(split) -> None:
    """The expense carries a note the goal never mentions; deleting it is all the goal asks."""
    task = TEMPLATE.tasks(split)[0]
    phone = started(task)
    assert task.params["expense"]["note"]
    delete(phone, task)
    assert task.check(phone.state())


def test_editing_the_expense_instead_loses() -> None:
    task = TEMPLATE.tasks("train")[0]
    target = task.params["expense"]
    phone = started(task)
    cheaper = {**target, "amount": target["amount"] - 500}
    drive(phone, lambda e, s: edit_step(target["name"], target["date"], cheaper, e, s),
          lambda s: listed(s) == [cheaper])
    assert not task.check(phone.state())


@pytest.mark.parametrize("again", [False, True], ids=["another", "the same again"])
def test_an_expense_added_after_the_deletion_loses(again: bool) -> None:
    """Another expense added, or the deleted one typed in again (a new row to AndroidWorld, its id being new; the
    form's expert types no note)."""  # noqa: D205, D209
    task = TEMPLATE.tasks("train")[0]
    target = task.params["expense"]
    phone = started(task)
    delete(phone, task)
    new = {**target, "note": ""} if again else {**target, "name": "Stamps", "category": "Other", "note": ""}
    drive(phone, lambda e, s: add_step(new, e, s), lambda s: bool(listed(s)))
    assert [plain(e) for e in listed(phone.state())] == [plain(new)]
    assert not task.check(phone.state())
