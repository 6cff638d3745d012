"""Retro Music's typed seam: the schema of the state it reports (`RetroState`) and its initial conditions
(`RetroInitial`).

Songs are named by title: a library holds each title once (AndroidWorld's tasks name songs by title alone).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app_state import closed

Tab = Literal["songs", "albums", "artists", "playlists"]
Page = Literal["library", "album", "artist", "playlist", "player", "queue", "menu", "new_playlist", "add_to_playlist",
               "rename_playlist", "delete_playlist", "save_playlist"]


@closed
class SongState(TypedDict):
    """A song of the library: its title, artist, album and length in milliseconds."""

    title: str
    artist: str
    album: str
    duration_ms: int


@closed
class PlaylistState(TypedDict):
    """A playlist: its name and its songs' titles in order (a title may come twice)."""

    name: str
    songs: list[str]


@closed
class ExportState(TypedDict):
    """A playlist saved as a file this episode: the playlist's name and the file's path in Internal storage."""

    playlist: str
    path: str


@closed
class RetroState(TypedDict):
    """What Retro Music reports (`RetroApp.state`).

    Attributes:
        songs: the library, by title (as the Songs tab lists it).
        playlists: every playlist, by name (as the Playlists tab lists them).
        queue: the playing queue's titles, in order.
        position: the index in `queue` of the current song, None when the queue is empty.
        playing: whether the current song plays (not paused).
        screen: the front Retro screen's name, None when the app has none on the stack.
        tab: the library's tab in front (or under a pop-up over the library), else None.
        open_playlist: the name of the playlist whose screen is in front (or under its pop-up), else None.
        last_opened: the last playlist whose screen was opened this episode, None before.
        exported: the playlists saved as files this episode, in order.
    """

    songs: list[SongState]
    playlists: list[PlaylistState]
    queue: list[str]
    position: int | None
    playing: bool
    screen: Page | None
    tab: Tab | None
    open_playlist: str | None
    last_opened: str | None
    exported: list[ExportState]


def _not_blank(field: str, text: str) -> str:
    if not text.strip():
        raise FieldError(field, "a text that is not blank", text)
    return text


class SongSpec(ConfigModel):
    """A song a task puts in the library (it replaces a seeded song of the same title).

    Attributes:
        title: its title (not blank).
        artist: its artist.
        album: its album.
        duration_ms: its length in milliseconds.
    """

    title: str
    artist: str = "Unknown artist"
    album: str = "Unknown album"
    duration_ms: int = Field(ge=0)

    @field_validator("title")
    @classmethod
    def _title(cls, title: str) -> str:
        return _not_blank("title", title)


class PlaylistSpec(ConfigModel):
    """A playlist a task puts on the phone.

    Attributes:
        name: its name (not blank).
        songs: its songs' titles in order (each a title of the library).
    """

    name: str
    songs: tuple[str, ...] = ()

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        return _not_blank("name", name)


class RetroInitial(ConfigModel):
    """The initial conditions a Retro Music task may set, applied in this order (the set-up, not changes).

    Attributes:
        library_only: whether the library holds only `songs` (the seeded songs removed, as AndroidWorld clears the
            storage before it writes a task's files).
        absent: titles of seeded songs removed.
        songs: songs added to the library.
        playlists: the playlists (None keeps the seeded ones; a tuple replaces them, () leaves none).
        queue: the playing queue's titles (paused on the first); empty: nothing queued.
    """

    library_only: bool = False
    absent: tuple[str, ...] = ()
    songs: tuple[SongSpec, ...] = ()
    playlists: tuple[PlaylistSpec, ...] | None = None
    queue: tuple[str, ...] = ()
