"""AndroidWorld's Broccoli deletions of one recipe: `RecipeDeleteSingleRecipe` and
`RecipeDeleteSingleWithRecipeWithNoise` ("Delete the following recipes from Broccoli app: {titles}.").

AndroidWorld clears Broccoli's database, inserts one random recipe (with 29 more of other titles, all titles distinct,
in the noisy variant), and checks the database afterwards: that recipe's row gone, every other row as it was, none
added. Here the recipes are the sim's own (`recipes_tasks.KNOWN`: the app's seeded pool and the World tasks'
recipes, each with its own description, servings, time and ingredients), drawn as AndroidWorld draws its titles;
Broccoli's seeded recipes are cleared as AndroidWorld clears the table, so the list holds exactly the drawn recipes.
The World template `recipes_delete_recipe` plays and checks the instance: exactly that recipe removed, as it was set
up, nothing added, nothing changed (a recipe edited, a favourite starred).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any, ClassVar

from android_gym.sim.apps import recipes as R
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.recipes_tasks import KNOWN, DeleteRecipeTemplate, spec_of

TITLES = tuple(KNOWN)
"""The recipes an instance draws from (AndroidWorld draws from its 38 recipes; the sim has 70)."""
SEEDED = tuple(title for title, *_ in R.POOL)
"""Every title Broccoli may seed an episode with: `absent` clears them all, as AndroidWorld clears the table."""


def distinct_titles(rng: random.Random, n: int) -> list[str]:
    """`n` recipe titles drawn one by one, a title drawn again skipped (AndroidWorld's loop over its recipes).

    >>> distinct_titles(random.Random(0), 3)
    ['Tropical Fruit Salad', 'Cheese and Ham Omelette', 'Guacamole']
    """
    titles: list[str] = []
    while len(titles) < n:
        title = pick(rng, TITLES)
        if title not in titles:
            titles.append(title)
    return titles


class RecipeDeleteSingleRecipe(AndroidWorldTemplate):
    """Delete recipe {titles}, the only recipe in Broccoli: exactly it removed, nothing else changed."""

    name, split_key = "RecipeDeleteSingleRecipe", "titles"
    goal_template = "Delete the following recipes from Broccoli app: {titles}."
    like = DeleteRecipeTemplate()
    noise: ClassVar[int] = 0
    """Recipes of other titles beside the target (AndroidWorld's `n_rows_noise`)."""

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The target's title (the goal's `titles`: one title), after `noise` titles of other recipes."""
        titles = distinct_titles(rng, self.noise + 1)
        return {"titles": titles[-1], "noise": titles[:-1]}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The target's title."""
        return {"title": params["titles"], "other": None}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli holds the noise recipes, then the target, and nothing else."""
        titles = [*params["noise"], params["titles"]]
        return {R.PACKAGE: {"absent": [*SEEDED, *titles], "recipes": [spec_of(t) for t in titles]}}


class RecipeDeleteSingleWithRecipeWithNoise(RecipeDeleteSingleRecipe):
    """Delete recipe {titles} among 29 recipes of other titles: exactly it removed, nothing else changed."""

    name = "RecipeDeleteSingleWithRecipeWithNoise"
    noise = 29
    max_steps = 16  # the expert scrolls 30 titles: 5-10 steps (`like` budgets for its 6-12 seeded recipes)


TEMPLATES = (RecipeDeleteSingleRecipe(), RecipeDeleteSingleWithRecipeWithNoise())
