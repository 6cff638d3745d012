"""Tests of the Google Calendar templates of the world suite: the template contract (splits, goals, experts under
perturbations, budgets, apps, reset guard), near misses (the twin a week later, a wrong day, time, place or name)
rejected, answers read from the state, an impossible deletion that counts only once the agent looked, and the
expert's scrolling towards a row either way."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.calendar import CalendarApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, find, tap
from android_gym.tasks.world import calendar_tasks as T
from android_gym.tasks.world.calendar_tasks import TEMPLATES
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(CalendarApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


@cache
def device(level: str = "none") -> SimDevice:
    """One phone with Calendar per perturbation level (each episode resets it)."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Ten world templates: an answer, an infeasible one, two spanning another app, four of 10+ expert steps."""
    assert len(BY_NAME) == len(TEMPLATES) == 10 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(C.PACKAGE in t.apps for t in TEMPLATES) and sum(len(t.apps) > 1 for t in TEMPLATES) == 2
    outcomes = [t.outcome for t in TEMPLATES]
    assert outcomes.count("answer") == 1 and outcomes.count("infeasible") == 1
    assert sum(t.max_steps >= 18 for t in TEMPLATES) >= 4


def _as(name: str, change: Callable[[Params], Params]) -> Callable[[Task], Policy]:
    """A policy: template `name`'s expert on the task's parameters as `change` alters them."""
    def make(task: Task) -> Policy:
        params = change(dict(task.params))
        return lambda elements, state: BY_NAME[name].expert(params, elements, state)
    make.__name__ = f"{name}_altered"
    return make


def _day_after(date: str) -> str:
    return T.iso((T.datetime.date.fromisoformat(date) - C.DATE).days + 1)


def _twin_then_declare(task: Task) -> Policy:
    """Delete the twin (the same title on another day), then declare the task impossible."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if T.the(state, task.params["title"], task.params["other"]) is not None:
            return BY_NAME["calendar_delete_event"].expert({**task.params, "date": task.params["other"]}, elements,
                                                           state)
        return impossible()
    return act


TWIN = {"date": "other"}
WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "calendar_create_event": [_as("calendar_create_event", lambda p: {**p, "date": p["other"]}),
                              _as("calendar_create_event", lambda p: {**p, "length": p["length"] + 30})],
    "calendar_create_with_place": [_as("calendar_create_with_place", lambda p: {**p, "note": ""}),
                                   _as("calendar_create_with_place", lambda p: {**p, "place": "Room 5"})],
    "calendar_move_event": [_as("calendar_move_event", lambda p: {**p, "date": p["other"]}),
                            _as("calendar_move_event", lambda p: {**p, "new_date": _day_after(p["new_date"])})],
    "calendar_change_start": [_as("calendar_change_start", lambda p: {**p, "date": p["other"]}),
                              _as("calendar_change_start", lambda p: {**p, "new_start": T.later(p["new_start"], 15)})],
    "calendar_rename_event": [_as("calendar_rename_event", lambda p: {**p, "date": p["other"]}),
                              _as("calendar_rename_event", lambda p: {**p, "new": p["new"] + "s"})],
    "calendar_delete_event": [_as("calendar_delete_event", lambda p: {**p, "date": p["other"]})],
    "calendar_event_when": [_as("calendar_event_when", lambda p: {**p, "title": p["near"], "date": p["other"]})],
    "calendar_delete_missing": [_twin_then_declare],
    "calendar_event_from_email": [_as("calendar_event_from_email", lambda p: {**p, "date": p["other"]})],
    "calendar_text_event_time": [_as("calendar_text_event_time", lambda p: {
        **p, "start": T.TextEventTimeTemplate().twin(p)["start"]})],
}
"""Per template, policies that take a neighbouring path: the twin, a wrong day, time, length, place, note or name."""


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_near_miss_does_not_solve(template: TaskTemplate):
    """Each wrong path changes the phone (it creates, edits, deletes or texts) but never wins."""
    checks.check_near_misses(template, device(), WRONG[template.name])


def drive(phone: SimDevice, policy: Policy, steps: int) -> list[Action]:
    """Play `policy` on `phone` as it is (no reset) until Calendar records a change or `steps` run out."""
    done = []
    for _ in range(steps):
        state = phone.state()
        c = app_state(state, C.PACKAGE)
        if c["edited"] or c["deleted"] or c["added"]:
            break
        done.append(policy(phone.ui_elements(), state))
        phone.perform(done[-1])
    return done


def _first(name: str, **match: Any) -> Task:
    return next(t for t in BY_NAME[name].tasks("train") if all(t.params[k] == v for k, v in match.items()))


@pytest.mark.parametrize("kind", ["time", "day"])
def test_the_answer_is_what_the_event_page_shows_and_goes_with_a_change(kind: str):
    """The truth is the start ("2:30 PM") or the day ("Friday, June 12") of the event; none once it was edited."""
    task = _first("calendar_event_when", kind=kind)
    phone = device()
    episode = run_episode(task, seed=3, device=phone)
    declared = episode.log[-1][0]
    assert episode.success and declared.action_type == ActionType.STATUS_TASK_COMPLETE
    p = task.params
    assert declared.text == (C.clock(p["start"]) if kind == "time" else C.long_date(p["date"]))
    assert not task.check(phone.state(), Action(ActionType.STATUS_TASK_COMPLETE, text="9:00 AM"))
    phone.reset(3, task.initial)
    drive(phone, _as("calendar_move_event", lambda q: {**q, "new_date": q["other"]})(task), 20)
    assert app_state(phone.state(), C.PACKAGE)["edited"] and task.template.answer(p, phone.state()) is None


def test_declaring_the_deletion_impossible_counts_only_after_looking():
    """Right at reset a declaration loses (nothing looked at); after opening the twin's page it wins."""
    task = BY_NAME["calendar_delete_missing"].tasks("train")[0]
    phone = device()
    phone.reset(0, task.initial)
    phone.phone.launch("Calendar")
    assert not task.check(phone.state(), impossible())
    episode = run_episode(task, seed=0, device=phone)
    assert episode.success and app_state(phone.state(), C.PACKAGE)["opened"]


