"""The shape of a `uiautomator dump`: how deep, how clickable, which attributes, how many windows.

Used to hold the simulated phone's dumps against real devices' (issue 49): a policy that reads XML learns the phone
it trains on, so the sim's dumps should be as deep, as sparse in clickable nodes and as rich in attributes as a real
phone's. `dump_shape` reads any dump `android_gym.ui.parse_uiautomator_xml` accepts.

>>> xml = ('<hierarchy rotation="0"><node class="a" clickable="false" bounds="[0,0][9,9]">'
...        '<node class="b" clickable="true" bounds="[0,0][5,5]" /></node></hierarchy>')
>>> shape = dump_shape(xml)
>>> (shape.nodes, shape.windows, shape.median_depth, shape.clickable_share)
(2, 1, 1.5, 0.5)
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from android_gym.errors import DeviceProtocolError
from android_gym.ui import parse_hierarchy

CORE_ATTRIBUTES = frozenset({"index", "text", "resource-id", "class", "package", "content-desc", "checkable",
                             "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
                             "long-clickable", "password", "selected", "bounds"})
"""The attributes every `uiautomator dump` since Android 4.3 writes on every node."""
MODERN_ATTRIBUTES = frozenset({"drawing-order", "visible-to-user", "display-id", "hint"})
"""What Android 11+ adds (`display-id` from 13): the ones a dump shaped like today's phones carries."""


@dataclass(frozen=True)
class DumpShape:
    """One dump's shape.

    Attributes:
        nodes: how many `<node>`s it holds.
        windows: top-level nodes (a multi-window dump lists the status bar, the app, the keyboard... apart).
        median_depth, max_depth: of every node, a window's root being at depth 1.
        clickable_share: the fraction of nodes with `clickable="true"`.
        attributes: every attribute name any node carries.
    """

    nodes: int
    windows: int
    median_depth: float
    max_depth: int
    clickable_share: float
    attributes: frozenset[str]

    @property
    def extra_attributes(self) -> frozenset[str]:
        """The attributes beyond `CORE_ATTRIBUTES` (`NAF`, `drawing-order`, `visible-to-user`, `display-id`...)."""
        return self.attributes - CORE_ATTRIBUTES


def dump_shape(xml: str) -> DumpShape:
    """The shape of dump `xml`.

    Raises:
        DeviceProtocolError: `xml` is not a uiautomator hierarchy (as `parse_uiautomator_xml` raises it), or holds
            no node.
    """
    root = parse_hierarchy(xml)
    depths: list[int] = []
    clickable = 0
    attributes: set[str] = set()
    stack = [(node, 1) for node in reversed(root) if node.tag == "node"]
    while stack:
        node, depth = stack.pop()
        depths.append(depth)
        attributes.update(node.attrib)
        clickable += node.get("clickable") == "true"
        stack.extend((child, depth + 1) for child in reversed(node) if child.tag == "node")
    if not depths:
        raise DeviceProtocolError("UI dump holds no <node>: nothing to measure")
    return DumpShape(len(depths), sum(1 for n in root if n.tag == "node"), float(statistics.median(depths)),
                     max(depths), clickable / len(depths), frozenset(attributes))


@dataclass(frozen=True)
class ShapeSummary:
    """Many dumps' shapes at once: the median and the range over the dumps of each one's figure.

    Attributes:
        dumps: how many dumps.
        median_depth, depth_range: the median and (min, max) of the dumps' median node depths.
        clickable_share, clickable_range: the median and (min, max) of the dumps' clickable shares.
        attributes: the attributes every dump carries (on some node).
    """

    dumps: int
    median_depth: float
    depth_range: tuple[float, float]
    clickable_share: float
    clickable_range: tuple[float, float]
    attributes: frozenset[str]

    @classmethod
    def of(cls, shapes: list[DumpShape]) -> ShapeSummary:
        """The summary of `shapes` (at least one)."""
        if not shapes:
            raise ValueError("no dump shapes to summarise")
        depths = [s.median_depth for s in shapes]
        clicks = [s.clickable_share for s in shapes]
        return cls(len(shapes), float(statistics.median(depths)), (min(depths), max(depths)),
                   float(statistics.median(clicks)), (min(clicks), max(clicks)),
                   frozenset.intersection(*(s.attributes for s in shapes)))
