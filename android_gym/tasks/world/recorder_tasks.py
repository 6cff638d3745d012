"""World-suite tasks over Audio Recorder (issue 17): record clips of a length (the expert waits while the timer runs),
name, rename, delete and play records, change the recording format first, answer a record's length, decline to play
a record that does not exist, and carry a record's name into Markor or its length into Messages. `EVERYDAY` holds
templates outside the suite for the goal parser's everyday lines (issue 49): start recording, delete a record
(`everyday_params` fills in what a line leaves unsaid).

Every task puts its records on the phone under fixed names (`initial`), next to a twin with a similar name and
another length (the near miss), so the seeded records only shift positions in the list. Checks read the recorder's
state and its change log ("added", "removed", "renamed"), so touching the twin, or anything else, fails. Splits hold
out record names (`split_of`), or the (length, variant) key of the recording tasks. Experts read the UI elements, get
past pop-ups (`into_app`) and retry dropped taps by acting on the unchanged screen again.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import recorder as R
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import app_state, back, fill, find, home, obstacle, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.infeasible_tasks import impossible, looking_at
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import (
    Elements,
    State,
    leave,
    markor_create,
    markor_write,
    only_touched,
    press,
    reach,
)
from android_gym.tasks.world.notes_tasks import WorldTemplate

Params = Mapping[str, Any]
REC = R.PACKAGE
LABEL = R.RecorderApp.label
TWINS = (("Lecture 7", "Lecture 8"), ("Cello scales", "Cello etudes"), ("Morning thoughts", "Evening thoughts"),
         ("Wedding speech", "Wedding toast"), ("Choir rehearsal", "Choir concert"), ("Plumber call", "Plumber quote"),
         ("Spanish drills", "Spanish songs"), ("Harbor ambience", "Harbor storm"), ("Story for Mia", "Story for Leo"),
         ("Workshop questions", "Workshop answers"), ("Garage band demo", "Garage band live"),
         ("Recipe from Nonna", "Recipe from Pops"), ("Focus session", "Focus playlist"),
         ("Walk and talk", "Walk and think"), ("Poem reading", "Poem draft"), ("Beatbox loop", "Beatbox intro"),
         ("Sermon notes", "Sermon outline"), ("Travel diary", "Travel plans"), ("Owl at night", "Owl at dawn"),
         ("Standup recap", "Standup agenda"))
"""Task record names, each with a twin (the near miss): none is a seeded name or a default "Record-<n>"."""
NEW_NAMES = ("Final take", "Keep this one", "For the archive", "Best version", "Send to Sam", "Practice 2",
             "Listen again", "Rough cut")
NOTE_STEMS = ("memo_log", "voice_notes", "recordings", "audio_index", "clips_today", "memo_names")


def _pick(pool: tuple, i: int) -> Any:
    return pool[i % len(pool)]


def _twins(variants: int = 1) -> list[dict[str, Any]]:
    """Every twin pair `variants` times: the name, its twin, their lengths in seconds, a phrasing."""
    return [{"name": n, "twin": t, "length": 20 + (37 * i + 11 * k) % 400, "twin_length": 15 + (53 * i + 7 * k) % 300,
             "phrasing": i + k} for i, (n, t) in enumerate(TWINS) for k in range(variants)]


def _pair(params: Params) -> dict[str, Any]:
    """Initial records: the task's record and its twin (the twin never as long: the answer tells them apart)."""
    twin_length = params["twin_length"] + (1 if params["twin_length"] == params["length"] else 0)
    return {"absent": [params["name"], params["twin"]], "records": [
        {"name": params["name"], "duration_s": params["length"], "date": _day(10 + 7 * params["phrasing"] % 50)},
        {"name": params["twin"], "duration_s": twin_length, "format": "wav",
         "date": _day(12 + 11 * params["phrasing"] % 50)}]}


def _day(age: int) -> str:
    """The date `age` days before the sim's today: task records sit among the seeded ones (1-90 days old)."""
    return str(R.DATE - datetime.timedelta(days=age))


def _record(state: State, name: str) -> dict[str, Any] | None:
    """The record called `name`, or None."""
    return next((r for r in app_state(state, REC).get("records", []) if r["name"] == name), None)


def untouched(state: State) -> bool:
    """Nothing recorded, removed or renamed in the recorder this episode, and it is not recording."""
    r = app_state(state, REC)
    return not (r.get("added") or r.get("removed") or r.get("renamed") or r.get("recording"))


