"""The simulated phone's screen as Android 13-14's `uiautomator dump` writes it.

The sim's own tree (`SimPhone.tree()`) is what the phone draws and hit-tests: each window a few views. A real dump
is deeper and more spread out (issue 49): windows are listed apart (the app, the status bar, the navigation bar, the
keyboard, a dialog, the shade); each app sits inside the layouts Android and AppCompat put around it (decor view,
content frame, fragment container, app bar), rows of widgets sit in LinearLayouts, and every node carries
`visible-to-user`, `drawing-order` and `display-id` (and `NAF` when it is clickable with no label anywhere under it).
What a modal layer covers (the app under a pop-up or the open shade) is left out, as the window manager leaves out
windows no touch can reach.

`device_windows` builds that tree from the sim's windows, adding only containers an agent cannot act on (no text,
description or action), so the element list reads the same from either tree: `reachable` is the walk both use, and
`android_gym.ui.parse_uiautomator_xml` of `to_xml(...)` gives back `SimPhone.elements()`. `to_xml` writes it.

>>> button = View("android.widget.Button", (0, 0, 50, 20), text="OK", clickable=True)
>>> xml = to_xml([View(FRAME, (0, 0, 100, 100), children=[button])])
>>> 'drawing-order="1" hint="" display-id="0"' in xml and 'visible-to-user="true"' in xml
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape

from android_gym.sim.layout import FRAME, HEIGHT, LINEAR, WIDTH
from android_gym.sim.view import Bounds, View

WindowKind = Literal["app", "status_bar", "navigation_bar", "ime", "dialog", "shade", "popup"]
VIEW_GROUP = "android.view.ViewGroup"  # what uiautomator reports for ConstraintLayout, Toolbar, CoordinatorLayout...
SYSTEM_UI = "com.android.systemui"
NAF_EXCLUDED = frozenset({"android.widget.GridView", "android.widget.GridLayout", "android.widget.ListView",
                          "android.widget.TabWidget"})  # uiautomator never marks these NAF


@dataclass(frozen=True)
class Window:
    """One window of the screen, as the phone stacks them (later ones on top)."""

    kind: WindowKind
    view: View


# -- what can be reached ----------------------------------------------------------------------------------------------
def is_scrim(v: View) -> bool:
    """Whether `v` is a modal layer: a dimmed backdrop (style "scrim") that takes every touch within its bounds (it
    is clickable), behind a pop-up or the shade. A dark toolbar drawn in the scrim style takes no touch: not one."""  # noqa: D205, D209
    return v.style == "scrim" and v.clickable


def uncovered(children: Sequence[View]) -> list[View]:
    """`children` less those a later modal sibling covers (inside its bounds: no touch reaches them)."""
    out: list[View] = []
    for v in children:
        if is_scrim(v):
            out = [c for c in out if not _inside(c.bounds, v.bounds)]
        out.append(v)
    return out


def reachable(root: View) -> Iterator[View]:
    """The views of `root`'s tree a user can see and touch, in document order: covered views and their subtrees are
    left out, and a modal layer itself is not listed (its children are)."""  # noqa: D205, D209
    stack = [root]
    while stack:
        v = stack.pop()
        if not is_scrim(v):
            yield v
        stack.extend(reversed(uncovered(v.children)))


def _inside(inner: Bounds, outer: Bounds) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# -- the device's tree ------------------------------------------------------------------------------------------------
def device_windows(windows: Sequence[Window]) -> list[View]:
    """The dump's top-level nodes: each window the user can reach, nested as Android nests it."""
    shown = {id(v) for v in uncovered([w.view for w in windows])}
    return [SHAPERS[w.kind](w.view) for w in windows if id(w.view) in shown]


def _container(cls: str, children: list[View], rid: str = "", package: str = "",
               bounds: Bounds | None = None) -> View:
    """A layout with no label and no action, spanning its children unless given `bounds`."""
    package = package or (children[0].package if children else "")
    return View(cls, bounds or _union(children), rid=rid, package=package, children=children)


