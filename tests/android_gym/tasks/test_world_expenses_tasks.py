"""Tests of the Pro Expense templates of the world suite: splits, goals, experts under perturbations, no task solved
at reset, answers read off the screen, and near misses (the expert of a neighbouring goal) rejected."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import markor, with_apps
from android_gym.sim.apps.expenses import ExpensesApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, find
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.expenses_expert import to_page
from android_gym.tasks.world.expenses_tasks import TEMPLATES, DeleteExpenseTemplate
from android_gym.tasks.world.notes_expert import markor_create, markor_write, press
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import sample
from android_gym.ui import UIElement

APPS = with_apps(ExpensesApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[list[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with Pro Expense, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Ten world templates with distinct names: answers, an infeasible one, two spanning another app."""
    assert len(BY_NAME) == len(TEMPLATES) == 10 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(X.PACKAGE in t.apps for t in TEMPLATES)
    assert {t.name for t in TEMPLATES if len(t.apps) > 1} == {"expenses_log_receipt", "expenses_month_total_to_note"}
    assert [t.outcome for t in TEMPLATES].count("answer") == 2 and [t.outcome for t in TEMPLATES].count(
        "infeasible") == 1
    assert sum(t.max_steps >= 21 for t in TEMPLATES) >= 4  # several need 13+ expert steps


def test_seeded_expenses_move_the_task_row():
    """The task's expense sits at different rows of the list across seeds (the seeded expenses around it vary)."""
    task = BY_NAME["expenses_delete_expense"].tasks("train")[4]
    rows = set()
    for seed in range(8):
        phone = device()
        phone.reset(seed, task.initial)
        ordered = phone.phone.apps[X.PACKAGE].ordered()
        rows.add(next(i for i, e in enumerate(ordered) if e["name"] == task.params["name"]))
    assert len(rows) > 1


@pytest.mark.parametrize("name", ["expenses_amount_answer", "expenses_category_week_answer"])
def test_answers_are_the_text_the_screen_shows(name: str):
    """The expert's answer is an element's text, equal to the truth read from the state, in the app's format."""
    for task in sample(BY_NAME[name], "train", 2) + sample(BY_NAME[name], "test", 1):
        episode = run_episode(task, seed=5, device=(phone := device()))
        action = episode.log[-1][0]
        truth = task.template.answer(task.params, phone.state())
        assert episode.success and action.action_type == ActionType.STATUS_TASK_COMPLETE
        assert action.text == truth and truth.startswith("$") and len(truth) < 32


# -- near misses -------------------------------------------------------------------------------------------------------
def _namesake(p: Params) -> dict[str, Any]:
    """The parameters naming the namesake (the same name on another day, for another amount)."""
    days = p["days"] + 2 if p["days"] < 10 else p["days"] - 3
    return {**p, "days": days, "cents": p["cents"] + 310}


def _other(category: str) -> str:
    return X.CATEGORIES[(X.CATEGORIES.index(category) + 1) % len(X.CATEGORIES)]


WRONG: dict[str, Callable[[Params], dict[str, Any]]] = {
    "expenses_add_expense": lambda p: {**p, "category": _other(p["category"])},
    "expenses_add_three": lambda p: {**p, "items": [*p["items"][:2], (*p["items"][2][:2], p["items"][2][2] + 100)]},
    "expenses_delete_expense": _namesake,
    "expenses_change_category": _namesake,
    "expenses_change_amount": _namesake,
    "expenses_amount_answer": _namesake,
    "expenses_log_receipt": lambda p: {**p, "cents": p["cents"] + 830},  # the other shop's total
}
"""Per template, the parameters of a neighbouring goal whose expert takes the wrong path."""


def _month_answer(task: Task) -> Policy:
    """Answer with the category's total for this month instead of this week."""
    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        step = to_page("stats", elements, state)
        if step is not None:
            return step
        if app_state(state, X.PACKAGE)["period"] != "month":
            return press(elements, text="This month")
        label = find(elements, rid=X.STAT_NAME_RID, text=task.params["category"])
        return answer_with(next(e for e in elements if e.rid == X.STAT_AMOUNT_RID
                                and label.bounds[1] <= e.center[1] < label.bounds[3] + 60))
    return act


def _delete_namesake(task: Task) -> Policy:
    """Delete the namesake the infeasible goal's expense is confused with, then declare the task impossible."""
    wrong = _namesake(task.params)
    expert = DeleteExpenseTemplate().expert

    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, X.PACKAGE)["removed"]:
            return Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
        return expert(wrong, elements, state)
    return act


def _week_note(task: Task) -> Policy:
    """Write this week's total (the dashboard's) into the note instead of the month's."""
    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        week = X.money(sum(X.totals(app_state(state, X.PACKAGE)["expenses"], "week").values()))
        if task.params["note"] in app_state(state, markor.PACKAGE)["files"]:
            return markor_write(task.params["note"], week, elements, state)
        return markor_create("", task.params["note"], "Markdown", elements, state)
    return act


def _policy(template: TaskTemplate, task: Task) -> Policy:
    if template.name in WRONG:
        wrong = WRONG[template.name](task.params)
        return lambda elements, state: template.expert(wrong, elements, state)
    return {"expenses_category_week_answer": _month_answer, "expenses_delete_missing": _delete_namesake,
            "expenses_month_total_to_note": _week_note}[template.name](task)


def _data(state: Mapping[str, Any]) -> tuple:
    apps = state["apps"]
    return apps[X.PACKAGE]["expenses"], apps[markor.PACKAGE]["files"]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_neighbouring_goal_does_not_solve(template: TaskTemplate):
    """The expert of a near-miss goal (the namesake, another category, the other shop's total, the month instead of
    the week) plays through but never meets the real goal; the state-changing ones do change the phone."""  # noqa: D205, D209
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        phone = device()
        phone.reset(0, task.initial)
        start = _data(phone.state())
        episode = run_episode(task, seed=0, policy=_policy(template, task), device=phone)
        assert not episode.success, task
        if template.outcome != "answer":
            assert _data(phone.state()) != start, task


def test_the_namesake_answer_is_a_real_path():
    """The near-miss policy of the amount question does answer, with the namesake's amount, and loses."""
    task = BY_NAME["expenses_amount_answer"].tasks("train")[0]
    episode = run_episode(task, seed=0, policy=_policy(task.template, task), device=device())
    last = episode.log[-1][0]
    assert not episode.success and last.action_type == ActionType.STATUS_TASK_COMPLETE
    assert last.text == X.money(_namesake(task.params)["cents"])


def test_cross_app_experts_visit_both_apps():
    """Logging a receipt opens it in Gmail first; the month's total is read on Statistics (This month) first."""
    receipt = BY_NAME["expenses_log_receipt"].tasks("test")[0]
    phone = device()
    assert run_episode(receipt, seed=2, device=phone).success
    mail = next(m for m in app_state(phone.state(), G.PACKAGE)["inbox"] if m["sender"] == receipt.params["store"])
    assert not mail["unread"]
    note = BY_NAME["expenses_month_total_to_note"].tasks("test")[0]
    phone = device()
    assert run_episode(note, seed=2, device=phone).success
    assert app_state(phone.state(), X.PACKAGE)["period"] == "month"
