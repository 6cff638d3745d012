"""Tests of the Maps and Calculator apps of the simulated phone: Maps' saved lists, save sheet, list menu, travel
modes, Call through the Phone app and Share; Calculator's % key and history; back, XML, pixels, seeding, the episode
RNG and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, dialer, maps, with_apps
from android_gym.sim.apps import calculator as C
from android_gym.sim.apps.calculator import CalculatorApp
from android_gym.sim.apps.maps import MapsApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(MapsApp, CalculatorApp)
QUERY = "thai restaurants"


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with both apps and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name} {phone.top.args}"
    return phone.tap(*element.center)


def mp(phone: SimPhone) -> dict:
    """Maps' state."""
    return phone.state()["apps"][maps.PACKAGE]


def calc(phone: SimPhone) -> dict:
    """Calculator's state."""
    return phone.state()["apps"][C.PACKAGE]


def place_page(phone: SimPhone, rank: int, query: str = QUERY) -> dict:
    """Maps open on result `rank` of `query`; returns that place."""
    place = maps.places_for(query)[rank]
    phone.launch("Maps")
    press(phone, rid=f"{maps.PACKAGE}:id/search_omnibox")
    phone.type_text(query)
    phone.key("enter")
    press(phone, desc=f"{place['name']} - {place['rating']} stars")
    assert mp(phone)["page"] == "place" and mp(phone)["place"] == place["name"]
    return place


def test_places_keep_their_old_fields_and_some_have_no_number():
    """The phone numbers come from a stream of their own: the other fields are as before; about a quarter lack one."""
    first = maps.places_for("Sushi restaurants")[0]
    assert (first["name"], first["address"], first["rating"]) == ("Hillside Sushi Shop", "935 Market St", 3.5)
    numbers = [p["phone"] for q in ("sushi", "coffee", "gyms", "parks", "hotels") for p in maps.places_for(q)]
    assert 0.1 < numbers.count("") / len(numbers) < 0.45
    assert all(n.startswith("(415) ") for n in numbers if n)


def test_save_sheet_ticks_lists_and_saved_tab_lists_them():
    """Save opens the sheet; ticking a list saves at once, ticking again removes; the Saved tab shows the counts."""
    phone = make_phone()
    place = place_page(phone, 2)
    press(phone, desc=f"Save {place['name']}")
    assert mp(phone)["sheet"] == "save" and find(phone.elements(), text=maps.SAVE_TITLE) is not None
    press(phone, text="Want to go")
    press(phone, text="Favorites")
    press(phone, text="Favorites")
    box = find(phone.elements(), text="Want to go")
    assert box.checked and not find(phone.elements(), text="Favorites").checked
    press(phone, text="Done")
    state = mp(phone)
    assert state["sheet"] is None and find(phone.elements(), text="Saved") is not None
    assert state["lists"]["Want to go"] == [{"name": place["name"], "address": place["address"]}]
    assert [e["op"] for e in state["edits"]] == ["save", "save", "remove"]
    for _ in range(4):  # the place, the results, the keyboard and the search box's screen (under the results)
        phone.key("back")
    assert mp(phone)["page"] == "home"
    press(phone, desc="Saved")
    assert mp(phone)["page"] == "saved" and "1 place" in [e.text for e in phone.elements()]
    press(phone, desc="Explore")
    assert mp(phone)["page"] == "home"


def test_list_menu_removes_a_place_and_back_closes_the_menu_first():
    """A list's place has More options > Remove from list; BACK closes the menu, then leaves the list."""
    phone = make_phone(initial={maps.PACKAGE: {"saved": [{"list": "Favorites", "query": QUERY, "rank": r}
                                                         for r in (0, 3)]}})
    names = [maps.places_for(QUERY)[r]["name"] for r in (0, 3)]
    phone.launch("Maps")
    press(phone, desc="Saved")
    press(phone, desc="Favorites")
    assert mp(phone)["list"] == "Favorites" and [e.desc for e in phone.elements() if e.rid == maps.SAVED_RID] == names
    press(phone, desc=f"More options for {names[1]}")
    assert find(phone.elements(), text="Remove from list") is not None
    phone.key("back")
    assert find(phone.elements(), text="Remove from list") is None and mp(phone)["list"] == "Favorites"
    press(phone, desc=f"More options for {names[1]}")
    press(phone, text="Remove from list")
    assert [p["name"] for p in mp(phone)["lists"]["Favorites"]] == names[:1]
    press(phone, desc=names[0])
    assert mp(phone)["page"] == "place" and find(phone.elements(), text="Saved") is not None
    phone.key("back")
    phone.key("back")
    assert mp(phone)["page"] == "saved"


