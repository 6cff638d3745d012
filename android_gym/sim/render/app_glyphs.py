"""App-icon glyphs: what each app's launcher icon shows (white on the app's colour), by the app's `icon` name."""

from __future__ import annotations

from android_gym.sim.render.glyphs import SYSTEM_GLYPHS, Glyph, Pen


def _mail(p: Pen) -> None:
    p.frame(0.1, 0.22, 0.9, 0.78, radius=0.04, w=0.08)
    p.line(0.12, 0.26, 0.5, 0.55, 0.88, 0.26, w=0.08)


def _camera(p: Pen) -> None:
    p.rect(0.1, 0.28, 0.9, 0.82, radius=0.08)
    p.rect(0.34, 0.18, 0.66, 0.32, radius=0.03)
    p.disc(0.5, 0.55, 0.19, ink=0)
    p.disc(0.5, 0.55, 0.11)


def _phone(p: Pen) -> None:
    p.arc(0.62, 0.38, 0.46, 95, 175, w=0.16)
    p.rect(0.08, 0.16, 0.3, 0.36, radius=0.06)
    p.rect(0.58, 0.72, 0.82, 0.92, radius=0.06)


def _sms(p: Pen) -> None:
    p.rect(0.1, 0.16, 0.9, 0.7, radius=0.12)
    p.poly(0.22, 0.66, 0.42, 0.66, 0.2, 0.88)
    for x in (0.32, 0.5, 0.68):
        p.disc(x, 0.43, 0.06, ink=0)


def _calendar(p: Pen) -> None:
    p.frame(0.14, 0.18, 0.86, 0.86, radius=0.06, w=0.07)
    p.rect(0.14, 0.18, 0.86, 0.36)
    for row in (0.5, 0.7):
        for col in (0.3, 0.5, 0.7):
            p.rect(col - 0.05, row - 0.05, col + 0.05, row + 0.05)


def _chrome(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.14)
    p.disc(0.5, 0.5, 0.15)


def _browser(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.38, w=0.07)
    p.oval(0.34, 0.12, 0.66, 0.88, w=0.06)
    p.line(0.12, 0.5, 0.88, 0.5, w=0.06)


def _bag(p: Pen) -> None:
    p.rect(0.16, 0.34, 0.84, 0.88, radius=0.05)
    p.arc(0.5, 0.34, 0.16, 180, 360, w=0.07)


def _calculator(p: Pen) -> None:
    p.line(0.16, 0.28, 0.4, 0.28, w=0.09)  # plus, minus, times and equals, one per quarter
    p.line(0.28, 0.16, 0.28, 0.4, w=0.09)
    p.line(0.6, 0.28, 0.84, 0.28, w=0.09)
    p.line(0.18, 0.62, 0.38, 0.82, w=0.09)
    p.line(0.18, 0.82, 0.38, 0.62, w=0.09)
    p.line(0.6, 0.65, 0.84, 0.65, w=0.08)
    p.line(0.6, 0.79, 0.84, 0.79, w=0.08)


def _tasks(p: Pen) -> None:
    p.ring(0.5, 0.5, 0.42, w=0.1)
    p.line(0.3, 0.52, 0.45, 0.66, 0.72, 0.36, w=0.1)


def _cone(p: Pen) -> None:  # a traffic cone: VLC's icon
    p.poly(0.5, 0.1, 0.78, 0.78, 0.22, 0.78)
    p.rect(0.14, 0.78, 0.86, 0.9, radius=0.03)


def _grid(p: Pen) -> None:
    for x in (0.32, 0.68):
        for y in (0.32, 0.68):
            p.disc(x, y, 0.12)


_SHARED = {name: SYSTEM_GLYPHS[name] for name in ("photo", "clock", "search", "play", "settings")}

APP_GLYPHS: dict[str, Glyph] = {
    **_SHARED, "mail": _mail, "map": SYSTEM_GLYPHS["location"], "camera": _camera, "phone": _phone, "sms": _sms,
    "calendar": _calendar, "contacts": SYSTEM_GLYPHS["person"], "files": SYSTEM_GLYPHS["library"],
    "chrome": _chrome, "browser": _browser, "play_store": _SHARED["play"], "playstore": _SHARED["play"],
    "store": _SHARED["play"], "youtube": SYSTEM_GLYPHS["youtube_logo"], "shop": _bag, "amazon": _bag,
    "launcher": _grid, "app": _grid, "music": _SHARED["play"], "recorder": SYSTEM_GLYPHS["mic"], "expense": _bag,
    "recipes": SYSTEM_GLYPHS["wellbeing"], "calculator": _calculator, "tasks": _tasks, "notes": SYSTEM_GLYPHS["note"],
    "draw": SYSTEM_GLYPHS["palette"], "tracks": SYSTEM_GLYPHS["activity"], "vlc": _cone,
    "feeder": SYSTEM_GLYPHS["notifications"],
    "weather": SYSTEM_GLYPHS["brightness"], "habits": SYSTEM_GLYPHS["check"],
    "anki": SYSTEM_GLYPHS["star"],
}
"""Glyphs drawn on app icons (white on the app's colour), by the app's `icon` name."""
