"""Expert steps the Markor and Tasks templates of the world suite share (`notes_tasks`, `todo_tasks`).

Each step function reads the UI elements and the sim's state and returns the next action towards a sub-goal: close a
menu (`leave`), tap a row or scroll to it (`reach`), fill a field (`fill`), tap an element (`press`), reach a Markor
folder or note and write, create or open it (`markor_*`), show a Tasks list and add or edit a task (`tasks_*`). Three
helpers serve the templates' checks: `only_touched` (Markor's edit log), `find_tasks` (a list's tasks by title), and
`folded_words`, which compares the free text of an everyday line (issue 49): it reaches a template without case or
punctuation.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_dialogs import day_desc
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps.markor import base, join, parent
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.ui import UIElement

MARKOR, TASKS = markor.PACKAGE, todo.PACKAGE


def reach(elements: Elements, state: State, target: UIElement | None) -> Action:
    """Tap `target` when it is on screen and clear of the FAB; else scroll the list towards it.

    Lists here hold at most one screenful more than fits, so one swipe up from the top shows every row.
    """
    fab = find(elements, desc=markor.FAB_DESC) or find(elements, desc=todo.FAB_DESC)
    x, y = target.center if target is not None else (0, 0)
    hidden = fab is not None and fab.bounds[0] <= x < fab.bounds[2] and fab.bounds[1] <= y < fab.bounds[3]
    if target is not None and not hidden:
        return tap(target)
    return swipe_up() if target is not None or state["screen"]["scroll"] == 0 else swipe_down()


def markor_folder(folder: str, elements: Elements, state: State) -> Action | None:
    """The next step to Markor's browser showing `folder` (None once there, searching nothing)."""
    step = into_app("Markor", MARKOR, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] != "browser":
        return back() if screen["name"] == "document" else leave(elements)
    current = screen["args"]["path"]
    if screen["args"]["search"] or (current and current != folder and not folder.startswith(current + "/")):
        return back()
    if current == folder:
        return None
    step_in = folder[len(current) + 1:] if current else folder
    return reach(elements, state, find(elements, rid=markor.TITLE_RID, text=step_in.split("/")[0]))


def markor_item(path: str, elements: Elements, state: State, more: bool = False) -> Action:
    """Open `path` from its folder (or its More options menu when `more`)."""
    step = markor_folder(parent(path), elements, state)
    if step is not None:
        return step
    name = base(path)
    target = find(elements, desc=f"More options for {name}") if more else find(elements, rid=markor.TITLE_RID,
                                                                              text=name)
    return reach(elements, state, target)


def markor_write(path: str, text: str, elements: Elements, state: State,
                 open_note: Callable[[str, Elements, State], Action] = markor_item) -> Action:
    """Open note `path` in the editor (with `open_note` until it is open) and make its text `text` (typing only what
    is missing, deleting from the end what does not lead to it), then Save."""  # noqa: D205, D209
    opened = state_of(state, markor.MarkorState)["open"]
    if state["foreground"] != MARKOR or state.get("dialog") or opened is None or opened["path"] != path:
        return open_note(path, elements, state)
    if opened["mode"] == "view":
        return press(elements, desc="Edit")
    step = fill(elements, state, markor.EDITOR_RID, text)
    if step is not None:
        return step
    return press(elements, desc="Save") if not opened["saved"] else back()


def markor_create(folder: str, name: str, kind: str, elements: Elements, state: State) -> Action:
    """Create `name` (a "Markdown" note or a "Folder") in `folder` with the FAB's dialog."""
    step = into_app("Markor", MARKOR, elements, state)
    if step is None and state["screen"]["name"] == "create" and state["screen"]["args"]["folder"] == folder:
        if state["screen"]["args"]["type"] != kind:
            return press(elements, text=kind, clickable=True)
        return fill(elements, state, markor.NAME_RID, name) or press(elements, text="OK")
    step = step or markor_folder(folder, elements, state)
    return step or press(elements, desc=markor.FAB_DESC)


