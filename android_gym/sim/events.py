"""What a tap on a view sends: the phone's own input events (typed, handled by `SimPhone`) or an app's event.

A `View`'s `on_tap` holds one. The phone's events are the frozen dataclasses below, matched by `SimPhone` with
`match`; an app's event is a tuple of plain values that only that app reads (`("alarm", 2)`), matched in its `handle`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True)
class NavKey:
    """A navigation-bar (or toolbar) button: "back", "home" or "recents"."""

    key: str


@dataclass(frozen=True)
class TypeKey:
    """A soft-keyboard key that types `text` into the focused field."""

    text: str


@dataclass(frozen=True)
class DeleteKey:
    """The soft keyboard's backspace."""


@dataclass(frozen=True)
class EnterKey:
    """The soft keyboard's Enter (submits the focused field)."""


@dataclass(frozen=True)
class NoopKey:
    """A soft-keyboard key that does nothing in the sim (Symbols)."""


@dataclass(frozen=True)
class FocusField:
    """A tap on an EditText: focus the field `rid` (the soft keyboard comes up)."""

    rid: str


@dataclass(frozen=True)
class TextMenu:
    """A button of a text field's selection toolbar: "cut", "copy", "paste" or "select_all" (`clipboard`)."""

    action: str


@dataclass(frozen=True)
class LaunchApp:
    """A launcher icon: open the app `package` on its home screen."""

    package: str


@dataclass(frozen=True)
class DialogButton:
    """Button `index` of the pop-up dialog (every button dismisses it)."""

    index: int


@dataclass(frozen=True)
class Scrim:
    """The dimmed area around a pop-up dialog: it swallows the tap."""


@dataclass(frozen=True)
class ShadeTile:
    """A quick-settings tile of the notification shade: switch the system setting `key`."""

    key: str


@dataclass(frozen=True)
class OpenNotification:
    """Notification `index` of the shade: open its app (the shade closes)."""

    index: int


@dataclass(frozen=True)
class ClearNotifications:
    """The shade's "Clear all"."""


@dataclass(frozen=True)
class CloseShade:
    """The dimmed area below the shade's panel: a tap closes the shade."""


ShadeEvent: TypeAlias = ShadeTile | OpenNotification | ClearNotifications | CloseShade
PhoneEvent: TypeAlias = (NavKey | TypeKey | DeleteKey | EnterKey | NoopKey | FocusField | TextMenu | LaunchApp
                          | DialogButton | Scrim | ShadeEvent)
AppEvent: TypeAlias = tuple
"""An app's own event: a tuple of plain values (hashable), matched by that app's `handle`."""
Event: TypeAlias = PhoneEvent | AppEvent
