"""Music and video tasks (issue 49's everyday goals): play music, play a named song, pause it, skip to the next song
on YT Music, and search YouTube.

YT Music keeps playing when the user leaves it (`sim.apps.music`), so the checks read its playback state wherever
the phone is: "playing" (the loaded song, unpaused), "song", "paused" and the episode's "library". Tasks that start
with music on (pause, skip) load library song `rank` at reset, so the do-nothing agent leaves it playing. The
library is drawn per episode; a check names songs by their rank in it, never by a title fixed in advance.

These templates are what the goal parser maps such lines onto; they are not part of a built-in suite (the World
suite's task set stays as published). Their `values` list a few instances per split all the same.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import music, youtube
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, swipe_up, tap, type_into, wait
from android_gym.tasks.world.base import Elements, Params, State

MUSIC = music.PACKAGE
LIBRARY_SIZE = music.LIBRARY_SIZE
"""Songs in an episode's library (`music.library`)."""
SONGS = ("Blue in Green", "Clair de Lune", "Bohemian Rhapsody", "Here Comes the Sun", "So What", "Take Five",
         "Yesterday", "Moon River", "Hallelujah", "Wonderwall")
"""Titles the play-a-song template's own instances ask for (the catalogue finds any title)."""
TERMS = ("lo-fi music", "jazz piano", "cooking", "guitar lessons", "bird watching", "chess openings")
"""What the YouTube search template's own instances search for."""


def words_of(text: str) -> set[str]:
    """The lower-case letter and digit runs of `text` ("lo-fi" is "lo" and "fi", as YouTube's titles match it).

    >>> sorted(words_of("Lo-fi Music"))
    ['fi', 'lo', 'music']
    """
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def to_music(elements: Elements, state: State) -> Action | None:
    """The next step to YT Music in front, past pop-ups and spinners (None once there)."""
    return into_app("YT Music", MUSIC, elements, state)


def to_player(elements: Elements, state: State) -> Action | None:
    """The next step to YT Music's player of the loaded song (None once there): the mini-player's title opens it."""
    step = to_music(elements, state)
    if step is not None:
        return step
    if state["screen"]["name"] == "player":
        return None
    bar = find(elements, rid=music.MINI_TITLE_RID)
    return tap(bar) if bar is not None else back()


class _MusicTemplate(TaskTemplate):
    """Shared shape: YT Music tasks of no built-in suite, split on `split_key`."""

    suite = "world"
    apps = (MUSIC,)
    split_key = "rank"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict, both splits."""
        raise NotImplementedError

    def values(self, split: str) -> list[dict[str, Any]]:
        """The grid's entries whose key `split_of` puts in `split`."""
        return [p for p in self.grid() if split_of(f"music:{p[self.split_key]}") == split]


class PlayMusicTemplate(_MusicTemplate):
    """Play some music: any song playing in YT Music (nothing plays at the start)."""

    name, max_steps, split_key = "music_play_any", 12, "phrasing"
    phrasings = ("Play some music", "Put some music on", "Play a song on YT Music")

    def grid(self) -> list[dict[str, Any]]:
        """One per phrasing."""
        return [{"phrasing": i} for i in range(len(self.phrasings))]

    def goal(self, params: Params) -> str:
        """The phrasing."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)]

    def check(self, params: Params, state: State) -> bool:
        """A song plays (loaded, not paused)."""
        return state_of(state, music.MusicState)["playing"] is not None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open YT Music, tap the library's first song."""
        step = to_music(elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] == "home":
            row = find(elements, rid=music.SONG_RID)
            return tap(row) if row is not None else wait()
        button = find(elements, rid=music.PLAY_PAUSE_RID)
        if state["screen"]["name"] == "player" and state_of(state, music.MusicState)["paused"] and button is not None:
            return tap(button)
        return back()


