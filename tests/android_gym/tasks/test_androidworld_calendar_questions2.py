"""Tests of more of AndroidWorld's Simple Calendar Pro questions on the suite: the draws (AndroidWorld's values, 75
noise events that leave the answer alone), and the answers: the next meeting's date and time, the location of the event
so titled, next week's titles, the first event at or after a time on a date, and the events overlapping a time range;
another time, a noise title, a later event, an event outside the range or week, or any answer after the calendar
changed loses."""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import with_apps
from android_gym.tasks.androidworld import calendar_questions as q
from android_gym.tasks.androidworld import calendar_questions2 as q2
from android_gym.tasks.base import Task
from android_gym.tasks.world.calendar_tasks import iso

BY_NAME = {t.name: t for t in q2.TEMPLATES}
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Calendar for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(C.CalendarApp))


def start(task: Task, seed: int = 4) -> State:
    """The phone's state at the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone.state()


def wins(task: Task, state: State, text: str) -> bool:
    """Whether answering `text` in `state` succeeds."""
    return task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=text))


def drawn(name: str) -> list[dict[str, Any]]:
    """Every instance of template `name`, both splits."""
    return [p for split in ("train", "test") for p in BY_NAME[name].values(split)]


def with_events(state: State, *events: Mapping[str, Any]) -> State:
    """`state` with `events` on the calendar as if set up so (nothing marked changed)."""
    c = state_of(state, C.CalendarState)
    more = [{"id": 1000 + i, "all_day": False, "location": "", "description": "", **e} for i, e in enumerate(events)]
    return {**state, "apps": {**state["apps"], C.PACKAGE: {**c, "events": [*c["events"], *more]}}}


def held_out(template: Any) -> Task:
    """The template's first test instance, or its last train one where its one goal keeps it out of test (issue 50)."""
    return (template.tasks("test") or template.tasks("train")[-1:])[0]


@pytest.mark.parametrize("name", BY_NAME)
def test_the_noise_is_75_events_that_leave_the_answer_alone(name: str) -> None:
    template = BY_NAME[name]
    for p in drawn(name)[:30]:
        noise = p["noise"]
        assert len(noise) == 75 and all(iso(-15) <= e["date"] <= iso(15) for e in noise)
        assert template.answering(p, noise) == [] and not any(template.excluded(p, e) for e in noise)
    task = held_out(template)
    titles = [e["title"] for e in state_of(start(task), C.CalendarState)["events"]]
    assert len(titles) == 75 + len(task.params["events"]) and not set(titles) & set(C.SEEDED_TITLES)


def test_the_draws_are_androidworlds_values() -> None:
    located = drawn("SimpleCalendarLocationOfEvent")
    assert {p["title"] for p in located} <= set(q2.LOCATION_TITLES)
    assert {p["location"] for p in located} <= set(q2.LOCATIONS) and len({p["location"] for p in located}) > 15
    after = drawn("SimpleCalendarFirstEventAfterStartTime")
    assert {p["time"] for p in after} == set(q2.AFTER_TIMES) and {p["title"] for p in after} == set(q2.AFTER_TITLES)
    ranged = drawn("SimpleCalendarEventsInTimeRange")
    assert {p["start_time"] for p in ranged} == set(q2.RANGE_STARTS)
    assert all(q.hhmm(t) < q2.RANGE_END for t in q2.RANGE_STARTS)
    for p in after + ranged:
        (e,) = p["events"]
        assert e["start"] == q.hhmm(p.get("time") or p["start_time"])
        assert C.minutes(e["end"]) - C.minutes(e["start"]) == min(q.minutes_of(p["duration"]),
                                                                  C.minutes("23:55") - C.minutes(e["start"]))


def test_goals_are_androidworlds() -> None:
    loc = BY_NAME["SimpleCalendarLocationOfEvent"].tasks("train")[0]
    assert loc.goal == (f"What is the location of my {loc.params['title']} event in Simple Calendar Pro? Answer with "
                        "the location only.")
    after = BY_NAME["SimpleCalendarFirstEventAfterStartTime"].tasks("train")[0]
    assert after.goal.startswith(f"What is my first event after {after.params['time']} {after.params['date']} in ")
    ranged = BY_NAME["SimpleCalendarEventsInTimeRange"].tasks("train")[0]
    assert ranged.goal.startswith(f"Do I have any events between {ranged.params['start_time']} and 8pm "
                                  f"{ranged.params['date']} in Simple Calendar Pro?")


def test_the_location_wins_and_the_title_or_another_location_loses() -> None:
    task = BY_NAME["SimpleCalendarLocationOfEvent"].tasks("train")[0]
    state = start(task)
    location, title = task.params["location"], task.params["title"]
    assert wins(task, state, location) and wins(task, state, f" {location.upper()} ")
    other = next(x for x in q2.LOCATIONS if x != location)
    assert not wins(task, state, other) and not wins(task, state, title) and not wins(task, state, "")
    assert not wins(task, state, f"{location}, {other}")


