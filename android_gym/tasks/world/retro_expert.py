"""Task libraries and expert steps the Retro Music templates share (`retro_tasks`, `androidworld.retro_music`).

The task library: songs of fixed titles, artists and lengths put on the phone instead of the seeded ones
(`task_library`, `library_initial`). The checks read Retro's state (`retro_state`, `playlist`). Each expert step
reads the UI elements and the sim's state and returns the next action towards a sub-goal: a library tab in front
(`to_tab`), a song's More options item chosen (`song_item`, scrolling the list to the song), a playlist's screen
(`to_playlist`), a playlist made of songs in order (`make_playlist`), songs queued in order (`queue_songs`), a
playlist saved into a folder (`save_playlist`).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import retro as R
from android_gym.sim.apps.retro_data import ARTISTS, TITLES
from android_gym.sim.apps.retro_state import PlaylistState, RetroState
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, State, leave, press, state_of

RETRO = R.PACKAGE
LABEL = R.RetroApp.label


def retro_state(state: State) -> RetroState:
    """Retro Music's part of the device state."""
    return state_of(state, RetroState)


def playlist(state: State, name: str) -> PlaylistState | None:
    """The playlist called `name`, or None."""
    return next((p for p in retro_state(state)["playlists"] if p["name"] == name), None)


def task_library(key: str, count: int = 12, titles: Sequence[str] = ()) -> list[dict[str, Any]]:
    """A library of `count` songs fixed by `key`: `titles` first, then others of the pool; artists, albums and
    lengths (2-6 minutes, in ms) drawn from the key."""  # noqa: D205, D209
    rng = random.Random(stable_seed("retro-task", key))
    rest = [t for t in TITLES if t not in titles]
    out = []
    for title in [*titles, *rng.sample(rest, count - len(titles))]:
        artist = rng.choice(sorted(ARTISTS))
        out.append({"title": title, "artist": artist, "album": rng.choice(ARTISTS[artist]),
                    "duration_ms": rng.randrange(120_000, 360_000)})
    return out


def library_initial(songs: Sequence[dict[str, Any]], playlists: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Retro's initial conditions: only `songs` in the library, only `playlists`, nothing queued."""
    return {"library_only": True, "songs": list(songs), "playlists": list(playlists)}


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_tab(tab: str, elements: Elements, state: State) -> Action | None:
    """The next step to the library's `tab` in front, no pop-up over it (None once there)."""
    step = into_app(LABEL, RETRO, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name in R.OVERLAYS:
        return leave(elements)
    if name != "library":
        return back()
    return None if retro_state(state)["tab"] == tab else press(elements, text=R.TABS[tab], clickable=True)


def reach(target: str, order: Sequence[str], elements: Elements, state: State, **criteria: Any) -> Action:
    """Tap the element of list row `target` matching `criteria`, scrolling the list (rows in `order`) towards it."""
    e = find(elements, **criteria)
    if e is not None:
        return tap(e)
    shown = [order.index(x.text) for x in elements if x.rid == R.TITLE_RID and x.text in order]
    if target not in order:
        return wait()
    return swipe_down() if shown and order.index(target) < min(shown) else swipe_up()


def song_item(title: str, item: str, page: tuple[str, str], elements: Elements, state: State) -> Action:
    """On `page` (("library", tab) or ("playlist", name)): open `title`'s More options and choose `item`."""
    screen = state["screen"]
    if state["foreground"] == RETRO and screen["name"] == "menu" and screen["args"]["song"] == title:
        return press(elements, text=item)
    kind, where = page
    r = retro_state(state)
    if kind == "library":
        step = to_tab(where, elements, state)
        order = [s["title"] for s in r["songs"]]
    else:
        step = to_playlist(where, elements, state)
        order = (playlist(state, where) or {"songs": []})["songs"]
    if step is not None:
        return step
    return reach(title, order, elements, state, desc=f"More options for {title}")


def to_playlist(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to the screen of playlist `name`, no pop-up over it (None once there)."""
    step = into_app(LABEL, RETRO, elements, state)
    r = retro_state(state)
    if step is None and r["screen"] == "playlist":
        return None if r["open_playlist"] == name else back()
    if step is None and r["screen"] in R.OVERLAYS and r["open_playlist"] == name:
        return leave(elements)
    order = [p["name"] for p in r["playlists"]]
    return (step or to_tab("playlists", elements, state)
            or reach(name, order, elements, state, text=name, rid=R.TITLE_RID))


def make_playlist(name: str, songs: Sequence[str], elements: Elements, state: State) -> Action | None:
    """The next step to a playlist `name` of `songs` in order: the first song's Add to playlist, New playlist, the
    name, Create; then each next song's Add to playlist, the playlist (None once it holds them all)."""  # noqa: D205, D209
    screen, p = state["screen"], playlist(state, name)
    if p is not None and p["songs"] == list(songs):
        return None
    here = state["foreground"] == RETRO
    if p is None:
        if here and screen["name"] == "new_playlist":
            return fill(elements, state, R.NAME_RID, name, missing=wait()) or press(elements, text="Create")
        if here and screen["name"] == "add_to_playlist":
            return press(elements, text="New playlist")
        return song_item(songs[0], "Add to playlist", ("library", "songs"), elements, state)
    if p["songs"] != list(songs[:len(p["songs"])]) or len(p["songs"]) >= len(songs):
        return wait()  # not a start of `songs`: nothing an expert step mends
    title = songs[len(p["songs"])]
    if here and screen["name"] == "add_to_playlist" and screen["args"]["song"] == title:
        return press(elements, text=name)
    return song_item(title, "Add to playlist", ("library", "songs"), elements, state)


def queue_songs(songs: Sequence[str], elements: Elements, state: State) -> Action | None:
    """The next step to a playing queue of `songs` in order, each added with Add to playing queue (None once so)."""
    queue = retro_state(state)["queue"]
    if queue == list(songs):
        return None
    if queue != list(songs[:len(queue)]) or len(queue) >= len(songs):
        return wait()  # not a start of `songs` (a slip played or queued another song): nothing an expert step mends
    return song_item(songs[len(queue)], "Add to playing queue", ("library", "songs"), elements, state)


def save_playlist(name: str, folder: str, elements: Elements, state: State) -> Action:
    """The next step to save playlist `name` into `folder`: its screen, Save playlist, the folder, Save."""
    screen = state["screen"]
    if state["foreground"] == RETRO and screen["name"] == "save_playlist":
        if screen["args"]["folder"] != folder:
            return press(elements, text=folder)
        return press(elements, text="Save")
    return to_playlist(name, elements, state) or press(elements, desc="Save playlist")
