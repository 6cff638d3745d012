"""Colours and type sizes of the simulated phone: a light and a dark palette, per-style text sizes, app colours.

Colours are RGB tuples of 0-255 ints. Sizes are in device pixels of the 1080-wide panel; the renderer scales them.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

RGB = tuple[int, int, int]
MIN_CONTRAST = 70  # luminance gap below which text or a glyph is swapped for white or black to stay readable


@dataclass(frozen=True)
class Palette:
    """Every colour the renderer paints with; one instance per theme.

    Attributes:
        name: "light" or "dark"; part of every cache key, so two themes never share a cached image.
        bg: window background behind app content.
        surface: raised containers (toolbars, cards, dialogs).
        surface_variant: filled inputs (text fields, search bars, chips).
        outline: card borders and dividers.
        text, text_secondary, hint: primary text, secondary text, hints and disabled text.
        accent, on_accent: buttons, links, focus underlines, switches; and what is drawn on them.
        link, price: hyperlink text and prices (shopping sites).
        system_bar, system_icon: status and navigation bars, and their clock and glyphs.
        keyboard, key, key_special, key_text: the soft keyboard.
        sponsored, sponsored_text: the tint of a sponsored entry and its "Sponsored" label.
        track_on, track_off, thumb_on, thumb_off: switch parts.
        scrim_pct: percentage of brightness kept under a dialog's scrim.
    """

    name: str
    bg: RGB
    surface: RGB
    surface_variant: RGB
    outline: RGB
    text: RGB
    text_secondary: RGB
    hint: RGB
    accent: RGB
    on_accent: RGB
    link: RGB
    price: RGB
    system_bar: RGB
    system_icon: RGB
    keyboard: RGB
    key: RGB
    key_special: RGB
    key_text: RGB
    sponsored: RGB
    sponsored_text: RGB
    track_on: RGB
    track_off: RGB
    thumb_on: RGB
    thumb_off: RGB
    scrim_pct: int


LIGHT = Palette(
    name="light", bg=(255, 255, 255), surface=(240, 244, 249), surface_variant=(232, 236, 242), outline=(218, 220, 224),
    text=(32, 33, 36), text_secondary=(95, 99, 104), hint=(128, 134, 139), accent=(26, 115, 232),
    on_accent=(255, 255, 255), link=(26, 13, 171), price=(177, 39, 4), system_bar=(236, 239, 243),
    system_icon=(60, 64, 67), keyboard=(226, 229, 234), key=(255, 255, 255), key_special=(200, 205, 214),
    key_text=(32, 33, 36), sponsored=(255, 244, 206), sponsored_text=(150, 90, 0), track_on=(138, 180, 248),
    track_off=(189, 193, 198), thumb_on=(26, 115, 232), thumb_off=(255, 255, 255), scrim_pct=45,
)

# Dark theme: Material's dark surfaces, lighter accents so text keeps its contrast.
DARK = Palette(
    name="dark", bg=(18, 18, 20), surface=(38, 40, 44), surface_variant=(48, 51, 56), outline=(72, 75, 80),
    text=(232, 234, 237), text_secondary=(189, 193, 198), hint=(140, 145, 150), accent=(138, 180, 248),
    on_accent=(18, 18, 20), link=(138, 180, 248), price=(242, 139, 130), system_bar=(28, 29, 32),
    system_icon=(218, 220, 224), keyboard=(33, 35, 38), key=(60, 63, 68), key_special=(45, 48, 52),
    key_text=(232, 234, 237), sponsored=(66, 54, 20), sponsored_text=(253, 214, 99), track_on=(66, 104, 170),
    track_off=(95, 99, 104), thumb_on=(138, 180, 248), thumb_off=(189, 193, 198), scrim_pct=40,
)


@dataclass(frozen=True)
class TextStyle:
    """How a style sets its text.

    Attributes:
        size: font size in device pixels (Android's 14sp is about 37 px on a 1080-wide, 420 dpi panel).
        colour: the `Palette` attribute the text is painted with.
        align: "left", "center" or "right", horizontally; text is always centred vertically.
        pad: horizontal padding inside the bounds, in device pixels.
        bold: whether glyphs are thickened (the bundled font has no bold face).
    """

    size: int = 40
    colour: str = "text"
    align: str = "left"
    pad: int = 0
    bold: bool = False


TEXT_STYLES: dict[str, TextStyle] = {
    "": TextStyle(),
    "title": TextStyle(size=58, bold=True),
    "dialog_title": TextStyle(size=54, bold=True),
    "logo": TextStyle(size=84, bold=True),
    "hint": TextStyle(colour="hint"),
    "status": TextStyle(size=38, colour="system_icon"),
    "link": TextStyle(colour="link"),
    "price": TextStyle(size=48, colour="price", bold=True),
    "button": TextStyle(size=42, colour="on_accent", align="center", pad=24),
    "row": TextStyle(size=42, pad=48),
    "sponsored": TextStyle(size=34, colour="sponsored_text", pad=8, bold=True),
    "card": TextStyle(size=42, pad=36),
    "field": TextStyle(size=42, pad=40),
    "searchbar": TextStyle(size=42, colour="hint", pad=40),
    "key": TextStyle(size=50, colour="key_text", align="center"),
    "app_icon": TextStyle(size=36, align="center", pad=8),
    "chip": TextStyle(size=38, align="center", pad=24),
    "tab": TextStyle(size=40, colour="text_secondary", align="center", pad=12),
    "toolbar": TextStyle(size=58, pad=48, bold=True),
    "secondary": TextStyle(size=36, colour="text_secondary"),
    "sponsored_label": TextStyle(size=30, colour="sponsored_text", align="right", pad=24),
    "checkbox": TextStyle(size=42),
    "display": TextStyle(size=150, align="center"),
    "time": TextStyle(size=96),
    "time_field": TextStyle(size=120, align="center"),
    "dial": TextStyle(size=44, align="center"),
    "toggle": TextStyle(size=40, align="center", pad=12),
    "text_button": TextStyle(size=42, colour="accent", align="center", pad=16),
    "outlined_button": TextStyle(size=42, colour="accent", align="center", pad=24),
    "suggestion": TextStyle(size=42, pad=48),
    "section": TextStyle(size=48, bold=True),
    "tabs": TextStyle(size=38, colour="text_secondary"),
    "rating": TextStyle(size=34, colour="text_secondary"),
    "confirmation": TextStyle(size=42, colour="accent", bold=True),
    "answer": TextStyle(size=46, bold=True),
    "url": TextStyle(size=32, colour="text_secondary"),
    "meta": TextStyle(size=34, colour="text_secondary"),
    "channel": TextStyle(size=38, colour="text_secondary"),
    "row_title": TextStyle(size=44),
    "row_summary": TextStyle(size=36, colour="text_secondary"),
    "banner": TextStyle(size=60, colour="on_accent", align="center", pad=48, bold=True),
}
"""Text settings per view `style`; styles not listed here use the "" entry (plain text)."""

# App icon backgrounds by icon name, close to the real apps' brand colours so a screenshot looks familiar.
APP_COLOURS: dict[str, RGB] = {
    "mail": (234, 67, 53), "map": (52, 168, 83), "photo": (251, 188, 4), "camera": (95, 99, 104),
    "phone": (26, 115, 232), "sms": (26, 115, 232), "calendar": (66, 133, 244), "contacts": (25, 103, 210),
    "files": (26, 115, 232), "chrome": (66, 133, 244), "youtube": (255, 0, 0), "play_store": (1, 135, 95),
    "store": (1, 135, 95), "settings": (95, 99, 104), "clock": (26, 115, 232), "launcher": (60, 64, 67),
    "browser": (66, 133, 244), "shop": (255, 153, 0), "amazon": (35, 47, 62), "ebay": (229, 50, 56),
    "music": (255, 87, 34), "notes": (251, 188, 4), "calculator": (60, 64, 67), "weather": (66, 133, 244),
    "google": (66, 133, 244), "playstore": (1, 135, 95), "walmart": (0, 113, 220), "target": (204, 0, 0),
    "etsy": (241, 100, 30), "bestbuy": (0, 70, 190), "best buy": (0, 70, 190), "reddit": (255, 69, 0),
    "wikipedia": (54, 54, 54), "recorder": (219, 68, 55), "expense": (0, 137, 123), "recipes": (76, 175, 80),
}


ICON_COLOURS: dict[str, RGB] = {"youtube_logo": (255, 0, 0)}
"""Glyphs that keep their brand colour wherever they are drawn (others take the theme's icon colour)."""


def luminance(colour: RGB) -> float:
    """Perceived brightness of `colour`, 0 (black) to 255 (white), with the Rec. 601 weights.

    >>> luminance((255, 255, 255))
    255.0
    """
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b


def readable(colour: RGB, background: RGB | None) -> RGB:
    """`colour`, or white / near-black when it would not stand out on `background` (e.g. text over a video).

    >>> readable((32, 33, 36), (0, 0, 0))
    (255, 255, 255)
    """
    if background is None:
        return colour
    bg = luminance(background)
    if abs(luminance(colour) - bg) >= MIN_CONTRAST:
        return colour
    return (255, 255, 255) if bg < 128 else (32, 33, 36)


def name_colour(name: str) -> RGB:
    """A stable, saturated colour for an unknown app or brand name (the same in every process).

    >>> name_colour("acme") == name_colour("acme")
    True
    """
    h = zlib.crc32(name.encode("utf-8"))
    # Pick a hue from the hash and keep the channels mid-range, so white glyphs stay readable on it.
    base = [200, 60 + (h >> 8) % 100, 40]
    rot = h % 3
    r, g, b = base[rot:] + base[:rot]
    return (r, g, b) if (h >> 16) & 1 else (b, r, g)


def app_colour(icon: str) -> RGB:
    """Background colour of the app icon called `icon` (brand colour, else `name_colour`)."""
    return APP_COLOURS.get(icon) or name_colour(icon)
