"""Breezy Weather (org.breezyweather): saved locations with their current weather, a location's page (current
conditions, an hourly strip, a 7-day forecast), adding a location by search, removing one, and the units.

Screens: "locations" (the list: the current location first, then the saved cities, each with its temperature and
condition; "Add location" and "Settings" in the app bar), "location" (args {"city"}: temperature, condition,
feels-like, humidity, wind, UV index, sunrise and sunset, the next hours, then one row per day: day, condition,
chance of precipitation, high and low; "Delete location" in the app bar except for the current location), "delete"
(args {"city"}: "Delete location?" over the page), "search" (a field; the cities whose name starts with, or has a word
starting with, what is typed; a tap adds the city at the end of the list and goes back to it), "settings"
(Temperature unit, Wind speed unit) and "unit" (args {"which"}: the choices of one unit over the settings).

The weather is drawn per episode and city (`weather_data.forecast`); a fresh phone has the current location and two
to four cities drawn from `stable_seed("weather", "saved", phone.seed)`. Data, formats and the typed seam are in
`weather_data`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert
from android_gym.sim.apps.weather_data import (
    CITIES,
    CURRENT,
    PACKAGE,
    TEMPERATURE_UNITS,
    WIND_UNITS,
    WeatherInitial,
    WeatherState,
    clock_label,
    day_label,
    days,
    forecast,
    temperature_label,
    wind_label,
)
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

LIST_RID = f"{PACKAGE}:id/location_list"
ROW_RID = f"{PACKAGE}:id/item_location"
NAME_RID = f"{PACKAGE}:id/item_location_title"
ROW_TEMPERATURE_RID = f"{PACKAGE}:id/item_location_temperature"
ROW_CONDITION_RID = f"{PACKAGE}:id/item_location_weather"
SEARCH_RID = f"{PACKAGE}:id/search_field"
RESULT_RID = f"{PACKAGE}:id/item_search_result"
RESULT_NAME_RID = f"{PACKAGE}:id/item_search_result_title"
TEMPERATURE_RID = f"{PACKAGE}:id/current_temperature"
CONDITION_RID = f"{PACKAGE}:id/current_weather"
DETAIL_RIDS = {key: f"{PACKAGE}:id/details_{key}" for key in ("feels_like", "humidity", "wind", "uv", "sunrise",
                                                                  "sunset")}
HOUR_RID = f"{PACKAGE}:id/item_hourly_temperature"
DAY_RID = f"{PACKAGE}:id/item_daily_date"
DAY_CONDITION_RID = f"{PACKAGE}:id/item_daily_weather"
DAY_PRECIP_RID = f"{PACKAGE}:id/item_daily_precipitation"
DAY_HIGH_RID = f"{PACKAGE}:id/item_daily_high"
DAY_LOW_RID = f"{PACKAGE}:id/item_daily_low"
UNIT_RID = f"{PACKAGE}:id/unit_choice"
ADD_DESC, SETTINGS_DESC, DELETE_DESC = "Add location", "Settings", "Delete location"
UNITS = {"temperature": ("Temperature unit", TEMPERATURE_UNITS), "wind": ("Wind speed unit", WIND_UNITS)}
"""The settings' unit rows: what each shows and the choices it offers."""
ROW_H, DAY_H = 200, 140


def matches(city: str, query: str) -> bool:
    """Whether search `query` finds `city`: its name, or one of its words, starts with it (any case).

    >>> matches("New York", "york"), matches("Oslo", "os"), matches("Porto", "rto"), matches("Oslo", " ")
    (True, True, False, False)
    """
    q = query.strip().casefold()
    return bool(q) and (city.casefold().startswith(q) or any(w.startswith(q) for w in city.casefold().split()))