def test_the_expert_scrolls_up_and_down_to_the_row():
    """With a long schedule the expert swipes up to a late event, and down again when scrolled past one."""
    task = _first("calendar_delete_event")
    fillers = [T.spec(f"Filler {k}", T.iso(1 + k % 9), "07:00") for k in range(14)]
    initial = {C.PACKAGE: {**task.initial[C.PACKAGE], "events": task.initial[C.PACKAGE]["events"] + fillers}}
    late = Task(task.template, {**task.params, "date": T.iso(40), "other": T.iso(47)})
    initial[C.PACKAGE]["events"][:2] = [late.template.target(late.params), late.template.twin(late.params)]
    phone = device()
    phone.reset(1, initial)
    phone.phone.launch("Calendar")
    done = drive(phone, late.expert_action, 30)
    assert late.template.check(late.params, phone.state()) and any(a.touch != a.lift for a in done)
    phone.reset(1, initial)  # now the early filler, with the list scrolled to its end
    phone.phone.launch("Calendar")
    for _ in range(4):
        phone.phone.swipe(540, 1900, 540, 600)
    early = T.the(phone.state(), "Filler 0", T.iso(1))
    step = T.to_event(early, phone.ui_elements(), phone.state())
    assert find(phone.ui_elements(), text=C.row_text(early)) is None and step.touch[1] < step.lift[1]  # down


def test_the_create_expert_closes_a_repeat_menu_opened_over_its_editor() -> None:
    """A slip that opens the editor's Repeat menu (as the warm start's noisy play does) is closed and the event made:
    the expert once read the menu's screen as the editor's and raised KeyError."""  # noqa: D205, D209
    task = checks.sample(BY_NAME["calendar_create_event"], "train", 1)[0]
    slipped = []

    def slipping(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if not slipped and state["screen"]["name"] == "edit" and find(elements, rid=C.REPEAT_RID) is not None:
            slipped.append(True)
            return tap(find(elements, rid=C.REPEAT_RID))
        return task.expert_action(elements, state)

    episode = run_episode(task, seed=3, policy=slipping, device=SimDevice("none"))
    assert slipped and episode.success


@pytest.mark.parametrize(("name", "stray"), [("calendar_move_event", C.START_TIME_RID),
                                             ("calendar_move_event", C.END_TIME_RID),
                                             ("calendar_change_start", C.START_DATE_RID)])
def test_the_editor_expert_closes_a_picker_of_a_field_it_leaves_alone(name: str, stray: str) -> None:
    """A stray tap (a warm start's noisy step) opens another field's picker in the editor: the expert closes it and
    finishes, instead of failing on a field its change does not set."""  # noqa: D205, D209
    from android_gym.testing.rollout import run_episode
    from android_gym.testing.template_checks import slipping

    task = BY_NAME[name].tasks("train")[0]
    act, slips = slipping(task, lambda s: s["screen"]["name"] == "edit" and s["foreground"] == C.PACKAGE, stray)
    episode = run_episode(task, 0, act, device())
    assert slips and episode.success
    assert any(a.action_type == ActionType.PRESS_BACK for a, _ in episode.log)
