"""AndroidWorld's Simple Calendar Pro tasks that create one event (`SimpleCalendarAddOneEvent` on a date, and its
`...Tomorrow`, `...InTwoWeeks` and `...RelativeDay` variants) or delete every event of a day
(`SimpleCalendarDeleteEvents` on a date, `SimpleCalendarDeleteEventsOnRelativeDay` on "this {day_of_week}").

AndroidWorld's phone is set to Sunday 2023-10-15; its dates here are rebased onto the sim's calendar by their distance
from today, Wednesday 2026-06-10 (as `calendar.py` does): October's days 1-31 become 14 days back to 16 ahead. The
event to add falls 0-16 days ahead (`...AddOneEvent`), tomorrow, 14 days ahead, or 1-6 days ahead ("this Monday" to
"this Saturday" from a Sunday: here the weekday of one of the next six days, each named once), at a whole hour, 15-60
minutes long, among 0-20 noise events (any of the 31 days, never with its title). AndroidWorld lets an event start at
23h and last 60 minutes, past midnight; the sim's events end the day they start, so such a draw is drawn again.
AndroidWorld's check of an addition: exactly one row more, with the start and end, and the title, location (empty)
and description matching; every other row as it was. Ours: exactly one event added, with that day, start and end, not
all day, the title (case and spacing aside), the description exactly and no location; nothing edited or deleted.

The days to clear fall 0-16 days ahead (`...DeleteEvents`) or 1-6 ahead (`...OnRelativeDay`), holding 3 (or 2) events,
among 20 noise events on other days. AndroidWorld's check: those rows gone, every other row as it was, none added;
ours: exactly those events deleted, as they were set up, nothing added or edited. The calendar's seeded events are
cleared as AndroidWorld clears its table. Titles and descriptions come from `calendar.py`'s generators; the sim's
Calendar app stands in for Simple Calendar Pro.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.androidworld.base import AndroidWorldTemplate
from android_gym.tasks.androidworld.calendar import AHEAD, BACK, NOISE, random_event
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.calendar_expert import create
from android_gym.tasks.world.calendar_tasks import CreateEventTemplate, DeleteEventTemplate, added_one, bare, iso

ADD = ("In Simple Calendar Pro, create a calendar event {when} at {{hour}}h with the title '{{event_title}}' and the "
       "description '{{event_description}}'. The event should last for {{duration_mins}} mins.")
"""AndroidWorld's four addition templates differ only in how they name the day (`{when}`)."""


def fits(event: dict[str, Any]) -> bool:
    """Whether `event` ends the day it starts, as long as drawn (the sim clamps a later end to 23:55).

    >>> fits({"start": "23:00", "end": "23:55"}), fits({"start": "23:00", "end": "23:45"})
    (False, True)
    """
    return C.minutes(event["end"]) - C.minutes(event["start"]) in (15, 30, 45, 60)


def day_parts(date: str) -> dict[str, Any]:
    """The goal's year, month and day of a "YYYY-MM-DD" date (unpadded, as AndroidWorld formats them), and its weekday.

    >>> day_parts("2026-06-12")
    {'year': 2026, 'month': 6, 'day': 12, 'day_of_week': 'Friday'}
    """
    d = datetime.date.fromisoformat(date)
    return {"year": d.year, "month": d.month, "day": d.day, "day_of_week": f"{d:%A}"}


