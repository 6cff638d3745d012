"""Tests of the OsmAnd app of the simulated phone: search by name and by coordinates, a place's card (Favorite,
Marker, Directions), favourites in groups, map markers, planning a route and saving it as a track, BACK, the seeded
world and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import osmand_data as D
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.osmand import GROUP_COUNT_RID, GROUP_TITLE_RID, PACKAGE, RESULT_RID, OsmandApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(OsmandApp)
EMPTY = {"clear": ["favorites", "markers", "tracks"]}


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with OsmAnd installed, no perturbations, open on its map."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, {PACKAGE: initial} if initial is not None else None)
    phone.launch("OsmAnd")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def osm(phone: SimPhone) -> dict:
    """OsmAnd's state."""
    return phone.state()["apps"][PACKAGE]


def search_for(phone: SimPhone, query: str) -> None:
    """From the map: Search, type `query`."""
    press(phone, desc="Search")
    phone.type_text(query)


def test_search_by_name_lists_look_alikes_and_favorite_saves_the_place():
    """"planken" finds Planken and Oberplanken; the card's Favorite saves it (default group) and then reads Edit."""
    phone = make_phone(initial=EMPTY)
    search_for(phone, "planken")
    assert [e.text for e in phone.elements() if e.rid == RESULT_RID] == ["Planken", "Oberplanken"]
    press(phone, rid=RESULT_RID, text="Oberplanken")
    assert osm(phone)["open"] == {"name": "Oberplanken", "lat": 47.1784977, "lon": 9.5450163}
    assert find(phone.elements(), text="47.17850, 9.54502") is not None
    press(phone, text="Favorite")
    press(phone, text="Save")
    state = osm(phone)
    assert state["favorites"] == [{"name": "Oberplanken", "group": "Favorites", "lat": 47.1784977, "lon": 9.5450163}]
    assert state["edits"] == [{"op": "favorite", "name": "Oberplanken"}] and state["screen"] == "place"
    assert find(phone.elements(), text="Edit favorite") is not None


def test_favorite_dialog_takes_a_new_group_refuses_blank_and_duplicate_names_and_deletes():
    """A typed group makes a group; a blank name and a name taken in the group are refused; Delete removes it."""
    phone = make_phone(initial={**EMPTY, "favorites": [{"name": "Home", "group": "Ski", "lat": 47.0, "lon": 9.0}]})
    search_for(phone, "Malbun, Liechtenstein")
    press(phone, rid=RESULT_RID, text="Malbun")
    press(phone, text="Favorite")
    press(phone, desc="Clear name")
    press(phone, text="Save")
    assert find(phone.elements(), text="Name can't be empty") is not None
    phone.type_text("Home")
    press(phone, text="Ski")
    press(phone, text="Save")
    assert "already exists" in find(phone.elements(), rid=f"{PACKAGE}:id/error").text
    press(phone, desc="Clear group")
    phone.type_text("Ski 2")
    press(phone, text="Save")
    assert {"name": "Home", "group": "Ski 2", "lat": 47.1026191, "lon": 9.6083057} in osm(phone)["favorites"]
    press(phone, text="Edit favorite")
    press(phone, text="Delete")
    assert [f["group"] for f in osm(phone)["favorites"]] == ["Ski"]
    assert [e["op"] for e in osm(phone)["edits"]] == ["favorite", "delete_favorite"]


def test_coordinates_find_one_point_and_marker_toggles_on_the_list_and_map():
    """A "lat, lon" query lists one point there; Marker puts it atop the markers, the map's bar shows it."""
    phone = make_phone(initial=EMPTY)
    search_for(phone, "47.1275785, 9.5387131")
    press(phone, text="47.12758, 9.53871")
    press(phone, text="Marker")
    assert osm(phone)["markers"] == [{"name": "47.12758, 9.53871", "lat": 47.1275785, "lon": 9.5387131}]
    press(phone, text="Remove marker")
    press(phone, text="Marker")
    assert [e["op"] for e in osm(phone)["edits"]] == ["marker", "remove_marker", "marker"]
    for _ in range(3):
        phone.key("back")  # the card, the keyboard, the search
    bar = find(phone.elements(), rid=f"{PACKAGE}:id/map_markers_top_bar")
    assert osm(phone)["screen"] == "map" and bar.text.startswith("47.12758, 9.53871 \u00b7 ")
    phone.tap(*bar.center)
    press(phone, desc="Remove 47.12758, 9.53871")
    assert osm(phone)["markers"] == [] and find(phone.elements(), text="No active markers") is not None


def test_plan_a_route_through_three_points_saves_a_track():
    """Menu, Plan a route, Add point thrice (search picks), the distance adds up; Save names it; a taken name fails."""
    phone = make_phone(initial={**EMPTY, "tracks": [{"name": "Old", "points": [
        {"name": "a", "lat": 47.0, "lon": 9.0}, {"name": "b", "lat": 47.1, "lon": 9.1}]}]})
    press(phone, desc="Menu")
    press(phone, text="Plan a route")
    for town in ("Balzers", "Triesen", "Schaan"):
        press(phone, text="Add point")
        phone.type_text(town)
        press(phone, rid=RESULT_RID, text=town)
    assert [p["name"] for p in osm(phone)["plan"]] == ["Balzers", "Triesen", "Schaan"]
    want = D.track_length([D.point(n) for n in ("Balzers", "Triesen", "Schaan")])
    summary = find(phone.elements(), rid=f"{PACKAGE}:id/distance").text
    assert summary == D.distance_label(want) and find(phone.elements(), text="3 points") is not None
    press(phone, text="Save")
    assert phone.top.fields[f"{PACKAGE}:id/track_name_edit"] == "Plan 2026-06-10_09-41"
    press(phone, desc="Clear text")
    phone.type_text("Old")
    press(phone, text="Save")
    assert find(phone.elements(), text="A track with this name already exists") is not None
    phone.type_text(" south")
    press(phone, text="Save")
    state = osm(phone)
    assert state["screen"] == "tracks" and state["plan"] == []
    assert state["edits"] == [{"op": "track", "name": "Old south"}]
    track = next(t for t in state["tracks"] if t["name"] == "Old south")
    assert [p["name"] for p in track["points"]] == ["Balzers", "Triesen", "Schaan"] and track["distance_m"] == want


