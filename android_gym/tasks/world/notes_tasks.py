"""World-suite tasks over Markor (issue 17): notes to create, extend, rename, move, delete and find, and a folder to
create. The Tasks templates, and the two that carry text between Markor and Tasks, are in `todo_tasks`; the base of
every World template is `base.WorldTemplate`.

Every task puts what it needs on the phone under fixed names (`initial`), next to a near miss (a similarly named note
or folder), so the seeded notebook only shifts positions. Checks read the app's state and its episode edit log, so
touching the near miss, or anything else, fails. Splits hold out note names (`split_of`). Experts read the UI
elements, get past pop-ups (`into_app`/`obstacle`) and retry dropped taps by acting on the unchanged screen again;
their shared steps and the checks' lookups live in `notes_expert`.

Everyday lines (issue 49, `goals.everyday.notes`) reach the templates with optional parameters: "loose" notes (names
and texts compared without case or punctuation).
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps.markor import join
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import fill
from android_gym.tasks.world.base import Elements, State, WorldTemplate, nth, press
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    folded_words,
    markor_create,
    markor_item,
    markor_write,
    named,
    notes_on,
    only_touched,
    variants,
)

STEMS = ("packing_list", "party_plan", "garden_log", "car_maintenance", "recipe_ideas", "podcast_notes",
         "interview_prep", "house_chores", "birthday_plans", "study_schedule", "movie_watchlist", "home_office",
         "language_practice", "tax_documents", "wedding_toast", "bike_repair", "running_log", "photo_ideas",
         "volunteer_shifts", "kitchen_remodel")
TEXTS = ("passport, charger, sunglasses", "Order the cake by Thursday", "Tomatoes planted on June 2",
         "Oil change due at 60000 km", "Try the lentil curry", "Episode 12 was the best one",
         "Practise the elevator pitch", "Vacuum on Saturdays", "Invite the neighbours too", "Revise chapter 4 first")
LINES = ("Call the venue on Monday", "Ask Priya about the budget", "Bring two extra chairs", "Check the warranty",
         "Pay the deposit by Friday", "Buy more sticky notes", "Email the photos to Sam")
NEW_STEMS = ("final_version", "archive_copy", "shared_notes", "summer_plan", "ideas_2026", "checklist", "reviewed",
             "old_draft", "for_mom", "next_steps")
FOLDERS = ("Receipts", "Projects", "Drafts", "Family", "Health", "Garden", "Book club", "Side projects", "Taxes",
           "Home repairs", "Fitness", "Kids school")
TOPICS = (("camping trip", "camping_trip", "Tent, stove, two sleeping bags", "camping_gear", "Headlamp batteries"),
          ("piano lessons", "piano_lessons", "Tuesday 5 pm with Ms. Ito", "piano_tuning", "Tuner comes in July"),
          ("job interview", "job_interview", "Panel at 10 am, bring the portfolio", "job_offers", "Compare benefits"),
          ("dinner party", "dinner_party", "Eight guests, risotto and salad", "dinner_recipes", "Lasagne, soup"),
          ("apartment hunt", "apartment_hunt", "Visit Elm Street flat on Saturday", "apartment_rules", "No pets"),
          ("marathon training", "marathon_training", "Long run 18 km on Sunday", "marathon_results", "3:58 last year"),
          ("science fair", "science_fair", "Volcano project, buy baking soda", "science_books", "Cosmos, Contact"),
          ("road trip", "road_trip", "Leave at 7, stop in Fresno", "road_tolls", "Keep coins for the bridge"),
          ("baby shower", "baby_shower", "Games, cupcakes, yellow balloons", "baby_names", "Maya, Leo, Ivy"),
          ("garage sale", "garage_sale", "Price tags and a cash box", "garage_tools", "Borrowed drill from Tom"))


# -- Markor -------------------------------------------------------------------------------------------------------
def _notes(folders: Sequence[str], texts: Sequence[str] = TEXTS) -> list[dict[str, Any]]:
    """Every stem in each of `folders`, a text (or line) and a phrasing rotating with it."""
    return [{"name": f"{s}.md", "folder": f, "where": f" in the {f} folder" if f else "", "text": nth(texts, i + k),
             "phrasing": i + k} for i, s in enumerate(STEMS) for k, f in enumerate(folders)]


def _seeded(params: Mapping[str, Any]) -> str:
    """The text a task's note starts with."""
    return f"# {params['name'][:-3].replace('_', ' ').capitalize()}\n- first item"


