"""Tests of the Clock app's deeper screens: alarm labels and repeat days, seeded alarms, timers, the stopwatch's laps,
the world clock's city list, back behaviour, XML and pixels."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import clock as C
from android_gym.sim.apps.clock import ClockApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(ClockApp)


def make_phone(seed: int = 0, initial: dict[str, Any] | None = None) -> SimPhone:
    """A reset phone without perturbations, with the Clock in front."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, {C.PACKAGE: initial} if initial is not None else None)
    phone.launch("Clock")
    return phone


def press(phone: SimPhone, **criteria: Any) -> bool:
    """Tap the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    return phone.tap(*element.center)


def clock(phone: SimPhone) -> dict[str, Any]:
    """The Clock's state."""
    return phone.state()["apps"][C.PACKAGE]


def test_label_dialog_sets_label_when_ok_or_enter():
    """Add label opens the Label dialog with the keyboard up; OK saves the label, ENTER too, Cancel does not."""
    phone = make_phone(initial={"alarms": [{"hour": 7, "minute": 0}]})
    press(phone, text="Add label")
    assert phone.top.name == "label" and phone.keyboard_up and "Label" in [e.text for e in phone.elements()]
    phone.type_text("Gym")
    press(phone, text="OK")
    assert clock(phone)["alarm_cards"][0]["label"] == "Gym" and phone.top.name == "alarm"
    press(phone, text="Gym", rid=C.LABEL_RID)
    assert phone.top.fields[C.LABEL_INPUT_RID] == "Gym"
    phone.type_text(" day")
    phone.key("enter")
    assert clock(phone)["alarms"][0]["label"] == "Gym day"
    press(phone, text="Gym day")
    phone.type_text("!")
    press(phone, text="Cancel")
    assert clock(phone)["alarms"][0]["label"] == "Gym day"
    assert [e["op"] for e in clock(phone)["alarm_edits"]] == ["label", "label"]


def test_day_chips_toggle_repeat_days_when_tapped():
    """A card's weekday chips toggle its repeat days; the summary line follows."""
    phone = make_phone(initial={"alarms": [{"hour": 6, "minute": 30, "label": "Run"}]})
    assert find(phone.elements(), text="Scheduled") is not None
    press(phone, desc="Friday")
    press(phone, desc="Monday")
    card = clock(phone)["alarm_cards"][0]
    assert card["days"] == ["Monday", "Friday"] and find(phone.elements(), text="Mon, Fri") is not None
    assert find(phone.elements(), desc="Monday").checked
    press(phone, desc="Monday")
    assert clock(phone)["alarm_cards"][0]["days"] == ["Friday"]
    assert clock(phone)["alarms"] == [{"hour": 6, "minute": 30, "enabled": True, "label": "Run"}]


def test_editing_time_keeps_label_and_days():
    """Tapping a card's time opens the picker on it; OK moves the alarm, keeping its label and days, and turns it on."""
    phone = make_phone(initial={"alarms": [{"hour": 6, "minute": 0, "label": "A", "days": ["Sunday"],
                                            "enabled": False}, {"hour": 8, "minute": 0, "label": "B"}]})
    press(phone, text="6:00 AM")
    assert phone.top.name == "picker" and phone.top.args["edit"] == 0
    press(phone, rid=C.FACE_RID, text="9")
    press(phone, rid=C.FACE_RID, text="15")
    press(phone, text="OK")
    cards = clock(phone)["alarm_cards"]
    assert [(a["label"], a["hour"], a["minute"], a["days"], a["enabled"]) for a in cards] == [
        ("B", 8, 0, [], True), ("A", 9, 15, ["Sunday"], True)]
    assert clock(phone)["alarm_edits"] == [{"op": "time", "id": 0}]


def test_seeded_alarms_same_for_seed_and_differ_across_seeds():
    """`seeded` alarms are a function of the episode seed, avoid the given and `free` times, and vary by seed."""
    def seeded(seed: int) -> list[dict[str, Any]]:
        return clock(make_phone(seed, {"alarms": [{"hour": 7, "minute": 0}], "seeded": 4,
                                       "free": [[8, 30]]}))["alarm_cards"]
    assert seeded(3) == seeded(3)
    assert len({repr(seeded(s)) for s in range(5)}) == 5
    for s in range(5):
        times = [(a["hour"], a["minute"]) for a in seeded(s)]
        assert len(times) == len(set(times)) == 5 and (8, 30) not in times
        assert all(a["label"] in C.SEEDED_LABELS for a in seeded(s) if (a["hour"], a["minute"]) != (7, 0))


def test_episode_rng_untouched_when_clock_seeds_alarms():
    """The episode RNG draws the same after a reset with seeded alarms as with the default apps and no conditions."""
    ours = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    ours.reset(11, {C.PACKAGE: {"seeded": 5, "cities": ["Paris"], "tab": "Timer"}})
    ours.launch("Clock")
    ours.elements()
    ours.state()
    default = SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    default.reset(11)
    assert ours.rng.random() == default.rng.random()