def tasks_view(view: str, elements: Elements, state: State) -> Action | None:
    """The next step to Tasks showing list or filter `view` (None once there)."""
    step = into_app("Tasks", TASKS, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "drawer":
        item = find(elements, rid=todo.DRAWER_ITEM_RID, text=view)
        return tap(item) if item is not None else back()
    if name != "list":
        return back() if name == "edit" else leave(elements)
    if state_of(state, todo.TasksState)["view"] == view:
        return None
    return press(elements, desc=todo.DRAWER_DESC)


def tasks_edit(title: str, due: str | None, priority: str, elements: Elements, state: State) -> Action:
    """On the task editor (or its date picker): set the title, the due date and the priority, then Save."""
    args = state["screen"]["args"]
    if state["screen"]["name"] == "date":
        if args["selected"] == due:
            return press(elements, text="OK")
        if due is None:
            return press(elements, text="No date")
        d = datetime.date.fromisoformat(due)
        if (args["year"], args["month"]) != (d.year, d.month):
            later = (d.year, d.month) > (args["year"], args["month"])
            return press(elements, desc="Next month" if later else "Previous month")
        return press(elements, desc=day_desc(d))
    step = fill(elements, state, todo.TITLE_RID, title)
    if step is not None:
        return step
    if args["due"] != due:
        return press(elements, text="Due date")
    if args["priority"] != priority:
        return press(elements, desc=f"{priority.title()} priority")
    return press(elements, desc="Save")


def tasks_add(name: str, title: str, due: str | None, priority: str, elements: Elements, state: State) -> Action:
    """Add a task to list `name`: show the list, Add task, fill the editor, Save."""
    step = into_app("Tasks", TASKS, elements, state)
    editing = state_of(state, todo.TasksState)["editing"]
    if step is None and editing is not None and editing["index"] is None and editing["list"] == name:
        return tasks_edit(title, due, priority, elements, state)
    return step or tasks_view(name, elements, state) or press(elements, desc=todo.FAB_DESC)


def only_touched(edits: Sequence[markor.NoteEdit], paths: set[str]) -> bool:
    """Whether every Markor edit concerns `paths` only (its path, and where a rename or move took it)."""
    return all(e["path"] in paths and e.get("to", e["path"]) in paths for e in edits)


def folded_words(text: str) -> str:
    """`text` as an everyday line's free text is compared: its lower-case letters and digits, apostrophes inside words
    dropped, everything else one space (the parser keeps no case, commas or quotes, so a check can ask for no more).

    >>> folded_words("- Grandma's chili, eggs & bread!")
    'grandmas chili eggs bread'
    """  # noqa: D205
    return " ".join(re.findall(r"[0-9a-z]+", re.sub(r"(?<=\w)['\u2019](?=\w)", "", text.casefold())))


def find_tasks(lists: Mapping[str, Any], name: str, title: str) -> list[dict[str, Any]]:
    """The tasks of list `name` titled `title` (case and outer spaces ignored)."""
    return [t for t in lists.get(name, []) if t["title"].strip().casefold() == title.strip().casefold()]


# -- notes an everyday line names (issue 49) ------------------------------------------------------------------------
# A line's note names and texts reach a template in lower case and without punctuation ("loose" params): the task
# names its notes in sentence case, and the checks compare names without case or extension and texts by their words.
def stem(name: str) -> str:
    """A note's name without its extension (.md or .txt).

    >>> stem("Final draft.md"), stem("Final draft")
    ('Final draft', 'Final draft')
    """
    for ext in (".md", ".txt"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def named(files: Mapping[str, str], name: str, folder: str | None = None) -> list[str]:
    """The notes called `name`, case and extension (.md, .txt or none) aside, in `folder` (None: any folder)."""
    want = stem(name).casefold()
    return [p for p in files if stem(base(p)).casefold() == want and (folder is None or parent(p) == folder)]


def variants(name: str) -> list[str]:
    """Every path the seeded notebook could give a note called `name` (its case or lower case, .md or .txt, the
    root or a seeded folder): what a task clears so that only its own note answers to the name."""  # noqa: D205, D209
    stems = dict.fromkeys((stem(name), stem(name).lower()))
    return [join(f, s + ext) for f in ("", *markor.FOLDERS) for s in stems for ext in (".md", ".txt")]


def note_about(topic: str) -> dict[str, Any]:
    """`OpenNoteTemplate` parameters for "my note about the {topic}": the seeded notebook's note whose name shares a
    word with the topic ("trip": lisbon_trip.md), else a note named after the topic; in the root either way.

    >>> note_about("trip")["name"], note_about("garden party")["name"]
    ('lisbon_trip.md', 'Garden party.md')
    """  # noqa: D205
    topic_words = set(topic.split())
    hits = [(s, text) for s, text in markor.NOTES if topic_words & set(s.split("_"))]
    if len(hits) == 1:
        name, text = f"{hits[0][0]}.md", hits[0][1]
    else:
        name, text = f"{topic.capitalize()}.md", f"# {topic.capitalize()}\n- first item"
    return {"topic": topic, "name": name, "folder": "", "text": text, "phrasing": 0}


def notes_on(topic: str) -> list[str]:
    """Every path the seeded notebook could give a note on `topic` (a word of it in the note's name)."""
    topic_words = set(topic.split())
    return [p for s, _ in markor.NOTES if topic_words & set(s.split("_")) for p in variants(s)]
