"""Files app tasks: open a category of files (AitW General's "Open the downloads").

Success: the Files app in front on that category's list (or on one of its files).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, tap, wait
from android_gym.ui import UIElement


class FileCategoryTemplate(TaskTemplate):
    """Open my {category} (Downloads, Images, ...) in Files."""

    name, suite = "files_category", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every category of the split."""
        return [{"category": c} for c in files.CATEGORIES if split_of(f"files:{c}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Open my {params['category'].lower()} in Files"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Files in front on the category."""
        return (state.get("foreground") == files.PACKAGE
                and state_of(state, files.FilesState)["category"] == params["category"])

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Files and tap the category."""
        step = into_app("Files", files.PACKAGE, elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] != "home":
            return back()
        row = find(elements, desc=params["category"])
        return tap(row) if row is not None else wait()
