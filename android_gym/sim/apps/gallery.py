"""The Photos app (Google Photos): the episode's photos and videos in a date-grouped grid, albums, favourites, trash.

The app owns the media store: the items drawn per episode (`gallery_media.library`), the items a task adds
(`PhotosInitial`), and the Camera's captures (`GalleryApp.add_capture`). Item dates, names and dicts, and the seeding,
live in `android_gym.sim.apps.gallery_media`; every item is a `gallery_media.MediaItem` whose date reads
"2026-06-09 10:15". Album names are unique. The typed seam (`PhotosState`, `PhotosInitial`) is
`android_gym.sim.apps.gallery_state`'s, imported here.

Screens: the bottom tabs "photos" (home), "albums" and "library"; "photo" (the viewer; args {"item": name, "sheet":
None | "menu" | "delete" | "album" | "share" | "info"}); "album" (args {"name"}); "collection" (args {"kind":
"favorites" | "videos"}); "trash"; "new_album" (args {"items": names chosen beforehand}); "picker" (args {"album":
the album to add to, None for the new album below it, "selected": [names]}); "send" (Send in Photos: args {"item",
"to": the chosen contact's name or None}; a search over the phone's contacts in fields[SEND_RID], then Send); "copy"
(Copy to folder, from More options: args {"item", "folder"}; `android_gym.sim.apps.gallery_copy`). A picture with
content (a receipt: `gallery_prints`) shows its lines in the viewer's pixels only (`View.printed`): the image's node
carries its content-desc, as a real phone's does, so reading it takes the screenshot.
"""

from __future__ import annotations

from typing import Any

from android_gym.errors import ConfigError
from android_gym.sim.app import ACTION_VIEW, App, IntentFilter, Screen
from android_gym.sim.apps.gallery_copy import build_copy, save_copy
from android_gym.sim.apps.gallery_media import (
    MediaItem,
    day_label,
    describe,
    duration,
    item,
    library,
    newest_first,
    taken,
)
from android_gym.sim.apps.gallery_state import SHARE_TARGETS, PhotosInitial, PhotosState
from android_gym.sim.apps.people import contacts_of
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
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

PACKAGE = "com.google.android.apps.photos"
TABS = ("Photos", "Albums", "Library")
TAB_H = 200
TABS_TOP = CONTENT_BOTTOM - TAB_H
BODY_TOP = CONTENT_TOP + TOOLBAR_H
CELL, COLS, HEADER_H = 270, 4, 120
GRID_RID = f"{PACKAGE}:id/recycler_view"
IMAGE_RID = f"{PACKAGE}:id/image"
TITLE_RID = f"{PACKAGE}:id/album_title"
SEND_RID = f"{PACKAGE}:id/send_search"
PERSON_RID = f"{PACKAGE}:id/send_person"
PERSON_H = 200
_LIBRARY = (("Favorites", "star", ("collection", "favorites")), ("Videos", "play", ("collection", "videos")),
            ("Trash", "delete", ("open_trash",)))


def _fingerprint(it: MediaItem) -> tuple:
    return it["favourite"], it["trashed"], tuple(sorted(it["albums"]))


