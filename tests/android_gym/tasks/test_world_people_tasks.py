"""Tests of the Contacts and Phone templates of the world suite: splits, goals, experts under perturbations, no task
solved at reset, and near misses (the wrong person, a wrong digit, the wrong call, an extra edit) rejected."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import contacts, dialer, with_apps
from android_gym.sim.apps.contacts import ContactsApp
from android_gym.sim.apps.dialer import DialerApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import find, obstacle, tap
from android_gym.tasks.world import people_expert, phone_tasks
from android_gym.tasks.world import people_tasks as pt
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(ContactsApp, DialerApp)
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with both apps at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def first(template: TaskTemplate, **params: Any) -> Task:
    """The first train task whose parameters include `params`."""
    return next(t for t in template.tasks("train") if params.items() <= t.params.items())


def detour(task: Task, wrong: Callable[[Sequence[UIElement], Mapping[str, Any]], Action | None]) -> Policy:
    """The expert, except where `wrong` takes another path (returns an action)."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        return obstacle(elements, state) or wrong(elements, state) or task.expert_action(elements, state)
    return act


def as_expert_for(task: Task, template: TaskTemplate, params: Mapping[str, Any]) -> Policy:
    """The template's expert for other parameters (e.g. the near miss's name), played on `task`."""
    return lambda elements, state: template.expert(params, elements, state)


def test_tasks_put_the_named_people_on_the_phone() -> None:
    """A task's target and its near misses are in Contacts whatever the seed; a task that adds the target does not."""
    call = first(pt.CallContactTemplate())
    add = first(pt.AddContactTemplate())
    d = device()
    for seed in (0, 1):
        d.reset(seed, call.initial)
        names = [c["name"] for c in d.state()["apps"][contacts.PACKAGE]["contacts"]]
        cast = [p["name"] for p in people_expert.cast("call_contact", call.params["name"])]
        assert set(cast) <= set(names) and cast[0].split()[0] == cast[1].split()[0]
        d.reset(seed, add.initial)
        assert add.params["name"] not in [c["name"] for c in d.state()["apps"][contacts.PACKAGE]["contacts"]]


# -- near misses -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("template", [pt.CallContactTemplate(), pt.ContactInfoTemplate(),
                                      pt.FavouriteContactTemplate(), pt.DeleteContactTemplate(),
                                      pt.EditNumberTemplate(), pt.AddEmailTemplate()], ids=lambda t: t.name)
def test_doing_it_to_the_same_first_name_does_not_solve(template: pt.PersonTemplate) -> None:
    """The expert's path played for the contact with the same first name (also on the phone) fails the task."""
    task = template.tasks("train")[3]
    near = template.people(task.params)[1]["name"]
    d = device()
    episode = run_episode(task, seed=2, policy=as_expert_for(task, template, {**task.params, "name": near}),
                          device=d)
    state = d.state()["apps"]
    touched = (state[contacts.PACKAGE]["shown"] == near or near in state[contacts.PACKAGE]["changed"]
               or near in state[contacts.PACKAGE]["removed"] or state[dialer.PACKAGE]["calls"])
    assert not episode.success and touched


@pytest.mark.parametrize("template", [pt.FavouriteContactTemplate(), pt.DeleteContactTemplate()],
                         ids=lambda t: t.name)
def test_an_extra_edit_after_the_right_one_undoes_success(template: pt.PersonTemplate) -> None:
    """Starring (deleting) the near miss as well as the target is not the task."""
    task = template.tasks("test")[0]
    near = template.people(task.params)[1]["name"]
    d = device()
    assert run_episode(task, seed=1, device=d).success
    for _ in range(12):
        d.perform(template.expert({**task.params, "name": near}, d.ui_elements(), d.state()))
        d.tick()
    assert not task.check(d.state())


def test_calling_the_target_after_someone_else_does_not_solve() -> None:
    """A wrong call first, then the right one: every call must go to the target."""
    template = pt.CallContactTemplate()
    task = template.tasks("train")[0]
    near = template.people(task.params)[1]["name"]
    d = device()
    assert not run_episode(task, seed=0, policy=as_expert_for(task, template, {"name": near}), device=d).success
    for _ in range(12):
        d.perform(task.expert_action(d.ui_elements(), d.state()))
        d.tick()
    calls = d.state()["apps"][dialer.PACKAGE]["calls"]
    assert len({c["number"] for c in calls}) == 2 and not task.check(d.state())


