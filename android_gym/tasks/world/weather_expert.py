"""What the Breezy Weather templates share (`weather_tasks`): the task cities, reading the app's state, matching
spoken answers (temperatures, counts, weekdays), and the expert steps.

The checks read Breezy Weather's state (`weather_state`) with `find_location`, `day_of` and `untouched`. Each expert
step reads the UI elements and the sim's state and returns the next action towards a sub-goal: the locations list
(`to_list`), a location's page (`to_location`), a city added by search (`add_city`), one deleted (`remove_city`) and a
unit chosen in the settings (`set_unit`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import weather as W
from android_gym.sim.apps import weather_data as D
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, fill, find
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.ui import UIElement

WEATHER = D.PACKAGE
LABEL = W.WeatherApp.label
TASK_CITIES = tuple(c for c in D.CITIES if c != D.CURRENT)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven")


def weather_state(state: State) -> D.WeatherState:
    """Breezy Weather's part of the device state."""
    return state_of(state, D.WeatherState)


def find_location(state: State, city: str) -> D.LocationState | None:
    """The saved location `city`, or None."""
    return next((loc for loc in weather_state(state)["locations"] if loc["city"] == city), None)


def day_of(state: State, city: str, offset: int) -> D.DayState | None:
    """`city`'s forecast `offset` days after today (None when the city is not saved)."""
    loc = find_location(state, city)
    return None if loc is None else loc["daily"][offset]


def untouched(state: State) -> bool:
    """No location added or removed this episode."""
    w = weather_state(state)
    return not (w["added"] or w["removed"])


def weekday(offset: int) -> str:
    """The weekday `offset` days after today ("Wednesday" for 0).

    >>> weekday(0), weekday(2)
    ('Wednesday', 'Friday')
    """
    return WEEKDAYS[(D.DATE + datetime.timedelta(days=offset)).weekday()]


def shown(celsius: int, unit: str) -> int:
    """A temperature as a number in `unit`, as the app rounds it."""
    return celsius if unit == "°C" else D.fahrenheit(celsius)


def numbers(text: str) -> list[float]:
    """The numbers `text` says, in figures or (zero to seven) in words.

    >>> numbers("It will be 24°C, feels like -2.5"), numbers("three days")
    ([24.0, -2.5], [3.0])
    """
    found = [float(n.replace(",", ".")) for n in _NUMBER.findall(text)]
    return found + [float(_SMALL.index(w)) for w in re.findall(r"[a-z]+", text.casefold()) if w in _SMALL]


def says_number(given: str, truth: float, tolerance: float = 0.0) -> bool:
    """Whether answer `given` says one number, within `tolerance` of `truth`.

    >>> says_number("24°C", 24), says_number("about 24 degrees", 24), says_number("25", 24), says_number("24 or 25", 24)
    (True, True, False, False)
    >>> says_number("73", 73.4, 0.5), says_number("74", 73.4, 0.5)
    (True, False)
    """
    said = numbers(given)
    return len(said) == 1 and abs(said[0] - truth) <= tolerance + 1e-9


def says_unit(given: str, unit: str) -> bool:
    """Whether answer `given` names no temperature unit or `unit` ("°C" or "°F").

    >>> says_unit("24°C", "°C"), says_unit("24", "°F"), says_unit("75 F", "°C"), says_unit("24 celsius", "°F")
    (True, True, False, False)
    """
    text = given.casefold().replace("°", " ")
    celsius = bool(re.search(r"\d\s*c\b|celsius|centigrade", text))
    fahrenheit = bool(re.search(r"\d\s*f\b|fahrenheit", text))
    return not (celsius and unit == "°F") and not (fahrenheit and unit == "°C")


