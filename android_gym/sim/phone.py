"""`SimPhone`: the simulated phone — app screens, a keyboard, pop-ups, the notification shade, touch/key dispatch.

The phone is deterministic given its seed and the actions it receives. It is reached from the rest of the package
only through `android_gym.devices.sim.SimDevice` (and the ADB front), never directly by the env or the trainer.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from android_gym.errors import ConfigError, unknown_name
from android_gym.sim.app import App, Intent, ScheduledAlarm, Screen
from android_gym.sim.apps import DEFAULT_APPS, LAUNCHER
from android_gym.sim.clipboard import Clipboard
from android_gym.sim.device_dump import Window, device_windows, reachable, to_xml
from android_gym.sim.events import (
    ClearNotifications,
    CloseShade,
    DeleteKey,
    DialogButton,
    EnterKey,
    Event,
    FocusField,
    LaunchApp,
    NavKey,
    NoopKey,
    OpenNotification,
    Scrim,
    ShadeTile,
    TextMenu,
    TypeKey,
)
from android_gym.sim.keyboard import keyboard_view
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    STATUS_BAR_H,
    WIDTH,
)
from android_gym.sim.perturbations import Dialog, PerturbationConfig, draw_dialog
from android_gym.sim.shade import PULL_PX, Notification, draw_notifications, shade_view
from android_gym.sim.system_ui import dialog_view, nav_bar, shift_clip, status_bar
from android_gym.sim.view import View
from android_gym.ui import UIElement, is_interesting

DEFAULT_SYSTEM = {
    "wifi": True, "bluetooth": False, "airplane_mode": False, "dark_theme": False, "battery_saver": False,
    "do_not_disturb": False, "location": True, "auto_rotate": True, "brightness": 60, "font_size": "Default",
    "clock": "9:41",
}
"""System settings a fresh phone starts with (the Settings app edits them; the status bar and renderer read them)."""

R = TypeVar("R")
SWIPE_MIN_PX = 60  # shorter finger travel is a tap


def changes_the_phone(method: Callable[..., R]) -> Callable[..., R]:
    """Marks a `SimPhone` method that may change the phone: a state a reader still holds is frozen first (`AppStates`).
    Every public input and service that can change an app or the screen carries it."""  # noqa: D205, D209
    @functools.wraps(method)
    def guarded(self: SimPhone, *args: Any, **kwargs: Any) -> R:
        self._freeze_held_state()
        return method(self, *args, **kwargs)
    return guarded


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of str, numbers, bool, None): what `copy.deepcopy` makes of it,
    without its memo and reduction machinery (half the time on a phone's state, copied at every screen change).

    >>> a = {"x": [1, {"y": (2, [3])}]}
    >>> b = plain_copy(a)
    >>> b == a and b["x"] is not a["x"] and b["x"][1]["y"][1] is not a["x"][1]["y"][1]
    True
    """  # noqa: D205, D209
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    if isinstance(value, set):
        return {plain_copy(v) for v in value}
    if isinstance(value, AppStates):
        return {k: plain_copy(v) for k, v in value.items()}
    return value  # immutable scalars (and anything else an app should not have put in its state)


class AppStates(Mapping[str, Any]):
    """The apps' part of `SimPhone.state()`, package -> `App.state()`: each app's state is built when first read, then
    kept. A check reads one or two of the phone's apps; building all of them at every screen change was half a step.

    Snapshot semantics hold as if every app had been built at once: before its next input the phone `freeze`s a
    mapping that a reader still holds (builds the rest), so a state read before an action describes the phone before
    it. Read-only; `dict(states)` (or `plain_copy`) gives plain data, e.g. for JSON.
    """  # noqa: D205, D209

    __slots__ = ("_apps", "_built", "__weakref__")

    def __init__(self, apps: Mapping[str, App]) -> None:
        self._apps: Mapping[str, App] | None = apps  # None once frozen: every state is in `_built`
        self._built: dict[str, Any] = {}

    def __getitem__(self, package: str) -> Any:
        built = self._built.get(package)
        if built is None:
            if self._apps is None or package not in self._apps:
                raise KeyError(package)
            built = self._built[package] = self._apps[package].state()
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._built if self._apps is None else self._apps)

    def __len__(self) -> int:
        return len(self._built if self._apps is None else self._apps)

    def __repr__(self) -> str:
        return f"AppStates({dict(self.items())!r})"

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self.items()),)  # a copy or a pickle is plain data, not the live apps

    def freeze(self) -> None:
        """Build every app's state not read yet, and let go of the apps (their later changes are not this state's)."""
        if self._apps is not None:
            self._built = {package: self[package] for package in self._apps}
            self._apps = None


