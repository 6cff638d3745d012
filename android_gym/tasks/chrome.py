"""Chrome's own tasks: open a new tab, or a new incognito tab (AitW General's "Open a new Chrome incognito window").

A phone's Chrome has tabs, not windows, so "window" goals are the same task. Success: Chrome in front with its menu
closed, on a loaded page of a tab opened this episode, incognito exactly when asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import find, tap, wait
from android_gym.tasks.web_expert import CHROME, browser
from android_gym.ui import UIElement


class NewTabTemplate(TaskTemplate):
    """Open a new (incognito) tab in Chrome."""

    name, suite = "chrome_new_tab", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """The two kinds of tab, each in the split its key falls in."""
        return [{"incognito": v} for v in (False, True) if split_of(f"tab:{v}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Open a new {'incognito ' if params['incognito'] else ''}tab in Chrome"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """A tab opened this episode is in front, loaded, with the menu closed, incognito as asked."""
        b = browser(state)
        return (state.get("foreground") == CHROME and not b["menu_open"] and not b["loading"]
                and (b["tab"] or 0) >= 1 and b["incognito"] == params["incognito"])

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Chrome, then More options, then the menu's "New (incognito) tab"."""
        step = into_app("Chrome", CHROME, elements, state)
        if step is not None:
            return step
        if browser(state)["menu_open"]:
            row = find(elements, text="New incognito tab" if params["incognito"] else "New tab")
            return tap(row) if row is not None else wait()
        menu = find(elements, desc="More options")
        return tap(menu) if menu is not None else wait()
