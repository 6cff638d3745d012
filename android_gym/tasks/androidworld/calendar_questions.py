"""AndroidWorld's Simple Calendar Pro questions (information retrieval): `SimpleCalendarEventsOnDate`,
`SimpleCalendarNextEvent`, `SimpleCalendarEventOnDateAtTime` and `SimpleCalendarAnyEventsOnDate`.

AndroidWorld draws each parameter from its task's list of values (tasks.textproto): a date (October 15-29 2023), a
time ("11:00am", "21:45", "12pm", ...), a duration ("30 m", "1.5 hours", ...) and a title ("Bug Bash", "Team lunch",
...); it puts the event (or three, an hour long, with distinct times and titles) on the calendar among 75 random events
(a start at any minute within 15 days of now, 15-60 minutes, a generated title) that meet none of the task's exclusion
conditions (an event on the date; one spanning the date and time; one today between now and the event), and rewords
the date for the goal ("today", "tomorrow", "this Friday", "the Monday after next", "October 20", "October 20 2023").
The answer is the titles, comma separated: each title given must fuzzily match an expected one, as many as expected.

Here the dates are rebased onto the sim's calendar by their distance from today (Wednesday 2026-06-10, 09:41 on the
sim's clock, standing in for AndroidWorld's Sunday 2023-10-15, 15:34): the date falls 0-14 days ahead, the noise 15
days back to 15 ahead, and the reworded date is said of the sim's today. The sim's events end the day they start:
"23:59" is left out of the times (any duration would end the next day), a longer event is cut at 23:55, and a noise
event that would pass midnight is drawn again. `SimpleCalendarNextEvent` leaves out AndroidWorld's "12:00am": that
event is today's first, already past at 15:34, yet AndroidWorld expects it as the next one. Noise titles come from
`calendar.py`'s generators. Our answer is read from Calendar's state (None once anything on it changed) and compared
as a list in any order: as many titles as expected, each expected one given once (case, spacing and punctuation aside).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.calendar import LENGTHS, event_description, event_title
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import normalise_answer
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.calendar_expert import CAL, press, to_schedule
from android_gym.tasks.world.calendar_tasks import iso, spec, untouched

NOW = "09:41"
"""The sim's clock (the phone's `clock` setting), standing in for AndroidWorld's 15:34."""
TIMES = ("11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12pm", "6:30am", "8:00pm", "12am", "5:20pm",
         "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm", "11:30am", "20:00")
"""AndroidWorld's times for a date's event, less "23:59"."""
NEXT_TIMES = ("3:53pm", "21:45", "5pm", "17:30", "16:00", "18:30", "18:45", "7pm", "7:15pm", "21:45", "8pm", "8:10pm",
              "5:20pm", "4:00pm", "16:15", "9:15pm", "20:40", "22:35")
"""AndroidWorld's times for today's next event (all after 15:34; "21:45" twice, as listed), less "12:00am" and
"23:59"."""
DURATIONS = ("30 m", "60 minutes", "45min", "1 h", "2 hours", "15 minutes", "1.5 hours", "90 min", "20 min", "3 h",
             "25 minutes", "10 min", "50 min", "2.5 hours", "75 minutes", "5 minutes")
DATE_TITLES = ("Data Dive", "Bug Bash", "Dan's Birthday Party", "Trivia Night", "Product demo", "Team lunch",
               "Coffee with CEO", "Quarterly review", "Scrum meeting", "Doctor's appointment", "Birthday party",
               "Coding challenge", "Board meeting", "Marketing strategy workshop", "Movie night", "Dinner with friends",
               "Concert", "Game night", "Date night", "Weekend trip", "Family reunion", "Volunteer cleanup",
               "Sports game")
"""`SimpleCalendarEventsOnDate`'s titles."""
TITLES = ("Team Meeting", "1-on-1 with Manager", *DATE_TITLES[4:])
"""The other three tasks' titles."""
DAYS = 14
"""The date falls 0-`DAYS` days ahead (AndroidWorld's October 15-29)."""
NOISE, WINDOW = 75, 15
"""`NOISE` random events, starting within `WINDOW` days of now."""
LAST = C.minutes("23:55")
"""The latest end of a sim event (minutes after midnight)."""


