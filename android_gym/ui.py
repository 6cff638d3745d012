"""Device-agnostic UI elements: what an agent or expert sees of a screen's view tree, from a sim or a real dump."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from android_gym.errors import DeviceProtocolError

# ASCII digits only, at most 9 per coordinate (issue 20): `\d` also matches other scripts' digits, and int() of a
# 5,000-digit run raises ValueError; a node whose bounds are garbage is dropped like one without bounds.
_BOUNDS = re.compile(r"\[(-?[0-9]{1,9}),(-?[0-9]{1,9})\]\[(-?[0-9]{1,9}),(-?[0-9]{1,9})\]")


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
    zero-area nodes (dropped), nodes marked `visible-to-user="false"` (dropped: off screen), nodes whose `bounds`
    are not four integers of at most 9 digits (dropped), and attributes this parser does not know (ignored:
    `NAF`, `drawing-order`, `display-id`...). The text is already decoded, so an `encoding` in the XML
    declaration is ignored.

    Device output is untrusted (issue 20), so the XML goes through `defusedxml`: a DOCTYPE of any kind is refused,
    and with it entity declarations (billion laughs) and external entities or DTDs (no file or URL is ever read);
    uiautomator never writes one. Parsing (expat) and the walk over the tree are iterative, so nesting depth is
    bounded by memory only, never by the Python stack (10,000 levels take about 0.1 s), and the work is linear in
    the length of the text.

    Raises:
        DeviceProtocolError: the text is not a uiautomator hierarchy: not well-formed XML, a root other than
            `<hierarchy>`, or a DOCTYPE / entity declaration / external reference (the message names which).

    >>> xml = ('<?xml version="1.0"?><hierarchy rotation="0"><node text="OK" class="android.widget.Button" '
    ...        'clickable="true" bounds="[0,0][100,50]" /></hierarchy>')
    >>> [(e.text, e.center) for e in parse_uiautomator_xml(xml)]
    [('OK', (50, 25))]
    """
    out: list[UIElement] = []
    for node in _nodes(parse_hierarchy(xml)):
        a = node.attrib
        m = _BOUNDS.fullmatch(a.get("bounds", ""))
        if m is None or a.get("visible-to-user") == "false":  # off screen (a list's recycled row): not for acting on
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


def parse_hierarchy(xml: str) -> ET.Element:
    """The `<hierarchy>` root of dump `xml`, parsed safely (see `parse_uiautomator_xml`).

    Raises:
        DeviceProtocolError: as `parse_uiautomator_xml` raises it.
    """
    root = _parse_tree(xml)
    if root.tag != "hierarchy":
        raise DeviceProtocolError(f"UI dump root is <{_short(str(root.tag))}>, expected <hierarchy>")
    return root


def _parse_tree(xml: str) -> ET.Element:
    """The root element of `xml`, parsed by defusedxml; every failure is a `DeviceProtocolError`."""
    # surrogatepass: a lone surrogate (not an XML character) reaches expat as an invalid byte and is refused there.
    data = xml.strip().encode("utf-8", "surrogatepass")
    # encoding="utf-8" overrides the declaration: `data` is UTF-8 whatever it says (an unknown or multi-byte name
    # made the stdlib raise LookupError / ValueError).
    parser = DefusedXMLParser(target=ET.TreeBuilder(), encoding="utf-8", forbid_dtd=True)
    try:
        parser.feed(data)
        return parser.close()
    except DefusedXmlException as e:
        raise DeviceProtocolError(f"UI dump refused: it holds {_refused(e)}, which uiautomator never writes (an "
                                  f"entity bomb or external-entity attack, or garbage); first 80 chars: "
                                  f"{xml[:80]!r}") from e
    except ET.ParseError as e:
        raise DeviceProtocolError(f"UI dump is not valid XML ({e}); first 80 chars: {xml[:80]!r}") from e


def _refused(e: DefusedXmlException) -> str:
    if isinstance(e, DTDForbidden):
        system = f" SYSTEM {_short(str(e.sysid))!r}" if e.sysid else ""
        return f"a DOCTYPE <!DOCTYPE {_short(str(e.name))}{system}>"
    if isinstance(e, EntitiesForbidden):
        return f"an entity declaration <!ENTITY {_short(str(e.name))}>"
    if isinstance(e, ExternalReferenceForbidden):
        return f"an external reference to {_short(str(e.sysid))}"
    return f"a forbidden construct ({type(e).__name__})"


def _nodes(root: ET.Element) -> Iterator[ET.Element]:
    """The `<node>` elements under `root` in document order, walked with an explicit stack (no recursion)."""
    stack = [root]
    while stack:
        element = stack.pop()
        if element.tag == "node":
            yield element
        stack.extend(reversed(element))


def _short(s: str, limit: int = 80) -> str:
    return s if len(s) <= limit else s[:limit] + "..."
