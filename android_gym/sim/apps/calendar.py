"""The Calendar app (Google Calendar): views of the month's events, event pages, and an editor to create and edit.

An event page edits its event ("Edit event") or deletes it (More options > Delete, confirmed).

Seeded events are drawn per episode from `stable_seed(phone.seed)` (never from the episode RNG, so building a screen
consumes no randomness), over the simulated month the phone is in (`TODAY`). An event is a dict `EventState`; tasks
read the app's state as `CalendarState` and set initial conditions as `CalendarInitial` (issue 48). The date, the
seeded events, the helpers over events and times and that typed seam live in `android_gym.sim.apps.calendar_data`;
this module imports them, so `calendar.TODAY`, `calendar.CalendarState` and the rest keep working.

Screens: "schedule" (home), "day" (args {"date"} once paged by its "Previous day" / "Next day" arrows), "week",
"month" (the view switcher's tabs; the "Create new event" FAB on each), "event" (args {"id"}: the event's page
with "Edit event" and "More options"), "menu" (More options over the page), "delete" (confirm "Delete event?"),
"edit" (args {"id": the event or None for a new one, "date", "start", "end", "all_day", "original", "discard",
"error", "repeat"}; Title, Location and Description fields, and the repeat rule: "Does not repeat" opens the
"repeat" menu of rules, as Google Calendar's does; BACK or Cancel with unsaved changes asks "Discard this event?",
or "Discard changes?" on an edit), "date" (the start-date picker over the editor: args {"year", "month",
"selected"}) and "time" (the time picker: args {"which": "start"|"end", "hour": 1-12, "minute", "pm", "mode"}).
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from android_gym.sim.app import ACTION_VIEW, App, IntentFilter, Screen
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert, month_grid, popup_menu
from android_gym.sim.apps.calendar_data import (
    DATE,
    CalendarInitial,
    CalendarState,
    EventDraft,
    EventSpec,
    clock,
    events,
    hhmm,
    in_view,
    long_date,
    minutes,
    repeat_label,
    row_text,
    sort_key,
)
from android_gym.sim.apps.calendar_data import SEEDED_TITLES as SEEDED_TITLES  # re-exported: importers' names work
from android_gym.sim.apps.calendar_data import TODAY as TODAY
from android_gym.sim.apps.calendar_data import CalendarScreen as CalendarScreen
from android_gym.sim.apps.calendar_data import EventFields as EventFields
from android_gym.sim.apps.calendar_data import EventState as EventState
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    SWITCH,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.calendar"
VIEWS = ("schedule", "day", "week", "month")
ROW_H = 200
FAB_DESC = "Create new event"
EDIT_DESC = "Edit event"
TITLE_RID = f"{PACKAGE}:id/title"
LOCATION_RID = f"{PACKAGE}:id/location"
DESCRIPTION_RID = f"{PACKAGE}:id/description"
FIELDS = (TITLE_RID, LOCATION_RID, DESCRIPTION_RID)
START_DATE_RID, START_TIME_RID = f"{PACKAGE}:id/start_date", f"{PACKAGE}:id/start_time"
END_DATE_RID, END_TIME_RID = f"{PACKAGE}:id/end_date", f"{PACKAGE}:id/end_time"
ALL_DAY_RID = f"{PACKAGE}:id/all_day_switch"
REPEAT_RID = f"{PACKAGE}:id/repeat"
REPEATS = ("", "daily", "weekly", "monthly", "yearly")
"""The repeat menu's rules, in its order ("" does not repeat)."""
WHEN_RID, TIME_RID = f"{PACKAGE}:id/when_date", f"{PACKAGE}:id/when_time"
NO_TITLE = "(No title)"
_DIAL_R = 280


def _day(screen: Screen) -> datetime.date:
    """The date a day view shows (`args["date"]`, set when paged; today until then)."""
    return datetime.date.fromisoformat(screen.args.get("date", str(DATE)))


