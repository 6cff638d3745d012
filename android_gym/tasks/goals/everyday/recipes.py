"""Everyday phrasings of the recipe goals (issue 49), mapped onto the World suite's Broccoli templates.

"Find a recipe for banana bread", "Save the pancake recipe to my favorites", "Add a recipe called Grandma's chili",
"How long does the lasagna recipe take?". A recipe the line looks up, favourites or asks about must be one Broccoli
can hold: one of its seeded pool or of the World tasks' recipes (`recipes_tasks.KNOWN`), named as the app titles it or
in the singular ("the pancake recipe": Pancakes); the task puts it on the phone. A new recipe's title is the line's
words in title case (its apostrophes are gone, so the check compares titles by their words).

    >>> from android_gym.tasks.goals import parse_goal
    >>> parse_goal("Save the pancake recipe to my favorites").params["a"]
    'Pancakes'
    >>> parse_goal("Find a recipe for tiramisu").reason
    "recipes: the simulated phone knows no recipe 'tiramisu'"
"""

from __future__ import annotations

from typing import Any

from android_gym.tasks.goals.everyday.notes import Words
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Names
from android_gym.tasks.goals.text import words
from android_gym.tasks.world.recipes_tasks import (
    KNOWN,
    AddRecipeTemplate,
    FavouriteTwoTemplate,
    OpenRecipeTemplate,
    PrepTimeAnswerTemplate,
)


def _singular_and_plural(title: str) -> dict[str, str]:
    """Other ways a line names recipe `title`: its last word in the singular or the plural ("pancake", "lasagnas")."""
    key = " ".join(words(title))
    other = key[:-1] if key.endswith("s") else key + "s"
    return {other: title}


_ALIASES = {k: v for title in KNOWN for k, v in _singular_and_plural(title).items() if k not in
            {" ".join(words(t)) for t in KNOWN}}
_READERS = {"recipe": Names("recipe", {title: title for title in KNOWN}, _ALIASES, strip=("recipe",)),
            "title": Words("recipe title", str.title)}


def _known(slots: Slots) -> dict[str, Any]:
    """A recipe the task puts on the phone, without a near miss."""
    return {"title": slots["recipe"], "other": None, "pair": slots["recipe"], "phrasing": 0}


def _new(slots: Slots) -> dict[str, Any]:
    """A recipe to add under the line's title, every other field free (None)."""
    title = slots["title"]
    return {"title": title, "other": None, "pair": title, "description": None, "servings": None, "prep_time": None,
            "ingredients": None, "list": "", "phrasing": 0, "loose": True}


RULES: tuple[Rule, ...] = (
    rule("recipes", OpenRecipeTemplate(), (
        "(find|show me|open|look up|get|pull up) [me] [a|the|my] recipe (for|of) [a|an|the|my] {recipe}",
        "(find|show me|open|look up|pull up) [me] [the|my] {recipe} recipe",
    ), _known, readers=_READERS),
    rule("recipes", FavouriteTwoTemplate(), (
        "(save|add|put) [the|my] {recipe} [recipe] (to|in|into|among) [my|the] (favorites|favourites)",
        "(favorite|favourite|star) [the|my] {recipe} [recipe]",
        "mark [the|my] {recipe} [recipe] as [a] (favorite|favourite)",
    ), lambda s: {"a": s["recipe"], "b": None, "near": [], "phrasing": 0}, readers=_READERS),
    rule("recipes", AddRecipeTemplate(), (
        "(add|create|save|make|write|enter) [a|an] [new] recipe (called|named|titled|for) {title}",
    ), _new, readers=_READERS),
    rule("recipes", PrepTimeAnswerTemplate(), (
        "how long (does|will|do) [the|my|a|an] {recipe} [recipe] take [to make|to prepare|to cook]",
        "how long (does|do|will) it take to (make|prepare|cook) [the|my|a|an] {recipe} [recipe]",
        "(what is|what's) the (preparation|prep|cooking) time (of|for) [the|my] {recipe} [recipe]",
    ), _known, readers=_READERS),
)
"""The recipe families: find, favourite, add, and how long one takes."""
