"""World-suite tasks that carry what a Markor note says into OsmAnd, VLC, Calendar and Audio Recorder, and what
Files and Photos (with Calculator) show into a note (issue 48): save the town a note names as an OsmAnd favourite,
make a VLC playlist of a note's videos, put the appointment a note writes down in Calendar, note the largest file of
a folder, add up two receipt photos with Calculator into a note; and questions needing two apps (how long the
recording a note names lasts, which OsmAnd favourites group holds the town a note names).

Every task seeds its near miss (`initial`): a twin note naming another town, the twin videos, another appointment,
the twin recording or town; the runner-up file and a larger one in another folder; the receipts' single totals.
State checks want exactly the asked change and nothing else in either app; answers are read from the state while
nothing changed. The other apps' templates lend their grids and set-ups (`vlc_tasks`, `calendar_tasks`,
`recorder_expert`, `pictures_expert`); helpers are in `cross_media_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calculator as CS
from android_gym.sim.apps import files_state as FS
from android_gym.sim.apps import markor
from android_gym.sim.apps import osmand_data as OD
from android_gym.sim.apps import recorder as RA
from android_gym.sim.apps import vlc as VA
from android_gym.sim.apps.gallery_prints import money
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world import calendar_tasks as ct
from android_gym.tasks.world import files_expert as fe
from android_gym.tasks.world import osmand_expert as oe
from android_gym.tasks.world import pictures_expert as pe
from android_gym.tasks.world import recorder_expert as rce
from android_gym.tasks.world import vlc_expert as ve
from android_gym.tasks.world import vlc_tasks as vt
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth
from android_gym.tasks.world.calculator_tasks import CALC, key_step
from android_gym.tasks.world.calendar_expert import CAL, create
from android_gym.tasks.world.cross_media_expert import NOTES, amount_of, new_note, read_note, same_number, seconds_of
from android_gym.tasks.world.cross_media_tasks import answer_now, notes_untouched
from android_gym.tasks.world.media_expert import PHOTOS, photos_state
from android_gym.tasks.world.notes_expert import MARKOR, only_touched

TOWNS = tuple(OD.TOWNS)
GROUPS = ("Ski trips", "Weekend", "Family visits", "Day trips", "Hiking", "Viewpoints")
"""Favourite groups a town is saved to or found in."""


def two_notes(params: Params, text: str, twin_text: str) -> dict[str, Any]:
    """Markor's initial conditions: note {note} holding `text`, note {twin_note} holding `twin_text`."""
    files = {params["note"]: text, params["twin_note"]: twin_text}
    return {"absent": list(files), "files": files}


