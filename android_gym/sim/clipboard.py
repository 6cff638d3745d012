"""The phone's clipboard (Android's `ClipboardManager`) and the text-selection toolbar every text field shows on a
long press: what lets a user carry text from one app to another.

A long press on an EditText focuses it and, as on a phone, selects the word at the cursor: the sim has no cursor
positions, its cursor always sits at the end of the text, so the word selected is the field's last one (none after a
trailing space: the cursor alone, where Paste inserts). A floating
toolbar then offers, left to right, "Cut" and "Copy" (when something is selected), "Paste" (when the clipboard holds
text) and "Select all" (when the field holds text not all selected). Cut and Copy put the selection on the clipboard,
Paste puts the clipboard's text in the selection's place (at the end of the text when nothing is selected), Select
all widens the selection to the whole text; every button but Select all closes the toolbar. Typing or the delete key
replace the selection as a keyboard does; BACK, a tap anywhere else, or leaving the screen drop the selection.

The clipboard's text is part of the phone's state (`state()["clipboard"]`), settable as an initial condition
(`initial={"clipboard": {"text": ...}}`), and what the ADB front's Clipper broadcasts read and write.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from android_gym.errors import ConfigError
from android_gym.sim.events import DeleteKey, TextMenu, TypeKey
from android_gym.sim.layout import BUTTON, CONTENT_TOP, EDIT_TEXT, FRAME, WIDTH
from android_gym.sim.view import View

if TYPE_CHECKING:
    from android_gym.sim.app import Screen

MENU_RID = "android:id/floating_toolbar_menu_item_text"
"""The resource-id of each toolbar button (Android's floating toolbar gives its items this one)."""
LABELS = {"cut": "Cut", "copy": "Copy", "paste": "Paste", "select_all": "Select all"}
"""Each toolbar action and its button's label, in the toolbar's order."""
ITEM_W, BAR_H = 250, 132
"""A toolbar button's width and the toolbar's height, in device pixels."""


class TextPhone(Protocol):
    """What the clipboard reads of the phone (`SimPhone` is one; a protocol, so the phone imports this module alone)."""

    @property
    def top(self) -> Screen:
        """The front screen."""
        ...

    @property
    def dialog(self) -> object | None:
        """A system dialog over the app, or None."""
        ...

    @property
    def shade_open(self) -> bool:
        """Whether the notification shade is down."""
        ...


@dataclass
class Selection:
    """The selected characters [`start`, `end`) of field `rid` on `screen` (equal ends: the cursor, nothing
    selected) while the toolbar is up."""  # noqa: D205, D209

    screen: Screen
    rid: str
    start: int
    end: int


def last_word(text: str) -> tuple[int, int]:
    """The span of the word the sim's cursor (always at the end) sits on: `text`'s last one, or nothing (an empty span
    at the end) after a space.

    >>> last_word("Invoice #98765"), last_word("Invoice "), last_word("")
    ((8, 14), (8, 8), (0, 0))
    """  # noqa: D205
    words = list(re.finditer(r"\S+$", text))
    return words[-1].span() if words else (len(text), len(text))


class Clipboard:
    """The clipboard's text and the selection the toolbar acts on.

    Guarantees: `text` is the last text cut, copied or set; a selection outlives nothing that would close the
    toolbar on a phone (`active` drops a stale one).
    """

    def __init__(self) -> None:
        self.text = ""
        self.selection: Selection | None = None

    def apply(self, values: dict[str, Any]) -> None:
        """Initial conditions: {"text": str}, the clipboard's content.

        Raises:
            ConfigError: an unknown key, or a text that is not a str.
        """
        bad = set(values) - {"text"}
        if bad:
            raise ConfigError(f"unknown clipboard settings {sorted(bad)}; known: ['text']")
        if not isinstance(values.get("text", ""), str):
            raise ConfigError(f"`clipboard.text` must be a str; got {values['text']!r}")
        self.text = values.get("text", self.text)

    def state(self, phone: TextPhone) -> dict[str, Any]:
        """The clipboard's text, and the selection ({"field", "text"}) while the toolbar is up, else None."""
        sel = self.active(phone)
        chosen = None if sel is None else {"field": sel.rid, "text": _value(sel)[sel.start:sel.end]}
        return {"text": self.text, "selection": chosen}

    def active(self, phone: TextPhone) -> Selection | None:
        """The selection, if its field is still focused on the front screen (a pop-up or the shade over it hides the
        toolbar, whose window they cover, and keeps the selection)."""  # noqa: D205, D209
        sel = self.selection
        if sel is not None and not (sel.screen is phone.top and phone.top.focus == sel.rid and not phone.top.loading
                                    and sel.end <= len(_value(sel))):
            self.selection = sel = None
        return sel

    def long_press(self, phone: TextPhone, rid: str) -> bool:
        """Focus field `rid` of the front screen and select its last word; True (the focus or selection changed)."""
        screen = phone.top
        screen.focus = rid
        text = screen.fields.get(rid, "")
        self.selection = Selection(screen, rid, *last_word(text))
        if not self.actions(phone):  # an empty field and an empty clipboard: nothing to offer, no toolbar
            self.selection = None
        return True

    def actions(self, phone: TextPhone) -> list[str]:
        """The toolbar's actions now, in its order ([] without a selection)."""
        sel = self.active(phone)
        if sel is None:
            return []
        size = len(_value(sel))
        selected, everything = sel.start < sel.end, (sel.start, sel.end) == (0, size)
        shown = {"cut": selected, "copy": selected, "paste": bool(self.text), "select_all": size > 0 and not everything}
        return [a for a in LABELS if shown[a]]

    def act(self, phone: TextPhone, action: str) -> bool:
        """Run toolbar button `action`; True if anything changed."""
        sel = self.active(phone)
        if sel is None or action not in self.actions(phone):
            return False
        value = _value(sel)
        if action == "select_all":
            sel.start, sel.end = 0, len(value)
            return True
        if action in ("cut", "copy"):
            self.text = value[sel.start:sel.end]
        if action == "cut":
            self.replace(phone, "")
        elif action == "paste":
            self.replace(phone, self.text)
        self.selection = None
        return True

    def replace(self, phone: TextPhone, text: str) -> bool:
        """Put `text` in the selection's place (typing, delete, cut, paste); False without a selection."""
        sel = self.active(phone)
        if sel is None:
            return False
        value = _value(sel)
        sel.screen.fields[sel.rid] = value[:sel.start] + text + value[sel.end:]
        self.selection = None
        return True

    def dismiss(self, phone: TextPhone, target: View | None) -> bool:
        """A tap on `target`: True if it closes the toolbar (anything but a toolbar button or a keyboard key, with no
        pop-up or shade over the screen to take the tap)."""  # noqa: D205, D209
        keeps = target is not None and isinstance(target.on_tap, (TextMenu, TypeKey, DeleteKey))
        if self.active(phone) is None or keeps or phone.dialog is not None or phone.shade_open:  # a tap on those
            return False
        self.selection = None
        return True

    def close(self, phone: TextPhone) -> bool:
        """BACK with the toolbar up: close it (the field keeps its focus); False when none is up."""
        if self.active(phone) is None:
            return False
        self.selection = None
        return True

    def window(self, phone: TextPhone, content: list[View]) -> View | None:
        """The floating toolbar over the selected field as laid out in `content`, or None (no selection, or the
        field scrolled out of sight)."""  # noqa: D205, D209
        actions = self.actions(phone)
        sel = self.selection
        if not actions or sel is None:
            return None
        field = next((v for c in content for v in c.walk() if v.cls == EDIT_TEXT and v.rid == sel.rid), None)
        if field is None:
            return None
        x0, y0, _, y1 = field.bounds
        top = y0 - BAR_H - 12 if y0 - BAR_H - 12 >= CONTENT_TOP else y1 + 12
        left = min(x0, WIDTH - ITEM_W * len(actions) - 24)
        items = [View(BUTTON, (left + i * ITEM_W, top, left + (i + 1) * ITEM_W, top + BAR_H), text=LABELS[a],
                      rid=MENU_RID, package=sel.screen.package, clickable=True, focusable=True, on_tap=TextMenu(a),
                      style="button") for i, a in enumerate(actions)]
        return View(FRAME, (left, top, left + ITEM_W * len(actions), top + BAR_H), package=sel.screen.package,
                    rid="android:id/floating_toolbar_menu_item_container", style="card", children=items)


def _value(sel: Selection) -> str:
    return sel.screen.fields.get(sel.rid, "")
