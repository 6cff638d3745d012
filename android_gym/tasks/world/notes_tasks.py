"""World-suite tasks over Markor and Tasks (issue 17): notes to create, extend, rename, move, delete and find; tasks
to add, complete, re-date and clear; a filter to show; and two tasks that carry text from one app to the other.

Every task puts what it needs on the phone under fixed names (`initial`), next to a near miss (a similarly named note,
a task of the same title in another list), so the seeded notebook and lists only shift positions. Checks read the
apps' state and their episode edit logs, so touching the near miss, or anything else, fails. Splits hold out note
names and task titles (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry
dropped taps by acting on the unchanged screen again; their shared steps and the checks' lookups live in `notes_expert`.
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
    markor_create,
    markor_item,
    markor_write,
    only_touched,
    press,
    reach,
    tasks_add,
    tasks_edit,
    tasks_view,
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
        """No such note yet, its folder there, and a draft with a similar name beside it."""
        return {MARKOR: {"absent": [_path(params)], "folders": [params["folder"]] if params["folder"] else [],
                         "files": {_path(params, "_draft"): "TODO"}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note holds exactly the text (outer blank space aside) and nothing else was edited."""
        m = app_state(state, MARKOR)
        return m["files"].get(_path(params), "").strip() == params["text"] and only_touched(m["edits"], {_path(params)})

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """FAB, type the name, OK (the editor opens), type the text, Save."""
        if _path(params) in app_state(state, MARKOR).get("files", {}):
            return markor_write(_path(params), params["text"], elements, state)
        return markor_create(params["folder"], params["name"], "Markdown", elements, state)


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
        """The note, and its backup with the same text beside it."""
        return {MARKOR: {"files": {_path(params): _seeded(params), _path(params, "_backup"): _seeded(params)}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The old text, a line break, the line (trailing blank space aside); nothing else edited."""
        m = app_state(state, MARKOR)
        return (m["files"].get(_path(params), "").rstrip() == f"{_seeded(params)}\n{params['text']}"
                and only_touched(m["edits"], {_path(params)}))

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
        """The note and a similarly named one (`_old`); the new name free."""
        return {MARKOR: {"absent": [join(params["folder"], params["new"])],
                         "files": {_path(params): _seeded(params), _path(params, "_old"): "Kept for reference"}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Only the new name holds the text, in the same folder; the other note untouched."""
        m, new = app_state(state, MARKOR), join(params["folder"], params["new"])
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
        """The note and its copy."""
        return {MARKOR: {"files": {_path(params): _seeded(params), _path(params, "_copy"): "Copy"}}}

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
        """The note and its neighbour, in the same folder."""
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
    """A task in list {list} and a task of the same title in another list (the near miss), both open, due in 4 days."""

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The task and its near miss."""
        spec = {k: v for k, v in _task_pair(params).items() if k != "completed"}
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": params["list"], **spec},
                                                               {"list": NEAR[params["list"]], **spec}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The task is as `wanted` and alone in its list; the near miss as it started; no other task edited."""
        t = app_state(state, TASKS)
        return (find_tasks(t["lists"], params["list"], params["title"]) == [self.wanted(params)]
                and find_tasks(t["lists"], NEAR[params["list"]], params["title"]) == [_task_pair(params)]
                and all((e["list"], e["title"]) == (params["list"], params["title"]) for e in t["edits"]))

    def wanted(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The task once the goal is met."""
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
        """The title only in another list, undated and without priority."""
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": NEAR[params["list"]],
                                                                "title": params["title"]}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """One open task of that title in the list with that date and priority; the other list's one untouched."""
        lists = app_state(state, TASKS)["lists"]
        want = {"title": params["title"], "due": todo.iso(params["days"]), "priority": params["priority"],
                "completed": False}
        near = {"title": params["title"], "due": None, "priority": "none", "completed": False}
        return (find_tasks(lists, params["list"], params["title"]) == [want]
                and find_tasks(lists, NEAR[params["list"]], params["title"]) == [near])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Drawer, the list, Add task, title, Due date (page months, pick the day, OK), priority, Save."""
        return tasks_add(params["list"], params["title"], todo.iso(params["days"]), params["priority"], elements, state)


class CompleteTaskTemplate(_PairTemplate):
    """Mark task {title} in list {list} completed; the same title in another list stays open."""

    name, max_steps = "tasks_complete_task", 11
    apps = (TASKS,)
    phrasings = ('Mark "{title}" in my {list} list as done in Tasks',
                 "In Tasks, complete the task {title} on the {list} list", 'Check off "{title}" from the {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists."""
        return _tasks(2, offset=1)

    def wanted(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Completed, otherwise as it was."""
        return _task_pair(params, completed=True)

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

    def wanted(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Due on the day, otherwise as it was."""
        return _task_pair(params, days=params["days"])

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
