"""The music app (YT Music): a library of songs, a search of the catalogue, a player with a queue, and playlists.

The library is drawn per episode from `stable_seed(phone.seed)` (no episode RNG). Screens: "home" (the library),
"search" (the search box), "results" (args {"query"}: `search_songs(query)`) and "player" (the song now playing).

Playback belongs to the app, not to a screen, as on a phone: tapping a song plays it with the list it was in as the
queue (the library, or a search's results); the player's Next and Previous step through that queue, Play/Pause
pauses or resumes, and the song keeps playing when the user leaves the player or the app. While a song is loaded the
library and result pages show a mini-player bar (its title opens the player, its button pauses or resumes). A task's
initial conditions (`MusicInitial`) may start the episode with library song `rank` playing, and with playlists.

Playlists: the library's Playlists button lists them ("playlists", with New playlist); a playlist's page
("playlist", args {"name"}) lists its songs, each with a Remove button, and plays them as a queue. The player likes
the song loaded (Like / Liked) and saves it to a playlist ("save": the playlists and New playlist, which names a new
one, "new_playlist" args {"add"}, holding the song). Every change to a playlist is logged (`MusicState.edits`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_state import closed, refuse_blank
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
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
PLAYLIST_RID = f"{PACKAGE}:id/playlist_row"
PLAYLIST_NAME_RID = f"{PACKAGE}:id/playlist_name_input"
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
class PlaylistSong(TypedDict):
    """A song of a playlist: {"title", "artist", "length"} ("m:ss")."""

    title: str
    artist: str
    length: str


@closed
class Playlist(TypedDict):
    """A playlist: its name and its songs in order."""

    name: str
    songs: list[PlaylistSong]


@closed
class PlaylistEdit(TypedDict):
    """One change of the episode's log: a playlist created, or a song (by title) added to or removed from one."""

    op: Literal["create", "add", "remove"]
    playlist: str
    song: str | None


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
        liked: the titles of the songs liked, in the order liked.
        playlists: the playlists, in the order created (the initial ones first).
        edits: the playlist changes of the episode, in order.
    """

    page: Literal["home", "search", "results", "player", "playlists", "playlist", "save", "new_playlist"] | None
    playing: str | None
    song: SongRef | None
    paused: bool
    library: list[str]
    queue: list[str]
    query: str | None
    played: list[str]
    liked: list[str]
    playlists: list[Playlist]
    edits: list[PlaylistEdit]


class SongSpec(ConfigModel):
    """A playlist's song in the initial conditions: its title, artist and length ("m:ss")."""

    title: str
    artist: str
    length: str = Field(pattern=r"^[0-9]{1,2}:[0-5][0-9]$")

    @field_validator("title", "artist")
    @classmethod
    def _named(cls, value: str) -> str:
        return refuse_blank("title", value)


class PlaylistSpec(ConfigModel):
    """A playlist in the initial conditions: its name and songs."""

    name: str
    songs: tuple[SongSpec, ...] = ()

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        return refuse_blank("name", value)


