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
from functools import cache
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.base import SPLITS, TaskTemplate
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.splits import split_by_goal
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
    """A World-suite template: the phrasing picker, and `values` from `grid()` split by the goal rule.

    The split (`android_gym.tasks.splits`): instances sharing a goal text, in any phrasing, are one unit; a unit goes
    where `split_of` puts its `split_value`, so no goal of "test" is ever a goal of "train" (issue 50).
    """

    suite = "world"
    phrasings: tuple[str, ...] = ()
    split_key = "title"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict of the template, both splits."""
        raise NotImplementedError

    def split_value(self, params: Params) -> object:
        """What `split_of` hashes for an instance: its `split_key` parameter."""
        return params[self.split_key]

    def rewordings(self, params: Params) -> list[Params]:
        """The same instance in every phrasing (only itself when the goal has no "phrasing" parameter)."""
        if "phrasing" not in params or not self.phrasings:
            return [params]
        return [{**params, "phrasing": k} for k in range(len(self.phrasings))]

    def values(self, split: str) -> list[dict[str, Any]]:
        """The `grid()` entries of `split`, in grid order (see the class docstring)."""
        return _split_table(self)[split]

    def goal(self, params: Params) -> str:
        """The instruction, in the phrasing `params["phrasing"]` picks."""
        return self.phrasings[params["phrasing"] % len(self.phrasings)].format(**params)


@cache
def _split_table(template: WorldTemplate) -> dict[str, list[dict[str, Any]]]:
    """`template`'s grid cut by the goal rule, once per process (templates are stateless singletons)."""
    parts = split_by_goal(template.grid(), goals=lambda p: [template.goal(p), *map(template.goal,
                                                                                      template.rewordings(p))],
                          key=template.split_value)
    return {s: parts[s] for s in SPLITS}


def leave(elements: Elements) -> Action:
    """Close an app's menu or dialog: its Cancel, else BACK."""
    cancel = find(elements, text="Cancel", clickable=True)
    return tap(cancel) if cancel is not None else back()


def press(elements: Elements, **criteria: Any) -> Action:
    """Tap the first element matching `criteria` (wait when it is not there yet)."""
    e = find(elements, **criteria)
    return tap(e) if e is not None else wait()