def hhmm(time: str) -> str:
    """AndroidWorld's time ("9:45am", "12pm", "21:45") as 24-hour "HH:MM".

    >>> hhmm("9:45am"), hhmm("12pm"), hhmm("12am"), hhmm("21:45"), hhmm("3:15pm")
    ('09:45', '12:00', '00:00', '21:45', '15:15')
    """
    for fmt in ("%H:%M", "%I:%M%p", "%I%p"):
        try:
            return f"{datetime.datetime.strptime(time, fmt):%H:%M}"
        except ValueError:
            pass
    raise ValueError(f"`time` {time!r} is none of AndroidWorld's formats")


def minutes_of(duration: str) -> int:
    """AndroidWorld's duration ("1.5 hours", "45min", "30 m") in minutes, parsed as AndroidWorld parses it.

    >>> [minutes_of(d) for d in ("1.5 hours", "45min", "30 m", "3 h", "75 minutes")]
    [90, 45, 30, 180, 75]
    """
    if "h" in duration:
        return int(60 * float(duration[:duration.find("h")].strip()))
    return int(duration[:duration.find("m")].strip())


def reworded(date: str, rng: random.Random) -> str:
    """A natural way to say `date` from the sim's today, drawn as AndroidWorld draws one: its month and day (with or
    without the year), "today", "tomorrow", its weekday or "this <weekday>" within a week, "the <weekday> after next"
    within two.

    >>> sorted({reworded("2026-06-11", random.Random(s)) for s in range(40)})
    ['June 11', 'June 11 2026', 'Thursday', 'this Thursday', 'tomorrow']
    """  # noqa: D205
    d = datetime.date.fromisoformat(date)
    options = [f"{d:%B %d}", f"{d:%B %d %Y}"]
    ahead = (d - C.DATE).days
    options += ["today"] if ahead == 0 else ["tomorrow"] if ahead == 1 else ["yesterday"] if ahead == -1 else []
    if 0 < ahead <= 7 or -7 <= ahead < 0:
        options += [f"{d:%A}"] + ([f"this {d:%A}"] if ahead > 0 else [])
    elif 7 < ahead <= 14:
        options.append(f"the {d:%A} after next")
    return pick(rng, options)


def event(title: str, date: str, start: str, length: int, **more: Any) -> dict[str, Any]:
    """An event of `length` minutes (cut at 23:55), as `CalendarInitial.events` takes it."""
    return {**spec(title, date, start, 60, **more), "end": C.hhmm(min(C.minutes(start) + length, LAST))}


def noise_event(rng: random.Random) -> dict[str, Any]:
    """A random event as AndroidWorld's noise: a start at any minute within `WINDOW` days of now, 15-60 minutes, a
    generated title and description; drawn again while it would pass midnight."""  # noqa: D205, D209
    while True:
        offset = rng.randrange(2 * WINDOW * 24 * 60) - WINDOW * 24 * 60 + C.minutes(NOW)
        days, start = divmod(offset, 24 * 60)
        length = pick(rng, LENGTHS)
        if start + length <= LAST:
            return event(event_title(rng), iso(days), C.hhmm(start), length, description=event_description(rng))


