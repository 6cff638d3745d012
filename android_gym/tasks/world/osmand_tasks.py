"""World-suite tasks over OsmAnd (issue 48): save a town as a favourite in a group, swap a map marker, plan a route
through three towns and save it as a named track, answer how far apart two towns are and how many favourites a group
holds, and put a marker on the place of a calendar event (Calendar and OsmAnd).

The places are the twelve Liechtenstein towns AndroidWorld's OsmAnd tasks name; several have a look-alike that the
same search lists (Planken and Oberplanken, Schaan and Schaanwald, Triesen and Triesenberg), which is the near miss
of a task by name. Checks read OsmAnd's favourites, markers and tracks and its change log ("edits"): the asked change
and nothing else. Points match within 0.001 degrees, as AndroidWorld's checks have it. Splits hold out instance keys
(`split_of`). The expert steps are in `osmand_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import osmand as O
from android_gym.sim.apps import osmand_data as D
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, swipe_up, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.calendar_expert import to_event
from android_gym.tasks.world.osmand_expert import (
    OSM,
    coords,
    favorites_at,
    markers_at,
    ops,
    osmand_state,
    passes_in_order,
    plan_route,
    save_favorite,
    save_plan,
    set_marker,
    via_menu,
)

TOWNS = tuple(D.TOWNS)
GROUP_POOL = ("Hiking", "Day trips", "Ski trips", "Weekend", "Family visits")
COUNT_GROUPS = ("Ski trips", "Castles", "Bakeries", "Viewpoints", "Swims", "Picnic spots")
TRACK_NAMES = ("Sunday loop", "Valley ride", "North walk", "Rhine tour", "Village hop", "Castle run", "Morning ride",
               "Border walk")
EVENTS = (("Ski weekend", "Ski lessons"), ("Hike with Anna", "Hike with Ben"), ("Castle tour", "Castle concert"),
          ("Wine tasting", "Wine fair"), ("Cheese market", "Cheese course"), ("Team offsite", "Team dinner"))


def town_pairs() -> list[tuple[str, str]]:
    """Ordered pairs of distinct towns, spread over the list (every town starts three pairs)."""
    return [(a, TOWNS[(i + d) % len(TOWNS)]) for i, a in enumerate(TOWNS) for d in (1, 5, 7)]


class FavoriteInGroupTemplate(WorldTemplate):
    """Save {town} as a favourite in the group {group}: one favourite there, in that group, nothing else changed."""

    name, max_steps, split_key = "osmand_favorite_in_group", 15, "key"
    apps = (OSM,)
    phrasings = ('Save {town} to my OsmAnd favorites in the group "{group}"',
                 "In OsmAnd, add {town}, Liechtenstein as a favorite under {group}",
                 "Make {town} a favorite place in OsmAnd, filed in the {group} group")

    def grid(self) -> list[dict[str, Any]]:
        """Every town with three groups (an existing seeded group or a new one)."""
        return [{"town": t, "group": nth(GROUP_POOL, i + 2 * k), "key": f"{t}:{nth(GROUP_POOL, i + 2 * k)}",
                 "phrasing": i + k} for i, t in enumerate(TOWNS) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The seeded world (which holds no town)."""
        return {OSM: {}}

    def check(self, params: Params, state: State) -> bool:
        """One favourite added, at the town, in the group; no other change."""
        favs = favorites_at(state, coords(params["town"]))
        return ops(state) == ["favorite"] and [f["group"] for f in favs] == [params["group"]]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the town, its card, Favorite, the group (its chip, or typed), Save."""
        if favorites_at(state, coords(params["town"])):
            return wait()
        return save_favorite(params["town"], coords(params["town"]), params["group"], elements, state)


class SwapMarkerTemplate(WorldTemplate):
    """Replace the map marker of {old} with one for {town}; the marker of {other} stays."""

    name, max_steps, split_key = "osmand_swap_marker", 16, "key"
    apps = (OSM,)
    phrasings = ("In OsmAnd, replace the map marker for {old} with one for {town}",
                 "Remove my OsmAnd marker on {old} and put a marker on {town} instead",
                 "Move the {old} map marker in OsmAnd to {town}")

    def grid(self) -> list[dict[str, Any]]:
        """Every ordered town pair, with a third town's marker kept."""
        return [{"old": a, "town": b, "other": TOWNS[(TOWNS.index(b) + 3) % len(TOWNS)], "key": f"{a}>{b}",
                 "phrasing": i} for i, (a, b) in enumerate(town_pairs())
                if TOWNS[(TOWNS.index(b) + 3) % len(TOWNS)] != a]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only two markers: {old} on top, {other} under it."""
        return {OSM: {"clear": ["markers"], "markers": [{"name": n, "lat": coords(n)[0], "lon": coords(n)[1]}
                                                        for n in (params["old"], params["other"])]}}

    def check(self, params: Params, state: State) -> bool:
        """A marker on {town}, none on {old}, {other}'s kept; one marker added and one removed."""
        at = {k: len(markers_at(state, coords(params[k]))) for k in ("town", "old", "other")}
        return sorted(ops(state)) == ["marker", "remove_marker"] and (at["town"], at["old"], at["other"]) == (1, 0, 1)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Map markers (menu), remove {old}; then search {town}, Marker."""
        if markers_at(state, coords(params["old"])):
            return (via_menu("markers", "Map markers", elements, state)
                    or press(elements, desc=f"Remove {params['old']}"))
        if markers_at(state, coords(params["town"])):
            return wait()
        return set_marker(params["town"], coords(params["town"]), elements, state)


class SaveRouteTemplate(WorldTemplate):
    """Plan a route {a}, {b}, {c} and save it as the track {track}: that track, through exactly those points."""

    name, max_steps, split_key = "osmand_save_route", 27, "key"
    apps = (OSM,)
    phrasings = ('Plan a route in OsmAnd from {a} via {b} to {c} and save it as the track "{track}"',
                 "In OsmAnd, make a track called {track} that goes {a}, then {b}, then {c}",
                 'Save an OsmAnd track "{track}" through {a}, {b} and {c}, in that order')

    def grid(self) -> list[dict[str, Any]]:
        """Every town starting two routes, with track names rotating."""
        out = []
        for i, a in enumerate(TOWNS):
            for k in (2, 5):
                b, c = TOWNS[(i + k) % len(TOWNS)], TOWNS[(i + 2 * k + 1) % len(TOWNS)]
                track = nth(TRACK_NAMES, i + k)
                out.append({"a": a, "b": b, "c": c, "track": track, "key": f"{track}:{a}:{b}:{c}", "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The seeded world (no track of that name)."""
        return {OSM: {}}

    def check(self, params: Params, state: State) -> bool:
        """One track saved, named {track}, of exactly the three points in order."""
        track = next((t for t in osmand_state(state)["tracks"] if t["name"] == params["track"]), None)
        stops = [coords(params[k]) for k in ("a", "b", "c")]
        return (ops(state) == ["track"] and track is not None and len(track["points"]) == 3
                and passes_in_order(track["points"], stops))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Plan a route: Add point for each town (search, tap it); Save, the name, Save."""
        if any(t["name"] == params["track"] for t in osmand_state(state)["tracks"]):
            return wait()
        stops = [(params[k], params[k]) for k in ("a", "b", "c")]
        return plan_route(stops, elements, state) or save_plan(params["track"], elements, state)


class DistanceAnswerTemplate(WorldTemplate):
    """How far is {a} from {b} in a straight line? Answered with the distance OsmAnd's route planner shows."""

    name, max_steps, split_key = "osmand_distance", 18, "key"
    outcome, apps = "answer", (OSM,)
    phrasings = ("Using OsmAnd's route planner, how far is {a} from {b} in a straight line?",
                 "What distance does OsmAnd give between {a} and {b} (straight line, route planner)?",
                 "Plan {a} to {b} in OsmAnd and tell me the distance it shows")

    def grid(self) -> list[dict[str, Any]]:
        """Every ordered town pair."""
        return [{"a": a, "b": b, "key": f"{a}>{b}", "phrasing": i} for i, (a, b) in enumerate(town_pairs())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The seeded world."""
        return {OSM: {}}

    def answer(self, params: Params, state: State) -> str | None:
        """The distance as the planner writes it (its length in whole metres), while nothing was saved or changed."""
        stops = [dict(zip(("lat", "lon"), coords(params[k]), strict=True)) for k in ("a", "b")]
        return D.distance_label(D.track_length(stops)) if not ops(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Plan a route through the two towns and answer with its distance."""
        stops = [(params["a"], params["a"]), (params["b"], params["b"])]
        return plan_route(stops, elements, state) or answer_with(find(elements, rid=O.DISTANCE_RID))


class GroupCountTemplate(WorldTemplate):
    """How many favourites does the group {group} hold? {count}; the group "{group} 2025" holds others."""

    name, max_steps, split_key = "osmand_group_count", 9, "key"
    outcome, apps = "answer", (OSM,)
    phrasings = ('How many favorites are in my OsmAnd group "{group}"?',
                 "Count the places saved in the {group} favorites group of OsmAnd",
                 "In OsmAnd, how many favorites does {group} have?")

    def grid(self) -> list[dict[str, Any]]:
        """Every group with counts 1-7 and 1-4 in its look-alike group."""
        return [{"group": g, "count": 1 + (i + 2 * k) % 7, "near": 1 + (i + k) % 4, "key": f"{g}:{k}",
                 "phrasing": i + k} for i, g in enumerate(COUNT_GROUPS) for k in range(5)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{count} towns in {group}, the next {near} in "{group} 2025", beside the seeded favourites."""
        start = 3 * len(params["group"])
        towns = [TOWNS[(start + k) % len(TOWNS)] for k in range(params["count"] + params["near"])]
        favs = [{"name": t, "group": params["group"] if k < params["count"] else f"{params['group']} 2025",
                 "lat": coords(t)[0], "lon": coords(t)[1]} for k, t in enumerate(towns)]
        return {OSM: {"favorites": favs}}

    def answer(self, params: Params, state: State) -> str | None:
        """The count, while nothing was changed."""
        return str(params["count"]) if not ops(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """My places; scroll to the group's header; answer with its count."""
        step = via_menu("places", "My places", elements, state)
        if step is not None:
            return step
        header = find(elements, rid=O.GROUP_TITLE_RID, text=params["group"])
        if header is None:
            return swipe_up()
        count = next((e for e in elements if e.rid == O.GROUP_COUNT_RID and e.bounds[1] == header.bounds[1]), None)
        return answer_with(count)


class EventMarkerTemplate(WorldTemplate):
    """Put a map marker on the place of the calendar event {title} ({town}); the event {twin} is elsewhere."""

    name, max_steps, split_key = "osmand_event_marker", 17, "key"
    apps = (C.PACKAGE, OSM)
    phrasings = ('My calendar event "{title}" has a location: put an OsmAnd map marker there',
                 "Look up where {title} takes place in my calendar and add a marker for it in OsmAnd",
                 "Add an OsmAnd marker for the location of the {title} event on my calendar")

    def grid(self) -> list[dict[str, Any]]:
        """Every event pair with four towns each, the twin at another town."""
        return [{"title": t, "twin": w, "town": TOWNS[(3 * i + k) % len(TOWNS)],
                 "twin_town": TOWNS[(3 * i + k + 6) % len(TOWNS)], "day": 11 + (i + k) % 15,
                 "key": f"{t}:{k}", "phrasing": i + k} for i, (t, w) in enumerate(EVENTS) for k in range(4)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event at "{town}, Liechtenstein" and its twin at "{twin_town}, Liechtenstein" this month."""
        events = [{"title": params[t], "date": f"2026-06-{params['day'] + d:02d}", "start": "10:00", "end": "16:00",
                   "location": f"{params[where]}, {D.COUNTRY}"}
                  for t, where, d in (("title", "town", 0), ("twin", "twin_town", 2))]
        return {C.PACKAGE: {"absent": [params["title"], params["twin"]], "events": events}}

    def check(self, params: Params, state: State) -> bool:
        """One marker added, on {town}; nothing else changed in OsmAnd or Calendar."""
        cal = state_of(state, C.CalendarState)
        return (ops(state) == ["marker"] and len(markers_at(state, coords(params["town"]))) == 1
                and not (cal["added"] or cal["edited"] or cal["deleted"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the event in Calendar to read its location; search it in OsmAnd; Marker."""
        cal = state_of(state, C.CalendarState)
        event = next(e for e in cal["events"] if e["title"] == params["title"])
        if event["id"] not in cal["opened"]:
            return to_event(event, elements, state) or wait()
        if markers_at(state, coords(params["town"])):
            return wait()
        return set_marker(event["location"], coords(params["town"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    FavoriteInGroupTemplate(), SwapMarkerTemplate(), SaveRouteTemplate(), DistanceAnswerTemplate(),
    GroupCountTemplate(), EventMarkerTemplate(),
)
"""The OsmAnd templates of the World suite."""