# -- Markor -> OsmAnd ------------------------------------------------------------------------------------------------
class NoteTownFavoriteTemplate(WorldTemplate):
    """Save the town Markor note {note} names ({town}) as an OsmAnd favourite in group {group}; a twin note names
    {twin}."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_town_favorite", 22, "key"
    apps = (MARKOR, oe.OSM)
    phrasings = ('My Markor note "{note}" says where the trip goes: save that town as an OsmAnd favorite in the '
                 'group "{group}"',
                 "Read the note {note} in Markor and add the town it names to my OsmAnd favorites, group {group}",
                 'Find the town in my note "{note}" and make it a favorite in OsmAnd under {group}')

    def grid(self) -> list[dict[str, Any]]:
        """Every town with three groups, a twin town and two notes."""
        return [{"town": t, "twin": nth(TOWNS, i + 4), "group": nth(GROUPS, i + 2 * k), "key": f"{t}:{k}",
                 "note": nth(NOTES, i + 5 * k), "twin_note": nth(NOTES, i + 5 * k + 1), "phrasing": i + k}
                for i, t in enumerate(TOWNS) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two notes; OsmAnd's seeded world (which holds no town)."""
        return {MARKOR: two_notes(params, f"Trip on Saturday: {params['town']}. Pack the boots.",
                                  f"Maybe next month: {params['twin']}."), oe.OSM: {}}

    def check(self, params: Params, state: State) -> bool:
        """One favourite added, at the town, in the group; nothing else changed in OsmAnd or Markor."""
        favs = oe.favorites_at(state, oe.coords(params["town"]))
        return (oe.ops(state) == ["favorite"] and [f["group"] for f in favs] == [params["group"]]
                and notes_untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then search the town, its card, Favorite, the group, Save."""
        if oe.favorites_at(state, oe.coords(params["town"])):
            return wait()
        return (read_note(params["note"], elements, state)
                or oe.save_favorite(params["town"], oe.coords(params["town"]), params["group"], elements, state))


class NoteTownGroupTemplate(WorldTemplate):
    """In which OsmAnd favourites group is the town Markor note {note} names ({town})? {group}; the twin note's
    town {twin} is in {twin_group}."""  # noqa: D205, D209

    name, max_steps, split_key, outcome = "cross_note_town_group", 15, "key", "answer"
    apps = (MARKOR, oe.OSM)
    phrasings = ('My note "{note}" names a town I saved in OsmAnd: which favorites group did I put it in?',
                 "Check the town in the Markor note {note}, then tell me its OsmAnd favorites group",
                 "Which group of my OsmAnd favorites holds the place mentioned in the note {note}?")

    def grid(self) -> list[dict[str, Any]]:
        """Every town with two group pairs, a twin town and two notes."""
        return [{"town": t, "twin": nth(TOWNS, i + 3), "group": nth(GROUPS, i + k),
                 "twin_group": nth(GROUPS, i + k + 2), "key": f"{t}:{k}", "note": nth(NOTES, i + 3 * k),
                 "twin_note": nth(NOTES, i + 3 * k + 2), "phrasing": i + k}
                for i, t in enumerate(TOWNS) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two notes; the town and the twin saved in their groups."""
        favs = [{"name": params[k], "group": params[g], "lat": oe.coords(params[k])[0], "lon": oe.coords(params[k])[1]}
                for k, g in (("town", "group"), ("twin", "twin_group"))]
        return {MARKOR: two_notes(params, f"Lunch spot we loved: {params['town']}",
                                  f"Never again: the traffic in {params['twin']}"),
                oe.OSM: {"favorites": favs}}

    def answer(self, params: Params, state: State) -> str | None:
        """The group of the town's one favourite, while neither app changed anything."""
        favs = oe.favorites_at(state, oe.coords(params["town"]))
        return favs[0]["group"] if len(favs) == 1 and not oe.ops(state) and notes_untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then OsmAnd's My places, and answer the group."""
        return (read_note(params["note"], elements, state) or oe.via_menu("places", "My places", elements, state)
                or answer_now(params["group"]))


# -- Markor -> VLC ---------------------------------------------------------------------------------------------------
class NoteVideosPlaylistTemplate(WorldTemplate):
    """Make a VLC playlist {playlist} of the videos Markor note {note} lists, in order; a twin note lists their
    twins."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_videos_playlist", 26, "name"
    apps = (MARKOR, ve.VLC)
    phrasings = ('Create a VLC playlist "{playlist}" with the videos listed in my Markor note {note}, in that order',
                 "My note {note} lists some videos: put them in a new VLC playlist named {playlist}, same order",
                 'Read the note "{note}" and make the playlist {playlist} in VLC from the videos it lists, in order')
    base = vt.CreatePlaylistTemplate()

    def grid(self) -> list[dict[str, Any]]:
        """VLC's playlist instances, with two notes."""
        return [{**p, "note": nth(NOTES, i), "twin_note": nth(NOTES, i + 4)} for i, p in enumerate(self.base.grid())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The videos and their twins, no playlist of that name; the note listing the videos, the twin note the
        twins."""  # noqa: D205, D209
        return {**self.base.initial(params),
                MARKOR: two_notes(params, "Videos to keep:\n" + "\n".join(params["videos"]),
                                  "Videos to delete:\n" + "\n".join(params["twins"]))}

    def check(self, params: Params, state: State) -> bool:
        """VLC's playlist check (exactly those videos in order, no other playlist edited); Markor unchanged."""
        return self.base.check(params, state) and notes_untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then add each video in turn."""
        return read_note(params["note"], elements, state) or self.base.expert(params, elements, state)


# -- Markor -> Calendar ----------------------------------------------------------------------------------------------
class NoteToEventTemplate(WorldTemplate):
    """Put in Calendar the appointment Markor note {note} writes down: {title} on {day} from {at} to {until}; a twin
    note writes down another."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_to_event", 34, "title"
    apps = (MARKOR, CAL)
    phrasings = ('Add the appointment written in my Markor note "{note}" to Calendar, titled as the note says',
                 "Read my note {note} and create that event in Google Calendar (same title, day and times)",
                 'My note "{note}" has an appointment: put it in my calendar')

    def grid(self) -> list[dict[str, Any]]:
        """The Calendar templates' event instances, with a twin appointment and two notes."""
        out = []
        for i, p in enumerate(ct.event_grid(1, offset=2)):
            until = ct.C.clock(ct.later(p["start"], p["length"]))
            twin = nth(ct.TITLES, i + 5)
            out.append({**p, "until": until, "twin_title": twin, "note": nth(NOTES, i),
                        "twin_note": nth(NOTES, i + 3)})
        return out

    def target(self, params: Params) -> dict[str, Any]:
        """The event wanted."""
        return ct.spec(params["title"], params["date"], params["start"], params["length"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two notes; no event of either title."""
        return {MARKOR: two_notes(params, f"{params['title']}: {params['day']}, {params['at']} to {params['until']}",
                                  f"{params['twin_title']}: {params['day']}, all day"),
                CAL: {"absent": [params["title"], params["twin_title"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added, with the title, day, start and end (any place or notes); Markor unchanged."""
        return ct.added_one(state, self.target(params), extras=True) and notes_untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then create the event."""
        t = self.target(params)
        return (read_note(params["note"], elements, state)
                or create({k: t[k] for k in ("title", "date", "start", "end")}, elements, state))


# -- Markor + Audio Recorder -----------------------------------------------------------------------------------------
class NoteRecordingLengthTemplate(WorldTemplate):
    """How long is the recording Markor note {note} names ({name})? Its "mm:ss" length; the twin note names the
    twin recording (of another length)."""  # noqa: D205, D209

    name, max_steps, split_key, outcome = "cross_note_recording_length", 15, "name", "answer"
    apps = (MARKOR, rce.REC)
    phrasings = ('How long is the recording my Markor note "{note}" refers to?',
                 "My note {note} mentions an audio recording: how long does it last in Audio Recorder?",
                 "Check which recording the note {note} is about and tell me its duration")

    def grid(self) -> list[dict[str, Any]]:
        """Audio Recorder's twin records twice, with two notes."""
        return [{**p, "note": nth(NOTES, i), "twin_note": nth(NOTES, i + 2)} for i, p in enumerate(rce.twin_grid(2))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record, its twin and the two notes."""
        return {rce.REC: rce.twin_records(params),
                MARKOR: two_notes(params, f'Transcribe the recording "{params["name"]}" this week.',
                                  f'Already transcribed: "{params["twin"]}".')}

    def answer(self, params: Params, state: State) -> str | None:
        """The record's length as the app writes it, while neither app changed anything."""
        rec = rce.find_record(state, params["name"])
        ok = rec is not None and rce.untouched(state) and notes_untouched(state)
        return RA.clock(rec["duration_s"]) if ok else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same number of seconds, as a clock or in words."""
        a, b = seconds_of(given), seconds_of(truth)
        return a is not None and a == b

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then the record, and answer its length."""
        rec = rce.find_record(state, params["name"])
        return (read_note(params["note"], elements, state) or rce.to_record(params["name"], elements, state)
                or answer_now(RA.clock(rec["duration_s"]) if rec else "?"))


class NoteVideoLengthTemplate(WorldTemplate):
    """How long is the VLC video Markor note {note} names ({name})? Its "m:ss" length; the twin note names the twin
    video (of another length)."""  # noqa: D205, D209

    name, max_steps, split_key, outcome = "cross_note_video_length", 15, "name", "answer"
    apps = (MARKOR, ve.VLC)
    phrasings = ('How long is the video my Markor note "{note}" is about? Check VLC',
                 "My note {note} names a video: what length does VLC show for it?",
                 "Look up the video mentioned in the note {note} and tell me how long it lasts")

    def grid(self) -> list[dict[str, Any]]:
        """VLC's twin videos, with two notes."""
        return [{**p, "note": nth(NOTES, i + 1), "twin_note": nth(NOTES, i + 6)} for i, p in enumerate(vt.twin_grid())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The video, its twin and the two notes."""
        return {ve.VLC: vt.pair(params),
                MARKOR: two_notes(params, f"Send Grandma the video {params['name']}",
                                  f"Already sent: {params['twin']}")}

    def answer(self, params: Params, state: State) -> str | None:
        """The video's length as VLC writes it, while neither app changed anything."""
        v = next((v for v in ve.vlc_state(state)["videos"] if v["path"] == params["path"]), None)
        ok = v is not None and ve.untouched(state) and notes_untouched(state)
        return VA.clock(v["duration_s"]) if ok else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same number of seconds, as a clock or in words."""
        a, b = seconds_of(given), seconds_of(truth)
        return a is not None and a == b

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then play the video, and answer its length."""
        return (read_note(params["note"], elements, state) or ve.play(params["path"], elements, state)
                or answer_now(VA.clock(params["length"])))


# -- Files -> Markor -------------------------------------------------------------------------------------------------
class LargestFileToNoteTemplate(WorldTemplate):
    """Write the name of the largest file in {folder} ({name}) into a new Markor note {note}; the runner-up is there
    too, and a larger file still lies in another folder."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_largest_file_to_note", 22, "name"
    apps = (fe.FILES, MARKOR)
    phrasings = ('Find the largest file in my {folder} folder and write its name in a new Markor note "{note}"',
                 "Which file takes the most space in {folder}? Save just its name in a Markor note called {note}",
                 'Create a note {note} in Markor holding the file name of the biggest file in {folder}')

    def grid(self) -> list[dict[str, Any]]:
        """Every task file name in two folders, a runner-up, a larger file elsewhere and a note."""
        out = []
        for i in range(len(fe.STEMS)):
            for k, folder in enumerate(("Download", "Documents")):
                name = fe.task_name(i)
                out.append({"name": name, "folder": folder, "runner_up": fe.twin(name, "old"),
                            "elsewhere": fe.nth(("Movies", "Music", "Pictures"), i + k), "note": nth(NOTES, i + k),
                            "size_kb": 210_000 + 977 * i + 31 * k, "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file, the runner-up (two thirds its size) and a larger file in another folder; no note of that
        name."""  # noqa: D205, D209
        size = params["size_kb"]
        files = [{"path": f"{params['folder']}/{params['name']}", "size_kb": size, "date": "2026-05-20"},
                 {"path": f"{params['folder']}/{params['runner_up']}", "size_kb": size * 2 // 3, "date": "2026-06-01"},
                 {"path": f"{params['elsewhere']}/{fe.twin(params['name'], 'full')}", "size_kb": size + 90_000,
                  "date": "2026-04-11"}]
        return {fe.FILES: {"files": files}, MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params) -> str:
        """What the expert writes: the file's name."""
        return params["name"]

    def check(self, params: Params, state: State) -> bool:
        """The note holds the file's name alone (case aside, with or without its extension); no other note edited;
        Files changed nothing."""  # noqa: D205, D209
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"], "").strip().rstrip(".").strip().casefold()
        name = params["name"].casefold()
        return (text in (name, name.rsplit(".", 1)[0]) and only_touched(m["edits"], {params["note"]})
                and not state_of(state, FS.FilesState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The file's info in Files, then the note."""
        path = f"{params['folder']}/{params['name']}"
        if state_of(state, FS.FilesState)["last_opened"] != path:
            return fe.file_info(path, elements, state) or wait()
        return new_note(params["note"], self.text(params), elements, state)


# -- Photos -> Calculator -> Markor ----------------------------------------------------------------------------------
class ReceiptsSumToNoteTemplate(WorldTemplate):
    """Add up the totals of the two receipts photographed on June {day} with Calculator and write the sum in a new
    Markor note {note}."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_receipts_sum_to_note", 44, "key"
    apps = (PHOTOS, CALC, MARKOR)
    phrasings = ("I photographed two receipts on June {day}: add up their totals with Calculator and write just the "
                 'sum in a new Markor note "{note}"',
                 "Use Calculator to total my two receipt photos from June {day}, then save only that amount in a "
                 "Markor note called {note}",
                 "Create a Markor note {note} holding the sum of the totals of the receipts I photographed on "
                 "June {day} (work it out with Calculator)")

    def grid(self) -> list[dict[str, Any]]:
        """The pictures grid, with a note name."""
        return [{**p, "note": nth(NOTES, p["day"] + p["hour"])} for p in pe.grid(self.name)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two receipts; no note of that name; a fresh Calculator."""
        return {PHOTOS: pe.receipts_initial(params), MARKOR: {"absent": [params["note"]]}}

    @staticmethod
    def totals(params: Params) -> tuple[int, int]:
        """The two receipts' totals in cents."""
        return pe.receipt_of(params).total_cents, pe.receipt_of(params, twin=True).total_cents

    def expression(self, params: Params) -> str:
        """What the expert types into Calculator."""
        return "+".join(f"{c // 100}.{c % 100:02d}" for c in self.totals(params))

    def text(self, params: Params) -> str:
        """What the expert writes: the sum as the receipts print amounts."""
        return money(sum(self.totals(params)))

    def check(self, params: Params, state: State) -> bool:
        """The note holds the sum alone (with or without "$"); no other note edited; Photos changed nothing."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        return (text is not None and same_number(amount_of, text, money(sum(self.totals(params))))
                and only_touched(m["edits"], {params["note"]}) and pe.untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the twin receipt, then the receipt; type the sum into Calculator; create the note and type it."""
        names = pe.photo_name(params), pe.photo_name(params, twin=True)
        history = [h["expression"] for h in state_of(state, CS.CalculatorState)["history"]]
        if self.expression(params) not in history:
            if photos_state(state)["last_opened"] not in names:
                return pe.read_picture(params, elements, state, names[1], params["twin_date"]) or wait()
            if photos_state(state)["last_opened"] == names[1]:
                return pe.read_picture(params, elements, state) or wait()
            return key_step(self.expression(params), elements, state) or wait()
        return new_note(params["note"], self.text(params), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    NoteTownFavoriteTemplate(), NoteTownGroupTemplate(), NoteVideosPlaylistTemplate(), NoteToEventTemplate(),
    NoteRecordingLengthTemplate(), NoteVideoLengthTemplate(), LargestFileToNoteTemplate(), ReceiptsSumToNoteTemplate(),
)
"""The cross-app templates from Markor notes into OsmAnd, VLC, Calendar and Audio Recorder, and from Files and
Photos into notes."""
