"""Tests of the World templates won by a declaration: questions answered in text (`answer_tasks`) and tasks whose
right outcome is to declare them impossible (`infeasible_tasks`). Experts solve them under perturbations, every
reset is a valid start, and the checks read the state: the wrong person's number, an answer read after the agent
edited the contact, a declaration after doing the near miss, all fail."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps import gmail as G
from android_gym.tasks import suites
from android_gym.tasks.base import Task, TaskTemplate, answers_match, normalise_answer
from android_gym.tasks.world import answer_tasks as at
from android_gym.tasks.world import infeasible_tasks as it
from android_gym.tasks.world import people_expert
from android_gym.tasks.world import people_tasks as pt
from android_gym.tasks.world.messaging_expert import namesake

TEMPLATES = (*at.TEMPLATES, *it.TEMPLATES)


def answer(text: str) -> Action:
    """Declare the task complete with `text`."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


IMPOSSIBLE = Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)


def started(task: Task, seed: int = 0) -> tuple[SimDevice, Mapping[str, Any]]:
    """A phone reset to `task` and its state."""
    device = SimDevice("none")
    device.reset(seed, task.initial)
    return device, device.state()


def test_answers_match_normalises_but_never_accepts_a_longer_text() -> None:
    assert answers_match("650-555-0123", "(650) 555-0123") and answers_match("6505550123", "(650) 555-0123")
    assert answers_match(" ANA.Costa@example.com ", "ana.costa@example.com")
    assert normalise_answer("ANA.Costa@example.com") == "ana costa example com"
    assert not answers_match("anacosta@example.com", "ana.costa@example.com")
    assert answers_match("Ana  Costa.", "ana costa")
    assert not answers_match("Her number is (650) 555-0123", "(650) 555-0123")
    assert not answers_match("(650) 555-0124", "(650) 555-0123") and not answers_match("", "x")


# -- answers -------------------------------------------------------------------------------------------------------
def test_contact_answers_name_the_target_not_a_namesake() -> None:
    task = at.ContactNumberAnswerTemplate().tasks("train")[0]
    target, same_first, same_last = people_expert.cast(task.template.name, task.params["name"])
    _, state = started(task)
    assert task.check(state, answer(target["phone"]))
    assert not task.check(state, answer(same_first["phone"])) and not task.check(state, answer(same_last["phone"]))
    email = at.ContactEmailAnswerTemplate().tasks("train")[0]
    target = people_expert.cast(email.template.name, email.params["name"])[0]
    _, state = started(email)
    assert email.check(state, answer(target["email"])) and not email.check(state, answer(target["phone"]))


def test_an_answer_after_editing_what_was_asked_about_fails() -> None:
    """The truth is read from the state: once the agent changed the contact, no answer wins."""
    task = at.ContactNumberAnswerTemplate().tasks("train")[0]
    target = people_expert.cast(task.template.name, task.params["name"])[0]
    _, state = started(task)
    c = state["apps"][contacts.PACKAGE]
    edited = {**state, "apps": {**state["apps"], contacts.PACKAGE: {**c, "changed": [target["name"]]}}}
    assert task.check(state, answer(target["phone"])) and not task.check(edited, answer(target["phone"]))
    gone = {**state, "apps": {**state["apps"], contacts.PACKAGE: {**c, "contacts": [
        p for p in c["contacts"] if p["name"] != target["name"]]}}}
    assert task.reset_problem(gone) == "has no answer in the state"


def test_email_sender_is_the_subjects_sender_not_the_twin_subjects() -> None:
    task = at.EmailSenderAnswerTemplate().tasks("train")[0]
    _, state = started(task)
    assert task.check(state, answer(task.params["sender"]))
    assert not task.check(state, answer(namesake(task.params["sender"])))
    inbox = state["apps"][G.PACKAGE]["inbox"]
    twice = [*inbox, {**next(m for m in inbox if m["subject"] == task.params["subject"]), "sender": "Someone Else"}]
    assert task.reset_problem({**state, "apps": {**state["apps"], G.PACKAGE: {
        **state["apps"][G.PACKAGE], "inbox": twice}}}) is not None  # two senders: no single answer


