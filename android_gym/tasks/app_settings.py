"""Settings tasks beyond the switches: an app's App info page and notifications; the brightness, the font size, the
ringer (silent), the wallpaper and the storage page.

AitW General asks "Check the settings for the Spotify app" and "Turn off notifications for the Google Maps app";
everyday instructions (issue 49) ask "Turn the brightness down", "Make the font bigger", "Put the phone on silent",
"Change the wallpaper" and "Check how much storage is left". The per-app templates and the issue-49 ones are
General-like single goals; the issue-49 ones serve parsed goal lines and are not (yet) drawn by a suite.

An app from the Play Store is installed before the episode starts, so that Settings lists it. Experts walk Settings >
Apps > See all apps > the app (scrolling the alphabetical list towards it) > Notifications, and the other pages by the
World suite's Settings route (`world.settings_tasks.to_page`). Checks of a device-wide setting also require every
other system setting as it started, so a task is not won by flipping switches at random.
"""  # noqa: D205

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import playstore, settings
from android_gym.sim.apps.settings import ALL_APPS, APP_INFO, APP_NOTIFICATIONS, FONT_SIZES, WALLPAPERS
from android_gym.sim.phone import DEFAULT_SYSTEM
from android_gym.tasks.apps import APP_PACKAGES, into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, swipe_up, tap, wait
from android_gym.tasks.world.settings_tasks import edits, set_volume, settings_of, to_page
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
    s = state_of(state, settings.SettingsState)
    where = s["page"]
    if where == page and s["app"] == app:
        return None
    if where == APP_INFO and s["app"] == app and page == APP_NOTIFICATIONS:
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
    max_steps = 13  # four pages deep, and with 32 apps installed the list needs up to four swipes to an app's row

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
        s = state_of(state, settings.SettingsState)
        return state.get("foreground") == settings.PACKAGE and s["page"] == APP_INFO and s["app"] == params["app"]

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
        off = state_of(state, settings.SettingsState)["notifications_off"]
        return (params["app"] not in off) == params["on"]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Walk to the app's Notifications page and flip its switch."""
        step = to_app_page(params["app"], APP_NOTIFICATIONS, elements, state)
        if step is not None:
            return step
        switch = find(elements, rid=f"{settings.PACKAGE}:id/switch_widget")
        return tap(switch) if switch is not None else wait()


# -- device-wide settings (issue 49's everyday goals) ------------------------------------------------------------------
def others_unchanged(key: str, initial: Mapping[str, Any], state: State) -> bool:
    """Every system setting but `key` as the episode started (`DEFAULT_SYSTEM` under the task's own "system")."""
    start = {**DEFAULT_SYSTEM, **initial.get("system", {})}
    return all(state["system"][k] == v for k, v in start.items() if k != key)


def pick(label: str, elements: Sequence[UIElement]) -> Action:
    """Tap the choice (radio button) `label`, or scroll towards it."""
    choice = find(elements, text=label, cls="android.widget.RadioButton")
    return tap(choice) if choice is not None else swipe_up()


