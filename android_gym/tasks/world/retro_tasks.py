"""World-suite tasks over Retro Music: make a playlist of songs in order, queue songs in order, make a playlist and
save it as a file in Download, answer a playlist's total length or how many songs an artist has, and text a
playlist's length to someone in Messages. The task libraries and expert steps are in `retro_expert`.

Every task replaces the seeded library with a fixed one (`task_library`) and puts a twin playlist of a similar name
beside the task's (the near miss), so adding to the wrong playlist, or changing it, fails. Checks read Retro's
state whole (every playlist, the queue), and Files' for the saved file. Splits hold out playlist names (`split_of`),
or (artist, variant) keys.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import files as F
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import retro as R
from android_gym.sim.apps.retro_data import ARTISTS, TITLES, clock
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, home
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, state_of, wait
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.retro_expert import (
    RETRO,
    library_initial,
    make_playlist,
    queue_songs,
    reach,
    retro_state,
    save_playlist,
    task_library,
    to_playlist,
    to_tab,
)

PAIRS = (("Morning run", "Evening run"), ("Study focus", "Study break"), ("Long drive", "Long walk"),
         ("Sunday brunch", "Sunday chores"), ("Rainy day", "Sunny day"), ("Deep work", "Deep sleep"),
         ("Dinner party", "Dinner for two"), ("Yoga flow", "Yoga cooldown"), ("Late night drive", "Late night chill"),
         ("Gym warmup", "Gym cooldown"), ("Beach day", "Beach night"), ("Coffee shop", "Coffee break"),
         ("Spring cleaning", "Spring picnic"), ("Kitchen dance", "Kitchen jazz"), ("Train commute", "Bus commute"),
         ("Garden work", "Garden party"), ("Reading nook", "Reading break"), ("Baby shower", "Baby lullabies"),
         ("Focus flow", "Focus mix"), ("Campfire songs", "Campfire stories"))
"""Task playlist names, each with a twin (the near miss); none is a seeded playlist's name."""


def playlist_grid(variants: int, low: int, high: int) -> list[dict[str, Any]]:
    """Every name `variants` times: its twin, `low`-`high` songs in order, the twin's songs, a phrasing."""
    out = []
    for i, (name, twin) in enumerate(PAIRS):
        for k in range(variants):
            rng = random.Random(stable_seed("retro-grid", name, k))
            songs = rng.sample(TITLES, low + (i + k) % (high - low + 1))
            others = [t for t in TITLES if t not in songs]
            out.append({"name": name, "twin": twin, "songs": tuple(songs), "titles": ", ".join(songs),
                        "twin_songs": tuple(rng.sample(others, 2 + (i + k) % 3)), "phrasing": i + k,
                        "key": f"{name}:{k}"})
    return out


def pair_initial(params: Params, made: bool) -> dict[str, Any]:
    """The library of the instance (its songs and its twin's among 14) with the twin playlist, and the task's
    playlist too when `made`."""  # noqa: D205, D209
    songs = task_library(params["key"], 14, [*params["songs"], *params["twin_songs"]])
    lists = [{"name": params["twin"], "songs": list(params["twin_songs"])}]
    if made:
        lists.append({"name": params["name"], "songs": list(params["songs"])})
    return library_initial(songs, lists)


def playlists_are(state: State, params: Params, made: bool) -> bool:
    """The playlists are exactly the twin as set up and, when `made`, {name} holding the songs in order."""
    want = [(params["twin"], list(params["twin_songs"]))] + ([(params["name"], list(params["songs"]))] if made else [])
    have = [(p["name"], p["songs"]) for p in retro_state(state)["playlists"]]
    return sorted(have) == sorted(want)


