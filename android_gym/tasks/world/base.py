"""The World suite's kit in one place (issue 48): `WorldTemplate`, the base of every World template; the types its
methods take; and the expert steps every app's expert is built from.

A new template starts here: subclass `WorldTemplate`, fill `grid()` (every parameter dict, both splits),
`phrasings`, `initial(params)` (the app's `initial_model` data), `check(params, state)` (reading app state with
`state_of(state, App.state_schema)`), and an `expert` made of the steps below (`find`/`press` an element, `fill` a
field, get `into_app` past pop-ups, `leave` a menu, `swipe_up`/`swipe_down`, `wait`). App-specific steps live in the
app's `<app>_expert` module beside its templates.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.ui import UIElement

__all__ = ["Elements", "Params", "State", "WorldTemplate", "back", "fill", "find", "into_app", "leave", "nth",
           "press", "state_of", "swipe_down", "swipe_up", "tap", "wait"]

State = Mapping[str, Any]
"""The device state a check or an expert reads (`SimPhone.state()`; apps' parts through `state_of`)."""
Params = Mapping[str, Any]
"""One task's parameters (an entry of `grid()`)."""
Elements = Sequence[UIElement]
"""The screen's UI elements, as a real device reports them."""


def nth(pool: Sequence[Any], i: int) -> Any:
    """The `i`-th value of `pool`, cycling (how grids rotate names, texts and phrasings through their entries).

    >>> nth(("a", "b", "c"), 4)
    'b'
    """
    return pool[i % len(pool)]


class WorldTemplate(TaskTemplate):
    """A World-suite template: the phrasing picker, and `values` from `grid()` split on the `split_key` param."""

    suite = "world"
    phrasings: tuple[str, ...] = ()
    split_key = "title"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict of the template, both splits."""
        raise NotImplementedError

    def values(self, split: str) -> list[dict[str, Any]]:
        """The `grid()` entries whose `split_key` value `split_of` puts in `split`."""
        return [p for p in self.grid() if split_of(p[self.split_key]) == split]

    def goal(self, params: Params) -> str:
        """The instruction, in the phrasing `params["phrasing"]` picks."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(**params)


def leave(elements: Elements) -> Action:
    """Close an app's menu or dialog: its Cancel, else BACK."""
    cancel = find(elements, text="Cancel", clickable=True)
    return tap(cancel) if cancel is not None else back()


def press(elements: Elements, **criteria: Any) -> Action:
    """Tap the first element matching `criteria` (wait when it is not there yet)."""
    e = find(elements, **criteria)
    return tap(e) if e is not None else wait()
