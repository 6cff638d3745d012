"""The Joplin notes app (net.cozic.joplin): notebooks, notes with a title and a markdown body, to-dos with a done
checkbox, checklists in bodies, search, and notes created, edited, converted, moved and deleted.

The notebooks and notes are drawn per episode from `stable_seed("joplin", phone.seed)` (never from the episode RNG;
`joplin_data.seeded_notes`). A list shows its notes as Joplin does by default: open to-dos on top, then the most
recently updated first.

Screens: "notes" (args {"folder": the notebook shown, None for "All notes"; "fab": whether the add button is open on
"New to-do" and "New note"}), "sidebar" (the drawer over the list: "All notes" and the notebooks), "search" (the query
in fields[SEARCH_RID]; notes whose title or body holds it, as one types), "note" (args {"id", "menu"}: the note read,
its notebook above it (tap to move it), its to-do checkbox, its body line by line with checklist items as checkboxes
that tick; Edit, and More options: "Convert to to-do"/"Convert to note", "Delete"), "edit" (args {"id": the note or
None for a new one, "folder", "is_todo"}: the Title and body fields; Save, or BACK, which saves as Joplin's autosave
does: an empty new note is dropped), "move" (args {"id"}: the notebooks to move the note to) and "delete" (args {"id"}:
"Delete note?").
"""  # noqa: D205

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.apps.joplin_data import (
    CHECK_ITEM,
    EditAction,
    EditState,
    JoplinInitial,
    JoplinState,
    NoteSpec,
    NoteState,
    Page,
    checklist,
    seeded_notes,
)
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "net.cozic.joplin"
CHECKBOX = "android.widget.CheckBox"
FAB_DESC, SIDEBAR_DESC, SEARCH_DESC = "Add", "Open sidebar", "Search"
ROW_RID, ROW_TITLE_RID, ROW_CHECK_RID = (f"{PACKAGE}:id/{n}" for n in ("note_item", "note_title", "todo_checkbox"))
FOLDER_RID = f"{PACKAGE}:id/folder_item"
NOTEBOOK_RID = f"{PACKAGE}:id/note_folder"
VIEW_TITLE_RID, BODY_RID, ITEM_RID, DONE_RID = (f"{PACKAGE}:id/{n}" for n in ("note_view_title", "note_body_line",
                                                                              "checklist_item", "note_todo_done"))
TITLE_INPUT_RID, BODY_INPUT_RID, SEARCH_RID = (f"{PACKAGE}:id/{n}" for n in ("title_input", "body_input",
                                                                            "search_input"))
ALL_NOTES = "All notes"
ROW_H, LINE_H, CHARS_PER_LINE = 150, 80, 42
UNTITLED = "Untitled"
__all__ = ["EditAction", "EditState", "JoplinApp", "JoplinInitial", "JoplinState", "NoteSpec", "NoteState", "Page",
           "checklist"]

