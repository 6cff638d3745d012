"""World-suite tasks over Breezy Weather (issue 48): answer a day's high, the day most likely to rain, how many days
beat a temperature, tomorrow's high in the other unit, the humidity now and today's sunset; add a city, remove one,
change a unit; and carry the forecast into another app: text someone tomorrow's high, or a city's temperature now
after adding it (Messages), a day's high and low into a Markor note, an event moved to the driest day (Calendar), an
umbrella task due on the first rainy day (Tasks).

Every task saves its city among two others (`saved`), in a unit the instance picks; the forecast is the episode's
(`weather_data.forecast`), so answers and checks read it from Breezy Weather's state, never from the parameters:
`answer()` gives None once a location was added or removed. Within a city's week the highs differ and so do the
chances of precipitation, so the near miss (another day, another city, the other unit) always reads otherwise.
Splits hold out cities (`split_of`). Shared steps and answer matching are in `weather_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import weather as W
from android_gym.sim.apps import weather_data as D
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, state_of
from android_gym.tasks.world.calendar_expert import CAL, change
from android_gym.tasks.world.messaging_expert import conversation, names, person, same_number, send_text
from android_gym.tasks.world.notes_expert import MARKOR, TASKS, markor_create, markor_write, only_touched, tasks_add
from android_gym.tasks.world.weather_expert import (
    TASK_CITIES,
    WEATHER,
    add_city,
    day_cell,
    day_of,
    find_location,
    numbers,
    remove_city,
    says_day,
    says_number,
    says_time,
    says_unit,
    set_unit,
    shown,
    to_location,
    untouched,
    weather_state,
    weekday,
)

UNIT_NAMES = {"°C": "Celsius", "°F": "Fahrenheit"}
NOTES = ("weekend_weather.md", "trip_forecast.md", "weather_check.md", "forecast.md", "packing_weather.md",
         "travel_notes.md", "city_weather.md")
EVENTS = ("Picnic in the park", "Bike ride", "Beach day", "Garden party", "Outdoor yoga", "Hike with Sam",
          "Farmers market trip", "Barbecue")
RAIN_ITEMS = ("Pack an umbrella", "Bring a rain jacket", "Pack rain boots", "Take the big umbrella")


def ascii_degrees(label: str) -> str:
    """A temperature as the agent can type it (the action space's text is printable ASCII: no degree sign).

    >>> ascii_degrees("24°C"), ascii_degrees("73.4°F")
    ('24 C', '73.4 F')
    """
    return label.replace("°", " ")


def city_grid(variants: int) -> list[dict[str, Any]]:
    """Every task city `variants` times: two other saved cities, where it sits among them, the unit, a day ahead
    (1-6, so its weekday names one day of the week) and a phrasing."""  # noqa: D205, D209
    out = []
    for i, city in enumerate(TASK_CITIES):
        for k in range(variants):
            n = i + 5 * k
            others = [nth(TASK_CITIES, i + 3 + k), nth(TASK_CITIES, i + 11 + 2 * k)]
            saved = [*others[:n % 3], city, *others[n % 3:]]
            offset = 1 + n % 6
            out.append({"city": city, "saved": saved, "unit": "°F" if n % 2 else "°C", "offset": offset,
                        "weekday": weekday(offset), "phrasing": i + k})
    return out


class _CityTemplate(WorldTemplate):
    """A task about the weather in {city}, saved among two other cities; split on the city."""

    split_key, apps = "city", (WEATHER,)

    def grid(self) -> list[dict[str, Any]]:
        """Every city three times."""
        return city_grid(3)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities, the unit."""
        return {WEATHER: {"locations": params["saved"], "temperature_unit": params["unit"]}}


class _AnswerTemplate(_CityTemplate):
    """An answer read off {city}'s page, while no location was added or removed."""

    outcome = "answer"

    def answer(self, params: Params, state: State) -> str | None:
        """The truth (`truth`) while the city is saved and nothing was added or removed."""
        loc = find_location(state, params["city"])
        return self.truth(params, loc, weather_state(state)["temperature_unit"]) if loc and untouched(state) else None

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """The answer, from the city's weather and the unit the app shows."""
        raise NotImplementedError


class DayHighTemplate(_AnswerTemplate):
    """What will the high be in {city} on {weekday}? The high as the app shows it ("24°C")."""

    name, max_steps = "weather_day_high", 10
    phrasings = ("What will the high be in {city} on {weekday}?", "How warm will it get in {city} on {weekday}?",
                 "Check Breezy Weather: what is {weekday}'s high temperature in {city}?")

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """The day's high in the shown unit."""
        return D.temperature_label(loc["daily"][params["offset"]]["high_c"], unit)

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same number, in no unit or the shown one."""
        return says_number(given, int(truth[:-2])) and says_unit(given, truth[-2:])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, then its high on that day."""
        step = to_location(params["city"], elements, state)
        cell = day_cell(params["offset"], W.DAY_HIGH_RID, elements)
        return step or (wait() if cell is None else Action(ActionType.STATUS_TASK_COMPLETE, text=ascii_degrees(
            cell.text)))


class RainiestDayTemplate(_AnswerTemplate):
    """Which day this week is it most likely to rain in {city}? The weekday of the highest chance."""

    name, max_steps = "weather_rainiest_day", 10
    phrasings = ("Which day this week is it most likely to rain in {city}?",
                 "When is rain most likely in {city} over the next seven days?",
                 "Look at the 7-day forecast for {city}: which day has the highest chance of precipitation?")

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """The weekday whose chance of precipitation is highest (one day: they differ)."""
        chances = [d["precip_pct"] for d in loc["daily"]]
        return weekday(chances.index(max(chances)))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """That day and no other: its weekday (or first three letters), "today" or "tomorrow"."""
        return says_day(given, next(k for k in range(7) if weekday(k) == truth))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, then the day of the highest chance, as its row names it."""
        step = to_location(params["city"], elements, state)
        loc = find_location(state, params["city"])
        if step is not None or loc is None:
            return step or wait()
        chances = [d["precip_pct"] for d in loc["daily"]]
        return answer_with(day_cell(chances.index(max(chances)), W.DAY_RID, elements))


class DaysAboveTemplate(_AnswerTemplate):
    """How many days this week will the high be above {threshold} in {city}? A count (0-7)."""

    name, max_steps = "weather_days_above", 10
    phrasings = ("How many days this week will it be above {threshold} in {city}?",
                 "In the 7-day forecast for {city}, on how many days is the high over {threshold}?",
                 "Count the days this week (today included) when {city} gets warmer than {threshold}")

    def grid(self) -> list[dict[str, Any]]:
        """Every city three times, with a threshold near its usual high, in the instance's unit."""
        out = []
        for k, p in enumerate(city_grid(3)):
            degrees = shown(D.CITIES[p["city"]][1] + 2 * (k % 3) - 2, p["unit"])
            out.append({**p, "degrees": degrees, "threshold": f"{degrees} degrees {UNIT_NAMES[p['unit']]}"})
        return out

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """How many days' highs, in the threshold's unit, are above it."""
        return str(sum(shown(d["high_c"], params["unit"]) > params["degrees"] for d in loc["daily"]))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, in figures or words."""
        return says_number(given, int(truth))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, then the count of its daily highs above the threshold."""
        step = to_location(params["city"], elements, state)
        loc = find_location(state, params["city"])
        if step is not None or loc is None:
            return step or wait()
        return Action(ActionType.STATUS_TASK_COMPLETE, text=self.truth(params, loc, params["unit"]))


class ConvertedHighTemplate(_AnswerTemplate):
    """What is tomorrow's high in {city} in {asked_name}, the unit the app does not show? Converted, within 0.5."""

    name, max_steps = "weather_high_converted", 10
    phrasings = ("What will tomorrow's high in {city} be in {asked_name}?",
                 "Tell me tomorrow's high temperature for {city} in degrees {asked_name}",
                 "My friend uses {asked_name}: how warm will {city} get tomorrow in that unit?")

    def grid(self) -> list[dict[str, Any]]:
        """Every city three times, asked in the unit the app does not show."""
        return [{**p, "asked": asked, "asked_name": UNIT_NAMES[asked]} for p in city_grid(3)
                for asked in ["°F" if p["unit"] == "°C" else "°C"]]

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """Tomorrow's high in the asked unit, unrounded (one decimal)."""
        celsius = loc["daily"][1]["high_c"]
        return f"{celsius}°C" if params["asked"] == "°C" else f"{celsius * 9 / 5 + 32:.1f}°F"

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """A number within half a degree of the exact conversion, in no unit or the asked one."""
        return says_number(given, float(truth[:-2]), 0.5) and says_unit(given, params["asked"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, tomorrow's high, converted."""
        step = to_location(params["city"], elements, state)
        cell = day_cell(1, W.DAY_HIGH_RID, elements)
        if step is not None or cell is None:
            return step or wait()
        value, unit = int(cell.text[:-2]), cell.text[-2:]
        if unit == params["asked"]:
            return Action(ActionType.STATUS_TASK_COMPLETE, text=ascii_degrees(cell.text))
        converted = value * 9 / 5 + 32 if unit == "°C" else (value - 32) * 5 / 9
        return Action(ActionType.STATUS_TASK_COMPLETE, text=ascii_degrees(f"{converted:.1f}{params['asked']}"))


class HumidityTemplate(_AnswerTemplate):
    """What is the humidity in {city} now? The percentage its page shows."""

    name, max_steps = "weather_humidity", 10
    phrasings = ("What's the humidity in {city} right now?", "How humid is it in {city} at the moment?",
                 "Check Breezy Weather for the current humidity in {city}")

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """The humidity ("58%")."""
        return f"{loc['humidity_pct']}%"

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same number, not a temperature."""
        return says_number(given, int(truth[:-1])) and "°" not in given

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, then its humidity."""
        return to_location(params["city"], elements, state) or answer_with(
            find(elements, rid=W.DETAIL_RIDS["humidity"]))



class SunsetTemplate(_AnswerTemplate):
    """When does the sun set in {city} today? The time its page shows ("9:02 PM")."""

    name, max_steps = "weather_sunset", 10
    phrasings = ("What time does the sun set in {city} today?", "When is sunset in {city}?",
                 "Check Breezy Weather: how late does it get dark in {city} today (sunset time)?")

    def truth(self, params: Params, loc: D.LocationState, unit: str) -> str:
        """The sunset, 24-hour ("21:02")."""
        return loc["sunset"]

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """That time, however written (12- or 24-hour); the sunrise and any other time lose."""
        return says_time(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, then its sunset."""
        return to_location(params["city"], elements, state) or answer_with(
            find(elements, rid=W.DETAIL_RIDS["sunset"]))


# -- edits ------------------------------------------------------------------------------------------------------------
class AddCityTemplate(_CityTemplate):
    """Add {city} to the saved locations (the other two kept, in order; the units as they were)."""

    name, max_steps = "weather_add_city", 11
    phrasings = ("Add {city} to my locations in Breezy Weather", "I want to see the weather in {city} too: add it",
                 "Save {city} as a new location in the weather app")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two other cities saved, not {city}."""
        return {WEATHER: {"locations": [c for c in params["saved"] if c != params["city"]],
                          "temperature_unit": params["unit"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly {city} added, at the end; nothing removed; the units unchanged."""
        w = weather_state(state)
        kept = [c for c in params["saved"] if c != params["city"]]
        return (w["added"] == [params["city"]] and not w["removed"]
                and [loc["city"] for loc in w["locations"]] == [D.CURRENT, *kept, params["city"]]
                and (w["temperature_unit"], w["wind_unit"]) == (params["unit"], "km/h"))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add location, type the city, tap it."""
        return wait() if weather_state(state)["added"] else add_city(params["city"], elements, state)


class RemoveCityTemplate(_CityTemplate):
    """Remove {city} from the saved locations; the others stay, in order."""

    name, max_steps = "weather_remove_city", 11
    phrasings = ("Remove {city} from my locations in Breezy Weather", "Delete the {city} location from the weather app",
                 "I no longer need the weather for {city}: take it off my list")

    def check(self, params: Params, state: State) -> bool:
        """Exactly {city} removed; nothing added; the units unchanged."""
        w = weather_state(state)
        kept = [c for c in params["saved"] if c != params["city"]]
        return (w["removed"] == [params["city"]] and not w["added"]
                and [loc["city"] for loc in w["locations"]] == [D.CURRENT, *kept]
                and (w["temperature_unit"], w["wind_unit"]) == (params["unit"], "km/h"))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The city's page, Delete location, Delete."""
        return wait() if weather_state(state)["removed"] else remove_city(params["city"], elements, state)


SETTINGS = [(which, unit, start_t, start_w) for which, units in (("temperature", D.TEMPERATURE_UNITS),
                                                                 ("wind", D.WIND_UNITS))
            for unit in units for start_t in D.TEMPERATURE_UNITS for start_w in D.WIND_UNITS
            if unit != (start_t if which == "temperature" else start_w)]
"""Each unit change: which unit, to what, from which temperature and wind units."""
WIND_NAMES = {"km/h": "kilometres per hour", "m/s": "metres per second", "mph": "miles per hour", "kn": "knots"}


class SetUnitTemplate(WorldTemplate):
    """Show {which} in {unit_name}; the other unit and the locations as they were."""

    name, max_steps, split_key = "weather_set_unit", 11, "setting"
    apps = (WEATHER,)
    phrasings = ("Switch Breezy Weather to show {what} in {unit_name}", "Change the {which} unit of the weather app "
                 "to {unit_name}", "I prefer {unit_name}: make Breezy Weather use it for {what}")

    def grid(self) -> list[dict[str, Any]]:
        """Every change of either unit, from every pair of units it is not."""
        return [{"setting": f"{which}:{unit}:{t}:{w}", "which": which, "unit": unit, "start_t": t, "start_w": w,
                 "what": "temperatures" if which == "temperature" else "wind speed",
                 "unit_name": UNIT_NAMES.get(unit) or WIND_NAMES[unit], "phrasing": k}
                for k, (which, unit, t, w) in enumerate(SETTINGS)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The starting units."""
        return {WEATHER: {"temperature_unit": params["start_t"], "wind_unit": params["start_w"]}}

    def check(self, params: Params, state: State) -> bool:
        """The unit changed to {unit}, the other kept; no location added or removed."""
        w = weather_state(state)
        want = ((params["unit"], params["start_w"]) if params["which"] == "temperature"
                else (params["start_t"], params["unit"]))
        return (w["temperature_unit"], w["wind_unit"]) == want and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Settings, the unit's row, the choice."""
        w = weather_state(state)
        if (w["temperature_unit"] if params["which"] == "temperature" else w["wind_unit"]) == params["unit"]:
            return wait()
        return set_unit(params["which"], params["unit"], elements, state)


# -- the forecast into another app -------------------------------------------------------------------------------------
class HighToTextTemplate(_CityTemplate):
    """Text {person} tomorrow's high in {city}: one SMS to them holding it (as the app shows it, in either unit)."""

    name, max_steps = "weather_high_to_text", 17
    apps = (WEATHER, M.PACKAGE)
    phrasings = ("Text {person} tomorrow's high in {city}", "{person} asked how warm {city} will be tomorrow: send "
                 "them the forecast high by SMS", "Look up tomorrow's high for {city} in Breezy Weather and message "
                 "it to {person}")

    def grid(self) -> list[dict[str, Any]]:
        """Every city twice, with a person per instance."""
        return [{**p, "person": names(f"weather:{p['city']}:{p['phrasing']}", 1)[0]} for p in city_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; a conversation with the person."""
        p = person(params["person"])
        return {**super().initial(params),
                M.PACKAGE: {"threads": [conversation(p, (f"Going to {params['city']} tomorrow, how warm?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """One text, to the person, saying tomorrow's high (in the shown unit or the other) and not today's."""
        sent = state_of(state, M.MessagesState)["sent"]
        days = [day_of(state, params["city"], k) for k in (0, 1)]
        if len(sent) != 1 or not same_number(sent[0]["number"], person(params["person"])["number"]) or None in days:
            return False
        said = numbers(sent[0]["text"])
        today, tomorrow = ({shown(d["high_c"], u) for u in D.TEMPERATURE_UNITS} for d in days if d is not None)
        return bool(tomorrow & set(said)) and not today & set(said) and untouched(state)

    def text(self, params: Params, state: State) -> str | None:
        """What the expert texts: tomorrow's high as the app shows it."""
        day = day_of(state, params["city"], 1)
        unit = weather_state(state)["temperature_unit"]
        if day is None:
            return None
        return f"Tomorrow's high in {params['city']}: {ascii_degrees(D.temperature_label(day['high_c'], unit))}"

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the high on the city's page, then text it."""
        text = self.text(params, state)
        if params["city"] not in weather_state(state)["viewed"] or text is None:
            return to_location(params["city"], elements, state) or wait()
        return send_text(person(params["person"]), text, elements, state)


class AddCityAndTextTemplate(_CityTemplate):
    """Add {city} to Breezy Weather, then text {person} the temperature there now (one SMS, either unit)."""

    name, max_steps = "weather_add_city_and_text", 20
    apps = (WEATHER, M.PACKAGE)
    phrasings = ("Add {city} to my weather locations and text {person} the temperature there right now",
                 "{person} is in {city}: save the city in Breezy Weather and send them its current temperature",
                 "Put {city} in Breezy Weather, then message {person} how warm it is there at the moment")

    def grid(self) -> list[dict[str, Any]]:
        """Every city twice, with a person per instance."""
        return [{**p, "person": names(f"weather-now:{p['city']}:{p['phrasing']}", 1)[0]} for p in city_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two other cities saved, not {city}; a conversation with the person."""
        p = person(params["person"])
        return {WEATHER: {"locations": [c for c in params["saved"] if c != params["city"]],
                          "temperature_unit": params["unit"]},
                M.PACKAGE: {"threads": [conversation(p, (f"Made it to {params['city']}!",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """{city} alone added; one text, to the person, holding its temperature now (in either unit)."""
        w = weather_state(state)
        loc = find_location(state, params["city"])
        sent = state_of(state, M.MessagesState)["sent"]
        if w["added"] != [params["city"]] or w["removed"] or loc is None or len(sent) != 1:
            return False
        now = {shown(loc["temperature_c"], u) for u in D.TEMPERATURE_UNITS}
        return same_number(sent[0]["number"], person(params["person"])["number"]) and bool(
            now & set(numbers(sent[0]["text"])))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add the city, then text its temperature as the list shows it."""
        w = weather_state(state)
        loc = find_location(state, params["city"])
        if not w["added"] or loc is None:
            return add_city(params["city"], elements, state)
        now = ascii_degrees(D.temperature_label(loc["temperature_c"], w["temperature_unit"]))
        return send_text(person(params["person"]), f"It is {now} in {params['city']} right now", elements, state)


class DayToNoteTemplate(_CityTemplate):
    """Write {city}'s high and low on {weekday} into a new Markor note {note}."""

    name, max_steps = "weather_day_to_note", 20
    apps = (WEATHER, MARKOR)
    phrasings = ('Create a Markor note "{note}" with the high and low for {city} on {weekday}',
                 "Write {weekday}'s forecast high and low in {city} into a new note called {note} in Markor",
                 "Note down in Markor ({note}) how warm and how cool {city} will be on {weekday}")

    def grid(self) -> list[dict[str, Any]]:
        """Every city twice, with a note name."""
        return [{**p, "note": nth(NOTES, p["phrasing"] + k)} for k, p in enumerate(city_grid(2))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; no note of that name."""
        return {**super().initial(params), MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params, state: State) -> str | None:
        """What the expert writes: the day's high and low in the shown unit."""
        day = day_of(state, params["city"], params["offset"])
        unit = weather_state(state)["temperature_unit"]
        if day is None:
            return None
        high, low = (ascii_degrees(D.temperature_label(day[k], unit)) for k in ("high_c", "low_c"))
        return f"{params['city']} {params['weekday']}: high {high}, low {low}"

    def check(self, params: Params, state: State) -> bool:
        """The note holds the day's high and low (in one unit); no other note touched; no location changed."""
        m = state_of(state, markor.MarkorState)
        day = day_of(state, params["city"], params["offset"])
        if day is None or params["note"] not in m["files"]:
            return False
        said = set(numbers(m["files"][params["note"]]))
        holds = any({shown(day["high_c"], u), shown(day["low_c"], u)} <= said for u in D.TEMPERATURE_UNITS)
        return holds and only_touched(m["edits"], {params["note"]}) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the day on the city's page, then create the note and write it."""
        text = self.text(params, state)
        if params["city"] not in weather_state(state)["viewed"] or text is None:
            return to_location(params["city"], elements, state) or wait()
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], text, elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


NEXT_WEEK = str(D.DATE + datetime.timedelta(days=8))
"""Where the event to move starts: Thursday of next week, outside the forecast."""


class DriestDayEventTemplate(_CityTemplate):
    """Move the event {event} (next Thursday) to the day this week with the lowest chance of rain in {city}."""

    name, max_steps = "weather_event_to_driest_day", 22
    apps = (WEATHER, CAL)
    phrasings = ('Move my "{event}" event from next Thursday to the driest day this week in {city}, same time',
                 "Check which day this week has the lowest chance of rain in {city} and reschedule {event} to it",
                 "In Calendar, move {event} to whichever day of the 7-day forecast for {city} is least likely to "
                 "be rainy (keep the time)")

    def grid(self) -> list[dict[str, Any]]:
        """Every city twice, with an event."""
        return [{**p, "event": nth(EVENTS, p["phrasing"] + 3 * k)} for k, p in enumerate(city_grid(2))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; the event next Thursday 10:00-12:00, alone with its title."""
        return {**super().initial(params), CAL: {"absent": [params["event"]], "events": [
            {"title": params["event"], "date": NEXT_WEEK, "start": "10:00", "end": "12:00"}]}}

    def driest(self, params: Params, state: State) -> str | None:
        """The date of the lowest chance of precipitation in the city this week."""
        loc = find_location(state, params["city"])
        return None if loc is None else min(loc["daily"], key=lambda d: d["precip_pct"])["date"]

    def check(self, params: Params, state: State) -> bool:
        """The event alone changed: to the driest day, 10:00-12:00 kept; no location changed."""
        c = state_of(state, C.CalendarState)
        mine = [e for e in c["events"] if e["title"] == params["event"]]
        return (len(mine) == 1 and (mine[0]["date"], mine[0]["start"], mine[0]["end"]) == (
            self.driest(params, state), "10:00", "12:00") and c["edited"] == [mine[0]["id"]]
                and not c["added"] and not c["deleted"] and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the days on the city's page, then change the event's date."""
        driest = self.driest(params, state)
        if params["city"] not in weather_state(state)["viewed"] or driest is None:
            return to_location(params["city"], elements, state) or wait()
        event = next((e for e in state_of(state, C.CalendarState)["events"] if e["title"] == params["event"]), None)
        return wait() if event is None else change(event, {"date": driest}, elements, state)


class RainTaskTemplate(_CityTemplate):
    """Add the task {item} (Tasks' Inbox), due the first day this week that rain is forecast in {city}."""

    name, max_steps = "weather_rain_task", 26
    apps = (WEATHER, TASKS)
    phrasings = ('Add "{item}" to my Tasks, due on the first day this week that rain is forecast in {city}',
                 "Find the first rainy day in {city}'s forecast and create a task {item} due that day",
                 "Remind me to {lower} for {city}: a task in Tasks due the first day it is supposed to rain there")

    def grid(self) -> list[dict[str, Any]]:
        """Every city twice, with an item."""
        return [{**p, "item": item, "lower": item[0].lower() + item[1:]}
                for k, p in enumerate(city_grid(2)) for item in [nth(RAIN_ITEMS, p["phrasing"] + k)]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; no task of that title."""
        return {**super().initial(params), TASKS: {"absent": [params["item"]]}}

    def rainy(self, params: Params, state: State) -> str | None:
        """The first date whose forecast shows rain (a chance of at least `RAINY_PCT`; every week has one)."""
        loc = find_location(state, params["city"])
        return None if loc is None else next(d["date"] for d in loc["daily"] if d["precip_pct"] >= D.RAINY_PCT)

    def check(self, params: Params, state: State) -> bool:
        """One open task of that title, due that day; nothing else in Tasks edited; no location changed."""
        t = state_of(state, todo.TasksState)
        found = [task for tasks in t["lists"].values() for task in tasks
                 if task["title"].casefold() == params["item"].casefold()]
        return (len(found) == 1 and not found[0]["completed"] and found[0]["due"] == self.rainy(params, state)
                and all(e["title"].casefold() == params["item"].casefold() for e in t["edits"]) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the days on the city's page, then add the task to the Inbox with that due date."""
        due = self.rainy(params, state)
        if params["city"] not in weather_state(state)["viewed"] or due is None:
            return to_location(params["city"], elements, state) or wait()
        return tasks_add("Inbox", params["item"], due, "none", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    DayHighTemplate(), RainiestDayTemplate(), DaysAboveTemplate(), ConvertedHighTemplate(), HumidityTemplate(),
    SunsetTemplate(), AddCityTemplate(), RemoveCityTemplate(), SetUnitTemplate(), HighToTextTemplate(),
    AddCityAndTextTemplate(), DayToNoteTemplate(), DriestDayEventTemplate(), RainTaskTemplate(),
)
"""The Breezy Weather templates of the world suite."""
