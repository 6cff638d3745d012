"""World-suite tasks over Broccoli (issue 17): add a recipe, delete one, favourite two, change the servings of one,
answer how long one takes to prepare, declare the deletion of a missing recipe impossible, copy a recipe's
ingredients into a new Markor note, and add a recipe written down in a Markor note.

Every task puts its recipe on the phone under a fixed title (`SPECS`) among the seeded ones, next to a near miss with
a similar title ("Tomato Soup" and "Tomato Basil Soup", with other servings, time and ingredients), so the seeded
recipes only shift the rows. Checks read Broccoli's state and its record of what was added, removed and changed since
set-up, so touching the near miss, or anything else, fails. Splits hold out recipe pairs (`split_of` on the title).
Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry dropped taps by acting on the
unchanged screen again.

Everyday lines (issue 49, `goals.everyday.recipes`) name recipes of the app's own pool too (`KNOWN`), often without a
near miss ("other" None); a recipe they add is "loose" (title by its words, other fields free); a single favourite
has "b" None. `OpenRecipeTemplate` exists for "find a recipe" lines and stays out of `TEMPLATES`.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import recipes as R
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, press
from android_gym.tasks.world.infeasible_tasks import impossible, looking_at
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    folded_words,
    markor_create,
    markor_item,
    markor_write,
    only_touched,
)
from android_gym.ui import UIElement

REC = R.PACKAGE
LABEL = R.RecipesApp.label
PAIRS = (
    (("Tomato Soup", "6 tomatoes; 1 onion; 500 ml vegetable stock"),
     ("Tomato Basil Soup", "800 g canned tomatoes; Fresh basil; 2 garlic cloves; 100 ml cream")),
    (("Chicken Salad", "2 chicken breasts; 1 lettuce; 2 tbsp mayonnaise"),
     ("Chicken Caesar Salad", "1 chicken breast; 1 romaine lettuce; 30 g parmesan; Croutons")),
    (("Berry Smoothie", "150 g mixed berries; 1 banana; 200 ml milk"),
     ("Berry Smoothie Bowl", "200 g frozen berries; 100 g yogurt; 2 tbsp granola")),
    (("Garlic Bread", "1 baguette; 4 garlic cloves; 80 g butter"),
     ("Cheesy Garlic Bread", "1 baguette; 3 garlic cloves; 60 g butter; 100 g mozzarella")),
    (("Beef Stew", "800 g stewing beef; 3 carrots; 4 potatoes; 1 l beef stock"),
     ("Beef and Ale Stew", "800 g stewing beef; 500 ml ale; 2 onions")),
    (("Veggie Burger", "400 g black beans; 50 g breadcrumbs; 4 burger buns"),
     ("Veggie Burger Deluxe", "4 veggie patties; 4 brioche buns; 1 avocado; 4 slices cheddar")),
    (("Fried Rice", "300 g cooked rice; 100 g peas; 2 spring onions; 2 tbsp soy sauce"),
     ("Egg Fried Rice", "300 g cooked rice; 3 eggs; 1 tbsp sesame oil")),
    (("Carrot Cake", "300 g grated carrots; 250 g flour; 200 g brown sugar; 3 eggs"),
     ("Carrot Cake Muffins", "200 g grated carrots; 180 g flour; 120 g sugar")),
    (("Pesto Pasta", "400 g penne; 190 g basil pesto; 30 g pine nuts"),
     ("Pesto Pasta Salad", "300 g fusilli; 3 tbsp pesto; 150 g cherry tomatoes; 125 g mozzarella")),
    (("Fruit Salad", "2 apples; 2 oranges; 200 g grapes; 1 kiwi"),
     ("Tropical Fruit Salad", "1 mango; 1 pineapple; 2 passion fruits")),
    (("Potato Salad", "1 kg new potatoes; 4 tbsp mayonnaise; Fresh chives"),
     ("Warm Potato Salad", "800 g potatoes; 150 g bacon; 2 tbsp mustard; 3 tbsp vinegar")),
    (("Cheese Omelette", "3 eggs; 50 g cheddar; 1 tbsp butter"),
     ("Cheese and Ham Omelette", "3 eggs; 40 g gruyere; 2 slices ham; Chives")),
    (("Pumpkin Soup", "1 kg pumpkin; 1 onion; 750 ml stock; 100 ml cream"),
     ("Spiced Pumpkin Soup", "1 butternut squash; 1 tsp cumin; 1 tsp chili flakes")),
    (("Rice Pudding", "100 g pudding rice; 1 l milk; 50 g sugar"),
     ("Baked Rice Pudding", "120 g pudding rice; 900 ml milk; 60 g sugar; Nutmeg")),
    (("Fish Pie", "600 g white fish; 1 kg potatoes; 500 ml milk; 50 g butter"),
     ("Smoked Fish Pie", "400 g smoked haddock; 200 g prawns; 800 g potatoes")),
    (("Pork Dumplings", "300 g minced pork; 30 dumpling wrappers; 2 spring onions"),
     ("Pork and Cabbage Dumplings", "250 g minced pork; 200 g napa cabbage; 25 wrappers; 1 tbsp ginger")),
    (("Lamb Kebabs", "600 g lamb shoulder; 1 red onion; 2 peppers; 1 lemon"),
     ("Lamb Kofta Kebabs", "500 g minced lamb; 1 tsp cumin; Fresh mint")),
    (("Corn Fritters", "300 g sweetcorn; 100 g flour; 2 eggs"),
     ("Sweetcorn Fritters", "250 g sweetcorn; 80 g flour; 1 egg; 1 red chili")),
    (("Oatmeal Cookies", "200 g oats; 150 g butter; 150 g brown sugar; 1 egg"),
     ("Oatmeal Raisin Cookies", "180 g oats; 100 g raisins; 120 g butter")),
    (("Tuna Melt", "2 cans tuna; 4 slices bread; 100 g cheddar"),
     ("Tuna Melt Bagel", "1 can tuna; 2 bagels; 2 slices swiss cheese; 1 tbsp mayonnaise")),
)
"""Task recipes: (title, ingredients) for a recipe and its similarly titled near miss."""
SERVINGS = ("2", "4", "6", "8", "3")
TIMES = ("15 min", "25 min", "40 min", "1 h", "1 h 30 min", "50 min", "35 min")
NOTES = ("shopping_list.md", "groceries.md", "to_buy.md", "market_run.md", "ingredients.md", "weekend_cooking.md",
         "dinner_plan.md", "pantry.md")


def _spec(title: str, ingredients: str, i: int) -> dict[str, Any]:
    return {"title": title, "description": f"Homemade {title.lower()}", "servings": SERVINGS[i % len(SERVINGS)],
            "prep_time": TIMES[i % len(TIMES)], "categories": ["Family favourites"],
            "ingredients": ingredients.split("; "), "directions": f"Prepare the ingredients and make the {title}."}


SPECS: dict[str, dict[str, Any]] = {}
"""Every task recipe as `RecipesInitial.recipes` takes it, by title (a recipe and its near miss never share servings,
preparation time or ingredients)."""
for _i, ((_a, _ai), (_b, _bi)) in enumerate(PAIRS):
    SPECS[_a], SPECS[_b] = _spec(_a, _ai, _i), _spec(_b, _bi, _i + 1)
NEAR = {**{a: b for (a, _), (b, _) in PAIRS}, **{b: a for (a, _), (b, _) in PAIRS}}
"""Each task title's near miss."""
KNOWN: dict[str, dict[str, Any]] = {
    **{title: {"title": title, "description": description, "servings": servings, "prep_time": prep,
               "categories": categories.split(", "), "ingredients": ingredients.split("; "), "directions": directions}
       for title, description, servings, prep, categories, ingredients, directions in R.POOL},
    **SPECS}
