"""AndroidWorld's Retro Music tasks: `RetroCreatePlaylist`, `RetroPlayingQueue`, `RetroSavePlaylist` and
`RetroPlaylistDuration`.

AndroidWorld draws a playlist name (a theme and a number from 1 to 999) and 15 songs of its list: the first 2-5 are
the task's files (9-11 for the duration task), the rest noise. It clears the storage and the playlist database, writes
the 15 songs as mp3 files (each with a random given name as artist and 3-5 minutes long; for the duration task the
task's files instead split 47.5 minutes at random cut points) and has the media store scan them. Its checks:
- `RetroCreatePlaylist`: the playlist rows whose name fuzzy-matches the asked one (difflib's 0.9, case ignored) are
  exactly the files, each at its index;
- `RetroPlayingQueue`: the playing queue's titles equal the files, in order;
- `RetroSavePlaylist`: the create check, averaged with whether "Download/<name>.m3u" exists;
- `RetroPlaylistDuration`: every playlist row belongs to the playlist named exactly so, and their lengths sum to 45-50
  minutes.

Here the 15 songs replace the sim's library (`library_only`, no playlists, nothing queued), with lengths and artists
fixed per instance (`stable_seed`) where AndroidWorld draws them per episode. The titles and themes are lists of our
own of the same kinds (`retro_data.TITLES`, `THEMES`). The checks read Retro's state (and Files' for the .m3u):
- create: exactly one playlist fuzzy-matches the name, it is the name up to case, and it holds exactly the files in
  order (AndroidWorld's check: a second fuzzy-matching playlist adds rows and fails there too);
- queue: the queue is exactly the files, in order (AndroidWorld's check);
- save: the create check and the file "Download/<name>.m3u" in the phone's storage, both (AndroidWorld gives half a
  point for one: here that loses);
- duration: every playlist holding songs is named exactly so, and its songs last 45-50 minutes in all.
The experts build the playlist or queue from the songs' More options, export it from the playlist's screen, or pick
the fewest songs whose lengths fall in the window.
"""  # noqa: D205, D209

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import files as F
from android_gym.sim.apps.retro_data import TITLES
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, fuzzy_match, pick
from android_gym.tasks.world.base import Elements, Params, State, state_of, wait
from android_gym.tasks.world.retro_expert import (
    RETRO,
    library_initial,
    make_playlist,
    queue_songs,
    retro_state,
    save_playlist,
)

THEMES = ("Chill Beats", "Morning Vibes", "Workout Energy", "Study Sessions", "Golden Oldies", "Indie Gems",
          "Rock Anthems", "Jazz Classics", "Country Roads", "Pop Essentials", "Latin Grooves", "Soulful Sounds",
          "Blues Vibes", "Party Mix", "Tranquil Tunes", "Folk Inspirations", "Disco Nights", "Sleepytime Songs",
          "Acoustic Sessions", "Vintage Vinyl", "Coffeehouse Jazz", "Rainy Day Relax", "Gym Pump Up",
          "Road Trip Anthems", "Summer Hits", "Dinner Jazz", "Focus Flow", "Weekend Warmup", "Late Night Lounge",
          "Sunday Slowdown")
"""Playlist themes (AndroidWorld has 50 such genre and mood names; a number from 1 to 999 follows one)."""
GIVEN_NAMES = ("Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Gustavo", "Hana", "Ivan", "Jonas", "Kavya",
               "Leila", "Mateo", "Nadia", "Omar", "Priya")
"""The songs' artists (AndroidWorld names each song's artist with a random given name)."""
WINDOW_MS = (45 * 60_000, 50 * 60_000)
"""The duration task's window, in milliseconds (both ends included)."""
TARGET_MS = 2_850_000
"""What the duration task's files last in all: 47.5 minutes."""


def draw_songs(rng: random.Random, low: int, high: int) -> dict[str, Any]:
    """A playlist name and 15 titles: the first `low`-`high` the task's files, the rest noise."""
    name = f"{pick(rng, THEMES)} {rng.randint(1, 999)}"
    titles = rng.sample(TITLES, 15)
    count = rng.randint(low, high)
    files = tuple(titles[:count])
    return {"playlist_name": name, "files": files, "noise": tuple(titles[count:]), "names": ", ".join(files)}


def split_sum(rng: random.Random, total: int, parts: int) -> list[int]:
    """`parts` non-negative integers summing to `total`: the gaps between sorted random cut points.

    >>> sum(split_sum(random.Random(0), 2_850_000, 10)), len(split_sum(random.Random(0), 100, 4))
    (2850000, 4)
    """
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    edges = [0, *cuts, total]
    return [b - a for a, b in itertools.pairwise(edges)]


def library(params: Params, window: bool) -> list[dict[str, Any]]:
    """The instance's 15 songs (files then noise), artists and lengths fixed by the instance; with `window`, the
    files split 47.5 minutes."""  # noqa: D205, D209
    rng = random.Random(stable_seed("androidworld", "retro", params["playlist_name"], params["files"]))
    titles = [*params["files"], *params["noise"]]
    lengths = [rng.randint(180_000, 300_000) for _ in titles]
    if window:
        lengths[:len(params["files"])] = split_sum(rng, TARGET_MS, len(params["files"]))
    return [{"title": t, "artist": pick(rng, GIVEN_NAMES), "duration_ms": ms} for t, ms in zip(titles, lengths,
                                                                                             strict=True)]


