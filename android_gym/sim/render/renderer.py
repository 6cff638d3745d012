"""`Renderer`: draws a view tree straight at the screenshot size, caching what repeats across frames.

Three caches make a changing screen cheap: glyph masks per string (FreeType is the slowest step), icons per size, and
whole sub-images of container views (status bar, navigation bar, keyboard, toolbars, rows, cards) keyed by a
structural signature of their subtree. A cached sub-image depends only on its key, never on history, so the same
tree always gives the same pixels.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from PIL import Image

from android_gym.errors import ConfigError
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.sim.render.cache import ImageLRU
from android_gym.sim.render.canvas import Canvas
from android_gym.sim.render.icons import IconCache
from android_gym.sim.render.painters import painter_for
from android_gym.sim.render.text import TextCache
from android_gym.sim.render.theme import DARK, LIGHT, RGB
from android_gym.sim.view import View

MIN_WIDTH, MAX_WIDTH = 16, 2 * WIDTH

# Containers worth caching as one sub-image: they repeat across frames (system bars, keyboard) or move as a unit
# while a list scrolls (rows, cards). Leaf views are cheaper to redraw from cached glyphs than to look up.
CACHED_STYLES = frozenset({"statusbar", "navbar", "keyboard", "toolbar", "row", "card", "sponsored", "searchbar"})


class Renderer:
    """Turns a `View` tree (device pixels, 1080x2400) into an RGB screenshot of a requested width.

    Guarantees: the output is a new, read-only uint8 array of shape (round(width * 2400 / 1080), width, 3) (copy it
    to draw on it); the same tree, width and theme always give the same pixels, whatever was rendered before;
    views are never modified. Callers must not mutate a view after rendering it: caches key on view contents and
    may hold views.

    Args:
        text_cache_bytes: pixel bytes of glyph masks kept (least recently used are dropped first).
        patch_cache_bytes: pixel bytes of cached container sub-images kept; 64 MiB holds every container of
            several hundred screens at 224 pixels wide.
    """

    def __init__(self, text_cache_bytes: int = 16 << 20, patch_cache_bytes: int = 64 << 20) -> None:
        self.text_cache_bytes = text_cache_bytes
        self.patch_cache_bytes = patch_cache_bytes
        self.text = TextCache(text_cache_bytes)
        self.icons = IconCache(self.text)
        self.patches = ImageLRU(patch_cache_bytes)
        self._signatures: OrderedDict[int, tuple[View, tuple]] = OrderedDict()

    def render(self, tree: View, width: int, dark: bool = False) -> np.ndarray:
        """Draw `tree` as a screenshot `width` pixels wide.

        Args:
            tree: the screen's root view, in device pixels.
            width: screenshot width in pixels, 16 to 2160; the height keeps the panel's 1080:2400 aspect.
            dark: draw with the dark theme's palette.

        Returns:
            uint8 array (height, width, 3), RGB.

        Raises:
            ConfigError: `width` is not an int in [16, 2160].
        """
        if isinstance(width, bool) or not isinstance(width, int | np.integer) or not MIN_WIDTH <= width <= MAX_WIDTH:
            raise ConfigError(f"`width` must be an int in [{MIN_WIDTH}, {MAX_WIDTH}] pixels, got {width!r}; "
                              "pass the screenshot width, e.g. 224")
        width = int(width)
        palette = DARK if dark else LIGHT
        image = Image.new("RGB", (width, round(width * HEIGHT / WIDTH)), palette.bg)
        canvas = Canvas(image, width / WIDTH, (0, 0), palette, self.text, self.icons)
        self._draw(canvas, tree, palette.bg)
        # asarray shares one copy of the pixels (read-only); np.array would copy them a second time.
        return np.asarray(image)

    # -- traversal ----------------------------------------------------------------------------------------------------
    def _draw(self, c: Canvas, v: View, bg: RGB | None) -> None:
        if v.style in CACHED_STYLES and v.children and bg is not None:
            self._draw_cached(c, v, bg)
            return
        outer = c.palette
        if v.style == "dark":  # the phone marks the content of a dark-themed system this way
            c.palette = DARK
        r = c.box(v.bounds)
        if r[2] > r[0] and r[3] > r[1]:
            bg = painter_for(v)(c, v, r, bg)
        for child in v.children:  # a zero-area container may still hold visible children: always recurse
            self._draw(c, child, bg)
        c.palette = outer

    def _draw_cached(self, c: Canvas, v: View, bg: RGB) -> None:
        """Paste the sub-image of `v` drawn on `bg`, drawing it first if it is not cached."""
        x, y, x1, y1 = c.box(v.bounds)
        # The size comes from the rounded edges in place, so that stacked rows tile without overlapping; it is part
        # of the key because the same row may round one pixel taller or shorter at another position.
        w, h = x1 - x, y1 - y
        if w <= 0 or h <= 0:
            return
        key = (self._signature(v), w, h, c.scale, c.palette.name, bg)
        patch = self.patches.get(key)
        if patch is None:
            patch = Image.new("RGB", (w, h), bg)
            sub = Canvas(patch, c.scale, (v.bounds[0], v.bounds[1]), c.palette, self.text, self.icons)
            child_bg = painter_for(v)(sub, v, (0, 0, w, h), bg)
            for child in v.children:
                self._draw(sub, child, child_bg)
            self.patches.put(key, patch)
        c.image.paste(patch, (x, y))

    def _signature(self, v: View) -> tuple:
        """Everything about `v`'s subtree that shows on screen, relative to `v`'s top-left corner.

        Memoised per view object: trees are immutable and some (the keyboard) are shared between frames. The memo
        holds the view itself, so its id cannot be reused by another object while the entry lives.
        """
        memo = self._signatures.get(id(v))
        if memo is not None and memo[0] is v:
            return memo[1]
        sig = _signature(v, v.bounds[0], v.bounds[1])
        self._signatures[id(v)] = (v, sig)
        if len(self._signatures) > 256:
            self._signatures.popitem(last=False)
        return sig


def _signature(v: View, ox: int, oy: int) -> tuple:
    x0, y0, x1, y1 = v.bounds
    return (x0 - ox, y0 - oy, x1 - ox, y1 - oy, v.style, v.cls, v.text, v.hint, v.desc, v.icon, v.rid, v.checked,
            v.focused, v.enabled, v.selected, v.password, v.printed,
            tuple(_signature(child, ox, oy) for child in v.children))

