"""Vector glyphs: shapes in a unit square, drawn by a `Pen` onto a coverage mask, looked up by icon name.

Coordinates run from 0 (left/top) to 1 (right/bottom); `IconCache` decides the size in pixels. Drawing with ink 0
erases, which cuts holes (a camera's lens, a lock's keyhole) without knowing the background.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

W = 0.1  # default stroke width, as a fraction of the icon's side


class Pen:
    """Draws shapes given in unit coordinates onto an n x n coverage mask (255 = ink, 0 = erase)."""

    def __init__(self, draw: ImageDraw.ImageDraw, n: int) -> None:
        self.d, self.n = draw, n

    def _xy(self, *xy: float) -> list[float]:
        return [v * self.n for v in xy]

    def _w(self, w: float) -> int:
        return max(1, round(w * self.n))

    def line(self, *xy: float, w: float = W, ink: int = 255) -> None:
        """Stroke a polyline through the points."""
        self.d.line(self._xy(*xy), fill=ink, width=self._w(w), joint="curve")

    def poly(self, *xy: float, ink: int = 255) -> None:
        """Fill a polygon."""
        self.d.polygon(self._xy(*xy), fill=ink)

    def disc(self, cx: float, cy: float, r: float, ink: int = 255) -> None:
        """Fill a circle."""
        self.d.ellipse(self._xy(cx - r, cy - r, cx + r, cy + r), fill=ink)

    def ring(self, cx: float, cy: float, r: float, w: float = W) -> None:
        """Stroke a circle, `w` thick inwards."""
        self.d.ellipse(self._xy(cx - r, cy - r, cx + r, cy + r), outline=255, width=self._w(w))

    def rect(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0, ink: int = 255) -> None:
        """Fill a (rounded) rectangle."""
        self.d.rounded_rectangle(self._xy(x0, y0, x1, y1), radius=radius * self.n, fill=ink)

    def frame(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0, w: float = W) -> None:
        """Stroke a (rounded) rectangle."""
        self.d.rounded_rectangle(self._xy(x0, y0, x1, y1), radius=radius * self.n, outline=255, width=self._w(w))

    def oval(self, x0: float, y0: float, x1: float, y1: float, w: float = W) -> None:
        """Stroke an ellipse inside the box."""
        self.d.ellipse(self._xy(x0, y0, x1, y1), outline=255, width=self._w(w))

    def arc(self, cx: float, cy: float, r: float, start: float, end: float, w: float = W) -> None:
        """Stroke an arc, angles in degrees clockwise from 3 o'clock."""
        self.d.arc(self._xy(cx - r, cy - r, cx + r, cy + r), start, end, fill=255, width=self._w(w))

    def pie(self, cx: float, cy: float, r: float, start: float, end: float, ink: int = 255) -> None:
        """Fill a pie slice, angles in degrees clockwise from 3 o'clock."""
        self.d.pieslice(self._xy(cx - r, cy - r, cx + r, cy + r), start, end, fill=ink)


Glyph = Callable[[Pen], None]


# -- system glyphs ----------------------------------------------------------------------------------------------------
def _back(p: Pen) -> None:
    p.line(0.85, 0.5, 0.2, 0.5)
    p.line(0.5, 0.18, 0.18, 0.5, 0.5, 0.82)


def _forward(p: Pen) -> None:
    p.line(0.15, 0.5, 0.8, 0.5)
    p.line(0.5, 0.18, 0.82, 0.5, 0.5, 0.82)


def _search(p: Pen) -> None:
    p.ring(0.42, 0.42, 0.26, w=0.11)
    p.line(0.6, 0.6, 0.86, 0.86, w=0.13)


def _wifi(p: Pen) -> None:
    p.pie(0.5, 0.88, 0.8, 225, 315)


def _wifi_off(p: Pen) -> None:
    p.arc(0.5, 0.88, 0.74, 225, 315, w=0.08)
    p.line(0.22, 0.62, 0.5, 0.88, 0.78, 0.62, w=0.08)
    p.line(0.12, 0.1, 0.88, 0.9, w=0.09)


def _battery(p: Pen) -> None:
    p.rect(0.04, 0.3, 0.86, 0.7, radius=0.06)
    p.rect(0.86, 0.42, 0.96, 0.58)


