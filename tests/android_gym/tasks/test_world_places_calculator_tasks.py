"""Tests of the Maps and Calculator templates of the world suite: the shared template contract (splits, goals, experts
under perturbations, budgets, apps, reset guard, near misses) and what is specific: answers that follow the state or
the arithmetic, the infeasible call's `looked`, the seeded starts."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calculator as C
from android_gym.sim.apps import maps, with_apps
from android_gym.sim.apps.calculator import CalculatorApp
from android_gym.sim.apps.maps import MapsApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, find, tap, wait
from android_gym.tasks.world import calculator_tasks, places_tasks
from android_gym.tasks.world.calculator_tasks import key_step
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import namesake, person, send_text
from android_gym.tasks.world.places_tasks import place_of, save_to, to_place
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(MapsApp, CalculatorApp)
TEMPLATES = (*places_tasks.TEMPLATES, *calculator_tasks.TEMPLATES)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with both apps, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_modules_have_their_templates():
    """Eleven world templates: answers, an infeasible one, three spanning another app, several of 10+ expert steps."""
    assert len(BY_NAME) == len(TEMPLATES) == 11 and {t.suite for t in TEMPLATES} == {"world"}
    outcomes = [t.outcome for t in TEMPLATES]
    assert outcomes.count("infeasible") == 1 and outcomes.count("answer") == 5
    assert {t.name for t in TEMPLATES if len(t.apps) > 1} == {"maps_text_address", "maps_call_place",
                                                              "calculator_note_total_answer"}
    assert sum(t.max_steps >= 18 for t in TEMPLATES) >= 4


# -- near misses -------------------------------------------------------------------------------------------------------
def _other_rank(params: Params, phone: bool | None = None) -> int:
    """Another uniquely named result of the task's search (with a number, when `phone`)."""
    return next(r for r in places_tasks.unique_ranks(params["query"])
                if r not in (params["rank"], params.get("other_rank"))
                and (phone is None or bool(place_of(params["query"], r)["phone"]) is phone))


def _save(ranks: Callable[[Params], Sequence[int]], lists: Callable[[Params], str]) -> Callable[[Task], Policy]:
    """Save the results `ranks` of the task's search to the list `lists` gives."""
    def make(task: Task) -> Policy:
        def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
            for rank in ranks(task.params):
                step = save_to(task.params["query"], rank, [lists(task.params)], elements, state)
                if step is not None:
                    return step
            return wait()
        return act
    return make


def _near(p: Params) -> str:
    return maps.LISTS[(maps.LISTS.index(p["list"]) + 1) % len(maps.LISTS)]


def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """`template`'s expert on the task's parameters changed by `change`."""
    return lambda task: (lambda elements, state: BY_NAME[template].expert(change(task.params), elements, state))


def _answer(text: Callable[[Params], str], then: Callable[[Task], Policy]) -> Callable[[Task], Policy]:
    """`then`'s policy, answering `text` instead of what it reads off the screen."""
    def make(task: Task) -> Policy:
        inner = then(task)

        def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
            step = inner(elements, state)
            if step.action_type == ActionType.STATUS_TASK_COMPLETE:
                return Action(ActionType.STATUS_TASK_COMPLETE, text=text(task.params))
            return step
        return act
    return make


def _call_other(task: Task) -> Policy:
    """Call another place of the search (it has a number), then declare impossible."""
    rank = _other_rank(task.params, phone=True)
    name = place_of(task.params["query"], rank)["name"]

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, "com.google.android.dialer").get("calls"):
            return impossible()
        call = find(elements, desc=f"Call {name}")
        return to_place(task.params["query"], rank, elements, state) or (tap(call) if call else wait())
    return act


def _text_wrong(who: Callable[[Params], str], what: Callable[[Params], str]) -> Callable[[Task], Policy]:
    def make(task: Task) -> Policy:
        return lambda elements, state: send_text(person(who(task.params)), what(task.params), elements, state)
    return make


