"""The Device contract: what the env needs from a phone, with the rules every implementation shares.

Public methods hold the shared rules (argument checks, action mapping, error wrapping); subclasses fill in the
`_*_impl` methods. Coordinates at this interface are screen fractions in [0, 1]; implementations convert to pixels.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.errors import ConfigError, DeviceError, UnsupportedError
from android_gym.ui import UIElement

KEYS = {ActionType.PRESS_BACK: "back", ActionType.PRESS_HOME: "home", ActionType.PRESS_ENTER: "enter"}


@dataclass(frozen=True)
class Outcome:
    """What performing an action did.

    Attributes:
        is_valid: the action was well-formed and applicable (parsed, coordinates on screen, text where text is
            needed, an element index that exists, a focused field to type into).
        had_effect: the screen or state changed; None where the device cannot tell.
        reason: why the action was invalid or ineffective ("" when it was fine).
    """

    is_valid: bool
    had_effect: bool | None
    reason: str = ""


class Device(abc.ABC):
    """A phone the env can drive: screenshots, UI elements, touches, keys, app launches, state queries.

    Callers must `start()` (or use `with`) before anything else and `close()` at the end. Methods raise
    `DeviceError` subclasses on faults (offline, timeout, garbage); the env turns those into truncated episodes.
    """

    screen_size: tuple[int, int] = (1080, 2400)

    # -- lifecycle ----------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect to or boot the device (idempotent)."""

    def close(self) -> None:
        """Release the device (idempotent)."""

    def __enter__(self) -> Device:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abc.abstractmethod
    def reset(self, seed: int, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Bring the device to a clean home screen with `initial` conditions; `seed` fixes a simulated world."""

    def health(self) -> bool:
        """Whether the device answers; never raises."""
        try:
            self.ui_elements()
            return True
        except DeviceError:
            return False

    def tick(self) -> None:
        """End of an agent step (simulated devices advance spinners and pop-ups; real ones do nothing)."""

    # -- observations --------------------------------------------------------------------------------------------------
    @abc.abstractmethod
    def screenshot(self, width: int | None = None) -> np.ndarray:
        """The screen as uint8 RGB (H, W, 3), resized to `width` pixels wide (aspect kept) when given."""

    @abc.abstractmethod
    def ui_elements(self) -> list[UIElement]:
        """The interesting UI elements of the screen, in document order."""

    @abc.abstractmethod
    def ui_xml(self) -> str:
        """The screen's view hierarchy as `uiautomator dump` XML."""

    def state(self) -> dict[str, Any]:
        """Device state for task checks (what a real device can report: foreground app, settings, ...)."""
        raise UnsupportedError(f"{type(self).__name__} cannot report state; use an MLLM evaluator instead")

    # -- inputs --------------------------------------------------------------------------------------------------------
    def perform(self, action: Action) -> Outcome:
        """Execute an agent action and say whether it was valid and had an effect.

        Never raises for bad agent input (that is an invalid `Outcome`); raises `DeviceError` on device faults.
        """
        if not action.is_parsed:
            return Outcome(False, False, f"unparsable action: {action.parse_error}")
        kind = action.action_type
        if kind in (ActionType.DUAL_POINT, ActionType.LONG_PRESS):
            return self._perform_touch(action)
        if kind == ActionType.TYPE:
            if not isinstance(action.text, str) or not action.text:
                return Outcome(False, False, "TYPE with empty text")
            if action.element >= 0:
                focus = self._perform_touch(Action.tap(-1, -1).with_element(action.element))
                if not focus.is_valid:
                    return focus
            if not any(e.focused and e.cls.endswith("EditText") for e in self.ui_elements()):
                return Outcome(False, False, "TYPE with no focused text field")
            return self._outcome(self._type_impl(action.text))
        if kind in KEYS:
            return self._outcome(self._key_impl(KEYS[kind]))
        if kind == ActionType.OPEN_APP:
            if not action.text:
                return Outcome(False, False, "OPEN_APP without an app name")
            try:
                return self._outcome(self._launch_impl(action.text))
            except ConfigError as e:
                return Outcome(False, False, str(e))
        return Outcome(True, False)  # WAIT and STATUS_* do not touch the device

    def _perform_touch(self, action: Action) -> Outcome:
        if action.element >= 0:
            elements = self.ui_elements()
            if action.element >= len(elements):
                return Outcome(False, False, f"element {action.element} does not exist ({len(elements)} on screen)")
            w, h = self.screen_size
            cx, cy = elements[action.element].center
            touch = lift = (cx / w, cy / h)
        else:
            touch, lift = action.touch, action.lift
        for name, (x, y) in (("touch", touch), ("lift", lift)):
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0) or not np.isfinite([x, y]).all():
                return Outcome(False, False, f"{name} point ({x}, {y}) is outside the screen [0, 1]^2")
        px = self._to_pixels(*touch)
        if action.action_type == ActionType.LONG_PRESS:
            return self._outcome(self._long_press_impl(*px))
        if action.element >= 0 or Action(ActionType.DUAL_POINT, touch, lift).is_tap:
            return self._outcome(self._tap_impl(*px), "tap on nothing")
        return self._outcome(self._swipe_impl(*px, *self._to_pixels(*lift)), "swipe moved nothing")

    def _to_pixels(self, x: float, y: float) -> tuple[int, int]:
        w, h = self.screen_size
        return min(w - 1, int(x * w)), min(h - 1, int(y * h))

    @staticmethod
    def _outcome(had_effect: bool | None, reason: str = "no effect") -> Outcome:
        return Outcome(True, had_effect, "" if had_effect or had_effect is None else reason)

    @abc.abstractmethod
    def _tap_impl(self, x: int, y: int) -> bool | None: ...

    @abc.abstractmethod
    def _swipe_impl(self, x0: int, y0: int, x1: int, y1: int) -> bool | None: ...

    @abc.abstractmethod
    def _type_impl(self, text: str) -> bool | None: ...

    @abc.abstractmethod
    def _key_impl(self, key: str) -> bool | None: ...

    def _long_press_impl(self, x: int, y: int) -> bool | None:
        raise UnsupportedError(f"{type(self).__name__} does not support LONG_PRESS")

    def _launch_impl(self, app: str) -> bool | None:
        raise UnsupportedError(f"{type(self).__name__} cannot launch apps by name")
