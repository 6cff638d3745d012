"""Tests of the Markor and Tasks templates of the world suite: splits, goals, experts under perturbations, no task
solved at reset, and near misses (the expert of a neighbouring goal) rejected."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor, todo, with_apps
from android_gym.sim.apps.markor import MarkorApp
from android_gym.sim.apps.todo import TodoApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import notes_tasks, todo_tasks
from android_gym.tasks.world.notes_expert import markor_create
from android_gym.tasks.world.notes_tasks import TOPICS
from android_gym.tasks.world.todo_tasks import NEAR, TITLES
from android_gym.testing.rollout import run_episode

APPS = with_apps(MarkorApp, TodoApp)
TEMPLATES = (*notes_tasks.TEMPLATES, *todo_tasks.TEMPLATES)
BY_NAME = {t.name: t for t in TEMPLATES}


def device(level: str = "none") -> SimDevice:
    """A simulated phone with both apps, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Fourteen templates with distinct names in the world suite, two of them spanning both apps."""
    assert len(BY_NAME) == len(TEMPLATES) == 14 and {t.suite for t in TEMPLATES} == {"world"}
    both = [t for t in TEMPLATES if markor.PACKAGE in str(t.initial(t.values("train")[0]))
            and todo.PACKAGE in str(t.initial(t.values("train")[0]))]
    assert len(both) == 2


def test_seeded_data_moves_the_task_items():
    """The task's own note and task sit at different places across seeds (the seeded items around them vary)."""
    note = BY_NAME["markor_delete_note"].tasks("train")[0]
    chore = BY_NAME["tasks_add_task"].tasks("train")[0]
    rows, tasks = set(), set()
    for seed in range(8):
        phone = device()
        phone.reset(seed, {**note.initial, **chore.initial})
        app = phone.phone.apps[markor.PACKAGE]
        rows.add(app.listing(note.params["folder"]).index(markor.join(note.params["folder"], note.params["name"])))
        shown = phone.phone.apps[todo.PACKAGE].shown(NEAR[chore.params["list"]])
        tasks.add([phone.phone.apps[todo.PACKAGE].lists[n][i]["title"] for n, i in shown].index(chore.params["title"]))
    assert len(rows) > 1 and len(tasks) > 1


# -- near misses -------------------------------------------------------------------------------------------------------
Params = Mapping[str, Any]


def _first_other_title(p: Params) -> str:
    return TITLES[(TITLES.index(p["title"]) + 3) % len(TITLES)]  # the medium-priority task beside the target


WRONG: dict[str, Callable[[Params], dict[str, Any]]] = {
    "markor_create_note": lambda p: {**p, "name": p["name"].replace(".md", "_draft.md")},  # writes into the draft
    "markor_append_line": lambda p: {**p, "text": "A different line"},
    "markor_rename_note": lambda p: {**p, "new": p["new"][:-3]},  # the new name without its extension
    "markor_move_note": lambda p: {**p, "to": f"{p['to']} 2025"},
    "markor_delete_note": lambda p: {**p, "name": p["name"].replace(".md", "_copy.md")},
    "markor_open_note": lambda p: {**p, "name": next(f"{t[3]}.md" for t in TOPICS if t[0] == p["topic"])},
    "tasks_add_task": lambda p: {**p, "priority": "low" if p["priority"] != "low" else "high"},
    "tasks_complete_task": lambda p: {**p, "list": NEAR[p["list"]]},
    "tasks_change_due": lambda p: {**p, "list": NEAR[p["list"]]},
    "tasks_delete_completed": lambda p: {**p, "list": "My Tasks"},  # deletes every list's completed tasks
    "tasks_due_filter": lambda p: {**p, "when": "Today" if p["when"] == "Tomorrow" else "Tomorrow"},
    "task_title_to_note": lambda p: {**p, "title": _first_other_title(p)},
    "note_to_task": lambda p: {**p, "list": NEAR[p["list"]]},
}
"""Per template, the parameters of a neighbouring goal whose expert takes the wrong path."""


def _folder_as_note(task: Task) -> Callable:
    """A policy that makes a note named like the folder instead of the folder."""
    return lambda elements, state: markor_create("", task.params["folder"], "Markdown", elements, state)


def _data(state: Mapping[str, Any]) -> tuple:
    apps = state["apps"]
    return (apps[markor.PACKAGE]["files"], apps[markor.PACKAGE]["folders"], apps[markor.PACKAGE]["open"],
            apps[todo.PACKAGE]["lists"], apps[todo.PACKAGE]["view"])


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_neighbouring_goal_does_not_solve(template: TaskTemplate):
    """The expert of a near-miss goal (the draft, the other list, the other filter, ...) changes the phone but
    never meets the real goal."""  # noqa: D205, D209
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        if template.name == "markor_create_folder":
            policy = _folder_as_note(task)
        else:
            wrong = WRONG[template.name](task.params)
            policy = lambda elements, state, wrong=wrong: template.expert(wrong, elements, state)  # noqa: E731
        phone = device()
        phone.reset(0, task.initial)
        start = _data(phone.state())
        episode = run_episode(task, seed=0, policy=policy, device=phone)
        assert not episode.success and _data(phone.state()) != start, task


def test_cross_app_experts_visit_both_apps():
    """Copying a task's title shows its list in Tasks first; adding a note's to-do opens the note in Markor first."""
    for name, visited in (("task_title_to_note", lambda s: s["apps"][todo.PACKAGE]["view"]),
                          ("note_to_task", lambda s: s["apps"][markor.PACKAGE]["last_opened"])):
        task = BY_NAME[name].tasks("test")[0]
        phone = device()
        assert run_episode(task, seed=2, device=phone).success
        assert visited(phone.state()) == (task.params["list"] if name == "task_title_to_note" else task.params["name"])
