"""More of AndroidWorld's Simple Calendar Pro questions (information retrieval): `SimpleCalendarNextMeetingWithPerson`,
`SimpleCalendarLocationOfEvent`, `SimpleCalendarEventsInNextWeek`, `SimpleCalendarFirstEventAfterStartTime` and
`SimpleCalendarEventsInTimeRange`.

As in `calendar_questions.py` (whose helpers these reuse): AndroidWorld draws each parameter from its task's list of
values (tasks.textproto), puts the task's event on the calendar among 75 random events that do not meet all of the
task's exclusion conditions, and rewords a date the goal names. Its dates (October 15-29 2023, standing in for today
and the 14 days after) are rebased onto the sim's calendar by their distance from today (Wednesday 2026-06-10): the
date falls 0-14 days ahead. The sim's events end the day they start, so "23:59" is left out of the times and a longer
event is cut at 23:55. Our answer is read from Calendar's state (None once anything on it changed) and compared as
`CalendarQuestion.answer_matches` compares (the meeting's date and time: as a date and time, `meeting_matches`).

`SimpleCalendarEventsInNextWeek`: AndroidWorld's today is a Sunday, and its next week (from Monday) the 7 days after;
the sim's today is a Wednesday, so next week is Monday 2026-06-15 to Sunday 2026-06-21 (5-11 days ahead), and the noise
leaves out today through that Sunday as AndroidWorld's leaves out today through its Sunday. Its second event, set up
without a duration, lasts AndroidWorld's default 30 minutes. `SimpleCalendarNextMeetingWithPerson`: AndroidWorld's date
may be today at a time already past, and it expects that meeting all the same; here a time today is after now (drawn
again otherwise), and the noise leaves out every event naming the person (AndroidWorld's only on the date), so the
meeting is the next one naming the person.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from typing import Any

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.androidworld.base import pick
from android_gym.tasks.androidworld.calendar_questions import (
    DAYS,
    DURATIONS,
    NOW,
    TITLES,
    CalendarQuestion,
    event,
    hhmm,
    minutes_of,
    reworded,
)
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.calendar_tasks import iso, untouched

PEOPLE = ("Amanda", "John", "David", "Lucas", "James", "Ava", "Isabella", "Mia", "Elijah", "Charlotte", "Emily",
          "Muhammad", "Sofia", "Mateo", "Aaliyah", "Isabella", "Daniel", "Mia")
"""AndroidWorld's people (duplicates as listed)."""
WEEK_TITLES = (*TITLES[2:12], "Meet with {person}", *TITLES[12:])
"""`SimpleCalendarEventsInNextWeek`'s titles, "{person}" filled with a drawn person."""
WEEK_TIMES = ("11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12:00pm", "6:30am", "8pm", "12:00am",
              "5:20pm", "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm", "11:30am", "20:00")
"""`SimpleCalendarEventsInNextWeek`'s times, less "23:59"."""
NEXT_MONDAY = 5
"""Days from the sim's today (a Wednesday) to next week's Monday."""
AT_TIMES = ("11:00", "1:30pm", "9:45am", "11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12pm", "6:30am",
            "8:00pm", "12am", "5:20pm", "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm", "11:30am", "20:00")
"""AndroidWorld's times for `SimpleCalendarLocationOfEvent`'s and `SimpleCalendarNextMeetingWithPerson`'s event
(duplicates as listed), less "23:59"."""
LOCATION_TITLES = ("Marketing Brainstorm", "Lunch with Client", "Team Offsite", *TITLES[2:])
"""`SimpleCalendarLocationOfEvent`'s titles."""
LOCATIONS = ("Conference Room A", "McDonald's", "100 Main St Chicago", "City Park", "The Coffee Bean",
             "Sarah's apartment", "Conference Room A", "Zoom meeting", "Riverside Restaurant", "Local library",
             "Bowling alley", "Community center", "Online", "The beach", "John's backyard", "State Park", "Art Museum",
             "Hiking trail", "Downtown", "Mall", "The gym", "School auditorium", "Virtual")
"""`SimpleCalendarLocationOfEvent`'s locations (duplicates as listed)."""
AFTER_TITLES = ("Sales Call", "Client Meeting", "Training Session", "Project Kickoff", "Team Brainstorming",
                "Dentist Appointment", "Haircut", "Grocery Shopping", "School Pickup", "Soccer Practice")
"""`SimpleCalendarFirstEventAfterStartTime`'s titles."""
AFTER_TIMES = ("18:05", "11:00am", "1:30pm", "9:45am", "10:00am", "3:15pm", "12pm", "6:30am", "8:00pm", "5:20pm",
               "7:45am", "4pm", "10:30am", "16:15", "9:15pm", "11:30am", "20:00")
