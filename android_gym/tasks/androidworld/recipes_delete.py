"""AndroidWorld's Broccoli deletions of several recipes: of three (`RecipeDeleteMultipleRecipes`, `...WithNoise`:
"Delete the following recipes from Broccoli app: {titles}."; `...WithConstraint`: those whose directions use a drawn
ingredient) and of one copy of a duplicated recipe (`RecipeDeleteDuplicateRecipes`, `...2`, `...3`: "Delete all but
one of any recipes in the Broccoli app that are exact duplicates, ...").

AndroidWorld clears Broccoli's table, inserts its noise rows and then its targets (a duplicate: the same recipe
twice), and checks the table afterwards: the targets' rows gone (a duplicate: either copy's row), every other row as
it was, none added. Here, as in `recipes.py`, Broccoli's seeded recipes are cleared and the drawn ones inserted in
that order (targets last). The check is each template's own, as strict: exactly the targets removed as set up (a
duplicate: exactly one of its two identical copies, either), nothing added, nothing changed (edited, starred). The
expert deletes by row id (`delete_step`), since a duplicate's copies and its same-titled variants share their list
row's text.

The named deletions draw the sim's recipes as they are (`recipes_tasks.KNOWN`, distinct titles, as `recipes.py`
does). The duplicates' recipes are drawn as AndroidWorld draws its random recipe: a recipe of the list with its
description, servings, preparation time, ingredients and a tip after its directions drawn (`drawn_recipe`; the
phrases are ours, of the same kinds and counts). Titles are distinct except where AndroidWorld makes them alike on
purpose (a duplicate's variants, `FIRST`'s three recipes); variants differ from the target and from one another, so
the phone holds exactly one pair of exact duplicates.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import recipes as R
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.recipes import SEEDED, TITLES, RecipeDeleteSingleRecipe, distinct_titles
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, find, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.recipes_tasks import plain, spec_of, to_list

INGREDIENTS = ("eggs", "onion", "tomatoes", "cheese", "pasta", "rice", "garlic", "butter", "lemon", "chicken", "beef",
               "soy sauce", "milk", "cream", "olive oil", "basil", "bread", "noodles", "stock", "lime", "fish",
               "spices", "chocolate", "lentils", "flour")
"""Ingredients `RecipeDeleteMultipleRecipesWithConstraint` draws (AndroidWorld draws from its common ingredients;
these are words the sim's recipes' directions use, each in at least one of them)."""
DESCRIPTIONS = ("Ready in no time on a weekday evening.", "A light dish for any time of day.",
                "Good for trying out new flavours.")
"""Descriptions a drawn recipe gets (AndroidWorld draws one of 3 generic descriptions too)."""
SERVINGS_DRAWN = ("1", "2", "3-4", "6", "8")
PREP_DRAWN = ("10 min", "20 min", "30 min", "45 min", "1 h", "2 h", "3 h", "4 h")
"""Servings and preparation times a drawn recipe gets (AndroidWorld: 5 servings and 8 times of the same kinds)."""
AMOUNTS = ("to taste", "as needed", "see the directions", "whatever you have", "a handful of each", "adjust freely",
           "per person", "optional extras", "amounts vary", "your choice", "roughly measured", "as you like",
           "check the pantry", "to suit the season", "a little of everything")
"""A drawn recipe's ingredients, one line (AndroidWorld gives its random recipe one of 15 such vague phrases)."""
TIPS = ("Season to taste before serving.", "Swap in whatever is in season.", "Top with fresh herbs.")
"""A tip a drawn recipe's directions end with (AndroidWorld appends one of 3 tips of this kind)."""
FIRST = min(TITLES, key=str.casefold)
"""The title sorting first in the list: `RecipeDeleteDuplicateRecipes3` puts 3 recipes of it on top, as AndroidWorld
puts 3 of its early-sorting "Avocado Toast with Egg" there, so the agent must scroll."""


def drawn_recipe(rng: random.Random, title: str) -> dict[str, Any]:
    """Recipe `title` with its description, servings, preparation time, a tip after its directions and its
    ingredients drawn, in AndroidWorld's order (its random recipe: a recipe of its list with those fields drawn).

    >>> r = drawn_recipe(random.Random(0), "Hummus")
    >>> r["description"], r["servings"], r["prep_time"], r["ingredients"]
    ('A light dish for any time of day.', '6', '10 min', ['amounts vary'])
    >>> r["directions"].endswith("olive oil. Swap in whatever is in season.")
    True
    """  # noqa: D205
    spec = spec_of(title)
    description, servings, prep = pick(rng, DESCRIPTIONS), pick(rng, SERVINGS_DRAWN), pick(rng, PREP_DRAWN)
    directions = f"{spec['directions']} {pick(rng, TIPS)}"
    return {**spec, "description": description, "servings": servings, "prep_time": prep, "directions": directions,
            "ingredients": [pick(rng, AMOUNTS)]}


