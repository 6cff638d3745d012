"""The Clock app (Google Clock): alarms with labels and repeat days, a world clock, timers and a stopwatch.

The phone's clock does not move (the status bar always shows `system["clock"]`, 9:41), so a running timer keeps its
remaining time and the stopwatch its elapsed time: what changes is what the user does (start, pause, +1:00, laps).
A fresh install has no alarms, three world-clock cities and the Alarm tab in front. The typed seam (`ClockState`,
`ClockInitial`), the day and city tables and the per-episode distractor alarms (`seeded_alarms`) are
`android_gym.sim.apps.clock_state`'s, imported here (as are the names other modules read from this one).

Screens: one per tab ("alarm", "clock", "timer", "stopwatch"), "picker" (select a time: args {"hour": 1-12,
"minute": 0-59, "pm": bool, "mode": "hour"|"minute", "edit": the edited alarm's id or None}), "label" (the Label
dialog over a tab: args {"kind": "alarm"|"timer", "id"}; the text in fields[LABEL_RID]) and "cities" (the city list
of the world clock; the search text in fields[SEARCH_RID]). The timer tab shows the keypad while no timer exists (or
after "Add timer"), else the timers.
"""

from __future__ import annotations

import math
from typing import Any

from android_gym.sim.app import App, ScheduledAlarm, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert
from android_gym.sim.apps.clock_state import CITIES, DAYS, WORLD, ClockInitial, ClockState, alarm_of, seeded_alarms
from android_gym.sim.apps.clock_state import SEEDED_LABELS as SEEDED_LABELS  # the task templates read it from here
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    ROW_H,
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