@pytest.mark.parametrize("bad", [{"timers": []}, {"seeded": 9}, {"cities": ["Atlantis"]}, {"tab": "Bedtime"},
                                 {"alarms": [{"hour": 7, "minute": 0, "days": ["Funday"]}]}])
def test_apply_refuses_unknown_or_malformed_settings(bad: dict[str, Any]):
    """Unknown keys, too many seeded alarms, unknown cities, tabs and days are refused at reset."""
    with pytest.raises(ConfigError):
        make_phone(initial=bad)


def test_timer_runs_pauses_extends_and_deletes():
    """Keypad digits, Start: a running timer card; +1:00, Pause/Resume, a label, Add timer and back, Delete."""
    phone = make_phone(initial={"tab": "Timer"})
    for key in ("2", "5", "00"):
        press(phone, desc=key)
    press(phone, text="Start")
    assert clock(phone)["timers"] == [{"duration_s": 1500, "remaining_s": 1500, "running": True, "label": ""}]
    assert find(phone.elements(), rid=C.TIMER_TIME_RID).text == "25:00"
    press(phone, text="+1:00")
    press(phone, desc="Pause")
    assert clock(phone)["timers"][0]["remaining_s"] == 1560 and not clock(phone)["timer"]["running"]
    press(phone, desc="Resume")
    press(phone, text="Add label")
    phone.type_text("Tea")
    press(phone, text="OK")
    assert clock(phone)["timers"][0]["label"] == "Tea" and clock(phone)["timer"]["running"]
    press(phone, text="Add timer")
    assert find(phone.elements(), text="Start") is not None
    assert phone.key("back") and find(phone.elements(), text="Tea") is not None
    press(phone, text="Delete")
    assert clock(phone)["timers"] == [] and find(phone.elements(), desc="Delete") is not None  # the keypad again


def test_stopwatch_counts_laps_and_resets():
    """Start, Lap twice (listed newest first), Pause, Reset clears the laps."""
    phone = make_phone(initial={"tab": "Stopwatch"})
    assert not find(phone.elements(), text="Reset").enabled
    press(phone, text="Start")
    press(phone, text="Lap")
    press(phone, text="Lap")
    assert clock(phone)["stopwatch"] == {"running": True, "laps": 2}
    assert [e.text for e in phone.elements() if e.rid == f"{C.PACKAGE}:id/lap_number"] == ["Lap 2", "Lap 1"]
    press(phone, text="Pause")
    press(phone, text="Reset")
    assert clock(phone)["stopwatch"] == {"running": False, "laps": 0}


def test_world_clock_adds_and_removes_cities():
    """Add city: the search filters the list; a row's tap adds the city (checked), again removes it."""
    phone = make_phone(initial={"tab": "Clock"})
    assert clock(phone)["cities"] == list(C.WORLD)
    press(phone, desc="Add city")
    assert phone.top.name == "cities"
    press(phone, rid=C.SEARCH_RID)
    phone.type_text("mum")
    rows = [e.text for e in phone.elements() if e.rid == C.CITY_RID]
    assert rows == ["Mumbai"] and find(phone.elements(), text="GMT+5:30") is not None
    press(phone, rid=C.CITY_RID, text="Mumbai")
    assert clock(phone)["cities"] == [*C.WORLD, "Mumbai"] and find(phone.elements(), desc="Select Mumbai").checked
    press(phone, desc="Navigate up")
    assert phone.top.name == "clock" and find(phone.elements(), desc="Mumbai time").text == "3:11 PM"
    press(phone, desc="Add city")
    press(phone, desc="Select Tokyo")
    assert clock(phone)["cities"] == ["New York", "London", "Mumbai"]


def test_back_closes_dialog_then_screen():
    """BACK hides the keyboard over the Label dialog, then closes it; BACK from the picker returns to the alarms."""
    phone = make_phone(initial={"alarms": [{"hour": 7, "minute": 0}]})
    press(phone, text="Add label")
    assert phone.key("back") and phone.top.name == "label" and not phone.keyboard_up
    assert phone.key("back") and phone.top.name == "alarm"
    press(phone, desc="Add alarm")
    assert phone.key("back") and phone.top.name == "alarm" and len(clock(phone)["alarms"]) == 1
    assert phone.key("back") and phone.foreground != C.PACKAGE


def test_xml_lists_cards_and_pixels_drawn():
    """The XML parses and lists each card's label, time, days and switch; the card area is drawn."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {C.PACKAGE: {"alarms": [{"hour": 7, "minute": 0, "label": "Swim", "days": ["Monday"]}]}})
    device.phone.launch("Clock")
    parsed = parse_uiautomator_xml(device.phone.xml())
    labels = [e.text for e in parsed] + [e.desc for e in parsed]
    assert {"Swim", "7:00 AM", "Mon", "7:00 AM alarm", "Monday", "Delete 7:00 AM alarm", "Add alarm"} <= set(labels)
    card = find(parsed, rid=C.TIME_RID)
    x0, y0, x1, y1 = card.bounds
    pixels = np.asarray(device.screenshot())[y0:y1, x0:x1]
    assert pixels.std() > 0
