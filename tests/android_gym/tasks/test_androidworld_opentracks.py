"""Tests of AndroidWorld's OpenTracks questions on the suite: the tracks the phone starts with (the targets and 20
random tracks that meet not all of the exclusion conditions, the seeded ones cleared, dates said as AndroidWorld
says them) and the answers compared as AndroidWorld compares them: types in any order and case, numbers exact or
within 10 m; a type missing or extra, a near-miss track's figure, a track of last week or before the interval, a
figure 10 m off or in another unit loses; an edited track leaves no answer."""  # noqa: D205, D209

from __future__ import annotations

import dataclasses
import datetime
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import opentracks_data as D
from android_gym.tasks.androidworld import opentracks as Q
from android_gym.tasks.base import Task

ON_DATE, COUNT_WEEK, DURATION, LONGEST, TOTAL_TIME, TOTAL_DISTANCE = Q.TEMPLATES
SUNDAY_BEFORE = str(Q.MONDAY - datetime.timedelta(days=1))
"""The last day of last week: a track then is not this week's."""


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 1) -> dict[str, Any]:
    """The phone's state reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone.state()


def tracks(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every track of OpenTracks, newest first."""
    return state_of(state, D.OpenTracksState)["tracks"]


def says(task: Task, state: dict[str, Any], text: str) -> bool:
    """Whether answering `text` wins."""
    return task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=text))


def with_track(task: Task, **fields: Any) -> Task:
    """`task` with one more track at the start: a copy of its first target with `fields` changed."""
    target = next(r for r in task.params["rows"] if task.template.wanted(task.params, r))
    extra = {**target, "name": "Near miss", **fields}
    return dataclasses.replace(task, params={**task.params, "rows": [*task.params["rows"], extra]})


def wanted(task: Task, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The tracks the question is about."""
    return [r for r in tracks(state) if task.template.wanted(task.params, r)]


@pytest.mark.parametrize("template", Q.TEMPLATES, ids=lambda t: t.name)
def test_the_phone_holds_only_the_targets_and_twenty_random_tracks_none_of_them_wanted(template: Any) -> None:
    for task in template.tasks("train")[:2] + template.tasks("test")[:2]:
        state = started(task)
        every = tracks(state)
        assert len(every) == len(task.params["rows"]) and not any(r["name"] in Q.D.SEED_TRACKS for r in every)
        assert len(wanted(task, state)) == len(every) - Q.NOISE in (1, 2)
        assert all(r["date"] < str(D.DATE) or r["start"] < "09:41" for r in every)  # nothing starts after now
        assert all(r["distance_m"] % 10 == 0 for r in every)  # the app's two decimals of a km read them exactly
        for key, day in (("date", "day"), ("start_date", "first"), ("end_date", "last")):
            if key in task.params:
                days = (datetime.date.fromisoformat(task.params[day]) - D.DATE).days
                assert task.params[key] in Q.spoken_dates(days)


def test_activities_on_date_wins_in_any_order_and_case_and_loses_otherwise() -> None:
    task = ON_DATE.tasks("test")[0]
    state = started(task)
    types = [r["category"] for r in wanted(task, state)]
    other = next(r["category"] for r in tracks(state) if r["category"] not in types)
    assert len(types) == 2
    assert says(task, state, ", ".join(reversed(types))) and says(task, state, ", ".join(types).upper())
    assert not says(task, state, types[0])  # one missing
    assert not says(task, state, f"{types[0]}, {types[1]}, {other}")  # one too many
    assert not says(task, state, f"{types[0]}, {types[0]}")  # one twice
    assert not says(task, state, f"{types[0]}, {other}")  # a track of another day


def test_count_for_week_counts_monday_to_sunday_only() -> None:
    task = with_track(COUNT_WEEK.tasks("train")[0], date=SUNDAY_BEFORE)
    state = started(task)
    assert says(task, state, "2") and says(task, state, "2.0")
    assert not says(task, state, "3") and not says(task, state, "two") and not says(task, state, "1")


def test_duration_is_the_minutes_of_that_days_track_of_that_type() -> None:
    task = DURATION.tasks("test")[1]
    day = datetime.date.fromisoformat(task.params["day"])
    task = with_track(task, date=str(day - datetime.timedelta(days=1)), duration_s=17 * 60)
    state = started(task)
    (track,) = wanted(task, state)
    minutes = track["duration_s"] // 60
    assert says(task, state, str(minutes)) and says(task, state, f" {minutes}.0")
    assert not says(task, state, str(minutes + 1)) and not says(task, state, "17")  # the near miss, a day earlier
    assert not says(task, state, D.time_label(track["duration_s"]))  # the screen's "1:30:00" is not minutes


def test_longest_distance_is_this_weeks_farthest_within_ten_metres() -> None:
    task = LONGEST.tasks("train")[0]
    longest = task.params["distance"]
    task = with_track(task, date=SUNDAY_BEFORE, distance_m=longest + 5000)  # farther, but last week
    task = with_track(task, distance_m=longest - 500, name="Shorter")  # this week, shorter
    state = started(task)
    assert says(task, state, str(longest)) and says(task, state, str(longest + 9))
    assert not says(task, state, str(longest + 10)) and not says(task, state, str(longest - 500))
    assert not says(task, state, str(longest + 5000)) and not says(task, state, f"{longest / 1000:.2f}")


def test_total_duration_sums_this_weeks_tracks_of_the_type() -> None:
    task = with_track(TOTAL_TIME.tasks("test")[0], date=SUNDAY_BEFORE, duration_s=33 * 60)
    state = started(task)
    minutes = [r["duration_s"] // 60 for r in wanted(task, state)]
    assert len(minutes) == 2 and says(task, state, str(sum(minutes)))
    assert not says(task, state, str(minutes[0])) and not says(task, state, str(sum(minutes) + 33))
    assert not says(task, state, f"{minutes[0]}, {minutes[1]}")


def test_total_distance_sums_the_interval_within_ten_metres() -> None:
    task = TOTAL_DISTANCE.tasks("train")[0]
    first = datetime.date.fromisoformat(task.params["first"])
    task = with_track(task, date=str(first - datetime.timedelta(days=1)), distance_m=2500)
    state = started(task)
    total = sum(r["distance_m"] for r in wanted(task, state))
    assert says(task, state, str(total)) and says(task, state, str(total - 9))
    assert not says(task, state, str(total - 10)) and not says(task, state, str(total + 2500))


def test_an_edited_or_deleted_track_leaves_no_answer() -> None:
    task = TOTAL_TIME.tasks("train")[0]
    state = started(task)
    truth = TOTAL_TIME.answer(task.params, state)
    assert truth is not None and says(task, state, truth)
    for log, entry in (("edited", {"track": "x", "name": "y", "category": "", "description": ""}), ("removed", "x")):
        changed = {**state, "apps": {**state["apps"], D.PACKAGE: {**state["apps"][D.PACKAGE], log: [entry]}}}
        assert TOTAL_TIME.answer(task.params, changed) is None and not says(task, changed, truth)