class MusicInitial(ConfigModel):
    """The initial conditions a YT Music task may set.

    Attributes:
        playing: the library rank (0 first) of a song playing at the start, the library as its queue; None: nothing
            loaded.
        playlists: playlists on the phone at the start (a later one of a name already given replaces it).
    """

    playing: int | None = Field(default=None, ge=0, le=LIBRARY_SIZE - 1)
    playlists: tuple[PlaylistSpec, ...] = ()


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
        self.liked: list[str] = []
        self.playlists: dict[str, list[dict[str, str]]] = {}  # name -> songs, in the order created
        self.edits: list[PlaylistEdit] = []

    def set_up(self, initial: MusicInitial) -> None:
        """The playlists; library song `initial.playing` playing, the library as its queue (when given)."""
        for spec in initial.playlists:
            self.playlists[spec.name] = [song.model_dump() for song in spec.songs]
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
            case "playlists" | "save":
                return self._playlists(screen.name)
            case "playlist":
                return self._playlist(screen.args["name"])
            case "new_playlist":
                return self._new_playlist(screen)
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
            bar.children.append(View(IMAGE_BUTTON, (WIDTH - 2 * TOOLBAR_H, CONTENT_TOP, WIDTH - TOOLBAR_H, top),
                                     desc="Playlists", rid=f"{PACKAGE}:id/action_playlists", package=PACKAGE,
                                     clickable=True, focusable=True, on_tap=("open", "playlists"), icon="library"))
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

    def _playlists(self, page: str) -> list[View]:
        """The playlists ("playlists": each opens; "save": each takes the loaded song), New playlist first."""
        top = CONTENT_TOP + TOOLBAR_H
        rows = [View(BUTTON, (MARGIN, top + 20, WIDTH - MARGIN, top + 160), text="New playlist", desc="New playlist",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("new", page == "save"),
                     style="button")]
        for i, (name, songs) in enumerate(self.playlists.items()):
            y = top + 180 + i * ROW_H
            rows.append(View(TEXT_VIEW, (0, y, WIDTH, y + ROW_H), text=name, desc=f"{name}, {len(songs)} songs",
                             rid=PLAYLIST_RID, package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("open_playlist", name) if page == "playlists" else ("save", name), style="row"))
        title = "Playlists" if page == "playlists" else "Save to playlist"
        return [toolbar(title, PACKAGE, PACKAGE), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                              rid=f"{PACKAGE}:id/playlists")]

    def _playlist(self, name: str) -> list[View]:
        """A playlist's songs (each plays, the playlist as the queue; each has Remove), the mini-player below."""
        top = CONTENT_TOP + TOOLBAR_H
        bottom = CONTENT_BOTTOM - (MINI_H if self.current else 0)
        rows = []
        for i, s in enumerate(self.playlists.get(name, [])):
            y = top + i * ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH - 200, y + ROW_H), text=f"{s['title']} · {s['artist']} · "
                             f"{s['length']}", desc=f"Play {s['title']}", rid=SONG_RID, package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("play", "playlist", name, i), style="row"))
            rows.append(View(IMAGE_BUTTON, (WIDTH - 200, y + 20, WIDTH - 20, y + ROW_H - 20),
                             desc=f"Remove {s['title']} from {name}", package=PACKAGE, clickable=True,
                             focusable=True, on_tap=("remove", name, i), icon="delete"))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 100, WIDTH - MARGIN, top + 220), text="No songs yet",
                         package=PACKAGE, style="hint")]
        return [toolbar(name, PACKAGE, PACKAGE), scroll_list(top, bottom, PACKAGE, rows,
                                                             rid=f"{PACKAGE}:id/playlist"), *self._mini_player()]

    def _new_playlist(self, screen: Screen) -> list[View]:
        """The new playlist's name and Create (enabled once the name is new and not blank)."""
        top = CONTENT_TOP + TOOLBAR_H
        name = " ".join(screen.fields.get(PLAYLIST_NAME_RID, "").split())
        ok = bool(name) and name not in self.playlists
        return [toolbar("New playlist", PACKAGE, PACKAGE),
                text_field((MARGIN, top + 40, WIDTH - MARGIN, top + 184), PLAYLIST_NAME_RID,
                           screen.fields.get(PLAYLIST_NAME_RID, ""), "Title", screen.focus == PLAYLIST_NAME_RID,
                           PACKAGE),
                View(BUTTON, (WIDTH - 400, top + 220, WIDTH - MARGIN, top + 360), text="Create", package=PACKAGE,
                     clickable=ok, focusable=ok, enabled=ok, on_tap=("create", name, screen.args["add"]),
                     style="button")]

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
        liked = song["title"] in self.liked
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
                  for i, (desc, rid, event, icon) in enumerate(controls)],
                View(IMAGE_BUTTON, (MARGIN, top + 800, MARGIN + 200, top + 960), desc="Liked" if liked else "Like",
                     package=PACKAGE, clickable=True, focusable=True, selected=liked, on_tap=("like", song["title"]),
                     icon="like"),
                View(BUTTON, (WIDTH - 520, top + 800, WIDTH - MARGIN, top + 960), text="Save to playlist",
                     desc="Save to playlist", package=PACKAGE, clickable=True, focusable=True,
                     on_tap=("open", "save"), style="outlined_button")]

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
            case ("play", "playlist", name, i) if i < len(self.playlists.get(name, [])):
                self._play(self.playlists[name], i)
                return self.phone.push(Screen(PACKAGE, "player"))
            case ("open", page):  # Playlists from the library, Save to playlist from the player
                return self.phone.push(Screen(PACKAGE, page))
            case ("open_playlist", name):
                return self.phone.push(Screen(PACKAGE, "playlist", {"name": name}))
            case ("new", add):
                return self.phone.push(Screen(PACKAGE, "new_playlist", {"add": add}, focus=PLAYLIST_NAME_RID))
            case ("create", name, add) if name and name not in self.playlists:
                self.playlists[name] = []
                self.edits.append({"op": "create", "playlist": name, "song": None})
                self.phone.pop()
                return self._save(name) if add else True
            case ("save", name):
                return self._save(name)
            case ("remove", name, i) if i < len(self.playlists.get(name, [])):
                gone = self.playlists[name].pop(i)
                self.edits.append({"op": "remove", "playlist": name, "song": gone["title"]})
                return True
            case ("like", title):  # Like / Liked toggles
                if title in self.liked:
                    self.liked.remove(title)
                else:
                    self.liked.append(title)
                return True
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

    def _save(self, name: str) -> bool:
        """Add the loaded song to playlist `name` (not twice), then close the Save to playlist sheet."""
        song = self.current
        if song is not None and all(s["title"] != song["title"] for s in self.playlists[name]):
            self.playlists[name].append({k: song[k] for k in ("title", "artist", "length")})
            self.edits.append({"op": "add", "playlist": name, "song": song["title"]})
        return self.phone.pop()

    def _play(self, songs: list[dict[str, Any]], index: int) -> None:
        self.queue, self.index, self.paused = [dict(s) for s in songs], index, False
        self.played.append(songs[index]["title"])

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box lists the catalogue's songs for the words typed (ENTER elsewhere does nothing)."""
        if rid != SEARCH_RID:
            return False
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
                "played": list(self.played), "liked": list(self.liked),
                "playlists": [{"name": n, "songs": [dict(s) for s in songs]} for n, songs in self.playlists.items()],
                "edits": [dict(e) for e in self.edits]}
