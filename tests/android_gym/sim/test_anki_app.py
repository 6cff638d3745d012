"""Tests of the AnkiDroid app of the simulated phone: the deck list's counts, studying with the fixed intervals, adding
Basic and reversed notes, the browser's search, edit, move and delete, deck create, rename and delete, seeding and
initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import anki_data as D
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.anki import AnkiApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(AnkiApp)
SPANISH = {"name": "Spanish", "cards": [
    {"front": "la manzana", "back": "the apple", "queue": "review", "due": D.day(-2), "reviews": 3},
    {"front": "el perro", "back": "the dog", "queue": "review", "due": D.day(4), "reviews": 2},
    {"front": "la casa", "back": "the house"},
    {"front": "el gato", "back": "the cat", "queue": "learning", "due": D.day(0), "reviews": 1}]}
FRENCH = {"name": "French", "cards": [{"front": "le chien", "back": "the dog", "queue": "review", "due": D.day(-1)}]}


def known_phone() -> SimPhone:
    """AnkiDroid open on its deck list, holding only the Spanish and French decks above."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(0, {D.PACKAGE: {"seeded": False, "decks": [SPANISH, FRENCH]}})
    phone.launch("anki")
    return phone


def press(phone: SimPhone, **criteria: object) -> None:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    phone.tap(*element.center)


def anki(phone: SimPhone) -> dict:
    """AnkiDroid's state."""
    return phone.state()["apps"][D.PACKAGE]


def test_seeded_decks_are_deterministic_and_fit_the_schema() -> None:
    """The same seed draws the same decks, another seed others; the state fits its schema."""
    assert D.seeded_decks(5) == D.seeded_decks(5) != D.seeded_decks(6)
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(5)
    assert [d["name"] for d in anki(phone)["decks"]] == sorted(D.seeded_decks(5))
    assert state_problems(phone.state()) == []


def test_the_deck_list_and_overview_show_the_counts() -> None:
    """Spanish: 1 new, 1 learning, 1 due (the card due in 4 days is not); the overview adds the total."""
    phone = known_phone()
    assert anki(phone)["decks"][1] == {"name": "Spanish", "new": 1, "learning": 1, "due": 1, "cards": 4}
    labels = [e.label for e in phone.elements()]
    assert labels[labels.index("Spanish") + 1:labels.index("Spanish") + 4] == ["1", "1", "1"]
    press(phone, text="Spanish")
    labels = [e.label for e in phone.elements()]
    assert {"New: 1", "Learning: 1", "Due: 1", "Total cards: 4", "Study now"} <= set(labels)
    assert anki(phone)["opened"] == ["Spanish"]


def test_studying_answers_in_queue_order_with_fixed_intervals() -> None:
    """Learning first, then due reviews, then new; Good is 3 days, Again keeps it for today; then Congratulations."""
    phone = known_phone()
    press(phone, text="Spanish")
    press(phone, text="Study now")
    fronts = []
    for ease in ("Good", "Again", "Easy", "Hard"):
        fronts.append(find(phone.elements(), rid="com.ichi2.anki:id/card_front").text)
        press(phone, text="Show answer")
        press(phone, text=ease)
    assert fronts == ["el gato", "la manzana", "la manzana", "la casa"]
    cards = {c["front"]: c for c in anki(phone)["cards"]}
    assert (cards["el gato"]["due"], cards["el gato"]["queue"]) == (D.day(3), "review")
    assert (cards["la manzana"]["due"], cards["la manzana"]["reviews"]) == (D.day(7), 5)
    assert cards["la casa"]["due"] == D.day(1) and cards["el perro"]["reviews"] == 2
    assert [r["ease"] for r in anki(phone)["reviews"]] == ["good", "again", "easy", "hard"]
    assert phone.top.name == "overview" and find(phone.elements(), text="Study now") is None


def add_note(phone: SimPhone, front: str, back: str, deck: str, reversed_card: bool = False) -> None:
    """From the deck list: Add, pick the type and deck, type Front and Back, Save."""
    press(phone, desc="Add")
    press(phone, text="Add")
    if reversed_card:
        press(phone, text="Type: Basic")
        press(phone, text="Basic (and reversed card)")
    press(phone, contains="Deck: ")
    press(phone, text=deck)
    press(phone, rid="com.ichi2.anki:id/note_front")
    phone.type_text(front)
    phone.key("enter")
    phone.type_text(back)
    press(phone, desc="Save")


def test_adding_notes_basic_and_reversed() -> None:
    """A Basic note is one new card in the chosen deck; a reversed one two; an empty front is refused."""
    phone = known_phone()
    add_note(phone, "el tren", "the train", "French")
    assert anki(phone)["added"] == [{"deck": "French", "front": "el tren", "back": "the train"}]
    assert phone.top.fields == {} and phone.top.args["added"] == 1
    press(phone, desc="Save")
    assert phone.top.args["error"] == "The first field is empty"
    phone.key("back")
    phone.key("back")
    add_note(phone, "el sol", "the sun", "Spanish", reversed_card=True)
    assert anki(phone)["added"][1:] == [{"deck": "Spanish", "front": "el sol", "back": "the sun"},
                                        {"deck": "Spanish", "front": "the sun", "back": "el sol"}]
    assert anki(phone)["decks"][1]["new"] == 3


