"""Tests of the Broccoli recipe app of the simulated phone: screens, state, search, favourites, dialogs, back, XML,
pixels, seeding."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps.recipes import RecipesApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(RecipesApp)
KNOWN = [{"title": "Tomato Soup", "description": "Quick soup", "servings": "4", "prep_time": "30 min",
          "categories": ["Soup"], "ingredients": ["6 tomatoes", "1 onion"], "directions": "Simmer and blend."},
         {"title": "Tomato Basil Soup", "servings": "2", "prep_time": "45 min", "ingredients": ["Basil"],
          "favourite": True},
         {"title": "Apple Crumble", "servings": "6", "prep_time": "1 h", "ingredients": ["5 apples", "Oats"]}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Broccoli installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """Broccoli open on its list, holding only the known recipes."""
    phone = make_phone(initial={R.PACKAGE: {"absent": [p[0] for p in R.POOL], "recipes": KNOWN}})
    phone.launch("Broccoli")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def rec(phone: SimPhone) -> dict:
    """Broccoli's state."""
    return phone.state()["apps"][R.PACKAGE]


def rows(phone: SimPhone) -> list[str]:
    """The titles of the list rows on screen."""
    return [e.desc for e in phone.elements() if e.rid == R.ROW_RID]


def test_the_list_is_sorted_and_shows_descriptions_and_a_count():
    """Rows by title with their one-line description, favourites starred, the count at the end."""
    phone = known_phone()
    assert rows(phone) == ["Apple Crumble", "Tomato Basil Soup", "Tomato Soup"]
    assert "Quick soup" in labels(phone) and labels(phone).count("Favourite") == 1
    assert find(phone.elements(), rid=R.FOOTER_RID).text == "3 recipes"
    assert rec(phone)["screen"] == "list" and rec(phone)["open"] is None


def test_search_filters_by_title_and_back_clears_it():
    """Typing in the search field filters as one types; BACK closes the keyboard, then clears the search."""
    phone = known_phone()
    press(phone, rid=R.SEARCH_RID)
    phone.type_text("tomato s")
    assert rows(phone) == ["Tomato Soup"] and rec(phone)["search"] == "tomato s"
    phone.type_text("x")
    assert rows(phone) == [] and "No recipes found" in labels(phone)
    phone.key("back")
    assert phone.top.focus is None and rec(phone)["search"] == "tomato sx"
    phone.key("back")
    assert rec(phone)["search"] == "" and len(rows(phone)) == 3
    phone.key("back")
    assert phone.foreground != R.PACKAGE


def test_details_show_every_field_and_the_star_toggles_the_favourite():
    """A row opens the details; the star adds to and removes from favourites; the Favourites chip filters."""
    phone = known_phone()
    press(phone, rid=R.ROW_RID, desc="Tomato Soup")
    state = rec(phone)
    assert state["screen"] == "details" and state["open"] == "Tomato Soup" and state["last_opened"] == "Tomato Soup"
    assert find(phone.elements(), rid=R.PREP_VALUE_RID).text == "30 min"
    assert find(phone.elements(), rid=R.SERVINGS_VALUE_RID).text == "4"
    assert [e.text for e in phone.elements() if e.rid == R.INGREDIENT_RID] == ["6 tomatoes", "1 onion"]
    assert {"Soup", "Simmer and blend.", "Ingredients", "Directions"} <= set(labels(phone))
    press(phone, desc=R.FAVOURITE_DESC)
    assert find(phone.elements(), desc=R.UNFAVOURITE_DESC).checked
    assert [(r["title"], r["favourite"]) for r in rec(phone)["changed"]] == [("Tomato Soup", True)]
    press(phone, desc="Navigate up")
    press(phone, text="Favourites")
    assert rows(phone) == ["Tomato Basil Soup", "Tomato Soup"] and rec(phone)["favourites_only"]
    press(phone, rid=R.ROW_RID, desc="Tomato Soup")
    press(phone, desc=R.UNFAVOURITE_DESC)
    phone.key("back")
    assert rows(phone) == ["Tomato Basil Soup"] and not rec(phone)["changed"]
    phone.key("back")  # BACK leaves the Favourites filter before the app
    assert not rec(phone)["favourites_only"] and len(rows(phone)) == 3