class PlaySongTemplate(_MusicTemplate):
    """Play the song {title}: the loaded song has that title (case aside) and plays."""

    name, max_steps, split_key = "music_play_song", 18, "title"

    def grid(self) -> list[dict[str, Any]]:
        """One per title of `SONGS`."""
        return [{"title": t} for t in SONGS]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return f'Play the song "{params["title"]}"'

    def check(self, params: Params, state: State) -> bool:
        """The song playing is titled exactly as asked (not another recording: "(Live)" is another title)."""
        playing = state_of(state, music.MusicState)["playing"]
        return playing is not None and playing.casefold() == params["title"].casefold()

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the title, tap the result of exactly that title; resume it if paused."""
        step = to_music(elements, state)
        if step is not None:
            return step
        title = params["title"]
        song = state_of(state, music.MusicState)["song"]
        screen = state["screen"]
        if screen["name"] == "player" and song and song["title"].casefold() == title.casefold():
            button = find(elements, rid=music.PLAY_PAUSE_RID)
            return tap(button) if button is not None else wait()
        if screen["name"] == "search":
            return type_into(elements, state, music.SEARCH_RID, title.lower())
        if screen["name"] == "results" and screen["args"]["query"] == " ".join(title.lower().split()):
            want = f"play {title}".casefold()
            row = next((e for e in elements if e.rid == music.SONG_RID and e.desc.casefold() == want), None)
            return tap(row) if row is not None else swipe_up()
        if screen["name"] == "home":
            button = find(elements, desc="Search", clickable=True)
            return tap(button) if button is not None else wait()
        return back()


class PauseMusicTemplate(_MusicTemplate):
    """Pause the music: library song {rank} plays at the start; success when that song is loaded and paused."""

    name, max_steps = "music_pause", 12

    def grid(self) -> list[dict[str, Any]]:
        """Every library rank."""
        return [{"rank": r} for r in range(LIBRARY_SIZE)]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return "Pause the music"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Library song `rank` playing."""
        return {MUSIC: {"playing": params["rank"]}}

    def check(self, params: Params, state: State) -> bool:
        """The song that played is still loaded, paused."""
        m = state_of(state, music.MusicState)
        song = m["song"]
        return song is not None and m["paused"] and song["title"] == m["library"][params["rank"]]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open YT Music; the mini-player's Pause."""
        step = to_music(elements, state)
        if step is not None:
            return step
        button = find(elements, rid=music.MINI_PLAY_PAUSE_RID) or find(elements, rid=music.PLAY_PAUSE_RID)
        return tap(button) if button is not None else back()


class NextSongTemplate(_MusicTemplate):
    """Skip to the next song: library song {rank} plays at the start; success when the library's next one plays."""

    name, max_steps = "music_next_song", 14

    def grid(self) -> list[dict[str, Any]]:
        """Every library rank but the last (whose next song would wrap round)."""
        return [{"rank": r} for r in range(LIBRARY_SIZE - 1)]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return "Skip to the next song"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Library song `rank` playing."""
        return {MUSIC: {"playing": params["rank"]}}

    def check(self, params: Params, state: State) -> bool:
        """The library's song after the one that played is playing."""
        m = state_of(state, music.MusicState)
        return m["playing"] is not None and m["playing"] == m["library"][params["rank"] + 1]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open YT Music, the player from the mini-player, Next."""
        step = to_player(elements, state)
        if step is not None:
            return step
        button = find(elements, rid=music.NEXT_RID)
        return tap(button) if button is not None else wait()


class SearchVideosTemplate(TaskTemplate):
    """Search YouTube for {terms}: YouTube in front on the loaded results of a search holding every word of them."""

    name, suite, max_steps = "youtube_search", "general", 12
    apps = (youtube.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every search of `TERMS` in the split."""
        return [{"terms": t} for t in TERMS if split_of(f"youtube:{t}") == split]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return f"Search YouTube for {params['terms']}"

    def check(self, params: Params, state: State) -> bool:
        """The front screen is YouTube's loaded result list of a search whose words include the terms'."""
        y = state_of(state, youtube.YouTubeState)
        return (state.get("foreground") == youtube.PACKAGE and y["page"] == "results" and not y["loading"]
                and words_of(params["terms"]) <= words_of(y["query"] or ""))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open YouTube, Search, type the terms, ENTER."""
        step = into_app("YouTube", youtube.PACKAGE, elements, state)
        if step is not None:
            return step
        page = state["screen"]["name"]
        if page == "search":
            return type_into(elements, state, youtube.SEARCH_RID, params["terms"])
        if page == "results" and words_of(params["terms"]) <= words_of(state["screen"]["args"]["query"]):
            return wait()
        if page in ("results", "player"):
            return back()
        search = find(elements, desc="Search", clickable=True)
        return tap(search) if search is not None else back()


TEMPLATES: tuple[TaskTemplate, ...] = (PlayMusicTemplate(), PlaySongTemplate(), PauseMusicTemplate(),
                                      NextSongTemplate(), SearchVideosTemplate())
"""The module's templates (none is in a built-in suite)."""