def _wrong_history(task: Task) -> Policy:
    """Compute something first (the history grows), then answer as the expert would."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        c = app_state(state, C.PACKAGE)
        if len(c.get("history", [])) == task.params["seeded"]:
            return key_step("2+2", elements, state) or wait()
        return task.expert_action(elements, state)
    return act


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "maps_save_two_places": [_save(lambda p: [p["rank"]], lambda p: p["list"]),
                             _save(lambda p: [p["rank"], p["other_rank"]], _near)],
    "maps_save_best_rated": [_save(lambda p: [0], lambda p: p["list"]), _save(lambda p: [p["rank"]], _near)],
    "maps_remove_from_list": [_as("maps_remove_from_list", lambda p: {**p, "list": p["near"]})],
    "maps_travel_time": [_answer(lambda p: maps.duration(maps.travel(place_of(p["query"], p["rank"]), "Drive")[0]),
                                 lambda task: task.expert_action)],
    "maps_call_place": [_as("maps_call_place", lambda p: {**p, "rank": _other_rank(p, phone=True),
                                                          "name": place_of(p["query"], _other_rank(p, True))["name"]})],
    "maps_call_place_without_number": [_call_other],
    "maps_text_address": [_text_wrong(lambda p: namesake(p["person"]), lambda p: p["address"]),
                          _text_wrong(lambda p: p["person"],
                                      lambda p: place_of(p["query"], _other_rank(p))["address"])],
    "calculator_words_answer": [_answer(lambda p: str(p["a"] * p["b"] + p["c"] + 1), lambda task: task.expert_action)],
    "calculator_split_bill_answer": [_answer(lambda p: calculator_tasks.shown(
        Decimal(p["bill"]) * (100 + p["tip"]) / 100), lambda task: task.expert_action)],
    "calculator_history_answer": [_wrong_history],
    "calculator_note_total_answer": [_answer(
        lambda p: calculator_tasks.note_total(BY_NAME["calculator_note_total_answer"]._text(p, twin=True)) or "",
        lambda task: task.expert_action)],
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_near_misses_fail(template: TaskTemplate):
    """The wrong place, list, person, mode or amount never wins."""
    checks.check_near_misses(template, device(), WRONG[template.name])


# -- specific ----------------------------------------------------------------------------------------------------------
def test_calculator_truths_agree_with_the_keypad():
    """Each grid's truth (the params' own arithmetic) is what the keypad shows for the expert's expression."""
    for name in ("calculator_words_answer", "calculator_split_bill_answer"):
        template = BY_NAME[name]
        for params in template.values("train") + template.values("test"):
            assert C.evaluate(params["expression"]) == template.answer(params, {}), params
    assert BY_NAME["calculator_split_bill_answer"].answer({"bill": "84.60", "tip": 10, "people": 2}, {}) == "46.53"


def test_history_answer_reads_the_state_and_follows_the_seed():
    """The history's k-th newest result is the truth; it differs across seeds; a new calculation voids it."""
    template = BY_NAME["calculator_history_answer"]
    task = next(t for t in template.tasks("train") if t.params["k"] == 2)
    truths = set()
    for seed in range(5):
        phone = device()
        phone.reset(seed, task.initial)
        state = phone.state()
        truths.add(template.answer(task.params, state))
        assert truths and template.answer(task.params, state) == app_state(state, C.PACKAGE)["history"][-2]["result"]
    assert len(truths) >= 4
    episode = run_episode(task, seed=3, device=phone)
    assert episode.success
    grown = {**phone.state(), "apps": {C.PACKAGE: {"history": [{"result": "1"}] * (task.params["seeded"] + 1)}}}
    assert template.answer(task.params, grown) is None


def test_note_total_reads_the_note_and_the_twin_does_not_match():
    """The truth is the note's sum as the state holds it; the older note's sum is another number."""
    template = BY_NAME["calculator_note_total_answer"]
    task = template.tasks("test")[0]
    phone = device()
    assert run_episode(task, seed=5, device=phone).success
    state = phone.state()
    truth = template.answer(task.params, state)
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=f"${truth}"))
    twin = calculator_tasks.note_total(template._text(task.params, twin=True))
    assert twin != truth and not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=twin))


def test_the_impossible_call_counts_only_on_the_places_page():
    """Declaring impossible wins on the place's page (no Call button there), not from the home screen."""
    task = BY_NAME["maps_call_place_without_number"].tasks("train")[0]
    phone = device()
    phone.reset(0, task.initial)
    assert not task.check(phone.state(), impossible())
    assert run_episode(task, seed=0, device=phone).success
    state = phone.state()
    assert app_state(state, maps.PACKAGE)["place"] == task.params["name"]
    assert not place_of(task.params["query"], task.params["rank"])["phone"]


def test_seeded_saved_places_differ_per_episode_and_never_hold_the_target():
    """Each episode starts with its own saved places, none of them a task's place."""
    task = BY_NAME["maps_save_two_places"].tasks("train")[0]
    starts = set()
    for seed in range(6):
        phone = device()
        phone.reset(seed, task.initial)
        lists = app_state(phone.state(), maps.PACKAGE)["lists"]
        starts.add(repr(lists))
        assert all(p["name"] not in (task.params["name"], task.params["other"]) for ps in lists.values() for p in ps)
    assert len(starts) == 6