def _path(params: Mapping[str, Any], suffix: str = "") -> str:
    """The task's note (or its near miss, named with `suffix`)."""
    return join(params.get("folder", ""), params["name"].replace(".md", f"{suffix}.md"))


def _new_name(params: Mapping[str, Any]) -> str:
    """The name the expert gives a note the goal does not name: its text's first three words."""
    return " ".join(params["text"].split()[:3]).capitalize() + ".md"


class CreateNoteTemplate(WorldTemplate):
    """Create note {name} (in {folder}) holding {text}; a similarly named draft sits next to it."""

    name, max_steps, split_key = "markor_create_note", 15, "name"
    apps = (MARKOR,)
    phrasings = ('Create a new note in Markor named "{name}"{where} with the text "{text}"',
                 'In Markor, make a note called {name}{where} that says: {text}',
                 'Write "{text}" in a new Markor file {name}{where}')

    def grid(self) -> list[dict[str, Any]]:
        """Every stem in the root, Personal and Work."""
        return _notes(("", "Personal", "Work"))

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """No such note yet, its folder there, and a draft with a similar name beside it.

        With "loose" params (an everyday line's) the name may be None (any new note), and no note answers to the
        name in any case or extension.
        """
        folders = [params["folder"]] if params["folder"] else []
        if params.get("loose") and not params["name"]:
            return {MARKOR: {"folders": folders}}
        absent = variants(params["name"]) if params.get("loose") else [_path(params)]
        return {MARKOR: {"absent": absent, "folders": folders, "files": {_path(params, "_draft"): "TODO"}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note holds exactly the text (outer blank space aside) and nothing else was edited.

        With "loose" params: the one note of that name (case and extension aside, any folder), or the one note
        created when the goal names none, holds the text's words (case and punctuation aside).
        """
        m = state_of(state, markor.MarkorState)
        if not params.get("loose"):
            return (m["files"].get(_path(params), "").strip() == params["text"]
                    and only_touched(m["edits"], {_path(params)}))
        made = (named(m["files"], params["name"]) if params["name"]
                else [e["path"] for e in m["edits"] if e["op"] == "create" and e["path"] in m["files"]])
        return (len(made) == 1 and folded_words(m["files"][made[0]]) == folded_words(params["text"])
                and only_touched(m["edits"], set(made)))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """FAB, type the name (for a goal that names none, the text's first words), OK (the editor opens), type the
        text, Save."""  # noqa: D205, D209
        name = params["name"] or _new_name(params)
        path = join(params["folder"], name)
        if path in state_of(state, markor.MarkorState)["files"]:
            return markor_write(path, params["text"], elements, state)
        return markor_create(params["folder"], name, "Markdown", elements, state)


class AppendLineTemplate(WorldTemplate):
    """Add line {text} at the end of note {name}; its backup copy must stay as it is."""

    name, max_steps, split_key = "markor_append_line", 14, "name"
    apps = (MARKOR,)
    phrasings = ('Add the line "{text}" to the end of my Markor note {name}{where}',
                 'In Markor, open {name}{where} and append "{text}" as a new line',
                 'Append a line saying "{text}" to the note {name} in Markor')

    def grid(self) -> list[dict[str, Any]]:
        """Every stem in the root and in Work."""
        return _notes(("", "Work"), LINES)

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note, and its backup with the same text beside it (with "loose" params, no other note of the name)."""
        files = {_path(params): _seeded(params), _path(params, "_backup"): _seeded(params)}
        return {MARKOR: {"absent": variants(params["name"]), "files": files} if params.get("loose") else
                {"files": files}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The old text, a line break, the line (trailing blank space aside); nothing else edited.

        With "loose" params the new line's words count (case, punctuation and a list bullet aside).
        """
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(_path(params), "").rstrip()
        if params.get("loose"):
            head, _, last = text.rpartition("\n")
            added = head.rstrip() == _seeded(params) and folded_words(last) == folded_words(params["text"])
        else:
            added = text == f"{_seeded(params)}\n{params['text']}"
        return added and only_touched(m["edits"], {_path(params)})

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Open the note, type a line break and the line at its end, Save."""
        return markor_write(_path(params), f"{_seeded(params)}\n{params['text']}", elements, state)


class _MenuTemplate(WorldTemplate):
    """A template on one note through its More options menu and the dialog it opens (`act`)."""

    split_key = "name"

    def act(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """The step on the note's menu or dialog."""
        raise NotImplementedError

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """The note's More options, then `act` on the menu and the dialog."""
        screen = state["screen"]
        if (state["foreground"] == MARKOR and not state.get("dialog") and screen["args"].get("path") == _path(params)
                and screen["name"] in ("menu", "rename", "move", "delete")):
            return self.act(params, elements, state)
        return markor_item(_path(params), elements, state, more=True)


class RenameNoteTemplate(_MenuTemplate):
    """Rename note {name} to {new}: More options, Rename, Clear text, type, OK."""

    name, max_steps = "markor_rename_note", 15
    apps = (MARKOR,)
    phrasings = ("Rename the Markor note {name}{where} to {new}", "In Markor, change the name of {name} to {new}",
                 "Give my note {name} the new name {new} in Markor")

    def grid(self) -> list[dict[str, Any]]:
        """Every stem in the root and in Personal, with a new name."""
        return [{**p, "new": f"{p['name'][:-3]}_{nth(NEW_STEMS, p['phrasing'])}.md"}
                for p in _notes(("", "Personal"))]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note and a similarly named one (`_old`); the new name free (with "loose" params, in any case or
        extension, and no other note of the old name)."""  # noqa: D205, D209
        absent = ([*variants(params["name"]), *variants(params["new"])] if params.get("loose")
                  else [join(params["folder"], params["new"])])
        return {MARKOR: {"absent": absent,
                         "files": {_path(params): _seeded(params), _path(params, "_old"): "Kept for reference"}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Only the new name holds the text, in the same folder; the other note untouched.

        With "loose" params the new name counts case and extension (.md, .txt or none) aside.
        """
        m = state_of(state, markor.MarkorState)
        if params.get("loose"):
            got = named(m["files"], params["new"], params["folder"])
            new = got[0] if len(got) == 1 else ""
        else:
            new = join(params["folder"], params["new"])
        return (_path(params) not in m["files"] and m["files"].get(new) == _seeded(params)
                and only_touched(m["edits"], {_path(params), new}))

    def act(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Rename, Clear text, type the new name, OK."""
        if state["screen"]["name"] == "menu":
            return press(elements, text="Rename")
        if not params["new"].startswith(state["screen"]["fields"].get(markor.NAME_RID, "")):
            return press(elements, desc="Clear text")
        return fill(elements, state, markor.NAME_RID, params["new"]) or press(elements, text="OK")


class MoveNoteTemplate(_MenuTemplate):
    """Move note {name} from the root into folder {to}; a folder "{to} 2025" is the near miss."""

    name, max_steps = "markor_move_note", 14
    apps = (MARKOR,)
    phrasings = ("Move the note {name} into the {to} folder in Markor", "In Markor, put {name} in the folder {to}",
                 "File my Markor note {name} under {to}")

    def grid(self) -> list[dict[str, Any]]:
        """Every stem with two target folders."""
        return [{**p, "to": nth(FOLDERS, p["phrasing"] + 4 * k)} for k, p in enumerate(_notes(("", "")))]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note in the root; the target folder and a similarly named one."""
        return {MARKOR: {"folders": [params["to"], f"{params['to']} 2025"], "files": {_path(params): _seeded(params)}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note is in the folder with its text and gone from the root; nothing else edited."""
        m, dest = state_of(state, markor.MarkorState), join(params["to"], params["name"])
        return (_path(params) not in m["files"] and m["files"].get(dest) == _seeded(params)
                and only_touched(m["edits"], {_path(params), dest}))

    def act(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Move, pick the folder, Move."""
        screen = state["screen"]
        if screen["name"] == "menu" or screen["args"]["target"] == params["to"]:
            return press(elements, text="Move", clickable=True)
        return press(elements, text=markor.crumbs(params["to"]))


class DeleteNoteTemplate(_MenuTemplate):
    """Delete note {name}; its copy (`_copy`) stays."""

    name, max_steps = "markor_delete_note", 12
    apps = (MARKOR,)
    phrasings = ("Delete the note {name}{where} from Markor", "In Markor, remove my note {name}",
                 "Get rid of the Markor file {name}{where}")

    def grid(self) -> list[dict[str, Any]]:
        """Every stem in the root, Work and Personal."""
        return _notes(("", "Work", "Personal"))

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note and its copy (with "loose" params, no other note of the name in any case or extension)."""
        files = {_path(params): _seeded(params), _path(params, "_copy"): "Copy"}
        return {MARKOR: {"absent": variants(params["name"]), "files": files} if params.get("loose") else
                {"files": files}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note is gone, its copy is not, and nothing else was edited."""
        m = state_of(state, markor.MarkorState)
        return (_path(params) not in m["files"] and _path(params, "_copy") in m["files"]
                and only_touched(m["edits"], {_path(params)}))

    def act(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Delete, then Delete in the confirmation."""
        return press(elements, text="Delete", clickable=True)


class CreateFolderTemplate(WorldTemplate):
    """Create folder {folder} in the notebook's root; "{folder} archive" already exists."""

    name, max_steps, split_key = "markor_create_folder", 12, "folder"
    apps = (MARKOR,)
    phrasings = ('Create a folder called "{folder}" in Markor', "In Markor, add a new folder named {folder}",
                 "Make a {folder} folder in my Markor notebook")

    def grid(self) -> list[dict[str, Any]]:
        """Every folder name in every phrasing."""
        return [{"folder": f, "phrasing": k} for f in FOLDERS for k in range(3)]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """No such folder; a similarly named one."""
        return {MARKOR: {"absent": [params["folder"]], "folders": [f"{params['folder']} archive"]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The folder exists in the root and nothing else was created or edited."""
        m = state_of(state, markor.MarkorState)
        return params["folder"] in m["folders"] and only_touched(m["edits"], {params["folder"]})

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """FAB, Folder, the name, OK."""
        return markor_create("", params["folder"], "Folder", elements, state)


class OpenNoteTemplate(WorldTemplate):
    """Open the note about {topic} (information retrieval); a note on a neighbouring subject lies beside it."""

    name, max_steps, split_key = "markor_open_note", 9, "topic"
    apps = (MARKOR,)
    phrasings = ("Open the note about the {topic} in Markor", "Show me my Markor note on the {topic}",
                 "Find my notes about the {topic} in Markor and open them")

    def grid(self) -> list[dict[str, Any]]:
        """Every topic in the root, Personal and Work."""
        return [{"topic": t[0], "name": f"{t[1]}.md", "folder": f, "phrasing": i + k}
                for i, t in enumerate(TOPICS) for k, f in enumerate(("", "Personal", "Work"))]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note and its neighbour, in the same folder.

        Params with their own "text" (an everyday line's, `notes_expert.note_about`): that note, and no other seeded
        note whose name shares a word with the topic.
        """
        if "text" in params:
            return {MARKOR: {"absent": notes_on(params["topic"]), "files": {_path(params): params["text"]}}}
        _, _, text, other, other_text = next(t for t in TOPICS if t[0] == params["topic"])
        return {MARKOR: {"files": {_path(params): text, join(params["folder"], f"{other}.md"): other_text}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Markor in front with that note open (edit or view mode)."""
        opened = state_of(state, markor.MarkorState)["open"]
        return state["foreground"] == MARKOR and opened is not None and opened["path"] == _path(params)

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Go to its folder and tap it."""
        return markor_item(_path(params), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreateNoteTemplate(), AppendLineTemplate(), RenameNoteTemplate(), MoveNoteTemplate(), DeleteNoteTemplate(),
    CreateFolderTemplate(), OpenNoteTemplate(),
)
"""The Markor templates of the world suite (the Tasks ones follow them in the suite, from `todo_tasks`)."""
