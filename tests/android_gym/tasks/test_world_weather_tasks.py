"""Tests of the World suite's Breezy Weather templates beyond the contract: answers read from the episode's forecast
win in the ways a person writes them and lose when off by a day, a degree or a unit; edits and the forecast carried
into Messages, Markor, Calendar and Tasks lose to their near misses (another city, day, unit, person or date)."""  # noqa: D205, D209

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

import pytest

from android_gym.actions import TEXT_CHARSET, Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import weather_data as D
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import weather_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

(HIGH, RAINIEST, ABOVE, CONVERTED, HUMIDITY, SUNSET, ADD, REMOVE, UNIT, TEXT, ADD_TEXT, NOTE, EVENT,
 RAIN_TASK) = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(template: TaskTemplate, seed: int = 0) -> tuple[Task, dict[str, Any]]:
    """The first train task of `template` reset at `seed`, and the city's weather then."""
    task = template.tasks("train")[0]
    device().reset(seed, task.initial)
    loc = next(loc for loc in device().state()["apps"][D.PACKAGE]["locations"] if loc["city"] == task.params["city"])
    return task, loc


def wins(task: Task, text: str) -> bool:
    """Whether declaring the task complete with `text` wins on the phone as it is."""
    return task.check(device().state(), Action(ActionType.STATUS_TASK_COMPLETE, text=text))


def test_the_day_high_is_the_shown_number_in_any_wording_and_no_other_day_or_unit():
    task, loc = start(HIGH)
    unit, k = task.params["unit"], task.params["offset"]
    high = T.shown(loc["daily"][k]["high_c"], unit)
    other = T.shown(loc["daily"][k % 6 + 1]["high_c"], unit)
    assert all(wins(task, text) for text in (f"{high}{unit}", f"{high}", f"about {high} degrees"))
    wrong_unit = "°F" if unit == "°C" else "°C"
    assert not any(wins(task, text) for text in (f"{other}{unit}", f"{high}{wrong_unit}", f"{high} or {other}"))


def test_the_rainiest_day_is_one_weekday_however_written():
    task, loc = start(RAINIEST)
    chances = [d["precip_pct"] for d in loc["daily"]]
    k, driest = chances.index(max(chances)), chances.index(min(chances))
    day = T.weekday(k)
    row = D.day_label(D.DATE + datetime.timedelta(days=k))
    assert wins(task, day) and wins(task, day[:3].lower()) and wins(task, row) and wins(task, f"on {day}!")
    assert not wins(task, T.weekday(driest)) and not wins(task, f"{day} or {T.weekday(driest)}")


def test_days_above_counts_highs_strictly_above_the_threshold_in_its_unit():
    task, loc = start(ABOVE)
    p = task.params
    count = sum(T.shown(d["high_c"], p["unit"]) > p["degrees"] for d in loc["daily"])
    at_least = sum(T.shown(d["high_c"], p["unit"]) >= p["degrees"] for d in loc["daily"])
    assert wins(task, str(count)) and wins(task, f"{count} days")
    assert not wins(task, str(count + 1)) and (at_least == count or not wins(task, str(at_least)))


def test_the_converted_high_is_within_half_a_degree_of_the_exact_conversion():
    task, loc = start(CONVERTED)
    celsius, asked = loc["daily"][1]["high_c"], task.params["asked"]
    exact = celsius * 9 / 5 + 32 if asked == "°F" else celsius
    assert wins(task, f"{exact:.1f}{asked}") and wins(task, f"{round(exact)}")
    shown_instead = T.shown(celsius, "°C" if asked == "°F" else "°F")
    assert not wins(task, f"{round(exact) + 1}") and not wins(task, f"{shown_instead}")


def test_the_humidity_is_the_percentage_now():
    task, loc = start(HUMIDITY)
    assert wins(task, f"{loc['humidity_pct']}%") and wins(task, f"{loc['humidity_pct']} percent")
    assert not wins(task, f"{loc['humidity_pct'] + 1}%") and not wins(task, f"{loc['humidity_pct']}°")


