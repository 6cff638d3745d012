"""The simulated phone's app catalogue: every app a fresh phone has installed, launcher first."""

from __future__ import annotations

from android_gym.sim.app import App
from android_gym.sim.apps.browser import Browser
from android_gym.sim.apps.calculator import CalculatorApp
from android_gym.sim.apps.calendar import CalendarApp
from android_gym.sim.apps.clock import ClockApp
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.apps.generic import GENERIC_APPS
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.sim.apps.launcher import Launcher
from android_gym.sim.apps.maps import MapsApp
from android_gym.sim.apps.music import MusicApp
from android_gym.sim.apps.playstore import PlayStoreApp
from android_gym.sim.apps.settings import SettingsApp
from android_gym.sim.apps.youtube import YouTubeApp

DEFAULT_APPS: tuple[type[App], ...] = (
    Launcher,
    Browser,
    SettingsApp,
    ClockApp,
    YouTubeApp,
    PlayStoreApp,
    MapsApp,
    CalendarApp,
    CalculatorApp,
    FilesApp,
    MusicApp,
    *GENERIC_APPS,
)



def with_apps(*apps: type[App]) -> tuple[type[App], ...]:
    """`DEFAULT_APPS` with each of `apps` in place of the installed app of the same package, or appended."""
    replaced = {app.package: app for app in apps}
    kept = tuple(replaced.pop(app.package, app) for app in DEFAULT_APPS)
    return (*kept, *replaced.values())


__all__ = ["DEFAULT_APPS", "LAUNCHER", "with_apps"]
