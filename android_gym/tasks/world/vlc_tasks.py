"""World-suite tasks over VLC: answer a video's length, what a video shows (play it and read the frame), how many
videos a playlist holds; create a playlist of videos in order, rename a playlist; and watch a video to write what
its frames show into a Markor note (the shape of AndroidWorld's `MarkorTranscribeVideo`). The expert steps are in
`vlc_expert`.

Every task puts its videos in the library under fixed names (`initial`), each next to a twin of a similar name with
another length, text or count (the near miss); the seeded videos and playlists stay. Checks read VLC's state and its
edit log, so touching another playlist fails; answers are read from the state while nothing was edited. Splits hold
out video names (`split_of`).
"""  # noqa: D205

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import vlc as V
from android_gym.sim.apps.people import FIRST_NAMES
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, home, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth
from android_gym.tasks.world.notes_expert import markor_create, markor_write, only_touched
from android_gym.tasks.world.vlc_expert import (
    VLC,
    add_to_playlist,
    play,
    playlist_named,
    rename_playlist,
    to_tab,
    untouched,
    video,
    vlc_state,
    watch,
)

TWINS = (("beach_day", "beach_night"), ("lecture_week3", "lecture_week4"), ("dog_park", "dog_show"),
         ("kids_recital", "kids_rehearsal"), ("garden_tour", "garden_timelapse"), ("wedding_toast", "wedding_dance"),
         ("ski_trip", "ski_lesson"), ("bike_repair", "bike_race"), ("cooking_pasta", "cooking_bread"),
         ("concert_opening", "concert_encore"), ("drone_lake", "drone_coast"), ("yoga_morning", "yoga_evening"),
         ("museum_visit", "museum_shop"), ("puppy_first_day", "puppy_first_walk"), ("soccer_final", "soccer_semi"),
         ("city_walk", "city_night"), ("camping_fire", "camping_tent"), ("birthday_cake", "birthday_games"),
         ("robot_demo", "robot_build"), ("sunset_pier", "sunset_hill"))
"""Task videos' stems, each with a twin (the near miss); none is a seeded video's."""
TEXTS = ("Welcome aboard", "Gate 14", "Happy birthday", "Chapter two", "Low tide", "Day one", "Final lap",
         "Recipe card", "Snow day", "Opening night", "Blue team", "Trail head", "Room 204", "Meet at noon")
"""What task videos show (a frame's text)."""
PLAYLISTS = (("Beach days", "Beach nights"), ("Study set", "Study break"), ("Dog videos", "Dog shows"),
             ("Recital clips", "Recital extras"), ("Garden log", "Garden ideas"), ("Wedding reel", "Wedding extras"),
             ("Ski season", "Ski school"), ("Bike fixes", "Bike races"), ("Kitchen", "Kitchen fails"),
             ("Concert night", "Concert day"))
"""Task playlist names, each with a twin; none is a seeded playlist's."""
NEW_NAMES = ("Best of 2026", "Keepers", "Summer", "Show the kids", "Rewatch", "Archive", "For Grandma", "Top picks")


def playlist_grid() -> list[dict[str, Any]]:
    """Every task playlist four times: its twin, their counts of videos (1-6, never equal), a phrasing."""
    return [{"playlist": p, "twin_playlist": t, "count": 1 + (i + 2 * k) % 6, "twin_count": 1 + (i + 2 * k + 3) % 6,
             "phrasing": i + k} for i, (p, t) in enumerate(PLAYLISTS) for k in range(4)]


def twin_grid(variants: int = 2) -> list[dict[str, Any]]:
    """Every twin pair `variants` times: the videos' paths and names, lengths (s), texts, a phrasing."""
    out = []
    for i, (n, t) in enumerate(TWINS):
        for k in range(variants):
            j = i * variants + k
            length, twin_length = 60 + (37 * j) % 500, 60 + (53 * j + 29) % 500
            out.append({"name": f"{n}.mp4", "twin": f"{t}.mp4", "path": f"Movies/{n}.mp4",
                        "twin_path": f"Movies/{t}.mp4", "length": length,
                        "twin_length": twin_length + (1 if twin_length == length else 0), "text": nth(TEXTS, j),
                        "twin_text": nth(TEXTS, j + 5), "lead": 2 + j % 4, "phrasing": j})
    return out


def pair(params: Params) -> dict[str, Any]:
    """The task video and its twin as VLC's initial data: one text each, after a lead without text."""
    return {"videos": [video(params["path"], params["text"], seconds=params["length"] - params["lead"],
                             lead_s=params["lead"]),
                       video(params["twin_path"], params["twin_text"], seconds=params["twin_length"] - 1,
                             lead_s=1)]}


