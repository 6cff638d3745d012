"""AndroidWorld's VLC tasks `VlcCreatePlaylist`, `VlcCreateTwoPlaylists` and `MarkorTranscribeVideo` (watch a video
in VLC, write what its frames show into a Markor note), with video names drawn as AndroidWorld draws them.

AndroidWorld names a video from a kind of clip, a number from 1 to 99 and a quality tag that may be empty
("scene_12_HD.mp4", "clip_7_.mp4"), then adds one affix (`markor.modified_name`: a date rebased onto the sim's
calendar, four random letters or digits, or a fixed word). Its playlist names are a theme and a qualifier
("Road Trips Favorites"). The word lists here are ours, of the same kinds and sizes.

- `VlcCreatePlaylist`: 2-5 files and as many noise files in VLCVideos, each showing ten random letters or digits for
  20-180 seconds; AndroidWorld clears the storage and VLC's playlists first (here: VLC's library and playlists, with
  `clear`; the files are put in Files too). AndroidWorld passes when the playlist rows whose name fuzzy-matches the
  title are exactly the files at positions 0, 1, ...: here exactly one playlist's name fuzzy-matches the title, that
  one is the title (case aside), and it holds exactly the VLCVideos files in order. A second playlist of a similar
  name, a noise file, a file missing or out of order loses, as there.
- `VlcCreateTwoPlaylists`: two such instances (the second's title redrawn while it fuzzy-matches the first's, for
  which AndroidWorld's check fails whatever is done); both playlists must be right (AndroidWorld averages the two,
  here it is all or nothing).
- `MarkorTranscribeVideo`: a video in Download showing 2-4 first names, 8 seconds each, among 5-20 noise videos; the
  note {file_name} at Markor's root must hold the names in order, comma-separated: the check asks both that the
  comma-separated parts are the names (case and spaces around commas aside) and AndroidWorld's fuzzy match of the
  whole text against the names joined by commas, and that no other note was touched.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files as F
from android_gym.sim.apps import markor
from android_gym.sim.apps.people import FIRST_NAMES
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, fuzzy_match, pick
from android_gym.tasks.androidworld.markor import modified_name, random_string
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.notes_expert import only_touched
from android_gym.tasks.world.vlc_expert import VLC, add_to_playlist, video, vlc_state
from android_gym.tasks.world.vlc_tasks import TranscribeToNoteTemplate, written

FOLDER = "VLCVideos"
"""Where AndroidWorld puts the playlist tasks' videos (Internal Memory/VLCVideos)."""
KINDS = ("clip", "take", "shot", "vlog", "reel", "montage", "sequence")
"""What a video is (AndroidWorld draws from seven such words)."""
TAGS = ("", "SD", "1080p", "cut", "final")
"""A video's quality tag, possibly none (AndroidWorld has five, one of them empty)."""
THEMES = ("Beach Days", "Board Games", "Camping Trips", "City Walks", "Cooking Basics", "Dance Moves",
          "Garden Projects", "Holiday Memories", "Home Repairs", "Language Lessons", "Mountain Hikes", "Movie Nights",
          "Pet Antics", "Science Experiments", "Street Food", "Winter Sports")
QUALIFIERS = ("Collection", "Highlights", "Mix", "Picks", "Reel", "Best Of", "Top Clips")
GOAL_ONE = ('Create a playlist titled "{playlist_name}" with the following files in VLC (located in Internal '
            "Memory/VLCVideos), in order: {files}")


def file_name(rng: random.Random) -> str:
    """A video's name as AndroidWorld draws one: kind, number and tag, then one affix.

    >>> file_name(random.Random(2)).endswith(".mp4")
    True
    """
    return modified_name(rng, f"{pick(rng, KINDS)}_{rng.randint(1, 99)}_{pick(rng, TAGS)}.mp4")