def _bluetooth(p: Pen) -> None:
    p.line(0.28, 0.3, 0.7, 0.68, 0.5, 0.86, 0.5, 0.14, 0.7, 0.32, 0.28, 0.7, w=0.08)


def _airplane(p: Pen) -> None:
    p.poly(0.46, 0.05, 0.54, 0.05, 0.56, 0.38, 0.95, 0.6, 0.95, 0.68, 0.56, 0.56, 0.56, 0.8, 0.68, 0.9, 0.68, 0.96,
           0.5, 0.91, 0.32, 0.96, 0.32, 0.9, 0.44, 0.8, 0.44, 0.56, 0.05, 0.68, 0.05, 0.6, 0.44, 0.38)


def _backspace(p: Pen) -> None:
    p.poly(0.04, 0.5, 0.3, 0.2, 0.96, 0.2, 0.96, 0.8, 0.3, 0.8)
    p.line(0.5, 0.36, 0.78, 0.64, w=0.08, ink=0)
    p.line(0.5, 0.64, 0.78, 0.36, w=0.08, ink=0)


def _enter(p: Pen) -> None:
    p.line(0.82, 0.2, 0.82, 0.6, 0.2, 0.6)
    p.line(0.42, 0.38, 0.2, 0.6, 0.42, 0.82)


def _google(p: Pen) -> None:
    p.arc(0.5, 0.5, 0.4, 40, 330, w=0.16)
    p.rect(0.5, 0.44, 0.9, 0.58)


def _spinner(p: Pen) -> None:
    p.arc(0.5, 0.5, 0.42, 300, 200, w=0.11)


def _more(p: Pen) -> None:
    for y in (0.2, 0.5, 0.8):
        p.disc(0.5, y, 0.09)


def _menu(p: Pen) -> None:
    for y in (0.25, 0.5, 0.75):
        p.line(0.12, y, 0.88, y)


def _close(p: Pen) -> None:
    p.line(0.2, 0.2, 0.8, 0.8)
    p.line(0.2, 0.8, 0.8, 0.2)


def _add(p: Pen) -> None:
    p.line(0.5, 0.15, 0.5, 0.85)
    p.line(0.15, 0.5, 0.85, 0.5)


def _check(p: Pen) -> None:
    p.line(0.15, 0.52, 0.4, 0.76, 0.86, 0.26, w=0.12)


def _star(p: Pen) -> None:
    p.poly(0.5, 0.04, 0.62, 0.4, 0.97, 0.4, 0.69, 0.62, 0.8, 0.97, 0.5, 0.75, 0.2, 0.97, 0.31, 0.62, 0.03, 0.4,
           0.38, 0.4)


def _person(p: Pen) -> None:
    p.disc(0.5, 0.32, 0.2)
    p.pie(0.5, 0.98, 0.4, 180, 360)


def _mic(p: Pen) -> None:
    p.rect(0.36, 0.08, 0.64, 0.58, radius=0.14)
    p.arc(0.5, 0.46, 0.26, 0, 180, w=0.08)
    p.line(0.5, 0.72, 0.5, 0.9, w=0.08)


def _cart(p: Pen) -> None:
    p.line(0.05, 0.15, 0.2, 0.15, 0.32, 0.64, 0.82, 0.64, 0.92, 0.3, 0.26, 0.3, w=0.08)
    p.disc(0.36, 0.82, 0.08)
    p.disc(0.76, 0.82, 0.08)


def _home(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.4, w=0.12)


def _overview(p: Pen) -> None:
    p.frame(0.14, 0.14, 0.86, 0.86, radius=0.08, w=0.12)


# -- shapes shared with app icons ------------------------------------------------------------------------------------


def _map(p: Pen) -> None:
    p.disc(0.5, 0.4, 0.28)
    p.poly(0.27, 0.52, 0.73, 0.52, 0.5, 0.92)
    p.disc(0.5, 0.4, 0.1, ink=0)


def _photo(p: Pen) -> None:
    p.frame(0.1, 0.16, 0.9, 0.84, radius=0.06, w=0.07)
    p.poly(0.16, 0.8, 0.4, 0.46, 0.58, 0.68, 0.68, 0.56, 0.86, 0.8)
    p.disc(0.7, 0.34, 0.08)


