"""OsmAnd's data: the places of its offline map (Liechtenstein), distances, the seeded world, the typed seam.

The map is the one AndroidWorld's emulator carries preloaded: Liechtenstein. `TOWNS` are the twelve places
AndroidWorld's OsmAnd tasks name, with the coordinates it uses for them (facts, as data); `PLACES` adds other villages
and sights of the country, so that a search finds look-alikes (Planken and Oberplanken, Schaan and Schaanwald). The
phone stands in Vaduz (`HERE`): a search result and a card say how far a place is from it.

A search (`search`) finds places whose name holds the query's first comma-separated part (the rest, "Liechtenstein",
must be their country), or one point for a query of two numbers ("47.1858882, 9.5452201"). Distances are great-circle
distances in metres (`distance_m`), shown as OsmAnd shows them (`distance_label`). The per-episode world (a few
favourites in groups, map markers, saved tracks) is drawn from `stable_seed("osmand", seed)` (`seeded_world`).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, refuse_blank

COUNTRY = "Liechtenstein"
TOWNS: dict[str, tuple[float, float]] = {
    "Balzers": (47.0688832, 9.5061564), "Bendern": (47.2122151, 9.5062101), "Malbun": (47.1026191, 9.6083057),
    "Nendeln": (47.1973857, 9.5430636), "Oberplanken": (47.1784977, 9.5450163), "Planken": (47.1858882, 9.5452201),
    "Rotenboden": (47.1275785, 9.5387131), "Ruggell": (47.23976, 9.5262837), "Schaan": (47.1663432, 9.5103085),
    "Schaanwald": (47.2165476, 9.5699984), "Schoenberg": (47.1303814, 9.5930117), "Triesen": (47.106997, 9.5274854),
}
"""The places AndroidWorld's OsmAnd tasks name ("<name>, Liechtenstein"), at the coordinates it checks against."""
PLACES: dict[str, tuple[str, float, float]] = {
    **{name: ("Village", lat, lon) for name, (lat, lon) in TOWNS.items()},
    "Vaduz": ("Town", 47.1410, 9.5209), "Triesenberg": ("Village", 47.1181, 9.5433),
    "Eschen": ("Village", 47.2107, 9.5223), "Mauren": ("Village", 47.2180, 9.5430),
    "Gamprin": ("Village", 47.2203, 9.5087), "Schellenberg": ("Village", 47.2307, 9.5469),
    "Steg": ("Hamlet", 47.1140, 9.5690), "Masescha": ("Hamlet", 47.1330, 9.5570),
    "Gaflei": ("Hamlet", 47.1440, 9.5480), "Silum": ("Hamlet", 47.1370, 9.5560),
    "Mäls": ("Hamlet", 47.0610, 9.4960), "Mühleholz": ("Hamlet", 47.1560, 9.5160),
    "Vaduz Castle": ("Castle", 47.1393, 9.5239), "Gutenberg Castle": ("Castle", 47.0646, 9.4996),
    "Kunstmuseum Liechtenstein": ("Museum", 47.1400, 9.5215), "Postal Museum": ("Museum", 47.1398, 9.5217),
    "Malbun chairlift": ("Chairlift", 47.1010, 9.6070), "Rheinpark Stadion": ("Stadium", 47.1396, 9.5114),
    "Schaan station": ("Railway station", 47.1650, 9.5080), "Nendeln station": ("Railway station", 47.1985, 9.5420),
    "Gänglesee": ("Lake", 47.0960, 9.6040), "Three Sisters": ("Peak", 47.2080, 9.5690),
}
"""Every named place of the map: (kind, latitude, longitude) by name."""
HERE = (47.1410, 9.5209)
"""Where the phone is (Vaduz): what "from you" measures from."""
GROUPS = ("Favorites", "Home", "Hiking", "Food", "Day trips")
"""Favourite groups of the seeded world; "Favorites" is the default group of a new favourite."""
DEFAULT_GROUP = "Favorites"
EARTH_RADIUS_M = 6_371_000
_COORDS = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*")


