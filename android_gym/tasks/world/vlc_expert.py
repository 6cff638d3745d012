"""Task videos and expert steps the VLC templates share (`vlc_tasks`, and AndroidWorld's `androidworld.vlc`).

Videos are put on the phone as `VlcInitial` data (`video`: a path and its frames). The checks read VLC's state
(`vlc_state`, `playlist_named`, `untouched`). Each expert step reads the UI elements and the sim's state and returns
the next action towards a sub-goal: a tab (`to_tab`), a video's row on the Video tab or its More actions
(`reach_video`), the player on a video (`play`), the video watched to its last frame with text (`watch`), a video added
to a playlist, created if need be (`add_to_playlist`), a playlist's screen (`to_playlist`) and a playlist renamed
(`rename_playlist`).
"""

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import vlc as V
from android_gym.sim.apps.markor import base
from android_gym.sim.apps.vlc_state import PlaylistState, VlcState
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, State, leave, press

VLC = V.PACKAGE
LABEL = V.VlcApp.label
POPUPS = ("menu", "add", "rename", "delete")


def video(path: str, *texts: str, seconds: int = 8, lead_s: int = 0) -> dict[str, Any]:
    """A video's initial data: `texts` shown `seconds` each, after `lead_s` seconds without text."""
    frames = [{"text": t, "seconds": seconds} for t in texts]
    return {"path": path, "frames": ([{"text": "", "seconds": lead_s}] if lead_s else []) + frames}


def vlc_state(state: State) -> VlcState:
    """VLC's part of the device state."""
    return state_of(state, VlcState)


def playlist_named(state: State, name: str) -> list[PlaylistState]:
    """The playlists called `name`."""
    return [pl for pl in vlc_state(state)["playlists"] if pl["name"] == name]


def untouched(state: State) -> bool:
    """No playlist edited this episode."""
    return not vlc_state(state)["edits"]


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_tab(page: str, elements: Elements, state: State) -> Action | None:
    """The next step to VLC's tab `page` ("videos" or "playlists"); None once there."""
    step = into_app(LABEL, VLC, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == page:
        return None
    if name in POPUPS:
        return leave(elements)
    if name in ("player", "playlist"):
        return back()
    return press(elements, desc=dict((p, t) for t, p in V.TABS)[page])


def reach_video(path: str, elements: Elements, state: State, more: bool = False) -> Action:
    """On the Video tab, tap video `path`'s row (its More actions when `more`), scrolling the list (by name) to it."""
    step = to_tab("videos", elements, state)
    if step is not None:
        return step
    name = base(path)
    target = find(elements, desc=f"More actions {name}") if more else find(elements, rid=V.TITLE_RID, text=name)
    if target is not None and target.bounds[3] - target.bounds[1] >= 40:  # not a sliver clipped at the list's edge
        return tap(target)
    order = [v["path"] for v in vlc_state(state)["videos"]]
    shown = [e for e in elements if e.rid == V.TITLE_RID and e.text in {base(p) for p in order}]
    title = find(elements, rid=V.TITLE_RID, text=name)
    if title is not None:  # its row is cut at an edge of the list: scroll it towards the middle
        return swipe_up() if title.bounds[1] > V.TABS_TOP // 2 else swipe_down()
    below = not shown or order.index(path) > max(order.index(p) for p in order if base(p) in {e.text for e in shown})
    return swipe_up() if below else swipe_down()


def play(path: str, elements: Elements, state: State) -> Action | None:
    """The next step to the player on `path`; None once it is in front and playing."""
    playing = vlc_state(state)["playing"]
    if (state["foreground"] == VLC and state["screen"]["name"] == "player" and playing is not None
            and playing["path"] == path and not state.get("dialog")):
        return press(elements, desc="Play") if playing["paused"] else None
    return reach_video(path, elements, state)


def watch(path: str, texts: list[str], elements: Elements, state: State) -> Action | None:
    """Play `path` and read its frames until the last one with text is on screen (None then), jumping 10 seconds
    ahead while that cannot skip a frame of text. `texts` are the frames' texts in order (the instance's own)."""  # noqa: D205, D209
    step = play(path, elements, state)
    if step is not None:
        return step
    playing = vlc_state(state)["playing"]
    frames = next(v["frames"] for v in vlc_state(state)["videos"] if v["path"] == path)
    starts, t = [], 0
    for f in frames:
        starts.append(t)
        t += f["seconds"]
    at = max(k for k, s in enumerate(starts) if s <= playing["position_s"])
    last = max(k for k, f in enumerate(frames) if f["text"])
    if at >= last and playing["text"] == texts[-1]:
        return None
    ahead = playing["position_s"] + 10 + V.SECONDS_PER_STEP
    nxt = next((k for k in range(at + 1, len(frames)) if frames[k]["text"]), None)
    if nxt is not None and ahead < starts[nxt] + frames[nxt]["seconds"]:
        return press(elements, desc="Forward 10 seconds")
    return wait()


def add_to_playlist(path: str, playlist: str, elements: Elements, state: State) -> Action:
    """Add video `path` to `playlist` (created with it when there is none): More actions, Add to playlist, then the
    playlist's row, or its name typed and Create."""  # noqa: D205, D209
    step = into_app(LABEL, VLC, elements, state)
    screen = state["screen"]
    if step is None and screen["name"] == "add" and screen["args"]["path"] == path:
        if playlist_named(state, playlist):
            row = find(elements, rid=V.PLAYLIST_ROW_RID, text=playlist)
            return tap(row) if row is not None else back()
        return fill(elements, state, V.NEW_RID, playlist, missing=wait()) or press(elements, text="Create")
    if step is None and screen["name"] == "menu" and screen["args"].get("path") == path:
        return press(elements, text="Add to playlist")
    return step or reach_video(path, elements, state, more=True)


def to_playlist(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to playlist `name`'s screen (None once there, no pop-up over it)."""
    step = into_app(LABEL, VLC, elements, state)
    if step is None and state["screen"]["name"] == "playlist":
        return None if vlc_state(state)["open_playlist"] == name else back()
    step = step or to_tab("playlists", elements, state)
    if step is not None:
        return step
    row = find(elements, rid=V.TITLE_RID, text=name)
    return tap(row) if row is not None else swipe_up()


def rename_playlist(name: str, new: str, elements: Elements, state: State) -> Action:
    """Rename playlist `name` to `new`: its screen, More options, Rename, Clear text, the new name, OK."""
    step = into_app(LABEL, VLC, elements, state)
    screen = state["screen"]
    if step is None and screen["name"] == "rename" and vlc_state(state)["open_playlist"] == name:
        if not new.startswith(screen["fields"].get(V.NAME_RID, "")):
            return press(elements, desc="Clear text")
        return fill(elements, state, V.NAME_RID, new, missing=wait()) or press(elements, text="OK")
    if step is None and screen["name"] == "menu" and vlc_state(state)["open_playlist"] == name:
        return press(elements, text="Rename")
    return step or to_playlist(name, elements, state) or press(elements, desc="More options")
