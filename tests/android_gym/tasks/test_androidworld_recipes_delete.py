"""Tests of AndroidWorld's Broccoli deletions of several recipes on the suite (`RecipeDeleteMultipleRecipes`,
`...WithNoise`, `...WithConstraint`, `RecipeDeleteDuplicateRecipes`, `...2`, `...3`): the goal and the phone's start as
AndroidWorld has them, and the check's semantics played through the app. Deleting exactly the targets (or exactly one
copy of the duplicate, either one) wins; one target left, one recipe more, a same-titled variant instead of the copy,
or both copies loses, as AndroidWorld's row check has it."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps import with_apps
from android_gym.tasks.androidworld import recipes_delete as recipes
from android_gym.tasks.base import Task
from android_gym.tasks.world.recipes_tasks import KNOWN, plain, spec_of

MULTIPLE, NOISY, CONSTRAINT, DUPLICATE, DUPLICATE2, DUPLICATE3 = recipes.TEMPLATES
DUPLICATES = (DUPLICATE, DUPLICATE2, DUPLICATE3)


@cache
def device() -> SimDevice:
    """One unperturbed phone with Broccoli for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(R.RecipesApp))


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def listed(phone: SimDevice) -> list[dict[str, Any]]:
    """Broccoli's recipes, ids included, in the list's order."""
    return state_of(phone.state(), R.RecipesState)["recipes"]


def delete_id(phone: SimDevice, recipe_id: int, limit: int = 40) -> None:
    """Delete the recipe with id `recipe_id` through the app."""
    for _ in range(limit):
        if all(r["id"] != recipe_id for r in listed(phone)):
            return
        phone.perform(recipes.delete_step(recipe_id, phone.ui_elements(), phone.state()))
        phone.tick()
    raise AssertionError(f"recipe {recipe_id} was not deleted")


def ids_of(phone: SimDevice, spec: dict[str, Any]) -> list[int]:
    """The ids of the recipes equal to `spec` (as set up)."""
    return [r["id"] for r in listed(phone) if plain(r) == recipes.as_listed(spec)]


def first(template: Any, split: str = "train") -> Task:
    """The split's first task."""
    return template.tasks(split)[0]


# -- several named recipes --------------------------------------------------------------------------------------------
def held_out(template: Any) -> Task:
    """The template's first test instance, or its last train one where its one goal keeps it out of test (issue 50)."""
    return (template.tasks("test") or template.tasks("train")[-1:])[0]


@pytest.mark.parametrize("template", [MULTIPLE, NOISY], ids=lambda t: t.name)
def test_the_goal_lists_the_three_titles_and_broccoli_holds_exactly_the_drawn_recipes(template) -> None:
    task = first(template)
    targets = [t["title"] for t in task.params["targets"]]
    assert task.goal == f"Delete the following recipes from Broccoli app: {', '.join(targets)}."
    drawn = [*task.params["noise"], *task.params["targets"]]
    assert len(drawn) == template.noise + 3 and len({r["title"] for r in drawn}) == len(drawn)
    got = sorted((plain(r) for r in listed(started(task))), key=repr)
    assert got == sorted((recipes.as_listed(r) for r in drawn), key=repr)


@pytest.mark.parametrize("template", [MULTIPLE, NOISY, CONSTRAINT], ids=lambda t: t.name)
def test_deleting_every_target_wins_and_leaving_one_loses(template) -> None:
    task = first(template)
    phone = started(task)
    *before, last = task.params["targets"]
    for target in before:
        delete_id(phone, ids_of(phone, target)[0])
    assert not task.check(phone.state())
    delete_id(phone, ids_of(phone, last)[0])
    assert task.check(phone.state())


@pytest.mark.parametrize("template", [NOISY, CONSTRAINT], ids=lambda t: t.name)
def test_deleting_a_noise_recipe_besides_the_targets_loses(template) -> None:
    task = first(template, "test")
    phone = started(task)
    for target in task.params["targets"]:
        delete_id(phone, ids_of(phone, target)[0])
    delete_id(phone, ids_of(phone, task.params["noise"][0])[0])
    assert not task.check(phone.state())


