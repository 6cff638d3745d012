"""World-suite tasks over the Files app (issue 17): rename, copy, restore from the Trash, delete the largest file, move
two files into a new folder, read a file's size or date, rename a file that is not there, and two tasks that carry
what a file is from one app to another (a Markor note names the file to delete; a file's size texted via Messages).
The task files and the expert steps these templates share are in `files_expert`; the templates outside the suite
for the goal parser's everyday lines (issue 49) are in `files_everyday_tasks`.

Every task puts its files on the phone under fixed names (`initial`), next to a near miss (a twin with a similar name,
the same name in another folder), among the episode's seeded files, whose names, sizes and dates move the task's rows
around. Checks read the Files state and its episode edit log, so touching the twin, or anything else, fails. Splits
hold out file names (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry
dropped taps by acting on the unchanged screen again.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files as F
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.files import base, join, parent, size_label
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, fill, find, obstacle, swipe_up, tap
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, State, WorldTemplate, press
from android_gym.tasks.world.files_expert import (
    FILES,
    POPUPS,
    STEMS,
    Params,
    elsewhere,
    file_info,
    files_of,
    grid_of,
    has,
    leave,
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
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import MARKOR, markor_item, reach

NEW_STEMS = ("final", "signed", "2026", "backup", "shared", "scan", "old", "v2")
NEW_FOLDERS = ("Trip 2026", "Taxes", "Receipts", "Wedding", "House", "Work docs", "Kids", "Insurance", "Car",
               "Health")
NOTES = ("files_cleanup.md", "phone_cleanup.md", "storage_todo.md", "declutter.md")
NATURAL = {"Download": "zip", "Documents": "pdf", "Music": "mp3", "Pictures": "png", "DCIM": "jpg", "Movies": "mp4",
           "Recordings": "m4a"}
"""A folder's own kind of file: what its fillers are (delete-largest)."""


