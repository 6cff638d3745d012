"""The contract between the simulated phone and its apps: `Screen` (where the user is) and `App` (what it shows)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from android_gym.sim.view import View

if TYPE_CHECKING:
    from android_gym.sim.phone import SimPhone


@dataclass
class Screen:
    """One entry of the phone's back stack: an app's screen with its arguments and transient UI state.

    Attributes:
        package: the app that owns the screen.
        name: the screen within the app ("home", "results", "product", ...).
        args: what the screen shows (a query, a product id, ...); part of the observable state.
        fields: current text of the screen's EditTexts, by resource-id.
        focus: resource-id of the focused EditText (the soft keyboard is up while set), or None.
        scroll: vertical scroll offset of the screen's scrollable list, in device pixels.
        loading: agent steps left during which a spinner replaces the content (slow page loads).
    """

    package: str
    name: str
    args: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    focus: str | None = None
    scroll: int = 0
    loading: int = 0

    def snapshot(self) -> dict[str, Any]:
        """A plain-data copy for `SimPhone.state()`."""
        return {"package": self.package, "name": self.name, "args": dict(self.args), "fields": dict(self.fields),
                "focus": self.focus, "scroll": self.scroll, "loading": self.loading}


class App:
    """Base class of a simulated app: subclasses build views from state and react to the events of their views.

    An app never draws pixels or parses taps: it returns `View`s whose `on_tap` events come back to `handle`.
    All randomness goes through `self.phone.rng` (per episode) or `stable_seed` (per world item), so a seed fixes
    everything.
    """

    package: ClassVar[str]
    label: ClassVar[str]
    icon: ClassVar[str] = "app"
    # Names a user may say for the app (OPEN_APP / `am start` by label).
    aliases: ClassVar[tuple[str, ...]] = ()

    def __init__(self, phone: SimPhone) -> None:
        self.phone = phone
        self.reset()

    def reset(self) -> None:
        """Restore the app's state to a fresh install (called on every phone reset)."""

    def home(self) -> Screen:
        """The screen the app opens on."""
        return Screen(self.package, "home")

    def build(self, screen: Screen) -> list[View]:
        """The views of `screen` inside the content area (below the status bar, above the nav bar)."""
        raise NotImplementedError

    def handle(self, event: tuple, screen: Screen) -> bool:
        """React to an event from one of this app's views; return whether anything changed."""
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER was pressed in the focused field `rid`; return whether anything changed."""
        return self.handle(("submit", rid), screen)

    def state(self) -> dict[str, Any]:
        """The app's observable state for task checks (plain data)."""
        return {}

    def apply(self, settings: dict[str, Any]) -> None:
        """Set initial conditions for a task (e.g. Wi-Fi off); unknown keys raise `KeyError`."""
        if settings:
            raise KeyError(f"{self.label} takes no initial settings, got {sorted(settings)}")


def stable_seed(*parts: object) -> int:
    """A seed from values that is the same in every process (Python's `hash` is salted per process).

    >>> stable_seed("amazon", "laptop") == stable_seed("amazon", "laptop")
    True
    """
    return zlib.crc32("\x1f".join(map(str, parts)).encode("utf-8"))
