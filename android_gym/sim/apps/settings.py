"""The Settings app: a Pixel-like tree of pages whose switches edit the phone's system settings.

Pages are data (`PAGES`): each is a title and rows. A "link" row opens another page, a "switch" row toggles a boolean
of `phone.system`, a "choice" row picks a value (font size), a "slider" sets a number (brightness), an "info" row only
shows text. Links to pages the sim does not model open a placeholder page, so every row of a real phone responds.

Apps > See all apps lists every app on the phone (the system apps and those installed from the Play Store); each
opens its App info page, whose Notifications page holds the app's notification switch (`state()["notifications_off"]`
lists the apps whose switch is off).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from android_gym.errors import UnknownNameError
from android_gym.sim.app import App, Screen
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    ROW_H,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.android.settings"
SEARCH_RID = f"{PACKAGE}:id/search_src_text"
LINK_H = 200


@dataclass(frozen=True)
class Row:
    """One row of a settings page.

    Attributes:
        kind: "link", "switch", "choice", "slider" or "info".
        label: the row's title as shown.
        key: link: the target page id ("" for a placeholder page); switch/choice/slider: the `phone.system` key;
            info: a system key that must equal `value` for the row to show ("" shows it always).
        value: choice: the value the row selects; info: the visibility condition's value.
        summary: second line; `{key}` fields are filled from the system settings ("On"/"Off" for booleans).
        icon: glyph name for the renderer.
    """

    kind: str
    label: str
    key: str = ""
    value: Any = None
    summary: str = ""
    icon: str = ""


def _links(*labels: str) -> tuple[Row, ...]:
    return tuple(Row("link", label) for label in labels)


FONT_SIZES = ("Small", "Default", "Large", "Largest")
ALL_APPS, APP_INFO, APP_NOTIFICATIONS = "all_apps", "app_info", "app_notifications"
"""The pages built from the phone's apps rather than from `PAGES` (App info and its Notifications take {"app"})."""
APP_INFO_LINKS = ("Permissions", "Storage & cache", "Mobile data & Wi-Fi", "Screen time", "Open by default")
PAGES: dict[str, tuple[str, tuple[Row, ...]]] = {
    "main": ("Settings", (
        Row("link", "Network & internet", "network", summary="Internet, airplane mode, hotspot", icon="wifi"),
        Row("link", "Connected devices", "connected", summary="Bluetooth, pairing", icon="devices"),
        Row("link", "Apps", "apps", summary="Recent apps, default apps", icon="apps"),
        Row("link", "Notifications", summary="Notification history, conversations", icon="notifications"),
        Row("link", "Battery", "battery", summary="100%", icon="battery"),
        Row("link", "Storage", summary="34% used - 84 GB free", icon="storage"),
        Row("link", "Sound & vibration", "sound", summary="Volume, haptics, Do Not Disturb", icon="volume"),
        Row("link", "Display", "display", summary="Dark theme, font size, brightness", icon="display"),
        Row("link", "Wallpaper & style", summary="Colors, themed icons, app grid", icon="palette"),
        Row("link", "Accessibility", summary="Display, interaction, audio", icon="accessibility"),
        Row("link", "Security & privacy", summary="App security, device lock, permissions", icon="lock"),
        Row("link", "Location", "location", summary="{location} - 3 apps have access", icon="location"),
        Row("link", "Safety & emergency", summary="Emergency SOS, medical info, alerts", icon="emergency"),
        Row("link", "Passwords & accounts", summary="Saved passwords, autofill, synced accounts", icon="key"),
        Row("link", "Digital Wellbeing & parental controls", summary="Screen time, app timers", icon="wellbeing"),
        Row("link", "Google", summary="Services & preferences", icon="google"),
        Row("link", "System", summary="Languages, gestures, time, backup", icon="info"),
        Row("link", "About phone", summary="Pixel 8", icon="phone"),
    )),
    "network": ("Network & internet", (
        Row("link", "Internet", "internet", summary="Wi-Fi {wifi}", icon="wifi"),
        *_links("Calls & SMS", "SIMs"),
        Row("switch", "Airplane mode", "airplane_mode", icon="airplane"),
        *_links("Hotspot & tethering", "Data Saver", "VPN", "Private DNS"),
    )),
    "internet": ("Internet", (
        Row("switch", "Wi-Fi", "wifi", icon="wifi"),
        Row("info", "HomeNet-5G", "wifi", True, summary="Connected"),
        Row("info", "CoffeeShop_Guest", "wifi", True, summary="Saved"),
        Row("info", "Neighbor-2.4G", "wifi", True, summary="Secured"),
        Row("info", "To see available networks, turn Wi-Fi on", "wifi", False),
        *_links("Network preferences", "Saved networks"),
    )),
    "connected": ("Connected devices", (
        *_links("Pair new device", "Saved devices"),
        Row("link", "Connection preferences", "connection_prefs", summary="Bluetooth, Android Auto, Nearby Share"),
    )),
    "connection_prefs": ("Connection preferences", (
        Row("link", "Bluetooth", "bluetooth", summary="{bluetooth}", icon="bluetooth"),
        *_links("Cast", "Printing", "Android Auto", "Nearby Share"),
    )),
    "bluetooth": ("Bluetooth", (
        Row("switch", "Use Bluetooth", "bluetooth", icon="bluetooth"),
        Row("info", "Device name", summary="Pixel 8"),
        Row("link", "Pair new device"),
    )),
    "battery": ("Battery", (
        Row("info", "100%", summary="Should last until about 11:00 PM"),
        Row("link", "Battery Saver", "battery_saver", summary="{battery_saver}", icon="battery"),
        *_links("Adaptive Battery", "Battery usage"),
    )),
    "battery_saver": ("Battery Saver", (
        Row("switch", "Use Battery Saver", "battery_saver"),
        Row("info", "Battery Saver turns on dark theme and limits background activity"),
    )),
    "sound": ("Sound & vibration", (
        Row("info", "Media volume", summary="60%"),
        Row("info", "Ring volume", summary="80%"),
        Row("link", "Do Not Disturb", "dnd", summary="{do_not_disturb}", icon="dnd"),
        *_links("Vibration & haptics", "Phone ringtone", "Default notification sound"),
    )),
    "dnd": ("Do Not Disturb", (
        Row("switch", "Use Do Not Disturb", "do_not_disturb", icon="dnd"),
        *_links("People", "Apps", "Alarms & other interruptions", "Schedules"),
    )),
    "display": ("Display", (
        Row("link", "Brightness level", "brightness", summary="{brightness}%", icon="brightness"),
        Row("switch", "Dark theme", "dark_theme", icon="dark"),
        Row("link", "Font size", "font_size", summary="{font_size}", icon="font"),
        Row("switch", "Auto-rotate screen", "auto_rotate", icon="rotate"),
        *_links("Screen timeout", "Display size"),
    )),
    "brightness": ("Brightness level", (
        Row("slider", "Brightness level", "brightness"),
        Row("info", "Brightness", summary="{brightness}%"),
    )),
    "font_size": ("Font size", tuple(Row("choice", size, "font_size", size) for size in FONT_SIZES)),
    "apps": ("Apps", (
        Row("link", "See all apps", ALL_APPS, summary="Every app on this phone"),
        *_links("Default apps", "Screen time", "Unused apps", "Special app access"),
    )),
    "location": ("Location", (
        Row("switch", "Use location", "location", icon="location"),
        Row("info", "Recent access", summary="Maps, Weather, Photos"),
        *_links("App location permissions", "Location services"),
    )),
}


