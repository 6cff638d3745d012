"""Tests of the Clock templates of the world suite: the shared template contract (splits, goals, experts under
perturbations, budgets, apps, reset guard, near misses) and what is specific to them (seeded alarms moving the
target, answers read from the state, the earliest alarm that is on)."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import clock as C
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.clock import ClockApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state
from android_gym.tasks.world.clock_tasks import TEMPLATES, cards, labelled, to_tab, when
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import namesake, person, send_text
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(ClockApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with the Clock, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Ten world templates: answers, an infeasible one, two spanning another app, several of 10+ expert steps."""
    assert len(BY_NAME) == len(TEMPLATES) == 10 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(C.PACKAGE in t.apps for t in TEMPLATES)
    assert sum(len(t.apps) > 1 for t in TEMPLATES) == 2
    outcomes = [t.outcome for t in TEMPLATES]
    assert outcomes.count("answer") == 2 and outcomes.count("infeasible") == 1
    assert sum(t.max_steps >= 15 for t in TEMPLATES) >= 3


# -- near misses ------------------------------------------------------------------------------------------------------
def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """A policy: the expert of `template` on the task's parameters changed by `change`."""
    def make(task: Task) -> Policy:
        return Task(BY_NAME[template], {**task.params, **change(task.params)}).expert_action
    make.__name__ = f"{template}:{change.__name__}"
    return make


def _later(p: Params) -> dict[str, Any]:
    """An hour later (two when that is the alarm's time at reset)."""
    start = [(a["hour"], a["minute"]) for a in BY_NAME["clock_change_alarm_time"].initial(p)[C.PACKAGE]["alarms"]]
    hour = (p["hour"] + (2 if ((p["hour"] + 1) % 24, p["minute"]) in start else 1)) % 24
    return {"hour": hour, "time": C.format_time(hour, p["minute"])}


def _other_half(p: Params) -> dict[str, Any]:
    return {"hour": (p["hour"] + 12) % 24}


def _fewer_days(p: Params) -> dict[str, Any]:
    return {"days": p["days"][:-1]}


def _other_label(p: Params) -> dict[str, Any]:
    return {"label": f"{p['label']} prep"}


def _no_label(p: Params) -> dict[str, Any]:
    return {"label": ""}


def _minute_more(p: Params) -> dict[str, Any]:
    return {"minutes": p["minutes"] + 1}


def _one_city(p: Params) -> dict[str, Any]:
    return {"second": p["first"]}


def _wrong_city(p: Params) -> dict[str, Any]:
    return {"second": next(c for c in C.CITIES if c not in (p["first"], p["second"]))}


def _neighbour_city(p: Params) -> dict[str, Any]:
    start = BY_NAME["clock_city_time_answer"].initial(p)[C.PACKAGE]["cities"]
    return {"city": start[0]}


def _prep_then_declare(task: Task) -> Policy:
    """Turn off the near-miss "… prep" alarm, then declare the task impossible."""
    turn_off = Task(BY_NAME["clock_turn_off_labelled"], {**task.params, **_other_label(task.params)})

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if any(a["enabled"] for a in labelled(state, _other_label(task.params)["label"])):
            return turn_off.expert_action(elements, state)
        return impossible()
    return act


def _text_disabled(task: Task) -> Policy:
    """Text the time of the earlier alarm, which is off."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, C.PACKAGE)["tab"] != "Alarm":
            return to_tab("Alarm", elements, state) or impossible()
        off = next(a for a in cards(state) if not a["enabled"])
        return send_text(person(task.params["person"]), when(off), elements, state)
    return act


def _text_namesake(task: Task) -> Policy:
    """Text the right time to the person's namesake."""
    return _as("clock_text_earliest_alarm", lambda p: {"person": namesake(p["person"])})(task)


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "clock_alarm_label_days": [_as("clock_alarm_label_days", _fewer_days), _as("clock_alarm_label_days", _later)],
    "clock_change_alarm_time": [_as("clock_change_alarm_time", _later), _as("clock_change_alarm_time", _other_half)],
    "clock_turn_off_labelled": [_as("clock_turn_off_labelled", _other_label)],
    "clock_labelled_timer": [_as("clock_labelled_timer", _minute_more), _as("clock_labelled_timer", _no_label)],
    "clock_add_cities": [_as("clock_add_cities", _one_city), _as("clock_add_cities", _wrong_city)],
    "clock_alarm_time_answer": [_as("clock_alarm_time_answer", _other_label)],
    "clock_city_time_answer": [_as("clock_city_time_answer", _neighbour_city)],
    "clock_turn_off_missing": [_prep_then_declare],
    "clock_alarm_from_note": [_as("clock_alarm_from_note", _other_half)],
    "clock_text_earliest_alarm": [_text_disabled, _text_namesake],
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_near_misses_lose(template: TaskTemplate):
    """The wrong time, day, label, city, person or alarm never wins."""
    checks.check_near_misses(template, device(), WRONG[template.name])


# -- specific ---------------------------------------------------------------------------------------------------------
def test_seeded_alarms_move_the_target_card():
    """The labelled alarm sits at different rows across seeds (the seeded alarms around it vary)."""
    task = BY_NAME["clock_change_alarm_time"].tasks("train")[0]
    rows = set()
    for seed in range(8):
        phone = device()
        phone.reset(seed, task.initial)
        rows.add([a["label"] for a in cards(phone.state())].index(task.params["label"]))
    assert len(rows) > 1


def test_alarm_answer_follows_state():
    """The answer is the labelled alarm's time; the near label's time loses; an edited alarm leaves no answer."""
    template = BY_NAME["clock_alarm_time_answer"]
    task = template.tasks("test")[0]
    phone = device()
    phone.reset(3, task.initial)
    state = phone.state()
    truth = C.format_time(task.params["hour"], task.params["minute"])
    assert template.answer(task.params, state) == truth
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=truth.lower()))
    near = labelled(state, f"{task.params['label']} prep")[0]
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=when(near)))
    edited = {**state, "apps": {**state["apps"], C.PACKAGE: {**app_state(state, C.PACKAGE),
                                                            "alarm_edits": [{"op": "off", "id": 0}]}}}
    assert template.answer(task.params, edited) is None


def test_city_answer_uses_phone_clock():
    """A city's time follows the phone's clock, which the task sets."""
    template = BY_NAME["clock_city_time_answer"]
    task = next(t for t in template.tasks("train") if t.params["city"] == "Mumbai")
    episode = run_episode(task, seed=1, device=device())
    hour, minute = (int(x) for x in task.params["clock"].split(":"))
    total = (hour * 60 + minute + 330) % (24 * 60)
    assert episode.success and episode.log[-1][0].text == C.format_time(total // 60, total % 60)


def test_earliest_alarm_skips_alarms_switched_off():
    """The text must hold the earliest enabled alarm, which is not the earliest alarm."""
    task = BY_NAME["clock_text_earliest_alarm"].tasks("train")[0]
    phone = device()
    episode = run_episode(task, seed=5, device=phone)
    sent = app_state(phone.state(), "com.google.android.apps.messaging")["sent"]
    assert episode.success and sent[0]["text"] == C.format_time(task.params["hour"], task.params["minute"])
    assert min((a["hour"], a["minute"]) for a in cards(phone.state())) < (task.params["hour"], task.params["minute"])
