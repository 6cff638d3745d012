"""Device-agnostic UI elements: what an agent or expert sees of a screen's view tree, from a sim or a real dump."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from android_gym.errors import DeviceProtocolError

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(frozen=True)
class UIElement:
    """One interesting node of a screen (clickable, focusable, scrollable, checkable, or carrying text).

    Bounds are (left, top, right, bottom) device pixels. `index` is the element's position in the list the device
    returned, which is what AndroidWorld-style actions (`{"action_type": "click", "index": 3}`) refer to.
    """

    index: int
    cls: str
    bounds: tuple[int, int, int, int]
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

    @property
    def center(self) -> tuple[int, int]:
        """Centre of the bounds in device pixels."""
        x0, y0, x1, y1 = self.bounds
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def label(self) -> str:
        """Text, else content-desc."""
        return self.text or self.desc

    @property
    def is_interactive(self) -> bool:
        """Whether a tap or swipe on it can do something."""
        return self.enabled and (self.clickable or self.focusable or self.scrollable or self.checkable)


def is_interesting(cls: str, text: str, desc: str, clickable: bool, focusable: bool, scrollable: bool,
                   checkable: bool, area: int) -> bool:
    """The filter that turns a view tree into an element list (shared by the sim and the XML parser)."""
    if area <= 0:
        return False
    return clickable or focusable or scrollable or checkable or bool(text) or bool(desc)


def parse_uiautomator_xml(xml: str) -> list[UIElement]:
    r"""Parse a `uiautomator dump` into the interesting elements, in document order.

    Handles real dumps: several top-level windows, CRLF (or \r\r\n) line endings, numeric character references,
    zero-area nodes (dropped), and attributes this parser does not know (ignored).

    Raises:
        DeviceProtocolError: the text is not a uiautomator hierarchy.

    >>> xml = ('<?xml version="1.0"?><hierarchy rotation="0"><node text="OK" class="android.widget.Button" '
    ...        'clickable="true" bounds="[0,0][100,50]" /></hierarchy>')
    >>> [(e.text, e.center) for e in parse_uiautomator_xml(xml)]
    [('OK', (50, 25))]
    """
    try:
        root = ET.fromstring(xml.strip().encode("utf-8"))
    except ET.ParseError as e:
        raise DeviceProtocolError(f"UI dump is not valid XML ({e}); first 80 chars: {xml[:80]!r}") from e
    if root.tag != "hierarchy":
        raise DeviceProtocolError(f"UI dump root is <{root.tag}>, expected <hierarchy>")
    out: list[UIElement] = []
    for node in root.iter("node"):
        a = node.attrib
        m = _BOUNDS.fullmatch(a.get("bounds", ""))
        if m is None:
            continue
        x0, y0, x1, y1 = (int(g) for g in m.groups())
        flags = {k: a.get(k.replace("_", "-")) == "true" for k in
                 ("clickable", "focusable", "focused", "scrollable", "checkable", "checked", "selected")}
        text, desc, cls = a.get("text", ""), a.get("content-desc", ""), a.get("class", "")
        if not is_interesting(cls, text, desc, flags["clickable"], flags["focusable"], flags["scrollable"],
                              flags["checkable"], max(0, x1 - x0) * max(0, y1 - y0)):
            continue
        out.append(UIElement(len(out), cls, (x0, y0, x1, y1), text=text, desc=desc, rid=a.get("resource-id", ""),
                             package=a.get("package", ""), hint=a.get("hint", ""),
                             enabled=a.get("enabled", "true") == "true", **flags))
    return out