def test_a_noise_recipe_instead_of_a_target_loses() -> None:
    task = first(NOISY)
    phone = started(task)
    *keep, _ = task.params["targets"]
    for spec in [*keep, task.params["noise"][0]]:
        delete_id(phone, ids_of(phone, spec)[0])
    assert not task.check(phone.state())


def test_the_constraint_targets_are_every_recipe_whose_directions_use_the_ingredient() -> None:
    """AndroidWorld's targets: up to 3 recipes using it in their directions; its noise: 29 that do not."""
    for task in CONSTRAINT.tasks("train")[:10] + CONSTRAINT.tasks("test")[:5]:
        ingredient = task.params["ingredient"]
        assert task.goal == f"Delete the recipes from Broccoli app that use {ingredient} in the directions."
        uses = {t for t in KNOWN if ingredient in spec_of(t)["directions"].lower()}
        targets = {r["title"] for r in task.params["targets"]}
        assert targets <= uses and len(targets) == min(3, len(uses)) >= 1
        assert len(task.params["noise"]) == 29
        assert not any(ingredient in r["directions"].lower() for r in task.params["noise"])
    assert {p["ingredient"] for p in CONSTRAINT.values("train")}.isdisjoint(
        p["ingredient"] for p in CONSTRAINT.values("test"))


# -- duplicates -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("template", DUPLICATES, ids=lambda t: t.name)
def test_the_phone_holds_one_exact_duplicate_pair_and_nothing_else_twice(template) -> None:
    task = first(template)
    phone = started(task)
    rows = [repr(plain(r)) for r in listed(phone)]
    assert len(rows) == template.noise + 2 and len(set(rows)) == template.noise + 1
    assert len(ids_of(phone, task.params["target"])) == 2
    assert task.goal == ("Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring "
                         "at least one instance of each unique recipe remains")


def test_the_harder_duplicates_sit_among_same_titled_variants() -> None:
    """2: 4 variants of the title differ from the target; 3: 6 share its title and description, 3 sort on top."""
    two, three = first(DUPLICATE2).params, first(DUPLICATE3).params
    same = [r for r in two["noise"] if r["title"] == two["target_title"]]
    assert len(same) == 4 and two["target"] not in same
    same = [r for r in three["noise"] if r["title"] == three["target_title"]]
    assert len(same) == 6 and all(r["description"] == three["target"]["description"] for r in same)
    assert three["target"] not in same
    assert [r["title"] for r in three["noise"]].count(recipes.FIRST) == 3
    assert recipes.FIRST == min(KNOWN, key=str.casefold)


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("template", DUPLICATES, ids=lambda t: t.name)
def test_deleting_either_copy_wins_and_deleting_both_loses(template, which: int) -> None:
    task = first(template)
    phone = started(task)
    copies = ids_of(phone, task.params["target"])
    delete_id(phone, copies[which])
    assert task.check(phone.state())
    delete_id(phone, copies[1 - which])
    assert not task.check(phone.state())


@pytest.mark.parametrize("template", [DUPLICATE2, DUPLICATE3], ids=lambda t: t.name)
def test_deleting_a_same_titled_variant_loses_alone_and_beside_a_copy(template) -> None:
    task = held_out(template)
    phone = started(task)
    variant = next(r for r in task.params["noise"] if r["title"] == task.params["target_title"])
    delete_id(phone, ids_of(phone, variant)[0])
    assert not task.check(phone.state())
    delete_id(phone, ids_of(phone, task.params["target"])[0])
    assert not task.check(phone.state())


def test_a_copy_deleted_and_another_recipe_starred_loses() -> None:
    task = first(DUPLICATE)
    phone = started(task)
    delete_id(phone, ids_of(phone, task.params["target"])[0])
    state = phone.state()
    mine = state_of(state, R.RecipesState)
    starred = {**mine, "changed": [{**mine["recipes"][0], "favourite": True}]}
    assert task.check(state) and not task.check({**state, "apps": {**state["apps"], R.PACKAGE: starred}})
