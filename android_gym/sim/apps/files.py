"""The Files app: categories (Downloads, Images, Videos, Audio, Documents) listing seeded files, and a file page.

Files are drawn per episode from `stable_seed(phone.seed)` (no episode RNG). Screens: "home" (the categories),
"category" (args {"name"}) and "file" (args {"file": a `files_in()` dict}).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import CONTENT_BOTTOM, CONTENT_TOP, LINEAR, MARGIN, TEXT_VIEW, TOOLBAR_H, WIDTH, scroll_list
from android_gym.sim.layout import toolbar as app_bar
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.nbu.files"
CATEGORIES = {"Downloads": ("pdf", "zip", "apk", "jpg"), "Images": ("jpg", "png"), "Videos": ("mp4",),
              "Audio": ("mp3", "m4a"), "Documents": ("pdf", "docx", "txt")}
_STEMS = ("boarding_pass", "invoice_march", "IMG_2041", "recipe", "lecture_notes", "tickets", "resume", "holiday",
          "podcast_ep12", "screen_recording", "manual", "receipt", "lease_agreement", "photo_backup", "song_demo")
ROW_H = 200


def files_in(category: str, seed: int) -> list[dict[str, Any]]:
    """The files of a category this episode, newest first: {"name", "size_kb", "category"}."""
    rng = np.random.default_rng(stable_seed("files", category, seed))
    kinds = CATEGORIES[category]
    stems = rng.permutation(len(_STEMS))[:6]
    return [{"name": f"{_STEMS[int(i)]}.{kinds[int(rng.integers(len(kinds)))]}",
             "size_kb": int(rng.integers(12, 90_000)), "category": category} for i in stems]


class FilesApp(App):
    """Files by Google: browse categories, open a file's page."""

    package = PACKAGE
    label = "Files"
    icon = "files"
    aliases = ("files by google", "file manager", "downloads")

    def home(self) -> Screen:
        """The category list."""
        return Screen(PACKAGE, "home")

    def build(self, screen: Screen) -> list[View]:
        """Categories, a category's files, or one file."""
        top = CONTENT_TOP + TOOLBAR_H
        if screen.name == "file":
            f = screen.args["file"]
            return [app_bar(f["name"], PACKAGE, PACKAGE),
                    View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 160),
                         text=f"{f['category']} · {f['size_kb']:,} KB", package=PACKAGE)]
        if screen.name == "category":
            name = screen.args["name"]
            rows = [_row(top + i * ROW_H, f["name"], f"{f['size_kb']:,} KB", ("open", tuple(sorted(f.items()))))
                    for i, f in enumerate(files_in(name, self.phone.seed))]
            return [app_bar(name, PACKAGE, PACKAGE), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                                 rid=f"{PACKAGE}:id/file_list")]
        rows = [_row(top + i * ROW_H, name, f"{len(files_in(name, self.phone.seed))} files", ("category", name))
                for i, name in enumerate(CATEGORIES)]
        return [app_bar("Files", PACKAGE, PACKAGE, has_back=False),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/categories")]

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Open a category or a file."""
        match event:
            case ("category", name):
                return self.phone.push(Screen(PACKAGE, "category", {"name": name}))
            case ("open", items):
                return self.phone.push(Screen(PACKAGE, "file", {"file": dict(items)}))
        return False

    def state(self) -> dict[str, Any]:
        """{"page": the front Files screen or None, "category": the open category (or the open file's), else None}."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        category = None
        if front is not None and front.name == "category":
            category = front.args["name"]
        elif front is not None and front.name == "file":
            category = front.args["file"]["category"]
        return {"page": front.name if front else None, "category": category}


def _row(y: int, title: str, summary: str, event: tuple) -> View:
    return View(LINEAR, (0, y, WIDTH, y + ROW_H), text=f"{title} · {summary}", desc=title, package=PACKAGE,
                clickable=True, focusable=True, on_tap=event, style="row")
