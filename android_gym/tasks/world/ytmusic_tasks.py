"""World-suite tasks on YT Music (issue 48): answer which artist sings a playlist's n-th song, how many songs a
playlist holds, how long one of its songs is; like a song; create a playlist with given songs; add a song to a
playlist, remove one from it; make a playlist of the songs a Markor note lists; add the song a text recommends.

Playlist tasks put the task playlist on the phone beside its twin (a similar name, other songs at the same places
and another count: `twin_songs`), so an answer read off the twin, or a change made there, loses. Checks read YT
Music's state: the playlists, the change log ("edits") and the liked songs; an extra change fails. Songs added come
from the catalogue's search (`music.search_songs`): its first result bears the title asked for, the others are other
recordings ("(Live)"), the near miss. Splits hold out playlist names (song titles for the like task).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor, music
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.media_apps_expert import (
    YTM,
    declare,
    figure_matches,
    music_state,
    save_song,
    to_playlist,
    to_song,
)
from android_gym.tasks.world.messaging_expert import (
    conversation,
    names,
    namesake,
    person,
    read_unread_thread,
)
from android_gym.tasks.world.notes_expert import MARKOR, markor_item

PLAYLISTS = (("Road Trip", "Road Trip Extras"), ("Morning Run", "Morning Run Slow"), ("Dinner Party", "Dinner Jazz"),
             ("Focus", "Focus Mix"), ("Rainy Day", "Rainy Night"), ("Summer 2026", "Summer 2025"),
             ("Chill Sunday", "Chill Saturday"), ("Gym", "Gym Warmup"), ("Study Session", "Study Breaks"),
             ("Wedding Dance", "Wedding Dinner"), ("Kitchen Radio", "Kitchen Classics"),
             ("Late Night Drive", "Late Night Calm"), ("Sunday Brunch", "Sunday Brunch Jazz"),
             ("Yoga Flow", "Yoga Stretch"), ("Camping Trip", "Campfire Songs"), ("Birthday Bash", "Birthday Chill"),
             ("Office Hours", "Office Focus"), ("Road to Work", "Road Home"), ("Garden Work", "Garden Party"),
             ("Beach Walk", "Beach Walk Slow"))
"""Task playlists, each with its twin (the near miss)."""
POOL = (("Harbor Lights", "Mira Vale"), ("Paper Moon", "Northbound"), ("Quiet Storm", "Juno Park"),
        ("Long Way Home", "Static Hearts"), ("Silver Lining", "Ola Brandt"), ("Copper Sky", "Coastline"),
        ("Night Train", "Velvet Avenue"), ("Salt and Sun", "Kai Moreno"), ("First Light", "The Lanterns"),
        ("Falling Slowly", "The Paper Kites Club"), ("Blue Hour", "Northbound"), ("Runaway Days", "Juno Park"),
        ("Open Window", "Mira Vale"), ("Tides", "Coastline"), ("After the Rain", "Kai Moreno"),
        ("Little Fires", "Static Hearts"))
"""Songs the task playlists hold (title, artist)."""
CATALOGUE = ("Harbor Lights", "Paper Moon", "Quiet Storm", "Long Way Home", "Silver Lining", "Copper Sky",
             "Night Train", "Salt and Sun", "First Light", "Falling Slowly", "Blue Hour", "Runaway Days",
             "Open Window", "Tides", "After the Rain", "Little Fires", "Golden Fields", "Hollow Bones",
             "Neon River", "Static Bloom")
"""Titles the like and create tasks ask for: each is how `music.song_title` writes it, so a search tops with it."""
NEW_NAMES = ("Weekend Vibes", "Commute", "Sleep Songs", "Party Starters", "Sunday Cleaning", "Beach Day",
             "Throwbacks", "Coding Flow", "Long Walks", "Hiking Tunes", "Slow Dance", "Cozy Evenings")
NOTES = ("playlist_ideas.md", "songs_to_add.md", "mixtape.md", "party_songs.md")
ORDINALS = ("first", "second", "third", "fourth", "fifth")


def songs_of(key: str, count: int, shift: int) -> list[dict[str, str]]:
    """`count` songs of `POOL` from place `shift` on (stepping by a stride fixed by `key`), with lengths."""
    stride = 1 + sum(map(ord, key)) % 5 * 2  # odd, hence coprime with the pool's 16 songs: no song twice
    out = []
    for k in range(count):
        title, artist = POOL[(shift + k * stride) % len(POOL)]
        seconds = 150 + (len(key) * 37 + k * 53 + shift * 11) % 150
        out.append({"title": title, "artist": artist, "length": f"{seconds // 60}:{seconds % 60:02d}"})
    return out


def twin_songs(songs: list[dict[str, str]]) -> list[dict[str, str]]:
    """The twin playlist: one song more, and at each place a song by another artist than the task playlist's."""
    taken = {s["title"] for s in songs}
    spare = [{"title": t, "artist": a, "length": "5:12"} for t, a in POOL if t not in taken]  # no task length
    out = []
    for s in songs:
        pick = next(x for x in spare if x["artist"] != s["artist"] and x not in out)
        out.append(pick)
    return [*out, next(x for x in spare if x not in out)]


