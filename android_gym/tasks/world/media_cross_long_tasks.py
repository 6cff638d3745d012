"""Long World-suite tasks on YouTube, the Play Store and YT Music (issue 48, item 3): several items at once, or
figures read off several screens and carried into Markor. Install two apps and wishlist a third; update two apps and
uninstall a third; note three apps' ratings; save four videos to Watch later and like one; note two videos' lengths;
make a playlist of four songs in order; swap songs in a playlist; make a playlist of the songs a friend texted.

Each check is as strict as a single-item one: every item done, nothing extra (the twin app, playlist or recording
beside each is the near miss), and a note line pairs each name with its own figure only. The experts chain the steps
of the single-item templates (`media_apps_expert`). Splits hold out the first app, topic or playlist name.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor, playstore, youtube
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, wait
from android_gym.tasks.world import playstore_tasks as pt
from android_gym.tasks.world import youtube_tasks as yt
from android_gym.tasks.world import ytmusic_tasks as mt
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.media_apps_expert import (
    STORE,
    YT,
    YTM,
    music_state,
    save_song,
    store_state,
    store_twin,
    to_listing,
    to_playlist,
    to_video,
    yt_state,
)
from android_gym.tasks.world.messaging_expert import (
    conversation,
    holds,
    names,
    namesake,
    person,
    read_unread_thread,
)
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_write, only_touched

APPS = pt.APPS
NOTES = ("app_ratings.md", "shortlist.md", "video_lengths.md", "watch_plan.md", "compare.md", "research.md")


def figures(text: str) -> list[str]:
    """The figures ("4.6", "38:58", "10") of `text`, in order.

    >>> figures("Blue Notes: 4.6 stars. Clip (10 min) 38:58.")
    ['4.6', '10', '38:58']
    """
    return [t.rstrip(".:") for t in re.findall(r"\d[\d.:]*", text)]


def line_says(text: str, name: str, value: str) -> bool:
    r"""Whether a line of `text` names `name` and, besides the name's own figures, says just `value`.

    A rating's "/5" or "out of 5" is no figure of its own.

    >>> line_says("Blue Notes: 4.6 stars\nRed Notes 4.1", "Blue Notes", "4.6"), line_says("Blue Notes 4.6/5",
    ...           "Blue Notes", "4.6")
    (True, True)
    >>> line_says("Blue Notes: 4.1", "Blue Notes", "4.6"), line_says("Blue Notes 4.6 or 4.1", "Blue Notes", "4.6")
    (False, False)
    """
    own = figures(name)
    for line in text.splitlines():
        if holds(line, name):
            said = figures(re.sub(r"(/| out of )5\b", " ", line))
            for f in own:
                if f in said:
                    said.remove(f)
            if said == [value]:
                return True
    return False


def note_text(state: State, note: str) -> str | None:
    """The text of Markor note `note`, None when it does not exist."""
    return state_of(state, markor.MarkorState)["files"].get(note)


# -- Play Store ------------------------------------------------------------------------------------------------------
def listing(app: str, elements: Elements, state: State) -> Action | None:
    """The next step to `app`'s store listing (None once there). An older search's words are left in the search box:
    going back to the store's home for a fresh one is quicker than deleting them."""  # noqa: D205, D209
    if state["foreground"] == STORE and state["screen"]["name"] == "search":
        typed = state["screen"]["fields"].get(playstore.SEARCH_RID, "")
        if not app.startswith(typed):
            return back()
    return to_listing(app, elements, state)


class _ThreeApps(WorldTemplate):
    """A task about the catalogue apps {first}, {second} and {third} (each with its twin); split on the first."""

    split_key, apps = "first", (STORE,)

    def grid(self) -> list[dict[str, Any]]:
        """Every task app first, two others far from it in the catalogue after it."""
        return [{"first": a, "second": nth(APPS, i + 27), "third": nth(APPS, i + 53), "phrasing": i}
                for i, a in enumerate(APPS)]

    def items(self, params: Params) -> list[str]:
        """The three apps."""
        return [params["first"], params["second"], params["third"]]


