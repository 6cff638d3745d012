"""The Settings app's page data: the `Row` and `PAGES` tree, its screen ids and value tables, and the seeded data.

Pages are data (`PAGES`): each is a title and rows. A "link" row opens another page, a "switch" row toggles a boolean
of `phone.system`, a "choice" row picks a value (font size, wallpaper), a "slider" sets a number (brightness), a
"volume" is a titled slider of one of the app's own volumes, "devices" lists the connected Bluetooth devices, an "info"
row only shows text. Links to pages the sim does not model open a placeholder page (`PLACEHOLDER_ROWS`), so every row
of a real phone responds.

The app's own values are drawn per episode from `stable_seed("settings", seed)` (never the episode RNG) by the pure
`seeded_*` helpers here: the volumes, screen timeout and wallpaper (`seeded_values`), the saved Bluetooth devices
(`seeded_devices`) and per app, seeded by the seed and the app's label, its permissions and storage (`seeded_app`).
The typed seam is here too: the schema of the app's state (`SettingsState`) and the model of its initial conditions
(`SettingsInitial`). The views, events and live state are `android_gym.sim.apps.settings.SettingsApp`'s.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, get_args

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed


@dataclass(frozen=True)
class Row:
    """One row of a settings page.

    Attributes:
        kind: "link", "switch", "choice", "slider", "volume", "devices" or "info".
        label: the row's title as shown.
        key: link: the target page id ("" for a placeholder page); switch/slider: the `phone.system` key; choice:
            the `phone.system` key or the app's own value ("wallpaper");
            volume: the app's volume key ("media_volume"); info: a system key that must equal `value` for the row to
            show ("" shows it always).
        value: choice: the value the row selects; info: the visibility condition's value.
        summary: second line; `{key}` fields are filled from the system settings ("On"/"Off" for booleans) and the
            app's own values (volumes, "screen_timeout").
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
VolumeKey = Literal["media", "call", "ring", "notification", "alarm"]
VOLUMES: dict[VolumeKey, str] = {"media": "Media volume", "call": "Call volume", "ring": "Ring volume",
                                 "notification": "Notification volume", "alarm": "Alarm volume"}
"""The volumes of Sound & vibration (state key -> label); each is 0-100 in steps of 10."""
Timeout = Literal["15 seconds", "30 seconds", "1 minute", "2 minutes", "5 minutes", "10 minutes", "30 minutes"]
TIMEOUTS: tuple[Timeout, ...] = get_args(Timeout)
Wallpaper = Literal["Blue Dunes", "Sunset Hills", "Forest Path", "Night Sky", "Ocean Waves", "Desert Rose"]
WALLPAPERS: tuple[Wallpaper, ...] = get_args(Wallpaper)
"""The wallpapers Wallpaper & style offers; an episode starts with one of them (`seeded_values`)."""
DEVICE_NAMES = ("Pixel Buds Pro", "JBL Flip 5", "Car Audio", "Bose QC45", "Galaxy Watch6", "Sony WH-1000XM4",
                "Fitbit Charge 6", "Kitchen Speaker", "Jabra Elite 85t", "Beats Studio3")
"""Bluetooth devices an episode may have paired."""
PermissionState = Literal["Allow", "Ask every time", "Don't allow"]
PERMISSION_STATES: tuple[PermissionState, ...] = get_args(PermissionState)
PERMISSION_RIDS = ("allow_radio_button", "ask_radio_button", "deny_radio_button")
PERMISSION_POOL = ("Camera", "Location", "Microphone", "Contacts", "Phone", "Files and media", "Calendar",
                   "Nearby devices", "Physical activity", "SMS")
