"""World-suite tasks over the Files app (issue 17): rename, copy, restore from the Trash, delete the largest file, move
two files into a new folder, read a file's size or date, rename a file that is not there, and two tasks that carry
what a file is from one app to another (a Markor note names the file to delete; a file's size texted via Messages).
`EVERYDAY` holds templates outside the suite for the goal parser's everyday lines (issue 49): delete, move, find
a download, create a folder (`everyday_params` fills in what a line leaves unsaid).

Every task puts its files on the phone under fixed names (`initial`), next to a near miss (a twin with a similar name,
the same name in another folder), among the episode's seeded files, whose names, sizes and dates move the task's rows
around. Checks read the Files state and its episode edit log, so touching the twin, or anything else, fails. Splits
hold out file names (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry
dropped taps by acting on the unchanged screen again.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import files as F
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.files import base, join, parent, size_label
from android_gym.sim.apps.files_data import STEMS as FILE_STEMS
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import app_state, back, fill, find, obstacle, swipe_up, tap
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import MARKOR, Elements, State, markor_item, press, reach
from android_gym.tasks.world.notes_tasks import WorldTemplate

FILES = F.PACKAGE
Params = Mapping[str, Any]
STEMS = ("visa_application", "wedding_photos", "tax_return_2025", "gym_schedule", "car_insurance",
         "concert_tickets", "birthday_video", "thesis_draft", "rental_contract", "flight_itinerary", "bank_statement",
         "project_budget", "team_photo", "vaccination_record", "warranty_card", "study_guide", "meal_plan",
         "moving_checklist", "hotel_booking", "job_offer")
"""Task files' stems: no seeded file has one (`files_data.STEMS`), so no seed holds a task file."""
EXTS = ("pdf", "jpg", "docx", "zip", "png", "mp4", "txt")
NEW_STEMS = ("final", "signed", "2026", "backup", "shared", "scan", "old", "v2")
NEW_FOLDERS = ("Trip 2026", "Taxes", "Receipts", "Wedding", "House", "Work docs", "Kids", "Insurance", "Car",
               "Health")
NOTES = ("files_cleanup.md", "phone_cleanup.md", "storage_todo.md", "declutter.md")
NATURAL = {"Download": "zip", "Documents": "pdf", "Music": "mp3", "Pictures": "png", "DCIM": "jpg", "Movies": "mp4",
           "Recordings": "m4a"}
"""A folder's own kind of file: what its fillers are (delete-largest)."""
POPUPS = ("menu", "rename", "mkdir", "confirm", "info", "sort")


def _pick(pool: Sequence[Any], i: int) -> Any:
    return pool[i % len(pool)]


def task_name(i: int) -> str:
    """Task file `i`'s name: a stem and an extension."""
    return f"{_pick(STEMS, i)}.{_pick(EXTS, i * 3 + i // len(STEMS))}"


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


def files_of(state: State) -> dict[str, dict[str, Any]]:
    """Files's files by path."""
    return {f["path"]: f for f in app_state(state, FILES).get("files", [])}


def only_touched(state: State, paths: set[str]) -> bool:
    """Whether every Files edit concerns `paths` only."""
    return all(e["path"] in paths and e.get("to", e["path"]) in paths for e in app_state(state, FILES)["edits"])


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


# -- templates ------------------------------------------------------------------------------------------------------
def _grid(folders: Sequence[str]) -> list[dict[str, Any]]:
    """Every task file in each of `folders`, with a phrasing rotating with it."""
    return [{"name": task_name(i), "folder": f, "phrasing": i + k}
            for i in range(len(STEMS)) for k, f in enumerate(folders)]


def _path(params: Params) -> str:
    return join(params["folder"], params["name"])


