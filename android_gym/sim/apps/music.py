"""The music app (YT Music): a library of songs, a search of the catalogue, and a player with a queue.

The library is drawn per episode from `stable_seed(phone.seed)` (no episode RNG). Screens: "home" (the library),
"search" (the search box), "results" (args {"query"}: `search_songs(query)`) and "player" (the song now playing).

Playback belongs to the app, not to a screen, as on a phone: tapping a song plays it with the list it was in as the
queue (the library, or a search's results); the player's Next and Previous step through that queue, Play/Pause
pauses or resumes, and the song keeps playing when the user leaves the player or the app. While a song is loaded the
library and result pages show a mini-player bar (its title opens the player, its button pauses or resumes). A task's
initial conditions (`MusicInitial`) may start the episode with library song `rank` playing.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import Field
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_state import closed
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.youtube.music"
PLAY_PAUSE_RID = f"{PACKAGE}:id/play_pause_button"
NEXT_RID = f"{PACKAGE}:id/next_button"
PREVIOUS_RID = f"{PACKAGE}:id/previous_button"
SEARCH_RID = f"{PACKAGE}:id/search_edit_text"
SONG_RID = f"{PACKAGE}:id/song_row"
MINI_PLAYER_RID = f"{PACKAGE}:id/mini_player"
MINI_PLAY_PAUSE_RID = f"{PACKAGE}:id/mini_player_play_pause"
MINI_TITLE_RID = f"{PACKAGE}:id/mini_player_title"
_ARTISTS = ("The Lanterns", "Mira Vale", "Northbound", "Juno Park", "Static Hearts", "Ola Brandt", "Coastline",
            "Velvet Avenue", "Kai Moreno", "The Paper Kites Club")
_SONGS = ("Golden Hour", "Midnight Drive", "Paper Planes", "Slow Burn", "Open Roads", "Glass Houses", "Summer Rain",
          "City Lights", "Echoes", "Wildflowers", "Low Tide", "Neon Skies")
_VERSIONS = ("", " (Live)", " (Remastered)", " (Acoustic)", " - Cover")
"""A search lists the song of that title first, then other recordings of it, as a catalogue does."""
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
ROW_H = 200
MINI_H = 180
LIBRARY_SIZE = 8
"""Songs in an episode's library."""


def library(seed: int) -> list[dict[str, Any]]:
    """The episode's songs: {"title", "artist", "length"}."""
    rng = np.random.default_rng(stable_seed("music", seed))
    picks = rng.permutation(len(_SONGS))[:LIBRARY_SIZE]
    return [{"title": _SONGS[int(i)], "artist": _ARTISTS[int(rng.integers(len(_ARTISTS)))],
             "length": f"{int(rng.integers(2, 6))}:{int(rng.integers(60)):02d}"} for i in picks]


def song_title(words: str) -> str:
    """Words as a song title: capitalised, small words lower-case but the first.

    >>> song_title("blue in green"), song_title("the sound of silence")
    ('Blue in Green', 'The Sound of Silence')
    """
    out = [w if (i and w in _SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words.lower().split())]
    return " ".join(out)


def search_songs(query: str) -> list[dict[str, Any]]:
    """The catalogue's answer to a search, seeded by the normalised query: the song titled as the query first (by a
    seeded artist), then other recordings of it. Each is {"title", "artist", "length"}; [] for an empty query.

    >>> [s["title"] for s in search_songs("Blue in green")][:2]
    ['Blue in Green', 'Blue in Green (Live)']
    """  # noqa: D205
    q = " ".join(query.lower().split())
    if not q:
        return []
    rng = np.random.default_rng(stable_seed("music-search", q))
    name = song_title(q)
    return [{"title": name + version, "artist": _ARTISTS[int(rng.integers(len(_ARTISTS)))],
             "length": f"{int(rng.integers(2, 8))}:{int(rng.integers(60)):02d}"} for version in _VERSIONS]


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class SongRef(TypedDict):
    """The song loaded in the player: its title and artist."""

    title: str
    artist: str


