"""Tests of the Files templates of the world suite: the shared template contract (splits, goals, experts under
perturbations, budgets and apps, no task solved at reset, near misses rejected), the answer read from the state, the
infeasible declaration counted only where the file would be, and the largest file moving across seeds."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import files as F
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.files import FilesApp, join
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, find
from android_gym.tasks.world.files_expert import FILES, files_of, menu_item, picker_to, size_of, trash_file, twin
from android_gym.tasks.world.files_tasks import TEMPLATES, impossible
from android_gym.tasks.world.notes_expert import press
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(FilesApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with Files, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Nine world templates: an answer, an infeasible one, two spanning another app, long ones."""
    assert len(BY_NAME) == len(TEMPLATES) == 9 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(FILES in t.apps for t in TEMPLATES)
    assert sum(len(t.apps) > 1 for t in TEMPLATES) == 2
    outcomes = [t.outcome for t in TEMPLATES]
    assert outcomes.count("answer") == 1 and outcomes.count("infeasible") == 1
    assert sum(t.max_steps >= 19 for t in TEMPLATES) >= 3


# -- specific behaviour ------------------------------------------------------------------------------------------------
def test_the_answer_is_the_shown_value_and_needs_the_state_untouched():
    """Size and date answers are the labels Files shows; the namesake's fails; after a change there is no answer."""
    for field in ("size", "date"):
        task = next(t for t in BY_NAME["files_file_detail"].tasks("train") if t.params["field"] == field)
        phone = device()
        assert run_episode(task, seed=3, device=phone).success
        state = phone.state()
        mine = files_of(state)[join(task.params["folder"], task.params["name"])]
        other = next(f for f in files_of(state).values() if f["name"] == task.params["name"] and f is not mine)
        label = F.size_label if field == "size" else F.date_label
        key = "size_kb" if field == "size" else "date"
        assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=label(mine[key])))
        assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=label(other[key])))
        changed = {**state, "apps": {**state["apps"], FILES: {**app_state(state, FILES),
                                                              "edits": [{"op": "trash", "path": "x"}]}}}
        assert task.template.answer(task.params, changed) is None


def test_impossible_counts_only_in_the_folder_or_a_search_for_it():
    """Declaring on the Browse page loses; in the folder, or searching for the name, it wins."""
    task = BY_NAME["files_rename_missing"].tasks("train")[0]
    phone = device()
    phone.reset(0, task.initial)
    phone.phone.launch("Files")
    assert not task.check(phone.state(), impossible())
    phone.phone.tap(*find(phone.ui_elements(), desc="Search").center)
    phone.phone.type_text("zz")
    assert not task.check(phone.state(), impossible())  # a search for something else
    for _ in range(2):
        phone.phone.tap(*find(phone.ui_elements(), desc="Delete").center)  # the keyboard's backspace
    phone.phone.type_text(task.params["name"][:6])
    assert task.check(phone.state(), impossible())
    assert run_episode(task, seed=1, device=phone).success


def test_the_largest_file_moves_across_seeds():
    """Delete-largest's target differs across seeds (seeded files and their sizes), so no position solves it."""
    task = BY_NAME["files_delete_largest"].tasks("train")[0]
    targets = set()
    for seed in range(6):
        phone = device()
        assert run_episode(task, seed=seed, device=phone).success
        targets.add(app_state(phone.state(), FILES)["trash"][0]["path"])
    assert len(targets) > 2


# -- near misses -------------------------------------------------------------------------------------------------------
def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """The policy: `template`'s expert on the task's parameters changed by `change`."""
    return lambda task: (lambda elements, state: BY_NAME[template].expert(change(task.params), elements, state))


def _other_folder(p: Params) -> dict[str, Any]:
    return {**p, "folder": "Documents" if p["folder"] == "Download" else "Download"}


def _trash_smallest(task: Task) -> Policy:
    """Trash the smallest file of the folder (chosen once, at the start)."""
    chosen: list[str] = []

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if not chosen:
            here = [f for f in files_of(state).values() if f["folder"] == task.params["folder"]]
            chosen.append(min(here, key=lambda f: f["size_kb"])["path"])
        return trash_file(chosen[0], elements, state)
    return act


def _move_instead(task: Task) -> Policy:
    """Move the file to the destination instead of copying it."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if state["screen"]["name"] == "picker":
            return picker_to(task.params["dest"], elements, state) or press(elements, text="Move here")
        return menu_item(join("Download", task.params["name"]), "Move to", elements, state)
    return act


def _rename_copy_then_declare(task: Task) -> Policy:
    """Rename the copy to the new name, then declare the task impossible."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, FILES)["edits"]:
            return impossible()
        return BY_NAME["files_rename"].expert({**task.params, "name": twin(task.params["name"], "copy")}, elements,
                                              state)
    return act


def _restore_near(p: Params) -> dict[str, Any]:
    stem, _, ext = p["name"].rpartition(".")
    return {**p, "name": f"{stem}.{'pdf' if ext != 'pdf' else 'jpg'}"}


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "files_rename": [_as("files_rename", lambda p: {**p, "name": twin(p["name"], "copy")}),
                     _as("files_rename", lambda p: {**p, "new": twin(p["name"], "renamed")})],
    "files_move_two_new_folder": [_as("files_move_two_new_folder", lambda p: {**p, "other": p["third"]}),
                                  _as("files_move_two_new_folder", lambda p: {**p, "dest": "Pictures"})],
    "files_delete_largest": [_trash_smallest],
    "files_restore": [_as("files_restore", _restore_near)],
    "files_copy_to": [_as("files_copy_to", lambda p: {**p, "name": twin(p["name"], "old")}), _move_instead],
    "files_file_detail": [_as("files_file_detail", _other_folder)],
    "files_rename_missing": [_rename_copy_then_declare],
    "files_note_delete": [_as("files_note_delete", lambda p: {**p, "name": p["other"], "other": p["name"]})],
    "files_size_to_text": [_as("files_size_to_text", _other_folder)],
}
"""Per template, policies that take a neighbouring path: the twin, the namesake, a wrong name, folder or action."""


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_near_miss_does_not_solve(template: TaskTemplate):
    """Each wrong path changes the phone (renames, moves, trashes, restores, copies, texts) but never wins."""
    checks.check_near_misses(template, device(), WRONG[template.name])


def test_near_miss_sizes_differ():
    """A namesake's size differs from the task file's (else the answer and text near misses would prove nothing)."""
    for t in (BY_NAME["files_file_detail"], BY_NAME["files_size_to_text"]):
        for p in t.values("train") + t.values("test"):
            assert size_of(p["name"]) != size_of(p["name"], "other")
