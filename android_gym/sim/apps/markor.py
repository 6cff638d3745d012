"""The Markor app: a notebook of folders and Markdown/text notes, a file browser, an editor and the file dialogs.

The notebook is drawn per episode from `stable_seed("markor", phone.seed)` (never from the episode RNG): a few
folders and notes with contents and modified dates. Paths are relative to the notebook root (PATH); the
root folder is "".

Screens: "browser" (args {"path": the folder, "search": bool}; the search text in fields[SEARCH_RID]; listed by
name, or by modification time after "Sort by"), "document" (args {"path", "mode": "edit"|"view"}; the editor's text
in fields[EDITOR_RID]), "menu" (args {"path"}: a row's More options: Rename, Move, Delete), and the app's own dialogs
over the browser: "create" (args {"folder", "type", "error"}), "rename" (args {"path", "error"}), "move" (args
{"path", "target"}), "delete" (args {"path"}) and "sort" (the orders). Items carry a modification time to the
minute (`markor_times`): seeded ones drawn before the clock's 9:41 on their day, changed ones at 9:41 today.
Leaving the editor (BACK, Navigate up, Preview) saves, as Markor does.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal, NotRequired

import numpy as np
from pydantic import ValidationInfo, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert
from android_gym.sim.app_state import closed, refuse_absolute_paths
from android_gym.sim.apps import markor_times as T
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "net.gsantner.markor"
ROW_RID = f"{PACKAGE}:id/ui__filesystem_item__root"
TITLE_RID = f"{PACKAGE}:id/ui__filesystem_item__title"
SUMMARY_RID = f"{PACKAGE}:id/ui__filesystem_item__description"
LIST_RID = f"{PACKAGE}:id/ui__filesystem_dialog__list"
FAB_RID = f"{PACKAGE}:id/fab_add_new_item"
FAB_DESC = "Create a new file or folder"
EDITOR_RID = f"{PACKAGE}:id/document__fragment__edit__highlighting_editor"
VIEWER_RID = f"{PACKAGE}:id/document__fragment__view__text"
NAME_RID = f"{PACKAGE}:id/new_file_dialog__name"
SEARCH_RID = f"{PACKAGE}:id/search_src_text"
TYPES = {"Markdown": ".md", "Plain text": ".txt", "Folder": ""}
"""The new-item types of the create dialog and the extension a file name gets when it has none."""
ROW_H = 200
CRUMB_H = 96
DATE = datetime.date(*TODAY[:3])
FOLDERS = ("Work", "Personal", "Recipes", "Travel", "Journal", "Study", "Archive")
NOTES = (
    ("meeting_notes", "# Meeting notes\n- Budget review moved to Friday\n- Hire two interns"),
    ("grocery_list", "- eggs\n- spinach\n- oat milk\n- coffee beans"),
    ("book_ideas", "# Book ideas\nA detective who solves crimes with old maps."),
    ("workout_plan", "Monday: run 5 km\nWednesday: yoga\nFriday: weights"),
    ("pancakes", "# Pancakes\n2 eggs, 1 cup flour, 1 cup milk. Whisk and fry."),
    ("lisbon_trip", "# Lisbon trip\nFlight TP 1351 on July 3\nHotel near Alfama"),
    ("reading_list", "- Dune\n- The Overstory\n- Piranesi"),
    ("journal", "June 1: started the new job.\nJune 5: long walk by the river."),
    ("gift_ideas", "Mom: scarf\nDad: chess set\nSam: headphones"),
    ("project_plan", "# Q3 project plan\n1. Research\n2. Prototype\n3. Launch"),
    ("lecture_notes", "# Linear algebra\nEigenvectors keep their direction."),
    ("quotes", "> Simplicity is the soul of efficiency."),
    ("budget", "Rent 1200\nFood 400\nTransport 90"),
    ("wifi_setup", "Router admin page: 192.168.1.1\nGuest network: cafe-guest"),
)


def parent(path: str) -> str:
    """The folder holding `path` ("" for the root).

    >>> parent("Work/notes.md"), parent("notes.md")
    ('Work', '')
    """
    return path.rpartition("/")[0]


def base(path: str) -> str:
    """The last component of `path`: the file or folder name."""
    return path.rpartition("/")[2]


def join(folder: str, name: str) -> str:
    """`name` inside `folder` ("" is the root)."""
    return f"{folder}/{name}" if folder else name


def crumbs(folder: str) -> str:
    """A folder as the breadcrumb shows it.

    >>> crumbs("Work/2026"), crumbs("")
    ('Notebook / Work / 2026', 'Notebook')
    """
    return " / ".join(["Notebook", *(folder.split("/") if folder else [])])


def notebook(seed: int) -> tuple[set[str], dict[str, str], dict[str, int]]:
    """Episode `seed`'s notebook: (folders, {path: content}, {path: age in days}); 2-3 folders and 6-9 notes."""
    rng = np.random.default_rng(stable_seed("markor", seed))
    folders = sorted(FOLDERS[int(i)] for i in rng.choice(len(FOLDERS), size=int(rng.integers(2, 4)), replace=False))
    files: dict[str, str] = {}
    at_root = int(rng.integers(2, 6))  # the root lists at most 3 folders and 5 notes before a task adds its own
    for k, i in enumerate(rng.choice(len(NOTES), size=int(rng.integers(6, 10)), replace=False)):
        stem, content = NOTES[int(i)]
        where = "" if k < at_root else folders[int(rng.integers(len(folders)))]
        files[join(where, stem + (".md" if rng.random() < 0.75 else ".txt"))] = content
    ages = {path: int(rng.integers(0, 60)) for path in [*folders, *files]}
    return set(folders), files, ages


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
ScreenName = Literal["browser", "document", "menu", "create", "rename", "move", "delete", "sort"]
Mode = Literal["edit", "view"]