def test_the_first_event_at_or_after_the_time_wins_not_a_later_or_earlier_one() -> None:
    task = BY_NAME["SimpleCalendarFirstEventAfterStartTime"].tasks("train")[0]
    at, day, title = q.hhmm(task.params["time"]), task.params["day"], task.params["title"]
    base = start(task)
    state = with_events(base, {"title": "Later Thing", "date": day, "start": q.hhmm("23:00"), "end": "23:30"},
                        {"title": "Earlier Thing", "date": day, "start": "00:00", "end": "00:05"})
    assert wins(task, state, title) and not wins(task, state, "Later Thing")
    assert not wins(task, state, "Earlier Thing") and not wins(task, state, f"{title}, Later Thing")
    tied = with_events(base, {"title": "Same Start", "date": day, "start": at, "end": "23:50"})
    assert wins(task, tied, f"Same Start, {title}") and not wins(task, tied, title)


def test_events_overlapping_the_range_win_and_one_after_8pm_loses() -> None:
    task = BY_NAME["SimpleCalendarEventsInTimeRange"].tasks("train")[0]
    at, day, title = q.hhmm(task.params["start_time"]), task.params["day"], task.params["title"]
    base = start(task)
    assert wins(task, base, title) and not wins(task, base, task.params["noise"][0]["title"])
    late = with_events(base, {"title": "Late Show", "date": day, "start": "20:01", "end": "21:00"})
    assert wins(task, late, title) and not wins(task, late, f"{title}, Late Show")
    spanning = with_events(base, {"title": "Long Walk", "date": day, "start": "00:00", "end": at})
    assert wins(task, spanning, f"{title}, Long Walk") and not wins(task, spanning, title)


@pytest.mark.parametrize("name", BY_NAME)
def test_an_answer_after_the_calendar_changed_loses(name: str) -> None:
    task = BY_NAME[name].tasks("train")[0]
    state = start(task)
    c = state_of(state, C.CalendarState)
    changed = {**state, "apps": {**state["apps"], C.PACKAGE: {**c, "deleted": [c["events"][-1]]}}}
    truth = BY_NAME[name].answer(task.params, state)
    assert truth and wins(task, state, truth) and not wins(task, changed, truth)


def test_the_next_meetings_date_and_time_win_and_another_time_or_the_title_loses() -> None:
    template = BY_NAME["SimpleCalendarNextMeetingWithPerson"]
    for p in drawn(template.name):
        assert p["day"] != iso(0) or q.hhmm(p["time"]) > q.NOW
    task = template.tasks("train")[0]
    day, at, person = task.params["day"], q.hhmm(task.params["time"]), task.params["person"]
    d = datetime.date.fromisoformat(day)
    state = start(task)
    right = f"{d:%B} {d.day} {d.year} {at}"
    moved = datetime.datetime.combine(d, datetime.time.fromisoformat(at)) + datetime.timedelta(minutes=1)
    assert wins(task, state, right) and wins(task, state, f"{d:%B} {d.day:02d} {d.year} {int(at[:2])}:{at[3:]}")
    assert not wins(task, state, f"{moved:%B %d %Y %H:%M}") and not wins(task, state, f"Drinks with {person}")
    assert not wins(task, state, f"{d + datetime.timedelta(1):%B %d %Y} {at}") and not wins(task, state, f"{d}")
    assert not wins(task, state, f"{right}, {right}")
    later = with_events(state, {"title": f"Lunch with {person}", "date": iso(15), "start": "12:00", "end": "13:00"})
    assert wins(task, later, right) and not wins(task, later, f"{C.DATE + datetime.timedelta(15):%B %d %Y} 12:00")
    if day != iso(0):  # a sooner event naming the person (any case) is the next meeting
        sooner = with_events(state, {"title": f"Call {person.upper()}", "date": iso(0), "start": "23:50",
                                     "end": "23:55"})
        assert not wins(task, sooner, right) and wins(task, sooner, f"{C.DATE:%B %d %Y} 23:50")


def test_next_weeks_two_titles_win_and_an_event_outside_monday_to_sunday_does_not_count() -> None:
    template = BY_NAME["SimpleCalendarEventsInNextWeek"]
    for p in drawn(template.name):
        assert len(set(p["days"])) == 2 and all(iso(5) <= d <= iso(11) for d in p["days"])
        assert len(set(p["titles"])) == 2 and "{person}" not in "".join(p["titles"])
    assert datetime.date.fromisoformat(iso(5)).weekday() == 0
    task = template.tasks("train")[0]
    a, b = task.params["titles"]
    state = start(task)
    assert wins(task, state, f"{b}, {a}") and not wins(task, state, a) and not wins(task, state, f"{a}, {a}")
    for date in (iso(1), iso(12)):  # this week's Thursday, and the Monday after next week
        outside = with_events(state, {"title": "Outside Thing", "date": date, "start": "10:00", "end": "11:00"})
        assert wins(task, outside, f"{a}, {b}") and not wins(task, outside, f"{a}, {b}, Outside Thing")
    inside = with_events(state, {"title": "Inside Thing", "date": iso(11), "start": "10:00", "end": "11:00"})
    assert wins(task, inside, f"{a}, {b}, Inside Thing") and not wins(task, inside, f"{a}, {b}")
