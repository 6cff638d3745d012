"""Tasks templates that only the everyday instructions use (issue 49), outside the World suite, whose tasks stay as
published: delete one task (`DeleteTaskTemplate`) and add three at once (`AddTasksTemplate`). Each has a grid, so that
the template checks (`testing.template_checks`) hold it to the contract the suite's templates keep.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import todo
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import split_of
from android_gym.tasks.expert import find, wait
from android_gym.tasks.world.base import Elements, State, WorldTemplate, nth, press
from android_gym.tasks.world.notes_expert import TASKS, find_tasks, reach, tasks_add, tasks_view
from android_gym.tasks.world.todo_tasks import TITLES, PairTemplate, task_grid


class DeleteTaskTemplate(PairTemplate):
    """Delete task {title} of list {list}; its namesake in another list stays. Not in the suite's `TEMPLATES` (its
    tasks are the everyday lines', issue 49), though its grid makes it a complete template."""  # noqa: D205, D209

    name, max_steps = "tasks_delete_task", 13
    apps = (TASKS,)
    phrasings = ('Delete the task "{title}" from my {list} list in Tasks', "In Tasks, remove {title} from the {list} "
                 "list", 'Get rid of "{title}" on my {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title in two lists."""
        return task_grid(2, offset=4)

    def wanted(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Gone from its list."""
        return []

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Show the list, open the task, Delete task, Delete."""
        step = into_app("Tasks", TASKS, elements, state)
        editing = state_of(state, todo.TasksState)["editing"]
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
                titles = [title, nth(pool, i + 2), nth(pool, i + 5)]
                out.append({"title": title, "titles": titles, "said": f"{titles[0]}, {titles[1]} and {titles[2]}",
                            "list": nth(todo.LISTS, i), "phrasing": i})
        return out

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """None of the titles in any list."""
        return {TASKS: {"absent": list(params["titles"])}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Each title is one open task in the list (any list when None), none elsewhere; no other task edited."""
        t = state_of(state, todo.TasksState)
        lists, wanted = t["lists"], {title.casefold() for title in params["titles"]}
        for title in params["titles"]:
            found = {name: find_tasks(lists, name, title) for name in lists}
            mine = [task for name, tasks in found.items() if params["list"] in (None, name) for task in tasks]
            if len(mine) != 1 or mine[0]["completed"] or sum(map(len, found.values())) != 1:
                return False
        return all(e["title"].casefold() in wanted for e in t["edits"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Add the first title not there yet (the list, Add task, the title, Save), three times."""
        lists = state_of(state, todo.TasksState)["lists"]
        todo_ = [title for title in params["titles"] if not any(find_tasks(lists, n, title) for n in lists)]
        if not todo_:
            return wait()
        return tasks_add(params["list"] or "Inbox", todo_[0], None, "none", elements, state)
