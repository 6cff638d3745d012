"""The Simple Draw Pro app (com.simplemobiletools.draw.pro): a canvas that finger drags draw strokes on, a colour and
a brush size picker, Undo and Redo, Clear, Open file and Save as an image file into a storage folder.

A drag that starts on the canvas is one straight stroke (the sim's swipe: from where the finger goes down to where
it lifts), in the brush's colour and size; its ends are kept in canvas pixels (the canvas's top left is 0, 0).
The app's typed seam (`DrawState`, `DrawInitial`) and the per-episode drawings are in `draw_state`.

Save opens the app's "Save as" dialog, as the real app's: the folder (Path, which opens a folder picker over
Internal storage's folders), the file name without its extension (the field starts on "image_<date>_<n>", with a
Clear text button), and the format (PNG, SVG or JPG) that gives the extension. OK writes "<folder>/<name>.<ext>":
a name with "/" or an empty one is refused, and so is a file that exists unless it is the drawing on the canvas
(opened from Open file or saved before, then it is overwritten). The dialog remembers the last folder saved to.
Saved images go into shared storage too (Files lists them: `FilesApp.save`); the images the app starts with are
its own.

Screens: "main" (the canvas and its tools), the pop-ups over it: "menu" (More options: Open file, Clear), "color"
(the palette), "size" (brush sizes), "save" (args {"error"}; the name in fields[NAME_RID], the folder and format in
args "folder" and "format"), "folder" (the folder picker over "save"); and "open" (the images in storage, newest
first; a tap loads one onto the canvas).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.apps.draw_state import (
    COLORS,
    FORMATS,
    PACKAGE,
    SIZES,
    DrawInitial,
    DrawState,
    color_name,
    seeded_drawings,
    stroke_count_label,
)
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.apps.files_data import DATE, FOLDERS, ROOT_LABEL
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
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

NAME_RID = f"{PACKAGE}:id/save_image_filename"
PATH_RID = f"{PACKAGE}:id/save_image_path"
CANVAS_RID = f"{PACKAGE}:id/my_canvas"
COLOR_RID = f"{PACKAGE}:id/color_picker"
SIZE_RID = f"{PACKAGE}:id/stroke_width_bar"
ROW_RID = f"{PACKAGE}:id/file_item"
ERROR_RID = f"{PACKAGE}:id/save_image_error"
CANVAS_CLS = f"{PACKAGE}.views.MyCanvas"
BAR_H = 220
"""The bottom tool bar's height (colour and brush size), in device pixels."""
CANVAS = (0, CONTENT_TOP + TOOLBAR_H, WIDTH, CONTENT_BOTTOM - BAR_H)
"""The canvas's bounds on screen, in device pixels."""
ROW_H = 200


def default_name(n: int) -> str:
    """The file name the Save dialog proposes for the `n`-th save of a new drawing.

    >>> default_name(1)
    'image_2026_06_10_1'
    """
    return f"image_{DATE:%Y_%m_%d}_{n}"