# -- the app -----------------------------------------------------------------------------------------------------------
class GalleryApp(App):
    """Google Photos: browse the grid, open an item (favourite, share, add to an album, info, trash), manage albums."""

    package = PACKAGE
    label = "Photos"
    icon = "photo"
    aliases = ("google photos", "gallery", "simple gallery", "simple gallery pro")  # it stands in for AndroidWorld's
    intent_filters = (IntentFilter(ACTION_VIEW, ("content://media/external/images/", "content://media/internal/images/")),)
    state_schema = PhotosState
    initial_model = PhotosInitial

    def reset(self) -> None:
        """The episode's seeded items and albums; nothing shared."""
        self.items, self.albums = library(self.phone.seed)
        self.shared: list[dict[str, str]] = []
        self.copies: list[dict[str, str]] = []
        self.last_opened: str | None = None
        self._mark_start()

    def _mark_start(self) -> None:
        """Remember the items as they are now: `state()["changed"]` lists what differs from this."""
        self.start = {it["name"]: _fingerprint(it) for it in self.items}

    def set_up(self, initial: PhotosInitial) -> None:
        """The given items in place of the seeded ones of their days, their albums and the listed ones.

        Raises:
            ConfigError: a given item has the name of a seeded item of another day.
        """
        given = [item(it.name, it.kind, it.date, it.favourite, it.albums, it.trashed, it.content)
                 for it in initial.items]
        days = {it["date"][:10] for it in given}
        self.items = [it for it in self.items if it["date"][:10] not in days] + given
        names = [it["name"] for it in self.items]
        if len(set(names)) != len(names):
            taken = sorted({n for n in names if names.count(n) > 1})
            raise ConfigError(f"`{self.label}.items` must have names no other item of the store has, got {taken}: "
                              "name them with `gallery_media.file_name` of their date")
        for name in [*initial.albums, *(a for it in given for a in it["albums"])]:
            if name not in self.albums:
                self.albums.append(name)
        self._mark_start()

    def add_capture(self, name: str, kind: str, date: str) -> None:
        """Store a photo or video the Camera just took (it shows first in the grid)."""
        self.items.append(item(name, kind, date))

    def find(self, name: str) -> dict[str, Any] | None:
        """The item called `name` (trashed or not), or None once it is deleted for good."""
        return next((it for it in self.items if it["name"] == name), None)

    def home(self) -> Screen:
        """The Photos tab."""
        return Screen(PACKAGE, "photos")

    def state(self) -> PhotosState:
        """The media store and where the app is (see `PhotosState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        ordered = newest_first(self.items)
        now = {it["name"]: _fingerprint(it) for it in self.items}
        changed = sorted({n for n in {*now, *self.start} if now.get(n) != self.start.get(n)})
        return {"items": [{**it, "albums": list(it["albums"]), "content": list(it["content"])} for it in ordered],
                "albums": [{"name": a, "items": [it["name"] for it in ordered if a in it["albums"]
                                                 and not it["trashed"]]} for a in self.albums],
                "screen": front.name if front else None,
                "open": front.args["item"] if front and front.name == "photo" else None,
                "album": front.args["name"] if front and front.name == "album" else None,
                "sheet": front.args.get("sheet") if front and front.name == "photo" else None,
                "shared": [dict(s) for s in self.shared], "changed": changed,
                "sending": dict(front.args) if front and front.name == "send" else None,
                "last_opened": self.last_opened, "copies": [dict(c) for c in self.copies],
                "copying": front.args["folder"] if front and front.name == "copy" else None}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A tab with the tab bar, the viewer, an album, a collection, the trash, the new-album page or the picker."""
        if screen.name in ("photos", "albums", "library"):
            body = {"photos": self._photos_tab, "albums": self._albums_tab, "library": self._library_tab}
            return [*body[screen.name](), self._tabs(screen.name)]
        pages = {"photo": self._viewer, "album": self._album, "collection": self._collection, "trash": self._trash,
                 "new_album": self._new_album, "picker": self._picker, "send": self._send,
                 "copy": lambda s: build_copy(PACKAGE, self.phone, s)}
        return pages[screen.name](screen)

    def _tabs(self, current: str) -> View:
        w = WIDTH // len(TABS)
        icons = {"Photos": "photo", "Albums": "image", "Library": "library"}
        return View(LINEAR, (0, TABS_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/tabs", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, TABS_TOP, (i + 1) * w, CONTENT_BOTTOM), text=t, desc=t,
                             package=PACKAGE, clickable=True, focusable=True, selected=t.lower() == current,
                             on_tap=("tab", t.lower()), style="tab", icon=icons[t]) for i, t in enumerate(TABS)])

    def _grid(self, items: list[dict[str, Any]], top: int, bottom: int, empty: str, headers: bool = True,
              selected: list[str] | None = None) -> View:
        """`items` four to a row under day headers; a tap opens one, or (with `selected`) selects it."""
        rows: list[View] = []
        y, col, day = top, 0, ""
        for it in items:
            if headers and it["date"][:10] != day:
                day, y, col = it["date"][:10], y + (CELL if col else 0), 0
                rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + HEADER_H), text=day_label(it["date"]),
                                 package=PACKAGE, style="title"))
                y += HEADER_H
            rows.append(self._cell(it, (col * CELL + 3, y + 3, (col + 1) * CELL - 3, y + CELL - 3), selected))
            col = (col + 1) % COLS
            y += CELL if col == 0 else 0
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text=empty, package=PACKAGE,
                         style="hint")]
        return scroll_list(top, bottom, PACKAGE, rows, rid=GRID_RID)

    @staticmethod
    def _cell(it: dict[str, Any], b: tuple[int, int, int, int], selected: list[str] | None) -> View:
        kids = []
        if it["kind"] == "video":
            kids.append(View(TEXT_VIEW, (b[2] - 110, b[1] + 10, b[2] - 10, b[1] + 70), text=duration(it["name"]),
                             package=PACKAGE))
        picking = selected is not None
        chosen = picking and it["name"] in selected
        if picking:
            kids.append(View("android.widget.CheckBox", (b[0] + 10, b[1] + 10, b[0] + 80, b[1] + 80),
                             package=PACKAGE, checkable=True, checked=chosen, style="checkbox"))
        return View(IMAGE_VIEW, b, desc=describe(it), rid=IMAGE_RID, package=PACKAGE, clickable=True,
                    focusable=True, checkable=picking, checked=chosen, selected=chosen,
                    on_tap=("pick" if picking else "open", it["name"]), style="image", children=kids)

    def _shown(self) -> list[dict[str, Any]]:
        return [it for it in newest_first(self.items) if not it["trashed"]]

    def _photos_tab(self) -> list[View]:
        return [toolbar("Photos", PACKAGE, PACKAGE, has_back=False),
                self._grid(self._shown(), BODY_TOP, TABS_TOP, "No photos yet")]

    def _albums_tab(self) -> list[View]:
        new = View(BUTTON, (MARGIN, BODY_TOP + 20, 520, BODY_TOP + 160), text="New album", package=PACKAGE,
                   rid=f"{PACKAGE}:id/new_album", clickable=True, focusable=True, on_tap=("new_album", ()),
                   style="outlined_button", icon="add")
        cards, top = [], BODY_TOP + 200
        for i, name in enumerate(reversed(self.albums)):  # the newest album first
            members = [it for it in self._shown() if name in it["albums"]]
            x, y = MARGIN + (i % 2) * 500, top + (i // 2) * 560
            cover = View(IMAGE_VIEW, (x, y, x + 470, y + 400), rid=f"{PACKAGE}:id/cover", package=PACKAGE,
                         style="image", icon="image")
            cards.append(View(LINEAR, (x, y, x + 470, y + 540), desc=f"{name} album", package=PACKAGE,
                              clickable=True, focusable=True, on_tap=("album", name), children=[
                                  cover, View(TEXT_VIEW, (x, y + 410, x + 470, y + 480), text=name, package=PACKAGE),
                                  View(TEXT_VIEW, (x, y + 480, x + 470, y + 540), text=f"{len(members)} items",
                                       package=PACKAGE, style="secondary")]))
        return [toolbar("Albums", PACKAGE, PACKAGE, has_back=False), new,
                scroll_list(top, TABS_TOP, PACKAGE, cards, rid=f"{PACKAGE}:id/albums")]

    def _library_tab(self) -> list[View]:
        col = Column(BODY_TOP + 20, PACKAGE, left=0, right=WIDTH)
        for label, icon, event in _LIBRARY:
            col.button(label, event, style="row", icon=icon, cls=LINEAR)
        return [toolbar("Library", PACKAGE, PACKAGE, has_back=False), *col.views]

    def _collection(self, screen: Screen) -> list[View]:
        kind = screen.args["kind"]
        shown = [it for it in self._shown() if (it["favourite"] if kind == "favorites" else it["kind"] == "video")]
        return [toolbar(kind.title(), PACKAGE, PACKAGE),
                self._grid(shown, BODY_TOP, CONTENT_BOTTOM, f"No {kind} yet")]

    def _trash(self, screen: Screen) -> list[View]:
        note = View(TEXT_VIEW, (MARGIN, BODY_TOP, WIDTH - MARGIN, BODY_TOP + 120), package=PACKAGE,
                    text="Items in trash are deleted forever after 60 days", style="secondary")
        trashed = [it for it in newest_first(self.items) if it["trashed"]]
        return [toolbar("Trash", PACKAGE, PACKAGE), note,
                self._grid(trashed, BODY_TOP + 120, CONTENT_BOTTOM, "Trash is empty", headers=False)]

    def _album(self, screen: Screen) -> list[View]:
        name = screen.args["name"]
        bar = toolbar(name, PACKAGE, PACKAGE)
        bar.children.append(View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, CONTENT_TOP, WIDTH, BODY_TOP), desc="Add photos",
                                 rid=f"{PACKAGE}:id/add_photos", package=PACKAGE, clickable=True, focusable=True,
                                 on_tap=("add_photos",), icon="add"))
        members = [it for it in self._shown() if name in it["albums"]]
        return [bar, self._grid(members, BODY_TOP, CONTENT_BOTTOM, "Tap + to add photos to this album")]

    def _new_album(self, screen: Screen) -> list[View]:
        bar = toolbar("New album", PACKAGE, PACKAGE)
        bar.children.append(View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, CONTENT_TOP, WIDTH, BODY_TOP), desc="Done",
                                 rid=f"{PACKAGE}:id/done", package=PACKAGE, clickable=True, focusable=True,
                                 on_tap=("create",), icon="check"))
        col = Column(BODY_TOP + 40, PACKAGE)
        col.field(TITLE_RID, screen.fields.get(TITLE_RID, ""), "Add a title", screen.focus == TITLE_RID)
        count = len(screen.args["items"])
        col.text(f"{count} item{'s' if count != 1 else ''} selected" if count else "No items yet", style="secondary")
        col.gap(40)
        col.button("Select photos", ("select_photos",), style="outlined_button", icon="add")
        return [bar, *col.views]

    def _picker(self, screen: Screen) -> list[View]:
        selected = screen.args["selected"]
        bar = toolbar(f"{len(selected)} selected" if selected else "Select items", PACKAGE, PACKAGE)
        bar.children.append(View(BUTTON, (WIDTH - 260, CONTENT_TOP + 30, WIDTH - 30, BODY_TOP - 30), text="Add",
                                 rid=f"{PACKAGE}:id/done_button", package=PACKAGE, clickable=True, focusable=True,
                                 enabled=bool(selected), on_tap=("picked",), style="button"))
        return [bar, self._grid(self._shown(), BODY_TOP, CONTENT_BOTTOM, "No photos", selected=selected)]

    def _send(self, screen: Screen) -> list[View]:
        """Send in Photos: a search field over the phone's contacts, the chosen one selected, and Send."""
        query, to = screen.fields.get(SEND_RID, "").strip().casefold(), screen.args["to"]
        bar = toolbar("Send to", PACKAGE, PACKAGE)
        bar.children.append(View(BUTTON, (WIDTH - 260, CONTENT_TOP + 30, WIDTH - 30, BODY_TOP - 30), text="Send",
                                 rid=f"{PACKAGE}:id/send_button", package=PACKAGE, clickable=True, focusable=True,
                                 enabled=to is not None, on_tap=("send",), style="button"))
        field = text_field((MARGIN, BODY_TOP + 20, WIDTH - MARGIN, BODY_TOP + 164), SEND_RID,
                           screen.fields.get(SEND_RID, ""), "Name or phone number", screen.focus == SEND_RID, PACKAGE,
                           icon="search")
        top = BODY_TOP + 190
        found = [p for p in contacts_of(self.phone) if query in p.name.casefold()
                 or (_digits(query) and _digits(query) in _digits(p.phone))]
        rows = [View(LINEAR, (0, top + i * PERSON_H, WIDTH, top + (i + 1) * PERSON_H), desc=p.name, rid=PERSON_RID,
                     package=PACKAGE, clickable=True, focusable=True, selected=p.name == to,
                     on_tap=("recipient", p.name), style="row", children=[
                         View(IMAGE_VIEW, (MARGIN, top + i * PERSON_H + 50, MARGIN + 100, top + i * PERSON_H + 150),
                              package=PACKAGE, icon="check" if p.name == to else "person"),
                         View(TEXT_VIEW, (MARGIN + 140, top + i * PERSON_H + 30, WIDTH - MARGIN,
                                          top + i * PERSON_H + 115), text=p.name, package=PACKAGE, style="row_title"),
                         View(TEXT_VIEW, (MARGIN + 140, top + i * PERSON_H + 115, WIDTH - MARGIN,
                                          top + i * PERSON_H + 180), text=p.phone, package=PACKAGE,
                              style="row_summary")])
                for i, p in enumerate(found)]
        rows = rows or [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 180), text="No contacts found",
                             package=PACKAGE, style="hint")]
        return [bar, field, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/send_people")]

    def _viewer(self, screen: Screen) -> list[View]:
        it = self.find(screen.args["item"])
        if it is None:  # deleted for good under an open viewer (the Camera's thumbnail): show nothing
            return [toolbar("", PACKAGE, PACKAGE)]
        top, bottom = CONTENT_TOP, CONTENT_BOTTOM
        kids = [View(IMAGE_BUTTON, (0, top, TOOLBAR_H, top + TOOLBAR_H), desc="Navigate up", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"),
                View(TEXT_VIEW, (TOOLBAR_H, top, WIDTH - 2 * TOOLBAR_H, top + TOOLBAR_H), text=taken(it["date"]),
                     rid=f"{PACKAGE}:id/title", package=PACKAGE),
                View(IMAGE_VIEW, (0, top + 300, WIDTH, bottom - 500), desc=describe(it),
                     rid=f"{PACKAGE}:id/photo_view", package=PACKAGE, style="image", printed=tuple(it["content"]))]
        if it["kind"] == "video":
            kids.append(View(TEXT_VIEW, (MARGIN, bottom - 480, WIDTH - MARGIN, bottom - 380), package=PACKAGE,
                             text=duration(it["name"]), rid=f"{PACKAGE}:id/duration"))
        if it["trashed"]:
            actions = (("Restore", "restore", ("restore",)), ("Delete", "delete", ("sheet", "delete")))
        else:
            favourite = it["favourite"]
            kids += [View(IMAGE_BUTTON, (WIDTH - 2 * TOOLBAR_H, top, WIDTH - TOOLBAR_H, top + TOOLBAR_H),
                          desc="Remove from favorites" if favourite else "Add to favorites",
                          rid=f"{PACKAGE}:id/favorite", package=PACKAGE, clickable=True, focusable=True,
                          checkable=True, checked=favourite, on_tap=("favourite",), icon="star"),
                     View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, top, WIDTH, top + TOOLBAR_H), desc="More options",
                          rid=f"{PACKAGE}:id/overflow", package=PACKAGE, clickable=True, focusable=True,
                          on_tap=("sheet", "menu"), icon="more")]
            actions = (("Share", "share", ("sheet", "share")), ("Info", "info", ("sheet", "info")),
                       ("Delete", "delete", ("sheet", "delete")))
        w = WIDTH // len(actions)
        kids += [View(BUTTON, (i * w, bottom - 220, (i + 1) * w, bottom), text=label, desc=label, package=PACKAGE,
                      rid=f"{PACKAGE}:id/{label.lower().replace(' ', '_')}", clickable=True, focusable=True,
                      on_tap=event, style="tab", icon=icon) for i, (label, icon, event) in enumerate(actions)]
        views = [View(FRAME, (0, top, WIDTH, bottom), rid=f"{PACKAGE}:id/photo_pager", package=PACKAGE,
                      style="video", children=kids)]
        sheet = screen.args.get("sheet")
        if sheet is not None:
            views.append(self._overlay(sheet, it))
        return views

    def _overlay(self, sheet: str, it: dict[str, Any]) -> View:
        """The viewer's open dialog or bottom sheet, over a scrim that closes it."""
        if sheet == "delete":
            forever = it["trashed"]
            return _dialog("Delete forever?" if forever else "Move to trash?",
                           "This item will be permanently deleted." if forever else
                           "Items in trash are deleted forever after 60 days.",
                           (("Cancel", ("close_sheet",)), ("Delete" if forever else "Move to trash",
                                                            ("erase",) if forever else ("trash",))))
        if sheet == "menu":
            return _sheet("More options", [("Add to album", "add", ("sheet", "album")),
                                           ("Copy to folder", "storage", ("copy_to",)),
                                           ("Details", "info", ("sheet", "info"))])
        if sheet == "share":
            return _sheet("Share to", [("Send in Photos", "person", ("send_to",)),
                                       *((t, "share", ("share", t)) for t in SHARE_TARGETS)])
        if sheet == "album":
            rows = [("New album", "add", ("new_album", (it["name"],)))]
            return _sheet("Add to album", rows + [(a, "image", ("add_to", a)) for a in reversed(self.albums)])
        albums = ", ".join(a for a in self.albums if a in it["albums"]) or "Not in any album"
        return _sheet("Details", [(taken(it["date"]), "clock", None), (it["name"], "image", None),
                                  (f"Albums: {albums}" if it["albums"] else albums, "library", None)])

    # -- events -------------------------------------------------------------------------------------------------------
    def on_back(self, screen: Screen) -> bool:
        """BACK closes the viewer's sheet first; on the Albums or Library tab it returns to the Photos tab."""
        if screen.name == "photo" and screen.args.get("sheet") is not None:
            screen.args["sheet"] = None
            return True
        if screen.name in ("albums", "library"):
            return self.phone.replace(Screen(PACKAGE, "photos"))
        return False

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, opening items and albums, the viewer's actions, albums and the picker."""
        match event:
            case ("tab", name):
                return name != screen.name and self.phone.replace(Screen(PACKAGE, name))
            case ("open", name):
                self.last_opened = name
                return self.phone.push(Screen(PACKAGE, "photo", {"item": name, "sheet": None}))
            case ("album", name):
                return self.phone.push(Screen(PACKAGE, "album", {"name": name}), slow=True)
            case ("collection", kind):
                return self.phone.push(Screen(PACKAGE, "collection", {"kind": kind}))
            case ("open_trash",):
                return self.phone.push(Screen(PACKAGE, "trash"), slow=True)
            case ("new_album", names):
                if screen.name == "photo":
                    screen.args["sheet"] = None
                return self.phone.push(Screen(PACKAGE, "new_album", {"items": list(names)}))
            case ("select_photos",):
                return self.phone.push(Screen(PACKAGE, "picker", {"album": None,
                                                                  "selected": list(screen.args["items"])}))
            case ("add_photos",):
                return self.phone.push(Screen(PACKAGE, "picker", {"album": screen.args["name"], "selected": []}))
            case ("create",):
                return self._create(screen, screen.args["items"])
        if screen.name == "picker":
            return self._picker_event(event, screen)
        if screen.name == "send":
            return self._send_event(event, screen)
        if screen.name == "copy":
            return self._copy_event(event, screen)
        return self._viewer_event(event, screen)

    def _viewer_event(self, event: AppEvent, screen: Screen) -> bool:
        it = self.find(screen.args.get("item", ""))
        if it is None:
            return False
        match event:
            case ("favourite",):
                it["favourite"] = not it["favourite"]
            case ("sheet", kind):
                screen.args["sheet"] = kind
            case ("close_sheet",):
                screen.args["sheet"] = None
            case ("copy_to",):
                screen.args["sheet"] = None
                return self.phone.push(Screen(PACKAGE, "copy", {"item": it["name"], "folder": None}))
            case ("send_to",):
                screen.args["sheet"] = None
                return self.phone.push(Screen(PACKAGE, "send", {"item": it["name"], "to": None}, {SEND_RID: ""},
                                              focus=SEND_RID))
            case ("share", target):
                self.shared.append({"item": it["name"], "target": target})
                screen.args["sheet"] = None
            case ("add_to", album):
                if album not in it["albums"]:
                    it["albums"].append(album)
                screen.args["sheet"] = None
            case ("trash",) | ("restore",):
                it["trashed"] = event[0] == "trash"
                self.phone.pop()
            case ("erase",):
                self.items.remove(it)
                self.phone.pop()
            case _:
                return False
        return True

    def _picker_event(self, event: AppEvent, screen: Screen) -> bool:
        selected = screen.args["selected"]
        match event:
            case ("pick", name):
                if name in selected:
                    selected.remove(name)
                else:
                    selected.append(name)
                return True
            case ("picked",) if selected:
                album = screen.args["album"]
                self.phone.pop()
                if album is None:  # the new-album page below names it
                    return self._create(self.phone.top, selected)
                for it in self.items:
                    if it["name"] in selected and album not in it["albums"]:
                        it["albums"].append(album)
                return True
        return False

    def _send_event(self, event: AppEvent, screen: Screen) -> bool:
        """Send in Photos: a contact's row chooses them (again: unchooses), Send shares the item with them."""
        match event:
            case ("recipient", name):
                screen.args["to"] = None if screen.args["to"] == name else name
                return True
            case ("send",) if screen.args["to"] is not None:
                self.shared.append({"item": screen.args["item"], "target": "Photos", "to": screen.args["to"]})
                return self.phone.pop()
        return False

    def _copy_event(self, event: AppEvent, screen: Screen) -> bool:
        """Copy to folder: a folder's row chooses it (again: unchooses), Copy here saves the copy and goes back."""
        match event:
            case ("folder", folder):
                screen.args["folder"] = None if screen.args["folder"] == folder else folder
                return True
            case ("copy_here",) if screen.args["folder"] is not None and self.find(screen.args["item"]):
                path = save_copy(self.phone, screen.args["item"], screen.args["folder"])
                self.copies.append({"item": screen.args["item"], "path": path})
                return self.phone.pop()
        return False

    def _create(self, page: Screen, names: list[str]) -> bool:
        """Make the album titled on new-album page `page` (a taken name adds to that album) and show it."""
        name = page.fields.get(TITLE_RID, "").strip() or "Untitled"
        if name not in self.albums:
            self.albums.append(name)
        for it in self.items:
            if it["name"] in names and name not in it["albums"]:
                it["albums"].append(name)
        return self.phone.replace(Screen(PACKAGE, "album", {"name": name}))