# -- templates ------------------------------------------------------------------------------------------------------
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
        return [{**p, "new": twin(p["name"], nth(NEW_STEMS, p["phrasing"]))} for p in grid_of(("Download",
                                                                                                "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its copy in the folder; the new name free (and, with the optional "sole": True of a parsed
        line, which names no folder, the file's name in no other folder)."""  # noqa: D205, D209
        sole = elsewhere(params["name"], params["folder"]) if params.get("sole") else []
        return {FILES: {"absent": [join(params["folder"], params["new"]), *sole],
                        "files": [spec(path_of(params)), spec(join(params["folder"], twin(params["name"], "copy")))]}}

    def check(self, params: Params, state: State) -> bool:
        """Only the new name holds the file, in the same folder; nothing else touched."""
        new = join(params["folder"], params["new"])
        return (path_of(params) not in files_of(state) and has(state, new, size_of(params["name"]))
                and only_touched(state, {path_of(params), new}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Rename, Clear text, type the new stem (the extension stays), OK."""
        screen, stem = state["screen"], params["new"].rpartition(".")[0]
        if state["foreground"] == FILES and screen["name"] == "rename" and screen["args"]["path"] == path_of(params):
            if not stem.startswith(screen["fields"].get(F.NAME_RID, "")):
                return press(elements, desc="Clear text")
            return fill(elements, state, F.NAME_RID, stem) or press(elements, text="OK")
        return menu_item(path_of(params), "Rename", elements, state)


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
                 "new": nth(NEW_FOLDERS, i + k), "dest": dest, "phrasing": i + k}
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
        files = files_of(state)
        return (folder in state_of(state, F.FilesState)["folders"] and a not in files and b not in files
                and all(has(state, join(folder, base(p)), size_of(base(p))) for p in (a, b))
                and has(state, join("Download", params["third"]), size_of(params["third"]))
                and only_touched(state, {a, b, folder, *moved}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Select both, More options, Move to, the destination, New folder, name it, Create, Move here."""
        a, b, folder = self._paths(params)
        screen, fs = state["screen"], state_of(state, F.FilesState)
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
        return [{"folder": folder, "key": f"{folder}/{nth(STEMS, i)}", "a": f"{nth(STEMS, i)}.{ext}",
                 "b": f"{nth(STEMS, i + 5)}.{ext}", "phrasing": i + k}
                for i in range(len(STEMS)) for k, (folder, ext) in enumerate(NATURAL.items())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Two fillers in the folder (sizes fixed by the instance) with the seeded files."""
        return {FILES: {"files": [spec(join(params["folder"], params[k]), params["key"]) for k in ("a", "b")]}}

    def check(self, params: Params, state: State) -> bool:
        """One edit: a file of the folder trashed, at least as large as every file left in it."""
        fs = state_of(state, F.FilesState)
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
        if state_of(state, F.FilesState)["sort"] != "size":
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
        return grid_of(("Download", "Documents", "Pictures"))

    def _near(self, params: Params) -> str:
        stem, _, ext = params["name"].rpartition(".")
        return join(params["folder"], f"{stem}.{'pdf' if ext != 'pdf' else 'jpg'}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file, the near miss and another file in the Trash (order by instance); not in the folder."""
        items = [spec(path_of(params)), spec(self._near(params)), spec(join("Download", task_name(params["phrasing"]
                                                                                                 + 3)))]
        k = params["phrasing"] % 3
        return {FILES: {"absent": [path_of(params)], "trash": items[k:] + items[:k]}}

    def check(self, params: Params, state: State) -> bool:
        """The file is back in its folder, the near miss still in the Trash, nothing else restored."""
        trash = [t["path"] for t in state_of(state, F.FilesState)["trash"]]
        return (has(state, path_of(params), size_of(params["name"])) and path_of(params) not in trash
                and self._near(params) in trash and only_touched(state, {path_of(params)}))

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Trash, the file's More options, Restore."""
        step = into_app("Files", FILES, elements, state)
        if step is not None:
            return step
        screen, fs = state["screen"], state_of(state, F.FilesState)
        if screen["name"] == "menu" and screen["args"]["kind"] == "trash":
            ok = fs["trash"][screen["args"]["index"]]["path"] == path_of(params)
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
        return [{**p, "field": ("size", "date")[p["phrasing"] // 2 % 2]} for p in grid_of(("Download", "Documents"))]

    def goal(self, params: Params) -> str:
        """The question, in the phrasing `params["phrasing"]` picks for the field."""
        return nth(self.asks[params["field"]], params["phrasing"]).format(**params)

    def _other(self, params: Params) -> str:
        return join("Documents" if params["folder"] == "Download" else "Download", params["name"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file, and a namesake of another size and date in the other folder."""
        return {FILES: {"files": [spec(path_of(params)), spec(self._other(params), "other")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The size or date as Files shows it; None once anything was changed."""
        f = files_of(state).get(path_of(params))
        if f is None or state_of(state, F.FilesState)["edits"]:
            return None
        return size_label(f["size_kb"]) if params["field"] == "size" else F.date_label(f["date"])

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """The file's More options, File info, answer with the value shown."""
        step = file_info(path_of(params), elements, state)
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
        return path_of(params) not in files_of(state) and not state_of(state, F.FilesState)["edits"]

    def looked(self, params: Params, state: State) -> bool:
        """Files in front on that folder, or searching for the name."""
        fs = state_of(state, F.FilesState)
        if state.get("foreground") != FILES:
            return False
        if fs["page"] == "folder":
            return fs["folder"] == params["folder"]
        query = (fs["query"] or "").strip().casefold()
        return fs["page"] == "search" and len(query) >= 3 and query in params["name"].casefold()

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
        return [{**p, "note": nth(NOTES, p["phrasing"]), "other": task_name(STEMS.index(p["name"].split(".")[0])
                                                                             + 9)}
                for p in grid_of(("Download", "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note at Markor's root naming the file; the file and its neighbour in the folder."""
        text = f"# Clean up\nDelete {params['name']} from the {params['folder']} folder."
        return {MARKOR: {"files": {params["note"]: text}},
                FILES: {"files": [spec(path_of(params)), spec(join(params["folder"], params["other"]))]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in the Trash, its neighbour kept, nothing else touched in Files or Markor."""
        trash = [t["path"] for t in state_of(state, F.FilesState)["trash"]]
        return (path_of(params) in trash and path_of(params) not in files_of(state)
                and has(state, join(params["folder"], params["other"]), size_of(params["other"]))
                and only_touched(state, {path_of(params)}) and not state_of(state, markor.MarkorState)["edits"])

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor, then trash the file it names in Files."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["note"]:
            return markor_item(params["note"], elements, state)
        return trash_file(path_of(params), elements, state)


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
                for p in grid_of(("Download", "Documents"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and its namesake in the other folder; a conversation with the person."""
        other = join("Documents" if params["folder"] == "Download" else "Download", params["name"])
        p = person(params["person"])
        return {FILES: {"files": [spec(path_of(params)), spec(other, "other")]},
                M.PACKAGE: {"threads": [conversation(p, ("How big is that file?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the size; nothing changed in Files."""
        label = size_label(size_of(params["name"]))
        return (texts_ok(state, [(params["person"], label)], contains=True)
                and not state_of(state, F.FilesState)["edits"])

    def act(self, params: Params, elements: Elements, state: State) -> Action:
        """File info in Files to read the size, then text it."""
        f = files_of(state).get(path_of(params))
        if state_of(state, F.FilesState)["last_opened"] != path_of(params) or f is None:
            return file_info(path_of(params), elements, state) or back()
        return send_text(person(params["person"]), size_label(f["size_kb"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    RenameFileTemplate(), MoveTwoTemplate(), DeleteLargestTemplate(), RestoreTemplate(), CopyToTemplate(),
    FileDetailAnswerTemplate(), RenameMissingTemplate(), NoteSaysDeleteTemplate(), SizeToTextTemplate(),
)
"""The Files templates of the world suite."""
