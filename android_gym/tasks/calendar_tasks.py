"""Calendar tasks: show the events of today, the rest of the week or this month.

AitW General asks "What's on my calendar for the rest of the week?" and "Open the calendar and show me this week's
events".

Success: Calendar in front on the asked view (day, week or month), whose list then holds exactly those events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, tap, wait
from android_gym.ui import UIElement

PERIODS = {"day": "today", "week": "the rest of the week", "month": "this month"}


class CalendarViewTemplate(TaskTemplate):
    """What's on my calendar for {period}? ("day", "week" or "month": the view that shows it)."""

    name, suite = "calendar_view", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Week and month are train, day is test (three values: nothing finer to hold out)."""
        return [{"view": v} for v in PERIODS if (v == "day") == (split == "test")]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"What's on my calendar for {PERIODS[params['view']]}?"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Calendar in front on the view."""
        return (state.get("foreground") == calendar.PACKAGE
                and state_of(state, calendar.CalendarState)["view"] == params["view"])

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Calendar and tap the view's tab."""
        step = into_app("Calendar", calendar.PACKAGE, elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] == "event":
            return back()
        tab = find(elements, desc=f"{params['view'].title()} view")
        return tap(tab) if tab is not None else wait()
