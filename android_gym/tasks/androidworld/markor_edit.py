"""AndroidWorld's Markor tasks that change notes already there: `MarkorDeleteAllNotes`, `MarkorMoveNote`,
`MarkorMergeNotes`, `MarkorEditNote`, `MarkorChangeNoteContent` and `MarkorAddNoteHeader`; and the composite
`MarkorCreateNoteAndSms`.

AndroidWorld empties Markor's folder before each task, then writes the task's notes (`echo`, so a note with content
ends in a line break) and noise notes, and reads the files back (`ls`, `cat`). Here the seeded notebook is cleared
the same way (`SEEDED`), the notes are put at the root (or in the task's folders) with that line break, and the noise
notes are `markor.noise_names`' (variants of our titles or of the task's note). Names, sentences and random strings
are drawn as AndroidWorld draws them (`markor.random_file_name`, `markor.SENTENCES`, `markor.random_string`); the
date affixes of names fall in the 287 days before the sim's Wednesday 2026-06-10, AndroidWorld's 2023 span rebased.
The ten subfolders of `MarkorMoveNote` are our own names of AndroidWorld's kind (`SUBFOLDERS`).

Every check reads Markor's notes, folders and edit log, and is stricter than AndroidWorld's where AndroidWorld is
lenient: the text itself where AndroidWorld's fuzzy match (difflib ratio 0.9) would pass a near one, and no edit of
any other note (AndroidWorld does not look at the others):

- `MarkorDeleteAllNotes`: no note and no folder left (AndroidWorld: the folder lists nothing).
- `MarkorMoveNote`: the note gone from the source folder and in the destination, its content unchanged.
- `MarkorMergeNotes`: a note named exactly the new name (no extension, as AndroidWorld's; the sim's Markor adds
  ".md" to a new note, so the agent renames it) holding the three contents, a blank line between each, outer blank
  space aside (AndroidWorld: fuzzy, then five lines with blank second and fourth); the three notes as they were.
- `MarkorEditNote`: the note holds the header and the old text, the old text and the footer (one line break between),
  or the three new lines, outer blank space aside.
- `MarkorChangeNoteContent`: the old name gone, the new name holding the new content, outer blank space aside.
- `MarkorAddNoteHeader`: the old name gone, the new name holding exactly the header, a blank line, the old text and
  its line break (AndroidWorld's exact match).
- `MarkorCreateNoteAndSms`: `MarkorCreateNote`'s check (the note at the root holds exactly the sentence, no other
  note touched, a draft named like it beside it) and `sms.SimpleSmsSend`'s (exactly one text, to the "+1" number,
  saying the sentence, Messages, standing in for Simple SMS Messenger, in front). AndroidWorld scores the mean of its
  two checks (0.5 for one alone); here the task is won with both or not at all.

The sim's editor only appends and deletes at the end, so putting text before a note's content means deleting it and
typing it again; the experts do that (`notes_expert.markor_write`'s way, through `fill`), and use the World Markor
templates' menu steps (`RenameNoteTemplate.act`, `MoveNoteTemplate.act`) on lists that may run several screens
(`markor.scroll_to`). `MarkorDeleteNewestNote` is not here: the sim's notes carry a day, not a time, and its browser
cannot sort by date, so "the newest" of notes made minutes apart cannot be seen.
"""  # noqa: D205, D209

from __future__ import annotations

import posixpath
import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.markor import base, join, parent
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.contacts import random_number
from android_gym.tasks.androidworld.markor import (
    SENTENCES,
    MarkorCreateNote,
    markor_rows,
    noise_names,
    random_file_name,
    random_string,
    scroll_to,
)
from android_gym.tasks.androidworld.sms import SEEDED_NAMES, one_text, text_number
from android_gym.tasks.expert import find, tap
from android_gym.tasks.world.base import Elements, Params, State, press, swipe_down
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_folder, markor_write, only_touched
from android_gym.tasks.world.notes_tasks import MoveNoteTemplate, RenameNoteTemplate

SEEDED = (*markor.FOLDERS, *(f"{stem}{ext}" for stem, _ in markor.NOTES for ext in (".md", ".txt")))
"""Every root item a seed can give the notebook (a folder goes with its notes): removing them all empties it, as
AndroidWorld empties Markor's folder before each task."""
SUBFOLDERS = ("ReadingNotes", "CodeBits", "DailyLog", "GymPlans", "TeamMinutes", "MyJournal", "RecipeBox", "ExamPrep",
              "TripPlans", "ClientWork")