def created(params: Params, state: State) -> bool:
    """One playlist fuzzy-matches the name; it is the name up to case and holds exactly the files in order."""
    name = params["playlist_name"]
    like = [p for p in retro_state(state)["playlists"] if fuzzy_match(p["name"], name)]
    return (len(like) == 1 and like[0]["name"].strip().casefold() == name.casefold()
            and like[0]["songs"] == list(params["files"]))


class RetroCreatePlaylist(AndroidWorldTemplate):
    """Create the playlist {playlist_name} of the files in order, among 15 songs."""

    name, split_key = "RetroCreatePlaylist", "playlist_name"
    goal_template = ('Create a playlist in Retro Music titled "{playlist_name}" with the following songs, in order: '
                     "{names}")
    apps, max_steps = (RETRO,), 32  # the expert takes 10-21 steps
    window = False

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A name and 2-5 files among 15 titles."""
        return draw_songs(rng, 2, 5)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the 15 songs; no playlist, nothing queued."""
        return {RETRO: library_initial(library(params, self.window))}

    def check(self, params: Params, state: State) -> bool:
        """The playlist holds exactly the files in order (see `created`)."""
        return created(params, state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Make the playlist from the songs' More options."""
        return make_playlist(params["playlist_name"], params["files"], elements, state) or wait()


class RetroPlayingQueue(RetroCreatePlaylist):
    """Queue the files in order."""

    name = "RetroPlayingQueue"
    goal_template = "Add the following songs, in order, {names} to my playing queue in Retro music."
    max_steps = 22  # the expert takes 6-16 steps

    def check(self, params: Params, state: State) -> bool:
        """The playing queue is exactly the files, in order."""
        return retro_state(state)["queue"] == list(params["files"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each file's More options, Add to playing queue."""
        return queue_songs(params["files"], elements, state) or wait()


class RetroSavePlaylist(RetroCreatePlaylist):
    """Create the playlist, then export it into Download."""

    name = "RetroSavePlaylist"
    goal_template = ('Create a playlist in Retro Music titled "{playlist_name}" with the following songs, in order: '
                     "{names}. Then export the playlist to the Downloads directory on the device.")
    max_steps = 40  # the expert takes 15-27 steps

    def check(self, params: Params, state: State) -> bool:
        """The playlist as asked, and "Download/{playlist_name}.m3u" in the phone's storage."""
        files = {f["path"] for f in state_of(state, F.FilesState)["files"]}
        return created(params, state) and f"Download/{params['playlist_name']}.m3u" in files

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Make the playlist; its screen, Save playlist, Download, Save."""
        return (make_playlist(params["playlist_name"], params["files"], elements, state)
                or save_playlist(params["playlist_name"], "Download", elements, state))


@functools.cache
def fewest_in_window(songs: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The fewest songs ((title, ms) pairs, in the order given) whose lengths sum into `WINDOW_MS`; () if none do.

    >>> fewest_in_window((("a", 1_000_000), ("b", 1_800_000), ("c", 900_000), ("d", 2_000_000)))
    ('a', 'b')
    """
    for size in range(1, len(songs) + 1):
        for combo in itertools.combinations(songs, size):
            if WINDOW_MS[0] <= sum(ms for _, ms in combo) <= WINDOW_MS[1]:
                return tuple(t for t, _ in combo)
    return ()


class RetroPlaylistDuration(RetroCreatePlaylist):
    """Create the playlist {playlist_name} lasting 45-50 minutes from the songs (the files last 47.5 in all)."""

    name = "RetroPlaylistDuration"
    goal_template = ('Create a playlist in Retro Music titled "{playlist_name}" with a duration between 45 and 50'
                     " minutes using the provided songs.")
    max_steps = 44  # the expert takes 19-29 steps
    window = True

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A name and 9-11 files among 15 titles."""
        return draw_songs(rng, 9, 11)

    def check(self, params: Params, state: State) -> bool:
        """Every playlist holding songs is named exactly so, and its songs last 45-50 minutes in all."""
        r = retro_state(state)
        full = [p for p in r["playlists"] if p["songs"]]
        lengths = {s["title"]: s["duration_ms"] for s in r["songs"]}
        total = sum(lengths[t] for p in full for t in p["songs"])
        return (bool(full) and all(p["name"] == params["playlist_name"] for p in full)
                and WINDOW_MS[0] <= total <= WINDOW_MS[1])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Make the playlist of the fewest songs that fit the window (longest first, as one would pick them)."""
        songs = sorted(((s["title"], s["duration_ms"]) for s in retro_state(state)["songs"]), key=lambda s: -s[1])
        return make_playlist(params["playlist_name"], fewest_in_window(tuple(songs)), elements, state) or wait()


TEMPLATES = (RetroCreatePlaylist(), RetroPlayingQueue(), RetroSavePlaylist(), RetroPlaylistDuration())