class CalendarQuestion(AndroidWorldTemplate):
    """A question about the calendar, answered with titles; subclasses draw the asked events (`asked`) and say which
    noise events would change the answer (`excluded`) and which events answer it (`answering`)."""  # noqa: D205, D209

    split_key = "title"
    outcome, apps, max_steps = "answer", (CAL,), 24

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """The goal's parameters, with "day" (the ISO date) and "events" (the events the answer names)."""
        raise NotImplementedError

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """Whether the noise event `e` would change the answer."""
        raise NotImplementedError

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events of `events` whose titles answer the question."""
        raise NotImplementedError

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The asked events, then `NOISE` noise events none of which is `excluded`."""
        params = self.asked(rng)
        noise: list[dict[str, Any]] = []
        while len(noise) < NOISE:
            e = noise_event(rng)
            if not self.excluded(params, e):
                noise.append(e)
        return {**params, "noise": noise}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The asked events among the noise (none of the seeded events)."""
        return {CAL: {"absent": list(C.SEEDED_TITLES), "events": [*params["events"], *params["noise"]]}}

    def check(self, params: Params, state: State) -> bool:
        """An answer task's state check: the calendar untouched."""
        return untouched(state)

    def answer(self, params: Params, state: State) -> str | None:
        """The answering events' titles, comma separated, as Calendar holds them; None once anything changed."""
        if not untouched(state):
            return None
        found = self.answering(params, list(state_of(state, C.CalendarState)["events"]))
        return ", ".join(e["title"] for e in found) or None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """As many titles as expected, each expected one once, in any order (case, spacing, punctuation aside).

        AndroidWorld asks each title given to match one expected and the counts to agree; naming one title twice
        in place of another does not pass here.
        """
        def titles(text: str) -> Counter[str]:
            return Counter(normalise_answer(t) for t in text.split(","))

        return titles(given) == titles(truth) and "" not in titles(given)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Calendar's day view paged to the date, then the answer (the day's rows are on screen)."""
        c = state_of(state, C.CalendarState)
        step = into_app("Calendar", CAL, elements, state)
        if step is not None or c["view"] != "day":
            return step or to_schedule(elements, state) or press(elements, desc="Day view")
        if c["day"] != params["day"]:
            return press(elements, desc="Next day" if c["day"] < params["day"] else "Previous day")
        truth = self.answer(params, state)
        return Action(ActionType.STATUS_TASK_COMPLETE, text=truth) if truth else wait()


class EventsOnDate(CalendarQuestion):
    """What events are on {date}? The one event there."""

    name = "SimpleCalendarEventsOnDate"
    goal_template = ("What events do I have {date} in Simple Calendar Pro? Answer with the titles only. If there are "
                     "multiple titles, format your answer as a comma separated list.")
    titles: ClassVar[tuple[str, ...]] = DATE_TITLES

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One event: a time, a date 0-14 days ahead, a duration and a title."""
        time, day, duration, title = pick(rng, TIMES), iso(rng.randint(0, DAYS)), pick(rng, DURATIONS), pick(
            rng, self.titles)
        return {"date": reworded(day, rng), "day": day, "time": time, "duration": duration, "title": title,
                "events": [event(title, day, hhmm(time), minutes_of(duration))]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event on the date."""
        return e["date"] == params["day"]

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The date's events."""
        return [e for e in events if e["date"] == params["day"]]


class EventOnDateAtTime(EventsOnDate):
    """What is on {date} at {time}? The event going on then."""

    name = "SimpleCalendarEventOnDateAtTime"
    goal_template = ("What is on my schedule for {date} at {time} in Simple Calendar Pro? Answer with the titles "
                     "only. If there are multiples titles, format your answer in a comma separated list.")
    titles = TITLES

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event on the date going on at the time (its start and end included)."""
        return self.answering(params, [dict(e)]) != []

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The date's events going on at the time."""
        at = hhmm(params["time"])
        return [e for e in events if e["date"] == params["day"] and not e["all_day"] and e["start"] <= at <= e["end"]]


class AnyEventsOnDate(EventsOnDate):
    """Any events on {date}? Its three hour-long events."""

    name, split_key = "SimpleCalendarAnyEventsOnDate", "day"
    goal_template = ("Do I have any events {date} in Simple Calendar Pro? Answer with the titles only. If there are "
                     "multiples titles, format your answer in a comma separated list.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """Three hour-long events on a date 0-14 days ahead, with distinct titles and distinct times."""
        day = iso(rng.randint(0, DAYS))
        titles, times = rng.sample(TITLES, 3), rng.sample(TIMES, 3)
        return {"date": reworded(day, rng), "day": day, "titles": titles, "times": times,
                "events": [event(t, day, hhmm(at), 60) for t, at in zip(titles, times, strict=True)]}


class NextEvent(CalendarQuestion):
    """What is my next event? Today's event at {time}, the first after now."""

    name, max_steps = "SimpleCalendarNextEvent", 9
    goal_template = ("What is my next upcoming event in Simple Calendar Pro? Answer with the title only. If there are "
                     "multiples titles, format your answer in a comma separated list.")

    def asked(self, rng: random.Random) -> dict[str, Any]:
        """One event today after now: a time, a duration and a title."""
        time, duration, title = pick(rng, NEXT_TIMES), pick(rng, DURATIONS), pick(rng, TITLES)
        return {"time": time, "duration": duration, "title": title, "day": iso(0),
                "events": [event(title, iso(0), hhmm(time), minutes_of(duration))]}

    def excluded(self, params: Params, e: Mapping[str, Any]) -> bool:
        """A noise event today that starts by the event's time and has not ended by now."""
        return e["date"] == iso(0) and e["start"] <= hhmm(params["time"]) and e["end"] >= NOW

    def answering(self, params: Params, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events starting first after now."""
        later = [e for e in events if not e["all_day"] and (e["date"], e["start"]) > (iso(0), NOW)]
        first = min(((e["date"], e["start"]) for e in later), default=None)
        return [e for e in later if (e["date"], e["start"]) == first]


TEMPLATES = (EventsOnDate(), NextEvent(), EventOnDateAtTime(), AnyEventsOnDate())
