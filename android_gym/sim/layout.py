"""Screen geometry and small builders that lay views out in device pixels, so apps read like screen sketches."""

from __future__ import annotations

from android_gym.sim.events import FocusField, NavKey
from android_gym.sim.view import Bounds, View

WIDTH, HEIGHT = 1080, 2400
"""The simulated phone's screen in device pixels (a Pixel-like 1080x2400 panel)."""
STATUS_BAR_H = 84
NAV_BAR_H = 132
KEYBOARD_H = 760
CONTENT_TOP = STATUS_BAR_H
CONTENT_BOTTOM = HEIGHT - NAV_BAR_H
MARGIN = 48
ROW_H = 168
TOOLBAR_H = 168

TEXT_VIEW = "android.widget.TextView"
BUTTON = "android.widget.Button"
IMAGE_BUTTON = "android.widget.ImageButton"
IMAGE_VIEW = "android.widget.ImageView"
EDIT_TEXT = "android.widget.EditText"
SWITCH = "android.widget.Switch"
FRAME = "android.widget.FrameLayout"
LINEAR = "android.widget.LinearLayout"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
WEB_VIEW = "android.webkit.WebView"
VIEW = "android.view.View"


class Column:
    """Stacks views top to bottom from `top`, each spanning the screen width minus margins.

    >>> col = Column(top=100, package="p")
    >>> col.text("Hello", height=50).bounds
    (48, 100, 1032, 150)
    >>> col.y
    150
    """

    def __init__(self, top: int, package: str, left: int = MARGIN, right: int = WIDTH - MARGIN) -> None:
        self.y = top
        self.package = package
        self.left, self.right = left, right
        self.views: list[View] = []

    def _next(self, height: int) -> Bounds:
        b = (self.left, self.y, self.right, self.y + height)
        self.y += height
        return b

    def add(self, view: View) -> View:
        """Append a view built elsewhere (its bounds are kept) and move below it."""
        self.views.append(view)
        self.y = max(self.y, view.bounds[3])
        return view

    def gap(self, height: int) -> None:
        """Leave `height` pixels empty."""
        self.y += height

    def text(self, text: str, height: int = 96, style: str = "", rid: str = "", desc: str = "") -> View:
        """A non-clickable label."""
        return self.add(View(TEXT_VIEW, self._next(height), text=text, rid=rid, desc=desc,
                             package=self.package, style=style))

    def button(self, text: str, on_tap: tuple, height: int = ROW_H, style: str = "button", rid: str = "",
               desc: str = "", icon: str = "", cls: str = BUTTON) -> View:
        """A clickable row sending `on_tap` to the app."""
        return self.add(View(cls, self._next(height), text=text, desc=desc, rid=rid, package=self.package,
                             clickable=True, focusable=True, on_tap=on_tap, style=style, icon=icon))

    def switch(self, label: str, checked: bool, on_tap: tuple, rid: str = "") -> View:
        """A settings-style row: a label and a Switch that reports `checked`; the whole row toggles."""
        b = self._next(ROW_H)
        row = View(LINEAR, b, package=self.package, clickable=True, on_tap=on_tap, style="row", children=[
            View(TEXT_VIEW, (b[0], b[1], b[2] - 220, b[3]), text=label, package=self.package),
            View(SWITCH, (b[2] - 200, b[1] + 40, b[2], b[3] - 40), text="ON" if checked else "OFF", rid=rid,
                 package=self.package, checkable=True, checked=checked, clickable=True, focusable=True,
                 on_tap=on_tap, style="switch"),
        ])
        return self.add(row)

    def field(self, rid: str, value: str, hint: str, focused: bool, height: int = 144, icon: str = "") -> View:
        """An EditText: shows `value`, or `hint` when empty; tapping it focuses it (opens the keyboard)."""
        return self.add(text_field(self._next(height), rid, value, hint, focused, self.package, icon=icon))


def text_field(bounds: Bounds, rid: str, value: str, hint: str, focused: bool, package: str,
               icon: str = "") -> View:
    """An EditText at `bounds`; its tap event is the phone's `FocusField(rid)`."""
    return View(EDIT_TEXT, bounds, text=value or hint, hint=hint, rid=rid, package=package, clickable=True,
                focusable=True, focused=focused, long_clickable=True, on_tap=FocusField(rid), style="field",
                icon=icon)


def toolbar(title: str, package: str, rid_prefix: str, has_back: bool = True) -> View:
    """An app bar at the top of the content area: an optional Navigate-up button and the title."""
    b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
    children = []
    if has_back:
        children.append(View(IMAGE_BUTTON, (0, b[1], TOOLBAR_H, b[3]), desc="Navigate up", package=package,
                             clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"))
    left = TOOLBAR_H if has_back else MARGIN
    children.append(View(TEXT_VIEW, (left, b[1], WIDTH - MARGIN, b[3]), text=title, rid=f"{rid_prefix}:id/title",
                         package=package, style="title"))
    return View(FRAME, b, rid=f"{rid_prefix}:id/toolbar", package=package, style="toolbar", children=children)


def scroll_list(top: int, bottom: int, package: str, rows: list[View], rid: str = "") -> View:
    """A scrollable list spanning [top, bottom); `rows` are laid out unscrolled, the phone applies the offset."""
    return View(RECYCLER, (0, top, WIDTH, bottom), rid=rid, package=package, scrollable=True, children=rows)
