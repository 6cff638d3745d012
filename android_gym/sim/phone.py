"""`SimPhone`: the simulated phone — a back stack of app screens, a keyboard, pop-ups, and touch/key dispatch.

The phone is deterministic given its seed and the actions it receives. It is reached from the rest of the package
only through `android_gym.devices.sim.SimDevice` (and the ADB front), never directly by the env or the trainer.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.errors import ConfigError, unknown_name
from android_gym.sim.app import App, Screen
from android_gym.sim.keyboard import keyboard_view
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    IMAGE_BUTTON,
    NAV_BAR_H,
    STATUS_BAR_H,
    TEXT_VIEW,
    WIDTH,
)
from android_gym.sim.perturbations import Dialog, PerturbationConfig, draw_dialog
from android_gym.sim.view import View, to_uiautomator_xml
from android_gym.ui import UIElement, is_interesting

SYSTEM_UI = "com.android.systemui"
DEFAULT_SYSTEM = {
    "wifi": True, "bluetooth": False, "airplane_mode": False, "dark_theme": False, "battery_saver": False,
    "do_not_disturb": False, "location": True, "auto_rotate": True, "brightness": 60, "font_size": "Default",
    "clock": "9:41",
}
"""System settings a fresh phone starts with (the Settings app edits them; the status bar and renderer read them)."""

SWIPE_MIN_PX = 60  # shorter finger travel is a tap


class SimPhone:
    """A simulated Android phone, 1080x2400 device pixels.

    Guarantees: every input method returns whether it changed anything (the env reports it as `had_effect`);
    `tree()`, `elements()` and `xml()` are cached until the state changes; `state()` is plain data.
    Callers must `reset()` before the first input.
    """

    width, height = WIDTH, HEIGHT

    def __init__(self, perturbations: PerturbationConfig | None = None,
                 apps: Sequence[type[App]] | None = None) -> None:
        from android_gym.sim.apps import DEFAULT_APPS, LAUNCHER  # the app catalogue imports this module

        self.perturbations = perturbations or PerturbationConfig.preset("none")
        self.app_classes = tuple(apps or DEFAULT_APPS)
        self.launcher_package = LAUNCHER
        self.rng = np.random.default_rng(0)
        self.seed = 0
        self.apps: dict[str, App] = {}
        self.system: dict[str, Any] = {}
        self.stack: list[Screen] = []
        self.dialog: Dialog | None = None
        self.steps = 0
        self.version = 0
        self._cache: dict[str, Any] = {}
        self._max_scroll = 0

    # -- lifecycle ----------------------------------------------------------------------------------------------------
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
        elif target in self.apps:
            try:
                self.apps[target].apply(dict(values))
            except KeyError as e:
                raise ConfigError(f"bad initial state for {target}: {e}") from e
        else:
            raise unknown_name("initial-state target", target, ["system", *self.apps])

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
        return self.top.focus is not None and self.dialog is None

    def tree(self) -> View:
        """The whole screen as a view tree (cached until the state changes)."""
        if "tree" not in self._cache:
            self._cache["tree"] = self._build()
        return self._cache["tree"]

    def elements(self) -> list[UIElement]:
        """The interesting views of `tree()` as device-agnostic elements, in document order."""
        if "elements" not in self._cache:
            out: list[UIElement] = []
            for v in self.tree().walk():
                if is_interesting(v.cls, v.text, v.desc, v.clickable, v.focusable, v.scrollable, v.checkable, v.area):
                    out.append(UIElement(len(out), v.cls, v.bounds, v.text, v.desc, v.rid, v.package, v.hint,
                                         v.clickable, v.focusable, v.focused, v.scrollable, v.checkable, v.checked,
                                         v.enabled, v.selected))
            self._cache["elements"] = out
        return self._cache["elements"]

    def xml(self) -> str:
        """The screen as `uiautomator dump` XML."""
        if "xml" not in self._cache:
            self._cache["xml"] = to_uiautomator_xml(self.tree())
        return self._cache["xml"]

    def state(self) -> dict[str, Any]:
        """Everything a task check may look at, as plain data.

        The nested values are a deep copy taken once per screen change and shared by every caller until the next
        change: treat them as read-only (mutating them cannot affect the phone, only other readers).
        """
        if "state" not in self._cache:
            self._cache["state"] = copy.deepcopy({
                "foreground": self.foreground,
                "screen": self.top.snapshot(),
                "stack": [f"{s.package}/{s.name}" for s in self.stack],
                "dialog": self.dialog.kind if self.dialog else None,
                "keyboard": self.keyboard_up,
                "system": self.system,
                "apps": {pkg: app.state() for pkg, app in self.apps.items()},
            })
        return {**self._cache["state"], "steps": self.steps}

    # -- inputs (each returns whether anything changed) ----------------------------------------------------------------
    def tap(self, x: float, y: float) -> bool:
        """A finger tap at device pixels (x, y)."""
        self._check_point(x, y)
        if self.perturbations.ignored_tap_prob and self.rng.random() < self.perturbations.ignored_tap_prob:
            return False
        target = self.tree().hit(x, y)
        if target is None or target.on_tap is None:
            return False
        return self._dispatch(target.on_tap)

    def long_press(self, x: float, y: float) -> bool:
        """A press-and-hold; the sim treats it as a tap on long-clickable views and ignores it elsewhere."""
        self._check_point(x, y)
        target = self.tree().hit(x, y)
        if target is None or target.on_tap is None or not target.long_clickable:
            return False
        return self._dispatch(target.on_tap)

    def swipe(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """A finger swipe from (x0, y0) to (x1, y1) device pixels; scrolls the list under the finger."""
        self._check_point(x0, y0)
        self._check_point(x1, y1)
        dx, dy = x1 - x0, y1 - y0
        if abs(dx) < SWIPE_MIN_PX and abs(dy) < SWIPE_MIN_PX:
            return self.tap(x0, y0)
        if self.dialog is not None or self.top.loading:
            return False
        if abs(dy) >= abs(dx):
            app = self.apps[self.foreground]
            if hasattr(app, "on_swipe") and app.on_swipe(self.top, dy):  # e.g. the launcher's app drawer
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

    def type_text(self, text: str) -> bool:
        """Type `text` into the focused field; nothing happens without one."""
        if self.dialog is not None or self.top.focus is None or self.top.loading or not text:
            return False
        rid = self.top.focus
        self.top.fields[rid] = self.top.fields.get(rid, "") + text
        return self._changed()

    def key(self, name: str) -> bool:
        """Press a key: "back", "home", "enter" (or "recents", which the sim ignores)."""
        if name == "back":
            return self._back()
        if name == "home":
            return self.go_home()
        if name == "enter":
            if self.dialog is not None or self.top.focus is None or self.top.loading:
                return False
            return self._submit()
        if name == "recents":
            return False
        raise ConfigError(f"`key` must be one of back, home, enter, recents; got {name!r}")

    def launch(self, name: str) -> bool:
        """Open an app by package name, label or alias (case-insensitive), on its home screen."""
        app = self.find_app(name)
        self.dialog = None
        self.stack = [self.apps[self.launcher_package].home(), app.home()]
        return self._changed()

    def tick(self) -> None:
        """End of an agent step: spinners advance, and a pop-up may appear (the perturbation model)."""
        self.steps += 1
        changed = False
        if self.top.loading:
            self.top.loading -= 1
            changed = True
        p = self.perturbations
        if (p.dialog_prob and self.dialog is None and self.foreground != self.launcher_package
                and self.rng.random() < p.dialog_prob):
            app = self.apps[self.foreground]
            self.dialog = draw_dialog(self.rng, self.foreground, app.label, getattr(app, "is_browser", False))
            changed = True
        for app in self.apps.values():  # time-driven app state (e.g. an install finishing)
            if hasattr(app, "on_tick") and app.on_tick():
                changed = True
        if changed:
            self._changed()

    # -- navigation API for apps ---------------------------------------------------------------------------------------
    def find_app(self, name: str) -> App:
        """The installed app called `name` (package, label or alias, case-insensitive)."""
        key = name.strip().lower()
        for app in self.apps.values():
            if key in (app.package.lower(), app.label.lower(), *(a.lower() for a in app.aliases)):
                return app
        raise unknown_name("app", name, [a.label for a in self.apps.values()])

    def push(self, screen: Screen, slow: bool = False) -> bool:
        """Open `screen` on top; `slow` pages may show a spinner first (perturbation)."""
        if slow:
            screen.loading = self.perturbations.slow_load(self.rng)
        self.stack.append(screen)
        return self._changed()

    def replace(self, screen: Screen, slow: bool = False) -> bool:
        """Swap the front screen for `screen` (same back-stack depth)."""
        self.stack.pop()
        return self.push(screen, slow)

    def go_home(self) -> bool:
        """The HOME key: back to the launcher's home screen."""
        was_home = len(self.stack) == 1 and self.top.name == "home" and self.dialog is None and self.top.focus is None
        self.dialog = None
        self.stack = [self.apps[self.launcher_package].home()]
        self._changed()
        return not was_home

    def open(self, package: str, screen: Screen) -> bool:
        """Switch to app `package` showing `screen` (an intent from another app, e.g. the launcher's search bar)."""
        self.dialog = None
        self.stack = [self.apps[self.launcher_package].home(), screen]
        return self._changed()

    # -- internals -----------------------------------------------------------------------------------------------------
    def _changed(self) -> bool:
        self.version += 1
        self._cache.clear()
        return True

    def _check_point(self, x: float, y: float) -> None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ConfigError(f"point ({x}, {y}) is outside the {self.width}x{self.height} screen")

    def _back(self) -> bool:
        if self.dialog is not None:
            self.dialog = None
            return self._changed()
        if self.top.focus is not None:
            self.top.focus = None
            return self._changed()
        app = self.apps[self.foreground]
        if hasattr(app, "on_back") and app.on_back(self.top):  # e.g. the browser's page history
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

    def _dispatch(self, event: tuple) -> bool:
        kind = event[0]
        if kind == "dialog":
            self.dialog = None
            return self._changed()
        if kind == "scrim":
            return False
        if self.dialog is not None:  # a modal pop-up swallows every other touch
            return False
        if kind == "nav":
            return self.key(event[1])
        if kind == "kb":
            return self.type_text(event[1])
        if kind == "kb_del":
            rid = self.top.focus
            if rid is None or not self.top.fields.get(rid):
                return False
            self.top.fields[rid] = self.top.fields[rid][:-1]
            return self._changed()
        if kind == "kb_enter":
            return self.key("enter")
        if kind == "kb_noop":
            return False
        if self.top.loading:
            return False
        if kind == "focus":
            if self.top.focus == event[1]:
                return False
            self.top.focus = event[1]
            return self._changed()
        if kind == "launch":
            return self.launch(event[1])
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
        windows = [View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=screen.package,
                        rid="android:id/content", style="dark" if self.system["dark_theme"] else "", children=content),
                   self._status_bar(), self._nav_bar()]
        if self.keyboard_up:
            windows.append(keyboard_view())
        if self.dialog is not None:
            windows.append(self._dialog_view(self.dialog))
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=screen.package, children=windows)

    def _scroll(self, scroller: View, screen: Screen) -> None:
        top, bottom = scroller.bounds[1], scroller.bounds[3]
        content_bottom = max((c.bounds[3] for c in scroller.children), default=top)
        self._max_scroll = max(0, content_bottom - bottom)
        screen.scroll = min(screen.scroll, self._max_scroll)
        dy = -screen.scroll
        scroller.children = [c for c in (_shift_clip(c, dy, top, bottom) for c in scroller.children) if c is not None]

    def _status_bar(self) -> View:
        s = self.system
        wifi = "Wi-Fi signal full." if s["wifi"] and not s["airplane_mode"] else "Wi-Fi off."
        icons = [View(TEXT_VIEW, (40, 0, 200, STATUS_BAR_H), text=s["clock"], rid=f"{SYSTEM_UI}:id/clock",
                      package=SYSTEM_UI, style="status")]
        icons.append(View("android.widget.ImageView", (860, 12, 920, 72), desc=wifi, package=SYSTEM_UI, icon="wifi"
                          if s["wifi"] else "wifi_off"))
        if s["bluetooth"]:
            icons.append(View("android.widget.ImageView", (800, 12, 850, 72), desc="Bluetooth on.", package=SYSTEM_UI,
                              icon="bluetooth"))
        if s["airplane_mode"]:
            icons.append(View("android.widget.ImageView", (740, 12, 790, 72), desc="Airplane mode.",
                              package=SYSTEM_UI, icon="airplane"))
        icons.append(View("android.widget.ImageView", (940, 12, 1040, 72), desc="Battery 100 percent.",
                          package=SYSTEM_UI, icon="battery"))
        return View(FRAME, (0, 0, WIDTH, STATUS_BAR_H), rid=f"{SYSTEM_UI}:id/status_bar", package=SYSTEM_UI,
                    style="statusbar", children=icons)

    def _nav_bar(self) -> View:
        y0 = HEIGHT - NAV_BAR_H
        buttons = [("Back", "back", 180), ("Home", "home", 540), ("Overview", "recents", 900)]
        return View(FRAME, (0, y0, WIDTH, HEIGHT), rid=f"{SYSTEM_UI}:id/navigation_bar", package=SYSTEM_UI,
                    style="navbar", children=[
                        View(IMAGE_BUTTON, (cx - 120, y0, cx + 120, HEIGHT), desc=desc, rid=f"{SYSTEM_UI}:id/{key}",
                             package=SYSTEM_UI, clickable=True, on_tap=("nav", key), icon=key)
                        for desc, key, cx in buttons])

    def _dialog_view(self, d: Dialog) -> View:
        x0, x1, y0 = 90, WIDTH - 90, 820
        kids = [View(TEXT_VIEW, (x0 + 60, y0 + 60, x1 - 60, y0 + 220), text=d.title, rid="android:id/alertTitle",
                     package=d.package, style="dialog_title")]
        y = y0 + 220
        if d.message:
            kids.append(View(TEXT_VIEW, (x0 + 60, y, x1 - 60, y + 200), text=d.message, rid="android:id/message",
                             package=d.package))
            y += 200
        for i, (label, _) in enumerate(d.buttons):
            kids.append(View("android.widget.Button", (x0 + 60, y + 20, x1 - 60, y + 150), text=label,
                             rid=f"android:id/button{i + 1}", package=d.package, clickable=True, focusable=True,
                             on_tap=("dialog", i), style="button"))
            y += 150
        box = View(FRAME, (x0, y0, x1, y + 60), rid="android:id/parentPanel", package=d.package, style="dialog",
                   children=kids)
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=d.package, clickable=True, on_tap=("scrim",), style="scrim",
                    children=[box])


def _shift_clip(v: View, dy: int, top: int, bottom: int) -> View | None:
    """A copy of `v` moved by `dy` pixels and clipped to rows [top, bottom); None when nothing stays visible."""
    x0, y0, x1, y1 = v.bounds
    y0, y1 = max(top, y0 + dy), min(bottom, y1 + dy)
    if y1 <= y0:
        return None
    kids = [c for c in (_shift_clip(c, dy, top, bottom) for c in v.children) if c is not None]
    return View(**{**v.__dict__, "bounds": (x0, y0, x1, y1), "children": kids})
