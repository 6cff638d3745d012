r"""AndroidWorld's Broccoli additions: `RecipeAddSingleRecipe` and `RecipeAddMultipleRecipes` ("Add the following
recipes into the Broccoli app:\n{text}"), `RecipeAddMultipleRecipesFromMarkor` (the recipes written in Markor's
recipes.txt) and `RecipeAddMultipleRecipesFromMarkor2` (those of recipes.txt that take a drawn preparation time).

AndroidWorld clears Broccoli's table, inserts 10 noise recipes (40 in the second Markor task), and draws 1 or 3
target recipes (`recipes_delete.drawn_recipe`: a recipe of its list with description, servings, preparation time,
ingredients and a tip after its directions drawn), written as CSV (a header of AndroidWorld's column names, fields
split by "|") or as text blocks ("Recipe: <title>" then one " <field>: <value>" line per field), one of the two at
random (`as_text`). Its check: every target matched by a row of the table (title, description, servings, time,
ingredients, directions by fuzzy match, favourite exactly), as many rows as before plus the targets, and every row of
before still there as it was. Here titles are distinct across targets and noise (the sim's 70 recipes), and the check
is `added_exactly`: exactly the targets added, each field equal once case and spacing are folded (the ingredients'
lines read as one text), none a favourite, nothing removed or changed; AndroidWorld's fuzzy match lets a tenth of a
field be mistyped, here a typo loses. The Markor tasks clear Markor's seeded notebook, as AndroidWorld clears its
directory, and write recipes.txt at its root; Markor is not checked (AndroidWorld does not check it either).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import recipes as R
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.recipes import SEEDED, distinct_titles
from android_gym.tasks.androidworld.recipes_delete import PREP_DRAWN, drawn_recipe
from android_gym.tasks.expert import fill, wait
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.notes_expert import MARKOR, markor_item
from android_gym.tasks.world.recipes_tasks import editing, folded, to_list

COLUMNS = ("title", "description", "servings", "preparationTime", "ingredients", "directions")
"""AndroidWorld's column names, in the order its text lists a recipe's fields."""
KEYS = ("title", "description", "servings", "prep_time", "ingredients", "directions")
"""The sim recipe's keys for those columns."""
FILE = "recipes.txt"
"""The Markor note the Markor tasks write their recipes into (at the notebook's root)."""
MARKOR_SEEDED = (*markor.FOLDERS, *(stem + ext for stem, _ in markor.NOTES for ext in (".md", ".txt")))
"""Every folder and note Markor may seed an episode with: `absent` clears them all, as AndroidWorld clears its
directory."""


def field_text(recipe: Mapping[str, Any], key: str) -> str:
    """Field `key` of `recipe` as one text (the ingredients' lines joined by ", ")."""
    value = recipe[key]
    return ", ".join(value) if key == "ingredients" else str(value)


def as_text(recipes: Sequence[Mapping[str, Any]], form: str) -> str:
    """`recipes` written as AndroidWorld writes rows: "csv" (a header, then "|"-separated fields) or "text_block".

    >>> r = {"title": "Hummus", "description": "Dip", "servings": "6", "prep_time": "10 min",
    ...      "ingredients": ["as needed"], "directions": "Blend."}
    >>> print(as_text([r], "csv"))
    title|description|servings|preparationTime|ingredients|directions
    Hummus|Dip|6|10 min|as needed|Blend.
    >>> print(as_text([r], "text_block"))
    Recipe: Hummus
     description: Dip
     servings: 6
     preparationTime: 10 min
     ingredients: as needed
     directions: Blend.
    <BLANKLINE>
    """
    if form == "csv":
        return "\n".join(["|".join(COLUMNS), *("|".join(field_text(r, k) for k in KEYS) for r in recipes)])
    blocks = [f"Recipe: {r['title']}\n" + "".join(f" {c}: {field_text(r, k)}\n" for c, k in zip(COLUMNS[1:], KEYS[1:],
                                                                                                 strict=True))
              for r in recipes]
    return "\n".join(blocks)


