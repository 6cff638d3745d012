"""The expert steps of the clipboard tasks: long-press a text field, then the text toolbar's "Select all", "Copy"
or "Paste" (`android_gym.sim.clipboard`), and a recurring event made in Calendar's editor. Experts read what a
device reports: the toolbar's buttons among the UI elements, the clipboard in the phone's state."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.clipboard import MENU_RID
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.tasks.expert import find, tap, wait
from android_gym.tasks.world.base import Elements, State, press
from android_gym.tasks.world.calendar_expert import create
from android_gym.ui import UIElement


def clipboard(state: State) -> str:
    """The clipboard's text."""
    return state["clipboard"]["text"]


def long_press(element: UIElement) -> Action:
    """A press-and-hold at the element's centre."""
    x, y = element.center
    return Action(ActionType.LONG_PRESS, (x / WIDTH, y / HEIGHT), (x / WIDTH, y / HEIGHT))


def _toolbar_on(rid: str, state: State) -> bool:
    selection = state["clipboard"]["selection"]
    return selection is not None and selection["field"] == rid


def _hold(rid: str, elements: Elements) -> Action:
    field = find(elements, rid=rid)
    return long_press(field) if field is not None else wait()


def copy_all(rid: str, elements: Elements, state: State) -> Action:
    """The next step to copy all of field `rid`'s text: long-press it, "Select all" (when offered), "Copy"."""
    if not _toolbar_on(rid, state):
        return _hold(rid, elements)
    widen = find(elements, text="Select all", rid=MENU_RID)
    return tap(widen) if widen is not None else press(elements, text="Copy", rid=MENU_RID)


def paste_into(rid: str, elements: Elements, state: State) -> Action:
    """The next step to paste the clipboard into field `rid` (in its selection's place, if any): long-press, Paste."""
    if not _toolbar_on(rid, state):
        return _hold(rid, elements)
    return press(elements, text="Paste", rid=MENU_RID)


def create_repeating(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """Create an event as `calendar_expert.create` does, its repeat rule `want["repeat"]` picked in the editor first
    (its row, then the rule in the menu)."""  # noqa: D205, D209
    screen = state["screen"]
    if state["foreground"] == C.PACKAGE and screen["name"] == "repeat":
        return press(elements, text=C.repeat_label(want["repeat"], screen["args"]["date"]))
    editing = state_of(state, C.CalendarState)["editing"]
    if (state["foreground"] == C.PACKAGE and screen["name"] == "edit" and not state.get("dialog") and editing
            and editing["id"] is None and not screen["args"]["discard"]
            and editing.get("repeat", "") != want["repeat"]):
        return press(elements, rid=C.REPEAT_RID)
    return create({k: v for k, v in want.items() if k != "repeat"}, elements, state)
