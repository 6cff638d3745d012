"""Text for the renderer: fonts cached per size, and glyph masks cached per string, fitted to a box.

FreeType takes about 100 us to set one short label; pasting a cached mask takes about 5 us. Masks are greyscale
("L") coverage images, colour-free, so one mask serves every colour and theme.
"""

from __future__ import annotations

from collections import OrderedDict

from PIL import Image, ImageDraw, ImageFont

ELLIPSIS = "\u2026"
LINE_SPACING = 1.15  # line pitch as a multiple of the font's ascent + descent, close to Android's default
BOLD_MIN_PX = 9  # below this size a thickened glyph is a blob, so bold is dropped


class TextCache:
    """Fonts per pixel size and glyph masks per (text, size, box), both least-recently-used bounded.

    Guarantees: a mask depends only on its arguments, never on what was cached before, so rendering stays
    deterministic whatever the cache holds.

    Args:
        capacity: the most masks kept (each is a few hundred bytes at screenshot sizes).
    """

    def __init__(self, capacity: int = 8192) -> None:
        self.capacity = capacity
        self._fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
        self._masks: OrderedDict[tuple, Image.Image] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def font(self, px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        """The bundled font (Pillow's FreeType build of Aileron) at `px` pixels."""
        font = self._fonts.get(px)
        if font is None:
            font = self._fonts[px] = ImageFont.load_default(size=px)
        return font

    def line_height(self, px: int) -> int:
        """Pixels from one line's top to the next line's top at font size `px`."""
        ascent, descent = self.font(px).getmetrics()
        return max(1, int((ascent + descent) * LINE_SPACING))

    def mask(self, text: str, px: int, box_w: int, box_h: int, bold: bool = False) -> Image.Image:
        """Coverage mask of `text` at `px` pixels that fits a `box_w` x `box_h` pixel box.

        Text that fits on one line is returned as is. Longer text wraps at spaces onto as many lines as the box
        height holds, and the last line ends with an ellipsis, as Android's TextView does with `ellipsize=end`.
        Lines are centred within the mask's width; the caller aligns the mask in its box.
        """
        bold = bold and px >= BOLD_MIN_PX
        line = self._get(("line", text, px, bold))
        if line is not None and line.width <= box_w:
            return line
        if line is None and "\n" not in text:
            line = self._put(("line", text, px, bold), self._draw([text], px, bold, center=False))
            if line.width <= box_w:
                return line
        key = ("fit", text, px, bold, box_w, box_h)
        fitted = self._get(key)
        if fitted is None:
            max_lines = max(1, box_h // self.line_height(px))
            fitted = self._put(key, self._draw(self._wrap(text, px, box_w, max_lines), px, bold, center=True))
        return fitted

    # -- internals ----------------------------------------------------------------------------------------------------
    def _get(self, key: tuple) -> Image.Image | None:
        mask = self._masks.get(key)
        if mask is not None:
            self._masks.move_to_end(key)
            self.hits += 1
        return mask

    def _put(self, key: tuple, mask: Image.Image) -> Image.Image:
        self.misses += 1
        self._masks[key] = mask
        if len(self._masks) > self.capacity:
            self._masks.popitem(last=False)
        return mask

    def _wrap(self, text: str, px: int, box_w: int, max_lines: int) -> list[str]:
        font = self.font(px)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            current = ""
            for word in paragraph.split(" "):
                candidate = f"{current} {word}" if current else word
                if current and font.getlength(candidate) > box_w:
                    lines.append(current)
                    current = word
                else:
                    current = candidate
            lines.append(current)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] += ELLIPSIS  # more text follows: force the ellipsis even if the cut line fits
        return [self._ellipsize(line, font, box_w) for line in lines]

    @staticmethod
    def _ellipsize(line: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, box_w: int) -> str:
        if font.getlength(line) <= box_w:
            return line
        body = line.removesuffix(ELLIPSIS)
        lo, hi = 0, len(body)  # longest prefix whose ellipsized form fits: binary search, getlength is monotone
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if font.getlength(body[:mid].rstrip() + ELLIPSIS) <= box_w:
                lo = mid
            else:
                hi = mid - 1
        return body[:lo].rstrip() + ELLIPSIS

    def _draw(self, lines: list[str], px: int, bold: bool, center: bool) -> Image.Image:
        font = self.font(px)
        pitch = self.line_height(px)
        widths = [int(font.getlength(line)) + 1 + bold for line in lines]
        ascent, descent = font.getmetrics()
        width = max(1, *widths)
        mask = Image.new("L", (width, pitch * (len(lines) - 1) + ascent + descent))
        draw = ImageDraw.Draw(mask)
        for i, (line, w) in enumerate(zip(lines, widths, strict=True)):
            x = (width - w) // 2 if center else 0
            draw.text((x, i * pitch), line, fill=255, font=font)
            if bold:  # the bundled font has no bold face: overstrike one pixel to the right
                draw.text((x + 1, i * pitch), line, fill=255, font=font)
        return mask
