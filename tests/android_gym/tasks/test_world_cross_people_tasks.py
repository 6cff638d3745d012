"""Tests of the cross-app people and planning templates (`cross_people_tasks`): the expert wins each on a plain phone,
and the near misses the checks must refuse lose (the twin's detail carried over, the wrong person, a missing or an
extra item, the wrong list or time). The World contract (`test_world_contract`) runs the rest: splits, experts under
perturbations, budgets, apps, the reset guard."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calendar as C
from android_gym.tasks.base import Task
from android_gym.tasks.world.cross_people_expert import says_number
from android_gym.tasks.world.cross_people_tasks import ASKS, TEMPLATES
from android_gym.tasks.world.messaging_expert import namesake
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each episode resets it)."""
    return SimDevice("none")


def _as(change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """A near miss: the task's own expert on its parameters changed by `change`."""
    def make(task: Task) -> Policy:
        return Task(task.template, {**task.params, **change(task.params)}).expert_action
    make.__name__ = change.__name__
    return make


def _alarm_at(lead: int) -> Callable[[Params], dict[str, Any]]:
    def alarm_at(p: Params) -> dict[str, Any]:
        at = C.minutes(p["start"]) - lead
        return {"hour": at // 60, "minute": at % 60}
    return alarm_at


NEAR_MISSES: dict[str, list[Callable[[Params], dict[str, Any]]]] = {
    "cross_event_place_to_email": [lambda p: {"place": p["twin"]}, lambda p: {"to": namesake(p["to"])}],
    "cross_note_list_to_email": [lambda p: {"items": p["items"][:-1]}],
    "cross_text_number_to_contact": [lambda p: {"number": p["old"]}, lambda p: {"new": namesake(p["new"])}],
    "cross_alarm_before_first_event": [lambda p: _alarm_at(p["lead"] + 15)(p), lambda p: _alarm_at(0)(p)],
    "cross_call_birthday_contact": [lambda p: {"name": p["other"]}, lambda p: {"name": namesake(p["name"])}],
    "cross_text_missed_caller": [lambda p: {"name": p["older"]}, lambda p: {"text": f"{p['text']} soon"}],
    "cross_texted_place_to_event": [lambda p: {"date": p["other"]}, lambda p: {"place": "Room 9"}],
    "cross_email_request_to_task": [lambda p: {"list": "Inbox" if p["list"] != "Inbox" else "Work"},
                                    lambda p: {"ask": f"{p['ask']} today"}],
    "cross_unread_emails_to_todos": [lambda p: {"subjects": p["subjects"][:1]},
                                     lambda p: {"subjects": [p["read"], *p["subjects"]]},
                                     lambda p: {"folder": "Inbox"}],
    "cross_contact_number_to_note": [lambda p: {"name": namesake(p["name"])}],
    "cross_joplin_code_to_text": [lambda p: {"code": p["old"]}, lambda p: {"code": f"{p['code']}0"}],
    "cross_meeting_number_to_email": [lambda p: {"name": p["other"], "date": p["later"]},
                                      lambda p: {"name": namesake(p["name"])}],
}
"""Per template, parameter changes whose expert does the near miss: another person, time, list, item or event."""


def test_the_module_has_its_templates() -> None:
    """Twelve templates, each over two or three apps, every one listed here with its near misses."""
    assert len(TEMPLATES) == len(BY_NAME) == 12 and set(NEAR_MISSES) == set(BY_NAME)
    assert all(t.suite == "world" and t.outcome == "state" and len(t.apps) >= 2 for t in TEMPLATES)
    assert sum(len(t.apps) == 3 for t in TEMPLATES) == 2 and sum(t.tier == "hard" for t in TEMPLATES) >= 4


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_the_expert_wins_and_near_misses_lose(name: str) -> None:
    template = BY_NAME[name]
    task = template.tasks("train")[0]
    assert run_episode(task, seed=3, device=phone()).success
    checks.check_near_misses(template, phone(), [_as(change) for change in NEAR_MISSES[name]])


def test_a_request_task_is_refused_with_a_due_date_or_twice() -> None:
    """The task must be undated and alone: the expert's own task, then dated or doubled, loses."""
    template = BY_NAME["cross_email_request_to_task"]
    task = template.tasks("train")[0]
    assert run_episode(task, seed=0, device=phone()).success
    state = phone().state()
    tasks_state = state["apps"]["org.tasks"]
    mine = next(t for t in tasks_state["lists"][task.params["list"]] if t["title"] == task.params["ask"])
    for changed in ({**mine, "due": "2026-06-12"}, {**mine, "priority": "high"}):
        lists = {**tasks_state["lists"], task.params["list"]: [changed]}
        assert not template.check(task.params, {**state, "apps": {**state["apps"], "org.tasks": {
            **tasks_state, "lists": lists}}})
    doubled = {**tasks_state["lists"], task.params["list"]: [mine, mine]}
    assert not template.check(task.params, {**state, "apps": {**state["apps"], "org.tasks": {
        **tasks_state, "lists": doubled}}})
    assert task.params["ask"] in ASKS


def test_a_number_is_found_whatever_its_punctuation_but_not_beside_a_near_miss() -> None:
    assert says_number("call 7185550101", "(718) 555-0101")
    assert not says_number("718-555-0101 or 718-555-0202", "(718) 555-0101", ["(718) 555-0202"])
    assert not says_number("718-555-0110", "(718) 555-0101")


def test_the_expert_scrolls_back_up_to_an_unread_email_above_the_inbox_rows_shown() -> None:
    """Back in an inbox scrolled down (the email read last lay lower), the way to an email above the rows shown is a
    swipe back up: the expert once only scrolled down and swiped at the list's end until its budget ran out."""  # noqa: D205, D209
    from android_gym.sim.apps import gmail as G
    from android_gym.tasks.apps import swipe_down
    from android_gym.tasks.expert import swipe_up
    from android_gym.tasks.world.messaging_expert import to_email

    task = checks.sample(BY_NAME["cross_unread_emails_to_todos"], "train", 1)[0]
    device = phone()
    device.reset(0, task.initial)
    device.perform(Action(ActionType.OPEN_APP, text="Gmail"))
    top = device.state()["apps"][G.PACKAGE]["inbox"][0]
    for _ in range(4):
        device.perform(swipe_up())
    assert not any(top["subject"] in e.label for e in device.ui_elements())  # scrolled past it
    assert to_email(top["sender"], top["subject"], device.ui_elements(), device.state()) == swipe_down()
