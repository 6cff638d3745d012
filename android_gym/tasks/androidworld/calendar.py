"""AndroidWorld's Simple Calendar Pro task `SimpleCalendarDeleteOneEvent` ("In Simple Calendar Pro, delete the
calendar event on {year}-{month}-{day} at {hour}h with the title '{event_title}'").

AndroidWorld clears the calendar's database and inserts 20 noise events (any day of October 2023, any hour, never at
the target's start nor with its title) and the target event (a day from today, Sunday October 15, to the 31st, a whole
hour, 15-60 minutes long, a generated title and description); it checks the database afterwards: the target's row
gone, every other row as it was, none added. Here the dates are rebased onto the sim's calendar by their distance from
today, Wednesday 2026-06-10: the target falls 0-16 days ahead (June 10-26), the noise 14 days back to 16 ahead (May 27
to June 26). Titles and descriptions come from generators of our own of the same shape ("Call with Nadia", "Workshop
on Vendor Contracts"; "Agenda: ...", sometimes with a remark), and an event at 23h ends by 23:55 (the sim's events
end the day they start). The calendar's seeded events are cleared as AndroidWorld clears the table. The sim's
Calendar app stands in for Simple Calendar Pro; the World template `calendar_delete_event`'s expert plays the
instance, and the check is ours (the World template's expects no description): exactly the target deleted, as it was
set up, nothing added, nothing edited.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.calendar_tasks import DeleteEventTemplate, iso, spec

PREFIXES = ("Meeting with", "Call with", "Lunch with", "Workshop on", "Briefing on", "Planning for")
"""How a title starts: one "with" someone (`PEOPLE`), the others on something (`SUBJECTS`)."""
PEOPLE = ("Nadia", "Omar", "the design team", "Legal", "Dr. Chen", "Sales")
SUBJECTS = ("Hiring Plan", "Website Relaunch", "Vendor Contracts", "Office Move")
ACTIONS = ("go over", "agree on", "sketch out", "wrap up", "check in on", "brainstorm", "settle", "walk through",
           "prioritise", "sign off on")
TOPICS = ("the release schedule", "hiring needs", "next quarter's budget", "the onboarding flow",
          "open support tickets", "the travel policy", "partner feedback", "the data migration", "team goals")
REMARKS = ("Agenda to follow.", "Dial-in details are in the invite.", "Please come prepared.", "Coffee provided.",
           "Laptops welcome.")
LENGTHS = (15, 30, 45, 60)
"""Event lengths in minutes."""
AHEAD, BACK, NOISE = 16, 14, 20
"""The target is 0-`AHEAD` days after today, the noise `BACK` days before to `AHEAD` after; `NOISE` noise events."""


def event_title(rng: random.Random) -> str:
    """A title as AndroidWorld's generator builds one: a prefix, then a person after "with", else a subject.

    >>> event_title(random.Random(1)), event_title(random.Random(5))
    ('Call with Dr. Chen', 'Briefing on Vendor Contracts')
    """
    prefix = pick(rng, PREFIXES)
    return f"{prefix} {pick(rng, PEOPLE if prefix.endswith(' with') else SUBJECTS)}"


def event_description(rng: random.Random) -> str:
    """An event's notes: what it is for, and a remark half the time."""
    text = f"Agenda: {pick(rng, ACTIONS)} {pick(rng, TOPICS)}."
    return f"{text} {pick(rng, REMARKS)}" if rng.random() < 0.5 else text


def random_event(rng: random.Random, first: int, last: int) -> dict[str, Any]:
    """An event on a day `first`-`last` days after today at a whole hour, as `CalendarInitial.events` takes it.

    >>> random_event(random.Random(0), 0, 16)
    {'title': 'Lunch with Dr. Chen', 'date': '2026-06-22', 'start': '13:00', 'end': '13:15', 'all_day': False, \
'location': '', 'description': 'Agenda: walk through partner feedback.'}
    """
    days, hour = rng.randint(first, last), rng.randint(0, 23)
    length = pick(rng, LENGTHS)
    title = event_title(rng)
    return spec(title, iso(days), f"{hour:02d}:00", length, description=event_description(rng))


def noise_events(rng: random.Random, target: dict[str, Any]) -> list[dict[str, Any]]:
    """`NOISE` distinct events, none at the target's start nor with its title."""
    out: list[dict[str, Any]] = []
    while len(out) < NOISE:
        e = random_event(rng, -BACK, AHEAD)
        same_start = (e["date"], e["start"]) == (target["date"], target["start"])
        if not same_start and e["title"] != target["title"] and e not in out:
            out.append(e)
    return out


class SimpleCalendarDeleteOneEvent(AndroidWorldTemplate):
    """Delete the event {event_title} on its day at its hour among 20 others: exactly it deleted, nothing else
    changed."""  # noqa: D205, D209

    name, split_key = "SimpleCalendarDeleteOneEvent", "event_title"
    goal_template = ("In Simple Calendar Pro, delete the calendar event on {year}-{month}-{day} at {hour}h with the "
                     "title '{event_title}'")
    like = DeleteEventTemplate()

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The target event (its year, month, day and hour as the goal says them) and the noise events."""
        target = random_event(rng, 0, AHEAD)
        year, month, day = (int(p) for p in target["date"].split("-"))
        return {"year": year, "month": month, "day": day, "hour": int(target["start"][:2]),
                "event_title": target["title"], "event": target, "noise": noise_events(rng, target)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The target's title and date (what `like`'s expert finds its row by)."""
        return {"title": params["event_title"], "date": params["event"]["date"]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The noise events, then the target; none of the seeded events."""
        return {C.PACKAGE: {"absent": list(C.SEEDED_TITLES), "events": [*params["noise"], params["event"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the target deleted, as it was set up; nothing added or edited."""
        c = state_of(state, C.CalendarState)
        deleted = [{k: v for k, v in e.items() if k != "id"} for e in c["deleted"]]
        return deleted == [params["event"]] and not c["added"] and not c["edited"]


TEMPLATES = (SimpleCalendarDeleteOneEvent(),)
