"""Tests of the Calendar app of the simulated phone: views, the event editor and its pickers, edit and delete from an
event's page, discarding, back, XML, pixels, seeding and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps.calendar import CalendarApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(CalendarApp)
KNOWN = [{"title": "Piano recital", "date": "2026-06-12", "start": "14:30", "end": "15:30"},
         {"title": "Piano recital", "date": "2026-06-19", "start": "10:00", "end": "11:00", "location": "Hall B"},
         {"title": "Team offsite", "date": "2026-06-16", "all_day": True}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Calendar installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """Calendar open on its schedule, holding only the known events (no seeded title is among them)."""
    titles = sorted({e["title"] for e in C.events(0)})
    phone = make_phone(initial={C.PACKAGE: {"absent": titles, "events": KNOWN}})
    phone.launch("Calendar")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def cal(phone: SimPhone) -> dict:
    """Calendar's state."""
    return phone.state()["apps"][C.PACKAGE]


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def event(phone: SimPhone, title: str, date: str) -> dict:
    """The event `title` on `date` in the state (fails when there is not exactly one)."""
    found = [e for e in cal(phone)["events"] if (e["title"], e["date"]) == (title, date)]
    assert len(found) == 1, f"{len(found)} events {title} on {date}"
    return found[0]


def pick_time(phone: SimPhone, hour: int, minute: int, pm: bool) -> None:
    """On the time picker: the hour on the dial, the minutes, AM/PM, OK."""
    press(phone, desc=f"{hour} o'clock")
    press(phone, desc=f"{minute} minutes")
    press(phone, text="PM" if pm else "AM")
    press(phone, text="OK")


def test_views_list_their_events_and_the_event_page_shows_one():
    """Schedule lists today on, month all of June; a row opens the event's page with its date, times and place."""
    phone = known_phone()
    assert [e["title"] for e in cal(phone)["events"] if e["id"] in cal(phone)["shown"]][:2] == ["Piano recital",
                                                                                                "Team offsite"]
    assert "Team offsite \u00b7 Tue, Jun 16 \u00b7 All day" in labels(phone)
    press(phone, text=C.row_text(event(phone, "Piano recital", "2026-06-19")))
    assert cal(phone)["view"] == "event" and cal(phone)["event"] == "Piano recital"
    assert {"Friday, June 19", "10:00 AM", "11:00 AM", "Hall B"} <= set(labels(phone))
    phone.key("back")
    press(phone, desc="Day view")
    assert cal(phone)["view"] == "day" and all(C.in_view(e, "day") for e in cal(phone)["events"]
                                               if e["id"] in cal(phone)["shown"])


def test_create_an_event_with_a_date_times_place_and_notes():
    """FAB, title (focused), Start date, Start time (the end follows), End time, Location, Description, Save."""
    phone = known_phone()
    press(phone, desc=C.FAB_DESC)
    assert cal(phone)["view"] == "edit" and phone.top.focus == C.TITLE_RID
    assert cal(phone)["editing"]["start"] == "10:00" and cal(phone)["editing"]["end"] == "11:00"  # clock 9:41
    phone.type_text("Dinner at Rosa's")
    phone.key("enter")
    assert phone.top.focus == C.LOCATION_RID
    phone.type_text("12 Main St")
    press(phone, rid=C.START_DATE_RID)
    press(phone, desc="Next month")
    press(phone, desc="Thursday, July 2, 2026")
    press(phone, text="OK")
    press(phone, rid=C.START_TIME_RID)
    assert phone.top.name == "time" and phone.top.args["hour"] == 10
    pick_time(phone, 7, 15, pm=True)
    assert cal(phone)["editing"]["start"] == "19:15" and cal(phone)["editing"]["end"] == "20:15"
    press(phone, rid=C.END_TIME_RID)
    pick_time(phone, 9, 0, pm=True)
    press(phone, rid=C.DESCRIPTION_RID)
    phone.type_text("Table for four")
    press(phone, text="Save")
    state = cal(phone)
    new = event(phone, "Dinner at Rosa's", "2026-07-02")
    assert new == {"id": new["id"], "title": "Dinner at Rosa's", "date": "2026-07-02", "start": "19:15",
                   "end": "21:00", "all_day": False, "location": "12 Main St", "description": "Table for four"}
    assert state["added"] == [new["id"]] and not state["edited"] and not state["deleted"]
    assert state["view"] == "schedule" and C.row_text(new) in labels(phone)


