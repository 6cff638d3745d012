"""Tests of the Audio Recorder templates of the world suite: splits, goals, experts under perturbations, budgets, the
apps the experts use, no task solved at reset, and near misses (a shorter clip, the twin record, a wrong setting)
rejected."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor, with_apps
from android_gym.sim.apps import recorder as R
from android_gym.sim.apps.recorder import RecorderApp
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.notes_expert import markor_create, markor_write
from android_gym.tasks.world.recorder_expert import record_clip
from android_gym.tasks.world.recorder_tasks import TEMPLATES
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(RecorderApp)
BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def device(level: str = "none") -> SimDevice:
    """A simulated phone with the recorder, at perturbation `level`."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_its_templates():
    """Ten world templates with distinct names: an answer, an infeasible one, two spanning another app, hard ones."""
    assert len(BY_NAME) == len(TEMPLATES) == 10 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(t.apps and t.apps[0] == R.PACKAGE for t in TEMPLATES)
    assert sum(len(t.apps) > 1 for t in TEMPLATES) == 2
    assert [t.outcome for t in TEMPLATES].count("answer") == 1 and [t.outcome for t in TEMPLATES].count(
        "infeasible") == 1
    assert sum(t.tier == "hard" for t in TEMPLATES) >= 3


def _watching(task: Task, seen: set[str]) -> Policy:
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        seen.add(state["foreground"])
        return task.expert_action(elements, state)
    return act


def test_seeded_records_move_the_task_record():
    """The task's record sits at different rows of the list across seeds (the seeded records around it vary)."""
    task = BY_NAME["recorder_rename"].tasks("train")[0]
    rows = set()
    for seed in range(8):
        phone = device()
        phone.reset(seed, task.initial)
        rows.add([r["name"] for r in app_state(phone.state(), R.PACKAGE)["records"]].index(task.params["name"]))
    assert len(rows) > 2


def test_both_naming_paths_are_solved():
    """A record is named through the dialog after Stop (setting on) and through Rename on its screen (off)."""
    tasks = BY_NAME["recorder_record_named"].tasks("train")
    for ask in (True, False):
        task = next(t for t in tasks if t.params["ask"] is ask)
        phone = device()
        episode = run_episode(task, seed=2, device=phone)
        state = app_state(phone.state(), R.PACKAGE)
        assert episode.success and state["added"] == [task.params["name"]]
        assert state["renamed"][0]["from"].startswith("Record-")


def test_the_answer_needs_the_state_untouched():
    """The duration answer is the record's mm:ss; the twin's length fails; after a change there is no answer."""
    task = BY_NAME["recorder_duration"].tasks("train")[0]
    phone = device()
    assert run_episode(task, seed=1, device=phone).success
    state = phone.state()
    truth = R.clock(task.params["length"])
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=truth))
    twin = next(r for r in app_state(state, R.PACKAGE)["records"] if r["name"] == task.params["twin"])
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=R.clock(twin["duration_s"])))
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=f"It lasts {truth}"))
    changed = {**state, "apps": {**state["apps"], R.PACKAGE: {**app_state(state, R.PACKAGE),
                                                              "removed": [task.params["twin"]]}}}
    assert task.template.answer(task.params, changed) is None


# -- near misses -------------------------------------------------------------------------------------------------------
def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """The policy: `template`'s expert on the task's parameters changed by `change`."""
    return lambda task: (lambda elements, state: BY_NAME[template].expert(change(task.params), elements, state))


def _twin_then_declare(task: Task) -> Policy:
    """Play the twin, then declare the task impossible."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, R.PACKAGE).get("playing"):
            return impossible()
        return BY_NAME["recorder_play"].expert({**task.params, "name": task.params["twin"]}, elements, state)
    return act


def _wrong_note_text(task: Task) -> Policy:
    """Record the clip, then write something other than its name in the note."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        note = task.params["note"]
        if not app_state(state, R.PACKAGE).get("added"):
            return record_clip(task.params["seconds"], elements, state)
        if note in app_state(state, markor.PACKAGE)["files"]:
            return markor_write(note, "Voice memo", elements, state)
        return markor_create("", note, "Markdown", elements, state)
    return act


def _other_rate(p: Params) -> dict[str, Any]:
    rate = 48000 if p["rate"] != 48000 else 32000
    return {**p, "rate": rate, "rate_label": R.rate_label(rate)}


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "recorder_record_clip": [_as("recorder_record_clip", lambda p: {**p, "seconds": p["seconds"] - 2})],
    "recorder_record_named": [_as("recorder_record_clip", lambda p: {**p, "start": "m4a"}),  # never renamed
                              _as("recorder_record_named", lambda p: {**p, "seconds": 1})],
    "recorder_rename": [_as("recorder_rename", lambda p: {**p, "name": p["twin"]})],
    "recorder_delete_two": [_as("recorder_delete_two", lambda p: {**p, "other": p["twin"]})],
    "recorder_format_then_record": [_as("recorder_format_then_record", _other_rate),
                                    _as("recorder_record_clip", lambda p: p)],  # records before the settings
    "recorder_duration": [_as("recorder_duration", lambda p: {**p, "name": p["twin"]})],
    "recorder_play": [_as("recorder_play", lambda p: {**p, "name": p["twin"]})],
    "recorder_play_missing": [_twin_then_declare],
    "recorder_memo_to_note": [_wrong_note_text],
    "recorder_duration_to_text": [_as("recorder_duration_to_text", lambda p: {**p, "name": p["twin"]})],
}
"""Per template, policies that take a neighbouring path: a shorter clip, the twin, a wrong setting or text."""


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_near_miss_does_not_solve(template: TaskTemplate):
    """Each wrong path changes the phone (it records, renames, deletes, plays, answers or texts) but never wins."""
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        for wrong in WRONG[template.name]:
            phone = device()
            phone.reset(0, task.initial)
            start = phone.state()
            episode = run_episode(task, seed=0, policy=wrong(task), device=phone)
            assert not episode.success, f"{task} with {wrong}"
            assert episode.log and phone.state()["apps"] != start["apps"] or template.outcome == "answer"
