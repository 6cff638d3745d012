"""Tests of the Broccoli templates of the world suite: splits, goals, experts under perturbations, no task solved at
reset, answers read off the screen, and near misses (the expert of a neighbouring goal) rejected."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from android_gym.actions import TEXT_CHARSET, Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor, with_apps
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps.recipes import RecipesApp
from android_gym.spaces import GOAL_MAX_LENGTH
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, find
from android_gym.tasks.world.notes_expert import markor_create, markor_item, markor_write, press
from android_gym.tasks.world.recipes_tasks import (
    NEAR,
    SPECS,
    TEMPLATES,
    DeleteRecipeTemplate,
    NoteToRecipeTemplate,
    editing,
    form_step,
    note_name,
    to_details,
    to_list,
)
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import sample
from android_gym.ui import UIElement

APPS = with_apps(RecipesApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[list[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with Broccoli, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Eight world templates with distinct names: an answer, an infeasible one, two spanning Markor."""
    assert len(BY_NAME) == len(TEMPLATES) == 8 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(R.PACKAGE in t.apps for t in TEMPLATES)
    assert {t.name for t in TEMPLATES if len(t.apps) > 1} == {"recipes_ingredients_to_note", "recipes_note_to_recipe"}
    outcomes = [t.outcome for t in TEMPLATES]
    assert outcomes.count("answer") == 1 and outcomes.count("infeasible") == 1
    assert sum(t.max_steps >= 20 for t in TEMPLATES) >= 3  # several need 11+ expert steps


def test_task_recipes_and_their_near_misses_differ():
    """A recipe and its near miss differ in title, servings, time and ingredients; none is a seeded title."""
    seeded = {p[0] for p in R.POOL}
    for title, other in NEAR.items():
        a, b = SPECS[title], SPECS[other]
        assert title not in seeded and NEAR[other] == title
        assert a["servings"] != b["servings"] and a["prep_time"] != b["prep_time"]
        assert a["ingredients"] != b["ingredients"]


def test_every_goal_fits_the_observation_space():
    """Goals stay within the goal text's length and printable ASCII (recipes' ingredient lists are the longest)."""
    for template in TEMPLATES:
        for split in ("train", "test"):
            for task in template.tasks(split):
                assert len(task.goal) <= GOAL_MAX_LENGTH and set(task.goal) <= set(TEXT_CHARSET), task


def test_seeded_recipes_move_the_task_row():
    """The task's recipe sits at different rows of the list across seeds (the seeded recipes around it vary)."""
    task = BY_NAME["recipes_delete_recipe"].tasks("train")[4]
    rows = set()
    for seed in range(8):
        phone = device()
        phone.reset(seed, task.initial)
        ordered = phone.phone.apps[R.PACKAGE].ordered()
        rows.add(next(i for i, r in enumerate(ordered) if r["title"] == task.params["title"]))
    assert len(rows) > 2


def test_the_answer_is_the_text_the_screen_shows():
    """The expert's answer is the preparation time element's text, equal to the truth read from the state."""
    template = BY_NAME["recipes_prep_time_answer"]
    for task in sample(template, "train", 2) + sample(template, "test", 2):
        episode = run_episode(task, seed=5, device=(phone := device()))
        action = episode.log[-1][0]
        truth = template.answer(task.params, phone.state())
        assert episode.success and action.action_type == ActionType.STATUS_TASK_COMPLETE
        assert action.text == truth == SPECS[task.params["title"]]["prep_time"] and len(truth) < 32


def test_the_infeasible_declaration_counts_only_while_looking_at_the_list():
    """`looked` holds on the list (unfiltered or searching the title), not on the launcher or a recipe."""
    template = BY_NAME["recipes_delete_missing"]
    task = template.tasks("test")[0]
    phone = device()
    phone.reset(0, task.initial)
    assert not template.looked(task.params, phone.state())
    phone.phone.launch("Broccoli")
    assert template.looked(task.params, phone.state())
    phone.phone.tap(*find(phone.phone.elements(), text="Favourites").center)
    assert not template.looked(task.params, phone.state())
    episode = run_episode(task, seed=0, device=phone)
    assert episode.success and episode.log[-1][0].action_type == ActionType.STATUS_TASK_IMPOSSIBLE
    assert app_state(phone.state(), R.PACKAGE)["search"] == task.params["title"]


