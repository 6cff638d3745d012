"""World-suite tasks over Audio Recorder (issue 17): record clips of a length (the expert waits while the timer runs),
name, rename, delete and play records, change the recording format first, answer a record's length, decline to play
a record that does not exist, and carry a record's name into Markor or its length into Messages. The task records and
the expert steps these templates share are in `recorder_expert`; the templates outside the suite for the goal
parser's everyday lines (issue 49) are in `recorder_everyday_tasks`.

Every task puts its records on the phone under fixed names (`initial`), next to a twin with a similar name and
another length (the near miss), so the seeded records only shift positions in the list. Checks read the recorder's
state and its change log ("added", "removed", "renamed"), so touching the twin, or anything else, fails. Splits hold
out record names (`split_of`), or the (length, variant) key of the recording tasks. Experts read the UI elements, get
past pop-ups (`into_app`) and retry dropped taps by acting on the unchanged screen again.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import recorder as R
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, home, obstacle, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, State, WorldTemplate, leave, nth, press
from android_gym.tasks.world.infeasible_tasks import impossible, looking_at
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import markor_create, markor_write, only_touched
from android_gym.tasks.world.recorder_expert import (
    LABEL,
    REC,
    TWINS,
    Params,
    days_ago,
    find_record,
    name_dialog,
    one_new,
    record_clip,
    recorder_state,
    rename,
    to_list,
    to_main,
    to_record,
    twin_grid,
    twin_records,
    untouched,
)

NEW_NAMES = ("Final take", "Keep this one", "For the archive", "Best version", "Send to Sam", "Practice 2",
             "Listen again", "Rough cut")
NOTE_STEMS = ("memo_log", "voice_notes", "recordings", "audio_index", "clips_today", "memo_names")


# -- templates: the recorder -----------------------------------------------------------------------------------------
class ClipTemplate(WorldTemplate):
    """Recording templates: (seconds, variant) instances split on their "key"; no naming dialog after Stop."""

    split_key = "key"
    seconds = (3, 4, 5, 6, 7, 8)
    variants = 4

    def grid(self) -> list[dict[str, Any]]:
        """Every length times `variants`, phrasings and start formats rotating."""
        return [{"seconds": s, "key": f"{s}:{k}", "start": nth(R.FORMATS, s + k), "phrasing": s + k}
                for s in self.seconds for k in range(self.variants)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recorder set to the variant's format, without the naming dialog."""
        return {REC: {"settings": {"format": params["start"], "ask_name": False}}}


