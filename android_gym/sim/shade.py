"""The notification shade: pulled down from the status bar, it shows quick-settings tiles and the notifications.

A swipe that starts on the status bar and travels down at least `PULL_PX` opens it over whatever is in front (an app,
a pop-up). While it is open the shade takes every touch above the navigation bar: a tile switches its system setting,
a notification opens its app (the shade closes), "Clear all" dismisses the notifications, and a tap below the panel,
a swipe up, Back or Home close it. `SimPhone` keeps whether it is open and the episode's notifications; this module
draws them (`draw_notifications`, seeded apart from the episode's RNG so that the pop-ups and spinners of every
existing episode stay as they were) and lays out the shade's views (`shade_view`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_gym.sim.events import ClearNotifications, CloseShade, OpenNotification, ShadeTile
from android_gym.sim.layout import FRAME, HEIGHT, NAV_BAR_H, STATUS_BAR_H, TEXT_VIEW, WIDTH
from android_gym.sim.view import View

SYSTEM_UI = "com.android.systemui"
PULL_PX = 300
"""Finger travel down from the status bar that opens the shade (a shorter pull springs back)."""

QUICK_TILES: tuple[tuple[str, str, str], ...] = (
    ("Internet", "wifi", "wifi"), ("Bluetooth", "bluetooth", "bluetooth"),
    ("Do Not Disturb", "do_not_disturb", "dnd"), ("Airplane mode", "airplane_mode", "airplane"),
    ("Battery Saver", "battery_saver", "battery"), ("Auto-rotate", "auto_rotate", "rotate"),
)
"""(label, system setting, glyph) of each quick-settings tile, in the shade's order."""


@dataclass(frozen=True)
class Notification:
    """One notification: the posting app (package and label), its title and its text."""

    package: str
    app: str
    title: str
    text: str


_POOL: dict[str, tuple[tuple[str, str], ...]] = {
    "com.google.android.gm": (("{person}", "Re: plans for the weekend"), ("{person}", "Invoice #{n} attached"),
                              ("{person}", "Photos from the trip")),
    "com.google.android.apps.messaging": (("{person}", "Are you free later?"), ("{person}", "On my way!"),
                                          ("{person}", "Call me when you can")),
    "com.google.android.dialer": (("Missed call", "{person}"),),
    "com.google.android.calendar": (("Team sync", "10:00 - 10:30"), ("Dentist", "Tomorrow, 9:00"),
                                    ("Lunch with {person}", "12:30 - 13:30")),
    "com.android.vending": (("Updates available", "{n} apps can be updated"),),
    "com.google.android.youtube": (("New video", "A channel you follow uploaded a video"),),
    "com.google.android.deskclock": (("Upcoming alarm", "Alarm at 7:00 tomorrow"),),
    "com.google.android.apps.photos": (("Memories", "Look back on this day"),),
}
"""What each app may post: (title, text) with {person} and {n} filled per episode."""
_PEOPLE = ("Anna Lee", "Ben Ortiz", "Chloe Martin", "David Kim", "Emma Rossi", "Farid Haddad", "Grace Chen")


def draw_notifications(seed: int, installed: dict[str, str]) -> list[Notification]:
    """The notifications a phone holds at the start of an episode: 3 to 6, from installed apps, newest first.

    Args:
        seed: the episode's seed (the draw uses its own generator, so the episode's RNG is untouched).
        installed: package -> label of the installed apps; only those post notifications.
    """
    rng = np.random.default_rng([int(seed), 0x5AADE])
    sources = [(package, message) for package, messages in _POOL.items() if package in installed
               for message in messages]
    count = min(len(sources), int(rng.integers(3, 7)))
    out = []
    for i in rng.choice(len(sources), size=count, replace=False):
        package, (title, text) = sources[int(i)]
        fill = {"person": _PEOPLE[int(rng.integers(len(_PEOPLE)))], "n": str(int(rng.integers(2, 9)))}
        out.append(Notification(package, installed[package], title.format(**fill), text.format(**fill)))
    return out


def shade_view(system: dict[str, object], notifications: list[Notification]) -> View:
    """The open shade: the clock, the quick-settings tiles, the notifications (or "No notifications"), "Clear all",
    over a scrim down to the navigation bar (a tap on the scrim closes the shade)."""  # noqa: D205, D209
    kids = [View(TEXT_VIEW, (60, STATUS_BAR_H, 500, STATUS_BAR_H + 110), text=str(system["clock"]),
                 rid=f"{SYSTEM_UI}:id/clock", package=SYSTEM_UI, style="title")]
    y = STATUS_BAR_H + 130
    width = (WIDTH - 120 - 2 * 30) // 3
    for i, (label, key, icon) in enumerate(QUICK_TILES):
        x0 = 60 + (i % 3) * (width + 30)
        y0 = y + (i // 3) * 150
        on = bool(system[key])
        kids.append(View("android.widget.Switch", (x0, y0, x0 + width, y0 + 120), text=label,
                         desc=f"{label}, {'on' if on else 'off'}", rid=f"{SYSTEM_UI}:id/tile", package=SYSTEM_UI,
                         clickable=True, checkable=True, checked=on, on_tap=ShadeTile(key), style="toggle",
                         icon=icon))
    y += 2 * 150 + 40
    if not notifications:
        kids.append(View(TEXT_VIEW, (60, y, WIDTH - 60, y + 120), text="No notifications",
                         rid=f"{SYSTEM_UI}:id/no_notifications", package=SYSTEM_UI))
        y += 140
    for i, n in enumerate(notifications):
        kids.append(View(FRAME, (60, y, WIDTH - 60, y + 190), desc=f"{n.app} notification: {n.title}",
                         rid=f"{SYSTEM_UI}:id/expandableNotificationRow", package=SYSTEM_UI, clickable=True,
                         on_tap=OpenNotification(i), style="card", children=[
                             View(TEXT_VIEW, (100, y + 15, WIDTH - 100, y + 65), text=n.app,
                                  rid="android:id/app_name_text", package=SYSTEM_UI, style="secondary"),
                             View(TEXT_VIEW, (100, y + 65, WIDTH - 100, y + 120), text=n.title, rid="android:id/title",
                                  package=SYSTEM_UI, style="row_title"),
                             View(TEXT_VIEW, (100, y + 120, WIDTH - 100, y + 175), text=n.text, rid="android:id/text",
                                  package=SYSTEM_UI)]))
        y += 210
    if notifications:
        kids.append(View("android.widget.Button", (WIDTH - 360, y, WIDTH - 60, y + 110), text="Clear all",
                         rid=f"{SYSTEM_UI}:id/dismiss_text", package=SYSTEM_UI, clickable=True,
                         on_tap=ClearNotifications(), style="text_button"))
        y += 130
    panel = View(FRAME, (0, 0, WIDTH, min(y, HEIGHT - NAV_BAR_H)), rid=f"{SYSTEM_UI}:id/notification_panel",
                 package=SYSTEM_UI, style="toolbar", children=kids)
    return View(FRAME, (0, 0, WIDTH, HEIGHT - NAV_BAR_H), rid=f"{SYSTEM_UI}:id/scrim_behind", package=SYSTEM_UI,
                clickable=True, on_tap=CloseShade(), style="scrim", children=[panel])