def find_playlist(state: State, name: str) -> music.Playlist | None:
    """The playlist called `name`, or None."""
    return next((p for p in music_state(state)["playlists"] if p["name"] == name), None)


def untouched(state: State) -> bool:
    """No playlist changed and no song liked this episode."""
    m = music_state(state)
    return not (m["edits"] or m["liked"])


class _PlaylistTemplate(WorldTemplate):
    """A task about the playlist {playlist}, its twin {twin} beside it; split on the playlist."""

    split_key, apps = "playlist", (YTM,)

    def grid(self) -> list[dict[str, Any]]:
        """Every playlist in four variants (songs, the place asked about)."""
        out = []
        for i, (name, twin) in enumerate(PLAYLISTS):
            for v in range(4):
                songs = songs_of(name, 5, 3 * v + i)
                out.append({"playlist": name, "twin": twin, "songs": songs, "place": (i + v) % 5,
                            "song": songs[(i + v) % 5]["title"], "phrasing": i + v,
                            "ordinal": ORDINALS[(i + v) % 5]})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlist and its twin."""
        return {YTM: {"playlists": [{"name": params["playlist"], "songs": params["songs"]},
                                    {"name": params["twin"], "songs": twin_songs(params["songs"])}]}}


class _PlaylistAnswer(_PlaylistTemplate):
    """What does the playlist's page say? Answered while nothing was changed."""

    outcome, max_steps = "answer", 10

    def row(self, params: Params, elements: Elements) -> list[str]:
        """The parts ("title", "artist", "length") of the row at `place` on the playlist's page, [] if not shown."""
        rows = [e for e in elements if e.rid == music.SONG_RID]
        return rows[params["place"]].text.split(" · ") if len(rows) > params["place"] else []