class CreatePlaylistTemplate(WorldTemplate):
    """Make a playlist {name} of {titles} in that order; the twin playlist {twin} stays as it is."""

    name, max_steps, split_key = "retro_create_playlist", 30, "name"
    apps = (RETRO,)
    phrasings = ('In Retro Music, create a playlist called "{name}" with these songs in this order: {titles}',
                 "Make a new Retro Music playlist {name} holding {titles}, in that order",
                 'Create the playlist "{name}" in Retro Music and add {titles} to it, in order')

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with two to five songs."""
        return playlist_grid(2, 2, 5)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The instance's library and the twin playlist; no playlist {name}."""
        return {RETRO: pair_initial(params, made=False)}

    def check(self, params: Params, state: State) -> bool:
        """{name} holds exactly the songs in order; the twin is unchanged; no other playlist."""
        return playlists_are(state, params, made=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The first song's Add to playlist, New playlist, the name, Create; each next song's Add to playlist."""
        return make_playlist(params["name"], params["songs"], elements, state) or wait()


class SavePlaylistTemplate(CreatePlaylistTemplate):
    """Make the playlist {name} of {titles} in order, then save it as a file in the Download folder."""

    name, max_steps = "retro_save_playlist", 32
    phrasings = ('Create a Retro Music playlist "{name}" with {titles} (in this order), then save it as a file in '
                 "the Download folder",
                 "Make a playlist {name} in Retro Music of {titles}, in order, and export it to Download",
                 'Build the playlist "{name}" from {titles} in that order and save the playlist file into Download')

    def check(self, params: Params, state: State) -> bool:
        """The playlist is made as asked, and "Download/{name}.m3u" is in the phone's storage."""
        files = {f["path"] for f in state_of(state, F.FilesState)["files"]}
        return super().check(params, state) and f"Download/{params['name']}.m3u" in files

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Make the playlist, then its screen, Save playlist, Download, Save."""
        return (make_playlist(params["name"], params["songs"], elements, state)
                or save_playlist(params["name"], "Download", elements, state))


class QueueSongsTemplate(WorldTemplate):
    """Put {titles} in the playing queue in that order (the queue is empty at the start)."""

    name, max_steps, split_key = "retro_queue_songs", 20, "name"
    apps = (RETRO,)
    phrasings = ("Add {titles} to the playing queue in Retro Music, in that order",
                 "Queue up {titles} in Retro Music, one after another in this order",
                 "In Retro Music, make the playing queue {titles} (in order)")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice (only its songs count), with two to four songs."""
        return playlist_grid(2, 2, 4)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The instance's library and the twin playlist; nothing queued."""
        return {RETRO: pair_initial(params, made=False)}

    def check(self, params: Params, state: State) -> bool:
        """The queue is exactly the songs in order; the playlists unchanged."""
        return retro_state(state)["queue"] == list(params["songs"]) and playlists_are(state, params, made=False)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each song's More options, Add to playing queue, in order."""
        return queue_songs(params["songs"], elements, state) or wait()


def total(state: State, name: str) -> str | None:
    """Playlist `name`'s total length as Retro writes it, or None when there is no such playlist."""
    r = retro_state(state)
    p = next((p for p in r["playlists"] if p["name"] == name), None)
    lengths = {s["title"]: s["duration_ms"] for s in r["songs"]}
    return None if p is None else clock(sum(lengths[t] for t in p["songs"]))


def read_total(elements: Elements) -> str | None:
    """The total length on a playlist's screen ("3 Songs • 12:04" gives "12:04"), None when not shown."""
    info = find(elements, rid=R.INFO_RID)
    return info.text.split("\u2022")[-1].strip() if info is not None else None


class PlaylistLengthTemplate(WorldTemplate):
    """How long is the playlist {name} in all? Answered with the total its screen shows; the twin differs."""

    name, max_steps, split_key = "retro_playlist_length", 11, "name"
    outcome, apps = "answer", (RETRO,)
    phrasings = ('What is the total length of my Retro Music playlist "{name}"?',
                 "How long does the playlist {name} in Retro Music play in all?",
                 "Check in Retro Music how long the {name} playlist lasts")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with three to six songs."""
        return playlist_grid(2, 3, 6)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The library with the playlist and its twin."""
        return {RETRO: pair_initial(params, made=True)}

    def answer(self, params: Params, state: State) -> str | None:
        """The playlist's total ("m:ss" or "h:mm:ss"), while the playlists are as set up."""
        return total(state, params["name"]) if playlists_are(state, params, made=True) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's screen; answer with the total shown under its name."""
        step = to_playlist(params["name"], elements, state)
        if step is not None:
            return step
        shown = read_total(elements)
        return Action(ActionType.STATUS_TASK_COMPLETE, text=shown) if shown else wait()


class ArtistSongsTemplate(WorldTemplate):
    """How many songs by {artist} are in the library? Answered with the count the artist's page shows."""

    name, max_steps, split_key = "retro_artist_songs", 11, "key"
    outcome, apps = "answer", (RETRO,)
    phrasings = ("How many songs by {artist} do I have in Retro Music?",
                 "Count the songs of {artist} in my Retro Music library",
                 "In Retro Music, how many tracks are by {artist}?")

    def grid(self) -> list[dict[str, Any]]:
        """Every artist with songs in each of eight libraries."""
        out = []
        for k in range(8):
            songs = task_library(f"artists:{k}", 16)
            for i, artist in enumerate(sorted(ARTISTS)):
                if any(s["artist"] == artist for s in songs):
                    out.append({"artist": artist, "library": f"artists:{k}", "key": f"{artist}:{k}",
                                "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The variant's library of 16 songs, no playlists."""
        return {RETRO: library_initial(task_library(params["library"], 16))}

    def answer(self, params: Params, state: State) -> str | None:
        """How many songs of the library are by the artist."""
        return str(sum(s["artist"] == params["artist"] for s in retro_state(state)["songs"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The Artists tab, the artist; answer with the count on the artist's page."""
        screen = state["screen"]
        if state["foreground"] == RETRO and screen["name"] == "artist" and screen["args"]["artist"] == params["artist"]:
            info = find(elements, rid=R.INFO_RID)
            return Action(ActionType.STATUS_TASK_COMPLETE, text=info.text.split()[0]) if info else wait()
        artists = sorted({s["artist"] for s in retro_state(state)["songs"]}, key=str.casefold)
        return to_tab("artists", elements, state) or reach(params["artist"], artists, elements, state,
                                                            text=params["artist"], rid=R.TITLE_RID)


class LengthToTextTemplate(WorldTemplate):
    """Text {person} how long the playlist {name} is: one SMS holding its total as Retro shows it."""

    name, max_steps, split_key = "retro_length_to_text", 19, "name"
    apps = (RETRO, M.PACKAGE)
    phrasings = ('Text {person} how long my Retro Music playlist "{name}" is',
                 "Send {person} a message with the total length of the playlist {name} from Retro Music",
                 "{person} asked how long the {name} playlist lasts: look it up in Retro Music and text them")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with a person per instance."""
        return [{**p, "person": names(f"retro:{p['key']}", 1)[0]} for p in playlist_grid(2, 3, 6)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlist and its twin; a conversation with the person."""
        p = person(params["person"])
        return {RETRO: pair_initial(params, made=True),
                M.PACKAGE: {"threads": [conversation(p, ("How long is that playlist of yours?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the total; the playlists unchanged."""
        length = total(state, params["name"])
        return (length is not None and playlists_are(state, params, made=True)
                and texts_ok(state, [(params["person"], length)], contains=True))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the playlist to read its total, then text it."""
        if retro_state(state)["last_opened"] != params["name"]:
            return to_playlist(params["name"], elements, state) or home()
        length = total(state, params["name"])
        return send_text(person(params["person"]), length, elements, state) if length else wait()


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreatePlaylistTemplate(), SavePlaylistTemplate(), QueueSongsTemplate(), PlaylistLengthTemplate(),
    ArtistSongsTemplate(), LengthToTextTemplate(),
)
"""The Retro Music templates of the world suite."""
