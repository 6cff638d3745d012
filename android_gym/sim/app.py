"""The contract between the simulated phone and its apps: `Screen` (where the user is), `App` (what it shows and how
it reacts) and `PhoneServices` (what an app may use of the phone: navigation, settings, clock, randomness).

Apps are written against this file alone; `SimPhone` implements `PhoneServices` and builds the apps.
"""  # noqa: D205, D209

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError
from android_gym.sim import app_state
from android_gym.sim.events import AppEvent
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.view import View


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


ACTION_VIEW, ACTION_CALL, ACTION_DIAL = ("android.intent.action.VIEW", "android.intent.action.CALL",
                                       "android.intent.action.DIAL")
SMS_DELIVER = "android.provider.Telephony.SMS_DELIVER"
"""The broadcast Android delivers an incoming SMS with, to the default SMS app only (extras "number", "text")."""
END_CALL = "android_gym.intent.action.END_CALL"
"""The sim's stand-in for the telecom service's `endCall` (KEYCODE_ENDCALL): the app holding the call ends it."""


@dataclass(frozen=True)
class Intent:
    """What one part of the phone asks of another app, as Android's `Intent`: an action, a data URI, extras."""

    action: str
    data: str = ""
    extras: tuple[tuple[str, str], ...] = ()

    def extra(self, key: str) -> str:
        """The extra called `key`.

        Raises:
            KeyError: the intent carries no such extra.
        """
        return dict(self.extras)[key]


@dataclass(frozen=True)
class IntentFilter:
    """The intents an app handles, as a manifest's `<intent-filter>`: one action, and data starting with one of
    `data_prefixes` (none: the intent must carry no data).

    >>> IntentFilter(ACTION_VIEW, ("geo:",)).matches(Intent(ACTION_VIEW, "geo:0,0?q=cafe"))
    True
    >>> IntentFilter(ACTION_VIEW, ("geo:",)).matches(Intent(ACTION_VIEW, "mailto:a@b.c"))
    False
    """  # noqa: D205

    action: str
    data_prefixes: tuple[str, ...] = ()

    def matches(self, intent: Intent) -> bool:
        """Whether `intent` has this filter's action and data it accepts."""
        if intent.action != self.action:
            return False
        return intent.data.startswith(self.data_prefixes) if self.data_prefixes else not intent.data


@dataclass(frozen=True)
class ScheduledAlarm:
    """An alarm an app has set to ring, as Android's AlarmManager holds it: the app, the time (24-hour), a label."""

    package: str
    hour: int
    minute: int
    label: str = ""


class PhoneServices(Protocol):
    """What an app may use of the phone it runs on (`SimPhone` implements it).

    Attributes:
        system: the system settings ("wifi", "dark_theme", "clock", ...), which the Settings app edits.
        steps: agent steps since the episode began (the phone's clock for time-driven state).
        rng: the episode's random generator (every random choice of an app goes through it or `stable_seed`).
        seed: the episode's seed.
        perturbations: the episode's perturbation level (sponsored results, layout variants).
    """

    system: dict[str, Any]
    steps: int
    rng: np.random.Generator
    seed: int
    perturbations: PerturbationConfig

    @property
    def top(self) -> Screen:
        """The screen in front."""
        ...

    @property
    def foreground(self) -> str:
        """The package of the app in front."""
        ...

    def screens(self, package: str) -> list[Screen]:
        """The back stack's screens of app `package`, oldest first."""
        ...

    def push(self, screen: Screen, slow: bool = False) -> bool:
        """Open `screen` on top (`slow`: it may show a spinner first)."""
        ...

    def replace(self, screen: Screen, slow: bool = False) -> bool:
        """Swap the front screen for `screen`."""
        ...

    def pop(self) -> bool:
        """Close the front screen."""
        ...

    def open(self, package: str, screen: Screen) -> bool:
        """Switch to app `package` showing `screen` (an intent from another app)."""
        ...

    def launch(self, name: str) -> bool:
        """Open an app by package, label or alias on its home screen."""
        ...

    def find_app(self, name: str) -> App:
        """The installed app called `name` (package, label or alias)."""
        ...

    def installed(self) -> Iterable[App]:
        """Every installed app, in the launcher's order."""
        ...

    def set_clipboard(self, text: str) -> None:
        """Put `text` on the clipboard (an app's "Copy link")."""
        ...