def playlist_name(rng: random.Random) -> str:
    """A playlist title: a theme and a qualifier ("Street Food Picks")."""
    return f"{pick(rng, THEMES)} {pick(rng, QUALIFIERS)}"


def one_playlist(rng: random.Random) -> dict[str, Any]:
    """One playlist instance: a title, 2-5 files and as many noise files."""
    name, count = playlist_name(rng), rng.randint(2, 5)
    return {"playlist_name": name, "files": [file_name(rng) for _ in range(count)],
            "noise_files": [file_name(rng) for _ in range(count)]}


def noise_video(path: str, key: str) -> dict[str, Any]:
    """A video showing ten random letters or digits for 20-180 seconds (fixed by `path` and the instance's `key`)."""
    rng = random.Random(stable_seed("androidworld", "vlc", key, path))
    return video(path, random_string(rng, 10), seconds=rng.randint(20, 180))


def storage(paths: list[str], key: str, vlc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Initial conditions putting videos at `paths` (each a noise video unless `vlc` has it) in VLC and in Files."""
    given = {v["path"] for v in vlc.get("videos", [])}
    videos = [*vlc.get("videos", []), *(noise_video(p, key) for p in dict.fromkeys(paths) if p not in given)]
    files = [{"path": p, "size_kb": 200 + stable_seed(key, p) % 5000} for p in dict.fromkeys(paths)]
    return {VLC: {**vlc, "videos": videos}, F.PACKAGE: {"files": files}}


def playlist_ok(state: State, name: str, files: list[str]) -> bool:
    """Whether exactly one playlist's name fuzzy-matches `name`, is `name` (case aside) and holds the VLCVideos
    `files` in order."""  # noqa: D205, D209
    similar = [pl for pl in vlc_state(state)["playlists"] if fuzzy_match(pl["name"], name)]
    return (len(similar) == 1 and similar[0]["name"].casefold() == name.casefold()
            and similar[0]["videos"] == [f"{FOLDER}/{f}" for f in files])


def build_playlist(name: str, files: list[str], elements: Elements, state: State) -> Action | None:
    """The next step to add the VLCVideos `files` in order to playlist `name` (None once it holds them)."""
    found = [pl for pl in vlc_state(state)["playlists"] if pl["name"] == name]
    have, want = (found[0]["videos"] if found else []), [f"{FOLDER}/{f}" for f in files]
    if have == want:
        return None
    if have != want[:len(have)]:
        return wait()
    return add_to_playlist(want[len(have)], name, elements, state)


class VlcCreatePlaylist(AndroidWorldTemplate):
    """Create playlist {playlist_name} of {files} in order, among as many noise files in VLCVideos."""

    name, split_key = "VlcCreatePlaylist", "playlist_name"
    goal_template = GOAL_ONE
    apps = (VLC,)
    max_steps = 30  # the expert takes 11 to 20 steps (3-4 a file, scrolling a list of up to 10)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A title, 2-5 files and as many noise files."""
        return one_playlist(rng)

    def goal(self, params: Params) -> str:
        """AndroidWorld's goal, the files listed with commas."""
        return self.goal_template.format(playlist_name=params["playlist_name"], files=", ".join(params["files"]))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the files and noise files in VLCVideos; no playlist."""
        paths = [f"{FOLDER}/{f}" for f in (*params["files"], *params["noise_files"])]
        return storage(paths, params["playlist_name"], {"clear": True})

    def check(self, params: Params, state: State) -> bool:
        """One playlist of that title (fuzzy-matched, then case aside) holding exactly the files in order."""
        return playlist_ok(state, params["playlist_name"], params["files"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add each file in turn (the first creates the playlist)."""
        return build_playlist(params["playlist_name"], params["files"], elements, state) or wait()


class VlcCreateTwoPlaylists(AndroidWorldTemplate):
    """Create playlists {playlist_name1} of {files1} and {playlist_name2} of {files2}, both in order."""

    name, split_key = "VlcCreateTwoPlaylists", "playlist_name1"
    goal_template = (GOAL_ONE.replace("{playlist_name}", "{playlist_name1}").replace("{files}", "{files1}")
                     + '. And then, create a playlist titled "{playlist_name2}" with the following files in VLC, in '
                       "order: {files2}.")
    apps = (VLC,)
    max_steps = 60  # the expert takes 19 to 46 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Two playlist instances whose titles do not fuzzy-match."""
        first = one_playlist(rng)
        second = one_playlist(rng)
        while fuzzy_match(first["playlist_name"], second["playlist_name"]):
            second = one_playlist(rng)
        return {f"{k}{n}": v for n, p in ((1, first), (2, second)) for k, v in p.items()}

    def goal(self, params: Params) -> str:
        """AndroidWorld's goal, the files listed with commas."""
        return self.goal_template.format(playlist_name1=params["playlist_name1"], files1=", ".join(params["files1"]),
                                         playlist_name2=params["playlist_name2"], files2=", ".join(params["files2"]))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both instances' files and noise files in VLCVideos; no playlist."""
        names = [*params["files1"], *params["noise_files1"], *params["files2"], *params["noise_files2"]]
        return storage([f"{FOLDER}/{f}" for f in names], params["playlist_name1"], {"clear": True})

    def check(self, params: Params, state: State) -> bool:
        """Both playlists right (see `VlcCreatePlaylist.check`)."""
        return (playlist_ok(state, params["playlist_name1"], params["files1"])
                and playlist_ok(state, params["playlist_name2"], params["files2"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The first playlist, then the second."""
        return (build_playlist(params["playlist_name1"], params["files1"], elements, state)
                or build_playlist(params["playlist_name2"], params["files2"], elements, state) or wait())


class MarkorTranscribeVideo(AndroidWorldTemplate):
    """Write the names video {video_name} (in Download) shows into note {file_name}, comma-separated."""

    name, split_key = "MarkorTranscribeVideo", "video_name"
    goal_template = (
        "Transcribe the contents of video {video_name} by watching it in VLC player (located in Download) and writing"
        " the sequence of strings shown on each frame to the text file {file_name} in Markor as a comma separated "
        'list. For example, if the first frame shows the text "edna" and the second frame shows the text "pineapple"'
        ', then the text file should contain only the following text: "edna, pineapple".')
    like = TranscribeToNoteTemplate()
    max_steps = 28  # the expert takes 13 to 17 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """2-4 first names, a video name, its note "<stem>_transcription.txt", 5-20 noise video names."""
        messages = rng.sample(FIRST_NAMES, rng.randint(2, 4))
        video_name = file_name(rng)
        return {"file_name": f"{video_name.split('.')[0]}_transcription.txt", "text": ",".join(messages),
                "messages": messages, "video_name": video_name,
                "noise_files": [file_name(rng) for _ in range(rng.randint(5, 20))]}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The video in Download, its names, the note (what `like`'s expert reads)."""
        return {"path": f"Download/{params['video_name']}", "texts": params["messages"], "note": params["file_name"]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The video (8 seconds a name) and the noise videos in Download; no such note."""
        path = f"Download/{params['video_name']}"
        vlc = {"videos": [video(path, *params["messages"])]}
        noise = [f"Download/{f}" for f in params["noise_files"]]
        return {**storage([path, *noise], params["video_name"], vlc), markor.PACKAGE: {"absent": [params["file_name"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note holds the names in order, comma-separated, and fuzzy-matches them joined by commas; no other note
        touched."""  # noqa: D205, D209
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["file_name"])
        return (written(text, params["messages"]) and fuzzy_match(str(text).strip(), params["text"])
                and only_touched(m["edits"], {params["file_name"]}))


TEMPLATES = (VlcCreatePlaylist(), VlcCreateTwoPlaylists(), MarkorTranscribeVideo())
