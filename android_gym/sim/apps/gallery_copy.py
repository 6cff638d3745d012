"""Photos' Copy to folder: the page that picks a folder of the phone's storage and saves a copy of a picture there.

The viewer's More options sheet opens it ("Copy to folder", as Simple Gallery's "Copy to"): screen "copy" with args
{"item": the item's name, "folder": the folder chosen, None before one is}. The folders are the Files app's, live
(`storage_folders`); a tap on a row chooses it (again: unchooses), "Copy here" saves the copy (`save_copy`): the file
joins the Files app's storage under the item's name (" (1)" added when the name is taken there, as Files does) and
Photos logs it in `PhotosState.copies`.
"""

from __future__ import annotations

from android_gym.sim.app import PhoneServices, Screen, stable_seed
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.apps.files_data import FOLDERS, free_path, iso
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

ROW_H = 180


def _files_app(phone: PhoneServices) -> FilesApp | None:
    """The Files app holding the phone's storage, None on a phone without it."""
    return next((a for a in phone.installed() if isinstance(a, FilesApp)), None)


def storage_folders(phone: PhoneServices) -> list[str]:
    """Every folder of the phone's storage, sorted ("DCIM", "Download", "Download/Receipts"...)."""
    files = _files_app(phone)
    return sorted(files.folders) if files is not None else sorted(FOLDERS)


def build_copy(package: str, phone: PhoneServices, screen: Screen) -> list[View]:
    """The Copy to folder page: a toolbar with "Copy here", and one row per folder (the chosen one selected)."""
    chosen = screen.args["folder"]
    bar = toolbar("Copy to folder", package, package)
    bar.children.append(View(BUTTON, (WIDTH - 330, CONTENT_TOP + 30, WIDTH - 30, CONTENT_TOP + TOOLBAR_H - 30),
                             text="Copy here", rid=f"{package}:id/copy_button", package=package, clickable=True,
                             focusable=True, enabled=chosen is not None, on_tap=("copy_here",), style="button"))
    top = CONTENT_TOP + TOOLBAR_H
    rows = []
    for i, folder in enumerate(storage_folders(phone)):
        y = top + i * ROW_H
        rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=folder, rid=f"{package}:id/folder_row",
                         package=package, clickable=True, focusable=True, selected=folder == chosen,
                         on_tap=("folder", folder), style="row", children=[
                             View(IMAGE_VIEW, (MARGIN, y + 40, MARGIN + 100, y + 140), package=package,
                                  icon="check" if folder == chosen else "storage"),
                             View(TEXT_VIEW, (MARGIN + 140, y, WIDTH - MARGIN, y + ROW_H), text=folder,
                                  package=package, style="row_title")]))
    return [bar, scroll_list(top, CONTENT_BOTTOM, package, rows, rid=f"{package}:id/folders")]


def save_copy(phone: PhoneServices, name: str, folder: str) -> str:
    """Put a copy of item `name` in `folder` of the phone's storage; returns its path there.

    The copy's size is fixed by its name (kB); its date is today. Without the Files app the path is still returned
    (nothing holds the file).
    """
    files = _files_app(phone)
    if files is None:
        return f"{folder}/{name}"
    path = free_path(files.files, files.folders, folder, name)
    files.files[path] = {"size_kb": 400 + stable_seed("photo_size", name) % 3600, "date": iso(0)}
    return path