def says_day(given: str, offset: int) -> bool:
    """Whether answer `given` names the day `offset` days after today, and no other (a weekday, its first three
    letters, "today" or "tomorrow").

    >>> says_day("Friday", 2), says_day("fri", 2), says_day("Friday, June 12", 2), says_day("Thursday", 2)
    (True, True, True, False)
    >>> says_day("today", 0), says_day("Friday or Saturday", 2)
    (True, False)
    """  # noqa: D205
    words = set(re.findall(r"[a-z]+", given.casefold()))
    named = {k for k in range(7) if {weekday(k).casefold(), weekday(k)[:3].casefold()} & words}
    named |= {k for k, w in ((0, "today"), (1, "tomorrow")) if w in words}
    return named == {offset}


def says_time(given: str, hhmm: str) -> bool:
    """Whether answer `given` says one time of day, `hhmm` (24-hour): with AM/PM, in 24-hour form, or as a 12-hour
    time without either.

    >>> [says_time(t, "21:02") for t in ("9:02 PM", "9:02pm", "21:02", "9:02", "9:02 AM", "9:03 PM")]
    [True, True, True, True, False, False]
    >>> says_time("12:15 AM", "00:15"), says_time("5:48 or 9:02", "21:02")
    (True, False)
    """  # noqa: D205
    said = re.findall(r"(\d{1,2})[:.](\d{2})\s*([ap])?\.?\s*m?\b", given.casefold())
    if len(said) != 1:
        return False
    h, m, half = int(said[0][0]), int(said[0][1]), said[0][2]
    want_h, want_m = map(int, hhmm.split(":"))
    if half:
        h = h % 12 + (12 if half == "p" else 0)
        return (h, m) == (want_h, want_m)
    return m == want_m and h in (want_h, want_h - 12)


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_list(elements: Elements, state: State) -> Action | None:
    """The next step to the locations list (None once there)."""
    step = into_app(LABEL, WEATHER, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "locations":
        return None
    return leave(elements) if name in ("delete", "unit") else back()


def to_location(city: str, elements: Elements, state: State) -> Action | None:
    """The next step to `city`'s page (None once there, no dialog over it)."""
    step = into_app(LABEL, WEATHER, elements, state)
    if step is None and state["screen"]["name"] == "location":
        return None if weather_state(state)["open"] == city else back()
    return step or to_list(elements, state) or press(elements, rid=W.NAME_RID, text=city)


def day_cell(offset: int, rid: str, elements: Elements) -> UIElement | None:
    """On a location's page: the element with resource-id `rid` in the daily row `offset` days after today."""
    day = find(elements, rid=W.DAY_RID, text=D.day_label(D.DATE + datetime.timedelta(days=offset)))
    if day is None:
        return None
    return next((e for e in elements if e.rid == rid and e.bounds[1] == day.bounds[1]), None)


def add_city(city: str, elements: Elements, state: State) -> Action:
    """The next step to add `city`: the list, Add location, type the name, tap the result."""
    step = into_app(LABEL, WEATHER, elements, state)
    if step is None and state["screen"]["name"] == "search":
        return fill(elements, state, W.SEARCH_RID, city) or press(elements, rid=W.RESULT_NAME_RID, text=city)
    return step or to_list(elements, state) or press(elements, desc=W.ADD_DESC)


def remove_city(city: str, elements: Elements, state: State) -> Action:
    """The next step to delete `city`: its page, Delete location, Delete."""
    if state["foreground"] == WEATHER and state["screen"]["name"] == "delete":
        return press(elements, text="Delete") if weather_state(state)["open"] == city else leave(elements)
    return to_location(city, elements, state) or press(elements, desc=W.DELETE_DESC)


def set_unit(which: str, unit: str, elements: Elements, state: State) -> Action:
    """The next step to show `which` ("temperature" or "wind") in `unit`: Settings, the unit's row, the choice."""
    step = into_app(LABEL, WEATHER, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "unit":
        return press(elements, rid=W.UNIT_RID, text=unit) if state["screen"]["args"]["which"] == which else leave(
            elements)
    if name == "settings":
        return press(elements, text=W.UNITS[which][0])
    return to_list(elements, state) or press(elements, desc=W.SETTINGS_DESC)
