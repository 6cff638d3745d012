"""Everyday phrasings of the Photos and Audio Recorder tasks (issue 49).

They map onto `photos_tasks`, `media_everyday_tasks`, `recorder_tasks` and `recorder_everyday_tasks` (taking photos,
selfies and videos is read by the camera family of `rules`).

"Open my most recent picture", "Delete the last photo I took", "Share the latest photo with Jamie": today's newest
photo, a video five minutes newer beside it (no picture), and for a share the contact the line names, put on the
phone as the only contact of that first name. "Record a voice memo", "Start recording audio", "Rename my last
recording to Interview", "Delete the recording called test": the record a line names is put on the phone with a twin
of a similar name; a new name arrives lower-cased, so it is checked in any case.

    >>> RECORD.read("test"), RECORD.read("voice memo"), NEW_NAME.read("interview")
    ('test', 'Voice memo', 'Interview')
"""  # noqa: D205

from __future__ import annotations

from dataclasses import dataclass

from android_gym.sim.apps import recorder as R
from android_gym.tasks.goals.everyday.people import CONTACT
from android_gym.tasks.goals.rule import Rule, rule
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.world.media_everyday_tasks import ShareLatestTemplate, ShowLatestTemplate, latest
from android_gym.tasks.world.photos_tasks import DeleteLatestTemplate
from android_gym.tasks.world.recorder_everyday_tasks import (
    DeleteRecordTemplate,
    StartRecordingTemplate,
    everyday_params,
)
from android_gym.tasks.world.recorder_tasks import RecordClipTemplate, RenameRecordTemplate

MEMO_SECONDS = 1
"""The length a recording needs when the line names none ("Record a voice memo"): any finished recording."""


@dataclass(frozen=True)
class RecordName:
    """A record's name as the line gives it; a name the recorder's own list uses keeps that list's case ("voice
    memo" -> "Voice memo"); `capitalise` writes a new name with a capital first letter ("interview" ->
    "Interview")."""  # noqa: D205, D209

    capitalise: bool = False

    def read(self, text: str) -> str:
        """The name."""
        name = " ".join(words(text))
        if not name:
            raise UnknownValue("an empty recording name")
        known = {p.casefold(): p for p in R.POOL}
        if name in known:
            return known[name]
        return name[0].upper() + name[1:] if self.capitalise else name

    def vocabulary(self) -> set[str]:
        """Any words: none of its own."""
        return set()


RECORD, NEW_NAME = RecordName(), RecordName(capitalise=True)
_LATEST = "(latest|last|most recent|newest)"
_PHOTO = "(photo|picture|pic|image)"
_RECORDING = "(recording|record|voice memo|memo|audio recording|voice recording)"

RULES: tuple[Rule, ...] = (
    rule("photos", ShowLatestTemplate(), (
        f"(open|show me|show|view) [my|the] {_LATEST} {_PHOTO} [i took]",
    ), lambda s: latest()),
    rule("photos", DeleteLatestTemplate(), (
        f"(delete|remove|trash) [my|the] {_LATEST} {_PHOTO} [i took]",
    ), lambda s: latest()),
    rule("photos", ShareLatestTemplate(), (  # sent in Photos ("Send in Photos") to the contact
        f"(share|send) [my|the] {_LATEST} {_PHOTO} [i took] (with|to) {{person}}",
        f"send {{person}} [my|the] {_LATEST} {_PHOTO} [i took]",
    ), lambda s: {**latest(), "person": s["person"]}, readers={"person": CONTACT}),
    rule("recorder", RecordClipTemplate(), (
        "record a [voice|audio] (memo|note|message|clip|recording) [in audio recorder|with the recorder]",
        "record (audio|my voice|a voice recording|an audio clip|an audio recording)",
        "make a (voice|audio) (memo|recording|note)",
    ), lambda s: everyday_params("recorder_record_clip", seconds=MEMO_SECONDS)),
    rule("recorder", StartRecordingTemplate(), (  # started, not stopped: the recording runs when checked
        "start recording [audio|sound|my voice|a voice memo] [in audio recorder|with the recorder]",
        "start (a|an) [new] [voice|audio] recording",
        "begin recording [audio]",
    ), lambda s: everyday_params("recorder_start")),
    rule("recorder", RenameRecordTemplate(), (
        f"rename [my|the] {_LATEST} {_RECORDING} (to|as) {{new}}",
        f"(call|name) [my|the] {_LATEST} {_RECORDING} {{new}}",
    ), lambda s: everyday_params("recorder_rename", new=s["new"]), readers={"new": NEW_NAME}),
    rule("recorder", RenameRecordTemplate(), (
        f"rename [my|the] {_RECORDING} [called|named] {{record}} (to|as) {{new}}",
    ), lambda s: everyday_params("recorder_rename", name=s["record"], new=s["new"]),
        readers={"record": RECORD, "new": NEW_NAME}),
    rule("recorder", DeleteRecordTemplate(), (
        f"(delete|remove) [my|the] {_RECORDING} [called|named] {{record}}",
    ), lambda s: everyday_params("recorder_delete", name=s["record"]), readers={"record": RECORD}),
)
"""Photos (the newest photo: open, delete, share) and Audio Recorder (record, start, rename, delete)."""
