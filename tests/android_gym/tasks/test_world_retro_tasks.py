"""Tests of the Retro Music templates of the world suite: the module's shape, answers read from the screen, and near
misses (another order, the twin playlist, another folder, another artist) rejected. The template contract (splits,
experts under perturbations, budgets, reset) runs over them in test_world_contract.py."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import retro as R
from android_gym.sim.apps.retro_data import clock
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, wait
from android_gym.tasks.world.retro_expert import make_playlist, save_playlist, task_library
from android_gym.tasks.world.retro_tasks import TEMPLATES
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

BY_NAME = {t.name: t for t in TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def test_the_module_has_its_templates():
    """Six templates: two answers (a third), one spanning Messages, all starting in Retro Music."""
    assert len(BY_NAME) == len(TEMPLATES) == 6 and {t.suite for t in TEMPLATES} == {"world"}
    assert all(t.apps[0] == R.PACKAGE for t in TEMPLATES)
    assert [t.outcome for t in TEMPLATES].count("answer") == 2 and sum(len(t.apps) > 1 for t in TEMPLATES) == 1


def test_the_length_answer_is_the_playlists_total():
    """The expert answers the playlist's total as its screen shows it; the twin's total and a sentence lose."""
    task = BY_NAME["retro_playlist_length"].tasks("train")[0]
    phone = SimDevice("none")
    assert run_episode(task, seed=1, device=phone).success
    state = phone.state()
    songs = {s["title"]: s["duration_ms"] for s in app_state(state, R.PACKAGE)["songs"]}
    truth = clock(sum(songs[t] for t in task.params["songs"]))
    twin = clock(sum(songs[t] for t in task.params["twin_songs"]))
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=truth)) and twin != truth
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=twin))
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=f"It lasts {truth}"))


# -- near misses -------------------------------------------------------------------------------------------------------
def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """The policy: `template`'s expert on the task's parameters changed by `change`."""
    return lambda task: (lambda elements, state: BY_NAME[template].expert(change(task.params), elements, state))


def _saved_in_music(task: Task) -> Policy:
    """Make the playlist as asked, then save it into Music instead of Download."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if app_state(state, R.PACKAGE)["exported"]:
            return wait()
        return (make_playlist(task.params["name"], task.params["songs"], elements, state)
                or save_playlist(task.params["name"], "Music", elements, state))
    return act


def _other_artist(p: Params) -> dict[str, Any]:
    """Another artist of the same library with another number of songs."""
    songs = task_library(p["library"], 16)
    count = {a: sum(s["artist"] == a for s in songs) for a in {s["artist"] for s in songs}}
    other = next(a for a in sorted(count) if count[a] != count[p["artist"]])
    return {**p, "artist": other}


def _reordered(p: Params) -> dict[str, Any]:
    songs = p["songs"][1:] + p["songs"][:1]
    return {**p, "songs": songs}


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "retro_create_playlist": [_as("retro_create_playlist", _reordered),
                              _as("retro_create_playlist", lambda p: {**p, "name": p["name"].lower()})],
    "retro_save_playlist": [_saved_in_music],
    "retro_queue_songs": [_as("retro_queue_songs", _reordered)],
    "retro_playlist_length": [_as("retro_playlist_length", lambda p: {**p, "name": p["twin"]})],
    "retro_artist_songs": [_as("retro_artist_songs", _other_artist)],
    "retro_length_to_text": [_as("retro_length_to_text", lambda p: {**p, "name": p["twin"]})],
}
"""Per template, policies that take a neighbouring path: another order or case, another folder, the twin."""


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_near_miss_does_not_solve(template: TaskTemplate):
    """Each wrong path changes the phone (or answers) but never wins, on a train and a test task."""
    phone = SimDevice("none")
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        for wrong in WRONG[template.name]:
            phone.reset(0, task.initial)
            start = phone.state()
            episode = run_episode(task, seed=0, policy=wrong(task), device=phone)
            assert not episode.success, f"{task} with {wrong}"
            assert episode.log and phone.state()["apps"] != start["apps"] or template.outcome == "answer"


def test_the_queue_expert_waits_on_a_queue_it_cannot_mend() -> None:
    """A queue that is not a start of the songs (a slip queued another first) gets a wait, not a crash."""
    task = BY_NAME["retro_queue_songs"].tasks("train")[0]
    phone = SimDevice("none")
    run_episode(task, 0, _as("retro_queue_songs", _reordered)(task), phone)
    queue = app_state(phone.state(), R.PACKAGE)["queue"]
    assert queue and queue != list(task.params["songs"][:len(queue)])
    assert task.expert_action(phone.ui_elements(), phone.state()).action_type == ActionType.WAIT
