"""The typed seam between apps and tasks (issue 48): state schemas that refuse what they do not declare, initial
conditions validated by the app's model with the field named, and a typed read that names a missing app."""  # noqa: D205, D209

from __future__ import annotations

import pytest
from typing_extensions import TypedDict

from android_gym.errors import ConfigError
from android_gym.sim.app import App
from android_gym.sim.app_state import SCHEMAS, AppStateMissingError, closed, state_of, state_problems
from android_gym.sim.apps import DEFAULT_APPS, clock
from android_gym.sim.phone import SimPhone


@closed
class Point(TypedDict):
    """A nested part of a schema."""

    x: int


@closed
class Shape(TypedDict):
    """A schema with a nested TypedDict and a list of them."""

    name: str
    corners: list[Point]


def test_state_problems_name_an_unknown_key_a_missing_one_and_a_wrong_type_nested_too() -> None:
    good = {"name": "square", "corners": [{"x": 1}, {"x": 2}]}
    assert state_problems({"apps": {"shapes": good}}, {"shapes": Shape}) == []
    bad = {"nmae": "square", "corners": [{"x": 1}, {"x": "2", "y": 0}]}
    problems = state_problems({"apps": {"shapes": bad}}, {"shapes": Shape})
    assert "shapes: `nmae` is not a key of Shape" in problems
    assert "shapes: `name` is missing (Shape declares it)" in problems
    assert "shapes: `corners.1.x` must be a valid integer, got '2'" in problems
    assert "shapes: `corners.1.y` is not a key of Shape" in problems


def test_the_clocks_state_fits_its_schema_and_a_misspelt_key_would_not() -> None:
    phone = SimPhone()
    phone.reset(5, {clock.PACKAGE: {"alarms": [{"hour": 7, "minute": 30, "days": ["Friday"]}], "seeded": 4}})
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, clock.ClockState)
    assert mine is state["apps"][clock.PACKAGE] and len(mine["alarm_cards"]) == 5
    wrong = {**state, "apps": {**state["apps"], clock.PACKAGE: {**mine, "alarm_edit": []}}}
    assert state_problems(wrong) == [f"{clock.PACKAGE}: `alarm_edit` is not a key of ClockState"]


def test_reading_an_app_the_device_does_not_report_names_it() -> None:
    with pytest.raises(AppStateMissingError, match=r"com\.google\.android\.deskclock.*simulated phone"):
        state_of({"foreground": "x", "alarms": []}, clock.ClockState)


@pytest.mark.parametrize("initial, message", [
    ({"seeed": 2}, r"unknown config key `Clock\.seeed`; did you mean `Clock\.seeded`\?"),
    ({"alarms": [{"hour": 24, "minute": 0}]}, r"`Clock\.alarms\.0\.hour` must be less than or equal to 23, got 24"),
    ({"alarms": [{"hour": 7, "minute": 0, "days": ["Fri"]}]}, r"`Clock\.alarms\.0\.days\.0` must be 'Monday'"),
    ({"seeded": 9}, r"`Clock\.seeded` must be less than or equal to 8"),
    ({"cities": ["Atlantis"]}, r"`Clock\.cities` must be world-clock cities .*got \['Atlantis'\]"),
    ({"tab": "Alarms"}, r"`Clock\.tab` must be 'Alarm', 'Clock', 'Timer' or 'Stopwatch'"),
    ({"free": [[8]]}, r"`Clock\.free\.0\.1` is required"),
])
def test_an_initial_condition_that_does_not_fit_fails_at_the_app_naming_the_field(initial, message) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {clock.PACKAGE: initial})


def test_initial_conditions_from_json_lists_set_up_the_clock() -> None:
    phone = SimPhone()
    phone.reset(2, {clock.PACKAGE: {"alarms": [{"hour": 6, "minute": 5, "label": "Run", "days": ["Sunday", "Monday"]}],
                                    "seeded": 8, "free": [[6, 10], [6, 15]], "cities": ["Lagos"], "tab": "Timer"}})
    mine = state_of(phone.state(), clock.ClockState)
    first = next(a for a in mine["alarm_cards"] if a["id"] == 0)
    assert first == {"hour": 6, "minute": 5, "enabled": True, "label": "Run", "id": 0, "days": ["Monday", "Sunday"]}
    times = [(a["hour"], a["minute"]) for a in mine["alarms"]]
    assert len(times) == 9 and (6, 10) not in times and (6, 15) not in times
    assert mine["cities"] == ["Lagos"] and mine["tab"] == "Timer"


@pytest.mark.parametrize("app", DEFAULT_APPS, ids=lambda a: a.label)
def test_every_app_declares_its_state_and_takes_initial_conditions_only_through_its_model(app: type[App]) -> None:
    """An app that reports state declares its schema; none validates initial conditions by hand (`apply`)."""
    phone = SimPhone()
    phone.reset(0)
    if phone.apps[app.package].state():
        assert app.state_schema is not None and SCHEMAS[app.state_schema] == app.package
    assert "apply" not in vars(app), f"{app.label} overrides apply: declare an initial_model and a set_up"
    assert ("set_up" in vars(app)) == (app.initial_model is not None)


def test_every_schema_fits_a_fresh_phone_and_misses_no_app() -> None:
    """Every app's seeded state fits its schema over 16 episodes' seeds (the template contract checks only the apps a
    task sets up or uses); every app that reports state has a schema."""  # noqa: D205, D209
    phone = SimPhone()
    for seed in range(16):
        phone.reset(seed)
        state = phone.state()
        assert state_problems(state) == [], seed
    reported = {package for package, mine in state["apps"].items() if mine}
    assert reported == set(SCHEMAS.values())
