"""The simulated phone's view tree: `View` nodes with Android's attributes, hit-testing and uiautomator XML.

A screen is a tree of `View`s in real device pixels (e.g. 1080x2400). Apps build trees declaratively from their state;
the phone hit-tests taps against the tree; `device_dump` writes it in the shape of a real phone's `uiautomator dump`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

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
        printed: lines of text a picture shows (a photographed receipt): drawn in the screenshot only, never in the
            dump or the element list, as a real phone's accessibility tree gives an image its content-desc at most.
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
    printed: tuple[str, ...] = ()
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
