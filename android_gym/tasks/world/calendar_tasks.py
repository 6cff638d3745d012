"""World-suite tasks over Google Calendar (issue 17): create events (with times, or with a place and notes), move,
re-time, rename and delete one, say when one is, declare impossible the deletion of one that is not there, and two
that span another app (a meeting proposed by email to create; an event's time to text someone).

Every task puts what it needs on the calendar under fixed titles (`initial`) among the episode's seeded events, which
shift the rows per seed, next to a near miss: the same title on another day. Checks read Calendar's state (its
events and its added / edited / deleted log), so changing the near miss, or anything else, fails. Splits hold out
titles (`split_of`). Experts read the UI elements, get past pop-ups (`into_app`/`obstacle`), find rows by the text
the list shows (`calendar.row_text`), scroll towards them, and drive the editor's date and time pickers (their steps
live in `calendar_expert`).

The everyday instructions (issue 49) parse onto these templates with the values a line names, through optional
parameters `CalendarTemplate` and `CreateEventTemplate` document (`calendar_everyday_tasks` holds the two templates
only those lines use).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, wait
from android_gym.tasks.world.base import Params, WorldTemplate, nth
from android_gym.tasks.world.calendar_expert import CAL, Elements, State, change, create, press, to_event
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import find_mail, holds, names, person, send_text, to_email

TITLES = ("Piano recital", "Budget meeting", "Vet appointment", "Sprint demo", "Dinner with Lena", "Guitar lesson",
          "Tax advisor call", "School play", "Farmers market", "Board game night", "Wine tasting", "Photo walk",
          "Career fair", "Pottery class", "Swim meet", "Client pitch", "Open house", "Museum tour", "Charity run",
          "Team retro")
"""Task event titles: none is a seeded title (`calendar.SEEDED_TITLES`), so seeded events are only distractors."""
RENAMES = ("rehearsal", "review", "checkup", "prep", "party", "session", "follow-up", "premiere", "visit", "night")
PLACES = ("Room 4B", "Central Library", "12 Main Street", "Blue Door Cafe", "City Hall", "Studio 7")
NOTES = ("Bring the printed agenda", "Ask about the invoice", "Parking is behind the building",
         "Remember the gift card", "Dress code is casual")
DAYS = (11, 12, 15, 17, 18, 22, 24, 26, 29, 31, 33, 36)
"""Event days, in days after the sim's today (21 on is July: the date picker pages to the next month)."""
STARTS = ("08:30", "09:00", "10:15", "11:45", "13:00", "14:30", "15:15", "16:45", "18:00", "19:30")
LENGTHS = (30, 60, 90)


def iso(days: int) -> str:
    """The date `days` after the sim's today.

    >>> iso(2)
    '2026-06-12'
    """
    return str(C.DATE + datetime.timedelta(days=days))


def later(hhmm: str, length: int) -> str:
    """`hhmm` plus `length` minutes."""
    return C.hhmm(C.minutes(hhmm) + length)


def event_grid(per_title: int, offset: int = 0) -> list[dict[str, Any]]:
    """Every title `per_title` times, with a day (its phrase), a start (its phrase), a length and a phrasing, and the
    near miss's day (a week away)."""  # noqa: D205, D209
    out = []
    for i, title in enumerate(TITLES):
        for k in range(per_title):
            days, start = nth(DAYS, i + offset + 5 * k), nth(STARTS, 3 * i + offset + k)
            out.append({"title": title, "date": iso(days), "day": C.long_date(iso(days)), "start": start,
                        "at": C.clock(start), "length": nth(LENGTHS, i + k + offset), "other": iso(days + 7),
                        "phrasing": i + k})
    return out


def spec(title: str, date: str, start: str, length: int = 60, **more: Any) -> dict[str, Any]:
    """An event as `initial` puts it on the calendar (and as checks expect it, less the id)."""
    return {"title": title, "date": date, "start": start, "end": later(start, length), "all_day": False,
            "location": "", "description": "", **more}


