"""The OsmAnd app (net.osmand): an offline map of Liechtenstein: search places by name or coordinates, a place's card
(Favorite, Marker, Directions), favourites in groups, map markers, routes planned through several points and saved as
tracks.

The data (places, distances, the seeded world, the typed state and initial conditions) is in `osmand_data`. The
world is drawn per episode from `stable_seed("osmand", phone.seed)`: a few favourites, markers and tracks.

Screens: "map" (home: the search bar, the top bar of the first map marker, the map, Menu), "menu" (My places, Map
markers, Plan a route, Search), "search" (args {"pick": bool}: the query in fields[SEARCH_RID]; picking adds a point to
the planned route instead of opening its card), "place" (args {"point"}: a point's card), "favorite" (args {"point",
"index", "error"}: the add or edit dialog over the card, name and group in fields[NAME_RID], fields[GROUP_RID]),
"places" and "tracks" (My places' two tabs), "track" (args {"name"}), "markers" (the active markers), "plan" (the route
being planned) and "save" (args {"error"}: its name dialog over the plan).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, name_refusal
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.apps.osmand_data import (
    COUNTRY,
    DEFAULT_GROUP,
    HERE,
    OsmandInitial,
    OsmandState,
    coords_label,
    distance_label,
    distance_m,
    search,
    seeded_world,
    track_length,
)
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "net.osmand"
SEARCH_RID = f"{PACKAGE}:id/searchEditText"
RESULT_RID = f"{PACKAGE}:id/item_title"
SUBTITLE_RID = f"{PACKAGE}:id/subtitle"
NAME_RID = f"{PACKAGE}:id/name_edit"
GROUP_RID = f"{PACKAGE}:id/group_edit"
TRACK_NAME_RID = f"{PACKAGE}:id/track_name_edit"
COORDS_RID = f"{PACKAGE}:id/coordinates"
DISTANCE_RID = f"{PACKAGE}:id/distance"
GROUP_TITLE_RID = f"{PACKAGE}:id/group_name"
GROUP_COUNT_RID = f"{PACKAGE}:id/group_count"
MARKER_BAR_RID = f"{PACKAGE}:id/map_markers_top_bar"
ROW_H = 190
NOW = f"{TODAY[0]}-{TODAY[1]:02d}-{TODAY[2]:02d}_09-41"
"""The phone's date and time as a new plan's default name has it (the sim's clock shows 9:41 on `TODAY`)."""


def pt(p: dict[str, Any]) -> dict[str, Any]:
    """A point's state: name, lat, lon."""
    return {"name": p["name"], "lat": p["lat"], "lon": p["lon"]}


def at(p: dict[str, Any], q: dict[str, Any]) -> bool:
    """Whether two points are the same spot (within a metre or so)."""
    return abs(p["lat"] - q["lat"]) < 1e-5 and abs(p["lon"] - q["lon"]) < 1e-5


class OsmandApp(App):
    """OsmAnd: search, a place's card, favourites (groups), map markers, planned routes saved as tracks."""

    package = PACKAGE
    label = "OsmAnd"
    icon = "map"
    aliases = ("osmand", "OsmAnd Maps", "osmand+")
    state_schema = OsmandState
    initial_model = OsmandInitial

    def reset(self) -> None:
        """The episode's seeded favourites, markers and tracks; no route planned, nothing changed."""
        world = seeded_world(self.phone.seed)
        self.favorites: list[dict[str, Any]] = world["favorites"]
        self.markers: list[dict[str, Any]] = world["markers"]
        self.tracks: dict[str, dict[str, Any]] = {t["name"]: t for t in world["tracks"]}
        self.plan: list[dict[str, Any]] = []
        self.opened: list[str] = []
        self.edits: list[dict[str, str]] = []

    def set_up(self, initial: OsmandInitial) -> None:
        """Empty what `clear` names, then add the favourites, markers and tracks."""
        if "favorites" in initial.clear:
            self.favorites = []
        if "markers" in initial.clear:
            self.markers = []
        if "tracks" in initial.clear:
            self.tracks = {}
        self.favorites += [f.to_data() for f in initial.favorites]
        self.markers[:0] = [m.to_data() for m in initial.markers]
        for t in initial.tracks:
            points = [p.to_data() for p in t.points]
            self.tracks[t.name] = {"name": t.name, "points": points, "distance_m": track_length(points)}

    def home(self) -> Screen:
        """The map."""
        return Screen(PACKAGE, "map")

    def state(self) -> OsmandState:
        """Favourites, markers, tracks, the plan, where the app is and what changed (see `OsmandState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        card = next((s for s in reversed(mine) if s.name == "place"), None)
        open_ = pt(card.args["point"]) if card is not None and front.name in ("place", "favorite") else None
        return {"favorites": [dict(f) for f in sorted(self.favorites, key=lambda f: (f["group"], f["name"]))],
                "markers": [dict(m) for m in self.markers],
                "tracks": [{**t, "points": [dict(p) for p in t["points"]]} for _, t in sorted(self.tracks.items())],
                "plan": [dict(p) for p in self.plan], "screen": front.name if front else None,
                "query": front.fields.get(SEARCH_RID, "") if front is not None and front.name == "search" else None,
                "open": open_, "opened": list(self.opened), "edits": [dict(e) for e in self.edits]}

    # -- the model ----------------------------------------------------------------------------------------------------
    def groups(self) -> list[str]:
        """The favourite groups, sorted, the default one first."""
        return sorted({DEFAULT_GROUP, *(f["group"] for f in self.favorites)}, key=lambda g: (g != DEFAULT_GROUP, g))

    def favorite_at(self, p: dict[str, Any]) -> int | None:
        """The index of the favourite at point `p`, or None."""
        return next((i for i, f in enumerate(self.favorites) if at(f, p)), None)

    def marker_at(self, p: dict[str, Any]) -> int | None:
        """The index of the active marker at point `p`, or None."""
        return next((i for i, m in enumerate(self.markers) if at(m, p)), None)

    @staticmethod
    def from_here(p: dict[str, Any]) -> str:
        """How far point `p` is from the phone."""
        return distance_label(distance_m(HERE, (p["lat"], p["lon"])))

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a dialog over the (inert) page below it."""
        pages = {"map": self._map, "menu": self._menu, "search": self._search, "place": self._place,
                 "places": self._places, "tracks": self._tracks, "track": self._track, "markers": self._markers,
                 "plan": self._plan}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        dialog = self._favorite(screen) if screen.name == "favorite" else self._save(screen)
        return [*inert(pages[below.name](below), below.scroll), dialog]

    def _button(self, bounds: tuple[int, int, int, int], text: str, event: tuple, icon: str = "", desc: str = "",
                enabled: bool = True, rid: str = "") -> View:
        return View(BUTTON, bounds, text=text, desc=desc, rid=rid, package=PACKAGE, clickable=True, focusable=True,
                    enabled=enabled, on_tap=event, style="button", icon=icon)

    def _row(self, y: int, title: str, summary: str, event: tuple, rid: str = RESULT_RID,
             extra: View | None = None) -> View:
        right = WIDTH - 200 if extra is not None else WIDTH - MARGIN
        kids = [View(IMAGE_VIEW, (MARGIN, y + 45, MARGIN + 100, y + 145), package=PACKAGE, icon="location"),
                View(TEXT_VIEW, (MARGIN + 140, y + 25, right, y + 110), text=title, rid=rid, package=PACKAGE,
                     style="row_title"),
                View(TEXT_VIEW, (MARGIN + 140, y + 110, right, y + 175), text=summary, rid=SUBTITLE_RID,
                     package=PACKAGE, style="row_summary")]
        if extra is not None:
            kids.append(extra)
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), package=PACKAGE, clickable=True, focusable=True, on_tap=event,
                    style="row", children=kids)

    def _map(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + 24
        views = [View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 140), text="Search", desc="Search",
                      rid=f"{PACKAGE}:id/map_search_button", package=PACKAGE, clickable=True, focusable=True,
                      on_tap=("search",), style="searchbar", icon="search")]
        y = top + 170
        if self.markers:
            m = self.markers[0]
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 120), rid=MARKER_BAR_RID, package=PACKAGE,
                              text=f"{m['name']} \u00b7 {self.from_here(m)}", clickable=True, focusable=True,
                              on_tap=("markers",), style="row", icon="flag"))
            y += 140
        views.append(View(IMAGE_VIEW, (0, y, WIDTH, CONTENT_BOTTOM - 220), desc=f"Map of {COUNTRY}",
                          package=PACKAGE, icon="map", style="image"))
        views.append(View(IMAGE_BUTTON, (MARGIN, CONTENT_BOTTOM - 200, MARGIN + 170, CONTENT_BOTTOM - 30),
                          desc="Menu", rid=f"{PACKAGE}:id/map_menu_button", package=PACKAGE, clickable=True,
                          focusable=True, on_tap=("menu",), style="fab", icon="menu"))
        return views

    def _menu(self, screen: Screen) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 20, PACKAGE, left=0, right=WIDTH)
        for label, target, icon in (("My places", "places", "star"), ("Map markers", "markers", "flag"),
                                    ("Plan a route", "plan", "location"), ("Search", "search", "search")):
            col.button(label, ("go", target), style="row", icon=icon, cls=TEXT_VIEW)
        return [toolbar("Menu", PACKAGE, PACKAGE), *col.views]

    def _search(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        query = screen.fields.get(SEARCH_RID, "")
        head = [View(IMAGE_BUTTON, (0, CONTENT_TOP, TOOLBAR_H, top), desc="Navigate up", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"),
                text_field((TOOLBAR_H, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), SEARCH_RID, query,
                           "Search or type coordinates", screen.focus == SEARCH_RID, PACKAGE, icon="search")]
        found = search(query) if query.strip() else []
        rows = [self._row(top + k * ROW_H, p["name"], f"{p['kind']} \u00b7 {COUNTRY} \u00b7 {self.from_here(p)}",
                          ("result", k)) for k, p in enumerate(found)]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 180), package=PACKAGE, style="hint",
                         text="Nothing found" if query.strip() else "Type a place or coordinates")]
        return [*head, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/search_list")]

    def _place(self, screen: Screen) -> list[View]:
        p = screen.args["point"]
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        col.text(p["name"], height=130, style="section", rid=f"{PACKAGE}:id/context_menu_line1")
        col.text(f"{p.get('kind', 'Location')} \u00b7 {COUNTRY}", height=90, style="secondary")
        col.text(coords_label(p["lat"], p["lon"]), height=90, style="secondary", rid=COORDS_RID)
        col.text(f"{self.from_here(p)} from you", height=90, style="secondary", rid=f"{PACKAGE}:id/direction")
        y, w = col.y + 60, (WIDTH - 2 * MARGIN) // 3
        fav, marker = self.favorite_at(p) is not None, self.marker_at(p) is not None
        actions = (("Edit favorite" if fav else "Favorite", ("favorite",), "star"),
                   ("Remove marker" if marker else "Marker", ("marker",), "flag"),
                   ("Directions", ("directions",), "forward"))
        buttons = [self._button((MARGIN + k * w, y, MARGIN + (k + 1) * w - 20, y + 200), text, event, icon)
                   for k, (text, event, icon) in enumerate(actions)]
        return [toolbar(p["name"], PACKAGE, PACKAGE), *col.views, *buttons]

    def _tabs(self, active: str) -> list[View]:
        y = CONTENT_TOP + TOOLBAR_H
        return [View(TEXT_VIEW, (k * WIDTH // 2, y, (k + 1) * WIDTH // 2, y + 130), text=label, package=PACKAGE,
                     clickable=True, focusable=True, selected=label == active, on_tap=("tab", label), style="tab")
                for k, label in enumerate(("Favorites", "Tracks"))]

    def _places(self, screen: Screen) -> list[View]:
        top, rows = CONTENT_TOP + TOOLBAR_H + 130, []
        y = top
        for group in self.groups():
            members = sorted((i for i, f in enumerate(self.favorites) if f["group"] == group),
                             key=lambda i: self.favorites[i]["name"])
            if not members and group == DEFAULT_GROUP:
                continue
            rows.append(View(LINEAR, (0, y, WIDTH, y + 130), package=PACKAGE, style="section", children=[
                View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - 240, y + 110), text=group, rid=GROUP_TITLE_RID,
                     package=PACKAGE, style="section"),
                View(TEXT_VIEW, (WIDTH - 220, y + 20, WIDTH - MARGIN, y + 110), text=str(len(members)),
                     rid=GROUP_COUNT_RID, package=PACKAGE, style="row_summary")]))
            y += 130
            for i in members:
                f = self.favorites[i]
                rows.append(self._row(y, f["name"], coords_label(f["lat"], f["lon"]), ("open_favorite", i)))
                y += ROW_H
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 180), text="No favorites yet",
                         package=PACKAGE, style="hint")]
        return [toolbar("My places", PACKAGE, PACKAGE), *self._tabs("Favorites"),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/favourites_list")]

    def _tracks(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H + 130
        rows = [self._row(top + k * ROW_H, name, f"{distance_label(t['distance_m'])} \u00b7 {len(t['points'])} points",
                          ("open_track", name)) for k, (name, t) in enumerate(sorted(self.tracks.items()))]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 180), text="No tracks yet",
                         package=PACKAGE, style="hint")]
        return [toolbar("My places", PACKAGE, PACKAGE), *self._tabs("Tracks"),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/tracks_list")]

    def _track(self, screen: Screen) -> list[View]:
        t = self.tracks[screen.args["name"]]
        col = Column(CONTENT_TOP + TOOLBAR_H + 30, PACKAGE)
        col.text(distance_label(t["distance_m"]), height=100, style="section", rid=DISTANCE_RID)
        for k, p in enumerate(t["points"]):
            col.text(f"{k + 1}. {p['name']}", height=100, rid=RESULT_RID)
        return [toolbar(t["name"], PACKAGE, PACKAGE), *col.views]

    def _markers(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for k, m in enumerate(self.markers):
            y = top + k * ROW_H
            remove = View(IMAGE_BUTTON, (WIDTH - 180, y + 35, WIDTH - 40, y + 155), desc=f"Remove {m['name']}",
                          package=PACKAGE, clickable=True, focusable=True, on_tap=("remove_marker", k), icon="check")
            rows.append(self._row(y, m["name"], self.from_here(m), ("open_marker", k), extra=remove))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 180), text="No active markers",
                         package=PACKAGE, style="hint")]
        return [toolbar("Map markers", PACKAGE, PACKAGE),
                scroll_list(top, CONTENT_BOTTOM - 220, PACKAGE, rows, rid=f"{PACKAGE}:id/markers_list")]

    def _plan(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        n = len(self.plan)
        summary = [View(TEXT_VIEW, (MARGIN, top + 20, 500, top + 120), rid=DISTANCE_RID, package=PACKAGE,
                        text=distance_label(track_length(self.plan)), style="section"),
                   View(TEXT_VIEW, (520, top + 20, WIDTH - MARGIN, top + 120), rid=f"{PACKAGE}:id/points_count",
                        text=f"{n} points", package=PACKAGE, style="secondary")]
        rows = []
        for k, p in enumerate(self.plan):
            y = top + 140 + k * ROW_H
            remove = View(IMAGE_BUTTON, (WIDTH - 180, y + 35, WIDTH - 40, y + 155), desc=f"Remove point {k + 1}",
                          package=PACKAGE, clickable=True, focusable=True, on_tap=("remove_point", k), icon="delete")
            rows.append(self._row(y, f"{k + 1}. {p['name']}", coords_label(p["lat"], p["lon"]), ("noop",),
                                  extra=remove))
        y0, y1, w = CONTENT_BOTTOM - 200, CONTENT_BOTTOM - 40, (WIDTH - 2 * MARGIN) // 3
        buttons = [self._button((MARGIN, y0, MARGIN + w - 20, y1), "Add point", ("add_point",), "add"),
                   self._button((MARGIN + w, y0, MARGIN + 2 * w - 20, y1), "Clear", ("clear_plan",), "delete",
                                enabled=n > 0),
                   self._button((MARGIN + 2 * w, y0, WIDTH - MARGIN, y1), "Save", ("save",), "save", enabled=n >= 2)]
        return [toolbar("Plan a route", PACKAGE, PACKAGE), *summary,
                scroll_list(top + 140, y0 - 20, PACKAGE, rows, rid=f"{PACKAGE}:id/plan_list"), *buttons]

    def _favorite(self, screen: Screen) -> View:
        y = dialog_body_top(400)
        body = [text_field((150, y, WIDTH - 270, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""), "Name",
                           screen.focus == NAME_RID, PACKAGE), self._clear(y, NAME_RID, "Clear name"),
                text_field((150, y + 170, WIDTH - 270, y + 314), GROUP_RID, screen.fields.get(GROUP_RID, ""), "Group",
                           screen.focus == GROUP_RID, PACKAGE), self._clear(y + 170, GROUP_RID, "Clear group")]
        for k, g in enumerate(self.groups()[:6]):
            x, yy = 150 + (k % 3) * 265, y + 340 + (k // 3) * 130
            body.append(View(BUTTON, (x, yy, x + 250, yy + 115), text=g, package=PACKAGE, clickable=True,
                             focusable=True, checkable=True, checked=screen.fields.get(GROUP_RID) == g,
                             on_tap=("group", g), style="chip"))
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, body[-1].bounds[3] + 10, WIDTH - 150, body[-1].bounds[3] + 80),
                             text=screen.args["error"], rid=f"{PACKAGE}:id/error", package=PACKAGE, style="hint"))
        editing = screen.args["index"] is not None
        buttons = [("Cancel", ("cancel",), True), *([("Delete", ("delete",), True)] if editing else []),
                   ("Save", ("ok",), True)]
        return app_dialog(PACKAGE, "Edit favorite" if editing else "Add favorite", body, buttons, top=400)

    @staticmethod
    def _clear(y: int, rid: str, desc: str = "Clear text") -> View:
        """The clear button at the end of a dialog's text field."""
        return View(IMAGE_BUTTON, (WIDTH - 260, y + 12, WIDTH - 150, y + 132), desc=desc, package=PACKAGE,
                    clickable=True, focusable=True, on_tap=("clear", rid), icon="close")

    def _save(self, screen: Screen) -> View:
        y = dialog_body_top(560)
        body = [text_field((150, y, WIDTH - 270, y + 144), TRACK_NAME_RID, screen.fields.get(TRACK_NAME_RID, ""),
                           "Name", screen.focus == TRACK_NAME_RID, PACKAGE), self._clear(y, TRACK_NAME_RID)]
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/error", package=PACKAGE, style="hint"))
        return app_dialog(PACKAGE, "Save as new track", body, [("Cancel", ("cancel",), True),
                                                               ("Save", ("ok",), True)])

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The map's buttons, the menu, search results, the card's actions, the lists, the plan and the dialogs."""
        match event:
            case ("cancel",):
                return self.phone.pop()
            case ("clear", rid):
                screen.fields[rid], screen.focus, screen.args["error"] = "", rid, ""
                return True
        match screen.name, event:
            case "map", ("search",):
                return self._open_search(False)
            case "map", ("menu",):
                return self.phone.push(Screen(PACKAGE, "menu"))
            case "map", ("markers",):
                return self.phone.push(Screen(PACKAGE, "markers"))
            case "menu", ("go", "search"):
                self.phone.pop()
                return self._open_search(False)
            case "menu", ("go", target):
                return self.phone.replace(Screen(PACKAGE, target))
            case "search", ("result", k):
                return self._pick(screen, k)
            case "place", _:
                return self._card(event, screen.args["point"])
            case ("places" | "tracks"), ("tab", label):
                return self.phone.replace(Screen(PACKAGE, "places" if label == "Favorites" else "tracks"))
            case "places", ("open_favorite", i):
                return self._open_card({**self.favorites[i], "kind": "Favorite"})
            case "tracks", ("open_track", name):
                return self.phone.push(Screen(PACKAGE, "track", {"name": name}))
            case "markers", ("open_marker", k):
                return self._open_card({**self.markers[k], "kind": "Map marker"})
            case "markers", ("remove_marker", k):
                self.edits.append({"op": "remove_marker", "name": self.markers.pop(k)["name"]})
                return True
            case "plan", _:
                return self._plan_event(event)
            case "favorite", _:
                return self._favorite_event(event, screen)
            case "save", ("ok",):
                return self._save_ok(screen)
        return False

    def _open_search(self, pick: bool) -> bool:
        return self.phone.push(Screen(PACKAGE, "search", {"pick": pick}, {SEARCH_RID: ""}, focus=SEARCH_RID))

    def _open_card(self, p: dict[str, Any]) -> bool:
        self.opened.append(p["name"])
        return self.phone.push(Screen(PACKAGE, "place", {"point": dict(p)}))

    def _pick(self, screen: Screen, k: int) -> bool:
        """Result `k` of the search: its card, or (picking) a point added to the plan."""
        found = search(screen.fields.get(SEARCH_RID, ""))
        if k >= len(found):
            return False
        if screen.args["pick"]:
            self.plan.append(pt(found[k]))
            return self.phone.pop()
        return self._open_card(found[k])

    def _card(self, event: AppEvent, p: dict[str, Any]) -> bool:
        match event:
            case ("favorite",):
                i = self.favorite_at(p)
                f = self.favorites[i] if i is not None else {"name": p["name"], "group": DEFAULT_GROUP}
                return self.phone.push(Screen(PACKAGE, "favorite", {"point": p, "index": i, "error": ""},
                                              {NAME_RID: f["name"], GROUP_RID: f["group"]}))
            case ("marker",):
                k = self.marker_at(p)
                if k is None:
                    self.markers.insert(0, pt(p))
                    self.edits.append({"op": "marker", "name": p["name"]})
                else:
                    self.edits.append({"op": "remove_marker", "name": self.markers.pop(k)["name"]})
                return True
            case ("directions",):
                self.plan.append(pt(p))
                return self.phone.push(Screen(PACKAGE, "plan"))
        return False

    def _plan_event(self, event: AppEvent) -> bool:
        match event:
            case ("add_point",):
                return self._open_search(True)
            case ("remove_point", k):
                del self.plan[k]
                return True
            case ("clear_plan",):
                self.plan = []
                return True
            case ("save",) if len(self.plan) >= 2:
                return self.phone.push(Screen(PACKAGE, "save", {"error": ""}, {TRACK_NAME_RID: f"Plan {NOW}"}))
        return False

    def _favorite_event(self, event: AppEvent, screen: Screen) -> bool:
        i, p = screen.args["index"], screen.args["point"]
        match event:
            case ("group", g):
                screen.fields[GROUP_RID] = g
                return True
            case ("delete",) if i is not None:
                self.edits.append({"op": "delete_favorite", "name": self.favorites.pop(i)["name"]})
                return self.phone.pop()
            case ("ok",):
                name, group = screen.fields.get(NAME_RID, "").strip(), screen.fields.get(GROUP_RID, "").strip()
                group = group or DEFAULT_GROUP
                if not name:
                    screen.args["error"] = "Name can't be empty"
                    return True
                if any(f["name"] == name and f["group"] == group for k, f in enumerate(self.favorites) if k != i):
                    screen.args["error"] = "A favorite with this name already exists in this group"
                    return True
                fav = {"name": name, "group": group, "lat": p["lat"], "lon": p["lon"]}
                if i is None:
                    self.favorites.append(fav)
                    self.edits.append({"op": "favorite", "name": name})
                elif self.favorites[i] != fav:
                    self.favorites[i] = fav
                    self.edits.append({"op": "edit_favorite", "name": name})
                return self.phone.pop()
        return False

    def _save_ok(self, screen: Screen) -> bool:
        name = screen.fields.get(TRACK_NAME_RID, "").strip()
        screen.args["error"] = name_refusal(name, self.tracks, "track")
        if screen.args["error"]:
            return True
        self.tracks[name] = {"name": name, "points": self.plan, "distance_m": track_length(self.plan)}
        self.plan = []
        self.edits.append({"op": "track", "name": name})
        self.phone.pop()
        return self.phone.replace(Screen(PACKAGE, "tracks"))

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER saves a dialog; in the search field it opens (or picks) the first result."""
        if rid in (NAME_RID, GROUP_RID):
            return self._favorite_event(("ok",), screen)
        if rid == TRACK_NAME_RID:
            return self._save_ok(screen)
        if rid == SEARCH_RID:
            return self._pick(screen, 0)
        return False
