"""The Broccoli recipe app (com.flauschcode.broccoli): a searchable recipe list, recipe details, an editor, favourites.

Recipes are drawn per episode from `stable_seed("recipes", phone.seed)` (never the episode RNG): 6-12 of the `POOL`'s
30, a few of them favourites. A recipe is a `Recipe`; the list is sorted by title. Screens: "list" (args
{"favourites": whether only favourites show}; the search text in fields[SEARCH_RID] filters by title as one types;
the "All recipes" / "Favourites" chips; the "Add recipe" FAB; BACK clears a search, then the Favourites filter),
"details" (args {"id"}: title, description, servings, preparation time, categories, ingredients, directions; the
favourite star, Edit recipe and Delete recipe in the app bar), "delete" (the "Delete this recipe?" dialog over the
details) and "form" (args {"id": the edited recipe or None, "original", "error", "discard"}: Title, Description,
Servings, Preparation time, Ingredients (one a line) and Directions fields, Save in the app bar; BACK or "Navigate
up" with unsaved changes asks "Discard changes?"). Tasks read the state as a `RecipesState` and set initial conditions
with a `RecipesInitial`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from pydantic import field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog, inert
from android_gym.sim.app_state import closed
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.flauschcode.broccoli"
SEARCH_RID = f"{PACKAGE}:id/search_src_text"
TITLE_RID, DESCRIPTION_RID, SERVINGS_RID, PREP_RID, INGREDIENTS_RID, DIRECTIONS_RID = (
    f"{PACKAGE}:id/{n}" for n in ("new_title", "new_description", "new_servings", "new_preparation_time",
                                  "new_ingredients", "new_directions"))
FIELDS = (TITLE_RID, DESCRIPTION_RID, SERVINGS_RID, PREP_RID, INGREDIENTS_RID, DIRECTIONS_RID)
"""The form's fields, top to bottom; ENTER moves on from the one-line ones and starts a new line in the others."""
MULTILINE = (INGREDIENTS_RID, DIRECTIONS_RID)
ROW_RID = f"{PACKAGE}:id/card_view"
ROW_TITLE_RID = f"{PACKAGE}:id/card_text_view_title"
FOOTER_RID = f"{PACKAGE}:id/list_footer"
DETAIL_TITLE_RID = f"{PACKAGE}:id/recipe_details_title"
SERVINGS_VALUE_RID = f"{PACKAGE}:id/recipe_details_servings"
PREP_VALUE_RID = f"{PACKAGE}:id/recipe_details_preparation_time"
INGREDIENT_RID = f"{PACKAGE}:id/ingredient_text"
DIRECTIONS_VALUE_RID = f"{PACKAGE}:id/recipe_details_directions"
FAB_DESC = "Add recipe"
FAVOURITE_DESC, UNFAVOURITE_DESC = "Add to favourites", "Remove from favourites"
ROW_H = 200
POOL: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    ("Spaghetti Carbonara", "Creamy Roman pasta with pancetta", "4", "25 min", "Pasta, Italian",
     "400 g spaghetti; 150 g pancetta; 3 eggs; 50 g pecorino; Black pepper",
     "Cook the pasta. Fry the pancetta. Mix eggs and cheese, toss with the hot pasta and pancetta."),
    ("Chicken Curry", "Mild curry with coconut milk", "4", "45 min", "Main course, Indian",
     "600 g chicken thighs; 1 onion; 2 tbsp curry paste; 400 ml coconut milk; Fresh coriander",
     "Brown the chicken, soften the onion, stir in the paste and coconut milk and simmer for 25 minutes."),
    ("Greek Salad", "Tomatoes, cucumber, olives and feta", "2", "15 min", "Salad, Vegetarian",
     "3 tomatoes; 1 cucumber; 1 red onion; 100 g feta; Kalamata olives; Olive oil",
     "Chop the vegetables, add olives and feta, dress with olive oil and oregano."),
    ("Banana Bread", "Moist loaf with ripe bananas", "8", "1 h 10 min", "Baking, Dessert",
     "3 ripe bananas; 250 g flour; 100 g butter; 150 g sugar; 2 eggs; 1 tsp baking soda",
     "Mash the bananas, mix in the rest and bake at 175 C for an hour."),
    ("Pancakes", "Fluffy breakfast pancakes", "4", "20 min", "Breakfast",
     "200 g flour; 2 eggs; 300 ml milk; 1 tbsp sugar; 1 tsp baking powder",
     "Whisk everything into a batter and fry small rounds in a buttered pan."),
    ("Guacamole", "Avocado dip with lime", "4", "10 min", "Dip, Vegan",
     "3 avocados; 1 lime; 1 small onion; 1 tomato; Salt",
     "Mash the avocados with lime juice, fold in onion and tomato, season."),
    ("Beef Chili", "Hearty chili con carne", "6", "1 h 30 min", "Main course",
     "500 g minced beef; 2 onions; 400 g kidney beans; 800 g chopped tomatoes; 2 tsp chili powder",
     "Brown the beef and onions, add spices, tomatoes and beans, simmer for an hour."),
    ("Mushroom Risotto", "Creamy arborio rice with mushrooms", "4", "40 min", "Main course, Vegetarian",
     "300 g arborio rice; 250 g mushrooms; 1 l vegetable stock; 1 onion; 50 g parmesan",
     "Fry onion and mushrooms, toast the rice, add stock ladle by ladle, finish with parmesan."),
    ("Lentil Soup", "Warming red lentil soup", "4", "35 min", "Soup, Vegan",
     "250 g red lentils; 1 carrot; 1 onion; 1 l vegetable stock; 1 tsp cumin",
     "Soften the vegetables, add lentils, stock and cumin, simmer and blend."),
    ("Caesar Salad", "Romaine with croutons and parmesan", "2", "20 min", "Salad",
     "1 romaine lettuce; 2 slices bread; 30 g parmesan; Caesar dressing",
     "Toast the bread cubes, toss the lettuce with dressing, top with croutons and parmesan."),
    ("Apple Pie", "Classic double-crust pie", "8", "1 h 20 min", "Baking, Dessert",
     "6 apples; 2 pie crusts; 120 g sugar; 1 tsp cinnamon; 2 tbsp butter",
     "Fill the crust with spiced apples, cover, and bake at 190 C for 50 minutes."),
    ("Shakshuka", "Eggs poached in spiced tomato sauce", "2", "30 min", "Breakfast, Vegetarian",
     "4 eggs; 400 g chopped tomatoes; 1 red pepper; 1 onion; 1 tsp paprika",
     "Cook the pepper and onion, add tomatoes and spices, crack in the eggs and cover until set."),
    ("Fish Tacos", "Crispy fish with lime slaw", "4", "30 min", "Main course, Mexican",
     "500 g white fish; 8 tortillas; 200 g cabbage; 1 lime; Sour cream",
     "Fry the seasoned fish, shred the cabbage with lime, fill the tortillas."),
    ("Pad Thai", "Stir-fried rice noodles", "2", "30 min", "Noodles, Thai",
     "200 g rice noodles; 150 g shrimp; 2 eggs; 50 g peanuts; 3 tbsp pad thai sauce",
     "Soak the noodles, stir-fry shrimp and egg, toss in noodles and sauce, top with peanuts."),
    ("Tomato Bruschetta", "Toasted bread with fresh tomatoes", "4", "15 min", "Starter, Italian",
     "1 baguette; 4 tomatoes; 1 garlic clove; Fresh basil; Olive oil",
     "Toast the bread, rub with garlic, top with chopped tomatoes and basil."),
    ("Chocolate Mousse", "Light and airy dessert", "6", "20 min", "Dessert",
     "200 g dark chocolate; 4 eggs; 2 tbsp sugar; 200 ml cream",
     "Melt the chocolate, fold in whipped cream and beaten egg whites, chill for 3 hours."),
    ("Vegetable Stir Fry", "Quick vegetables with soy and ginger", "2", "20 min", "Main course, Vegan",
     "1 broccoli; 1 red pepper; 1 carrot; 2 tbsp soy sauce; 1 piece ginger",
     "Stir-fry the vegetables on high heat, add ginger and soy sauce."),
    ("French Onion Soup", "Caramelised onions under melted cheese", "4", "1 h 15 min", "Soup, French",
     "6 onions; 1 l beef stock; 4 slices baguette; 100 g gruyere; 50 g butter",
     "Caramelise the onions slowly, add stock and simmer, grill with bread and cheese on top."),
    ("Blueberry Muffins", "Soft muffins full of berries", "12", "35 min", "Baking, Breakfast",
     "250 g flour; 150 g blueberries; 100 g sugar; 2 eggs; 120 ml milk",
     "Mix the dry and wet ingredients separately, combine, fold in berries and bake 20 minutes."),
    ("Hummus", "Chickpea dip with tahini", "6", "10 min", "Dip, Vegan",
     "400 g chickpeas; 3 tbsp tahini; 1 lemon; 1 garlic clove; Olive oil",
     "Blend everything smooth, loosen with a little water, drizzle with olive oil."),
    ("Lasagna", "Layered pasta bake", "6", "1 h 45 min", "Pasta, Italian",
     "12 lasagna sheets; 500 g minced beef; 700 ml tomato sauce; 500 ml bechamel; 100 g mozzarella",
     "Layer sauce, sheets and bechamel, top with mozzarella, bake at 180 C for 45 minutes."),
    ("Overnight Oats", "No-cook breakfast jar", "1", "5 min", "Breakfast",
     "50 g oats; 120 ml milk; 2 tbsp yogurt; 1 tsp honey; Berries",
     "Stir everything in a jar and leave it in the fridge overnight."),
    ("Falafel", "Crispy chickpea fritters", "4", "50 min", "Main course, Vegan",
     "400 g dried chickpeas; 1 onion; Fresh parsley; 2 tsp cumin; Oil for frying",
     "Blend soaked chickpeas with herbs and spices, shape into balls and fry until golden."),
    ("Quiche Lorraine", "Savoury tart with bacon", "6", "1 h", "Baking, French",
     "1 shortcrust pastry; 200 g bacon; 3 eggs; 200 ml cream; 100 g gruyere",
     "Blind bake the pastry, fill with bacon, cheese and the egg mixture, bake 30 minutes."),
    ("Minestrone", "Italian vegetable soup", "6", "50 min", "Soup, Italian",
     "1 onion; 2 carrots; 2 celery sticks; 400 g chopped tomatoes; 100 g small pasta",
     "Soften the vegetables, add tomatoes and water, simmer, add the pasta for the last 10 minutes."),
    ("Teriyaki Salmon", "Glazed salmon fillets", "2", "25 min", "Main course, Fish",
     "2 salmon fillets; 3 tbsp soy sauce; 1 tbsp honey; 1 tbsp mirin; Sesame seeds",
     "Simmer the glaze, brush it over the salmon and roast at 200 C for 12 minutes."),
    ("Caprese Salad", "Tomato, mozzarella and basil", "2", "10 min", "Salad, Italian",
     "2 tomatoes; 125 g mozzarella; Fresh basil; Olive oil; Balsamic vinegar",
     "Slice and layer tomato and mozzarella, add basil, oil and vinegar."),
    ("Potato Gratin", "Sliced potatoes baked in cream", "6", "1 h 20 min", "Side dish, French",
     "1 kg potatoes; 300 ml cream; 2 garlic cloves; 100 g gruyere; Nutmeg",
     "Layer thin potato slices with garlic cream, top with cheese and bake at 170 C for an hour."),
    ("Lemon Drizzle Cake", "Zesty loaf cake", "10", "55 min", "Baking, Dessert",
     "225 g butter; 225 g sugar; 4 eggs; 225 g flour; 2 lemons",
     "Beat butter and sugar, add eggs, flour and zest, bake, pour lemon syrup over the warm cake."),
    ("Chicken Noodle Soup", "Comforting clear soup", "4", "40 min", "Soup",
     "2 chicken breasts; 1.5 l chicken stock; 2 carrots; 100 g egg noodles; Fresh dill",
     "Poach the chicken in stock with carrots, shred it, add noodles and dill."),
)
"""Seeded recipes: title, description, servings, preparation time, categories, ingredients ("; "), directions."""