def _files(p: Pen) -> None:
    p.poly(0.1, 0.22, 0.4, 0.22, 0.48, 0.3, 0.9, 0.3, 0.9, 0.8, 0.1, 0.8)


def _play(p: Pen) -> None:
    p.poly(0.28, 0.16, 0.84, 0.5, 0.28, 0.84)


def _youtube(p: Pen) -> None:
    p.rect(0.08, 0.22, 0.92, 0.78, radius=0.16)
    p.poly(0.42, 0.36, 0.64, 0.5, 0.42, 0.64, ink=0)


def _clock(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.08)
    p.line(0.5, 0.24, 0.5, 0.5, 0.68, 0.6, w=0.07)


def _pause(p: Pen) -> None:
    p.rect(0.24, 0.16, 0.42, 0.84)
    p.rect(0.58, 0.16, 0.76, 0.84)


def _lock(p: Pen) -> None:
    p.arc(0.5, 0.4, 0.2, 180, 360, w=0.09)
    p.line(0.3, 0.4, 0.3, 0.48, w=0.09)
    p.line(0.7, 0.4, 0.7, 0.48, w=0.09)
    p.rect(0.2, 0.46, 0.8, 0.9, radius=0.06)


def _bell(p: Pen) -> None:
    p.pie(0.5, 0.56, 0.32, 180, 360)
    p.rect(0.18, 0.54, 0.82, 0.72, radius=0.02)
    p.disc(0.5, 0.82, 0.08)


def _info(p: Pen) -> None:
    p.disc(0.5, 0.5, 0.42)
    p.rect(0.44, 0.44, 0.56, 0.76, ink=0)
    p.disc(0.5, 0.3, 0.07, ink=0)


def _no_entry(p: Pen) -> None:
    p.disc(0.5, 0.5, 0.42)
    p.rect(0.26, 0.43, 0.74, 0.57, ink=0)


def _volume(p: Pen) -> None:
    p.poly(0.1, 0.38, 0.3, 0.38, 0.52, 0.16, 0.52, 0.84, 0.3, 0.62, 0.1, 0.62)
    p.arc(0.52, 0.5, 0.2, 300, 60, w=0.08)
    p.arc(0.52, 0.5, 0.36, 300, 60, w=0.08)


def _trash(p: Pen) -> None:
    p.rect(0.24, 0.3, 0.76, 0.9, radius=0.05)
    p.line(0.14, 0.22, 0.86, 0.22, w=0.08)
    p.rect(0.4, 0.1, 0.6, 0.2)


def _sun(p: Pen) -> None:
    for k in range(8):
        a = math.radians(k * 45)
        p.line(0.5 + 0.3 * math.cos(a), 0.5 + 0.3 * math.sin(a), 0.5 + 0.46 * math.cos(a),
               0.5 + 0.46 * math.sin(a), w=0.08)
    p.disc(0.5, 0.5, 0.22)


def _moon(p: Pen) -> None:
    p.disc(0.5, 0.5, 0.38)
    p.disc(0.68, 0.36, 0.3, ink=0)


def _apps(p: Pen) -> None:
    for x in (0.2, 0.5, 0.8):
        for y in (0.2, 0.5, 0.8):
            p.disc(x, y, 0.1)


def _storage(p: Pen) -> None:
    for y in (0.14, 0.42, 0.7):
        p.rect(0.12, y, 0.88, y + 0.18, radius=0.04)


def _screen(p: Pen) -> None:
    p.frame(0.26, 0.06, 0.74, 0.94, radius=0.08, w=0.08)
    p.line(0.42, 0.84, 0.58, 0.84, w=0.06)


def _devices(p: Pen) -> None:
    p.frame(0.06, 0.2, 0.66, 0.72, radius=0.04, w=0.08)
    p.rect(0.72, 0.34, 0.94, 0.86, radius=0.04)


