"""Local HTML files that Chrome opens from storage ("file:///sdcard/Download/task.html"): scripted pages whose state
lives in the page, as AndroidWorld's browser tasks write them (issue 48).

A task puts the file in Files (a path in storage) and tells Chrome what the file holds (`BrowserInitial`: its page
kind and seed); opening it, from Files' "Open with" or by typing its URL, shows the page. Each load starts the
page's script afresh (its state is in the page's `Screen.args`, so BACK and opening the file again reload it):
- "maze": a 4x4 maze (walls, open cells, the goal at the bottom right) and Up, Down, Left, Right buttons moving
  the X from the top left; a move into a wall or off the grid does nothing; on the goal the page shows "Success!".
- "multiply": a number (1-10) and a "Click Me" button; each of the first four clicks shows a new number, the fifth
  hides both and shows a field ("Enter the product") and Submit; Submit shows "Success!" when the field holds the
  product of the five numbers, else clears the result.
- "colors": three target colours at the top, a canvas that drags draw strokes on, a palette of 24 colours (a tap
  sets the stroke colour; black at the start), Clear and Submit; Submit shows "Success!" when every target colour
  is among the strokes' colours, else clears the result (Clear empties the canvas, not the result).
- "missing": a path no file is at: Chrome's "Your file couldn't be accessed".
Numbers, mazes and colours come from the page's seed (`random.Random(seed)`).
"""  # noqa: D205, D209

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any, Literal

from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import Screen
from android_gym.sim.app_state import closed, refuse_absolute_paths
from android_gym.sim.layout import BUTTON, MARGIN, TEXT_VIEW, VIEW, WIDTH, Column, text_field
from android_gym.sim.view import View
from android_gym.sim.web.site import PACKAGE, WEB_TOP, Site, Web

HOST = "file"
"""The host of local pages among Chrome's sites."""
FILE_URL = "file:///sdcard/"
"""How Chrome names a file of Internal storage (its path follows)."""
SIZE = 4
"""The maze's rows and columns."""
CELL = 220
"""A maze cell's side in device pixels."""
PALETTE = ("#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff", "#800000", "#008000", "#000080",
           "#808000", "#800080", "#008080", "#ffa500", "#ff1493", "#9932cc", "#20b2aa", "#4b0082", "#00ff7f",
           "#ff6347", "#00ced1", "#9400d3", "#f0e68c", "#ff8c00", "#228b22")
"""The colours page's palette (the CSS colours AndroidWorld's page offers)."""
ANSWER_RID = "answer"
MOVES = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
Kind = Literal["maze", "multiply", "colors"]


def local_parts(url: str) -> tuple[str, str, dict[str, str]] | None:
    """(HOST, path in storage, {}) for a file URL of Internal storage, else None.

    >>> local_parts("file:///sdcard/Download/task.html"), local_parts("https://a.com/")
    (('file', 'Download/task.html', {}), None)
    """
    url = url.strip()
    for prefix in (FILE_URL, "file:///storage/emulated/0/"):
        if url.startswith(prefix):
            return HOST, url[len(prefix):], {}
    return None


def maze(seed: int) -> list[str]:
    """The maze of `seed`: rows of "#" (wall), " " (open) and "$" (the goal, bottom right), the start top left open.

    The way from the start to the goal is a path of cells none of which touches another but its neighbours on it,
    and a few dead ends branch off it.

    >>> m = maze(7)
    >>> len(m), m[0][0], m[3][3], solution_length(m) >= 6
    (4, ' ', '$', True)
    """
    rng = random.Random(seed)
    path = _walk(rng, [(0, 0)])
    cells = set(path)
    for r, c in rng.sample([(r, c) for r in range(SIZE) for c in range(SIZE)], SIZE * SIZE):
        if (r, c) not in cells and rng.random() < 0.5 and len(_around((r, c)) & cells) == 1:
            cells.add((r, c))  # a dead end: it touches one open cell
    return ["".join("$" if (r, c) == (SIZE - 1, SIZE - 1) else " " if (r, c) in cells else "#"
                    for c in range(SIZE)) for r in range(SIZE)]