def test_save_refuses_an_end_before_the_start_and_all_day_drops_times():
    """An end time before the start shows an error and keeps the editor; All-day saves without times."""
    phone = known_phone()
    press(phone, desc=C.FAB_DESC)
    phone.type_text("Gym")
    press(phone, rid=C.END_TIME_RID)
    pick_time(phone, 8, 0, pm=False)
    press(phone, text="Save")
    assert cal(phone)["view"] == "edit" and "The event can't end before it starts" in labels(phone)
    press(phone, desc="All-day")
    assert find(phone.elements(), rid=C.START_TIME_RID) is None
    press(phone, text="Save")
    assert event(phone, "Gym", "2026-06-10")["start"] is None and event(phone, "Gym", "2026-06-10")["all_day"]


def test_edit_moves_renames_and_deletes_the_right_event():
    """Edit event opens the editor on the event; Save changes it alone; More options > Delete asks, then deletes."""
    phone = known_phone()
    target = event(phone, "Piano recital", "2026-06-12")
    press(phone, text=C.row_text(target))
    press(phone, desc=C.EDIT_DESC)
    assert cal(phone)["editing"]["id"] == target["id"] and phone.top.fields[C.TITLE_RID] == "Piano recital"
    press(phone, rid=C.TITLE_RID)
    for _ in "recital":
        press(phone, desc="Delete")
    phone.type_text("concert")
    press(phone, rid=C.START_DATE_RID)
    press(phone, desc="Saturday, June 13, 2026")
    press(phone, text="OK")
    press(phone, text="Save")
    assert cal(phone)["view"] == "event" and "Saturday, June 13" in labels(phone)
    moved = event(phone, "Piano concert", "2026-06-13")
    assert moved["id"] == target["id"] and moved["start"] == "14:30" and cal(phone)["edited"] == [target["id"]]
    event(phone, "Piano recital", "2026-06-19")  # the look-alike is untouched
    press(phone, desc="More options")
    press(phone, text="Delete")
    assert "Delete event?" in labels(phone)
    press(phone, text="Delete")
    assert cal(phone)["view"] == "schedule" and [e["id"] for e in cal(phone)["deleted"]] == [target["id"]]
    assert all(e["id"] != target["id"] for e in cal(phone)["events"])


def test_back_and_cancel_ask_before_discarding_what_was_typed():
    """BACK closes the keyboard, then asks "Discard this event?"; Keep editing stays; Discard drops the event."""
    phone = known_phone()
    press(phone, desc=C.FAB_DESC)
    phone.key("back")  # the keyboard
    phone.key("back")  # nothing typed: the editor closes
    assert cal(phone)["view"] == "schedule"
    press(phone, desc=C.FAB_DESC)
    phone.type_text("Call mom")
    phone.key("back")
    phone.key("back")
    assert "Discard this event?" in labels(phone)
    press(phone, text="Keep editing")
    assert cal(phone)["view"] == "edit" and "Discard this event?" not in labels(phone)
    press(phone, desc="Cancel")
    press(phone, text="Discard")
    assert cal(phone)["view"] == "schedule" and not cal(phone)["added"]
    assert all(e["title"] != "Call mom" for e in cal(phone)["events"])


def test_an_unchanged_edit_changes_nothing():
    """Opening the editor on an event and saving it unchanged records no edit."""
    phone = known_phone()
    press(phone, text=C.row_text(event(phone, "Team offsite", "2026-06-16")))
    press(phone, desc=C.EDIT_DESC)
    press(phone, text="Save")
    assert not cal(phone)["edited"] and cal(phone)["view"] == "event"


