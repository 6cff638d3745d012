"""Text for the renderer: glyphs cached per font size, and string masks cached per (text, size, box).

FreeType costs about 6 us per character (Pillow loads every glyph twice), so a label set directly costs ~100 us.
Here each character is rasterised once per size and strings are composed from those glyph images (~1.5 us per
character), then the composed mask is cached too, so a label seen before costs one paste. Masks are greyscale ("L")
coverage images, colour-free, so one mask serves every colour and theme. Kerning is not applied: at screenshot
sizes it moves glyphs by less than a pixel.
"""

from __future__ import annotations

import math
import unicodedata

from PIL import Image, ImageDraw, ImageFont

from android_gym.sim.render.cache import ImageLRU

ELLIPSIS = "\u2026"
LINE_SPACING = 1.15  # line pitch as a multiple of the font's ascent + descent, close to Android's default
BOLD_MIN_PX = 9  # below this size a thickened glyph is a blob, so bold is dropped
MAX_GLYPHS = 20_000  # per renderer; past it the glyph tables restart (only scripts with huge alphabets get there)
MISSING = "\uffff"  # a noncharacter: every font draws its "missing glyph" box for it
STAND_INS = {"\u2014": "-", "\u2013": "-", "\u2022": "\u00b7", "\u00d7": "x", "\u20ac": "EUR", "\u00a3": "GBP",
             "\u2192": "->", "\u2190": "<-", "\u2605": "*", "\u2606": "*", "\u2713": "v", "\u00bd": "1/2",
             "\u00ae": "(R)", "\u00df": "ss", "\u00a0": " "}
"""ASCII stand-ins for characters the bundled font lacks (it covers ASCII and a little punctuation only)."""


class _Face:
    """The bundled font at one pixel size, with its glyph images and advances (in pixels)."""

    def __init__(self, px: int) -> None:
        self.font = ImageFont.load_default(size=px)
        self.ascent, self.descent = self.font.getmetrics()
        self.height = self.ascent + self.descent
        self.pitch = max(1, int(self.height * LINE_SPACING))
        self.glyphs: dict[str, tuple[Image.Image | None, float, int]] = {}
        self._missing = bytes(self.font.getmask(MISSING))

    def glyph(self, ch: str) -> tuple[Image.Image | None, float, int]:
        """Coverage image of `ch` (None for blank glyphs), its advance width, and its left bearing (<= 0)."""
        found = self.glyphs.get(ch)
        if found is None:
            shown = self._stand_in(ch)
            advance = self.font.getlength(shown)
            left, _, right, _ = self.font.getbbox(shown)
            left = min(0, int(left))  # glyphs like "s" can start left of the pen at small sizes
            image = None
            if right > left and not shown.isspace():
                image = Image.new("L", (int(right) - left + 1, self.height))
                ImageDraw.Draw(image).text((-left, 0), shown, fill=255, font=self.font)
            found = self.glyphs[ch] = (image, advance, left)
        return found

    def _stand_in(self, ch: str) -> str:
        """`ch` if the font has it; else an ASCII look-alike ("e" for "\u00e9", "-" for a dash), else `ch` (a box)."""
        if ch.isascii() or bytes(self.font.getmask(ch)) != self._missing:
            return ch
        if ch in STAND_INS:
            return STAND_INS[ch]
        base = unicodedata.normalize("NFKD", ch)[:1]  # drop accents: the letter stays readable
        return base if base.isascii() and base else ch

    def measure(self, text: str) -> float:
        """Width of `text` in pixels, as `compose` lays it out."""
        glyph = self.glyph
        return sum(glyph(ch)[1] for ch in text)


