"""Painters: one function per view `style` that draws the view itself (not its children).

A painter gets the canvas, the view, the view's rectangle in image pixels, and the colour behind it (None when
unknown, e.g. over a scrim). It returns the colour its children are drawn on, or None when that is not a flat colour.
"""

from __future__ import annotations

from collections.abc import Callable

from android_gym.sim.layout import EDIT_TEXT, SWITCH
from android_gym.sim.render.canvas import Canvas, Rect
from android_gym.sim.render.theme import RGB, TEXT_STYLES, TextStyle, name_colour
from android_gym.sim.view import View

Painter = Callable[[Canvas, View, Rect, "RGB | None"], "RGB | None"]

PLAIN = TEXT_STYLES[""]
SMALL_ICON_VIEW_PX = 96  # device px: views this small are icon-sized, so their glyph fills them


def _text_colour(c: Canvas, v: View, style: TextStyle) -> RGB:
    return getattr(c.palette, style.colour) if v.enabled else c.palette.hint


def _label(c: Canvas, v: View, r: Rect, style: TextStyle, colour: RGB | None = None) -> Rect | None:
    """The view's icon (leading, or centred when it has no text) and its text."""
    inset = 0
    if v.icon:
        w, h = r[2] - r[0], r[3] - r[1]
        if not v.text:
            small = min(v.bounds[2] - v.bounds[0], v.bounds[3] - v.bounds[1]) <= SMALL_ICON_VIEW_PX
            c.icon(v.icon, r, c.palette.system_icon, 0.85 if small else 0.42)
            return None
        lead = min(h, w // 3)
        c.icon(v.icon, (r[0] + c.px(style.pad), r[1], r[0] + c.px(style.pad) + lead, r[3]), c.palette.system_icon,
               0.5)
        inset = lead
    return c.text_in(r, v.text, style, colour or _text_colour(c, v, style), inset)


def paint_plain(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """Text and icon on the parent's background (unknown styles, titles, hints, prices, status text)."""
    _label(c, v, r, TEXT_STYLES.get(v.style, PLAIN))
    return bg


def _fill_with(attr: str) -> Painter:
    """A painter for a container that only fills its bounds with palette colour `attr` (bars, keyboard)."""

    def paint(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
        colour = getattr(c.palette, attr)
        c.fill(r, colour)
        _label(c, v, r, TEXT_STYLES.get(v.style, PLAIN))
        return colour

    return paint


def paint_button(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A filled pill in the accent colour (grey when disabled), with centred text."""
    p = c.palette
    colour = p.accent if v.enabled else p.surface_variant
    c.round_fill(r, (r[3] - r[1]) / 2, colour)
    _label(c, v, r, TEXT_STYLES["button"], p.on_accent if v.enabled else p.hint)
    return colour


def paint_field(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """An EditText: its text, or its hint in grey; a focus underline and a cursor while focused."""
    p = c.palette
    c.round_fill(r, c.px(16), p.surface_variant)
    inset = 0
    if v.icon:
        inset = r[3] - r[1]
        c.icon(v.icon, (r[0] + c.px(16), r[1], r[0] + c.px(16) + inset, r[3]), p.text_secondary, 0.42)
    # The sim's fields carry the hint as text while empty (uiautomator reports it so).
    showing_hint = not v.text or (bool(v.hint) and v.text == v.hint)
    text = v.hint if showing_hint else ("*" * len(v.text) if v.password else v.text)
    where = c.text_in(r, text, TEXT_STYLES["field"], p.hint if showing_hint else p.text, inset)
    if v.focused:
        line = c.px(6)
        c.fill((r[0], r[3] - line, r[2], r[3]), p.accent)
        pad = c.px(TEXT_STYLES["field"].pad)
        x = r[0] + pad + inset if showing_hint or where is None else where[2] + 1
        h = max(2, (r[3] - r[1]) // 2)
        c.fill((x, (r[1] + r[3] - h) // 2, x + c.px(4), (r[1] + r[3] + h) // 2), p.accent)
    return p.surface_variant


def paint_switch(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A Material switch: a pill track and a round thumb, right when `checked`."""
    p = c.palette
    w, h = r[2] - r[0], r[3] - r[1]
    track_h = max(2, int(min(h * 0.75, w * 0.45)))
    track_w = int(track_h * 1.7)
    x1 = r[2] - c.px(8)
    y0 = (r[1] + r[3] - track_h) // 2
    c.round_fill((x1 - track_w, y0, x1, y0 + track_h), track_h / 2, p.track_on if v.checked else p.track_off)
    d = max(1, int(track_h * (0.8 if v.checked else 0.6)))
    cx = x1 - track_h // 2 if v.checked else x1 - track_w + track_h // 2
    cy = y0 + track_h // 2
    c.draw.ellipse((cx - d // 2, cy - d // 2, cx - d // 2 + d - 1, cy - d // 2 + d - 1),
                   fill=p.thumb_on if v.checked else p.thumb_off, outline=None if v.checked else p.track_off)
    return bg


def paint_check(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A CheckBox or RadioButton: the box (circle for radio) at the left, ticked when `checked`, then the label."""
    p = c.palette
    side = max(3, int(min(r[3] - r[1], c.px(56))))
    x0, y0 = r[0], (r[1] + r[3] - side) // 2
    box = (x0, y0, x0 + side, y0 + side)
    radio = v.style == "radio" or v.cls.endswith("RadioButton")
    if v.checked:
        c.round_fill(box, side / 2 if radio else c.px(6), p.on_accent if radio else p.accent, outline=p.accent)
        if radio:
            c.round_fill((x0 + side // 4, y0 + side // 4, x0 + side - side // 4, y0 + side - side // 4), side, p.accent)
        else:
            c.icon("check", box, p.on_accent, 0.8)
    else:
        c.round_fill(box, side / 2 if radio else c.px(6), None, outline=p.text_secondary)
    c.text_in(r, v.text, TEXT_STYLES["checkbox"], _text_colour(c, v, PLAIN), side + c.px(24))
    return bg


def paint_key(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A soft-keyboard key: a rounded cap with its letter or glyph; Enter in the accent colour."""
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


def paint_app_icon(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A launcher icon: the app's coloured rounded square with its glyph, and the label underneath."""
    w, h = r[2] - r[0], r[3] - r[1]
    side = int(min(w * 0.54, h * 0.5))
    top = r[1] + int(h * 0.1)
    c.app_icon(v.icon or "app", v.text or v.desc, r[0] + (w - side) // 2, top, side)
    label_top = top + side + max(1, int(h * 0.04))
    c.text_in((r[0], label_top, r[2], label_top + max(1, int(h * 0.18))), v.text, TEXT_STYLES["app_icon"],
              c.palette.text)
    return bg


def paint_row(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A list row: its text (with a leading icon) and a divider along the bottom; tinted when selected."""
    p = c.palette
    if v.selected:
        c.fill(r, p.surface_variant)
        bg = p.surface_variant
    style = TEXT_STYLES["row"]
    c.fill((r[0] + c.px(style.pad), r[3] - 1, r[2], r[3]), p.outline)
    _label(c, v, r, style)
    return bg


def paint_card(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A raised card: a rounded, outlined surface."""
    p = c.palette
    c.round_fill(r, c.px(24), p.surface, outline=p.outline)
    _label(c, v, r, TEXT_STYLES["card"])
    return p.surface


def paint_sponsored(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A sponsored entry: an amber tint and a "Sponsored" tag in its top-right corner."""
    p = c.palette
    c.fill(r, p.sponsored)
    strip = min((r[3] - r[1]) // 3, c.px(60))
    c.text_in((r[0], r[1], r[2], r[1] + strip), "Sponsored", TEXT_STYLES["sponsored_label"], p.sponsored_text)
    _label(c, v, r, TEXT_STYLES["sponsored"])
    return p.sponsored


def paint_searchbar(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A pill-shaped search bar with its leading glyph (the Google "G" on the home screen)."""
    p = c.palette
    c.round_fill(r, (r[3] - r[1]) / 2, p.surface_variant)
    h = r[3] - r[1]
    if v.icon:
        c.icon(v.icon, (r[0] + h // 4, r[1], r[0] + h // 4 + h, r[3]), p.accent, 0.45)
    c.text_in(r, v.text, TEXT_STYLES["searchbar"], p.hint, h)
    return p.surface_variant


def paint_dialog(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A dialog's box: a rounded surface."""
    c.round_fill(r, c.px(36), c.palette.surface)
    return c.palette.surface


def paint_scrim(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """The dimming layer behind a dialog: darkens everything drawn so far."""
    c.dim(r, c.palette.scrim_pct)
    return None


def paint_spinner(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A progress spinner (a three-quarter ring in the accent colour)."""
    c.icon("spinner", r, c.palette.accent, 0.8)
    return bg


def paint_link(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """Hyperlink text: link colour, underlined."""
    where = _label(c, v, r, TEXT_STYLES["link"])
    if where is not None:
        c.fill((where[0], where[3] - 1, where[2], where[3]), c.palette.link)
    return bg


def paint_logo(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A site's or app's word mark: large bold text in a colour derived from the name."""
    _label(c, v, r, TEXT_STYLES["logo"], name_colour(v.text.lower()))
    return bg


def paint_chip(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A filter chip: an outlined pill, filled when selected or checked."""
    p = c.palette
    on = v.selected or v.checked
    c.round_fill(r, (r[3] - r[1]) / 2, p.surface_variant if on else bg, outline=p.outline)
    _label(c, v, r, TEXT_STYLES["chip"])
    return p.surface_variant if on else bg


def paint_tab(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A tab: centred label; the selected tab is accent-coloured and underlined."""
    p = c.palette
    _label(c, v, r, TEXT_STYLES["tab"], p.accent if v.selected else None)
    if v.selected:
        c.fill((r[0], r[3] - c.px(8), r[2], r[3]), p.accent)
    return bg


def paint_image(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """An image placeholder (product photo, thumbnail): a muted tile coloured by its description, with a glyph."""
    r0, g0, b0 = name_colour(v.desc or v.text or v.rid)
    colour = ((r0 + 2 * 200) // 3, (g0 + 2 * 200) // 3, (b0 + 2 * 200) // 3)
    c.fill(r, colour)
    c.icon(v.icon or "image", r, (255, 255, 255), 0.4)
    return colour


def paint_divider(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A one-pixel rule along the top of the bounds."""
    c.fill((r[0], r[1], r[2], r[1] + 1), c.palette.outline)
    return bg


PAINTERS: dict[str, Painter] = {
    "statusbar": _fill_with("system_bar"), "navbar": _fill_with("system_bar"), "toolbar": _fill_with("surface"),
    "keyboard": _fill_with("keyboard"), "dark": _fill_with("bg"), "key": paint_key, "button": paint_button,
    "field": paint_field, "switch": paint_switch, "checkbox": paint_check, "radio": paint_check,
    "app_icon": paint_app_icon, "row": paint_row, "card": paint_card, "sponsored": paint_sponsored,
    "searchbar": paint_searchbar, "dialog": paint_dialog, "scrim": paint_scrim, "spinner": paint_spinner,
    "link": paint_link, "logo": paint_logo, "chip": paint_chip, "tab": paint_tab, "image": paint_image,
    "divider": paint_divider,
}
"""Painter per view style; a style not listed here is drawn by `paint_plain` (after `CLASS_PAINTERS`)."""

CLASS_PAINTERS: dict[str, Painter] = {
    EDIT_TEXT: paint_field, SWITCH: paint_switch, "android.widget.ProgressBar": paint_spinner,
    "android.widget.CheckBox": paint_check, "android.widget.RadioButton": paint_check,
}
"""Painter per Android class, for views without a known style (an unstyled EditText still looks like a field)."""


def painter_for(v: View) -> Painter:
    """The painter that draws `v`: by style, else by class, else plain text."""
    return PAINTERS.get(v.style) or CLASS_PAINTERS.get(v.cls) or paint_plain
