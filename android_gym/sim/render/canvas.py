"""`Canvas`: an image being drawn plus the mapping from device pixels to its pixels, with the primitives painters use.

Device pixels are the 1080x2400 panel's; image pixels are the screenshot's. A canvas has an origin (the device
pixel its top-left corner shows), so a container can be drawn into its own cached sub-image by the same painters.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from android_gym.sim.render.icons import IconCache
from android_gym.sim.render.text import TextCache
from android_gym.sim.render.theme import ICON_COLOURS, RGB, Palette, TextStyle, readable
from android_gym.sim.view import Bounds, View

Rect = tuple[int, int, int, int]
"""(left, top, right, bottom) in image pixels, right/bottom exclusive."""

Painter = Callable[["Canvas", View, Rect, "RGB | None"], "RGB | None"]
"""Draws one view (not its children) given its rectangle and the colour behind it (None if not flat); returns
the colour its children are drawn on (None if not flat)."""

MIN_FONT_PX = 5  # smaller FreeType text is unreadable noise; clipping a slightly big font is better
LINE_FILL = 0.8  # single-line text may use up to this fraction of its view's height
SMALL_ICON_VIEW_PX = 96  # device px: views this small are icon-sized, so their glyph fills them
LEADING_ICON_PX = 132  # device px: the slot of a row's leading icon (Android's 48dp list icon column, minus margin)


class Canvas:
    """Where painters draw: the image, its scale (image pixels per device pixel), origin, palette and caches.

    Args:
        image: an RGB image; drawing never reads outside it and clips at its edges.
        scale: image pixels per device pixel (the screenshot width over 1080).
        origin: the device pixel (x, y) drawn at the image's top-left corner.
        palette: the theme's colours.
        text, icons: shared caches of glyph masks and icons.
    """

    __slots__ = ("image", "draw", "scale", "ox", "oy", "palette", "text", "icons")

    def __init__(self, image: Image.Image, scale: float, origin: tuple[int, int], palette: Palette,
                 text: TextCache, icons: IconCache) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.scale = scale
        self.ox, self.oy = origin
        self.palette = palette
        self.text = text
        self.icons = icons

    def box(self, b: Bounds) -> Rect:
        """Device-pixel bounds as image pixels relative to this canvas's origin."""
        s, ox, oy = self.scale, self.ox, self.oy
        return (int((b[0] - ox) * s + 0.5), int((b[1] - oy) * s + 0.5),
                int((b[2] - ox) * s + 0.5), int((b[3] - oy) * s + 0.5))

    def px(self, device_px: float) -> int:
        """A length in device pixels as image pixels, at least 1 (strokes never vanish when scaled down)."""
        return max(1, int(device_px * self.scale + 0.5))

    def fill(self, r: Rect, colour: RGB) -> None:
        """Fill a rectangle (nothing for an empty one)."""
        if r[2] > r[0] and r[3] > r[1]:
            self.draw.rectangle((r[0], r[1], r[2] - 1, r[3] - 1), fill=colour)

    def round_fill(self, r: Rect, radius_px: float, colour: RGB | None, outline: RGB | None = None) -> None:
        """Fill a rounded rectangle, radius in image pixels (capped at half the short side), optionally outlined."""
        w, h = r[2] - r[0], r[3] - r[1]
        if w <= 0 or h <= 0:
            return
        radius = int(min(radius_px, w / 2, h / 2))
        self.draw.rounded_rectangle((r[0], r[1], r[2] - 1, r[3] - 1), radius=radius, fill=colour, outline=outline)

    def dim(self, r: Rect, keep_pct: int) -> None:
        """Darken what is already drawn inside `r` to `keep_pct` percent brightness (a dialog's scrim)."""
        x0, y0 = max(0, r[0]), max(0, r[1])
        x1, y1 = min(self.image.width, r[2]), min(self.image.height, r[3])
        if x1 > x0 and y1 > y0:
            region = self.image.crop((x0, y0, x1, y1)).point(_dim_table(keep_pct))
            self.image.paste(region, (x0, y0))

    def font_px(self, r: Rect, style: TextStyle) -> int:
        """The font size in image pixels for `style` text in `r`: the style's size, shrunk to fit short views."""
        return max(MIN_FONT_PX, int(min(style.size * self.scale, (r[3] - r[1]) * LINE_FILL) + 0.5))

    def text_in(self, r: Rect, text: str, style: TextStyle, colour: RGB, inset_px: int = 0) -> Rect | None:
        """Draw `text` in `r` per `style`, clipped to `r`; returns where it landed, or None if nothing was drawn.

        Args:
            r: the view's rectangle in image pixels.
            text: what to write; long text wraps or ends with an ellipsis (see `TextCache.mask`).
            style: size, alignment, padding and weight.
            colour: the ink.
            inset_px: extra left padding in image pixels (room for a leading icon).
        """
        if not text:
            return None
        pad = int(style.pad * self.scale + 0.5)
        left, right = r[0] + pad + inset_px, r[2] - pad
        box_w, box_h = right - left, r[3] - r[1]
        if box_w <= 0 or box_h <= 0:
            return None
        mask = self.text.mask(text, self.font_px(r, style), box_w, box_h, style.bold, style.align)
        mw, mh = mask.size
        x = left + (box_w - mw) // 2 if style.align == "center" else right - mw if style.align == "right" else left
        y = r[1] + (box_h - mh) // 2
        if mw > box_w or mh > box_h:  # still too big (tiny views): clip to the view, keep the middle rows
            cut = max(0, (mh - box_h) // 2)
            mask = mask.crop((0, cut, min(mw, box_w), cut + min(mh, box_h)))
            mw, mh = mask.size
            x, y = left, r[1] + (box_h - mh) // 2
        self.image.paste(colour, (x, y, x + mw, y + mh), mask)
        return (x, y, x + mw, y + mh)

    def label(self, v: View, r: Rect, style: TextStyle, bg: RGB | None, colour: RGB | None = None,
              leading: bool = False) -> Rect | None:
        """Draw `v`'s icon and text in `r`; returns where the text landed (None if none was drawn).

        The icon leads the text in a square slot at the left, or is centred when the view has no text (unless
        `leading`, for rows whose text lives in child views). Colours that would vanish on `bg` (text over a video,
        say) are swapped for white or black.

        Args:
            v: the view; its `icon`, `text` and `enabled` are used.
            r: its rectangle in image pixels.
            style: size, alignment, padding, weight and palette colour of the text.
            bg: the colour under `r`, or None when unknown.
            colour: overrides the style's text colour.
            leading: put the icon in the leading slot even without text.
        """
        p = self.palette
        ink = readable(colour or (getattr(p, style.colour) if v.enabled else p.hint), bg)
        inset = 0
        if v.icon:
            glyph_ink = ICON_COLOURS.get(v.icon) or readable(p.system_icon, bg)
            if v.text or leading:
                pad = int(style.pad * self.scale + 0.5)
                inset = min((r[3] - r[1]) * 4 // 5, int(LEADING_ICON_PX * self.scale + 0.5))
                self.icon(v.icon, (r[0] + pad, r[1], r[0] + pad + inset, r[3]), glyph_ink, 0.55)
            else:
                b = v.bounds
                small = min(b[2] - b[0], b[3] - b[1]) <= SMALL_ICON_VIEW_PX
                self.icon(v.icon, r, glyph_ink, 0.85 if small else 0.42)
                return None
        return self.text_in(r, v.text, style, ink, inset)

    def icon(self, name: str, r: Rect, colour: RGB, frac: float) -> None:
        """Draw system glyph `name` centred in `r`, its side `frac` of the short side of `r`."""
        side = int(min(r[2] - r[0], r[3] - r[1]) * frac)
        if side < 2:
            return
        x, y = (r[0] + r[2] - side) // 2, (r[1] + r[3] - side) // 2
        self.image.paste(colour, (x, y, x + side, y + side), self.icons.mask(name, side))

    def app_icon(self, name: str, label: str, x: int, y: int, side: int) -> None:
        """Draw the app icon `name` (initial of `label` if its glyph is unknown) with its top-left at (x, y)."""
        if side >= 2:
            icon = self.icons.app_icon(name, label, side)
            self.image.paste(icon, (x, y), icon)


@lru_cache(maxsize=8)
def _dim_table(keep_pct: int) -> list[int]:
    """Pillow's `point` lookup table (256 entries per band) scaling every channel to `keep_pct` percent."""
    return [v * keep_pct // 100 for v in range(256)] * 3
