"""Per-app settings tasks: open an app's App info page, and turn its notifications on or off.

AitW General asks "Check the settings for the Spotify app" and "Turn off notifications for the Google Maps app".

An app from the Play Store is installed before the episode starts, so that Settings lists it. Experts walk Settings >
Apps > See all apps > the app (scrolling the alphabetical list towards it) > Notifications.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import playstore, settings
from android_gym.sim.apps.settings import ALL_APPS, APP_INFO, APP_NOTIFICATIONS
from android_gym.tasks.apps import APP_PACKAGES, into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import app_state, back, find, swipe_up, tap, wait
from android_gym.ui import UIElement

State = Mapping[str, Any]
SETTINGS_APPS: tuple[str, ...] = (*APP_PACKAGES, *playstore.BRAND_APPS)
"""Apps whose settings these tasks open: the phone's own and the store's well-known ones."""


def _initial(app: str) -> dict[str, dict[str, Any]]:
    return {playstore.PACKAGE: {"installed": [app]}} if app in playstore.BRAND_APPS else {}


def to_app_page(app: str, page: str, elements: Sequence[UIElement], state: State) -> Action | None:
    """The next step towards `app`'s `page` (App info or its Notifications) in Settings; None once there."""
    step = into_app("Settings", settings.PACKAGE, elements, state)
    if step is not None:
        return step
    s = app_state(state, settings.PACKAGE)
    where = s.get("page")
    if where == page and s.get("app") == app:
        return None
    if where == APP_INFO and s.get("app") == app and page == APP_NOTIFICATIONS:
        row = find(elements, text="Notifications")
        return tap(row) if row is not None else swipe_up()
    if where == ALL_APPS:
        row = find(elements, text=app)
        if row is not None:
            return tap(row)
        shown = [e.text for e in elements if e.rid == "android:id/title" and e.text]
        return swipe_down() if shown and app.lower() < shown[0].lower() else swipe_up()
    for current, label in (("main", "Apps"), ("apps", "See all apps")):
        if where == current:
            row = find(elements, text=label)
            return tap(row) if row is not None else swipe_up()
    return back()


class AppInfoTemplate(TaskTemplate):
    """Check the settings for the {app} app: its App info page is in front."""

    name, suite = "app_info", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every app of the split."""
        return [{"app": a} for a in SETTINGS_APPS if split_of(f"info:{a}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Check the settings for the {params['app']} app"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """A store app installed first."""
        return _initial(params["app"])

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Settings in front on the app's App info page."""
        s = app_state(state, settings.PACKAGE)
        return state.get("foreground") == settings.PACKAGE and s.get("page") == APP_INFO and s.get("app") == params[
            "app"]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Settings > Apps > See all apps > the app."""
        return to_app_page(params["app"], APP_INFO, elements, state) or wait()


class AppNotificationsTemplate(TaskTemplate):
    """Turn on/off notifications for the {app} app: its switch ends as asked (it starts the other way)."""

    name, suite = "app_notifications", "general"
    max_steps = 15  # five pages deep, and the app list may need a few swipes

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every app, on and off, split on (app, on/off)."""
        return [{"app": a, "on": on} for a in SETTINGS_APPS for on in (True, False)
                if split_of(f"notify:{a}:{on}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Turn {'on' if params['on'] else 'off'} notifications for the {params['app']} app"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The switch the other way; a store app installed first."""
        return {**_initial(params["app"]), settings.PACKAGE: {"notifications": {params["app"]: not params["on"]}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The app's notifications are as asked."""
        off = app_state(state, settings.PACKAGE).get("notifications_off")
        return off is not None and (params["app"] not in off) == params["on"]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Walk to the app's Notifications page and flip its switch."""
        step = to_app_page(params["app"], APP_NOTIFICATIONS, elements, state)
        if step is not None:
            return step
        switch = find(elements, rid=f"{settings.PACKAGE}:id/switch_widget")
        return tap(switch) if switch is not None else wait()
