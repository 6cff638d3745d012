"""Tests of AndroidWorld's OsmAnd templates (the suite's contract runs in test_androidworld_suite.py): instances drawn
as AndroidWorld draws them, and per template what wins and which near miss loses, played through the UI: the
look-alike town, a point just past AndroidWorld's 0.001 degrees (one just inside wins), a second favourite, a marker
removed beside the one added, towns out of order, a second track (a point between the towns still wins)."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import osmand_data as D
from android_gym.tasks.androidworld import osmand as A
from android_gym.tasks.base import Task
from android_gym.tasks.world.base import press
from android_gym.tasks.world.osmand_expert import (
    osmand_state,
    plan_route,
    save_favorite,
    save_plan,
    set_marker,
    via_menu,
)
from android_gym.testing.rollout import drive
from android_gym.ui import UIElement

Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
PHONE = SimDevice("none")
FAV, MARKER, TRACK = A.TEMPLATES


def start(template: A.AndroidWorldTemplate, params: dict[str, Any], seed: int = 0) -> Task:
    """The phone reset to the instance `params`; the task."""
    task = Task(template, params)
    PHONE.reset(seed, task.initial)
    return task


def near(location: str, dlat: float) -> str:
    """Coordinates `dlat` degrees north of a location."""
    lat, lon = A.where(location)
    return f"{lat + dlat:.7f}, {lon}"


def test_instances_are_drawn_as_androidworld_draws_them():
    """Locations are the twelve towns by name or by their coordinates; tracks name 2-4 distinct towns."""
    drawn = [p["location"] for t in (FAV, MARKER) for s in ("train", "test") for p in t.values(s)]
    assert set(drawn) <= set(A.LOCATIONS) | {f"{lat}, {lon}" for lat, lon in A.LOCATIONS.values()}
    assert any(d in A.LOCATIONS for d in drawn) and any(d not in A.LOCATIONS for d in drawn)
    tracks = TRACK.values("train") + TRACK.values("test")
    assert {len(p["stops"]) for p in tracks} == {2, 3, 4} and all(len(set(p["stops"])) == len(p["stops"])
                                                                  for p in tracks)
    assert TRACK.goal(tracks[0]).startswith(f"Save a track with waypoints {', '.join(tracks[0]['stops'])} in the")


def favorite_at(query: str, where: tuple[float, float]) -> Policy:
    """Save a favourite from the search of `query`, at `where`."""
    return lambda els, st: save_favorite(query, where, D.DEFAULT_GROUP, els, st)


def test_favorite_wins_at_the_place_by_coordinates_within_the_tolerance_only():
    """A favourite 0.0008 degrees off wins; 0.0015 off, or at Oberplanken for Planken, loses; a second one loses."""
    params = {"location": "Planken, Liechtenstein"}
    for query, wins in ((near(params["location"], 0.0008), True), (near(params["location"], 0.0015), False),
                        ("Oberplanken", False)):
        task = start(FAV, params)
        drive(PHONE, favorite_at(query, D.parse_coords(query) or A.where("Oberplanken, Liechtenstein")),
              lambda st: bool(osmand_state(st)["favorites"]))
        assert task.check(PHONE.state()) is wins, query
    drive(PHONE, favorite_at("Planken", A.where("Planken, Liechtenstein")),
          lambda st: len(osmand_state(st)["favorites"]) == 2)
    assert not task.check(PHONE.state())  # Oberplanken and Planken


def test_marker_wins_once_added_and_loses_beside_a_removed_marker():
    """A marker at the coordinates wins; with a seeded marker removed too it loses; the look-alike loses."""
    params = {"location": "47.1663432, 9.5103085"}  # Schaan; Schaanwald and Schaan station are look-alikes
    seed = next(s for s in range(20) if D.seeded_world(s)["markers"])
    task = start(MARKER, params, seed)
    drive(PHONE, lambda els, st: set_marker("Schaanwald", A.where("Schaanwald, Liechtenstein"), els, st),
          lambda st: len(osmand_state(st)["edits"]) == 1)
    assert not task.check(PHONE.state())
    task = start(MARKER, params, seed)
    drive(PHONE, lambda els, st: task.expert_action(els, st), lambda st: len(osmand_state(st)["edits"]) == 1)
    assert task.check(PHONE.state())
    other = osmand_state(PHONE.state())["markers"][1]["name"]
    drive(PHONE, lambda els, st: via_menu("markers", "Map markers", els, st) or press(els, desc=f"Remove {other}"),
          lambda st: len(osmand_state(st)["edits"]) == 2)
    assert not task.check(PHONE.state())


def route(*names: str) -> Policy:
    """Plan a route through `names` and save it named after them."""
    stops = [(n, n) for n in names]
    return lambda els, st: plan_route(stops, els, st) or save_plan(" to ".join(names), els, st)


def test_track_passes_the_towns_in_order_with_points_between_and_only_one_track():
    """Balzers, Triesen, Ruggell wins for Balzers then Ruggell; Ruggell then Balzers loses; a second track loses."""
    params = {"waypoints": "Balzers, Liechtenstein, Ruggell, Liechtenstein",
              "stops": ("Balzers, Liechtenstein", "Ruggell, Liechtenstein")}
    task = start(TRACK, params)
    drive(PHONE, route("Ruggell", "Balzers"), lambda st: bool(osmand_state(st)["tracks"]))
    assert not task.check(PHONE.state())
    task = start(TRACK, params)
    drive(PHONE, route("Balzers", "Triesen", "Ruggell"), lambda st: bool(osmand_state(st)["tracks"]))
    assert task.check(PHONE.state())
    drive(PHONE, route("Bendern", "Ruggell"), lambda st: len(osmand_state(st)["tracks"]) == 2)
    assert not task.check(PHONE.state())
