"""Tests of the Breezy Weather app of the simulated phone: the locations list, a location's page and its forecast,
search to add, delete, the units, seeding and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import weather as W
from android_gym.sim.apps import weather_data as D
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find


def make_phone(seed: int = 0, **initial: object) -> SimPhone:
    """A reset phone with Breezy Weather open on its list, no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, {D.PACKAGE: initial} if initial else None)
    phone.launch("weather")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def weather(phone: SimPhone) -> dict:
    """Breezy Weather's state."""
    return phone.state()["apps"][D.PACKAGE]


def texts(phone: SimPhone, rid: str) -> list[str]:
    """The texts of the elements with resource-id `rid`, top to bottom."""
    return [e.text for e in phone.elements() if e.rid == rid]


def test_the_list_shows_the_current_location_first_then_the_saved_cities():
    """Each row: city, temperature in the chosen unit; the state fits its schema."""
    phone = make_phone(locations=("Lisbon", "Oslo"), temperature_unit="°F")
    assert texts(phone, W.NAME_RID) == [D.CURRENT, "Lisbon", "Oslo"]
    now = [loc["temperature_c"] for loc in weather(phone)["locations"]]
    assert texts(phone, W.ROW_TEMPERATURE_RID) == [f"{D.fahrenheit(c)}°F" for c in now]
    assert state_problems(phone.state()) == []


def test_a_location_page_shows_seven_days_from_today_with_highs_lows_and_chances():
    """Today first, then Thu, Jun 11 ...; highs and chances differ within the week; one day at least is rainy."""
    phone = make_phone(seed=5, locations=("Oslo",))
    press(phone, rid=W.NAME_RID, text="Oslo")
    days = weather(phone)["locations"][1]["daily"]
    assert texts(phone, W.DAY_RID) == ["Today", "Thu, Jun 11", "Fri, Jun 12", "Sat, Jun 13", "Sun, Jun 14",
                                       "Mon, Jun 15", "Tue, Jun 16"]
    assert texts(phone, W.DAY_HIGH_RID) == [f"{d['high_c']}°C" for d in days]
    assert texts(phone, W.DAY_PRECIP_RID) == [f"{d['precip_pct']}%" for d in days]
    assert len({d["high_c"] for d in days}) == len({d["precip_pct"] for d in days}) == 7
    assert max(d["precip_pct"] for d in days) >= D.RAINY_PCT
    assert weather(phone)["open"] == "Oslo" and weather(phone)["viewed"] == ["Oslo"]


def test_the_forecast_follows_the_seed_alone():
    """The same seed draws the same weather; another seed another."""
    assert D.forecast("Lisbon", 3) == D.forecast("Lisbon", 3) != D.forecast("Lisbon", 4)


def test_search_adds_a_city_at_the_end_once():
    """Typing filters the known cities; a tap adds the city and goes back to the list; a saved city is not doubled."""
    phone = make_phone(locations=("Oslo",))
    press(phone, desc=W.ADD_DESC)
    phone.type_text("san")
    assert texts(phone, W.RESULT_NAME_RID) == ["San Diego", "San Jose"]
    press(phone, rid=W.RESULT_NAME_RID, text="San Jose")
    assert texts(phone, W.NAME_RID) == [D.CURRENT, "Oslo", "San Jose"] and weather(phone)["added"] == ["San Jose"]
    press(phone, desc=W.ADD_DESC)
    phone.type_text("Oslo")
    press(phone, rid=W.RESULT_NAME_RID, text="Oslo")
    assert texts(phone, W.NAME_RID) == [D.CURRENT, "Oslo", "San Jose"] and weather(phone)["added"] == ["San Jose"]


def test_delete_asks_first_and_the_current_location_cannot_be_deleted():
    """Cancel keeps the city; Delete removes it and returns to the list; the current location has no Delete."""
    phone = make_phone(locations=("Oslo", "Rome"))
    press(phone, rid=W.NAME_RID, text="Oslo")
    press(phone, desc=W.DELETE_DESC)
    press(phone, text="Cancel")
    assert weather(phone)["removed"] == [] and phone.top.name == "location"
    press(phone, desc=W.DELETE_DESC)
    press(phone, text="Delete")
    assert texts(phone, W.NAME_RID) == [D.CURRENT, "Rome"] and weather(phone)["removed"] == ["Oslo"]
    press(phone, rid=W.NAME_RID, text=D.CURRENT)
    assert find(phone.elements(), desc=W.DELETE_DESC) is None


def test_units_change_what_every_screen_shows():
    """Fahrenheit for temperatures, mph for wind, chosen in Settings."""
    phone = make_phone(locations=("Oslo",))
    press(phone, desc=W.SETTINGS_DESC)
    press(phone, text="Temperature unit")
    press(phone, rid=W.UNIT_RID, text="°F")
    press(phone, text="Wind speed unit")
    press(phone, rid=W.UNIT_RID, text="mph")
    state = weather(phone)
    assert (state["temperature_unit"], state["wind_unit"]) == ("°F", "mph")
    phone.key("back")
    press(phone, rid=W.NAME_RID, text="Oslo")
    oslo = weather(phone)["locations"][1]
    assert texts(phone, W.TEMPERATURE_RID) == [f"{D.fahrenheit(oslo['temperature_c'])}°F"]
    assert texts(phone, W.DETAIL_RIDS["wind"]) == [D.wind_label(oslo["wind_kmh"], "mph")]


def test_a_fresh_phone_saves_two_to_four_drawn_cities_in_celsius():
    """The current location first, then 2-4 cities the seed picks."""
    state = weather(make_phone(seed=7))
    cities = [loc["city"] for loc in state["locations"]]
    assert cities[0] == D.CURRENT and 3 <= len(cities) <= 5 and state["temperature_unit"] == "°C"


@pytest.mark.parametrize("initial", [{"locations": ("Atlantis",)}, {"locations": (D.CURRENT,)},
                                     {"locations": ("Oslo", "Oslo")}, {"temperature_unit": "K"}])
def test_initial_conditions_refuse_what_the_app_cannot_hold(initial: dict) -> None:
    """An unknown city, the current location, a repeat or an unknown unit."""
    with pytest.raises(ConfigError):
        make_phone(**initial)