def lines(text: str) -> list[str]:
    r"""A multi-line field's non-blank lines, stripped (how the app stores ingredients).

    >>> lines(" 2 eggs\n\n100 g flour ")
    ['2 eggs', '100 g flour']
    """
    return [s.strip() for s in text.split("\n") if s.strip()]


def one_line(text: str) -> str:
    """A one-line field's text with its spacing folded (how the app stores titles, servings and times)."""
    return " ".join(text.split())


def seeded_recipes(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s recipes: 6-12 of the pool (ids from 1), about a quarter of them favourites."""
    rng = np.random.default_rng(stable_seed("recipes", seed))
    picked = rng.choice(len(POOL), size=int(rng.integers(6, 13)), replace=False)
    out = []
    for i, k in enumerate(sorted(int(k) for k in picked)):
        title, description, servings, prep, categories, ingredients, directions = POOL[k]
        out.append({"id": i + 1, "title": title, "description": description, "servings": servings,
                    "prep_time": prep, "categories": categories.split(", "), "ingredients": ingredients.split("; "),
                    "directions": directions, "favourite": bool(rng.random() < 0.25)})
    return out


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
RecipesScreen = Literal["list", "details", "delete", "form"]


@closed
class Recipe(TypedDict):
    """A recipe: its id, the texts of its fields (servings "4", prep_time "45 min"), categories, ingredients (one a
    line) and whether it is a favourite."""  # noqa: D205, D209

    id: int
    title: str
    description: str
    servings: str
    prep_time: str
    categories: list[str]
    ingredients: list[str]
    directions: str
    favourite: bool


@closed
class RecipeEdit(TypedDict):
    """The open form: the recipe edited (None: a new one) and its fields' texts (ingredients one a line)."""

    id: int | None
    title: str
    description: str
    servings: str
    prep_time: str
    ingredients: str
    directions: str


@closed
class RecipesState(TypedDict):
    """What Broccoli reports (`RecipesApp.state`).

    Attributes:
        recipes: every recipe by title (case aside), then by id.
        screen: the front Broccoli screen's name, None when another app's screen is in front.
        open: the title on a front "details" screen, else None.
        last_opened: the title of the recipe whose details were opened last, None before any.
        search: the list's search text ("" without a list).
        favourites_only: whether the list shows favourites only.
        editing: the open form, None when no form is open.
        added: recipes not there at set-up; removed: set-up recipes no longer there, as they were; changed: recipes
            still there that differ from set-up, as they are now.
    """

    recipes: list[Recipe]
    screen: RecipesScreen | None
    open: str | None
    last_opened: str | None
    search: str
    favourites_only: bool
    editing: RecipeEdit | None
    added: list[Recipe]
    removed: list[Recipe]
    changed: list[Recipe]


class RecipeSpec(ConfigModel):
    """A recipe a task puts on the phone (every field but the title may be left out).

    Attributes:
        title: its title (not blank).
        description: its description.
        servings: the Servings field's text ("4").
        prep_time: the Preparation time field's text ("45 min").
        categories: its categories.
        ingredients: its ingredients, one a line.
        directions: its directions.
        favourite: whether it is a favourite.
    """

    title: str
    description: str = ""
    servings: str = ""
    prep_time: str = ""
    categories: tuple[str, ...] = ()
    ingredients: tuple[str, ...] = ()
    directions: str = ""
    favourite: bool = False

    @field_validator("title")
    @classmethod
    def _titled(cls, title: str) -> str:
        if not title.strip():
            raise FieldError("title", "a title that is not blank", title)
        return title


class RecipesInitial(ConfigModel):
    """The initial conditions a Broccoli task may set (applied in this order).

    Attributes:
        absent: titles (any case) no recipe has: the seeded recipes so titled are removed.
        recipes: recipes added to the seeded ones, with the next ids in this order.
    """

    absent: tuple[str, ...] = ()
    recipes: tuple[RecipeSpec, ...] = ()


def _copy(r: Mapping[str, Any]) -> dict[str, Any]:
    return {**r, "categories": list(r["categories"]), "ingredients": list(r["ingredients"])}


class RecipesApp(App):
    """Broccoli: keep recipes, search them by title, mark favourites, add, edit and delete them."""

    package = PACKAGE
    label = "Broccoli"
    icon = "recipes"
    aliases = ("recipes", "recipe app", "broccoli recipe app")
    state_schema = RecipesState
    initial_model = RecipesInitial

    def reset(self) -> None:
        """The episode's seeded recipes; nothing opened yet."""
        self.recipes: list[dict[str, Any]] = seeded_recipes(self.phone.seed)
        self.last_opened: str | None = None
        self._baseline = {r["id"]: _copy(r) for r in self.recipes}

    def set_up(self, initial: RecipesInitial) -> None:
        """Remove the recipes of the `absent` titles, add the given ones; all of it is the starting point."""
        gone = {t.casefold() for t in initial.absent}
        self.recipes = [r for r in self.recipes if r["title"].casefold() not in gone]
        for spec in initial.recipes:
            self.recipes.append({"id": self._next_id(), **spec.model_dump(), "categories": list(spec.categories),
                                 "ingredients": list(spec.ingredients)})
        self._baseline = {r["id"]: _copy(r) for r in self.recipes}

    def _next_id(self) -> int:
        return max([0, *self._baseline, *(r["id"] for r in self.recipes)]) + 1

    def home(self) -> Screen:
        """The recipe list, unfiltered."""
        return Screen(PACKAGE, "list", {"favourites": False})

    def find(self, recipe_id: int) -> dict[str, Any] | None:
        """The recipe with id `recipe_id`, or None."""
        return next((r for r in self.recipes if r["id"] == recipe_id), None)

    def ordered(self) -> list[dict[str, Any]]:
        """Every recipe by title (case aside), then by id."""
        return sorted(self.recipes, key=lambda r: (r["title"].casefold(), r["id"]))

    def shown(self, screen: Screen) -> list[dict[str, Any]]:
        """The recipes list `screen` shows: favourites only when filtered, titles containing the search text."""
        query = one_line(screen.fields.get(SEARCH_RID, "")).casefold()
        return [r for r in self.ordered() if (r["favourite"] or not screen.args["favourites"])
                and query in r["title"].casefold()]

    def state(self) -> RecipesState:
        """The recipes, where the app is, and what changed since set-up (see `RecipesState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine and self.phone.top is mine[-1] else None
        listed = next((s for s in mine if s.name == "list"), None)
        form = next((s for s in reversed(mine) if s.name == "form"), None)
        editing = None if form is None else {"id": form.args["id"], **{
            k: form.fields.get(rid, "") for k, rid in zip(("title", "description", "servings", "prep_time",
                                                         "ingredients", "directions"), FIELDS, strict=True)}}
        opened = self.find(front.args["id"]) if front is not None and front.name == "details" else None
        now = {r["id"]: r for r in self.recipes}
        return {"recipes": [_copy(r) for r in self.ordered()], "screen": front.name if front else None,
                "open": opened["title"] if opened else None, "last_opened": self.last_opened,
                "search": listed.fields.get(SEARCH_RID, "") if listed else "",
                "favourites_only": bool(listed and listed.args["favourites"]), "editing": editing,
                "added": [_copy(r) for i, r in now.items() if i not in self._baseline],
                "removed": [_copy(r) for i, r in self._baseline.items() if i not in now],
                "changed": [_copy(r) for i, r in now.items() if i in self._baseline and r != self._baseline[i]]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or the delete dialog over the inert details."""
        pages = {"list": self._list, "details": self._details, "form": self._form}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        r = self.find(screen.args["id"]) or {"title": ""}
        return [*inert(pages[below.name](below), below.scroll),
                alert_dialog(PACKAGE, "Delete this recipe?", f"\u201c{r['title']}\u201d will be deleted.",
                             [("Cancel", ("cancel",)), ("Delete", ("delete",))], ("cancel",))]

    def _bar(self, title: str, up: bool, actions: list[View]) -> View:
        b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        kids = [View(IMAGE_BUTTON, (0, b[1], TOOLBAR_H, b[3]), desc="Navigate up", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=NavKey("back"), icon="back")] if up else []
        left = TOOLBAR_H if up else MARGIN
        if title:  # the details show their title in the page, under an empty app bar
            kids.append(View(TEXT_VIEW, (left, b[1], WIDTH - TOOLBAR_H * len(actions), b[3]), text=title,
                             rid=f"{PACKAGE}:id/toolbar_title", package=PACKAGE, style="title"))
        return View(FRAME, b, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=kids + actions)

    @staticmethod
    def _action(k: int, desc: str, icon: str, event: tuple, rid: str, **extra: Any) -> View:
        """The `k`-th app bar icon button from the right."""
        b = (WIDTH - (k + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - k * TOOLBAR_H, CONTENT_TOP + TOOLBAR_H)
        return View(IMAGE_BUTTON, b, desc=desc, rid=f"{PACKAGE}:id/{rid}", package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon, **extra)

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        favourites = screen.args["favourites"]
        views = [self._bar("Favourites" if favourites else "Recipes", False, []),
                 text_field((MARGIN, top + 20, WIDTH - MARGIN, top + 150), SEARCH_RID,
                            screen.fields.get(SEARCH_RID, ""), "Search recipes", screen.focus == SEARCH_RID,
                            PACKAGE, icon="search")]
        for k, (label, on) in enumerate((("All recipes", False), ("Favourites", True))):
            views.append(View(BUTTON, (MARGIN + k * 360, top + 180, MARGIN + k * 360 + 330, top + 290), text=label,
                              rid=f"{PACKAGE}:id/chip_filter", package=PACKAGE, clickable=True, focusable=True,
                              checkable=True, checked=favourites == on, on_tap=("filter", on), style="chip"))
        y = top + 320
        rows: list[View] = []
        shown = self.shown(screen)
        for r in shown:
            kids = [View(TEXT_VIEW, (MARGIN, y + 30, WIDTH - 200, y + 110), text=r["title"], rid=ROW_TITLE_RID,
                         package=PACKAGE, style="row_title"),
                    View(TEXT_VIEW, (MARGIN, y + 110, WIDTH - 200, y + 170), text=r["description"],
                         rid=f"{PACKAGE}:id/card_text_view_description", package=PACKAGE, style="row_summary")]
            if r["favourite"]:
                kids.append(View(IMAGE_BUTTON, (WIDTH - 170, y + 50, WIDTH - 70, y + 150), desc="Favourite",
                                 package=PACKAGE, icon="star"))
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=r["title"], rid=ROW_RID, package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("open", r["id"]), style="row", children=kids))
            y += ROW_H
        n = len(shown)
        empty = "No favourites yet" if favourites else "No recipes found"
        rows.append(View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 120),
                         text=f"{n} recipe{'' if n == 1 else 's'}" if n else empty, rid=FOOTER_RID, package=PACKAGE,
                         style="hint"))
        rows.append(View(VIEW, (0, y + 120, WIDTH, y + 400), package=PACKAGE))  # room to scroll clear of the FAB
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                   rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True, on_tap=("add",),
                   style="fab", icon="add")
        return [*views, scroll_list(top + 320, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/recycler_view"),
                fab]

    def _details(self, screen: Screen) -> list[View]:
        r = self.find(screen.args["id"])
        if r is None:  # only while a screen outlives its recipe; never on top
            return [self._bar("", True, [])]
        fav = r["favourite"]
        actions = [self._action(0, "Delete recipe", "delete", ("ask_delete",), "action_delete"),
                   self._action(1, "Edit recipe", "edit", ("edit",), "action_edit"),
                   self._action(2, UNFAVOURITE_DESC if fav else FAVOURITE_DESC, "star", ("favourite",),
                                "action_favourite", checkable=True, checked=fav)]
        top = CONTENT_TOP + TOOLBAR_H
        y = top + 30
        rows = [View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 130), text=r["title"], rid=DETAIL_TITLE_RID,
                     package=PACKAGE, style="title")]
        y += 140
        if r["description"]:
            rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 80), text=r["description"],
                             rid=f"{PACKAGE}:id/recipe_details_description", package=PACKAGE, style="secondary"))
            y += 100
        categories = ", ".join(r["categories"])
        for label, value, rid in (("Servings", r["servings"], SERVINGS_VALUE_RID),
                                  ("Preparation time", r["prep_time"], PREP_VALUE_RID),
                                  ("Categories", categories, f"{PACKAGE}:id/recipe_details_categories")):
            if value:
                rows += [View(TEXT_VIEW, (MARGIN, y, 520, y + 90), text=label, package=PACKAGE, style="secondary"),
                         View(TEXT_VIEW, (520, y, WIDTH - MARGIN, y + 90), text=value, rid=rid, package=PACKAGE,
                              style="row_title")]
                y += 100
        y += 30
        rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 100), text="Ingredients", package=PACKAGE,
                         style="section"))
        y += 110
        for item in r["ingredients"]:
            rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 80), text=item, rid=INGREDIENT_RID,
                             package=PACKAGE, style="row_summary"))
            y += 80
        y += 40
        rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 100), text="Directions", package=PACKAGE,
                         style="section"))
        y += 110
        height = 80 * (1 + len(r["directions"]) // 40)
        rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + height), text=r["directions"] or "No directions",
                         rid=DIRECTIONS_VALUE_RID, package=PACKAGE, style="row_summary"))
        rows.append(View(VIEW, (0, y + height, WIDTH, y + height + 200), package=PACKAGE))
        return [self._bar("", True, actions),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/recipe_details_scroll")]

    def _form(self, screen: Screen) -> list[View]:
        args, f = screen.args, screen.fields
        save = self._action(0, "Save", "check", ("save",), "action_save")
        views = [self._bar("Edit recipe" if args["id"] else "New recipe", True, [save])]
        y = CONTENT_TOP + TOOLBAR_H + 30
        if args["error"]:
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 80), text=args["error"],
                              rid=f"{PACKAGE}:id/error_text", package=PACKAGE, style="link"))
            y += 90
        half = (WIDTH - 2 * MARGIN - 30) // 2
        layout = ((TITLE_RID, "Title", (MARGIN, WIDTH - MARGIN), 140),
                  (DESCRIPTION_RID, "Description", (MARGIN, WIDTH - MARGIN), 140),
                  (SERVINGS_RID, "Servings", (MARGIN, MARGIN + half), 140),
                  (PREP_RID, "Preparation time", (WIDTH - MARGIN - half, WIDTH - MARGIN), 140),
                  (INGREDIENTS_RID, "Ingredients (one per line)", (MARGIN, WIDTH - MARGIN), 360),
                  (DIRECTIONS_RID, "Directions", (MARGIN, WIDTH - MARGIN), 360))
        for rid, hint, (x0, x1), h in layout:
            views.append(text_field((x0, y, x1, y + h), rid, f.get(rid, ""), hint, screen.focus == rid, PACKAGE))
            if rid != SERVINGS_RID:  # Servings and Preparation time share a row
                y += h + 30
        if args["discard"]:
            views.append(alert_dialog(PACKAGE, "Discard changes?", "Your changes to this recipe will not be saved.",
                                      [("Keep editing", ("keep",)), ("Discard", ("discard",))], ("keep",)))
        return views

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """List rows, chips and the FAB; the details' star, Edit and Delete; the dialogs; the form's Save."""
        match screen.name, event:
            case "list", ("filter", on):
                changed = screen.args["favourites"] != on
                screen.args["favourites"], screen.scroll = on, 0
                return changed
            case "list", ("add",):
                return self.phone.push(self._form_screen(None))
            case "list", ("open", recipe_id):
                r = self.find(recipe_id)
                self.last_opened = r["title"] if r else None
                return self.phone.push(Screen(PACKAGE, "details", {"id": recipe_id}))
            case "details", ("favourite",):
                r = self.find(screen.args["id"])
                if r is None:
                    return False
                r["favourite"] = not r["favourite"]
                return True
            case "details", ("edit",):
                return self.phone.push(self._form_screen(self.find(screen.args["id"])))
            case "details", ("ask_delete",):
                return self.phone.push(Screen(PACKAGE, "delete", {"id": screen.args["id"]}))
            case "delete", ("cancel",):
                return self.phone.pop()
            case "delete", ("delete",):
                self.recipes = [r for r in self.recipes if r["id"] != screen.args["id"]]
                self.phone.pop()
                return self.phone.pop()
            case "form", ("save",):
                return self._save(screen)
            case "form", ("keep",):
                screen.args["discard"] = False
                return True
            case "form", ("discard",):
                return self.phone.pop()
        return False

    @staticmethod
    def _form_screen(r: Mapping[str, Any] | None) -> Screen:
        values = dict.fromkeys(FIELDS, "") if r is None else {
            TITLE_RID: r["title"], DESCRIPTION_RID: r["description"], SERVINGS_RID: r["servings"],
            PREP_RID: r["prep_time"], INGREDIENTS_RID: "\n".join(r["ingredients"]), DIRECTIONS_RID: r["directions"]}
        return Screen(PACKAGE, "form", {"id": r["id"] if r else None, "original": dict(values), "error": "",
                                        "discard": False}, dict(values), focus=TITLE_RID if r is None else None)

    def _save(self, screen: Screen) -> bool:
        """Save the form (refused with a message without a title); back to where the form was opened from."""
        f = screen.fields
        title = one_line(f.get(TITLE_RID, ""))
        if not title:
            screen.args["error"], screen.focus = "The title must not be empty", None
            return True
        fields = {"title": title, "description": one_line(f.get(DESCRIPTION_RID, "")),
                  "servings": one_line(f.get(SERVINGS_RID, "")), "prep_time": one_line(f.get(PREP_RID, "")),
                  "ingredients": lines(f.get(INGREDIENTS_RID, "")), "directions": f.get(DIRECTIONS_RID, "").strip()}
        old = self.find(screen.args["id"]) if screen.args["id"] is not None else None
        if old is None:
            self.recipes.append({"id": self._next_id(), **fields, "categories": [], "favourite": False})
        else:
            old.update(fields)
        screen.focus = None
        return self.phone.pop()

    def on_back(self, screen: Screen) -> bool:
        """BACK on a changed form asks first (BACK on that dialog keeps editing); on the list it clears a search,
        then the Favourites filter, before leaving the app."""  # noqa: D205, D209
        if screen.name == "list":
            if screen.fields.get(SEARCH_RID):
                screen.fields[SEARCH_RID], screen.scroll = "", 0
                return True
            if screen.args["favourites"]:
                screen.args["favourites"], screen.scroll = False, 0
                return True
            return False
        if screen.name != "form":
            return False
        if screen.args["discard"]:
            screen.args["discard"] = False
            return True
        if any(screen.fields.get(rid, "") != screen.args["original"][rid] for rid in FIELDS):
            screen.args["discard"], screen.focus = True, None
            return True
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search field closes the keyboard; in a one-line form field it moves to the next field; in
        Ingredients or Directions it starts a new line (and the phone then closes the keyboard, as for every
        field that keeps its focus)."""  # noqa: D205, D209
        if screen.name != "form" or rid not in FIELDS:
            return False
        if rid in MULTILINE:
            screen.fields[rid] = screen.fields.get(rid, "") + "\n"
            return True
        screen.focus = FIELDS[FIELDS.index(rid) + 1]
        return True
