"""The notification shade's tasks: show the notifications (AitW General's "Show me my notifications"), or clear them.

Every episode starts with 3 to 6 notifications (`android_gym.sim.shade`). Success: the shade open ("show"), or no
notification left ("clear", by "Clear all" or by opening each one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import find, tap
from android_gym.ui import UIElement

ACTIONS = ("show", "clear")


def shade(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """The shade's part of the device state: {"open": bool, "notifications": [{"app", "title", "text"}]}."""
    return state.get("shade") or {"open": False, "notifications": []}


def pull_down_shade() -> Action:
    """A swipe from the status bar down the screen: opens the notification shade."""
    return Action.swipe(0.5, 0.01, 0.5, 0.5)


class NotificationShadeTemplate(TaskTemplate):
    """Show the notifications (the shade open), or clear them all."""

    name, suite = "notification_shade", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Both actions, each in the split its key falls in."""
        return [{"action": a} for a in ACTIONS if split_of(f"notifications:{a}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return "Show me my notifications" if params["action"] == "show" else "Clear all my notifications"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """"show": the shade is open; "clear": no notification is left."""
        s = shade(state)
        return bool(s["open"]) if params["action"] == "show" else not s["notifications"]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Pull the shade down (over a pop-up too), then, to clear, tap "Clear all"."""
        if not shade(state)["open"]:
            return pull_down_shade()
        button = find(elements, text="Clear all")
        return tap(button) if button is not None else pull_down_shade()