class InstallTwoWishlistOneTemplate(_ThreeApps):
    """Install {first} and {second}, wishlist {third}: exactly those installed and wished for."""

    name, max_steps = "playstore_install_two_wishlist_one", 38
    phrasings = ("Install {first} and {second} from the Play Store, and add {third} to my wishlist",
                 "Get {first} and {second} on my phone; {third} just goes on the Play Store wishlist for now",
                 "From Google Play: install {second} and {first}, and wishlist {third} (don't install it)")

    def check(self, params: Params, state: State) -> bool:
        """Installed: the two apps (installs done); wishlist: the third alone; nothing updated."""
        s = store_state(state)
        return (s["installed"] == sorted([params["first"], params["second"]]) and not s["installing"]
                and s["wishlist"] == [params["third"]] and not s["updated"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each app's listing in turn: Install, Install, Add to wishlist; then wait for the installs."""
        s = store_state(state)
        for app in (params["first"], params["second"]):
            if app not in s["installed"] + s["installing"]:
                return listing(app, elements, state) or press(elements, desc=f"Install {app}")
        if not s["wishlist"]:
            return listing(params["third"], elements, state) or press(elements, desc="Add to wishlist")
        return wait()


class UpdateTwoUninstallOneTemplate(_ThreeApps):
    """Update {first} and {second}, uninstall {third}; the twin of {first} keeps its pending update."""

    name, max_steps = "playstore_update_two_uninstall_one", 40
    phrasings = ("Update {first} and {second} in the Play Store, and uninstall {third}",
                 "Uninstall {third}, then install the pending updates of {first} and {second} (only those two)",
                 "Play Store chores: update just {second} and {first}, and remove {third} from my phone")

    def grid(self) -> list[dict[str, Any]]:
        """Every three apps with the first's twin (installed, an update pending)."""
        return [{**p, "twin": store_twin(p["first"])} for p in super().grid()
                if store_twin(p["first"]) not in (p["second"], p["third"])]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The three apps and the twin installed; updates for the first two and the twin."""
        return {STORE: {"installed": [*self.items(params), params["twin"]],
                        "updates": [params["first"], params["second"], params["twin"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Updated: the two; the twin's update still pending; the third gone, the rest installed; no wishlist."""
        s = store_state(state)
        return (s["updated"] == sorted([params["first"], params["second"]]) and s["updates"] == [params["twin"]]
                and s["installed"] == sorted([params["first"], params["second"], params["twin"]])
                and not s["updating"] and not s["installing"] and not s["wishlist"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Update each app from its listing, then uninstall the third (confirming), then wait for the updates."""
        s = store_state(state)
        for app in (params["first"], params["second"]):
            if app in s["updates"] and app not in s["updating"]:
                return listing(app, elements, state) or press(elements, desc=f"Update {app}")
        if params["third"] in s["installed"]:
            if state["foreground"] == STORE and state["screen"]["name"] == "uninstall":
                return press(elements, text="Uninstall", clickable=True)
            return listing(params["third"], elements, state) or press(elements,
                                                                         desc=f"Uninstall {params['third']}")
        return wait()


class RatingsToNoteTemplate(_ThreeApps):
    """Note the Play Store ratings of {first}, {second} and {third} in the new Markor note {note}, a line each."""

    name, max_steps = "playstore_ratings_to_note", 45
    apps = (STORE, MARKOR)
    phrasings = ('Look up the Play Store ratings of {first}, {second} and {third} and write them in a new Markor '
                 'note "{note}", one app per line',
                 "Make a Markor note {note} listing each app with its Google Play rating: {first}, {second}, {third}",
                 "Compare {first}, {second} and {third}: put each one's star rating in a new note {note} in Markor")

    def grid(self) -> list[dict[str, Any]]:
        """Every three apps with a note name."""
        return [{**p, "note": nth(NOTES, p["phrasing"])} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No note of that name."""
        return {MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params) -> str:
        """The note the expert writes: a line per app with its rating."""
        return "\n".join(f"{a}: {playstore.app_info(a)['rating']}" for a in self.items(params))

    def check(self, params: Params, state: State) -> bool:
        """The note pairs each app with its own rating; no other note touched; the store unchanged."""
        text = note_text(state, params["note"])
        return (text is not None and all(line_says(text, a, playstore.app_info(a)["rating"])
                                         for a in self.items(params))
                and only_touched(state_of(state, markor.MarkorState)["edits"], {params["note"]})
                and pt.untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each app's listing (reading its rating once shown), then create the note and type the lines."""
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], self.text(params), elements, state)
        viewed = store_state(state)["viewed"]
        if state["foreground"] == STORE and state["screen"]["name"] == "details" and not pt.stats(elements):
            return wait()  # the listing still loads: its rating is read once it shows
        for app in self.items(params):
            if app not in viewed:
                return listing(app, elements, state) or wait()
        return markor_create("", params["note"], "Markdown", elements, state)


# -- YouTube ---------------------------------------------------------------------------------------------------------
class SaveFourLikeOneTemplate(WorldTemplate):
    """Save {first}, {second}, {third} and {fourth} (results of {topic}) to Watch later and like {second}; nothing
    else."""  # noqa: D205, D209

    name, max_steps, split_key, apps = "youtube_save_four_like_one", 29, "topic", (YT,)
    phrasings = ('On YouTube, save "{first}", "{second}", "{third}" and "{fourth}" to Watch later, and like '
                 '"{second}"',
                 "Search YouTube for {topic}: put {first}, {second}, {third} and {fourth} in my Watch later list and "
                 "give {second} a thumbs up",
                 'Add four videos to Watch later ("{first}", "{second}", "{third}", "{fourth}") and like the one '
                 'called "{second}"')

    def grid(self) -> list[dict[str, Any]]:
        """Two picks of four videos per task topic."""
        out = []
        for i, topic in enumerate(yt.TOPICS):
            listed = youtube.videos(topic)
            for k in range(2):
                a, b, c, d = (listed[(i + 3 * k + n) % len(listed)]["title"] for n in (0, 2, 5, 7))
                out.append({"topic": topic, "first": d if k else a, "second": b, "third": c, "fourth": a if k else d,
                            "phrasing": i + k})
        return out

    def titles(self, params: Params) -> list[str]:
        """The four titles, in the order of the topic's results (so the expert scrolls one way)."""
        wanted = {params["first"], params["second"], params["third"], params["fourth"]}
        return [v["title"] for v in youtube.videos(params["topic"]) if v["title"] in wanted]

    def check(self, params: Params, state: State) -> bool:
        """Watch later: exactly the four (any order); liked: exactly the second; no subscription."""
        y = yt_state(state)
        return (sorted(y["watch_later"]) == sorted(self.titles(params)) and y["liked"] == [params["second"]]
                and not y["subscriptions"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each video's page in the results' order: Save to Watch later (and Like on the second)."""
        y = yt_state(state)
        for title in self.titles(params):
            if title not in y["watch_later"]:
                return to_video(params["topic"], title, elements, state) or press(elements,
                                                                                  desc="Save to Watch later")
            if title == params["second"] and title not in y["liked"]:
                return to_video(params["topic"], title, elements, state) or press(elements, desc="Like")
        return wait()


class LengthsToNoteTemplate(WorldTemplate):
    """Note the lengths of {first} ({topic}) and {second} ({other}) in the new Markor note {note}, a line each."""

    name, max_steps, split_key = "youtube_lengths_to_note", 50, "topic"
    apps = (YT, MARKOR)
    phrasings = ('Write the lengths of the YouTube videos "{first}" and "{second}" in a new Markor note "{note}", '
                 "one video per line",
                 "Check how long {first} and {second} are on YouTube and note each title with its length in "
                 "Markor, in a new note {note}",
                 'Make a note "{note}" in Markor with the duration of "{first}" and of "{second}" (YouTube)')

    def grid(self) -> list[dict[str, Any]]:
        """Every task topic with a video of it and one of a topic further on."""
        out = []
        for i, topic in enumerate(yt.TOPICS):
            other = nth(yt.TOPICS, i + 11)
            a, b = nth(youtube.videos(topic), i), nth(youtube.videos(other), i + 4)
            out.append({"topic": topic, "other": other, "first": a["title"], "second": b["title"],
                        "note": nth(NOTES, i), "phrasing": i})
        return out

    def videos(self, params: Params) -> list[dict[str, Any]]:
        """The two videos as YouTube lists them."""
        return [next(v for v in youtube.videos(params[q]) if v["title"] == params[t])
                for q, t in (("topic", "first"), ("other", "second"))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No note of that name."""
        return {MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params) -> str:
        """The note the expert writes: a line per video with its length."""
        return "\n".join(f"{v['title']}: {v['duration']}" for v in self.videos(params))

    def check(self, params: Params, state: State) -> bool:
        """The note pairs each title with its own length; no other note touched; YouTube unchanged."""
        text = note_text(state, params["note"])
        return (text is not None and all(line_says(text, v["title"], v["duration"]) for v in self.videos(params))
                and only_touched(state_of(state, markor.MarkorState)["edits"], {params["note"]})
                and yt.untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each video's player (reading its length once loaded), then create the note and type the lines."""
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], self.text(params), elements, state)
        y = yt_state(state)
        for query, title in ((params["topic"], params["first"]), (params["other"], params["second"])):
            seen = find(elements, rid=youtube.LENGTH_RID) if y["playing"] and y["playing"]["title"] == title else None
            if title not in y["watched"] or (state["foreground"] == YT and state["screen"]["name"] == "player"
                                             and seen is None and y["playing"] is None):
                return to_video(query, title, elements, state) or wait()
        return markor_create("", params["note"], "Markdown", elements, state)


# -- YT Music --------------------------------------------------------------------------------------------------------
class FourSongPlaylistTemplate(mt.CreatePlaylistTemplate):
    """Create {name} holding {first}, {second}, {third} and {fourth} in that order, nothing else changed."""

    name, max_steps = "ytmusic_four_song_playlist", 64
    phrasings = ('Create a YT Music playlist "{name}" with, in this order: "{first}", "{second}", "{third}", '
                 '"{fourth}"',
                 "Make a new playlist {name} in YT Music: {first} first, then {second}, then {third}, and {fourth} "
                 "last",
                 'I want a playlist named "{name}" playing {first}, {second}, {third} and {fourth}, in that order')

    def grid(self) -> list[dict[str, Any]]:
        """Every new name with four lists of four catalogue songs."""
        return [{"name": n, **{k: nth(mt.CATALOGUE, 3 * i + v + d) for k, d in
                               (("first", 0), ("second", 5), ("third", 11), ("fourth", 16))}, "phrasing": i + v}
                for i, n in enumerate(mt.NEW_NAMES) for v in range(4)]

    def songs(self, params: Params) -> list[str]:
        """The titles, in the order asked."""
        return [params["first"], params["second"], params["third"], params["fourth"]]

    def check(self, params: Params, state: State) -> bool:
        """As creating the playlist, and its songs in the order asked."""
        found = mt.find_playlist(state, params["name"])
        return super().check(params, state) and [s["title"] for s in found["songs"]] == self.songs(params)


class SwapSongsTemplate(mt.AddToPlaylistTemplate):
    """In {playlist}, remove {song} and add {new} and {extra}: those three edits, nothing else (the twin holds
    {song} too)."""  # noqa: D205, D209

    name, max_steps = "ytmusic_swap_songs", 38
    phrasings = ('In my YT Music playlist "{playlist}", remove "{song}" and add "{new}" and "{extra}"',
                 "Swap {song} out of my {playlist} playlist for two songs: {new} and {extra}",
                 'Update "{playlist}" on YT Music: take out {song}, put in {extra} and {new}')

    def grid(self) -> list[dict[str, Any]]:
        """Every add-to-playlist instance with a second catalogue song the playlist lacks."""
        out = []
        for p in super().grid():
            have = {s["title"] for s in p["songs"]} | {p["new"]}
            out.append({**p, "extra": nth([t for t in mt.CATALOGUE if t not in have], p["phrasing"] * 5 + 2)})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The playlist and its twin, the twin holding the song to remove too."""
        return mt.RemoveFromPlaylistTemplate.initial(self, params)

    def check(self, params: Params, state: State) -> bool:
        """Edits: the removal and the two additions, on the playlist; its songs so; nothing liked."""
        m = music_state(state)
        p, found = params["playlist"], mt.find_playlist(state, params["playlist"])
        want = [{"op": "remove", "playlist": p, "song": params["song"]},
                {"op": "add", "playlist": p, "song": params["new"]}, {"op": "add", "playlist": p,
                                                                       "song": params["extra"]}]
        kept = [s["title"] for s in params["songs"] if s["title"] != params["song"]]
        return (sorted(m["edits"], key=str) == sorted(want, key=str) and found is not None and not m["liked"]
                and sorted(s["title"] for s in found["songs"]) == sorted([*kept, params["new"], params["extra"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The playlist's page, the song's Remove; then each new song: search, play, Save to playlist."""
        edits = music_state(state)["edits"]
        if not any(e["op"] == "remove" for e in edits):
            step = to_playlist(params["playlist"], elements, state)
            return step or press(elements, desc=f"Remove {params['song']} from {params['playlist']}")
        added = {e["song"] for e in edits if e["op"] == "add"}
        todo = [t for t in (params["new"], params["extra"]) if t not in added]
        return save_song(todo[0], params["playlist"], elements, state) if todo else wait()


class TextedSongsToPlaylistTemplate(mt.CreatePlaylistTemplate):
    """Make {name} of the three songs {person} texted; {other} (their namesake) texted another; no text sent."""

    name, max_steps = "ytmusic_texted_songs_to_playlist", 53
    apps = (M.PACKAGE, YTM)
    phrasings = ('{person} texted me three songs: make a YT Music playlist "{name}" of them',
                 "Read the songs {person} sent me in Messages and put them in a new YT Music playlist {name}",
                 'Create the playlist "{name}" in YT Music with the songs from {person}\'s text')

    def grid(self) -> list[dict[str, Any]]:
        """Every new name with four song lists, a person, their namesake and the namesake's song."""
        out = []
        for i, p in enumerate(super().grid()):
            rest = [t for t in mt.CATALOGUE if t not in (p["first"], p["second"])]
            who = names(f"ytmusic-texted:{p['name']}:{i}", 1)[0]
            out.append({**p, "third": nth(rest, 5 * i + 2), "other_song": nth(rest, 5 * i + 9), "person": who,
                        "other": namesake(who)})
        return out

    def songs(self, params: Params) -> list[str]:
        """The titles the person texted."""
        return [params["first"], params["second"], params["third"]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """An unread text from the person naming the songs, one from the namesake naming another."""
        p, o = person(params["person"]), person(params["other"])
        said = f'Songs for your new playlist: "{params["first"]}", "{params["second"]}" and "{params["third"]}"'
        threads = [conversation(p, (said,), True),
                   conversation(o, (f'You should add "{params["other_song"]}" to a playlist',), True)]
        return {M.PACKAGE: {"threads": threads, "contacts": [{"name": x["name"], "number": x["number"]}
                                                             for x in (p, o)]}}

    def goal(self, params: Params) -> str:
        """The instruction, naming the person but not the songs."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(name=params["name"],
                                                                                person=params["person"])

    def check(self, params: Params, state: State) -> bool:
        """As creating the playlist; no text sent."""
        return super().check(params, state) and not state_of(state, M.MessagesState)["sent"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the person's conversation (read the songs), then create the playlist song by song."""
        return read_unread_thread(person(params["person"]), elements, state) or super().expert(params, elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    InstallTwoWishlistOneTemplate(), UpdateTwoUninstallOneTemplate(), RatingsToNoteTemplate(),
    SaveFourLikeOneTemplate(), LengthsToNoteTemplate(), FourSongPlaylistTemplate(), SwapSongsTemplate(),
    TextedSongsToPlaylistTemplate(),
)
"""The long YouTube, Play Store and YT Music templates of the World suite."""