class PlaylistArtistTemplate(_PlaylistAnswer):
    """Which artist sings the {ordinal} song of {playlist}? Answered with the artist's name."""

    name = "ytmusic_playlist_artist"
    phrasings = ('Which artist sings the {ordinal} song of my "{playlist}" playlist?',
                 "In YT Music, who is the artist of song number {ordinal} in {playlist}?",
                 "Open my {playlist} playlist and tell me who sings its {ordinal} song")

    def answer(self, params: Params, state: State) -> str | None:
        """The artist of the playlist's song at that place, while nothing was changed."""
        found = find_playlist(state, params["playlist"])
        if found is None or not untouched(state) or len(found["songs"]) <= params["place"]:
            return None
        return found["songs"][params["place"]]["artist"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's page; answer with the row's artist."""
        parts = self.row(params, elements)
        return to_playlist(params["playlist"], elements, state) or declare(parts[1] if parts else None)


class PlaylistCountTemplate(_PlaylistAnswer):
    """How many songs are in {playlist}? ("5", "5 songs")."""

    name = "ytmusic_playlist_count"
    phrasings = ('How many songs are in my "{playlist}" playlist?',
                 "Count the songs of the YT Music playlist {playlist}",
                 "What is the number of tracks in my {playlist} playlist on YT Music?")

    def grid(self) -> list[dict[str, Any]]:
        """One variant per playlist and song count (3 to 6 songs)."""
        return [{**p, "songs": p["songs"][:3 + k % 4]} for k, p in enumerate(super().grid())]

    def answer(self, params: Params, state: State) -> str | None:
        """The playlist's song count, while nothing was changed."""
        found = find_playlist(state, params["playlist"])
        return str(len(found["songs"])) if found is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, with or without "songs"."""
        return figure_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's page; count its rows."""
        rows = [e for e in elements if e.rid == music.SONG_RID]
        return to_playlist(params["playlist"], elements, state) or declare(str(len(rows)) if rows else None)


class PlaylistSongLengthTemplate(_PlaylistAnswer):
    """How long is {song} of {playlist}? ("3:05", "3:05 minutes")."""

    name = "ytmusic_song_length"
    phrasings = ('How long is "{song}" in my {playlist} playlist?',
                 "What is the length of the song {song} on my YT Music playlist {playlist}?",
                 'Check my "{playlist}" playlist: how long does {song} last?')

    def answer(self, params: Params, state: State) -> str | None:
        """The song's length in the playlist, while nothing was changed."""
        found = find_playlist(state, params["playlist"])
        song = next((s for s in found["songs"] if s["title"] == params["song"]), None) if found else None
        return song["length"] if song is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The length with or without a unit."""
        return figure_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's page; answer with the song's length."""
        parts = self.row(params, elements)
        return to_playlist(params["playlist"], elements, state) or declare(parts[2] if parts else None)


class AddToPlaylistTemplate(_PlaylistTemplate):
    """Add {new} to the playlist {playlist}: one edit, that song (the catalogue's own recording) added there."""

    name, max_steps = "ytmusic_add_to_playlist", 16
    phrasings = ('Add "{new}" to my "{playlist}" playlist on YT Music', "Put the song {new} in my {playlist} playlist",
                 "Save {new} to the YT Music playlist {playlist}")

    def grid(self) -> list[dict[str, Any]]:
        """Every instance with a catalogue song the playlist lacks."""
        out = []
        for p in super().grid():
            have = {s["title"] for s in p["songs"]}
            new = nth([t for t in CATALOGUE if t not in have], p["phrasing"] * 3)
            out.append({**p, "new": new})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Edits: just the song added to the playlist, which ends with it; nothing liked."""
        m = music_state(state)
        found = find_playlist(state, params["playlist"])
        return (m["edits"] == [{"op": "add", "playlist": params["playlist"], "song": params["new"]}]
                and found is not None and found["songs"][-1]["title"] == params["new"] and not m["liked"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the song, play it, Save to playlist, the playlist."""
        if music_state(state)["edits"]:
            return wait()
        return save_song(params["new"], params["playlist"], elements, state)


class RemoveFromPlaylistTemplate(_PlaylistTemplate):
    """Remove {song} from {playlist}: one edit, that song gone from there (its twin keeps its songs)."""

    name, max_steps = "ytmusic_remove_from_playlist", 10
    phrasings = ('Remove "{song}" from my "{playlist}" playlist', "Take {song} out of the YT Music playlist {playlist}",
                 "I'm tired of {song}: delete it from my {playlist} playlist")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlist and its twin, the twin holding the song too."""
        twin = twin_songs(params["songs"])
        twin[0] = params["songs"][params["place"]]
        return {YTM: {"playlists": [{"name": params["playlist"], "songs": params["songs"]},
                                    {"name": params["twin"], "songs": twin}]}}

    def check(self, params: Params, state: State) -> bool:
        """Edits: just that song removed from the playlist; nothing liked."""
        m = music_state(state)
        return m["edits"] == [{"op": "remove", "playlist": params["playlist"], "song": params["song"]}] and not (
            m["liked"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's page, the song's Remove."""
        if music_state(state)["edits"]:
            return wait()
        step = to_playlist(params["playlist"], elements, state)
        return step or press(elements, desc=f"Remove {params['song']} from {params['playlist']}")


class LikeSongTemplate(WorldTemplate):
    """Like the song {title}: the catalogue's own recording liked ("(Live)" is another song), nothing else."""

    name, max_steps, split_key, apps = "ytmusic_like_song", 14, "title", (YTM,)
    phrasings = ('Like the song "{title}" on YT Music', "Give {title} a thumbs up in YT Music",
                 'Find "{title}" in YT Music and add it to my liked songs')

    def grid(self) -> list[dict[str, Any]]:
        """Every catalogue title twice."""
        return [{"title": t, "phrasing": i + k} for i, t in enumerate(CATALOGUE) for k in range(2)]

    def check(self, params: Params, state: State) -> bool:
        """Liked: exactly the song; no playlist changed."""
        m = music_state(state)
        return m["liked"] == [params["title"]] and not m["edits"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search it, play it, Like."""
        if music_state(state)["liked"]:
            return wait()
        return to_song(params["title"], elements, state) or press(elements, desc="Like")


class CreatePlaylistTemplate(WorldTemplate):
    """Create the playlist {name} holding {first} and {second} (any order), nothing else changed."""

    name, max_steps, split_key, apps = "ytmusic_create_playlist", 33, "name", (YTM,)
    phrasings = ('Create a YT Music playlist called "{name}" with the songs "{first}" and "{second}"',
                 "Make a new playlist {name} in YT Music and put {first} and {second} in it",
                 'I want a playlist named "{name}" containing {first} and {second}')

    def grid(self) -> list[dict[str, Any]]:
        """Every new name with four pairs of catalogue songs."""
        return [{"name": n, "first": nth(CATALOGUE, 3 * i + v), "second": nth(CATALOGUE, 3 * i + v + 7),
                 "phrasing": i + v} for i, n in enumerate(NEW_NAMES) for v in range(4)]

    def songs(self, params: Params) -> list[str]:
        """The titles the playlist must hold."""
        return [params["first"], params["second"]]

    def check(self, params: Params, state: State) -> bool:
        """The new playlist holds exactly the songs; every edit concerns it; nothing liked."""
        m = music_state(state)
        found = find_playlist(state, params["name"])
        return (found is not None and sorted(s["title"] for s in found["songs"]) == sorted(self.songs(params))
                and all(e["playlist"] == params["name"] for e in m["edits"]) and not m["liked"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each song in turn: search, play, Save to playlist (New playlist the first time)."""
        found = find_playlist(state, params["name"])
        have = {s["title"] for s in found["songs"]} if found else set()
        todo = [t for t in self.songs(params) if t not in have]
        return save_song(todo[0], params["name"], elements, state) if todo else wait()


class NoteToPlaylistTemplate(CreatePlaylistTemplate):
    """Make the playlist {name} of the three songs the Markor note {note} lists; Markor unchanged."""

    name, max_steps = "ytmusic_note_to_playlist", 54
    apps = (MARKOR, YTM)
    phrasings = ('Make a YT Music playlist called "{name}" with the songs listed in my Markor note {note}',
                 "Read the songs in the note {note} (Markor) and put them in a new YT Music playlist named {name}",
                 'Create the playlist "{name}" in YT Music from the song list in Markor\'s {note}')

    def grid(self) -> list[dict[str, Any]]:
        """Every new name with four song lists and a note."""
        out = []
        for i, p in enumerate(super().grid()):
            rest = [t for t in CATALOGUE if t not in (p["first"], p["second"])]
            out.append({**p, "third": nth(rest, 5 * i + 2), "note": nth(NOTES, i)})
        return out

    def songs(self, params: Params) -> list[str]:
        """The titles the note lists."""
        return [params["first"], params["second"], params["third"]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note listing the songs (and the artist nothing asks for)."""
        lines = "\n".join(f"- {t}" for t in self.songs(params))
        return {MARKOR: {"files": {params["note"]: f"Songs for the new playlist:\n{lines}\n"}}}

    def goal(self, params: Params) -> str:
        """The instruction, naming the note but not its songs."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(name=params["name"],
                                                                                note=params["note"])

    def check(self, params: Params, state: State) -> bool:
        """As creating the playlist; no Markor note changed."""
        return super().check(params, state) and not state_of(state, markor.MarkorState)["edits"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note (read the songs), then create the playlist song by song."""
        opened = state_of(state, markor.MarkorState)["last_opened"]
        if opened != params["note"]:
            return markor_item(params["note"], elements, state)
        return super().expert(params, elements, state)


class SongFromTextTemplate(AddToPlaylistTemplate):
    """Add the song {person} recommended by SMS to {playlist}; {other} (their namesake) recommended another one."""

    name, max_steps = "ytmusic_song_from_text", 22
    apps = (M.PACKAGE, YTM)
    phrasings = ('Add the song {person} recommended in Messages to my "{playlist}" playlist',
                 "{person} texted me a song: put it in my YT Music playlist {playlist}",
                 "Check what song {person} suggested by SMS and save it to {playlist} in YT Music")

    def grid(self) -> list[dict[str, Any]]:
        """Every add-to-playlist instance with a person, their namesake and the namesake's song."""
        out = []
        for p in super().grid():
            who = names(f"ytmusic:{p['playlist']}:{p['phrasing']}", 1)[0]
            rest = [t for t in CATALOGUE if t != p["new"] and t not in {s["title"] for s in p["songs"]}]
            out.append({**p, "person": who, "other": namesake(who), "other_song": nth(rest, p["phrasing"])})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlists; an unread text from each person recommending a song."""
        p, o = person(params["person"]), person(params["other"])
        threads = [conversation(p, (f'You have to hear "{params["new"]}", it fits your {params["playlist"]} '
                                    "playlist!",), True),
                   conversation(o, (f'Have you heard "{params["other_song"]}"? Great for {params["playlist"]}',),
                                True)]
        contacts = [{"name": x["name"], "number": x["number"]} for x in (p, o)]
        return {**super().initial(params), M.PACKAGE: {"threads": threads, "contacts": contacts}}

    def check(self, params: Params, state: State) -> bool:
        """As adding the song; no text sent."""
        return super().check(params, state) and not state_of(state, M.MessagesState)["sent"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the person's conversation (read the song), then add it."""
        return read_unread_thread(person(params["person"]), elements, state) or super().expert(params, elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    PlaylistArtistTemplate(), PlaylistCountTemplate(), PlaylistSongLengthTemplate(), AddToPlaylistTemplate(),
    RemoveFromPlaylistTemplate(), LikeSongTemplate(), CreatePlaylistTemplate(), NoteToPlaylistTemplate(),
    SongFromTextTemplate(),
)
"""The YT Music templates of the World suite."""
