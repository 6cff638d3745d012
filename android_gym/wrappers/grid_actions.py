"""`GridActions`: a MultiDiscrete action space (action kind x screen cell x goal span) for discrete-action agents."""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from android_gym.actions import Action, ActionType

KINDS = ("tap", "type", "back", "home", "enter", "scroll_down", "scroll_up")
DECLARE_KINDS = ("answer", "impossible")
"""Kinds added by `declare=True`: answer with the text of the element in the cell; declare the task impossible."""
_STRIP = re.compile(r"^[^\w]+|[^\w]+$")


def goal_words(goal: str) -> list[str]:
    """The goal's words with surrounding punctuation stripped (what TYPE spans are made of).

    >>> goal_words("Go to amazon.com, search for 'usb-c cable'")
    ['Go', 'to', 'amazon.com', 'search', 'for', 'usb-c', 'cable']
    """
    return [w for w in (_STRIP.sub("", t) for t in goal.split()) if w]


class GridActions(gym.ActionWrapper):
    """Actions as [kind, cell, span]: a kind from `KINDS`, a tap cell of a `grid` over the screen, and a goal span.

    `cell` indexes a cols x rows grid (row-major) and taps the cell's centre; `span` = start * max_span + (length - 1)
    types goal words [start, start + length). Components a kind does not use are ignored. With `declare`, two more
    kinds (`DECLARE_KINDS`) serve suites with answer and infeasible tasks: "answer" declares the task complete with
    the text of the smallest element with text under the cell's centre, "impossible" declares it impossible.

    >>> import android_gym, gymnasium as gym
    >>> env = GridActions(gym.make("android_gym/General-v0", screenshot_width=0))
    >>> env.action_space
    MultiDiscrete([  7 128  64])
    """

    def __init__(self, env: gym.Env, grid: tuple[int, int] = (8, 16), max_words: int = 16, max_span: int = 4,
                 declare: bool = False) -> None:
        super().__init__(env)
        self.grid, self.max_words, self.max_span = grid, max_words, max_span
        self.kinds = KINDS + (DECLARE_KINDS if declare else ())
        self.action_space = spaces.MultiDiscrete([len(self.kinds), grid[0] * grid[1], max_words * max_span])

    def action(self, action: Any) -> Action:
        """Decode one MultiDiscrete action into an env `Action`."""
        kind, cell, span = (int(v) for v in np.asarray(action).reshape(-1)[:3])
        name = self.kinds[kind]
        cols, rows = self.grid
        x, y = (cell % cols + 0.5) / cols, (cell // cols + 0.5) / rows
        if name == "tap":
            return Action.tap(x, y)
        if name == "answer":
            return self._answer_at(x, y)
        if name == "impossible":
            return Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
        if name == "type":
            start, length = divmod(span, self.max_span)
            words = goal_words(self.env.unwrapped.task.goal)[start: start + length + 1]
            return Action.type(" ".join(words)) if words else Action.invalid("TYPE span is past the goal's end")
        if name == "scroll_down":
            return Action.swipe(0.5, 0.7, 0.5, 0.35)
        if name == "scroll_up":
            return Action.swipe(0.5, 0.35, 0.5, 0.7)
        return Action.key({"back": ActionType.PRESS_BACK, "home": ActionType.PRESS_HOME,
                           "enter": ActionType.PRESS_ENTER}[name])

    def _answer_at(self, x: float, y: float) -> Action:
        """Declare the task complete with the text of the smallest element with text whose box holds (x, y)."""
        device = self.env.unwrapped.device
        width, height = device.screen_size
        px, py = x * width, y * height
        under = [e for e in device.ui_elements() if e.text.strip() and e.bounds[0] <= px <= e.bounds[2]
                 and e.bounds[1] <= py <= e.bounds[3]]
        if not under:
            return Action.invalid("ANSWER at a cell with no text under it")
        smallest = min(under, key=lambda e: (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]))
        return Action(ActionType.STATUS_TASK_COMPLETE, text=smallest.text.strip())
