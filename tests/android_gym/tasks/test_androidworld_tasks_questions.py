"""Tests of AndroidWorld's Tasks questions on the suite: the rows the phone starts with (the targets, 20 random rows
that meet not all of the exclusion conditions, the date said as AndroidWorld says it) and the answers compared as
AndroidWorld compares them: the titles in any order, case and a typo forgiven; a title missing, one too many, one
twice or a near-miss row's title loses; the count is a number; an edited row leaves no answer."""  # noqa: D205, D209

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import todo
from android_gym.tasks.androidworld import tasks_questions as Q
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find, tap

DUE_ON, HIGH, HIGH_ON, NEXT_WEEK, COMPLETED, INCOMPLETE = Q.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 1) -> dict[str, Any]:
    """The phone's state reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone.state()


def rows(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row of Tasks."""
    return [r for rs in state_of(state, todo.TasksState)["lists"].values() for r in rs]


def says(task: Task, state: dict[str, Any], text: str) -> bool:
    """Whether answering `text` wins."""
    return task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=text))


def days_of(iso: str) -> int:
    """Days from the sim's today to `iso`."""
    return (datetime.date.fromisoformat(iso) - todo.DATE).days


@pytest.mark.parametrize("template", Q.TEMPLATES, ids=lambda t: t.name)
def test_the_phone_holds_the_targets_and_twenty_random_rows_none_of_them_wanted(template: Q._TasksQuestion) -> None:
    for task in template.tasks("train")[:3] + template.tasks("test")[:3]:
        state = started(task)
        everything = rows(state)
        assert len(everything) == len(task.params["rows"]) and len(everything) in (21, 23, 26)
        wanted = [r for r in everything if template.wanted(task.params, r)]
        assert len(wanted) == len(everything) - Q.NOISE and all(r["title"] not in Q.NOISE_TITLES for r in wanted)
        if "due" in task.params:
            assert task.params["date"] in Q.spoken_dates(days_of(task.params["due"]))


def test_due_on_date_wins_in_any_order_with_case_and_a_typo_and_loses_otherwise() -> None:
    task = DUE_ON.tasks("test")[0]
    state = started(task)
    titles = [r["title"] for r in rows(state) if r["due"] == task.params["due"]]
    noise = next(r["title"] for r in rows(state) if r["due"] != task.params["due"])
    assert len(titles) == 3
    assert says(task, state, ", ".join(reversed(titles)))
    assert says(task, state, f"{titles[0].upper()}, {titles[1]}, {titles[2][:-1]}")  # one letter short: ratio >= 0.9
    assert not says(task, state, ", ".join(titles[:2]))  # one missing
    assert not says(task, state, ", ".join([*titles, noise]))  # one too many
    assert not says(task, state, ", ".join([titles[0], titles[0], titles[1]]))  # one twice, one missing
    assert not says(task, state, ", ".join([titles[0], titles[1], noise]))  # a row due another day


def test_high_priority_is_the_one_high_row_and_a_medium_one_loses() -> None:
    task = HIGH.tasks("train")[0]
    state = started(task)
    assert [r["title"] for r in rows(state) if r["priority"] == "high"] == [task.params["task_title"]]
    medium = next(r["title"] for r in rows(state) if r["priority"] == "medium")
    assert says(task, state, task.params["task_title"]) and not says(task, state, medium)


def test_high_priority_due_on_date_leaves_random_high_rows_on_other_days() -> None:
    for task in HIGH_ON.tasks("train")[:10]:
        state = started(task)
        (target,) = [r for r in rows(state) if r["priority"] == "high" and r["due"] == task.params["due"]]
        assert target["title"] in Q.REVIEWS and says(task, state, target["title"])
        other = next((r["title"] for r in rows(state) if r["priority"] == "high" and r is not target), None)
        assert other is None or not says(task, state, f"{target['title']}, {other}")


def test_due_next_week_counts_monday_to_sunday() -> None:
    task = NEXT_WEEK.tasks("train")[-1]  # one goal: it trains only (issue 50)
    state = started(task)
    week = [r for r in rows(state) if r["due"] and 5 <= days_of(r["due"]) <= 11]
    assert todo.DATE.weekday() == 2 and len(week) == 6  # Wednesday: next week is June 15-21
    assert says(task, state, "6") and says(task, state, "6.0")
    assert not says(task, state, "5") and not says(task, state, "7") and not says(task, state, "six")


def test_completed_for_date_wants_the_done_rows_due_that_day() -> None:
    task = COMPLETED.tasks("train")[0]
    state = started(task)
    due = [r for r in rows(state) if r["due"] == task.params["due"]]
    assert len(due) == 3 and all(r["completed"] for r in due)
    done_elsewhere = next(r["title"] for r in rows(state) if r["completed"] and r["due"] != task.params["due"])
    titles = [r["title"] for r in due]
    assert says(task, state, ", ".join(titles))
    assert not says(task, state, ", ".join([*titles[:2], done_elsewhere]))


def test_incomplete_by_date_wants_open_rows_due_by_then_not_done_or_later_ones() -> None:
    task = INCOMPLETE.tasks("test")[0]
    state = started(task)
    by = [r for r in rows(state) if r["due"] <= task.params["due"] and not r["completed"]]
    assert len(by) == 3 and len({r["priority"] for r in by}) == 3
    done = next(r["title"] for r in rows(state) if r["due"] <= task.params["due"] and r["completed"])
    later = [r["title"] for r in rows(state) if r["due"] > task.params["due"] and not r["completed"]]
    assert says(task, state, ", ".join(r["title"] for r in by))
    for near in [done, *later[:1]]:  # a row done already, an open row due later
        assert not says(task, state, ", ".join([by[0]["title"], by[1]["title"], near]))


def test_an_edited_row_leaves_no_answer() -> None:
    """Checking a row off changes what the question is about: no answer wins then."""
    task = DUE_ON.tasks("train")[0]
    phone = device()
    phone.reset(1, task.initial)
    titles = DUE_ON.answer(task.params, phone.state())
    for _ in range(10):
        box = find(phone.ui_elements(), rid=todo.CHECK_RID)
        if box is not None:
            break
        phone.perform(task.expert_action(phone.ui_elements(), phone.state()))
        phone.tick()
    phone.perform(tap(box))
    phone.tick()
    state = phone.state()
    assert state_of(state, todo.TasksState)["edits"] and DUE_ON.answer(task.params, state) is None
    assert titles is not None and not says(task, state, titles)
