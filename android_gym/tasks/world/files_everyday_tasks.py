"""Files templates that only the everyday instructions use (issue 49), outside the World suite, whose tasks stay as
published: delete a file, move a file, find a download, create a folder (`EVERYDAY`: with the suite's
`RenameFileTemplate`, the Files templates the goal parser maps everyday lines onto). A line names a file without its
folder, so the file goes to the folder of its kind (`home_of`), and the name, or the kind, is taken off wherever else
it would make the line ambiguous (`elsewhere`, `seeded_kind`); `everyday_params` fills in what a line leaves unsaid.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files as F
from android_gym.sim.apps.files import base, join, parent
from android_gym.sim.apps.files_data import STEMS as FILE_STEMS
from android_gym.tasks.expert import fill, find
from android_gym.tasks.world.base import Elements, State, press
from android_gym.tasks.world.files_expert import (
    FILES,
    STEMS,
    Params,
    elsewhere,
    files_of,
    grid_of,
    has,
    menu_item,
    nth,
    only_touched,
    path_of,
    picker_to,
    size_of,
    spec,
    task_name,
    to_folder,
    trash_file,
    twin,
)
from android_gym.tasks.world.files_tasks import NEW_FOLDERS, FilesTemplate
from android_gym.tasks.world.notes_expert import reach

HOMES = {"pdf": "Download", "zip": "Download", "apk": "Download", "jpg": "Pictures", "png": "Pictures",
         "mp4": "Movies", "mp3": "Music", "m4a": "Recordings"}
"""Where a file a line names without a folder lies, by extension (other kinds: Documents)."""


def home_of(name: str) -> str:
    """The folder of a file named without one: downloads in Download, pictures in Pictures, documents in Documents.

    >>> home_of("report_old.pdf"), home_of("notes.txt"), home_of("beach.jpg")
    ('Download', 'Documents', 'Pictures')
    """
    return HOMES.get(F.ext_of(name), "Documents")


def seeded_kind(folder: str, ext: str) -> list[str]:
    """Every path a seed may give a file of `ext`'s category in `folder`: what a task takes off so that "the photo"
    (or "the PDF") of that folder is its own file."""  # noqa: D205, D209
    kinds = next((k for k in F.KINDS.values() if ext in k), (ext,))
    return [join(folder, f"{s}.{e}") for s in FILE_STEMS for e in kinds]


def _other_kind(name: str) -> str:
    """The same stem as another kind of file (a PDF, or a zip for a PDF)."""
    stem, _, ext = name.rpartition(".")
    return f"{stem}.{'zip' if ext == 'pdf' else 'pdf'}"


class DeleteFileTemplate(FilesTemplate):
    """Delete {name} in {folder}: it goes to the Trash; its copy beside it stays; no other folder holds the name."""

    name, max_steps, split_key = "files_delete", 12, "name"
    apps = (FILES,)
    phrasings = ("Delete the file {name}", "Move {name} in my {folder} folder to the Trash",
                 "In Files, get rid of {name} ({folder} folder)")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file in Download and Documents."""
        return grid_of(("Download", "Documents"))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its copy in the folder; the name nowhere else."""
        copy = join(params["folder"], twin(params["name"], "copy"))
        return {FILES: {"absent": elsewhere(params["name"], params["folder"]),
                        "files": [spec(path_of(params)), spec(copy)]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in the Trash, its copy kept, nothing else touched."""
        copy = twin(params["name"], "copy")
        trash = [t["path"] for t in state_of(state, F.FilesState)["trash"]]
        return (path_of(params) in trash and path_of(params) not in files_of(state)
                and has(state, join(params["folder"], copy), size_of(copy)) and only_touched(state, {path_of(params)}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Move to Trash, confirm."""
        return trash_file(path_of(params), elements, state)


class MoveFileTemplate(FilesTemplate):
    """Move {name} from {src} to {dest}: the only file of its kind in {src}, next to the same stem of another kind."""

    name, max_steps, split_key = "files_move", 15, "name"
    apps = (FILES,)
    phrasings = ("Move {name} from {src} to {dest}", "In Files, move {name} out of {src} into the {dest} folder",
                 "Put {name} from my {src} folder into {dest}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file with three (source, destination) pairs."""
        return [{"name": task_name(i), "src": src, "dest": dest, "phrasing": i + k} for i in range(len(STEMS))
                for k, (src, dest) in enumerate((("Download", "Documents"), ("Download", "Pictures"),
                                                 ("Documents", "Download")))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its other-kind namesake in {src}; no seeded file of its kind there, nor the name elsewhere."""
        src, name = params["src"], params["name"]
        return {FILES: {"absent": [*seeded_kind(src, F.ext_of(name)), *elsewhere(name, src)],
                        "files": [spec(join(src, name)), spec(join(src, _other_kind(name)))]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in {dest} and out of {src}; its namesake where it was; nothing else touched."""
        src, dest, other = join(params["src"], params["name"]), join(params["dest"], params["name"]), _other_kind(
            params["name"])
        return (src not in files_of(state) and has(state, dest, size_of(params["name"]))
                and has(state, join(params["src"], other), size_of(other)) and only_touched(state, {src, dest}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Move to, the destination, Move here."""
        if state["foreground"] == FILES and state["screen"]["name"] == "picker" and not state.get("dialog"):
            return picker_to(params["dest"], elements, state) or press(elements, text="Move here")
        return menu_item(join(params["src"], params["name"]), "Move to", elements, state)


class FindDownloadTemplate(FilesTemplate):
    """Find the {kind} downloaded {days} days ago and open it in Files; an older download of that kind, another kind
    downloaded that day and the same kind of that day outside Download are the near misses."""  # noqa: D205, D209

    name, max_steps, split_key = "files_find_download", 10, "name"
    apps = (FILES,)
    KIND_WORDS = {"pdf": "PDF", "zip": "zip file", "jpg": "photo", "apk": "app installer"}
    phrasings = ("Find the {kind} I downloaded {when}", "Open the {kind} file I downloaded {when}",
                 "Show me the {kind} in my downloads from {date}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task stem as a PDF, a zip file and a photo, downloaded one to six days ago."""
        return [{"name": f"{nth(STEMS, i)}.{ext}", "days": 1 + (i + k) % 6, "phrasing": i + k}
                for i in range(len(STEMS)) for k, ext in enumerate(("pdf", "zip", "jpg"))]

    def goal(self, params: Params) -> str:
        """The instruction: the kind of file and the day (yesterday, n days ago, or its date)."""
        days = params["days"]
        return nth(self.phrasings, params["phrasing"]).format(
            kind=self.KIND_WORDS.get(F.ext_of(params["name"]), F.ext_of(params["name"]).upper()),
            when="yesterday" if days == 1 else "today" if days == 0 else f"{days} days ago",
            date=F.date_label(F.iso(days)))

    def _near(self, params: Params) -> list[str]:
        """An older download of the kind, another kind downloaded that day, the kind that day in Documents."""
        stem, ext = params["name"].rpartition(".")[0], F.ext_of(params["name"])
        others = [s for s in STEMS if s != stem]
        pick = stable_seed("files-find", params["name"])
        return [join("Download", f"{nth(others, pick)}.{ext}"), join("Download", _other_kind(params["name"])),
                join("Documents", f"{nth(others, pick + 7)}.{ext}")]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The download dated {days} days ago, the near misses, and no seeded download of that kind."""
        older, other_kind, outside = self._near(params)
        days, target = params["days"], join("Download", params["name"])
        files = [{**spec(target), "date": F.iso(days)}, {**spec(older), "date": F.iso(days + 3)},
                 {**spec(other_kind), "date": F.iso(days)}, {**spec(outside), "date": F.iso(days)}]
        return {FILES: {"absent": [*seeded_kind("Download", F.ext_of(params["name"])),
                                   *elsewhere(params["name"], "Download")], "files": files}}

    def check(self, params: Params, state: State) -> bool:
        """Files in front with that download open (its page or its info), nothing changed."""
        fs = state_of(state, F.FilesState)
        return (state.get("foreground") == FILES and fs["opened"] == join("Download", params["name"])
                and not fs["edits"])

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Internal storage, Download, the file's row."""
        return to_folder("Download", elements, state) or reach(elements, state, find(elements, rid=F.TITLE_RID,
                                                                                     text=params["name"]))


class CreateFolderTemplate(FilesTemplate):
    """Create a folder called {new} in {where} (anywhere when {where} is None): that one new folder, its name in any
    case; a folder named like it ("{new} old") is there already."""  # noqa: D205, D209

    name, max_steps, split_key = "files_create_folder", 14, "new"
    apps = (FILES,)
    phrasings = ("Create a folder called {new} in {where}", "Make a new folder named {new} inside {where}",
                 "In Files, add a folder {new} to {where}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task folder name in three places."""
        return [{"new": new, "where": where, "phrasing": i + k} for i, new in enumerate(NEW_FOLDERS)
                for k, where in enumerate(("Documents", "Download", "Pictures"))]

    def _place(self, params: Params) -> str:
        """Where the expert makes it: {where}, else the storage's root (Documents when the root has the name)."""
        taken = any(f.casefold() == params["new"].casefold() for f in F.FOLDERS)
        return params["where"] if params["where"] is not None else "Documents" if taken else ""

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A folder named like the new one, next to where it goes."""
        return {FILES: {"folders": [join(params["where"] or "Documents", f"{params['new']} old")]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: a folder of that name (any case) made in {where} (anywhere when None)."""
        edits = state_of(state, F.FilesState)["edits"]
        if len(edits) != 1 or edits[0]["op"] != "mkdir":
            return False
        path = edits[0]["path"]
        return (base(path).casefold() == params["new"].casefold()
                and (params["where"] is None or parent(path) == params["where"]))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """The folder, More options, New folder, the name, Create."""
        screen = state["screen"]
        if state["foreground"] == FILES and screen["name"] == "mkdir":
            return fill(elements, state, F.NAME_RID, params["new"]) or press(elements, text="Create")
        if state["foreground"] == FILES and screen["name"] == "menu" and screen["args"]["kind"] == "list":
            return press(elements, text="New folder")
        return to_folder(self._place(params), elements, state) or press(elements, desc="More options")


def everyday_params(template: str, **values: Any) -> dict[str, Any]:
    """The parameters of an `EVERYDAY` template (by name) for the values a line names, the rest chosen here.

    "files_rename": name, new (the file in its `home_of` folder, named nowhere else); "files_delete": name;
    "files_move": name (or a kind: ext, then a task file of that kind is "the photo"), src, dest;
    "files_find_download": ext, days; "files_create_folder": new, where (None: anywhere).

    >>> everyday_params("files_rename", name="notes.txt", new="meeting-notes.txt")["folder"]
    'Documents'

    Raises:
        KeyError: an unknown template name, or a value it needs is missing.
    """
    pick = stable_seed("files-everyday", template, *sorted(map(str, values.items())))
    match template:
        case "files_rename":
            return {"name": values["name"], "folder": home_of(values["name"]), "new": values["new"], "sole": True,
                    "phrasing": 0}
        case "files_delete":
            return {"name": values["name"], "folder": home_of(values["name"]), "phrasing": 0}
        case "files_move":
            name = values.get("name") or f"{nth(STEMS, pick)}.{values['ext']}"
            return {"name": name, "src": values["src"], "dest": values["dest"], "phrasing": 0}
        case "files_find_download":
            return {"name": f"{nth(STEMS, pick)}.{values['ext']}", "days": values["days"], "phrasing": 0}
        case "files_create_folder":
            return {"new": values["new"], "where": values.get("where"), "phrasing": 0}
    raise KeyError(f"`template` {template!r} is not an everyday Files template; known: {[t.name for t in EVERYDAY]}")


EVERYDAY: tuple[FilesTemplate, ...] = (DeleteFileTemplate(), MoveFileTemplate(), FindDownloadTemplate(),
                                       CreateFolderTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with `RenameFileTemplate`; not in the World
suite, whose tasks stay fixed."""
