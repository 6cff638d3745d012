"""Tests of the web task templates: splits, goals, checks, experts under perturbations, and wrong paths."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.web import SHOP_HOSTS
from android_gym.sim.web.content import answer
from android_gym.sim.web.site import PACKAGE
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import find, obstacle, swipe_up, tap
from android_gym.tasks.web import (
    WEB_GENERAL_TEMPLATES,
    WEBSHOP_TEMPLATES,
    AddFirstToCart,
    SearchQuestion,
    SearchSite,
    SelectFirst,
    ShopTask,
    VisitSite,
    WeatherQuestion,
)
from android_gym.tasks.web_expert import search_web, shop
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

ALL_TEMPLATES = WEB_GENERAL_TEMPLATES + WEBSHOP_TEMPLATES
Policy = Any


def sample(template: TaskTemplate, split: str, n: int) -> list[Task]:
    """`n` tasks spread evenly over the split."""
    tasks = template.tasks(split)
    return [tasks[i * len(tasks) // n] for i in range(n)]


@pytest.mark.parametrize("template", ALL_TEMPLATES, ids=lambda t: t.name)
def test_splits_disjoint_and_nontrivial_per_template(template: TaskTemplate) -> None:
    """Train and test share no key value, both are non-empty, and `values` is deterministic."""
    key = "site" if isinstance(template, VisitSite) else getattr(template, "key", "query")
    train, test = template.values("train"), template.values("test")
    assert train and test and train == template.values("train")
    assert not {p[key] for p in train} & {p[key] for p in test}


@pytest.mark.parametrize("templates", [WEB_GENERAL_TEMPLATES, WEBSHOP_TEMPLATES], ids=["general", "webshop"])
def test_suite_has_hundreds_of_instances_per_split(templates: tuple[TaskTemplate, ...]) -> None:
    """Each suite offers hundreds of distinct training and test tasks."""
    for split in ("train", "test"):
        goals = {t.goal for tpl in templates for t in tpl.tasks(split)}
        assert len(goals) >= 200


def test_split_rejects_unknown_name() -> None:
    """An unknown split name raises instead of returning nothing."""
    with pytest.raises(ValueError, match="split"):
        WeatherQuestion().values("validation")


def test_goals_read_like_aitw() -> None:
    """Goal texts follow the AitW phrasings."""
    params = {"site": "newegg.com", "query": "razer thresher"}
    assert SelectFirst().goal(params) == 'Go to newegg.com, search for "razer thresher", and select the first entry'
    assert AddFirstToCart().goal(params).endswith("select the first entry, and add it to cart")
    assert WeatherQuestion().goal({"city": "new york"}) == "What's the weather in New York?"


@pytest.mark.parametrize("template", WEB_GENERAL_TEMPLATES, ids=lambda t: t.name)
def test_goal_and_expert_query_find_the_answer_all_instances(template: SearchQuestion) -> None:
    """For every instance, both the goal text and the expert's query bring up the right answer card."""
    for task in template.tasks("train") + template.tasks("test"):
        for text in (task.goal, template.query_text.format(**task.params)):
            card = answer(text)
            assert card is not None and card.kind == template.kind, text
            assert card.subject == template.subject(task.params), text
            assert card.detail == task.params.get("cuisine", ""), text


@pytest.mark.parametrize("level", ["default", "hard"])
@pytest.mark.parametrize("template", ALL_TEMPLATES, ids=lambda t: t.name)
def test_expert_solves_train_and_test_under_perturbations(template: TaskTemplate, level: str) -> None:
    """The expert solves train and test instances within the step budget, with pop-ups, spinners and adverts."""
    tasks = sample(template, "train", 3) + sample(template, "test", 3)
    for seed, task in enumerate(tasks):
        episode = run_episode(task, seed=seed + 17, perturbations=level)  # raises if the task starts solved
        assert episode.success, f"{task} seed {seed + 17}"


@pytest.mark.parametrize("template", ALL_TEMPLATES, ids=lambda t: t.name)
def test_check_false_at_reset(template: TaskTemplate) -> None:
    """No task is solved on a freshly reset phone."""
    device = SimDevice("default")
    for task in sample(template, "train", 2) + sample(template, "test", 2):
        device.reset(0, task.initial)
        assert not task.check(device.state())


