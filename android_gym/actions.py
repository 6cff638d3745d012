"""The one canonical phone `Action`, its Gymnasium space, and conversions from dicts.

Coordinates are normalised screen fractions in [0, 1], written (x, y): x from the left edge, y from the top edge.
(The AutoUI/AitW string form writes points as "[y, x]"; `parse_action` converts.)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from gymnasium import spaces

from android_gym.errors import ConfigError

TEXT_MAX_LENGTH = 100
"""Longest `text` the Gymnasium action space admits (characters); longer text from `Action` objects is accepted."""

TEXT_CHARSET = "".join(chr(c) for c in range(32, 127))
"""Printable ASCII: the charset of the action space's `text` (Gymnasium's default is letters and digits only)."""

TAP_DISTANCE = 0.04
"""A DUAL_POINT whose touch and lift are closer than this (screen fraction) is a tap, else a swipe (AitW rule)."""


class ActionType(enum.IntEnum):
    """What an action does; the integer values index the `action_type` Discrete space."""

    DUAL_POINT = 0  # tap (touch == lift) or swipe (touch -> lift)
    TYPE = 1  # type `text` into the focused field
    PRESS_BACK = 2
    PRESS_HOME = 3
    PRESS_ENTER = 4
    STATUS_TASK_COMPLETE = 5  # the agent declares the task done (text may carry an answer)
    STATUS_TASK_IMPOSSIBLE = 6
    LONG_PRESS = 7  # press and hold at `touch`
    OPEN_APP = 8  # launch the app named in `text` (AndroidWorld's open_app)
    WAIT = 9  # do nothing this step


_NO_POINT = (-1.0, -1.0)


@dataclass(frozen=True)
class Action:
    """One agent action.

    Attributes:
        action_type: what to do.
        touch: (x, y) screen fraction where the finger goes down; (-1, -1) when unused.
        lift: (x, y) screen fraction where the finger lifts; equal to `touch` for a tap.
        text: text to type (TYPE), app name (OPEN_APP) or answer (STATUS_TASK_COMPLETE).
        element: index of a UI element to act on instead of `touch` (AndroidWorld's `index`); -1 when unused.
        parse_error: set when the action came from model output that could not be parsed; such an action is
            executed as a no-op and reported invalid in `info`.
        raw: the model output it was parsed from, kept for logs.
    """

    action_type: ActionType
    touch: tuple[float, float] = _NO_POINT
    lift: tuple[float, float] = _NO_POINT
    text: str = ""
    element: int = -1
    parse_error: str | None = field(default=None, compare=False)
    raw: str | None = field(default=None, compare=False, repr=False)

    @property
    def is_parsed(self) -> bool:
        """Whether the action was understood (no parse error)."""
        return self.parse_error is None

    @property
    def is_tap(self) -> bool:
        """Whether this DUAL_POINT is a tap (touch and lift closer than `TAP_DISTANCE`)."""
        if self.action_type != ActionType.DUAL_POINT:
            return False
        dx, dy = self.lift[0] - self.touch[0], self.lift[1] - self.touch[1]
        return (dx * dx + dy * dy) ** 0.5 < TAP_DISTANCE

    # -- constructors -------------------------------------------------------------------------------------------------
    @classmethod
    def tap(cls, x: float, y: float) -> Action:
        """A tap at (x, y) screen fractions.

        >>> Action.tap(0.5, 0.25).is_tap
        True
        """
        return cls(ActionType.DUAL_POINT, (float(x), float(y)), (float(x), float(y)))

    @classmethod
    def swipe(cls, x0: float, y0: float, x1: float, y1: float) -> Action:
        """A swipe from (x0, y0) to (x1, y1) screen fractions."""
        return cls(ActionType.DUAL_POINT, (float(x0), float(y0)), (float(x1), float(y1)))

    @classmethod
    def type(cls, text: str) -> Action:
        """Type `text` into the focused field."""
        return cls(ActionType.TYPE, text=text)

    @classmethod
    def key(cls, action_type: ActionType) -> Action:
        """A key or status action (BACK, HOME, ENTER, COMPLETE, IMPOSSIBLE, WAIT)."""
        return cls(ActionType(action_type))

    @classmethod
    def invalid(cls, reason: str, raw: str | None = None) -> Action:
        """An action that could not be parsed: executed as a no-op and flagged invalid."""
        return cls(ActionType.WAIT, parse_error=reason, raw=raw)

    def with_element(self, element: int) -> Action:
        """The same action aimed at UI element `element`."""
        return replace(self, element=int(element))

    # -- conversions --------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The action as a sample of `action_space()` (points as float32 arrays, text clipped to the space).

        >>> Action.type("hi").to_dict()["action_type"]
        1
        """
        def point(p: tuple[float, float]) -> np.ndarray:
            return np.clip(np.asarray(p, dtype=np.float32), 0.0, 1.0)

        text = "".join(ch for ch in self.text if ch in _CHARSET_SET)[:TEXT_MAX_LENGTH]
        return {"action_type": int(self.action_type), "touch": point(self.touch), "lift": point(self.lift),
                "text": text}

    @classmethod
    def from_any(cls, action: Any) -> Action:
        """Coerce a structured env action: an `Action` or a dict sample of `action_space()`.

        Model output text is `android_gym.parse_action`'s job (the env's `step` calls it for a str).

        Raises:
            ConfigError: `action` is neither, or a dict with an unknown key or a bad value.
        """
        if isinstance(action, Action):
            return action
        if isinstance(action, dict):
            return cls._from_dict(action)
        if isinstance(action, str):
            raise ConfigError("`action` is text: parse model output with android_gym.parse_action(text)")
        raise ConfigError(f"`action` must be an Action, a dict from action_space() or a model output string, "
                          f"got {type(action).__name__}")

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> Action:
        unknown = set(d) - {"action_type", "touch", "lift", "text", "element"}
        if unknown:
            raise ConfigError(f"`action` has unknown keys {sorted(unknown)}; expected action_type, touch, lift, text")
        try:
            kind = ActionType(int(d["action_type"]))
        except (KeyError, ValueError, TypeError) as e:
            raise ConfigError(f"`action['action_type']` must be an int in 0..{len(ActionType) - 1}, got "
                              f"{d.get('action_type')!r}") from e
        text = d.get("text", "")
        if not isinstance(text, str):
            raise ConfigError(f"`action['text']` must be a str, got {type(text).__name__}")
        return cls(kind, _point(d.get("touch", _NO_POINT), "touch"), _point(d.get("lift", _NO_POINT), "lift"),
                   text, int(d.get("element", -1)))


_CHARSET_SET = frozenset(TEXT_CHARSET)


def _point(p: Any, name: str) -> tuple[float, float]:
    try:
        arr = np.asarray(p, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"`action['{name}']` must be two numbers (x, y), got {p!r}") from e
    if arr.shape != (2,):
        raise ConfigError(f"`action['{name}']` must be two numbers (x, y), got shape {arr.shape}")
    return float(arr[0]), float(arr[1])


def action_space() -> spaces.Dict:
    """The Gymnasium space of actions: a Dict of action_type, touch, lift (x, y fractions) and text.

    >>> sorted(action_space().spaces)
    ['action_type', 'lift', 'text', 'touch']
    """
    point = spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32)
    return spaces.Dict({
        "action_type": spaces.Discrete(len(ActionType)),
        "touch": point,
        "lift": spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32),
        "text": spaces.Text(max_length=TEXT_MAX_LENGTH, min_length=0, charset=TEXT_CHARSET),
    })

