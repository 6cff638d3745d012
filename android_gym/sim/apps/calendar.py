"""The Calendar app: this month's events in a schedule, and day, week and month views.

Events are drawn per episode from `stable_seed(phone.seed)` (never from the episode RNG, so building a screen
consumes no randomness), over the simulated month the phone is in (`TODAY`). Screens: "schedule" (home),
"day", "week", "month" (the view switcher's tabs) and "event" (args {"event": an `events()` dict}).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.calendar"
VIEWS = ("schedule", "day", "week", "month")
TODAY = (2026, 6, 10, "Wednesday")
"""The simulated date: Wednesday 10 June 2026 (the month has 30 days; weeks start on Monday the 8th)."""
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_TITLES = ("Team standup", "Dentist", "Lunch with Sam", "Project review", "Yoga class", "Flight to Denver",
           "Mom's birthday", "1:1 with manager", "Book club", "Haircut", "Soccer practice", "Parent-teacher meeting",
           "Quarterly planning", "Coffee with Priya", "Car service", "Concert")
ROW_H = 200


def events(seed: int) -> list[dict[str, Any]]:
    """The month's events of episode `seed`, in date order: {"title", "day" (1-30), "hour", "weekday"}."""
    rng = np.random.default_rng(stable_seed("calendar", seed))
    month = rng.choice(np.arange(1, 31), size=10, replace=False)
    week = rng.choice(np.arange(TODAY[2] + 1, 15), size=2, replace=False)  # a busy week: today and two more days
    days = sorted({int(d) for d in (*month, *week, TODAY[2])})
    return [{"title": _TITLES[int(rng.integers(len(_TITLES)))], "day": d, "hour": int(rng.integers(8, 20)),
             "weekday": _WEEKDAYS[(d - 8) % 7]} for d in days]


def in_view(event: dict[str, Any], view: str) -> bool:
    """Whether `view` shows `event`: today (day), the rest of this week (week, to Sunday the 14th), this month."""
    today = TODAY[2]
    if view == "day":
        return event["day"] == today
    if view == "week":
        return today <= event["day"] <= 14
    return event["day"] >= today if view == "schedule" else True


class CalendarApp(App):
    """Google Calendar: a schedule of upcoming events, day/week/month views, event pages."""

    package = PACKAGE
    label = "Calendar"
    icon = "calendar"
    aliases = ("google calendar",)

    def home(self) -> Screen:
        """The schedule (upcoming events)."""
        return Screen(PACKAGE, "schedule")

    def build(self, screen: Screen) -> list[View]:
        """A view's events under the view switcher, or one event's page."""
        if screen.name == "event":
            e = screen.args["event"]
            top = CONTENT_TOP + TOOLBAR_H + 40
            return [toolbar(e["title"], PACKAGE, PACKAGE),
                    View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 120),
                         text=f"{e['weekday']}, June {e['day']} · {e['hour']}:00 - {e['hour'] + 1}:00",
                         package=PACKAGE)]
        top = CONTENT_TOP + TOOLBAR_H
        w = WIDTH // len(VIEWS)
        tabs = [View(TEXT_VIEW, (i * w, top, (i + 1) * w, top + 130), text=v.title(), desc=f"{v.title()} view",
                     package=PACKAGE, clickable=True, focusable=True, selected=v == screen.name, on_tap=("view", v),
                     style="tab") for i, v in enumerate(VIEWS)]
        shown = [e for e in events(self.phone.seed) if in_view(e, screen.name)]
        list_top = top + 160
        rows = [View(LINEAR, (0, list_top + i * ROW_H, WIDTH, list_top + (i + 1) * ROW_H),
                     text=f"{e['title']} · {e['weekday'][:3]} {e['day']} · {e['hour']}:00", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("open", tuple(sorted(e.items()))), style="row")
                for i, e in enumerate(shown)]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, list_top, WIDTH - MARGIN, list_top + ROW_H), text="No events",
                         package=PACKAGE, style="hint")]
        month = View(TEXT_VIEW, (MARGIN, CONTENT_TOP, WIDTH - 200, CONTENT_TOP + TOOLBAR_H), text="June 2026",
                     rid=f"{PACKAGE}:id/date_picker_text_view", package=PACKAGE, style="title")
        today = View(IMAGE_BUTTON, (WIDTH - 180, CONTENT_TOP, WIDTH - 30, CONTENT_TOP + TOOLBAR_H),
                     desc="Jump to Today", package=PACKAGE, clickable=True, on_tap=("view", "day"), icon="calendar")
        return [month, today, *tabs, scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/list")]

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Switch views (replacing the screen, as the app's view switcher does); open an event."""
        match event:
            case ("view", name):
                return name != screen.name and self.phone.replace(Screen(PACKAGE, name))
            case ("open", items):
                return self.phone.push(Screen(PACKAGE, "event", {"event": dict(items)}))
        return False

    def state(self) -> dict[str, Any]:
        """Where Calendar is.

        Returns:
            {"view": the front Calendar screen ("schedule", "day", "week", "month", "event") or None, "event": the
            open event's title or None}.
        """
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        return {"view": front.name if front else None,
                "event": front.args["event"]["title"] if front and front.name == "event" else None}
