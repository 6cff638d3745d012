"""Screenshot helpers shared by the judges: validation, resizing, PNG data URLs, hashing and change detection."""

from __future__ import annotations

import base64
import hashlib
import io

import numpy as np
from PIL import Image

MIN_SIDE_PX = 8
"""Smallest screenshot side a judge accepts, in pixels (smaller images carry nothing a model could read)."""

MAX_SIDE_PX = 8192
"""Largest screenshot side a judge accepts, in pixels (larger ones are a caller bug, not a phone)."""


def screenshot_problem(shot: object) -> str | None:
    """Why `shot` is not a usable screenshot, or None when it is a uint8 (H, W, 3) array of sane size.

    >>> screenshot_problem(np.zeros((16, 8, 3), np.uint8)) is None
    True
    >>> screenshot_problem(np.zeros((16, 8), np.uint8))
    'screenshot must be uint8 (H, W, 3) RGB, got shape (16, 8)'
    >>> screenshot_problem(np.zeros((2, 2, 3), np.uint8))
    'screenshot must be 8..8192 pixels on each side, got 2 x 2 (W x H)'
    """
    if not isinstance(shot, np.ndarray):
        return f"screenshot must be a numpy array, got {type(shot).__name__}"
    if shot.ndim != 3 or shot.shape[2] != 3:
        return f"screenshot must be uint8 (H, W, 3) RGB, got shape {tuple(shot.shape)}"
    if shot.dtype != np.uint8:
        return f"screenshot must be uint8, got {shot.dtype}"
    height, width = shot.shape[:2]
    if not (MIN_SIDE_PX <= height <= MAX_SIDE_PX and MIN_SIDE_PX <= width <= MAX_SIDE_PX):
        return f"screenshot must be {MIN_SIDE_PX}..{MAX_SIDE_PX} pixels on each side, got {width} x {height} (W x H)"
    return None


def to_pil(shot: np.ndarray, width: int | None = None) -> Image.Image:
    """`shot` as a PIL RGB image, resized to `width` pixels wide (aspect kept) when given and different."""
    image = Image.fromarray(np.ascontiguousarray(shot), "RGB")
    if width is not None and width != image.width:
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.Resampling.BILINEAR)
    return image


def to_data_url(shot: np.ndarray, width: int | None = None, image_format: str = "png") -> str:
    """`shot` encoded as a `data:image/...;base64,` URL (what OpenAI-compatible servers accept as an image).

    >>> to_data_url(np.zeros((8, 8, 3), np.uint8))[:22]
    'data:image/png;base64,'
    """
    buffer = io.BytesIO()
    kind = "jpeg" if image_format.lower() in ("jpg", "jpeg") else "png"
    to_pil(shot, width).save(buffer, format=kind.upper())
    return f"data:image/{kind};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def screen_hash(shot: np.ndarray) -> str:
    """A digest of the pixels and shape: equal for identical screens, different otherwise (blake2b, 128 bits).

    >>> screen_hash(np.zeros((8, 8, 3), np.uint8)) == screen_hash(np.zeros((8, 8, 3), np.uint8))
    True
    """
    digest = hashlib.blake2b(np.ascontiguousarray(shot).data, digest_size=16)
    digest.update(repr(shot.shape).encode())
    return digest.hexdigest()


def changed_fraction(a: np.ndarray, b: np.ndarray, tolerance: int = 0, skip_top_fraction: float = 0.0) -> float:
    """Fraction of pixels (in [0, 1]) where any channel differs by more than `tolerance` intensity levels.

    Screens of different shapes count as entirely changed. `skip_top_fraction` of the rows (a real phone's status bar
    with its clock) is left out of the comparison.

    >>> a = np.zeros((10, 10, 3), np.uint8); b = a.copy(); b[0, :5] = 255
    >>> changed_fraction(a, b), changed_fraction(a, b, skip_top_fraction=0.1)
    (0.05, 0.0)
    """
    if a.shape != b.shape:
        return 1.0
    top = int(a.shape[0] * skip_top_fraction)
    a, b = a[top:], b[top:]
    if a.size == 0:
        return 0.0
    if tolerance <= 0:
        differs = (a != b).any(axis=-1)
    else:
        differs = (np.abs(a.astype(np.int16) - b.astype(np.int16)) > tolerance).any(axis=-1)
    return float(differs.mean())