class BrightnessTemplate(TaskTemplate):
    """Turn the brightness {down|up}: the Brightness level ends below (above) where it started.

    No other system setting changes. The start is a parameter, so the goal needs no number.
    """

    name, suite, apps = "brightness", "general", (settings.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Both directions from every start in tens that leaves room to move."""
        return [{"direction": d, "start": v} for d in ("down", "up") for v in range(20, 91, 10)
                if split_of(f"brightness:{d}:{v}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Turn the brightness {params['direction']}"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The brightness at the start, in %."""
        return {"system": {"brightness": params["start"]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Lower (higher) than the start; every other system setting as it was."""
        level, start = state["system"]["brightness"], params["start"]
        moved = level < start if params["direction"] == "down" else level > start
        return moved and others_unchanged("brightness", self.initial(params), state)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Display > Brightness level, then the bar's tap zone 30 points away (within 10-100%)."""
        if self.check(params, state):
            return wait()
        step = to_page("brightness", elements, state)
        if step is not None:
            return step
        start = params["start"]
        want = max(start - 30, 10) if params["direction"] == "down" else min(start + 30, 100)
        bar = find(elements, desc="Brightness level", cls="android.widget.SeekBar")
        zone = None if bar is None else next(
            (e for e in elements if e.desc == f"{want}%" and bar.bounds[1] <= e.center[1] < bar.bounds[3]), None)
        return tap(zone) if zone is not None else wait()


class FontSizeTemplate(TaskTemplate):
    """Make the font {bigger|smaller}: Display > Font size ends on a larger (smaller) size than the start.

    No other system setting changes.
    """

    name, suite, apps = "font_size", "general", (settings.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Both directions from every size that has a neighbour that way."""
        starts = {"bigger": FONT_SIZES[:-1], "smaller": FONT_SIZES[1:]}
        return [{"direction": d, "start": f} for d, sizes in starts.items() for f in sizes
                if split_of(f"font:{d}:{f}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Make the font {params['direction']}"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The font size at the start."""
        return {"system": {"font_size": params["start"]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """A size further that way than the start; every other system setting as it was."""
        now, start = FONT_SIZES.index(state["system"]["font_size"]), FONT_SIZES.index(params["start"])
        moved = now > start if params["direction"] == "bigger" else now < start
        return moved and others_unchanged("font_size", self.initial(params), state)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Display > Font size, then the next size that way."""
        if self.check(params, state):
            return wait()
        step = to_page("font_size", elements, state)
        if step is not None:
            return step
        index = FONT_SIZES.index(params["start"]) + (1 if params["direction"] == "bigger" else -1)
        return pick(FONT_SIZES[index], elements)


class SilentTemplate(TaskTemplate):
    """Put the phone on silent: the ring and notification volumes at 0%, no other volume moved.

    That is the ringer muted on Android, whose ringer mode follows those volumes. Do Not Disturb is another setting and
    is not asked.
    """

    name, suite, apps = "silent_mode", "general", (settings.PACKAGE,)
    max_steps = 12  # three pages deep, and two bars to set

    def values(self, split: str) -> list[dict[str, Any]]:
        """Starting ring and notification volumes, in tens (one of them may already be 0)."""
        return [{"ring": r, "notification": n} for r in range(10, 101, 30) for n in range(0, 101, 20)
                if split_of(f"silent:{r}:{n}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return "Put the phone on silent"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The two volumes at their start."""
        return {settings.PACKAGE: {"volumes": {"ring": params["ring"], "notification": params["notification"]}}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Both at 0, and the only volumes edited are those two."""
        volumes = settings_of(state)["volumes"]
        moved = {e["key"] for e in edits(state, "volume")}
        return volumes["ring"] == volumes["notification"] == 0 and moved <= {"ring", "notification"}

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Sound & vibration: the ring bar's 0%, then the notification bar's."""
        return (set_volume("ring", 0, elements, state) or set_volume("notification", 0, elements, state)
                or wait())


class WallpaperTemplate(TaskTemplate):
    """Change the wallpaper [to {wallpaper}]: Wallpaper & style ends on that wallpaper.

    Any other than the start when none is named; nothing else of Settings' own values is edited.
    """

    name, suite, apps = "change_wallpaper", "general", (settings.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """From every start, to any other wallpaper or to a named one."""
        return [{"start": s, "wallpaper": w} for s in WALLPAPERS for w in ("", *WALLPAPERS)
                if w != s and split_of(f"wallpaper:{s}:{w}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Change the wallpaper to {params['wallpaper']}" if params["wallpaper"] else "Change the wallpaper"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The starting wallpaper."""
        return {settings.PACKAGE: {"wallpaper": params["start"]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The wallpaper as asked (another than the start when none is named); only wallpaper edits."""
        now = settings_of(state)["wallpaper"]
        done = now == params["wallpaper"] if params["wallpaper"] else now != params["start"]
        return done and all(e["op"] == "wallpaper" for e in edits(state))

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Wallpaper & style, then the named wallpaper (else the one after the start)."""
        if self.check(params, state):
            return wait()
        want = params["wallpaper"] or WALLPAPERS[(WALLPAPERS.index(params["start"]) + 1) % len(WALLPAPERS)]
        return to_page("wallpaper", elements, state) or pick(want, elements)


class StorageTemplate(TaskTemplate):
    """Check how much storage is left: Settings in front on its Storage page, which shows the used and free space.

    Like "Check the settings for the {app} app", success is the page in front; the amount is fixed by the phone (the
    main list's Storage row states it too), so there is no per-episode answer to check.
    """

    name, suite, apps = "storage_left", "general", (settings.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """The page reached from the four combinations of dark theme and font size "Large" (how Settings looks)."""
        return [{"dark": d, "large": g} for d in (False, True) for g in (False, True)
                if split_of(f"storage:{d}:{g}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return "Check how much storage is left"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The look of the phone."""
        return {"system": {"dark_theme": params["dark"], "font_size": "Large" if params["large"] else "Default"}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """Settings in front on Storage."""
        return state.get("foreground") == settings.PACKAGE and settings_of(state)["page"] == "storage"

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: State) -> Action:
        """Settings > Storage."""
        return to_page("storage", elements, state) or wait()


EVERYDAY_SETTINGS_TEMPLATES: tuple[TaskTemplate, ...] = (
    BrightnessTemplate(), FontSizeTemplate(), SilentTemplate(), WallpaperTemplate(), StorageTemplate())
"""The issue-49 templates (not drawn by a suite: adding them to General would change General-v0's tasks)."""
