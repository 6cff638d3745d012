"""The phone's own windows: the status bar, the navigation bar and a pop-up dialog, as views (`SimPhone` stacks
them over the front app's content), and the scrolling of a list's children."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.sim.events import DialogButton, NavKey, Scrim
from android_gym.sim.layout import FRAME, HEIGHT, IMAGE_BUTTON, NAV_BAR_H, STATUS_BAR_H, TEXT_VIEW, WIDTH
from android_gym.sim.perturbations import Dialog
from android_gym.sim.view import View

SYSTEM_UI = "com.android.systemui"


def status_bar(s: dict[str, Any]) -> View:
    """The status bar for system settings `s`: the clock, Wi-Fi, Bluetooth, airplane mode and battery icons."""
    wifi = "Wi-Fi signal full." if s["wifi"] and not s["airplane_mode"] else "Wi-Fi off."
    icons = [View(TEXT_VIEW, (40, 0, 200, STATUS_BAR_H), text=s["clock"], rid=f"{SYSTEM_UI}:id/clock",
                  package=SYSTEM_UI, style="status")]
    icons.append(View("android.widget.ImageView", (860, 12, 920, 72), desc=wifi, package=SYSTEM_UI, icon="wifi"
                      if s["wifi"] else "wifi_off"))
    if s["bluetooth"]:
        icons.append(View("android.widget.ImageView", (800, 12, 850, 72), desc="Bluetooth on.", package=SYSTEM_UI,
                          icon="bluetooth"))
    if s["airplane_mode"]:
        icons.append(View("android.widget.ImageView", (740, 12, 790, 72), desc="Airplane mode.",
                          package=SYSTEM_UI, icon="airplane"))
    icons.append(View("android.widget.ImageView", (940, 12, 1040, 72), desc="Battery 100 percent.",
                      package=SYSTEM_UI, icon="battery"))
    return View(FRAME, (0, 0, WIDTH, STATUS_BAR_H), rid=f"{SYSTEM_UI}:id/status_bar", package=SYSTEM_UI,
                style="statusbar", children=icons)


def nav_bar() -> View:
    """The navigation bar: Back, Home and Overview buttons."""
    y0 = HEIGHT - NAV_BAR_H
    buttons = [("Back", "back", 180), ("Home", "home", 540), ("Overview", "recents", 900)]
    return View(FRAME, (0, y0, WIDTH, HEIGHT), rid=f"{SYSTEM_UI}:id/navigation_bar", package=SYSTEM_UI,
                style="navbar", children=[
                    View(IMAGE_BUTTON, (cx - 120, y0, cx + 120, HEIGHT), desc=desc, rid=f"{SYSTEM_UI}:id/{key}",
                         package=SYSTEM_UI, clickable=True, on_tap=NavKey(key), icon=key)
                    for desc, key, cx in buttons])


def dialog_view(d: Dialog) -> View:
    """Pop-up `d` over a scrim that swallows taps outside it."""
    x0, x1, y0 = 90, WIDTH - 90, 820
    kids = [View(TEXT_VIEW, (x0 + 60, y0 + 60, x1 - 60, y0 + 220), text=d.title, rid="android:id/alertTitle",
                 package=d.package, style="dialog_title")]
    y = y0 + 220
    if d.message:
        kids.append(View(TEXT_VIEW, (x0 + 60, y, x1 - 60, y + 200), text=d.message, rid="android:id/message",
                         package=d.package))
        y += 200
    for i, (label, _) in enumerate(d.buttons):
        kids.append(View("android.widget.Button", (x0 + 60, y + 20, x1 - 60, y + 150), text=label,
                         rid=f"android:id/button{i + 1}", package=d.package, clickable=True, focusable=True,
                         on_tap=DialogButton(i), style="button"))
        y += 150
    box = View(FRAME, (x0, y0, x1, y + 60), rid="android:id/parentPanel", package=d.package, style="dialog",
               children=kids)
    return View(FRAME, (0, 0, WIDTH, HEIGHT), package=d.package, clickable=True, on_tap=Scrim(), style="scrim",
                children=[box])


def shift_clip(v: View, dy: int, top: int, bottom: int) -> View | None:
    """A copy of `v` moved by `dy` pixels and clipped to rows [top, bottom); None when nothing stays visible."""
    x0, y0, x1, y1 = v.bounds
    y0, y1 = max(top, y0 + dy), min(bottom, y1 + dy)
    if y1 <= y0:
        return None
    kids = [c for c in (shift_clip(c, dy, top, bottom) for c in v.children) if c is not None]
    return View(**{**v.__dict__, "bounds": (x0, y0, x1, y1), "children": kids})