class AddOneEvent(AndroidWorldTemplate):
    """Create the event {event_title} on the goal's day at {hour}h, {duration_mins} minutes long, with its
    description, among 0-20 noise events: exactly it added, nothing else changed."""  # noqa: D205, D209

    name, split_key = "SimpleCalendarAddOneEvent", "event_title"
    goal_template = ADD.format(when="on {year}-{month}-{day}")
    like, max_steps = CreateEventTemplate(), 28
    days: ClassVar[tuple[int, int]] = (0, AHEAD)
    """The target's first and last day, in days after today."""

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The target (redrawn until it ends the day it starts) and 0-20 noise events without its title."""
        target = random_event(rng, *self.days)
        while not fits(target):
            target = random_event(rng, *self.days)
        noise: list[dict[str, Any]] = []
        for _ in range(rng.randint(0, NOISE)):
            e = random_event(rng, -BACK, AHEAD)
            while e["title"] == target["title"]:
                e = random_event(rng, -BACK, AHEAD)
            noise.append(e)
        length = C.minutes(target["end"]) - C.minutes(target["start"])
        return {**day_parts(target["date"]), "hour": int(target["start"][:2]), "duration_mins": length,
                "event_title": target["title"], "event_description": target["description"], "event": target,
                "noise": noise}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The target's title and day (what `like`'s expert reads; the check and the expert are ours)."""
        return {"title": params["event_title"], "date": params["event"]["date"]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The noise events only; none of the seeded events."""
        return {C.PACKAGE: {"absent": list(C.SEEDED_TITLES), "events": params["noise"]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added, as the target (title case and spacing aside); nothing edited or deleted."""
        return added_one(state, params["event"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The World expert's steps to create the target: title, description, day, start and end, Save."""
        t = params["event"]
        want = {k: t[k] for k in ("title", "description", "date", "start", "end")}
        return create(want, elements, state)


class AddOneEventTomorrow(AddOneEvent):
    """`AddOneEvent` on tomorrow."""

    name = "SimpleCalendarAddOneEventTomorrow"
    goal_template = ADD.format(when="for tomorrow")
    days = (1, 1)


class AddOneEventInTwoWeeks(AddOneEvent):
    """`AddOneEvent` 14 days from today."""

    name = "SimpleCalendarAddOneEventInTwoWeeks"
    goal_template = ADD.format(when="in two weeks from today")
    days = (14, 14)


class AddOneEventRelativeDay(AddOneEvent):
    """`AddOneEvent` on "this {day_of_week}": one of the next six days."""

    name = "SimpleCalendarAddOneEventRelativeDay"
    goal_template = ADD.format(when="for this {day_of_week}")
    days = (1, 6)


class DeleteEvents(AndroidWorldTemplate):
    """Delete every event of the goal's day (3 of them) among 20 noise events on other days: exactly those
    deleted, nothing else changed."""  # noqa: D205, D209

    name, split_key = "SimpleCalendarDeleteEvents", "date"
    goal_template = "In Simple Calendar Pro, delete all the calendar events on {year}-{month}-{day}"
    like, max_steps = DeleteEventTemplate(), 24
    days: ClassVar[tuple[int, int]] = (0, AHEAD)
    """The day's first and last choice, in days after today."""
    targets: ClassVar[int] = 3
    """Events on the day."""

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The day, its events (any hour, titles may repeat) and 20 noise events on other days."""
        date = iso(rng.randint(*self.days))
        offset = (datetime.date.fromisoformat(date) - C.DATE).days
        events = [random_event(rng, offset, offset) for _ in range(self.targets)]
        noise: list[dict[str, Any]] = []
        while len(noise) < NOISE:
            e = random_event(rng, -BACK, AHEAD)
            if e["date"] != date:
                noise.append(e)
        return {**day_parts(date), "date": date, "events": events, "noise": noise}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The first of the day's events still to delete is the expert's (see `expert`); `like` reads its title."""
        first = params["events"][0]
        return {"title": first["title"], "date": first["date"]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The noise events, then the day's; none of the seeded events."""
        return {C.PACKAGE: {"absent": list(C.SEEDED_TITLES), "events": [*params["noise"], *params["events"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the day's events deleted, as they were set up; nothing added or edited."""
        c = state_of(state, C.CalendarState)
        deleted = sorted(repr(bare(e)) for e in c["deleted"])
        return deleted == sorted(repr(bare(e)) for e in params["events"]) and not c["added"] and not c["edited"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """`like`'s steps deleting the day's first event still there (by title and day), until none is left."""
        left = [e for e in state_of(state, C.CalendarState)["events"] if e["date"] == params["date"]]
        if not left:
            return wait()
        return self.like.expert({"title": left[0]["title"], "date": params["date"]}, elements, state)


class DeleteEventsOnRelativeDay(DeleteEvents):
    """`DeleteEvents` on "this {day_of_week}" (one of the next six days), 2 events."""

    name = "SimpleCalendarDeleteEventsOnRelativeDay"
    goal_template = "In Simple Calendar Pro, delete all events scheduled for this {day_of_week}."
    days, targets, max_steps = (1, 6), 2, 18


TEMPLATES = (AddOneEvent(), AddOneEventInTwoWeeks(), AddOneEventRelativeDay(), AddOneEventTomorrow(), DeleteEvents(),
             DeleteEventsOnRelativeDay())