def test_a_wrong_digit_does_not_solve_dial_number() -> None:
    """Dialling the number with its last digit changed fails."""
    template = phone_tasks.DialNumberTemplate()
    task = template.tasks("test")[0]
    number = task.params["number"]
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    episode = run_episode(task, seed=0, policy=as_expert_for(task, template, {"number": wrong}), device=device())
    assert not episode.success


@pytest.mark.parametrize("mistake", ["number", "email", "missing_email"])
def test_add_contact_needs_every_detail(mistake: str) -> None:
    """A digit off, an e-mail not asked for, or the asked e-mail left out: not the contact asked for."""
    template = pt.AddContactTemplate()
    with_email = mistake == "missing_email"
    task = next(t for t in template.tasks("train") if template.with_email[t.params["phrasing"]] == with_email)
    target = template.people(task.params)[0]
    first_name, last_name = target["name"].split()
    want = {contacts.FIRST_RID: first_name, contacts.LAST_RID: last_name, contacts.PHONE_RID: target["phone"],
            contacts.EMAIL_RID: target["email"] if with_email else ""}
    if mistake == "number":
        want[contacts.PHONE_RID] = target["phone"][:-1] + str((int(target["phone"][-1]) + 1) % 10)
    else:
        want[contacts.EMAIL_RID] = "" if with_email else target["email"]

    def wrong(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action | None:
        screen = state["screen"]
        if screen["name"] == "editor" and state["foreground"] == contacts.PACKAGE:
            return people_expert.edit_fields(elements, state, want)
        return None

    d = device()
    assert not run_episode(task, seed=0, policy=detour(task, wrong), device=d).success
    assert len(d.state()["apps"][contacts.PACKAGE]["added"]) == 1


@pytest.mark.parametrize("row", ["newest", "older_missed"])
def test_calling_back_the_wrong_row_does_not_solve(row: str) -> None:
    """Calling the newest row when it is not a missed call, or an older missed call, fails."""
    template = phone_tasks.CallBackMissedTemplate()
    task = next(t for t in template.tasks("train") if template._calls(t.params)[1][0]["kind"] != "missed")

    def wrong(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action | None:
        if state["foreground"] != dialer.PACKAGE or state["screen"]["name"] != "recents":
            return None
        rows = [e for e in elements if e.rid == dialer.ROW_RID]
        if row == "newest":
            pick = rows[0]
        else:
            pick = [e for e in rows if e.desc.startswith("Missed call,")][1]
        button = find(elements, rid=dialer.CALL_BUTTON_RID, desc=f"Call {pick.desc.split(', ')[1]}")
        return tap(button)

    d = device()
    assert not run_episode(task, seed=0, policy=detour(task, wrong), device=d).success
    assert d.state()["apps"][dialer.PACKAGE]["calls"]


def test_saving_the_newest_caller_instead_of_the_missed_one_does_not_solve() -> None:
    """Creating the contact from the newest (answered) call's number fails; the right row succeeds."""
    template = pt.SaveMissedCallerTemplate()
    task = template.tasks("train")[0]
    newer = template.people(task.params)[1]["phone"]

    def wrong(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action | None:
        screen = state["screen"]
        if state["foreground"] == dialer.PACKAGE and screen["name"] == "recents":
            return tap(next(e for e in elements if e.rid == dialer.ROW_RID))
        if state["foreground"] == dialer.PACKAGE and screen["name"] == "call_details":
            create = find(elements, text="Create new contact")
            return tap(create) if create is not None else None
        return None

    d = device()
    assert not run_episode(task, seed=0, policy=detour(task, wrong), device=d).success
    added = d.state()["apps"][contacts.PACKAGE]["added"]
    assert [a["phone"] for a in added] == [newer]
    assert run_episode(task, seed=0, device=device()).success


def test_looking_up_needs_the_card_in_front() -> None:
    """The card with a menu over it, or Contacts behind another app, does not answer a look-up."""
    template = pt.ContactInfoTemplate()
    task = template.tasks("train")[0]
    d = device()
    assert run_episode(task, seed=0, device=d).success
    d.perform(tap(find(d.ui_elements(), desc="More options")))
    assert not task.check(d.state())
    d.perform(Action.key(ActionType.PRESS_BACK))
    assert task.check(d.state())
    d.perform(tap(find(d.ui_elements(), text="Call")))
    assert not task.check(d.state())
