"""AndroidWorld's VLC tasks on the suite: names drawn as AndroidWorld draws them, and checks that let what AndroidWorld
counts win (a title in another case, an unrelated playlist beside it, the names with or without spaces after the
commas) and what it does not lose (a file out of order, missing or swapped for a noise file, a second playlist of a
similar title, one of two playlists, names out of order or without commas)."""  # noqa: D205, D209

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor
from android_gym.sim.apps import vlc as V
from android_gym.sim.apps.people import FIRST_NAMES
from android_gym.tasks.androidworld import vlc as A
from android_gym.tasks.androidworld.base import fuzzy_match
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

ONE, TWO, TRANSCRIBE = A.TEMPLATES
State = Mapping[str, Any]
NAME = re.compile(r"^(?:(?P<pre>[^_]+(?:_\d\d_\d\d)?)_)?(clip|take|shot|vlog|reel|montage|sequence)_(\d{1,2})_"
                  r"(|SD|1080p|cut|final)(?:_(?P<post>[^_.]+(?:_\d\d_\d\d)?))?\.mp4$")


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def with_playlists(state: State, *playlists: tuple[str, list[str]]) -> State:
    """`state` with VLC holding exactly `playlists` (name, file names in VLCVideos)."""
    v = state["apps"][V.PACKAGE]
    made = [{"name": n, "videos": [f"VLCVideos/{f}" for f in files]} for n, files in playlists]
    return {**state, "apps": {**state["apps"], V.PACKAGE: {**v, "playlists": made}}}


def with_note(state: State, path: str, text: str, *others: str) -> State:
    """`state` with Markor's note `path` holding `text` (created this episode), and `others` edited too."""
    m = state["apps"][markor.PACKAGE]
    edits = [{"op": "create", "path": path}, {"op": "save", "path": path}, *({"op": "save", "path": o} for o in others)]
    return {**state, "apps": {**state["apps"], markor.PACKAGE: {**m, "files": {**m["files"], path: text},
                                                                  "edits": edits}}}


def test_names_and_titles_are_drawn_as_androidworld_draws_them() -> None:
    params = ONE.values("train") + ONE.values("test")
    names = [f for p in params for f in p["files"] + p["noise_files"]]
    assert all(NAME.match(n) and bool(NAME.match(n)["pre"]) != bool(NAME.match(n)["post"]) for n in names), names[:5]
    assert {len(p["files"]) for p in params} == {2, 3, 4, 5} and all(len(p["files"]) == len(p["noise_files"])
                                                                   for p in params)
    assert all(any(p["playlist_name"] == f"{t} {q}" for t in A.THEMES for q in A.QUALIFIERS) for p in params)
    p = params[0]
    assert ONE.goal(p) == (f'Create a playlist titled "{p["playlist_name"]}" with the following files in VLC (located '
                           f'in Internal Memory/VLCVideos), in order: {", ".join(p["files"])}')


def test_the_playlist_task_starts_with_only_its_files_in_vlcvideos_and_files_shows_them() -> None:
    task = ONE.tasks("train")[0]
    state = start(task)
    v = state["apps"][V.PACKAGE]
    assert sorted(x["name"] for x in v["videos"]) == sorted(task.params["files"] + task.params["noise_files"])
    assert v["playlists"] == [] and all(x["path"].startswith("VLCVideos/") for x in v["videos"])
    files = {f["path"] for f in state["apps"]["com.google.android.apps.nbu.files"]["files"]}
    assert {x["path"] for x in v["videos"]} <= files


def test_the_titled_playlist_of_the_files_in_order_wins_in_any_case_beside_an_unrelated_one() -> None:
    task = ONE.tasks("train")[0]
    name, files, state = task.params["playlist_name"], task.params["files"], start(task)
    assert not task.check(state)
    assert task.check(with_playlists(state, (name, files)))
    assert task.check(with_playlists(state, (name.upper(), files)))  # AndroidWorld ignores case
    assert task.check(with_playlists(state, ("Morning news", files[:1]), (name, files)))  # another title: ignored


