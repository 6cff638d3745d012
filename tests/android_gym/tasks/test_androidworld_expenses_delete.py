"""Tests of AndroidWorld's Pro Expense deletions beyond the single one on the suite: `ExpenseDeleteMultiple(2)`
(three named expenses, alone or among 50 others) and `ExpenseDeleteDuplicates(2)` (one expense twice, among 5 others,
or among 37 others and 3 dearer variants of it). Played through Pro Expense: deleting exactly the named three wins,
two of them or a fourth loses; deleting one copy wins (either), both copies or a variant loses."""  # noqa: D205, D209

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
from android_gym.tasks.world.expenses_expert import plain
from android_gym.ui import UIElement

BY_NAME = {t.name: t for t in expenses.TEMPLATES}
MULTIPLE, MULTIPLE2 = BY_NAME["ExpenseDeleteMultiple"], BY_NAME["ExpenseDeleteMultiple2"]
DUPLICATES, DUPLICATES2 = BY_NAME["ExpenseDeleteDuplicates"], BY_NAME["ExpenseDeleteDuplicates2"]
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


def delete(phone: SimDevice, target: Mapping[str, Any], limit: int = 60) -> None:
    """Delete one expense that reads `target` exactly, through the app (the templates' `delete_step`)."""
    before = len(listed(phone.state()))
    for _ in range(limit):
        if len(listed(phone.state())) < before:
            return
        phone.perform(expenses.delete_step(dict(target), phone.ui_elements(), phone.state()))
        phone.tick()
    raise AssertionError("the expense was not deleted")


def held_out(template: Any) -> Task:
    """The template's first test instance, or its last train one where its one goal keeps it out of test (issue 50)."""
    return (template.tasks("test") or template.tasks("train")[-1:])[0]


@pytest.mark.parametrize("template, noise", [(MULTIPLE, 0), (MULTIPLE2, 50)], ids=lambda x: getattr(x, "name", x))
def test_the_goal_names_three_expenses_and_the_phone_holds_them_with_the_noise(template, noise) -> None:
    task = template.tasks("test")[0]
    targets = task.params["targets"]
    names = ", ".join(t["name"] for t in targets)
    assert task.goal == f"Delete the following expenses from pro expense: {names}."
    shown = listed(started(task).state())
    assert len(shown) == 3 + noise and len({e["name"] for e in shown}) == 3 + noise
    assert all(t in shown for t in targets)


@pytest.mark.parametrize("template", [MULTIPLE, MULTIPLE2], ids=lambda t: t.name)
def test_deleting_the_three_wins_two_of_them_lose_and_a_fourth_loses(template) -> None:
    task = template.tasks("train")[1]
    phone = started(task)
    targets = task.params["targets"]
    for target in targets[:2]:
        delete(phone, target)
    assert not task.check(phone.state())  # two of three
    delete(phone, targets[2])
    assert task.check(phone.state())
    other = next(e for e in listed(phone.state()) if plain(e) not in map(plain, targets)) if template.noise else None
    if other is not None:
        delete(phone, other)
        assert not task.check(phone.state())  # one more than the goal names


def test_a_target_and_a_noise_expense_instead_of_the_third_lose() -> None:
    task = MULTIPLE2.tasks("test")[0]
    phone = started(task)
    for target in [*task.params["targets"][:2], task.params["noise"][0]]:
        delete(phone, target)
    assert not task.check(phone.state())


@pytest.mark.parametrize("template", [DUPLICATES, DUPLICATES2], ids=lambda t: t.name)
def test_the_duplicate_is_there_twice_exactly_and_the_goal_says_no_names(template) -> None:
    task = template.tasks("train")[0]
    target = task.params["targets"][0]
    shown = listed(started(task).state())
    assert shown.count(target) == 2 and len(shown) == (7 if template is DUPLICATES else 42)
    assert "{" not in template.goal_template and task.goal.startswith("Delete all but one of any expenses in pro")
    others = [e for e in shown if e != target]
    assert all(others.count(e) == 1 for e in others)  # no other exact duplicate


@pytest.mark.parametrize("template", [DUPLICATES, DUPLICATES2], ids=lambda t: t.name)
@pytest.mark.parametrize("end", [0, -1], ids=["first", "last"])
def test_one_copy_deleted_wins_both_copies_lose(template, end) -> None:
    task = (template.tasks("train") + template.tasks("test"))[end]
    phone = started(task)
    target = task.params["targets"][0]
    delete(phone, target)
    assert task.check(phone.state())
    delete(phone, target)
    assert not task.check(phone.state())


def test_either_copy_may_go() -> None:
    """The two copies differ only in id; removing the one set up second wins as the first does."""
    task = DUPLICATES.tasks("train")[0]
    state = started(task).state()
    app = state["apps"][X.PACKAGE]
    copies = [e for e in app["expenses"] if plain(e) == plain(task.params["targets"][0])]
    assert len(copies) == 2
    for gone in copies:
        kept = [e for e in app["expenses"] if e is not gone]
        assert task.check({**state, "apps": {**state["apps"], X.PACKAGE: {**app, "expenses": kept, "removed": [gone]}}})


def test_the_variants_are_dearer_copies_and_deleting_one_instead_loses() -> None:
    """ExpenseDeleteDuplicates2's 3 variants: the duplicate's name, category and note, $0.50-$9.99 dearer."""
    def namesakes(task: Task) -> list[dict[str, Any]]:
        return [e for e in task.params["noise"] if e["name"] == task.params["targets"][0]["name"]]

    # an instance whose noise holds no namesake besides the variants (it trains only since issue 50: one goal)
    task = next(t for t in DUPLICATES2.tasks("train") if len(namesakes(t)) == 3)
    target, variants = task.params["targets"][0], namesakes(task)
    assert all(50 <= v["amount"] - target["amount"] < 1000 for v in variants)
    phone = started(task)
    delete(phone, variants[0])
    assert not task.check(phone.state())
    delete(phone, target)
    assert not task.check(phone.state())  # a copy too, but the variant is gone as well