def bare(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event without its id, its title trimmed and case-folded (as checks compare)."""
    out = {k: v for k, v in event.items() if k != "id"}
    out["title"] = " ".join(str(out["title"]).split()).casefold()
    return out


def _norm(e: Mapping[str, Any]) -> dict[str, Any]:
    return bare({**e, "location": e["location"].strip(), "description": e["description"].strip()})


def titled(state: State, title: str) -> list[dict[str, Any]]:
    """Calendar's events titled `title` (case and spacing aside)."""
    want = " ".join(title.split()).casefold()
    return [e for e in state_of(state, C.CalendarState)["events"] if bare(e)["title"] == want]


def added_one(state: State, want: Mapping[str, Any], extras: bool = False) -> bool:
    """Exactly one event added, as `want` (with any location and description when `extras`); nothing else changed."""
    c = state_of(state, C.CalendarState)
    added = [_norm(e) for e in c["events"] if e["id"] in c["added"]]
    if len(added) != 1 or c["edited"] or c["deleted"]:
        return False
    return ({**added[0], "location": "", "description": ""} if extras else added[0]) == bare(want)


def loose(title: str) -> str:
    """A title as an everyday line's check compares it: case, apostrophes and punctuation aside.

    >>> loose("Grandma's  birthday!") == loose("grandmas birthday")
    True
    """
    return " ".join(re.sub(r"[^0-9a-z]+", " ", re.sub(r"['\u2019]", "", title.casefold())).split())


def added_as(state: State, params: Params) -> bool:
    """Exactly one event added, nothing else changed, and it has the title (`loose`), the date and, when `"start"`
    is not None, that start (not all day); any end, place and notes."""  # noqa: D205, D209
    c = state_of(state, C.CalendarState)
    new = [e for e in c["events"] if e["id"] in c["added"]]
    if len(new) != 1 or c["edited"] or c["deleted"]:
        return False
    e = new[0]
    timed = params["start"] is None or (not e["all_day"] and e["start"] == params["start"])
    return loose(e["title"]) == loose(params["title"]) and e["date"] == params["date"] and timed


def untouched(state: State) -> bool:
    """Nothing added, edited or deleted in Calendar."""
    c = state_of(state, C.CalendarState)
    return not (c["added"] or c["edited"] or c["deleted"])


def the(state: State, title: str, date: str) -> dict[str, Any] | None:
    """The event `title` on `date` (the first if several), or None."""
    return next((e for e in titled(state, title) if e["date"] == date), None)


class CalendarTemplate(WorldTemplate):
    """A Calendar template: the task's event on its day and, as the near miss, the same title a week later.

    An everyday line (issue 49) names one event and no near miss: its params leave out `"other"` (no twin), and may
    list seeded titles to clear in `"absent"` (a seeded "Parent-teacher meeting" at the line's "2 pm meeting").
    """

    apps = (CAL,)

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice."""
        return event_grid(2)

    def target(self, params: Params) -> dict[str, Any]:
        """The task's event as it starts."""
        return spec(params["title"], params["date"], params["start"], params["length"])

    def twin(self, params: Params) -> dict[str, Any]:
        """The near miss: the same title and time a week later."""
        return spec(params["title"], params["other"], params["start"], params["length"])

    def twins(self, params: Params) -> list[dict[str, Any]]:
        """The near miss as a list: none for params without `"other"` (an everyday line's)."""
        return [self.twin(params)] if "other" in params else []

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event and its twin."""
        return {CAL: {"absent": [params["title"], *params.get("absent", ())],
                      "events": [self.target(params), *self.twins(params)]}}

    def changed_to(self, params: Params, state: State, want: Mapping[str, Any] | None) -> bool:
        """One event changed, into `want` (None: the task's event deleted), nothing added, and the twin as it was.

        With one event edited (or deleted) and nothing else, every other event is as it started; the twin still there
        means the one changed was the task's event (an edited twin would no longer match it).
        """
        c = state_of(state, C.CalendarState)
        events = [_norm(e) for e in c["events"]]
        if c["added"] or len(c["edited"]) + len(c["deleted"]) != 1 or any(
                bare(twin) not in events for twin in self.twins(params)):
            return False
        if want is None:
            return len(c["deleted"]) == 1 and _norm(c["deleted"][0]) == bare(self.target(params))
        edited = next((e for e in c["events"] if c["edited"] and e["id"] == c["edited"][0]), None)
        return edited is not None and _norm(edited) == bare(want)

    def event(self, params: Params, state: State) -> dict[str, Any] | None:
        """The task's event as the state holds it now (by its starting title and day), or None."""
        return the(state, params["title"], params["date"])


# -- templates ------------------------------------------------------------------------------------------------------
class CreateEventTemplate(CalendarTemplate):
    """Create event {title} on {day} from {at} to {until}; the same title already sits a week later.

    An everyday line (issue 49: "Add a meeting with the design team tomorrow at 3pm") gives params {"title", "date",
    "start": "HH:MM" or None} and no `"length"`: it names no end (any end), and with no time any time or all day
    will do (the expert makes it all day); its title is compared without case and punctuation (`loose`), since a
    parsed line has lost both.
    """

    name, max_steps = "calendar_create_event", 26
    phrasings = ('Create a calendar event "{title}" on {day} from {at} to {until}',
                 "Add {title} to my calendar for {day}, {at} - {until}",
                 'Schedule "{title}" in Google Calendar on {day}, starting at {at} and ending at {until}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with its end time."""
        return [{**p, "until": C.clock(later(p["start"], p["length"]))} for p in event_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin (a line's event: nothing)."""
        return {CAL: {"absent": [params["title"]], "events": self.twins(params)}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added, with the title, day, start and end (no place or notes asked, any allowed)."""
        if "length" not in params:
            return added_as(state, params)
        return added_one(state, self.target(params), extras=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """FAB, the title, Start date, Start time, End time, Save (a line's event: its start, or All-day)."""
        if "length" not in params:
            when = {"start": params["start"]} if params["start"] else {"all_day": True}
            return create({"title": params["title"], "date": params["date"], **when}, elements, state)
        t = self.target(params)
        return create({"title": t["title"], "date": t["date"], "start": t["start"], "end": t["end"]}, elements, state)


class CreatePlaceEventTemplate(CalendarTemplate):
    """Create event {title} on {day} at {at} (an hour long) at {place}, with the note {note}."""

    name, max_steps = "calendar_create_with_place", 28
    phrasings = ('Add "{title}" to my calendar on {day} at {at}, location "{place}", with the description "{note}"',
                 'Create an hour-long event {title} at {place} on {day} at {at}; put "{note}" in its description',
                 'New calendar event: "{title}", {day} at {at} for one hour, at {place}. Description: {note}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a place and a note."""
        return [{**p, "length": 60, "place": nth(PLACES, p["phrasing"] + k), "note": nth(NOTES, p["phrasing"])}
                for k, p in enumerate(event_grid(2, offset=1))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin."""
        return {CAL: {"absent": [params["title"]], "events": [self.twin(params)]}}

    def target(self, params: Params) -> dict[str, Any]:
        """The event wanted, with its place and notes."""
        return spec(params["title"], params["date"], params["start"], 60, location=params["place"],
                    description=params["note"])

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added, as asked, place and notes included."""
        return added_one(state, self.target(params))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """FAB, the title, the location, the description, Start date, Start time (the end follows), Save."""
        t = self.target(params)
        return create({k: t[k] for k in ("title", "location", "description", "date", "start")}, elements, state)


class MoveEventTemplate(CalendarTemplate):
    """Move {title} from {day} to {new_day} (same time); its twin a week later stays."""

    name, max_steps = "calendar_move_event", 15
    phrasings = ("Move my {title} on {day} to {new_day}, same time",
                 "Reschedule the {title} event from {day} to {new_day} in Calendar",
                 'In Google Calendar, change the date of "{title}" ({day}) to {new_day}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, to a day three days later."""
        return [{**p, "new_date": iso(n), "new_day": C.long_date(iso(n))} for p in event_grid(2, offset=2)
                for n in [(datetime.date.fromisoformat(p["date"]) - C.DATE).days + 3]]

    def check(self, params: Params, state: State) -> bool:
        """The event alone changed, to the new day; the twin as it was."""
        return self.changed_to(params, state, {**self.target(params), "date": params["new_date"]})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The event's row, Edit event, Start date, the day, OK, Save."""
        e = self.event(params, state)
        return change(e, {"date": params["new_date"]}, elements, state) if e else wait()


class ChangeStartTemplate(CalendarTemplate):
    """Make {title} on {day} start at {new_at} instead of {at}, keeping its length."""

    name, max_steps = "calendar_change_start", 16
    phrasings = ("Change the start time of {title} on {day} to {new_at}; keep it as long as it is",
                 "Push my {title} event on {day} to {new_at} (same length)",
                 'In Calendar, make "{title}" on {day} start at {new_at} instead of {at}, keeping its duration')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a new start (never the old one)."""
        return [{**p, "new_start": n, "new_at": C.clock(n)} for k, p in enumerate(event_grid(2, offset=3))
                for n in [nth([s for s in STARTS if s != p["start"]], 2 * k + 1)]]

    def check(self, params: Params, state: State) -> bool:
        """The event alone changed: the new start, its length kept; the twin as it was."""
        want = spec(params["title"], params["date"], params["new_start"], params["length"])
        return self.changed_to(params, state, want)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The event's row, Edit event, Start time (hour, minutes, AM/PM, OK), Save (the end follows)."""
        e = self.event(params, state)
        return change(e, {"start": params["new_start"]}, elements, state) if e else wait()


class RenameEventTemplate(CalendarTemplate):
    """Rename {title} on {day} to {new}; its twin a week later keeps the name."""

    name, max_steps = "calendar_rename_event", 20
    phrasings = ('Rename the event "{title}" on {day} to "{new}"', "Change the title of my {title} on {day} to {new}",
                 'In Google Calendar, call the {day} "{title}" event "{new}" instead')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a new last word (never the word it has: "Board game night" stays a rename)."""
        out = []
        for k, p in enumerate(event_grid(2, offset=4)):
            stem, last = p["title"].rsplit(" ", 1)
            words = tuple(w for w in RENAMES if w != last.lower())
            out.append({**p, "new": f"{stem} {nth(words, p['phrasing'] + k)}"})
        return out

    def check(self, params: Params, state: State) -> bool:
        """The event alone changed: the new title; the twin as it was."""
        return self.changed_to(params, state, {**self.target(params), "title": params["new"]})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The event's row, Edit event, the title (delete the last word, type the new one), Save."""
        e = self.event(params, state)
        return change(e, {"title": params["new"]}, elements, state) if e else wait()


class DeleteEventTemplate(CalendarTemplate):
    """Delete {title} on {day}; the same title a week later stays."""

    name, max_steps = "calendar_delete_event", 12
    phrasings = ("Delete the {title} event on {day} from my calendar", 'Remove "{title}" on {day} from Calendar',
                 "Cancel my {title} on {day}: delete it from Google Calendar")

    def check(self, params: Params, state: State) -> bool:
        """The event alone deleted; the twin as it was."""
        return self.changed_to(params, state, None)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The event's row, More options, Delete, Delete."""
        e = self.event(params, state)
        view = state_of(state, C.CalendarState)["view"]
        if state["foreground"] == CAL and not state.get("dialog") and view in ("menu", "delete"):
            return press(elements, text="Delete")
        step = to_event(e, elements, state) if e else wait()
        return step or press(elements, desc="More options")


class EventWhenTemplate(CalendarTemplate):
    """When is {title}? Its start time or its day, as the event's page shows it (answer); a twin-named event is
    elsewhere."""  # noqa: D205, D209

    name, max_steps, outcome = "calendar_event_when", 10, "answer"
    phrasings = ("{ask} my {title}{tail}?", "Check Google Calendar: {ask} the {title}{tail}?",
                 "Look in my calendar and tell me: {ask} {title}{tail}?")

    def grid(self) -> list[dict[str, Any]]:
        """Every title with both questions."""
        return [{**p, "kind": kind, "ask": "what time does" if kind == "time" else "on which day is",
                 "tail": " start" if kind == "time" else "", "near": f"{p['title']} {nth(RENAMES, p['phrasing'])}"}
                for p in event_grid(1, offset=5) for kind in ("time", "day")]

    def goal(self, params: Params) -> str:
        """The question, capitalised."""
        text = super().goal(params)
        return text[0].upper() + text[1:]

    def twin(self, params: Params) -> dict[str, Any]:
        """The near miss: an event whose title extends this one's, another day and time."""
        return spec(params["near"], params["other"], nth(STARTS, STARTS.index(params["start"]) + 3))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event and its near miss."""
        return {CAL: {"absent": [params["title"], params["near"]],
                      "events": [self.target(params), self.twin(params)]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The start time ("2:30 PM") or day ("Friday, June 12") of the only event of that title; None after a
        change to the calendar."""  # noqa: D205, D209
        found = titled(state, params["title"])
        if len(found) != 1 or not untouched(state):
            return None
        return C.clock(found[0]["start"]) if params["kind"] == "time" else C.long_date(found[0]["date"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The event's page, then answer with its time or date line."""
        e = self.event(params, state)
        step = to_event(e, elements, state) if e else wait()
        if step is not None:
            return step
        shown = find(elements, rid=C.TIME_RID if params["kind"] == "time" else C.WHEN_RID)
        return Action(ActionType.STATUS_TASK_COMPLETE, text=shown.text) if shown is not None else wait()


class DeleteMissingEventTemplate(CalendarTemplate):
    """Delete {title} on {day}, which is not there: only its twin a week later is (delete neither)."""

    name, max_steps, outcome = "calendar_delete_missing", 10, "infeasible"
    phrasings = DeleteEventTemplate.phrasings

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice."""
        return event_grid(2, offset=6)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin."""
        return {CAL: {"absent": [params["title"]], "events": [self.twin(params)]}}

    def check(self, params: Params, state: State) -> bool:
        """No event of that title on that day, and nothing added, edited or deleted."""
        return self.event(params, state) is None and untouched(state)

    def looked(self, params: Params, state: State) -> bool:
        """Calendar in front after opening the page of the event of that title (which shows it on another day)."""
        c = state_of(state, C.CalendarState)
        ids = {e["id"] for e in titled(state, params["title"])}
        return state.get("foreground") == CAL and bool(ids & set(c["opened"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the event of that title: it is on another day, so declare the task impossible."""
        if self.event(params, state) is not None:
            return wait()  # the event is there after all: the task is not infeasible, so do nothing
        twin = the(state, params["title"], params["other"])
        return (to_event(twin, elements, state) if twin else None) or impossible()


class EmailToEventTemplate(CalendarTemplate):
    """Put on the calendar the meeting {sender} proposes by email ({title}, {day} at {at}, an hour)."""

    name, max_steps = "calendar_event_from_email", 27
    apps = (G.PACKAGE, CAL)
    split_key = "title"
    phrasings = ('{sender} emailed me to propose a meeting: add it to my calendar as "{title}" at the time they '
                 "suggest",
                 'Read the email from {sender} about "{title}" in Gmail and create the calendar event it proposes',
                 "Check Gmail for {sender}'s meeting request and put {title} in Google Calendar for then")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a sender, and another sender proposing another day."""
        return [{**p, "length": 60, "sender": n[0], "other_sender": n[1]}
                for p in event_grid(2, offset=7) for n in [names(p["title"] + str(p["phrasing"]), 2)]]

    def mail(self, sender: str, title: str, date: str, start: str) -> dict[str, Any]:
        """An email from `sender` proposing `title` on `date` at `start` for an hour."""
        p = person(sender)
        return {"sender": p["name"], "email": p["email"], "subject": title, "unread": True,
                "body": f"Hi! Could we meet for {title.lower()} on {C.long_date(date)} at {C.clock(start)}? "
                        "An hour should be enough. Thanks!"}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The email, another one proposing the twin's day, and no event of that title."""
        return {G.PACKAGE: {"emails": [self.mail(params["sender"], params["title"], params["date"], params["start"]),
                                       self.mail(params["other_sender"], params["title"], params["other"],
                                                 params["start"])]},
                CAL: {"absent": [params["title"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the proposed event added (any place or notes); nothing else changed."""
        return added_one(state, self.target(params), extras=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the email in Gmail to read the proposal, then create the event in Calendar."""
        mail = find_mail(state, params["sender"], params["title"])
        if mail is not None and mail["unread"]:
            return to_email(params["sender"], params["title"], elements, state) or wait()
        t = self.target(params)
        return create({"title": t["title"], "date": t["date"], "start": t["start"]}, elements, state)


class TextEventTimeTemplate(CalendarTemplate):
    """Text {name} the start time of {title} on {day}, as Calendar shows it; the twin a week later starts at
    another time."""  # noqa: D205, D209

    name, max_steps = "calendar_text_event_time", 19
    apps = (CAL, M.PACKAGE)
    phrasings = ("Text {name} what time my {title} on {day} starts",
                 "Look up when {title} on {day} begins in my calendar and send the time to {name} by SMS",
                 "Send {name} a message with the start time of the {title} event on {day}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a person."""
        return [{**p, "name": names(p["title"] + "text" + str(p["phrasing"]), 1)[0]}
                for p in event_grid(2, offset=8)]

    def twin(self, params: Params) -> dict[str, Any]:
        """The same title a week later, at another time."""
        return spec(params["title"], params["other"], nth(STARTS, STARTS.index(params["start"]) + 4))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event, its twin, and the person among Messages' contacts."""
        p = person(params["name"])
        return {**super().initial(params), M.PACKAGE: {"contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """One text sent, to the person, holding the start time; the calendar unchanged."""
        sent = state_of(state, M.MessagesState)["sent"]
        return (len(sent) == 1 and M.digits(sent[0]["number"]) == M.digits(person(params["name"])["number"])
                and holds(sent[0]["text"], C.clock(params["start"])) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the event's page in Calendar to read the time, then text it from Messages."""
        e = self.event(params, state)
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        return send_text(person(params["name"]), C.clock(params["start"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreateEventTemplate(), CreatePlaceEventTemplate(), MoveEventTemplate(), ChangeStartTemplate(),
    RenameEventTemplate(), DeleteEventTemplate(), EventWhenTemplate(), DeleteMissingEventTemplate(),
    EmailToEventTemplate(), TextEventTimeTemplate(),
)
"""The Google Calendar templates of the world suite."""
