"""The simulated phone's view tree: `View` nodes with Android's attributes, hit-testing and uiautomator XML.

A screen is a tree of `View`s in real device pixels (e.g. 1080x2400). Apps build trees declaratively from their state;
the phone hit-tests taps against the tree and dumps it in the exact shape of `uiautomator dump`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from android_gym.sim.events import Event

Bounds = tuple[int, int, int, int]
"""(left, top, right, bottom) in device pixels, right/bottom exclusive, like Android's Rect."""


@dataclass(eq=False)
class View:
    """One node of a screen: what uiautomator reports, plus what the sim needs to react and draw.

    Attributes:
        cls: Android class name, e.g. "android.widget.TextView".
        bounds: position on screen in device pixels.
        text, desc, rid, package, hint: uiautomator's `text`, `content-desc`, `resource-id`, `package`, `hint`.
        clickable ... password: uiautomator's boolean flags.
        on_tap: the event a tap on this view sends (`events.Event`: a phone event, or its app's tuple), or None.
        style: a rendering hint ("button", "link", "field", "switch", "card", "toolbar", "sponsored", ...).
        icon: a glyph name the renderer draws (app icons, "search", "back", ...), or "".
        children: child views, drawn and hit-tested in order (later siblings are on top).
    """

    cls: str
    bounds: Bounds
    text: str = ""
    desc: str = ""
    rid: str = ""
    package: str = ""
    hint: str = ""
    clickable: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: bool = True
    selected: bool = False
    password: bool = False
    long_clickable: bool = False
    on_tap: Event | None = None
    style: str = ""
    icon: str = ""
    children: list[View] = field(default_factory=list)

    # -- geometry -----------------------------------------------------------------------------------------------------
    @property
    def center(self) -> tuple[int, int]:
        """Centre of the bounds in device pixels."""
        x0, y0, x1, y1 = self.bounds
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def area(self) -> int:
        """Area of the bounds in square pixels (0 for degenerate bounds)."""
        x0, y0, x1, y1 = self.bounds
        return max(0, x1 - x0) * max(0, y1 - y0)

    def contains(self, x: float, y: float) -> bool:
        """Whether the device-pixel point (x, y) lies inside the bounds."""
        x0, y0, x1, y1 = self.bounds
        return x0 <= x < x1 and y0 <= y < y1

    # -- traversal ----------------------------------------------------------------------------------------------------
    def walk(self) -> Iterator[View]:
        """Every view of the subtree in document (drawing) order, this one first."""
        stack = [self]
        while stack:
            v = stack.pop()
            yield v
            stack.extend(reversed(v.children))

    def find(self, predicate: Callable[[View], bool]) -> View | None:
        """The first view of the subtree (document order) for which `predicate` holds, or None."""
        return next((v for v in self.walk() if predicate(v)), None)

    def find_all(self, predicate: Callable[[View], bool]) -> list[View]:
        """Every view of the subtree for which `predicate` holds, in document order."""
        return [v for v in self.walk() if predicate(v)]

    def hit(self, x: float, y: float) -> View | None:
        """The topmost clickable view under (x, y) device pixels, or None.

        Later siblings are drawn over earlier ones, so they are tested first; a clickable child wins over its
        clickable parent (the deepest target gets the touch, like Android's dispatch).
        """
        if not self.contains(x, y):
            return None
        for child in reversed(self.children):
            target = child.hit(x, y)
            if target is not None:
                return target
        return self if (self.clickable or self.long_clickable or self.focusable) and self.enabled else None

    @property
    def label(self) -> str:
        """The view's human-readable label: text, else content-desc."""
        return self.text or self.desc


def to_uiautomator_xml(root: View, rotation: int = 0) -> str:
    """Dump a tree as `uiautomator dump` writes it: one line, XML declaration, `<hierarchy>` of `<node>`s.

    >>> xml = to_uiautomator_xml(View("android.widget.FrameLayout", (0, 0, 10, 20), text="a&b"))
    >>> 'text="a&amp;b"' in xml and 'bounds="[0,0][10,20]"' in xml
    True
    """
    parts = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", f'<hierarchy rotation="{rotation}">']
    _dump(root, 0, parts)
    parts.append("</hierarchy>")
    return "".join(parts)


def _flag(b: bool) -> str:
    return "true" if b else "false"


def _dump(v: View, index: int, out: list[str]) -> None:
    x0, y0, x1, y1 = v.bounds
    out.append(
        f'<node index="{index}" text={_attr(v.text)} resource-id={_attr(v.rid)} class={_attr(v.cls)} '
        f'package={_attr(v.package)} content-desc={_attr(v.desc)} checkable="{_flag(v.checkable)}" '
        f'checked="{_flag(v.checked)}" clickable="{_flag(v.clickable)}" enabled="{_flag(v.enabled)}" '
        f'focusable="{_flag(v.focusable)}" focused="{_flag(v.focused)}" scrollable="{_flag(v.scrollable)}" '
        f'long-clickable="{_flag(v.long_clickable)}" password="{_flag(v.password)}" '
        f'selected="{_flag(v.selected)}" bounds="[{x0},{y0}][{x1},{y1}]" hint={_attr(v.hint)}'
    )
    if not v.children:
        out.append(" />")
        return
    out.append(">")
    for i, child in enumerate(v.children):
        _dump(child, i, out)
    out.append("</node>")


def _attr(s: str) -> str:
    # uiautomator writes newlines as &#10; and non-BMP characters as numeric references.
    quoted = quoteattr(s, {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
    if quoted[0] == "'":  # quoteattr switches quote style when the text holds '"'; uiautomator never does
        quoted = '"' + quoted[1:-1].replace('"', "&quot;") + '"'
    return "".join(c if ord(c) < 0x10000 else f"&#{ord(c)};" for c in quoted)
