"""Audio Recorder templates that only the everyday instructions use (issue 49), outside the World suite, whose tasks
stay as published: start recording, delete a record (`EVERYDAY`: with the suite's record and rename templates, the
recorder templates the goal parser maps everyday lines onto). `everyday_params` fills in what a line leaves unsaid: a
record the line names gets a twin of a similar name beside it.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world.base import Elements, State, WorldTemplate, press
from android_gym.tasks.world.recorder_expert import (
    LABEL,
    REC,
    TWINS,
    Params,
    find_record,
    recorder_state,
    to_main,
    to_record,
    twin_grid,
    twin_records,
)
from android_gym.tasks.world.recorder_tasks import ClipTemplate


class StartRecordingTemplate(ClipTemplate):
    """Start recording audio: the recorder records (not paused) when checked; nothing saved, removed or renamed."""

    name, max_steps = "recorder_start", 8
    apps = (REC,)
    phrasings = ("Start recording audio", "Start a voice recording in Audio Recorder",
                 "Begin recording with the recorder")

    def check(self, params: Params, state: State) -> bool:
        """A recording runs; the records are as they were."""
        r = recorder_state(state)
        rec = r["recording"]
        return rec is not None and not rec["paused"] and not (r["added"] or r["removed"] or r["renamed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recorder, Record (Resume when paused)."""
        rec = recorder_state(state)["recording"]
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
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The record and its twin."""
        return {REC: twin_records(params)}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that record removed; its twin there; nothing added or renamed."""
        r = recorder_state(state)
        return (r["removed"] == [params["name"]] and not r["added"] and not r["renamed"]
                and find_record(state, params["twin"]) is not None)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Records, the row, Delete, confirm Delete."""
        step = into_app(LABEL, REC, elements, state)
        if step is None and state["screen"]["name"] == "delete" and recorder_state(state)["open"] == params["name"]:
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
                pair = twin_grid()[stable_seed("recorder-latest", values["new"]) % len(TWINS)]
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


EVERYDAY: tuple[TaskTemplate, ...] = (StartRecordingTemplate(), DeleteRecordTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with the suite's record and rename templates;
not in the World suite, whose tasks stay fixed."""