class RecordClipTemplate(ClipTemplate):
    """Record a clip of at least {seconds} seconds: one new record that long, nothing else changed."""

    name, max_steps = "recorder_record_clip", 19
    apps = (REC,)
    phrasings = ("Record an audio clip of at least {seconds} seconds with Audio Recorder",
                 "Use the recorder to make a voice recording that lasts {seconds} seconds or more",
                 "Record {seconds} seconds of audio in Audio Recorder and save it")

    def check(self, params: Params, state: State) -> bool:
        """Exactly one new record, at least that long, in the format the recorder was set to, nothing renamed."""
        rec = one_new(state, params["seconds"])
        return rec is not None and rec["format"] == params["start"] and not recorder_state(state)["renamed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recorder, Record, wait for the timer, Stop."""
        return record_clip(params["seconds"], elements, state)


class FormatThenRecordTemplate(ClipTemplate):
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
            fmt = nth(tuple(f for f in R.FORMATS if f != p["start"]), p["phrasing"])
            rate = nth((8000, 16000, 22050, 32000, 48000), p["seconds"] * 3 + p["phrasing"])
            out.append({**p, "fmt": fmt, "rate": rate, "rate_label": R.rate_label(rate)})
        return out

    def check(self, params: Params, state: State) -> bool:
        """The settings are as asked and the only new record was made with them, at least that long."""
        rec, settings = one_new(state, params["seconds"]), recorder_state(state)["settings"]
        return (rec is not None and (rec["format"], rec["sample_rate"]) == (params["fmt"], params["rate"])
                and (settings["format"], settings["sample_rate"]) == (params["fmt"], params["rate"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Settings, Recording format, the format, Sample rate, the rate, back; then record the clip."""
        settings = recorder_state(state)["settings"]
        if (settings["format"], settings["sample_rate"]) == (params["fmt"], params["rate"]):
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
        return [{**p, "seconds": 3 + p["phrasing"] % 3, "ask": p["phrasing"] % 2 == 0} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The twin record (not the name), and the naming dialog setting of the variant."""
        return {REC: {"absent": [params["name"], params["twin"]], "settings": {"ask_name": params["ask"]},
                      "records": [{"name": params["twin"], "duration_s": params["twin_length"],
                                   "date": days_ago(12 + 11 * params["phrasing"] % 50)}]}}

    def check(self, params: Params, state: State) -> bool:
        """The only new record is called {name} and long enough; the twin is still there, never renamed."""
        rec, r = one_new(state, params["seconds"]), recorder_state(state)
        return (rec is not None and rec["name"] == params["name"] and find_record(state, params["twin"]) is not None
                and all(e["from"] != params["twin"] for e in r["renamed"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Record the clip; rename it in the dialog after Stop, or from its screen in the list."""
        r = recorder_state(state)
        if not r["added"]:
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
        return [{**p, "new": nth(NEW_NAMES, p["phrasing"] + 3 * (p["phrasing"] // 20))} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin; nothing called {new}. With the optional "latest": True (a line saying "my last
        recording"), the record is today's, the newest of the list, and its twin yesterday's."""  # noqa: D205, D209
        pair = twin_records(params)
        if params.get("latest"):
            first, second = pair["records"]
            pair = {**pair, "records": [{**first, "date": days_ago(0)}, {**second, "date": days_ago(1)}]}
        return {REC: {**pair, "absent": [*pair["absent"], params["new"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that one rename; the record keeps its length; nothing added or removed. With the optional
        "any_case": True (a parsed line, whose words arrive lower-cased), the new name may be in any case."""  # noqa: D205, D209
        r = recorder_state(state)
        if params.get("any_case"):
            new = params["new"].casefold()
            renamed = [(e["from"], e["to"].casefold()) for e in r["renamed"]]
            rec = next((x for x in r["records"] if x["name"].casefold() == new), None)
            return (renamed == [(params["name"], new)] and not r["added"] and not r["removed"] and rec is not None
                    and rec["duration_s"] == params["length"])
        rec = find_record(state, params["new"])
        return (r["renamed"] == [{"from": params["name"], "to": params["new"]}] and not r["added"]
                and not r["removed"] and rec is not None and rec["duration_s"] == params["length"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Records, the row, Rename, Clear text, the new name, OK."""
        if find_record(state, params["new"]) is not None:
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
                for i, p in enumerate(twin_grid())]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both records and both twins."""
        a, b = twin_records(params), twin_records({**params, "name": params["other"], "twin": params["other_twin"]})
        return {REC: {"absent": a["absent"] + b["absent"], "records": a["records"] + b["records"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two records removed; nothing added or renamed."""
        r = recorder_state(state)
        return (sorted(r["removed"]) == sorted([params["name"], params["other"]]) and not r["added"]
                and not r["renamed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """For each still there: its screen, Delete, confirm Delete (the list comes back)."""
        left = [n for n in (params["name"], params["other"]) if find_record(state, n) is not None]
        if not left:
            return wait()
        step = into_app(LABEL, REC, elements, state)
        r = recorder_state(state)
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
        return [{**p, "length": p["length"] + 60} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin."""
        return {REC: twin_records(params)}

    def check(self, params: Params, state: State) -> bool:
        """It is playing, the recorder in front, nothing changed."""
        playing = recorder_state(state)["playing"]
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
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin."""
        pair = twin_records(params)
        return {REC: {**pair, "records": pair["records"][1:]}}

    def check(self, params: Params, state: State) -> bool:
        """No record of that name, nothing playing, nothing changed."""
        return (find_record(state, params["name"]) is None and not recorder_state(state)["playing"]
                and untouched(state))

    def looked(self, params: Params, state: State) -> bool:
        """The records list in front."""
        return looking_at(state, R.RecorderState, "records") is not None

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
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin (of another length)."""
        return {REC: twin_records(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The record's length as the app writes it, while nothing was changed."""
        rec = find_record(state, params["name"])
        return R.clock(rec["duration_s"]) if rec is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the record and answer with its duration."""
        return to_record(params["name"], elements, state) or answer_with(find(elements, rid=R.LENGTH_RID))


# -- templates: the recorder and another app ----------------------------------------------------------------------
class MemoToNoteTemplate(ClipTemplate):
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
        return [{**p, "note": f"{nth(NOTE_STEMS, p['phrasing'] + p['seconds'])}.md"} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recorder without the naming dialog; no such note."""
        return {**super().initial(params), markor.PACKAGE: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One new record that long; the note holds its name; no other note edited."""
        rec, m = one_new(state, params["seconds"]), state_of(state, markor.MarkorState)
        return (rec is not None and m["files"].get(params["note"], "").strip() == rec["name"]
                and only_touched(m["edits"], {params["note"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Record the clip (its name shows on the recorder), then create the note and type the name."""
        added = recorder_state(state)["added"]
        if not added:
            return record_clip(params["seconds"], elements, state)
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
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
        return [{**p, "person": names(f"recorder:{p['name']}:{p['phrasing']}", 1)[0]} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin; a conversation with the person."""
        p = person(params["person"])
        return {REC: twin_records(params),
                M.PACKAGE: {"threads": [conversation(p, ("How long was that recording?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the length as the recorder shows it; the recorder unchanged."""
        return texts_ok(state, [(params["person"], R.clock(params["length"]))], contains=True) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the record to read its length, then text it."""
        if recorder_state(state)["last_opened"] != params["name"]:
            return to_record(params["name"], elements, state) or home()
        rec = find_record(state, params["name"])
        if rec is None:
            return wait()
        return send_text(person(params["person"]), R.clock(rec["duration_s"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    RecordClipTemplate(), RecordNamedTemplate(), RenameRecordTemplate(), DeleteTwoTemplate(),
    FormatThenRecordTemplate(), DurationAnswerTemplate(), PlayRecordTemplate(), PlayMissingTemplate(),
    MemoToNoteTemplate(), DurationToTextTemplate(),
)
"""The Audio Recorder templates of the world suite."""
