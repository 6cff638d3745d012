"""The places a Maps search finds, and the ways there: the seeded results of a query, travel times by mode.

Places are generated from the query with `stable_seed` (the same in every process and episode), around the phone's
own city (`places.HOME_CITY`): a search for "top rated sushi restaurants" lists sushi places with ratings, distances,
opening hours and (most of them) a phone number; a search for a street address ("1600 Amphitheatre Parkway") finds
that address alone (`address_place`). Travel times follow from a place's distance (`travel`). The app that shows them
is `android_gym.sim.apps.maps.MapsApp`.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

import numpy as np

from android_gym.sim.app import stable_seed
from android_gym.sim.web.places import title

Mode = Literal["Drive", "Transit", "Walk", "Bike"]
MODES: tuple[Mode, ...] = get_args(Mode)
PLACES_PER_QUERY = 8
ADDRESS_KIND = "Address"
"""The kind of the place a street-address search finds."""
_ADDRESS = re.compile(r"\d+[a-z]? (?!star )(?:[a-z0-9'-]+ )*[a-z0-9'-]+ (?:street|st|avenue|ave|road|rd|boulevard|"
                      r"blvd|parkway|pkwy|way|drive|dr|lane|ln|court|ct|place|pl|highway|hwy|square|sq|terrace|plaza)")
_NAME_A = ("Golden", "Corner", "Harbor", "Sunset", "Union", "Mission", "Market", "Bay", "Hillside", "Lucky", "Central")
_NAME_B = ("House", "Kitchen", "Spot", "Place", "Co.", "Bar", "Shop", "Room", "Garden", "Depot")
_STREETS = ("Valencia St", "Market St", "Mission St", "Geary Blvd", "Irving St", "Castro St", "Polk St", "Fillmore St")
_NOISE = {"top", "rated", "best", "good", "nice", "the", "a", "an", "some", "near", "me", "nearby", "around", "here",
          "5", "star", "great", "cheap", "find", "search", "for", "on", "in", "maps"}


def address_place(query: str) -> dict[str, Any] | None:
    """The place a street-address search finds ("1600 Amphitheatre Parkway": a number, then words ending in a street
    type), or None for any other query. Its kind is `ADDRESS_KIND`, its name and address the address title-cased, its
    distance seeded by the address; it has no rating, reviews, hours or phone.

    >>> address_place("1600 amphitheatre parkway")["name"], address_place("coffee shops") is None
    ('1600 Amphitheatre Parkway', True)
    """  # noqa: D205
    q = " ".join(query.lower().split()).rstrip(".")
    if _ADDRESS.fullmatch(q) is None:
        return None
    rng = np.random.default_rng(stable_seed("maps-address", q))
    name = title(q)
    return {"name": name, "kind": ADDRESS_KIND, "rating": 0.0, "reviews": 0,
            "distance_mi": round(0.8 + 30 * rng.random(), 1), "address": name, "open_now": True, "rank": 0, "phone": ""}


def places_for(query: str) -> list[dict[str, Any]]:
    """The places a search shows, best match first, all seeded by the normalised query; a street address finds
    itself alone (`address_place`).

    Each is {"name", "kind", "rating", "reviews", "distance_mi", "address", "open_now", "rank", "phone"} ("phone":
    "(415) 555-0123", or "" for a place without a number).

    >>> places_for("Sushi restaurants")[0]["kind"]
    'Sushi restaurants'
    """  # noqa: D205
    q = " ".join(query.lower().split())
    found = address_place(q)
    if found is not None:
        return [found]
    rng = np.random.default_rng(stable_seed("maps", q))
    phones = np.random.default_rng(stable_seed("maps-phone", q))  # its own stream: older fields unchanged
    kind = " ".join(w for w in q.split() if w not in _NOISE) or "places"
    out = []
    for rank in range(PLACES_PER_QUERY):
        first, last = _NAME_A[int(rng.integers(len(_NAME_A)))], _NAME_B[int(rng.integers(len(_NAME_B)))]
        name = f"{first} {kind.split()[0].title()} {last}"
        number = f"(415) {int(phones.integers(200, 1000))}-{int(phones.integers(1000, 10000))}"
        out.append({"name": name, "kind": kind[:1].upper() + kind[1:], "rating": round(3.4 + 1.6 * rng.random(), 1),
                    "reviews": int(rng.integers(12, 4000)), "distance_mi": round(0.2 + 4 * rng.random(), 1),
                    "address": f"{int(rng.integers(10, 3000))} {_STREETS[int(rng.integers(len(_STREETS)))]}",
                    "open_now": bool(rng.random() < 0.8), "rank": rank,
                    "phone": "" if phones.random() < 0.25 else number})
    return out


def travel(place: dict[str, Any], mode: str) -> tuple[int, float]:
    """(minutes, miles) to `place` by `mode` (one of `MODES`), fixed by the place: the road distance, at 15 mph by
    car, 12 mph by transit after a wait of 3 to 10 minutes, 3 mph on foot along a slightly shorter path, 10 mph by bike.

    >>> travel({"name": "X", "distance_mi": 2.0}, "Walk"), travel({"name": "X", "distance_mi": 2.0}, "Drive")
    ((38, 1.9), (8, 2.0))
    """  # noqa: D205
    d = float(place["distance_mi"])
    match mode:
        case "Drive":
            return max(2, int(d * 4)), d
        case "Transit":
            return 3 + stable_seed("maps-wait", place["name"]) % 8 + round(d * 5), d
        case "Walk":
            walk = round(d * 0.95, 1)
            return max(1, round(walk * 20)), walk
        case "Bike":
            return max(1, round(d * 6)), d
    raise ValueError(f"`mode` must be one of {MODES}, got {mode!r}")


def duration(minutes: int) -> str:
    """Minutes as Maps shows them.

    >>> duration(23), duration(60), duration(84)
    ('23 min', '1 hr', '1 hr 24 min')
    """
    hours, left = divmod(minutes, 60)
    if not hours:
        return f"{left} min"
    return f"{hours} hr" + (f" {left} min" if left else "")


def key_of(place: dict[str, Any]) -> str:
    """A place's identity in the lists (two results of a search may share a name, never a name and an address)."""
    return f"{place['name']} · {place['address']}"