# -- near misses -------------------------------------------------------------------------------------------------------
def _swap(p: Params) -> dict[str, Any]:
    """The parameters naming the near miss instead of the recipe."""
    return {**p, "title": p["other"], "other": p["title"]}


WRONG: dict[str, Callable[[Params], dict[str, Any]]] = {
    "recipes_add_recipe": lambda p: {**p, "servings": str(int(p["servings"]) + 1)},
    "recipes_delete_recipe": _swap,
    "recipes_favourite_two": lambda p: {**p, "b": p["near"][1]},
    "recipes_change_servings": _swap,
    "recipes_prep_time_answer": _swap,
}
"""Per template, the parameters of a neighbouring goal whose expert takes the wrong path."""


def _delete_near_miss(task: Task) -> Policy:
    """Delete the near miss the missing recipe is confused with, then declare the task impossible."""
    wrong = _swap(task.params)
    expert = DeleteRecipeTemplate().expert

    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, R.PACKAGE)["removed"]:
            return Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
        return expert(wrong, elements, state)
    return act


def _near_miss_note(task: Task) -> Policy:
    """Read the near miss and write its ingredients into the note."""
    other, note = task.params["other"], task.params["note"]

    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, R.PACKAGE).get("last_opened") != other:
            return to_details(other, elements, state) or Action.key(ActionType.WAIT)
        if note in app_state(state, markor.PACKAGE)["files"]:
            return markor_write(note, "\n".join(SPECS[other]["ingredients"]), elements, state)
        return markor_create("", note, "Markdown", elements, state)
    return act


def _near_miss_recipe(task: Task) -> Policy:
    """Read the near miss's note and add its servings and ingredients under the asked title."""
    title, other = task.params["title"], task.params["other"]
    wrong = {**NoteToRecipeTemplate().want({"title": other}), "title": title}

    def act(elements: list[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, markor.PACKAGE).get("last_opened") != note_name(other):
            return markor_item(note_name(other), elements, state)
        if editing(state) is not None:
            return form_step(wrong, elements, state)
        return to_list(elements, state) or press(elements, desc=R.FAB_DESC)
    return act


def _policy(template: TaskTemplate, task: Task) -> Policy:
    if template.name in WRONG:
        wrong = WRONG[template.name](task.params)
        return lambda elements, state: template.expert(wrong, elements, state)
    return {"recipes_delete_missing": _delete_near_miss, "recipes_ingredients_to_note": _near_miss_note,
            "recipes_note_to_recipe": _near_miss_recipe}[template.name](task)


def _data(state: Mapping[str, Any]) -> tuple:
    apps = state["apps"]
    return apps[R.PACKAGE]["recipes"], apps[markor.PACKAGE]["files"]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_neighbouring_goal_does_not_solve(template: TaskTemplate):
    """The expert of a near-miss goal (the similarly titled recipe, other servings, its ingredients) plays through
    but never meets the real goal; the state-changing ones do change the phone."""  # noqa: D205, D209
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        phone = device()
        phone.reset(0, task.initial)
        start = _data(phone.state())
        episode = run_episode(task, seed=0, policy=_policy(template, task), device=phone)
        assert not episode.success, task
        if template.outcome != "answer":
            assert _data(phone.state()) != start, task


def test_the_near_miss_answer_is_a_real_path():
    """The near-miss policy of the time question does answer, with the near miss's time, and loses."""
    task = BY_NAME["recipes_prep_time_answer"].tasks("train")[0]
    episode = run_episode(task, seed=0, policy=_policy(task.template, task), device=device())
    last = episode.log[-1][0]
    assert not episode.success and last.action_type == ActionType.STATUS_TASK_COMPLETE
    assert last.text == SPECS[task.params["other"]]["prep_time"]


def test_the_note_expert_reads_the_recipe_first():
    """Copying ingredients opens the recipe in Broccoli before Markor; the note holds them one a line."""
    task = BY_NAME["recipes_ingredients_to_note"].tasks("test")[0]
    phone = device()
    assert run_episode(task, seed=2, device=phone).success
    state = phone.state()
    assert app_state(state, R.PACKAGE)["last_opened"] == task.params["title"]
    assert app_state(state, markor.PACKAGE)["files"][task.params["note"]].split("\n") == SPECS[
        task.params["title"]]["ingredients"]
