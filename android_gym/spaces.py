"""Observation spaces: a fixed-size screenshot, the goal text, and fixed-size arrays of UI elements.

Variable-size data (the element list itself, XML) goes in `info`; everything here has a fixed shape so that
vectorised envs, replay buffers and SB3 can stack it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces
from pydantic import Field, model_validator

from android_gym.actions import TEXT_CHARSET
from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError
from android_gym.ui import UIElement

GOAL_MAX_LENGTH = 1024
"""Longest goal the `goal` Text space admits (characters): World's three-part chains reach about 280, AndroidWorld's
goals that spell out three recipes as CSV about 870."""
GOAL_CHARSET = TEXT_CHARSET + "\n"
"""Characters a goal may hold: printable ASCII, and line breaks (AndroidWorld's goals write tables as CSV lines)."""
ELEMENT_FLAGS = ("clickable", "focusable", "focused", "scrollable", "checkable", "checked")
ELEMENT_CLASSES = ("other", "TextView", "Button", "ImageButton", "ImageView", "EditText", "Switch", "CheckBox",
                   "RadioButton", "FrameLayout", "LinearLayout", "RelativeLayout", "RecyclerView", "ListView",
                   "ScrollView", "WebView", "View", "ViewGroup", "ProgressBar", "ToggleButton", "Spinner")
"""Vocabulary of `element_class`: the simple class names of common Android widgets; anything else is "other"."""
_CLASS_ID = {name: i for i, name in enumerate(ELEMENT_CLASSES)}


def class_id(cls: str) -> int:
    """The vocabulary id of an Android class name (its last dotted part), 0 for unknown.

    >>> class_id("android.widget.EditText"), class_id("com.example.Fancy")
    (5, 0)
    """
    return _CLASS_ID.get(cls.rsplit(".", 1)[-1], 0)


class ObservationConfig(ConfigModel):
    """What an observation holds.

    Attributes:
        screenshot_width: width in pixels of the `screenshot` (height keeps the screen's aspect); 0 for none.
        include_elements: whether the fixed-size UI-element arrays are included.
        max_elements: rows of the element arrays (K); further elements are dropped (still listed in `info`).
        element_text_len: bytes of UTF-8 label kept per element (L).
    """

    screenshot_width: int = 224
    include_elements: bool = True
    max_elements: int = Field(default=48, ge=1)
    element_text_len: int = Field(default=32, ge=1)

    @model_validator(mode="after")
    def _check(self) -> ObservationConfig:
        if not (self.screenshot_width == 0 or 16 <= self.screenshot_width <= 1080):
            raise FieldError("screenshot_width", "0 (no screenshot) or 16..1080 pixels", self.screenshot_width)
        if self.screenshot_width == 0 and not self.include_elements:
            raise ConfigError("an observation needs a screenshot (`screenshot_width` > 0) or `include_elements=True`")
        return self


class ObservationEncoder:
    """Builds the observation space for a screen size and encodes device output into it."""

    def __init__(self, config: ObservationConfig, screen_size: tuple[int, int]) -> None:
        self.config = config
        self.screen_size = screen_size
        w, h = screen_size
        self.screenshot_shape = (round(config.screenshot_width * h / w), config.screenshot_width, 3)
        entries: dict[str, spaces.Space] = {}
        if config.screenshot_width:
            entries["screenshot"] = spaces.Box(0, 255, self.screenshot_shape, np.uint8)
        entries["goal"] = spaces.Text(GOAL_MAX_LENGTH, min_length=1, charset=GOAL_CHARSET)
        if config.include_elements:
            k, length = config.max_elements, config.element_text_len
            entries["element_mask"] = spaces.MultiBinary(k)
            entries["element_boxes"] = spaces.Box(0.0, 1.0, (k, 4), np.float32)
            entries["element_class"] = spaces.Box(0, len(ELEMENT_CLASSES) - 1, (k,), np.int64)
            entries["element_flags"] = spaces.MultiBinary((k, len(ELEMENT_FLAGS)))
            entries["element_text"] = spaces.Box(0, 255, (k, length), np.uint8)
        self.space = spaces.Dict(entries)
        self._last_elements: tuple[Sequence[UIElement], dict[str, np.ndarray]] | None = None

    def encode(self, goal: str, elements: Sequence[UIElement], screenshot: np.ndarray | None) -> dict:
        """One observation. `screenshot` must already be `screenshot_shape` when screenshots are on."""
        obs: dict = {}
        if self.config.screenshot_width:
            if screenshot is None or screenshot.shape != self.screenshot_shape:
                raise ConfigError(f"screenshot must have shape {self.screenshot_shape}, got "
                                  f"{None if screenshot is None else screenshot.shape}")
            obs["screenshot"] = np.array(screenshot)  # a copy: the device caches (read-only) frames
        obs["goal"] = goal
        if self.config.include_elements:
            obs.update(self.encode_elements(elements))
        return obs

    def encode_elements(self, elements: Sequence[UIElement]) -> dict[str, np.ndarray]:
        """The fixed-size element arrays (boxes as screen fractions, class ids, flags, UTF-8 labels).

        Devices return the same list object while the screen is unchanged, so the last encoding is reused (copied).
        """
        if self._last_elements is None or self._last_elements[0] is not elements:
            self._last_elements = (elements, self._encode_elements(elements))
        return {key: value.copy() for key, value in self._last_elements[1].items()}

    def _encode_elements(self, elements: Sequence[UIElement]) -> dict[str, np.ndarray]:
        k, length = self.config.max_elements, self.config.element_text_len
        w, h = self.screen_size
        shown = elements[:k]
        n = len(shown)
        mask = np.zeros(k, np.int8)
        mask[:n] = 1
        boxes = np.zeros((k, 4), np.float32)
        classes = np.zeros(k, np.int64)
        flags = np.zeros((k, len(ELEMENT_FLAGS)), np.int8)
        text = np.zeros((k, length), np.uint8)
        if n:
            boxes[:n] = np.array([e.bounds for e in shown], np.float32) / np.array([w, h, w, h], np.float32)
            np.clip(boxes, 0.0, 1.0, out=boxes)
            classes[:n] = [class_id(e.cls) for e in shown]
            flags[:n] = [(e.clickable, e.focusable, e.focused, e.scrollable, e.checkable, e.checked) for e in shown]
            raw = b"".join(e.label.encode("utf-8")[:length].ljust(length, b"\0") for e in shown)
            text[:n] = np.frombuffer(raw, np.uint8).reshape(n, length)
        return {"element_mask": mask, "element_boxes": boxes, "element_class": classes, "element_flags": flags,
                "element_text": text}
