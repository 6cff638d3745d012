"""What the World templates on YouTube, the Play Store and YT Music share (`youtube_tasks`, `playstore_tasks`,
`ytmusic_tasks`): how a figure answer is compared (`figure_matches`), the task apps and their twins (the near
misses), and expert steps: a store listing (`to_listing`, reused from the general suite), a video's player
(`to_video`), YT Music's playlists (`to_playlist`), a song's player (`to_song`) and a song saved to a playlist
(`save_song`).
"""  # noqa: D205, D209

from __future__ import annotations

import re

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import music, playstore, youtube
from android_gym.tasks.apps import into_app, to_listing
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, type_into, wait
from android_gym.tasks.world.base import Elements, State, press

__all__ = ["STORE", "YT", "YTM", "declare", "figure_matches", "music_state", "save_song", "store_state", "store_twin",
           "to_listing", "to_playlist", "to_song", "to_video", "yt_state"]

STORE, YT, YTM = playstore.PACKAGE, youtube.PACKAGE, music.PACKAGE
_UNITS = frozenset({"stars", "star", "views", "view", "downloads", "download", "installs", "long", "minutes",
                    "mins", "min", "rating", "rated", "it", "is", "has", "about", "songs", "tracks"})
"""Words a person adds around a figure ("4.3 out of 5 stars", "1.2M views"): dropped before comparing."""
_SCALE = {"million": "m", "thousand": "k"}


def figure(text: str) -> str:
    """`text` as figures are compared: lower case, unit words dropped, "million" as "m", without spaces.

    >>> figure("4.3 out of 5 stars"), figure("1.2 million views"), figure("523K"), figure("4:05 minutes.")
    ('4.3', '1.2m', '523k', '4:05')
    """
    text = re.sub(r"(/| out of )5\b", " ", text.casefold())  # "4.3 out of 5": the scale is no part of the figure
    text = re.sub(r"\s*(million|thousand)", lambda m: _SCALE[m.group(1)], text)
    tokens = [t.strip(".:") for t in re.findall(r"[0-9a-z.:+]+", text)]
    return "".join(t for t in tokens if t and t not in _UNITS)


def figure_matches(given: str, truth: str) -> bool:
    """Whether answer `given` says figure `truth` (a rating, a view or download count, a length), units aside.

    >>> figure_matches("4.3 stars", "4.3"), figure_matches("1.2M views", "1.2M"), figure_matches("43", "4.3")
    (True, True, False)
    >>> figure_matches("1M+", "1M+"), figure_matches("1 million+", "1M+"), figure_matches("5M+", "1M+")
    (True, True, False)
    >>> figure_matches("5 songs", "5"), figure_matches("4.5/5", "4.5"), figure_matches("4", "5")
    (True, True, False)
    """
    a, b = figure(given), figure(truth)
    return bool(b) and a == b


def declare(text: str | None) -> Action:
    """Declare the task complete answering `text` (wait while it is not known yet)."""
    return wait() if not text else Action(ActionType.STATUS_TASK_COMPLETE, text=text)


# -- Play Store ------------------------------------------------------------------------------------------------------
def store_state(state: State) -> playstore.PlayStoreState:
    """The Play Store's part of the device state."""
    return state_of(state, playstore.PlayStoreState)


def store_twin(name: str) -> str:
    """The near miss beside catalogue app `name`: the next catalogue app of the same kind, with another rating and
    download count (so an answer read off it is wrong).

    >>> store_twin("Blue Notes").endswith("Notes")
    True
    """  # noqa: D205
    kind = name.split(" ", 1)[1]
    same = [n for n in playstore.CATALOGUE_APPS if n.split(" ", 1)[1] == kind]
    info = playstore.app_info(name)
    start = same.index(name)
    for k in range(1, len(same)):
        other = same[(start + k) % len(same)]
        o = playstore.app_info(other)
        if o["rating"] != info["rating"] and o["downloads"] != info["downloads"]:
            return other
    return same[(start + 1) % len(same)]


# -- YouTube ---------------------------------------------------------------------------------------------------------
def yt_state(state: State) -> youtube.YouTubeState:
    """YouTube's part of the device state."""
    return state_of(state, youtube.YouTubeState)


def to_video(query: str, title: str, elements: Elements, state: State) -> Action | None:
    """The next step to the loaded player of the video `title` found by searching `query` (None once there)."""
    step = into_app("YouTube", YT, elements, state)
    if step is not None:
        return step
    playing = yt_state(state)["playing"]
    page, args = state["screen"]["name"], state["screen"]["args"]
    if page == "player":
        return None if playing is not None and playing["title"] == title else (wait() if playing is None else back())
    if page == "search":
        return type_into(elements, state, youtube.SEARCH_RID, query)
    if page == "results" and args["query"] == query:
        card = next((e for e in elements if e.rid == youtube.CARD_RID and e.desc.startswith(f"{title} - ")), None)
        return tap(card) if card is not None and card.bounds[3] - card.bounds[1] > 100 else swipe_up()
    if page == "results":
        return back()
    return press(elements, desc="Search", clickable=True)


# -- YT Music --------------------------------------------------------------------------------------------------------
def music_state(state: State) -> music.MusicState:
    """YT Music's part of the device state."""
    return state_of(state, music.MusicState)


def to_playlist(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to YT Music's page of playlist `name` (None once there)."""
    step = into_app("YT Music", YTM, elements, state)
    if step is not None:
        return step
    page, args = state["screen"]["name"], state["screen"]["args"]
    if page == "playlist":
        return None if args["name"] == name else back()
    if page == "playlists":
        row = find(elements, rid=music.PLAYLIST_RID, text=name)
        return tap(row) if row is not None else swipe_up()
    if page == "home":
        return press(elements, desc="Playlists", clickable=True)
    return back()


def to_song(title: str, elements: Elements, state: State) -> Action | None:
    """The next step to YT Music's player with the catalogue's song `title` loaded (None once there), by search."""
    step = into_app("YT Music", YTM, elements, state)
    if step is not None:
        return step
    song = music_state(state)["song"]
    page, args = state["screen"]["name"], state["screen"]["args"]
    query = " ".join(title.lower().split())
    if page == "player" and song is not None and song["title"] == title:
        return None
    if page == "search":  # an older search's words are left: a fresh search box is quicker than deleting them
        typed = state["screen"]["fields"].get(music.SEARCH_RID, "")
        return type_into(elements, state, music.SEARCH_RID, query) if query.startswith(typed) else back()
    if page == "results" and args["query"] == query:
        row = find(elements, rid=music.SONG_RID, desc=f"Play {title}")
        return tap(row) if row is not None else swipe_up()
    if page == "home":
        return press(elements, desc="Search", clickable=True)
    return back()


def save_song(title: str, playlist: str, elements: Elements, state: State) -> Action:
    """The next step to add the catalogue's song `title` to `playlist`, creating the playlist when it is missing."""
    page = state["screen"]["name"] if state["foreground"] == YTM else None
    exists = any(p["name"] == playlist for p in music_state(state)["playlists"])
    if page == "new_playlist":
        return fill(elements, state, music.PLAYLIST_NAME_RID, playlist, missing=wait()) or press(
            elements, text="Create")
    if page == "save":
        if exists:
            row = find(elements, rid=music.PLAYLIST_RID, text=playlist)
            return tap(row) if row is not None else swipe_up()
        return press(elements, text="New playlist")
    return to_song(title, elements, state) or press(elements, desc="Save to playlist")