class VideoLengthTemplate(WorldTemplate):
    """How long is the video {name}? Answered with the length VLC shows ("m:ss")."""

    name, max_steps, split_key = "vlc_video_length", 10, "name"
    outcome, apps = "answer", (VLC,)
    phrasings = ("How long is the video {name} in VLC?", "What is the duration of my video {name}?",
                 "Check in VLC how long {name} lasts")

    def grid(self) -> list[dict[str, Any]]:
        """Every video twice."""
        return twin_grid()

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The video and its twin (of another length)."""
        return {VLC: pair(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The video's length as VLC writes it, while no playlist was edited."""
        v = next((v for v in vlc_state(state)["videos"] if v["path"] == params["path"]), None)
        return V.clock(v["duration_s"]) if v is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Play the video and answer with the length the player shows."""
        return play(params["path"], elements, state) or answer_with(find(elements, rid=V.LENGTH_RID))


class FrameTextTemplate(WorldTemplate):
    """What does the video {name} show? Play it and answer with its frame's text (after a few blank seconds)."""

    name, max_steps, split_key = "vlc_frame_text", 14, "name"
    outcome, apps = "answer", (VLC,)
    phrasings = ("Play {name} in VLC and tell me what text it shows", "What does the video {name} say on screen?",
                 "Watch my video {name} and report the words it shows")

    def grid(self) -> list[dict[str, Any]]:
        """Every video twice."""
        return twin_grid()

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The video and its twin (showing another text)."""
        return {VLC: pair(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The text of the video's frames, while no playlist was edited."""
        v = next((v for v in vlc_state(state)["videos"] if v["path"] == params["path"]), None)
        texts = [f["text"] for f in v["frames"] if f["text"]] if v is not None else []
        return texts[0] if len(texts) == 1 and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Play the video, wait out the blank lead, answer with the frame's text."""
        step = play(params["path"], elements, state)
        if step is not None:
            return step
        return answer_with(find(elements, rid=V.FRAME_RID)) if vlc_state(state)["playing"]["text"] else wait()


