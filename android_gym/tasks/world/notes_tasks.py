"""World-suite tasks over Markor and Tasks (issue 17): notes to create, extend, rename, move, delete and find; tasks
to add, complete, re-date and clear; a filter to show; and two tasks that carry text from one app to the other.

Every task puts what it needs on the phone under fixed names (`initial`), next to a near miss (a similarly named note,
a task of the same title in another list), so the seeded notebook and lists only shift positions. Checks read the
apps' state and their episode edit logs, so touching the near miss, or anything else, fails. Splits hold out note
names and task titles (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry
dropped taps by acting on the unchanged screen again; their shared steps and the checks' lookups live in `notes_expert`.

Everyday lines (issue 49, `goals.everyday.notes`) reach the templates with optional parameters: "loose" notes (names
and texts compared without case or punctuation), a task in no named list ("list" None) or without its near miss
("near" False). `DeleteTaskTemplate` and `AddTasksTemplate` exist for those lines and stay out of `TEMPLATES`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps.markor import join
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import app_state, fill, find, home, wait
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    TASKS,
    Elements,
    State,
    find_tasks,
    folded_words,
    markor_create,
    markor_item,
    markor_write,
    named,
    notes_on,
    only_touched,
    press,
    reach,
    tasks_add,
    tasks_edit,
    tasks_view,
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
TITLES = ("Pick up dry cleaning", "Submit expense report", "Book flights to Rome", "Buy a phone charger",
          "Call the landlord", "Renew gym membership", "Order printer ink", "Send thank-you cards",
          "Fix the leaking tap", "Cancel the magazine", "Prepare tax documents", "Sign up for pottery class",
          "Update the resume", "Take the car for a wash", "Pay the parking ticket", "Buy a gift for Emma",
          "Schedule a vet visit", "Back up the laptop", "Return the rental skis", "Write the quarterly summary")
DAYS = (1, 2, 3, 5, 8, 12, 16, 21, 25)
"""Due dates offered to the agent, in days after the sim's today (25 days is next month: the picker pages)."""
NEAR = {"Inbox": "Work", "Work": "Personal", "Shopping": "Inbox", "Personal": "Shopping"}
"""The list holding a task's near miss (the same title elsewhere)."""


def day_phrase(days: int) -> str:
    """A due date as a goal says it.

    >>> day_phrase(1), day_phrase(2)
    ('tomorrow', 'Friday, June 12')
    """
    if days == 1:
        return "tomorrow"
    d = datetime.date.fromisoformat(todo.iso(days))
    return f"{d:%A}, {d:%B} {d.day}"


def _pick(pool: Sequence[Any], i: int) -> Any:
    return pool[i % len(pool)]