def _union(views: Sequence[View]) -> Bounds:
    return (min(v.bounds[0] for v in views), min(v.bounds[1] for v in views),
            max(v.bounds[2] for v in views), max(v.bounds[3] for v in views))


def _chain(layers: Sequence[tuple[str, str, Bounds]], inner: View) -> View:
    """`inner` wrapped in `layers` (outermost first), each a (class, resource-id, bounds) of the same package."""
    for cls, rid, bounds in reversed(layers):
        inner = _container(cls, [inner], rid, inner.package, bounds)
    return inner


def _shaped(v: View) -> View:
    """A copy of the sim view `v` with its subtree laid out as apps lay it out: covered views left out, modal layers
    replaced by what they hold, rows of siblings in LinearLayouts, toolbars in app bars."""  # noqa: D205, D209
    kids = _rows([_shaped(c) for c in _flatten(uncovered(v.children))])
    if v.scrollable:  # a list's rows are item layouts (a card, a ConstraintLayout) around their widgets
        kids = [_container(VIEW_GROUP, [k]) if _acts(k) else k for k in kids]
    if v.style == "toolbar" and not _acts(v):
        toolbar = dataclasses.replace(v, cls=VIEW_GROUP, children=kids)
        return _container(LINEAR, [toolbar], f"{_prefix(v.rid, v.package)}:id/app_bar", v.package, v.bounds)
    return dataclasses.replace(v, children=kids)


def _rows(kids: list[View]) -> list[View]:
    """`kids` with each run of two or more neighbours on one line (same top and bottom) in a LinearLayout, unless the
    run is all of them (the parent is that row already)."""  # noqa: D205, D209
    out: list[View] = []
    i = 0
    while i < len(kids):
        j = i + 1
        while j < len(kids) and (kids[j].bounds[1], kids[j].bounds[3]) == (kids[i].bounds[1], kids[i].bounds[3]):
            j += 1
        run = kids[i:j]
        if 1 < len(run) < len(kids):
            out.append(_container(LINEAR, run))
        else:
            out.extend(run)
        i = j
    return out


def _prefix(rid: str, package: str) -> str:
    return rid.split(":id/")[0] if ":id/" in rid else package


def _acts(v: View) -> bool:
    return bool(v.text or v.desc or v.clickable or v.focusable or v.scrollable or v.checkable or v.long_clickable)


def _app(content: View) -> View:
    """An activity: decor view, its LinearLayout, the content frames AppCompat adds, the fragment container and the
    screen's root layout, then the app's own views."""  # noqa: D205, D209
    p, b = content.package, content.bounds
    screen = _container(VIEW_GROUP, [_shaped(c) for c in _flatten(uncovered(content.children))], f"{p}:id/root", p, b)
    fragment = _container(FRAME, [screen], f"{p}:id/nav_host_fragment", p, b)
    frame = dataclasses.replace(content, style="", children=[fragment])  # android:id/content
    return _chain([(FRAME, "", (0, 0, WIDTH, HEIGHT)), (LINEAR, "", (0, 0, WIDTH, HEIGHT)), (FRAME, "", b),
                   (LINEAR, f"{p}:id/action_bar_root", b)], frame)


def _flatten(views: list[View]) -> list[View]:
    """Modal layers replaced by what they hold (a dump lists the pop-up, not its backdrop)."""
    return [g for v in views for g in (v.children if is_scrim(v) else [v])]