class TextCache:
    """Glyphs per pixel size, and string masks per (text, size, box) in a least-recently-used cache.

    Guarantees: a mask depends only on its arguments, never on what was cached before, so rendering stays
    deterministic whatever the cache holds.

    Args:
        budget_bytes: the most mask pixels kept, in bytes (a label is about 1 KB at 224 pixels wide).
    """

    def __init__(self, budget_bytes: int = 16 << 20) -> None:
        self.budget_bytes = budget_bytes
        self._faces: dict[int, _Face] = {}
        self.masks = ImageLRU(budget_bytes)

    def face(self, px: int) -> _Face:
        """The bundled font (Pillow's FreeType build of Aileron) at `px` pixels, with its glyph cache."""
        face = self._faces.get(px)
        if face is None:
            if sum(len(f.glyphs) for f in self._faces.values()) > MAX_GLYPHS:
                self._faces.clear()
            face = self._faces[px] = _Face(px)
        return face

    def line_height(self, px: int) -> int:
        """Pixels from one line's top to the next line's top at font size `px`."""
        return self.face(px).pitch

    def mask(self, text: str, px: int, box_w: int, box_h: int, bold: bool = False, align: str = "left") -> Image.Image:
        """Coverage mask of `text` at `px` pixels that fits a `box_w` x `box_h` pixel box.

        Text that fits on one line is returned as is. Longer text wraps at spaces onto as many lines as the box
        height holds, and the last line ends with an ellipsis, as Android's TextView does with `ellipsize=end`.
        Wrapped lines are aligned within the mask per `align` ("left", "center", "right"); the caller aligns the
        mask in its box.
        """
        bold = bold and px >= BOLD_MIN_PX
        line = self.masks.get(("line", text, px, bold))
        if line is not None and line.width <= box_w:
            return line
        if line is None and "\n" not in text:
            line = self.masks.put(("line", text, px, bold), self._compose([text], px, bold, "left"))
            if line.width <= box_w:
                return line
        key = ("fit", text, px, bold, box_w, box_h, align)
        fitted = self.masks.get(key)
        if fitted is None:
            lines = self._wrap(text, self.face(px), box_w, max(1, box_h // self.line_height(px)))
            fitted = self.masks.put(key, self._compose(lines, px, bold, align))
        return fitted

    # -- internals ----------------------------------------------------------------------------------------------------
    @staticmethod
    def _wrap(text: str, face: _Face, box_w: int, max_lines: int) -> list[str]:
        lines: list[str] = []
        for paragraph in text.split("\n"):
            current = ""
            for word in paragraph.split(" "):
                candidate = f"{current} {word}" if current else word
                if current and face.measure(candidate) > box_w:
                    lines.append(current)
                    current = word
                else:
                    current = candidate
            lines.append(current)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] += ELLIPSIS  # more text follows: force the ellipsis even if the cut line fits
        return [_ellipsize(line, face, box_w) for line in lines]

    def _compose(self, lines: list[str], px: int, bold: bool, align: str) -> Image.Image:
        """Lay `lines` out from cached glyphs, each aligned per `align` within the widest one."""
        face = self.face(px)
        widths = [math.ceil(face.measure(line)) + 1 + bold for line in lines]
        width = max(1, *widths)
        mask = Image.new("L", (width, face.pitch * (len(lines) - 1) + face.height))
        for i, (line, line_w) in enumerate(zip(lines, widths, strict=True)):
            x, y = {"left": 0, "center": (width - line_w) // 2}.get(align, width - line_w), i * face.pitch
            for ch in line:
                image, advance, bearing = face.glyph(ch)
                if image is not None:
                    # Pasting solid ink through the glyph's coverage composites overlapping edges correctly.
                    left = int(x + 0.5) + bearing
                    mask.paste(255, (left, y, left + image.width, y + image.height), image)
                    if bold:  # the bundled font has no bold face: overstrike one pixel to the right
                        mask.paste(255, (left + 1, y, left + 1 + image.width, y + image.height), image)
                x += advance
        return mask


def _ellipsize(line: str, face: _Face, box_w: int) -> str:
    """`line`, or its longest prefix plus an ellipsis that fits in `box_w` pixels."""
    if face.measure(line) <= box_w:
        return line
    body = line.removesuffix(ELLIPSIS)
    lo, hi = 0, len(body)  # binary search: the width of a prefix grows with its length
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.measure(body[:mid].rstrip() + ELLIPSIS) <= box_w:
            lo = mid
        else:
            hi = mid - 1
    return body[:lo].rstrip() + ELLIPSIS