def test_new_recipe_with_enter_and_multiline_ingredients():
    """Add recipe focuses Title; ENTER moves on through the one-line fields and breaks lines in Ingredients."""
    phone = known_phone()
    press(phone, desc=R.FAB_DESC)
    assert phone.top.name == "form" and phone.top.focus == R.TITLE_RID and "New recipe" in labels(phone)
    phone.type_text("  Pea  Soup ")
    phone.key("enter")
    assert phone.top.focus == R.DESCRIPTION_RID
    phone.key("enter")
    phone.type_text("3")
    phone.key("enter")
    phone.type_text("20 min")
    phone.key("enter")
    assert phone.top.focus == R.INGREDIENTS_RID
    phone.type_text("500 g peas")
    phone.key("enter")  # a new line (and, as everywhere on the phone, the keyboard closes)
    assert phone.top.fields[R.INGREDIENTS_RID] == "500 g peas\n"
    press(phone, rid=R.INGREDIENTS_RID)
    phone.type_text("1 l stock\n\n")
    press(phone, desc="Save")
    state = rec(phone)
    assert state["screen"] == "list" and not state["removed"] and not state["changed"]
    assert [{k: v for k, v in r.items() if k != "id"} for r in state["added"]] == [
        {"title": "Pea Soup", "description": "", "servings": "3", "prep_time": "20 min", "categories": [],
         "ingredients": ["500 g peas", "1 l stock"], "directions": "", "favourite": False}]
    assert rows(phone) == ["Apple Crumble", "Pea Soup", "Tomato Basil Soup", "Tomato Soup"]


def test_save_refuses_an_empty_title():
    """The form stays open with a message and nothing is added."""
    phone = known_phone()
    press(phone, desc=R.FAB_DESC)
    phone.type_text("   ")
    press(phone, desc="Save")
    assert phone.top.name == "form" and "The title must not be empty" in labels(phone) and not rec(phone)["added"]


def test_back_on_a_changed_form_asks_before_discarding():
    """BACK (or Navigate up) with changes asks; BACK on the dialog keeps editing; Discard closes; unchanged: closes."""
    phone = known_phone()
    press(phone, desc=R.FAB_DESC)
    phone.key("back")  # closes the keyboard first
    assert phone.top.name == "form" and phone.top.focus is None
    phone.key("back")  # nothing typed: the form closes
    assert phone.top.name == "list"
    press(phone, desc=R.FAB_DESC)
    phone.type_text("Stew")
    phone.key("back")
    press(phone, desc="Navigate up")
    assert "Discard changes?" in labels(phone)
    phone.key("back")
    assert "Discard changes?" not in labels(phone) and phone.top.name == "form"
    press(phone, desc="Navigate up")
    press(phone, text="Discard")
    assert phone.top.name == "list" and not rec(phone)["added"]


def test_edit_changes_only_that_recipe():
    """Edit recipe fills the form with the recipe; a new servings value is reported as a change of it alone."""
    phone = known_phone()
    press(phone, rid=R.ROW_RID, desc="Tomato Soup")
    press(phone, desc="Edit recipe")
    assert phone.top.fields[R.INGREDIENTS_RID] == "6 tomatoes\n1 onion" and rec(phone)["editing"]["servings"] == "4"
    press(phone, rid=R.SERVINGS_RID)
    phone.type_text("0")
    press(phone, desc="Save")
    state = rec(phone)
    assert state["screen"] == "details" and find(phone.elements(), rid=R.SERVINGS_VALUE_RID).text == "40"
    assert [(r["title"], r["servings"]) for r in state["changed"]] == [("Tomato Soup", "40")]
    assert not state["added"] and not state["removed"] and state["editing"] is None


def test_delete_asks_first():
    """Delete recipe asks "Delete this recipe?"; Cancel keeps it; Delete removes it and returns to the list."""
    phone = known_phone()
    press(phone, rid=R.ROW_RID, desc="Tomato Basil Soup")
    press(phone, desc="Delete recipe")
    assert "Delete this recipe?" in labels(phone) and rec(phone)["screen"] == "delete"
    press(phone, text="Cancel")
    assert rec(phone)["screen"] == "details" and not rec(phone)["removed"]
    press(phone, desc="Delete recipe")
    press(phone, text="Delete")
    state = rec(phone)
    assert state["screen"] == "list" and [r["title"] for r in state["removed"]] == ["Tomato Basil Soup"]
    assert rows(phone) == ["Apple Crumble", "Tomato Soup"]


def test_a_long_list_scrolls_to_its_count():
    """With many recipes the footer is off screen until the list is scrolled."""
    phone = make_phone(initial={R.PACKAGE: {"recipes": [{"title": f"Dish {k:02d}"} for k in range(12)]}})
    phone.launch("Recipes")
    assert find(phone.elements(), rid=R.FOOTER_RID) is None
    for _ in range(8):
        phone.swipe(540, 1900, 540, 700)
    total = len(rec(phone)["recipes"])
    assert find(phone.elements(), rid=R.FOOTER_RID).text == f"{total} recipes"


@pytest.mark.parametrize("name", ["Broccoli", "recipes", "Recipe app"])
def test_the_app_opens_by_label_and_alias(name: str):
    """Its label and aliases find it; the launcher's drawer shows its icon."""
    phone = make_phone()
    assert phone.find_app(name).package == R.PACKAGE
    phone.swipe(540, 1500, 540, 600)
    assert "Broccoli" in labels(phone)


