"""The Settings app: `SettingsApp`, which builds the views of the page tree, handles its events and keeps its state.

The page tree itself (`Row`, `PAGES`), the screen ids, the value tables and the seeded per-episode data are
`android_gym.sim.apps.settings_pages`'s; their names are re-exported here (`__all__`) for the modules that import
them from this one. The views draw each kind of `Row`; the events open pages and dialogs, flip `phone.system`'s
switches and edit the app's own state.

Beyond the system switches the app keeps state of its own, drawn per episode from `stable_seed("settings", seed)`
(never the episode RNG): five volumes (0-100 in tens, set by tapping along their bars), the screen timeout (a choice
dialog on Display), the wallpaper (a choice on Wallpaper & style), the saved Bluetooth devices (one maybe connected;
a device's page connects, disconnects and forgets it, after a confirmation), and per app (seeded by the seed and the
app's label) its permissions ("Allow"/"Ask every time"/"Don't allow"; the Camera app's camera permission is the Camera
app's own) and storage (app, user data and cache in MB). Apps > See all apps lists every app on the phone (the system
apps and those installed from the Play Store); each opens its App info page: Force stop (confirmed), Notifications
(the app's switch; `state()["notifications_off"]`), Permissions (a page per permission with three radio buttons) and
Storage & cache (Clear cache at once, Clear storage after a confirmation). Storage shows the phone's used and free
space. Tasks read `SettingsState`; initial conditions are `SettingsInitial` (both declared in `settings_pages`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert
from android_gym.sim.apps import camera
from android_gym.sim.apps.settings_pages import (
    ALL_APPS,
    APP_INFO,
    APP_INFO_LINKS,
    APP_NOTIFICATIONS,
    APP_PERMISSIONS,
    APP_PERMISSIONS_PAGE,
    APP_STORAGE,
    BREADCRUMBS,
    BUILT,
    CAMERA_STATES,
    DEVICE,
    DEVICE_NAMES,
    DIALOGS,
    FONT_SIZES,
    PAGES,
    PERMISSION,
    PERMISSION_POOL,
    PERMISSION_RIDS,
    PERMISSION_STATES,
    PLACEHOLDER_ROWS,
    SAVED_DEVICES,
    TIMEOUTS,
    VOLUMES,
    WALLPAPERS,
    Row,
    SettingsEdit,
    SettingsInitial,
    SettingsState,
    app_permissions,
    device_address,
    seeded_app,
    seeded_devices,
    seeded_values,
    size_text,
    slug,
)
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
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
HEADER_RID = f"{PACKAGE}:id/entity_header_title"
ROW_TITLE_RID = "android:id/title"
LINK_H = 200
VOLUME_H = 240

__all__ = [  # this module's own names, and the page data's names that other modules import from here
    "ALL_APPS", "APP_INFO", "APP_INFO_LINKS", "APP_NOTIFICATIONS", "APP_PERMISSIONS", "APP_PERMISSIONS_PAGE",
    "APP_STORAGE", "BREADCRUMBS", "BUILT", "CAMERA_STATES", "DEVICE", "DEVICE_NAMES", "DIALOGS", "FONT_SIZES",
    "HEADER_RID", "LINK_H", "PACKAGE", "PAGES", "PERMISSION", "PERMISSION_POOL", "PERMISSION_RIDS",
    "PERMISSION_STATES", "PLACEHOLDER_ROWS", "ROW_TITLE_RID", "SAVED_DEVICES", "SEARCH_RID", "TIMEOUTS", "VOLUMES",
    "VOLUME_H", "WALLPAPERS", "Row", "SettingsApp", "SettingsEdit", "SettingsInitial", "SettingsState",
    "app_permissions", "device_address", "seeded_app", "seeded_devices", "seeded_values", "size_text", "slug",
]


class SettingsApp(App):
    """Android Settings. Screens: a page id of `PAGES` (args empty), a placeholder page (args {"title"}), "search",
    the app pages (`ALL_APPS`; `APP_INFO`, `APP_NOTIFICATIONS`, `APP_PERMISSIONS_PAGE`, `APP_STORAGE` with {"app"};
    `PERMISSION` with {"app", "perm"}), the Bluetooth pages (`SAVED_DEVICES`; `DEVICE` with {"device"}) and the
    `DIALOGS` over them.

    Toggling a switch edits `phone.system` directly (the phone applies {"system": {...}} initial conditions); the
    app's own values (volumes, timeout, devices, per-app data) take theirs through `set_up` (`SettingsInitial`).
    """  # noqa: D205

    package = PACKAGE
    label = "Settings"
    icon = "settings"
    aliases = ("system settings", "android settings")
    state_schema = SettingsState
    initial_model = SettingsInitial

    def reset(self) -> None:
        """Every app's notifications on; the episode's volumes, screen timeout, saved devices and app data."""
        self.notifications: dict[str, bool] = {}  # app label -> on, for the apps whose switch was set
        self.values: dict[str, Any] = seeded_values(self.phone.seed)
        self.devices = seeded_devices(self.phone.seed)
        self.app_data: dict[str, dict[str, Any]] = {}  # label -> seeded_app(), drawn when first needed
        self.stopped: set[str] = set()
        self.edits: list[SettingsEdit] = []
        self.seen: set[str] = set()

    def set_up(self, initial: SettingsInitial) -> None:
        """The notification switches, volumes, timeout and wallpaper; the saved devices (`devices` at rows drawn from
        the seed, `absent_devices` removed) and the connected one; the apps' permissions and sizes.

        Raises:
            ConfigError: `connected` names no saved device.
        """  # noqa: D205
        self.notifications.update(initial.notifications)
        for key, level in initial.volumes:
            if level is not None:
                self.values[f"{key}_volume"] = level
        if initial.screen_timeout is not None:
            self.values["screen_timeout"] = initial.screen_timeout
        if initial.wallpaper is not None:
            self.values["wallpaper"] = initial.wallpaper
        rng = np.random.default_rng(stable_seed("settings-pair", self.phone.seed))
        for name in initial.devices:
            if all(d["name"] != name for d in self.devices):
                self.devices.insert(int(rng.integers(len(self.devices) + 1)), {"name": name, "connected": False})
        gone = set(initial.absent_devices)
        self.devices = [d for d in self.devices if d["name"] not in gone]
        if "connected" in initial.model_fields_set:  # left out: as the seed has it; None: none connected
            names = [d["name"] for d in self.devices]
            want = names[int(rng.integers(len(names)))] if initial.connected == "*" and names else initial.connected
            if want is not None and want not in names:
                raise ConfigError(f"`{self.label}.connected` must be a saved device ({', '.join(names) or 'none'}), "
                                  f"'*' or None, got {want!r}")
            for d in self.devices:
                d["connected"] = d["name"] == want
        for app, perms in initial.permissions.items():
            for perm, value in perms.items():
                self._permit(app, perm, value)
        for app, sizes in initial.storage.items():
            self.data(app)["storage"].update({k: v for k, v in sizes if v is not None})

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

    def data(self, app: str) -> dict[str, Any]:
        """App `app`'s permissions and storage (live: edits go into it); the Camera app's camera permission is read
        from the Camera app."""  # noqa: D205, D209
        if app not in self.app_data:
            self.app_data[app] = seeded_app(self.phone.seed, app)
        if app == "Camera" and (cam := self._camera()) is not None:
            self.app_data[app]["permissions"]["Camera"] = CAMERA_STATES[cam.permission]
        return self.app_data[app]

    def _camera(self) -> camera.CameraApp | None:
        return next((a for a in self.phone.installed() if isinstance(a, camera.CameraApp)), None)

    def _permit(self, app: str, perm: str, value: str) -> None:
        self.data(app)["permissions"][perm] = value
        cam = self._camera()
        if app == "Camera" and perm == "Camera" and cam is not None:  # one permission, shown by both apps
            cam.permission = next(k for k, v in CAMERA_STATES.items() if v == value)

    def connected(self) -> str | None:
        """The name of the connected Bluetooth device (None while none is, or Bluetooth is off)."""
        hit = next((d["name"] for d in self.devices if d["connected"]), None)
        return hit if self.phone.system["bluetooth"] else None

    def state(self) -> SettingsState:
        """Where Settings is, the per-app notification switches, and the app's own values (see `SettingsState`)."""
        mine = self.phone.screens(PACKAGE)
        args = mine[-1].args if mine else {}
        on = self.connected()
        return {"page": mine[-1].name if mine else None, "app": args.get("app"), "device": args.get("device"),
                "perm": args.get("perm"), "seen": sorted(self.seen),
                "notifications_off": sorted(k for k, v in self.notifications.items() if not v),
                "volumes": {k: self.values[f"{k}_volume"] for k in VOLUMES},
                "screen_timeout": self.values["screen_timeout"], "wallpaper": self.values["wallpaper"],
                "devices": [{"name": d["name"], "connected": d["name"] == on} for d in self.devices], "connected": on,
                "apps": {a: {"permissions": dict(d["permissions"]), "storage": dict(d["storage"]),
                             "stopped": a in self.stopped} for a, d in ((a, self.data(a)) for a in self.app_labels())},
                "edits": [dict(e) for e in self.edits]}

    # -- views ---------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The main list, a page, a placeholder page, the search page, or a dialog over the (inert) page below."""
        if screen.name in DIALOGS:
            below = self.phone.screens(PACKAGE)[-2]
            return [*inert(self.build(below), below.scroll), self._dialog(screen)]
        if screen.name == "search":
            return self._search(screen)
        builder = {ALL_APPS: self._all_apps, APP_INFO: self._app_info, APP_NOTIFICATIONS: self._app_notifications,
                   APP_PERMISSIONS_PAGE: self._app_permissions, PERMISSION: self._permission,
                   APP_STORAGE: self._app_storage, SAVED_DEVICES: self._saved_devices,
                   DEVICE: self._device}.get(screen.name)
        if builder is not None:
            title, col = builder(screen, Column(CONTENT_TOP + TOOLBAR_H, PACKAGE, left=0, right=WIDTH))
            return [toolbar(title, PACKAGE, PACKAGE), scroll_list(CONTENT_TOP + TOOLBAR_H, CONTENT_BOTTOM, PACKAGE,
                                                                  col.views, rid=f"{PACKAGE}:id/recycler_view")]
        if screen.name in PAGES:
            title, rows = PAGES[screen.name]
        else:
            title = screen.args.get("title", screen.name)
            rows = PLACEHOLDER_ROWS
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

    def _all_apps(self, screen: Screen, col: Column) -> tuple[str, Column]:
        for label in self.app_labels():
            col.add(_two_line(col.y, label, "", (APP_INFO, label), ""))
        return "All apps", col

    def _app_info(self, screen: Screen, col: Column) -> tuple[str, Column]:
        app = screen.args["app"]
        col.add(_header(col.y, app, "Installed"))
        opened = self._launchable(app)
        col.add(_buttons(col.y, [("Open", ("launch", app), opened),
                                 ("Force stop", ("dialog", "force_stop", app), app not in self.stopped)]))
        on = self.notifications.get(app, True)
        allowed = [p for p, v in self.data(app)["permissions"].items() if v == "Allow"]
        col.add(_two_line(col.y, "Notifications", "On" if on else "Off", (APP_NOTIFICATIONS, app), ""))
        col.add(_two_line(col.y, "Permissions", " and ".join(allowed) if allowed else "No permissions allowed",
                          (APP_PERMISSIONS_PAGE, app), ""))
        total = sum(self.data(app)["storage"].values())
        col.add(_two_line(col.y, "Storage & cache", f"{size_text(total)} used in internal storage",
                          (APP_STORAGE, app), ""))
        for label in APP_INFO_LINKS:
            col.add(_two_line(col.y, label, "", ("stub", label), ""))
        return "App info", col

    def _app_notifications(self, screen: Screen, col: Column) -> tuple[str, Column]:
        app = screen.args["app"]
        col.switch(f"All {app} notifications", self.notifications.get(app, True), ("notify", app),
                   rid=f"{PACKAGE}:id/switch_widget")
        return "Notifications", col

    def _app_permissions(self, screen: Screen, col: Column) -> tuple[str, Column]:
        app = screen.args["app"]
        perms = self.data(app)["permissions"]
        col.add(_header(col.y, app, ""))
        sections = (("Allowed", "Allow"), ("Ask every time", "Ask every time"), ("Not allowed", "Don't allow"))
        for section, state in sections:
            names = sorted(p for p, v in perms.items() if v == state)
            if names:
                col.add(View(TEXT_VIEW, (MARGIN, col.y + 30, WIDTH - MARGIN, col.y + 120), text=section,
                             package=PACKAGE, style="section"))
                for p in names:
                    col.add(_two_line(col.y, p, "", (PERMISSION, app, p), ""))
        if not perms:
            col.add(_two_line(col.y, "No permissions requested", "", None, ""))
        return "App permissions", col

    def _permission(self, screen: Screen, col: Column) -> tuple[str, Column]:
        app, perm = screen.args["app"], screen.args["perm"]
        col.add(_header(col.y, app, f"{perm} access for this app"))
        current = self.data(app)["permissions"][perm]
        for value, rid in zip(PERMISSION_STATES, PERMISSION_RIDS, strict=True):
            col.add(View("android.widget.RadioButton", (0, col.y, WIDTH, col.y + ROW_H), text=value,
                         rid=f"{PACKAGE}:id/{rid}", package=PACKAGE, clickable=True, focusable=True, checkable=True,
                         checked=current == value, on_tap=("permit", app, perm, value), style="radio"))
        return f"{perm} permission", col

    def _app_storage(self, screen: Screen, col: Column) -> tuple[str, Column]:
        app = screen.args["app"]
        sizes = self.data(app)["storage"]
        col.add(_header(col.y, app, ""))
        has_data = sizes["data"] + sizes["cache"] > 0
        col.add(_buttons(col.y, [("Clear storage", ("dialog", "clear_storage", app), has_data),
                                 ("Clear cache", ("clear_cache", app), sizes["cache"] > 0)]))
        for label, mb in (("App size", sizes["app"]), ("User data", sizes["data"]), ("Cache", sizes["cache"]),
                          ("Total", sum(sizes.values()))):
            col.add(_two_line(col.y, label, size_text(mb), None, ""))
        return "Storage & cache", col

    def _saved_devices(self, screen: Screen, col: Column) -> tuple[str, Column]:
        on = self.connected()
        for d in self.devices:
            col.add(_two_line(col.y, d["name"], "Connected" if d["name"] == on else "", (DEVICE, d["name"]),
                              "bluetooth"))
        if not self.devices:
            col.add(_two_line(col.y, "No saved devices", "", None, ""))
        return "Saved devices", col

    def _device(self, screen: Screen, col: Column) -> tuple[str, Column]:
        name = screen.args["device"]
        on = self.connected() == name
        col.add(_header(col.y, name, "Connected" if on else "Not connected"))
        col.add(_buttons(col.y, [("Forget", ("dialog", "forget", name), True),
                                 ("Disconnect" if on else "Connect", ("link", name, not on),
                                  on or bool(self.phone.system["bluetooth"]))]))
        col.add(_two_line(col.y, "Device's Bluetooth address", device_address(name), None, ""))
        return "Device details", col

    def _dialog(self, screen: Screen) -> View:
        thing = screen.args.get("app") or screen.args.get("device", "")
        close = ("cancel",)
        match screen.name:
            case "force_stop":
                return alert_dialog(PACKAGE, "Force stop?", "If you force stop an app, it may misbehave.",
                                    [("Cancel", close), ("OK", ("confirm",))], close)
            case "clear_storage":
                return alert_dialog(PACKAGE, "Delete app data?", f"All of {thing}'s data will be deleted for good.",
                                    [("Cancel", close), ("Delete", ("confirm",))], close)
            case "forget":
                return alert_dialog(PACKAGE, "Forget device?", f"Your phone won't be paired with {thing} anymore.",
                                    [("Cancel", close), ("Forget device", ("confirm",))], close)
        y = dialog_body_top(560)
        body = [View("android.widget.RadioButton", (150, y + i * 130, WIDTH - 150, y + (i + 1) * 130), text=t,
                     package=PACKAGE, rid="android:id/text1", clickable=True, focusable=True, checkable=True,
                     checked=t == self.values["screen_timeout"], on_tap=("set", "screen_timeout", t), style="radio")
                for i, t in enumerate(TIMEOUTS)]
        return app_dialog(PACKAGE, "Screen timeout", body, [("Cancel", close, True)])

    def _launchable(self, app: str) -> bool:
        try:
            self.phone.find_app(app)
        except UnknownNameError:  # a store app the sim lists but does not run
            return False
        return True

    def _words(self) -> dict[str, Any]:
        both = {**self.phone.system, **self.values}
        return {k: ("On" if v else "Off") if isinstance(v, bool) else v for k, v in both.items()}

    def _value(self, key: str) -> Any:
        return self.values[key] if key in self.values else self.phone.system[key]

    def _row(self, col: Column, row: Row) -> None:
        system = self.phone.system
        if row.kind == "switch":
            col.switch(row.label, bool(system[row.key]), ("toggle", row.key), rid=f"{PACKAGE}:id/switch_widget")
        elif row.kind == "choice":
            b = (0, col.y, WIDTH, col.y + ROW_H)
            col.add(View("android.widget.RadioButton", b, text=row.label, package=PACKAGE, clickable=True,
                         focusable=True, checkable=True, checked=self._value(row.key) == row.value,
                         on_tap=("set", row.key, row.value), style="radio"))
        elif row.kind == "slider":
            col.add(_slider(col.y, row.label, row.key, int(system[row.key])))
        elif row.kind == "volume":
            col.add(View(TEXT_VIEW, (MARGIN, col.y + 20, WIDTH - MARGIN, col.y + 90), text=row.label,
                         rid=ROW_TITLE_RID, package=PACKAGE, style="row_title"))
            col.add(_slider(col.y, row.label, row.key, int(self.values[row.key])))
        elif row.kind == "devices":
            on = self.connected()
            if on is not None:
                col.add(View(TEXT_VIEW, (MARGIN, col.y + 30, WIDTH - MARGIN, col.y + 120), text=row.label,
                             package=PACKAGE, style="section"))
                col.add(_two_line(col.y, on, "Active", (DEVICE, on), "bluetooth"))
        elif row.kind == "link":
            event = ("open", row.key) if row.key in PAGES or row.key in BUILT else ("stub", row.label)
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
                if row.kind in ("switch", "link", "slider", "volume") and query in row.label.lower():
                    col.add(_two_line(col.y, row.label, " > ".join((*BREADCRUMBS[page], title)),
                                      ("open", page), row.icon))
        return [*views, scroll_list(top + 180, CONTENT_BOTTOM, PACKAGE, col.views, rid=f"{PACKAGE}:id/list")]

    # -- events --------------------------------------------------------------------------------------------------------
    def _push(self, name: str, **args: str) -> bool:
        self.seen.add(name)
        return self.phone.push(Screen(PACKAGE, name, dict(args)))

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Open pages and dialogs, toggle switches, pick values, edit apps and devices, open search."""
        match event:
            case ("open", page):
                return self._push(page)
            case ("stub", label):
                return self.phone.push(Screen(PACKAGE, slug(label), {"title": label}))
            case ("toggle", key):
                self.phone.system[key] = not self.phone.system[key]
                return True
            case (page, app) if page in (APP_INFO, APP_NOTIFICATIONS, APP_PERMISSIONS_PAGE, APP_STORAGE):
                return self._push(page, app=app)
            case (page, name) if page == DEVICE:
                return self._push(page, device=name)
            case (page, app, perm) if page == PERMISSION:
                return self._push(page, app=app, perm=perm)
            case ("dialog", name, thing):
                return self._push(name, **({"device": thing} if name == "forget" else {"app": thing}))
            case ("notify", app):
                self.notifications[app] = not self.notifications.get(app, True)
                return True
            case ("set", key, value):
                return self._set(key, value, screen)
            case ("permit", app, perm, value) if self.data(app)["permissions"][perm] != value:
                self._permit(app, perm, value)
                self.edits.append({"op": "permission", "app": app, "perm": perm, "value": value})
                return True
            case ("clear_cache", app):
                self.data(app)["storage"]["cache"] = 0
                self.edits.append({"op": "clear_cache", "app": app})
                return True
            case ("link", name, on):
                for d in self.devices:  # one audio device at a time, as a phone plays to one
                    d["connected"] = on and d["name"] == name
                self.edits.append({"op": "connect" if on else "disconnect", "device": name})
                return True
            case ("launch", app):
                return self.phone.launch(app)
            case ("confirm",):
                return self._confirm(screen)
            case ("cancel",):
                return self.phone.pop()
            case ("search",):
                return self.phone.push(Screen(PACKAGE, "search", focus=SEARCH_RID))
        return False  # ("submit", rid) from the search field's Enter; a radio already checked

    def _set(self, key: str, value: Any, screen: Screen) -> bool:
        """Set a system or own value; the timeout dialog closes on any pick, as a list preference does."""
        closes = screen.name == "timeout"
        if self._value(key) == value:
            return self.phone.pop() if closes else False
        if key in self.values:
            self.values[key] = value
            own = {"screen_timeout": "timeout", "wallpaper": "wallpaper"}
            op = {"op": own[key], "value": value} if key in own else {"op": "volume", "key": key[:-7], "value": value}
            self.edits.append(op)
        else:
            self.phone.system[key] = value
        return self.phone.pop() if closes else True

    def _confirm(self, screen: Screen) -> bool:
        """A dialog's positive button: force stop, delete the app's data, or forget the device (back to the list)."""
        self.phone.pop()
        match screen.name:
            case "force_stop":
                self.stopped.add(screen.args["app"])
                self.edits.append({"op": "force_stop", "app": screen.args["app"]})
            case "clear_storage":
                self.data(screen.args["app"])["storage"].update(data=0, cache=0)
                self.edits.append({"op": "clear_storage", "app": screen.args["app"]})
            case "forget":
                self.devices = [d for d in self.devices if d["name"] != screen.args["device"]]
                self.edits.append({"op": "forget", "device": screen.args["device"]})
                self.phone.pop()  # the device's page is gone with it
        return True


def _two_line(y: int, title: str, summary: str, event: tuple | None, icon: str) -> View:
    """A preference row: title over summary; clickable when it has an `event`."""
    text_left = MARGIN + 132 if icon else MARGIN
    # The icon is its own child so the renderer draws it leading, not centred on the (text-less) row.
    kids = [View(IMAGE_VIEW, (MARGIN, y + 50, MARGIN + 100, y + 150), package=PACKAGE, icon=icon)] if icon else []
    kids += [View(TEXT_VIEW, (text_left, y + 30, WIDTH - MARGIN, y + (110 if summary else LINK_H - 30)), text=title,
                  rid=ROW_TITLE_RID, package=PACKAGE, style="row_title")]
    if summary:
        kids.append(View(TEXT_VIEW, (text_left, y + 110, WIDTH - MARGIN, y + LINK_H - 20), text=summary,
                         rid="android:id/summary", package=PACKAGE, style="row_summary"))
    return View(LINEAR, (0, y, WIDTH, y + LINK_H), package=PACKAGE, clickable=event is not None,
                focusable=event is not None, on_tap=event, style="row", children=kids)


def _header(y: int, title: str, summary: str) -> View:
    """An entity header (the app or device a page is about): its name large, a line under it."""
    kids = [View(TEXT_VIEW, (MARGIN, y + 30, WIDTH - MARGIN, y + 130), text=title, rid=HEADER_RID, package=PACKAGE,
                 style="section")]
    if summary:
        kids.append(View(TEXT_VIEW, (MARGIN, y + 130, WIDTH - MARGIN, y + 200), text=summary,
                         rid=f"{PACKAGE}:id/entity_header_summary", package=PACKAGE, style="row_summary"))
    return View(LINEAR, (0, y, WIDTH, y + 220), package=PACKAGE, children=kids)


def _buttons(y: int, buttons: list[tuple[str, tuple, bool]]) -> View:
    """A row of outlined buttons sharing the width (App info's Open / Force stop): (text, event, enabled)."""
    w = (WIDTH - 2 * MARGIN - 40 * (len(buttons) - 1)) // len(buttons)
    kids = [View(BUTTON, (MARGIN + i * (w + 40), y + 30, MARGIN + i * (w + 40) + w, y + 170), text=text,
                 rid=f"{PACKAGE}:id/button{i + 1}", package=PACKAGE, clickable=enabled, focusable=enabled,
                 enabled=enabled, on_tap=event, style="outlined_button")
            for i, (text, event, enabled) in enumerate(buttons)]
    return View(LINEAR, (0, y, WIDTH, y + 200), package=PACKAGE, children=kids)



def _slider(y: int, label: str, key: str, value: int) -> View:
    """A SeekBar of 0-100%: eleven tap zones, so a tap anywhere on the bar sets the nearest tenth."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    step = (x1 - x0) / 11
    zones = [View(VIEW, (int(x0 + i * step), y + 40, int(x0 + (i + 1) * step), y + ROW_H - 40),
                  desc=f"{i * 10}%", package=PACKAGE, clickable=True, on_tap=("set", key, i * 10),
                  selected=value == i * 10) for i in range(11)]
    return View("android.widget.SeekBar", (x0, y + 40, x1, y + ROW_H - 40), text=f"{value}%", desc=label,
                rid="android:id/seekbar", package=PACKAGE, focusable=True, style="slider", children=zones)
