"""Checks' readers and expert steps the OsmAnd templates share (`osmand_tasks`, `androidworld/osmand`).

The checks read OsmAnd's state (`osmand_state`) with `favorites_at`, `markers_at` and `passes_in_order`, points
compared as AndroidWorld compares them (within 0.001 degrees on both axes, `osmand_data.same_place`). Each expert
step reads the UI elements and the sim's state and returns the next action towards a sub-goal: the map (`to_map`), a
place's card found by a search (`to_card`), a favourite saved (`save_favorite`), a marker set (`set_marker`), a menu
entry (`via_menu`), a route planned through points (`plan_route`) and saved (`save_plan`).
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import osmand as O
from android_gym.sim.apps import osmand_data as D
from android_gym.sim.layout import BUTTON
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, fill, find, wait
from android_gym.tasks.world.base import Elements, State, leave, press

OSM = O.PACKAGE
LABEL = O.OsmandApp.label


def osmand_state(state: State) -> D.OsmandState:
    """OsmAnd's part of the device state."""
    return state_of(state, D.OsmandState)


def coords(p: Any) -> tuple[float, float]:
    """A point's (lat, lon): of a state's point dict, or of a place's name."""
    if isinstance(p, str):
        return D.PLACES[p][1], D.PLACES[p][2]
    return p["lat"], p["lon"]


def favorites_at(state: State, where: tuple[float, float]) -> list[D.FavoriteState]:
    """The favourites within 0.001 degrees of `where`."""
    return [f for f in osmand_state(state)["favorites"] if D.same_place(coords(f), where)]


def markers_at(state: State, where: tuple[float, float]) -> list[D.PointState]:
    """The active markers within 0.001 degrees of `where`."""
    return [m for m in osmand_state(state)["markers"] if D.same_place(coords(m), where)]


def passes_in_order(points: Sequence[D.PointState], stops: Sequence[tuple[float, float]]) -> bool:
    """Whether `points` pass every stop in order (other points between them allowed), as AndroidWorld's track check.

    >>> a, b = {"name": "a", "lat": 1.0, "lon": 1.0}, {"name": "b", "lat": 2.0, "lon": 2.0}
    >>> passes_in_order([a, b], [(1.0, 1.0), (2.0, 2.0)]), passes_in_order([b, a], [(1.0, 1.0), (2.0, 2.0)])
    (True, False)
    """
    left = list(stops)
    for p in points:
        if left and D.same_place(coords(p), left[0]):
            left.pop(0)
    return not left


def ops(state: State) -> list[str]:
    """The kinds of the episode's OsmAnd changes, in order."""
    return [e["op"] for e in osmand_state(state)["edits"]]


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_map(elements: Elements, state: State) -> Action | None:
    """The next step to OsmAnd's map (None once there)."""
    step = into_app(LABEL, OSM, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "map":
        return None
    return leave(elements) if name in ("favorite", "save") else back()


def via_menu(page: str, entry: str, elements: Elements, state: State) -> Action | None:
    """The next step to the page `page` reached by the menu's `entry` (None once there)."""
    step = into_app(LABEL, OSM, elements, state)
    if step is None and state["screen"]["name"] == page:
        return None
    if step is None and state["screen"]["name"] == "menu":
        return press(elements, text=entry)
    return step or to_map(elements, state) or press(elements, desc="Menu")


def search_pick(query: str, name: str, elements: Elements, state: State) -> Action:
    """On a search: type `query`, then tap the result called `name`."""
    return fill(elements, state, O.SEARCH_RID, query, missing=wait()) or press(elements, rid=O.RESULT_RID, text=name)


def to_card(query: str, where: tuple[float, float], elements: Elements, state: State) -> Action | None:
    """The next step to the card of the point at `where`, found by searching `query` (None once there)."""
    step = into_app(LABEL, OSM, elements, state)
    if step is not None:
        return step
    screen, o = state["screen"]["name"], osmand_state(state)
    if screen == "place":
        return None if o["open"] is not None and D.same_place(coords(o["open"]), where) else back()
    if screen == "search" and not state["screen"]["args"]["pick"]:
        found = D.search(query)
        name = next((p["name"] for p in found if D.same_place(coords(p), where)), "")
        return search_pick(query, name, elements, state)
    return to_map(elements, state) or press(elements, desc="Search")


def save_favorite(query: str, where: tuple[float, float], group: str, elements: Elements, state: State) -> Action:
    """The next step to a favourite at `where` in `group` (the default name kept): its card, Favorite, the group."""
    step = into_app(LABEL, OSM, elements, state)
    if step is None and state["screen"]["name"] == "favorite":
        fields = state["screen"]["fields"]
        if fields.get(O.GROUP_RID) != group:
            if find(elements, text=group, cls=BUTTON) is not None:  # the group's chip
                return press(elements, text=group, cls=BUTTON)
            if not group.startswith(fields.get(O.GROUP_RID, "")):
                return press(elements, desc="Clear group")
            return fill(elements, state, O.GROUP_RID, group, missing=wait()) or wait()
        return press(elements, text="Save")
    return step or to_card(query, where, elements, state) or press(elements, text="Favorite")


def set_marker(query: str, where: tuple[float, float], elements: Elements, state: State) -> Action:
    """The next step to a marker at `where`: its card, Marker."""
    return to_card(query, where, elements, state) or press(elements, text="Marker")


def plan_route(stops: Sequence[tuple[str, str]], elements: Elements, state: State) -> Action | None:
    """The next step to the plan holding exactly `stops` ((query, result name) pairs) in order; None once it does (on
    the plan or its Save dialog)."""  # noqa: D205, D209
    step = into_app(LABEL, OSM, elements, state)
    if step is not None:
        return step
    plan, screen = osmand_state(state)["plan"], state["screen"]
    names = [p["name"] for p in plan]
    want = [name for _, name in stops]
    if names == want and screen["name"] in ("plan", "save"):
        return None
    if screen["name"] == "search" and screen["args"]["pick"] and len(names) < len(want):
        query, name = stops[len(names)]
        return search_pick(query, name, elements, state)
    if screen["name"] != "plan":
        return via_menu("plan", "Plan a route", elements, state)
    if names != want[:len(names)]:
        return press(elements, text="Clear")
    return press(elements, text="Add point")


def save_plan(name: str, elements: Elements, state: State) -> Action:
    """On the plan: Save, clear the default name, type `name`, Save."""
    screen = state["screen"]
    if screen["name"] != "save":
        return press(elements, text="Save")
    if not name.startswith(screen["fields"].get(O.TRACK_NAME_RID, "")):
        return press(elements, desc="Clear text")
    return fill(elements, state, O.TRACK_NAME_RID, name, missing=wait()) or press(elements, text="Save")
