"""`SharedRenderer`: one `Renderer` behind a lock, for many phones of one process (the ADB front's)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np


class SharedRenderer:
    """Renders for any number of phones, one screen at a time, with one set of caches.

    Why: a `Renderer` at the ADB front's full resolution keeps up to ~80 MiB of cached glyphs and container patches;
    one per phone made a front of 24 phones hold gigabytes (the soak benchmark, issue 20), while phones of one front
    draw the same widgets and share cache entries well. The renderer is built on first use.

    Guarantees: the pixels are those `Renderer.render` gives (its caches key on view contents, so sharing changes no
    pixel); calls from several threads are serialised.
    """

    def __init__(self) -> None:
        self._renderer: Any = None
        self._lock = threading.Lock()

    def render(self, tree: Any, width: int, dark: bool = False) -> np.ndarray:
        """`Renderer.render(tree, width, dark)` (read-only uint8 RGB)."""
        with self._lock:
            if self._renderer is None:
                from android_gym.sim.render.renderer import Renderer

                self._renderer = Renderer()
            return self._renderer.render(tree, width, dark=dark)
