"""Task drawings and expert steps the Simple Draw Pro templates share (`draw_tasks`, the AndroidWorld template).

The checks read the app's state (`draw_state`) with `file_at` and `untouched`. Each expert step reads the UI elements
and the sim's state and returns the next action towards a sub-goal: the canvas (`to_canvas`), the brush in a colour
(`brush`), a stroke (`stroke`), the Save as dialog filled in and confirmed (`save_dialog`), a drawing saved under a
name (`save_drawing`), Open file's list (`to_files`) and a drawing opened from it (`open_drawing`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import draw as D
from android_gym.sim.apps import draw_state as DS
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, fill, find, obstacle, wait
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.tasks.world.notes_expert import reach

DRAW = DS.PACKAGE
LABEL = D.DrawApp.label
STEMS = ("garden_plan", "birthday_doodle", "floor_sketch", "logo_draft", "route_map", "mood_board", "cat_portrait",
         "stick_figures", "poster_idea", "kite_design", "treehouse", "comic_panel", "bike_route", "star_chart",
         "robot_arm", "tattoo_idea")
"""Task drawings' names (without an extension): none is a seeded name."""
INKS = ("Red", "Blue", "Green", "Orange", "Purple", "Pink", "Cyan", "Brown", "Yellow", "Gray")
"""The colours tasks ask for (never black, the brush's colour at the start)."""


def days_ago(age: int) -> str:
    """The date `age` days before the sim's today."""
    return str(DS.DATE - datetime.timedelta(days=age))


def draw_state(state: State) -> DS.DrawState:
    """Simple Draw Pro's part of the device state."""
    return state_of(state, DS.DrawState)


def file_at(state: State, path: str) -> DS.DrawingState | None:
    """The image at `path`, or None."""
    return next((f for f in draw_state(state)["files"] if f["path"] == path), None)


def untouched(state: State) -> bool:
    """Nothing was saved in Simple Draw Pro this episode."""
    return not draw_state(state)["saved"]


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_canvas(elements: Elements, state: State) -> Action | None:
    """The next step to the canvas with nothing over it (None once there)."""
    step = into_app(LABEL, DRAW, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "main":
        return None
    return leave(elements) if name in ("menu", "color", "size", "save", "folder") else back()


def brush(ink: str, elements: Elements, state: State) -> Action | None:
    """The next step to a brush of colour `ink` (a palette name) on the canvas (None once it is)."""
    if draw_state(state)["color"] == DS.COLORS[ink] and state["foreground"] == DRAW:
        return None
    if state["foreground"] == DRAW and state["screen"]["name"] == "color":
        return obstacle(elements, state) or press(elements, desc=ink)
    return to_canvas(elements, state) or press(elements, desc="Change color")


def stroke(elements: Elements, k: int = 0) -> Action:
    """A drag across the canvas (the `k`-th of a set, each lower than the last)."""
    canvas = find(elements, rid=D.CANVAS_RID)
    if canvas is None:
        return wait()
    x0, y0, x1, y1 = canvas.bounds
    y = y0 + (y1 - y0) * (0.3 + 0.1 * (k % 5))
    return Action.swipe((x0 + 0.2 * (x1 - x0)) / WIDTH, y / HEIGHT, (x0 + 0.8 * (x1 - x0)) / WIDTH,
                        (y + 0.05 * (y1 - y0)) / HEIGHT)


def save_dialog(stem: str, fmt: str, folder: str, elements: Elements, state: State) -> Action:
    """In the Save as dialog (or its folder picker): the folder, the format, the name, OK."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "folder":
        return press(elements, text=folder)
    if screen["args"]["folder"] != folder:
        return press(elements, rid=D.PATH_RID)
    if screen["args"]["format"] != fmt:
        return press(elements, text=fmt.upper())
    if not stem.startswith(screen["fields"].get(D.NAME_RID, "")):
        return press(elements, desc="Clear text")
    return fill(elements, state, D.NAME_RID, stem, missing=wait()) or press(elements, text="OK", clickable=True)


def save_drawing(file: str, folder: str, elements: Elements, state: State) -> Action:
    """The canvas as it is, saved as `folder`/`file` ("name.ext"): Save, then the dialog."""
    stem, fmt = file.rsplit(".", 1)
    if state["foreground"] == DRAW and state["screen"]["name"] in ("save", "folder"):
        return save_dialog(stem, fmt, folder, elements, state)
    return to_canvas(elements, state) or press(elements, desc="Save")


def to_files(elements: Elements, state: State) -> Action | None:
    """The next step to Open file's list (None once there)."""
    step = into_app(LABEL, DRAW, elements, state)
    if step is None and state["screen"]["name"] == "open":
        return None
    if step is None and state["screen"]["name"] == "menu":
        return press(elements, text="Open file")
    return step or to_canvas(elements, state) or press(elements, desc="More options")


def open_drawing(path: str, elements: Elements, state: State) -> Action | None:
    """The next step to the canvas holding the image at `path` (None once it does)."""
    if draw_state(state)["current"] == path and state["foreground"] == DRAW and state["screen"]["name"] == "main":
        return into_app(LABEL, DRAW, elements, state)
    name = path.rsplit("/", 1)[1]
    return to_files(elements, state) or reach(elements, state, find(elements, rid=f"{DRAW}:id/file_name",
                                                                     text=name))


def drawings(specs: list[tuple[str, str, int, str]]) -> dict[str, Any]:
    """Initial conditions holding only the images `specs` ((path, date, strokes, colour name) each)."""
    return {"seeded": False, "drawings": [{"path": p, "date": d, "strokes": n, "colors": [DS.COLORS[c]]}
                                          for p, d, n, c in specs]}
