"""`SimDevice`: the simulated phone behind the Device contract (in-process, deterministic, optionally slow)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.devices.base import Device
from android_gym.sim.app import App
from android_gym.sim.latency import LatencyConfig
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.ui import UIElement


class SimDevice(Device):
    """A `SimPhone` driven through the Device contract.

    Guarantees: same seed + same actions give the same screens, elements and states; latency (when configured) only
    adds wall-clock sleeps and never changes what the phone shows.

    Args:
        perturbations: a level name ("none", "default", "hard"), a dict of `PerturbationConfig` fields, or a config.
        latency: a preset name ("off", "emulator", "fast-emulator"), a dict of `LatencyConfig` fields, or a config.
        sleep: the function used to wait out latency (tests inject a fake clock).
        apps: the installed apps, launcher first (default `android_gym.sim.apps.DEFAULT_APPS`; `with_apps` swaps
            some in).
    """

    def __init__(self, perturbations: str | dict | PerturbationConfig | None = "default",
                 latency: str | dict | LatencyConfig | None = "off", sleep: Any = time.sleep,
                 apps: Sequence[type[App]] | None = None) -> None:
        self.perturbations = PerturbationConfig.coerce(perturbations)
        self.latency = LatencyConfig.coerce(latency)
        self._sleep = sleep
        self.phone = SimPhone(self.perturbations, apps)
        self.screen_size = (self.phone.width, self.phone.height)
        self._latency_rng = np.random.default_rng(0)
        self._renderer: Any = None
        self._shot_cache: tuple[int, int | None, np.ndarray] | None = None

    def reset(self, seed: int, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Factory-reset the phone (seeded) and apply `initial` conditions."""
        self._latency_rng = np.random.default_rng([int(seed), 7])
        self._wait(self.latency.reset_s(self._latency_rng))
        self.phone.reset(seed, initial)

    def tick(self) -> None:
        """Advance spinners/pop-ups and wait out one step's latency."""
        self.phone.tick()
        self._wait(self.latency.step_s(self._latency_rng))

    def screenshot(self, width: int | None = None) -> np.ndarray:
        """The rendered screen, uint8 (H, W, 3); cached while the screen does not change."""
        key = (self.phone.version, width)
        if self._shot_cache is None or self._shot_cache[:2] != key:
            if self._renderer is None:
                from android_gym.sim.render import Renderer  # drawing is only loaded when pixels are asked for

                self._renderer = Renderer()
            image = self._renderer.render(self.phone.tree(), width or self.phone.width,
                                          dark=bool(self.phone.system["dark_theme"]))
            image.flags.writeable = False
            self._shot_cache = (*key, image)
        return self._shot_cache[2]

    def ui_elements(self) -> list[UIElement]:
        """The screen's interesting elements (cached while the screen does not change)."""
        return self.phone.elements()

    def ui_xml(self) -> str:
        """The screen as uiautomator XML."""
        return self.phone.xml()

    def state(self) -> dict[str, Any]:
        """The phone's full state (foreground app, screen, system settings, app data)."""
        return self.phone.state()

    def _tap_impl(self, x: int, y: int) -> bool:
        return self.phone.tap(x, y)

    def _long_press_impl(self, x: int, y: int) -> bool:
        return self.phone.long_press(x, y)

    def _swipe_impl(self, x0: int, y0: int, x1: int, y1: int) -> bool:
        return self.phone.swipe(x0, y0, x1, y1)

    def _type_impl(self, text: str) -> bool:
        return self.phone.type_text(text)

    def _key_impl(self, key: str) -> bool:
        return self.phone.key(key)

    def _launch_impl(self, app: str) -> bool:
        return self.phone.launch(app)

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._sleep(seconds)
