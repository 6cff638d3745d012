"""`PhoneAdmin`: what the phone's outside faces (the ADB front's shell programs, the emulator's console and gRPC) may
see of the simulated phone and do to it. `SimPhone` implements it.

The faces speak Android's protocols (`am start -d URI`, `pm clear`, `dumpsys alarm`, an SMS from the console), so
what they need is what Android's system services offer: a user's input, the screen, the settings, the package list,
the activity stack, intents resolved by the apps' own filters, the alarms and calls apps hold. They never name an
app, reach into an app's object or call the phone's private methods (`tests/android_gym/sim/test_phone_admin.py`
reads their source to keep it so).
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from android_gym.sim.app import Intent, ScheduledAlarm, Screen
from android_gym.sim.view import View
from android_gym.ui import UIElement


class PhoneAdmin(Protocol):
    """The simulated phone as its ADB, console and gRPC faces reach it.

    Attributes:
        width, height: the screen in device pixels.
        seed: the episode's seed.
        version: bumped on every change of what the screen shows (faces cache their dumps by it).
        system: the system settings (read them here; write with `set_system`).
        launcher_package: the home app.
        clipboard: the clipboard (`clipboard.Clipboard`: Clipper's `clipper.get` reads its `text`).
    """

    width: int
    height: int
    seed: int
    version: int
    system: Mapping[str, Any]
    launcher_package: str
    clipboard: Any

    # -- the screen ---------------------------------------------------------------------------------------------------
    @property
    def top(self) -> Screen:
        """The screen in front (read only: its focused field's text is what an IME sees)."""
        ...

    @property
    def foreground(self) -> str:
        """The package in front."""
        ...

    def tree(self) -> View:
        """The view tree of the screen."""
        ...

    def elements(self) -> list[UIElement]:
        """The screen's interesting elements."""
        ...

    def xml(self) -> str:
        """The screen as a uiautomator dump."""
        ...

    def state(self) -> dict[str, Any]:
        """The phone's plain-data state (what task checks read)."""
        ...

    # -- a user's input -----------------------------------------------------------------------------------------------
    def reset(self, seed: int = 0, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Factory-reset with a seed and a task's initial conditions."""
        ...

    def tap(self, x: float, y: float) -> bool:
        """A tap at device pixels."""
        ...

    def long_press(self, x: float, y: float) -> bool:
        """A press and hold."""
        ...

    def swipe(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """A finger swipe."""
        ...

    def type_text(self, text: str) -> bool:
        """Text typed into the focused field."""
        ...

    def key(self, name: str) -> bool:
        """A key: back, home, enter, delete, recents."""
        ...

    def launch(self, name: str) -> bool:
        """Open an app by package, label or alias."""
        ...

    def go_home(self) -> bool:
        """The HOME key."""
        ...

    def open_shade(self) -> bool:
        """Pull the notification shade down."""
        ...

    def close_shade(self) -> bool:
        """Put the notification shade away."""
        ...

    def close_task(self, package: str) -> bool:
        """Close an app's screens."""
        ...

    def tick(self) -> None:
        """The end of an agent step."""
        ...

    # -- Android's system services -------------------------------------------------------------------------------------
    def packages(self) -> list[str]:
        """Every installed package."""
        ...

    def home_screen(self, package: str) -> str:
        """The screen an app opens on."""
        ...

    def activities(self) -> list[tuple[str, str]]:
        """The back stack as (package, screen name), oldest first."""
        ...

    def send_intent(self, intent: Intent) -> bool | None:
        """Resolve and deliver an intent: None if no app handles it, else whether it did what it asks."""
        ...

    def scheduled_alarms(self) -> list[ScheduledAlarm]:
        """Every alarm set to ring, by time."""
        ...

    def in_call(self) -> bool:
        """Whether a call is in progress."""
        ...

    def set_system(self, key: str, value: Any) -> None:
        """Write a system setting."""
        ...

    def set_clipboard(self, text: str) -> None:
        """Put `text` on the clipboard (Clipper's `clipper.set`)."""
        ...

    def clear_data(self, package: str) -> None:
        """`pm clear` an app."""
        ...
