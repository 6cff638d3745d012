"""An app's own pop-ups, drawn the same way by every app that has them: an overflow menu (`popup_menu`), an
AlertDialog with text buttons (`alert_dialog`; `app_dialog` when the dialog holds fields or choices laid out by the
caller), a date picker's month grid for such a dialog (`month_grid`), and the screen under them made untouchable
(`inert`)."""  # noqa: D205, D209

from __future__ import annotations

import calendar
import dataclasses
import datetime
from collections.abc import Iterable

from android_gym.sim.layout import BUTTON, CONTENT_BOTTOM, CONTENT_TOP, FRAME, HEIGHT, IMAGE_BUTTON, TEXT_VIEW, WIDTH
from android_gym.sim.system_ui import shift_clip
from android_gym.sim.view import View

MENU_ROW_H = 150


def popup_menu(package: str, items: list[tuple[str, tuple]], close: tuple) -> View:
    """An app's overflow menu at the top right, over a scrim whose tap sends `close`; rows are (label, event)."""
    x0, x1, y0 = WIDTH - 620, WIDTH - 24, CONTENT_TOP + 24
    rows = [View(TEXT_VIEW, (x0, y0 + 30 + i * MENU_ROW_H, x1, y0 + 30 + (i + 1) * MENU_ROW_H), text=label,
                 rid=f"{package}:id/title", package=package, clickable=True, focusable=True, on_tap=event,
                 style="row") for i, (label, event) in enumerate(items)]
    box = View(FRAME, (x0, y0, x1, y0 + 60 + len(rows) * MENU_ROW_H), package=package, style="dialog",
               children=rows)
    return View(FRAME, (0, 0, WIDTH, HEIGHT), package=package, clickable=True, on_tap=close, style="scrim",
                children=[box])


def alert_dialog(package: str, title: str, message: str, buttons: list[tuple[str, tuple]], close: tuple) -> View:
    """An app's own AlertDialog (title, message, text buttons at the bottom right) over a scrim sending `close`."""
    x0, x1, y0 = 90, WIDTH - 90, 860
    kids = [View(TEXT_VIEW, (x0 + 60, y0 + 60, x1 - 60, y0 + 200), text=title, rid="android:id/alertTitle",
                 package=package, style="dialog_title")]
    y = y0 + 200
    if message:
        kids.append(View(TEXT_VIEW, (x0 + 60, y, x1 - 60, y + 180), text=message, rid="android:id/message",
                         package=package))
        y += 180
    right = x1 - 40
    for i, (label, event) in reversed(list(enumerate(buttons))):  # the positive button sits rightmost
        kids.append(View(BUTTON, (right - 280, y + 20, right, y + 150), text=label, rid=f"android:id/button{i + 1}",
                         package=package, clickable=True, focusable=True, on_tap=event, style="text_button"))
        right -= 300
    box = View(FRAME, (x0, y0, x1, y + 190), rid="android:id/parentPanel", package=package, style="dialog",
               children=kids)
    return View(FRAME, (0, 0, WIDTH, HEIGHT), package=package, clickable=True, on_tap=close, style="scrim",
                children=[box])


def inert(views: list[View], scroll: int = 0) -> list[View]:
    """Copies of `views` that ignore touches: the screen under an app's own dialog or menu (a list keeps `scroll`)."""
    out = []
    for v in views:
        if v.scrollable:
            top, bottom = v.bounds[1], v.bounds[3]
            kids = [c for c in (shift_clip(c, -scroll, top, bottom) for c in v.children) if c is not None]
            v = dataclasses.replace(v, children=kids)
        out.append(dataclasses.replace(v, clickable=False, focusable=False, focused=False, scrollable=False,
                                       long_clickable=False, on_tap=None, children=inert(v.children)))
    return out


