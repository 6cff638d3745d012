"""The Clock app: alarms (list, switches, a dial time picker), world clock, timer and stopwatch tabs."""

from __future__ import annotations

import math
from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    SWITCH,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.deskclock"
TABS = ("Alarm", "Clock", "Timer", "Stopwatch")
TAB_H = 200
TABS_TOP = CONTENT_BOTTOM - TAB_H
CARD_H = 300
HOURS_RID = f"{PACKAGE}:id/hours"
MINUTES_RID = f"{PACKAGE}:id/minutes"
FACE_RID = f"{PACKAGE}:id/clock_face_item"
DIAL_CENTER, DIAL_RADIUS = (WIDTH // 2, 1250), 340
ALARM_KEYS = {"hour", "minute", "enabled", "label"}
WORLD = (("New York", -4), ("London", 1), ("Tokyo", 9))


def format_time(hour: int, minute: int) -> str:
    """A 24-hour time as the app shows it.

    >>> format_time(0, 5), format_time(13, 30)
    ('12:05 AM', '1:30 PM')
    """
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


class ClockApp(App):
    """Google Clock. Screens: one per tab ("alarm", "clock", "timer", "stopwatch") and "picker" (select a time).

    The picker's args hold its draft: {"hour": 1-12, "minute": 0-59, "pm": bool, "mode": "hour"|"minute",
    "edit": index of the alarm being edited or None}. Tapping an hour on the dial moves to minutes, like Android's.
    """

    package = PACKAGE
    label = "Clock"
    icon = "clock"
    aliases = ("alarm", "alarms", "deskclock", "alarm clock")

    def reset(self) -> None:
        """No alarms, the Alarm tab, timer and stopwatch stopped."""
        self.alarms: list[dict[str, Any]] = []
        self.tab = "Alarm"
        self.timer_digits = ""
        self.timer_running = False
        self.stopwatch_running = False

    def apply(self, settings: dict[str, Any]) -> None:
        """Initial conditions: {"alarms": [{"hour": 0-23, "minute": 0-59, "enabled": bool, "label": str}, ...]}.

        Raises:
            KeyError: an unknown key, or an alarm with missing/unknown fields or an out-of-range time.
        """
        bad = set(settings) - {"alarms"}
        if bad:
            raise KeyError(f"Clock takes only 'alarms', got {sorted(bad)}")
        alarms = []
        for a in settings.get("alarms", []):
            a = {"enabled": True, "label": "", **a}
            if set(a) != ALARM_KEYS or not (0 <= a["hour"] < 24 and 0 <= a["minute"] < 60):
                raise KeyError(f"an alarm needs hour 0-23, minute 0-59, enabled, label; got {a}")
            alarms.append({"hour": int(a["hour"]), "minute": int(a["minute"]), "enabled": bool(a["enabled"]),
                           "label": str(a["label"])})
        self.alarms = sorted(alarms, key=lambda a: (a["hour"], a["minute"]))

    def home(self) -> Screen:
        """The last tab used (Alarm on a fresh install)."""
        return Screen(PACKAGE, self.tab.lower())

    def state(self) -> dict[str, Any]:
        """The alarms (sorted by time), the current tab, and the timer and stopwatch.

        Returns:
            {"alarms": [{"hour": 0-23, "minute": 0-59, "enabled": bool, "label": str}, ...], "tab": str,
            "timer": {"digits": str, "running": bool}, "stopwatch": {"running": bool}}.
        """
        return {"alarms": [dict(a) for a in self.alarms], "tab": self.tab,
                "timer": {"digits": self.timer_digits, "running": self.timer_running},
                "stopwatch": {"running": self.stopwatch_running}}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A tab with the tab bar, or the time picker."""
        if screen.name == "picker":
            return self._picker(screen.args)
        body = {"alarm": self._alarm_tab, "clock": self._clock_tab, "timer": self._timer_tab,
                "stopwatch": self._stopwatch_tab}[screen.name]()
        return [toolbar(self.tab, PACKAGE, PACKAGE, has_back=False), *body, self._tabs()]

    def _tabs(self) -> View:
        w = WIDTH // len(TABS)
        return View(LINEAR, (0, TABS_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/tabs", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, TABS_TOP, (i + 1) * w, CONTENT_BOTTOM), text=t, desc=t,
                             package=PACKAGE, clickable=True, focusable=True, selected=t == self.tab,
                             on_tap=("tab", t), style="tab", icon=t.lower()) for i, t in enumerate(TABS)])

    def _alarm_tab(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        cards = [self._card(i, a, top + i * CARD_H) for i, a in enumerate(self.alarms)]
        if not cards:
            cards = [View(TEXT_VIEW, (MARGIN, top + 400, WIDTH - MARGIN, top + 520), text="No alarms",
                          package=PACKAGE, style="hint")]
        fab = View(IMAGE_BUTTON, (WIDTH // 2 - 110, TABS_TOP - 260, WIDTH // 2 + 110, TABS_TOP - 40),
                   desc="Add alarm", rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True,
                   on_tap=("add",), style="fab", icon="add")
        return [scroll_list(top, TABS_TOP, PACKAGE, cards, rid=f"{PACKAGE}:id/alarm_recycler_view"), fab]

    def _card(self, i: int, alarm: dict[str, Any], y: int) -> View:
        when = format_time(alarm["hour"], alarm["minute"])
        on = alarm["enabled"]
        return View(LINEAR, (0, y, WIDTH, y + CARD_H), package=PACKAGE, style="card", children=[
            View(TEXT_VIEW, (MARGIN, y + 30, 700, y + 170), text=when, rid=f"{PACKAGE}:id/digital_clock",
                 package=PACKAGE, clickable=True, focusable=True, on_tap=("edit", i), style="time"),
            View(TEXT_VIEW, (MARGIN, y + 180, 700, y + 260), rid=f"{PACKAGE}:id/edit_label", package=PACKAGE,
                 text=alarm["label"] or ("Scheduled" if on else "Not scheduled")),
            View(SWITCH, (WIDTH - 260, y + 60, WIDTH - MARGIN, y + 160), text="ON" if on else "OFF",
                 desc=f"{when} alarm", rid=f"{PACKAGE}:id/onoff", package=PACKAGE, clickable=True, focusable=True,
                 checkable=True, checked=on, on_tap=("toggle", i), style="switch"),
            View(IMAGE_BUTTON, (WIDTH - 220, y + 180, WIDTH - 80, y + 280), desc=f"Delete {when} alarm",
                 rid=f"{PACKAGE}:id/delete", package=PACKAGE, clickable=True, focusable=True, on_tap=("delete", i),
                 icon="delete"),
        ])

    def _clock_tab(self) -> list[View]:
        hour, minute = (int(p) for p in self.phone.system["clock"].split(":"))
        top = CONTENT_TOP + TOOLBAR_H
        views = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 320), text=format_time(hour, minute),
                      rid=f"{PACKAGE}:id/digital_clock", package=PACKAGE, style="display")]
        for i, (city, offset) in enumerate(WORLD):  # offsets from the phone's (simulated) UTC-0 home time zone
            y = top + 400 + i * 200
            views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 160), package=PACKAGE, style="row",
                              text=f"{city}  {format_time((hour + offset) % 24, minute)}"))
        return views

    def _timer_tab(self) -> list[View]:
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
        views.append(self._button("Pause" if self.timer_running else "Start", ("timer_start",), 1340))
        return views

    def _stopwatch_tab(self) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        return [View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 500), text="00:00.00",
                     rid=f"{PACKAGE}:id/stopwatch_time_text", package=PACKAGE, style="display"),
                self._button("Pause" if self.stopwatch_running else "Start", ("sw_toggle",), 1200),
                self._button("Reset", ("sw_reset",), 1450)]

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

    @staticmethod
    def _button(text: str, event: tuple, y: int) -> View:
        return View(BUTTON, (WIDTH // 2 - 250, y, WIDTH // 2 + 250, y + 180), text=text, package=PACKAGE,
                    clickable=True, focusable=True, on_tap=event, style="button")

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, alarm list actions, picker edits, timer and stopwatch buttons."""
        match event:
            case ("tab", name):
                if name == self.tab:
                    return False
                self.tab = name
                return self.phone.replace(Screen(PACKAGE, name.lower()))
            case ("add",):  # a new alarm starts from the current time, as on a phone
                hour, minute = (int(p) for p in self.phone.system["clock"].split(":"))
                return self._open_picker(hour, minute, None)
            case ("edit", index):
                return self._open_picker(self.alarms[index]["hour"], self.alarms[index]["minute"], index)
            case ("toggle", index):
                self.alarms[index]["enabled"] = not self.alarms[index]["enabled"]
                return True
            case ("delete", index):
                del self.alarms[index]
                return True
        if screen.name == "picker":  # any other event goes to the current screen's handler
            return self._picker_event(event, screen)
        return self._timer_event(event)

    def _open_picker(self, hour: int, minute: int, edit: int | None) -> bool:
        """Push the time picker with a draft of the 24-hour `hour`:`minute`; `edit` is the alarm's index or None."""
        return self.phone.push(Screen(PACKAGE, "picker", {"hour": (hour - 1) % 12 + 1, "minute": minute,
                                                          "pm": hour >= 12, "mode": "hour", "edit": edit}))

    def _picker_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("mode", mode):
                changed = args["mode"] != mode
                args["mode"] = mode
                return changed
            case ("pick", value):
                if args["mode"] == "hour":
                    args["hour"], args["mode"] = value, "minute"
                else:
                    args["minute"] = value
                return True
            case ("ampm", pm):
                changed = args["pm"] != pm
                args["pm"] = pm
                return changed
            case ("ok",):
                alarm = {"hour": args["hour"] % 12 + (12 if args["pm"] else 0), "minute": args["minute"],
                         "enabled": True, "label": ""}
                if args["edit"] is not None:
                    alarm["label"] = self.alarms.pop(args["edit"])["label"]
                self.alarms = sorted([*self.alarms, alarm], key=lambda a: (a["hour"], a["minute"]))
                self.phone.pop()
                return True
            case ("cancel",):
                self.phone.pop()
                return True
        return False

    def _timer_event(self, event: AppEvent) -> bool:
        # A guard that fails (a full timer, a leading zero, nothing to delete, ...) makes the tap a no-op.
        match event:
            case ("digit", digit) if len(self.timer_digits) < 6 and (self.timer_digits or digit.strip("0")):
                self.timer_digits = (self.timer_digits + digit)[:6]
                return True
            case ("timer_del",) if self.timer_digits:
                self.timer_digits = self.timer_digits[:-1]
                return True
            case ("timer_start",) if self.timer_digits or self.timer_running:
                self.timer_running = not self.timer_running
                return True
            case ("sw_toggle",):
                self.stopwatch_running = not self.stopwatch_running
                return True
            case ("sw_reset",) if self.stopwatch_running:
                self.stopwatch_running = False
                return True
        return False