def test_directions_adds_the_place_to_the_plan_and_points_can_be_removed():
    """Directions on a card appends it to the plan and shows the plan; a point's remove button drops it."""
    phone = make_phone(initial=EMPTY)
    search_for(phone, "Vaduz Castle")
    press(phone, rid=RESULT_RID, text="Vaduz Castle")
    press(phone, text="Directions")
    assert osm(phone)["screen"] == "plan" and [p["name"] for p in osm(phone)["plan"]] == ["Vaduz Castle"]
    assert not find(phone.elements(), text="Save").enabled
    press(phone, desc="Remove point 1")
    assert osm(phone)["plan"] == []


def test_my_places_lists_groups_with_counts_and_opens_a_favorite():
    """Groups sorted, the default first, each with its count; a row opens the favourite's card."""
    favs = [{"name": n, "group": g, "lat": 47.0 + k / 100, "lon": 9.5}
            for k, (n, g) in enumerate((("A", "Ski"), ("B", "Ski"), ("C", "Favorites"), ("D", "Castles")))]
    phone = make_phone(initial={**EMPTY, "favorites": favs})
    press(phone, desc="Menu")
    press(phone, text="My places")
    els = phone.elements()
    groups = [e.text for e in els if e.rid == GROUP_TITLE_RID]
    assert groups == ["Favorites", "Castles", "Ski"]
    assert [e.text for e in els if e.rid == GROUP_COUNT_RID] == ["1", "1", "2"]
    press(phone, text="B")
    assert osm(phone)["open"]["name"] == "B" and osm(phone)["opened"] == ["B"]
    phone.key("back")
    press(phone, text="Tracks")
    assert find(phone.elements(), text="No tracks yet") is not None


def test_back_closes_the_keyboard_then_the_search_and_no_match_says_so():
    """BACK in a search with the keyboard up closes it first; a query naming another country finds nothing."""
    phone = make_phone()
    search_for(phone, "Balzers, Austria")
    assert find(phone.elements(), text="Nothing found") is not None and osm(phone)["query"] == "Balzers, Austria"
    phone.key("back")
    assert osm(phone)["screen"] == "search" and phone.top.focus is None
    phone.key("back")
    assert osm(phone)["screen"] == "map" and osm(phone)["query"] is None


def test_the_seeded_world_follows_the_seed_and_avoids_the_towns():
    """A fresh phone holds favourites (and maybe markers and tracks) drawn from its seed, none at a task town."""
    a, b = make_phone(3), make_phone(4)
    assert osm(a)["favorites"] == osm(make_phone(3))["favorites"] and osm(a)["favorites"] != osm(b)["favorites"]
    for seed in range(6):
        state = osm(make_phone(seed))
        assert 2 <= len(state["favorites"]) <= 6 and not state["edits"]
        assert not {f["name"] for f in state["favorites"]} & set(D.TOWNS)
        assert all(t["distance_m"] > 0 for t in state["tracks"])


@pytest.mark.parametrize(("initial", "field"), [
    ({"favorites": [{"name": "x", "lat": 91, "lon": 9}]}, "lat"),
    ({"favorites": [{"name": "x", "lat": 47, "lon": 9, "group": " "}]}, "group"),
    ({"markers": [{"name": "", "lat": 47, "lon": 9}]}, "name"),
    ({"tracks": [{"name": "t", "points": [{"name": "a", "lat": 47, "lon": 9}]}]}, "points"),
    ({"clear": ["bookmarks"]}, "clear"),
    ({"favourites": []}, "favourites"),
])
def test_apply_refuses_bad_initial_conditions_naming_the_field(initial: dict, field: str):
    """Off-globe coordinates, a blank group or name, a one-point track, an unknown key: refused, the field named."""
    with pytest.raises(ConfigError, match=field):
        make_phone(initial=initial)


def test_every_screen_draws_and_its_xml_parses():
    """Map, menu, markers, card, dialog, plan, search: the XML dump lists the elements; three of them drawn."""
    device = SimDevice("none", apps=APPS)
    device.reset(1, {PACKAGE: {"markers": [{"name": "Gaflei", "lat": 47.144, "lon": 9.548}]}})
    device.phone.launch("OsmAnd")
    steps = [{"desc": "Menu"}, {"text": "Map markers"}, {"rid": RESULT_RID}, {"text": "Favorite"}, {"text": "Cancel"},
             {"text": "Directions"}, {"text": "Add point"}]
    for k, criteria in enumerate([{}, *steps]):
        if criteria:
            press(device.phone, **criteria)
        parsed = parse_uiautomator_xml(device.phone.xml())
        assert [(e.bounds, e.label) for e in parsed] == [(e.bounds, e.label) for e in device.phone.elements()]
        if k in (0, 4, 7):  # drawing is the slow part: the map, the favourite dialog, the search picking a point
            assert np.asarray(device.screenshot()).std() > 10