def _box(top: int, height: int, children: list[View]) -> View:
    """A surface over a full-screen scrim; a tap on the scrim closes it."""
    box = View(FRAME, (40, top, WIDTH - 40, top + height), rid=f"{PACKAGE}:id/sheet", package=PACKAGE,
               clickable=True, style="dialog", children=children)  # taps inside the box do nothing
    return View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=("close_sheet",),
                style="scrim", children=[box])


def _dialog(title: str, message: str, buttons: tuple[tuple[str, tuple], ...]) -> View:
    """An app-own confirmation dialog: title, message, and text buttons along the bottom right."""
    top = 820
    kids = [View(TEXT_VIEW, (100, top + 50, WIDTH - 100, top + 170), text=title, rid="android:id/alertTitle",
                 package=PACKAGE, style="dialog_title"),
            View(TEXT_VIEW, (100, top + 180, WIDTH - 100, top + 340), text=message, rid="android:id/message",
                 package=PACKAGE)]
    x = WIDTH - 80
    for i, (label, event) in reversed(list(enumerate(buttons))):
        w = 60 + 26 * len(label)
        kids.append(View(BUTTON, (x - w, top + 360, x, top + 480), text=label, rid=f"android:id/button{2 - i}",
                         package=PACKAGE, clickable=True, focusable=True, on_tap=event, style="text_button"))
        x -= w + 20
    return _box(top, 520, kids)


def _sheet(title: str, rows: list[tuple[str, str, tuple | None]]) -> View:
    """A bottom sheet: a title and rows (label, icon, event or None for a plain line)."""
    height = 160 + 150 * len(rows)
    top = CONTENT_BOTTOM - height
    kids = [View(TEXT_VIEW, (MARGIN + 40, top + 30, WIDTH - MARGIN, top + 150), text=title, package=PACKAGE,
                 style="dialog_title")]
    for i, (label, icon, event) in enumerate(rows):
        y = top + 160 + i * 150
        kids.append(View(TEXT_VIEW, (40, y, WIDTH - 40, y + 150), text=label, package=PACKAGE, icon=icon,
                         rid=f"{PACKAGE}:id/sheet_row", clickable=event is not None, focusable=event is not None,
                         on_tap=event, style="row"))
    return _box(top, height, kids)


def _digits(text: str) -> str:
    """The digits of `text` ("(646) 555-0142" -> "6465550142")."""
    return "".join(c for c in text if c.isdigit())
