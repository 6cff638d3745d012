"""Tests of the readable-picture templates of the World suite: what wins, and the near misses that lose (the twin
receipt's total or date, the twin copied, another folder, another category), and answers written other ways."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps.gallery_prints import printed_date
from android_gym.tasks.androidworld.expenses import add_noted
from android_gym.tasks.base import Task
from android_gym.tasks.world import pictures_tasks as P
from android_gym.tasks.world.base import nth
from android_gym.tasks.world.expenses_expert import expense
from android_gym.tasks.world.pictures_expert import read_picture, receipt_of, total_text
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
BY_NAME = {t.name: t for t in P.TEMPLATES}


def play(task: Task, policy: Policy | None = None) -> bool:
    """Whether `policy` (default: the expert) wins `task` within its budget on an unperturbed phone."""
    return run_episode(task, seed=2, policy=policy, device=SimDevice("none")).success


def misses(task: Task, policy: Policy) -> bool:
    """Whether `policy` changes the phone's apps (a near miss that does something) yet loses `task`."""
    device = SimDevice("none")
    device.reset(2, task.initial)
    start = device.state()["apps"]
    won = run_episode(task, seed=2, policy=policy, device=device).success
    return not won and device.state()["apps"] != start


def first(name: str) -> Task:
    """Template `name`'s first train task."""
    return BY_NAME[name].tasks("train")[0]


def answering(task: Task, text: str) -> Policy:
    """Open the task's receipt, then answer `text`."""
    return lambda elements, state: read_picture(task.params, elements, state) or P.answer_now(text)


def test_the_module_has_answer_and_cross_app_templates() -> None:
    """Four templates, half of them answers, one spanning Photos and Pro Expense."""
    assert len(P.TEMPLATES) == 4 and sum(t.outcome == "answer" for t in P.TEMPLATES) == 2
    assert any(len(t.apps) > 1 for t in P.TEMPLATES)


def test_the_total_wins_and_the_twins_total_loses() -> None:
    """The receipt's total wins, without its dollar sign too; the twin receipt's total loses."""
    task = first("photos_receipt_total")
    right, twin = total_text(receipt_of(task.params)), total_text(receipt_of(task.params, twin=True))
    assert right != twin
    assert play(task, answering(task, right)) and play(task, answering(task, right.lstrip("$")))
    assert not play(task, answering(task, twin))


def test_the_printed_date_wins_however_written_and_the_photo_date_loses() -> None:
    """The printed date wins as printed or in ISO form; the day it was photographed and the twin's date lose."""
    task = first("photos_receipt_date")
    bought = receipt_of(task.params).date
    assert play(task, answering(task, printed_date(bought))) and play(task, answering(task, bought))
    assert not play(task, answering(task, printed_date(task.params["date"][:10])))
    assert not play(task, answering(task, printed_date(receipt_of(task.params, twin=True).date)))


def logging(task: Task, **change: Any) -> Policy:
    """Open the receipt, then add the asked expense with `change` made to it."""
    want = {**BY_NAME["photos_receipt_to_expense"].want(task.params), **change}

    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if state["apps"][X.PACKAGE]["added"]:
            return P.wait()
        return read_picture(task.params, elements, state) or add_noted(want, elements, state)
    return policy


def test_the_receipt_logged_wins_and_near_misses_lose() -> None:
    """The expert wins, and so does the expense with a note (the goal names none); the twin's shop and total,
    another category, or a cent more lose."""  # noqa: D205, D209
    task = first("photos_receipt_to_expense")
    assert play(task) and play(task, logging(task, note="Paid by card"))
    twin = receipt_of(task.params, twin=True)
    other = nth(tuple(c for c in X.CATEGORIES if c != task.params["category"]), 1)
    assert misses(task, logging(task, name=twin.merchant, amount=twin.total_cents))
    assert misses(task, logging(task, category=other))
    assert misses(task, logging(task, amount=receipt_of(task.params).total_cents + 1))


@pytest.mark.parametrize("change", ["twin", "folder"])
def test_copying_the_twin_or_to_another_folder_loses(change: str) -> None:
    """The expert wins; copying the twin photo, or the photo into another folder, loses."""
    template = BY_NAME["photos_copy_to_folder"]
    task = first("photos_copy_to_folder")
    assert play(task)
    params = dict(task.params)
    if change == "twin":
        params["date"] = params["twin_date"]
    else:
        params["folder"] = nth(tuple(f for f in ("Download", "Documents", "Pictures") if f != params["folder"]), 0)
    assert misses(task, lambda elements, state: template.expert(params, elements, state))


def test_a_fresh_expense_row_at_reset_is_not_a_win() -> None:
    """Nothing is added at reset: the check does not hold, and answers need Photos untouched."""
    device = SimDevice("none")
    task = first("photos_receipt_to_expense")
    device.reset(0, task.initial)
    assert not task.template.check(task.params, device.state())
    assert expense("x", 1, "Food", 0)["date"] == X.iso(0)
