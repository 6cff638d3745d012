"""AndroidWorld's OsmAnd tasks: `OsmAndFavorite` ("Add a favorite location marker for {location} in the OsmAnd maps
app."), `OsmAndMarker` ("Add a location marker for {location} ...") and `OsmAndTrack` ("Save a track with waypoints
{waypoints} ... in the same order as listed.").

AndroidWorld's locations are twelve Liechtenstein towns of its preloaded map, each drawn as "<town>, Liechtenstein"
or, half the time, as its coordinates "lat, lon" (`_random_location_str`); a track takes 2-4 distinct towns by name.
It reads favorites.gpx (a favourite named with the location, or within 0.001 degrees of it), the map_markers table
(a marker within 0.001 degrees) and the saved tracks' GPX points (one track passing the towns in order, other points
between them allowed). It clears the favourites and the tracks first; the markers it leaves.

Here the towns are the sim OsmAnd's (`osmand_data.TOWNS`, AndroidWorld's coordinates), and the checks read OsmAnd's
favourites, markers, tracks and change log, points matched within 0.001 degrees as AndroidWorld matches them; a
favourite must be at the place (its name alone does not do). Favourite: the favourites cleared, then exactly one,
at the place, of any name and group. Marker: one marker added, at the place, and no other change to the markers (a
seeded marker removed loses). Track: the tracks cleared, then exactly one saved, passing the towns in order. The
near misses are the look-alike towns a search lists beside the right one (Planken and Oberplanken, Schaan and
Schaanwald, Triesen and Triesenberg) and the towns out of order.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import osmand_data as D
from android_gym.tasks.androidworld.base import AndroidWorldTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.osmand_expert import (
    OSM,
    favorites_at,
    markers_at,
    ops,
    osmand_state,
    passes_in_order,
    plan_route,
    save_favorite,
    set_marker,
)

LOCATIONS = {f"{town}, {D.COUNTRY}": where for town, where in D.TOWNS.items()}
"""AndroidWorld's location names and coordinates."""


def draw_location(rng: random.Random) -> str:
    """One location as AndroidWorld's `_random_location_str` draws it: a name, or (half the time) its coordinates."""
    name = rng.sample(sorted(LOCATIONS), 1)[0]
    lat, lon = LOCATIONS[name]
    return name if rng.getrandbits(1) else f"{lat}, {lon}"


def where(location: str) -> tuple[float, float]:
    """The (lat, lon) of a location: a town's, or the coordinates it spells out.

    >>> where("Planken, Liechtenstein"), where("47.23976, 9.5262837")
    ((47.1858882, 9.5452201), (47.23976, 9.5262837))
    """
    return LOCATIONS.get(location) or D.parse_coords(location)


def result_name(location: str) -> str:
    """The search result a location's query lists at the place: the town, or the coordinates' point."""
    return next(p["name"] for p in D.search(location) if D.same_place((p["lat"], p["lon"]), where(location)))


class OsmAndFavorite(AndroidWorldTemplate):
    """A favourite for {location}: the favourites cleared, then exactly one, at the place (any name and group)."""

    name, split_key = "OsmAndFavorite", "location"
    goal_template = "Add a favorite location marker for {location} in the OsmAnd maps app."
    apps, max_steps = (OSM,), 12  # the expert takes 7 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A town by name or by coordinates."""
        return {"location": draw_location(rng)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No favourites (AndroidWorld clears them)."""
        return {OSM: {"clear": ["favorites"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one favourite, within 0.001 degrees of the place."""
        favs = osmand_state(state)["favorites"]
        return len(favs) == 1 and favorites_at(state, where(params["location"])) == favs

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the location, its card, Favorite, Save (the default name and group)."""
        if favorites_at(state, where(params["location"])):
            return wait()
        return save_favorite(params["location"], where(params["location"]), D.DEFAULT_GROUP, elements, state)


class OsmAndMarker(AndroidWorldTemplate):
    """A marker for {location}: one marker added, at the place; no other marker changed."""

    name, split_key = "OsmAndMarker", "location"
    goal_template = "Add a location marker for {location} in the OsmAnd maps app."
    apps, max_steps = (OSM,), 10  # the expert takes 6 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A town by name or by coordinates."""
        return {"location": draw_location(rng)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The seeded markers (AndroidWorld leaves the markers; none is at a town)."""
        return {OSM: {}}

    def check(self, params: Params, state: State) -> bool:
        """The only marker change is one added, and an active marker is within 0.001 degrees of the place."""
        return ops(state) == ["marker"] and bool(markers_at(state, where(params["location"])))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the location, its card, Marker."""
        if markers_at(state, where(params["location"])):
            return wait()
        return set_marker(params["location"], where(params["location"]), elements, state)


class OsmAndTrack(AndroidWorldTemplate):
    """A track through {waypoints} in order: the tracks cleared, then exactly one saved, passing them in order."""

    name, split_key = "OsmAndTrack", "waypoints"
    goal_template = ("Save a track with waypoints {waypoints} in the OsmAnd maps app in the same order as "
                     "listed.")
    apps, max_steps = (OSM,), 27  # the expert takes 12 steps for two towns, 18 for four

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """2-4 distinct towns by name, in order (AndroidWorld's goal joins them with ", ")."""
        stops = rng.sample(sorted(LOCATIONS), rng.randint(2, 4))
        return {"waypoints": ", ".join(stops), "stops": tuple(stops)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No saved tracks (AndroidWorld clears them)."""
        return {OSM: {"clear": ["tracks"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one track, passing the towns in order (other points between them allowed)."""
        tracks = osmand_state(state)["tracks"]
        return len(tracks) == 1 and passes_in_order(tracks[0]["points"], [where(s) for s in params["stops"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Plan a route: Add point for each town (searched as the goal names it); Save; Save with the default name."""
        if osmand_state(state)["tracks"]:
            return wait()
        stops = [(s, result_name(s)) for s in params["stops"]]
        return plan_route(stops, elements, state) or press(elements, text="Save", clickable=True)


TEMPLATES = (OsmAndFavorite(), OsmAndMarker(), OsmAndTrack())
