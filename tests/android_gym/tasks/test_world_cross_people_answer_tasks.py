"""Tests of the cross-app questions (`cross_people_answer_tasks`): the truth read from the state at reset, the ways a
person writes it that are accepted, the near misses (a namesake's detail, the twin event's time, a count one off)
refused, no answer once the agent changed what was asked about, and the expert's declaration winning. The World
contract (`test_world_contract`) runs the rest."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import contacts as P
from android_gym.sim.apps import markor
from android_gym.tasks.base import Task
from android_gym.tasks.world.cross_people_answer_tasks import TEMPLATES
from android_gym.tasks.world.cross_people_expert import count_matches, time_matches
from android_gym.tasks.world.messaging_expert import namesake, person
from android_gym.testing.rollout import run_episode

BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each episode resets it)."""
    return SimDevice("none")


def _email(p: Params) -> tuple[list[str], list[str]]:
    truth = person(p["name"])["email"]
    return [truth, truth.upper(), f"{truth}."], [person(namesake(p["name"]))["email"], person(p["other"])["email"]]


def _number(p: Params) -> tuple[list[str], list[str]]:
    truth = person(p["name"])["number"]
    return [truth, P.digits(truth), truth.replace("(", "").replace(") ", "-")], [person(namesake(p["name"]))["number"]]


def _missed(p: Params) -> tuple[list[str], list[str]]:
    truth = person(p["name"])["email"]
    return [truth], [person(p["older"])["email"], person(namesake(p["name"]))["email"]]


def _count(p: Params) -> tuple[list[str], list[str]]:
    n = p["count"]
    return [str(n), f"{n} emails", ("one", "two", "three", "four")[n - 1]], [str(n + 1), str(n + 2), "0"]


def _time(p: Params) -> tuple[list[str], list[str]]:
    h, m = (int(x) for x in p["start"].split(":"))
    return [C.clock(p["start"]), f"{h:02d}:{m:02d}", C.clock(p["start"]).lower().replace(" ", "")], [
        C.clock(p["twin"]), f"{(h + 12) % 24:02d}:{m:02d}" if h < 12 else f"{h - 12}:{m:02d} AM"]


def _edit_contacts(state: dict[str, Any]) -> dict[str, Any]:
    c = state["apps"][P.PACKAGE]
    return {**state, "apps": {**state["apps"], P.PACKAGE: {**c, "changed": [c["contacts"][0]["name"]]}}}


def _edit_calendar(state: dict[str, Any]) -> dict[str, Any]:
    c = state["apps"][C.PACKAGE]
    return {**state, "apps": {**state["apps"], C.PACKAGE: {**c, "edited": [c["events"][0]["id"]]}}}


def _edit_note(state: dict[str, Any]) -> dict[str, Any]:
    m = state["apps"][markor.PACKAGE]
    edit = {"op": "edit", "path": "Household.md", "to": "Household.md"}
    return {**state, "apps": {**state["apps"], markor.PACKAGE: {**m, "edits": [edit]}}}


def _new_text(state: dict[str, Any]) -> dict[str, Any]:
    m = state["apps"]["com.google.android.apps.messaging"]
    threads = [{**m["threads"][-1], "number": "(999) 555-0000"}, *m["threads"]]
    return {**state, "apps": {**state["apps"], "com.google.android.apps.messaging": {**m, "threads": threads}}}


CASES: dict[str, tuple[Callable[[Params], tuple[list[str], list[str]]], Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "cross_meeting_email_answer": (_email, _edit_calendar),
    "cross_sender_phone_answer": (_number, _edit_contacts),
    "cross_note_role_number_answer": (_number, _edit_note),
    "cross_missed_caller_email_answer": (_missed, _edit_contacts),
    "cross_texter_email_count_answer": (_count, _new_text),
    "cross_emailed_event_time_answer": (_time, _edit_calendar),
}
"""Per template: the accepted and the refused answers of an instance, and a change that leaves no answer."""


def test_the_module_has_its_questions() -> None:
    """Six answer templates over two apps each, all tested here."""
    assert len(TEMPLATES) == len(BY_NAME) == 6 and set(CASES) == set(BY_NAME)
    assert all(t.outcome == "answer" and len(t.apps) == 2 for t in TEMPLATES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_answers_are_read_from_the_state_and_near_misses_refused(name: str) -> None:
    template = BY_NAME[name]
    says, change = CASES[name]
    for split in ("train", "test"):  # a template whose few goals all train (issue 50): its last train task
        task = (template.tasks(split) or template.tasks("train")[-1:])[0]
        phone().reset(5, task.initial)
        state = phone().state()
        truth = template.answer(task.params, state)
        good, bad = says(task.params)
        assert truth is not None
        assert all(task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=g)) for g in good), (truth, good)
        assert not any(task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=b)) for b in bad), (truth, bad)
        assert template.answer(task.params, change(state)) is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_expert_answers_after_reading_both_apps(name: str) -> None:
    template = BY_NAME[name]
    task: Task = (template.tasks("test") or template.tasks("train")[-1:])[0]  # few goals: all train (issue 50)
    episode = run_episode(task, seed=2, device=phone())
    assert episode.success and episode.log[-1][0].action_type == ActionType.STATUS_TASK_COMPLETE


def test_counts_and_times_are_compared_as_people_write_them() -> None:
    assert count_matches("Three emails", "3") and not count_matches("13", "3")
    assert time_matches("9 am", "09:00") and time_matches("9:00 a.m.", "09:00") and not time_matches("9 pm", "09:00")
    assert not time_matches("13:00 PM", "13:00")
