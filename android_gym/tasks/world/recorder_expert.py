"""Task records and expert steps the Audio Recorder templates share (`recorder_tasks`, `recorder_everyday_tasks`).

The task records: their names, each with a twin of a similar name (`TWINS`), an instance per pair (`twin_grid`), the
record and its twin put on the phone (`twin_records`, dated by `days_ago`). The checks read the recorder's state
(`recorder_state`) with `find_record`, `untouched` and `one_new`. Each expert step reads the UI elements and the sim's
state and returns the next action towards a sub-goal: the main screen (`to_main`), the records list (`to_list`), a
record's screen (`to_record`), a clip of a length (`record_clip`), the rename dialog filled in (`name_dialog`), a
record renamed (`rename`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import recorder as R
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, fill, find, obstacle, wait
from android_gym.tasks.world.base import Elements, Params, State, leave, press
from android_gym.tasks.world.notes_expert import reach

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


def twin_grid(variants: int = 1) -> list[dict[str, Any]]:
    """Every twin pair `variants` times: the name, its twin, their lengths in seconds, a phrasing."""
    return [{"name": n, "twin": t, "length": 20 + (37 * i + 11 * k) % 400, "twin_length": 15 + (53 * i + 7 * k) % 300,
             "phrasing": i + k} for i, (n, t) in enumerate(TWINS) for k in range(variants)]


def twin_records(params: Params) -> dict[str, Any]:
    """Initial records: the task's record and its twin (the twin never as long: the answer tells them apart)."""
    twin_length = params["twin_length"] + (1 if params["twin_length"] == params["length"] else 0)
    return {"absent": [params["name"], params["twin"]], "records": [
        {"name": params["name"], "duration_s": params["length"], "date": days_ago(10 + 7 * params["phrasing"] % 50)},
        {"name": params["twin"], "duration_s": twin_length, "format": "wav",
         "date": days_ago(12 + 11 * params["phrasing"] % 50)}]}


def days_ago(age: int) -> str:
    """The date `age` days before the sim's today: task records sit among the seeded ones (1-90 days old)."""
    return str(R.DATE - datetime.timedelta(days=age))


def recorder_state(state: State) -> R.RecorderState:
    """Audio Recorder's part of the device state."""
    return state_of(state, R.RecorderState)


def find_record(state: State, name: str) -> R.RecordState | None:
    """The record called `name`, or None."""
    return next((r for r in recorder_state(state)["records"] if r["name"] == name), None)


def untouched(state: State) -> bool:
    """Nothing recorded, removed or renamed in the recorder this episode, and it is not recording."""
    r = recorder_state(state)
    return not (r["added"] or r["removed"] or r["renamed"] or r["recording"])


def one_new(state: State, seconds: int) -> R.RecordState | None:
    """The only record made this episode, when it is at least `seconds` long and nothing else changed."""
    r = recorder_state(state)
    if len(r["added"]) != 1 or r["removed"] or r["recording"]:
        return None
    rec = find_record(state, r["added"][0])
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
        return None if recorder_state(state)["open"] == name else back()
    return step or to_list(elements, state) or reach(elements, state, find(elements, rid=R.NAME_RID, text=name))


def record_clip(seconds: int, elements: Elements, state: State) -> Action:
    """On the main screen: Record, wait until the timer shows `seconds`, Stop (resume a paused recording)."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    rec = recorder_state(state)["recording"]
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
    r = recorder_state(state)
    if step is None and state["screen"]["name"] == "rename" and r["open"] == name:
        return name_dialog(new, elements, state)
    return step or to_record(name, elements, state) or press(elements, desc="Rename")