@pytest.mark.parametrize("steps", [(), ("open",), ("open", "more"), ("open", "more", "delete"), ("create",),
                                   ("create", "date"), ("create", "time"), ("month",)])
def test_xml_parses_and_lists_what_the_screen_shows(steps: tuple[str, ...]):
    """Every screen's XML parses into the same elements the phone reports, with its key texts."""
    phone = known_phone()
    actions = {"open": {"contains": "Team offsite"}, "more": {"desc": "More options"}, "delete": {"text": "Delete"},
               "create": {"desc": C.FAB_DESC}, "date": {"rid": C.START_DATE_RID},
               "time": {"rid": C.START_TIME_RID}, "month": {"desc": "Month view"}}
    for step in steps:
        press(phone, **actions[step])
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {(): "Schedule", "open": "Tuesday, June 16", "more": "Delete", "delete": "Delete event?",
                "create": "Add title", "date": "June 2026", "time": "Select time", "month": "Month"}[
        steps[-1] if steps else ()]
    assert expected in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """Rows and the FAB are drawn (not blank), and the delete dialog dims the event page."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {C.PACKAGE: {"events": KNOWN}})
    device.phone.launch("Calendar")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    row = find(device.ui_elements(), contains="Piano recital")
    fab = find(device.ui_elements(), desc=C.FAB_DESC)
    assert region(row.bounds).std() > 20 and region(fab.bounds).std() > 20
    device.phone.tap(*row.center)
    when = find(device.ui_elements(), rid=C.WHEN_RID).bounds
    before = region(when).mean()
    assert region(when).std() > 20
    device.phone.tap(*find(device.ui_elements(), desc="More options").center)
    device.phone.tap(*find(device.ui_elements(), text="Delete").center)
    assert region(when).mean() < before - 40  # the scrim behind the dialog


def test_initial_data_is_seeded_and_the_general_suite_view_holds():
    """The same seed gives the same events, as `events()` draws them; other seeds give others."""
    def data(seed: int) -> list:
        return make_phone(seed).state()["apps"][C.PACKAGE]["events"]

    assert data(5) == data(5) and len({repr(data(s)) for s in range(6)}) == 6
    assert [(e["title"], int(e["date"][-2:]), int(e["start"][:2])) for e in data(3)] == [
        (e["title"], e["day"], e["hour"]) for e in C.events(3)]


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with Calendar draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Calendar")
    press(mine, desc=C.FAB_DESC)
    press(mine, rid=C.START_TIME_RID)
    mine.state()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial", [{"items": []}, {"events": [{"title": "x"}]},
                                     {"events": [{"title": "x", "date": "June 3"}]},
                                     {"events": [{"title": "x", "date": "2026-06-03", "start": "10:00",
                                                  "end": "09:00"}]},
                                     {"events": [{"title": "x", "date": "2026-06-03", "color": "red"}]}])
def test_apply_refuses_unknown_keys_and_bad_events(initial: dict):
    """Unknown keys, a missing date, a malformed date, an end before the start, unknown fields."""
    with pytest.raises(ConfigError):
        make_phone(initial={C.PACKAGE: initial})


def test_apply_adds_and_removes_as_the_starting_point_and_state_is_fresh():
    """Set-up removes every event of a title and adds others, none of it a change; state hands out its own data."""
    first = C.events(3)[0]["title"]
    phone = make_phone(3, {C.PACKAGE: {"absent": [first], "events": KNOWN[:1]}})
    state = cal(phone)
    assert all(e["title"] != first for e in state["events"])
    assert not (state["added"] or state["edited"] or state["deleted"]) and state["view"] is None
    app = phone.apps[C.PACKAGE]
    mine = app.state()
    mine["events"][0]["title"] = "changed"
    mine["events"].clear()
    assert app.state()["events"] == state["events"]
