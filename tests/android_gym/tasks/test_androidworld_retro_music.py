"""AndroidWorld's Retro Music tasks on the suite: parameters drawn as AndroidWorld draws them, and checks that let
what AndroidWorld counts win (the name in another case, unrelated playlists, a duration at the window's ends) and
what it does not lose (another order, a song too many, a second similar playlist, the file elsewhere, a minute
outside the window, songs in another playlist)."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import files as F
from android_gym.sim.apps import retro as R
from android_gym.tasks.androidworld import retro_music as A
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

CREATE, QUEUE, SAVE, DURATION = A.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(0, task.initial)
    return phone().state()


def changed(state: State, playlists: list[tuple[str, list[str]]] | None = None, queue: list[str] | None = None,
            files: list[str] = ()) -> State:
    """`state` with Retro's playlists or queue replaced and `files` (paths) added to the phone's storage."""
    r = dict(state["apps"][R.PACKAGE])
    if playlists is not None:
        r["playlists"] = [{"name": n, "songs": list(s)} for n, s in playlists]
    if queue is not None:
        r["queue"], r["position"] = list(queue), 0
    f = dict(state["apps"][F.PACKAGE])
    f["files"] = [*f["files"], *({"path": p, "folder": p.rsplit("/", 1)[0], "name": p.rsplit("/", 1)[1],
                                  "size_kb": 1, "date": str(F.DATE)} for p in files)]
    return {**state, "apps": {**state["apps"], R.PACKAGE: r, F.PACKAGE: f}}


def test_parameters_are_drawn_as_androidworld_draws_them() -> None:
    """A theme and a number; 15 titles, 2-5 of them the files (9-11 for the duration task); the library holds them."""
    for template, low, high in ((CREATE, 2, 5), (DURATION, 9, 11)):
        params = template.values("train") + template.values("test")
        assert {len(p["files"]) for p in params} == set(range(low, high + 1))
        assert all(len(p["files"]) + len(p["noise"]) == 15 and p["playlist_name"].rsplit(" ", 1)[1].isdigit()
                   for p in params)
    p = CREATE.values("train")[0]
    assert [s["title"] for s in CREATE.initial(p)[R.PACKAGE]["songs"]] == [*p["files"], *p["noise"]]
    assert CREATE.goal(p).endswith(f"in order: {', '.join(p['files'])}")


def test_the_duration_files_last_forty_seven_and_a_half_minutes() -> None:
    """The duration task's files split 47.5 minutes; the noise songs last 3-5 minutes each."""
    p = DURATION.values("train")[0]
    songs = DURATION.initial(p)[R.PACKAGE]["songs"]
    assert sum(s["duration_ms"] for s in songs[:len(p["files"])]) == A.TARGET_MS
    assert all(180_000 <= s["duration_ms"] <= 300_000 for s in songs[len(p["files"]):])


# -- RetroCreatePlaylist and RetroSavePlaylist ------------------------------------------------------------------------
def test_the_playlist_wins_in_any_case_beside_other_playlists() -> None:
    """The files in order win, under the name in other case too, and beside an unrelated playlist (AndroidWorld
    ignores case and other playlists)."""  # noqa: D205, D209
    task = CREATE.tasks("train")[0]
    name, files = task.params["playlist_name"], list(task.params["files"])
    state = start(task)
    assert not task.check(state)
    assert task.check(changed(state, [(name, files)]))
    assert task.check(changed(state, [(name.upper(), files), ("Other", files[:1])]))


def test_a_near_miss_playlist_loses() -> None:
    """Another order, a song too many or too few, a second similar playlist, a different name: each loses."""
    task = CREATE.tasks("train")[0]
    name, files = task.params["playlist_name"], list(task.params["files"])
    state = start(task)
    extra = task.params["noise"][0]
    for playlists in ([(name, files[::-1])], [(name, [*files, extra])], [(name, files[:-1])],
                      [(name, files), (name[:-1] + "0" if name[-1] != "0" else name[:-1] + "1", [])],
                      [(name + " mix", files)]):
        assert not task.check(changed(state, playlists)), playlists


def test_the_expert_makes_the_playlist_and_exports_it() -> None:
    """The save task's expert ends with the playlist and "Download/<name>.m3u" in Files' storage."""
    task = SAVE.tasks("test")[0]
    assert run_episode(task, seed=2, device=phone()).success
    path = f"Download/{task.params['playlist_name']}.m3u"
    assert path in {f["path"] for f in phone().state()["apps"][F.PACKAGE]["files"]}


def test_saving_needs_both_the_playlist_and_the_file_in_download() -> None:
    """The playlist without the file, the file in Music, or the file beside a wrong playlist: each loses."""
    task = SAVE.tasks("train")[0]
    name, files = task.params["playlist_name"], list(task.params["files"])
    state = start(task)
    assert SAVE.check(task.params, changed(state, [(name, files)], files=[f"Download/{name}.m3u"]))
    assert not SAVE.check(task.params, changed(state, [(name, files)]))
    assert not SAVE.check(task.params, changed(state, [(name, files)], files=[f"Music/{name}.m3u"]))
    assert not SAVE.check(task.params, changed(state, [(name, files[::-1])], files=[f"Download/{name}.m3u"]))


# -- RetroPlayingQueue -------------------------------------------------------------------------------------------------
def test_the_queue_must_be_the_files_in_order() -> None:
    """The files in order win; reversed, with the whole list played first, or one short, each loses."""
    task = QUEUE.tasks("train")[0]
    files = list(task.params["files"])
    state = start(task)
    assert task.check(changed(state, queue=files)) and not task.check(state)
    for queue in (files[::-1], [task.params["noise"][0], *files], files[:-1]):
        assert not task.check(changed(state, queue=queue)), queue


# -- RetroPlaylistDuration ---------------------------------------------------------------------------------------------
def duration_case(total_ms: int) -> tuple[Task, State, list[str]]:
    """A duration task, its start with one song stretched so that the first two files last `total_ms`, and them."""
    task = DURATION.tasks("train")[0]
    state = start(task)
    r = dict(state["apps"][R.PACKAGE])
    first, second = task.params["files"][:2]
    songs = [dict(s) for s in r["songs"]]
    for s in songs:
        if s["title"] in (first, second):
            s["duration_ms"] = total_ms // 2 + (total_ms % 2 if s["title"] == first else 0)
    r["songs"] = songs
    return task, {**state, "apps": {**state["apps"], R.PACKAGE: r}}, [first, second]


def test_a_duration_at_either_end_of_the_window_wins() -> None:
    """45:00 and 50:00 exactly win (the window includes its ends), beside an empty playlist of another name."""
    for total in A.WINDOW_MS:
        task, state, songs = duration_case(total)
        name = task.params["playlist_name"]
        assert task.check(changed(state, [(name, songs)]))
        assert task.check(changed(state, [(name, songs), ("Empty", [])]))


def test_a_duration_outside_the_window_or_songs_elsewhere_lose() -> None:
    """A millisecond outside the window, another name, or songs in a second playlist: each loses."""
    for total in (A.WINDOW_MS[0] - 1, A.WINDOW_MS[1] + 1):
        task, state, songs = duration_case(total)
        assert not task.check(changed(state, [(task.params["playlist_name"], songs)]))
    task, state, songs = duration_case(A.WINDOW_MS[0] + 60_000)
    name = task.params["playlist_name"]
    assert not task.check(changed(state, [(name.lower(), songs)]))
    assert not task.check(changed(state, [(name, songs), ("Other", songs[:1])]))
