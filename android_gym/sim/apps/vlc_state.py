"""VLC's typed seam and seeded library: the state it reports (`VlcState`), its initial conditions (`VlcInitial`), and
the videos and playlists a fresh phone holds (`seeded_library`).

A video is a file of the phone's storage ("Movies/holiday.mp4", relative to Internal storage as in Files) with what
VLC's media library knows of it: its frames, each a text shown for some seconds (a frame may show no text). Its length
is the sum of its frames' seconds. A playlist is a name and an ordered list of video paths (a video may appear twice,
as in VLC's database).

The seeded library is the Files app's seeded Movies videos (`files_data.seeded_files`, a pure function of the seed:
VLC never reads or writes Files' state), each with frames drawn from `stable_seed("vlc", path, seed)`, and one or two
playlists of them. Tasks add videos (in "VLCVideos", "Download", ...) and playlists with `VlcInitial`.
"""  # noqa: D205

from __future__ import annotations

import random
from typing import Any, Literal, NotRequired

from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, refuse_absolute_paths, refuse_blank
from android_gym.sim.apps.files_data import ext_of, seeded_files

PATH = "a path relative to Internal storage like 'Movies/trip.mp4'"
WORDS = ("Welcome", "Sunrise", "Harbor", "Chapter one", "Lighthouse", "Intermission", "Goodbye", "Summit",
         "Rainforest", "Finale", "Desert road", "Morning run", "City lights", "Snowfall", "The end", "Kickoff")
"""Texts the frames of seeded videos show."""
PLAYLISTS = ("Favorites", "Watch later", "Weekend", "Family", "Workouts", "Road trip")
"""Names of seeded playlists."""

Page = Literal["videos", "playlists", "playlist", "player", "menu", "add", "rename", "delete"]


@closed
class FrameState(TypedDict):
    """One frame of a video: the text it shows ("" for none) and for how many seconds."""

    text: str
    seconds: int


@closed
class VideoState(TypedDict):
    """A video of the library: its path, file name, length in seconds and frames in order."""

    path: str
    name: str
    duration_s: int
    frames: list[FrameState]


@closed
class PlaylistState(TypedDict):
    """A playlist: its name and its videos' paths in order."""

    name: str
    videos: list[str]


@closed
class PlayingState(TypedDict):
    """The video open in the player: its path, the position in seconds, whether paused, the frame's text now."""

    path: str
    position_s: int
    paused: bool
    text: str


@closed
class PlaylistEdit(TypedDict):
    """One playlist edit of the episode: "create", "add" (with the video), "rename" (with the new name), "delete"."""

    op: Literal["create", "add", "rename", "delete"]
    playlist: str
    video: NotRequired[str]
    to: NotRequired[str]


@closed
class VlcState(TypedDict):
    """What VLC reports (`VlcApp.state`).

    Attributes:
        videos: the library, as the Video tab lists it (by file name).
        playlists: every playlist, in the order the Playlists tab lists them (oldest first).
        playing: the video in the player, or None.
        screen: the front VLC screen's name, None when VLC has no screen on the stack.
        open_playlist: the name of the playlist whose screen is in front (or under its pop-up), or None.
        watched: the paths of the videos opened in the player this episode, in order.
        edits: the episode's playlist edits, in order.
    """

    videos: list[VideoState]
    playlists: list[PlaylistState]
    playing: PlayingState | None
    screen: Page | None
    open_playlist: str | None
    watched: list[str]
    edits: list[PlaylistEdit]


class FrameSpec(ConfigModel):
    """A frame of a video a task puts on the phone.

    Attributes:
        text: what it shows ("" for nothing).
        seconds: how long it shows, at least a second.
    """

    text: str = ""
    seconds: int = Field(ge=1)


class VideoSpec(ConfigModel):
    """A video a task puts on the phone (replacing any at its path).

    Attributes:
        path: where it is, like "VLCVideos/clip_7.mp4".
        frames: its frames in order (at least one).
    """

    path: str
    frames: tuple[FrameSpec, ...]

    @field_validator("path")
    @classmethod
    def _relative_path(cls, path: str) -> str:
        refuse_absolute_paths("path", [path], PATH)
        return path

    @field_validator("frames")
    @classmethod
    def _some_frames(cls, frames: tuple[FrameSpec, ...]) -> tuple[FrameSpec, ...]:
        if not frames:
            raise FieldError("frames", "at least one frame", frames)
        return frames


class PlaylistSpec(ConfigModel):
    """A playlist a task puts on the phone.

    Attributes:
        name: its name (not blank).
        videos: its videos' paths in order (each in the library once the videos are added).
    """

    name: str
    videos: tuple[str, ...] = ()

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)


class VlcInitial(ConfigModel):
    """The initial conditions a VLC task may set, applied in this order; they are the set-up, not edits.

    Attributes:
        clear: remove every seeded video and playlist first (AndroidWorld's VLC tasks clear the storage).
        absent: paths of videos removed (from the playlists too), and names of playlists removed.
        videos: videos added.
        playlists: playlists added after the seeded ones.
    """

    clear: bool = False
    absent: tuple[str, ...] = ()
    videos: tuple[VideoSpec, ...] = ()
    playlists: tuple[PlaylistSpec, ...] = ()


def seeded_library(seed: int) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Episode `seed`'s videos ({path: {"frames"}}: the Files app's seeded .mp4 files) and 1-2 playlists of them."""
    paths = sorted(p for p in seeded_files(seed) if ext_of(p) == "mp4")
    videos = {}
    for path in paths:
        rng = random.Random(stable_seed("vlc", path, seed))
        videos[path] = {"frames": [{"text": rng.choice(WORDS) if rng.random() < 0.8 else "",
                                    "seconds": rng.randrange(5, 90)} for _ in range(rng.randrange(1, 4))]}
    rng = random.Random(stable_seed("vlc", "playlists", seed))
    playlists = [{"name": name, "videos": rng.sample(paths, rng.randrange(2, 5))}
                 for name in rng.sample(PLAYLISTS, rng.randrange(1, 3))]
    return videos, playlists