def matches(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Whether Broccoli's recipe `got` is `want` (each field with case and spacing folded, the ingredients' lines as
    one text) and no favourite."""  # noqa: D205, D209
    return not got["favourite"] and all(
        folded(" ".join(got[k]) if k == "ingredients" else got[k])
        == folded(" ".join(want[k]) if k == "ingredients" else want[k]) for k in KEYS)


def added_exactly(targets: Sequence[Mapping[str, Any]], state: State) -> bool:
    """Exactly `targets` added to Broccoli (one recipe each), nothing removed or changed."""
    r = state_of(state, R.RecipesState)
    added = list(r["added"])
    if r["removed"] or r["changed"] or len(added) != len(targets):
        return False
    for want in targets:
        found = next((got for got in added if matches(want, got)), None)
        if found is None:
            return False
        added.remove(found)
    return True


def add_step(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """The next step to add recipe `want`: the list, Add recipe, every field (directions too), Save."""
    form = editing(state)
    if form is None or form["id"] is not None:
        return to_list(elements, state) or press(elements, desc=R.FAB_DESC)
    if state["screen"]["args"]["discard"]:
        return press(elements, text="Keep editing")
    rids = (R.TITLE_RID, R.DESCRIPTION_RID, R.SERVINGS_RID, R.PREP_RID, R.INGREDIENTS_RID, R.DIRECTIONS_RID)
    for rid, key in zip(rids, KEYS, strict=True):
        step = fill(elements, state, rid, "\n".join(want[key]) if key == "ingredients" else want[key])
        if step is not None:
            return step
    return press(elements, desc="Save")


class RecipeAddMultipleRecipes(AndroidWorldTemplate):
    """Add the 3 recipes the goal writes out (CSV or text blocks) beside 10 others: exactly they are added."""

    name, split_key = "RecipeAddMultipleRecipes", "titles"
    goal_template = "Add the following recipes into the Broccoli app:\n{text}"
    apps, max_steps = (R.PACKAGE,), 64
    targets: ClassVar[int] = 3
    noise: ClassVar[int] = 10

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The targets, then the noise, of distinct titles, fields drawn; the text's form."""
        titles = distinct_titles(rng, self.targets + self.noise)
        recipes = [drawn_recipe(rng, t) for t in titles]
        targets = recipes[:self.targets]
        form = pick(rng, ("csv", "text_block"))
        return {"titles": ", ".join(titles[:self.targets]), "targets": targets, "noise": recipes[self.targets:],
                "form": form, "text": as_text(targets, form)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli holds the noise recipes and nothing else."""
        titles = [r["title"] for r in [*params["targets"], *params["noise"]]]
        return {R.PACKAGE: {"absent": [*SEEDED, *titles], "recipes": params["noise"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the targets added (`added_exactly`)."""
        return added_exactly(params["targets"], state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add the targets not there yet, in the goal's order."""
        listed = state_of(state, R.RecipesState)["recipes"]
        todo = [t for t in params["targets"] if not any(matches(t, got) for got in listed)]
        return add_step(todo[0], elements, state) if todo else wait()


class RecipeAddSingleRecipe(RecipeAddMultipleRecipes):
    """Add the one recipe the goal writes out beside 10 others: exactly it is added."""

    name, max_steps = "RecipeAddSingleRecipe", 24
    targets = 1


class RecipeAddMultipleRecipesFromMarkor(RecipeAddMultipleRecipes):
    """Add the 3 recipes written in Markor's recipes.txt beside 10 others in Broccoli: exactly they are added."""

    name, max_steps = "RecipeAddMultipleRecipesFromMarkor", 70
    goal_template = "Add the recipes from recipes.txt in Markor to the Broccoli recipe app."
    apps = (MARKOR, R.PACKAGE)

    def file_text(self, params: Params) -> str:
        """What recipes.txt holds: the targets."""
        return params["text"]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli's noise; Markor's notebook cleared, holding recipes.txt alone."""
        return {**super().initial(params), MARKOR: {"absent": [*MARKOR_SEEDED, FILE],
                                                    "files": {FILE: self.file_text(params)}}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open recipes.txt in Markor to read it, then add the targets in Broccoli."""
        if state_of(state, markor.MarkorState)["last_opened"] != FILE:
            return markor_item(FILE, elements, state)
        return super().expert(params, elements, state)


class RecipeAddMultipleRecipesFromMarkor2(RecipeAddMultipleRecipesFromMarkor):
    """Add the 3 recipes of recipes.txt that take {prep_time}, among 40 that take other times and are in Broccoli
    already: exactly those 3 are added."""  # noqa: D205, D209

    name, max_steps = "RecipeAddMultipleRecipesFromMarkor2", 70
    goal_template = ("Add the recipes from recipes.txt in Markor that take {prep_time} to prepare into the Broccoli "
                     "recipe app.")
    noise = 40

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A preparation time; 3 recipes that take it, 40 that do not (distinct titles); the file's form and the
        order it lists the 43 in (AndroidWorld shuffles them)."""  # noqa: D205, D209
        prep_time = pick(rng, PREP_DRAWN)
        titles = distinct_titles(rng, self.targets + self.noise)
        recipes = []
        for i, title in enumerate(titles):
            recipe = drawn_recipe(rng, title)
            while (recipe["prep_time"] == prep_time) != (i < self.targets):
                recipe = drawn_recipe(rng, title)
            recipes.append(recipe)
        targets, noise = recipes[:self.targets], recipes[self.targets:]
        listed = [*targets, *noise]
        rng.shuffle(listed)
        form = pick(rng, ("csv", "text_block"))
        return {"prep_time": prep_time, "titles": ", ".join(titles[:self.targets]), "targets": targets,
                "noise": noise, "form": form, "text": as_text(listed, form)}


TEMPLATES = (RecipeAddSingleRecipe(), RecipeAddMultipleRecipes(), RecipeAddMultipleRecipesFromMarkor(),
             RecipeAddMultipleRecipesFromMarkor2())