"""`SimpleCalendarFirstEventAfterStartTime`'s times."""
RANGE_TITLES = ("Gym", "Dinner with Friends", "Happy Hour", "Evening Walk", "Yoga Class", "Run in the Park",
                "Cooking Class", "Movie Night", "Grocery Shopping", "Pick up Kids from School")
"""`SimpleCalendarEventsInTimeRange`'s titles."""
RANGE_STARTS = ("11:00am", "1:30pm", "9:45am", "10:00am", "3:15pm", "12pm", "6:30am", "5:20pm", "7:45am", "4pm",
                "10:30am", "4:15pm", "11:30am")
"""`SimpleCalendarEventsInTimeRange`'s start times (all before the range's end, 8pm)."""
RANGE_END = "20:00"
"""The end of `SimpleCalendarEventsInTimeRange`'s range ("8pm" in its goal)."""


def meeting_matches(given: str, truth: str) -> bool:
    """Whether `given` names the date and time `truth` ("<month name> <day> <year> <HH>:<MM>"), as AndroidWorld reads
    it: one answer (no comma), parsed as such a date and time, equal.

    >>> meeting_matches("June 15 2026 9:45", "June 15 2026 09:45"), meeting_matches("June 15 2026 9:46", "June 15 2026 09:45")
    (True, False)
    >>> meeting_matches("June 15 2026 9:45am", "June 15 2026 09:45")
    False
    """  # noqa: D205, E501

    def parsed(text: str) -> datetime.datetime | None:
        try:
            return datetime.datetime.strptime(text.strip(), "%B %d %Y %H:%M")
        except ValueError:
            return None

    return "," not in given and parsed(given) is not None and parsed(given) == parsed(truth)