"""The folders `MarkorMoveNote` moves between (AndroidWorld draws two of ten such)."""
EDITS = {"header": "Edit {file_name} in Markor. Add to the top of the note {header}",
         "footer": "Edit {file_name} in Markor. Add to the bottom of the note {footer}",
         "replace": "Edit {file_name} in Markor. Replace the text with {replace_text}"}
"""`MarkorEditNote`'s goal per edit type (AndroidWorld's three templates)."""
_RENAME, _MOVE, _NOTE = RenameNoteTemplate(), MoveNoteTemplate(), MarkorCreateNote()


def random_note(rng: random.Random) -> str:
    """A random note name with ".md" or ".txt" (AndroidWorld's `_generate_random_note` name).

    >>> random_note(random.Random(2)).endswith((".md", ".txt"))
    True
    """
    return random_file_name(rng) + pick(rng, (".md", ".txt"))


# -- expert steps -----------------------------------------------------------------------------------------------------
def on_menu(path: str, state: State, names: tuple[str, ...]) -> bool:
    """Whether Markor shows one of screens `names` (its menu, a dialog) for `path`, no system pop-up over it."""
    screen = state["screen"]
    return (state["foreground"] == MARKOR and not state.get("dialog") and screen["name"] in names
            and screen["args"].get("path") == path)


def menu_step(path: str, elements: Elements, state: State) -> Action:
    """The next step to `path`'s More options menu (its folder, then its row, scrolling a long list)."""
    return markor_folder(parent(path), elements, state) or scroll_to(elements, markor_rows(state, parent(path)), path)


def open_in_long_list(path: str, elements: Elements, state: State) -> Action:
    """The next step to open note `path` from its folder, scrolling a list longer than `markor_item` reaches."""
    step = markor_folder(parent(path), elements, state)
    if step is not None:
        return step
    title = find(elements, rid=markor.TITLE_RID, text=base(path))
    more = find(elements, desc=f"More options for {base(path)}")
    if title is not None and more is not None:
        return tap(title)
    if more is not None:  # the row's title is cut by the list's top: bring it down
        return swipe_down()
    return scroll_to(elements, markor_rows(state, parent(path)), path)


def write_note(path: str, text: str, elements: Elements, state: State) -> Action:
    """Open note `path` (scrolling a long list), make the editor's text `text`, Save, leave (`markor_write`)."""
    return markor_write(path, text, elements, state, open_in_long_list)


def rename_note(path: str, new: str, elements: Elements, state: State) -> Action:
    """Rename note `path` to `new` in its folder: More options, Rename, Clear text, the name, OK."""
    if on_menu(path, state, ("menu", "rename")):
        return _RENAME.act({"new": new}, elements, state)
    return menu_step(path, elements, state)


def rewrite_and_rename(old: str, new: str, text: str, matches: bool, elements: Elements, state: State) -> Action:
    """Make note `old`'s text `text` (`matches`: whether it already reads right), then rename it `new`."""
    files = state_of(state, markor.MarkorState)["files"]
    if old in files:
        return rename_note(old, new, elements, state) if matches else write_note(old, text, elements, state)
    return write_note(new, text, elements, state)


# -- the templates ---------------------------------------------------------------------------------------------------
class _MarkorEdit(AndroidWorldTemplate):
    """A Markor task with its own start (the notebook emptied first), check and expert."""

    apps, outcome = (MARKOR,), "state"

    def rng(self, params: Params, *tag: str) -> random.Random:
        """A generator of the instance's own, for what AndroidWorld draws when it starts the task."""
        return random.Random(stable_seed("androidworld", self.name, params[self.split_key], *tag))

    def noise(self, params: Params, name: str, folder: str = "", skip: tuple[str, ...] = ()) -> dict[str, str]:
        """1-20 noise notes in `folder`, variants of the titles or of `name` (none named as in `skip`), each with
        twenty random letters and digits."""  # noqa: D205, D209
        rng = self.rng(params, "noise")
        return {join(folder, n): random_string(rng, 20) for n in noise_names(rng, name) if n not in skip}

    def start(self, folders: tuple[str, ...] = (), **files: str) -> dict[str, dict[str, Any]]:
        """The notebook emptied, then `folders` and `files` (by path) put in it."""
        return {MARKOR: {"absent": list(SEEDED), "folders": list(folders), "files": files}}