class App:
    """Base class of a simulated app: subclasses build views from state and react to the events of their views.

    An app never draws pixels or parses taps: it returns `View`s whose `on_tap` events come back to `handle`.
    All randomness goes through `self.phone.rng` (per episode) or `stable_seed` (per world item), so a seed fixes
    everything. The `on_*` hooks are optional: the defaults do nothing and return False.
    """

    package: ClassVar[str]
    label: ClassVar[str]
    icon: ClassVar[str] = "app"
    # Names a user may say for the app (OPEN_APP / `am start` by label).
    aliases: ClassVar[tuple[str, ...]] = ()
    is_browser: ClassVar[bool] = False
    """Whether the phone shows cookie banners over this app's pages."""
    state_schema: ClassVar[type | None] = None
    """The `TypedDict` (decorated `app_state.closed`) of what `state()` returns; tasks read it with
    `app_state.state_of(state, schema)`."""
    initial_model: ClassVar[type[ConfigModel] | None] = None
    """The model of the initial conditions the app takes (None: it takes none); `apply` validates against it."""

    intent_filters: ClassVar[tuple[IntentFilter, ...]] = ()
    """The intents the app handles (`on_intent`); the phone hands an intent to the first installed app that does."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("state_schema") is not None:
            app_state.register(cls.state_schema, cls.package)

    def __init__(self, phone: PhoneServices) -> None:
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

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """React to an event from one of this app's views; return whether anything changed."""
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK on `screen` before the phone pops it; True if the app handled it (e.g. a browser's page history)."""
        return False

    def on_swipe(self, screen: Screen, dy: float) -> bool:
        """A vertical swipe of `dy` pixels on `screen` before any list scrolls; True if the app handled it."""
        return False

    def on_drag(self, screen: Screen, start: tuple[float, float], end: tuple[float, float]) -> bool:
        """A finger drag from `start` to `end` (device pixels) on `screen`, before any swipe scrolls; True if the app
        took it (a stroke on a drawing canvas)."""  # noqa: D205, D209
        return False

    def on_tick(self) -> bool:
        """The end of an agent step (time-driven state, e.g. an install finishing); True if anything changed."""
        return False

    def on_intent(self, intent: Intent) -> bool:
        """Handle `intent`, which one of `intent_filters` matched; return whether it did what it asks (a call placed).

        The default opens the app on its home screen.
        """
        self.phone.launch(self.package)
        return True

    def scheduled_alarms(self) -> list[ScheduledAlarm]:
        """The alarms the app has set to ring (what Android's AlarmManager holds)."""
        return []

    def in_call(self) -> bool:
        """Whether the app holds a phone call (what Android's TelecomManager reports)."""
        return False

    def search_intent(self) -> bool:
        """A web search asked for by another app (the launcher's search bar); a browser opens its search page."""
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER was pressed in the focused field `rid`; return whether anything changed."""
        return self.handle(("submit", rid), screen)

    def state(self) -> dict[str, Any]:
        """The app's observable state for task checks: plain data in containers of its own (fresh dicts and lists on
        every call, none shared with the app), which the phone hands to every reader without copying again."""  # noqa: D205, D209
        return {}

    def apply(self, settings: Mapping[str, Any]) -> None:
        """Set a task's initial conditions (e.g. alarms already set): `settings` validated by `initial_model`, then
        handed to `set_up`.

        Raises:
            ConfigError: a key the model does not know (with the closest known one) or a value that does not fit,
                naming the field under the app's label; a condition `set_up` cannot meet on this phone.
        """  # noqa: D205
        if self.initial_model is None:
            if settings:
                raise ConfigError(f"{self.label} takes no initial conditions, got {sorted(settings)}")
            return
        self.set_up(self.initial_model.from_data(settings, where=self.label))

    def set_up(self, initial: Any) -> None:
        """Put the app in the state `initial` (an `initial_model` value) describes, after `reset`."""
        raise NotImplementedError(f"{type(self).__name__} declares an initial_model but no set_up")


def stable_seed(*parts: object) -> int:
    """A seed from values that is the same in every process (Python's `hash` is salted per process).

    >>> stable_seed("amazon", "laptop") == stable_seed("amazon", "laptop")
    True
    """
    return zlib.crc32("\x1f".join(map(str, parts)).encode("utf-8"))