def line_height(text: str) -> int:
    """The height in pixels of a body line that wraps at `CHARS_PER_LINE` characters.

    >>> line_height("short"), line_height("x" * 90)
    (80, 240)
    """
    return LINE_H * max(1, -(-len(text) // CHARS_PER_LINE))


class JoplinApp(App):
    """Joplin: notebooks in a sidebar, notes and to-dos listed, read, searched, written, moved and deleted."""

    package = PACKAGE
    label = "Joplin"
    icon = "notes"
    aliases = ("joplin app", "Joplin notes")
    state_schema = JoplinState
    initial_model = JoplinInitial

    def reset(self) -> None:
        """The episode's seeded notebooks and notes, nothing changed."""
        folders, notes = seeded_notes(self.phone.seed)
        self.folders: list[str] = folders
        self.notes: dict[int, dict[str, Any]] = {i: {**n, "updated": i} for i, n in enumerate(notes)}
        self.clock = len(self.notes)  # update order: a saved or ticked note goes to the top of its list
        self.edits: list[dict[str, Any]] = []
        self.last_opened: int | None = None

    def set_up(self, initial: JoplinInitial) -> None:
        """Clear, remove the `absent` notes, add the notebooks and notes."""
        if initial.clear:
            self.folders, self.notes = [], {}
        gone = set(initial.absent)
        self.notes = {i: n for i, n in self.notes.items() if n["title"] not in gone}
        for name in initial.folders:
            self._folder(name)
        for spec in initial.notes:
            self._folder(spec.folder)
            self.notes[self._tick()] = {**spec.to_data(), "updated": self.clock}

    def _folder(self, name: str) -> None:
        if name not in self.folders:
            self.folders.append(name)

    def _tick(self) -> int:
        """The next update stamp (also a fresh note's id: both only grow)."""
        self.clock += 1
        return self.clock

    def home(self) -> Screen:
        """All notes."""
        return Screen(PACKAGE, "notes", {"folder": None, "fab": False})

    # -- the model ----------------------------------------------------------------------------------------------------
    def listing(self, folder: str | None) -> list[int]:
        """The ids of notebook `folder`'s notes (None: all), as the list shows them."""
        ids = [i for i, n in self.notes.items() if folder is None or n["folder"] == folder]
        return sorted(ids, key=lambda i: (not (self.notes[i]["is_todo"] and not self.notes[i]["todo_completed"]),
                                          -self.notes[i]["updated"], -i))

    def matches(self, query: str) -> list[int]:
        """The ids of the notes whose title or body holds `query` (case ignored), as "All notes" lists them."""
        q = query.strip().lower()
        if not q:
            return []
        return [i for i in self.listing(None) if q in self.notes[i]["title"].lower() or q in
                self.notes[i]["body"].lower()]

    def _log(self, i: int, action: EditAction) -> None:
        self.edits.append({"id": i, "title": self.notes[i]["title"], "action": action})

    def _toggle(self, i: int) -> bool:
        n = self.notes.get(i)
        if n is None or not n["is_todo"]:
            return False
        n["todo_completed"] = not n["todo_completed"]
        n["updated"] = self._tick()
        self._log(i, "completed" if n["todo_completed"] else "reopened")
        return True

    def state(self) -> JoplinState:
        """The notebooks, the notes and what changed since set-up (see `JoplinState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        listed = next((s for s in reversed(mine) if s.name == "notes"), None)
        opened = next((s.args["id"] for s in reversed(mine) if s.name in ("note", "edit", "move", "delete")), None)
        return {"folders": list(self.folders),
                "notes": [{"id": i, **{k: v for k, v in self.notes[i].items() if k != "updated"}}
                          for i in self.listing(None)],
                "screen": front.name if front else None,
                "folder": listed.args["folder"] if listed else None,
                "open": opened if opened in self.notes else None,
                "query": front.fields.get(SEARCH_RID, "") if front and front.name == "search" else None,
                "last_opened": self.last_opened, "edits": [dict(e) for e in self.edits]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or an overlay (sidebar, dialog) over the inert page below it."""
        pages = {"notes": self._list, "note": self._note, "edit": self._edit, "search": self._search}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        overlay = {"sidebar": self._sidebar, "move": self._move, "delete": self._delete}[screen.name]
        return [*under, overlay(screen)]

    def _bar(self, title: str, left: View | None, actions: list[tuple[str, str, tuple]]) -> View:
        """The header: a left button (the sidebar's, or Navigate up), the title, icon actions from the right."""
        b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        kids = [left] if left is not None else []
        x = TOOLBAR_H if left is not None else MARGIN
        kids.append(View(TEXT_VIEW, (x, b[1], WIDTH - TOOLBAR_H * len(actions), b[3]), text=title,
                         rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"))
        for k, (desc, icon, event) in enumerate(actions):
            kids.append(View(IMAGE_BUTTON, (WIDTH - (k + 1) * TOOLBAR_H, b[1], WIDTH - k * TOOLBAR_H, b[3]),
                             desc=desc, package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon=icon))
        return View(FRAME, b, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=kids)

    @staticmethod
    def _left(desc: str, icon: str, event: Any) -> View:
        return View(IMAGE_BUTTON, (0, CONTENT_TOP, TOOLBAR_H, CONTENT_TOP + TOOLBAR_H), desc=desc, package=PACKAGE,
                    clickable=True, focusable=True, on_tap=event, icon=icon)

    def _rows(self, ids: list[int], top: int, scroll: int, snippet: bool = False) -> list[View]:
        """Rows of notes from `top`, only those near the visible window built, and a spacer that keeps the list's
        full height (with room to scroll the last row clear of the add button)."""  # noqa: D205, D209
        rows = []
        for k, i in enumerate(ids):
            y = top + k * ROW_H
            if not scroll - HEIGHT <= y - top <= scroll + HEIGHT:
                continue
            n = self.notes[i]
            kids = []
            x = MARGIN
            if n["is_todo"]:
                kids.append(View(CHECKBOX, (MARGIN, y + 30, MARGIN + 90, y + 120), rid=ROW_CHECK_RID, package=PACKAGE,
                                 clickable=True, focusable=True, checkable=True, checked=n["todo_completed"],
                                 on_tap=("check", i), style="check"))
                x += 120
            title_bottom = y + 95 if snippet else y + ROW_H - 30
            kids.append(View(TEXT_VIEW, (x, y + 30, WIDTH - MARGIN, title_bottom), text=n["title"] or UNTITLED,
                             rid=ROW_TITLE_RID, package=PACKAGE, style="row_title"))
            if snippet:
                first = next((line.strip() for line in n["body"].split("\n") if line.strip()), "")
                kids.append(View(TEXT_VIEW, (x, y + 95, WIDTH - MARGIN, y + ROW_H - 10), text=first[:60],
                                 rid=f"{PACKAGE}:id/note_snippet", package=PACKAGE, style="row_summary"))
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True,
                             focusable=True, on_tap=("open", i), style="row", children=kids))
        end = top + len(ids) * ROW_H
        rows.append(View(VIEW, (0, end, WIDTH, end + 300), package=PACKAGE))
        return rows

    def _list(self, screen: Screen) -> list[View]:
        folder, top = screen.args["folder"], CONTENT_TOP + TOOLBAR_H
        ids = self.listing(folder)
        views = [self._bar(folder or ALL_NOTES, self._left(SIDEBAR_DESC, "menu", ("sidebar",)),
                           [(SEARCH_DESC, "search", ("search",))])]
        if ids:
            views.append(scroll_list(top, CONTENT_BOTTOM, PACKAGE, self._rows(ids, top, screen.scroll),
                                     rid=f"{PACKAGE}:id/notes_list"))
        else:
            views.append(View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 480),
                              text="There are currently no notes. Create one by clicking on the (+) button.",
                              package=PACKAGE, style="hint"))
        x0, y0 = WIDTH - 260, CONTENT_BOTTOM - 260
        if screen.args["fab"]:
            for k, (label, todo) in enumerate((("New to-do", True), ("New note", False))):
                y = y0 - 170 * (2 - k)
                views.append(View(BUTTON, (WIDTH - 520, y, WIDTH - 40, y + 140), text=label, package=PACKAGE,
                                  clickable=True, focusable=True, on_tap=("new", todo), style="chip"))
        views.append(View(IMAGE_BUTTON, (x0, y0, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                          rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True, on_tap=("fab",),
                          style="fab", icon="close" if screen.args["fab"] else "add"))
        return views

    def _sidebar(self, screen: Screen) -> View:
        current = self.phone.screens(PACKAGE)[-2].args["folder"]
        y, kids = CONTENT_TOP + 40, []
        entries = [(ALL_NOTES, None), *((name, name) for name in self.folders)]
        for k, (label, folder) in enumerate(entries):
            if k == 1:
                kids.append(View(TEXT_VIEW, (MARGIN, y, 780, y + 100), text="NOTEBOOKS", package=PACKAGE,
                                 style="secondary"))
                y += 100
            kids.append(View(TEXT_VIEW, (0, y, 820, y + 130), text=label, rid=FOLDER_RID, package=PACKAGE,
                             clickable=True, focusable=True, selected=folder == current, on_tap=("folder", folder),
                             style="row"))
            y += 130
        drawer = View(FRAME, (0, CONTENT_TOP, 820, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/side_menu", package=PACKAGE,
                      clickable=True, style="dialog", children=kids)
        return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, clickable=True,
                    on_tap=("cancel",), style="scrim", children=[drawer])

    def _search(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        query = screen.fields.get(SEARCH_RID, "")
        field = text_field((TOOLBAR_H, CONTENT_TOP + 14, WIDTH - MARGIN, CONTENT_TOP + TOOLBAR_H - 14), SEARCH_RID,
                           query, "Search...", screen.focus == SEARCH_RID, PACKAGE, icon="search")
        bar = View(FRAME, (0, CONTENT_TOP, WIDTH, top), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE,
                   style="toolbar", children=[self._left("Navigate up", "back", NavKey("back")), field])
        ids = self.matches(query)
        if not ids:
            hint = "No results" if query.strip() else ""
            return [bar, View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 300), text=hint, package=PACKAGE,
                              style="hint")]
        return [bar, scroll_list(top, CONTENT_BOTTOM, PACKAGE, self._rows(ids, top, screen.scroll, snippet=True),
                                 rid=f"{PACKAGE}:id/search_results")]

    def _note(self, screen: Screen) -> list[View]:
        i, top = screen.args["id"], CONTENT_TOP + TOOLBAR_H
        n = self.notes.get(i)
        if n is None:  # only while a screen outlives its note; never on top
            return [self._bar("", self._left("Navigate up", "back", NavKey("back")), [])]
        bar = self._bar("", self._left("Navigate up", "back", NavKey("back")),
                        [("More options", "more", ("menu", True)), ("Edit", "edit", ("edit",))])
        folder = View(TEXT_VIEW, (MARGIN, top + 10, WIDTH - MARGIN, top + 110), text=n["folder"], desc="Notebook",
                      rid=NOTEBOOK_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("move",),
                      style="chip", icon="folder")
        y = top + 130
        rows = []
        x = MARGIN
        if n["is_todo"]:
            rows.append(View(CHECKBOX, (MARGIN, y + 25, MARGIN + 100, y + 125), desc="Done", rid=DONE_RID,
                             package=PACKAGE, clickable=True, focusable=True, checkable=True,
                             checked=n["todo_completed"], on_tap=("check", i), style="check"))
            x += 130
        rows.append(View(TEXT_VIEW, (x, y, WIDTH - MARGIN, y + 150), text=n["title"] or UNTITLED,
                         rid=VIEW_TITLE_RID, package=PACKAGE, style="title"))
        y += 170
        for k, line in enumerate(n["body"].split("\n")):
            item = CHECK_ITEM.match(line)
            if item is not None:
                h = line_height(item.group(2))
                rows.append(View(CHECKBOX, (MARGIN, y, WIDTH - MARGIN, y + max(h, 100)), text=item.group(2),
                                 rid=ITEM_RID, package=PACKAGE, clickable=True, focusable=True, checkable=True,
                                 checked=item.group(1) != " ", on_tap=("tick", i, k), style="check"))
                y += max(h, 100)
            elif line.strip():
                h = line_height(line)
                rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + h), text=line.strip(), rid=BODY_RID,
                                 package=PACKAGE, style="row_summary"))
                y += h
            else:
                y += LINE_H // 2
        rows.append(View(VIEW, (0, y, WIDTH, y + 200), package=PACKAGE))
        views = [bar, folder, scroll_list(top + 120, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/note_body")]
        if screen.args["menu"]:
            convert = "Convert to note" if n["is_todo"] else "Convert to to-do"
            views.append(popup_menu(PACKAGE, [(convert, ("convert",)), ("Delete", ("ask_delete",))], ("menu", False)))
        return views

    def _edit(self, screen: Screen) -> list[View]:
        args, f, top = screen.args, screen.fields, CONTENT_TOP + TOOLBAR_H
        title = "Edit" if args["id"] is not None else "New to-do" if args["is_todo"] else "New note"
        views = [self._bar(title, self._left("Navigate up", "back", NavKey("back")), [("Save", "check", ("save",))]),
                 View(TEXT_VIEW, (MARGIN, top + 10, WIDTH - MARGIN, top + 90), text=args["folder"],
                      rid=NOTEBOOK_RID, package=PACKAGE, style="secondary"),
                 text_field((MARGIN, top + 100, WIDTH - MARGIN, top + 244), TITLE_INPUT_RID, f.get(TITLE_INPUT_RID, ""),
                            "Title", screen.focus == TITLE_INPUT_RID, PACKAGE),
                 text_field((MARGIN, top + 270, WIDTH - MARGIN, CONTENT_BOTTOM - 40), BODY_INPUT_RID,
                            f.get(BODY_INPUT_RID, ""), "Type your note here", screen.focus == BODY_INPUT_RID, PACKAGE)]
        return views

    def _move(self, screen: Screen) -> View:
        current = self.notes[screen.args["id"]]["folder"]
        y = dialog_body_top(400)
        rows = [View("android.widget.RadioButton", (150, y + k * 125, WIDTH - 150, y + (k + 1) * 125), text=name,
                     package=PACKAGE, clickable=True, focusable=True, checkable=True, checked=name == current,
                     on_tap=("pick", name), style="radio") for k, name in enumerate(self.folders)]
        return app_dialog(PACKAGE, "Move to notebook", rows, [("Cancel", ("cancel",), True)], top=400)

    def _delete(self, screen: Screen) -> View:
        title = self.notes[screen.args["id"]]["title"] or UNTITLED
        return alert_dialog(PACKAGE, "Delete note?", f"\u201c{title}\u201d will be deleted.",
                            [("Cancel", ("cancel",)), ("OK", ("ok",))], ("cancel",))

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:  # noqa: C901 - one case per control, as the screens
        """The list's controls, the sidebar, search results, the note's controls and menu, the editor, the dialogs."""
        match screen.name, event:
            case _, ("cancel",):
                return self.phone.pop()
            case "notes", ("sidebar",):
                screen.args["fab"] = False
                return self.phone.push(Screen(PACKAGE, "sidebar"))
            case "notes", ("search",):
                screen.args["fab"] = False
                return self.phone.push(Screen(PACKAGE, "search", focus=SEARCH_RID))
            case "notes", ("fab",):
                screen.args["fab"] = not screen.args["fab"]
                return True
            case "notes", ("new", todo):
                screen.args["fab"] = False
                folder = screen.args["folder"] or (self.folders[0] if self.folders else None)
                if folder is None:  # no notebook to put it in (Joplin asks for one first)
                    return True
                return self.phone.push(Screen(PACKAGE, "edit", {"id": None, "folder": folder, "is_todo": todo},
                                              {TITLE_INPUT_RID: "", BODY_INPUT_RID: ""}, focus=TITLE_INPUT_RID))
            case "notes" | "search", ("open", i):
                self.last_opened, screen.focus = i, None  # the keyboard goes with the screen it was typing in
                return self.phone.push(Screen(PACKAGE, "note", {"id": i, "menu": False}))
            case "notes" | "note", ("check", i):
                return self._toggle(i)
            case "sidebar", ("folder", folder):
                below = self.phone.screens(PACKAGE)[-2]
                below.args["folder"], below.scroll = folder, 0
                return self.phone.pop()
            case "note", ("menu", is_open):
                screen.args["menu"] = is_open
                return True
            case "note", ("edit",):
                n = self.notes[screen.args["id"]]
                return self.phone.push(Screen(PACKAGE, "edit", {"id": screen.args["id"], "folder": n["folder"],
                                                                "is_todo": n["is_todo"]},
                                              {TITLE_INPUT_RID: n["title"], BODY_INPUT_RID: n["body"]}))
            case "note", ("tick", i, k):
                return self._tick_item(i, k)
            case "note", ("convert",):
                n, screen.args["menu"] = self.notes[screen.args["id"]], False
                n["is_todo"], n["todo_completed"], n["updated"] = not n["is_todo"], False, self._tick()
                self._log(screen.args["id"], "converted")
                return True
            case "note", ("ask_delete",):
                screen.args["menu"] = False
                return self.phone.push(Screen(PACKAGE, "delete", {"id": screen.args["id"]}))
            case "note", ("move",):
                return self.phone.push(Screen(PACKAGE, "move", {"id": screen.args["id"]}))
            case "move", ("pick", folder):
                i = screen.args["id"]
                if self.notes[i]["folder"] != folder:
                    self.notes[i]["folder"], self.notes[i]["updated"] = folder, self._tick()
                    self._log(i, "moved")
                return self.phone.pop()
            case "delete", ("ok",):
                i = screen.args["id"]
                self._log(i, "deleted")
                del self.notes[i]
                self.phone.pop()
                return self.phone.pop()
            case "edit", ("save",):
                return self._save(screen, view=True)
        return False

    def _tick_item(self, i: int, k: int) -> bool:
        """Tick or untick checklist line `k` of note `i` (the viewer's checkboxes edit the markdown)."""
        lines = self.notes[i]["body"].split("\n")
        m = CHECK_ITEM.match(lines[k])
        if m is None:
            return False
        mark = "[ ]" if m.group(1) != " " else "[x]"
        lines[k] = lines[k][:m.start(1) - 1] + mark + lines[k][m.end(1) + 1:]
        self.notes[i]["body"], self.notes[i]["updated"] = "\n".join(lines), self._tick()
        self._log(i, "edited")
        return True

    def _save(self, screen: Screen, view: bool) -> bool:
        """Save the editor: a new note is created (dropped when title and body are empty), a changed one updated;
        then the note is shown (`view`: Save) or the editor closes (BACK)."""  # noqa: D205, D209
        args = screen.args
        title = " ".join(screen.fields.get(TITLE_INPUT_RID, "").split())
        body = screen.fields.get(BODY_INPUT_RID, "").rstrip()
        screen.focus = None
        if args["id"] is None:
            if not title and not body:
                return self.phone.pop()
            i = self._tick()
            self.notes[i] = {"title": title, "body": body, "folder": args["folder"], "is_todo": args["is_todo"],
                             "todo_completed": False, "updated": i}
            self._log(i, "created")
            self.last_opened = i
            if view:
                return self.phone.replace(Screen(PACKAGE, "note", {"id": i, "menu": False}))
            return self.phone.pop()
        n = self.notes[args["id"]]
        if (title, body) != (n["title"], n["body"]):
            n["title"], n["body"], n["updated"] = title, body, self._tick()
            self._log(args["id"], "edited")
        return self.phone.pop()

    def on_back(self, screen: Screen) -> bool:
        """BACK closes the note's menu or the open add button; in the editor it saves (Joplin saves as one types)."""
        if screen.name == "note" and screen.args["menu"]:
            screen.args["menu"] = False
            return True
        if screen.name == "notes" and screen.args["fab"]:
            screen.args["fab"] = False
            return True
        if screen.name == "edit":
            return self._save(screen, view=False)
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the title goes to the body; in the body it starts a new line; in search it closes the keyboard."""
        if rid == TITLE_INPUT_RID:
            screen.focus = BODY_INPUT_RID
            return True
        if rid == BODY_INPUT_RID:
            screen.fields[rid] = screen.fields.get(rid, "") + "\n"
            return True
        return False