def test_missed_caller_is_the_newest_missed_call_not_an_older_one() -> None:
    template = at.MissedCallerAnswerTemplate()
    for task in template.tasks("train")[:4]:  # contacts and unknown numbers alternate
        _, state = started(task)
        missed = [c for c in state["apps"][dialer.PACKAGE]["log"] if c["kind"] == "missed"]
        newest, older = (c["name"] or c["number"] for c in missed[:2])
        assert task.check(state, answer(newest)) and not task.check(state, answer(older)), task


# -- infeasible ----------------------------------------------------------------------------------------------------
def with_app(state: Mapping[str, Any], package: str, **changes: Any) -> dict[str, Any]:
    """`state` with app `package`'s state updated by `changes`."""
    return {**state, "apps": {**state["apps"], package: {**state["apps"][package], **changes}}}


def looking(task: Task, seed: int = 0) -> Mapping[str, Any]:
    """The state once the expert has looked and is about to declare the task impossible."""
    device, state = started(task, seed)
    for _ in range(task.max_steps):
        action = task.expert_action(device.ui_elements(), state)
        if action.action_type == ActionType.STATUS_TASK_IMPOSSIBLE:
            return state
        device.perform(action)
        device.tick()
        state = device.state()
    raise AssertionError(f"the expert of {task} never declared")


@pytest.mark.parametrize("template", [t for t in suites.templates("world") if t.outcome == "infeasible"],
                         ids=lambda t: t.name)
def test_declaring_impossible_blind_is_a_guess_and_earns_nothing(template: TaskTemplate) -> None:
    """Right after reset the task is infeasible, but the agent has not looked: declaring then does not win."""
    task = template.tasks("train")[0]
    _, state = started(task)
    assert task.reset_problem(state) is None and not task.check(state, IMPOSSIBLE)
    assert task.check(looking(task), IMPOSSIBLE)


def test_declaring_after_doing_the_near_miss_fails() -> None:
    """Calling the namesake, editing a task or a note, then declaring impossible where one looks: no success."""
    call = it.CallMissingContactTemplate().tasks("train")[0]
    state = looking(call)
    namesake_of = people_expert.cast(call.template.name, call.params["name"])[1]
    called = with_app(state, dialer.PACKAGE, calls=[{"name": namesake_of["name"], "number": namesake_of["phone"],
                                                      "ended": True, "duration_s": 3}])
    assert call.check(state, IMPOSSIBLE) and not call.check(called, IMPOSSIBLE)
    assert not call.check(with_app(state, contacts.PACKAGE, added=[namesake_of]), IMPOSSIBLE)
    assert not call.check(with_app(state, contacts.PACKAGE, query="Ana"), IMPOSSIBLE)  # searched for someone else

    done = it.CompleteMissingTaskTemplate().tasks("train")[0]
    state = looking(done)
    edited = with_app(state, "org.tasks", edits=[{"op": "complete", "list": "Work", "title": done.params["title"]}])
    assert done.check(state, IMPOSSIBLE) and not done.check(edited, IMPOSSIBLE)

    note = it.OpenMissingNoteTemplate().tasks("train")[0]
    state = looking(note)
    path = f"{note.params['folder']}/{note.params['name']}".lstrip("/")
    created = with_app(state, "net.gsantner.markor", files={**state["apps"]["net.gsantner.markor"]["files"],
                                                            path: ""})
    assert note.check(state, IMPOSSIBLE) and not note.check(created, IMPOSSIBLE)


def test_an_infeasible_task_made_feasible_is_refused_at_reset() -> None:
    task = it.CallMissingContactTemplate().tasks("train")[0]
    target = people_expert.cast(task.template.name, task.params["name"])[0]
    device = SimDevice("none")
    device.reset(0, {contacts.PACKAGE: {"contacts": {"add": [target]}}})
    assert task.reset_problem(device.state()) == "is feasible (its check says otherwise)"


def test_the_feasible_twin_is_not_won_by_declaring_impossible() -> None:
    """`call_contact` reads like `call_missing_contact`; declaring impossible there earns nothing."""
    call = pt.CallContactTemplate().tasks("train")[0]
    _, state = started(call)
    assert not call.check(state, IMPOSSIBLE)
    assert it.CallMissingContactTemplate().goal(call.params) in {
        it.CallMissingContactTemplate().goal({**call.params, "phrasing": k}) for k in range(4)}