class WorldTemplate(TaskTemplate):
    """A world-suite template: the phrasing picker, and `values` from `grid()` split on the `split_key` param."""

    suite = "world"
    phrasings: tuple[str, ...] = ()
    split_key = "title"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict of the template, both splits."""
        raise NotImplementedError

    def values(self, split: str) -> list[dict[str, Any]]:
        """The `grid()` entries whose `split_key` value `split_of` puts in `split`."""
        return [p for p in self.grid() if split_of(p[self.split_key]) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction, in the phrasing `params["phrasing"]` picks."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(**params)


# -- Markor -------------------------------------------------------------------------------------------------------
def _notes(folders: Sequence[str], texts: Sequence[str] = TEXTS) -> list[dict[str, Any]]:
    """Every stem in each of `folders`, a text (or line) and a phrasing rotating with it."""
    return [{"name": f"{s}.md", "folder": f, "where": f" in the {f} folder" if f else "", "text": _pick(texts, i + k),
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
        m = app_state(state, MARKOR)
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
        if path in app_state(state, MARKOR).get("files", {}):
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
        m = app_state(state, MARKOR)
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
        return [{**p, "new": f"{p['name'][:-3]}_{_pick(NEW_STEMS, p['phrasing'])}.md"}
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
        m = app_state(state, MARKOR)
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
        return [{**p, "to": _pick(FOLDERS, p["phrasing"] + 4 * k)} for k, p in enumerate(_notes(("", "")))]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note in the root; the target folder and a similarly named one."""
        return {MARKOR: {"folders": [params["to"], f"{params['to']} 2025"], "files": {_path(params): _seeded(params)}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note is in the folder with its text and gone from the root; nothing else edited."""
        m, dest = app_state(state, MARKOR), join(params["to"], params["name"])
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
        m = app_state(state, MARKOR)
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
        m = app_state(state, MARKOR)
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
        opened = app_state(state, MARKOR).get("open")
        return state["foreground"] == MARKOR and opened is not None and opened["path"] == _path(params)

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Go to its folder and tap it."""
        return markor_item(_path(params), elements, state)


# -- Tasks --------------------------------------------------------------------------------------------------------
def _tasks(lists_per_title: int, offset: int = 0) -> list[dict[str, Any]]:
    """Every title in `lists_per_title` lists, with a due date (and its phrase), a priority and a phrasing."""
    out = []
    for i, title in enumerate(TITLES):
        for k in range(lists_per_title):
            days = _pick(DAYS, i + offset + 4 * k)
            out.append({"title": title, "list": _pick(todo.LISTS, i + offset + k), "days": days,
                        "day": day_phrase(days), "priority": _pick(todo.PRIORITIES[:3], i + 2 * k), "phrasing": i + k})
    return out


def _task_pair(params: Mapping[str, Any], completed: bool = False, days: int = 4) -> dict[str, Any]:
    """The task as a pair's member starts (or ends, when `completed` or re-dated by `days`)."""
    return {"title": params["title"], "due": todo.iso(days), "priority": "medium", "completed": completed}


class _PairTemplate(WorldTemplate):
    """A task in list {list} and a task of the same title in another list (the near miss), both open, due in 4 days.

    Params with "near": False (an everyday line that names no list, issue 49) leave the near miss out: the title is
    then in no other list.
    """

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The task and its near miss."""
        spec = {k: v for k, v in _task_pair(params).items() if k != "completed"}
        near = [{"list": NEAR[params["list"]], **spec}] if params.get("near", True) else []
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": params["list"], **spec}, *near]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The task is as `wanted` and alone in its list; the near miss as it started; no other task edited."""
        t = app_state(state, TASKS)
        return (find_tasks(t["lists"], params["list"], params["title"]) == self.wanted(params)
                and self.near_kept(params, t["lists"])
                and all((e["list"], e["title"]) == (params["list"], params["title"]) for e in t["edits"]))

    @staticmethod
    def near_kept(params: Mapping[str, Any], lists: Mapping[str, Any]) -> bool:
        """Whether the near miss is as it started (without one: whether no other list holds the title)."""
        if params.get("near", True):
            return find_tasks(lists, NEAR[params["list"]], params["title"]) == [_task_pair(params)]
        return not any(find_tasks(lists, name, params["title"]) for name in lists if name != params["list"])

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The list's tasks of that title once the goal is met."""
        raise NotImplementedError


class AddTaskTemplate(WorldTemplate):
    """Add task {title} due {day} with {priority} priority to list {list}; the same title waits in another list."""

    name, max_steps = "tasks_add_task", 21
    apps = (TASKS,)
    phrasings = ('Add a task "{title}" to my {list} list in Tasks, due {day}, with {priority} priority',
                 'In the Tasks app, create "{title}" in the {list} list with {priority} priority, due {day}',
                 'Put "{title}" on my {list} to-do list: due {day}, {priority} priority')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists, due dates and priorities rotating."""
        return _tasks(2)

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The title only in another list, undated and without priority (for a goal naming no list: nowhere)."""
        if params["list"] is None:
            return {TASKS: {"absent": [params["title"]]}}
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": NEAR[params["list"]],
                                                                "title": params["title"]}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """One open task of that title in the list with that date and priority; the other list's one untouched.

        Params of an everyday line (issue 49) may leave out what the line does not say: "list" None (one open task
        of that title in any list, no other task edited), "days" None (any due date), "priority" None (any).
        """
        t = app_state(state, TASKS)
        lists = t["lists"]
        if params["list"] is None:
            found = [task for name in lists for task in find_tasks(lists, name, params["title"])]
            if len(found) != 1 or found[0]["completed"]:
                return False
            return ((params["days"] is None or found[0]["due"] == todo.iso(params["days"]))
                    and (params["priority"] is None or found[0]["priority"] == params["priority"])
                    and all(e["title"].casefold() == params["title"].casefold() for e in t["edits"]))
        want = {"title": params["title"], "due": todo.iso(params["days"]), "priority": params["priority"],
                "completed": False}
        near = {"title": params["title"], "due": None, "priority": "none", "completed": False}
        return (find_tasks(lists, params["list"], params["title"]) == [want]
                and find_tasks(lists, NEAR[params["list"]], params["title"]) == [near])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Drawer, the list (the Inbox when the goal names none), Add task, title, Due date (page months, pick the
        day, OK), priority, Save."""  # noqa: D205, D209
        due = None if params["days"] is None else todo.iso(params["days"])
        return tasks_add(params["list"] or "Inbox", params["title"], due, params["priority"] or "none", elements,
                         state)


class CompleteTaskTemplate(_PairTemplate):
    """Mark task {title} in list {list} completed; the same title in another list stays open."""

    name, max_steps = "tasks_complete_task", 11
    apps = (TASKS,)
    phrasings = ('Mark "{title}" in my {list} list as done in Tasks',
                 "In Tasks, complete the task {title} on the {list} list", 'Check off "{title}" from the {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists."""
        return _tasks(2, offset=1)

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Completed, otherwise as it was."""
        return [_task_pair(params, completed=True)]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list and tick the task's checkbox."""
        box = find(elements, desc=f"Complete {params['title']}")
        done = box is not None and box.checked
        return tasks_view(params["list"], elements, state) or (wait() if done else reach(elements, state, box))


class ChangeDueTemplate(_PairTemplate):
    """Change the due date of {title} in {list} to {day}; its namesake in another list keeps its date."""

    name, max_steps = "tasks_change_due", 17
    apps = (TASKS,)
    phrasings = ('Change the due date of "{title}" in my {list} list to {day}',
                 'In Tasks, move "{title}" ({list} list) to {day}', "Reschedule {title} on the {list} list for {day}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists, with new dates (never the 4 days both start with)."""
        return [p for p in _tasks(2, offset=2) if p["days"] != 4]

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Due on the day, otherwise as it was."""
        return [_task_pair(params, days=params["days"])]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, open the task, Due date, pick the day, OK, Save."""
        step = into_app("Tasks", TASKS, elements, state)
        editing = app_state(state, TASKS).get("editing")
        if step is None and editing is not None and editing["index"] is not None and \
                (editing["list"], editing["title"]) == (params["list"], params["title"]):
            return tasks_edit(params["title"], todo.iso(params["days"]), "medium", elements, state)
        step = step or tasks_view(params["list"], elements, state)
        return step or reach(elements, state, find(elements, rid=todo.TITLE_RID, text=params["title"]))


def _finished(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The list's content for the task: two completed and two open tasks."""
    i = TITLES.index(params["title"])
    return [{"title": _pick(TITLES, i + 5 * k), "due": todo.iso(k - 1), "priority": "low", "completed": k < 2}
            for k in range(4)]


class DeleteCompletedTemplate(WorldTemplate):
    """Delete every completed task of list {list}: More options, Delete completed, confirm."""

    name, max_steps = "tasks_delete_completed", 14
    apps = (TASKS,)
    phrasings = ("Delete all completed tasks from my {list} list",
                 "Clear the finished tasks in the {list} list in Tasks",
                 "In Tasks, remove the tasks I already did from {list}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title (the first of a set of four) in two lists."""
        return _tasks(2, offset=3)

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The list holds two completed and two open tasks; another list has a completed task too."""
        return {TASKS: {"lists": {params["list"]: _finished(params)}, "tasks": [
            {"list": NEAR[params["list"]], "title": "Already done elsewhere", "completed": True}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The list holds exactly its open tasks; the other list's completed task is still there."""
        lists = app_state(state, TASKS)["lists"]
        return (lists.get(params["list"]) == [t for t in _finished(params) if not t["completed"]]
                and bool(find_tasks(lists, NEAR[params["list"]], "Already done elsewhere")))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, More options, Delete completed, Delete."""
        step = into_app("Tasks", TASKS, elements, state)
        name = state["screen"]["name"]
        if step is None and name in ("menu", "clear") and app_state(state, TASKS)["view"] == params["list"]:
            return press(elements, text="Delete completed" if name == "menu" else "Delete")
        return step or tasks_view(params["list"], elements, state) or press(elements, desc="More options")


class DueFilterTemplate(WorldTemplate):
    """What is due {when}? (information retrieval): Tasks shows the Today or Tomorrow filter."""

    name, max_steps = "tasks_due_filter", 9
    apps = (TASKS,)
    phrasings = ("What is due {phrase}?", "Show me my tasks due {phrase}", "Which to-dos do I have for {phrase}?")

    def grid(self) -> list[dict[str, Any]]:
        """Both filters, each with one of the titles due that day."""
        return [{**p, "when": w, "phrase": w.lower()} for p in _tasks(1) for w in ("Today", "Tomorrow")]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """A task due that day, so the filter is never empty."""
        due = todo.iso(0 if params["when"] == "Today" else 1)
        return {TASKS: {"tasks": [{"list": params["list"], "title": params["title"], "due": due}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Tasks in front on its list screen, showing the filter."""
        t = app_state(state, TASKS)
        return state["foreground"] == TASKS and t.get("screen") == "list" and t.get("view") == params["when"]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Drawer, the filter."""
        return tasks_view(params["when"], elements, state) or wait()


class DeleteTaskTemplate(_PairTemplate):
    """Delete task {title} of list {list}; its namesake in another list stays. Not in the suite's `TEMPLATES` (its
    tasks are the everyday lines', issue 49), though its grid makes it a complete template."""  # noqa: D205, D209

    name, max_steps = "tasks_delete_task", 13
    apps = (TASKS,)
    phrasings = ('Delete the task "{title}" from my {list} list in Tasks', "In Tasks, remove {title} from the {list} "
                 "list", 'Get rid of "{title}" on my {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists."""
        return _tasks(2, offset=4)

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Gone from its list."""
        return []

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, open the task, Delete task, Delete."""
        step = into_app("Tasks", TASKS, elements, state)
        editing = app_state(state, TASKS).get("editing")
        if step is None and state["screen"]["name"] == "delete":
            return press(elements, text="Delete")
        mine = editing is not None and editing["index"] is not None and \
            (editing["list"], editing["title"]) == (params["list"], params["title"])
        if step is None and state["screen"]["name"] == "edit" and mine:
            return press(elements, desc="Delete task")
        step = step or tasks_view(params["list"], elements, state)
        return step or reach(elements, state, find(elements, rid=todo.TITLE_RID, text=params["title"]))


class AddTasksTemplate(WorldTemplate):
    """Add three tasks {titles} to list {list} ("list" None: an everyday line naming no list, any list will do). Not
    in the suite's `TEMPLATES` (its tasks are the everyday lines', issue 49), though its grid makes it complete."""  # noqa: D205, D209

    name, max_steps = "tasks_add_several", 22
    apps = (TASKS,)
    phrasings = ("Add three tasks to my {list} list in Tasks: {said}", "In Tasks, put {said} on the {list} list",
                 "Create these tasks in my {list} list: {said}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title with two others of its split, in a list rotating with it."""
        out = []
        for split in ("train", "test"):
            pool = [t for t in TITLES if split_of(t) == split]
            for i, title in enumerate(pool):
                titles = [title, _pick(pool, i + 2), _pick(pool, i + 5)]
                out.append({"title": title, "titles": titles, "said": f"{titles[0]}, {titles[1]} and {titles[2]}",
                            "list": _pick(todo.LISTS, i), "phrasing": i})
        return out

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """None of the titles in any list."""
        return {TASKS: {"absent": list(params["titles"])}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Each title is one open task in the list (any list when None), none elsewhere; no other task edited."""
        t = app_state(state, TASKS)
        lists, wanted = t["lists"], {title.casefold() for title in params["titles"]}
        for title in params["titles"]:
            found = {name: find_tasks(lists, name, title) for name in lists}
            mine = [task for name, tasks in found.items() if params["list"] in (None, name) for task in tasks]
            if len(mine) != 1 or mine[0]["completed"] or sum(map(len, found.values())) != 1:
                return False
        return all(e["title"].casefold() in wanted for e in t["edits"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Add the first title not there yet (the list, Add task, the title, Save), three times."""
        lists = app_state(state, TASKS)["lists"]
        todo_ = [title for title in params["titles"] if not any(find_tasks(lists, n, title) for n in lists)]
        if not todo_:
            return wait()
        return tasks_add(params["list"] or "Inbox", todo_[0], None, "none", elements, state)


# -- both apps ----------------------------------------------------------------------------------------------------
def _cross(params: Mapping[str, Any]) -> dict[str, Any]:
    return {**params, "name": f"{_pick(STEMS, params['phrasing'] + 3 * TITLES.index(params['title']))}.md"}


class TaskToNoteTemplate(WorldTemplate):
    """Copy the title of the high-priority task of list {list} into a new Markor note {name}."""

    name, max_steps = "task_title_to_note", 21
    apps = (MARKOR, TASKS,)
    phrasings = ('Copy the title of the high-priority task in my {list} list into a new Markor note named "{name}"',
                 "Make a Markor note called {name} containing the name of my high-priority {list} task",
                 "Look up the most important task in my {list} list in Tasks and write its title in a new note "
                 "{name} in Markor")

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two of the named lists (never the Inbox), with a note name."""
        return [_cross({**p, "list": _pick(todo.LISTS[1:], p["phrasing"])}) for p in _tasks(2)]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The list: the high-priority task among three of lower priority; no such note yet."""
        i = TITLES.index(params["title"])
        tasks = [{"title": _pick(TITLES, i + k), "due": todo.iso(k), "priority": p}
                 for k, p in ((3, "medium"), (0, "high"), (6, "low"), (9, "none"))]
        return {TASKS: {"lists": {params["list"]: tasks}}, MARKOR: {"absent": [params["name"]]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note in the root holds just the title; no other note edited and no task changed."""
        m, t = app_state(state, MARKOR), app_state(state, TASKS)
        return (m["files"].get(params["name"], "").strip().casefold() == params["title"].casefold()
                and only_touched(m["edits"], {params["name"]}) and not t["edits"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list in Tasks (which keeps showing it), then create the note in Markor and type the title."""
        if app_state(state, TASKS)["view"] != params["list"]:
            return tasks_view(params["list"], elements, state) or wait()
        if params["name"] in app_state(state, MARKOR)["files"]:
            return markor_write(params["name"], params["title"], elements, state)
        return markor_create("", params["name"], "Markdown", elements, state)


class NoteToTaskTemplate(WorldTemplate):
    """Add the to-do written in Markor note {name} as a task of list {list}."""

    name, max_steps = "note_to_task", 20
    apps = (MARKOR, TASKS,)
    phrasings = ('The Markor note "{name}" holds a to-do: add it as a task to my {list} list in Tasks',
                 "Read my note {name} in Markor and put what it says on my {list} list in Tasks",
                 "Turn the reminder in the Markor note {name} into a task in the {list} list")

    def grid(self) -> list[dict[str, Any]]:
        """Every title as a note's text, in two lists."""
        return [_cross(p) for p in _tasks(2, offset=1)]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note holds the to-do; no task of that title anywhere."""
        return {MARKOR: {"files": {params["name"]: params["title"]}}, TASKS: {"absent": [params["title"]]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """One open task of that title in the list, none elsewhere; the note unchanged."""
        m, lists = app_state(state, MARKOR), app_state(state, TASKS)["lists"]
        found = {n: find_tasks(lists, n, params["title"]) for n in lists}
        mine = found.pop(params["list"], [])
        return len(mine) == 1 and not mine[0]["completed"] and not any(found.values()) and not m["edits"]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Open the note in Markor to read it, then add the task in Tasks."""
        if app_state(state, MARKOR)["last_opened"] != params["name"]:
            return markor_item(params["name"], elements, state)
        if state["foreground"] == MARKOR:
            return home()
        return tasks_add(params["list"], params["title"], None, "none", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreateNoteTemplate(), AppendLineTemplate(), RenameNoteTemplate(), MoveNoteTemplate(), DeleteNoteTemplate(),
    CreateFolderTemplate(), OpenNoteTemplate(), AddTaskTemplate(), CompleteTaskTemplate(), ChangeDueTemplate(),
    DeleteCompletedTemplate(), DueFilterTemplate(), TaskToNoteTemplate(), NoteToTaskTemplate(),
)
"""The Markor and Tasks templates of the world suite."""
