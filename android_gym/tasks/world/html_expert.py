"""The local HTML page tasks' set-up, reads and expert steps (`html_tasks`, AndroidWorld's browser tasks).

A task's page is the file "Download/task.html" (`TASK_FILE`), put in Files and described to Chrome (`page_initial`).
The checks read the page in front (`page_in_front`: Chrome's "local" state while the task's file shows). The expert
opens the file from Files with "Open with" Chrome (`open_page`), then plays the page: walks the maze by its shortest
way (`maze_step`), clicks through the numbers and submits their product (`multiply_step`), draws a stroke in each
target colour and submits (`colors_step`).
"""  # noqa: D205, D209

from __future__ import annotations

import math
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import browser as B
from android_gym.sim.apps import files as F
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.sim.web import local as L
from android_gym.tasks.expert import fill, find, wait
from android_gym.tasks.world.base import Elements, State, press
from android_gym.tasks.world.files_expert import to_folder
from android_gym.tasks.world.notes_expert import reach

CHROME, FILES = B.PACKAGE, F.PACKAGE
TASK_FILE = "Download/task.html"


def page_initial(kind: str, seed: int) -> dict[str, dict[str, Any]]:
    """The task's file in Download, holding page `kind` of `seed`."""
    return {FILES: {"files": [{"path": TASK_FILE, "size_kb": 4}]},
            CHROME: {"local_pages": [{"path": TASK_FILE, "kind": kind, "seed": seed}]}}


def page_in_front(state: State) -> L.LocalPageState | None:
    """The task's page when Chrome shows it in front, else None."""
    local = state_of(state, B.BrowserState)["local"]
    return local if local is not None and local["path"] == TASK_FILE else None


def won(state: State) -> bool:
    """The task's page is in front showing "Success!" (what AndroidWorld reads)."""
    page = page_in_front(state)
    return page is not None and page["success"]


# -- expert steps ----------------------------------------------------------------------------------------------------
def open_page(elements: Elements, state: State) -> Action | None:
    """The next step to the task's page in Chrome (None once it is in front): Files, Download, the file, Chrome."""
    if page_in_front(state) is not None and not state["screen"]["loading"] and not state["dialog"]:
        return None
    screen = state["screen"]
    if state["foreground"] == FILES and screen["name"] == "menu" and screen["args"]["kind"] == "open_with":
        return press(elements, text="Chrome")
    return to_folder("Download", elements, state) or reach(elements, state, find(elements, rid=F.TITLE_RID,
                                                                                 text="task.html"))


def maze_step(elements: Elements, state: State) -> Action:
    """On the maze: the button of the shortest way's next move."""
    page = page_in_front(state)
    if page is None or page["success"]:
        return wait()
    layout, (r, c) = page["layout"], page["position"]
    here = L.solution_length(layout, (r, c))
    for label, (dr, dc) in L.MOVES.items():
        cell = (r + dr, c + dc)
        if (0 <= cell[0] < L.SIZE and 0 <= cell[1] < L.SIZE and layout[cell[0]][cell[1]] != "#"
                and L.solution_length(layout, cell) == here - 1):
            return press(elements, text=label)
    return wait()


def multiply_step(elements: Elements, state: State) -> Action:
    """On the multiply page: Click Me until the form shows, then the product into the field, Submit."""
    page = page_in_front(state)
    if page is None or page["success"]:
        return wait()
    if not page["form"]:
        return press(elements, text="Click Me")
    product = str(math.prod(page["numbers"]))
    return fill(elements, state, L.ANSWER_RID, product, missing=wait()) or press(elements, text="Submit")


def colors_step(elements: Elements, state: State) -> Action:
    """On the colours page: for each target colour not drawn, its palette button, a stroke; then Submit."""
    page = page_in_front(state)
    if page is None or page["success"]:
        return wait()
    left = [c for c in page["targets"] if c not in page["used"]]
    if not left:
        return press(elements, text="Submit")
    if page["ink"] != left[0]:
        return press(elements, desc=left[0], clickable=True)
    canvas = find(elements, rid="canvas")
    if canvas is None:
        return wait()
    x0, y0, x1, y1 = canvas.bounds
    y = y0 + (y1 - y0) * (0.2 + 0.15 * (len(page["used"]) % 5))
    return Action.swipe((x0 + 0.2 * (x1 - x0)) / WIDTH, y / HEIGHT, (x0 + 0.8 * (x1 - x0)) / WIDTH, y / HEIGHT)