"""Every recipe a task can put on the phone, by title: the app's seeded pool and the task recipes (issue 49: the
recipes an everyday line names)."""


def spec_of(title: str) -> dict[str, Any]:
    """Recipe `title` as `RecipesInitial.recipes` takes it.

    Raises:
        KeyError: no task or seeded recipe has that title.
    """
    return KNOWN[title]


def note_name(title: str) -> str:
    """The Markor note a recipe is written down in.

    >>> note_name("Beef and Ale Stew")
    'beef_and_ale_stew.md'
    """
    return title.lower().replace(" ", "_") + ".md"


def note_text(title: str) -> str:
    """Task recipe `title` written down as a note: the title, servings, time, then the ingredients one a line."""
    spec = SPECS[title]
    return (f"# {title}\nServes {spec['servings']}, ready in {spec['prep_time']}\n\nIngredients:\n"
            + "\n".join(spec["ingredients"]))


def folded(text: str) -> str:
    """A title or value with case and spacing folded, for comparisons."""
    return " ".join(text.split()).casefold()


def as_set_up(title: str, **changes: Any) -> dict[str, Any]:
    """Task recipe `title` as the state lists it (without the id) after set-up, with `changes`."""
    return {**spec_of(title), "favourite": False, **changes}


def plain(r: Mapping[str, Any]) -> dict[str, Any]:
    """A recipe of the state without its id."""
    return {k: v for k, v in r.items() if k != "id"}


