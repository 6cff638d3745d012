"""The Calendar tasks' expert steps (issue 17, issue 49): to the schedule, to an event's page (scrolling towards its
row), the editor's fields, its date and time pickers and its All-day switch, creating and changing an event.

Split from `calendar_tasks` so that the templates (the World suite's and the everyday lines') share one set of steps.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_dialogs import day_desc
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, State

CAL = C.PACKAGE


def press(elements: Elements, **criteria: Any) -> Action:
    """Tap the first element matching `criteria` (wait when it is not there yet)."""
    e = find(elements, **criteria)
    return tap(e) if e is not None else wait()


def to_schedule(elements: Elements, state: State) -> Action | None:
    """The next step to Calendar's schedule in front (None once there), discarding an editor left open."""
    step = into_app("Calendar", CAL, elements, state)
    if step is not None:
        return step
    view = state_of(state, C.CalendarState)["view"]
    if view == "schedule":
        return None
    if view in C.VIEWS:
        return press(elements, desc="Schedule view")
    if view == "edit" and state["screen"]["args"]["discard"]:
        return press(elements, text="Discard")
    cancel = find(elements, text="Cancel", clickable=True)
    return tap(cancel) if cancel is not None and view in ("delete", "date", "time") else back()


def to_event(event: Mapping[str, Any], elements: Elements, state: State) -> Action | None:
    """The next step to `event`'s page (found on the schedule by its row, scrolling towards it); None there."""
    step = into_app("Calendar", CAL, elements, state)
    c = state_of(state, C.CalendarState)
    if step is None and c["view"] == "event" and state["screen"]["args"]["id"] == event["id"]:
        return None
    step = step or to_schedule(elements, state)
    if step is not None:
        return step
    row = find(elements, text=C.row_text(event))
    if row is not None:
        return tap(row)
    shown = c["shown"]
    events = {e["id"]: e for e in c["events"]}
    texts = {e.text for e in elements}
    on_screen = [i for i, eid in enumerate(shown) if C.row_text(events[eid]) in texts]
    if event["id"] in shown and on_screen and shown.index(event["id"]) < on_screen[0]:
        return swipe_down()
    return swipe_up()


def pick_date(date: str, elements: Elements, state: State) -> Action:
    """On the date picker: page to the month, tap the day, OK."""
    args = state["screen"]["args"]
    if args["selected"] == date:
        return press(elements, text="OK")
    d = datetime.date.fromisoformat(date)
    if (args["year"], args["month"]) != (d.year, d.month):
        return press(elements, desc="Next month" if (d.year, d.month) > (args["year"], args["month"]) else
                     "Previous month")
    return press(elements, desc=day_desc(d))


def pick_time(hhmm: str, elements: Elements, state: State) -> Action:
    """On the time picker: the hour on the dial (the dial then shows minutes), the minutes, AM or PM, OK."""
    args = state["screen"]["args"]
    h, m = (int(p) for p in hhmm.split(":"))
    hour, pm = (h - 1) % 12 + 1, h >= 12
    if args["hour"] != hour:
        return press(elements, desc=f"{hour} o'clock") if args["mode"] == "hour" else press(
            elements, rid=f"{CAL}:id/hours")
    if args["minute"] != m:
        return press(elements, desc=f"{m} minutes") if args["mode"] == "minute" else press(
            elements, rid=f"{CAL}:id/minutes")
    if args["pm"] != pm:
        return press(elements, text="PM" if pm else "AM")
    return press(elements, text="OK")


def edit_step(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """On the editor (or its pickers): make the fields `want` names ("title", "date", "start", "end", "location",
    "description"; "all_day": a bool, the All-day switch) hold its values, then Save."""  # noqa: D205, D209
    screen = state["screen"]
    args = screen["args"]
    if screen["name"] == "date" and "date" in want:
        return pick_date(want["date"], elements, state)
    if screen["name"] == "time" and args["which"] in want:
        return pick_time(want[args["which"]], elements, state)
    if screen["name"] != "edit":  # a menu or picker over the editor it does not need (opened by a slip): closed
        return back()
    if args["discard"]:
        return press(elements, text="Keep editing")
    rids = {"title": C.TITLE_RID, "location": C.LOCATION_RID, "description": C.DESCRIPTION_RID}
    for key, rid in rids.items():
        if key in want:
            step = fill(elements, state, rid, want[key])
            if step is not None:
                return step
    if "all_day" in want and args["all_day"] != want["all_day"]:
        return press(elements, rid=C.ALL_DAY_RID)
    if "date" in want and args["date"] != want["date"]:
        return press(elements, rid=C.START_DATE_RID)
    for which, rid in (("start", C.START_TIME_RID), ("end", C.END_TIME_RID)):
        if which in want and args[which] != want[which]:
            return press(elements, rid=rid)
    return press(elements, text="Save")


def create(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """Create an event: the schedule, the "Create new event" FAB, the editor (`edit_step`)."""
    step = into_app("Calendar", CAL, elements, state)
    editing = state_of(state, C.CalendarState)["editing"]
    if step is None and editing is not None and editing["id"] is None:
        return edit_step(want, elements, state)
    return step or to_schedule(elements, state) or press(elements, desc=C.FAB_DESC)


def change(event: Mapping[str, Any], want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """Edit `event`: its page, "Edit event", the editor (`edit_step`)."""
    step = into_app("Calendar", CAL, elements, state)
    editing = state_of(state, C.CalendarState)["editing"]
    if step is None and editing is not None and editing["id"] == event["id"]:
        return edit_step(want, elements, state)
    return step or to_event(event, elements, state) or press(elements, desc=C.EDIT_DESC)