def sponsored_policy(task: Task) -> Policy:
    """A shopper that opens a sponsored entry instead of the first organic one, buys it and declares success."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        blocked = obstacle(elements, state)
        if blocked is not None:
            return blocked
        b = state["apps"][PACKAGE]
        if b["page"] == "results" and b["host"] == task.params["site"]:
            label = find(elements, text="Sponsored")
            return tap(label) if label is not None else swipe_up()
        if b["page"] == "product" and b["product"]["sponsored"]:
            if b["cart"]:
                return Action.key(ActionType.STATUS_TASK_COMPLETE)
            return tap(find(elements, contains="add to cart", clickable=True))
        return task.expert_action(elements, state)

    return act


@pytest.mark.parametrize("template", [SelectFirst(), AddFirstToCart()], ids=lambda t: t.name)
def test_sponsored_choice_does_not_succeed(template: TaskTemplate) -> None:
    """Opening (and buying) a sponsored entry is a wrong path: the task stays unsolved."""
    for seed, task in enumerate(sample(template, "train", 4)):
        device = SimDevice("default")
        episode = run_episode(task, seed=seed, policy=sponsored_policy(task), device=device)
        state = device.state()["apps"][PACKAGE]
        assert not episode.success
        assert state["product"] is not None and state["product"]["sponsored"]  # the wrong path was really taken


def test_first_listed_entry_fails_when_an_advert_leads() -> None:
    """Taking the first *listed* entry succeeds only when it is organic, so adverts at the top must be skipped."""
    outcomes = set()
    for seed in range(12):
        task = SelectFirst().tasks("test")[seed * 7]

        def first_listed(elements: Sequence[UIElement], state: Mapping[str, Any], task: Task = task) -> Action:
            b = state["apps"][PACKAGE]
            if obstacle(elements, state) is None and b["page"] == "results" and b["query"] == task.params["query"]:
                rows = [e for e in elements if e.clickable and e.package == PACKAGE and e.bounds[1] > 600
                        and e.cls.endswith("LinearLayout")]
                return tap(rows[0])
            return task.expert_action(elements, state)

        device = SimDevice({"sponsored": True, "dialog_prob": 0.0, "slow_load_prob": 0.0, "ignored_tap_prob": 0.0,
                            "layout_variants": False})
        episode = run_episode(task, seed=seed, policy=first_listed, device=device)
        product = device.state()["apps"][PACKAGE]["product"]
        assert episode.success == (not product["sponsored"])
        outcomes.add(episode.success)
    assert outcomes == {True, False}


@pytest.mark.parametrize("template", WEBSHOP_TEMPLATES, ids=lambda t: t.name)
def test_wrong_site_does_not_succeed(template: ShopTask) -> None:
    """Doing the task perfectly on another shop never solves it."""
    for seed, task in enumerate(sample(template, "test", 3)):
        other = next(h for h in SHOP_HOSTS if h != task.params["site"])

        def elsewhere(elements: Sequence[UIElement], state: Mapping[str, Any], task: Task = task,
                      other: str = other) -> Action:
            return shop(other, task.params.get("query"), template.stage, elements, state)

        assert not run_episode(task, seed=seed, policy=elsewhere).success


def test_wrong_search_does_not_succeed() -> None:
    """Searching a different subject or the wrong kind of question leaves a search question unsolved."""
    task = WeatherQuestion().tasks("train")[0]
    other_city = next(t.params["city"] for t in WeatherQuestion().tasks("train")[1:])
    for query in (f"weather in {other_city}", f"time in {task.params['city']}", "weather"):
        def policy(elements: Sequence[UIElement], state: Mapping[str, Any], query: str = query) -> Action:
            return search_web(query, elements, state)

        assert not run_episode(task, seed=3, policy=policy).success


def test_search_stage_needs_exact_query() -> None:
    """A search for other words on the right site does not solve a search task."""
    task = SearchSite().tasks("train")[0]

    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        return shop(task.params["site"], task.params["query"] + " case", "search", elements, state)

    assert not run_episode(task, seed=1, policy=policy).success
