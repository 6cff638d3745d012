"""The VLC templates of the World suite: answers read from VLC's state (not the twin's), and checks that let the asked
playlist or note win and near misses lose (the twin video, another order, another playlist edited, names reversed)."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.actions import ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor
from android_gym.sim.apps import vlc as V
from android_gym.tasks.base import Task
from android_gym.tasks.world import vlc_tasks as W
from android_gym.testing.rollout import run_episode

LENGTH, FRAME, COUNT, CREATE, RENAME, TRANSCRIBE = W.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def vlc_with(state: State, **fields: Any) -> State:
    """`state` with VLC's `fields` replaced."""
    return {**state, "apps": {**state["apps"], V.PACKAGE: {**state["apps"][V.PACKAGE], **fields}}}


def test_the_length_answer_is_the_videos_not_the_twins_and_none_after_an_edit() -> None:
    task = LENGTH.tasks("train")[0]
    p, state = task.params, start(task)
    assert LENGTH.answer(p, state) == V.clock(p["length"]) != V.clock(p["twin_length"])
    assert LENGTH.answer(p, vlc_with(state, edits=[{"op": "delete", "playlist": "Favorites"}])) is None


def test_the_frame_answer_is_read_off_the_player_after_the_blank_lead() -> None:
    task = FRAME.tasks("test")[0]
    episode = run_episode(task, seed=1, device=phone())
    action = episode.log[-1][0]
    assert episode.success and action.action_type == ActionType.STATUS_TASK_COMPLETE
    assert action.text == task.params["text"] != task.params["twin_text"] and episode.steps > task.params["lead"]


def test_the_count_answer_is_the_playlists_and_differs_from_its_twins() -> None:
    for task in COUNT.tasks("train")[:6]:
        p = task.params
        assert COUNT.answer(p, start(task)) == str(p["count"]) and p["count"] != p["twin_count"]


def test_the_playlist_in_order_wins_the_twin_another_order_or_another_edit_loses() -> None:
    task = CREATE.tasks("train")[0]
    p, state = task.params, start(task)
    want = [f"Movies/{n}" for n in p["videos"]]
    made = [*state["apps"][V.PACKAGE]["playlists"], {"name": p["playlist"], "videos": want}]
    edits = [{"op": "create", "playlist": p["playlist"]}, *({"op": "add", "playlist": p["playlist"], "video": v}
                                                             for v in want)]
    assert not task.check(state) and task.check(vlc_with(state, playlists=made, edits=edits))
    twin = [*made[:-1], {"name": p["playlist"], "videos": [f"Movies/{p['twins'][0]}", *want[1:]]}]
    assert not task.check(vlc_with(state, playlists=twin, edits=edits))
    backwards = [*made[:-1], {"name": p["playlist"], "videos": want[::-1]}]
    assert not task.check(vlc_with(state, playlists=backwards, edits=edits))
    other = {"op": "add", "playlist": made[0]["name"], "video": want[0]}
    assert not task.check(vlc_with(state, playlists=made, edits=[*edits, other]))


def test_the_rename_wins_alone_and_loses_on_the_twin_or_beside_another_edit() -> None:
    task = RENAME.tasks("test")[0]
    p, state = task.params, start(task)
    playlists = state["apps"][V.PACKAGE]["playlists"]

    def renamed(old: str, *more: dict) -> State:
        made = [{**pl, "name": p["new"]} if pl["name"] == old else pl for pl in playlists]
        return vlc_with(state, playlists=made, edits=[{"op": "rename", "playlist": old, "to": p["new"]}, *more])

    assert not task.check(state) and task.check(renamed(p["playlist"]))
    assert not task.check(renamed(p["twin_playlist"]))
    assert not task.check(renamed(p["playlist"], {"op": "delete", "playlist": p["twin_playlist"]}))
    assert run_episode(task, seed=4, device=phone()).success


def test_the_transcription_wins_in_order_and_loses_reversed_or_beside_another_note() -> None:
    task = TRANSCRIBE.tasks("train")[0]
    p, state = task.params, start(task)
    m = state["apps"][markor.PACKAGE]

    def noted(text: str, *others: str) -> State:
        edits = [{"op": "create", "path": p["note"]}, *({"op": "save", "path": o} for o in others)]
        return {**state, "apps": {**state["apps"], markor.PACKAGE: {
            **m, "files": {**m["files"], p["note"]: text}, "edits": edits}}}

    assert task.check(noted(", ".join(p["texts"]))) and task.check(noted(",".join(p["texts"]).upper()))
    assert not task.check(noted(", ".join(p["texts"][::-1])))
    assert not task.check(noted(", ".join(p["texts"]), "groceries.md"))
