"""Tests of AndroidWorld's Simple Calendar Pro tasks that add one event (on a date, tomorrow, in two weeks, "this
{day_of_week}") or delete every event of a day (on a date, "this {day_of_week}") on the suite: the goals as
AndroidWorld formats them, the draws rebased onto the sim's calendar, and the checks played through Calendar. Adding
the event wins with its title in another case (AndroidWorld's fuzzy match ignores case); another description, length,
day or a place, or a second event, loses. Deleting the day's events wins; one left, one more deleted, or one renamed
instead loses."""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import with_apps
from android_gym.tasks.androidworld import calendar_events as ce
from android_gym.tasks.base import Task
from android_gym.tasks.world.calendar_expert import change, create
from android_gym.tasks.world.calendar_tasks import DeleteEventTemplate, iso
from android_gym.testing.rollout import drive
from android_gym.ui import UIElement

ADDS = {t.name: t for t in ce.TEMPLATES if isinstance(t, ce.AddOneEvent)}
DELETES = {t.name: t for t in ce.TEMPLATES if isinstance(t, ce.DeleteEvents)}
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
State = Mapping[str, Any]
ADD_DAYS = {"SimpleCalendarAddOneEvent": range(17), "SimpleCalendarAddOneEventTomorrow": range(1, 2),
            "SimpleCalendarAddOneEventInTwoWeeks": range(14, 15), "SimpleCalendarAddOneEventRelativeDay": range(1, 7)}
"""The days after today each addition's target falls on (AndroidWorld's October 15-31, 16, 29, 16-21, rebased)."""
ADD_WHEN = {"SimpleCalendarAddOneEvent": r"on 2026-6-(?P<day>[1-9]\d?)", "SimpleCalendarAddOneEventTomorrow":
            "for tomorrow", "SimpleCalendarAddOneEventInTwoWeeks": "in two weeks from today",
            "SimpleCalendarAddOneEventRelativeDay": r"for this (?P<weekday>[A-Z][a-z]+day)"}


@cache
def device() -> SimDevice:
    """One unperturbed phone with Calendar for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(C.CalendarApp))


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def events(state: State) -> list[dict[str, Any]]:
    """Calendar's events, without ids."""
    return [{k: v for k, v in e.items() if k != "id"} for e in state_of(state, C.CalendarState)["events"]]


def add(phone: SimDevice, want: Mapping[str, Any]) -> None:
    """Create an event with the fields `want` names through the app."""
    before = len(events(phone.state()))
    drive(phone, lambda e, s: create(want, e, s), lambda s: len(events(s)) == before + 1)


def delete(phone: SimDevice, event: Mapping[str, Any]) -> None:
    """Delete `event` through the app (the World template's expert, finding it by title and day)."""
    params = {"title": event["title"], "date": event["date"]}
    before = len(events(phone.state()))
    drive(phone, lambda e, s: DeleteEventTemplate().expert(params, e, s), lambda s: len(events(s)) == before - 1)


def fields(event: Mapping[str, Any], **more: Any) -> dict[str, Any]:
    """The fields the editor sets of `event`, changed by `more`."""
    return {**{k: event[k] for k in ("title", "description", "date", "start", "end")}, **more}


# -- additions --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ADDS)
def test_an_addition_goal_names_the_drawn_event_as_androidworld_does(name: str) -> None:
    template = ADDS[name]
    for split in ("train", "test"):
        task = template.tasks(split)[0]
        p, target = task.params, task.params["event"]
        match = re.fullmatch(rf"In Simple Calendar Pro, create a calendar event {ADD_WHEN[name]} at (?P<hour>\d+)h "
                             r"with the title '(?P<title>[^']+)' and the description '(?P<description>[^']+)'\. The "
                             r"event should last for (?P<mins>15|30|45|60) mins\.", task.goal)
        assert match, task.goal
        got = match.groupdict()
        d = datetime.date.fromisoformat(target["date"])
        assert int(got["hour"]) == int(target["start"][:2]) and target["start"].endswith(":00")
        assert (got["title"], got["description"]) == (target["title"], target["description"])
        assert C.minutes(target["end"]) - C.minutes(target["start"]) == int(got["mins"]) == p["duration_mins"]
        assert got.get("day", str(d.day)) == str(d.day) and got.get("weekday", f"{d:%A}") == f"{d:%A}"


@pytest.mark.parametrize("name", ADDS)
def test_addition_draws_are_androidworlds_rebased(name: str) -> None:
    """The target on its days, any hour, 15-60 minutes; 0-20 noise events from 14 days back to 16 ahead, none with
    the target's title; the phone starts with the noise only (no seeded event)."""  # noqa: D205, D209
    drawn = [p for split in ("train", "test") for p in ADDS[name].values(split)]
    days = {(datetime.date.fromisoformat(p["event"]["date"]) - C.DATE).days for p in drawn}
    assert days == set(ADD_DAYS[name])
    assert {p["duration_mins"] for p in drawn} == {15, 30, 45, 60} and len({p["hour"] for p in drawn}) > 12
    assert {len(p["noise"]) for p in drawn} == set(range(21))
    noise = [e for p in drawn for e in p["noise"]]
    assert {e["date"] for e in noise} <= {iso(d) for d in range(-14, 17)}
    assert all(e["title"] != p["event"]["title"] for p in drawn for e in p["noise"])
    task = ADDS[name].tasks("train")[0]
    assert sorted(map(repr, events(started(task).state()))) == sorted(map(repr, task.params["noise"]))