class NextMeetingWithPerson(CalendarQuestion):
    """When is my next meeting with {person}? The date and time of "Drinks with {person}"."""

    name, split_key = "SimpleCalendarNextMeetingWithPerson", "person"
    goal_template = ("When is my next meeting with {person} in Simple Calendar Pro? Express your answer in the format "
                     "<month name> <day> <year> <hour in 24-hour format>:<minutes>.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One hour-long event, "Drinks with {person}", on a date 0-14 days ahead at a time (after now if today)."""
        person = pick(rng, PEOPLE)
        while True:
            day, time = iso(rng.randint(0, DAYS)), pick(rng, AT_TIMES)
            if day != iso(0) or hhmm(time) > NOW:
                return {"person": person, "day": day, "time": time,
                        "events": [event(f"Drinks with {person}", day, hhmm(time), 60)]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event naming the person (case aside)."""
        return params["person"].lower() in e["title"].lower()

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The timed events naming the person that start first after now."""
        later = [e for e in events if not e["all_day"] and self.excluded(params, e) and (e["date"], e["start"]) > (
            iso(0), NOW)]
        first = min(((e["date"], e["start"]) for e in later), default=None)
        return [e for e in later if (e["date"], e["start"]) == first]

    def answer(self, params: Params, state: State) -> str | None:
        """The meeting's date and time as the goal asks ("June 15 2026 14:30"); None once anything changed."""
        if not untouched(state):
            return None
        found = self.answering(params, list(state_of(state, C.CalendarState)["events"]))
        if len(found) != 1:
            return None
        d = datetime.date.fromisoformat(found[0]["date"])
        return f"{d:%B} {d.day} {d.year} {found[0]['start']}"

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The date and time, as `meeting_matches` reads them."""
        return meeting_matches(given, truth)


class EventsInNextWeek(CalendarQuestion):
    """What is on next week (Monday to Sunday)? Its two events."""

    name = "SimpleCalendarEventsInNextWeek"
    goal_template = ("What events do I have in the next week in Simple Calendar Pro? Assume the week starts from "
                     "Monday. Answer with the titles only. If there are multiples titles, format your answer in a "
                     "comma separated list.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """Two events next week on distinct days at distinct times with distinct titles; the first lasts a drawn
        duration, the second 30 minutes."""  # noqa: D205, D209
        days = [iso(NEXT_MONDAY + d) for d in rng.sample(range(7), 2)]
        times = rng.sample(WEEK_TIMES, 2)
        duration, person = pick(rng, DURATIONS), pick(rng, PEOPLE)
        titles = [t.format(person=person) for t in rng.sample(WEEK_TITLES, 2)]
        lengths = (minutes_of(duration), 30)
        return {"title": titles[0], "titles": titles, "days": days, "times": times, "duration": duration,
                "person": person, "day": max(days),
                "events": [event(t, d, hhmm(at), n) for t, d, at, n in zip(titles, days, times, lengths, strict=True)]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event from today through next week's Sunday."""
        return iso(0) <= e["date"] <= iso(NEXT_MONDAY + 6)

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events from next week's Monday through its Sunday."""
        return [e for e in events if iso(NEXT_MONDAY) <= e["date"] <= iso(NEXT_MONDAY + 6)]


class LocationOfEvent(CalendarQuestion):
    """Where is my {title} event? The location of the one event so titled."""

    name = "SimpleCalendarLocationOfEvent"
    goal_template = "What is the location of my {title} event in Simple Calendar Pro? Answer with the location only."

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One hour-long event: a title, a location, a date 0-14 days ahead and a time (AndroidWorld's order)."""
        title, location, day, time = (pick(rng, LOCATION_TITLES), pick(rng, LOCATIONS), iso(rng.randint(0, DAYS)),
                                      pick(rng, AT_TIMES))
        return {"title": title, "location": location, "day": day, "time": time,
                "events": [event(title, day, hhmm(time), 60, location=location)]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event whose title contains the title (case aside)."""
        return params["title"].lower() in e["title"].lower()

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events titled exactly the title (case aside)."""
        return [e for e in events if e["title"].casefold() == params["title"].casefold()]

    def answer(self, params: Params, state: State) -> str | None:
        """The location of the event so titled, as Calendar holds it; None once anything changed or when there is
        no such single event with a location."""  # noqa: D205, D209
        if not untouched(state):
            return None
        found = self.answering(params, list(state_of(state, C.CalendarState)["events"]))
        return found[0]["location"] or None if len(found) == 1 else None


class FirstEventAfterStartTime(CalendarQuestion):
    """What is my first event after {time} {date}? The event starting then."""

    name = "SimpleCalendarFirstEventAfterStartTime"
    goal_template = ("What is my first event after {time} {date} in Simple Calendar Pro? Answer with the titles only. "
                     "If there are multiples titles, format your answer in a comma separated list.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One event at the time on a date 0-14 days ahead, with a title and a duration (AndroidWorld's order)."""
        day, title, time, duration = (iso(rng.randint(0, DAYS)), pick(rng, AFTER_TITLES), pick(rng, AFTER_TIMES),
                                      pick(rng, DURATIONS))
        return {"date": reworded(day, rng), "day": day, "title": title, "time": time, "duration": duration,
                "events": [event(title, day, hhmm(time), minutes_of(duration))]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event on the date that starts or ends at the time or later (AndroidWorld tests both ends)."""
        at = hhmm(params["time"])
        return e["date"] == params["day"] and (e["start"] >= at or e["end"] >= at)

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The date's timed events starting first at the time or after it."""
        at = hhmm(params["time"])
        later = [e for e in events if e["date"] == params["day"] and not e["all_day"] and e["start"] >= at]
        first = min((e["start"] for e in later), default=None)
        return [e for e in later if e["start"] == first]


class EventsInTimeRange(CalendarQuestion):
    """Any events between {start_time} and 8pm {date}? The one event starting at the start time."""

    name = "SimpleCalendarEventsInTimeRange"
    goal_template = ("Do I have any events between {start_time} and 8pm {date} in Simple Calendar Pro? Answer with the "
                     "titles only. If there are multiples titles, format your answer in a comma separated list.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One event at the start time on a date 0-14 days ahead, with a title and a duration (AndroidWorld's
        order)."""  # noqa: D205, D209
        start, day, title, duration = (pick(rng, RANGE_STARTS), iso(rng.randint(0, DAYS)), pick(rng, RANGE_TITLES),
                                       pick(rng, DURATIONS))
        return {"start_time": start, "date": reworded(day, rng), "day": day, "title": title, "duration": duration,
                "events": [event(title, day, hhmm(start), minutes_of(duration))]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event on the date overlapping the range (ends at the start time or later, starts by 8pm)."""
        return self.answering(params, [dict(e)]) != []

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The date's timed events overlapping the range, its ends included."""
        at = hhmm(params["start_time"])
        return [e for e in events
                if e["date"] == params["day"] and not e["all_day"] and e["end"] >= at and e["start"] <= RANGE_END]


TEMPLATES = (NextMeetingWithPerson(), LocationOfEvent(), EventsInNextWeek(), FirstEventAfterStartTime(),
             EventsInTimeRange())
