"""The Maps app: a map with a search bar and category chips, place results, place pages and directions.

Places are generated from the query with `stable_seed` (the same in every process and episode), around the phone's
own city (`places.HOME_CITY`): a search for "top rated sushi restaurants" lists sushi places with ratings, distances
and opening hours. Screens: "home", "search" (the box focused), "results" (args {"query"}), "place" and "directions"
(args {"place": a `places_for()` dict}). Results and place pages load through `phone.push(..., slow=True)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View
from android_gym.sim.web.places import HOME_CITY, title

PACKAGE = "com.google.android.apps.maps"
SEARCH_RID = f"{PACKAGE}:id/search_omnibox_text_box"
PLACE_RID = f"{PACKAGE}:id/place_row"
CHIPS = ("Restaurants", "Coffee", "Groceries", "Gas", "Hotels")
PLACES_PER_QUERY = 8
ROW_H = 260
_NAME_A = ("Golden", "Corner", "Harbor", "Sunset", "Union", "Mission", "Market", "Bay", "Hillside", "Lucky", "Central")
_NAME_B = ("House", "Kitchen", "Spot", "Place", "Co.", "Bar", "Shop", "Room", "Garden", "Depot")
_STREETS = ("Valencia St", "Market St", "Mission St", "Geary Blvd", "Irving St", "Castro St", "Polk St", "Fillmore St")
_NOISE = {"top", "rated", "best", "good", "nice", "the", "a", "an", "some", "near", "me", "nearby", "around", "here",
          "5", "star", "great", "cheap", "find", "search", "for", "on", "in", "maps"}


def places_for(query: str) -> list[dict[str, Any]]:
    """The places a search shows, best match first, all seeded by the normalised query.

    Each is {"name", "kind", "rating", "reviews", "distance_mi", "address", "open_now", "rank"}.

    >>> places_for("Sushi restaurants")[0]["kind"]
    'Sushi restaurants'
    """
    q = " ".join(query.lower().split())
    rng = np.random.default_rng(stable_seed("maps", q))
    kind = " ".join(w for w in q.split() if w not in _NOISE) or "places"
    out = []
    for rank in range(PLACES_PER_QUERY):
        first, last = _NAME_A[int(rng.integers(len(_NAME_A)))], _NAME_B[int(rng.integers(len(_NAME_B)))]
        name = f"{first} {kind.split()[0].title()} {last}"
        out.append({"name": name, "kind": kind[:1].upper() + kind[1:], "rating": round(3.4 + 1.6 * rng.random(), 1),
                    "reviews": int(rng.integers(12, 4000)), "distance_mi": round(0.2 + 4 * rng.random(), 1),
                    "address": f"{int(rng.integers(10, 3000))} {_STREETS[int(rng.integers(len(_STREETS)))]}",
                    "open_now": bool(rng.random() < 0.8), "rank": rank})
    return out


class MapsApp(App):
    """Google Maps, around the phone's city: search, results, place pages, directions."""

    package = PACKAGE
    label = "Maps"
    icon = "map"
    aliases = ("google maps",)

    def home(self) -> Screen:
        """The map with the search bar."""
        return Screen(PACKAGE, "home")

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The screen's views."""
        match screen.name:
            case "search":
                return self._search(screen)
            case "results":
                return self._results(screen.args["query"])
            case "place" | "directions":
                return self._place(screen.args["place"], screen.name == "directions")
        return self._home()

    def _bar(self, text: str, on_tap: tuple) -> View:
        y0, y1 = CONTENT_TOP + 24, CONTENT_TOP + TOOLBAR_H + 24
        return View(LINEAR, (MARGIN, y0, WIDTH - MARGIN, y1), text=text, rid=f"{PACKAGE}:id/search_omnibox",
                    package=PACKAGE, clickable=True, focusable=True, on_tap=on_tap, style="searchbar", icon="search")

    def _home(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H + 60
        chips = [View(TEXT_VIEW, (MARGIN + i * 200, top, MARGIN + i * 200 + 190, top + 110), text=chip,
                      package=PACKAGE, clickable=True, focusable=True, on_tap=("query", chip.lower()), style="tab")
                 for i, chip in enumerate(CHIPS)]
        canvas = View(IMAGE_VIEW, (0, top + 140, WIDTH, CONTENT_BOTTOM), desc=f"Map of {title(HOME_CITY)}",
                      package=PACKAGE, icon="map", style="image")
        return [self._bar("Search here", ("search",)), *chips, canvas]

    def _search(self, screen: Screen) -> list[View]:
        y0, y1 = CONTENT_TOP + 12, CONTENT_TOP + TOOLBAR_H - 12
        return [View(IMAGE_BUTTON, (0, y0, 150, y1), desc="Navigate up", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=NavKey("back"), icon="back"),
                text_field((150, y0, WIDTH - MARGIN, y1), SEARCH_RID, screen.fields.get(SEARCH_RID, ""),
                           "Search here", screen.focus == SEARCH_RID, PACKAGE)]

    def _results(self, query: str) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H + 60
        rows = []
        for i, p in enumerate(places_for(query)):
            y = top + i * ROW_H
            hours = "Open now" if p["open_now"] else "Closed"
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=f"{p['name']} - {p['rating']} stars",
                             rid=PLACE_RID, package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("place", tuple(sorted(p.items()))), style="card", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 110), text=p["name"],
                                      package=PACKAGE, style="title"),
                                 View(TEXT_VIEW, (MARGIN, y + 120, WIDTH - MARGIN, y + 240),
                                      text=f"{p['rating']}★ ({p['reviews']}) · {p['kind']} · {p['distance_mi']} mi · "
                                           f"{hours}", package=PACKAGE, style="meta")]))
        return [self._bar(query, ("search", query)), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                                 rid=f"{PACKAGE}:id/results")]

    def _place(self, place: dict[str, Any], directions: bool) -> list[View]:
        top = CONTENT_TOP + 40
        views = [View(IMAGE_BUTTON, (0, top, 150, top + 144), desc="Navigate up", package=PACKAGE, clickable=True,
                      focusable=True, on_tap=NavKey("back"), icon="back"),
                 View(TEXT_VIEW, (170, top, WIDTH - MARGIN, top + 144), text=place["name"],
                      rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title")]
        if directions:
            minutes = max(2, int(place["distance_mi"] * 4))
            views += [View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320),
                           text=f"{minutes} min ({place['distance_mi']} mi) by car", package=PACKAGE),
                      View(TEXT_VIEW, (MARGIN, top + 340, WIDTH - MARGIN, top + 440),
                           text=f"Fastest route to {place['address']}", package=PACKAGE, style="meta"),
                      View("android.widget.Button", (MARGIN, top + 480, WIDTH // 2, top + 620), text="Start",
                           package=PACKAGE, clickable=True, focusable=True, on_tap=("noop",), style="button")]
            return views
        views += [View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320),
                       text=f"{place['rating']}★ · {place['kind']} · {place['address']}", package=PACKAGE),
                  View(TEXT_VIEW, (MARGIN, top + 330, WIDTH - MARGIN, top + 430),
                       text="Open now" if place["open_now"] else "Closed", package=PACKAGE, style="meta")]
        for i, (label, event) in enumerate((("Directions", ("directions",)), ("Call", ("noop",)),
                                            ("Save", ("noop",)), ("Share", ("noop",)))):
            x = MARGIN + i * 250
            views.append(View("android.widget.Button", (x, top + 470, x + 230, top + 600), text=label,
                              package=PACKAGE, clickable=True, focusable=True, on_tap=event, style="button"))
        return views

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Search, chips, places, directions."""
        match event:
            case ("search", *prefill):
                text = prefill[0] if prefill else ""
                return self.phone.push(Screen(PACKAGE, "search", fields={SEARCH_RID: text}, focus=SEARCH_RID))
            case ("query", text):
                return self._query(text)
            case ("place", items):
                return self.phone.push(Screen(PACKAGE, "place", {"place": dict(items)}), slow=True)
            case ("directions",):
                return self.phone.push(Screen(PACKAGE, "directions", {"place": screen.args["place"]}), slow=True)
        return False  # ("noop",): Call, Save, Share, Start

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box runs the search."""
        return self._query(screen.fields.get(rid, ""))

    def _query(self, text: str) -> bool:
        query = " ".join(text.lower().split())
        return bool(query) and self.phone.push(Screen(PACKAGE, "results", {"query": query}), slow=True)

    def state(self) -> dict[str, Any]:
        """Where Maps is.

        Returns:
            {"page": front Maps screen name or None, "query": the latest search in the back stack or None,
            "loading": whether the front Maps screen still loads, "place": the name of the place (or directions)
            page in front, else None}.
        """
        mine = self.phone.screens(PACKAGE)
        queries = [s.args["query"] for s in mine if s.name == "results"]
        front = mine[-1] if mine else None
        return {"page": front.name if front else None, "query": queries[-1] if queries else None,
                "loading": bool(front and front.loading > 0),
                "place": front.args["place"]["name"] if front and front.name in ("place", "directions") else None}
