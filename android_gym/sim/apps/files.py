"""The Files app (Files by Google): its screens over the file system of `files_data`, and the file actions.

The seeded files, folders and the pure helpers over paths and labels live in `android_gym.sim.apps.files_data`, the
typed seam (`FilesState`, `FilesInitial` and their parts) in `android_gym.sim.apps.files_state`; this module
re-exports the names other modules import from them (`CATEGORIES`, `files_in`, `size_label`, `join`, `FileEntry`...).

Screens: "home" (the categories, Internal storage, Trash), "category" (args {"name", "selected"}), "folder" (args
{"path", "selected"}), "search" (args {"selected"}; the query in fields[SEARCH_RID]), "file" (args {"path",
"category": the category it was opened from or None}), "trash", "picker" (Move to / Copy to: args {"op", "paths",
"folder"}), and the app's own pop-ups over the screen below: "menu" (args {"kind": a `MENUS` key,
"path", "index"}), "rename" (args {"path", "error"}; the stem in fields[NAME_RID], the extension kept), "mkdir" (args
{"parent", "error"}), "confirm" (args {"kind": "trash"|"delete", "paths", "index"}), "info" (args {"path"}) and
"sort". `selected` is None outside selection mode, else the selected paths.
"""

from __future__ import annotations

from typing import Any

from android_gym.sim.app import ACTION_VIEW, App, Intent, Screen
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.apps.files_data import (
    CATEGORIES,
    FOLDERS,
    KINDS,
    ROOT_LABEL,
    SORTS,
    base,
    crumbs,
    date_label,
    ext_of,
    free_path,
    in_category,
    iso,
    join,
    mkdirs,
    parent,
    seeded_files,
    size_label,
    sort_paths,
    stem,
    subfolders,
)
from android_gym.sim.apps.files_data import DATE as DATE  # re-exported: the importers' names keep working
from android_gym.sim.apps.files_data import files_in as files_in
from android_gym.sim.apps.files_state import Category as Category  # re-exported, as above
from android_gym.sim.apps.files_state import FileEntry as FileEntry
from android_gym.sim.apps.files_state import FilesInitial, FilesState
from android_gym.sim.apps.files_state import Sort as Sort
from android_gym.sim.events import AppEvent, NavKey
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
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.nbu.files"
NAME_RID = f"{PACKAGE}:id/name_edit_text"
SEARCH_RID = f"{PACKAGE}:id/search_edit_text"
TITLE_RID = f"{PACKAGE}:id/file_name"
DETAILS_RID = f"{PACKAGE}:id/file_details"
LIST_RID = f"{PACKAGE}:id/file_list"
ROW_H = 200
MENUS = {"file": ("Select", "Rename", "Move to", "Copy to", "Move to Trash", "File info"),
         "list": ("New folder", "Select all"), "view": ("Select all",),
         "selection": ("Move to", "Copy to", "Select all"), "trash": ("Restore", "Delete forever"),
         "open_with": ("Chrome",)}
"""The items of each More options menu: a file's, a folder's toolbar, a category's or search's toolbar, the selection
bar's, a Trash row's; and the "Open with" chooser a web page (.html) opens (issue 48: AndroidWorld's browser tasks)."""