def _status_bar(bar: View) -> View:
    """The status bar window: the clock on the start side, the system icons on the end side."""
    clock = [c for c in bar.children if c.rid.endswith(":id/clock")]
    icons = [c for c in bar.children if c not in clock]
    sides = []
    if clock:
        sides.append(_nest(clock, ["status_bar_start_side_container", "status_bar_start_side_content",
                                   "status_bar_start_side_except_heads_up"], FRAME))
    if icons:
        sides.append(_nest(icons, ["status_bar_end_side_container", "status_bar_end_side_content", "system_icons",
                                   "statusIcons"], LINEAR))
    contents = _container(LINEAR, sides, f"{SYSTEM_UI}:id/status_bar_contents", SYSTEM_UI, bar.bounds)
    status = dataclasses.replace(bar, style="", children=[contents])
    return _chain([(FRAME, "", bar.bounds), (FRAME, f"{SYSTEM_UI}:id/status_bar_container", bar.bounds)], status)


def _nest(views: list[View], ids: Sequence[str], cls: str) -> View:
    """`views` inside one container per System UI id of `ids` (outermost first), each spanning them."""
    for name in reversed(ids):
        views = [_container(cls, views, f"{SYSTEM_UI}:id/{name}")]
    return views[0]


def _navigation_bar(bar: View) -> View:
    """The three-button navigation bar: Back and Overview in the end groups, Home in the centre group."""
    groups = [_container(LINEAR, [b], f"{SYSTEM_UI}:id/{'center_group' if b.rid.endswith('/home') else 'ends_group'}")
              for b in bar.children]
    buttons = _container(LINEAR, groups, f"{SYSTEM_UI}:id/nav_buttons", SYSTEM_UI, bar.bounds)
    inflater = _chain([(FRAME, f"{SYSTEM_UI}:id/navigation_inflater", bar.bounds),
                       (FRAME, f"{SYSTEM_UI}:id/horizontal", bar.bounds)], buttons)
    view = dataclasses.replace(bar, rid=f"{SYSTEM_UI}:id/navigation_bar_view", style="", children=[inflater])
    return _chain([(FRAME, f"{SYSTEM_UI}:id/navigation_bar_frame", bar.bounds)], view)


def _ime(keyboard: View) -> View:
    """The keyboard window: an input method's window frames around its key rows, each key in its own holder (a
    soft keyboard's keys are views inside key layouts, not bare buttons)."""  # noqa: D205, D209
    b, p = keyboard.bounds, keyboard.package
    keys = [_container(FRAME, [k], f"{p}:id/key_pos_{i}") for i, k in enumerate(keyboard.children)]
    board = _shaped(dataclasses.replace(keyboard, children=keys))
    return _chain([(FRAME, "", b), (LINEAR, "", b), (FRAME, "android:id/content", b),
                   (LINEAR, "android:id/parentPanel", b), (FRAME, "android:id/inputArea", b), (FRAME, "", b),
                   (LINEAR, f"{p}:id/keyboard_area", b)], board)


def _dialog(window: View) -> View:
    """A pop-up's own window around its panel: title, message and buttons each in the panel AlertDialog gives it."""
    box = _flatten([window])[0] if is_scrim(window) else window
    parts: dict[str, list[View]] = {"topPanel": [], "contentPanel": [], "buttonPanel": []}
    for c in box.children:
        parts["topPanel" if c.rid == "android:id/alertTitle" else "buttonPanel" if c.clickable
              else "contentPanel"].append(c)
    panels = [_container(LINEAR if name != "contentPanel" else FRAME, kids, f"android:id/{name}")
              for name, kids in parts.items() if kids]
    panel = dataclasses.replace(box, cls=LINEAR, style="", children=panels)
    b = box.bounds
    return _chain([(FRAME, "", b), (FRAME, "", b), (FRAME, "android:id/content", b)], panel)


