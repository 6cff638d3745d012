"""Calendar templates that only the everyday instructions use (issue 49), outside the World suite, whose tasks stay
as published: an event more than two months ahead (the date picker pages a month per tap, so it takes a longer
budget than `CreateEventTemplate`'s), and a day's events on the day view paged to that day. Each has a grid, so that
the template checks (`testing.template_checks`) hold it to the contract the suite's templates keep.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.calendar_expert import CAL, Elements, State, press, to_schedule
from android_gym.tasks.world.calendar_tasks import STARTS, TITLES, CreateEventTemplate, iso

NEAR_MONTHS = 2
"""How many months on from June an everyday line's event may fall on `CreateEventTemplate` (the date picker pages a
month per tap); later ones go to `CreateLaterEventTemplate`, whose budget covers the paging."""


def months_ahead(date: str) -> int:
    """Months from the sim's June 2026 to `date`'s month (the date picker's pages).

    >>> months_ahead("2026-06-30"), months_ahead("2027-03-03")
    (0, 9)
    """
    d = datetime.date.fromisoformat(date)
    return (d.year - C.DATE.year) * 12 + d.month - C.DATE.month


class CreateLaterEventTemplate(CreateEventTemplate):
    """An everyday line's event more than `NEAR_MONTHS` months ahead, up to a year ("Schedule a dentist appointment on
    March 3rd at 9:30", issue 49): `CreateEventTemplate`'s check and expert for a line's params {"title", "date",
    "start"}, with a budget for paging the date picker that far.

    Not in the World suite (whose tasks stay as published); its grid serves the template checks.
    """  # noqa: D205

    name, max_steps = "calendar_create_later_event", 36
    phrasings = ('Create a calendar event "{title}" on {day} at {at}', "Add {title} to my calendar for {day} at {at}",
                 'Schedule "{title}" in Google Calendar on {day}, starting at {at}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title with a day three to twelve months ahead and a start."""
        out = []
        for i, title in enumerate(TITLES):
            d = C.DATE.replace(day=1) + datetime.timedelta(days=31 * (3 + i % 10))
            date = str(d.replace(day=1 + (7 * i) % 28))
            start = STARTS[i % len(STARTS)]
            out.append({"title": title, "date": date, "day": C.long_date(date), "start": start, "at": C.clock(start),
                        "phrasing": i})
        return out


PAGED_DAYS = 7
"""How far from today (days, either way) `DayScheduleTemplate` asks: the day view pages one day per tap."""


class DayScheduleTemplate(WorldTemplate):
    """What's on my calendar {when}? Calendar in front on its day view paged to that day (issue 49: "What's on my
    calendar tomorrow?"), which lists that day's events.

    Not in the World suite (whose tasks stay as published): the everyday lines parse onto it with params {"date"}
    (at most `PAGED_DAYS` from today); its grid serves the template checks.
    """  # noqa: D205

    name, max_steps, split_key = "calendar_day_schedule", 14, "date"
    apps = (CAL,)
    phrasings = ("What's on my calendar {when}?", "Show me my schedule for {when} in Calendar",
                 "Open the day view of Google Calendar for {when}")

    def grid(self) -> list[dict[str, Any]]:
        """Every day from a week ago to a week ahead but today, in three phrasings."""
        return [{"date": iso(n), "when": "tomorrow" if n == 1 else f"on {C.long_date(iso(n))}", "phrasing": k}
                for n in range(-PAGED_DAYS, PAGED_DAYS + 1) if n for k in range(3)]

    def values(self, split: str) -> list[dict[str, Any]]:
        """Train: the days ahead but the last; test: the last day ahead and the days past (few days to hold out)."""
        return [p for p in self.grid() if (p["date"] == iso(PAGED_DAYS) or p["date"] < iso(0)) == (split == "test")]

    def check(self, params: Params, state: State) -> bool:
        """Calendar in front on the day view, showing the day."""
        c = state_of(state, C.CalendarState)
        return state.get("foreground") == CAL and c["view"] == "day" and c["day"] == params["date"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open Calendar, the Day view tab, then its arrows to the day."""
        step = into_app("Calendar", CAL, elements, state)
        if step is not None:
            return step
        c = state_of(state, C.CalendarState)
        if c["view"] != "day":
            return press(elements, desc="Day view") if c["view"] in C.VIEWS else to_schedule(elements, state) or wait()
        if c["day"] == params["date"]:
            return wait()
        return press(elements, desc="Next day" if c["day"] < params["date"] else "Previous day")


