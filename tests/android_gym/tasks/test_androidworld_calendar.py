"""Tests of AndroidWorld's `SimpleCalendarDeleteOneEvent` on the suite: the goal as AndroidWorld formats it (unpadded
month and day, a whole hour), the draws rebased onto the sim's calendar, the phone's start (20 noise events and the
target, no seeded event), and the check played through Calendar: deleting the event wins, description and all;
deleting another event, one more, renaming the event instead (or another besides) or creating one besides loses, as
AndroidWorld's row check has it."""  # noqa: D205, D209

from __future__ import annotations

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
from android_gym.tasks.androidworld import calendar
from android_gym.tasks.base import Task
from android_gym.tasks.world.calendar_expert import change, create
from android_gym.tasks.world.calendar_tasks import DeleteEventTemplate, iso
from android_gym.testing.rollout import drive
from android_gym.ui import UIElement

(TEMPLATE,) = calendar.TEMPLATES
GOAL = re.compile(r"In Simple Calendar Pro, delete the calendar event on 2026-6-([1-9]\d?) at (1?\d|2[0-3])h with the "
                  r"title '([^']+)'")
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Calendar for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(C.CalendarApp))


def started(task: Task, seed: int = 2) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def events(state: State) -> list[dict[str, Any]]:
    """Calendar's events, without ids."""
    return [{k: v for k, v in e.items() if k != "id"} for e in state_of(state, C.CalendarState)["events"]]


def delete(phone: SimDevice, event: Mapping[str, Any]) -> None:
    """Delete `event` through the app (the World template's expert, finding it by title and day)."""
    params = {"title": event["title"], "date": event["date"]}
    drive(phone, lambda e, s: DeleteEventTemplate().expert(params, e, s), lambda s: event not in events(s))


def upcoming_noise(task: Task) -> dict[str, Any]:
    """A noise event from today on (the schedule lists it), on the target's day when one is."""
    ahead = [e for e in task.params["noise"] if e["date"] >= iso(0)]
    return next((e for e in ahead if e["date"] == task.params["event"]["date"]), ahead[0])


@pytest.mark.parametrize("split", ["train", "test"])
def test_the_goal_is_androidworlds_and_calendar_holds_the_noise_and_the_event(split) -> None:
    task = TEMPLATE.tasks(split)[0]
    target = task.params["event"]
    match = GOAL.fullmatch(task.goal)
    assert match and match.groups() == (str(int(target["date"][-2:])), str(int(target["start"][:2])), target["title"])
    got = events(started(task).state())
    assert sorted(map(repr, got)) == sorted(map(repr, [*task.params["noise"], target]))
    titles = [e["title"] for e in got]
    assert titles.count(target["title"]) == 1 and not set(titles) & set(C.SEEDED_TITLES)


def test_events_are_drawn_as_androidworld_draws_them_on_the_sims_dates() -> None:
    """The target 0-16 days ahead (June 10-26), the noise 14 back to 16 ahead, on whole hours; 20 distinct noise
    events, none at the target's start nor with its title."""  # noqa: D205, D209
    drawn = [p for split in ("train", "test") for p in TEMPLATE.values(split)]
    targets = [p["event"] for p in drawn]
    assert {e["date"] for e in targets} == {iso(d) for d in range(17)}
    assert {e["start"] for e in targets} == {f"{h:02d}:00" for h in range(24)}
    noise = [e for p in drawn for e in p["noise"]]
    assert {e["date"] for e in noise} == {iso(d) for d in range(-14, 17)}
    for p in drawn:
        t = p["event"]
        assert len(p["noise"]) == 20 and len({repr(e) for e in p["noise"]}) == 20
        assert all(e["title"] != t["title"] and (e["date"], e["start"]) != (t["date"], t["start"]) for e in p["noise"])
    assert all(e["description"] for e in [*targets, *noise])


@pytest.mark.parametrize("split", ["train", "test"])
def test_deleting_the_event_wins_description_and_all(split) -> None:
    task = TEMPLATE.tasks(split)[0]
    phone = started(task)
    delete(phone, task.params["event"])
    assert task.check(phone.state())


def test_deleting_another_event_or_one_more_loses() -> None:
    task = TEMPLATE.tasks("train")[0]
    phone = started(task)
    delete(phone, upcoming_noise(task))
    assert not task.check(phone.state())
    delete(phone, task.params["event"])  # the target too: one event more than asked
    assert not task.check(phone.state())


def test_renaming_the_event_instead_or_another_besides_loses() -> None:
    """A renamed row is a row AndroidWorld finds neither gone nor as it was."""
    task = TEMPLATE.tasks("train")[0]
    target, other = task.params["event"], upcoming_noise(task)
    for deleted, renamed in ((None, target), (target, other)):
        phone = started(task)
        if deleted is not None:
            delete(phone, deleted)
        title = f"{renamed['title']} moved"
        drive(phone, lambda e, s, r=renamed, t=title: change({**r, "id": the_id(s, r)}, {"title": t}, e, s),
              lambda s, t=title: any(e["title"] == t for e in events(s)))
        assert not task.check(phone.state())


def test_an_event_created_after_the_deletion_loses() -> None:
    task = TEMPLATE.tasks("train")[0]
    target = task.params["event"]
    phone = started(task)
    delete(phone, target)
    extra = {"title": "Dentist follow-up", "date": target["date"], "start": "10:00", "end": "10:30"}
    drive(phone, lambda e, s: create(extra, e, s), lambda s: any(e["title"] == extra["title"] for e in events(s)))
    assert not task.check(phone.state())


def the_id(state: State, event: Mapping[str, Any]) -> int:
    """The id Calendar gave `event` (by its title and day)."""
    return next(e["id"] for e in state_of(state, C.CalendarState)["events"]
                if (e["title"], e["date"]) == (event["title"], event["date"]))
