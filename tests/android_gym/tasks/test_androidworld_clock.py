"""AndroidWorld's Clock tasks on the suite (issue 48): the stopwatch run or paused on screen, and a timer's digits
entered without starting it. Each test plays the phone by hand from a task's start and asks the task's check: what
wins, and which near miss loses (another tab, a lap, a Reset, a started timer, the same length in other digits)."""  # noqa: D205, D209

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import clock as C
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.androidworld import ANDROIDWORLD_TEMPLATES
from android_gym.tasks.androidworld.clock import TEMPLATES
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find

BY_NAME = {t.name: t for t in TEMPLATES}


def instance(name: str, **params: Any) -> Task:
    """The first task of template `name` (train, then test) whose parameters include `params`."""
    template = BY_NAME[name]
    return next(t for t in template.tasks("train") + template.tasks("test")
                if all(t.params[k] == v for k, v in params.items()))


def started(task: Task) -> SimPhone:
    """A phone without perturbations reset to the task's start, then the Clock opened (on the tab it starts on)."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0, task.initial)
    assert not task.check(phone.state())  # the phone starts on the home screen
    phone.launch("Clock")
    return phone


def press(phone: SimPhone, **criteria: Any) -> None:
    """Tap the first element matching `criteria`; fail when there is none or the tap changes nothing."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    assert phone.tap(*element.center), f"tapping {criteria} changed nothing"


def tab(phone: SimPhone, name: str) -> None:
    """Open the Clock's tab `name` from its tab bar."""
    press(phone, text=name, clickable=True)


def stopwatch(phone: SimPhone) -> dict[str, Any]:
    """The Clock's stopwatch ({"running", "laps"})."""
    return state_of(phone.state(), C.ClockState)["stopwatch"]


def test_the_clock_templates_are_on_the_suite_in_androidworlds_order() -> None:
    names = [t.name for t in ANDROIDWORLD_TEMPLATES if t.name.startswith("Clock")]
    assert names == ["ClockStopWatchPausedVerify", "ClockStopWatchRunning", "ClockTimerEntry"]


def test_a_stopwatch_start_is_applied_as_drawn_and_androidworlds_start_is_among_them() -> None:
    """The Clock opens on the drawn tab with the stopwatch as drawn; both tasks start from AndroidWorld's reset
    stopwatch too; only the pause task starts with the stopwatch running."""  # noqa: D205, D209
    task = instance("ClockStopWatchPausedVerify", running=True, tab="Timer", laps=3)
    phone = started(task)
    assert phone.top.name == "timer" and stopwatch(phone) == {"running": True, "laps": 3}
    for name, can_run in (("ClockStopWatchPausedVerify", True), ("ClockStopWatchRunning", False)):
        starts = BY_NAME[name].values("train") + BY_NAME[name].values("test")
        assert any(not p["running"] and p["laps"] == 0 for p in starts)
        assert any(p["running"] for p in starts) is can_run
        assert {p["tab"] for p in starts} == set(C.TABS)


def test_running_the_stopwatch_on_its_tab_wins_with_the_laps_it_had() -> None:
    """From AndroidWorld's start, and from a stopwatch paused after laps: Start on the Stopwatch tab wins; the tab
    alone (paused) does not."""  # noqa: D205, D209
    for laps in (0, 2):
        task = instance("ClockStopWatchRunning", laps=laps, tab="Alarm")
        phone = started(task)
        tab(phone, "Stopwatch")
        assert not task.check(phone.state())
        press(phone, text="Start")
        assert stopwatch(phone) == {"running": True, "laps": laps} and task.check(phone.state())


@pytest.mark.parametrize("miss", ["lap", "pause", "other tab", "home", "reset first", "timer instead",
                                  "timer too"])
def test_a_near_miss_of_running_the_stopwatch_loses(miss: str) -> None:
    """A lap taken, paused again, the Clock on another tab or gone, the laps Reset before Start, a timer started instead
    of (or besides) the stopwatch: each loses."""  # noqa: D205, D209
    task = instance("ClockStopWatchRunning", laps=2, tab="Alarm")
    phone = started(task)
    if miss in ("timer instead", "timer too"):
        tab(phone, "Timer")
        press(phone, desc="5")
        press(phone, text="Start")
    tab(phone, "Stopwatch")
    if miss == "reset first":
        press(phone, text="Reset")
    if miss != "timer instead":
        press(phone, text="Start")
    match miss:
        case "lap":
            press(phone, text="Lap")
        case "pause":
            press(phone, text="Pause")
        case "other tab":
            tab(phone, "Clock")
        case "home":
            phone.key("home")
    assert stopwatch(phone)["running"] is (miss not in ("pause", "timer instead"))  # a near miss, not a far one
    assert not task.check(phone.state())


