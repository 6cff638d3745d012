"""Expert steps and checks the Joplin templates share (`joplin_tasks`, `androidworld.joplin`).

Each step reads the UI elements and the sim's state and returns the next action towards a sub-goal: a notes list
showing a notebook (`to_list`), a note's screen reached through search (`to_note`), a row tapped or scrolled to
(`reach`). The checks read Joplin's state (`joplin_state`) with `find_note` and its change log (`only_edits`).
"""

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import joplin as J
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.ui import UIElement

JOP = J.PACKAGE
LABEL = J.JoplinApp.label


def joplin_state(state: State) -> J.JoplinState:
    """Joplin's part of the device state."""
    return state_of(state, J.JoplinState)


def find_note(state: State, title: str) -> J.NoteState | None:
    """The first note called `title` (in "All notes" order), or None."""
    return next((n for n in joplin_state(state)["notes"] if n["title"] == title), None)


def only_edits(state: State, expected: list[tuple[str, str]]) -> bool:
    """Whether the episode's changes are exactly `expected`, (title, action) pairs in order."""
    return [(e["title"], e["action"]) for e in joplin_state(state)["edits"]] == expected


def note_spec(title: str, folder: str, body: str = "", todo: bool = False, done: bool = False) -> dict[str, Any]:
    """A note as `JoplinInitial` takes it."""
    return {"title": title, "body": body, "folder": folder, "is_todo": todo, "todo_completed": done}


def reach(elements: Elements, state: State, target: UIElement | None) -> Action:
    """Tap `target` when it is on screen and clear of the add button; else scroll the list towards it."""
    fab = find(elements, desc=J.FAB_DESC)
    x, y = target.center if target is not None else (0, 0)
    hidden = fab is not None and fab.bounds[0] <= x < fab.bounds[2] and fab.bounds[1] <= y < fab.bounds[3]
    if target is not None and not hidden:
        return tap(target)
    return swipe_up() if target is not None or state["screen"]["scroll"] == 0 else swipe_down()


def to_list(folder: str | None, elements: Elements, state: State) -> Action | None:
    """The next step to the notes list showing notebook `folder` (None: All notes); None once there."""
    step = into_app(LABEL, JOP, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "sidebar":
        return press(elements, rid=J.FOLDER_RID, text=folder or J.ALL_NOTES)
    if screen["name"] == "notes":
        if screen["args"]["fab"]:
            return back()
        return None if screen["args"]["folder"] == folder else press(elements, desc=J.SIDEBAR_DESC)
    return leave(elements) if screen["name"] in ("move", "delete") else back()


def to_note(title: str, elements: Elements, state: State) -> Action | None:
    """The next step to the screen of note `title`, found with Search (None once there, nothing over it)."""
    step = into_app(LABEL, JOP, elements, state)
    if step is not None:
        return step
    screen, j, note = state["screen"], joplin_state(state), find_note(state, title)
    if screen["name"] == "note" and note is not None and j["open"] == note["id"]:
        return back() if screen["args"]["menu"] else None
    if screen["name"] == "search":
        typed = fill(elements, state, J.SEARCH_RID, title)
        return typed or reach(elements, state, find(elements, rid=J.ROW_TITLE_RID, text=title))
    if screen["name"] == "notes" and not screen["args"]["fab"]:
        return press(elements, desc=J.SEARCH_DESC)
    return leave(elements) if screen["name"] in ("move", "delete") else back()