def one_new(state: State, seconds: int) -> dict[str, Any] | None:
    """The only record made this episode, when it is at least `seconds` long and nothing else changed."""
    r = app_state(state, REC)
    if len(r.get("added", [])) != 1 or r.get("removed") or r.get("recording"):
        return None
    rec = _record(state, r["added"][0])
    return rec if rec is not None and rec["duration_s"] >= seconds else None


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_main(elements: Elements, state: State) -> Action | None:
    """The next step to the recorder's main screen (None once there)."""
    step = into_app(LABEL, REC, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "main":
        return None
    return leave(elements) if name in ("rename", "delete", "choice") else back()


def to_list(elements: Elements, state: State) -> Action | None:
    """The next step to the records list (None once there)."""
    step = into_app(LABEL, REC, elements, state)
    if step is None and state["screen"]["name"] == "records":
        return None
    return step or to_main(elements, state) or press(elements, desc="Records")


def to_record(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to the screen of record `name` (None once there, no dialog over it)."""
    step = into_app(LABEL, REC, elements, state)
    if step is None and state["screen"]["name"] == "record":
        return None if app_state(state, REC)["open"] == name else back()
    return step or to_list(elements, state) or reach(elements, state, find(elements, rid=R.NAME_RID, text=name))


def record_clip(seconds: int, elements: Elements, state: State) -> Action:
    """On the main screen: Record, wait until the timer shows `seconds`, Stop (resume a paused recording)."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    rec = app_state(state, REC).get("recording")
    if rec is not None and state["foreground"] == REC and state["screen"]["name"] == "main":
        if rec["paused"]:
            return press(elements, desc="Resume recording")
        return press(elements, desc="Stop recording") if rec["elapsed_s"] >= seconds else wait()
    if rec is not None and rec["elapsed_s"] < seconds:
        return wait()  # it records in the background too
    return to_main(elements, state) or press(elements, desc="Record")


def name_dialog(new: str, elements: Elements, state: State) -> Action:
    """In the rename dialog: Clear text unless the field leads to `new`, type the rest, OK."""
    if not new.startswith(state["screen"]["fields"].get(R.INPUT_RID, "")):
        return press(elements, desc="Clear text")
    return fill(elements, state, R.INPUT_RID, new, missing=wait()) or press(elements, text="OK")


def rename(name: str, new: str, elements: Elements, state: State) -> Action:
    """The next step to rename record `name` to `new`: its screen, Rename, the dialog."""
    step = into_app(LABEL, REC, elements, state)
    r = app_state(state, REC)
    if step is None and state["screen"]["name"] == "rename" and r["open"] == name:
        return name_dialog(new, elements, state)
    return step or to_record(name, elements, state) or press(elements, desc="Rename")


# -- templates: the recorder -----------------------------------------------------------------------------------------
class _ClipTemplate(WorldTemplate):
    """Recording templates: (seconds, variant) instances split on their "key"; no naming dialog after Stop."""

    split_key = "key"
    seconds = (3, 4, 5, 6, 7, 8)
    variants = 4

    def grid(self) -> list[dict[str, Any]]:
        """Every length times `variants`, phrasings and start formats rotating."""
        return [{"seconds": s, "key": f"{s}:{k}", "start": _pick(R.FORMATS, s + k), "phrasing": s + k}
                for s in self.seconds for k in range(self.variants)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recorder set to the variant's format, without the naming dialog."""
        return {REC: {"settings": {"format": params["start"], "ask_name": False}}}


class RecordClipTemplate(_ClipTemplate):
    """Record a clip of at least {seconds} seconds: one new record that long, nothing else changed."""

    name, max_steps = "recorder_record_clip", 19
    apps = (REC,)
    phrasings = ("Record an audio clip of at least {seconds} seconds with Audio Recorder",
                 "Use the recorder to make a voice recording that lasts {seconds} seconds or more",
                 "Record {seconds} seconds of audio in Audio Recorder and save it")

    def check(self, params: Params, state: State) -> bool:
        """Exactly one new record, at least that long, in the format the recorder was set to, nothing renamed."""
        rec = one_new(state, params["seconds"])
        return rec is not None and rec["format"] == params["start"] and not app_state(state, REC)["renamed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recorder, Record, wait for the timer, Stop."""
        return record_clip(params["seconds"], elements, state)


class FormatThenRecordTemplate(_ClipTemplate):
    """Set the format to {fmt} and the sample rate to {rate}, then record at least {seconds} seconds."""

    name, max_steps = "recorder_format_then_record", 28
    apps = (REC,)
    seconds = (5, 6, 7, 8)
    variants = 6
    phrasings = ("In Audio Recorder, switch the recording format to {fmt} and the sample rate to {rate_label}, "
                 "then record a clip of at least {seconds} seconds",
                 "Change the recorder's settings to {fmt} at {rate_label} and record {seconds} seconds or more",
                 "Record a {fmt} clip at {rate_label} that lasts at least {seconds} seconds (set the recorder up "
                 "first)")

    def grid(self) -> list[dict[str, Any]]:
        """Every length with a target format (never the start one) and sample rate."""
        out = []
        for p in super().grid():
            fmt = _pick(tuple(f for f in R.FORMATS if f != p["start"]), p["phrasing"])
            rate = _pick((8000, 16000, 22050, 32000, 48000), p["seconds"] * 3 + p["phrasing"])
            out.append({**p, "fmt": fmt, "rate": rate, "rate_label": R.rate_label(rate)})
        return out

    def check(self, params: Params, state: State) -> bool:
        """The settings are as asked and the only new record was made with them, at least that long."""
        rec, settings = one_new(state, params["seconds"]), app_state(state, REC).get("settings", {})
        return (rec is not None and (rec["format"], rec["sample_rate"]) == (params["fmt"], params["rate"])
                and (settings["format"], settings["sample_rate"]) == (params["fmt"], params["rate"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Settings, Recording format, the format, Sample rate, the rate, back; then record the clip."""
        settings = app_state(state, REC).get("settings", {})
        if (settings.get("format"), settings.get("sample_rate")) == (params["fmt"], params["rate"]):
            return record_clip(params["seconds"], elements, state)
        step = into_app(LABEL, REC, elements, state)
        if step is not None:
            return step
        key, label = ("format", params["fmt"]) if settings["format"] != params["fmt"] else (
            "sample_rate", params["rate_label"])
        screen = state["screen"]
        if screen["name"] == "choice":
            return press(elements, text=label) if screen["args"]["key"] == key else leave(elements)
        if screen["name"] == "settings":
            return press(elements, text=R.SETTING_LABELS[key])
        return to_main(elements, state) or press(elements, desc="Settings")


class RecordNamedTemplate(WorldTemplate):
    """Record at least {seconds} seconds and name the record {name}; a record called {twin} is already there."""

    name, max_steps, split_key = "recorder_record_named", 24, "name"
    apps = (REC,)
    phrasings = ('Record a voice memo of at least {seconds} seconds and name it "{name}"',
                 "Make a new recording in Audio Recorder, {seconds} seconds or longer, called {name}",
                 'Record {seconds}+ seconds of audio and save the recording as "{name}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice: with and without the recorder's naming dialog after Stop."""
        return [{**p, "seconds": 3 + p["phrasing"] % 3, "ask": p["phrasing"] % 2 == 0} for p in _twins(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The twin record (not the name), and the naming dialog setting of the variant."""
        return {REC: {"absent": [params["name"], params["twin"]], "settings": {"ask_name": params["ask"]},
                      "records": [{"name": params["twin"], "duration_s": params["twin_length"],
                                   "date": _day(12 + 11 * params["phrasing"] % 50)}]}}

    def check(self, params: Params, state: State) -> bool:
        """The only new record is called {name} and long enough; the twin is still there, never renamed."""
        rec, r = one_new(state, params["seconds"]), app_state(state, REC)
        return (rec is not None and rec["name"] == params["name"] and _record(state, params["twin"]) is not None
                and all(e["from"] != params["twin"] for e in r["renamed"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Record the clip; rename it in the dialog after Stop, or from its screen in the list."""
        r = app_state(state, REC)
        if not r.get("added"):
            return record_clip(params["seconds"], elements, state)
        if r["added"][0] == params["name"]:
            return wait()
        if state["foreground"] == REC and state["screen"]["name"] == "rename" and r["open"] is None:
            return obstacle(elements, state) or name_dialog(params["name"], elements, state)  # the dialog after Stop
        return rename(r["added"][0], params["name"], elements, state)


class RenameRecordTemplate(WorldTemplate):
    """Rename the record {name} to {new}; its twin {twin} must keep its name."""

    name, max_steps, split_key = "recorder_rename", 16, "name"
    apps = (REC,)
    phrasings = ('Rename the recording "{name}" to "{new}" in Audio Recorder',
                 "In the recorder, change the name of {name} to {new}",
                 "Give the audio recording {name} the name {new}")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with new names rotating."""
        return [{**p, "new": _pick(NEW_NAMES, p["phrasing"] + 3 * (p["phrasing"] // 20))} for p in _twins(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin; nothing called {new}. With the optional "latest": True (a line saying "my last
        recording"), the record is today's, the newest of the list, and its twin yesterday's."""  # noqa: D205, D209
        pair = _pair(params)
        if params.get("latest"):
            first, second = pair["records"]
            pair = {**pair, "records": [{**first, "date": _day(0)}, {**second, "date": _day(1)}]}
        return {REC: {**pair, "absent": [*pair["absent"], params["new"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that one rename; the record keeps its length; nothing added or removed. With the optional
        "any_case": True (a parsed line, whose words arrive lower-cased), the new name may be in any case."""  # noqa: D205, D209
        r = app_state(state, REC)
        if params.get("any_case"):
            new = params["new"].casefold()
            renamed = [(e["from"], e["to"].casefold()) for e in r.get("renamed", [])]
            rec = next((x for x in r.get("records", []) if x["name"].casefold() == new), None)
            return (renamed == [(params["name"], new)] and not r["added"] and not r["removed"] and rec is not None
                    and rec["duration_s"] == params["length"])
        rec = _record(state, params["new"])
        return (r.get("renamed") == [{"from": params["name"], "to": params["new"]}] and not r["added"]
                and not r["removed"] and rec is not None and rec["duration_s"] == params["length"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Records, the row, Rename, Clear text, the new name, OK."""
        if _record(state, params["new"]) is not None:
            return wait()
        return rename(params["name"], params["new"], elements, state)


class DeleteTwoTemplate(WorldTemplate):
    """Delete the records {name} and {other}; their twins stay."""

    name, max_steps, split_key = "recorder_delete_two", 17, "name"
    apps = (REC,)
    phrasings = ('Delete the recordings "{name}" and "{other}" from Audio Recorder',
                 "In the recorder, remove both {name} and {other}", "Get rid of my audio recordings {name} and {other}")

    def grid(self) -> list[dict[str, Any]]:
        """Every name with the next pair's name."""
        return [{**p, "other": TWINS[(i + 1) % len(TWINS)][0], "other_twin": TWINS[(i + 1) % len(TWINS)][1]}
                for i, p in enumerate(_twins())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both records and both twins."""
        a, b = _pair(params), _pair({**params, "name": params["other"], "twin": params["other_twin"]})
        return {REC: {"absent": a["absent"] + b["absent"], "records": a["records"] + b["records"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two records removed; nothing added or renamed."""
        r = app_state(state, REC)
        return (sorted(r.get("removed", [])) == sorted([params["name"], params["other"]]) and not r["added"]
                and not r["renamed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """For each still there: its screen, Delete, confirm Delete (the list comes back)."""
        left = [n for n in (params["name"], params["other"]) if _record(state, n) is not None]
        if not left:
            return wait()
        step = into_app(LABEL, REC, elements, state)
        r = app_state(state, REC)
        if step is None and state["screen"]["name"] == "delete" and r["open"] in left:
            return press(elements, text="Delete", clickable=True)
        return step or to_record(left[0], elements, state) or press(elements, desc="Delete")


class PlayRecordTemplate(WorldTemplate):
    """Play the record {name}; its twin is listed too."""

    name, max_steps, split_key = "recorder_play", 11, "name"
    apps = (REC,)
    phrasings = ('Play the recording called "{name}"', "Play my audio recording {name}",
                 "Listen to the recording {name} in Audio Recorder")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice (lengths of a minute or more: it still plays when checked)."""
        return [{**p, "length": p["length"] + 60} for p in _twins(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin."""
        return {REC: _pair(params)}

    def check(self, params: Params, state: State) -> bool:
        """It is playing, the recorder in front, nothing changed."""
        playing = app_state(state, REC).get("playing")
        return (state["foreground"] == REC and playing is not None and playing["name"] == params["name"]
                and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Records, the row, Play."""
        return to_record(params["name"], elements, state) or press(elements, desc="Play")


class PlayMissingTemplate(WorldTemplate):
    """Play the record {name}, which does not exist (only its twin does): declare it impossible."""

    name, max_steps, split_key = "recorder_play_missing", 9, "name"
    outcome, apps = "infeasible", (REC,)
    phrasings = PlayRecordTemplate.phrasings

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin."""
        pair = _pair(params)
        return {REC: {**pair, "records": pair["records"][1:]}}

    def check(self, params: Params, state: State) -> bool:
        """No record of that name, nothing playing, nothing changed."""
        return (_record(state, params["name"]) is None and not app_state(state, REC).get("playing")
                and untouched(state))

    def looked(self, params: Params, state: State) -> bool:
        """The records list in front."""
        return looking_at(state, REC, "records") is not None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the records list; the name is not there: declare."""
        return to_list(elements, state) or impossible()


class DurationAnswerTemplate(WorldTemplate):
    """How long is the record {name}? Answered with the length its screen shows ("mm:ss")."""

    name, max_steps, split_key = "recorder_duration", 11, "name"
    outcome, apps = "answer", (REC,)
    phrasings = ('How long is the recording "{name}"?', "What is the duration of my audio recording {name}?",
                 "Check in Audio Recorder how long {name} lasts")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin (of another length)."""
        return {REC: _pair(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The record's length as the app writes it, while nothing was changed."""
        rec = _record(state, params["name"])
        return R.clock(rec["duration_s"]) if rec is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the record and answer with its duration."""
        return to_record(params["name"], elements, state) or answer_with(find(elements, rid=R.LENGTH_RID))


# -- templates: the recorder and another app ----------------------------------------------------------------------
class MemoToNoteTemplate(_ClipTemplate):
    """Record at least {seconds} seconds, then write the new record's name in a new Markor note {note}."""

    name, max_steps = "recorder_memo_to_note", 27
    apps = (REC, markor.PACKAGE)
    seconds = (3, 4, 5)
    variants = 6
    phrasings = ('Record a memo of at least {seconds} seconds, then create a Markor note "{note}" containing the '
                 "recording's name",
                 "Make a {seconds}-second voice recording and write down what it was saved as in a new Markor note "
                 "called {note}",
                 "Record {seconds} seconds or more in Audio Recorder and note its file name in Markor as {note}")

    def grid(self) -> list[dict[str, Any]]:
        """Every length and variant, with a note name."""
        return [{**p, "note": f"{_pick(NOTE_STEMS, p['phrasing'] + p['seconds'])}.md"} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recorder without the naming dialog; no such note."""
        return {**super().initial(params), markor.PACKAGE: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One new record that long; the note holds its name; no other note edited."""
        rec, m = one_new(state, params["seconds"]), app_state(state, markor.PACKAGE)
        return (rec is not None and m["files"].get(params["note"], "").strip() == rec["name"]
                and only_touched(m["edits"], {params["note"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Record the clip (its name shows on the recorder), then create the note and type the name."""
        added = app_state(state, REC).get("added")
        if not added:
            return record_clip(params["seconds"], elements, state)
        if params["note"] in app_state(state, markor.PACKAGE)["files"]:
            return markor_write(params["note"], added[0], elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class DurationToTextTemplate(WorldTemplate):
    """Text {person} how long the record {name} is: one SMS to them holding its "mm:ss" length."""

    name, max_steps, split_key = "recorder_duration_to_text", 19, "name"
    apps = (REC, M.PACKAGE)
    phrasings = ('Text {person} how long the recording "{name}" is',
                 "Send {person} a message with the duration of my audio recording {name}",
                 "{person} asked how long {name} lasts: look it up in Audio Recorder and text them")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with a person per instance."""
        return [{**p, "person": names(f"recorder:{p['name']}:{p['phrasing']}", 1)[0]} for p in _twins(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin; a conversation with the person."""
        p = person(params["person"])
        return {REC: _pair(params), M.PACKAGE: {"threads": [conversation(p, ("How long was that recording?",), False)],
                                                "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the length as the recorder shows it; the recorder unchanged."""
        return texts_ok(state, [(params["person"], R.clock(params["length"]))], contains=True) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the record to read its length, then text it."""
        if app_state(state, REC).get("last_opened") != params["name"]:
            return to_record(params["name"], elements, state) or home()
        rec = _record(state, params["name"])
        if rec is None:
            return wait()
        return send_text(person(params["person"]), R.clock(rec["duration_s"]), elements, state)


# -- everyday recorder (issue 49): the goal parser's lines, not in the World suite ---------------------------------
class StartRecordingTemplate(_ClipTemplate):
    """Start recording audio: the recorder records (not paused) when checked; nothing saved, removed or renamed."""

    name, max_steps = "recorder_start", 8
    apps = (REC,)
    phrasings = ("Start recording audio", "Start a voice recording in Audio Recorder",
                 "Begin recording with the recorder")

    def check(self, params: Params, state: State) -> bool:
        """A recording runs; the records are as they were."""
        r = app_state(state, REC)
        rec = r.get("recording")
        return rec is not None and not rec["paused"] and not (r["added"] or r["removed"] or r["renamed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recorder, Record (Resume when paused)."""
        rec = app_state(state, REC).get("recording")
        if rec is not None and rec["paused"]:
            return to_main(elements, state) or press(elements, desc="Resume recording")
        return to_main(elements, state) or press(elements, desc="Record")


class DeleteRecordTemplate(WorldTemplate):
    """Delete the record {name}; its twin {twin} stays."""

    name, max_steps, split_key = "recorder_delete", 12, "name"
    apps = (REC,)
    phrasings = ('Delete the recording called "{name}"', "Remove my audio recording {name}",
                 "In Audio Recorder, get rid of the recording {name}")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin."""
        return {REC: _pair(params)}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that record removed; its twin there; nothing added or renamed."""
        r = app_state(state, REC)
        return (r.get("removed") == [params["name"]] and not r["added"] and not r["renamed"]
                and _record(state, params["twin"]) is not None)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Records, the row, Delete, confirm Delete."""
        step = into_app(LABEL, REC, elements, state)
        if step is None and state["screen"]["name"] == "delete" and app_state(state, REC)["open"] == params["name"]:
            return press(elements, text="Delete", clickable=True)
        return step or to_record(params["name"], elements, state) or press(elements, desc="Delete")


def everyday_params(template: str, **values: Any) -> dict[str, Any]:
    """The parameters of a recorder template (by name) for the values a line names, the rest chosen here.

    "recorder_record_clip": seconds (a finished recording at least that long, in the m4a format the recorder is
    set to); "recorder_start": none; "recorder_rename": new, and name (else the newest record, "latest"), the new
    name compared in any case; "recorder_delete": name. A named record gets a twin "{name} 2" beside it.

    >>> everyday_params("recorder_delete", name="test")["twin"]
    'test 2'

    Raises:
        KeyError: an unknown template name, or a value it needs is missing.
    """
    match template:
        case "recorder_record_clip":
            return {"seconds": values["seconds"], "start": "m4a", "key": f"{values['seconds']}:everyday",
                    "phrasing": 0}
        case "recorder_start":
            return {"seconds": 0, "start": "m4a", "key": "everyday", "phrasing": 0}
        case "recorder_rename":
            if values.get("name") is None:
                pair = _twins()[stable_seed("recorder-latest", values["new"]) % len(TWINS)]
                return {**pair, "new": values["new"], "latest": True, "any_case": True}
            return {**_named(values["name"]), "new": values["new"], "any_case": True}
        case "recorder_delete":
            return _named(values["name"])
    raise KeyError(f"`template` {template!r} is not a recorder template the goal parser uses")


def _named(name: str) -> dict[str, Any]:
    """A line's record `name` with its twin and lengths fixed by the name."""
    seed = stable_seed("recorder-named", name)
    return {"name": name, "twin": f"{name} 2", "length": 20 + seed % 400, "twin_length": 15 + seed // 400 % 300,
            "phrasing": seed % 50}


TEMPLATES: tuple[TaskTemplate, ...] = (
    RecordClipTemplate(), RecordNamedTemplate(), RenameRecordTemplate(), DeleteTwoTemplate(),
    FormatThenRecordTemplate(), DurationAnswerTemplate(), PlayRecordTemplate(), PlayMissingTemplate(),
    MemoToNoteTemplate(), DurationToTextTemplate(),
)
"""The Audio Recorder templates of the world suite."""
EVERYDAY: tuple[TaskTemplate, ...] = (StartRecordingTemplate(), DeleteRecordTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with the suite's record and rename templates;
not in the World suite, whose tasks stay fixed."""
