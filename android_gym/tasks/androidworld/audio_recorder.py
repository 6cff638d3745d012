"""AndroidWorld's Audio Recorder tasks `AudioRecorderRecordAudio` ("Record an audio clip using Audio Recorder app and
save it.") and `AudioRecorderRecordAudioWithFileName` (save it with name "{file_name}").

AndroidWorld counts the files of the recordings folder that are new or changed and not empty: exactly one wins, of
any length and format, and an old recording renamed counts as a second changed file. Here the check reads the
recorder's records and change log: exactly one record made this episode, finished (not still recording) and at
least a second long (not empty), in any format (the goal names none), no record removed (AndroidWorld ignores an
old recording deleted; here it is an extra change and loses), and no rename except of the new record itself (naming
one's own clip is still one new file).

The named clip: AndroidWorld draws one of 25 words, adds ".m4a" and one affix (`markor.modified_name`: a date, four
random letters or digits, or a fixed word; its 2023 dates rebased onto the 287 days before the sim's
2026-06-10), clears the recordings and looks for a file "<file_name>.m4a". The recorder adds the format's extension
to the name it is given, and the goal's name already ends in ".m4a": so AndroidWorld wins only when the clip is
named exactly "{file_name}" (".m4a" included) and recorded as m4a, the recorder's format at the start. The check here
asks the same of the one new record, while a record named after the bare word ("toast.m4a", the near miss)
sits in the list. AndroidWorld draws no more; the naming dialog after Stop is drawn on or off per instance.

The task without parameters draws how the recorder starts instead (`variant`: its format, sample rate and naming
dialog). The World templates' experts play both (`recorder_record_clip`, `recorder_record_named`).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.sim.app import stable_seed
from android_gym.sim.apps import recorder as R
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.markor import modified_name
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.recorder_expert import REC, find_record, recorder_state
from android_gym.tasks.world.recorder_tasks import RecordClipTemplate, RecordNamedTemplate

STARTS = 72
"""Recorder starts drawn from: 3 formats x 6 sample rates x the naming dialog on or off x 2 clip lengths."""
WORDS = ("podcast", "rehearsal", "sermon", "voicemail", "dictation", "reminder", "speech", "toast", "lesson",
         "practice", "demo", "pitch", "standup", "recap", "huddle", "announcement", "monologue", "reading",
         "audition", "tutorial", "brainstorm", "checkin", "feedback", "retrospective", "keynote")
"""What a recording is of: the stems of the named clips (AndroidWorld has 25 such words)."""


def start_of(variant: int) -> dict[str, Any]:
    """The recorder's settings at the start of `variant`, and how many seconds the expert records.

    >>> start_of(0), start_of(71)["settings"]
    ({'settings': {'format': 'm4a', 'sample_rate': 8000, 'ask_name': False}, 'seconds': 1}, \
{'format': '3gp', 'sample_rate': 48000, 'ask_name': True})
    """
    rate, rest = divmod(variant, 12)
    fmt, rest = divmod(rest, 4)
    return {"settings": {"format": R.FORMATS[fmt], "sample_rate": R.SAMPLE_RATES[rate],
                         "ask_name": rest % 2 == 1}, "seconds": 1 + rest // 2}


def new_clip(state: State) -> R.RecordState | None:
    """The one record made this episode when it is finished and not empty, nothing was removed, and every rename was
    of it; else None."""  # noqa: D205, D209
    r = recorder_state(state)
    if len(r["added"]) != 1 or r["removed"] or r["recording"] is not None:
        return None
    name = r["added"][0]
    for renaming in reversed(r["renamed"]):  # back through the renames from its name now: each must be its own
        if renaming["to"] != name:
            return None
        name = renaming["from"]
    rec = find_record(state, r["added"][0])
    return rec if rec is not None and rec["duration_s"] >= 1 else None


class AudioRecorderRecordAudio(AndroidWorldTemplate):
    """Record a clip and save it: one new finished record, any length and format, nothing else changed."""

    name, split_key = "AudioRecorderRecordAudio", "variant"
    goal_template = "Record an audio clip using Audio Recorder app and save it."
    like = RecordClipTemplate()
    max_steps = 10  # the expert takes 5 steps (`like` budgets for up to 8 seconds of recording)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """How the recorder starts (AndroidWorld's task has no parameters)."""
        return {"variant": rng.randrange(STARTS)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """A clip of a second or two, in the start's format."""
        start = start_of(params["variant"])
        return {"seconds": start["seconds"], "key": str(params["variant"]), "start": start["settings"]["format"],
                "phrasing": 0}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The recorder's settings of the variant (format, sample rate, naming dialog)."""
        return {REC: {"settings": start_of(params["variant"])["settings"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one new finished clip, in any format; nothing removed, no other record renamed."""
        return new_clip(state) is not None


class AudioRecorderRecordAudioWithFileName(AndroidWorldTemplate):
    """Record a clip named {file_name} (".m4a" in the name) in m4a; a record named after the bare word is listed."""

    name, split_key = "AudioRecorderRecordAudioWithFileName", "file_name"
    goal_template = 'Record an audio clip and save it with name "{file_name}" using Audio Recorder app.'
    like = RecordNamedTemplate()
    max_steps = 20  # the expert takes 8 steps with the naming dialog, 11 without (it renames from the list)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A word with ".m4a", modified; and whether the naming dialog opens after Stop (not AndroidWorld's)."""
        return {"file_name": modified_name(rng, pick(rng, WORDS) + ".m4a"), "ask": rng.random() < 0.5}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The name, its near miss (the bare word's record, of a stable length and date), a 2-second clip."""
        key = stable_seed("androidworld", self.name, params["file_name"])
        return {"name": params["file_name"], "twin": twin_of(params["file_name"]), "twin_length": 15 + key % 300,
                "seconds": 2, "ask": params["ask"], "phrasing": key % 50}

    def check(self, params: Params, state: State) -> bool:
        """The one new clip is named exactly {file_name} and is m4a; nothing removed, no other record renamed."""
        rec = new_clip(state)
        return rec is not None and rec["name"] == params["file_name"] and rec["format"] == "m4a"


def twin_of(file_name: str) -> str:
    """The near miss of a named clip: the record named after its bare word.

    >>> twin_of("2026_01_31_toast.m4a"), twin_of("demo_copy.m4a"), twin_of("x7Yq_keynote.m4a")
    ('toast.m4a', 'demo.m4a', 'keynote.m4a')
    """
    stem = file_name.removesuffix(".m4a")
    return next(w for w in sorted(WORDS, key=len, reverse=True) if w in stem.split("_")) + ".m4a"


TEMPLATES = (AudioRecorderRecordAudio(), AudioRecorderRecordAudioWithFileName())