def open_in_browser(phone: SimPhone, query: str, front: str) -> None:
    """From the deck list: the browser, search `query`, open the card `front`."""
    press(phone, desc="Card browser")
    press(phone, rid="com.ichi2.anki:id/search_src_text")
    phone.type_text(query)
    phone.key("enter")
    press(phone, text=front)


def test_browser_search_edit_move_and_delete() -> None:
    """The search matches fronts and backs; the editor moves a card; Delete note removes it."""
    phone = known_phone()
    press(phone, desc="Card browser")
    press(phone, rid="com.ichi2.anki:id/search_src_text")
    phone.type_text("DOG")
    phone.key("enter")
    rows = [e.text for e in phone.elements() if e.rid == "com.ichi2.anki:id/card_sfld"]
    assert rows == ["el perro", "le chien"]
    assert find(phone.elements(), text="Spanish \u00b7 Due Jun 14, 2026") is not None
    press(phone, text="el perro")
    press(phone, text="Deck: Spanish")
    press(phone, text="French")
    press(phone, desc="Save")
    assert anki(phone)["edited"] == [{"card": "el perro", "deck": "French", "front": "el perro", "back": "the dog"}]
    press(phone, text="le chien")
    press(phone, desc="Delete note")
    press(phone, text="Delete")
    assert anki(phone)["removed"] == [{"deck": "French", "front": "le chien", "back": "the dog"}]
    assert phone.top.name == "browser"


def test_decks_are_created_renamed_and_deleted() -> None:
    """Create deck refuses a taken name; rename carries the cards; delete takes the cards with it."""
    phone = known_phone()
    press(phone, desc="Add")
    press(phone, text="Create deck")
    phone.type_text("French")
    press(phone, text="OK")
    assert phone.top.args["error"] == "A deck with this name already exists"
    phone.type_text(" 2")
    phone.key("enter")
    assert anki(phone)["decks_added"] == ["French 2"]
    press(phone, desc="More options for Spanish")
    press(phone, text="Rename deck")
    for _ in "Spanish":
        phone.key("delete")
    phone.type_text("Espanol")
    press(phone, text="OK")
    assert anki(phone)["decks_renamed"] == [{"from": "Spanish", "to": "Espanol"}]
    assert {c["deck"] for c in anki(phone)["cards"]} == {"Espanol", "French"}
    press(phone, desc="More options for French")
    press(phone, text="Delete deck")
    press(phone, text="Delete")
    assert anki(phone)["decks_removed"] == ["French"] and len(anki(phone)["removed"]) == 1
    assert [d["name"] for d in anki(phone)["decks"]] == ["Espanol", "French 2"]


def test_initial_conditions_are_checked() -> None:
    """A blank front or a day not in ISO form is refused, naming the field."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    with pytest.raises(ConfigError, match="front"):
        phone.reset(0, {D.PACKAGE: {"decks": [{"name": "X", "cards": [{"front": " "}]}]}})
    with pytest.raises(ConfigError, match="due"):
        phone.reset(0, {D.PACKAGE: {"decks": [{"name": "X", "cards": [{"front": "a", "due": "2026-6-1"}]}]}})


def test_every_screen_draws_and_dumps_as_its_elements() -> None:
    """Each page and dialog dumps XML that parses back to its elements; the list, the reviewer and a dialog draw."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {D.PACKAGE: {"seeded": False, "decks": [SPANISH, FRENCH]}})
    phone = device.phone
    phone.launch("AnkiDroid")
    walk = [{}, {"text": "Spanish"}, {"text": "Study now"}, {"text": "Show answer"}, "back", "back",
            {"desc": "More options for French"}, {"text": "Rename deck"}, "back", "back", {"desc": "Add"},
            {"text": "Add", "clickable": True}, {"text": "Type: Basic"}, "back", "back", {"desc": "Card browser"},
            {"text": "le chien"}, {"desc": "Delete note"}]
    for step in walk:
        if step == "back":
            phone.key("back")
            continue
        if step:
            press(phone, **step)
        if phone.top.name in ("decks", "review", "delete_card"):  # pixels are slow: the list, a page, a dialog
            assert np.asarray(device.screenshot()).std() > 10, phone.top.name
        parsed = parse_uiautomator_xml(phone.xml())
        assert [(e.cls, e.bounds, e.label) for e in parsed] == [(e.cls, e.bounds, e.label) for e in phone.elements()]
    assert phone.top.name == "delete_card"