def _shade(window: View) -> View:
    """The open notification shade: the header clock, the quick-settings tiles in rows, the notification stack."""
    panel = _flatten([window])[0] if is_scrim(window) else window
    header = [c for c in panel.children if c.rid.endswith(":id/clock")]
    tiles = [c for c in panel.children if c.rid.endswith(":id/tile")]
    rest = [c for c in panel.children if c not in header and c not in tiles]
    parts = []
    if header:
        parts.append(_container(FRAME, header, f"{SYSTEM_UI}:id/qs_header"))
    if tiles:
        parts.append(_container(FRAME, [_container(VIEW_GROUP, _rows(tiles), f"{SYSTEM_UI}:id/quick_settings_panel")],
                                f"{SYSTEM_UI}:id/qs_frame"))
    if rest:
        parts.append(_container(VIEW_GROUP, [_shaped(c) for c in rest], f"{SYSTEM_UI}:id/notification_stack_scroller"))
    shown = dataclasses.replace(panel, style="", children=parts)
    b = window.bounds
    return _chain([(FRAME, "", b), (FRAME, f"{SYSTEM_UI}:id/notification_container_parent", b)], shown)


SHAPERS: dict[WindowKind, Callable[[View], View]] = {
    "app": _app, "status_bar": _status_bar, "navigation_bar": _navigation_bar, "ime": _ime, "dialog": _dialog,
    "shade": _shade, "popup": lambda v: _chain([(FRAME, "", v.bounds)], _shaped(v))}  # a PopupWindow: text toolbar
"""How each kind of window is nested on a device (the window's sim view in, the dump's top-level node out)."""

# -- the XML ----------------------------------------------------------------------------------------------------------
NAF_ATTR = 'NAF="true" '
_ESCAPES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def to_xml(windows: Sequence[View], rotation: int = 0) -> str:
    """`windows` as `uiautomator dump` writes them on Android 13-14: one line, each window a top-level `<node>`.

    Attributes in the device's order, with `visible-to-user`, `drawing-order` (0 for a window, then each child's
    place in its parent's drawing order), `hint`, `display-id`, and `NAF="true"` first on a clickable node with no
    text or description anywhere in its subtree (uiautomator's accessibility check).
    """
    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", f'<hierarchy rotation="{rotation}">']
    for i, window in enumerate(windows):
        _node(window, i, 0, out)
    out.append("</hierarchy>")
    return "".join(out)


def _node(v: View, index: int, order: int, out: list[str]) -> bool:
    """Write `v`'s subtree; returns whether it holds a label (text or description)."""
    start = len(out)
    out.append("")  # the opening tag, written once the subtree tells whether the node is NAF
    labelled = False
    for i, child in enumerate(v.children):
        labelled |= _node(child, i, i + 1, out)
    naf = v.clickable and v.enabled and not (v.text or v.desc) and not labelled and v.cls not in NAF_EXCLUDED
    x0, y0, x1, y1 = v.bounds
    out[start] = (
        f'<node {NAF_ATTR if naf else ""}index="{index}" text="{_attr(v.text)}" '
        f'resource-id="{_attr(v.rid)}" class="{_attr(v.cls)}" package="{_attr(v.package)}" '
        f'content-desc="{_attr(v.desc)}" checkable="{_b(v.checkable)}" checked="{_b(v.checked)}" '
        f'clickable="{_b(v.clickable)}" enabled="{_b(v.enabled)}" focusable="{_b(v.focusable)}" '
        f'focused="{_b(v.focused)}" scrollable="{_b(v.scrollable)}" long-clickable="{_b(v.long_clickable)}" '
        f'password="{_b(v.password)}" selected="{_b(v.selected)}" visible-to-user="true" '
        f'bounds="[{x0},{y0}][{x1},{y1}]" drawing-order="{order}" hint="{_attr(v.hint)}" display-id="0"'
        + (">" if v.children else " />"))
    if v.children:
        out.append("</node>")
    return labelled or bool(v.text or v.desc)


def _attr(s: str) -> str:
    # Android's XmlSerializer writes newlines as &#10; and characters outside the BMP as numeric references.
    text = escape(s, _ESCAPES)
    return "".join(c if ord(c) < 0x10000 else f"&#{ord(c)};" for c in text)


def _b(flag: bool) -> str:
    return "true" if flag else "false"