@closed
class OpenNote(TypedDict):
    """The note in front: its path, the editor's mode and text, and whether that text is saved."""

    path: str
    mode: Mode
    text: str
    saved: bool


@closed
class NoteEdit(TypedDict):
    """One edit of the episode's log: what was done to which path (and where it went, for rename and move only)."""

    op: Literal["create", "mkdir", "save", "rename", "move", "delete"]
    path: str
    to: NotRequired[str]


@closed
class MarkorState(TypedDict):
    """What Markor reports (`MarkorApp.state`); paths are relative to the notebook's root.

    Attributes:
        files: every note's content by path, sorted by path.
        folders: every folder's path, sorted.
        modified: every folder's and note's modified date ("YYYY-MM-DD") by path.
        modified_at: every folder's and note's modification time ("YYYY-MM-DD HH:MM") by path.
        sort: the browser's order, "Name" or "Date" (newest first).
        screen: the front Markor screen's name, None when Markor has no screen on the stack.
        folder: the folder the front screen is in (an open note's folder), None when Markor is not open.
        open: the front document, else None.
        query: the search text while the browser under the front screen (or in front) searches, else None.
        last_opened: the last note opened this episode, None before.
        edits: the episode's edits in order.
    """

    files: dict[str, str]
    folders: list[str]
    modified: dict[str, str]
    modified_at: dict[str, str]
    sort: Literal["Name", "Date"]
    screen: ScreenName | None
    folder: str | None
    open: OpenNote | None
    query: str | None
    last_opened: str | None
    edits: list[NoteEdit]


PATH = "a relative, non-empty path like 'Work/todo.md'"
"""What a path of the initial conditions must be."""


class MarkorInitial(ConfigModel):
    """The notebook a task starts from: the episode's seeded one, changed in this order.

    Attributes:
        absent: paths removed (a folder with what it holds); a path not there is ignored.
        folders: folders added (with their parents), dated today.
        files: notes added by path, with their content (their folders created with them), dated today.
        times: modification times ("YYYY-MM-DD HH:MM") of items there after the above, by path.
    """

    absent: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    files: dict[str, str] = {}
    times: dict[str, str] = {}

    @field_validator("times")
    @classmethod
    def _stamps(cls, times: dict[str, str]) -> dict[str, str]:
        for text in times.values():
            T.parse(text)
        return times

    @field_validator("absent", "folders", "files")
    @classmethod
    def _relative_paths(cls, value: Any, info: ValidationInfo) -> Any:
        refuse_absolute_paths(str(info.field_name), value, PATH)
        return value