APP_PERMISSIONS: dict[str, tuple[str, ...]] = {
    "Camera": ("Camera", "Microphone", "Location", "Files and media"),
    "Messages": ("Camera", "Microphone", "Contacts", "SMS", "Phone", "Location"),
    "Chrome": ("Camera", "Microphone", "Location", "Files and media"),
    "Gmail": ("Camera", "Microphone", "Contacts", "Calendar", "Files and media"),
    "YouTube": ("Camera", "Microphone", "Files and media"), "Maps": ("Location", "Microphone", "Contacts"),
    "Audio Recorder": ("Microphone", "Files and media"), "Contacts": ("Contacts", "Phone"),
    "Phone": ("Phone", "Contacts", "Microphone"), "Photos": ("Files and media", "Location"),
    "Calendar": ("Calendar", "Contacts"), "Clock": ("Nearby devices",), "Settings": (),
    "Instagram": ("Camera", "Microphone", "Location", "Contacts"), "WhatsApp": ("Camera", "Microphone", "Contacts"),
    "Snapchat": ("Camera", "Microphone", "Location"), "TikTok": ("Camera", "Microphone", "Contacts"),
}
"""The permissions an app asks for; an app not listed asks for 2-4 of `PERMISSION_POOL` (fixed by its label)."""
CAMERA_STATES = {"granted": "Allow", "ask": "Ask every time", "denied": "Don't allow"}
"""The Camera app's own permission (`camera.CameraApp.permission`) as its camera permission here."""
ALL_APPS, APP_INFO, APP_NOTIFICATIONS = "all_apps", "app_info", "app_notifications"
"""The pages built from the phone's apps rather than from `PAGES` (App info and its Notifications take {"app"})."""
APP_PERMISSIONS_PAGE, PERMISSION, APP_STORAGE = "app_permissions", "permission", "app_storage"
SAVED_DEVICES, DEVICE = "saved_devices", "bt_device"
DIALOGS = ("force_stop", "clear_storage", "forget", "timeout")
"""Dialog screens over a page: Force stop? and Delete app data? ({"app"}), Forget device? ({"device"}), Screen
timeout's choices."""
BUILT = (ALL_APPS, SAVED_DEVICES, "timeout")
"""Link targets built in code rather than from `PAGES`."""
APP_INFO_LINKS = ("Mobile data & Wi-Fi", "Screen time", "Open by default")
PAGES: dict[str, tuple[str, tuple[Row, ...]]] = {
    "main": ("Settings", (
        Row("link", "Network & internet", "network", summary="Internet, airplane mode, hotspot", icon="wifi"),
        Row("link", "Connected devices", "connected", summary="Bluetooth, pairing", icon="devices"),
        Row("link", "Apps", "apps", summary="Recent apps, default apps", icon="apps"),
        Row("link", "Notifications", summary="Notification history, conversations", icon="notifications"),
        Row("link", "Battery", "battery", summary="100%", icon="battery"),
        Row("link", "Storage", "storage", summary="34% used - 84 GB free", icon="storage"),
        Row("link", "Sound & vibration", "sound", summary="Volume, haptics, Do Not Disturb", icon="volume"),
        Row("link", "Display", "display", summary="Dark theme, font size, brightness", icon="display"),
        Row("link", "Wallpaper & style", "wallpaper", summary="Colors, themed icons, app grid", icon="palette"),
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
        Row("devices", "Currently connected"),
        Row("link", "Pair new device"),
        Row("link", "Saved devices", SAVED_DEVICES, summary="See all"),
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
        *(Row("volume", label, f"{key}_volume") for key, label in VOLUMES.items()),
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
        Row("link", "Screen timeout", "timeout", summary="After {screen_timeout} of inactivity"),
        *_links("Display size"),
    )),
    "brightness": ("Brightness level", (
        Row("slider", "Brightness level", "brightness"),
        Row("info", "Brightness", summary="{brightness}%"),
    )),
    "font_size": ("Font size", tuple(Row("choice", size, "font_size", size) for size in FONT_SIZES)),
    "storage": ("Storage", (  # the same phone as the main list's summary: 44 of 128 GB used
        Row("info", "44 GB used", summary="of 128 GB - 84 GB free", icon="storage"),
        Row("link", "Free up space"),
        *(Row("info", label, summary=size) for label, size in (
            ("System", "11 GB"), ("Apps", "9.8 GB"), ("Images", "12 GB"), ("Videos", "7.1 GB"), ("Audio", "1.3 GB"),
            ("Documents & other", "2.6 GB"), ("Trash", "200 MB"))),
    )),
    "wallpaper": ("Wallpaper & style", (
        Row("info", "Current wallpaper", summary="{wallpaper}", icon="palette"),
        *(Row("choice", name, "wallpaper", name) for name in WALLPAPERS),
        *_links("Wallpaper colors", "Themed icons", "App grid"),
    )),
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

PLACEHOLDER_ROWS = _links("Advanced", "Help & feedback")
"""The rows of a placeholder page (a link target the sim does not model)."""


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
    """The page id of a placeholder page, from its row label.

    >>> slug("Calls & SMS")
    'calls_sms'
    """
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


@cache
def app_permissions(label: str) -> tuple[str, ...]:
    """The permissions app `label` asks for (listed in `APP_PERMISSIONS`, else 2-4 fixed by the label)."""
    if label in APP_PERMISSIONS:
        return APP_PERMISSIONS[label]
    rng = np.random.default_rng(stable_seed("settings-permissions", label))
    picked = rng.permutation(len(PERMISSION_POOL))[:int(rng.integers(2, 5))]
    return tuple(PERMISSION_POOL[int(i)] for i in sorted(picked))


def seeded_values(seed: int) -> dict[str, Any]:
    """Episode `seed`'s own values: {"<key>_volume": 20-90 in tens for each key of `VOLUMES`, "screen_timeout": one of
    `TIMEOUTS`, "wallpaper": one of `WALLPAPERS`}."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("settings", seed))
    values: dict[str, Any] = {f"{k}_volume": 10 * int(rng.integers(2, 10)) for k in VOLUMES}
    values["screen_timeout"] = TIMEOUTS[int(rng.integers(len(TIMEOUTS)))]
    # a stream of its own, so that the volumes and timeout of every seed stay as they were before wallpapers
    values["wallpaper"] = WALLPAPERS[stable_seed("settings-wallpaper", seed) % len(WALLPAPERS)]
    return values


def seeded_app(seed: int, label: str) -> dict[str, Any]:
    """Episode `seed`'s data of app `label`: {"permissions": {name: state}, "storage": {"app", "data", "cache"}}
    (sizes in MB), the same for a label whatever other apps are installed."""  # noqa: D205, D209
    # Python's generator, not numpy's: drawn for every app at each reset, where numpy's per-call overhead showed
    rng = random.Random(stable_seed("settings", seed, label))
    perms = {p: rng.choices(PERMISSION_STATES, weights=(0.5, 0.2, 0.3))[0] for p in app_permissions(label)}
    storage = {"app": rng.randrange(15, 240), "data": rng.randrange(1, 400), "cache": rng.randrange(1, 180)}
    return {"permissions": perms, "storage": storage}


def seeded_devices(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s saved Bluetooth devices: 3-5 of `DEVICE_NAMES` [{"name", "connected"}], at most one connected
    (it shows as connected only while Bluetooth is on)."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("settings-bluetooth", seed))
    names = rng.permutation(len(DEVICE_NAMES))[:int(rng.integers(3, 6))]
    on = int(rng.integers(len(names))) if rng.random() < 0.5 else -1
    return [{"name": DEVICE_NAMES[int(n)], "connected": i == on} for i, n in enumerate(names)]


def size_text(mb: int) -> str:
    """A size in MB as Settings shows it.

    >>> size_text(312), size_text(0)
    ('312 MB', '0 B')
    """
    return f"{mb} MB" if mb else "0 B"


def device_address(name: str) -> str:
    """A device's Bluetooth address, fixed by its name.

    >>> device_address("JBL Flip 5")
    '6C:DD:75:E0:4C:1A'
    """
    raw = stable_seed("bt-address", name)
    return ":".join(f"{(raw >> s) & 0xFF:02X}" for s in (0, 8, 16, 24)) + ":4C:1A"


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class VolumeLevels(TypedDict):
    """The volumes of Sound & vibration (`VOLUMES`), each 0-100 in %."""

    media: int
    call: int
    ring: int
    notification: int
    alarm: int


@closed
class SavedDevice(TypedDict):
    """A saved Bluetooth device, and whether it is connected (never while Bluetooth is off)."""

    name: str
    connected: bool


@closed
class AppSizes(TypedDict):
    """An app's storage in MB: the app itself, its user data and its cache."""

    app: int
    data: int
    cache: int


@closed
class AppData(TypedDict):
    """An app on App info: its permissions (name -> state), its storage, whether it was force-stopped."""

    permissions: dict[str, PermissionState]
    storage: AppSizes
    stopped: bool


@closed
class VolumeEdit(TypedDict):
    """A volume set (in %) on Sound & vibration."""

    op: Literal["volume"]
    key: VolumeKey
    value: int


@closed
class TimeoutEdit(TypedDict):
    """A screen timeout picked on Display."""

    op: Literal["timeout"]
    value: Timeout


@closed
class WallpaperEdit(TypedDict):
    """A wallpaper picked on Wallpaper & style."""

    op: Literal["wallpaper"]
    value: Wallpaper


@closed
class PermissionEdit(TypedDict):
    """An app's permission set on its permission page."""

    op: Literal["permission"]
    app: str
    perm: str
    value: PermissionState


@closed
class AppEdit(TypedDict):
    """An app force-stopped, or its cache or storage cleared."""

    op: Literal["force_stop", "clear_cache", "clear_storage"]
    app: str


@closed
class DeviceEdit(TypedDict):
    """A saved Bluetooth device connected, disconnected or forgotten."""

    op: Literal["connect", "disconnect", "forget"]
    device: str


SettingsEdit = Annotated[VolumeEdit | TimeoutEdit | WallpaperEdit | PermissionEdit | AppEdit | DeviceEdit,
                         Field(discriminator="op")]
"""One edit of Settings' log, of the kind its "op" names."""


@closed
class SettingsState(TypedDict):
    """What the Settings app reports (`SettingsApp.state`).

    Attributes:
        page: the page id of the front-most Settings screen (a dialog's too), None when Settings is not open.
        app, device, perm: the app of an app page or dialog, the device of a device page or dialog, the permission
            of a permission page; else None.
        seen: the page ids opened this episode, sorted.
        notifications_off: the labels of the apps whose notifications are off, sorted.
        volumes: the five volumes.
        screen_timeout: the screen timeout.
        wallpaper: the wallpaper.
        devices: the saved Bluetooth devices, as listed.
        connected: the connected device's name, None while none is (or Bluetooth is off).
        apps: every app on the phone, by label.
        edits: the episode's edits, in order.
    """

    page: str | None
    app: str | None
    device: str | None
    perm: str | None
    seen: list[str]
    notifications_off: list[str]
    volumes: VolumeLevels
    screen_timeout: Timeout
    wallpaper: Wallpaper
    devices: list[SavedDevice]
    connected: str | None
    apps: dict[str, AppData]
    edits: list[SettingsEdit]


Level = Annotated[int, Field(ge=0, le=100, multiple_of=10)]
MB = Annotated[int, Field(ge=0)]


class StartVolumes(ConfigModel):
    """Volumes a task sets, 0-100 in tens; a volume left out keeps the episode's own.

    Attributes:
        media, call, ring, notification, alarm: the volume in %.
    """

    media: Level | None = None
    call: Level | None = None
    ring: Level | None = None
    notification: Level | None = None
    alarm: Level | None = None


class StartSizes(ConfigModel):
    """An app's storage a task sets, in whole MB; a size left out keeps the episode's own.

    Attributes:
        app, data, cache: the app's size, its user data, its cache.
    """

    app: MB | None = None
    data: MB | None = None
    cache: MB | None = None


class SettingsInitial(ConfigModel):
    """The initial conditions a Settings task may set, applied in this order (system switches go through the phone's
    "system").

    Attributes:
        notifications: app label -> whether its notifications are on.
        volumes: volumes to set.
        screen_timeout: the screen timeout; None keeps the episode's.
        wallpaper: the wallpaper; None keeps the episode's.
        devices: devices saved besides the episode's, each at a row drawn from the seed.
        absent_devices: devices removed from the saved ones.
        connected: the saved device connected: its name, "*" (one drawn from the seed) or None (none); left out,
            as the episode has it.
        permissions: app label -> {permission it asks for (`app_permissions`): its state}.
        storage: app label -> its sizes.
    """  # noqa: D205

    notifications: dict[str, bool] = Field(default_factory=dict)
    volumes: StartVolumes = StartVolumes()
    screen_timeout: Timeout | None = None
    wallpaper: Wallpaper | None = None
    devices: tuple[str, ...] = ()
    absent_devices: tuple[str, ...] = ()
    connected: str | None = None
    permissions: dict[str, dict[str, PermissionState]] = Field(default_factory=dict)
    storage: dict[str, StartSizes] = Field(default_factory=dict)

    @field_validator("permissions")
    @classmethod
    def _asked_for(cls, permissions: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for app, perms in permissions.items():
            asked = app_permissions(app)
            wrong = [p for p in perms if p not in asked]
            if wrong:
                raise FieldError("permissions", f"permissions {app} asks for ({', '.join(asked) or 'none'})",
                                 {app: wrong})
        return permissions
