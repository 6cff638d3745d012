"""AndroidWorld's Audio Recorder tasks on the suite: names drawn as AndroidWorld draws them, and checks that let what
AndroidWorld counts win (a clip of any length and format, one's own clip renamed) and what it does not lose (a
second or unfinished clip, an old record renamed, a name without its ".m4a", another format)."""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import recorder as R
from android_gym.tasks.androidworld import audio_recorder as A
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

CLIP, NAMED = A.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def recorded(state: State, name: str = "Record-99", seconds: int = 3, fmt: str = "m4a", **log: Any) -> State:
    """`state` after one clip `name` was recorded and stopped; `log` overrides the recorder's other fields."""
    r = state["apps"][R.PACKAGE]
    clip = {"name": name, "duration_s": seconds, "format": fmt, "sample_rate": 44100, "date": str(R.DATE)}
    changed = {**r, "records": [clip, *r["records"]], "added": [name], **log}
    return {**state, "apps": {**state["apps"], R.PACKAGE: changed}}


def old_record(state: State) -> str:
    """The name of a record the phone started with."""
    return state["apps"][R.PACKAGE]["records"][0]["name"]


# -- AudioRecorderRecordAudio -----------------------------------------------------------------------------------------
def test_the_clip_task_has_no_parameters_but_draws_how_the_recorder_starts() -> None:
    starts = {repr(CLIP.initial(p)) for p in CLIP.values("train")}
    formats = {CLIP.initial(p)[R.PACKAGE]["settings"]["format"] for p in CLIP.values("train")}
    assert len(starts) > 20 and formats == set(R.FORMATS)
    assert {CLIP.goal(p) for p in CLIP.values("train")} == {CLIP.goal_template}


@pytest.mark.parametrize("fmt", R.FORMATS)
def test_one_finished_clip_of_any_length_and_format_wins(fmt: str) -> None:
    """AndroidWorld counts any non-empty new file: a one-second clip wins, in every format, whatever the start."""
    task = next(t for t in CLIP.tasks("train") if CLIP.initial(t.params)[R.PACKAGE]["settings"]["format"] != fmt)
    state = start(task)
    assert not task.check(state)
    assert task.check(recorded(state, seconds=1, fmt=fmt))


def test_naming_ones_own_clip_still_wins() -> None:
    """Renaming the new clip (even twice) leaves one new file in AndroidWorld's folder."""
    state = start(CLIP.tasks("train")[0])
    log = [{"from": "Record-99", "to": "Take one"}, {"from": "Take one", "to": "Take two"}]
    assert CLIP.tasks("train")[0].check(recorded(state, name="Take two", renamed=log))


def test_a_second_clip_an_unfinished_or_empty_one_or_another_change_loses() -> None:
    task = CLIP.tasks("train")[0]
    state = start(task)
    old = old_record(state)
    assert not task.check(recorded(recorded(state), name="Record-100", added=["Record-99", "Record-100"]))
    assert not task.check(recorded(state, recording={"elapsed_s": 2, "paused": False}))  # a second one under way
    assert not task.check(recorded(state, seconds=0))  # an empty file
    assert not task.check(recorded(state, removed=[old]))  # an old record deleted beside it
    assert not task.check(recorded(state, renamed=[{"from": old, "to": "Renamed"}]))  # an old record renamed
    mixed = [{"from": "Record-99", "to": "Mine"}, {"from": old, "to": "Theirs"}]
    assert not task.check(recorded(state, name="Mine", renamed=mixed))  # its own rename and an old one's


def test_the_expert_records_in_the_format_the_recorder_starts_in() -> None:
    task = next(t for t in reversed(CLIP.tasks("train")) if  # one goal: it trains only (issue 50)
                CLIP.initial(t.params)[R.PACKAGE]["settings"]["format"] == "wav")
    assert run_episode(task, seed=5, device=phone()).success
    r = phone().state()["apps"][R.PACKAGE]
    assert [x["format"] for x in r["records"] if x["name"] == r["added"][0]] == ["wav"]


# -- AudioRecorderRecordAudioWithFileName -----------------------------------------------------------------------------
def test_clip_names_are_a_word_with_m4a_and_one_affix_dates_rebased_onto_the_sims_calendar() -> None:
    names = [p["file_name"] for split in ("train", "test") for p in NAMED.values(split)]
    assert all(n.endswith(".m4a") and A.twin_of(n)[:-4] in A.WORDS and n != A.twin_of(n) for n in names)
    dates = [m.group(0) for n in names if (m := re.search(r"\d{4}_\d{2}_\d{2}", n))]
    assert dates and all(datetime.date(2025, 8, 27) <= datetime.datetime.strptime(d, "%Y_%m_%d").date()
                         < datetime.date(2026, 6, 10) for d in dates)
    assert any(re.search(r"_[A-Za-z0-9]{4}\.m4a$|^[A-Za-z0-9]{4}_", n) and not re.search(r"\d{4}_\d{2}", n)
               for n in names)  # four random letters or digits
    goal = NAMED.goal(NAMED.values("train")[0])
    assert goal == f'Record an audio clip and save it with name "{NAMED.values("train")[0]["file_name"]}" using ' \
                   "Audio Recorder app."


def test_the_clip_named_exactly_the_goals_name_wins_whatever_its_length_or_how_it_was_named() -> None:
    task = NAMED.tasks("train")[0]
    name, state = task.params["file_name"], start(task)
    assert not task.check(state)
    assert task.check(recorded(state, name=name, seconds=1))  # `like` wants 2 s or more; AndroidWorld no length
    assert task.check(recorded(state, name=name, renamed=[{"from": "Record-99", "to": name}]))


def test_a_name_without_m4a_another_format_the_twin_renamed_or_deleted_loses() -> None:
    """AndroidWorld looks for "<file_name>.m4a": the recorder writes that file only for this name, in m4a."""
    task = NAMED.tasks("train")[0]
    name, twin, state = task.params["file_name"], A.twin_of(task.params["file_name"]), start(task)
    assert twin in [x["name"] for x in state["apps"][R.PACKAGE]["records"]]
    assert not task.check(recorded(state, name=name[:-4]))  # the file would be <name without .m4a>.m4a
    assert not task.check(recorded(state, name=name.upper()))
    assert not task.check(recorded(state, name=name, fmt="wav"))  # <file_name>.wav
    assert not task.check(recorded(state, name=name, removed=[twin]))
    r = state["apps"][R.PACKAGE]
    renamed = [{**x, "name": name} if x["name"] == twin else x for x in r["records"]]
    twin_renamed = {**r, "records": renamed, "renamed": [{"from": twin, "to": name}]}
    assert not task.check({**state, "apps": {**state["apps"], R.PACKAGE: twin_renamed}})  # no new clip at all


@pytest.mark.parametrize("ask", [False, True])
def test_the_expert_names_the_clip_with_and_without_the_naming_dialog(ask: bool) -> None:
    task = next(t for t in NAMED.tasks("test") if t.params["ask"] is ask)
    episode = run_episode(task, seed=2, device=phone())
    assert episode.success and phone().state()["apps"][R.PACKAGE]["added"] == [task.params["file_name"]]