def _event(spec: EventSpec, event_id: int) -> dict[str, Any]:
    """An event of the app's list from its initial-conditions spec (an all-day event has no times)."""
    return {"id": event_id, "title": spec.title, "date": spec.date, "start": None if spec.all_day else spec.start,
            "end": None if spec.all_day else spec.end, "all_day": spec.all_day, "location": spec.location,
            "description": spec.description, **({"repeat": spec.repeat} if spec.repeat else {})}


class CalendarApp(App):
    """Google Calendar: a schedule of upcoming events, day/week/month views, event pages, an event editor."""

    package = PACKAGE
    label = "Calendar"
    icon = "calendar"
    aliases = ("google calendar",)
    intent_filters = (IntentFilter(ACTION_VIEW, ("content://com.android.calendar",)),)
    state_schema = CalendarState
    initial_model = CalendarInitial

    def reset(self) -> None:
        """The episode's seeded events; nothing added, edited or deleted."""
        self.events = [{"id": i + 1, "title": e["title"], "date": str(DATE.replace(day=e["day"])),
                        "start": f"{e['hour']:02d}:00", "end": f"{e['hour'] + 1:02d}:00", "all_day": False,
                        "location": "", "description": ""} for i, e in enumerate(events(self.phone.seed))]
        self.added: list[int] = []
        self.edited: list[int] = []
        self.deleted: list[dict[str, Any]] = []
        self.opened: list[int] = []

    def set_up(self, initial: CalendarInitial) -> None:
        """Remove the events titled as `initial.absent` says (case aside), then add `initial.events`."""
        gone = {t.casefold() for t in initial.absent}
        self.events = [e for e in self.events if e["title"].casefold() not in gone]
        for spec in initial.events:
            self.events.append(_event(spec, self._next_id()))

    def _next_id(self) -> int:
        return max((e["id"] for e in [*self.events, *self.deleted]), default=0) + 1

    def find(self, event_id: int) -> dict[str, Any] | None:
        """The event of id `event_id`, or None (deleted)."""
        return next((e for e in self.events if e["id"] == event_id), None)

    def shown(self, view: str, day: datetime.date = DATE) -> list[dict[str, Any]]:
        """The events list view `view` shows (the day view: `day`'s), in order."""
        return sorted((e for e in self.events if in_view(e, view, day)), key=sort_key)

    def _listed(self, screen: Screen | None) -> list[dict[str, Any]]:
        """The events list screen `screen` shows, in order ([] for another screen)."""
        return self.shown(screen.name, _day(screen)) if screen and screen.name in VIEWS else []

    def home(self) -> Screen:
        """The schedule (upcoming events)."""
        return Screen(PACKAGE, "schedule")

    def state(self) -> CalendarState:
        """The events, the episode's changes and where Calendar is (see `CalendarState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = self.find(front.args["id"]) if front and front.name == "event" else None
        editor = next((s for s in reversed(mine) if s.name == "edit"), None)
        return {"view": front.name if front else None, "event": opened["title"] if opened else None,
                "events": [dict(e) for e in sorted(self.events, key=sort_key)],
                "shown": [e["id"] for e in self._listed(front)],
                "editing": self._draft(editor) if editor else None, "added": list(self.added),
                "edited": list(self.edited), "deleted": [dict(e) for e in self.deleted], "opened": list(self.opened),
                "day": str(_day(front)) if front and front.name == "day" else None}

    @staticmethod
    def _draft(screen: Screen) -> EventDraft:
        """The editor's event as it would be saved (title kept as typed)."""
        a, f = screen.args, screen.fields
        return {"id": a["id"], "title": f.get(TITLE_RID, ""), "date": a["date"],
                "start": None if a["all_day"] else a["start"], "end": None if a["all_day"] else a["end"],
                "all_day": a["all_day"], "location": f.get(LOCATION_RID, ""),
                "description": f.get(DESCRIPTION_RID, ""), **({"repeat": a["repeat"]} if a["repeat"] else {})}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A list view, an event's page, the editor, or a menu, picker or dialog over the (inert) screen below."""
        match screen.name:
            case "event":
                return self._page(screen)
            case "edit":
                return self._editor(screen)
            case "menu" | "delete" | "date" | "time" | "repeat":
                below = self.phone.screens(PACKAGE)[-2]
                under = inert(self._page(below) if below.name == "event" else self._editor(below))
                overlay = {"menu": self._menu, "delete": self._confirm, "date": self._date_picker,
                           "time": self._time_picker, "repeat": self._repeat_menu}[screen.name]
                return [*under, overlay(screen)]
        return self._list(screen)

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        w = WIDTH // len(VIEWS)
        tabs = [View(TEXT_VIEW, (i * w, top, (i + 1) * w, top + 130), text=v.title(), desc=f"{v.title()} view",
                     package=PACKAGE, clickable=True, focusable=True, selected=v == screen.name, on_tap=("view", v),
                     style="tab") for i, v in enumerate(VIEWS)]
        list_top = top + 160
        pager = self._pager(screen, list_top) if screen.name == "day" else []
        list_top += 140 if pager else 0
        rows = [View(LINEAR, (0, list_top + i * ROW_H, WIDTH, list_top + (i + 1) * ROW_H), text=row_text(e),
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("open", e["id"]), style="row")
                for i, e in enumerate(self._listed(screen))]
        if rows:  # room to scroll the last row clear of the FAB
            rows.append(View(VIEW, (0, rows[-1].bounds[3], WIDTH, rows[-1].bounds[3] + 300), package=PACKAGE))
        else:
            rows = [View(TEXT_VIEW, (MARGIN, list_top, WIDTH - MARGIN, list_top + ROW_H), text="No events",
                         package=PACKAGE, style="hint")]
        month = View(TEXT_VIEW, (MARGIN, CONTENT_TOP, WIDTH - 200, CONTENT_TOP + TOOLBAR_H), text="June 2026",
                     rid=f"{PACKAGE}:id/date_picker_text_view", package=PACKAGE, style="title")
        today = View(IMAGE_BUTTON, (WIDTH - 180, CONTENT_TOP, WIDTH - 30, CONTENT_TOP + TOOLBAR_H),
                     desc="Jump to Today", package=PACKAGE, clickable=True, on_tap=("view", "day"), icon="calendar")
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                   rid=f"{PACKAGE}:id/floating_action_button", package=PACKAGE, clickable=True, focusable=True,
                   on_tap=("create",), style="fab", icon="add")
        return [month, today, *tabs, *pager,
                scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/list"), fab]

    @staticmethod
    def _pager(screen: Screen, y: int) -> list[View]:
        """The day view's header: the day it shows between "Previous day" and "Next day"."""
        day = _day(screen)
        return [View(IMAGE_BUTTON, (MARGIN, y, MARGIN + 120, y + 120), desc="Previous day", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("page", -1), icon="back"),
                View(TEXT_VIEW, (MARGIN + 150, y, WIDTH - MARGIN - 150, y + 120), text=long_date(str(day)),
                     rid=f"{PACKAGE}:id/day_title", package=PACKAGE, style="row_title"),
                View(IMAGE_BUTTON, (WIDTH - MARGIN - 120, y, WIDTH - MARGIN, y + 120), desc="Next day",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("page", 1), icon="forward")]

    def _page(self, screen: Screen) -> list[View]:
        e = self.find(screen.args["id"]) or {"title": "", "date": str(DATE), "all_day": True, "start": None,
                                             "end": None, "location": "", "description": ""}
        bar = toolbar("", PACKAGE, PACKAGE)
        b = bar.bounds
        bar.children += [
            View(IMAGE_BUTTON, (WIDTH - 2 * TOOLBAR_H, b[1], WIDTH - TOOLBAR_H, b[3]), desc=EDIT_DESC,
                 rid=f"{PACKAGE}:id/edit_fab", package=PACKAGE, clickable=True, focusable=True, on_tap=("edit",),
                 icon="edit"),
            View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, b[1], WIDTH, b[3]), desc="More options", package=PACKAGE,
                 clickable=True, focusable=True, on_tap=("more",), icon="more")]
        y = b[3] + 40
        views = [bar, View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 150), text=e["title"],
                           rid=f"{PACKAGE}:id/event_title", package=PACKAGE, style="title")]
        y += 170
        views.append(View(TEXT_VIEW, (MARGIN + 120, y, WIDTH - MARGIN, y + 100), text=long_date(e["date"]),
                          rid=WHEN_RID, package=PACKAGE, style="row_title"))
        y += 100
        times = ["All day"] if e["all_day"] else [clock(e["start"]), "\u2013", clock(e["end"])]
        x = MARGIN + 120
        for k, t in enumerate(times):
            w = 50 if t == "\u2013" else 190
            views.append(View(TEXT_VIEW, (x, y, x + w, y + 90), text=t, rid=TIME_RID if k != 1 else "",
                              package=PACKAGE, style="row_summary"))
            x += w
        y += 130
        if e.get("repeat"):  # a recurring event's page names its rule under the time, as the app's does
            views.append(View(TEXT_VIEW, (MARGIN + 120, y - 30, WIDTH - MARGIN, y + 60),
                              text=repeat_label(e["repeat"], e["date"]), rid=f"{PACKAGE}:id/event_repeat",
                              package=PACKAGE, style="row_summary"))
            y += 100
        for text, rid, icon in ((e["location"], f"{PACKAGE}:id/event_location", "location"),
                                (e["description"], f"{PACKAGE}:id/event_description", "info")):
            if text:
                views += [View(IMAGE_BUTTON, (MARGIN, y, MARGIN + 90, y + 90), package=PACKAGE, icon=icon),
                          View(TEXT_VIEW, (MARGIN + 120, y, WIDTH - MARGIN, y + 110), text=text, rid=rid,
                               package=PACKAGE, style="row_title")]
                y += 140
        return views

    def _menu(self, screen: Screen) -> View:
        return popup_menu(PACKAGE, [("Delete", ("ask_delete",))], ("cancel",))

    def _repeat_menu(self, screen: Screen) -> View:
        return popup_menu(PACKAGE, [(repeat_label(r, screen.args["date"]), ("repeat", r)) for r in REPEATS],
                          ("cancel",))

    def _confirm(self, screen: Screen) -> View:
        return alert_dialog(PACKAGE, "Delete event?", "", [("Cancel", ("cancel",)), ("Delete", ("delete",))],
                            ("cancel",))

    def _editor(self, screen: Screen) -> list[View]:
        args, f = screen.args, screen.fields
        b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        bar = View(FRAME, b, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=[
            View(IMAGE_BUTTON, (0, b[1], TOOLBAR_H, b[3]), desc="Cancel", package=PACKAGE, clickable=True,
                 focusable=True, on_tap=("close",), icon="close"),
            View(BUTTON, (WIDTH - 300, b[1] + 30, WIDTH - MARGIN, b[3] - 30), text="Save",
                 rid=f"{PACKAGE}:id/save", package=PACKAGE, clickable=True, focusable=True, on_tap=("save",),
                 style="button")])
        y = b[3] + 30
        views = [bar, text_field((MARGIN, y, WIDTH - MARGIN, y + 150), TITLE_RID, f.get(TITLE_RID, ""), "Add title",
                                 screen.focus == TITLE_RID, PACKAGE)]
        y += 180
        views.append(View(LINEAR, (0, y, WIDTH, y + 150), package=PACKAGE, clickable=True, on_tap=("all_day",),
                          style="row", children=[
                              View(TEXT_VIEW, (MARGIN, y, WIDTH - 260, y + 150), text="All-day", package=PACKAGE),
                              View(SWITCH, (WIDTH - 220, y + 30, WIDTH - MARGIN, y + 120),
                                   text="ON" if args["all_day"] else "OFF", desc="All-day", rid=ALL_DAY_RID,
                                   package=PACKAGE, checkable=True, checked=args["all_day"], clickable=True,
                                   focusable=True, on_tap=("all_day",), style="switch")]))
        y += 160
        day = datetime.date.fromisoformat(args["date"])
        for which, date_rid, time_rid in (("start", START_DATE_RID, START_TIME_RID), ("end", END_DATE_RID,
                                                                                       END_TIME_RID)):
            kids = [View(TEXT_VIEW, (MARGIN, y + 20, 640, y + 130), text=f"{day:%a}, {day:%b} {day.day}, {day.year}",
                         desc=f"{which.title()} date: {long_date(args['date'])}", rid=date_rid, package=PACKAGE,
                         clickable=True, focusable=True, on_tap=("date",), style="row_title")]
            if not args["all_day"]:
                kids.append(View(TEXT_VIEW, (680, y + 20, WIDTH - MARGIN, y + 130), text=clock(args[which]),
                                 desc=f"{which.title()} time: {clock(args[which])}", rid=time_rid, package=PACKAGE,
                                 clickable=True, focusable=True, on_tap=("time", which), style="row_title"))
            views.append(View(LINEAR, (0, y, WIDTH, y + 150), package=PACKAGE, children=kids))
            y += 150
        rule = repeat_label(args["repeat"], args["date"])
        views.append(View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 130), text=rule, desc=f"Repeat: {rule}",
                          rid=REPEAT_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("repeat",),
                          style="row_title"))
        y += 150
        if args["error"]:
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 70), text=args["error"],
                              rid=f"{PACKAGE}:id/error", package=PACKAGE, style="secondary"))
        y += 90
        for rid, hint in ((LOCATION_RID, "Add location"), (DESCRIPTION_RID, "Add description")):
            views.append(text_field((MARGIN, y, WIDTH - MARGIN, y + 140), rid, f.get(rid, ""), hint,
                                    screen.focus == rid, PACKAGE))
            y += 170
        if args["discard"]:
            title = "Discard this event?" if args["id"] is None else "Discard changes?"
            views.append(alert_dialog(PACKAGE, title, "", [("Keep editing", ("keep",)), ("Discard", ("discard",))],
                                      ("keep",)))
        return views

    def _date_picker(self, screen: Screen) -> View:
        a = screen.args
        body = month_grid(PACKAGE, a["year"], a["month"], a["selected"], "pick", dialog_body_top(300))
        return app_dialog(PACKAGE, "Start date", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)],
                          top=300)

    def _time_picker(self, screen: Screen) -> View:
        a = screen.args
        y = dialog_body_top(300)
        hour_mode = a["mode"] == "hour"
        body = [View(TEXT_VIEW, (150, y, 420, y + 220), text=str(a["hour"]), rid=f"{PACKAGE}:id/hours",
                     package=PACKAGE, clickable=True, focusable=True, selected=hour_mode, on_tap=("mode", "hour"),
                     style="time_field"),
                View(TEXT_VIEW, (420, y, 480, y + 220), text=":", package=PACKAGE),
                View(TEXT_VIEW, (480, y, 750, y + 220), text=f"{a['minute']:02d}", rid=f"{PACKAGE}:id/minutes",
                     package=PACKAGE, clickable=True, focusable=True, selected=not hour_mode,
                     on_tap=("mode", "minute"), style="time_field")]
        body += [View(BUTTON, (780, y + k * 115, 930, y + k * 115 + 100), text=label, package=PACKAGE,
                      clickable=True, focusable=True, checkable=True, checked=a["pm"] == bool(k),
                      on_tap=("ampm", bool(k)), style="chip") for k, label in enumerate(("AM", "PM"))]
        cx, cy = WIDTH // 2, y + 260 + _DIAL_R + 40
        for k in range(12):  # hour k (or minute 5k) sits k * 30 degrees clockwise from 12 o'clock, as on the dial
            value = (k or 12) if hour_mode else 5 * k
            x = cx + round(_DIAL_R * math.sin(math.radians(30 * k)))
            yy = cy - round(_DIAL_R * math.cos(math.radians(30 * k)))
            current = a["hour"] if hour_mode else a["minute"]
            body.append(View(TEXT_VIEW, (x - 60, yy - 60, x + 60, yy + 60),
                             text=str(value) if hour_mode else f"{value:02d}",
                             desc=f"{value} o'clock" if hour_mode else f"{value} minutes", package=PACKAGE,
                             clickable=True, focusable=True, selected=value == current, on_tap=("dial", value),
                             style="dial"))
        return app_dialog(PACKAGE, "Select time", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)],
                          top=300)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Switch views (replacing the screen, as the app's view switcher does); open, create, edit, delete events."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "day", ("page", step):  # the day view's arrows page a day back or on
                screen.args["date"], screen.scroll = str(_day(screen) + datetime.timedelta(days=step)), 0
                return True
            case "day", ("view", "day"):  # "Jump to Today" on a paged day view
                changed, screen.args["date"], screen.scroll = _day(screen) != DATE, str(DATE), 0
                return changed
            case _, ("view", name):
                return name != screen.name and self.phone.replace(Screen(PACKAGE, name))
            case _, ("open", event_id):
                self.opened.append(event_id)
                return self.phone.push(Screen(PACKAGE, "event", {"id": event_id}))
            case _, ("create",):
                return self.phone.push(self._editor_screen(None))
            case "event", ("edit",):
                e = self.find(screen.args["id"])
                return e is not None and self.phone.push(self._editor_screen(e))
            case "event", ("more",):
                return self.phone.push(Screen(PACKAGE, "menu", {"id": screen.args["id"]}))
            case "menu", ("ask_delete",):
                return self.phone.replace(Screen(PACKAGE, "delete", {"id": screen.args["id"]}))
            case "delete", ("delete",):
                e = self.find(screen.args["id"])
                if e is not None:
                    self.events.remove(e)
                    self.deleted.append(dict(e))
                self.phone.pop()
                return self.phone.pop()
        if screen.name == "edit":
            return self._editor_event(event, screen)
        if screen.name == "date":
            return self._date_event(event, screen)
        if screen.name == "time":
            return self._time_event(event, screen)
        if screen.name == "repeat" and event[0] == "repeat":  # a rule picked: back to the editor with it
            self.phone.pop()
            self.phone.top.args["repeat"] = event[1]
            return True
        return False

    def _editor_screen(self, e: dict[str, Any] | None) -> Screen:
        """The editor on event `e`, or on a new event today from the next full hour (as the app proposes)."""
        if e is None:
            now = minutes(self.phone.system.get("clock", "9:41"))
            start = min(now // 60 + 1, 22) * 60
            values = {"date": str(DATE), "start": hhmm(start), "end": hhmm(start + 60), "all_day": False, "repeat": ""}
            fields = dict.fromkeys(FIELDS, "")
        else:
            values = {"date": e["date"], "start": e["start"] or "09:00", "end": e["end"] or "10:00",
                      "all_day": e["all_day"], "repeat": e.get("repeat", "")}
            fields = {TITLE_RID: e["title"], LOCATION_RID: e["location"], DESCRIPTION_RID: e["description"]}
        original = {**values, **fields}
        return Screen(PACKAGE, "edit", {"id": e["id"] if e else None, **values, "original": original,
                                        "discard": False, "error": ""}, fields,
                      focus=TITLE_RID if e is None else None)

    @staticmethod
    def _changed(screen: Screen) -> bool:
        a = screen.args
        now = {"date": a["date"], "start": a["start"], "end": a["end"], "all_day": a["all_day"],
               "repeat": a["repeat"], **{r: screen.fields.get(r, "") for r in FIELDS}}
        return now != a["original"]

    def _editor_event(self, event: AppEvent, screen: Screen) -> bool:
        a = screen.args
        match event:
            case ("all_day",):
                a["all_day"] = not a["all_day"]
                return True
            case ("date",):
                d = datetime.date.fromisoformat(a["date"])
                return self.phone.push(Screen(PACKAGE, "date", {"year": d.year, "month": d.month,
                                                                "selected": a["date"]}))
            case ("repeat",):
                return self.phone.push(Screen(PACKAGE, "repeat", {"date": a["date"]}))
            case ("time", which):
                h, m = (int(p) for p in a[which].split(":"))
                return self.phone.push(Screen(PACKAGE, "time", {"which": which, "hour": (h - 1) % 12 + 1,
                                                                "minute": m, "pm": h >= 12, "mode": "hour"}))
            case ("save",):
                return self._save(screen)
            case ("close",):
                return self._leave(screen) or self.phone.pop()
            case ("keep",):
                a["discard"] = False
                return True
            case ("discard",):
                return self.phone.pop()
        return False

    def _date_event(self, event: AppEvent, screen: Screen) -> bool:
        a = screen.args
        match event:
            case ("month", step):
                a["year"], a["month"] = divmod(a["year"] * 12 + a["month"] - 1 + step, 12)
                a["month"] += 1
                return True
            case ("pick", day):
                changed, a["selected"] = a["selected"] != day, day
                return changed
            case ("ok",):
                self.phone.pop()
                self.phone.top.args["date"] = a["selected"]
                return True
        return False

    def _time_event(self, event: AppEvent, screen: Screen) -> bool:
        a = screen.args
        match event:
            case ("mode" | "ampm", value):  # the hour or minute field tapped, or AM/PM
                key = "mode" if event[0] == "mode" else "pm"
                changed, a[key] = a[key] != value, value
                return changed
            case ("dial", value):
                if a["mode"] == "hour":  # picking the hour moves on to the minutes, as Android's dial does
                    a["hour"], a["mode"] = value, "minute"
                else:
                    a["minute"] = value
                return True
            case ("ok",):
                self.phone.pop()
                editor = self.phone.top.args
                picked = hhmm(60 * (a["hour"] % 12 + (12 if a["pm"] else 0)) + a["minute"])
                if a["which"] == "start":  # moving the start keeps the event's length
                    length = minutes(editor["end"]) - minutes(editor["start"])
                    editor["end"] = hhmm(minutes(picked) + max(length, 0))
                editor[a["which"]] = picked
                editor["error"] = ""
                return True
        return False

    def _save(self, screen: Screen) -> bool:
        """Save the editor: refused with a message when the event ends before it starts; an empty title saves as
        "(No title)", as the app does."""  # noqa: D205, D209
        a, f = screen.args, screen.fields
        if not a["all_day"] and minutes(a["end"]) <= minutes(a["start"]):
            a["error"], screen.focus = "The event can't end before it starts", None
            return True
        fields = {"title": " ".join(f.get(TITLE_RID, "").split()) or NO_TITLE, "date": a["date"],
                  "start": None if a["all_day"] else a["start"], "end": None if a["all_day"] else a["end"],
                  "all_day": a["all_day"], "location": f.get(LOCATION_RID, "").strip(),
                  "description": f.get(DESCRIPTION_RID, "").strip(), **({"repeat": a["repeat"]} if a["repeat"] else {})}
        old = self.find(a["id"]) if a["id"] is not None else None
        if old is None:
            new = {"id": self._next_id(), **fields}
            self.events.append(new)
            self.added.append(new["id"])
        elif any(old[k] != v for k, v in fields.items()) or old.get("repeat", "") != a["repeat"]:
            old.pop("repeat", None)  # a rule dropped in the editor leaves the event
            old.update(fields)
            if old["id"] not in self.edited:
                self.edited.append(old["id"])
        screen.focus = None
        return self.phone.pop()

    def _leave(self, screen: Screen) -> bool:
        """Leaving the editor: with unsaved changes, ask first (True); else False and the caller closes it."""
        if screen.args["discard"]:
            screen.args["discard"] = False
            return True
        if self._changed(screen):
            screen.args["discard"], screen.focus = True, None
            return True
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK on the editor with unsaved changes asks "Discard this event?"; BACK on that dialog keeps editing."""
        return screen.name == "edit" and self._leave(screen)

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in Title moves to Location; in Location, to Description; in Description it closes the keyboard."""
        if screen.name != "edit" or rid not in FIELDS[:-1]:
            return False
        screen.focus = FIELDS[FIELDS.index(rid) + 1]
        return True
