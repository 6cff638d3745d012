"""The simulated phone's app catalogue: every app a fresh phone has installed, launcher first."""

from __future__ import annotations

from android_gym.sim.app import App
from android_gym.sim.apps.anki import AnkiApp
from android_gym.sim.apps.browser import Browser
from android_gym.sim.apps.calculator import CalculatorApp
from android_gym.sim.apps.calendar import CalendarApp
from android_gym.sim.apps.camera import CameraApp
from android_gym.sim.apps.clock import ClockApp
from android_gym.sim.apps.contacts import ContactsApp
from android_gym.sim.apps.dialer import DialerApp
from android_gym.sim.apps.draw import DrawApp
from android_gym.sim.apps.expenses import ExpensesApp
from android_gym.sim.apps.feeder import FeederApp
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.apps.gallery import GalleryApp
from android_gym.sim.apps.gmail import GmailApp
from android_gym.sim.apps.habits import HabitsApp
from android_gym.sim.apps.joplin import JoplinApp
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.sim.apps.launcher import Launcher
from android_gym.sim.apps.maps import MapsApp
from android_gym.sim.apps.markor import MarkorApp
from android_gym.sim.apps.messages import MessagesApp
from android_gym.sim.apps.music import MusicApp
from android_gym.sim.apps.opentracks import OpenTracksApp
from android_gym.sim.apps.osmand import OsmandApp
from android_gym.sim.apps.playstore import PlayStoreApp
from android_gym.sim.apps.recipes import RecipesApp
from android_gym.sim.apps.recorder import RecorderApp
from android_gym.sim.apps.retro import RetroApp
from android_gym.sim.apps.settings import SettingsApp
from android_gym.sim.apps.todo import TodoApp
from android_gym.sim.apps.vlc import VlcApp
from android_gym.sim.apps.weather import WeatherApp
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
    GmailApp,
    GalleryApp,
    CameraApp,
    DialerApp,
    MessagesApp,
    ContactsApp,
    MarkorApp,
    TodoApp,
    RecorderApp,
    ExpensesApp,
    RecipesApp,
    DrawApp,
    OpenTracksApp,
    JoplinApp,
    RetroApp,
    VlcApp,
    OsmandApp,
    WeatherApp,
    FeederApp,
    AnkiApp,
    HabitsApp,
)
"""Installed on every phone, in the launcher's order (Messages and Gmail are built before Contacts, so at reset they
read the episode's drawn contacts, which is what Contacts starts with)."""


def with_apps(*apps: type[App]) -> tuple[type[App], ...]:
    """`DEFAULT_APPS` with each of `apps` in place of the installed app of the same package, or appended."""
    replaced = {app.package: app for app in apps}
    kept = tuple(replaced.pop(app.package, app) for app in DEFAULT_APPS)
    return (*kept, *replaced.values())


__all__ = ["DEFAULT_APPS", "LAUNCHER", "with_apps"]