def app_dialog(package: str, title: str, body: list[View], buttons: list[tuple[str, tuple, bool]],
               top: int = 560, message: str = "") -> View:
    """An app's own AlertDialog over a scrim (a tap outside cancels): title, message, `body` (laid out by the caller
    from `dialog_body_top(top, message)`) and buttons (label, event, enabled), right-aligned.

    The box stays above the soft keyboard, so a focused field never hides the buttons.
    """  # noqa: D205, D209
    x0, x1 = 90, WIDTH - 90
    kids = [View(TEXT_VIEW, (x0 + 60, top + 50, x1 - 60, top + 170), text=title, rid="android:id/alertTitle",
                 package=package, style="dialog_title")]
    if message:
        kids.append(View(TEXT_VIEW, (x0 + 60, top + 180, x1 - 60, top + 300), text=message,
                         rid="android:id/message", package=package))
    kids += body
    y = max([dialog_body_top(top, message), *(v.bounds[3] for v in body)]) + 40
    right = x1 - 40
    for i, (label, event, enabled) in reversed(list(enumerate(buttons))):
        w = 60 + 30 * len(label)
        kids.append(View(BUTTON, (right - w, y, right, y + 130), text=label, rid=f"android:id/button{i + 1}",
                         package=package, clickable=True, focusable=True, enabled=enabled, on_tap=event,
                         style="text_button"))
        right -= w + 20
    # The box takes the touches that miss its buttons (a disabled button too), so only the scrim cancels.
    box = View(FRAME, (x0, top, x1, y + 170), rid="android:id/parentPanel", package=package, clickable=True,
               style="dialog", children=kids)
    return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=package, clickable=True,
                on_tap=("cancel",), style="scrim", children=[box])


def name_refusal(name: str, taken: Iterable[str], noun: str) -> str:
    """What a name dialog says when it refuses `name` (already stripped), as Android apps word it; "" when it is free.

    >>> name_refusal("", [], "record"), name_refusal("a", ["a"], "playlist"), name_refusal("b", ["a"], "track")
    ("Name can't be empty", 'A playlist with this name already exists', '')
    """
    if not name:
        return "Name can't be empty"
    return f"A {noun} with this name already exists" if name in taken else ""


def dialog_body_top(top: int, message: str = "") -> int:
    """Where a dialog's own views start below its title (and message)."""
    return top + (320 if message else 200)


def day_desc(d: datetime.date) -> str:
    """A day of a date picker as TalkBack reads it ("Friday, June 12, 2026")."""
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"


def month_grid(package: str, year: int, month: int, selected: str | None, pick: str, y: int) -> list[View]:
    """A date picker's body from `y` down: previous/next month buttons (events ("month", -1 | 1)) around the month's
    title, the weekday initials, and a cell per day (event (`pick`, "YYYY-MM-DD"); `selected` is such a date)."""  # noqa: D205, D209
    body = [View(IMAGE_BUTTON, (130, y, 250, y + 110), desc="Previous month", package=package, clickable=True,
                 focusable=True, on_tap=("month", -1), icon="back"),
            View(TEXT_VIEW, (250, y, WIDTH - 250, y + 110), text=f"{calendar.month_name[month]} {year}",
                 rid=f"{package}:id/month_title", package=package, style="section"),
            View(IMAGE_BUTTON, (WIDTH - 250, y, WIDTH - 130, y + 110), desc="Next month", package=package,
                 clickable=True, focusable=True, on_tap=("month", 1), icon="forward")]
    y += 120
    body += [View(TEXT_VIEW, (168 + k * 117, y, 240 + k * 117, y + 70), text=d, package=package, style="secondary")
             for k, d in enumerate("MTWTFSS")]
    y += 80
    first, days = calendar.monthrange(year, month)
    for d in range(1, days + 1):
        cell = first + d - 1
        x0, y0 = 130 + (cell % 7) * 117, y + (cell // 7) * 112
        day = datetime.date(year, month, d)
        body.append(View(TEXT_VIEW, (x0, y0, x0 + 110, y0 + 105), text=str(d), desc=day_desc(day), package=package,
                         clickable=True, focusable=True, selected=str(day) == selected, on_tap=(pick, str(day)),
                         style="dial"))
    return body