@closed
class MusicState(TypedDict):
    """What YT Music reports (`MusicApp.state`).

    Attributes:
        page: the app's front screen, None when it has none on the stack.
        playing: the title of the song playing (loaded and not paused, wherever the user is), else None.
        song: the loaded song, None when none is.
        paused: whether the loaded song is paused.
        library: the episode's library titles in order.
        queue: the titles of the loaded song's list (the library, or a search's results).
        query: the latest search in the back stack, or None.
        played: every title started this episode (the initial song first), in order.
    """

    page: Literal["home", "search", "results", "player"] | None
    playing: str | None
    song: SongRef | None
    paused: bool
    library: list[str]
    queue: list[str]
    query: str | None
    played: list[str]


class MusicInitial(ConfigModel):
    """The initial conditions a YT Music task may set.

    Attributes:
        playing: the library rank (0 first) of a song playing at the start, the library as its queue; None: nothing
            loaded.
    """

    playing: int | None = Field(default=None, ge=0, le=LIBRARY_SIZE - 1)


class MusicApp(App):
    """YT Music: the library, search, and a player that keeps playing its queue."""

    package = PACKAGE
    label = "YT Music"
    icon = "music"
    aliases = ("music", "music app", "youtube music", "music player")
    state_schema = MusicState
    initial_model = MusicInitial

    def reset(self) -> None:
        """Nothing loaded, nothing played."""
        self.queue: list[dict[str, Any]] = []
        self.index: int | None = None
        self.paused = False
        self.played: list[str] = []

    def set_up(self, initial: MusicInitial) -> None:
        """Library song `initial.playing` playing, the library as its queue (when given)."""
        if initial.playing is not None:
            self._play(library(self.phone.seed), initial.playing)

    @property
    def current(self) -> dict[str, Any] | None:
        """The song loaded in the player, or None."""
        return None if self.index is None else self.queue[self.index]

    def home(self) -> Screen:
        """The library."""
        return Screen(PACKAGE, "home")

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The library, the search box, a search's results, or the player."""
        match screen.name:
            case "player":
                return self._player()
            case "search":
                return self._search(screen)
            case "results":
                return self._songs(screen.args["query"], search_songs(screen.args["query"]), "result")
        return self._songs("Library", library(self.phone.seed), "library")

    def _songs(self, heading: str, songs: list[dict[str, Any]], source: str) -> list[View]:
        """A list of songs under a toolbar (the library's has Search), and the mini-player when a song is loaded."""
        top = CONTENT_TOP + TOOLBAR_H
        bottom = CONTENT_BOTTOM - (MINI_H if self.current else 0)
        key = heading if source == "result" else ""
        rows = [View(LINEAR, (0, top + i * ROW_H, WIDTH, top + (i + 1) * ROW_H),
                     text=f"{s['title']} · {s['artist']} · {s['length']}", desc=f"Play {s['title']}", rid=SONG_RID,
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("play", source, key, i), style="row")
                for i, s in enumerate(songs)]
        bar = toolbar(heading, PACKAGE, PACKAGE, has_back=source != "library")
        if source == "library":
            bar.children.append(View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, CONTENT_TOP, WIDTH, top), desc="Search",
                                     rid=f"{PACKAGE}:id/action_search", package=PACKAGE, clickable=True,
                                     focusable=True, on_tap=("search",), icon="search"))
        views = [bar, scroll_list(top, bottom, PACKAGE, rows, rid=f"{PACKAGE}:id/{source}")]
        return views + self._mini_player()

    def _mini_player(self) -> list[View]:
        song = self.current
        if song is None:
            return []
        y0, y1 = CONTENT_BOTTOM - MINI_H, CONTENT_BOTTOM
        return [View(FRAME, (0, y0, WIDTH, y1), rid=MINI_PLAYER_RID, package=PACKAGE, style="toolbar", children=[
            View(TEXT_VIEW, (MARGIN, y0, WIDTH - MINI_H, y1), text=f"{song['title']} · {song['artist']}",
                 desc=f"Now playing: {song['title']}", rid=MINI_TITLE_RID, package=PACKAGE, clickable=True,
                 focusable=True, on_tap=("open_player",), style="title"),
            View(IMAGE_BUTTON, (WIDTH - MINI_H, y0, WIDTH, y1), desc="Play" if self.paused else "Pause",
                 rid=MINI_PLAY_PAUSE_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("pause",),
                 icon="play" if self.paused else "pause")])]

    def _search(self, screen: Screen) -> list[View]:
        y0, y1 = CONTENT_TOP + 12, CONTENT_TOP + TOOLBAR_H - 12
        return [View(IMAGE_BUTTON, (0, y0, 150, y1), desc="Navigate up", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=NavKey("back"), icon="back"),
                text_field((150, y0, WIDTH - MARGIN, y1), SEARCH_RID, screen.fields.get(SEARCH_RID, ""),
                           "Search songs, artists", screen.focus == SEARCH_RID, PACKAGE)]

    def _player(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        song = self.current
        if song is None:
            return [toolbar("Now playing", PACKAGE, PACKAGE),
                    View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 340), text="Nothing playing",
                         package=PACKAGE, style="hint")]
        toggle = "Play" if self.paused else "Pause"
        controls = [("Previous", PREVIOUS_RID, ("skip", -1), "back"),
                    (toggle, PLAY_PAUSE_RID, ("pause",), toggle.lower()), ("Next", NEXT_RID, ("skip", 1), "forward")]
        return [toolbar("Now playing", PACKAGE, PACKAGE),
                View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 340), text=song["title"],
                     rid=f"{PACKAGE}:id/song_title", package=PACKAGE, style="title"),
                View(TEXT_VIEW, (MARGIN, top + 340, WIDTH - MARGIN, top + 440), text=song["artist"],
                     package=PACKAGE),
                *[View(IMAGE_BUTTON, (WIDTH // 2 + (i - 1) * 300 - 100, top + 520, WIDTH // 2 + (i - 1) * 300 + 100,
                                      top + 720), desc=desc, rid=rid, package=PACKAGE, clickable=True,
                       focusable=True, on_tap=event, icon=icon)
                  for i, (desc, rid, event, icon) in enumerate(controls)]]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Play a song from a list; pause or resume; skip; search; open the player from the mini-player."""
        match event:
            case ("play", "library", _, i):
                self._play(library(self.phone.seed), i)
                return self.phone.push(Screen(PACKAGE, "player"))
            case ("play", "result", query, i):
                self._play(search_songs(query), i)
                return self.phone.push(Screen(PACKAGE, "player"))
            case ("pause",) if self.current is not None:
                self.paused = not self.paused
                return True
            case ("skip", step) if self.current is not None and self.index is not None:
                self._play(self.queue, (self.index + step) % len(self.queue))
                return True
            case ("search",):
                return self.phone.push(Screen(PACKAGE, "search", focus=SEARCH_RID))
            case ("open_player",):
                return self.phone.push(Screen(PACKAGE, "player"))
        return False

    def _play(self, songs: list[dict[str, Any]], index: int) -> None:
        self.queue, self.index, self.paused = [dict(s) for s in songs], index, False
        self.played.append(songs[index]["title"])

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box lists the catalogue's songs for the words typed."""
        query = " ".join(screen.fields.get(rid, "").lower().split())
        return bool(query) and self.phone.push(Screen(PACKAGE, "results", {"query": query}))

    def state(self) -> MusicState:
        """What plays and where the app is (see `MusicState`)."""
        mine = self.phone.screens(PACKAGE)
        queries = [s.args["query"] for s in mine if s.name == "results"]
        song = self.current
        return {"page": mine[-1].name if mine else None,
                "playing": song["title"] if song and not self.paused else None,
                "song": {"title": song["title"], "artist": song["artist"]} if song else None,
                "paused": self.paused, "library": [s["title"] for s in library(self.phone.seed)],
                "queue": [s["title"] for s in self.queue], "query": queries[-1] if queries else None,
                "played": list(self.played)}