def test_directions_switch_modes_with_durations_from_the_place():
    """Directions open on Drive; each mode tab shows its own duration, which `travel` fixes from the place."""
    phone = make_phone()
    place = place_page(phone, 1)
    press(phone, text="Directions")
    shown = {}
    for mode in maps.MODES:
        press(phone, desc=f"{mode} mode")
        assert mp(phone)["mode"] == mode and find(phone.elements(), desc=f"{mode} mode").selected
        shown[mode] = find(phone.elements(), rid=maps.DURATION_RID).text
        assert shown[mode] == maps.duration(maps.travel(place, mode)[0])
    assert len(set(shown.values())) >= 3
    walk, bike = maps.travel(place, "Walk")[0], maps.travel(place, "Bike")[0]
    assert walk > bike >= maps.travel(place, "Drive")[0]


def test_call_hands_the_number_to_the_phone_app_and_share_copies_the_link():
    """Call opens Phone's in-call screen on the place's number; a place without a number shows no Call button."""
    phone = make_phone()
    found = maps.places_for(QUERY)
    with_number = next(p["rank"] for p in found if p["phone"])
    without = next(p["rank"] for p in found if not p["phone"])
    place = place_page(phone, without)
    assert find(phone.elements(), text="Call") is None and find(phone.elements(), rid=maps.PHONE_RID) is None
    press(phone, desc=f"Share {place['name']}")
    assert f"{place['name']}, {place['address']}" in [e.text for e in phone.elements()]
    press(phone, text="Copy link")
    assert mp(phone)["shared"] == [place["name"]] and mp(phone)["sheet"] is None
    phone.key("back")
    place = maps.places_for(QUERY)[with_number]
    press(phone, desc=f"{place['name']} - {place['rating']} stars")
    assert find(phone.elements(), rid=maps.PHONE_RID).text == place["phone"]
    press(phone, desc=f"Call {place['name']}")
    assert phone.foreground == dialer.PACKAGE
    calls = phone.state()["apps"][dialer.PACKAGE]["calls"]
    assert len(calls) == 1 and calls[0]["number"] == place["phone"]


def test_back_closes_sheets_then_walks_the_screens():
    """BACK: the save sheet, the place page, the results, the search box's keyboard and screen, Maps' home."""
    phone = make_phone()
    place = place_page(phone, 0)
    press(phone, desc=f"Save {place['name']}")
    pages = []
    for _ in range(6):
        phone.key("back")
        pages.append((mp(phone)["page"], phone.keyboard_up))
    assert pages == [("place", False), ("results", False), ("search", True), ("search", False), ("home", False),
                     (None, False)]


def test_maps_seeds_saved_places_per_episode_and_refuses_unknown_settings():
    """`seeded` draws the same places for a seed and others for other seeds; bad settings raise ConfigError."""
    def lists(seed: int) -> dict:
        return mp(make_phone(seed, {maps.PACKAGE: {"seeded": 3}}))["lists"]

    assert lists(4) == lists(4) and len({repr(lists(s)) for s in range(6)}) == 6
    assert mp(make_phone(4))["lists"] == {name: [] for name in maps.LISTS}
    for bad in ({"places": []}, {"saved": [{"list": "Wishlist", "query": "x", "rank": 0}]},
                {"saved": [{"list": "Favorites", "query": "x", "rank": 9}]}):
        with pytest.raises(ConfigError):
            make_phone(initial={maps.PACKAGE: bad})


# -- Calculator --------------------------------------------------------------------------------------------------------
def keys(phone: SimPhone, text: str) -> None:
    """Tap each key of `text` on the keypad."""
    for key in text:
        press(phone, text=key, cls="android.widget.Button")


def test_percent_key_divides_by_a_hundred_and_equals_records_history():
    """84.6×118%÷3 gives 33.276; each "=" with a value joins the history, an Error does not."""
    phone = make_phone()
    phone.launch("Calculator")
    keys(phone, "84.6×118%÷3=")
    assert calc(phone)["result"] == "33.276" and find(phone.elements(), rid=C.RESULT_RID).text == "33.276"
    press(phone, desc="clear")
    keys(phone, "1÷0=")
    press(phone, desc="delete")
    assert calc(phone)["expression"] == "1÷" and calc(phone)["history"] == [
        {"expression": "84.6×118%÷3", "result": "33.276"}]