class FilesApp(App):
    """Files by Google: categories, folders, search, Trash; rename, move, copy, trash, restore, info, sort."""

    package = PACKAGE
    label = "Files"
    icon = "files"
    aliases = ("files by google", "file manager", "downloads")
    state_schema = FilesState
    initial_model = FilesInitial

    def reset(self) -> None:
        """The episode's seeded files in their folders; Trash empty, sorted by name, nothing done."""
        self.files = seeded_files(self.phone.seed)
        self.folders = set(FOLDERS)
        self.trash: list[dict[str, Any]] = []
        self.sort = "name"
        self.edits: list[dict[str, str]] = []
        self.last_opened: str | None = None

    def set_up(self, initial: FilesInitial) -> None:
        """Remove `initial.absent`, add its folders, then its files (with their folders) and its Trash."""
        for path in initial.absent:
            self.files.pop(path, None)
        for path in initial.folders:
            mkdirs(self.folders, path)
        for f in initial.files:
            mkdirs(self.folders, parent(f.path))
            self.files[f.path] = {"size_kb": f.size_kb, "date": f.date}
        self.trash += [{"path": f.path, "size_kb": f.size_kb, "date": f.date} for f in initial.trash]

    def home(self) -> Screen:
        """The Browse page."""
        return Screen(PACKAGE, "home")

    def state(self) -> FilesState:
        """The files and where Files is (see `FilesState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        page, args = (front.name, front.args) if front else (None, {})
        lists = [s for s in mine if s.name in ("category", "folder", "search")]
        shown = lists[-1] if lists and page in ("category", "folder", "search", "menu", "confirm", "sort") else None
        category = args.get("name") if page == "category" else args.get("category") if page == "file" else None
        return {"page": page, "category": category,
                "files": [{"path": p, "folder": parent(p), "name": base(p), **f}
                          for p, f in sorted(self.files.items())],
                "folders": sorted(self.folders),
                "trash": [{"path": t["path"], "name": base(t["path"]), "size_kb": t["size_kb"], "date": t["date"]}
                          for t in self.trash],
                "sort": self.sort, "folder": args["path"] if page == "folder" else None,
                "query": front.fields.get(SEARCH_RID, "") if page == "search" else None,
                "selected": list(shown.args["selected"]) if shown and shown.args["selected"] is not None else None,
                "opened": args["path"] if page in ("file", "info") else None, "last_opened": self.last_opened,
                "edits": [dict(e) for e in self.edits]}

    # -- the file system ----------------------------------------------------------------------------------------------
    def listing(self, screen: Screen) -> list[str]:
        """The paths a list screen shows, in order: a folder's subfolders then files, else matching files."""
        if screen.name == "folder":
            here = screen.args["path"]
            return subfolders(self.folders, here) + self._in_order([p for p in self.files if parent(p) == here])
        if screen.name == "category":
            return self._in_order([p for p in self.files if in_category(p, screen.args["name"])])
        query = screen.fields.get(SEARCH_RID, "").strip().casefold()
        return self._in_order([p for p in self.files if query and query in base(p).casefold()])

    def _in_order(self, paths: list[str]) -> list[str]:
        return sort_paths(paths, self.files, self.sort)

    def save(self, path: str, size_kb: int) -> None:
        """Write a file another app saves (an exported playlist) at `path`, dated today, making its folders; a file
        already there is replaced. Other apps write into storage through this alone, never Files' containers."""  # noqa: D205, D209
        mkdirs(self.folders, parent(path))
        self.files[path] = {"size_kb": size_kb, "date": iso(0)}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a pop-up over the (inert) screen below it."""
        pages = {"home": self._home, "category": self._list, "folder": self._list, "search": self._list,
                 "file": self._file, "trash": self._trash, "picker": self._picker}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        return [*inert(pages[below.name](below), below.scroll), self._popup(screen)]

    def _bar(self, title: str, actions: list[tuple[str, str, tuple]], back: bool = True,
             close: bool = False) -> View:
        """The app bar: Navigate up (or Close selection), the title, action buttons (desc, icon, event)."""
        y0, y1 = CONTENT_TOP, CONTENT_TOP + TOOLBAR_H
        kids = [View(IMAGE_BUTTON, (0, y0, TOOLBAR_H, y1), desc="Close" if close else "Navigate up", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("unselect",) if close else NavKey("back"),
                     icon="close" if close else "back")] if back else []
        left = TOOLBAR_H if back else MARGIN
        kids.append(View(TEXT_VIEW, (left, y0, WIDTH - TOOLBAR_H * len(actions), y1), text=title,
                         rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"))
        kids += [View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, y0, WIDTH - i * TOOLBAR_H, y1), desc=desc,
                      package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon=icon)
                 for i, (desc, icon, event) in enumerate(actions)]
        return View(FRAME, (0, y0, WIDTH, y1), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar",
                    children=kids)

    def _home(self, screen: Screen) -> list[View]:
        y = CONTENT_TOP + TOOLBAR_H
        rows: list[View] = []
        for section, entries in (("Categories", [(c, f"{self._count(c)} files", ("category", c), "library")
                                                 for c in CATEGORIES]),
                                 ("Storage devices", [(ROOT_LABEL, f"{len(self.files)} files", ("storage",),
                                                       "storage")]),
                                 ("Collections", [("Trash", f"{len(self.trash)} files", ("trash",), "delete")])):
            rows.append(_text((MARGIN, y, WIDTH - MARGIN, y + 90), section, "section"))
            y += 90
            for title, summary, event, icon in entries:
                rows.append(_row(y, title, summary, event, icon, desc=title))
                y += ROW_H
        return [self._bar("Files", [("Search", "search", ("search",))], back=False),
                scroll_list(CONTENT_TOP + TOOLBAR_H, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/browse_list")]

    def _count(self, category: str) -> int:
        return sum(in_category(p, category) for p in self.files)

    def _list(self, screen: Screen) -> list[View]:
        selected = screen.args["selected"]
        top = CONTENT_TOP + TOOLBAR_H
        if selected is not None:
            head = [self._bar(f"{len(selected)} selected", [("More options", "more", ("overflow", "selection")),
                                                          ("Move to Trash", "delete", ("trash", tuple(selected)))],
                              close=True)]
        elif screen.name == "search":
            head = [text_field((MARGIN, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), SEARCH_RID,
                               screen.fields.get(SEARCH_RID, ""), "Search files", screen.focus == SEARCH_RID,
                               PACKAGE, icon="search")]
        else:
            title = screen.args["name"] if screen.name == "category" else base(screen.args["path"]) or ROOT_LABEL
            kind = "list" if screen.name == "folder" else "view"
            head = [self._bar(title, [("More options", "more", ("overflow", kind)),
                                      ("Sort", "sort", ("sort",))])]
        if screen.name == "folder":
            head.append(_text((MARGIN, top, WIDTH - MARGIN, top + 90), crumbs(screen.args["path"]), "secondary",
                              "path_bar"))
            top += 90
        rows = [self._file_row(top + i * ROW_H, p, selected, screen.name != "folder")
                for i, p in enumerate(self.listing(screen))]
        empty = "No results" if screen.name == "search" else "No files here"
        rows = rows or [_text((MARGIN, top + 60, WIDTH - MARGIN, top + 180), empty, "hint")]
        return [*head, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _file_row(self, y: int, path: str, selected: list[str] | None, where: bool) -> View:
        if path in self.folders:
            n = sum(parent(p) == path for p in [*self.folders, *self.files])
            return _row(y, base(path), f"{n} item" + ("" if n == 1 else "s"), ("open", path), "library")
        f = self.files[path]
        summary = f"{size_label(f['size_kb'])} \u00b7 {date_label(f['date'])}" + (f" \u00b7 {parent(path)}"
                                                                                 if where else "")
        row = _row(y, base(path), summary, ("open", path), "image" if ext_of(path) in KINDS["Images"] else "font")
        if selected is None:
            row.children.append(_more(y, base(path), ("more", path)))
        else:
            row.children.append(View("android.widget.CheckBox", (WIDTH - 170, y + 40, WIDTH - 30, y + 160),
                                     desc=f"Select {base(path)}", package=PACKAGE, checkable=True,
                                     checked=path in selected, clickable=True, focusable=True,
                                     on_tap=("open", path), style="checkbox"))
            row.selected = path in selected
        return row

    def _file(self, screen: Screen) -> list[View]:
        path, top = screen.args["path"], CONTENT_TOP + TOOLBAR_H
        f = self.files[path]
        return [self._bar(base(path), [("File info", "info", ("info", path)),
                                       ("Delete", "delete", ("trash", (path,)))]),
                View(IMAGE_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 1040), desc=base(path), package=PACKAGE,
                     rid=f"{PACKAGE}:id/preview", style="image"),
                _text((MARGIN, top + 1080, WIDTH - MARGIN, top + 1180),
                      f"{size_label(f['size_kb'])} \u00b7 {date_label(f['date'])}", "secondary", "file_details")]

    def _trash(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        note = _text((MARGIN, top, WIDTH - MARGIN, top + 110), "Items in Trash are deleted forever after 30 days",
                     "secondary")
        rows = []
        for i, t in enumerate(self.trash):
            y = top + 110 + i * ROW_H
            row = _row(y, base(t["path"]), f"{size_label(t['size_kb'])} \u00b7 from {crumbs(parent(t['path']))}",
                       ("more_trash", i), "delete")
            row.children.append(_more(y, base(t["path"]), ("more_trash", i)))
            rows.append(row)
        rows = rows or [_text((MARGIN, top + 170, WIDTH - MARGIN, top + 290), "Trash is empty", "hint")]
        return [self._bar("Trash", []), note, scroll_list(top + 110, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _picker(self, screen: Screen) -> list[View]:
        args, top = screen.args, CONTENT_TOP + TOOLBAR_H
        n, verb = len(args["paths"]), "Move" if args["op"] == "move" else "Copy"
        head = [self._bar(f"{verb} {n} item{'' if n == 1 else 's'} to", []),
                _text((MARGIN, top, WIDTH - MARGIN, top + 90), crumbs(args["folder"]), "secondary", "path_bar")]
        subs = subfolders(self.folders, args["folder"])
        rows = [_row(top + 90 + i * ROW_H, base(f), crumbs(f), ("enter", f), "library") for i, f in enumerate(subs)]
        rows = rows or [_text((MARGIN, top + 150, WIDTH - MARGIN, top + 270), "No folders here", "hint")]
        y = CONTENT_BOTTOM - 200
        bar = [View(BUTTON, (MARGIN, y + 30, 500, y + 170), text="New folder", package=PACKAGE, clickable=True,
                    focusable=True, on_tap=("new_folder",), style="outlined_button"),
               View(BUTTON, (580, y + 30, WIDTH - MARGIN, y + 170), text=f"{verb} here", package=PACKAGE,
                    rid=f"{PACKAGE}:id/action_button", clickable=True, focusable=True, on_tap=("here",),
                    style="button")]
        return [*head, scroll_list(top + 90, y, PACKAGE, rows, rid=f"{PACKAGE}:id/folder_list"), *bar]

    def _popup(self, screen: Screen) -> View:
        args, cancel = screen.args, ("Cancel", ("cancel",), True)
        match screen.name:
            case "menu":
                target = args["index"] if args["kind"] == "trash" else args["path"]
                return popup_menu(PACKAGE, [(label, ("item", label, target)) for label in MENUS[args["kind"]]],
                                  ("cancel",))
            case "confirm":
                n, trash = len(args["paths"]), args["kind"] == "trash"
                files = f"{n} file{'' if n == 1 else 's'}"
                title, ok = (f"Move {files} to Trash?", "Move to Trash") if trash else (f"Delete {files} forever?",
                                                                                        "Delete")
                message = "You can restore it from Trash for 30 days." if trash else "This can\u2019t be undone."
                return alert_dialog(PACKAGE, title, message, [("Cancel", ("cancel",)), (ok, ("ok",))], ("cancel",))
            case "info":
                f, y = self.files[args["path"]], dialog_body_top(560)
                rows = (("Name", base(args["path"]), "name"), ("Size", size_label(f["size_kb"]), "size"),
                        ("Modified", date_label(f["date"]), "date"),
                        ("Path", "/storage/emulated/0/" + args["path"], "path"))
                body = [v for i, (label, value, rid) in enumerate(rows) for v in (
                    _text((150, y + i * 150, WIDTH - 150, y + i * 150 + 60), label, "secondary"),
                    _text((150, y + i * 150 + 60, WIDTH - 150, y + i * 150 + 140), value, "", f"info_{rid}"))]
                return app_dialog(PACKAGE, "File info", body, [("Close", ("cancel",), True)])
            case "sort":
                y = dialog_body_top(560)
                body = [View("android.widget.RadioButton", (150, y + i * 130, WIDTH - 150, y + (i + 1) * 130),
                             text=label, package=PACKAGE, clickable=True, focusable=True, checkable=True,
                             checked=key == self.sort, on_tap=("sort_by", key), style="radio")
                        for i, (key, label) in enumerate(SORTS.items())]
                return app_dialog(PACKAGE, "Sort by", body, [cancel])
        y = dialog_body_top(560)
        ext = ext_of(args["path"]) if screen.name == "rename" else ""
        right = WIDTH - 150 - (130 if screen.name == "rename" else 0) - (170 if ext else 0)
        body = [text_field((150, y, right, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""),
                           "Name" if screen.name == "rename" else "Folder name", screen.focus == NAME_RID, PACKAGE)]
        if screen.name == "rename":
            body.append(View(IMAGE_BUTTON, (right, y + 12, right + 120, y + 132), desc="Clear text", package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("clear",), icon="close"))
            if ext:
                body.append(_text((right + 130, y, WIDTH - 150, y + 144), f".{ext}", "", "extension"))
        if args["error"]:
            body.append(_text((150, y + 150, WIDTH - 150, y + 220), args["error"], "hint", "textinput_error"))
        title, ok = ("Rename", "OK") if screen.name == "rename" else ("New folder", "Create")
        return app_dialog(PACKAGE, title, body, [cancel, (ok, ("ok",), True)])

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Rows, toolbar actions, menu items, dialog buttons and the picker."""
        match event:
            case ("cancel",):
                return self.phone.pop()
            case ("category", name):
                return self._push("category", {"name": name, "selected": None})
            case ("storage",):
                return self._push("folder", {"path": "", "selected": None})
            case ("trash",):
                return self._push("trash", {})
            case ("search",):
                return self._push("search", {"selected": None}, SEARCH_RID)
            case ("trash", paths):
                return self._push("confirm", {"kind": "trash", "paths": list(paths), "index": None})
            case ("open", path):
                return self._open(path, screen)
            case ("unselect",):
                screen.args["selected"] = None
                return True
            case ("more", path):
                return self._push("menu", {"kind": "file", "path": path, "index": None})
            case ("more_trash", index):
                return self._push("menu", {"kind": "trash", "path": None, "index": index})
            case ("overflow", kind):
                return self._push("menu", {"kind": kind, "path": None, "index": None})
            case ("sort",):
                return self._push("sort", {})
            case ("sort_by", key):
                self.sort = key
                return self.phone.pop()
            case ("info", path):
                self.last_opened = path
                return self._push("info", {"path": path})
            case ("item", label, target):
                return self._item(label, target)
        return self._dialog_event(event, screen)

    def _open(self, path: str, screen: Screen) -> bool:
        selected = screen.args.get("selected")
        if path in self.folders:
            return selected is None and self._push("folder", {"path": path, "selected": None})
        if selected is not None:  # selection mode: a tap toggles the row
            screen.args["selected"] = [p for p in selected if p != path] + ([] if path in selected else [path]) or None
            return True
        self.last_opened = path
        if ext_of(path) == "html":  # Files shows no web page: Android asks which app opens it
            return self._push("menu", {"kind": "open_with", "path": path, "index": None})
        return self._push("file", {"path": path, "category": screen.args.get("name")})

    def _push(self, name: str, args: dict[str, Any], field: str | None = None, text: str = "") -> bool:
        """Open screen `name`; its field `field` (if any) holds `text` and has the focus (the keyboard up)."""
        return self.phone.push(Screen(PACKAGE, name, args, {field: text} if field else {}, focus=field))

    def _list_screen(self) -> Screen:
        """The list screen under the front pop-up."""
        return next(s for s in reversed(self.phone.screens(PACKAGE)) if s.name in ("category", "folder", "search"))

    def _item(self, label: str, target: Any) -> bool:
        """A More options menu item: the menu closes and its action begins."""
        self.phone.pop()
        if label == "Chrome":
            return self.phone.find_app("Chrome").on_intent(Intent(ACTION_VIEW, f"file:///sdcard/{target}"))
        if label in ("Restore", "Delete forever"):
            if label == "Delete forever":
                return self._push("confirm", {"kind": "delete", "index": target, "paths": [self.trash[target]["path"]]})
            self._restore(target)
            return True
        if label == "New folder":
            return self._push("mkdir", {"parent": self._list_screen().args["path"], "error": ""}, NAME_RID)
        if label in ("Select", "Select all"):
            lst = self._list_screen()
            lst.args["selected"] = [target] if label == "Select" else [p for p in self.listing(lst)
                                                                         if p in self.files] or None
            return True
        paths = [target] if target is not None else list(self._list_screen().args["selected"] or [])
        if label == "Rename":
            return self._push("rename", {"path": target, "error": ""}, NAME_RID, stem(base(target)))
        if label in ("Move to", "Copy to"):
            op = "move" if label == "Move to" else "copy"
            return self._push("picker", {"op": op, "paths": paths, "folder": ""})
        if label == "Move to Trash":
            return self._push("confirm", {"kind": "trash", "paths": paths, "index": None})
        self.last_opened = target
        return self._push("info", {"path": target})

    def _dialog_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("clear",):
                screen.fields[NAME_RID], screen.focus = "", NAME_RID
                return True
            case ("enter", folder):
                args["folder"], screen.scroll = folder, 0
                return True
            case ("new_folder",):
                return self._push("mkdir", {"parent": args["folder"], "error": ""}, NAME_RID)
            case ("here",):
                self._relocate(args["op"], args["paths"], args["folder"])
                return self.phone.pop()
            case ("ok",) if screen.name == "confirm":
                self.phone.pop()
                if args["kind"] == "delete":
                    gone = self.trash.pop(args["index"])
                    self.edits.append({"op": "delete", "path": gone["path"]})
                    return True
                for path in args["paths"]:
                    self.trash.append({"path": path, **self.files.pop(path)})
                    self.edits.append({"op": "trash", "path": path})
                self._leave_gone()
                return True
            case ("ok",) if screen.name in ("rename", "mkdir"):
                return self._name_ok(screen)
        return False

    def _name_ok(self, screen: Screen) -> bool:
        """Rename or New folder's OK: do it, or show why not."""
        args, name = screen.args, screen.fields.get(NAME_RID, "").strip()
        folder = parent(args["path"]) if screen.name == "rename" else args["parent"]
        if screen.name == "rename":
            ext = ext_of(args["path"])  # the dialog edits the stem: the extension is kept
            name = f"{name}.{ext}" if ext and name and not name.lower().endswith(f".{ext}") else name
            if name == base(args["path"]):
                return self.phone.pop()
        args["error"] = ("Enter a name" if not stem(name) else "Names can\u2019t contain /" if "/" in name
                         else "A file with this name already exists"
                         if join(folder, name) in self.files or join(folder, name) in self.folders else "")
        if args["error"]:
            return True
        self.phone.pop()
        dest = join(folder, name)
        if screen.name == "mkdir":
            self.folders.add(dest)
            self.edits.append({"op": "mkdir", "path": dest})
            below = self.phone.top
            if below.name == "picker":  # Files opens the new folder in the picker
                below.args["folder"], below.scroll = dest, 0
            return True
        self.files[dest] = self.files.pop(args["path"])
        self.edits.append({"op": "rename", "path": args["path"], "to": dest})
        self._leave_gone()
        return True

    def _relocate(self, op: str, paths: list[str], folder: str) -> None:
        for path in paths:
            if path not in self.files or (op == "move" and parent(path) == folder):
                continue
            dest = free_path(self.files, self.folders, folder, base(path))
            if op == "move":
                self.files[dest] = self.files.pop(path)
            else:
                self.files[dest] = {"size_kb": self.files[path]["size_kb"], "date": iso(0)}
            self.edits.append({"op": op, "path": path, "to": dest})
        self._leave_gone()
        for s in self.phone.screens(PACKAGE):
            if "selected" in s.args:
                s.args["selected"] = None

    def _restore(self, index: int) -> None:
        item = self.trash.pop(index)
        mkdirs(self.folders, parent(item["path"]))
        dest = free_path(self.files, self.folders, parent(item["path"]), base(item["path"]))
        self.files[dest] = {"size_kb": item["size_kb"], "date": item["date"]}
        self.edits.append({"op": "restore", "path": dest})

    def _leave_gone(self) -> None:
        """Close the pages of files that no longer exist and drop them from selections."""
        while self.phone.top.name in ("file", "info") and self.phone.top.args["path"] not in self.files:
            self.phone.pop()
        for s in self.phone.screens(PACKAGE):
            if s.args.get("selected"):
                s.args["selected"] = [p for p in s.args["selected"] if p in self.files] or None

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER: OK in a name dialog; the search list filters as one types."""
        return self._dialog_event(("ok",), screen) if rid == NAME_RID else False

    def on_back(self, screen: Screen) -> bool:
        """BACK leaves selection mode before the list, and goes up a folder in the picker before closing it."""
        if screen.args.get("selected") is not None:
            screen.args["selected"] = None
            return True
        if screen.name == "picker" and screen.args["folder"]:
            screen.args["folder"], screen.scroll = parent(screen.args["folder"]), 0
            return True
        return False


def _text(bounds: tuple[int, int, int, int], text: str, style: str, rid: str = "") -> View:
    """A label (`rid`: its id's name)."""
    return View(TEXT_VIEW, bounds, text=text, rid=f"{PACKAGE}:id/{rid}" if rid else "", package=PACKAGE, style=style)


def _more(y: int, name: str, event: tuple) -> View:
    """A row's More options button."""
    return View(IMAGE_BUTTON, (WIDTH - 170, y + 40, WIDTH - 30, y + 160), desc=f"More options for {name}",
                package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon="more")


def _row(y: int, title: str, summary: str, event: tuple, icon: str, desc: str = "") -> View:
    """A list row: an icon, the name and a summary line."""
    return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=desc, rid=f"{PACKAGE}:id/item_root", package=PACKAGE,
                clickable=True, focusable=True, on_tap=event, style="row", children=[
                    View(IMAGE_VIEW, (MARGIN, y + 50, MARGIN + 100, y + 150), package=PACKAGE, icon=icon),
                    View(TEXT_VIEW, (MARGIN + 140, y + 30, WIDTH - 200, y + 115), text=title, rid=TITLE_RID,
                         package=PACKAGE, style="row_title"),
                    View(TEXT_VIEW, (MARGIN + 140, y + 115, WIDTH - 200, y + 180), text=summary, rid=DETAILS_RID,
                         package=PACKAGE, style="row_summary")])
