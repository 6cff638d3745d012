"""World-suite tasks over Tasks (issue 17): tasks to add, complete, re-date and clear, a filter to show; and two tasks
that carry text between Markor and Tasks.

Every task puts what it needs on the phone under fixed names (`initial`), next to a near miss (a task of the same
title in another list, `NEAR`), so the seeded lists only shift positions. Checks read the apps' state and their
episode edit logs, so touching the near miss, or anything else, fails. Splits hold out task titles (`split_of`).
Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`) and retry dropped taps by acting on the
unchanged screen again; their shared steps and the checks' lookups live in `notes_expert`.

Everyday lines (issue 49, `goals.everyday.notes`) reach the templates with optional parameters: a task in no named
list ("list" None) or without its near miss ("near" False). The templates only those lines use are in
`todo_everyday_tasks`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor, todo
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, home, wait
from android_gym.tasks.world.base import Elements, State, WorldTemplate, nth, press
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    TASKS,
    find_tasks,
    markor_create,
    markor_item,
    markor_write,
    only_touched,
    reach,
    tasks_add,
    tasks_edit,
    tasks_view,
)
from android_gym.tasks.world.notes_tasks import STEMS

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


def task_grid(lists_per_title: int, offset: int = 0) -> list[dict[str, Any]]:
    """Every title in `lists_per_title` lists, with a due date (and its phrase), a priority and a phrasing."""
    out = []
    for i, title in enumerate(TITLES):
        for k in range(lists_per_title):
            days = nth(DAYS, i + offset + 4 * k)
            out.append({"title": title, "list": nth(todo.LISTS, i + offset + k), "days": days,
                        "day": day_phrase(days), "priority": nth(todo.PRIORITIES[:3], i + 2 * k), "phrasing": i + k})
    return out


def _task_pair(params: Mapping[str, Any], completed: bool = False, days: int = 4) -> dict[str, Any]:
    """The task as a pair's member starts (or ends, when `completed` or re-dated by `days`)."""
    return {"title": params["title"], "due": todo.iso(days), "priority": "medium", "completed": completed}


class PairTemplate(WorldTemplate):
    """A task in list {list} and a task of the same title in another list (the near miss), both open, due in 4 days.

    Params with "near": False (an everyday line that names no list, issue 49) leave the near miss out: the title is
    then in no other list. Subclasses say what the list holds of that title once the goal is met (`wanted`).
    """

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The task and its near miss."""
        spec = {k: v for k, v in _task_pair(params).items() if k != "completed"}
        near = [{"list": NEAR[params["list"]], **spec}] if params.get("near", True) else []
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": params["list"], **spec}, *near]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The task is as `wanted` and alone in its list; the near miss as it started; no other task edited."""
        t = state_of(state, todo.TasksState)
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
        return task_grid(2)

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
        t = state_of(state, todo.TasksState)
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


