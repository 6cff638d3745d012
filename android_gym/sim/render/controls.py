"""Painters of input controls: buttons, text fields, switches, checkboxes, keys, tabs, sliders and progress.

Each shows its state the way Material does (a switch's thumb moves, a focused field gets an underline, a selected
tab turns the accent colour), so an agent can read state off the pixels.
"""

from __future__ import annotations

from android_gym.sim.render.canvas import Canvas, Painter, Rect
from android_gym.sim.render.theme import RGB, TEXT_STYLES
from android_gym.sim.view import View


def paint_button(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A filled pill in the accent colour (grey when disabled), with centred text."""
    p = c.palette
    colour = p.accent if v.enabled else p.surface_variant
    c.round_fill(r, (r[3] - r[1]) / 2, colour)
    c.label(v, r, TEXT_STYLES["button"], colour, p.on_accent if v.enabled else p.hint)
    return colour


def paint_outlined_button(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """An outlined pill with accent text (a secondary action: Cancel, Uninstall)."""
    c.round_fill(r, (r[3] - r[1]) / 2, None, outline=c.palette.outline)
    c.label(v, r, TEXT_STYLES["outlined_button"], bg)
    return bg


def paint_fab(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A floating action button: a rounded square in the accent colour with its glyph."""
    p = c.palette
    c.round_fill(r, (r[3] - r[1]) * 0.3, p.accent)
    c.icon(v.icon or "add", r, p.on_accent, 0.42)
    return p.accent


def paint_field(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """An EditText: its text, or its hint in grey; a focus underline and a cursor while focused."""
    p = c.palette
    c.round_fill(r, c.px(16), p.surface_variant)
    inset = 0
    if v.icon:
        inset = r[3] - r[1]
        c.icon(v.icon, (r[0] + c.px(16), r[1], r[0] + c.px(16) + inset, r[3]), p.text_secondary, 0.42)
    # The sim's fields carry the hint as their text while empty, as uiautomator reports them.
    showing_hint = not v.text or (bool(v.hint) and v.text == v.hint)
    text = v.hint if showing_hint else ("*" * len(v.text) if v.password else v.text)
    style = TEXT_STYLES["field"]
    where = c.text_in(r, text, style, p.hint if showing_hint else p.text, inset)
    if v.focused:
        c.fill((r[0], r[3] - c.px(6), r[2], r[3]), p.accent)
        x = r[0] + int(style.pad * c.scale + 0.5) + inset if showing_hint or where is None else where[2] + 1
        h = max(2, (r[3] - r[1]) // 2)
        c.fill((x, (r[1] + r[3] - h) // 2, x + c.px(4), (r[1] + r[3] + h) // 2), p.accent)
    return p.surface_variant


def paint_switch(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A Material switch: a pill track and a round thumb, on the right and coloured when `checked`."""
    p = c.palette
    w, h = r[2] - r[0], r[3] - r[1]
    track_h = max(2, int(min(h * 0.75, w * 0.45)))
    track_w = int(track_h * 1.7)
    x1 = r[2] - c.px(8)
    y0 = (r[1] + r[3] - track_h) // 2
    c.round_fill((x1 - track_w, y0, x1, y0 + track_h), track_h / 2, p.track_on if v.checked else p.track_off)
    d = max(1, int(track_h * (0.8 if v.checked else 0.6)))
    cx = x1 - track_h // 2 if v.checked else x1 - track_w + track_h // 2
    top = y0 + track_h // 2 - d // 2
    c.round_fill((cx - d // 2, top, cx - d // 2 + d, top + d), d, p.thumb_on if v.checked else p.thumb_off)
    return bg


def paint_check(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A CheckBox or RadioButton: the box (circle for radio) at the left, ticked when `checked`, then the label."""
    p = c.palette
    side = max(3, min(r[3] - r[1], c.px(56)))
    x0, y0 = r[0] + c.px(8), (r[1] + r[3] - side) // 2
    box = (x0, y0, x0 + side, y0 + side)
    radio = v.style == "radio" or v.cls.endswith("RadioButton")
    radius = side / 2 if radio else c.px(6)
    if not v.checked:
        c.round_fill(box, radius, None, outline=p.text_secondary)
    elif radio:
        c.round_fill(box, radius, None, outline=p.accent)
        q = side // 4
        c.round_fill((x0 + q, y0 + q, x0 + side - q, y0 + side - q), side, p.accent)
    else:
        c.round_fill(box, radius, p.accent)
        c.icon("check", box, p.on_accent, 0.8)
    c.text_in(r, v.text, TEXT_STYLES["checkbox"], p.text if v.enabled else p.hint, side + c.px(40))
    return bg


def paint_chip(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A chip or segmented toggle: an outlined pill, filled when selected or checked."""
    p = c.palette
    on = v.selected or v.checked
    fill = p.track_on if on else bg
    c.round_fill(r, (r[3] - r[1]) / 2, fill, outline=p.outline)
    c.label(v, r, TEXT_STYLES.get(v.style, TEXT_STYLES["chip"]), fill)
    return fill


def paint_key(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A keypad or soft-keyboard key: a rounded cap with its letter or glyph; Enter in the accent colour."""
    p = c.palette
    gap = c.px(8)
    cap = (r[0] + gap, r[1] + gap, r[2] - gap, r[3] - gap)
    # Letter keys and the space bar are plain caps; modifier keys (delete, symbols) are darker, as on Gboard.
    if v.icon == "enter":
        colour, ink = p.accent, p.on_accent
    elif v.text or v.desc == "Space":
        colour, ink = p.key, p.key_text
    else:
        colour, ink = p.key_special, p.key_text
    c.round_fill(cap, c.px(14), colour)
    if v.icon:
        c.icon(v.icon, cap, ink, 0.5)
    c.text_in(cap, v.text, TEXT_STYLES["key"], ink)
    return colour


def paint_tab(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A tab: its glyph over its label (bottom navigation) or the label alone; the selected tab in the accent."""
    p = c.palette
    colour = p.accent if v.selected else p.text_secondary
    style = TEXT_STYLES["tab"]
    if v.icon and v.text:
        split = r[1] + (r[3] - r[1]) * 3 // 5
        c.icon(v.icon, (r[0], r[1] + c.px(12), r[2], split), colour, 0.6)
        c.text_in((r[0], split, r[2], r[3] - c.px(8)), v.text, style, colour)
    else:
        c.label(v, r, style, bg, colour)
    if v.selected and not v.icon:
        c.fill((r[0], r[3] - c.px(8), r[2], r[3]), p.accent)
    return bg


def paint_dial(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A number on a clock-face picker: a disc, accent-filled when selected."""
    p = c.palette
    side = min(r[2] - r[0], r[3] - r[1])
    x, y = (r[0] + r[2] - side) // 2, (r[1] + r[3] - side) // 2
    fill = p.accent if v.selected else p.surface_variant
    c.round_fill((x, y, x + side, y + side), side, fill)
    c.text_in(r, v.text, TEXT_STYLES["dial"], p.on_accent if v.selected else p.text)
    return fill


def paint_time_field(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """The hour or minute box of a time picker: large digits, tinted when it is the one being edited."""
    p = c.palette
    fill = p.track_on if v.selected else p.surface_variant
    c.round_fill(r, c.px(24), fill)
    c.text_in(r, v.text, TEXT_STYLES["time_field"], p.text)
    return fill


def _bar(c: Canvas, r: Rect, fraction: float, thickness_px: int) -> tuple[int, int]:
    """A horizontal track with its first `fraction` in the accent colour; returns (x of the fill's end, centre y)."""
    p = c.palette
    cy = (r[1] + r[3]) // 2
    top = cy - thickness_px // 2
    c.round_fill((r[0], top, r[2], top + thickness_px), thickness_px / 2, p.track_off)
    x = r[0] + int((r[2] - r[0]) * min(1.0, max(0.0, fraction)))
    c.round_fill((r[0], top, x, top + thickness_px), thickness_px / 2, p.accent)
    return x, cy


def paint_slider(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A SeekBar: a track filled up to the value its text gives ("60%"), and a round thumb there."""
    try:
        fraction = float(v.text.strip().rstrip("%")) / 100
    except ValueError:
        fraction = 0.0
    d = max(3, min(r[3] - r[1], c.px(48)))
    x, cy = _bar(c, (r[0] + d // 2, r[1], r[2] - d // 2, r[3]), fraction, c.px(12))  # the thumb stays inside
    c.round_fill((x - d // 2, cy - d // 2, x - d // 2 + d, cy - d // 2 + d), d, c.palette.accent)
    return bg


def paint_progress(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A horizontal progress bar (indeterminate in the sim, drawn at 60%)."""
    _bar(c, r, 0.6, min(r[3] - r[1], c.px(12)))
    return bg


def paint_spinner(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A circular progress spinner: a three-quarter ring in the accent colour."""
    c.icon("spinner", r, c.palette.accent, 0.8)
    return bg


def _text_button(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A borderless button: accent-coloured centred text."""
    c.label(v, r, TEXT_STYLES["text_button"], bg)
    return bg


PAINTERS: dict[str, Painter] = {
    "button": paint_button, "outlined_button": paint_outlined_button, "text_button": _text_button, "fab": paint_fab,
    "field": paint_field, "switch": paint_switch, "checkbox": paint_check, "radio": paint_check, "chip": paint_chip,
    "toggle": paint_chip, "key": paint_key, "tab": paint_tab, "dial": paint_dial, "time_field": paint_time_field,
    "slider": paint_slider, "progress": paint_progress, "spinner": paint_spinner,
}
"""Painter per control style."""