class SimPhone:
    """A simulated Android phone, 1080x2400 device pixels.

    Guarantees: every input method returns whether it changed anything (the env reports it as `had_effect`);
    `tree()`, `elements()` and `xml()` are cached until the state changes; `state()` is plain data.
    Callers must `reset()` before the first input.
    """

    width, height = WIDTH, HEIGHT

    def __init__(self, perturbations: PerturbationConfig | None = None,
                 apps: Sequence[type[App]] | None = None) -> None:
        self.perturbations = perturbations or PerturbationConfig.preset("none")
        self.app_classes = tuple(apps or DEFAULT_APPS)
        self.launcher_package = LAUNCHER
        self.rng = np.random.default_rng(0)
        self.seed = 0
        self.apps: dict[str, App] = {}
        self.system: dict[str, Any] = {}
        self.stack: list[Screen] = []
        self.dialog: Dialog | None = None
        self.shade_open = False
        self.notifications: list[Notification] = []
        self.clipboard = Clipboard()
        self.steps = 0
        self.version = 0
        self._cache: dict[str, Any] = {}
        self._max_scroll = 0

    # -- lifecycle ----------------------------------------------------------------------------------------------------
    @changes_the_phone
    def reset(self, seed: int = 0, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Factory-reset the phone to the home screen with a seeded episode RNG.

        Args:
            seed: fixes every random choice of the episode (pop-ups, spinners, layout variants).
            initial: per-target initial conditions: {"system": {...}} for system settings, {package: {...}} for app
                state (e.g. pre-set alarms). Unknown targets or keys raise `ConfigError`.
        """
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.system = dict(DEFAULT_SYSTEM)
        self.apps = {}
        for cls in self.app_classes:
            self.apps[cls.package] = cls(self)
        self.dialog = None
        self.shade_open = False
        self.clipboard = Clipboard()
        self.notifications = draw_notifications(self.seed, {pkg: app.label for pkg, app in self.apps.items()})
        self.steps = 0
        for target, values in (initial or {}).items():
            self._apply(target, values)
        self.stack = [self.apps[self.launcher_package].home()]
        self._changed()

    def _apply(self, target: str, values: dict[str, Any]) -> None:
        if target == "system":
            bad = set(values) - set(DEFAULT_SYSTEM)
            if bad:
                raise ConfigError(f"unknown system settings {sorted(bad)}; known: {sorted(DEFAULT_SYSTEM)}")
            self.system.update(values)
        elif target == "clipboard":
            self.clipboard.apply(values)
        elif target in self.apps:
            self.apps[target].apply(values)  # its initial_model refuses what does not fit, naming the field
        else:
            raise unknown_name("initial-state target", target, ["system", "clipboard", *self.apps])

    # -- what the screen shows ----------------------------------------------------------------------------------------
    @property
    def top(self) -> Screen:
        """The screen in front."""
        return self.stack[-1]

    @property
    def foreground(self) -> str:
        """Package of the app in front."""
        return self.top.package

    @property
    def keyboard_up(self) -> bool:
        """Whether the soft keyboard is shown (a field of the front screen has focus)."""
        return self.top.focus is not None and self.dialog is None and not self.shade_open

    def tree(self) -> View:
        """The whole screen as a view tree (cached until the state changes)."""
        if "tree" not in self._cache:
            self._cache["tree"] = self._build()
        return self._cache["tree"]

    def elements(self) -> list[UIElement]:
        """The interesting views of `tree()` a user can reach (not under a pop-up's or the shade's backdrop) as
        device-agnostic elements, in document order: what `xml()` parses to."""  # noqa: D205, D209
        if "elements" not in self._cache:
            out: list[UIElement] = []
            for v in reachable(self.tree()):
                if is_interesting(v.cls, v.text, v.desc, v.clickable, v.focusable, v.scrollable, v.checkable, v.area):
                    out.append(UIElement(len(out), v.cls, v.bounds, v.text, v.desc, v.rid, v.package, v.hint,
                                         v.clickable, v.focusable, v.focused, v.scrollable, v.checkable, v.checked,
                                         v.enabled, v.selected))
            self._cache["elements"] = out
        return self._cache["elements"]

    def xml(self) -> str:
        """The screen as `uiautomator dump` writes it on Android 13-14 (see `device_dump`)."""
        if "xml" not in self._cache:
            self.tree()
            self._cache["xml"] = to_xml(device_windows(self._cache["windows"]))
        return self._cache["xml"]

    def state(self) -> dict[str, Any]:
        """Everything a task check may look at, as plain data.

        The nested values are fresh data taken once per screen change and shared by every caller until the next
        change: treat them as read-only (mutating them cannot affect the phone, only other readers). `"apps"` is an
        `AppStates` mapping, each app's part built when first read; apps' states are fresh by `App.state()`'s
        contract, so only the phone's own part is copied here.
        """
        if "state" not in self._cache:
            self._cache["state"] = plain_copy({
                "foreground": self.foreground,
                "screen": self.top.snapshot(),
                "stack": [f"{s.package}/{s.name}" for s in self.stack],
                "dialog": self.dialog.kind if self.dialog else None,
                "shade": {"open": self.shade_open, "notifications": [
                    {"app": n.app, "title": n.title, "text": n.text} for n in self.notifications]},
                "keyboard": self.keyboard_up,
                "system": self.system,
                "clipboard": self.clipboard.state(self),
            })
        if "apps" not in self._cache:  # kept apart: an input drops it (`_freeze_held_state`), the phone's part stays
            self._cache["apps"] = AppStates(self.apps)
        return {**self._cache["state"], "apps": self._cache["apps"], "steps": self.steps}

    # -- inputs (each returns whether anything changed) ----------------------------------------------------------------
    @changes_the_phone
    def tap(self, x: float, y: float) -> bool:
        """A finger tap at device pixels (x, y)."""
        self._check_point(x, y)
        if self.perturbations.ignored_tap_prob and self.rng.random() < self.perturbations.ignored_tap_prob:
            return False
        target = self.tree().hit(x, y)
        dismissed = self.clipboard.dismiss(self, target)  # a tap off the text toolbar closes it
        if target is None or target.on_tap is None:
            return self._changed() if dismissed else False
        return self._dispatch(target.on_tap) or (dismissed and self._changed())

    @changes_the_phone
    def long_press(self, x: float, y: float) -> bool:
        """A press-and-hold: on a text field it opens the text toolbar (`clipboard`); the sim treats it as a tap on
        other long-clickable views and ignores it elsewhere."""  # noqa: D205, D209
        self._check_point(x, y)
        target = self.tree().hit(x, y)
        if target is None or target.on_tap is None or not target.long_clickable:
            return False
        if isinstance(target.on_tap, FocusField) and self.dialog is None and not self.top.loading:
            return self.clipboard.long_press(self, target.on_tap.rid) and self._changed()
        return self._dispatch(target.on_tap)

    @changes_the_phone
    def swipe(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """A finger swipe from (x0, y0) to (x1, y1) device pixels: down from the status bar it pulls the
        notification shade open (a swipe up closes it); elsewhere it scrolls the list under the finger."""  # noqa: D205, D209
        self._check_point(x0, y0)
        self._check_point(x1, y1)
        dx, dy = x1 - x0, y1 - y0
        if abs(dx) < SWIPE_MIN_PX and abs(dy) < SWIPE_MIN_PX:
            return self.tap(x0, y0)
        vertical = abs(dy) >= abs(dx)
        if self.shade_open:
            return self.close_shade() if vertical and dy < 0 else False
        if vertical and y0 < STATUS_BAR_H and dy >= PULL_PX:
            return self.open_shade()
        if self.dialog is not None or self.top.loading:
            return False
        if self.apps[self.foreground].on_drag(self.top, (x0, y0), (x1, y1)):  # e.g. a drawing canvas
            return self._changed()
        if abs(dy) >= abs(dx):
            if self.apps[self.foreground].on_swipe(self.top, dy):  # e.g. the launcher's app drawer
                return self._changed()
            scroller = self.tree().find(lambda v: v.scrollable and v.contains(x0, y0))
            if scroller is None:
                return False
            new = int(np.clip(self.top.scroll - dy, 0, self._max_scroll))
            if new == self.top.scroll:
                return False
            self.top.scroll = new
            return self._changed()
        return False

    def _delete_last(self) -> bool:
        """Delete the focused field's last character (the keyboard's delete key, KEYCODE_DEL)."""
        rid = self.top.focus
        if self.clipboard.replace(self, ""):  # the selection goes, as a keyboard's delete takes it
            return self._changed()
        if rid is None or not self.top.fields.get(rid):
            return False
        self.top.fields[rid] = self.top.fields[rid][:-1]
        return self._changed()

    @changes_the_phone
    def type_text(self, text: str) -> bool:
        """Type `text` into the focused field; nothing happens without one."""
        if self.dialog is not None or self.shade_open or self.top.focus is None or self.top.loading or not text:
            return False
        rid = self.top.focus
        if not self.clipboard.replace(self, text):  # typed text takes a selection's place
            self.top.fields[rid] = self.top.fields.get(rid, "") + text
        return self._changed()

    @changes_the_phone
    def key(self, name: str) -> bool:
        """Press a key: "back", "home", "enter", "delete" (the character before the cursor: the focused field's
        last) or "recents" (which the sim ignores)."""  # noqa: D205, D209
        if name == "delete":
            return self.dialog is None and not self.shade_open and not self.top.loading and self._delete_last()
        if name == "back":
            return self._back()
        if name == "home":
            return self.go_home()
        if name == "enter":
            if self.dialog is not None or self.shade_open or self.top.focus is None or self.top.loading:
                return False
            return self._submit()
        if name == "recents":
            return False
        raise ConfigError(f"`key` must be one of back, home, enter, delete, recents; got {name!r}")

    @changes_the_phone
    def launch(self, name: str) -> bool:
        """Open an app by package name, label or alias (case-insensitive), on its home screen."""
        app = self.find_app(name)
        self.dialog, self.shade_open = None, False
        self.stack = [self.apps[self.launcher_package].home(), app.home()]
        return self._changed()

    @changes_the_phone
    def tick(self) -> None:
        """End of an agent step: spinners advance, and a pop-up may appear (the perturbation model)."""
        self.steps += 1
        changed = False
        if self.top.loading:
            self.top.loading -= 1
            changed = True
        p = self.perturbations
        if (p.dialog_prob and self.dialog is None and not self.shade_open and self.foreground != self.launcher_package
                and self.rng.random() < p.dialog_prob):
            app = self.apps[self.foreground]
            self.dialog = draw_dialog(self.rng, self.foreground, app.label, app.is_browser)
            changed = True
        for app in self.apps.values():  # time-driven app state (e.g. an install finishing)
            if app.on_tick():
                changed = True
        if changed:
            self._changed()

    @changes_the_phone
    def open_shade(self) -> bool:
        """Pull the notification shade down over whatever is in front (`cmd statusbar expand-notifications`)."""
        if self.shade_open:
            return False
        self.shade_open = True
        return self._changed()

    @changes_the_phone
    def close_shade(self) -> bool:
        """Put the notification shade away (`cmd statusbar collapse`)."""
        if not self.shade_open:
            return False
        self.shade_open = False
        return self._changed()

    # -- the services apps use (`app.PhoneServices`) -------------------------------------------------------------------
    def screens(self, package: str) -> list[Screen]:
        """The back stack's screens of app `package`, oldest first."""
        return [s for s in self.stack if s.package == package]

    def installed(self) -> list[App]:
        """Every installed app, in the catalogue's order."""
        return list(self.apps.values())

    @changes_the_phone
    def pop(self) -> bool:
        """Close the front screen (an app's own back: a dialog's OK, the drawer swiped shut)."""
        self.stack.pop()
        return self._changed()

    def find_app(self, name: str) -> App:
        """The installed app called `name` (package, label or alias, case-insensitive)."""
        key = name.strip().lower()
        for app in self.apps.values():
            if key in (app.package.lower(), app.label.lower(), *(a.lower() for a in app.aliases)):
                return app
        raise unknown_name("app", name, [a.label for a in self.apps.values()])

    @changes_the_phone
    def push(self, screen: Screen, slow: bool = False) -> bool:
        """Open `screen` on top; `slow` pages may show a spinner first (perturbation)."""
        if slow:
            screen.loading = self.perturbations.slow_load(self.rng)
        self.stack.append(screen)
        return self._changed()

    @changes_the_phone
    def replace(self, screen: Screen, slow: bool = False) -> bool:
        """Swap the front screen for `screen` (same back-stack depth)."""
        self.stack.pop()
        return self.push(screen, slow)

    @changes_the_phone
    def go_home(self) -> bool:
        """The HOME key: back to the launcher's home screen."""
        was_home = (len(self.stack) == 1 and self.top.name == "home" and self.dialog is None and self.top.focus is None
                    and not self.shade_open)
        self.dialog, self.shade_open = None, False
        self.stack = [self.apps[self.launcher_package].home()]
        self._changed()
        return not was_home

    @changes_the_phone
    def close_task(self, package: str) -> bool:
        """Close app `package`'s screens (swiped away in Overview, `am stack remove`); the launcher cannot be."""
        if package == self.launcher_package or not self.screens(package):
            return False
        self.dialog = None if self.foreground == package else self.dialog
        self.stack = [s for s in self.stack if s.package != package]
        return self._changed()

    @changes_the_phone
    def open(self, package: str, screen: Screen) -> bool:
        """Switch to app `package` showing `screen` (an intent from another app, e.g. the launcher's search bar)."""
        self.dialog, self.shade_open = None, False
        self.stack = [self.apps[self.launcher_package].home(), screen]
        return self._changed()

    # -- what the phone's outside faces may do (`admin.PhoneAdmin`) ----------------------------------------------------
    def packages(self) -> list[str]:
        """Every installed package, in the catalogue's order."""
        return list(self.apps)

    def home_screen(self, package: str) -> str:
        """The name of the screen app `package` opens on (for its launcher activity's name).

        Raises:
            UnknownNameError: no such app is installed.
        """
        if package not in self.apps:
            raise unknown_name("package", package, list(self.apps))
        return self.apps[package].home().name

    def activities(self) -> list[tuple[str, str]]:
        """The back stack as (package, screen name) pairs, oldest first (the launcher's home at the bottom)."""
        return [(s.package, s.name) for s in self.stack]

    @changes_the_phone
    def send_intent(self, intent: Intent) -> bool | None:
        """Hand `intent` to the first installed app whose filters match it (Android's resolver, with the catalogue's
        order as the user's defaults).

        Returns:
            None when no app handles it; else whether the app did what it asks (False: a call that was not placed).
        """  # noqa: D205
        app = next((a for a in self.apps.values() if any(f.matches(intent) for f in a.intent_filters)), None)
        if app is None:
            return None
        done = app.on_intent(intent)
        self._changed()
        return done

    def scheduled_alarms(self) -> list[ScheduledAlarm]:
        """Every alarm an app has set to ring (`dumpsys alarm`), by time (apps' own order within one time)."""
        return sorted((a for app in self.apps.values() for a in app.scheduled_alarms()),
                      key=lambda a: (a.hour, a.minute))

    def in_call(self) -> bool:
        """Whether an app holds a phone call."""
        return any(app.in_call() for app in self.apps.values())

    @changes_the_phone
    def set_system(self, key: str, value: Any) -> None:
        """Write system setting `key` from outside the Settings app (`settings put`, `svc wifi`).

        Raises:
            UnknownNameError: no such setting.
        """
        if key not in self.system:
            raise unknown_name("system setting", key, list(self.system))
        self.system[key] = value
        self._changed()

    @changes_the_phone
    def set_clipboard(self, text: str) -> None:
        """Put `text` on the clipboard from outside (the Clipper helper's `clipper.set` broadcast)."""
        self.clipboard.text = text
        self._changed()

    @changes_the_phone
    def clear_data(self, package: str) -> None:
        """`pm clear`: app `package` back to a fresh install; the phone goes home if the app had screens open
        (clearing data kills the process, and its activities go with it)."""  # noqa: D205, D209
        if self.screens(package):
            self.go_home()
        self.apps[package].reset()
        self._changed()

    # -- internals -----------------------------------------------------------------------------------------------------
    def _freeze_held_state(self) -> None:
        """Before an input: a state a reader still holds keeps describing the phone as it was (`AppStates.freeze`)."""
        cached = self._cache.pop("apps", None)
        if cached is None:
            return
        held = weakref.ref(cached)
        del cached
        if (apps := held()) is not None:
            apps.freeze()

    def _changed(self) -> bool:
        self.version += 1
        self._cache.clear()
        return True

    def _check_point(self, x: float, y: float) -> None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ConfigError(f"point ({x}, {y}) is outside the {self.width}x{self.height} screen")

    def _back(self) -> bool:
        if self.shade_open:
            return self.close_shade()
        if self.dialog is not None:
            self.dialog = None
            return self._changed()
        if self.clipboard.close(self):
            return self._changed()
        if self.top.focus is not None:
            self.top.focus = None
            return self._changed()
        if self.apps[self.foreground].on_back(self.top):  # e.g. the browser's page history
            return self._changed()
        if len(self.stack) > 1:
            self.stack.pop()
            return self._changed()
        return False

    def _submit(self) -> bool:
        screen, app = self.top, self.apps[self.foreground]
        rid = screen.focus
        assert rid is not None  # callers check
        changed = app.submit(screen, rid)
        if screen is self.top and screen.focus == rid:  # ENTER closes the keyboard even when nothing else happens
            screen.focus = None
            changed = True
        return self._changed() if changed else False

    def _dispatch(self, event: Event) -> bool:
        match event:  # the shade covers everything but the navigation bar, so only its own events reach here
            case ShadeTile(key):
                self.system[key] = not self.system[key]
                return self._changed()
            case OpenNotification(index):
                notification = self.notifications.pop(index)  # opening a notification dismisses it
                if notification.package in self.apps:
                    return self.launch(notification.package)
                return self.close_shade()
            case ClearNotifications():
                self.notifications = []
                return self.close_shade()
            case CloseShade():
                return self.close_shade()
            case DialogButton():  # every button of a pop-up dismisses it
                self.dialog = None
                return self._changed()
            case Scrim():
                return False
        if self.dialog is not None:  # a modal pop-up swallows every other touch
            return False
        match event:
            case NavKey(key):
                return self.key(key)
            case TypeKey(text):
                return self.type_text(text)
            case DeleteKey():
                return self._delete_last()
            case EnterKey():
                return self.key("enter")
            case NoopKey():
                return False
        if self.top.loading:
            return False
        match event:
            case TextMenu(action):
                return self.clipboard.act(self, action) and self._changed()
            case FocusField(rid):
                if self.top.focus == rid:
                    return False
                self.top.focus = rid
                return self._changed()
            case LaunchApp(package):
                return self.launch(package)
        screen = self.top
        changed = self.apps[screen.package].handle(event, screen)
        return self._changed() if changed else False

    def _build(self) -> View:
        screen, app = self.top, self.apps[self.foreground]
        if screen.loading:
            content = [View("android.widget.ProgressBar", (WIDTH // 2 - 80, 1000, WIDTH // 2 + 80, 1160),
                            desc="Loading", package=screen.package, style="spinner")]
        else:
            content = app.build(screen)
        self._max_scroll = 0
        for v in content:
            if v.scrollable:
                self._scroll(v, screen)
        windows = [Window("app", View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=screen.package,
                                      rid="android:id/content", style="dark" if self.system["dark_theme"] else "",
                                      children=content)),
                   Window("status_bar", status_bar(self.system)), Window("navigation_bar", nav_bar())]
        if self.keyboard_up:
            windows.append(Window("ime", keyboard_view()))
        if (text_toolbar := self.clipboard.window(self, content)) is not None:
            windows.append(Window("popup", text_toolbar))
        if self.dialog is not None:
            windows.append(Window("dialog", dialog_view(self.dialog)))
        if self.shade_open:
            windows.append(Window("shade", shade_view(self.system, self.notifications)))
        self._cache["windows"] = windows
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=screen.package, children=[w.view for w in windows])

    def _scroll(self, scroller: View, screen: Screen) -> None:
        top, bottom = scroller.bounds[1], scroller.bounds[3]
        content_bottom = max((c.bounds[3] for c in scroller.children), default=top)
        self._max_scroll = max(0, content_bottom - bottom)
        screen.scroll = min(screen.scroll, self._max_scroll)
        dy = -screen.scroll
        scroller.children = [c for c in (shift_clip(c, dy, top, bottom) for c in scroller.children) if c is not None]
