"""Tests of AndroidWorld's Joplin questions on the suite: the notes the phone starts with (the task's, and 100 random
ones that meet not all of the exclusion conditions, the seeded world gone) and the answers compared as AndroidWorld
compares them, or stricter where the goal asks for an exact format: the quantity as the recipe writes it, the count
as a number, "True"/"False" in any case; a near miss loses, and a changed note leaves no answer."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps.joplin_data import FOLDERS
from android_gym.tasks.androidworld import joplin as Q
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find

RECIPE, MEETING, IS_TODO, TODO_COUNT = Q.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 1) -> dict[str, Any]:
    """The phone's state reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone.state()


def says(task: Task, state: dict[str, Any], text: str) -> bool:
    """Whether answering `text` wins."""
    return task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=text))


def first(template: Q._NotesQuestion, split: str = "train", **wanted: Any) -> Task:
    """The first task of `split` whose parameters hold `wanted`."""
    return next(t for t in template.tasks(split) if all(t.params[k] == v for k, v in wanted.items()))


def touched(task: Task) -> dict[str, Any]:
    """The state after the agent opened the task's first note and converted it (note <-> to-do) back and forth."""
    phone = device()
    phone.reset(1, task.initial)
    phone.phone.launch("Joplin")
    for _ in range(2):
        if phone.phone.top.name == "notes":
            phone.phone.tap(*find(phone.ui_elements(), rid=J.ROW_TITLE_RID).center)
        phone.phone.tap(*find(phone.ui_elements(), desc="More options").center)
        menu = find(phone.ui_elements(), text="Convert to note") or find(phone.ui_elements(), text="Convert to to-do")
        phone.phone.tap(*menu.center)
    return phone.state()


@pytest.mark.parametrize("template", Q.TEMPLATES, ids=lambda t: t.name)
def test_the_phone_holds_the_task_notes_and_100_random_ones_none_excluded(template: Q._NotesQuestion) -> None:
    for task in template.tasks("train")[:2] + template.tasks("test")[:2]:
        notes = started(task)["apps"][J.PACKAGE]["notes"]
        own = template.targets(task.params)
        assert len(notes) == len(own) + Q.NOISE and set(n["folder"] for n in notes) <= set(FOLDERS)
        rest = [n for n in notes if not any(n["title"] == o["title"] and n["body"] == o["body"] for o in own)]
        assert len(rest) == Q.NOISE and not any(template.excluded(task.params, n) for n in rest)
        assert not task.check(started(task), None) and task.template.answer(task.params, started(task))


def test_recipe_quantity_must_be_the_recipes_own_words() -> None:
    """The amount and unit win in any case and spacing; another line's amount, a lost plural, the ingredient
    appended or the amount alone lose."""  # noqa: D205, D209
    task = first(RECIPE, ingredient_quantity="2 cups")
    state = started(task)
    assert says(task, state, "2 cups") and says(task, state, " 2  CUPS ")
    assert not says(task, state, "2 cup") and not says(task, state, "2")
    assert not says(task, state, f"2 cups {task.params['ingredient']}") and not says(task, state, "1 teaspoon")
    other = first(RECIPE, "test")
    assert says(other, started(other), other.params["ingredient_quantity"])


def test_meeting_count_is_a_number() -> None:
    """The count wins as a number ("25.0" too); a neighbour count, words or a unit lose."""
    task = first(MEETING, attendee_count="25")
    state = started(task)
    assert says(task, state, "25") and says(task, state, "25.0")
    assert not says(task, state, "30") and not says(task, state, "25 people") and not says(task, state, "twenty-five")


@pytest.mark.parametrize("is_todo", ["True", "False"])
def test_is_todo_answers_the_flag_in_any_case(is_todo: str) -> None:
    task = first(IS_TODO, is_todo=is_todo)
    state = started(task)
    other = "False" if is_todo == "True" else "True"
    assert says(task, state, is_todo) and says(task, state, is_todo.lower())
    assert not says(task, state, other) and not says(task, state, "Yes")


def test_todo_count_is_the_notebooks_three_todos() -> None:
    """Three, as a number; the plain notes of the notebook do not count."""
    task = TODO_COUNT.tasks("train")[0]
    state = started(task)
    folder = [n for n in state["apps"][J.PACKAGE]["notes"] if n["folder"] == task.params["folder"]]
    assert len(folder) > 3 and sum(n["is_todo"] for n in folder) == 3
    assert says(task, state, "3") and says(task, state, "3.0")
    assert not says(task, state, str(len(folder))) and not says(task, state, "2")


@pytest.mark.parametrize("template", [IS_TODO, TODO_COUNT], ids=lambda t: t.name)
def test_a_changed_note_leaves_no_answer(template: Q._NotesQuestion) -> None:
    """Converting a note (even back again) changes the notes: no answer wins, the old one neither."""
    task = template.tasks("train")[0]
    truth = template.answer(task.params, started(task))
    state = touched(task)
    assert template.answer(task.params, state) is None and not says(task, state, truth)