def distance_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (lat, lon) points in degrees, in metres.

    >>> round(distance_m(TOWNS["Balzers"], TOWNS["Ruggell"]))
    19061
    """
    (lat1, lon1), (lat2, lon2) = (tuple(map(math.radians, p)) for p in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def distance_label(metres: float) -> str:
    """A distance as OsmAnd writes it: metres under a kilometre, two decimals under ten, one above.

    >>> distance_label(852.4), distance_label(4567), distance_label(19061)
    ('850 m', '4.57 km', '19.1 km')
    """
    if metres < 1000:
        return f"{round(metres, -1):.0f} m"
    return f"{metres / 1000:.2f} km" if metres < 10_000 else f"{metres / 1000:.1f} km"


def coords_label(lat: float, lon: float) -> str:
    """A point's coordinates as the card shows them (five decimals).

    >>> coords_label(47.0688832, 9.5061564)
    '47.06888, 9.50616'
    """
    return f"{lat:.5f}, {lon:.5f}"


def parse_coords(query: str) -> tuple[float, float] | None:
    """The (lat, lon) a query of two numbers names, or None (also for numbers off the globe).

    >>> parse_coords("47.1858882, 9.5452201"), parse_coords("Planken")
    ((47.1858882, 9.5452201), None)
    """
    m = _COORDS.fullmatch(query)
    if m is None:
        return None
    lat, lon = float(m.group(1)), float(m.group(2))
    return (lat, lon) if abs(lat) <= 90 and abs(lon) <= 180 else None


def point(name: str) -> dict[str, Any]:
    """The named place `name` as a point {"name", "kind", "lat", "lon"}.

    Raises:
        KeyError: no such place on the map.
    """
    kind, lat, lon = PLACES[name]
    return {"name": name, "kind": kind, "lat": lat, "lon": lon}


def search(query: str) -> list[dict[str, Any]]:
    """What a search for `query` lists: one point for coordinates, else the places whose name holds the query's first
    comma-separated part (names starting with it first), when the rest, if any, names the country.

    >>> [p["name"] for p in search("planken")], [p["name"] for p in search("Balzers, Liechtenstein")]
    (['Planken', 'Oberplanken'], ['Balzers'])
    >>> search("47.1, 9.5")[0]["name"], search("Balzers, Austria")
    ('47.10000, 9.50000', [])
    """  # noqa: D205
    coords = parse_coords(query)
    if coords is not None:
        return [{"name": coords_label(*coords), "kind": "Location", "lat": coords[0], "lon": coords[1]}]
    head, _, rest = query.strip().partition(",")
    head, rest = head.strip().casefold(), rest.strip().casefold()
    if not head or (rest and rest not in COUNTRY.casefold()):
        return []
    found = [n for n in PLACES if head in n.casefold()]
    return [point(n) for n in sorted(found, key=lambda n: (not n.casefold().startswith(head), n))]


def same_place(a: tuple[float, float], b: tuple[float, float], delta_deg: float = 0.001) -> bool:
    """Whether two (lat, lon) points are within `delta_deg` of each other on both axes (AndroidWorld's match).

    >>> same_place((47.1, 9.5), (47.1009, 9.4991)), same_place((47.1, 9.5), (47.102, 9.5))
    (True, False)
    """
    return all(abs(x - y) < delta_deg for x, y in zip(a, b, strict=True))


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["map", "menu", "search", "place", "favorite", "places", "tracks", "track", "markers", "plan", "save"]
Op = Literal["favorite", "edit_favorite", "delete_favorite", "marker", "remove_marker", "track"]


@closed
class PointState(TypedDict):
    """A point: its name, latitude and longitude in degrees."""

    name: str
    lat: float
    lon: float


@closed
class FavoriteState(TypedDict):
    """A favourite: its name, group, latitude and longitude in degrees."""

    name: str
    group: str
    lat: float
    lon: float


@closed
class TrackState(TypedDict):
    """A saved track: its name, its points in order and its length in metres (straight lines between them)."""

    name: str
    points: list[PointState]
    distance_m: int


@closed
class OsmandEdit(TypedDict):
    """One change of the episode: what was done, and the favourite's, marker's or track's name."""

    op: Op
    name: str


@closed
class OsmandState(TypedDict):
    """What OsmAnd reports (`OsmandApp.state`).

    Attributes:
        favorites: every favourite, by group then name (as My places lists them).
        markers: the active map markers, in the list's order (the newest first).
        tracks: the saved tracks, by name.
        plan: the points of the route being planned, in order ([] for none).
        screen: the front OsmAnd screen's name, None when the app has none on the stack.
        query: the search text while a search is in front, else None.
        open: the point whose card is in front (or under its dialog), else None.
        opened: the names of the points whose cards were opened this episode, in order.
        edits: the episode's changes, in order.
    """

    favorites: list[FavoriteState]
    markers: list[PointState]
    tracks: list[TrackState]
    plan: list[PointState]
    screen: Page | None
    query: str | None
    open: PointState | None
    opened: list[str]
    edits: list[OsmandEdit]


class PointSpec(ConfigModel):
    """A point a task puts on the phone (a marker, a track's point).

    Attributes:
        name: its name (not blank).
        lat: latitude in degrees (-90 to 90).
        lon: longitude in degrees (-180 to 180).
    """

    name: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)