class CompleteTaskTemplate(PairTemplate):
    """Mark task {title} in list {list} completed; the same title in another list stays open."""

    name, max_steps = "tasks_complete_task", 11
    apps = (TASKS,)
    phrasings = ('Mark "{title}" in my {list} list as done in Tasks',
                 "In Tasks, complete the task {title} on the {list} list", 'Check off "{title}" from the {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists."""
        return task_grid(2, offset=1)

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Completed, otherwise as it was."""
        return [_task_pair(params, completed=True)]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list and tick the task's checkbox."""
        box = find(elements, desc=f"Complete {params['title']}")
        done = box is not None and box.checked
        return tasks_view(params["list"], elements, state) or (wait() if done else reach(elements, state, box))


class ChangeDueTemplate(PairTemplate):
    """Change the due date of {title} in {list} to {day}; its namesake in another list keeps its date."""

    name, max_steps = "tasks_change_due", 17
    apps = (TASKS,)
    phrasings = ('Change the due date of "{title}" in my {list} list to {day}',
                 'In Tasks, move "{title}" ({list} list) to {day}', "Reschedule {title} on the {list} list for {day}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists, with new dates (never the 4 days both start with)."""
        return [p for p in task_grid(2, offset=2) if p["days"] != 4]

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Due on the day, otherwise as it was."""
        return [_task_pair(params, days=params["days"])]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, open the task, Due date, pick the day, OK, Save."""
        step = into_app("Tasks", TASKS, elements, state)
        editing = state_of(state, todo.TasksState)["editing"]
        if step is None and editing is not None and editing["index"] is not None and \
                (editing["list"], editing["title"]) == (params["list"], params["title"]):
            return tasks_edit(params["title"], todo.iso(params["days"]), "medium", elements, state)
        step = step or tasks_view(params["list"], elements, state)
        return step or reach(elements, state, find(elements, rid=todo.TITLE_RID, text=params["title"]))


def _finished(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The list's content for the task: two completed and two open tasks."""
    i = TITLES.index(params["title"])
    return [{"title": nth(TITLES, i + 5 * k), "due": todo.iso(k - 1), "priority": "low", "completed": k < 2}
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
        return task_grid(2, offset=3)

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The list holds two completed and two open tasks; another list has a completed task too."""
        return {TASKS: {"lists": {params["list"]: _finished(params)}, "tasks": [
            {"list": NEAR[params["list"]], "title": "Already done elsewhere", "completed": True}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The list holds exactly its open tasks; the other list's completed task is still there."""
        lists = state_of(state, todo.TasksState)["lists"]
        return (lists.get(params["list"]) == [t for t in _finished(params) if not t["completed"]]
                and bool(find_tasks(lists, NEAR[params["list"]], "Already done elsewhere")))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, More options, Delete completed, Delete."""
        step = into_app("Tasks", TASKS, elements, state)
        name = state["screen"]["name"]
        if step is None and name in ("menu", "clear") and state_of(state, todo.TasksState)["view"] == params["list"]:
            return press(elements, text="Delete completed" if name == "menu" else "Delete")
        return step or tasks_view(params["list"], elements, state) or press(elements, desc="More options")


class DueFilterTemplate(WorldTemplate):
    """What is due {when}? (information retrieval): Tasks shows the Today or Tomorrow filter."""

    name, max_steps = "tasks_due_filter", 9
    apps = (TASKS,)
    phrasings = ("What is due {phrase}?", "Show me my tasks due {phrase}", "Which to-dos do I have for {phrase}?")

    def grid(self) -> list[dict[str, Any]]:
        """Both filters, each with one of the titles due that day."""
        return [{**p, "when": w, "phrase": w.lower()} for p in task_grid(1) for w in ("Today", "Tomorrow")]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """A task due that day, so the filter is never empty."""
        due = todo.iso(0 if params["when"] == "Today" else 1)
        return {TASKS: {"tasks": [{"list": params["list"], "title": params["title"], "due": due}]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Tasks in front on its list screen, showing the filter."""
        t = state_of(state, todo.TasksState)
        return state["foreground"] == TASKS and t["screen"] == "list" and t["view"] == params["when"]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Drawer, the filter."""
        return tasks_view(params["when"], elements, state) or wait()


# -- both apps ----------------------------------------------------------------------------------------------------
def _cross(params: Mapping[str, Any]) -> dict[str, Any]:
    return {**params, "name": f"{nth(STEMS, params['phrasing'] + 3 * TITLES.index(params['title']))}.md"}


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
        return [_cross({**p, "list": nth(todo.LISTS[1:], p["phrasing"])}) for p in task_grid(2)]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The list: the high-priority task among three of lower priority; no such note yet."""
        i = TITLES.index(params["title"])
        tasks = [{"title": nth(TITLES, i + k), "due": todo.iso(k), "priority": p}
                 for k, p in ((3, "medium"), (0, "high"), (6, "low"), (9, "none"))]
        return {TASKS: {"lists": {params["list"]: tasks}}, MARKOR: {"absent": [params["name"]]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The note in the root holds just the title; no other note edited and no task changed."""
        m, t = state_of(state, markor.MarkorState), state_of(state, todo.TasksState)
        return (m["files"].get(params["name"], "").strip().casefold() == params["title"].casefold()
                and only_touched(m["edits"], {params["name"]}) and not t["edits"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list in Tasks (which keeps showing it), then create the note in Markor and type the title."""
        if state_of(state, todo.TasksState)["view"] != params["list"]:
            return tasks_view(params["list"], elements, state) or wait()
        if params["name"] in state_of(state, markor.MarkorState)["files"]:
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
        return [_cross(p) for p in task_grid(2, offset=1)]

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The note holds the to-do; no task of that title anywhere."""
        return {MARKOR: {"files": {params["name"]: params["title"]}}, TASKS: {"absent": [params["title"]]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """One open task of that title in the list, none elsewhere; the note unchanged."""
        m, lists = state_of(state, markor.MarkorState), state_of(state, todo.TasksState)["lists"]
        found = {n: find_tasks(lists, n, params["title"]) for n in lists}
        mine = found.pop(params["list"], [])
        return len(mine) == 1 and not mine[0]["completed"] and not any(found.values()) and not m["edits"]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Open the note in Markor to read it, then add the task in Tasks."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["name"]:
            return markor_item(params["name"], elements, state)
        if state["foreground"] == MARKOR:
            return home()
        return tasks_add(params["list"], params["title"], None, "none", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddTaskTemplate(), CompleteTaskTemplate(), ChangeDueTemplate(), DeleteCompletedTemplate(), DueFilterTemplate(),
    TaskToNoteTemplate(), NoteToTaskTemplate(),
)
"""The Tasks templates of the world suite, and the two spanning Markor and Tasks."""
