"""The Maps app: a map with a search bar and category chips, place results, place pages, directions and saved lists.

The places a search finds (`places_for`, seeded by the query around the phone's own city; a street address finds
itself alone, `address_place`) and the travel times to them (`travel`) live in `android_gym.sim.apps.maps_places`; this
module re-exports the names other modules import from it (`places_for`, `address_place`, `travel`, `MODES`...).

Screens: "home" (Explore: the search bar, chips, the map and the Explore/Saved tabs), "search" (the box focused),
"results" (args {"query"}), "place" (args {"place": a `places_for()` dict, "sheet": None, "save" or "share"}),
"directions" (args {"place", "mode": one of `MODES`}), "saved" (the lists) and "list" (args {"list", "menu": the
key of the place whose "More options" menu is open, or None}). A place page's Save opens "Save in your lists"
(a checkbox per list; a tick saves or removes at once), Call hands the number to the Phone app (`contacts.Caller`)
and is shown only for a place with a number, Share opens a sheet whose "Copy link" copies the place's link; the Save
sheet also labels the place Home or Work (`LABELS`). Results, place pages and directions load through
`phone.push(..., slow=True)`. The saved lists start empty; a task's initial conditions (`MapsInitial`) put places in
them (`saved`) and draw others per episode from `stable_seed("maps-saved", phone.seed)` (`seeded`); `open` makes Maps
reopen on a place's page, as the user left it (BACK from there goes to Explore). Tasks read `MapsState`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError, build_field
from android_gym.sim.app import ACTION_VIEW, App, IntentFilter, Screen, stable_seed
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.app_state import closed
from android_gym.sim.apps.contacts import Caller
from android_gym.sim.apps.maps_places import (
    ADDRESS_KIND,
    MODES,
    PLACES_PER_QUERY,
    Mode,
    duration,
    key_of,
    places_for,
    travel,
)
from android_gym.sim.apps.maps_places import address_place as address_place  # re-exported: its importers keep working
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
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View
from android_gym.sim.web.places import HOME_CITY, title

PACKAGE = "com.google.android.apps.maps"
SEARCH_RID = f"{PACKAGE}:id/search_omnibox_text_box"
PLACE_RID = f"{PACKAGE}:id/place_row"
LIST_RID = f"{PACKAGE}:id/list_row"
SAVED_RID = f"{PACKAGE}:id/saved_place_row"
DURATION_RID = f"{PACKAGE}:id/duration"
PHONE_RID = f"{PACKAGE}:id/phone_number"
ADDRESS_RID = f"{PACKAGE}:id/address"
CHIPS = ("Restaurants", "Coffee", "Groceries", "Gas", "Hotels")
ListName = Literal["Favorites", "Want to go", "Starred places"]
LISTS: tuple[ListName, ...] = get_args(ListName)
Label = Literal["Home", "Work"]
LABELS: tuple[Label, ...] = get_args(Label)
"""Labels a place can be given from its Save sheet (one place per label)."""
LABEL_RID = f"{PACKAGE}:id/label_checkbox"
MODE_WORDS = {"Drive": "by car", "Transit": "by transit", "Walk": "on foot", "Bike": "by bike"}
SEED_QUERIES = ("coffee", "groceries", "gas", "hotels", "bakeries", "bookstores")
"""What the per-episode saved places (`MapsInitial.seeded`) are drawn from."""
ROW_H = 260
TAB_H = 180
SAVE_TITLE = "Save in your lists"


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class PlaceRef(TypedDict):
    """A place as the lists and labels keep it: its name and street address."""

    name: str
    address: str


@closed
class ListEdit(PlaceRef):
    """One edit of the episode's log: the place saved to, or removed from, a list."""

    op: Literal["save", "remove"]
    list: ListName


@closed
class ResumedPlace(PlaceRef):
    """The place Maps was set to reopen on, with the search and the rank (0 first) of the result it is."""

    query: str
    rank: int


