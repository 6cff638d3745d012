"""Task files and expert steps the Files templates share (`files_tasks`, `files_everyday_tasks`).

The task files: their stems and extensions (`STEMS`, `EXTS`), a name per instance (`task_name`), sizes and dates
fixed by the name (`size_of`, `date_of`, `spec`), a near miss's name (`twin`), the name taken off every other folder
(`elsewhere`), and the grid and path of a template's instance (`grid_of`, `path_of`). The checks read the Files
state with `files_of`, `only_touched` and `has`. Each expert step reads the UI elements and the sim's state and
returns the next action towards a sub-goal: close a menu or dialog (`leave`), browse a folder (`to_folder`), tap a
file's menu item (`menu_item`), trash a file (`trash_file`), reach a folder in the Move to / Copy to picker
(`picker_to`), show a file's info (`file_info`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files as F
from android_gym.sim.apps.files import base, join, parent
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, find, tap
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.notes_expert import reach

FILES = F.PACKAGE
STEMS = ("visa_application", "wedding_photos", "tax_return_2025", "gym_schedule", "car_insurance",
         "concert_tickets", "birthday_video", "thesis_draft", "rental_contract", "flight_itinerary", "bank_statement",
         "project_budget", "team_photo", "vaccination_record", "warranty_card", "study_guide", "meal_plan",
         "moving_checklist", "hotel_booking", "job_offer")
"""Task files' stems: no seeded file has one (`files_data.STEMS`), so no seed holds a task file."""
EXTS = ("pdf", "jpg", "docx", "zip", "png", "mp4", "txt")
POPUPS = ("menu", "rename", "mkdir", "confirm", "info", "sort")


def nth(pool: Sequence[Any], i: int) -> Any:
    """The `i`th item of `pool`, counting round it again past its end.

    >>> nth(("a", "b", "c"), 4)
    'b'
    """
    return pool[i % len(pool)]


def task_name(i: int) -> str:
    """Task file `i`'s name: a stem and an extension."""
    return f"{nth(STEMS, i)}.{nth(EXTS, i * 3 + i // len(STEMS))}"


def size_of(name: str, salt: object = "") -> int:
    """A task file's size in kB, fixed by its name and `salt` (not guessable from the goal)."""
    return 200 + stable_seed("files-task", name, salt) % 90_000


def date_of(name: str, salt: object = "") -> str:
    """A task file's date, fixed by its name and `salt`, within the last year."""
    return F.iso(stable_seed("files-date", name, salt) % 360)


def spec(path: str, salt: object = "") -> dict[str, Any]:
    """A task file for `apply`: {"path", "size_kb", "date"}."""
    return {"path": path, "size_kb": size_of(base(path), salt), "date": date_of(base(path), salt)}


def twin(name: str, tag: str) -> str:
    """A similar name: `tag` after the stem ("visa_application_copy.pdf")."""
    stem, _, ext = name.rpartition(".")
    return f"{stem}_{tag}.{ext}"


def elsewhere(name: str, folder: str) -> list[str]:
    """`name` in every top folder but `folder`: what a task takes off the phone so the name means one file."""
    return [join(f, name) for f in F.FOLDERS if f != folder]


def grid_of(folders: Sequence[str]) -> list[dict[str, Any]]:
    """Every task file in each of `folders`, with a phrasing rotating with it."""
    return [{"name": task_name(i), "folder": f, "phrasing": i + k}
            for i in range(len(STEMS)) for k, f in enumerate(folders)]


def path_of(params: Params) -> str:
    """The task file's path: {name} in {folder}."""
    return join(params["folder"], params["name"])


def files_of(state: State) -> dict[str, F.FileEntry]:
    """Files's files by path."""
    return {f["path"]: f for f in state_of(state, F.FilesState)["files"]}


def only_touched(state: State, paths: set[str]) -> bool:
    """Whether every Files edit concerns `paths` only (its path, and where a rename, move or copy put it)."""
    return all(e["path"] in paths and e.get("to", e["path"]) in paths for e in state_of(state, F.FilesState)["edits"])


def has(state: State, path: str, size_kb: int) -> bool:
    """Whether `path` holds a file of that size."""
    f = files_of(state).get(path)
    return f is not None and f["size_kb"] == size_kb


# -- expert steps ---------------------------------------------------------------------------------------------------
def leave(elements: Elements) -> Action:
    """Close a Files menu or dialog: its Cancel or Close, else BACK."""
    for label in ("Cancel", "Close"):
        e = find(elements, text=label, clickable=True)
        if e is not None:
            return tap(e)
    return back()


def to_folder(folder: str, elements: Elements, state: State) -> Action | None:
    """The next step to Files browsing `folder` of Internal storage (None once there, nothing selected)."""
    step = into_app("Files", FILES, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "home":
        return press(elements, desc=F.ROOT_LABEL)
    if screen["name"] != "folder":
        return leave(elements) if screen["name"] in POPUPS else back()
    current = screen["args"]["path"]
    if screen["args"]["selected"] is not None or (current and not folder.startswith(current + "/")
                                                  and current != folder):
        return back()
    if current == folder:
        return None
    step_in = (folder[len(current) + 1:] if current else folder).split("/")[0]
    return reach(elements, state, find(elements, rid=F.TITLE_RID, text=step_in))


def menu_item(path: str, label: str, elements: Elements, state: State) -> Action:
    """Tap `label` in file `path`'s More options menu, reaching the menu from its folder first."""
    screen = state["screen"]
    if state["foreground"] == FILES and screen["name"] == "menu" and screen["args"]["path"] == path:
        return press(elements, text=label)
    return to_folder(parent(path), elements, state) or reach(elements, state,
                                                             find(elements, desc=f"More options for {base(path)}"))


def trash_file(path: str, elements: Elements, state: State) -> Action:
    """Move file `path` to the Trash: its More options, Move to Trash, confirm."""
    screen = state["screen"]
    if state["foreground"] == FILES and screen["name"] == "confirm" and screen["args"]["paths"] == [path]:
        return press(elements, text="Move to Trash")
    return menu_item(path, "Move to Trash", elements, state)


def picker_to(folder: str, elements: Elements, state: State) -> Action | None:
    """In the Move to / Copy to picker, the next step to `folder` (None once there)."""
    current = state["screen"]["args"]["folder"]
    if current == folder:
        return None
    if current and not folder.startswith(current + "/"):
        return back()  # up one folder
    step_in = (folder[len(current) + 1:] if current else folder).split("/")[0]
    return reach(elements, state, find(elements, rid=F.TITLE_RID, text=step_in))


def file_info(path: str, elements: Elements, state: State) -> Action | None:
    """The next step to `path`'s File info in front (None once there)."""
    screen = state["screen"]
    if state["foreground"] == FILES and screen["name"] == "info" and screen["args"]["path"] == path:
        return None
    return menu_item(path, "File info", elements, state)