def untouched(state: State) -> bool:
    """Whether nothing in Broccoli was added, removed or changed since set-up."""
    r = state_of(state, R.RecipesState)
    return not (r["added"] or r["removed"] or r["changed"])


# -- expert steps ------------------------------------------------------------------------------------------------------
def to_list(elements: Elements, state: State) -> Action | None:
    """The next step to Broccoli's unfiltered recipe list (None once it is in front, searching nothing)."""
    step = into_app(LABEL, REC, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    name = screen["name"]
    if name == "form" and screen["args"]["discard"]:
        return press(elements, text="Discard")
    if name == "delete":
        return press(elements, text="Cancel")
    if name != "list":
        return back()
    if screen["fields"].get(R.SEARCH_RID):
        return back()  # closes the keyboard, then clears the search
    if screen["args"]["favourites"]:
        return press(elements, text="All recipes")
    return None


def find_row(elements: Elements, title: str) -> UIElement | None:
    """The list row of recipe `title`, when on screen."""
    return find(elements, rid=R.ROW_RID, desc=title)


def to_details(title: str, elements: Elements, state: State) -> Action | None:
    """The next step to the details of recipe `title` (None once they are in front): the list, scroll, its row."""
    r = state_of(state, R.RecipesState)
    if state["foreground"] == REC and r["screen"] == "details" and not state.get("dialog"):
        if r["open"] == title:
            return into_app(LABEL, REC, elements, state)
        return back()
    step = to_list(elements, state)
    if step is not None:
        return step
    row = find_row(elements, title)
    if row is not None:
        return tap(row)
    # The list is sorted by title: scroll back up when the title sorts before every row on screen.
    shown = [e.desc.casefold() for e in elements if e.rid == R.ROW_RID]
    return swipe_down() if shown and title.casefold() < shown[0] else swipe_up()


def form_step(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """On the form: make it hold `want`'s title, description, servings, preparation time and ingredients, then
    Save."""  # noqa: D205, D209
    if state["screen"]["args"]["discard"]:
        return press(elements, text="Keep editing")
    for rid, value in ((R.TITLE_RID, want["title"]), (R.DESCRIPTION_RID, want["description"]),
                       (R.SERVINGS_RID, want["servings"]),
                       (R.PREP_RID, want["prep_time"]), (R.INGREDIENTS_RID, "\n".join(want["ingredients"]))):
        step = fill(elements, state, rid, value)
        if step is not None:
            return step
    return press(elements, desc="Save")


def editing(state: State) -> R.RecipeEdit | None:
    """Broccoli's open form when it is in front, unobstructed, else None."""
    if state["foreground"] != REC or state.get("dialog") or state["screen"]["name"] != "form":
        return None
    return state_of(state, R.RecipesState)["editing"]


# -- templates ---------------------------------------------------------------------------------------------------------
class _RecipeTemplate(WorldTemplate):
    """A template on task recipe {title}, whose near miss {other} is there too; split and phrasing by the pair."""

    split_key = "pair"
    apps: tuple[str, ...] = (REC,)

    def grid(self) -> list[dict[str, Any]]:
        """Each task title, the near miss being the other title of its pair, twice with rotating phrasing."""
        out = []
        for i, ((a, _), (b, _)) in enumerate(PAIRS):
            for k, (title, other) in enumerate(((a, b), (b, a))):
                out.append({"title": title, "other": other, "pair": a, "phrasing": i + k, **self.extra(title, i + k)})
        return out

    def extra(self, title: str, i: int) -> dict[str, Any]:
        """More parameters of the task on `title` (none by default)."""
        return {}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recipe and its near miss; no other recipe of either title (an everyday line's params, issue 49, may
        have no near miss: "other" None)."""  # noqa: D205, D209
        titles = [t for t in (params["title"], params["other"]) if t is not None]
        return {REC: {"absent": titles, "recipes": [spec_of(t) for t in titles]}}


class AddRecipeTemplate(_RecipeTemplate):
    """Add recipe {title} with its description, servings, preparation time and ingredients; its near miss is
    already there."""  # noqa: D205, D209

    name, max_steps = "recipes_add_recipe", 22
    phrasings = ('In Broccoli, add a recipe "{title}" described as "{description}", for {servings} servings, that '
                 "takes {prep_time}, with the ingredients {list}",
                 'Save a new recipe in my recipe app: "{title}" ("{description}"), serves {servings}, preparation '
                 "time {prep_time}, ingredients: {list}",
                 'Create the recipe "{title}" in Broccoli. Description: {description}. Servings: {servings}. '
                 "Preparation time: {prep_time}. Ingredients (one per line): {list}")

    def extra(self, title: str, i: int) -> dict[str, Any]:
        """The recipe's description, servings, time and ingredients as the goal says them."""
        spec = SPECS[title]
        return {"description": spec["description"], "servings": spec["servings"], "prep_time": spec["prep_time"],
                "ingredients": list(spec["ingredients"]), "list": "; ".join(spec["ingredients"])}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the near miss (none for an everyday line's params)."""
        if params["other"] is None:
            return {REC: {"absent": [params["title"]]}}
        return {REC: {"absent": [params["title"], params["other"]], "recipes": [SPECS[params["other"]]]}}

    def want(self, params: Params) -> dict[str, Any]:
        """The recipe to add, as the form takes it (a field the goal leaves out stays empty)."""
        want = {k: params[k] for k in ("title", "description", "servings", "prep_time", "ingredients")}
        return {k: v if v is not None else [] if k == "ingredients" else "" for k, v in want.items()}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one recipe added, with that title, description, servings, time and ingredients (any directions);
        nothing removed or changed.

        An everyday line's params ("loose", issue 49) name the title only (its words count: the line's apostrophes
        are gone), the other fields None (anything).
        """  # noqa: D205
        r = state_of(state, R.RecipesState)
        added = r["added"]
        if len(added) != 1 or r["removed"] or r["changed"]:
            return False
        got = added[0]
        if params.get("loose"):
            return folded_words(got["title"]) == folded_words(params["title"])
        return (folded(got["title"]) == folded(params["title"]) and folded(got["servings"]) == params["servings"]
                and folded(got["description"]) == folded(params["description"])
                and folded(got["prep_time"]) == folded(params["prep_time"])
                and [folded(i) for i in got["ingredients"]] == [folded(i) for i in params["ingredients"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, Add recipe, title, description, servings, preparation time, ingredients (one a line), Save."""
        if editing(state) is not None and editing(state)["id"] is None:
            return form_step(self.want(params), elements, state)
        return to_list(elements, state) or press(elements, desc=R.FAB_DESC)


class DeleteRecipeTemplate(_RecipeTemplate):
    """Delete recipe {title}; the similarly titled {other} stays."""

    name, max_steps = "recipes_delete_recipe", 11
    phrasings = ('Delete the recipe "{title}" from Broccoli',
                 "In my recipe app, remove the {title} recipe",
                 'I no longer need the "{title}" recipe; delete it in Broccoli')

    def check(self, params: Params, state: State) -> bool:
        """Only that recipe removed; nothing added or changed."""
        r = state_of(state, R.RecipesState)
        return ([plain(x) for x in r["removed"]] == [as_set_up(params["title"])] and not r["added"]
                and not r["changed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, its row, Delete recipe, Delete."""
        step = into_app(LABEL, REC, elements, state)
        if step is None and state["screen"]["name"] == "delete":
            return press(elements, text="Delete")
        return step or to_details(params["title"], elements, state) or press(elements, desc="Delete recipe")


class FavouriteTwoTemplate(WorldTemplate):
    """Mark recipes {a} and {b} as favourites; their near misses stay as they are."""

    name, max_steps, split_key = "recipes_favourite_two", 14, "a"
    apps = (REC,)
    phrasings = ('In Broccoli, add "{a}" and "{b}" to my favourites',
                 "Mark the recipes {a} and {b} as favourites in my recipe app",
                 'Star both "{a}" and "{b}" in Broccoli')

    def grid(self) -> list[dict[str, Any]]:
        """Each pair's first title with the first title of two later pairs of the same split."""
        out = []
        for split in ("train", "test"):
            pool = [(a, b) for (a, _), (b, _) in PAIRS if split_of(a) == split]
            for i, (a, near_a) in enumerate(pool):
                for k, j in enumerate((1, 2)):
                    b, near_b = pool[(i + j) % len(pool)]
                    if b != a:
                        out.append({"a": a, "b": b, "near": [near_a, near_b], "phrasing": i + k})
        return out

    @staticmethod
    def titles(params: Params) -> list[str]:
        """The recipes to favourite: {a} and {b} ("b" None: an everyday line's one recipe, issue 49)."""
        return [t for t in (params["a"], params["b"]) if t is not None]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both recipes and both near misses, none a favourite."""
        titles = [*self.titles(params), *params["near"]]
        return {REC: {"absent": titles, "recipes": [spec_of(t) for t in titles]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly those two recipes changed, each only to a favourite; nothing added or removed."""
        r = state_of(state, R.RecipesState)
        changed = sorted((plain(x) for x in r["changed"]), key=lambda x: x["title"])
        want = sorted((as_set_up(t, favourite=True) for t in self.titles(params)), key=lambda x: x["title"])
        return changed == want and not r["added"] and not r["removed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """For each: the list, its row, Add to favourites."""
        favourites = {x["title"] for x in state_of(state, R.RecipesState)["recipes"] if x["favourite"]}
        todo = [t for t in self.titles(params) if t not in favourites]
        if not todo:
            return wait()
        return to_details(todo[0], elements, state) or press(elements, desc=R.FAVOURITE_DESC)


class ChangeServingsTemplate(_RecipeTemplate):
    """Change the servings of recipe {title} to {new}; its near miss keeps its own."""

    name, max_steps = "recipes_change_servings", 16
    phrasings = ('In Broccoli, change the servings of "{title}" to {new}',
                 "The {title} recipe should make {new} servings: update it in my recipe app",
                 'Edit the recipe "{title}" so that it serves {new}')

    def extra(self, title: str, i: int) -> dict[str, Any]:
        """Servings the recipe does not have yet (nor its near miss)."""
        return {"new": str(10 + i % 3)}

    def check(self, params: Params, state: State) -> bool:
        """Only that recipe changed, only in its servings; nothing added or removed."""
        r = state_of(state, R.RecipesState)
        return ([plain(x) for x in r["changed"]] == [as_set_up(params["title"], servings=params["new"])]
                and not r["added"] and not r["removed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, its row, Edit recipe, Servings, Save."""
        form = editing(state)
        if form is not None and form["id"] is not None:
            if state["screen"]["args"]["discard"]:
                return press(elements, text="Keep editing")
            return fill(elements, state, R.SERVINGS_RID, params["new"]) or press(elements, desc="Save")
        return to_details(params["title"], elements, state) or press(elements, desc="Edit recipe")


class PrepTimeAnswerTemplate(_RecipeTemplate):
    """How long does {title} take to prepare? Answered with the preparation time on its details."""

    name, max_steps = "recipes_prep_time_answer", 10
    outcome = "answer"
    phrasings = ('How long does "{title}" take to prepare? Check Broccoli',
                 "What is the preparation time of my {title} recipe?",
                 'Look up in Broccoli how much time the recipe "{title}" needs')

    def answer(self, params: Params, state: State) -> str | None:
        """The preparation time of the one recipe of that title, while nothing was added, removed or changed."""
        found = [x for x in state_of(state, R.RecipesState)["recipes"] if x["title"] == params["title"]]
        return found[0]["prep_time"] if len(found) == 1 and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, its row, answer with the preparation time shown."""
        step = to_details(params["title"], elements, state)
        return step or answer_with(find(elements, rid=R.PREP_VALUE_RID))


class OpenRecipeTemplate(_RecipeTemplate):
    """Find recipe {title} (information retrieval): Broccoli shows its details. Not in the suite's `TEMPLATES` (its
    tasks are the everyday lines', issue 49), though its grid makes it a complete template."""  # noqa: D205, D209

    name, max_steps = "recipes_open_recipe", 9
    phrasings = ('Find the recipe "{title}" in Broccoli', "Show me my {title} recipe",
                 'Open the "{title}" recipe in my recipe app')

    def check(self, params: Params, state: State) -> bool:
        """Broccoli in front on the recipe's details, nothing added, removed or changed."""
        r = state_of(state, R.RecipesState)
        return state["foreground"] == REC and r["open"] == params["title"] and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, scroll to its row, open it."""
        return to_details(params["title"], elements, state) or wait()


class DeleteMissingRecipeTemplate(_RecipeTemplate):
    """Delete recipe {title}, which is not there: only the similarly titled {other} is (delete nothing)."""

    name, max_steps = "recipes_delete_missing", 11
    outcome = "infeasible"
    phrasings = DeleteRecipeTemplate.phrasings

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the near miss."""
        return {REC: {"absent": [params["title"], params["other"]], "recipes": [SPECS[params["other"]]]}}

    def check(self, params: Params, state: State) -> bool:
        """No recipe of that title, and nothing added, removed or changed."""
        return untouched(state) and not any(folded(x["title"]) == folded(params["title"])
                                            for x in state_of(state, R.RecipesState)["recipes"])

    def looked(self, params: Params, state: State) -> bool:
        """The recipe list in front, unfiltered or searching part of the title."""
        mine = looking_at(state, R.RecipesState, "list")
        return mine is not None and not mine["favourites_only"] and folded(mine["search"]) in folded(params["title"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The list, search the title; without its row among the results, declare the task impossible."""
        step = into_app(LABEL, REC, elements, state)
        screen = state["screen"]
        if step is None and screen["name"] == "list" and not screen["args"]["favourites"]:
            step = fill(elements, state, R.SEARCH_RID, params["title"])
            if step is not None:
                return step
            if find_row(elements, params["title"]) is not None:
                return wait()  # the recipe is there after all: the task is not infeasible, so do nothing
            return impossible() if find(elements, rid=R.FOOTER_RID) is not None else swipe_up()
        return step or to_list(elements, state) or wait()


class IngredientsToNoteTemplate(_RecipeTemplate):
    """Write recipe {title}'s ingredients, one a line, into a new Markor note {note}."""

    name, max_steps = "recipes_ingredients_to_note", 20
    apps = (REC, MARKOR)
    phrasings = ('Put the ingredients of the "{title}" recipe from Broccoli into a new Markor note named "{note}", '
                 "one per line",
                 "Create a Markor note {note} listing the ingredients of my {title} recipe (one per line)",
                 'Copy the ingredient list of "{title}" from my recipe app into a new note "{note}" in Markor, '
                 "one ingredient per line")

    def extra(self, title: str, i: int) -> dict[str, Any]:
        """The note's name."""
        return {"note": NOTES[i % len(NOTES)]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recipe and its near miss; no note of that name."""
        return {**super().initial(params), MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params) -> str:
        """The note's expected text."""
        return "\n".join(SPECS[params["title"]]["ingredients"])

    def check(self, params: Params, state: State) -> bool:
        """The note in Markor's root holds the ingredients, one a line; no other note edited, no recipe changed."""
        m = state_of(state, markor.MarkorState)
        got = [folded(s) for s in m["files"].get(params["note"], "").split("\n") if s.strip()]
        return (got == [folded(s) for s in SPECS[params["title"]]["ingredients"]]
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recipe in Broccoli to read its ingredients, then create the note in Markor and type them."""
        if state_of(state, R.RecipesState)["last_opened"] != params["title"]:
            return to_details(params["title"], elements, state) or wait()
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], self.text(params), elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class NoteToRecipeTemplate(_RecipeTemplate):
    """Add recipe {title} to Broccoli with the servings and ingredients its Markor note {note} lists; the near
    miss's note lies next to it and the near miss is already in Broccoli."""  # noqa: D205, D209

    name, max_steps = "recipes_note_to_recipe", 22
    apps = (MARKOR, REC)
    phrasings = ('My Markor note "{note}" has a recipe: add it to Broccoli as "{title}", with its servings and '
                 "ingredients (one per line)",
                 'Save the recipe from the note {note} in Markor into my recipe app, titled "{title}", with the '
                 "servings and the ingredients it lists",
                 'Create a Broccoli recipe "{title}" from my Markor note "{note}": servings and ingredients as '
                 "written there")

    def extra(self, title: str, i: int) -> dict[str, Any]:
        """The note's name, after the title."""
        return {"note": note_name(title)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Notes for both recipes; the near miss only in Broccoli."""
        title, other = params["title"], params["other"]
        return {REC: {"absent": [title, other], "recipes": [SPECS[other]]},
                MARKOR: {"absent": [note_name(title), note_name(other)],
                         "files": {note_name(title): note_text(title), note_name(other): note_text(other)}}}

    def want(self, params: Params) -> dict[str, Any]:
        """The recipe to add, as the form takes it (no description or time)."""
        spec = SPECS[params["title"]]
        return {"title": params["title"], "description": "", "servings": spec["servings"], "prep_time": "",
                "ingredients": spec["ingredients"]}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one recipe added, with that title, the note's servings and ingredients (anything else free);
        nothing removed or changed in Broccoli, no note edited."""  # noqa: D205, D209
        r, m = state_of(state, R.RecipesState), state_of(state, markor.MarkorState)
        added = r["added"]
        if len(added) != 1 or r["removed"] or r["changed"] or not only_touched(m["edits"], set()):
            return False
        got, want = added[0], self.want(params)
        return (folded(got["title"]) == folded(want["title"]) and folded(got["servings"]) == want["servings"]
                and [folded(i) for i in got["ingredients"]] == [folded(i) for i in want["ingredients"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor to read it, then add the recipe in Broccoli (Add recipe, the fields, Save)."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["note"]:
            return markor_item(params["note"], elements, state)
        if editing(state) is not None and editing(state)["id"] is None:
            return form_step(self.want(params), elements, state)
        return to_list(elements, state) or press(elements, desc=R.FAB_DESC)


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddRecipeTemplate(), DeleteRecipeTemplate(), FavouriteTwoTemplate(), ChangeServingsTemplate(),
    PrepTimeAnswerTemplate(), DeleteMissingRecipeTemplate(), IngredientsToNoteTemplate(), NoteToRecipeTemplate(),
)
"""The Broccoli templates of the world suite."""