@closed
class MapsState(TypedDict):
    """What the Maps app reports (`MapsApp.state`).

    Attributes:
        page: the front Maps screen's name, None when Maps has no screen on the stack.
        query: the latest search in the back stack, or None.
        loading: whether the front Maps screen still loads.
        place, address: the name and address of the place (or directions) page in front, else None.
        mode: the travel mode of the front directions page, else None.
        sheet: the open sheet of the place page in front, else None.
        list: the list shown on the front list page, else None.
        lists: every list of `LISTS`, its places in the order saved.
        edits: the episode's list edits, in order.
        viewed: the names of the place pages opened, in order.
        shared: the names of the places whose link was copied, in order.
        labels: the labels of `LABELS` that are set, to their place.
        resumed: the place Maps was set to reopen on at reset, or None.
    """

    page: Literal["home", "search", "results", "place", "directions", "saved", "list"] | None
    query: str | None
    loading: bool
    place: str | None
    address: str | None
    mode: Mode | None
    sheet: Literal["save", "share"] | None
    list: ListName | None
    lists: dict[ListName, list[PlaceRef]]
    edits: list[ListEdit]
    viewed: list[str]
    shared: list[str]
    labels: dict[Label, PlaceRef]
    resumed: ResumedPlace | None


class ResultSpec(ConfigModel):
    """A result of a Maps search, by the search and its rank.

    Attributes:
        query: the search (as typed: `places_for` normalises it).
        rank: the result's rank, 0 first.
    """

    query: str
    rank: int = Field(ge=0, le=PLACES_PER_QUERY - 1)


class SavedSpec(ResultSpec):
    """A result a task puts in a list before the episode.

    Attributes:
        list: one of `LISTS`.
    """

    list: ListName