def variants(rng: random.Random, target: dict[str, Any], n: int, *, keep: tuple[str, ...] = ()) -> list[dict]:
    """`n` recipes of `target`'s title (and its `keep` fields), each differing from the target and one another."""
    out: list[dict[str, Any]] = []
    while len(out) < n:
        value = {**drawn_recipe(rng, target["title"]), **{k: target[k] for k in keep}}
        if value != target and value not in out:
            out.append(value)
    return out


def as_listed(spec: dict[str, Any]) -> dict[str, Any]:
    """A recipe spec as Broccoli's state lists it after set-up (without the id)."""
    return {**spec, "favourite": False}


def row_at(index: int, elements: Elements, state: State) -> Action:
    """A tap on the unfiltered list's row `index` (in the list's order), scrolling it into view first."""
    box = find(elements, rid=f"{R.PACKAGE}:id/recycler_view")
    if box is None:
        return wait()
    top = box.bounds[1] + index * R.ROW_H - state["screen"]["scroll"]
    row = next((e for e in elements if e.rid == R.ROW_RID and e.bounds[1] == top and e.bounds[3] == top + R.ROW_H),
               None)
    if row is not None:
        return tap(row)
    return swipe_down() if top < box.bounds[1] else swipe_up()


def delete_step(recipe_id: int, elements: Elements, state: State) -> Action:
    """The next step to delete the recipe with id `recipe_id`: the list, its row, Delete recipe, Delete."""
    step = into_app(R.RecipesApp.label, R.PACKAGE, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] in ("delete", "details"):
        mine = screen["args"]["id"] == recipe_id
        if screen["name"] == "delete":
            return press(elements, text="Delete" if mine else "Cancel")
        return press(elements, desc="Delete recipe") if mine else back()
    step = to_list(elements, state)
    if step is not None:
        return step
    ids = [r["id"] for r in state_of(state, R.RecipesState)["recipes"]]
    return row_at(ids.index(recipe_id), elements, state) if recipe_id in ids else wait()


