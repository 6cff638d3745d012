"""Calendar and Tasks on the typed seam (issue 48): initial conditions checked by their models with the field named,
and states that fit their schemas, from a rich set-up through the screens that fill every part of them."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app_state import state_of, state_problems
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import todo as T
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

EVENTS = [{"title": "Piano recital", "date": "2026-06-12", "start": "14:30", "end": "15:30", "location": "Hall B",
           "description": "Bring the score"},
          {"title": "Team offsite", "date": "2026-07-02", "all_day": True},
          {"title": "Kite day", "date": "2026-06-10"}]
TASKS = {"absent": ["Buy milk"],
         "lists": {"Work": [{"title": "Ship it", "due": "2026-06-12", "priority": "high"},
                            {"title": "Old report", "completed": True}], "Garden": [{"title": "Mow"}]},
         "tasks": [{"list": "Errands", "title": "Post", "due": "2026-06-10", "priority": "low"}]}


def phone_with(seed: int, initial: dict) -> SimPhone:
    """A phone reset with `initial` and no perturbations (so taps land)."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> None:
    """Tap the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    phone.tap(*element.center)


@pytest.mark.parametrize("package, initial, message", [
    (C.PACKAGE, {"event": []}, r"unknown config key `Calendar\.event`; did you mean `Calendar\.events`\?"),
    (C.PACKAGE, {"events": [{"title": "x", "date": "2026-06-12", "locaton": "Hall"}]},
     r"unknown config key `Calendar\.events\.0\.locaton`; did you mean `Calendar\.events\.0\.location`\?"),
    (T.PACKAGE, {"task": []}, r"unknown config key `Tasks\.task`; did you mean `Tasks\.tasks`\?"),
    (T.PACKAGE, {"lists": {"Work": [{"title": "x", "priorty": "high"}]}},
     r"unknown config key `Tasks\.lists\.Work\.0\.priorty`; did you mean `Tasks\.lists\.Work\.0\.priority`\?"),
])
def test_an_unknown_initial_key_is_refused_with_the_closest(package: str, initial: dict, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("package, initial, message", [
    (C.PACKAGE, {"events": [{"title": "x"}]}, r"`Calendar\.events\.0\.date` is required"),
    (C.PACKAGE, {"events": [{"title": "x", "date": "June 3"}]},
     r'`Calendar\.events\.0\.date` must be a "YYYY-MM-DD" date, got \'June 3\''),
    (C.PACKAGE, {"events": [{"title": "x", "date": "2026-06-03", "start": "10:00", "end": "09:00"}]},
     r"`Calendar\.events\.0\.end` must be a time after the start \(10:00\), got '09:00'"),
    (C.PACKAGE, {"events": [{"title": "x", "date": "2026-06-03", "start": "9:00"}]},
     r"`Calendar\.events\.0\.start` must be a 24-hour \"HH:MM\" time"),
    (C.PACKAGE, {"events": [{"title": 7, "date": "2026-06-03"}]}, r"`Calendar\.events\.0\.title` must be a valid str"),
    (C.PACKAGE, {"absent": "Dentist"}, r"`Calendar\.absent` must be a valid tuple"),
    (T.PACKAGE, {"tasks": [{"title": "x"}]}, r"`Tasks\.tasks\.0\.list` is required"),
    (T.PACKAGE, {"tasks": [{"list": "Work", "title": "x", "priority": "urgent"}]},
     r"`Tasks\.tasks\.0\.priority` must be 'high', 'medium', 'low' or 'none', got 'urgent'"),
    (T.PACKAGE, {"tasks": [{"list": "Today", "title": "x"}]},
     r"`Tasks\.tasks\.0\.list` must be a list, not a filter \(My Tasks, Today, Tomorrow\), got 'Today'"),
    (T.PACKAGE, {"lists": {"Tomorrow": []}},
     r"`Tasks\.lists` must be lists, none named like a filter .*got \['Tomorrow'\]"),
    (T.PACKAGE, {"lists": {"Work": [{"title": "x", "due": "tomorrow"}]}},
     r'`Tasks\.lists\.Work\.0\.due` must be a "YYYY-MM-DD" date or None, got \'tomorrow\''),
    (T.PACKAGE, {"tasks": [{"list": "Work", "title": "x", "completed": 1}]},
     r"`Tasks\.tasks\.0\.completed` must be a valid boolean"),
])
def test_a_bad_initial_value_is_refused_naming_the_field(package: str, initial: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


def test_the_calendars_state_fits_its_schema_from_a_rich_set_up_through_its_screens() -> None:
    seeded = sorted({e["title"] for e in C.events(4)})
    phone = phone_with(4, {C.PACKAGE: {"absent": seeded[:3], "events": EVENTS}})
    assert state_problems(phone.state()) == []
    mine = state_of(phone.state(), C.CalendarState)
    assert not {e["title"] for e in mine["events"]} & set(seeded[:3])
    added = {e["title"]: e for e in mine["events"] if e["title"] in {s["title"] for s in EVENTS}}
    assert added["Team offsite"]["start"] is None and added["Team offsite"]["all_day"]
    kite = added["Kite day"]  # the defaults: an hour from 9:00, no place or notes
    assert (kite["start"], kite["end"], kite["location"], kite["description"]) == ("09:00", "10:00", "", "")
    assert added["Piano recital"]["description"] == "Bring the score"
    phone.launch("Calendar")
    press(phone, desc="Day view")
    press(phone, desc="Next day")
    assert state_of(phone.state(), C.CalendarState)["day"] == "2026-06-11"
    assert state_problems(phone.state()) == []
    press(phone, desc="Schedule view")
    press(phone, text=C.row_text(added["Piano recital"]))
    press(phone, desc=C.EDIT_DESC)  # the editor's draft of an event there
    assert state_of(phone.state(), C.CalendarState)["editing"]["id"] == added["Piano recital"]["id"]
    assert state_problems(phone.state()) == []
    phone.key("back")
    press(phone, desc="More options")
    press(phone, text="Delete")
    press(phone, text="Delete")
    press(phone, desc=C.FAB_DESC)  # a new event's draft
    mine = state_of(phone.state(), C.CalendarState)
    assert mine["editing"]["id"] is None and [e["title"] for e in mine["deleted"]] == ["Piano recital"]
    assert mine["opened"] == [added["Piano recital"]["id"]]
    assert state_problems(phone.state()) == []


def test_the_tasks_state_fits_its_schema_from_a_rich_set_up_through_its_screens() -> None:
    phone = phone_with(6, {T.PACKAGE: TASKS})
    assert state_problems(phone.state()) == []
    mine = state_of(phone.state(), T.TasksState)
    assert mine["lists"]["Work"] == [{"title": "Ship it", "due": "2026-06-12", "priority": "high", "completed": False},
                                     {"title": "Old report", "due": None, "priority": "none", "completed": True}]
    assert mine["lists"]["Errands"] == [{"title": "Post", "due": "2026-06-10", "priority": "low", "completed": False}]
    assert not any(t["title"] == "Buy milk" for tasks in mine["lists"].values() for t in tasks)
    phone.launch("Tasks")
    press(phone, desc="Complete Post")
    press(phone, text="Ship it")  # the editor on a task there
    assert state_of(phone.state(), T.TasksState)["editing"]["index"] == 0
    assert state_problems(phone.state()) == []
    phone.key("back")
    press(phone, desc=T.FAB_DESC)  # a new task's editor
    mine = state_of(phone.state(), T.TasksState)
    assert mine["editing"]["index"] is None and mine["screen"] == "edit"
    assert mine["edits"] == [{"op": "complete", "list": "Errands", "title": "Post"}]
    assert any(row["title"] == "Mow" for row in mine["shown"])
    assert state_problems(phone.state()) == []