def _cast(p: Pen) -> None:
    p.line(0.1, 0.34, 0.1, 0.18, 0.9, 0.18, 0.9, 0.82, 0.58, 0.82, w=0.08)
    p.arc(0.1, 0.84, 0.44, 270, 360, w=0.08)
    p.arc(0.1, 0.84, 0.26, 270, 360, w=0.08)
    p.disc(0.1, 0.84, 0.1)


def _key(p: Pen) -> None:
    p.ring(0.3, 0.5, 0.18, w=0.09)
    p.line(0.46, 0.5, 0.92, 0.5, w=0.09)
    p.line(0.78, 0.5, 0.78, 0.68, w=0.09)


def _palette(p: Pen) -> None:
    p.disc(0.5, 0.5, 0.42)
    for x, y in ((0.32, 0.38), (0.5, 0.26), (0.68, 0.38), (0.34, 0.6)):
        p.disc(x, y, 0.07, ink=0)


def _asterisk(p: Pen) -> None:
    for k in range(3):
        a = math.radians(90 + k * 60)
        p.line(0.5 - 0.4 * math.cos(a), 0.5 - 0.4 * math.sin(a), 0.5 + 0.4 * math.cos(a), 0.5 + 0.4 * math.sin(a),
               w=0.13)


def _rotate(p: Pen) -> None:
    p.arc(0.5, 0.5, 0.34, 200, 120, w=0.09)
    p.poly(0.12, 0.5, 0.3, 0.36, 0.34, 0.58)


def _heart(p: Pen) -> None:
    p.disc(0.32, 0.38, 0.2)
    p.disc(0.68, 0.38, 0.2)
    p.poly(0.13, 0.44, 0.87, 0.44, 0.5, 0.88)


def _letter_a(p: Pen) -> None:
    p.line(0.18, 0.86, 0.5, 0.12, 0.82, 0.86, w=0.1)
    p.line(0.3, 0.6, 0.7, 0.6, w=0.08)


def _thumb(p: Pen) -> None:
    p.rect(0.08, 0.44, 0.26, 0.9)
    p.poly(0.32, 0.44, 0.5, 0.12, 0.6, 0.16, 0.56, 0.4, 0.9, 0.4, 0.84, 0.9, 0.32, 0.9)


def _share(p: Pen) -> None:
    p.line(0.72, 0.2, 0.28, 0.5, 0.72, 0.8, w=0.07)
    for x, y in ((0.72, 0.2), (0.28, 0.5), (0.72, 0.8)):
        p.disc(x, y, 0.13)


def _bookmark(p: Pen) -> None:
    p.poly(0.24, 0.1, 0.76, 0.1, 0.76, 0.9, 0.5, 0.7, 0.24, 0.9)


def _hourglass(p: Pen) -> None:
    p.poly(0.22, 0.1, 0.78, 0.1, 0.5, 0.5, 0.78, 0.9, 0.22, 0.9, 0.5, 0.5)


def _video(p: Pen) -> None:
    p.rect(0.08, 0.2, 0.92, 0.8, radius=0.14)
    p.poly(0.42, 0.36, 0.64, 0.5, 0.42, 0.64, ink=0)


def _thumb_down(p: Pen) -> None:
    p.rect(0.08, 0.1, 0.26, 0.56)
    p.poly(0.32, 0.56, 0.5, 0.88, 0.6, 0.84, 0.56, 0.6, 0.9, 0.6, 0.84, 0.1, 0.32, 0.1)


def _alarm(p: Pen) -> None:
    p.ring(0.5, 0.56, 0.34, w=0.08)
    p.line(0.5, 0.36, 0.5, 0.56, 0.64, 0.66, w=0.07)
    p.pie(0.18, 0.18, 0.14, 135, 315)  # the two bells, tilted outwards
    p.pie(0.82, 0.18, 0.14, 225, 405)


def _stopwatch(p: Pen) -> None:
    p.ring(0.5, 0.56, 0.36, w=0.08)
    p.rect(0.38, 0.04, 0.62, 0.13)
    p.line(0.78, 0.22, 0.86, 0.14, w=0.08)
    p.line(0.5, 0.56, 0.5, 0.32, w=0.08)