class MarkorDeleteAllNotes(_MarkorEdit):
    """Delete every note: 1-6 notes, variants of the titles or of five random characters, and nothing else."""

    name, split_key = "MarkorDeleteAllNotes", "start"
    goal_template = "Delete all my notes in Markor."
    max_steps = 30  # the expert takes 3 steps a note (1 to 6 notes) and 2 to open Markor: 5 to 20

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The notes the phone starts with (the task has no parameters): noise names of five random characters, at
        most 2 to 6 of them (AndroidWorld's `generate_noise_files(..., n=randint(2, 6))`)."""  # noqa: D205, D209
        notes = noise_names(rng, random_string(rng, 5), most=rng.randint(2, 6))
        return {"notes": notes, "start": ", ".join(notes)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the drawn notes, at the root, twenty random characters each."""
        rng = self.rng(params)
        return self.start(**{n: random_string(rng, 20) for n in params["notes"]})

    def check(self, params: Params, state: State) -> bool:
        """No note and no folder left in the notebook."""
        m = state_of(state, markor.MarkorState)
        return not m["files"] and not m["folders"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The first row's More options, Delete, Delete; again until none is left."""
        rows = markor_rows(state, "")
        if any(on_menu(p, state, ("menu", "delete")) for p in rows):
            return press(elements, text="Delete", clickable=True)
        return menu_step(rows[0], elements, state)


class MarkorMoveNote(_MarkorEdit):
    """Move {file_name} from folder {source_folder} (with noise notes) to folder {destination_folder}."""

    name, split_key = "MarkorMoveNote", "file_name"
    goal_template = "In Markor, move the note {file_name} from {source_folder} to {destination_folder}."
    max_steps = 14  # the expert takes 7 to 8 steps (a scroll in the source folder's list of up to 21 notes)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A source folder, another one as the destination, and a random note name."""
        source = pick(rng, SUBFOLDERS)
        destination = pick(rng, [f for f in SUBFOLDERS if f != source])
        return {"file_name": random_note(rng), "source_folder": source, "destination_folder": destination}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two folders; in the source, the note (twenty random characters) and noise notes."""
        source = join(params["source_folder"], params["file_name"])
        noise = self.noise(params, params["file_name"], params["source_folder"], (params["file_name"],))
        return self.start((params["source_folder"], params["destination_folder"]),
                          **{source: random_string(self.rng(params), 20)}, **noise)

    def check(self, params: Params, state: State) -> bool:
        """The note gone from the source and in the destination with its content; nothing else edited."""
        m = state_of(state, markor.MarkorState)
        source = join(params["source_folder"], params["file_name"])
        dest = join(params["destination_folder"], params["file_name"])
        content = self.initial(params)[MARKOR]["files"][source]
        return source not in m["files"] and m["files"].get(dest) == content and only_touched(m["edits"], {source, dest})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The note's More options in the source folder, Move, the destination, Move."""
        source = join(params["source_folder"], params["file_name"])
        if on_menu(source, state, ("menu", "move")):
            return _MOVE.act({"to": params["destination_folder"]}, elements, state)
        return menu_step(source, elements, state)


class MarkorMergeNotes(_MarkorEdit):
    """Merge three notes' contents, a blank line between each, into new note {new_file_name} (no extension)."""

    name, split_key = "MarkorMergeNotes", "new_file_name"
    goal_template = ("Merge the contents of Markor notes {file1_name}, {file2_name} and {file3_name} (in the same "
                     "order) into a new Markor note named {new_file_name} and save it. Add a new line between the "
                     "content of each note.")
    max_steps = 23  # the expert takes 14 steps: create, type, save, rename to drop the ".md"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Three random note names (drawn again if two are the same), eight random characters for the new name, and
        twenty for each note's content."""  # noqa: D205, D209
        names: list[str] = []
        while len(set(names)) < 3:
            names = [random_note(rng) for _ in range(3)]
        return {"file1_name": names[0], "file2_name": names[1], "file3_name": names[2],
                "new_file_name": random_string(rng, 8),
                **{f"file{k}_content": random_string(rng, 20) for k in (1, 2, 3)}}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the three notes, each its content and a line break."""
        return self.start(**{params[f"file{k}_name"]: params[f"file{k}_content"] + "\n" for k in (1, 2, 3)})

    def merged(self, params: Params) -> str:
        """The three contents in order, a blank line between each."""
        return "\n\n".join(params[f"file{k}_content"] for k in (1, 2, 3))

    def check(self, params: Params, state: State) -> bool:
        """Note {new_file_name} holds the merged text (outer blank space aside); no copy with an extension left, and
        no other note edited."""  # noqa: D205, D209
        m, new = state_of(state, markor.MarkorState), params["new_file_name"]
        drafts = {f"{new}.md", f"{new}.txt"}
        return (m["files"].get(new, "").strip() == self.merged(params) and not drafts & set(m["files"])
                and only_touched(m["edits"], {new, *drafts}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """A new note of that name (Markor makes it "<name>.md"), the merged text typed and saved, then renamed to
        the name itself."""  # noqa: D205, D209
        files, new, text = state_of(state, markor.MarkorState)["files"], params["new_file_name"], self.merged(params)
        draft = f"{new}.md"
        if draft in files:
            return rewrite_and_rename(draft, new, text, files[draft].strip() == text, elements, state)
        if new in files:
            return write_note(new, text, elements, state)
        return markor_create("", new, "Markdown", elements, state)


class MarkorEditNote(_MarkorEdit):
    """Add a header or a footer to note {file_name}, or replace its text with three lines."""

    name, split_key = "MarkorEditNote", "file_name"
    goal_template = EDITS["header"]
    max_steps = 70  # the expert takes 6 steps for a footer, 30 to 48 for a header or a new text (the old one deleted)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """"note_", five random characters and ".md" or ".txt"; an edit type; its sentence (three lines, joined by
        line breaks, to replace); then the note's own sentence (AndroidWorld draws it when it starts the task)."""  # noqa: D205, D209
        params = {"file_name": f"note_{random_string(rng, 5)}{pick(rng, ('.md', '.txt'))}",
                  "edit_type": pick(rng, tuple(EDITS))}
        if params["edit_type"] == "replace":
            params["replace_text"] = "\n".join(pick(rng, SENTENCES) for _ in range(3))
        else:
            params[params["edit_type"]] = pick(rng, SENTENCES)
        return {**params, "original": pick(rng, SENTENCES)}

    def goal(self, params: Params) -> str:
        """AndroidWorld's goal for the instance's edit type."""
        return EDITS[params["edit_type"]].format(**params)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note (its sentence and a line break) and noise notes, variants of the titles or of its name."""
        noise = self.noise(params, params["file_name"], skip=(params["file_name"],))
        return self.start(**{params["file_name"]: params["original"] + "\n"}, **noise)

    def wanted(self, params: Params) -> str:
        """The note's text once edited."""
        kind = params["edit_type"]
        if kind == "header":
            return f"{params['header']}\n{params['original']}"
        return f"{params['original']}\n{params['footer']}" if kind == "footer" else params["replace_text"]

    def check(self, params: Params, state: State) -> bool:
        """The note holds the edited text (outer blank space aside); nothing else edited."""
        m = state_of(state, markor.MarkorState)
        return (m["files"].get(params["file_name"], "").strip() == self.wanted(params)
                and only_touched(m["edits"], {params["file_name"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, make its text the edited one, Save."""
        return write_note(params["file_name"], self.wanted(params), elements, state)


class MarkorChangeNoteContent(_MarkorEdit):
    """Replace note {original_name}'s content with {updated_content} and rename it {new_name}."""

    name, split_key = "MarkorChangeNoteContent", "original_name"
    goal_template = ('Update the content of {original_name} to "{updated_content}" in Markor and change its name to '
                     "{new_name}.")
    max_steps = 54  # the expert takes 34 to 36 steps: 21 deletions, then the rename

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Two random note names (drawn again if the same) and twenty random characters."""
        original, new = random_note(rng), random_note(rng)
        while new == original:
            new = random_note(rng)
        return {"original_name": original, "new_name": new, "updated_content": random_string(rng, 20)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note (twenty random characters and a line break) and noise notes, variants of the titles or of its
        name."""  # noqa: D205, D209
        old, new = params["original_name"], params["new_name"]
        content = random_string(self.rng(params), 20) + "\n"
        return self.start(**{old: content}, **self.noise(params, old, skip=(old, new)))

    def check(self, params: Params, state: State) -> bool:
        """The old name gone; the new name at the root holds the new content (outer blank space aside); nothing else
        edited."""  # noqa: D205, D209
        m, old, new = state_of(state, markor.MarkorState), params["original_name"], params["new_name"]
        return (old not in m["files"] and m["files"].get(new, "").strip() == params["updated_content"]
                and only_touched(m["edits"], {old, new}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, delete its text, type the new one, Save; then rename it."""
        text = params["updated_content"]
        current = state_of(state, markor.MarkorState)["files"].get(params["original_name"], "")
        return rewrite_and_rename(params["original_name"], params["new_name"], text, current.strip() == text,
                                  elements, state)


class MarkorAddNoteHeader(_MarkorEdit):
    """Put {header} and a blank line before note {original_name}'s text and rename it {new_name}."""

    name, split_key = "MarkorAddNoteHeader", "original_name"
    goal_template = ("Update the Markor note {original_name} by adding the following text, along with a new blank "
                     'line before the existing content: "{header}", and rename it to {new_name}.')
    max_steps = 80  # the expert takes 37 to 55 steps: the sentence deleted, the text typed, the rename

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A random note name and sentence, a new random name (drawn again if the same), twenty random characters."""
        original, content, new = random_note(rng), pick(rng, SENTENCES), random_note(rng)
        while new == original:
            new = random_note(rng)
        return {"original_name": original, "original_content": content, "new_name": new,
                "header": random_string(rng, 20)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note (its sentence and a line break) and noise notes, variants of the titles or of its name."""
        old, new = params["original_name"], params["new_name"]
        return self.start(**{old: params["original_content"] + "\n"}, **self.noise(params, old, skip=(old, new)))

    def wanted(self, params: Params) -> str:
        """The header, a blank line, the old text and its line break."""
        return f"{params['header']}\n\n{params['original_content']}\n"

    def check(self, params: Params, state: State) -> bool:
        """The old name gone; the new name at the root holds exactly the wanted text; nothing else edited."""
        m, old, new = state_of(state, markor.MarkorState), params["original_name"], params["new_name"]
        return (old not in m["files"] and m["files"].get(new) == self.wanted(params)
                and only_touched(m["edits"], {old, new}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, delete its text, type the header, a blank line and the text, Save; then rename it."""
        text = self.wanted(params)
        current = state_of(state, markor.MarkorState)["files"].get(params["original_name"])
        return rewrite_and_rename(params["original_name"], params["new_name"], text, current == text, elements, state)


class MarkorCreateNoteAndSms(_MarkorEdit):
    """Create note {file_name} at the root holding {text}, then text {text} to {number} from Messages.

    AndroidWorld scores the mean of its two checks (0.5 for one of them); here success is both or nothing.
    """

    name, split_key = "MarkorCreateNoteAndSms", "file_name"
    goal_template = ("Create a new note in Markor named {file_name} with the following text: {text}. Share the entire "
                     "content of the note with the phone number {number} via SMS using Simple SMS Messenger")
    apps = (MARKOR, M.PACKAGE)
    max_steps = 25  # the expert takes 15 steps: 7 for the note, 8 for the text

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A random note name (".md" or ".txt") and sentence, as for `MarkorCreateNote`, then a random number."""
        return {"file_name": random_note(rng), "text": pick(rng, SENTENCES), "number": random_number(rng)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The notebook emptied but for a draft named like the note ("<stem>_draft<ext>", "TODO"); no conversation."""
        stem, ext = posixpath.splitext(params["file_name"])
        return {**self.start(**{f"{stem}_draft{ext}": "TODO"}), M.PACKAGE: {"remove": list(SEEDED_NAMES)}}

    def check(self, params: Params, state: State) -> bool:
        """`MarkorCreateNote`'s check (the note at the root holds exactly the text, no other note touched) and
        `SimpleSmsSend`'s (exactly one text, to the number, saying the text, Messages in front)."""  # noqa: D205, D209
        note = {"file_name": params["file_name"], "text": params["text"]}
        return _NOTE.check(note, state) and one_text(state, params["number"], params["text"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """`MarkorCreateNote`'s expert until the note holds the text, then Messages: "To" the number, the text, Send."""
        note = {"file_name": params["file_name"], "text": params["text"]}
        if state_of(state, markor.MarkorState)["files"].get(params["file_name"], "").strip() != params["text"]:
            return _NOTE.expert(note, elements, state)
        return text_number(params["number"], params["text"], elements, state)


TEMPLATES = (MarkorChangeNoteContent(), MarkorDeleteAllNotes(), MarkorMergeNotes(), MarkorMoveNote(),
             MarkorAddNoteHeader(), MarkorEditNote(), MarkorCreateNoteAndSms())
