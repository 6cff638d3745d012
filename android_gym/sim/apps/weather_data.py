"""Breezy Weather's data: the cities the app knows, the forecast drawn per episode, how the app writes temperatures
and winds, and the typed seam (`WeatherState`, `WeatherInitial`).

A forecast is drawn per city from `stable_seed("weather", city, seed)` (never the episode RNG), plausible for the
city in June: the current conditions, eight hourly temperatures and a 7-day daily forecast from today, Wednesday
2026-06-10. Within one city's week the daily highs differ from one another, and so do the chances of precipitation
(multiples of 5 %), so "the warmest day" and "the day most likely to rain" always name one day; at least one day is
rainy (60 % or more). Temperatures are kept in whole degrees Celsius; the app shows them in the chosen unit
(`temperature_label`), Fahrenheit rounded from the Celsius value.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any, Literal

import numpy as np
from pydantic import field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed
from android_gym.sim.apps.calendar import TODAY

PACKAGE = "org.breezyweather"
DATE = datetime.date(*TODAY[:3])
CURRENT = "Mountain View"
"""The phone's current location: always first in the list, never removed."""
CITIES: dict[str, tuple[str, int, float, str, str]] = {
    "Mountain View": ("United States", 26, 0.05, "05:48", "20:31"),
    "Lisbon": ("Portugal", 26, 0.15, "06:11", "21:02"), "Porto": ("Portugal", 23, 0.3, "06:04", "21:03"),
    "Madrid": ("Spain", 30, 0.15, "06:44", "21:45"), "Seville": ("Spain", 33, 0.05, "07:00", "21:38"),
    "Barcelona": ("Spain", 26, 0.25, "06:16", "21:25"), "Paris": ("France", 23, 0.45, "05:47", "21:53"),
    "London": ("United Kingdom", 21, 0.5, "04:44", "21:17"), "Dublin": ("Ireland", 18, 0.55, "05:00", "21:52"),
    "Edinburgh": ("United Kingdom", 17, 0.55, "04:31", "21:57"), "Oslo": ("Norway", 20, 0.45, "03:57", "22:40"),
    "Bergen": ("Norway", 16, 0.7, "04:28", "23:02"), "Stockholm": ("Sweden", 21, 0.4, "03:35", "22:03"),
    "Helsinki": ("Finland", 20, 0.4, "03:57", "22:44"), "Copenhagen": ("Denmark", 20, 0.4, "04:27", "21:52"),
    "Amsterdam": ("Netherlands", 21, 0.45, "05:19", "22:01"), "Berlin": ("Germany", 23, 0.45, "04:44", "21:28"),
    "Munich": ("Germany", 23, 0.55, "05:13", "21:12"), "Vienna": ("Austria", 25, 0.45, "04:53", "20:55"),
    "Prague": ("Czechia", 23, 0.45, "04:53", "21:09"), "Rome": ("Italy", 29, 0.2, "05:34", "20:45"),
    "Athens": ("Greece", 31, 0.05, "06:02", "20:47"), "Reykjavik": ("Iceland", 13, 0.5, "03:00", "23:59"),
    "Zurich": ("Switzerland", 23, 0.55, "05:30", "21:24"), "Warsaw": ("Poland", 23, 0.45, "04:15", "21:00"),
    "Tokyo": ("Japan", 26, 0.6, "04:25", "18:58"), "New York": ("United States", 27, 0.35, "05:25", "20:28"),
    "Sydney": ("Australia", 18, 0.35, "06:59", "16:53"), "San Diego": ("United States", 22, 0.05, "05:41", "19:59"),
    "San Jose": ("United States", 27, 0.05, "05:47", "20:29"),
}
"""Every city the app's search knows: country, mean June high (°C), how rainy (0-1), sunrise and sunset (24-hour)."""
TEMPERATURE_UNITS = ("°C", "°F")
WIND_UNITS = ("km/h", "m/s", "mph", "kn")
WIND_PER_KMH = {"km/h": 1.0, "m/s": 1 / 3.6, "mph": 0.621371, "kn": 0.539957}
RAINY_PCT = 60
"""A day whose chance of precipitation is at least this (%) shows rain ("Rain", "Showers" or "Thunderstorm")."""
HOURS = 8
"""Hourly temperatures shown, from the next full hour (the phone's clock reads 09:41 at reset)."""


def days() -> list[datetime.date]:
    """The forecast's seven days, from today."""
    return [DATE + datetime.timedelta(days=k) for k in range(7)]


def fahrenheit(celsius: int) -> int:
    """A Celsius temperature in whole degrees Fahrenheit, as the app rounds it.

    >>> fahrenheit(0), fahrenheit(23), fahrenheit(-40)
    (32, 73, -40)
    """
    return round(celsius * 9 / 5 + 32)


def temperature_label(celsius: int, unit: str) -> str:
    """A temperature as the app writes it in `unit` ("°C" or "°F").

    >>> temperature_label(23, "°C"), temperature_label(23, "°F")
    ('23°C', '73°F')
    """
    return f"{celsius if unit == '°C' else fahrenheit(celsius)}{unit}"


def wind_label(kmh: int, unit: str) -> str:
    """A wind speed as the app writes it in `unit` (whole numbers; m/s with one decimal).

    >>> wind_label(18, "km/h"), wind_label(18, "m/s"), wind_label(18, "mph"), wind_label(18, "kn")
    ('18 km/h', '5.0 m/s', '11 mph', '10 kn')
    """
    value = kmh * WIND_PER_KMH[unit]
    return f"{value:.1f} m/s" if unit == "m/s" else f"{round(value)} {unit}"