class PlaylistCountTemplate(WorldTemplate):
    """How many videos are in the playlist {playlist}? Its twin {twin_playlist} holds another number."""

    name, max_steps, split_key = "vlc_playlist_count", 10, "playlist"
    outcome, apps = "answer", (VLC,)
    phrasings = ('How many videos are in my VLC playlist "{playlist}"?', "Count the videos in the playlist {playlist}",
                 "In VLC, how many videos does {playlist} have?")

    def grid(self) -> list[dict[str, Any]]:
        """Every playlist four times, with 1-6 videos and its twin another count."""
        return playlist_grid()

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The task videos, and both playlists of them."""
        return {VLC: playlist_pair(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The playlist's number of videos, while no playlist was edited."""
        found = playlist_named(state, params["playlist"])
        return str(len(found[0]["videos"])) if len(found) == 1 and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The Playlists tab: answer with the number its row shows."""
        step = to_tab("playlists", elements, state)
        if step is not None:
            return step
        row = [e.text for e in elements if e.rid in (V.TITLE_RID, V.TIME_RID)]
        if params["playlist"] not in row[:-1]:
            return wait()
        return Action(ActionType.STATUS_TASK_COMPLETE, text=row[row.index(params["playlist"]) + 1].split()[0])


def playlist_pair(params: Params) -> dict[str, Any]:
    """The task videos, the playlist of {count} of them and its twin of {twin_count} (VLC's initial data)."""
    paths = [f"Movies/{n}.mp4" for pair_ in TWINS[:6] for n in pair_]
    start = params["phrasing"] % 5
    return {"videos": [video(p, nth(TEXTS, k), seconds=30 + k) for k, p in enumerate(paths)],
            "playlists": [{"name": params["playlist"], "videos": paths[start:start + params["count"]]},
                          {"name": params["twin_playlist"],
                           "videos": paths[start + 1:start + 1 + params["twin_count"]]}]}


class RenamePlaylistTemplate(WorldTemplate):
    """Rename the playlist {playlist} to {new}; its twin {twin_playlist} keeps its name."""

    name, max_steps, split_key = "vlc_rename_playlist", 16, "playlist"
    outcome, apps = "state", (VLC,)
    phrasings = ('Rename my VLC playlist "{playlist}" to "{new}"', "In VLC, change the playlist {playlist}'s name to "
                 "{new}", "Give the playlist {playlist} the new name {new}")

    def grid(self) -> list[dict[str, Any]]:
        """Every playlist four times, with new names rotating."""
        return [{**p, "new": nth(NEW_NAMES, p["phrasing"] + 3 * k)} for k, p in enumerate(playlist_grid())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlist and its twin; none called {new}."""
        return {VLC: {**playlist_pair(params), "absent": [params["new"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that rename; the playlist keeps its videos."""
        before = playlist_pair(params)["playlists"][0]["videos"]
        found = playlist_named(state, params["new"])
        return (vlc_state(state)["edits"] == [{"op": "rename", "playlist": params["playlist"], "to": params["new"]}]
                and len(found) == 1 and found[0]["videos"] == before)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Playlists, the playlist, More options, Rename, Clear text, the new name, OK."""
        if playlist_named(state, params["new"]):
            return wait()
        return rename_playlist(params["playlist"], params["new"], elements, state)


class CreatePlaylistTemplate(WorldTemplate):
    """Create the playlist {playlist} of {videos}, in this order; their twins are in the library too."""

    name, max_steps, split_key = "vlc_create_playlist", 22, "name"
    apps = (VLC,)
    phrasings = ('Create a playlist "{playlist}" in VLC with {listed}, in that order',
                 "Make a new VLC playlist called {playlist} holding {listed} (in this order)",
                 "In VLC, put {listed} into a new playlist named {playlist}, keeping that order")

    def grid(self) -> list[dict[str, Any]]:
        """Every video with the next one or two (and their twins), and a playlist name."""
        out = []
        for p in twin_grid():
            i = [n for n, _ in TWINS].index(p["name"][:-4])
            more = [TWINS[(i + d) % len(TWINS)] for d in range(1, 2 + p["phrasing"] % 2)]
            videos = [p["name"], *(f"{n}.mp4" for n, _ in more)]
            twins = [p["twin"], *(f"{t}.mp4" for _, t in more)]
            out.append({**p, "videos": videos, "twins": twins, "listed": ", ".join(videos),
                        "playlist": nth(PLAYLISTS, p["phrasing"])[p["phrasing"] % 2]})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The videos and their twins; no playlist of that name."""
        return {VLC: {"absent": [params["playlist"]], "videos": [
            video(f"Movies/{n}", nth(TEXTS, k), seconds=40 + 7 * k)
            for k, n in enumerate([*params["videos"], *params["twins"]])]}}

    def check(self, params: Params, state: State) -> bool:
        """One playlist of that name holding exactly those videos in order; no other playlist edited."""
        found = playlist_named(state, params["playlist"])
        edits = vlc_state(state)["edits"]
        return (len(found) == 1 and found[0]["videos"] == [f"Movies/{n}" for n in params["videos"]]
                and all(e["playlist"] == params["playlist"] and e["op"] in ("create", "add") for e in edits))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add each video in turn (the first creates the playlist)."""
        found = playlist_named(state, params["playlist"])
        have = found[0]["videos"] if found else []
        want = [f"Movies/{n}" for n in params["videos"]]
        if have == want or have != want[:len(have)]:
            return wait()
        return add_to_playlist(want[len(have)], params["playlist"], elements, state)


class TranscribeToNoteTemplate(WorldTemplate):
    """Watch {name} (in Download) and write the texts its frames show, comma-separated, in a new Markor note {note}."""

    name, max_steps, split_key = "vlc_transcribe_to_note", 24, "name"
    apps = (VLC, markor.PACKAGE)
    phrasings = ("Watch {name} in VLC and write the words shown on each frame, in order and separated by commas, "
                 "into a new Markor note {note}",
                 "Transcribe the texts that the video {name} shows into the Markor file {note} as a comma separated "
                 "list",
                 "Play {name} in VLC and note every text it shows, comma-separated and in order, in Markor as {note}")

    def grid(self) -> list[dict[str, Any]]:
        """Every video twice, showing 2-4 first names 8 seconds each."""
        out = []
        for p in twin_grid():
            j = p["phrasing"]
            texts = [nth(FIRST_NAMES, 7 * j + 3 * k) for k in range(2 + j % 3)]
            out.append({**p, "path": f"Download/{p['name']}", "texts": texts,
                        "note": f"{p['name'][:-4]}_transcription.txt"})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The video (and its twin, showing the names reversed) in Download; no such note."""
        return {VLC: {"videos": [video(params["path"], *params["texts"]),
                                 video(f"Download/{params['twin']}", *reversed(params["texts"]))]},
                markor.PACKAGE: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note holds the texts in order, comma-separated (case and spaces around commas aside); no other note
        touched."""  # noqa: D205, D209
        m = state_of(state, markor.MarkorState)
        return (written(m["files"].get(params["note"]), params["texts"])
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Watch the video to its last text, then create the note and write the texts."""
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], ", ".join(params["texts"]), elements, state)
        v = vlc_state(state)
        watching = v["playing"] is not None and v["playing"]["path"] == params["path"]
        if params["path"] not in v["watched"] or watching:
            step = watch(params["path"], params["texts"], elements, state)
            if step is not None:
                return step
            return home()
        return markor_create("", params["note"], "Markdown", elements, state)


def written(text: str | None, texts: list[str]) -> bool:
    """Whether a note's `text` is `texts` as a comma-separated list (case and spaces around the commas aside).

    >>> written("Edna, pineapple", ["edna", "Pineapple"]), written("Edna pineapple", ["Edna", "pineapple"])
    (True, False)
    """
    return text is not None and [t.strip().casefold() for t in text.split(",")] == [t.casefold() for t in texts]


TEMPLATES: tuple[TaskTemplate, ...] = (
    VideoLengthTemplate(), FrameTextTemplate(), PlaylistCountTemplate(), CreatePlaylistTemplate(),
    RenamePlaylistTemplate(), TranscribeToNoteTemplate(),
)
"""The VLC templates of the World suite."""
