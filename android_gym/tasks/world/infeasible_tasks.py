"""World-suite tasks that cannot be done (the "infeasible" outcome): call a contact who is not saved, complete a task
that is not on the list, open a note that does not exist.

The agent wins by declaring the task impossible (STATUS_TASK_IMPOSSIBLE), and only while the state confirms it is:
the thing the goal names is absent and the agent changed nothing on the way (no call placed, no task edited, no note
touched), so doing the near miss instead (the namesake, the same title in another list, the similarly named note)
fails; and only while it is looking where the thing would be (`looked`: Contacts searched for the name, the list or
the folder in front), so that declaring impossible blind, which a random agent does, is a guess and earns nothing.
Each goal reads exactly like a feasible template's (`call_contact`, `tasks_complete_task`, `markor_open_note`), so an
agent that always declares impossible loses those. Experts go where the thing would be, see it is not there (the
search shows no result, the list or folder lacks it), then declare.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any, TypeVar

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import package_of, state_of
from android_gym.sim.apps import contacts, dialer, markor, todo
from android_gym.sim.apps.markor import join
from android_gym.tasks.expert import find, obstacle
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate
from android_gym.tasks.world.notes_expert import MARKOR, TASKS, find_tasks, markor_folder, tasks_view
from android_gym.tasks.world.notes_tasks import TOPICS
from android_gym.tasks.world.people_expert import fill, to_card
from android_gym.tasks.world.people_tasks import PersonTemplate
from android_gym.tasks.world.todo_tasks import NEAR, TITLES

S = TypeVar("S")

def impossible() -> Action:
    """Declare the task impossible."""
    return Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)


def looking_at(state: State, schema: type[S], screen: str) -> S | None:
    """The state of the app declaring `schema` when the app is in front on its `screen`, else None."""
    mine: Any = state_of(state, schema)
    return mine if state["foreground"] == package_of(schema) and mine["screen"] == screen else None


class CallMissingContactTemplate(PersonTemplate):
    """Call {name}, who is not a contact: a namesake of each half of the name is (call neither)."""

    name, max_steps = "call_missing_contact", 10
    outcome, apps = "infeasible", (contacts.PACKAGE,)
    target_present = False
    phrasings = ("Call {name}", "Give {name} a call", "Phone {name}", "Ring {name}")

    def check(self, params: Params, state: State) -> bool:
        """No contact of that name, no call placed, Contacts unchanged."""
        c = state_of(state, contacts.ContactsState)
        return (all(p["name"] != params["name"] for p in c["contacts"])
                and not state_of(state, dialer.DialerState)["calls"]
                and not (c["added"] or c["removed"] or c["changed"]))

    def looked(self, params: Params, state: State) -> bool:
        """Contacts in front on its list, searched for the name."""
        c = looking_at(state, contacts.ContactsState, "list")
        return c is not None and c["query"].strip().casefold() == params["name"].casefold()

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search Contacts for the name; when the search finds no one, declare."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        searched = (state["foreground"] == contacts.PACKAGE and screen["name"] == "list"
                    and screen["fields"].get(contacts.SEARCH_RID, "") == params["name"])
        if searched and find(elements, text=f'No results for "{params["name"]}"') is not None:
            return impossible()
        if state["foreground"] == contacts.PACKAGE and screen["name"] == "list" and not searched:
            return fill(elements, state, contacts.SEARCH_RID, params["name"])
        return to_card(params["name"], elements, state) or impossible()


class CompleteMissingTaskTemplate(WorldTemplate):
    """Mark {title} in list {list} done, where only another list has that title (leave it open)."""

    name, max_steps, split_key = "complete_missing_task", 11, "title"
    outcome, apps = "infeasible", (TASKS,)
    phrasings = ('Mark "{title}" in my {list} list as done in Tasks',
                 "In Tasks, complete the task {title} on the {list} list", 'Check off "{title}" from the {list} list')

    def grid(self) -> list[dict[str, Any]]:
        """Every title, each in two lists."""
        lists = list(NEAR)
        return [{"title": title, "list": lists[(i + k) % len(lists)], "phrasing": i + k}
                for i, title in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The title only in the near list."""
        return {TASKS: {"absent": [params["title"]], "tasks": [{"list": NEAR[params["list"]],
                                                                "title": params["title"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """The list has no such task, and no task was edited."""
        t = state_of(state, todo.TasksState)
        return not find_tasks(t["lists"], params["list"], params["title"]) and not t["edits"]

    def looked(self, params: Params, state: State) -> bool:
        """Tasks in front on that list."""
        t = looking_at(state, todo.TasksState, "list")
        return t is not None and t["view"] == params["list"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Show the list; it does not hold the task: declare."""
        return tasks_view(params["list"], elements, state) or impossible()


class OpenMissingNoteTemplate(WorldTemplate):
    """Open note {name}, which does not exist: a note on a neighbouring subject lies where it would be."""

    name, max_steps, split_key = "open_missing_note", 8, "name"
    outcome, apps = "infeasible", (MARKOR,)
    phrasings = ("Open my Markor note {name}{where}", "Show me the note {name} in Markor{where}",
                 "In Markor, open {name}{where}")

    def grid(self) -> list[dict[str, Any]]:
        """Every topic's note name in the root, Personal and Work."""
        return [{"name": f"{t[1]}.md", "other": f"{t[3]}.md", "folder": f, "where": f" in the {f} folder" if f else "",
                 "phrasing": i + k} for i, t in enumerate(TOPICS) for k, f in enumerate(("", "Personal", "Work"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No such note anywhere; its neighbour in the folder."""
        text = next(t[4] for t in TOPICS if f"{t[3]}.md" == params["other"])
        paths = [join(f, params["name"]) for f in ("", "Personal", "Work")]
        return {MARKOR: {"absent": paths, "files": {join(params["folder"], params["other"]): text}}}

    def check(self, params: Params, state: State) -> bool:
        """The note is absent and nothing in Markor was edited."""
        m = state_of(state, markor.MarkorState)
        return join(params["folder"], params["name"]) not in m["files"] and not m["edits"]

    def looked(self, params: Params, state: State) -> bool:
        """Markor in front, browsing that folder."""
        m = looking_at(state, markor.MarkorState, "browser")
        return m is not None and m["folder"] == params["folder"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open its folder; the note is not there: declare."""
        return markor_folder(params["folder"], elements, state) or impossible()


TEMPLATES = (CallMissingContactTemplate(), CompleteMissingTaskTemplate(), OpenMissingNoteTemplate())