class WeatherApp(App):
    """Breezy Weather: the locations, a location's forecast, search to add, delete, units."""

    package = PACKAGE
    label = "Breezy Weather"
    icon = "weather"
    aliases = ("weather", "breezy")
    state_schema = WeatherState
    initial_model = WeatherInitial

    def reset(self) -> None:
        """The current location and the episode's drawn cities, in °C and km/h; nothing changed."""
        rng = np.random.default_rng(stable_seed("weather", "saved", self.phone.seed))
        others = [c for c in CITIES if c != CURRENT]
        count = int(rng.integers(2, 5))
        self.cities = [CURRENT, *(others[int(i)] for i in rng.choice(len(others), size=count, replace=False))]
        self.temperature_unit, self.wind_unit = "°C", "km/h"
        self.viewed: list[str] = []
        self.added: list[str] = []
        self.removed: list[str] = []

    def set_up(self, initial: WeatherInitial) -> None:
        """The given cities after the current location, and the units."""
        if initial.locations is not None:
            self.cities = [CURRENT, *initial.locations]
        self.temperature_unit, self.wind_unit = initial.temperature_unit, initial.wind_unit

    def home(self) -> Screen:
        """The list of locations."""
        return Screen(PACKAGE, "locations")

    # -- the model ----------------------------------------------------------------------------------------------------
    def weather(self, city: str) -> dict[str, Any]:
        """`city`'s weather this episode."""
        return forecast(city, self.phone.seed)

    def state(self) -> WeatherState:
        """The locations with their weather, the units and what changed (see `WeatherState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        return {"locations": [{"city": c, **self.weather(c)} for c in self.cities],
                "temperature_unit": self.temperature_unit, "wind_unit": self.wind_unit,  # type: ignore[typeddict-item]
                "screen": front.name if front else None,  # type: ignore[typeddict-item]
                "open": front.args.get("city") if front is not None else None, "viewed": list(self.viewed),
                "added": list(self.added), "removed": list(self.removed)}

    def degrees(self, celsius: int) -> str:
        """A temperature in the chosen unit."""
        return temperature_label(celsius, self.temperature_unit)

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a dialog over the (inert) page below it."""
        pages = {"locations": self._locations, "location": self._location, "search": self._search,
                 "settings": self._settings}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        if screen.name == "delete":
            return [*under, alert_dialog(PACKAGE, "Delete location?", f"{screen.args['city']} will be removed from "
                                         "your locations.", [("Cancel", ("cancel",)), ("Delete", ("ok",))],
                                         ("cancel",))]
        title, choices = UNITS[screen.args["which"]]
        chosen = self.temperature_unit if screen.args["which"] == "temperature" else self.wind_unit
        y = dialog_body_top(560)
        body = [View(TEXT_VIEW, (150, y + k * 140, WIDTH - 150, y + (k + 1) * 140), text=choice, rid=UNIT_RID,
                     package=PACKAGE, clickable=True, focusable=True, checkable=True, checked=choice == chosen,
                     on_tap=("unit", choice), style="row") for k, choice in enumerate(choices)]
        return [*under, app_dialog(PACKAGE, title, body, [("Cancel", ("cancel",), True)])]

    def _action(self, i: int, desc: str, icon: str, event: tuple) -> View:
        """App bar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon)

    def _locations(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._row(top + k * ROW_H, city) for k, city in enumerate(self.cities)]
        return [toolbar("Breezy Weather", PACKAGE, PACKAGE, has_back=False),
                self._action(1, ADD_DESC, "add", ("search",)), self._action(0, SETTINGS_DESC, "settings",
                                                                            ("settings",)),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _row(self, y: int, city: str) -> View:
        w = self.weather(city)
        where = "Current location" if city == CURRENT else CITIES[city][0]
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("open", city), style="row", children=[
                        View(TEXT_VIEW, (MARGIN, y + 30, WIDTH - 330, y + 110), text=city, rid=NAME_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN, y + 110, WIDTH - 330, y + 170), text=where, package=PACKAGE,
                             style="row_summary"),
                        View(TEXT_VIEW, (WIDTH - 310, y + 30, WIDTH - MARGIN, y + 110),
                             text=self.degrees(w["temperature_c"]), rid=ROW_TEMPERATURE_RID, package=PACKAGE,
                             style="row_title"),
                        View(TEXT_VIEW, (WIDTH - 310, y + 110, WIDTH - MARGIN, y + 170), text=w["condition"],
                             rid=ROW_CONDITION_RID, package=PACKAGE, style="row_summary")])

    def _location(self, screen: Screen) -> list[View]:
        city = screen.args["city"]
        w = self.weather(city)
        col = Column(CONTENT_TOP + TOOLBAR_H + 20, PACKAGE)
        col.text(self.degrees(w["temperature_c"]), height=150, style="time", rid=TEMPERATURE_RID)
        col.text(w["condition"], height=80, style="section", rid=CONDITION_RID)
        details = (("feels_like", "Feels like", self.degrees(w["feels_like_c"])),
                   ("humidity", "Humidity", f"{w['humidity_pct']}%"),
                   ("wind", "Wind", wind_label(w["wind_kmh"], self.wind_unit)),
                   ("uv", "UV index", str(w["uv_index"])),
                   ("sunrise", "Sunrise", clock_label(w["sunrise"])), ("sunset", "Sunset", clock_label(w["sunset"])))
        for k, (key, name, value) in enumerate(details):
            x0 = MARGIN if k % 2 == 0 else WIDTH // 2
            y = col.y + (k // 2) * 80
            col.views.append(View(TEXT_VIEW, (x0, y, x0 + 250, y + 80), text=name, package=PACKAGE,
                                  style="secondary"))
            col.views.append(View(TEXT_VIEW, (x0 + 250, y, x0 + WIDTH // 2 - MARGIN, y + 80), text=value,
                                  rid=DETAIL_RIDS[key], package=PACKAGE))
        col.gap(3 * 80 + 20)
        col.text("Hourly", height=70, style="secondary")
        step = (WIDTH - 2 * MARGIN) // len(w["hourly_c"])
        y = col.y
        for k, celsius in enumerate(w["hourly_c"]):
            x0 = MARGIN + k * step
            col.views.append(View(TEXT_VIEW, (x0, y, x0 + step, y + 60), text=f"{10 + k}:00", package=PACKAGE,
                                  style="secondary"))
            col.views.append(View(TEXT_VIEW, (x0, y + 60, x0 + step, y + 130), text=self.degrees(celsius),
                                  rid=HOUR_RID, package=PACKAGE))
        col.gap(150)
        col.text("Daily forecast", height=70, style="secondary")
        for day, d in zip(days(), w["daily"], strict=True):
            y = col.y
            cells = ((DAY_RID, day_label(day), MARGIN, 330), (DAY_CONDITION_RID, d["condition"], 330, 620),
                     (DAY_PRECIP_RID, f"{d['precip_pct']}%", 620, 770),
                     (DAY_HIGH_RID, self.degrees(d["high_c"]), 770, 910),
                     (DAY_LOW_RID, self.degrees(d["low_c"]), 910, WIDTH - MARGIN // 2))
            col.add(View(LINEAR, (0, y, WIDTH, y + DAY_H), package=PACKAGE, style="row", children=[
                View(TEXT_VIEW, (x0, y + 30, x1, y + DAY_H - 30), text=text, rid=rid, package=PACKAGE,
                     desc=f"{day_label(day)}: {name}" if name else "")
                for rid, text, x0, x1, name in ((*c, n) for c, n in zip(
                    cells, ("", "", "chance of precipitation", "high", "low"), strict=True))]))
        actions = [] if city == CURRENT else [self._action(0, DELETE_DESC, "delete", ("delete", city))]
        return [toolbar(city, PACKAGE, PACKAGE), *actions,
                scroll_list(CONTENT_TOP + TOOLBAR_H, CONTENT_BOTTOM, PACKAGE, col.views,
                            rid=f"{PACKAGE}:id/location_page")]

    def _search(self, screen: Screen) -> list[View]:
        query = screen.fields.get(SEARCH_RID, "")
        top = CONTENT_TOP + TOOLBAR_H
        field = text_field((TOOLBAR_H, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), SEARCH_RID, query,
                           "Search for a location", screen.focus == SEARCH_RID, PACKAGE, icon="search")
        bar = toolbar("", PACKAGE, PACKAGE)
        rows = []
        for k, city in enumerate(c for c in CITIES if c != CURRENT and matches(c, query)):
            y = top + k * 170
            rows.append(View(LINEAR, (0, y, WIDTH, y + 170), rid=RESULT_RID, package=PACKAGE, clickable=True,
                             focusable=True, on_tap=("add", city), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 100), text=city,
                                      rid=RESULT_NAME_RID, package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN, y + 100, WIDTH - MARGIN, y + 160), text=CITIES[city][0],
                                      package=PACKAGE, style="row_summary")]))
        return [bar, field, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/search_results")]

    def _settings(self, screen: Screen) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 20, PACKAGE, left=0, right=WIDTH)
        for which, (title, _) in UNITS.items():
            value = self.temperature_unit if which == "temperature" else self.wind_unit
            y = col.y
            col.add(View(LINEAR, (0, y, WIDTH, y + 180), package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("choose", which), style="row", children=[
                             View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 100), text=title,
                                  package=PACKAGE, style="row_title"),
                             View(TEXT_VIEW, (MARGIN, y + 100, WIDTH - MARGIN, y + 160), text=value,
                                  rid=f"{PACKAGE}:id/{which}_unit", package=PACKAGE, style="row_summary")]))
        return [toolbar("Settings", PACKAGE, PACKAGE), *col.views]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Rows, the app bar actions, search results, the delete dialog, the unit choices."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "locations", ("open", city):
                if city not in self.viewed:
                    self.viewed.append(city)
                return self.phone.push(Screen(PACKAGE, "location", {"city": city}))
            case "locations", ("search",):
                return self.phone.push(Screen(PACKAGE, "search", focus=SEARCH_RID))
            case "locations", ("settings",):
                return self.phone.push(Screen(PACKAGE, "settings"))
            case "location", ("delete", city):
                return self.phone.push(Screen(PACKAGE, "delete", {"city": city}))
            case "delete", ("ok",):
                city = screen.args["city"]
                self.cities.remove(city)
                self.removed.append(city)
                self.phone.pop()
                return self.phone.pop()
            case "search", ("add", city):
                if city not in self.cities:
                    self.cities.append(city)
                    self.added.append(city)
                return self.phone.pop()
            case "settings", ("choose", which):
                return self.phone.push(Screen(PACKAGE, "unit", {"which": which}))
            case "unit", ("unit", choice):
                if screen.args["which"] == "temperature":
                    self.temperature_unit = choice
                else:
                    self.wind_unit = choice
                return self.phone.pop()
        return False
