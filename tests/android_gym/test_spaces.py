"""Tests of the observation encoding: fixed shapes, element arrays, caching, and config validation."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.errors import ConfigError
from android_gym.spaces import ELEMENT_FLAGS, ObservationConfig, ObservationEncoder, class_id
from android_gym.ui import UIElement


def element(i: int, label: str = "OK", **flags: bool) -> UIElement:
    """A UI element in the top-left of a 1080x2400 screen."""
    return UIElement(i, "android.widget.Button", (0, 0, 540, 1200), text=label, **flags)


def test_encoding_fills_rows_in_order_and_masks_the_rest():
    """Rows hold boxes as screen fractions, class ids, flags and UTF-8 labels; padding rows are masked out."""
    enc = ObservationEncoder(ObservationConfig(screenshot_width=0, max_elements=4, element_text_len=8), (1080, 2400))
    obs = enc.encode("go", [element(0, "Café", clickable=True), element(1, "x" * 20, checked=True)], None)
    assert obs["element_mask"].tolist() == [1, 1, 0, 0]
    assert np.allclose(obs["element_boxes"][0], [0, 0, 0.5, 0.5])
    assert obs["element_class"][0] == class_id("android.widget.Button")
    assert obs["element_flags"][0, ELEMENT_FLAGS.index("clickable")] == 1
    assert obs["element_flags"][1, ELEMENT_FLAGS.index("checked")] == 1
    assert bytes(obs["element_text"][0]).rstrip(b"\0").decode() == "Café"
    assert bytes(obs["element_text"][1]) == b"x" * 8  # clipped to element_text_len bytes
    assert enc.space.contains(obs)


def test_more_elements_than_rows_are_dropped_not_an_error():
    """Extra elements beyond max_elements are left out of the arrays."""
    enc = ObservationEncoder(ObservationConfig(screenshot_width=0, max_elements=2), (1080, 2400))
    obs = enc.encode("go", [element(i) for i in range(5)], None)
    assert obs["element_mask"].sum() == 2


def test_repeated_encoding_of_one_screen_returns_fresh_equal_arrays():
    """The cache reuses the encoding of an unchanged element list but never hands out the same array twice."""
    enc = ObservationEncoder(ObservationConfig(screenshot_width=0), (1080, 2400))
    elements = [element(0)]
    a, b = enc.encode_elements(elements), enc.encode_elements(elements)
    assert all(np.array_equal(a[k], b[k]) and a[k] is not b[k] for k in a)
    a["element_mask"][0] = 0
    assert enc.encode_elements(elements)["element_mask"][0] == 1


def test_screenshot_shape_is_checked():
    """A screenshot of the wrong shape is refused with the expected shape in the message."""
    enc = ObservationEncoder(ObservationConfig(screenshot_width=32), (1080, 2400))
    assert enc.screenshot_shape == (71, 32, 3)
    with pytest.raises(ConfigError, match=r"\(71, 32, 3\)"):
        enc.encode("go", [], np.zeros((10, 10, 3), np.uint8))


@pytest.mark.parametrize("kwargs", [{"screenshot_width": 8}, {"max_elements": 0},
                                    {"screenshot_width": 0, "include_elements": False}])
def test_bad_observation_config_raises(kwargs):
    """Impossible observation configs are refused at construction."""
    with pytest.raises(ConfigError):
        ObservationConfig(**kwargs)