class FavoriteSpec(PointSpec):
    """A favourite a task puts on the phone: a point in a group (default "Favorites").

    Attributes:
        group: its group (not blank).
    """

    group: str = DEFAULT_GROUP

    @field_validator("group")
    @classmethod
    def _group_not_blank(cls, group: str) -> str:
        if not group.strip():
            raise FieldError("group", "a group name that is not blank", group)
        return group


class TrackSpec(ConfigModel):
    """A saved track a task puts on the phone.

    Attributes:
        name: its name.
        points: its points in order (two at least).
    """

    name: str
    points: tuple[PointSpec, ...] = Field(min_length=2)


class OsmandInitial(ConfigModel):
    """The initial conditions an OsmAnd task may set, applied in this order (the set-up, not changes).

    Attributes:
        clear: what is emptied first of the seeded world ("favorites", "markers", "tracks").
        favorites: favourites added.
        markers: active markers added, on top of the list in this order.
        tracks: saved tracks added (a name already saved replaces that track).
    """

    clear: tuple[Literal["favorites", "markers", "tracks"], ...] = ()
    favorites: tuple[FavoriteSpec, ...] = ()
    markers: tuple[PointSpec, ...] = ()
    tracks: tuple[TrackSpec, ...] = ()


def track_length(points: list[dict[str, Any]]) -> int:
    """A track's length in whole metres: straight lines between its points in order."""
    pairs = zip(points, points[1:], strict=False)
    return round(sum(distance_m((a["lat"], a["lon"]), (b["lat"], b["lon"])) for a, b in pairs))


def seeded_world(seed: int) -> dict[str, list[dict[str, Any]]]:
    """Episode `seed`'s favourites (2-6, in the seeded groups), active markers (0-2) and saved tracks (0-2).

    Only the places beyond AndroidWorld's twelve towns are seeded, so a task about a town starts from none of them.
    """
    rng = np.random.default_rng(stable_seed("osmand", seed))
    pool = [n for n in PLACES if n not in TOWNS]
    names = [pool[int(i)] for i in rng.permutation(len(pool))]
    favs = [{"name": n, "group": GROUPS[int(rng.integers(len(GROUPS)))], "lat": PLACES[n][1], "lon": PLACES[n][2]}
            for n in names[:int(rng.integers(2, 7))]]
    markers = [{"name": n, "lat": PLACES[n][1], "lon": PLACES[n][2]} for n in names[6:6 + int(rng.integers(0, 3))]]
    tracks = []
    for k in range(int(rng.integers(0, 3))):
        stops = [point(n) for n in names[9 + 3 * k:12 + 3 * k]]
        pts = [{"name": p["name"], "lat": p["lat"], "lon": p["lon"]} for p in stops]
        tracks.append({"name": f"{pts[0]['name']} walk {k + 1}", "points": pts, "distance_m": track_length(pts)})
    return {"favorites": favs, "markers": markers, "tracks": tracks}
