"""Everyday apps the tasks do not target (Gmail, Maps, Photos, ...): realistic distractors with seeded content."""

from __future__ import annotations

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    LINEAR,
    MARGIN,
    ROW_H,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

_WORDS = ("Meeting notes", "Weekend plans", "Invoice", "Photos from the trip", "Order shipped", "Team lunch",
          "Reminder", "Your receipt", "Flight update", "Newsletter", "Project status", "Happy birthday!")


class GenericApp(App):
    """An app with one scrollable list of seeded items; tapping an item opens a detail page."""

    item_kind = "item"

    def build(self, screen: Screen) -> list[View]:
        """The list, or one item's detail page."""
        prefix = self.package
        if screen.name == "detail":
            title = screen.args["title"]
            return [toolbar(title, prefix, prefix),
                    View(TEXT_VIEW,
                         (MARGIN, CONTENT_TOP + TOOLBAR_H + 40, WIDTH - MARGIN, CONTENT_TOP + TOOLBAR_H + 400),
                         text=f"{title}. Nothing else to see here.", package=prefix)]
        rng = np.random.default_rng(stable_seed(self.package))
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for i in range(14):
            title = f"{_WORDS[int(rng.integers(len(_WORDS)))]} #{i + 1}"
            y = top + i * ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), text=title, package=prefix, clickable=True,
                             focusable=True, on_tap=("open", title), style="row"))
        return [toolbar(self.label, prefix, prefix, has_back=False),
                scroll_list(top, CONTENT_BOTTOM, prefix, rows, rid=f"{prefix}:id/list")]

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Open an item."""
        match event:
            case ("open", title):
                return self.phone.push(Screen(self.package, "detail", {"title": title}))
        return False


def _generic(package: str, label: str, icon: str, aliases: tuple[str, ...] = ()) -> type[GenericApp]:
    return type(label.replace(" ", "") + "App", (GenericApp,),
                {"package": package, "label": label, "icon": icon, "aliases": aliases, "__doc__": f"{label}."})


GENERIC_APPS: tuple[type[App], ...] = (
    _generic("com.google.android.gm", "Gmail", "mail", ("email",)),
    _generic("com.google.android.apps.photos", "Photos", "photo", ("google photos", "gallery")),
    _generic("com.google.android.GoogleCamera", "Camera", "camera"),
    _generic("com.google.android.dialer", "Phone", "phone", ("dialer",)),
    _generic("com.google.android.apps.messaging", "Messages", "sms", ("sms",)),
    _generic("com.google.android.contacts", "Contacts", "contacts"),
)