@pytest.mark.parametrize("steps", [(), ("search",), ("open",), ("open", "delete"), ("open", "edit"), ("add",),
                                   ("add", "type", "hide", "up")])
def test_xml_parses_and_lists_what_the_screen_shows(steps: tuple[str, ...]):
    """Every screen's XML parses into the same elements the phone reports, with its key texts."""
    phone = known_phone()
    for step in steps:
        if step in ("type", "hide"):
            phone.type_text("Soup") if step == "type" else phone.key("back")
            continue
        actions = {"search": {"rid": R.SEARCH_RID}, "open": {"desc": "Tomato Soup", "rid": R.ROW_RID},
                   "delete": {"desc": "Delete recipe"}, "edit": {"desc": "Edit recipe"}, "add": {"desc": R.FAB_DESC},
                   "up": {"desc": "Navigate up"}}
        press(phone, **actions[step])
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {(): "Quick soup", "search": "Search recipes", "open": "Preparation time",
                "delete": "Delete this recipe?", "edit": "Simmer and blend.", "add": "Preparation time",
                "hide": "Soup", "up": "Discard changes?"}[steps[-1] if steps else ()]
    assert expected in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """The rows' titles and the FAB are drawn (not blank), and the delete dialog dims the details."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {R.PACKAGE: {"recipes": KNOWN}})
    device.phone.launch("Broccoli")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    title = find(device.ui_elements(), rid=R.ROW_TITLE_RID).bounds
    fab = find(device.ui_elements(), desc=R.FAB_DESC).bounds
    assert region(title).std() > 20 and region(fab)[:, 2].mean() > region(fab)[:, 0].mean() + 60  # text; blue FAB
    device.phone.tap(*find(device.ui_elements(), rid=R.ROW_RID).center)
    prep = find(device.ui_elements(), rid=R.DETAIL_TITLE_RID).bounds
    before = region(prep).mean()
    assert region(prep).std() > 20
    device.phone.tap(*find(device.ui_elements(), desc="Delete recipe").center)
    assert region(prep).mean() < before - 40  # the scrim behind the dialog


def test_initial_data_is_seeded():
    """The same seed gives the same recipes; other seeds give others: 6-12 of the pool."""
    def data(seed: int) -> list:
        return make_phone(seed).state()["apps"][R.PACKAGE]["recipes"]

    assert data(5) == data(5)
    assert len({repr(data(s)) for s in range(8)}) == 8
    titles = {p[0] for p in R.POOL}
    for s in range(8):
        recipes = data(s)
        assert 6 <= len(recipes) <= 12 and {r["title"] for r in recipes} <= titles
        assert all(r["ingredients"] and r["prep_time"] and r["servings"] for r in recipes)
    assert len(R.POOL) == len(titles) == 30


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with Broccoli draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Broccoli")
    press(mine, rid=R.ROW_RID)
    press(mine, desc="Edit recipe")
    mine.state()
    # The generator's whole state, not a draw: a bounded integer draw uses half a word and keeps the rest buffered.
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial, field", [
    ({"items": []}, "items"), ({"recipes": [{"servings": "2"}]}, "recipes.0.title"),
    ({"recipes": [{"title": "  "}]}, "recipes.0.title"), ({"recipes": [{"title": "x", "tags": []}]}, "recipes.0.tags")])
def test_apply_refuses_unknown_keys_and_bad_recipes(initial: dict, field: str):
    """Unknown keys, a missing or blank title, unknown recipe fields: the field is named."""
    with pytest.raises(ConfigError, match=rf"`Broccoli\.{field}`"):
        make_phone(initial={R.PACKAGE: initial})


def test_apply_adds_and_removes_as_the_starting_point():
    """Set-up removes every recipe of a title (any case) and adds others; none of it counts as a change."""
    seeded = R.seeded_recipes(3)
    phone = make_phone(3, {R.PACKAGE: {"absent": [seeded[0]["title"].upper()], "recipes": KNOWN[:1]}})
    state = rec(phone)
    assert not any(r["title"] == seeded[0]["title"] for r in state["recipes"])
    assert {**KNOWN[0], "favourite": False} in [{k: v for k, v in r.items() if k != "id"} for r in state["recipes"]]
    assert not (state["added"] or state["removed"] or state["changed"]) and state["screen"] is None


def test_state_hands_out_containers_of_its_own():
    """Mutating what `state()` returned reaches neither the app nor the next reader."""
    phone = known_phone()
    press(phone, rid=R.ROW_RID, desc="Apple Crumble")
    press(phone, desc="Delete recipe")
    press(phone, text="Delete")
    app = phone.apps[R.PACKAGE]
    first = app.state()
    kept = repr(first)
    for value in first.values():
        if isinstance(value, list):
            for item in value:
                for inner in item.values():
                    if isinstance(inner, list):
                        inner.clear()
                item.clear()
            value.clear()
    assert repr(app.state()) == kept and first["removed"] == []