def test_the_stopwatch_tab_alone_pauses_androidworlds_start_and_a_running_one_needs_pause() -> None:
    """AndroidWorld's start (reset, paused) wins once the Stopwatch tab shows, not before; a running stopwatch wins
    once paused, with its laps."""  # noqa: D205, D209
    task = instance("ClockStopWatchPausedVerify", running=False, laps=0, tab="Alarm")
    phone = started(task)
    assert not task.check(phone.state())  # the Clock is in front, on the Alarm tab
    tab(phone, "Stopwatch")
    assert task.check(phone.state())
    task = instance("ClockStopWatchPausedVerify", running=True, laps=3, tab="Clock")
    phone = started(task)
    tab(phone, "Stopwatch")
    assert not task.check(phone.state())
    press(phone, text="Pause")
    assert stopwatch(phone) == {"running": False, "laps": 3} and task.check(phone.state())


@pytest.mark.parametrize("miss", ["reset", "lap", "start again", "other tab", "alarm added"])
def test_a_near_miss_of_pausing_the_stopwatch_loses(miss: str) -> None:
    """Paused then Reset, a lap before the pause, started again, the Clock left on another tab, an alarm added."""
    task = instance("ClockStopWatchPausedVerify", running=True, laps=3, tab="Stopwatch")
    phone = started(task)
    if miss == "lap":
        press(phone, text="Lap")
    press(phone, text="Pause")
    match miss:
        case "reset":
            press(phone, text="Reset")
        case "start again":
            press(phone, text="Start")
        case "other tab":
            tab(phone, "Timer")
        case "alarm added":
            tab(phone, "Alarm")
            press(phone, desc="Add alarm")
            press(phone, text="OK")
            tab(phone, "Stopwatch")
    assert stopwatch(phone)["running"] is (miss == "start again")
    assert not task.check(phone.state())


def test_the_timer_entry_draws_androidworlds_ranges_and_says_them_unpadded() -> None:
    """Hours 0-23, minutes and seconds 0-59, drawn across their ranges; the goal is AndroidWorld's, numbers unpadded."""
    drawn = BY_NAME["ClockTimerEntry"].values("train") + BY_NAME["ClockTimerEntry"].values("test")
    for key, top in (("hours", 23), ("minutes", 59), ("seconds", 59)):
        values = Counter(p[key] for p in drawn)
        assert min(values) >= 0 and max(values) <= top and len(values) >= top // 2
    task = instance("ClockTimerEntry", hours=0)
    p = task.params
    assert task.goal == (f"Create a timer with 0 hours, {p['minutes']} minutes, and {p['seconds']} seconds. Do not "
                         "start the timer.")


def _keys(task: Task) -> list[str]:
    """The keypad's keys that enter the task's time ("hhmmss" without leading zeros), one digit each."""
    p = task.params
    return list(f"{p['hours']:02d}{p['minutes']:02d}{p['seconds']:02d}".lstrip("0"))


def test_the_time_entered_on_the_keypad_wins_even_after_a_corrected_slip() -> None:
    """The digits on the Timer tab's keypad win, whatever tab the Clock opened on; a wrong digit deleted again does
    not spoil it."""  # noqa: D205, D209
    task = instance("ClockTimerEntry", tab="Stopwatch")
    phone = started(task)
    tab(phone, "Timer")
    keys = _keys(task)
    for key in keys[:-1]:
        press(phone, desc=key)
    press(phone, desc=str((int(keys[-1]) + 1) % 10))
    assert not task.check(phone.state())
    press(phone, desc="Delete")
    press(phone, desc=keys[-1])
    assert task.check(phone.state())


@pytest.mark.parametrize("miss", ["started", "other tab", "a digit more", "a digit less", "same length"])
def test_a_near_miss_of_the_timer_entry_loses(miss: str) -> None:
    """Started, the keypad left for another tab, a digit more or less, or the same length in other digits (90 seconds
    for 1 minute 30: the keypad shows 00h 00m 90s, not AndroidWorld's 00h 01m 30s)."""  # noqa: D205, D209
    hours, minutes, seconds = (0, 1, 30) if miss == "same length" else (1, 5, 0)
    task = Task(BY_NAME["ClockTimerEntry"], {"hours": hours, "minutes": minutes, "seconds": seconds, "tab": "Alarm",
                                             "entry": f"{hours:02d}h {minutes:02d}m {seconds:02d}s"})
    phone = started(task)
    tab(phone, "Timer")
    keys = ["9", "0"] if miss == "same length" else _keys(task)
    for key in keys[:-1] if miss == "a digit less" else keys:
        press(phone, desc=key)
    match miss:
        case "started":
            press(phone, text="Start")
        case "other tab":
            tab(phone, "Stopwatch")
        case "a digit more":
            press(phone, desc="1")
    assert not task.check(phone.state())
