"""Building blocks for expert solvers: find elements, tap them, and get past pop-ups and spinners.

Experts work from the UI elements (what a real device reports) and the device state; they never touch sim internals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.ui import UIElement

DISMISS = ("No thanks", "Not now", "Don\u2019t allow", "Don't allow", "Reject all", "Accept all", "Later")


def app_state(state: Mapping[str, Any], package: str) -> dict[str, Any]:
    """App `package`'s part of the device state (`App.state()`), {} when the device reports none: for tools and tests
    that look at any app by package. Templates read typed state with `android_gym.sim.app_state.state_of`, which
    names a missing app instead of reading it as empty."""  # noqa: D205, D209
    return state.get("apps", {}).get(package) or {}


def find(elements: Sequence[UIElement], *, text: str | None = None, desc: str | None = None, rid: str | None = None,
         cls: str | None = None, contains: str | None = None, clickable: bool | None = None) -> UIElement | None:
    """The first element matching every given criterion (exact text/desc/rid/cls; `contains` on the label)."""
    for e in elements:
        if text is not None and e.text != text:
            continue
        if desc is not None and e.desc != desc:
            continue
        if rid is not None and e.rid != rid:
            continue
        if cls is not None and e.cls != cls:
            continue
        if contains is not None and contains.lower() not in e.label.lower():
            continue
        if clickable is not None and e.clickable != clickable:
            continue
        return e
    return None


def tap(element: UIElement, width: int = WIDTH, height: int = HEIGHT) -> Action:
    """A tap at the element's centre, in screen fractions."""
    x, y = element.center
    return Action.tap(x / width, y / height)


def swipe_up(width: int = WIDTH, height: int = HEIGHT) -> Action:
    """Scroll a list down (finger moves up the middle of the screen)."""
    return Action.swipe(0.5, 0.7, 0.5, 0.35)


def back() -> Action:
    """The BACK key."""
    return Action.key(ActionType.PRESS_BACK)


def home() -> Action:
    """The HOME key."""
    return Action.key(ActionType.PRESS_HOME)


def enter() -> Action:
    """The ENTER key."""
    return Action.key(ActionType.PRESS_ENTER)


def wait() -> Action:
    """Do nothing this step."""
    return Action.key(ActionType.WAIT)


def obstacle(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action | None:
    """The action that gets past a pop-up or a spinner, or None when the screen is clear.

    Pop-ups are dismissed with their dismissive button; a spinner is waited out. The button is looked for in the
    pop-up alone (the views from its title on: it is drawn over everything else), so that an app's own dialog under
    it, with a "Not now" of its own, is not tapped through the pop-up.
    """
    if state.get("dialog"):
        titles = [i for i, e in enumerate(elements) if e.rid == "android:id/alertTitle"]
        popup = elements[titles[-1]:] if titles else elements
        for label in DISMISS:
            e = find(popup, text=label, clickable=True)
            if e is not None:
                return tap(e)
        return back()
    if state.get("screen", {}).get("loading"):
        return wait()
    return None


def fill(elements: Sequence[UIElement], state: Mapping[str, Any], rid: str, text: str,
         missing: Action | None = None) -> Action | None:
    """The next step to make field `rid` hold exactly `text` (focus it, type what is missing, delete a wrong
    character), or None once it does. Unlike `type_into` it never presses ENTER: for forms that end with a button.
    `missing` is what to do when the field is not on screen (default `back()`, which closes a keyboard over it).
    """  # noqa: D205, D209
    screen = state["screen"]
    current = screen["fields"].get(rid, "")
    if current == text:
        return None
    if screen["focus"] != rid:
        field = find(elements, rid=rid)
        return tap(field) if field is not None else (missing or back())
    if text.startswith(current):
        return Action.type(text[len(current):])
    delete = find(elements, desc="Delete")  # wrong text (e.g. a typo by a noisy agent): delete a character
    return tap(delete) if delete is not None else back()


def type_into(elements: Sequence[UIElement], state: Mapping[str, Any], rid: str, text: str) -> Action:
    """Get `text` into field `rid` and submit it: focus it, clear wrong text, type, then press ENTER.

    The caller is on the screen that has the field.
    """
    screen = state["screen"]
    current = screen["fields"].get(rid, "")
    if screen["focus"] != rid:
        field = find(elements, rid=rid)
        return tap(field) if field is not None else back()
    if current == text:
        return enter()
    if text.startswith(current):
        return Action.type(text[len(current):])
    delete = find(elements, desc="Delete")  # wrong text (e.g. a typo by a noisy agent): delete a character
    return tap(delete) if delete is not None else back()