class MapsInitial(ConfigModel):
    """The initial conditions a Maps task may set (applied in the order `open`, `seeded`, `saved`).

    Attributes:
        saved: results put in the lists, in this order.
        seeded: places drawn per episode (`stable_seed("maps-saved", seed)`) from `SEED_QUERIES` searches, each into
            a list drawn with it.
        open: the result whose page Maps reopens on, as the user left it; "seeded" draws a distinctly named result of
            a `SEED_QUERIES` search per episode (`stable_seed("maps-open", seed)`); None opens Maps on Explore.
    """

    saved: tuple[SavedSpec, ...] = ()
    seeded: int = Field(default=0, ge=0)
    open: ResultSpec | Literal["seeded"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _open_result(cls, data: Any) -> Any:
        """`open` is read here, so that a message names `open.rank` rather than a member of its union."""
        where = data.get("open") if isinstance(data, Mapping) else None
        if where is None or where == "seeded" or isinstance(where, ResultSpec):
            return data
        if not isinstance(where, Mapping):
            raise FieldError("open", '"seeded" or a result {"query", "rank"}', where)
        return {**data, "open": build_field(ResultSpec, where, "open")}


class MapsApp(App):
    """Google Maps, around the phone's city: search, results, place pages, directions, saved lists."""

    package = PACKAGE
    label = "Maps"
    icon = "map"
    aliases = ("google maps",)
    intent_filters = (IntentFilter(ACTION_VIEW, ("geo:",)),)
    state_schema = MapsState
    initial_model = MapsInitial

    def reset(self) -> None:
        """Empty lists, no labels, nothing viewed, saved or shared; Maps opens on Explore."""
        self.lists: dict[str, list[dict[str, Any]]] = {name: [] for name in LISTS}
        self.edits: list[dict[str, str]] = []
        self.viewed: list[str] = []
        self.shared: list[str] = []
        self.labels: dict[str, dict[str, Any]] = {}
        self.resume: dict[str, Any] | None = None
        self.resumed: ResumedPlace | None = None

    def set_up(self, initial: MapsInitial) -> None:
        """Maps reopening on a place (`initial.open`), then the seeded places and the given ones in the lists."""
        if initial.open is not None:
            self._open_on(initial.open)
        rng = np.random.default_rng(stable_seed("maps-saved", self.phone.seed))
        for _ in range(initial.seeded):
            query = SEED_QUERIES[int(rng.integers(len(SEED_QUERIES)))]
            self._add(LISTS[int(rng.integers(len(LISTS)))], places_for(query)[int(rng.integers(PLACES_PER_QUERY))])
        for s in initial.saved:
            self._add(s.list, places_for(s.query)[s.rank])

    def _open_on(self, where: ResultSpec | Literal["seeded"]) -> None:
        """Make Maps reopen on a result's page (see `MapsInitial.open`)."""
        if where == "seeded":
            rng = np.random.default_rng(stable_seed("maps-open", self.phone.seed))
            query = SEED_QUERIES[int(rng.integers(len(SEED_QUERIES)))]
            found = places_for(query)
            ranks = [p["rank"] for p in found if sum(q["name"] == p["name"] for q in found) == 1]
            where = ResultSpec(query=query, rank=ranks[int(rng.integers(len(ranks)))])
        self.resume = places_for(where.query)[where.rank]
        self.resumed = {"name": self.resume["name"], "address": self.resume["address"], "query": where.query,
                        "rank": where.rank}

    def _add(self, name: str, place: dict[str, Any]) -> None:
        if all(key_of(p) != key_of(place) for p in self.lists[name]):
            self.lists[name].append(dict(place))

    def home(self) -> Screen:
        """The map with the search bar, or the page of the place Maps was left on (`MapsInitial.open`)."""
        if self.resume is not None:
            return Screen(PACKAGE, "place", {"place": dict(self.resume), "sheet": None})
        return Screen(PACKAGE, "home")

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The screen's views."""
        match screen.name:
            case "search":
                return self._search(screen)
            case "results":
                return self._results(screen.args["query"])
            case "place":
                return self._place(screen)
            case "directions":
                return self._directions(screen.args["place"], screen.args.get("mode", "Drive"))
            case "saved":
                return [*self._saved(), self._tabs("Saved")]
            case "list":
                return self._list(screen)
        return self._home()

    def _bar(self, text: str, on_tap: tuple) -> View:
        y0, y1 = CONTENT_TOP + 24, CONTENT_TOP + TOOLBAR_H + 24
        return View(LINEAR, (MARGIN, y0, WIDTH - MARGIN, y1), text=text, rid=f"{PACKAGE}:id/search_omnibox",
                    package=PACKAGE, clickable=True, focusable=True, on_tap=on_tap, style="searchbar", icon="search")

    def _tabs(self, current: str) -> View:
        y = CONTENT_BOTTOM - TAB_H
        tabs = [View(TEXT_VIEW, (i * WIDTH // 2, y, (i + 1) * WIDTH // 2, CONTENT_BOTTOM), text=label, desc=label,
                     rid=f"{PACKAGE}:id/{label.lower()}_tab", package=PACKAGE, clickable=True, focusable=True,
                     selected=label == current, on_tap=("tab", label), style="tab", icon=icon)
                for i, (label, icon) in enumerate((("Explore", "location"), ("Saved", "save")))]
        return View(LINEAR, (0, y, WIDTH, CONTENT_BOTTOM), package=PACKAGE, style="tabbar", children=tabs)

    def _home(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H + 60
        chips = [View(TEXT_VIEW, (MARGIN + i * 200, top, MARGIN + i * 200 + 190, top + 110), text=chip,
                      package=PACKAGE, clickable=True, focusable=True, on_tap=("query", chip.lower()), style="tab")
                 for i, chip in enumerate(CHIPS)]
        canvas = View(IMAGE_VIEW, (0, top + 140, WIDTH, CONTENT_BOTTOM - TAB_H), desc=f"Map of {title(HOME_CITY)}",
                      package=PACKAGE, icon="map", style="image")
        return [self._bar("Search here", ("search",)), *chips, canvas, self._tabs("Explore")]

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
            if p["kind"] == ADDRESS_KIND:
                rows.append(self._address_row(p, y))
                continue
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

    def _address_row(self, p: dict[str, Any], y: int) -> View:
        """A street address in the results: the address and its distance (no rating or hours)."""
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=f"{p['name']} - address", rid=PLACE_RID, package=PACKAGE,
                    clickable=True, focusable=True, on_tap=("place", tuple(sorted(p.items()))), style="card",
                    children=[View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 110), text=p["name"],
                                   package=PACKAGE, style="title"),
                              View(TEXT_VIEW, (MARGIN, y + 120, WIDTH - MARGIN, y + 240),
                                   text=f"{ADDRESS_KIND} · {p['distance_mi']} mi", package=PACKAGE, style="meta")])

    def _header(self, place: dict[str, Any]) -> list[View]:
        top = CONTENT_TOP + 40
        return [View(IMAGE_BUTTON, (0, top, 150, top + 144), desc="Navigate up", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=NavKey("back"), icon="back"),
                View(TEXT_VIEW, (170, top, WIDTH - MARGIN, top + 144), text=place["name"],
                     rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title")]

    def _place(self, screen: Screen) -> list[View]:
        place, top = screen.args["place"], CONTENT_TOP + 40
        is_address = place["kind"] == ADDRESS_KIND
        views = self._header(place) + [
            View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320),
                 text=f"{ADDRESS_KIND} · {place['distance_mi']} mi" if is_address
                 else f"{place['rating']}★ · {place['kind']} · {place['address']}", package=PACKAGE)]
        if not is_address:
            views.append(View(TEXT_VIEW, (MARGIN, top + 330, WIDTH - MARGIN, top + 430),
                              text="Open now" if place["open_now"] else "Closed", package=PACKAGE, style="meta"))
        saved = any(key_of(p) == key_of(place) for ps in self.lists.values() for p in ps)
        buttons = [("Directions", ("directions",), "Directions")]
        buttons += [("Call", ("call",), f"Call {place['name']}")] if place.get("phone") else []
        buttons += [("Saved" if saved else "Save", ("sheet", "save"), f"Save {place['name']}"),
                    ("Share", ("sheet", "share"), f"Share {place['name']}")]
        for i, (label, event, desc) in enumerate(buttons):
            x = MARGIN + i * 250
            views.append(View(BUTTON, (x, top + 470, x + 230, top + 600), text=label, desc=desc, package=PACKAGE,
                              clickable=True, focusable=True, on_tap=event, style="button"))
        rows = [(ADDRESS_RID, place["address"], "location")]
        rows += [(PHONE_RID, place["phone"], "")] if place.get("phone") else []
        for i, (rid, text, icon) in enumerate(rows):
            y = top + 660 + i * 150
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 130), text=text, rid=rid, package=PACKAGE,
                              style="row", icon=icon))
        sheet = screen.args.get("sheet")
        if sheet is None:
            return views
        return [*inert(views), self._save_sheet(place) if sheet == "save" else self._share_sheet(place)]

    def _save_sheet(self, place: dict[str, Any]) -> View:
        y = dialog_body_top(560)
        body = [View("android.widget.CheckBox", (150, y + i * 150, WIDTH - 150, y + i * 150 + 130), text=name,
                     rid=f"{PACKAGE}:id/list_checkbox", package=PACKAGE, checkable=True, clickable=True,
                     focusable=True, checked=any(key_of(p) == key_of(place) for p in self.lists[name]),
                     on_tap=("toggle", name), style="checkbox") for i, name in enumerate(LISTS)]
        y += len(LISTS) * 150
        body.append(View(TEXT_VIEW, (150, y, WIDTH - 150, y + 100), text="Labeled", package=PACKAGE, style="section"))
        y += 110
        body += [View("android.widget.CheckBox", (150, y + i * 150, WIDTH - 150, y + i * 150 + 130), text=label,
                      desc=f"Label as {label}", rid=LABEL_RID, package=PACKAGE, checkable=True, clickable=True,
                      focusable=True, checked=label in self.labels and key_of(self.labels[label]) == key_of(place),
                      on_tap=("label", label), style="checkbox") for i, label in enumerate(LABELS)]
        return app_dialog(PACKAGE, SAVE_TITLE, body, [("Done", ("close",), True)])

    def _share_sheet(self, place: dict[str, Any]) -> View:
        return app_dialog(PACKAGE, "Share", [], [("Cancel", ("close",), True), ("Copy link", ("copy",), True)],
                          message=f"{place['name']}, {place['address']}")

    def _directions(self, place: dict[str, Any], mode: str) -> list[View]:
        top = CONTENT_TOP + 40
        minutes, miles = travel(place, mode)
        views = self._header(place)
        for i, m in enumerate(MODES):
            views.append(View(TEXT_VIEW, (i * WIDTH // 4, top + 170, (i + 1) * WIDTH // 4, top + 300), text=m,
                              desc=f"{m} mode", package=PACKAGE, clickable=True, focusable=True, selected=m == mode,
                              on_tap=("mode", m), style="tab"))
        return views + [
            View(TEXT_VIEW, (MARGIN, top + 340, WIDTH // 2, top + 460), text=duration(minutes), rid=DURATION_RID,
                 package=PACKAGE, style="title"),
            View(TEXT_VIEW, (WIDTH // 2, top + 340, WIDTH - MARGIN, top + 460), text=f"{miles} mi",
                 rid=f"{PACKAGE}:id/distance", package=PACKAGE, style="meta"),
            View(TEXT_VIEW, (MARGIN, top + 480, WIDTH - MARGIN, top + 580),
                 text=f"{duration(minutes)} ({miles} mi) {MODE_WORDS[mode]}", package=PACKAGE),
            View(TEXT_VIEW, (MARGIN, top + 590, WIDTH - MARGIN, top + 690),
                 text=f"Fastest route to {place['address']}", package=PACKAGE, style="meta"),
            View(BUTTON, (MARGIN, top + 730, WIDTH // 2, top + 870), text="Start", package=PACKAGE, clickable=True,
                 focusable=True, on_tap=("noop",), style="button")]

    def _saved(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for i, name in enumerate(LISTS):
            y, n = top + i * ROW_H, len(self.lists[name])
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=name, rid=LIST_RID, package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("list", name), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 130), text=name,
                                      package=PACKAGE, style="title"),
                                 View(TEXT_VIEW, (MARGIN, y + 130, WIDTH - MARGIN, y + 230),
                                      text=f"{n} place" + ("" if n == 1 else "s"), package=PACKAGE,
                                      style="secondary")]))
        return [toolbar("Your lists", PACKAGE, PACKAGE, has_back=False),
                scroll_list(top, CONTENT_BOTTOM - TAB_H, PACKAGE, rows, rid=f"{PACKAGE}:id/lists")]

    def _list(self, screen: Screen) -> list[View]:
        name, top = screen.args["list"], CONTENT_TOP + TOOLBAR_H
        rows = []
        for i, p in enumerate(self.lists[name]):
            y = top + i * ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=p["name"], rid=SAVED_RID, package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("place", tuple(sorted(p.items()))),
                             style="card", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - 200, y + 120), text=p["name"],
                                      package=PACKAGE, style="title"),
                                 View(TEXT_VIEW, (MARGIN, y + 130, WIDTH - 200, y + 230),
                                      text=f"{p['rating']}★ · {p['address']}", package=PACKAGE, style="meta"),
                                 View(IMAGE_BUTTON, (WIDTH - 170, y + 50, WIDTH - 30, y + 190),
                                      desc=f"More options for {p['name']}", package=PACKAGE, clickable=True,
                                      focusable=True, on_tap=("menu", key_of(p)), icon="more")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 160), text="No places saved yet",
                         package=PACKAGE, style="hint")]
        views = [toolbar(name, PACKAGE, PACKAGE), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                             rid=f"{PACKAGE}:id/list_places")]
        if screen.args.get("menu") is None:
            return views
        return [*inert(views, screen.scroll),
                popup_menu(PACKAGE, [("Remove from list", ("remove", screen.args["menu"]))], ("close",))]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Search, chips, places, directions and modes, tabs, lists, the save and share sheets, Call."""
        match event:
            case ("search", *prefill):
                text = prefill[0] if prefill else ""
                return self.phone.push(Screen(PACKAGE, "search", fields={SEARCH_RID: text}, focus=SEARCH_RID))
            case ("query", text):
                return self._query(text)
            case ("place", items):
                place = dict(items)
                self.viewed.append(place["name"])
                return self.phone.push(Screen(PACKAGE, "place", {"place": place, "sheet": None}), slow=True)
            case ("directions",):
                return self.phone.push(Screen(PACKAGE, "directions", {"place": screen.args["place"], "mode": "Drive"}),
                                       slow=True)
            case ("mode", mode) if mode != screen.args.get("mode"):
                screen.args["mode"] = mode
                return True
            case ("tab", "Saved") if screen.name != "saved":
                return self.phone.push(Screen(PACKAGE, "saved"))
            case ("tab", "Explore") if screen.name == "saved":
                return self.phone.pop()
            case ("list", name):
                return self.phone.push(Screen(PACKAGE, "list", {"list": name, "menu": None}))
            case ("sheet", kind):
                screen.args["sheet"] = kind
                return True
            case ("close",) | ("cancel",):
                screen.args["sheet" if screen.name == "place" else "menu"] = None
                return True
            case ("toggle", name):
                return self._toggle(name, screen.args["place"])
            case ("label", label):  # tick: this place becomes the label's (replacing another); untick: no place
                place = screen.args["place"]
                if label in self.labels and key_of(self.labels[label]) == key_of(place):
                    del self.labels[label]
                else:
                    self.labels[label] = dict(place)
                return True
            case ("copy",):
                self.shared.append(screen.args["place"]["name"])
                screen.args["sheet"] = None
                return True
            case ("menu", key):
                screen.args["menu"] = key
                return True
            case ("remove", key):
                return self._remove(screen.args["list"], key, screen)
            case ("call",):
                caller = next((a for a in self.phone.installed() if isinstance(a, Caller)), None)
                return caller is not None and caller.place_call(screen.args["place"]["phone"])
        return False  # ("noop",): Start; a tab already shown

    def _toggle(self, name: str, place: dict[str, Any]) -> bool:
        """A tick in the save sheet: save the place in list `name`, or remove it when it is there."""
        if any(key_of(p) == key_of(place) for p in self.lists[name]):
            self.lists[name] = [p for p in self.lists[name] if key_of(p) != key_of(place)]
            op = "remove"
        else:
            self.lists[name].append(dict(place))
            op = "save"
        self.edits.append({"op": op, "list": name, "name": place["name"], "address": place["address"]})
        return True

    def _remove(self, name: str, key: str, screen: Screen) -> bool:
        place = next(p for p in self.lists[name] if key_of(p) == key)
        screen.args["menu"] = None
        return self._toggle(name, place)

    def on_back(self, screen: Screen) -> bool:
        """BACK closes an open sheet or menu before it leaves the screen; from the place page Maps reopened on, it
        goes to Explore (and Maps opens there from then on)."""  # noqa: D205, D209
        for arg in ("sheet", "menu"):
            if screen.args.get(arg) is not None:
                screen.args[arg] = None
                return True
        if screen.name == "place" and self.resume is not None and self.phone.screens(PACKAGE)[:1] == [screen]:
            self.resume = None
            return self.phone.replace(Screen(PACKAGE, "home"))
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box runs the search."""
        return self._query(screen.fields.get(rid, ""))

    def _query(self, text: str) -> bool:
        query = " ".join(text.lower().split())
        return bool(query) and self.phone.push(Screen(PACKAGE, "results", {"query": query}), slow=True)

    def state(self) -> MapsState:
        """Where Maps is, the saved lists, the labels and the episode's edits (see `MapsState`)."""
        mine = self.phone.screens(PACKAGE)
        queries = [s.args["query"] for s in mine if s.name == "results"]
        front = mine[-1] if mine else None
        place = front.args["place"] if front and front.name in ("place", "directions") else None
        return {"page": front.name if front else None, "query": queries[-1] if queries else None,
                "loading": bool(front and front.loading > 0),
                "place": place["name"] if place else None, "address": place["address"] if place else None,
                "mode": front.args.get("mode") if front and front.name == "directions" else None,
                "sheet": front.args.get("sheet") if front and front.name == "place" else None,
                "list": front.args["list"] if front and front.name == "list" else None,
                "lists": {name: [{"name": p["name"], "address": p["address"]} for p in ps]
                          for name, ps in self.lists.items()},
                "edits": [dict(e) for e in self.edits], "viewed": list(self.viewed), "shared": list(self.shared),
                "labels": {k: {"name": p["name"], "address": p["address"]} for k, p in self.labels.items()},
                "resumed": ResumedPlace(**self.resumed) if self.resumed else None}