# -- actions, devices and places --------------------------------------------------------------------------------------
def _edit(p: Pen) -> None:
    p.poly(0.12, 0.88, 0.14, 0.68, 0.6, 0.22, 0.78, 0.4, 0.32, 0.86)
    p.poly(0.65, 0.17, 0.74, 0.08, 0.92, 0.26, 0.83, 0.35)


def _sort(p: Pen) -> None:
    for y, x1 in ((0.25, 0.88), (0.5, 0.62), (0.75, 0.36)):
        p.line(0.12, y, x1, y)


def _history(p: Pen) -> None:
    p.arc(0.56, 0.5, 0.34, 200, 150, w=0.09)
    p.poly(0.06, 0.36, 0.38, 0.36, 0.22, 0.58)
    p.line(0.56, 0.3, 0.56, 0.52, 0.7, 0.62, w=0.08)


def _flag(p: Pen) -> None:
    p.line(0.22, 0.08, 0.22, 0.94, w=0.09)
    p.poly(0.22, 0.1, 0.84, 0.1, 0.7, 0.32, 0.84, 0.54, 0.22, 0.54)


def _label(p: Pen) -> None:
    p.rect(0.06, 0.26, 0.7, 0.74, radius=0.06)
    p.poly(0.66, 0.26, 0.94, 0.5, 0.66, 0.74)


def _city(p: Pen) -> None:
    for x0, y0, x1 in ((0.06, 0.44, 0.3), (0.36, 0.1, 0.64), (0.7, 0.3, 0.94)):
        p.rect(x0, y0, x1, 0.92)
        for y in range(int((0.84 - y0) / 0.16)):  # a column of windows down each building
            p.rect((x0 + x1) / 2 - 0.05, y0 + 0.08 + y * 0.16, (x0 + x1) / 2 + 0.05, y0 + 0.16 + y * 0.16, ink=0)


def _headphones(p: Pen) -> None:
    p.arc(0.5, 0.56, 0.38, 180, 360, w=0.09)
    p.line(0.16, 0.56, 0.16, 0.64, w=0.09)
    p.line(0.84, 0.56, 0.84, 0.64, w=0.09)
    p.rect(0.1, 0.56, 0.34, 0.9, radius=0.07)
    p.rect(0.66, 0.56, 0.9, 0.9, radius=0.07)


def _speaker(p: Pen) -> None:
    p.rect(0.2, 0.06, 0.8, 0.94, radius=0.08)
    p.disc(0.5, 0.62, 0.21, ink=0)
    p.disc(0.5, 0.62, 0.1)
    p.disc(0.5, 0.24, 0.08, ink=0)


def _settings(p: Pen) -> None:
    for k in range(8):  # teeth: eight thick spokes under the body
        a = math.radians(k * 45)
        p.line(0.5, 0.5, 0.5 + 0.42 * math.cos(a), 0.5 + 0.42 * math.sin(a), w=0.16)
    p.disc(0.5, 0.5, 0.31)
    p.disc(0.5, 0.5, 0.13, ink=0)


def _send(p: Pen) -> None:
    p.poly(0.08, 0.12, 0.94, 0.5, 0.08, 0.88, 0.08, 0.58, 0.6, 0.5, 0.08, 0.42)


def _archive(p: Pen) -> None:
    p.rect(0.08, 0.12, 0.92, 0.3, radius=0.03)
    p.rect(0.14, 0.34, 0.86, 0.9, radius=0.04)
    p.rect(0.44, 0.4, 0.56, 0.6, ink=0)
    p.poly(0.3, 0.56, 0.7, 0.56, 0.5, 0.8, ink=0)


def _flash(p: Pen) -> None:
    p.poly(0.3, 0.04, 0.74, 0.04, 0.58, 0.38, 0.82, 0.38, 0.34, 0.96, 0.44, 0.54, 0.22, 0.54)


def _stop(p: Pen) -> None:
    p.rect(0.2, 0.2, 0.8, 0.8, radius=0.04)


def _link(p: Pen) -> None:
    p.frame(0.04, 0.3, 0.48, 0.7, radius=0.2, w=0.09)
    p.frame(0.52, 0.3, 0.96, 0.7, radius=0.2, w=0.09)
    p.rect(0.36, 0.39, 0.64, 0.61, ink=0)  # open the facing sides, so the two links read as a chain
    p.line(0.3, 0.5, 0.7, 0.5, w=0.09)