def test_order_a_missing_or_noise_file_or_a_similar_second_playlist_loses() -> None:
    task = ONE.tasks("train")[0]
    name, files, noise, state = (task.params["playlist_name"], task.params["files"], task.params["noise_files"],
                                 start(task))
    assert not task.check(with_playlists(state, (name, files[::-1])))
    assert not task.check(with_playlists(state, (name, files[:-1])))
    assert not task.check(with_playlists(state, (name, [*files, files[0]])))
    assert not task.check(with_playlists(state, (name, [noise[0], *files[1:]])))
    assert not task.check(with_playlists(state, (name, files), (name + "s", files)))  # fuzzy twin: rows double
    assert not task.check(with_playlists(state, (name + " 2", files)))  # a near title, not the title
    moved = with_playlists(state, (name, files))
    playlists = [{**pl, "videos": [p.replace("VLCVideos/", "Movies/") for p in pl["videos"]]}
                 for pl in moved["apps"][V.PACKAGE]["playlists"]]
    assert not task.check({**moved, "apps": {**moved["apps"], V.PACKAGE: {**moved["apps"][V.PACKAGE],
                                                                           "playlists": playlists}}})


def test_the_expert_builds_the_playlist() -> None:
    task = ONE.tasks("test")[0]
    assert run_episode(task, seed=3, device=phone()).success
    made = phone().state()["apps"][V.PACKAGE]["playlists"]
    assert made == [{"name": task.params["playlist_name"], "videos": [f"VLCVideos/{f}" for f in task.params["files"]]}]


def test_two_playlists_both_right_win_one_alone_loses_and_titles_never_fuzzy_match() -> None:
    params = TWO.values("train") + TWO.values("test")
    assert not any(fuzzy_match(p["playlist_name1"], p["playlist_name2"]) for p in params)
    task = TWO.tasks("train")[0]
    p, state = task.params, start(task)
    assert TWO.goal(p).startswith(ONE.goal({"playlist_name": p["playlist_name1"], "files": p["files1"]}) +
                                  f'. And then, create a playlist titled "{p["playlist_name2"]}" with the ')
    assert TWO.goal(p).endswith(f'in VLC, in order: {", ".join(p["files2"])}.')
    both = with_playlists(state, (p["playlist_name1"], p["files1"]), (p["playlist_name2"], p["files2"]))
    assert task.check(both)
    assert not task.check(with_playlists(state, (p["playlist_name1"], p["files1"])))
    assert not task.check(with_playlists(state, (p["playlist_name1"], p["files2"]), (p["playlist_name2"],
                                                                                     p["files1"])))


def test_transcribe_draws_names_a_video_its_note_and_noise_in_download() -> None:
    params = TRANSCRIBE.values("train") + TRANSCRIBE.values("test")
    assert {len(p["messages"]) for p in params} == {2, 3, 4} and all(set(p["messages"]) <= set(FIRST_NAMES)
                                                                     for p in params)
    assert all(p["file_name"] == p["video_name"].split(".")[0] + "_transcription.txt" for p in params)
    assert min(len(p["noise_files"]) for p in params) >= 5 and max(len(p["noise_files"]) for p in params) <= 20
    task = TRANSCRIBE.tasks("train")[0]
    videos = {v["path"]: v for v in start(task)["apps"][V.PACKAGE]["videos"]}
    frames = videos[f"Download/{task.params['video_name']}"]["frames"]
    assert frames == [{"text": m, "seconds": 8} for m in task.params["messages"]]
    assert all(f"Download/{n}" in videos for n in task.params["noise_files"])
    assert "{video_name}" in TRANSCRIBE.goal_template and '"edna, pineapple"' in TRANSCRIBE.goal(task.params)


def test_the_names_in_order_with_commas_win_and_near_misses_lose() -> None:
    task = TRANSCRIBE.tasks("train")[0]
    note, names, state = task.params["file_name"], task.params["messages"], start(task)
    assert not task.check(state)
    assert task.check(with_note(state, note, ", ".join(names)))
    assert task.check(with_note(state, note, ",".join(names).lower() + "\n"))  # AndroidWorld's own text, any case
    assert not task.check(with_note(state, note, ", ".join(names[::-1])))
    assert not task.check(with_note(state, note, ", ".join(names[:-1])))
    assert not task.check(with_note(state, note, " ".join(names)))
    assert not task.check(with_note(state, note, ",        ".join(names)))  # the parts fit; AndroidWorld's match not
    assert not task.check(with_note(state, note, ", ".join([*names, "Zed"])))
    assert not task.check(with_note(state, f"Notes/{note}", ", ".join(names)))
    assert not task.check(with_note(state, note, ", ".join(names), "other.md"))


def test_the_transcribing_expert_watches_the_video_then_writes_the_note() -> None:
    task = TRANSCRIBE.tasks("test")[0]
    episode = run_episode(task, seed=2, device=phone())
    state = phone().state()["apps"]
    assert episode.success and f"Download/{task.params['video_name']}" in state[V.PACKAGE]["watched"]
    assert state[markor.PACKAGE]["files"][task.params["file_name"]] == ", ".join(task.params["messages"])