class MarkorApp(App):
    """Markor: browse the notebook's folders, open a note to edit or preview it, create, rename, move, delete."""

    package = PACKAGE
    label = "Markor"
    icon = "notes"
    aliases = ("notes", "markor notes")
    state_schema = MarkorState
    initial_model = MarkorInitial

    def reset(self) -> None:
        """The episode's seeded notebook, nothing opened or edited."""
        self.folders, self.files, self.ages = notebook(self.phone.seed)
        self.minutes, self.sort = T.minutes_of(self.phone.seed, self.ages), "Name"
        self.edits: list[dict[str, str]] = []
        self.last_opened: str | None = None

    def set_up(self, initial: MarkorInitial) -> None:
        """Remove `initial.absent`, then add its folders and files (a file's folders with it), new items dated
        today."""  # noqa: D205, D209
        for path in initial.absent:
            self._remove(path)
        for path in initial.folders:
            self._mkdirs(path)
        for path, content in initial.files.items():
            self._mkdirs(parent(path))
            self.files[path] = content
            self._touch(path)
        for path, text in initial.times.items():
            if path not in self.ages:
                raise ConfigError(f"Markor: `times` names {path!r}, which the notebook does not hold")
            self.ages[path], self.minutes[path] = T.parse(text)

    def _touch(self, path: str) -> None:
        """Item `path` is modified now."""
        self.ages[path], self.minutes[path] = 0, T.NOW_MIN

    def home(self) -> Screen:
        """The notebook's root folder."""
        return Screen(PACKAGE, "browser", {"path": "", "search": False})

    def state(self) -> MarkorState:
        """The notebook and where Markor is (see `MarkorState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened: OpenNote | None = None
        if front is not None and front.name == "document":
            path = front.args["path"]
            text = front.fields.get(EDITOR_RID, self.files[path]) if front.args["mode"] == "edit" else self.files[path]
            opened = {"path": path, "mode": front.args["mode"], "text": text, "saved": text == self.files[path]}
        browser = next((s for s in reversed(mine) if s.name == "browser"), None)
        return {"files": dict(sorted(self.files.items())), "folders": sorted(self.folders),
                "modified": {p: str(DATE - datetime.timedelta(days=a)) for p, a in sorted(self.ages.items())},
                "modified_at": {p: T.stamp(self.ages[p], self.minutes[p]) for p in sorted(self.ages)},
                "sort": self.sort,
                "screen": front.name if front else None,
                "folder": parent(opened["path"]) if opened else (browser.args["path"] if browser else None),
                "open": opened, "query": browser.fields.get(SEARCH_RID, "") if browser and browser.args["search"]
                else None, "last_opened": self.last_opened, "edits": [dict(e) for e in self.edits]}

    # -- the notebook -------------------------------------------------------------------------------------------------
    def _exists(self, path: str) -> bool:
        return path in self.files or path in self.folders

    def _inside(self, folder: str) -> list[str]:
        """Every item under `folder`, at any depth."""
        return [p for p in [*self.folders, *self.files] if p.startswith(folder + "/")]

    def _mkdirs(self, folder: str) -> None:
        while folder and folder not in self.folders:
            self.folders.add(folder)
            self._touch(folder)
            folder = parent(folder)

    def _remove(self, path: str) -> None:
        for p in [path, *self._inside(path)]:
            self.files.pop(p, None)
            self.folders.discard(p)
            self.ages.pop(p, None)
            self.minutes.pop(p, None)

    def _relocate(self, src: str, dest: str) -> None:
        """Rename or move `src` (and a folder's contents) to `dest`."""
        for p in [src, *self._inside(src)]:
            q = dest + p[len(src):]
            if p in self.folders:
                self.folders.discard(p)
                self.folders.add(q)
            else:
                self.files[q] = self.files.pop(p)
            self.ages[q], self.minutes[q] = self.ages.pop(p), self.minutes.pop(p)
        if self.last_opened is not None and (self.last_opened == src or self.last_opened.startswith(src + "/")):
            self.last_opened = dest + self.last_opened[len(src):]

    def listing(self, folder: str, query: str = "") -> list[str]:
        """What the browser lists: `folder`'s items, or every item whose name holds `query`; folders first, then by
        name or (sorted by Date) newest first."""  # noqa: D205, D209
        if query:
            items = [p for p in [*self.folders, *self.files] if query.lower() in base(p).lower()]
        else:
            items = [p for p in [*self.folders, *self.files] if parent(p) == folder]
        if self.sort == "Date":
            return sorted(items, key=lambda p: (p in self.files, self.ages[p], -self.minutes[p], base(p).lower()))
        return sorted(items, key=lambda p: (p in self.files, base(p).lower(), p))

    def _name_error(self, folder: str, name: str) -> str:
        if not name or "/" in name or name in (".", ".."):
            return "Enter a valid name"
        return "A file or folder with this name already exists" if self._exists(join(folder, name)) else ""

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The browser, a document, or a menu or dialog over the (inert) browser."""
        if screen.name == "browser":
            return self._browser(screen)
        if screen.name == "document":
            return self._document(screen)
        below = self.phone.screens(PACKAGE)[-2]
        overlay = (self._menu(screen) if screen.name == "menu" else T.sort_dialog(PACKAGE, self.sort)
                   if screen.name == "sort" else self._dialog(screen))
        return [*inert(self._browser(below), below.scroll), overlay]

    def _browser(self, screen: Screen) -> list[View]:
        folder, searching = screen.args["path"], screen.args["search"]
        query = screen.fields.get(SEARCH_RID, "") if searching else ""
        top = CONTENT_TOP + TOOLBAR_H
        if searching:
            head = [text_field((MARGIN, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), SEARCH_RID, query, "Search",
                               screen.focus == SEARCH_RID, PACKAGE, icon="search")]
        else:
            head = [toolbar(base(folder) or "Notebook", PACKAGE, PACKAGE, has_back=bool(folder)),
                    View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, CONTENT_TOP, WIDTH, top), desc="Search",
                         rid=f"{PACKAGE}:id/action_search", package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("search",), icon="search"),
                    View(IMAGE_BUTTON, (WIDTH - 2 * TOOLBAR_H, CONTENT_TOP, WIDTH - TOOLBAR_H, top), desc="Sort by",
                         rid=f"{PACKAGE}:id/action_sort", package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("sort",), icon="sort")]
        crumb = View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + CRUMB_H), package=PACKAGE, style="secondary",
                     text=crumbs(folder) if not query else f"Search results for \u201c{query}\u201d",
                     rid=f"{PACKAGE}:id/ui__filesystem_dialog__breadcrumb")
        list_top = top + CRUMB_H
        rows = [self._row(list_top + i * ROW_H, p, bool(query)) for i, p in enumerate(self.listing(folder, query))]
        if rows:  # room to scroll the last row clear of the FAB
            rows.append(View(VIEW, (0, rows[-1].bounds[3], WIDTH, rows[-1].bounds[3] + 320), package=PACKAGE))
        else:
            rows = [View(TEXT_VIEW, (MARGIN, list_top + 40, WIDTH - MARGIN, list_top + 160), package=PACKAGE,
                         text="No results" if query else "This folder is empty", style="hint")]
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                   rid=FAB_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("fab",), style="fab",
                   icon="add")
        return [*head, crumb, scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID), fab]

    def _row(self, y: int, path: str, show_folder: bool) -> View:
        name = base(path)
        if path in self.folders:
            n = sum(parent(p) == path for p in [*self.folders, *self.files])
            summary = f"{n} item" + ("" if n == 1 else "s")
        else:
            summary = f"{T.row_time(self.ages[path], self.minutes[path])} \u00b7 {len(self.files[path].encode())} B"
        if show_folder:
            summary += f" \u00b7 in {crumbs(parent(path))}"
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("open", path), style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 50, MARGIN + 100, y + 150), package=PACKAGE,
                             icon="files" if path in self.folders else "note"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 30, WIDTH - 200, y + 115), text=name, rid=TITLE_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 115, WIDTH - 200, y + 180), text=summary,
                             rid=SUMMARY_RID, package=PACKAGE, style="row_summary"),
                        View(IMAGE_BUTTON, (WIDTH - 170, y + 40, WIDTH - 30, y + 160), desc=f"More options for {name}",
                             package=PACKAGE, clickable=True, focusable=True, on_tap=("more", path), icon="more")])

    def _document(self, screen: Screen) -> list[View]:
        path, editing = screen.args["path"], screen.args["mode"] == "edit"
        text = screen.fields.get(EDITOR_RID, "") if editing else self.files[path]
        top = CONTENT_TOP + TOOLBAR_H
        lines = sum(1 + len(line) // 36 for line in text.split("\n"))
        bottom = min(CONTENT_BOTTOM - 40, top + 140 + 66 * lines)
        body = (text_field((MARGIN, top + 30, WIDTH - MARGIN, bottom), EDITOR_RID, text, "Start writing",
                           screen.focus == EDITOR_RID, PACKAGE) if editing
                else View(TEXT_VIEW, (MARGIN, top + 30, WIDTH - MARGIN, bottom), text=text, rid=VIEWER_RID,
                          package=PACKAGE))
        actions = [("Save", "save", ("save",)), ("Preview" if editing else "Edit", "preview" if editing else "edit",
                                                  ("mode", "view" if editing else "edit"))]
        buttons = [View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H, top),
                        desc=desc, rid=f"{PACKAGE}:id/action_{desc.lower()}", package=PACKAGE, clickable=True,
                        focusable=True, on_tap=event, icon=icon) for i, (desc, icon, event) in enumerate(actions)]
        return [toolbar(base(path), PACKAGE, PACKAGE), *buttons, body]

    def _menu(self, screen: Screen) -> View:
        path = screen.args["path"]
        items = [View(TEXT_VIEW, (520, 420 + i * 150, WIDTH - 60, 570 + i * 150), text=label,
                      rid="android:id/title", package=PACKAGE, clickable=True, focusable=True,
                      on_tap=(label.lower(), path), style="row")
                 for i, label in enumerate(("Rename", "Move", "Delete"))]
        card = View(FRAME, (500, 400, WIDTH - 40, 890), package=PACKAGE, clickable=True, style="dialog",
                    children=items)
        return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, clickable=True,
                    on_tap=("cancel",), children=[card])

    def _dialog(self, screen: Screen) -> View:
        args, y = screen.args, dialog_body_top(560)
        field = text_field((150, y, WIDTH - 150, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""), "Name",
                           screen.focus == NAME_RID, PACKAGE)
        error = [View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=args["error"], package=PACKAGE,
                      rid=f"{PACKAGE}:id/textinput_error", style="hint")] if args.get("error") else []
        cancel = ("Cancel", ("cancel",), True)
        if screen.name == "create":
            chips = [View(BUTTON, (150 + i * 265, y + 240, 400 + i * 265, y + 360), text=t, package=PACKAGE,
                          clickable=True, focusable=True, checkable=True, checked=args["type"] == t,
                          on_tap=("type", t), style="chip") for i, t in enumerate(TYPES)]
            return app_dialog(PACKAGE, "Create a new file or folder", [field, *error, *chips],
                              [cancel, ("OK", ("ok",), True)])
        if screen.name == "rename":
            clear = View(IMAGE_BUTTON, (WIDTH - 260, y + 12, WIDTH - 150, y + 132), desc="Clear text", package=PACKAGE,
                         clickable=True, focusable=True, on_tap=("clear",), icon="close")
            field.bounds = (150, y, WIDTH - 270, y + 144)
            return app_dialog(PACKAGE, "Rename", [field, clear, *error], [cancel, ("OK", ("ok",), True)])
        if screen.name == "move":
            targets = [""] + [f for f in sorted(self.folders)
                              if f != args["path"] and not f.startswith(args["path"] + "/")]
            y = dialog_body_top(400)
            rows = [View("android.widget.RadioButton", (150, y + i * 130, WIDTH - 150, y + (i + 1) * 130),
                         text=crumbs(t), package=PACKAGE,
                         clickable=True, focusable=True, checkable=True, checked=args["target"] == t,
                         on_tap=("target", t), style="radio") for i, t in enumerate(targets)]
            if args.get("error"):
                error[0].bounds = (150, rows[-1].bounds[3], WIDTH - 150, rows[-1].bounds[3] + 70)
            return app_dialog(PACKAGE, f"Move {base(args['path'])} to", [*rows, *error],
                              [cancel, ("Move", ("ok",), args["target"] is not None)], top=400)
        return app_dialog(PACKAGE, f"Delete {base(args['path'])}?", [], [cancel, ("Delete", ("ok",), True)],
                          message="This cannot be undone.")

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Browser rows, More options, the FAB, search, dialog buttons, Save and Preview/Edit."""
        if event == ("cancel",):
            return self.phone.pop()
        if screen.name == "browser":
            return self._browser_event(event, screen)
        if screen.name == "document":
            return self._document_event(event, screen)
        if screen.name == "menu":
            match event:
                case (("rename" | "move" | "delete") as name, path):
                    fields = {NAME_RID: base(path)} if name == "rename" else {}
                    return self.phone.replace(Screen(PACKAGE, name, {"path": path, "target": None, "error": ""},
                                                     fields))
            return False
        return self._dialog_event(event, screen)

    def _browser_event(self, event: AppEvent, screen: Screen) -> bool:
        match event:
            case ("open", path) if path in self.folders:
                return self.phone.push(Screen(PACKAGE, "browser", {"path": path, "search": False}))
            case ("open", path):
                self.last_opened = path
                return self.phone.push(Screen(PACKAGE, "document", {"path": path, "mode": "edit"},
                                              {EDITOR_RID: self.files[path]}))
            case ("more", path):
                return self.phone.push(Screen(PACKAGE, "menu", {"path": path}))
            case ("fab",):
                return self.phone.push(Screen(PACKAGE, "create", {"folder": screen.args["path"], "type": "Markdown",
                                                                  "error": ""}, {NAME_RID: ""}, focus=NAME_RID))
            case ("sort",):
                return self.phone.push(Screen(PACKAGE, "sort", {"path": screen.args["path"]}))
            case ("search",):
                screen.args["search"], screen.focus, screen.scroll = True, SEARCH_RID, 0
                screen.fields[SEARCH_RID] = ""
                return True
        return False

    def _document_event(self, event: AppEvent, screen: Screen) -> bool:
        match event:
            case ("save",):
                return self._save(screen)
            case ("mode", "view"):
                self._save(screen)
                screen.args["mode"], screen.focus = "view", None
                return True
            case ("mode", "edit"):
                screen.args["mode"] = "edit"
                screen.fields[EDITOR_RID] = self.files[screen.args["path"]]
                return True
        return False

    def _save(self, screen: Screen) -> bool:
        path, text = screen.args["path"], screen.fields.get(EDITOR_RID)
        if screen.args["mode"] != "edit" or text is None or text == self.files[path]:
            return False
        self.files[path] = text
        self._touch(path)
        self.edits.append({"op": "save", "path": path})
        return True

    def _dialog_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("type", kind):
                args["type"] = kind
                return True
            case ("clear",):
                screen.fields[NAME_RID], screen.focus = "", NAME_RID
                return True
            case ("sort_by", order):
                self.sort = order
                return self.phone.pop()
            case ("target", folder):
                args["target"], args["error"] = folder, ""
                return True
            case ("ok",) if screen.name == "create":
                return self._create(screen)
            case ("ok",) if screen.name == "rename":
                path, name = args["path"], screen.fields.get(NAME_RID, "").strip()
                if name == base(path):
                    return self.phone.pop()
                return self._commit(screen, "rename", join(parent(path), name), name)
            case ("ok",) if screen.name == "move" and args["target"] is not None:
                if args["target"] == parent(args["path"]):
                    return self.phone.pop()
                return self._commit(screen, "move", join(args["target"], base(args["path"])), base(args["path"]))
            case ("ok",) if screen.name == "delete":
                self._remove(args["path"])
                self.edits.append({"op": "delete", "path": args["path"]})
                return self.phone.pop()
        return False

    def _create(self, screen: Screen) -> bool:
        folder, kind = screen.args["folder"], screen.args["type"]
        name = screen.fields.get(NAME_RID, "").strip()
        if kind != "Folder" and name and not name.lower().endswith((".md", ".txt")):
            name += TYPES[kind]
        screen.args["error"] = self._name_error(folder, name)
        if screen.args["error"]:
            return True
        path = join(folder, name)
        self._touch(path)
        if kind == "Folder":
            self.folders.add(path)
            self.edits.append({"op": "mkdir", "path": path})
            return self.phone.pop()
        self.files[path] = ""
        self.edits.append({"op": "create", "path": path})
        self.last_opened = path  # Markor opens a new note in the editor, keyboard up
        return self.phone.replace(Screen(PACKAGE, "document", {"path": path, "mode": "edit"}, {EDITOR_RID: ""},
                                         focus=EDITOR_RID))

    def _commit(self, screen: Screen, op: str, dest: str, name: str) -> bool:
        """Rename or move the dialog's item to `dest`, or show why not."""
        screen.args["error"] = self._name_error(parent(dest), name)
        if screen.args["error"]:
            return True
        self._relocate(screen.args["path"], dest)
        self.edits.append({"op": op, "path": screen.args["path"], "to": dest})
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER: a new line in the editor, OK in a name dialog; the search list filters as one types."""
        if rid == EDITOR_RID:
            screen.fields[rid] = screen.fields.get(rid, "") + "\n"
            return True
        if rid == NAME_RID:
            return self._dialog_event(("ok",), screen)
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK saves the editor before it closes, and leaves search before the folder."""
        if screen.name == "document":
            self._save(screen)
        elif screen.name == "browser" and screen.args["search"]:
            screen.args["search"], screen.scroll = False, 0
            screen.fields.pop(SEARCH_RID, None)
            return True
        return False