def test_history_lists_past_results_reuses_one_and_clears():
    """History shows the calculations; a tap puts a result into the expression; Clear empties it; BACK returns."""
    phone = make_phone()
    phone.launch("Calculator")
    keys(phone, "12×3=")
    press(phone, desc="clear")
    keys(phone, "5+")
    press(phone, desc="History")
    assert calc(phone)["page"] == "history" and find(phone.elements(), desc="12×3 = 36") is not None
    press(phone, desc="12×3 = 36")
    assert calc(phone)["page"] == "home" and calc(phone)["expression"] == "5+36"
    press(phone, desc="History")
    press(phone, desc="Clear history")
    assert calc(phone)["history"] == [] and find(phone.elements(), text="No history yet") is not None
    phone.key("back")
    assert calc(phone)["page"] == "home"


def test_calculator_history_is_seeded_per_episode_and_task_entries_land_among_them():
    """`seeded` entries differ by seed; `history` entries join them at seed-drawn positions; bad ones raise."""
    def history(seed: int, extra: list[str]) -> list[dict]:
        return calc(make_phone(seed, {C.PACKAGE: {"seeded": 4, "history": extra}}))["history"]

    assert history(2, []) == history(2, []) and len({repr(history(s, [])) for s in range(6)}) == 6
    positions = {[h["expression"] for h in history(s, ["7×7"])].index("7×7") for s in range(12)}
    assert len(positions) > 2 and all(len(history(s, ["7×7"])) == 5 for s in range(3))
    assert calc(make_phone(2))["history"] == []
    for bad in ({"memory": 1}, {"history": ["2+"]}):
        with pytest.raises(ConfigError):
            make_phone(initial={C.PACKAGE: bad})


# -- both --------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", ["saved", "sheet", "directions", "list", "keypad", "history"])
def test_xml_parses_and_lists_what_the_screen_shows(screen: str):
    """The uiautomator dump parses to the phone's own elements and lists the screen's texts."""
    phone = make_phone(initial={maps.PACKAGE: {"saved": [{"list": "Starred places", "query": QUERY, "rank": 4}]},
                                C.PACKAGE: {"history": ["2+2"]}})
    place = maps.places_for(QUERY)[4]
    if screen in ("saved", "list"):
        phone.launch("Maps")
        press(phone, desc="Saved")
        if screen == "list":
            press(phone, desc="Starred places")
    elif screen in ("sheet", "directions"):
        place_page(phone, 4)
        press(phone, desc=f"Save {place['name']}" if screen == "sheet" else "Directions")
    else:
        phone.launch("Calculator")
        if screen == "history":
            press(phone, desc="History")
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {"saved": "Your lists", "list": place["name"], "sheet": "Starred places", "directions": "Walk",
                "keypad": "%", "history": "2+2"}
    assert expected[screen] in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """The Saved tab, a list row, the save sheet's scrim and the calculator's history rows are drawn."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {maps.PACKAGE: {"saved": [{"list": "Favorites", "query": QUERY, "rank": 1}]},
                     C.PACKAGE: {"history": ["9×9"]}})
    phone = device.phone

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    phone.launch("Maps")
    assert region(find(device.ui_elements(), desc="Saved").bounds).std() > 20
    press(phone, desc="Saved")
    press(phone, desc="Favorites")
    row = find(device.ui_elements(), rid=maps.SAVED_RID)
    assert region(row.bounds).std() > 20
    press(phone, desc=row.desc)
    title = find(device.ui_elements(), rid=f"{maps.PACKAGE}:id/title").bounds
    before = region(title).mean()
    press(phone, desc=f"Save {row.desc}")
    assert region(title).mean() < before - 20  # the scrim behind the sheet
    phone.launch("Calculator")
    press(phone, desc="History")
    assert region(find(device.ui_elements(), rid=f"{C.PACKAGE}:id/history_result").bounds).std() > 20


def test_the_apps_leave_the_episode_rng_alone():
    """A phone with both apps, seeded and used, draws the same episode randomness as one with the default apps."""
    mine = make_phone(9, {maps.PACKAGE: {"seeded": 4}, C.PACKAGE: {"seeded": 5}})
    plain = SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    place = place_page(mine, 3)
    press(mine, desc=f"Save {place['name']}")
    press(mine, text="Favorites")
    mine.launch("Calculator")
    keys(mine, "2+2=")
    press(mine, desc="History")
    mine.tree()
    mine.state()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()