class RecipeDeleteMultipleRecipes(AndroidWorldTemplate):
    """Delete recipes {titles} (three, in the goal's order), the only recipes in Broccoli: exactly they are removed,
    nothing else changed."""  # noqa: D205, D209

    name, split_key = "RecipeDeleteMultipleRecipes", "titles"
    goal_template = RecipeDeleteSingleRecipe.goal_template
    apps, max_steps = (R.PACKAGE,), 20
    targets: ClassVar[int] = 3
    noise: ClassVar[int] = 0

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """`noise` then `targets` distinct titles; the goal lists the targets joined by ", "."""
        titles = distinct_titles(rng, self.noise + self.targets)
        targets = titles[self.noise:]
        return {"titles": ", ".join(targets), "targets": [spec_of(t) for t in targets],
                "noise": [spec_of(t) for t in titles[:self.noise]]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli holds the noise recipes, then the targets (AndroidWorld's rows, targets last), nothing else."""
        recipes = [*params["noise"], *params["targets"]]
        return {R.PACKAGE: {"absent": [*SEEDED, *(r["title"] for r in recipes)], "recipes": recipes}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the targets removed, each as set up; nothing added, nothing changed."""
        r = state_of(state, R.RecipesState)
        removed = sorted((plain(x) for x in r["removed"]), key=repr)
        return (removed == sorted((as_listed(t) for t in params["targets"]), key=repr) and not r["added"]
                and not r["changed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Delete the targets still there, one by one, in the goal's order."""
        listed = state_of(state, R.RecipesState)["recipes"]
        for target in params["targets"]:
            found = next((r["id"] for r in listed if plain(r) == as_listed(target)), None)
            if found is not None:
                return delete_step(found, elements, state)
        return wait()


class RecipeDeleteMultipleRecipesWithNoise(RecipeDeleteMultipleRecipes):
    """Delete recipes {titles} among 29 recipes of other titles: exactly they are removed, nothing else changed."""

    name, max_steps = "RecipeDeleteMultipleRecipesWithNoise", 30
    noise = 29


class RecipeDeleteMultipleRecipesWithConstraint(RecipeDeleteMultipleRecipes):
    """Delete the recipes whose directions use {ingredient} (up to 3) among 29 whose directions do not."""

    name, split_key, max_steps = "RecipeDeleteMultipleRecipesWithConstraint", "ingredient", 30
    goal_template = "Delete the recipes from Broccoli app that use {ingredient} in the directions."
    noise = 29

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """An ingredient; 29 recipes whose directions lack it, then up to 3 whose directions have it (AndroidWorld
        takes fewer when fewer recipes use it)."""  # noqa: D205, D209
        ingredient = pick(rng, INGREDIENTS)
        uses = [t for t in TITLES if ingredient in spec_of(t)["directions"].lower()]
        lacks = [t for t in TITLES if t not in uses]
        noise = rng.sample(lacks, self.noise)
        targets = rng.sample(uses, min(self.targets, len(uses)))
        return {"ingredient": ingredient, "targets": [spec_of(t) for t in targets],
                "noise": [spec_of(t) for t in noise]}


class RecipeDeleteDuplicateRecipes(AndroidWorldTemplate):
    """Delete one of the two identical copies of a recipe among 5 other recipes: exactly one copy removed, nothing
    else changed."""  # noqa: D205, D209

    name, split_key = "RecipeDeleteDuplicateRecipes", "target_title"
    goal_template = ("Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring at "
                     "least one instance of each unique recipe remains")
    apps, max_steps = (R.PACKAGE,), 11
    noise: ClassVar[int] = 5

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """`noise` + 1 recipes of distinct titles, fields drawn; the last one is the duplicated target."""
        recipes = [drawn_recipe(rng, t) for t in distinct_titles(rng, self.noise + 1)]
        target = recipes.pop()
        return {"target_title": target["title"], "target": target, "noise": recipes}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli holds the noise recipes, then the target twice (AndroidWorld's rows), nothing else."""
        recipes = [*params["noise"], params["target"], params["target"]]
        return {R.PACKAGE: {"absent": [*SEEDED, *(r["title"] for r in recipes)], "recipes": recipes}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one copy of the target removed (either); nothing added, nothing changed."""
        r = state_of(state, R.RecipesState)
        return ([plain(x) for x in r["removed"]] == [as_listed(params["target"])] and not r["added"]
                and not r["changed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """While both copies are there, delete the first one in the list."""
        want = as_listed(params["target"])
        copies = [r["id"] for r in state_of(state, R.RecipesState)["recipes"] if plain(r) == want]
        return delete_step(copies[0], elements, state) if len(copies) > 1 else wait()


class RecipeDeleteDuplicateRecipes2(RecipeDeleteDuplicateRecipes):
    """The duplicated recipe among 6 recipes of other titles and 4 of its own title that differ from it."""

    name, max_steps = "RecipeDeleteDuplicateRecipes2", 12
    noise = 10

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """7 recipes of distinct titles, the last the target; then recipes of its title, fields drawn, differing from
        it and one another, up to `noise`."""  # noqa: D205, D209
        noise = [drawn_recipe(rng, t) for t in distinct_titles(rng, 7)]
        target = noise.pop()
        noise += variants(rng, target, self.noise - len(noise))
        return {"target_title": target["title"], "target": target, "noise": noise}


class RecipeDeleteDuplicateRecipes3(RecipeDeleteDuplicateRecipes):
    """The duplicated recipe among 21 recipes of other titles, 3 of the title sorting first (on top of the list) and
    6 of its own title and description that differ from it: the agent scrolls and opens near-identical rows."""  # noqa: D205, D209

    name, max_steps = "RecipeDeleteDuplicateRecipes3", 16
    noise = 30

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """22 recipes of distinct titles (not `FIRST`), the last the target; 3 distinct recipes titled `FIRST`; then
        recipes of the target's title and description, differing from it and one another, up to `noise`."""  # noqa: D205, D209
        titles: list[str] = []
        while len(titles) < 22:
            title = pick(rng, TITLES)
            if title != FIRST and title not in titles:
                titles.append(title)
        noise = [drawn_recipe(rng, t) for t in titles]
        target = noise.pop()
        top = drawn_recipe(rng, FIRST)
        noise += [top, *variants(rng, top, 2)]
        noise += variants(rng, target, self.noise - len(noise), keep=("description",))
        return {"target_title": target["title"], "target": target, "noise": noise}


TEMPLATES = (RecipeDeleteMultipleRecipes(), RecipeDeleteMultipleRecipesWithNoise(),
             RecipeDeleteMultipleRecipesWithConstraint(), RecipeDeleteDuplicateRecipes(),
             RecipeDeleteDuplicateRecipes2(), RecipeDeleteDuplicateRecipes3())