def test_the_sunset_is_that_time_in_either_clock_and_not_the_sunrise():
    task, loc = start(SUNSET)
    h, m = map(int, loc["sunset"].split(":"))
    assert wins(task, D.clock_label(loc["sunset"])) and wins(task, loc["sunset"]) and wins(task, f"{h - 12}:{m:02d}pm")
    assert not wins(task, D.clock_label(loc["sunrise"])) and not wins(task, f"{h - 12}:{m:02d} AM")


def test_an_answer_is_void_once_a_location_was_added():
    """The agent changed the list: no answer can win."""
    task, loc = start(HUMIDITY)
    phone_state = dict(device().state())
    apps = dict(phone_state["apps"])
    apps[D.PACKAGE] = {**apps[D.PACKAGE], "added": ["Rome"]}
    assert HUMIDITY.answer(task.params, {**phone_state, "apps": apps}) is None


def neighbour(p: dict) -> str:
    """Another saved city than the task's."""
    return next(c for c in p["saved"] if c != p["city"])


def unsaved(p: dict) -> str:
    """A city the task did not save."""
    return next(c for c in T.TASK_CITIES if c not in p["saved"])


def other_kind(p: dict) -> str:
    """The unit the task does not ask to change."""
    return "wind" if p["which"] == "temperature" else "temperature"


def other_unit(p: dict) -> str:
    """A choice of that other unit, not its current one."""
    if p["which"] == "temperature":
        return next(u for u in D.WIND_UNITS if u != p["start_w"])
    return next(u for u in D.TEMPERATURE_UNITS if u != p["start_t"])


class _TodaysHigh(T.HighToTextTemplate):
    """Texts today's high instead of tomorrow's."""

    def text(self, params: Any, state: Any) -> str | None:
        day = T.day_of(state, params["city"], 0)
        return None if day is None else f"High: {day['high_c']}°C"


class _RainiestDay(T.DriestDayEventTemplate):
    """Moves the event to the rainiest day instead."""

    def driest(self, params: Any, state: Any) -> str | None:
        loc = T.find_location(state, params["city"])
        return None if loc is None else max(loc["daily"], key=lambda d: d["precip_pct"])["date"]


class _DayAfterRain(T.RainTaskTemplate):
    """Dates the task the day after the first rainy one."""

    def rainy(self, params: Any, state: Any) -> str | None:
        day = super().rainy(params, state)
        return None if day is None else str(datetime.date.fromisoformat(day) + datetime.timedelta(days=1))


@pytest.mark.parametrize(("template", "near_misses"), [
    (ADD, [playing(ADD, city=unsaved)]),
    (REMOVE, [playing(REMOVE, city=neighbour)]),
    (UNIT, [playing(UNIT, which=other_kind, unit=other_unit)]),
    (TEXT, [playing(TEXT, person="Dana Whitfield"), playing(TEXT, _TodaysHigh())]),
    (ADD_TEXT, [playing(ADD_TEXT, person="Dana Whitfield"), playing(ADD_TEXT, city=unsaved)]),
    (NOTE, [playing(NOTE, offset=lambda p: p["offset"] % 6 + 1)]),
    (EVENT, [playing(EVENT, _RainiestDay())]),
    (RAIN_TASK, [playing(RAIN_TASK, _DayAfterRain())]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_text_may_give_the_high_in_either_unit():
    """A person converting the high for a friend still wins; the check reads the forecast, not the expert."""
    task = TEXT.tasks("train")[0]
    device().reset(0, task.initial)
    state = dict(device().state())
    day = T.day_of(state, task.params["city"], 1)
    assert day is not None
    number = T.person(task.params["person"])["number"]
    for text, ok in ((f"{D.fahrenheit(day['high_c'])} F tomorrow", True), (f"{day['high_c']} C", True),
                     (f"{day['high_c'] + 1} C", False)):
        apps = {**state["apps"], M.PACKAGE: {**state["apps"][M.PACKAGE], "sent": [
            {"name": task.params["person"], "number": number, "text": text}]}}
        assert TEXT.check(task.params, {**state, "apps": apps}) is ok, text


def test_goals_are_printable_ascii():
    """The goal space's charset has no degree sign: goals name units in words."""
    for template in T.TEMPLATES:
        for split in ("train", "test"):
            assert all(set(task.goal) <= set(TEXT_CHARSET) for task in template.tasks(split)), template.name
