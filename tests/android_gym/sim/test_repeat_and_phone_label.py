"""Tests of two editor features the AndroidWorld tasks need: Calendar's repeat rule (a recurring event) and the
Contacts editor's phone label, driven by taps and typing as a user makes them; their initial conditions refused by
field when wrong."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import contacts as K
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def calendar(initial: dict | None = None) -> SimPhone:
    """Calendar open on its schedule."""
    phone = SimPhone()
    phone.reset(0, {C.PACKAGE: initial} if initial else None)
    phone.launch(C.PACKAGE)
    return phone


def test_a_new_event_repeats_weekly_once_its_rule_is_picked() -> None:
    """The editor offers "Does not repeat"; its menu names the rules by the event's day; Save keeps the rule."""
    phone = calendar()
    press(phone, desc=C.FAB_DESC)
    phone.type_text("Gym")
    assert find(phone.elements(), rid=C.REPEAT_RID).text == "Does not repeat"
    press(phone, rid=C.REPEAT_RID)
    assert [e.text for e in phone.elements() if e.rid == f"{C.PACKAGE}:id/title" and e.clickable] == [
        "Does not repeat", "Every day", "Every week on Wednesday", "Every month on day 10", "Every year on June 10"]
    press(phone, text="Every week on Wednesday")
    assert phone.state()["apps"][C.PACKAGE]["editing"]["repeat"] == "weekly"
    press(phone, text="Save")
    cal = phone.state()["apps"][C.PACKAGE]
    added = next(e for e in cal["events"] if e["id"] == cal["added"][0])
    assert added["title"] == "Gym" and added["repeat"] == "weekly"


def test_the_repeat_menu_closes_on_back_and_a_rule_can_be_dropped() -> None:
    """BACK on the menu keeps the editor's rule; an event saved back to "Does not repeat" loses its rule."""
    phone = calendar({"events": [{"title": "Standup", "date": "2026-06-11", "start": "09:00", "end": "09:15",
                                  "repeat": "daily"}]})
    cal = phone.state()["apps"][C.PACKAGE]
    event = next(e for e in cal["events"] if e["title"] == "Standup")
    assert event["repeat"] == "daily" and all("repeat" not in e for e in cal["events"] if e is not event)
    press(phone, contains="Standup", clickable=True)
    assert find(phone.elements(), rid=f"{C.PACKAGE}:id/event_repeat").text == "Every day"  # the page names the rule
    press(phone, desc=C.EDIT_DESC)
    press(phone, rid=C.REPEAT_RID)
    phone.key("back")
    assert phone.top.name == "edit" and find(phone.elements(), rid=C.REPEAT_RID).text == "Every day"
    press(phone, rid=C.REPEAT_RID)
    press(phone, text="Does not repeat")
    press(phone, text="Save")
    cal = phone.state()["apps"][C.PACKAGE]
    saved = next(e for e in cal["events"] if e["id"] == event["id"])
    assert "repeat" not in saved and cal["edited"] == [event["id"]]


def test_a_bad_repeat_rule_is_refused_naming_the_field() -> None:
    """An event spec with an unknown rule fails on `repeat`."""
    with pytest.raises(ConfigError, match="repeat"):
        calendar({"events": [{"title": "X", "date": "2026-06-11", "repeat": "hourly"}]})


def test_the_phone_label_is_picked_from_its_menu_and_read_as_talkback_reads_it() -> None:
    """New contact: the spinner shows "Mobile"; its menu picks "Work" ("Work Phone"); BACK then asks to discard."""
    phone = SimPhone()
    phone.reset(0)
    phone.launch(K.PACKAGE)
    press(phone, rid=K.FAB_RID)
    label = find(phone.elements(), rid=K.LABEL_RID)
    assert (label.text, label.desc) == ("Mobile", "Mobile Phone")
    press(phone, rid=K.LABEL_RID)
    assert [e.text for e in phone.elements() if e.rid == "android:id/text1"] == list(K.PHONE_LABELS)
    press(phone, text="Work")
    label = find(phone.elements(), rid=K.LABEL_RID)
    assert (label.text, label.desc) == ("Work", "Work Phone") and phone.top.args["phone_label"] == "Work"
    press(phone, rid=K.LABEL_RID)
    phone.key("back")  # closes the menu, keeps the label
    assert phone.top.args == {**phone.top.args, "labels": False, "phone_label": "Work"}
    phone.key("back")
    assert phone.top.args["discard"]  # a label changed is an unsaved change