def _eye(p: Pen) -> None:
    steps = [k / 16 for k in range(17)]
    top = [v for t in steps for v in (0.04 + 0.92 * t, 0.5 - 0.34 * math.sin(math.pi * t))]
    bottom = [v for t in reversed(steps) for v in (0.04 + 0.92 * t, 0.5 + 0.34 * math.sin(math.pi * t))]
    p.poly(*top, *bottom)
    p.disc(0.5, 0.5, 0.2, ink=0)
    p.disc(0.5, 0.5, 0.11)


def _note(p: Pen) -> None:
    p.poly(0.16, 0.06, 0.6, 0.06, 0.84, 0.3, 0.84, 0.94, 0.16, 0.94)
    p.line(0.58, 0.06, 0.58, 0.32, 0.84, 0.32, w=0.05, ink=0)
    for y in (0.5, 0.64, 0.78):
        p.line(0.3, y, 0.7, y, w=0.06, ink=0)


def _dialpad(p: Pen) -> None:
    for x in (0.24, 0.5, 0.76):
        for y in (0.12, 0.35, 0.58):
            p.disc(x, y, 0.085)
    p.disc(0.5, 0.82, 0.085)


def _folder(p: Pen) -> None:
    p.poly(0.08, 0.22, 0.4, 0.22, 0.48, 0.32, 0.92, 0.32, 0.92, 0.8, 0.08, 0.8)


def _pulse(p: Pen) -> None:  # an activity trace: flat, a spike, flat
    p.line(0.05, 0.55, 0.3, 0.55, 0.4, 0.2, 0.55, 0.85, 0.65, 0.55, 0.95, 0.55, w=0.08)


def _record(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.4, w=0.07)
    p.disc(0.5, 0.5, 0.24)


def _chart(p: Pen) -> None:  # three bars on a baseline
    for x0, top in ((0.15, 0.5), (0.42, 0.2), (0.69, 0.38)):
        p.rect(x0, top, x0 + 0.16, 0.82)
    p.line(0.08, 0.88, 0.92, 0.88, w=0.06)


SYSTEM_GLYPHS: dict[str, Glyph] = {
    "back": _back, "forward": _forward, "search": _search, "wifi": _wifi, "wifi_off": _wifi_off,
    "battery": _battery, "bluetooth": _bluetooth, "airplane": _airplane, "backspace": _backspace, "enter": _enter,
    "google": _google, "spinner": _spinner, "more": _more, "menu": _menu, "close": _close, "add": _add,
    "check": _check, "star": _star, "account": _person, "person": _person, "mic": _mic, "cart": _cart,
    "home": _home, "recents": _overview, "overview": _overview, "image": _photo, "photo": _photo,
    "play": _play, "pause": _pause, "lock": _lock, "notifications": _bell, "info": _info, "dnd": _no_entry,
    "volume": _volume, "delete": _trash, "brightness": _sun, "dark": _moon, "apps": _apps, "storage": _storage,
    "display": _screen, "devices": _devices, "cast": _cast, "key": _key, "palette": _palette,
    "emergency": _asterisk, "rotate": _rotate, "wellbeing": _heart, "font": _letter_a, "accessibility": _person,
    "location": _map, "like": _thumb, "dislike": _thumb_down, "share": _share, "save": _bookmark, "alarm": _alarm,
    "clock": _clock, "timer": _hourglass, "stopwatch": _stopwatch, "shorts": _video, "subscriptions": _video,
    "library": _files, "youtube_logo": _youtube, "edit": _edit, "sort": _sort, "history": _history,
    "restore": _history, "lap": _flag, "flag": _flag, "label": _label, "city": _city, "headphones": _headphones,
    "speaker": _speaker, "settings": _settings, "send": _send, "archive": _archive, "flash": _flash, "stop": _stop,
    "link": _link, "visibility": _eye, "preview": _eye, "note": _note, "dialpad": _dialpad, "folder": _folder,
    "activity": _pulse, "record": _record, "chart": _chart,
}
"""Glyphs of system and in-app icons (toolbars, status bar, settings rows, tabs), by `View.icon` name."""