PACKAGE = "com.google.android.deskclock"
TABS = ("Alarm", "Clock", "Timer", "Stopwatch")
TAB_H = 200
TABS_TOP = CONTENT_BOTTOM - TAB_H
CARD_H = 470
HOURS_RID = f"{PACKAGE}:id/hours"
MINUTES_RID = f"{PACKAGE}:id/minutes"
FACE_RID = f"{PACKAGE}:id/clock_face_item"
LABEL_RID = f"{PACKAGE}:id/edit_label"
LABEL_INPUT_RID = f"{PACKAGE}:id/label_input_field"
TIME_RID = f"{PACKAGE}:id/digital_clock"
DAY_RID = f"{PACKAGE}:id/day_button"
TIMER_LABEL_RID = f"{PACKAGE}:id/timer_label"
TIMER_TIME_RID = f"{PACKAGE}:id/timer_time_text"
CITY_RID = f"{PACKAGE}:id/city_name"
SEARCH_RID = f"{PACKAGE}:id/search_src_text"
DIAL_CENTER, DIAL_RADIUS = (WIDTH // 2, 1250), 340


def format_time(hour: int, minute: int) -> str:
    """A 24-hour time as the app shows it.

    >>> format_time(0, 5), format_time(13, 30)
    ('12:05 AM', '1:30 PM')
    """
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def format_duration(seconds: int) -> str:
    """A timer's remaining time as the app shows it.

    >>> format_duration(90), format_duration(25 * 60), format_duration(3725)
    ('1:30', '25:00', '1:02:05')
    """
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


def digits_seconds(digits: str) -> int:
    """The keypad's "hhmmss" digits (right-aligned) in seconds.

    >>> digits_seconds("5"), digits_seconds("2500"), digits_seconds("10000")
    (5, 1500, 3600)
    """
    d = digits.rjust(6, "0")
    return int(d[:2]) * 3600 + int(d[2:4]) * 60 + int(d[4:])


def city_time(clock: str, offset_min: int) -> tuple[int, int, int]:
    """(hour 0-23, minute, day shift -1|0|1) in a city `offset_min` from UTC when the phone's clock reads `clock`.

    >>> city_time("9:41", 330), city_time("9:41", -600)
    ((15, 11, 0), (23, 41, -1))
    """
    hour, minute = (int(p) for p in clock.split(":"))
    day, rest = divmod(hour * 60 + minute + offset_min, 24 * 60)
    return rest // 60, rest % 60, day


def offset_label(offset_min: int) -> str:
    """A UTC offset as the city list shows it.

    >>> offset_label(330), offset_label(-240), offset_label(0)
    ('GMT+5:30', 'GMT-4:00', 'GMT+0:00')
    """
    sign = "-" if offset_min < 0 else "+"
    return f"GMT{sign}{abs(offset_min) // 60}:{abs(offset_min) % 60:02d}"


def days_summary(days: list[str], enabled: bool) -> str:
    """What a card says under its time: the repeat days, else whether the one-off alarm is scheduled.

    >>> days_summary(["Monday", "Friday"], True), days_summary(list(DAYS), False), days_summary([], False)
    ('Mon, Fri', 'Every day', 'Not scheduled')
    """
    if len(days) == 7:
        return "Every day"
    if days:
        return ", ".join(d[:3] for d in days)
    return "Scheduled" if enabled else "Not scheduled"




class ClockApp(App):
    """Google Clock: alarms, world clock, timers and stopwatch (see the module docstring for the screens)."""

    package = PACKAGE
    label = "Clock"
    icon = "clock"
    aliases = ("alarm", "alarms", "deskclock", "alarm clock")
    state_schema = ClockState
    initial_model = ClockInitial

    def reset(self) -> None:
        """No alarms or timers, the fresh install's world clock, the Alarm tab, the stopwatch at zero."""
        self.alarms: list[dict[str, Any]] = []  # each with an "id", sorted by time
        self.next_id = 0  # the id the next alarm gets
        self.edits: list[dict[str, Any]] = []
        self.tab = "Alarm"
        self.cities = list(WORLD)
        self.timer_digits, self.timer_keypad = "", False  # "Add timer" shows the keypad while timers exist
        self.timers: list[dict[str, Any]] = []
        self.stopwatch_running, self.laps = False, 0

    def set_up(self, initial: ClockInitial) -> None:
        """The given alarms and `initial.seeded` distractors (replacing none: a fresh install has no alarms), the
        cities, the tab and the stopwatch."""  # noqa: D205, D209
        given = [alarm_of(a) for a in initial.alarms]
        self.alarms, self.next_id = [], 0
        taken = {(a["hour"], a["minute"]) for a in given} | set(initial.free)
        for a in given + seeded_alarms(self.phone.seed, initial.seeded, taken):
            self._insert(a)
        self.cities = list(initial.cities or self.cities)
        self.tab = initial.tab or self.tab
        self.stopwatch_running, self.laps = initial.stopwatch_running, initial.laps

    def scheduled_alarms(self) -> list[ScheduledAlarm]:
        """The enabled alarms, by time."""
        return [ScheduledAlarm(PACKAGE, a["hour"], a["minute"], a["label"]) for a in self.alarms if a["enabled"]]

    def home(self) -> Screen:
        """The last tab used (Alarm on a fresh install)."""
        return Screen(PACKAGE, self.tab.lower())

    def state(self) -> ClockState:
        """Alarms, world clock, timers, stopwatch, the tab and the front Clock screen (see `ClockState`)."""
        mine = self.phone.screens(PACKAGE)
        return {"alarms": [{k: a[k] for k in ("hour", "minute", "enabled", "label")} for a in self.alarms],
                "alarm_cards": [{**a, "days": list(a["days"])} for a in self.alarms],
                "alarm_edits": [dict(e) for e in self.edits], "tab": self.tab,
                "screen": mine[-1].name if mine else None, "cities": list(self.cities),
                "timer": {"digits": self.timer_digits, "running": any(t["running"] for t in self.timers)},
                "timers": [{k: t[k] for k in ("duration_s", "remaining_s", "running", "label")} for t in self.timers],
                "stopwatch": {"running": self.stopwatch_running, "laps": self.laps}}

    def _insert(self, alarm: dict[str, Any], alarm_id: int | None = None) -> int:
        """Add `alarm` (with `alarm_id`, else a new id), keeping the list sorted by time (after alarms of that time)."""
        if alarm_id is None:
            alarm_id, self.next_id = self.next_id, self.next_id + 1
        self.alarms = sorted([*self.alarms, {**alarm, "id": alarm_id}], key=lambda a: (a["hour"], a["minute"]))
        return alarm_id

    def _by_id(self, alarm_id: int) -> dict[str, Any] | None:
        return next((a for a in self.alarms if a["id"] == alarm_id), None)

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A tab with the tab bar, the time picker, the city list, or the Label dialog over the (inert) tab."""
        if screen.name in ("picker", "cities"):
            return self._picker(screen.args) if screen.name == "picker" else self._city_list(screen)
        if screen.name == "label":
            below = self.phone.screens(PACKAGE)[-2]
            return [*inert(self._tab_views(below.name), below.scroll), self._label_dialog(screen)]
        return self._tab_views(screen.name)

    def _tab_views(self, name: str) -> list[View]:
        body = {"alarm": self._alarm_tab, "clock": self._clock_tab, "timer": self._timer_tab,
                "stopwatch": self._stopwatch_tab}[name]()
        return [toolbar(self.tab, PACKAGE, PACKAGE, has_back=False), *body, self._tabs()]

    def _tabs(self) -> View:
        w = WIDTH // len(TABS)
        return View(LINEAR, (0, TABS_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/tabs", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, TABS_TOP, (i + 1) * w, CONTENT_BOTTOM), text=t, desc=t,
                             package=PACKAGE, clickable=True, focusable=True, selected=t == self.tab,
                             on_tap=("tab", t), style="tab", icon=t.lower()) for i, t in enumerate(TABS)])

    def _fab(self, desc: str, event: tuple) -> View:
        return View(IMAGE_BUTTON, (WIDTH // 2 - 110, TABS_TOP - 260, WIDTH // 2 + 110, TABS_TOP - 40), desc=desc,
                    rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True, on_tap=event,
                    style="fab", icon="add")

    def _alarm_tab(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        cards = [self._card(a, top + i * CARD_H) for i, a in enumerate(self.alarms)]
        if cards:  # room to scroll the last card clear of the FAB
            cards.append(View(VIEW, (0, cards[-1].bounds[3], WIDTH, cards[-1].bounds[3] + 300), package=PACKAGE))
        else:
            cards = [View(TEXT_VIEW, (MARGIN, top + 400, WIDTH - MARGIN, top + 520), text="No alarms",
                          package=PACKAGE, style="hint")]
        return [scroll_list(top, TABS_TOP, PACKAGE, cards, rid=f"{PACKAGE}:id/alarm_recycler_view"),
                self._fab("Add alarm", ("add",))]

    def _card(self, alarm: dict[str, Any], y: int) -> View:
        when, on, i = format_time(alarm["hour"], alarm["minute"]), alarm["enabled"], alarm["id"]
        kids = [View(TEXT_VIEW, (MARGIN, y + 20, 760, y + 100), text=alarm["label"] or "Add label", rid=LABEL_RID,
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("label", i), style="secondary"),
                View(TEXT_VIEW, (MARGIN, y + 100, 700, y + 230), text=when, rid=TIME_RID, package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("edit", i), style="time"),
                View(SWITCH, (WIDTH - 260, y + 110, WIDTH - MARGIN, y + 210), text="ON" if on else "OFF",
                     desc=f"{when} alarm", rid=f"{PACKAGE}:id/onoff", package=PACKAGE, clickable=True,
                     focusable=True, checkable=True, checked=on, on_tap=("toggle", i), style="switch"),
                View(TEXT_VIEW, (MARGIN, y + 230, 760, y + 300), text=days_summary(alarm["days"], on),
                     rid=f"{PACKAGE}:id/upcoming_instance_label", package=PACKAGE, style="secondary")]
        for k, day in enumerate(DAYS):
            x = MARGIN + k * 115
            kids.append(View(BUTTON, (x, y + 320, x + 105, y + 425), text=day[0], desc=day, rid=f"{DAY_RID}_{k}",
                             package=PACKAGE, clickable=True, focusable=True, checkable=True,
                             checked=day in alarm["days"], on_tap=("day", i, day), style="chip"))
        kids.append(View(IMAGE_BUTTON, (WIDTH - 220, y + 320, WIDTH - 80, y + 430), desc=f"Delete {when} alarm",
                         rid=f"{PACKAGE}:id/delete", package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("delete", i), icon="delete"))
        return View(LINEAR, (0, y, WIDTH, y + CARD_H), package=PACKAGE, style="card", children=kids)

    def _clock_tab(self) -> list[View]:
        clock = self.phone.system["clock"]
        hour, minute, _ = city_time(clock, 0)
        top = CONTENT_TOP + TOOLBAR_H
        rows = [View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 300), text=format_time(hour, minute),
                     rid=TIME_RID, package=PACKAGE, style="display")]
        for i, city in enumerate(self.cities):  # offsets from the phone's (simulated) UTC home time zone
            y = top + 340 + i * 220
            h, m, day = city_time(clock, CITIES[city])
            diff = f"{abs(CITIES[city]) / 60:g} hr {'ahead' if CITIES[city] > 0 else 'behind'}" if CITIES[city] \
                else "Same time"
            rows.append(View(LINEAR, (0, y, WIDTH, y + 200), package=PACKAGE, style="card", children=[
                View(TEXT_VIEW, (MARGIN, y + 20, 640, y + 110), text=city, rid=CITY_RID, package=PACKAGE,
                     style="row_title"),
                View(TEXT_VIEW, (MARGIN, y + 110, 640, y + 180), text=f"{('Yesterday', 'Today', 'Tomorrow')[day + 1]}, "
                     f"{diff}", rid=f"{PACKAGE}:id/hours_ahead", package=PACKAGE, style="secondary"),
                View(TEXT_VIEW, (640, y + 30, WIDTH - MARGIN, y + 170), text=format_time(h, m), desc=f"{city} time",
                     rid=f"{PACKAGE}:id/city_time", package=PACKAGE, style="time")]))
        rows.append(View(VIEW, (0, rows[-1].bounds[3], WIDTH, rows[-1].bounds[3] + 300), package=PACKAGE))
        return [scroll_list(top, TABS_TOP, PACKAGE, rows, rid=f"{PACKAGE}:id/cities"), self._fab("Add city", ("add",))]

    def _timer_tab(self) -> list[View]:
        return self._keypad() if self.timer_keypad or not self.timers else self._timer_cards()

    def _keypad(self) -> list[View]:
        d = self.timer_digits.rjust(6, "0")
        top = CONTENT_TOP + TOOLBAR_H
        views = [View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 280), text=f"{d[:2]}h {d[2:4]}m {d[4:]}s",
                      rid=f"{PACKAGE}:id/timer_setup_time", package=PACKAGE, style="display")]
        keys = [*"123456789", "00", "0", "Delete"]
        for i, k in enumerate(keys):
            x, y = MARGIN + (i % 3) * 330, top + 320 + (i // 3) * 240
            event = ("timer_del",) if k == "Delete" else ("digit", k)
            views.append(View(BUTTON, (x, y, x + 300, y + 210), text="" if k == "Delete" else k, desc=k,
                              package=PACKAGE, clickable=True, focusable=True, on_tap=event, style="key"))
        views.append(self._button("Start", ("timer_start",), top + 1310))  # below the keypad's last row
        if self.timers:
            views.append(self._button("Cancel", ("keypad_cancel",), top + 1520, style="outlined_button"))
        return views

    def _timer_cards(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        cards = []
        for i, t in enumerate(self.timers):
            y = top + 20 + i * 560
            cards.append(View(LINEAR, (0, y, WIDTH, y + 540), package=PACKAGE, style="card", children=[
                View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 110), text=t["label"] or "Add label",
                     rid=TIMER_LABEL_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("timer_label", i),
                     style="secondary"),
                View(TEXT_VIEW, (MARGIN, y + 120, WIDTH - MARGIN, y + 330), text=format_duration(t["remaining_s"]),
                     rid=TIMER_TIME_RID, package=PACKAGE, style="display"),
                View(BUTTON, (MARGIN, y + 380, 340, y + 510), text="+1:00", desc="Add 1 minute", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("plus", i), style="outlined_button"),
                View(IMAGE_BUTTON, (WIDTH // 2 - 110, y + 360, WIDTH // 2 + 110, y + 530),
                     desc="Pause" if t["running"] else "Resume", rid=f"{PACKAGE}:id/play_pause", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("timer_toggle", i), style="fab",
                     icon="pause" if t["running"] else "play"),
                View(BUTTON, (WIDTH - 340, y + 380, WIDTH - MARGIN, y + 510), text="Delete", desc="Delete timer",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("timer_delete", i),
                     style="outlined_button")]))
        return [scroll_list(top, TABS_TOP, PACKAGE, cards, rid=f"{PACKAGE}:id/timer_view_pager"),
                View(BUTTON, (WIDTH - 420, TABS_TOP - 200, WIDTH - MARGIN, TABS_TOP - 40), text="Add timer",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("timer_add",), style="button")]

    def _stopwatch_tab(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        ys = [top + 520 + k * ROW_H for k in range(self.laps)]  # the newest lap first, as the app lists them
        laps = [View(LINEAR, (0, y, WIDTH, y + ROW_H), package=PACKAGE, style="row", children=[
            View(TEXT_VIEW, (MARGIN, y, 500, y + ROW_H), text=f"Lap {self.laps - k}", rid=f"{PACKAGE}:id/lap_number",
                 package=PACKAGE),
            View(TEXT_VIEW, (560, y, WIDTH - MARGIN, y + ROW_H), text="00:00.00", rid=f"{PACKAGE}:id/lap_time",
                 package=PACKAGE)]) for k, y in enumerate(ys)]
        views = [View(TEXT_VIEW, (MARGIN, top + 150, WIDTH - MARGIN, top + 450), text="00:00.00",
                      rid=f"{PACKAGE}:id/stopwatch_time_text", package=PACKAGE, style="display")]
        if laps:
            views.append(scroll_list(top + 520, TABS_TOP - 320, PACKAGE, laps, rid=f"{PACKAGE}:id/laps_list"))
        left = ("Lap", ("lap",), True) if self.stopwatch_running else ("Reset", ("sw_reset",), self.laps > 0)
        y = TABS_TOP - 280
        views += [View(BUTTON, (MARGIN, y, 400, y + 180), text=left[0], package=PACKAGE, clickable=True,
                       focusable=True, enabled=left[2], on_tap=left[1], style="outlined_button"),
                  View(BUTTON, (WIDTH // 2 - 120, y, WIDTH // 2 + 300, y + 180),
                       text="Pause" if self.stopwatch_running else "Start", package=PACKAGE, clickable=True,
                       focusable=True, on_tap=("sw_toggle",), style="button")]
        return views

    def _picker(self, args: dict[str, Any]) -> list[View]:
        top = CONTENT_TOP + 60
        hour_mode = args["mode"] == "hour"
        views = [View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 100), text="Select time", package=PACKAGE,
                      style="dialog_title"),
                 View(TEXT_VIEW, (MARGIN, top + 140, 400, top + 400), text=str(args["hour"]), rid=HOURS_RID,
                      package=PACKAGE, clickable=True, focusable=True, selected=hour_mode, on_tap=("mode", "hour"),
                      style="time_field"),
                 View(TEXT_VIEW, (400, top + 140, 460, top + 400), text=":", package=PACKAGE),
                 View(TEXT_VIEW, (460, top + 140, 810, top + 400), text=f"{args['minute']:02d}", rid=MINUTES_RID,
                      package=PACKAGE, clickable=True, focusable=True, selected=not hour_mode,
                      on_tap=("mode", "minute"), style="time_field")]
        for j, label in enumerate(("AM", "PM")):
            y = top + 140 + j * 130
            views.append(View(BUTTON, (840, y, WIDTH - MARGIN, y + 120), text=label, package=PACKAGE, clickable=True,
                              focusable=True, checkable=True, checked=args["pm"] == bool(j), on_tap=("ampm", bool(j)),
                              style="chip"))
        for k in range(12):  # the dial: hour k (or minute 5k) sits k * 30 degrees clockwise from 12 o'clock
            value = (k or 12) if hour_mode else 5 * k
            x = DIAL_CENTER[0] + round(DIAL_RADIUS * math.sin(math.radians(30 * k)))
            y = DIAL_CENTER[1] - round(DIAL_RADIUS * math.cos(math.radians(30 * k)))
            current = args["hour"] if hour_mode else args["minute"]
            views.append(View(TEXT_VIEW, (x - 70, y - 70, x + 70, y + 70),
                              text=str(value) if hour_mode else f"{value:02d}",
                              desc=f"{value} o'clock" if hour_mode else f"{value} minutes", rid=FACE_RID,
                              package=PACKAGE, clickable=True, focusable=True, selected=value == current,
                              on_tap=("pick", value), style="dial"))
        y = DIAL_CENTER[1] + DIAL_RADIUS + 200
        views += [View(BUTTON, (WIDTH - 620, y, WIDTH - 340, y + 140), text="Cancel", package=PACKAGE,
                       clickable=True, focusable=True, on_tap=("cancel",), style="text_button"),
                  View(BUTTON, (WIDTH - 320, y, WIDTH - MARGIN, y + 140), text="OK", package=PACKAGE, clickable=True,
                       focusable=True, on_tap=("ok",), style="text_button")]
        return views

    def _label_dialog(self, screen: Screen) -> View:
        top = 560
        y = dialog_body_top(top)
        field = text_field((150, y, WIDTH - 150, y + 144), LABEL_INPUT_RID, screen.fields.get(LABEL_INPUT_RID, ""),
                           "Label", screen.focus == LABEL_INPUT_RID, PACKAGE)
        return app_dialog(PACKAGE, "Label", [field], [("Cancel", ("cancel",), True), ("OK", ("ok",), True)], top=top)

    def _city_list(self, screen: Screen) -> list[View]:
        bar = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        query = screen.fields.get(SEARCH_RID, "").strip().casefold()
        head = View(FRAME, bar, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=[
            View(IMAGE_BUTTON, (0, bar[1], TOOLBAR_H, bar[3]), desc="Navigate up", package=PACKAGE, clickable=True,
                 focusable=True, on_tap=("cancel",), icon="back"),
            text_field((TOOLBAR_H, bar[1] + 12, WIDTH - MARGIN, bar[3] - 12), SEARCH_RID,
                       screen.fields.get(SEARCH_RID, ""), "Search", screen.focus == SEARCH_RID, PACKAGE,
                       icon="search")])
        top = bar[3]
        names = sorted((c for c in CITIES if query in c.casefold()), key=lambda c: (c not in self.cities, c))
        rows = []
        for k, city in enumerate(names):  # the selected cities first, as the app lists them
            y = top + k * ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("city", city), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, 700, y + 100), text=city, rid=CITY_RID,
                                      package=PACKAGE),
                                 View(TEXT_VIEW, (MARGIN, y + 100, 700, y + 160), text=offset_label(CITIES[city]),
                                      rid=f"{PACKAGE}:id/city_offset", package=PACKAGE, style="secondary"),
                                 View("android.widget.CheckBox", (WIDTH - 180, y + 30, WIDTH - MARGIN, y + 140),
                                      desc=f"Select {city}", package=PACKAGE, clickable=True, focusable=True,
                                      checkable=True, checked=city in self.cities, on_tap=("city", city),
                                      style="checkbox")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320), text="No results",
                         package=PACKAGE, style="hint")]
        return [head, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/cities_list")]

    @staticmethod
    def _button(text: str, event: tuple, y: int, style: str = "button") -> View:
        return View(BUTTON, (WIDTH // 2 - 250, y, WIDTH // 2 + 250, y + 180), text=text, package=PACKAGE,
                    clickable=True, focusable=True, on_tap=event, style=style)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, alarm cards, the picker, the Label dialog, the city list, timers and the stopwatch."""
        match screen.name, event:
            case _, ("tab", name):
                if name == self.tab:
                    return False
                self.tab = name
                return self.phone.replace(Screen(PACKAGE, name.lower()))
            case "alarm", ("add",):  # a new alarm starts from the current time, as on a phone
                hour, minute, _ = city_time(self.phone.system["clock"], 0)
                return self._open_picker(hour, minute, None)
            case "clock", ("add",):
                return self.phone.push(Screen(PACKAGE, "cities", {}, {SEARCH_RID: ""}))
            case _, ("cancel",):
                return self.phone.pop()
            case "picker", _:
                return self._picker_event(event, screen)
            case "label", ("ok",):
                return self._save_label(screen)
            case "cities", ("city", city):
                self.cities = [c for c in self.cities if c != city] if city in self.cities else [*self.cities, city]
                return True
        return self._alarm_event(event) or self._timer_event(event)

    def _alarm_event(self, event: AppEvent) -> bool:
        """A card's controls: its time (the picker), label, switch, day chips and delete button."""
        a = self._by_id(event[1]) if event[0] in ("edit", "label", "toggle", "day", "delete") else None
        if a is None:
            return False
        match event:
            case ("edit", i):
                return self._open_picker(a["hour"], a["minute"], i)
            case ("label", i):
                return self.phone.push(Screen(PACKAGE, "label", {"kind": "alarm", "id": i},
                                              {LABEL_INPUT_RID: a["label"]}, focus=LABEL_INPUT_RID))
            case ("toggle", i):
                a["enabled"] = not a["enabled"]
                op = "on" if a["enabled"] else "off"
            case ("day", i, day):
                a["days"] = [d for d in DAYS if d in set(a["days"]) ^ {day}]
                op = "days"
            case _:
                self.alarms = [b for b in self.alarms if b is not a]
                op = "delete"
        self.edits.append({"op": op, "id": a["id"]})
        return True

    def _open_picker(self, hour: int, minute: int, edit: int | None) -> bool:
        """Push the time picker with a draft of the 24-hour `hour`:`minute`; `edit` is the alarm's id or None."""
        return self.phone.push(Screen(PACKAGE, "picker", {"hour": (hour - 1) % 12 + 1, "minute": minute,
                                                          "pm": hour >= 12, "mode": "hour", "edit": edit}))

    def _picker_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("mode" | "ampm", value):  # the hour/minute field tapped, or AM/PM
                key = "mode" if event[0] == "mode" else "pm"
                changed, args[key] = args[key] != value, value
                return changed
            case ("pick", value):
                if args["mode"] == "hour":
                    args["hour"], args["mode"] = value, "minute"
                else:
                    args["minute"] = value
                return True
            case ("ok",):
                when = {"hour": args["hour"] % 12 + (12 if args["pm"] else 0), "minute": args["minute"]}
                old = self._by_id(args["edit"]) if args["edit"] is not None else None
                if old is None:
                    new_id = self._insert({**when, "enabled": True, "label": "", "days": []})
                    self.edits.append({"op": "add", "id": new_id})
                else:  # a changed time moves the card and switches the alarm on, as the app does
                    self.alarms = [a for a in self.alarms if a is not old]
                    self._insert({**old, **when, "enabled": True}, old["id"])
                    self.edits.append({"op": "time", "id": old["id"]})
                return self.phone.pop()
        return False

    def _save_label(self, screen: Screen) -> bool:
        text = screen.fields.get(LABEL_INPUT_RID, "").strip()
        kind, i = screen.args["kind"], screen.args["id"]
        if kind == "alarm":
            a = self._by_id(i)
            if a is not None and a["label"] != text:
                a["label"] = text
                self.edits.append({"op": "label", "id": i})
        elif i < len(self.timers):
            self.timers[i]["label"] = text
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER: OK in the Label dialog; in the city search it only closes the keyboard (the list filters live)."""
        return self._save_label(screen) if rid == LABEL_INPUT_RID else False

    def _timer_event(self, event: AppEvent) -> bool:
        # A guard that fails (a full timer, a leading zero, nothing to delete, ...) makes the tap a no-op.
        match event:
            case ("digit", digit) if len(self.timer_digits) < 6 and (self.timer_digits or digit.strip("0")):
                self.timer_digits = (self.timer_digits + digit)[:6]
            case ("timer_del",) if self.timer_digits:
                self.timer_digits = self.timer_digits[:-1]
            case ("timer_start",) if self.timer_digits:
                seconds = digits_seconds(self.timer_digits)
                self.timers.append({"duration_s": seconds, "remaining_s": seconds, "running": True, "label": ""})
                self.timer_keypad = False
            case ("keypad_cancel",):
                self.timer_keypad = False
            case ("timer_add",):
                self.timer_keypad, self.timer_digits = True, ""
            case ("timer_toggle", i):
                self.timers[i]["running"] = not self.timers[i]["running"]
            case ("plus", i):
                self.timers[i]["remaining_s"] += 60
            case ("timer_delete", i):
                del self.timers[i]
                self.timer_digits = self.timer_digits if self.timers else ""
            case ("timer_label", i):
                return self.phone.push(Screen(PACKAGE, "label", {"kind": "timer", "id": i},
                                              {LABEL_INPUT_RID: self.timers[i]["label"]}, focus=LABEL_INPUT_RID))
            case ("sw_toggle",):
                self.stopwatch_running = not self.stopwatch_running
            case ("lap",) if self.stopwatch_running:
                self.laps += 1
            case ("sw_reset",) if not self.stopwatch_running and self.laps:
                self.laps = 0
            case _:
                return False
        return True

    def on_back(self, screen: Screen) -> bool:
        """BACK on the keypad opened by "Add timer" returns to the timers."""
        handled = screen.name == "timer" and self.timer_keypad and bool(self.timers)
        self.timer_keypad = self.timer_keypad and not handled
        return handled
