"""Vector icons: system glyphs (navigation, status, keyboard) and app-icon glyphs, drawn in a unit square.

Each glyph is a function of a `_Pen` that draws white-on-black coverage in coordinates from 0 to 1. `IconCache`
draws it 4x oversampled and box-filters it down, so even a 10-pixel status icon keeps smooth edges, and keeps the
result per (name, size). Unknown names get a neutral dot (system icons) or the app label's initial (app icons).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from android_gym.sim.render.cache import ImageLRU
from android_gym.sim.render.text import TextCache
from android_gym.sim.render.theme import RGB, app_colour

OVERSAMPLE = 4  # edge quality of cached icons; only paid on a cache miss
W = 0.1  # default stroke width, as a fraction of the icon's side


class _Pen:
    """Draws shapes given in unit coordinates onto an n x n coverage mask (255 = ink, 0 = erase)."""

    def __init__(self, draw: ImageDraw.ImageDraw, n: int) -> None:
        self.d, self.n = draw, n

    def _xy(self, *xy: float) -> list[float]:
        return [v * self.n for v in xy]

    def _w(self, w: float) -> int:
        return max(1, round(w * self.n))

    def line(self, *xy: float, w: float = W, ink: int = 255) -> None:
        self.d.line(self._xy(*xy), fill=ink, width=self._w(w), joint="curve")

    def poly(self, *xy: float, ink: int = 255) -> None:
        self.d.polygon(self._xy(*xy), fill=ink)

    def disc(self, cx: float, cy: float, r: float, ink: int = 255) -> None:
        self.d.ellipse(self._xy(cx - r, cy - r, cx + r, cy + r), fill=ink)

    def ring(self, cx: float, cy: float, r: float, w: float = W) -> None:
        self.d.ellipse(self._xy(cx - r, cy - r, cx + r, cy + r), outline=255, width=self._w(w))

    def rect(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0, ink: int = 255) -> None:
        self.d.rounded_rectangle(self._xy(x0, y0, x1, y1), radius=radius * self.n, fill=ink)

    def frame(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0, w: float = W) -> None:
        self.d.rounded_rectangle(self._xy(x0, y0, x1, y1), radius=radius * self.n, outline=255, width=self._w(w))

    def oval(self, x0: float, y0: float, x1: float, y1: float, w: float = W) -> None:
        self.d.ellipse(self._xy(x0, y0, x1, y1), outline=255, width=self._w(w))

    def arc(self, cx: float, cy: float, r: float, start: float, end: float, w: float = W) -> None:
        self.d.arc(self._xy(cx - r, cy - r, cx + r, cy + r), start, end, fill=255, width=self._w(w))

    def pie(self, cx: float, cy: float, r: float, start: float, end: float, ink: int = 255) -> None:
        self.d.pieslice(self._xy(cx - r, cy - r, cx + r, cy + r), start, end, fill=ink)


Glyph = Callable[[_Pen], None]


# -- system glyphs ----------------------------------------------------------------------------------------------------
def _back(p: _Pen) -> None:
    p.line(0.85, 0.5, 0.2, 0.5)
    p.line(0.5, 0.18, 0.18, 0.5, 0.5, 0.82)


def _forward(p: _Pen) -> None:
    p.line(0.15, 0.5, 0.8, 0.5)
    p.line(0.5, 0.18, 0.82, 0.5, 0.5, 0.82)


def _search(p: _Pen) -> None:
    p.ring(0.42, 0.42, 0.26, w=0.11)
    p.line(0.6, 0.6, 0.86, 0.86, w=0.13)


def _wifi(p: _Pen) -> None:
    p.pie(0.5, 0.88, 0.8, 225, 315)


def _wifi_off(p: _Pen) -> None:
    p.arc(0.5, 0.88, 0.74, 225, 315, w=0.08)
    p.line(0.22, 0.62, 0.5, 0.88, 0.78, 0.62, w=0.08)
    p.line(0.12, 0.1, 0.88, 0.9, w=0.09)


def _battery(p: _Pen) -> None:
    p.rect(0.04, 0.3, 0.86, 0.7, radius=0.06)
    p.rect(0.86, 0.42, 0.96, 0.58)


def _bluetooth(p: _Pen) -> None:
    p.line(0.28, 0.3, 0.7, 0.68, 0.5, 0.86, 0.5, 0.14, 0.7, 0.32, 0.28, 0.7, w=0.08)


def _airplane(p: _Pen) -> None:
    p.poly(0.46, 0.05, 0.54, 0.05, 0.56, 0.38, 0.95, 0.6, 0.95, 0.68, 0.56, 0.56, 0.56, 0.8, 0.68, 0.9, 0.68, 0.96,
           0.5, 0.91, 0.32, 0.96, 0.32, 0.9, 0.44, 0.8, 0.44, 0.56, 0.05, 0.68, 0.05, 0.6, 0.44, 0.38)


def _backspace(p: _Pen) -> None:
    p.poly(0.04, 0.5, 0.3, 0.2, 0.96, 0.2, 0.96, 0.8, 0.3, 0.8)
    p.line(0.5, 0.36, 0.78, 0.64, w=0.08, ink=0)
    p.line(0.5, 0.64, 0.78, 0.36, w=0.08, ink=0)


def _enter(p: _Pen) -> None:
    p.line(0.82, 0.2, 0.82, 0.6, 0.2, 0.6)
    p.line(0.42, 0.38, 0.2, 0.6, 0.42, 0.82)


def _google(p: _Pen) -> None:
    p.arc(0.5, 0.5, 0.4, 40, 330, w=0.16)
    p.rect(0.5, 0.44, 0.9, 0.58)


def _spinner(p: _Pen) -> None:
    p.arc(0.5, 0.5, 0.42, 300, 200, w=0.11)


def _more(p: _Pen) -> None:
    for y in (0.2, 0.5, 0.8):
        p.disc(0.5, y, 0.09)


def _menu(p: _Pen) -> None:
    for y in (0.25, 0.5, 0.75):
        p.line(0.12, y, 0.88, y)


def _close(p: _Pen) -> None:
    p.line(0.2, 0.2, 0.8, 0.8)
    p.line(0.2, 0.8, 0.8, 0.2)


def _add(p: _Pen) -> None:
    p.line(0.5, 0.15, 0.5, 0.85)
    p.line(0.15, 0.5, 0.85, 0.5)


def _check(p: _Pen) -> None:
    p.line(0.15, 0.52, 0.4, 0.76, 0.86, 0.26, w=0.12)


def _star(p: _Pen) -> None:
    p.poly(0.5, 0.04, 0.62, 0.4, 0.97, 0.4, 0.69, 0.62, 0.8, 0.97, 0.5, 0.75, 0.2, 0.97, 0.31, 0.62, 0.03, 0.4,
           0.38, 0.4)


def _person(p: _Pen) -> None:
    p.disc(0.5, 0.32, 0.2)
    p.pie(0.5, 0.98, 0.4, 180, 360)


def _mic(p: _Pen) -> None:
    p.rect(0.36, 0.08, 0.64, 0.58, radius=0.14)
    p.arc(0.5, 0.46, 0.26, 0, 180, w=0.08)
    p.line(0.5, 0.72, 0.5, 0.9, w=0.08)


def _cart(p: _Pen) -> None:
    p.line(0.05, 0.15, 0.2, 0.15, 0.32, 0.64, 0.82, 0.64, 0.92, 0.3, 0.26, 0.3, w=0.08)
    p.disc(0.36, 0.82, 0.08)
    p.disc(0.76, 0.82, 0.08)


def _home(p: _Pen) -> None:
    p.ring(0.5, 0.5, 0.4, w=0.12)


def _overview(p: _Pen) -> None:
    p.frame(0.14, 0.14, 0.86, 0.86, radius=0.08, w=0.12)


# -- app glyphs (white on the app's colour) ---------------------------------------------------------------------------
def _mail(p: _Pen) -> None:
    p.frame(0.1, 0.22, 0.9, 0.78, radius=0.04, w=0.08)
    p.line(0.12, 0.26, 0.5, 0.55, 0.88, 0.26, w=0.08)


def _map(p: _Pen) -> None:
    p.disc(0.5, 0.4, 0.28)
    p.poly(0.27, 0.52, 0.73, 0.52, 0.5, 0.92)
    p.disc(0.5, 0.4, 0.1, ink=0)


def _photo(p: _Pen) -> None:
    p.frame(0.1, 0.16, 0.9, 0.84, radius=0.06, w=0.07)
    p.poly(0.16, 0.8, 0.4, 0.46, 0.58, 0.68, 0.68, 0.56, 0.86, 0.8)
    p.disc(0.7, 0.34, 0.08)


def _camera(p: _Pen) -> None:
    p.rect(0.1, 0.28, 0.9, 0.82, radius=0.08)
    p.rect(0.34, 0.18, 0.66, 0.32, radius=0.03)
    p.disc(0.5, 0.55, 0.19, ink=0)
    p.disc(0.5, 0.55, 0.11)


def _phone(p: _Pen) -> None:
    p.arc(0.62, 0.38, 0.46, 95, 175, w=0.16)
    p.rect(0.08, 0.16, 0.3, 0.36, radius=0.06)
    p.rect(0.58, 0.72, 0.82, 0.92, radius=0.06)


def _sms(p: _Pen) -> None:
    p.rect(0.1, 0.16, 0.9, 0.7, radius=0.12)
    p.poly(0.22, 0.66, 0.42, 0.66, 0.2, 0.88)
    for x in (0.32, 0.5, 0.68):
        p.disc(x, 0.43, 0.06, ink=0)


def _calendar(p: _Pen) -> None:
    p.frame(0.14, 0.18, 0.86, 0.86, radius=0.06, w=0.07)
    p.rect(0.14, 0.18, 0.86, 0.36)
    for row in (0.5, 0.7):
        for col in (0.3, 0.5, 0.7):
            p.rect(col - 0.05, row - 0.05, col + 0.05, row + 0.05)


def _files(p: _Pen) -> None:
    p.poly(0.1, 0.22, 0.4, 0.22, 0.48, 0.3, 0.9, 0.3, 0.9, 0.8, 0.1, 0.8)


def _chrome(p: _Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.14)
    p.disc(0.5, 0.5, 0.15)


def _browser(p: _Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.07)
    p.oval(0.34, 0.12, 0.66, 0.88, w=0.06)
    p.line(0.12, 0.5, 0.88, 0.5, w=0.06)


def _play(p: _Pen) -> None:
    p.poly(0.28, 0.16, 0.84, 0.5, 0.28, 0.84)


def _youtube(p: _Pen) -> None:
    p.rect(0.08, 0.22, 0.92, 0.78, radius=0.16)
    p.poly(0.42, 0.36, 0.64, 0.5, 0.42, 0.64, ink=0)


def _settings(p: _Pen) -> None:
    for k in range(8):  # teeth: eight thick spokes under the body
        a = math.radians(k * 45)
        p.line(0.5, 0.5, 0.5 + 0.42 * math.cos(a), 0.5 + 0.42 * math.sin(a), w=0.16)
    p.disc(0.5, 0.5, 0.31)
    p.disc(0.5, 0.5, 0.13, ink=0)


def _clock(p: _Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.08)
    p.line(0.5, 0.24, 0.5, 0.5, 0.68, 0.6, w=0.07)


def _bag(p: _Pen) -> None:
    p.rect(0.16, 0.34, 0.84, 0.88, radius=0.05)
    p.arc(0.5, 0.34, 0.16, 180, 360, w=0.07)


def _grid(p: _Pen) -> None:
    for x in (0.32, 0.68):
        for y in (0.32, 0.68):
            p.disc(x, y, 0.12)


SYSTEM_GLYPHS: dict[str, Glyph] = {
    "back": _back, "forward": _forward, "search": _search, "wifi": _wifi, "wifi_off": _wifi_off,
    "battery": _battery, "bluetooth": _bluetooth, "airplane": _airplane, "backspace": _backspace, "enter": _enter,
    "google": _google, "spinner": _spinner, "more": _more, "menu": _menu, "close": _close, "add": _add,
    "check": _check, "star": _star, "account": _person, "person": _person, "mic": _mic, "cart": _cart,
    "home": _home, "recents": _overview, "overview": _overview, "image": _photo, "photo": _photo,
}

APP_GLYPHS: dict[str, Glyph] = {
    "mail": _mail, "map": _map, "photo": _photo, "camera": _camera, "phone": _phone, "sms": _sms,
    "calendar": _calendar, "contacts": _person, "files": _files, "chrome": _chrome, "browser": _browser,
    "play_store": _play, "store": _play, "youtube": _youtube, "settings": _settings, "clock": _clock, "shop": _bag,
    "amazon": _bag, "launcher": _grid, "app": _grid, "music": _play, "search": _search,
}


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


def _dot(p: _Pen) -> None:
    p.disc(0.5, 0.5, 0.3)


def _render(glyph: Glyph, side: int) -> Image.Image:
    """Draw `glyph` oversampled and box-filter it down to a `side` x `side` mask."""
    n = max(1, side) * OVERSAMPLE
    big = Image.new("L", (n, n))
    glyph(_Pen(ImageDraw.Draw(big), n))
    return big.reduce(OVERSAMPLE)


def _glyph_colour(background: RGB) -> RGB:
    """White on dark or saturated icons, dark grey on very light ones (so the glyph always shows)."""
    r, g, b = background
    return (60, 64, 67) if 0.299 * r + 0.587 * g + 0.114 * b > 200 else (255, 255, 255)