class FilesTemplate(WorldTemplate):
    """A Files template: its expert gets past a pop-up or a spinner, then takes its own step (`act`)."""

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """The template's own next step, on a clear screen."""
        raise NotImplementedError

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Past a pop-up or spinner first, then `act`."""
        return obstacle(elements, state) or self.act(params, elements, state)


class RenameFileTemplate(FilesTemplate):
    """Rename {name} in {folder} to {new} (the extension kept); its copy beside it stays as it is."""

    name, max_steps, split_key = "files_rename", 15, "name"
    apps = (FILES,)
    phrasings = ('In Files, rename {name} in the {folder} folder to "{new}"',
                 "Rename my file {name} ({folder} folder) to {new} using the Files app",
                 "Change the name of {name} in {folder} to {new}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file in Download and Documents, with a new name."""
        return [{**p, "new": twin(p["name"], _pick(NEW_STEMS, p["phrasing"]))} for p in _grid(("Download",
                                                                                                "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its copy in the folder; the new name free (and, with the optional "sole": True of a parsed
        line, which names no folder, the file's name in no other folder)."""  # noqa: D205, D209
        sole = elsewhere(params["name"], params["folder"]) if params.get("sole") else []
        return {FILES: {"absent": [join(params["folder"], params["new"]), *sole],
                        "files": [spec(_path(params)), spec(join(params["folder"], twin(params["name"], "copy")))]}}

    def check(self, params: Params, state: State) -> bool:
        """Only the new name holds the file, in the same folder; nothing else touched."""
        new = join(params["folder"], params["new"])
        return (_path(params) not in files_of(state) and has(state, new, size_of(params["name"]))
                and only_touched(state, {_path(params), new}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Rename, Clear text, type the new stem (the extension stays), OK."""
        screen, stem = state["screen"], params["new"].rpartition(".")[0]
        if state["foreground"] == FILES and screen["name"] == "rename" and screen["args"]["path"] == _path(params):
            if not stem.startswith(screen["fields"].get(F.NAME_RID, "")):
                return press(elements, desc="Clear text")
            return fill(elements, state, F.NAME_RID, stem) or press(elements, text="OK")
        return menu_item(_path(params), "Rename", elements, state)


class MoveTwoTemplate(FilesTemplate):
    """Move {name} and {other} from Download into a new folder {new} in {dest}; a third file stays."""

    name, max_steps, split_key = "files_move_two_new_folder", 24, "name"
    apps = (FILES,)
    phrasings = ('In Files, move {name} and {other} from Download into a new folder "{new}" inside {dest}',
                 "Create a folder called {new} in {dest} and move {name} and {other} there from my downloads",
                 "Put {name} and {other} (both in Download) into a new {dest} folder named {new}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file with two others, a folder name and a destination."""
        return [{"name": task_name(i), "other": task_name(i + 7), "third": task_name(i + 13),
                 "new": _pick(NEW_FOLDERS, i + k), "dest": dest, "phrasing": i + k}
                for i in range(len(STEMS)) for k, dest in enumerate(("Documents", "Download"))]

    def _paths(self, params: Params) -> tuple[str, str, str]:
        return join("Download", params["name"]), join("Download", params["other"]), join(params["dest"], params["new"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two files and a third in Download."""
        return {FILES: {"files": [spec(join("Download", params[k])) for k in ("name", "other", "third")]}}

    def check(self, params: Params, state: State) -> bool:
        """Both files in the new folder and out of Download; the third where it was; nothing else touched."""
        a, b, folder = self._paths(params)
        moved = {join(folder, base(a)), join(folder, base(b))}
        return (folder in app_state(state, FILES)["folders"] and a not in files_of(state) and b not in files_of(state)
                and all(has(state, join(folder, base(p)), size_of(base(p))) for p in (a, b))
                and has(state, join("Download", params["third"]), size_of(params["third"]))
                and only_touched(state, {a, b, folder, *moved}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Select both, More options, Move to, the destination, New folder, name it, Create, Move here."""
        a, b, folder = self._paths(params)
        screen, fs = state["screen"], app_state(state, FILES)
        step = into_app("Files", FILES, elements, state)
        if step is not None:
            return step
        name, args = screen["name"], screen["args"]
        if name == "picker":
            if args["folder"] == folder:
                return press(elements, text="Move here")
            if folder in fs["folders"]:
                return picker_to(folder, elements, state) or back()
            return picker_to(params["dest"], elements, state) or press(elements, text="New folder")
        if name == "mkdir":
            return fill(elements, state, F.NAME_RID, params["new"]) or press(elements, text="Create")
        if name == "menu" and args["kind"] == "selection":
            return press(elements, text="Move to")
        if name == "folder" and args["path"] == "Download" and fs["selected"] is not None:
            wrong = [p for p in fs["selected"] if p not in (a, b)]
            missing = [p for p in (a, b) if p not in fs["selected"]]
            if not wrong and not missing:
                return press(elements, desc="More options")
            return reach(elements, state, find(elements, rid=F.TITLE_RID, text=base((wrong or missing)[0])))
        return menu_item(a, "Select", elements, state)


class DeleteLargestTemplate(FilesTemplate):
    """Move the largest file of {folder} to the Trash: the seeded files and two fillers compete."""

    name, max_steps, split_key = "files_delete_largest", 15, "key"
    apps = (FILES,)
    phrasings = ("Delete the largest file in my {folder} folder in Files",
                 "In Files, find the biggest file in {folder} and move it to the Trash",
                 "Free up space: trash the largest file in the {folder} folder")

    def grid(self) -> list[dict[str, Any]]:
        """Every folder with fillers named after each task stem."""
        return [{"folder": folder, "key": f"{folder}/{_pick(STEMS, i)}", "a": f"{_pick(STEMS, i)}.{ext}",
                 "b": f"{_pick(STEMS, i + 5)}.{ext}", "phrasing": i + k}
                for i in range(len(STEMS)) for k, (folder, ext) in enumerate(NATURAL.items())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Two fillers in the folder (sizes fixed by the instance) with the seeded files."""
        return {FILES: {"files": [spec(join(params["folder"], params[k]), params["key"]) for k in ("a", "b")]}}

    def check(self, params: Params, state: State) -> bool:
        """One edit: a file of the folder trashed, at least as large as every file left in it."""
        fs = app_state(state, FILES)
        if len(fs["edits"]) != 1 or fs["edits"][0]["op"] != "trash":
            return False
        path = fs["edits"][0]["path"]
        gone = next((t for t in fs["trash"] if t["path"] == path), None)
        left = [f["size_kb"] for f in fs["files"] if f["folder"] == params["folder"]]
        return gone is not None and parent(path) == params["folder"] and all(gone["size_kb"] >= s for s in left)

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """The folder, Sort by Size (largest first), the first file's More options, Move to Trash, confirm."""
        screen = state["screen"]
        if state["foreground"] == FILES and not state.get("dialog"):
            match screen["name"]:
                case "confirm":
                    return press(elements, text="Move to Trash")
                case "sort":
                    return press(elements, text=F.SORTS["size"])
                case "menu" if screen["args"]["kind"] == "file":
                    return press(elements, text="Move to Trash")
        step = to_folder(params["folder"], elements, state)
        if step is not None:
            return step
        if app_state(state, FILES)["sort"] != "size":
            return press(elements, desc="Sort")
        if screen["scroll"]:
            return Action.swipe(0.5, 0.35, 0.5, 0.7)
        first = next((e for e in elements if e.desc.startswith("More options for ")), None)
        return tap(first) if first is not None else swipe_up()


class RestoreTemplate(FilesTemplate):
    """Restore {name} from the Trash to {folder}; the same stem of another kind stays in the Trash."""

    name, max_steps, split_key = "files_restore", 10, "name"
    apps = (FILES,)
    phrasings = ("Restore {name} from the Trash in Files", "I deleted {name} by mistake: get it back in Files",
                 "In the Files app, take {name} out of the Trash")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file, from Download, Documents or Pictures."""
        return _grid(("Download", "Documents", "Pictures"))

    def _near(self, params: Params) -> str:
        stem, _, ext = params["name"].rpartition(".")
        return join(params["folder"], f"{stem}.{'pdf' if ext != 'pdf' else 'jpg'}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file, the near miss and another file in the Trash (order by instance); not in the folder."""
        items = [spec(_path(params)), spec(self._near(params)), spec(join("Download", task_name(params["phrasing"]
                                                                                                 + 3)))]
        k = params["phrasing"] % 3
        return {FILES: {"absent": [_path(params)], "trash": items[k:] + items[:k]}}

    def check(self, params: Params, state: State) -> bool:
        """The file is back in its folder, the near miss still in the Trash, nothing else restored."""
        trash = [t["path"] for t in app_state(state, FILES)["trash"]]
        return (has(state, _path(params), size_of(params["name"])) and _path(params) not in trash
                and self._near(params) in trash and only_touched(state, {_path(params)}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Trash, the file's More options, Restore."""
        step = into_app("Files", FILES, elements, state)
        if step is not None:
            return step
        screen, fs = state["screen"], app_state(state, FILES)
        if screen["name"] == "menu" and screen["args"]["kind"] == "trash":
            ok = fs["trash"][screen["args"]["index"]]["path"] == _path(params)
            return press(elements, text="Restore") if ok else leave(elements)
        if screen["name"] == "trash":
            return reach(elements, state, find(elements, desc=f"More options for {params['name']}"))
        if screen["name"] == "home":
            return press(elements, desc="Trash")
        return leave(elements) if screen["name"] in POPUPS else back()


class CopyToTemplate(FilesTemplate):
    """Copy {name} from Download to {dest}: both copies stay; its older twin is not copied."""

    name, max_steps, split_key = "files_copy_to", 15, "name"
    apps = (FILES,)
    phrasings = ("Copy {name} from Download to the {dest} folder in Files",
                 "In Files, make a copy of {name} (in Download) in {dest}",
                 "Put a copy of my downloaded file {name} into {dest}, keeping the original")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file with three destinations."""
        return [{"name": task_name(i), "dest": dest, "phrasing": i + k}
                for i in range(len(STEMS)) for k, dest in enumerate(("Documents", "Pictures", "Music"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its older twin in Download."""
        return {FILES: {"files": [spec(join("Download", params["name"])),
                                  spec(join("Download", twin(params["name"], "old")), "old")]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in Download and a copy of it in the destination; nothing else touched."""
        src, dest = join("Download", params["name"]), join(params["dest"], params["name"])
        size = size_of(params["name"])
        return has(state, src, size) and has(state, dest, size) and only_touched(state, {src, dest})

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Copy to, the destination, Copy here."""
        if state["foreground"] == FILES and state["screen"]["name"] == "picker" and not state.get("dialog"):
            return picker_to(params["dest"], elements, state) or press(elements, text="Copy here")
        return menu_item(join("Download", params["name"]), "Copy to", elements, state)


class FileDetailAnswerTemplate(FilesTemplate):
    """The {field} ("size" or "date") Files shows for {name} in {folder}; a namesake in another folder differs."""

    name, max_steps, split_key = "files_file_detail", 12, "name"
    outcome, apps = "answer", (FILES,)
    phrasings = ()
    asks = {"size": ("How big is the file {name} in my {folder} folder, according to Files?",
                     "What size does Files show for {name} in {folder}?",
                     "Check in Files how large {name} in the {folder} folder is"),
            "date": ("When was {name} in my {folder} folder last modified, according to Files?",
                     "What modification date does Files show for {name} in {folder}?",
                     "Look up in Files the date of {name} in the {folder} folder")}

    def grid(self) -> list[dict[str, Any]]:
        """Every task file in Download and Documents, asking the size or the date."""
        return [{**p, "field": ("size", "date")[p["phrasing"] // 2 % 2]} for p in _grid(("Download", "Documents"))]

    def goal(self, params: Params) -> str:
        """The question, in the phrasing `params["phrasing"]` picks for the field."""
        return _pick(self.asks[params["field"]], params["phrasing"]).format(**params)

    def _other(self, params: Params) -> str:
        return join("Documents" if params["folder"] == "Download" else "Download", params["name"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file, and a namesake of another size and date in the other folder."""
        return {FILES: {"files": [spec(_path(params)), spec(self._other(params), "other")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The size or date as Files shows it; None once anything was changed."""
        f = files_of(state).get(_path(params))
        if f is None or app_state(state, FILES)["edits"]:
            return None
        return size_label(f["size_kb"]) if params["field"] == "size" else F.date_label(f["date"])

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """The file's More options, File info, answer with the value shown."""
        step = file_info(_path(params), elements, state)
        if step is not None:
            return step
        return answer_with(find(elements, rid=f"{FILES}:id/info_{params['field']}"))


class RenameMissingTemplate(RenameFileTemplate):
    """Rename {name} in {folder}, which is not there (only its copy is): declare it impossible, touch nothing."""

    name, max_steps = "files_rename_missing", 10
    outcome = "infeasible"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No such file anywhere; its copy in the folder."""
        gone = [join(f, params["name"]) for f in F.FOLDERS]
        return {FILES: {"absent": gone, "files": [spec(join(params["folder"], twin(params["name"], "copy")))]}}

    def check(self, params: Params, state: State) -> bool:
        """The file is absent from the folder and nothing in Files was changed."""
        return _path(params) not in files_of(state) and not app_state(state, FILES).get("edits")

    def looked(self, params: Params, state: State) -> bool:
        """Files in front on that folder, or searching for the name."""
        fs = app_state(state, FILES)
        if state.get("foreground") != FILES:
            return False
        if fs.get("page") == "folder":
            return fs["folder"] == params["folder"]
        query = (fs.get("query") or "").strip().casefold()
        return fs.get("page") == "search" and len(query) >= 3 and query in params["name"].casefold()

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the folder; the file is not there: declare."""
        return to_folder(params["folder"], elements, state) or impossible()


class NoteSaysDeleteTemplate(FilesTemplate):
    """A Markor note {note} names a file of {folder} to delete: trash that one, not its neighbour."""

    name, max_steps, split_key = "files_note_delete", 19, "name"
    apps = (MARKOR, FILES)
    phrasings = ("Do what my Markor note {note} says in the Files app",
                 "Read the note {note} in Markor and delete the file it names in Files",
                 "My Markor note {note} lists a file to clean up: move it to the Trash in Files")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file in Download and Documents, with a note and a neighbour."""
        return [{**p, "note": _pick(NOTES, p["phrasing"]), "other": task_name(STEMS.index(p["name"].split(".")[0])
                                                                             + 9)}
                for p in _grid(("Download", "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note at Markor's root naming the file; the file and its neighbour in the folder."""
        text = f"# Clean up\nDelete {params['name']} from the {params['folder']} folder."
        return {MARKOR: {"files": {params["note"]: text}},
                FILES: {"files": [spec(_path(params)), spec(join(params["folder"], params["other"]))]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in the Trash, its neighbour kept, nothing else touched in Files or Markor."""
        trash = [t["path"] for t in app_state(state, FILES)["trash"]]
        return (_path(params) in trash and _path(params) not in files_of(state)
                and has(state, join(params["folder"], params["other"]), size_of(params["other"]))
                and only_touched(state, {_path(params)}) and not app_state(state, MARKOR).get("edits"))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor, then trash the file it names in Files."""
        if app_state(state, MARKOR).get("last_opened") != params["note"]:
            return markor_item(params["note"], elements, state)
        return trash_file(_path(params), elements, state)


class SizeToTextTemplate(FilesTemplate):
    """Text {person} the size of {name} in {folder}: one SMS holding it as Files shows it."""

    name, max_steps, split_key = "files_size_to_text", 20, "name"
    apps = (FILES, M.PACKAGE)
    phrasings = ("Text {person} the size of {name} from my {folder} folder",
                 "Send {person} a message saying how big {name} in {folder} is",
                 "{person} asked how large {name} ({folder} folder) is: check it in Files and text them")

    def grid(self) -> list[dict[str, Any]]:
        """Every task file in Download and Documents, with a person."""
        return [{**p, "person": names(f"files:{p['name']}:{p['folder']}", 1)[0]}
                for p in _grid(("Download", "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its namesake in the other folder; a conversation with the person."""
        other = join("Documents" if params["folder"] == "Download" else "Download", params["name"])
        p = person(params["person"])
        return {FILES: {"files": [spec(_path(params)), spec(other, "other")]},
                M.PACKAGE: {"threads": [conversation(p, ("How big is that file?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the size; nothing changed in Files."""
        label = size_label(size_of(params["name"]))
        return texts_ok(state, [(params["person"], label)], contains=True) and not app_state(state, FILES)["edits"]

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """File info in Files to read the size, then text it."""
        f = files_of(state).get(_path(params))
        if app_state(state, FILES).get("last_opened") != _path(params) or f is None:
            return file_info(_path(params), elements, state) or back()
        return send_text(person(params["person"]), size_label(f["size_kb"]), elements, state)


# -- everyday files (issue 49): the goal parser's lines, not in the World suite ------------------------------------
HOMES = {"pdf": "Download", "zip": "Download", "apk": "Download", "jpg": "Pictures", "png": "Pictures",
         "mp4": "Movies", "mp3": "Music", "m4a": "Recordings"}
"""Where a file a line names without a folder lies, by extension (other kinds: Documents)."""


def home_of(name: str) -> str:
    """The folder of a file named without one: downloads in Download, pictures in Pictures, documents in Documents.

    >>> home_of("report_old.pdf"), home_of("notes.txt"), home_of("beach.jpg")
    ('Download', 'Documents', 'Pictures')
    """
    return HOMES.get(F.ext_of(name), "Documents")


def elsewhere(name: str, folder: str) -> list[str]:
    """`name` in every top folder but `folder`: what a task takes off the phone so the name means one file."""
    return [join(f, name) for f in F.FOLDERS if f != folder]


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
        return _grid(("Download", "Documents"))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its copy in the folder; the name nowhere else."""
        copy = join(params["folder"], twin(params["name"], "copy"))
        return {FILES: {"absent": elsewhere(params["name"], params["folder"]),
                        "files": [spec(_path(params)), spec(copy)]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in the Trash, its copy kept, nothing else touched."""
        copy = twin(params["name"], "copy")
        trash = [t["path"] for t in app_state(state, FILES)["trash"]]
        return (_path(params) in trash and _path(params) not in files_of(state)
                and has(state, join(params["folder"], copy), size_of(copy)) and only_touched(state, {_path(params)}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Move to Trash, confirm."""
        return trash_file(_path(params), elements, state)


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
        return [{"name": f"{_pick(STEMS, i)}.{ext}", "days": 1 + (i + k) % 6, "phrasing": i + k}
                for i in range(len(STEMS)) for k, ext in enumerate(("pdf", "zip", "jpg"))]

    def goal(self, params: Params) -> str:
        """The instruction: the kind of file and the day (yesterday, n days ago, or its date)."""
        days = params["days"]
        return _pick(self.phrasings, params["phrasing"]).format(
            kind=self.KIND_WORDS.get(F.ext_of(params["name"]), F.ext_of(params["name"]).upper()),
            when="yesterday" if days == 1 else "today" if days == 0 else f"{days} days ago",
            date=F.date_label(F.iso(days)))

    def _near(self, params: Params) -> list[str]:
        """An older download of the kind, another kind downloaded that day, the kind that day in Documents."""
        stem, ext = params["name"].rpartition(".")[0], F.ext_of(params["name"])
        others = [s for s in STEMS if s != stem]
        pick = stable_seed("files-find", params["name"])
        return [join("Download", f"{_pick(others, pick)}.{ext}"), join("Download", _other_kind(params["name"])),
                join("Documents", f"{_pick(others, pick + 7)}.{ext}")]

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
        fs = app_state(state, FILES)
        return (state.get("foreground") == FILES and fs.get("opened") == join("Download", params["name"])
                and not fs.get("edits"))

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
        edits = app_state(state, FILES)["edits"]
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
            name = values.get("name") or f"{_pick(STEMS, pick)}.{values['ext']}"
            return {"name": name, "src": values["src"], "dest": values["dest"], "phrasing": 0}
        case "files_find_download":
            return {"name": f"{_pick(STEMS, pick)}.{values['ext']}", "days": values["days"], "phrasing": 0}
        case "files_create_folder":
            return {"new": values["new"], "where": values.get("where"), "phrasing": 0}
    raise KeyError(f"`template` {template!r} is not an everyday Files template; known: {[t.name for t in EVERYDAY]}")


TEMPLATES: tuple[TaskTemplate, ...] = (
    RenameFileTemplate(), MoveTwoTemplate(), DeleteLargestTemplate(), RestoreTemplate(), CopyToTemplate(),
    FileDetailAnswerTemplate(), RenameMissingTemplate(), NoteSaysDeleteTemplate(), SizeToTextTemplate(),
)
"""The Files templates of the world suite."""
EVERYDAY: tuple[FilesTemplate, ...] = (DeleteFileTemplate(), MoveFileTemplate(), FindDownloadTemplate(),
                                       CreateFolderTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with `RenameFileTemplate`; not in the World
suite, whose tasks stay fixed."""