class DrawApp(App):
    """Simple Draw Pro: draw strokes, pick colour and size, undo, redo, clear, open and save images."""

    package = PACKAGE
    label = "Simple Draw Pro"
    icon = "draw"
    aliases = ("Simple Draw", "Draw", "draw pro", "simpledraw")
    state_schema = DrawState
    initial_model = DrawInitial

    def reset(self) -> None:
        """An empty canvas in black at 8 px, the episode's images in storage, the dialog's folder Pictures."""
        self.files: dict[str, dict[str, Any]] = dict(seeded_drawings(self.phone.seed))
        self.order = list(self.files)  # the order files were written in: the newest of a day lists first
        self.canvas: list[dict[str, int | str]] = []
        self.redo: list[dict[str, int | str]] = []
        self.color, self.width, self.folder = "#000000", 8, "Pictures"
        self.current: str | None = None  # the file the canvas was opened from or last saved to
        self.saved: list[str] = []
        self.saves = 0
        self.browsed = False

    def set_up(self, initial: DrawInitial) -> None:
        """Drop the seeded files (unless `seeded`) and the `absent` ones, add the given drawings, set the brush and
        the dialog's folder."""  # noqa: D205, D209
        if not initial.seeded:
            self.files = {}
        for path in initial.absent:
            self.files.pop(path, None)
        for spec in initial.drawings:
            self.files[spec.path] = spec.content()
        self.order = [p for p in self.order if p in self.files] + [d.path for d in initial.drawings]
        self.color, self.width, self.folder = initial.color, initial.width, initial.folder

    def home(self) -> Screen:
        """The canvas."""
        return Screen(PACKAGE, "main")

    # -- the model ----------------------------------------------------------------------------------------------------
    def listing(self) -> list[str]:
        """The files' paths as Open file lists them: newest first."""
        rank = {p: i for i, p in enumerate(self.order)}
        return sorted(self.files, key=lambda p: (self.files[p]["date"], rank.get(p, -1)), reverse=True)

    def state(self) -> DrawState:
        """The canvas, the brush, the files and what was saved this episode (see `DrawState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        save = next((s for s in reversed(mine) if s.name == "save"), None)
        return {"canvas": [dict(s) for s in self.canvas], "color": self.color, "width": self.width,
                "folder": self.folder,
                "files": [{"path": p, "folder": p.rsplit("/", 1)[0], "name": p.rsplit("/", 1)[1],
                           "format": self.files[p]["format"], "date": self.files[p]["date"],
                           "strokes": [dict(s) for s in self.files[p]["strokes"]]} for p in self.listing()],
                "saved": list(self.saved), "current": self.current, "screen": front.name if front else None,
                "naming": save.fields.get(NAME_RID, "") if save is not None else None, "browsed": self.browsed}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a pop-up over the (inert) page below it."""
        mine = self.phone.screens(PACKAGE)
        at = next((k for k, s in enumerate(mine) if s is screen), None)
        return self._layer([screen] if at is None else mine[: at + 1])

    def _layer(self, stack: list[Screen]) -> list[View]:
        """The views of the last screen of `stack`, over the inert views of those below it (a pop-up's page)."""
        screen = stack[-1]
        if screen.name in ("main", "open") or len(stack) == 1:
            return self._open() if screen.name == "open" else self._main()
        overlay = {"menu": self._menu, "color": self._palette, "size": self._sizes, "save": self._save,
                   "folder": self._folders}[screen.name]
        return [*inert(self._layer(stack[:-1]), stack[-2].scroll), overlay(screen)]

    def _action(self, i: int, desc: str, icon: str, event: tuple, rid: str, enabled: bool = True) -> View:
        """Toolbar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, rid=f"{PACKAGE}:id/{rid}",
                    package=PACKAGE, clickable=True, focusable=True, enabled=enabled, on_tap=event, icon=icon)

    def _main(self) -> list[View]:
        y0 = CANVAS[3]
        views = [toolbar("", PACKAGE, PACKAGE, has_back=False),  # the real app shows its actions alone
                 self._action(3, "Undo", "back", ("undo",), "menu_undo", bool(self.canvas)),
                 self._action(2, "Redo", "forward", ("redo",), "menu_redo", bool(self.redo)),
                 self._action(1, "Save", "check", ("save",), "menu_save"),
                 self._action(0, "More options", "more", ("menu",), "menu_more"),
                 View(CANVAS_CLS, CANVAS, desc=stroke_count_label(len(self.canvas)), rid=CANVAS_RID,
                      package=PACKAGE, style="card"),
                 View(IMAGE_BUTTON, (MARGIN, y0 + 30, MARGIN + 160, y0 + 190), desc="Change color",
                      rid=COLOR_RID, package=PACKAGE, clickable=True, focusable=True,
                      on_tap=("color",), icon="palette"),
                 View(LINEAR, (MARGIN + 220, y0 + 30, WIDTH - MARGIN, y0 + 190), desc="Brush size",
                      rid=SIZE_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("size",),
                      style="row", children=[
                          View(TEXT_VIEW, (MARGIN + 260, y0 + 60, WIDTH - MARGIN, y0 + 160), package=PACKAGE,
                               text=f"{color_name(self.color)} \u00b7 {self.width} px", style="row_title")])]
        return views

    def _menu(self, screen: Screen) -> View:
        return popup_menu(PACKAGE, [("Open file", ("open",)), ("Clear", ("clear",))], ("cancel",))

    def _palette(self, screen: Screen) -> View:
        y, body = dialog_body_top(500), []
        for k, (name, hex_) in enumerate(COLORS.items()):
            x0, y0 = 170 + (k % 4) * 190, y + (k // 4) * 190
            body.append(View(IMAGE_BUTTON, (x0, y0, x0 + 160, y0 + 160), desc=name, text=hex_, package=PACKAGE,
                             clickable=True, focusable=True, checkable=True, checked=hex_ == self.color,
                             on_tap=("pick_color", hex_), rid=f"{PACKAGE}:id/color_swatch", style="chip"))
        return app_dialog(PACKAGE, "Select color", body, [("Cancel", ("cancel",), True)], top=500)

    def _sizes(self, screen: Screen) -> View:
        y = dialog_body_top(500)
        rows = [View("android.widget.RadioButton", (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130),
                     text=f"{size} px", package=PACKAGE, clickable=True, focusable=True, checkable=True,
                     checked=self.width == size, on_tap=("pick_size", size), style="radio")
                for k, size in enumerate(SIZES)]
        return app_dialog(PACKAGE, "Brush size", rows, [("Cancel", ("cancel",), True)], top=500)

    def _save(self, screen: Screen) -> View:
        args, y = screen.args, dialog_body_top(420)
        body = [View(TEXT_VIEW, (150, y, WIDTH - 150, y + 70), text="Path", package=PACKAGE, style="secondary"),
                View(TEXT_VIEW, (150, y + 70, WIDTH - 150, y + 170), text=f"{ROOT_LABEL}/{args['folder']}",
                     rid=PATH_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("pick_folder",),
                     style="link"),
                text_field((150, y + 200, WIDTH - 270, y + 344), NAME_RID, screen.fields.get(NAME_RID, ""),
                           "Filename", screen.focus == NAME_RID, PACKAGE),
                View(IMAGE_BUTTON, (WIDTH - 260, y + 212, WIDTH - 150, y + 332), desc="Clear text", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("clear_name",), icon="close")]
        for k, fmt in enumerate(FORMATS):
            body.append(View("android.widget.RadioButton", (150 + k * 260, y + 370, 390 + k * 260, y + 480),
                             text=fmt.upper(), rid=f"{PACKAGE}:id/save_image_radio_{fmt}", package=PACKAGE,
                             clickable=True, focusable=True, checkable=True, checked=args["format"] == fmt,
                             on_tap=("format", fmt), style="radio"))
        if args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 490, WIDTH - 150, y + 560), text=args["error"], rid=ERROR_RID,
                             package=PACKAGE, style="hint"))
        return app_dialog(PACKAGE, "Save as", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)], top=420)

    def _folders(self, screen: Screen) -> View:
        y = dialog_body_top(420)
        rows = [View(TEXT_VIEW, (150, y + k * 120, WIDTH - 150, y + (k + 1) * 120), text=folder, package=PACKAGE,
                     rid=f"{PACKAGE}:id/folder_item", clickable=True, focusable=True, on_tap=("in_folder", folder),
                     style="row") for k, folder in enumerate(FOLDERS)]
        return app_dialog(PACKAGE, f"Select a folder in {ROOT_LABEL}", rows, [("Cancel", ("cancel",), True)],
                          top=420)

    def _open(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for k, path in enumerate(self.listing()):
            y, f = top + k * ROW_H, self.files[path]
            folder, name = path.rsplit("/", 1)
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True,
                             focusable=True, on_tap=("load", path), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 30, WIDTH - MARGIN, y + 115), text=name,
                                      rid=f"{PACKAGE}:id/file_name", package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN, y + 115, WIDTH - MARGIN, y + 180),
                                      text=f"{ROOT_LABEL}/{folder} \u00b7 {f['date']}",
                                      rid=f"{PACKAGE}:id/file_details", package=PACKAGE, style="row_summary")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No images found",
                         package=PACKAGE, style="hint")]
        return [toolbar("Open file", PACKAGE, PACKAGE),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/file_list")]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The toolbar, the tool bar, the pop-ups' rows and the Save dialog."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "main", ("undo",) if self.canvas:
                self.redo.append(self.canvas.pop())
                return True
            case "main", ("redo",) if self.redo:
                self.canvas.append(self.redo.pop())
                return True
            case "main", ("save",):
                return self._open_save()
            case "main", ("menu" | "color" | "size" as name,):
                return self.phone.push(Screen(PACKAGE, name))
            case "menu", ("clear",):
                self.canvas, self.redo = [], []
                return self.phone.pop()
            case "menu", ("open",):
                self.phone.pop()
                self.browsed = True
                return self.phone.push(Screen(PACKAGE, "open"))
            case "color", ("pick_color", hex_):
                self.color = hex_
                return self.phone.pop()
            case "size", ("pick_size", size):
                self.width = size
                return self.phone.pop()
            case "open", ("load", path):
                self.canvas, self.redo, self.current = [dict(s) for s in self.files[path]["strokes"]], [], path
                return self.phone.pop()
            case "save", ("pick_folder",):
                return self.phone.push(Screen(PACKAGE, "folder"))
            case "save", ("clear_name",):
                screen.fields[NAME_RID], screen.focus, screen.args["error"] = "", NAME_RID, ""
                return True
            case "save", ("format", fmt):
                screen.args["format"] = fmt
                return True
            case "save", ("ok",):
                return self._save_ok(screen)
            case "folder", ("in_folder", folder):
                self.phone.pop()
                self.phone.top.args.update(folder=folder, error="")
                return True
        return False

    def _open_save(self) -> bool:
        """The Save as dialog: the canvas's file's folder, name and format, else the last folder and a new name."""
        if self.current is not None:
            folder, name = self.current.rsplit("/", 1)
            stem, fmt = name.rsplit(".", 1)
        else:
            folder, stem, fmt = self.folder, default_name(self.saves + 1), "png"
        return self.phone.push(Screen(PACKAGE, "save", {"folder": folder, "format": fmt, "error": ""},
                                      {NAME_RID: stem}))

    def _save_ok(self, screen: Screen) -> bool:
        """Write the canvas to the dialog's file, or say why not (an empty or bad name, another file's path)."""
        stem, args = screen.fields.get(NAME_RID, "").strip(), screen.args
        path = f"{args['folder']}/{stem}.{args['format']}"
        if not stem:
            args["error"] = "The filename cannot be empty"
        elif "/" in stem or stem.startswith("."):
            args["error"] = "The filename contains invalid characters"
        elif path in self.files and path != self.current:
            args["error"] = "A file with that name already exists"
        if args["error"]:
            return True
        self.files[path] = {"format": args["format"], "date": str(DATE),
                            "strokes": [dict(s) for s in self.canvas]}
        self.order = [p for p in self.order if p != path] + [path]
        self.saved.append(path)
        self.current, self.folder, self.saves = path, args["folder"], self.saves + 1
        files = next((a for a in self.phone.installed() if isinstance(a, FilesApp)), None)
        if files is not None:  # the image is in shared storage: Files lists it too
            files.save(path, 12 + 3 * len(self.canvas))
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the file name is OK."""
        return self._save_ok(screen) if screen.name == "save" and rid == NAME_RID else False

    def on_drag(self, screen: Screen, start: tuple[float, float], end: tuple[float, float]) -> bool:
        """A drag that starts on the canvas draws a stroke to where it ends (kept inside the canvas)."""
        x0, y0, x1, y1 = CANVAS
        if screen.name != "main" or not (x0 <= start[0] < x1 and y0 <= start[1] < y1):
            return False

        def inside(p: tuple[float, float]) -> tuple[int, int]:
            return int(min(max(p[0], x0), x1 - 1)) - x0, int(min(max(p[1], y0), y1 - 1)) - y0

        (ax, ay), (bx, by) = inside(start), inside(end)
        self.canvas.append({"color": self.color, "width": self.width, "x0": ax, "y0": ay, "x1": bx, "y1": by})
        self.redo = []
        return True
