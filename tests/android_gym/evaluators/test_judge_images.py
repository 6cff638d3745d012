"""Screenshot helpers: validation, data URLs, hashes and change detection."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from android_gym.evaluators.images import changed_fraction, screen_hash, screenshot_problem, to_data_url


@pytest.mark.parametrize("shot, message", [
    (None, "numpy array"),
    (np.zeros((32, 32), np.uint8), "shape (32, 32)"),
    (np.zeros((32, 32, 4), np.uint8), "shape (32, 32, 4)"),
    (np.zeros((32, 32, 3), np.float32), "uint8"),
    (np.zeros((4, 32, 3), np.uint8), "8..8192 pixels"),
    (np.zeros((0, 0, 3), np.uint8), "8..8192 pixels"),
])
def test_screenshot_problem_names_what_is_wrong(shot: object, message: str) -> None:
    problem = screenshot_problem(shot)
    assert problem is not None and message in problem


def test_data_url_round_trips_the_pixels_and_resizes() -> None:
    shot = np.random.default_rng(0).integers(0, 256, (40, 20, 3), dtype=np.uint8)
    url = to_data_url(shot)
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert np.array_equal(np.asarray(image), shot)
    small = Image.open(io.BytesIO(base64.b64decode(to_data_url(shot, width=10, image_format="jpeg").split(",")[1])))
    assert small.size == (10, 20) and small.format == "JPEG"


def test_screen_hash_tells_shapes_and_pixels_apart() -> None:
    a = np.zeros((8, 16, 3), np.uint8)
    b = a.copy()
    b[3, 3, 1] = 1
    assert screen_hash(a) == screen_hash(a.copy())
    assert screen_hash(a) != screen_hash(b)
    assert screen_hash(a) != screen_hash(np.zeros((16, 8, 3), np.uint8))


def test_changed_fraction_respects_tolerance_and_status_bar() -> None:
    a = np.full((10, 10, 3), 100, np.uint8)
    b = a.copy()
    b[5:, :, 0] += 5  # half the pixels move by 5 levels
    b[0, 0, 2] = 200  # one status-bar pixel moves a lot
    assert changed_fraction(a, b) == pytest.approx(0.51)
    assert changed_fraction(a, b, tolerance=8) == pytest.approx(0.01)
    assert changed_fraction(a, b, tolerance=8, skip_top_fraction=0.1) == 0.0
    assert changed_fraction(a, np.zeros((5, 5, 3), np.uint8)) == 1.0