def _breadcrumbs() -> dict[str, tuple[str, ...]]:
    """Page id -> the titles of the pages between the main list and it, found once by walking links from "main"."""
    out: dict[str, tuple[str, ...]] = {"main": ()}
    queue = ["main"]
    while queue:
        page = queue.pop(0)
        title, rows = PAGES[page]
        for row in rows:
            if row.kind == "link" and row.key in PAGES and row.key not in out:
                out[row.key] = (*out[page], title) if page != "main" else ()  # like Android, crumbs skip the root
                queue.append(row.key)
    return out


BREADCRUMBS = _breadcrumbs()


def slug(label: str) -> str:
    """The page id of a placeholder page, from its row label ("Calls & SMS" -> "calls_sms")."""
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


class SettingsApp(App):
    """Android Settings. Screens: a page id of `PAGES` (args empty), a placeholder page (args {"title"}), "search".

    Toggling a switch edits `phone.system` directly (the phone applies {"system": {...}} initial conditions, so
    `apply` takes nothing).
    """

    package = PACKAGE
    label = "Settings"
    icon = "settings"
    aliases = ("system settings", "android settings")

    def reset(self) -> None:
        """Every app's notifications on."""
        self.notifications: dict[str, bool] = {}  # app label -> on, for the apps whose switch was set

    def apply(self, settings: dict[str, Any]) -> None:
        """Initial conditions: {"notifications": {app label: on}} (system switches go through "system").

        Raises:
            KeyError: another key.
        """
        unknown = set(settings) - {"notifications"}
        if unknown:
            raise KeyError(f"Settings takes only 'notifications', got {sorted(unknown)}")
        self.notifications.update({str(k): bool(v) for k, v in settings.get("notifications", {}).items()})

    def home(self) -> Screen:
        """The main list."""
        return Screen(PACKAGE, "main")

    def app_labels(self) -> list[str]:
        """Every app on the phone, sorted: the system apps (not the launcher) and the Play Store's installs."""
        labels = {a.label for a in self.phone.installed() if not a.package.endswith("launcher")}
        try:
            labels |= set(self.phone.find_app("Play Store").state()["installed"])
        except UnknownNameError:  # no store on this phone
            pass
        return sorted(labels, key=str.lower)

    # -- views ---------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The main list, a page, a placeholder page, or the search page."""
        if screen.name == "search":
            return self._search(screen)
        if screen.name in (ALL_APPS, APP_INFO, APP_NOTIFICATIONS):
            return self._app_page(screen)
        if screen.name in PAGES:
            title, rows = PAGES[screen.name]
        else:
            title = screen.args.get("title", screen.name)
            rows = _links("Advanced", "Help & feedback")
        views = [toolbar(title, PACKAGE, PACKAGE, has_back=screen.name != "main")]
        top = CONTENT_TOP + TOOLBAR_H
        if screen.name == "main":
            views.append(View(LINEAR, (MARGIN, top + 24, WIDTH - MARGIN, top + 168), desc="Search settings",
                              rid=f"{PACKAGE}:id/search_action_bar", package=PACKAGE, clickable=True,
                              focusable=True, on_tap=("search",), style="searchbar", icon="search", children=[
                                  View(TEXT_VIEW, (MARGIN + 190, top + 24, WIDTH - MARGIN, top + 168),
                                       text="Search settings", package=PACKAGE, style="hint")]))
            top += 200
        col = Column(top, PACKAGE, left=0, right=WIDTH)
        for row in rows:
            self._row(col, row)
        return [*views, scroll_list(top, CONTENT_BOTTOM, PACKAGE, col.views, rid=f"{PACKAGE}:id/recycler_view")]

    def _app_page(self, screen: Screen) -> list[View]:
        """All apps, an app's App info, or its Notifications page."""
        app = screen.args.get("app", "")
        top = CONTENT_TOP + TOOLBAR_H
        col = Column(top, PACKAGE, left=0, right=WIDTH)
        on = self.notifications.get(app, True)
        if screen.name == ALL_APPS:
            title = "All apps"
            for label in self.app_labels():
                col.add(_two_line(col.y, label, "", (APP_INFO, label), ""))
        elif screen.name == APP_INFO:
            title = "App info"
            col.add(_two_line(col.y, app, "Installed", None, "apps"))
            col.add(_two_line(col.y, "Notifications", "On" if on else "Off", (APP_NOTIFICATIONS, app), ""))
            for label in APP_INFO_LINKS:
                col.add(_two_line(col.y, label, "", ("stub", label), ""))
        else:
            title = "Notifications"
            col.switch(f"All {app} notifications", on, ("notify", app), rid=f"{PACKAGE}:id/switch_widget")
        return [toolbar(title, PACKAGE, PACKAGE),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, col.views, rid=f"{PACKAGE}:id/recycler_view")]

    def _words(self) -> dict[str, Any]:
        return {k: ("On" if v else "Off") if isinstance(v, bool) else v for k, v in self.phone.system.items()}

    def _row(self, col: Column, row: Row) -> None:
        system = self.phone.system
        if row.kind == "switch":
            col.switch(row.label, bool(system[row.key]), ("toggle", row.key), rid=f"{PACKAGE}:id/switch_widget")
        elif row.kind == "choice":
            b = (0, col.y, WIDTH, col.y + ROW_H)
            col.add(View("android.widget.RadioButton", b, text=row.label, package=PACKAGE, clickable=True,
                         focusable=True, checkable=True, checked=system[row.key] == row.value,
                         on_tap=("set", row.key, row.value), style="radio"))
        elif row.kind == "slider":
            col.add(_slider(col.y, row.label, row.key, int(system[row.key])))
        elif row.kind == "link":
            event = ("open", row.key) if row.key in PAGES or row.key == ALL_APPS else ("stub", row.label)
            col.add(_two_line(col.y, row.label, row.summary.format(**self._words()), event, row.icon))
        elif not row.key or system.get(row.key) == row.value:
            col.add(_two_line(col.y, row.label, row.summary.format(**self._words()), None, row.icon))

    def _search(self, screen: Screen) -> list[View]:
        query = screen.fields.get(SEARCH_RID, "").strip().lower()
        top = CONTENT_TOP + 24
        views = [View("android.widget.ImageButton", (0, top, 150, top + 144), desc="Navigate up", package=PACKAGE,
                      clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"),
                 text_field((150, top, WIDTH - MARGIN, top + 144), SEARCH_RID, screen.fields.get(SEARCH_RID, ""),
                            "Search settings", screen.focus == SEARCH_RID, PACKAGE, icon="search")]
        col = Column(top + 180, PACKAGE, left=0, right=WIDTH)
        for page, (title, rows) in PAGES.items() if query else ():
            for row in rows:
                if row.kind in ("switch", "link", "slider") and query in row.label.lower():
                    col.add(_two_line(col.y, row.label, " > ".join((*BREADCRUMBS[page], title)),
                                      ("open", page), row.icon))
        return [*views, scroll_list(top + 180, CONTENT_BOTTOM, PACKAGE, col.views, rid=f"{PACKAGE}:id/list")]

    # -- events --------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Open pages, toggle switches, pick values, open search."""
        match event:
            case ("open", page):
                return self.phone.push(Screen(PACKAGE, page))
            case ("stub", label):
                return self.phone.push(Screen(PACKAGE, slug(label), {"title": label}))
            case ("toggle", key):
                self.phone.system[key] = not self.phone.system[key]
                return True
            case (page, app) if page in (APP_INFO, APP_NOTIFICATIONS):
                return self.phone.push(Screen(PACKAGE, page, {"app": app}))
            case ("notify", app):
                self.notifications[app] = not self.notifications.get(app, True)
                return True
            case ("set", key, value):
                if self.phone.system[key] == value:
                    return False
                self.phone.system[key] = value
                return True
            case ("search",):
                return self.phone.push(Screen(PACKAGE, "search", focus=SEARCH_RID))
        return False  # ("submit", rid) from the search field's Enter

    def state(self) -> dict[str, Any]:
        """Where Settings is and the per-app notification switches.

        Returns:
            {"page": the page id of the front-most Settings screen (None when Settings is not open), "app": the app
            of an App info or app Notifications page (else None), "notifications_off": the sorted labels of the
            apps whose notifications are off}.
        """
        mine = self.phone.screens(PACKAGE)
        return {"page": mine[-1].name if mine else None, "app": mine[-1].args.get("app") if mine else None,
                "notifications_off": sorted(k for k, v in self.notifications.items() if not v)}


def _two_line(y: int, title: str, summary: str, event: tuple | None, icon: str) -> View:
    """A preference row: title over summary; clickable when it has an `event`."""
    text_left = MARGIN + 132 if icon else MARGIN
    # The icon is its own child so the renderer draws it leading, not centred on the (text-less) row.
    kids = [View(IMAGE_VIEW, (MARGIN, y + 50, MARGIN + 100, y + 150), package=PACKAGE, icon=icon)] if icon else []
    kids += [View(TEXT_VIEW, (text_left, y + 30, WIDTH - MARGIN, y + (110 if summary else LINK_H - 30)), text=title,
                 rid="android:id/title", package=PACKAGE, style="row_title")]
    if summary:
        kids.append(View(TEXT_VIEW, (text_left, y + 110, WIDTH - MARGIN, y + LINK_H - 20), text=summary,
                         rid="android:id/summary", package=PACKAGE, style="row_summary"))
    return View(LINEAR, (0, y, WIDTH, y + LINK_H), package=PACKAGE, clickable=event is not None,
                focusable=event is not None, on_tap=event, style="row", children=kids)


def _slider(y: int, label: str, key: str, value: int) -> View:
    """A SeekBar of 0-100%: eleven tap zones, so a tap anywhere on the bar sets the nearest tenth."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    step = (x1 - x0) / 11
    zones = [View(VIEW, (int(x0 + i * step), y + 40, int(x0 + (i + 1) * step), y + ROW_H - 40),
                  desc=f"{i * 10}%", package=PACKAGE, clickable=True, on_tap=("set", key, i * 10),
                  selected=value == i * 10) for i in range(11)]
    return View("android.widget.SeekBar", (x0, y + 40, x1, y + ROW_H - 40), text=f"{value}%", desc=label,
                rid="android:id/seekbar", package=PACKAGE, focusable=True, style="slider", children=zones)