def _around(cell: tuple[int, int]) -> set[tuple[int, int]]:
    r, c = cell
    return {(r + dr, c + dc) for dr, dc in MOVES.values() if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE}


def _walk(rng: random.Random, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A path on from `path` to the goal whose new cells touch only the cell before them (backtracking search)."""
    if path[-1] == (SIZE - 1, SIZE - 1):
        return path
    steps = sorted(_around(path[-1]) - set(path))
    rng.shuffle(steps)
    for cell in steps:
        if not (_around(cell) & set(path[:-1])):
            found = _walk(rng, [*path, cell])
            if found:
                return found
    return []


def solution_length(layout: list[str], start: tuple[int, int] = (0, 0)) -> int:
    """The fewest moves from `start` (the top left) to the goal.

    >>> solution_length([" ###", " ###", " ###", "   $"]), solution_length([" ###", " ###", " ###", "   $"], (3, 1))
    (6, 2)
    """
    seen, todo = {start: 0}, deque([start])
    while todo:
        cell = todo.popleft()
        if layout[cell[0]][cell[1]] == "$":
            return seen[cell]
        for nxt in sorted(_around(cell)):
            if nxt not in seen and layout[nxt[0]][nxt[1]] != "#":
                seen[nxt] = seen[cell] + 1
                todo.append(nxt)
    raise ValueError(f"the maze {layout} has no way to its goal")


def numbers(seed: int) -> list[int]:
    """The five numbers (1-10) the multiply page shows, in order.

    >>> len(numbers(3)), all(1 <= n <= 10 for n in numbers(3))
    (5, True)
    """
    rng = random.Random(seed)
    return [rng.randint(1, 10) for _ in range(5)]


def targets(seed: int) -> list[str]:
    """The three distinct target colours of the colours page."""
    return random.Random(seed).sample(PALETTE, 3)


# -- the typed seam ---------------------------------------------------------------------------------------------------
@closed
class LocalPageState(TypedDict):
    """A local page in front (`Browser.state`'s "local").

    Attributes:
        kind: the page's kind ("missing": no file at that path).
        path: the file's path in storage.
        success: whether the page shows "Success!".
        layout: the maze's rows ("#" wall, " " open, "$" goal), [] on other pages.
        position: the X's [row, column] on the maze, [] on other pages.
        numbers: the numbers the multiply page has shown so far, [] on other pages.
        form: whether the multiply page shows its answer form.
        targets: the colours page's target colours, [] on other pages.
        used: the colours of the strokes on the colours page's canvas, in order, [] on other pages.
        ink: the colours page's stroke colour, "" on other pages.
    """

    kind: Literal["maze", "multiply", "colors", "missing"]
    path: str
    success: bool
    layout: list[str]
    position: list[int]
    numbers: list[int]
    form: bool
    targets: list[str]
    used: list[str]
    ink: str


class LocalPageSpec(ConfigModel):
    """What a local HTML file holds.

    Attributes:
        path: the file's path in Internal storage ("Download/task.html"; put the file in Files too).
        kind: its page.
        seed: the seed of its maze, numbers or colours (AndroidWorld draws it in 0..2**32-1).
    """

    path: str
    kind: Kind
    seed: int = Field(ge=0)

    @field_validator("path")
    @classmethod
    def _html_path(cls, path: str) -> str:
        expected = "a path of an .html file relative to Internal storage, like 'Download/task.html'"
        refuse_absolute_paths("path", [path], expected)
        if not path.endswith(".html"):
            raise FieldError("path", expected, path)
        return path


class BrowserInitial(ConfigModel):
    """The initial conditions a Chrome task may set.

    Attributes:
        local_pages: the local HTML files Chrome can open, by what they hold.
    """

    local_pages: tuple[LocalPageSpec, ...] = ()


# -- the site ---------------------------------------------------------------------------------------------------------
class LocalSite(Site):
    """Chrome's local files: the page each file holds (`pages`, set from `BrowserInitial`), else "missing"."""

    pages: dict[str, dict[str, Any]]

    def __init__(self, web: Web, host: str = HOST, name: str = "File") -> None:
        super().__init__(web, host, name)
        self.pages = {}

    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """The file's page, its script's state fresh."""
        spec = self.pages.get(path)
        if spec is None:
            return "missing", {"path": path}
        kind, seed = spec["kind"], spec["seed"]
        fresh = {"maze": {"position": [0, 0], "success": False},
                 "multiply": {"shown": 1, "form": False, "result": ""},
                 "colors": {"strokes": [], "color": "#000000", "result": ""}}[kind]
        return kind, {"path": path, "seed": seed, **fresh}

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The file's URL."""
        return FILE_URL + args["path"]

    def describe(self, screen: Screen) -> dict[str, Any]:
        """{"local": LocalPageState} for the page in front."""
        a, kind = screen.args, screen.name
        out: dict[str, Any] = {"kind": kind, "path": a["path"], "success": False, "layout": [], "position": [],
                               "numbers": [], "form": False, "targets": [], "used": [], "ink": ""}
        if kind == "maze":
            out.update(success=a["success"], layout=maze(a["seed"]), position=list(a["position"]))
        elif kind == "multiply":
            out.update(success=a["result"] == "Success!", numbers=numbers(a["seed"])[:a["shown"]], form=a["form"])
        elif kind == "colors":
            out.update(success=a["result"] == "Success!", targets=targets(a["seed"]),
                       used=[s["color"] for s in a["strokes"]], ink=a["color"])
        return {"local": out}

    def build(self, screen: Screen) -> list[View]:
        """The page's views."""
        return {"maze": self._maze, "multiply": self._multiply, "colors": self._colors,
                "missing": self._missing}[screen.name](screen)

    def _missing(self, screen: Screen) -> list[View]:
        col = Column(WEB_TOP + 200, PACKAGE)
        col.text("Your file couldn\u2019t be accessed", height=150, style="title")
        col.text(f"It may have been moved, edited or deleted. {FILE_URL}{screen.args['path']}", height=200)
        col.text("ERR_FILE_NOT_FOUND", height=90, style="meta")
        return col.views

    def _maze(self, screen: Screen) -> list[View]:
        a = screen.args
        if a["success"]:
            return [View(TEXT_VIEW, (MARGIN, WEB_TOP + 40, WIDTH - MARGIN, WEB_TOP + 200), text="Success!",
                         package=PACKAGE, style="title")]
        layout, views, x0, y0 = maze(a["seed"]), [], (WIDTH - SIZE * CELL) // 2, WEB_TOP + 60
        for r, row in enumerate(layout):
            for c, mark in enumerate(row):
                here = [r, c] == a["position"]
                what = "wall" if mark == "#" else "X" if here else "goal" if mark == "$" else "open"
                views.append(View(TEXT_VIEW, (x0 + c * CELL, y0 + r * CELL, x0 + (c + 1) * CELL, y0 + (r + 1) * CELL),
                                  text="X" if here else "", desc=f"Row {r + 1}, column {c + 1}: {what}",
                                  package=PACKAGE, style="video" if mark == "#" else "card"))  # walls black
        y = y0 + SIZE * CELL + 60
        for k, label in enumerate(MOVES):
            views.append(View(BUTTON, (MARGIN + k * 250, y, MARGIN + k * 250 + 230, y + 140), text=label,
                              package=PACKAGE, clickable=True, focusable=True, on_tap=("move", label),
                              style="button"))
        return views

    def _multiply(self, screen: Screen) -> list[View]:
        a, col = screen.args, Column(WEB_TOP + 150, PACKAGE)
        if not a["form"]:
            col.text(str(numbers(a["seed"])[a["shown"] - 1]), height=200, style="display")
            col.button("Click Me", ("click",), height=150)
        else:
            col.add(text_field((MARGIN, col.y, WIDTH - MARGIN, col.y + 144), ANSWER_RID,
                               screen.fields.get(ANSWER_RID, ""), "Enter the product", screen.focus == ANSWER_RID,
                               PACKAGE))
            col.gap(20)
            col.button("Submit", ("check",), height=140)
        if a["result"]:
            col.text(a["result"], height=150, style="title")
        return col.views

    def _colors(self, screen: Screen) -> list[View]:
        a, y = screen.args, WEB_TOP + 20
        views = [View(VIEW, (250 + k * 200, y, 400 + k * 200, y + 150), desc=color, rid="taskColors",
                      package=PACKAGE, style="chip") for k, color in enumerate(targets(a["seed"]))]
        y += 180
        views.append(View(VIEW, (90, y, WIDTH - 90, y + 900), desc=f"Canvas, {len(a['strokes'])} strokes",
                          rid="canvas", package=PACKAGE, style="card"))
        y += 920
        views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 80), text="Available Colors:", package=PACKAGE))
        y += 90
        for k, color in enumerate(PALETTE):
            x, yy = 90 + (k % 6) * 150, y + (k // 6) * 120
            views.append(View(BUTTON, (x, yy, x + 130, yy + 100), desc=color, package=PACKAGE, clickable=True,
                              focusable=True, selected=color == a["color"], on_tap=("ink", color), style="chip"))
        y += 4 * 120 + 20
        views += [View(BUTTON, (MARGIN, y, MARGIN + 300, y + 130), text="Clear", package=PACKAGE, clickable=True,
                       focusable=True, on_tap=("wipe",), style="button"),
                  View(BUTTON, (MARGIN + 340, y, MARGIN + 640, y + 130), text="Submit", package=PACKAGE,
                       clickable=True, focusable=True, on_tap=("check",), style="button")]
        if a["result"]:
            views.append(View(TEXT_VIEW, (MARGIN, y + 150, WIDTH - MARGIN, y + 250), text=a["result"],
                              package=PACKAGE, style="title"))
        return views

    def handle(self, event: tuple, screen: Screen) -> bool:
        """The maze's buttons, Click Me and Submit, the palette, Clear."""
        a = screen.args
        match screen.name, event:
            case "maze", ("move", label) if not a["success"]:
                r, c = a["position"][0] + MOVES[label][0], a["position"][1] + MOVES[label][1]
                layout = maze(a["seed"])
                if not (0 <= r < SIZE and 0 <= c < SIZE) or layout[r][c] == "#":
                    return False
                a["position"], a["success"] = [r, c], layout[r][c] == "$"
                return True
            case "multiply", ("click",) if not a["form"]:
                a["shown"], a["form"] = min(a["shown"] + 1, 5), a["shown"] == 5
                return True
            case "multiply", ("check",):
                typed = screen.fields.get(ANSWER_RID, "").strip()
                right = typed.lstrip("-").isdigit() and int(typed) == math.prod(numbers(a["seed"]))
                a["result"] = "Success!" if right else ""
                return True
            case "colors", ("ink", color):
                a["color"] = color
                return True
            case "colors", ("wipe",):
                a["strokes"] = []
                return True
            case "colors", ("check",):
                used = {s["color"] for s in a["strokes"]}
                a["result"] = "Success!" if set(targets(a["seed"])) <= used else ""
                return True
        return False

    def drag(self, screen: Screen, start: tuple[float, float], end: tuple[float, float]) -> bool:
        """A drag from the colours page's canvas draws a stroke in the stroke colour."""
        x0, y0 = 90, WEB_TOP + 200
        if screen.name != "colors" or not (x0 <= start[0] < WIDTH - 90 and y0 <= start[1] < y0 + 900):
            return False
        screen.args["strokes"] = [*screen.args["strokes"], {"color": screen.args["color"]}]
        return True
