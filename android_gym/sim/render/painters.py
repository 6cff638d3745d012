"""Painters: one function per view `style` that draws the view itself (its children are drawn after it).

A painter gets the canvas, the view, the view's rectangle in image pixels, and the colour behind it (None when
unknown, e.g. over a scrim). It returns the colour its children are drawn on, or None when that is not a flat
colour. This module holds text styles and containers; `controls` holds inputs and buttons; `PAINTERS` maps every
known style to its painter.
"""

from __future__ import annotations

from android_gym.sim.layout import EDIT_TEXT, IMAGE_VIEW, SWITCH
from android_gym.sim.render import controls
from android_gym.sim.render.canvas import Canvas, Painter, Rect
from android_gym.sim.render.theme import RGB, TEXT_STYLES, TextStyle, app_colour, name_colour
from android_gym.sim.view import View

PLAIN = TEXT_STYLES[""]
PLACEHOLDER_ICONS = frozenset({"product", "thumbnail", "promo", "image", "banner"})
"""`icon` names of pictures (product photos, video thumbnails): drawn as tinted tiles, not glyphs."""


def paint_plain(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """Text and icon on the parent's background: unknown styles and every text-only style (title, hint, price...)."""
    c.label(v, r, TEXT_STYLES.get(v.style, PLAIN), bg)
    return bg


def _fill_with(attr: str) -> Painter:
    """A painter for a container that fills its bounds with palette colour `attr` (bars, keyboard, toolbars)."""

    def paint(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
        colour = getattr(c.palette, attr)
        c.fill(r, colour)
        c.label(v, r, TEXT_STYLES.get(v.style, PLAIN), colour)
        return colour

    paint.__doc__ = f"Fill the bounds with the palette's `{attr}` colour, then the view's own label."
    return paint


def paint_row(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A list row: a leading icon, its text and a divider along the bottom; tinted when selected."""
    p = c.palette
    if v.selected:
        c.fill(r, p.surface_variant)
        bg = p.surface_variant
    style = TEXT_STYLES.get(v.style, TEXT_STYLES["row"])
    c.fill((r[0] + int(style.pad * c.scale + 0.5), r[3] - 1, r[2], r[3]), p.outline)
    c.label(v, r, style, bg, leading=True)
    return bg


def paint_tabbar(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A bottom navigation bar: a surface with a rule along its top."""
    p = c.palette
    c.fill(r, p.surface)
    c.fill((r[0], r[1], r[2], r[1] + 1), p.outline)
    return p.surface


def paint_card(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A raised card: a rounded, outlined surface."""
    p = c.palette
    c.round_fill(r, c.px(24), p.surface, outline=p.outline)
    c.label(v, r, TEXT_STYLES["card"], p.surface)
    return p.surface


def paint_sponsored(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A sponsored entry or label: an amber tint; a container also gets a "Sponsored" tag unless a child says so."""
    p = c.palette
    c.fill(r, p.sponsored)
    if v.text:  # the label itself ("Sponsored", an ad's byline)
        c.text_in(r, v.text, TEXT_STYLES["sponsored"], p.sponsored_text)
    elif not any(child.text == "Sponsored" for child in v.children):
        strip = min((r[3] - r[1]) // 3, c.px(60))
        c.text_in((r[0], r[1], r[2], r[1] + strip), "Sponsored", TEXT_STYLES["sponsored_label"], p.sponsored_text)
    return p.sponsored


def paint_searchbar(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A pill-shaped search bar with its leading glyph (the Google "G" on the home screen)."""
    p = c.palette
    c.round_fill(r, (r[3] - r[1]) / 2, p.surface_variant)
    h = r[3] - r[1]
    if v.icon:
        c.icon(v.icon, (r[0] + h // 8, r[1], r[0] + h // 8 + h, r[3]), p.accent, 0.45)
    c.text_in(r, v.text, TEXT_STYLES["searchbar"], p.hint, h if v.icon else 0)
    return p.surface_variant


def paint_dialog(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A dialog's box: a rounded surface."""
    c.round_fill(r, c.px(36), c.palette.surface)
    return c.palette.surface


def paint_scrim(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """The dimming layer behind a dialog: darkens everything drawn so far."""
    c.dim(r, c.palette.scrim_pct)
    return None


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


def paint_image(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A picture (product photo, thumbnail): a pale tile tinted by its description, with a picture glyph."""
    r0, g0, b0 = name_colour(v.desc or v.text or v.rid or v.icon)
    colour = ((r0 + 400) // 3, (g0 + 400) // 3, (b0 + 400) // 3)  # two parts light grey, one part hue
    c.round_fill(r, c.px(16), colour)
    if v.printed:
        _paint_printed(c, v.printed, r)
    else:
        c.icon("image", r, (255, 255, 255), 0.4)
    return colour


PAPER, INK = (250, 248, 240), (30, 30, 30)


def _paint_printed(c: Canvas, lines: tuple[str, ...], r: Rect) -> None:
    """A sheet of paper filling most of a picture, its lines printed top down in dark ink (a photographed receipt).

    The font shrinks so the longest line fits the sheet's width and every line its height (about 0.55 em per
    character in the bundled font), and never grows past 44 device px.
    """
    w, h = r[2] - r[0], r[3] - r[1]
    sheet = (r[0] + w // 20, r[1] + h // 40, r[2] - w // 20, r[3] - h // 40)
    c.fill(sheet, PAPER)
    pad = max(1, (sheet[2] - sheet[0]) // 20)
    width = sheet[2] - sheet[0] - 2 * pad
    longest = max(len(line) for line in lines) or 1
    line_h = max(1, min((sheet[3] - sheet[1] - 2 * pad) // len(lines), int(width / (0.55 * longest) * 1.25),
                        int(55 * c.scale)))
    style = TextStyle(size=max(1, int(line_h * 0.8 / c.scale)))
    for i, line in enumerate(lines):
        top = sheet[1] + pad + i * line_h
        c.text_in((sheet[0] + pad, top, sheet[2] - pad, top + line_h), line, style, INK)


def paint_app_image(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """An app's icon shown inside an app (store listings): the launcher icon filling the square of the bounds."""
    side = min(r[2] - r[0], r[3] - r[1])
    c.app_icon(v.icon, v.desc or v.text, (r[0] + r[2] - side) // 2, (r[1] + r[3] - side) // 2, side)
    return bg


def paint_video(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A video player: black, so its controls are drawn in white."""
    c.fill(r, (0, 0, 0))
    return (0, 0, 0)


def paint_banner(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A promotional banner: a deep colour derived from its text, with the text in white."""
    colour = tuple(ch * 3 // 4 for ch in name_colour(v.text))
    c.fill(r, colour)
    c.text_in(r, v.text, TEXT_STYLES["banner"], (255, 255, 255))
    return colour


def paint_link(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """Hyperlink text: link colour, underlined."""
    where = c.label(v, r, TEXT_STYLES["link"], bg)
    if where is not None:
        c.fill((where[0], where[3] - 1, where[2], where[3]), c.palette.link)
    return bg


def paint_logo(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A site's or app's word mark: large bold text in the brand's colour (else one derived from the name)."""
    c.label(v, r, TEXT_STYLES["logo"], bg, app_colour(v.text.strip().lower()))
    return bg


def paint_divider(c: Canvas, v: View, r: Rect, bg: RGB | None) -> RGB | None:
    """A one-pixel rule along the top of the bounds."""
    c.fill((r[0], r[1], r[2], r[1] + 1), c.palette.outline)
    return bg


PAINTERS: dict[str, Painter] = {
    "statusbar": _fill_with("system_bar"), "navbar": _fill_with("system_bar"), "toolbar": _fill_with("surface"),
    "keyboard": _fill_with("keyboard"), "dark": _fill_with("bg"), "row": paint_row, "suggestion": paint_row,
    "tabbar": paint_tabbar, "card": paint_card, "sponsored": paint_sponsored, "searchbar": paint_searchbar,
    "dialog": paint_dialog, "scrim": paint_scrim, "app_icon": paint_app_icon, "image": paint_image,
    "video": paint_video, "banner": paint_banner, "link": paint_link, "logo": paint_logo, "divider": paint_divider,
    **controls.PAINTERS,
}
"""Painter per view style; other styles are drawn by `paint_plain` (after the class-based fallbacks)."""

CLASS_PAINTERS: dict[str, Painter] = {
    EDIT_TEXT: controls.paint_field, SWITCH: controls.paint_switch, "android.widget.SeekBar": controls.paint_slider,
    "android.widget.ProgressBar": controls.paint_spinner, "android.widget.CheckBox": controls.paint_check,
    "android.widget.RadioButton": controls.paint_check,
}
"""Painter per Android class, for views without a known style (an unstyled EditText still looks like a field)."""


def painter_for(v: View) -> Painter:
    """The painter that draws `v`: by style, else by class (pictures by icon name), else plain text and icon."""
    painter = PAINTERS.get(v.style) or CLASS_PAINTERS.get(v.cls)
    if painter is not None:
        return painter
    if v.icon in PLACEHOLDER_ICONS:
        return paint_image
    if v.icon == "app" and v.cls == IMAGE_VIEW:
        return paint_app_image
    return paint_plain
