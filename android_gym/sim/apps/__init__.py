"""The simulated phone's app catalogue: every app a fresh phone has installed, launcher first."""

from __future__ import annotations

from android_gym.sim.app import App
from android_gym.sim.apps.generic import GENERIC_APPS
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.sim.apps.launcher import Launcher

DEFAULT_APPS: tuple[type[App], ...] = (
    Launcher,
    *GENERIC_APPS,
)

__all__ = ["DEFAULT_APPS", "LAUNCHER"]