@pytest.mark.parametrize("name", ADDS)
def test_the_event_added_wins_its_title_in_any_case(name: str) -> None:
    task = ADDS[name].tasks("train")[0]
    target = task.params["event"]
    phone = started(task)
    add(phone, fields(target, title=target["title"].upper()))
    assert task.check(phone.state())


@pytest.mark.parametrize("change_to", ["description", "longer", "next day", "place", "all day"])
def test_an_event_added_unlike_the_goal_loses(change_to: str) -> None:
    task = ADDS["SimpleCalendarAddOneEvent"].tasks("train")[0]
    t = task.params["event"]
    other = {"description": fields(t, description=t["description"] + " Bring snacks."),
             "longer": fields(t, end=C.hhmm(C.minutes(t["end"]) + 15) if t["end"] < "23:40" else t["end"],
                              start=t["start"] if t["end"] < "23:40" else C.hhmm(C.minutes(t["start"]) - 15)),
             "next day": fields(t, date=str(datetime.date.fromisoformat(t["date"]) + datetime.timedelta(days=1))),
             "place": {**fields(t), "location": "Room 4B"},
             "all day": {"title": t["title"], "description": t["description"], "date": t["date"], "all_day": True}}
    phone = started(task)
    add(phone, other[change_to])
    assert not task.check(phone.state())


def test_a_second_event_or_a_noise_event_deleted_beside_the_addition_loses() -> None:
    task = next(t for t in ADDS["SimpleCalendarAddOneEventTomorrow"].tasks("train") if t.params["noise"])
    t = task.params["event"]
    phone = started(task)
    add(phone, fields(t))
    assert task.check(phone.state())
    add(phone, fields(t, title=f"{t['title']} (copy)"))
    assert not task.check(phone.state())
    phone = started(task)
    add(phone, fields(t))
    upcoming = [e for e in task.params["noise"] if e["date"] >= iso(0)]
    if upcoming:
        delete(phone, upcoming[0])
        assert not task.check(phone.state())


# -- deletions --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, count", [("SimpleCalendarDeleteEvents", 3),
                                         ("SimpleCalendarDeleteEventsOnRelativeDay", 2)])
def test_a_deletion_goal_names_the_day_that_holds_the_events(name: str, count: int) -> None:
    """The day (its date, or its weekday among the next six days) holds `count` events; 20 noise events lie on other
    days from 14 days back to 16 ahead."""  # noqa: D205, D209
    template = DELETES[name]
    drawn = [p for split in ("train", "test") for p in template.values(split)]
    offsets = {(datetime.date.fromisoformat(p["date"]) - C.DATE).days for p in drawn}
    assert offsets == (set(range(17)) if count == 3 else set(range(1, 7)))
    for p in drawn:
        assert len(p["events"]) == count and all(e["date"] == p["date"] for e in p["events"])
        assert len(p["noise"]) == 20 and all(e["date"] != p["date"] and iso(-14) <= e["date"] <= iso(16)
                                             for e in p["noise"])
    task = template.tasks("test")[0]
    d = datetime.date.fromisoformat(task.params["date"])
    want = (f"In Simple Calendar Pro, delete all the calendar events on 2026-6-{d.day}" if count == 3 else
            f"In Simple Calendar Pro, delete all events scheduled for this {d:%A}.")
    assert task.goal == want


@pytest.mark.parametrize("name", DELETES)
def test_deleting_the_days_events_wins_and_leaving_one_loses(name: str) -> None:
    task = DELETES[name].tasks("train")[0]
    phone = started(task)
    *first, last = task.params["events"]
    for e in first:
        delete(phone, e)
        assert not task.check(phone.state())
    delete(phone, last)
    assert task.check(phone.state())


def test_deleting_a_noise_event_besides_loses() -> None:
    task = DELETES["SimpleCalendarDeleteEventsOnRelativeDay"].tasks("train")[0]
    phone = started(task)
    for e in task.params["events"]:
        delete(phone, e)
    delete(phone, next(e for e in task.params["noise"] if e["date"] >= iso(0)))
    assert not task.check(phone.state())


def test_renaming_a_noise_event_besides_loses() -> None:
    """AndroidWorld finds the renamed row neither gone nor as it was."""
    task = DELETES["SimpleCalendarDeleteEvents"].tasks("train")[0]
    phone = started(task)
    for e in task.params["events"]:
        delete(phone, e)
    noise = next(e for e in state_of(phone.state(), C.CalendarState)["events"] if e["date"] >= iso(0))
    drive(phone, lambda e, s: change(noise, {"title": "Moved"}, e, s),
          lambda s: any(e["title"] == "Moved" for e in events(s)))
    assert not task.check(phone.state())


def test_renaming_one_of_the_days_events_instead_of_deleting_it_loses() -> None:
    task = DELETES["SimpleCalendarDeleteEvents"].tasks("train")[0]
    phone = started(task)
    *first, last = task.params["events"]
    for e in first:
        delete(phone, e)
    live = next(e for e in state_of(phone.state(), C.CalendarState)["events"] if e["date"] == task.params["date"])
    drive(phone, lambda e, s: change(live, {"title": "Moved"}, e, s),
          lambda s: any(e["title"] == "Moved" for e in events(s)))
    assert not task.check(phone.state())