def clock_label(hhmm: str) -> str:
    """A 24-hour time as the app writes it (12-hour, as the phone's clock does).

    >>> clock_label("05:48"), clock_label("21:02"), clock_label("23:59")
    ('5:48 AM', '9:02 PM', '11:59 PM')
    """
    h, m = map(int, hhmm.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def day_label(day: datetime.date) -> str:
    """A forecast day as the daily list writes it ("Today" first).

    >>> day_label(DATE), day_label(DATE + datetime.timedelta(days=2))
    ('Today', 'Fri, Jun 12')
    """
    return "Today" if day == DATE else f"{day:%a}, {day:%b} {day.day}"


def condition_of(precip_pct: int, cloud: float) -> str:
    """The condition a day or an hour shows, from its chance of precipitation and a cloudiness draw in [0, 1).

    >>> condition_of(80, 0.1), condition_of(80, 0.9), condition_of(40, 0.5), condition_of(10, 0.2)
    ('Rain', 'Thunderstorm', 'Cloudy', 'Clear')
    """
    if precip_pct >= RAINY_PCT:
        return "Thunderstorm" if cloud > 0.8 else "Showers" if cloud > 0.5 else "Rain"
    if precip_pct >= 30:
        return "Cloudy"
    return "Partly cloudy" if cloud > 0.5 else "Clear"


def forecast(city: str, seed: int) -> dict[str, Any]:
    """Episode `seed`'s weather in `city` (a `LocationState` less its name): current conditions, hours, days."""
    _, mean_high, rainy, sunrise, sunset = CITIES[city]
    rng = np.random.default_rng(stable_seed("weather", city, seed))
    highs = [int(h) for h in rng.choice(np.arange(mean_high - 6, mean_high + 7), size=7, replace=False)]
    weights = np.array([(1 - rainy) * (1 - p / 100) + rainy * p / 100 + 0.02 for p in range(0, 100, 5)])
    precips = [int(p) * 5 for p in rng.choice(20, size=7, replace=False, p=weights / weights.sum())]
    if max(precips) < RAINY_PCT:  # every week has a rainy day (the umbrella tasks ask for the first)
        precips[precips.index(max(precips))] = int(rng.choice([c for c in range(RAINY_PCT, 100, 5)
                                                               if c not in precips]))
    daily = []
    for day, high, precip in zip(days(), highs, precips, strict=True):
        low = high - int(rng.integers(6, 12))
        daily.append({"date": str(day), "high_c": high, "low_c": low,
                      "condition": condition_of(precip, float(rng.random())), "precip_pct": precip})
    today = daily[0]
    now = today["low_c"] + (today["high_c"] - today["low_c"]) * 2 // 3
    hourly = [min(today["high_c"], now + (k + 1) // 2) for k in range(HOURS)]
    return {"temperature_c": now, "feels_like_c": now + int(rng.integers(-2, 3)),
            "humidity_pct": int(rng.integers(30, 60)) + today["precip_pct"] // 3,
            "wind_kmh": int(rng.integers(4, 30)), "uv_index": int(rng.integers(3, 10)),
            "condition": today["condition"], "sunrise": sunrise, "sunset": sunset, "hourly_c": hourly,
            "daily": daily}


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["locations", "location", "delete", "search", "settings", "unit"]
TemperatureUnit = Literal["°C", "°F"]
WindUnit = Literal["km/h", "m/s", "mph", "kn"]


@closed
class DayState(TypedDict):
    """One day of a forecast: its date ("YYYY-MM-DD"), high and low (°C), condition, chance of precipitation (%)."""

    date: str
    high_c: int
    low_c: int
    condition: str
    precip_pct: int


@closed
class LocationState(TypedDict):
    """A saved location and its weather (temperatures in °C, wind in km/h, times 24-hour "HH:MM")."""

    city: str
    temperature_c: int
    feels_like_c: int
    humidity_pct: int
    wind_kmh: int
    uv_index: int
    condition: str
    sunrise: str
    sunset: str
    hourly_c: list[int]
    daily: list[DayState]


@closed
class WeatherState(TypedDict):
    """What Breezy Weather reports (`WeatherApp.state`).

    Attributes:
        locations: the saved locations as the list shows them, the current location first.
        temperature_unit: the unit temperatures are shown in.
        wind_unit: the unit wind speeds are shown in.
        screen: the front Breezy Weather screen's name, None when the app has none on the stack.
        open: the city whose page (or delete dialog) is in front, or None.
        viewed: the cities whose page was opened this episode, in order, without repeats.
        added: the cities added this episode, in order.
        removed: the cities removed this episode, in order.
    """

    locations: list[LocationState]
    temperature_unit: TemperatureUnit
    wind_unit: WindUnit
    screen: Page | None
    open: str | None
    viewed: list[str]
    added: list[str]
    removed: list[str]


class WeatherInitial(ConfigModel):
    """The initial conditions a Breezy Weather task may set (they are the set-up, not changes).

    Attributes:
        locations: the saved cities after the current location, in order (None: the episode's drawn ones).
        temperature_unit: "°C" or "°F".
        wind_unit: "km/h", "m/s", "mph" or "kn".
    """

    locations: tuple[str, ...] | None = None
    temperature_unit: TemperatureUnit = "°C"
    wind_unit: WindUnit = "km/h"

    @field_validator("locations")
    @classmethod
    def _known(cls, locations: tuple[str, ...] | None) -> tuple[str, ...] | None:
        for city in locations or ():
            if city not in CITIES or city == CURRENT:
                raise FieldError("locations", "cities the app knows, other than the current location", city)
        if locations is not None and len(set(locations)) != len(locations):
            raise FieldError("locations", "cities without repeats", locations)
        return locations
