"""`IconCache`: icon images per name and pixel size, rasterised from the vector glyphs of `glyphs`.

Glyphs are drawn 4x oversampled and box-filtered down, so even a 10-pixel status icon keeps smooth edges. Unknown
names get a neutral dot (system icons) or the app label's initial on a colour derived from the name (app icons).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from android_gym.sim.render.app_glyphs import APP_GLYPHS
from android_gym.sim.render.cache import ImageLRU
from android_gym.sim.render.glyphs import SYSTEM_GLYPHS, Glyph, Pen
from android_gym.sim.render.text import TextCache
from android_gym.sim.render.theme import RGB, app_colour, luminance

OVERSAMPLE = 4  # edge quality of cached icons; only paid on a cache miss


class IconCache:
    """Icon images per (name, size in pixels), in a least-recently-used cache.

    Args:
        text: the text cache, used to letter app icons whose glyph is unknown.
        budget_bytes: the most icon pixels kept, in bytes.
    """

    def __init__(self, text: TextCache, budget_bytes: int = 8 << 20) -> None:
        self.text = text
        self.images = ImageLRU(budget_bytes)

    def mask(self, name: str, side: int) -> Image.Image:
        """A `side` x `side` coverage mask of glyph `name` (a centred dot when the name is unknown)."""
        key = ("sys", name, side)
        mask = self.images.get(key)
        if mask is None:
            glyph = SYSTEM_GLYPHS.get(name) or APP_GLYPHS.get(name, _dot)  # an app glyph also works alone
            mask = self.images.put(key, _render(glyph, side))
        return mask

    def app_icon(self, name: str, label: str, side: int) -> Image.Image:
        """An RGBA app icon: a rounded square in the app's colour with its glyph (or initial) in white."""
        key = ("app", name, label[:1], side)
        icon = self.images.get(key)
        if icon is None:
            icon = self.images.put(key, self._app_icon(name, label, side))
        return icon

    def _app_icon(self, name: str, label: str, side: int) -> Image.Image:
        colour = app_colour(name)
        glyph = APP_GLYPHS.get(name)
        inner = max(1, round(side * 0.6))
        if glyph is not None:
            ink = _render(glyph, inner)
        else:  # unknown app: its initial, like a launcher's fallback icon
            letter = self.text.mask((label[:1] or "?").upper(), max(4, round(side * 0.5)), side, side, bold=True)
            ink = Image.new("L", (inner, inner))
            ink.paste(letter, ((inner - letter.width) // 2, (inner - letter.height) // 2))
        icon = Image.new("RGBA", (side, side), (*colour, 0))
        icon.paste(_glyph_colour(colour), ((side - inner) // 2,) * 2, ink)
        icon.putalpha(_render(lambda p: p.rect(0.02, 0.02, 0.98, 0.98, radius=0.28), side))
        return icon


def _render(glyph: Glyph, side: int) -> Image.Image:
    """Draw `glyph` oversampled and box-filter it down to a `side` x `side` mask."""
    n = max(1, side) * OVERSAMPLE
    big = Image.new("L", (n, n))
    glyph(Pen(ImageDraw.Draw(big), n))
    return big.reduce(OVERSAMPLE)


def _glyph_colour(background: RGB) -> RGB:
    """White on dark or saturated icons, dark grey on very light ones (so the glyph always shows)."""
    return (60, 64, 67) if luminance(background) > 200 else (255, 255, 255)


def _dot(p: Pen) -> None:
    p.disc(0.5, 0.5, 0.3)
