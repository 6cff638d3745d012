"""Tests of AndroidWorld's Broccoli deletions on the suite (`RecipeDeleteSingleRecipe`,
`RecipeDeleteSingleWithRecipeWithNoise`): the goal and the phone's start as AndroidWorld has them, and the check's
semantics played through the app: deleting the recipe wins wherever the agent leaves the app; deleting the wrong
recipe, one more, editing the target or a favourite starred besides loses, as AndroidWorld's row check has it."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps import with_apps
from android_gym.tasks.androidworld import recipes
from android_gym.tasks.base import Task
from android_gym.tasks.world.base import press
from android_gym.tasks.world.recipes_tasks import (
    KNOWN,
    AddRecipeTemplate,
    ChangeServingsTemplate,
    DeleteRecipeTemplate,
    plain,
    spec_of,
)
from android_gym.tasks.world.recipes_tasks import to_details as recipe_details
from android_gym.testing.rollout import drive
from android_gym.ui import UIElement

SINGLE, NOISY = recipes.TEMPLATES
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Broccoli for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(R.RecipesApp))


def started(task: Task, seed: int = 5) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def titles(state: State) -> list[str]:
    """Broccoli's recipe titles."""
    return [r["title"] for r in state_of(state, R.RecipesState)["recipes"]]


def delete(phone: SimDevice, title: str) -> None:
    """Delete recipe `title` through the app (the World template's expert)."""
    drive(phone, lambda e, s: DeleteRecipeTemplate().expert({"title": title}, e, s), lambda s: title not in titles(s))


def first_task(template: recipes.RecipeDeleteSingleRecipe, split: str = "train") -> Task:
    """The split's first task."""
    return template.tasks(split)[0]


@pytest.mark.parametrize("split", ["train", "test"])
@pytest.mark.parametrize("template", recipes.TEMPLATES, ids=lambda t: t.name)
def test_the_goal_names_the_recipe_and_broccoli_holds_exactly_the_drawn_recipes(template, split) -> None:
    task = first_task(template, split)
    title, noise = task.params["titles"], task.params["noise"]
    assert task.goal == f"Delete the following recipes from Broccoli app: {title}."
    assert len(noise) == template.noise and len({*noise, title}) == template.noise + 1
    state = started(task).state()
    got = sorted((plain(r) for r in state_of(state, R.RecipesState)["recipes"]), key=lambda r: r["title"])
    assert got == sorted(({**spec_of(t), "favourite": False} for t in [*noise, title]), key=lambda r: r["title"])


def test_instances_draw_the_sims_recipes_as_androidworld_draws_its_own() -> None:
    """Targets range over the sim's recipes; the noise is 29 other titles, drawn afresh per instance."""
    drawn = [p for split in ("train", "test") for p in NOISY.values(split)]
    assert {p["titles"] for p in drawn} <= set(KNOWN) and len({p["titles"] for p in drawn}) >= 40
    assert len({tuple(p["noise"]) for p in drawn}) == len(drawn)
    assert all(p["titles"] not in p["noise"] and set(p["noise"]) <= set(KNOWN) for p in drawn)
    assert len({p["titles"] for p in SINGLE.values("train") + SINGLE.values("test")}) >= 40


@pytest.mark.parametrize("template", recipes.TEMPLATES, ids=lambda t: t.name)
def test_deleting_the_recipe_wins_whatever_the_agent_looks_at_afterwards(template) -> None:
    """The goal asks for the deletion only: the screen the agent ends on, or a recipe opened, does not matter."""
    task = first_task(template)
    phone = started(task)
    delete(phone, task.params["titles"])
    assert task.check(phone.state())
    if task.params["noise"]:
        other = task.params["noise"][0]
        drive(phone, lambda e, s: recipe_details(other, e, s) or press(e, text="?"),
              lambda s: state_of(s, R.RecipesState)["open"] == other)
        assert task.check(phone.state())


def test_deleting_another_recipe_or_one_more_loses() -> None:
    task = first_task(NOISY)
    target, other = task.params["titles"], task.params["noise"][3]
    phone = started(task)
    delete(phone, other)
    assert not task.check(phone.state())
    delete(phone, target)  # the target too: one recipe more than asked
    assert not task.check(phone.state())


def test_editing_the_recipe_instead_or_starring_another_besides_loses() -> None:
    task = first_task(NOISY)
    target, other = task.params["titles"], task.params["noise"][0]
    phone = started(task)
    servings = ChangeServingsTemplate()
    drive(phone, lambda e, s: servings.expert({"title": target, "new": "12"}, e, s),
          lambda s: any(r["servings"] == "12" for r in state_of(s, R.RecipesState)["recipes"]))
    assert not task.check(phone.state())

    phone = started(task)
    delete(phone, target)
    drive(phone, lambda e, s: recipe_details(other, e, s) or press(e, desc=R.FAVOURITE_DESC),
          lambda s: any(r["favourite"] for r in state_of(s, R.RecipesState)["recipes"]))
    assert not task.check(phone.state())


def test_the_recipe_deleted_and_written_in_again_loses() -> None:
    """AndroidWorld compares rows with their ids: a recipe typed in again is a row added, as Broccoli's log has it."""
    task = first_task(SINGLE)
    title = task.params["titles"]
    phone = started(task)
    delete(phone, title)
    again = {k: spec_of(title)[k] for k in ("title", "description", "servings", "prep_time", "ingredients")}
    drive(phone, lambda e, s: AddRecipeTemplate().expert(again, e, s), lambda s: title in titles(s))
    assert not task.check(phone.state())
