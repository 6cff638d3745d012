"""What the Photos picture templates (`pictures_tasks`) and AndroidWorld's picture tasks share: the instances' grid
(a receipt photographed on a June day, a twin receipt the same day), the items they put in Photos, and the expert
steps to read a picture and to save a copy of it to a folder.

A readable picture carries its text in the pixels only (`View.printed`), so an expert, like an agent, opens it
before it may use what it says: `viewed` tells from Photos' `last_opened` that it was shown. Experts read the
content from the state (an agent reads the screenshot).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import gallery_media, gallery_prints
from android_gym.sim.apps.clock import format_time
from android_gym.sim.apps.gallery_prints import MERCHANTS, Receipt, draw_receipt, receipt_lines
from android_gym.tasks.expert import obstacle
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.media_expert import PHOTOS, SHEET_ROW, in_viewer, photos_state, photos_tab, tap_cell

FOLDERS = ("Download", "Documents", "Pictures")
"""Folders a copy is saved to (each a folder of the Files app's storage)."""


def grid(name: str) -> list[dict[str, Any]]:
    """Every (day 1-9 of June, hour 9-20, minute 10 or 40): the receipt's merchant, the twin's, a folder, a phrasing.

    The twin receipt is photographed the same day two hours away (earlier after 14:00), from another merchant.
    """
    out = []
    for day in range(1, 10):
        for hour in range(9, 21):
            for minute in (10, 40):
                key = f"{day}:{hour}:{minute}"
                pick = stable_seed(name, key)
                m = pick % len(MERCHANTS)
                out.append({"key": key, "day": day, "hour": hour, "minute": minute,
                            "date": gallery_media.stamp(day, hour, minute),
                            "twin_date": gallery_media.stamp(day, hour - 2 if hour > 14 else hour + 2, minute),
                            "when": f"June {day} at {format_time(hour, minute)}",
                            "merchant": MERCHANTS[m], "twin_merchant": MERCHANTS[(m + 1 + pick // 7 % 9) % 10],
                            "folder": FOLDERS[pick // 3 % len(FOLDERS)], "phrasing": pick // 11 % 3,
                            "bought_days": 1 + pick // 5 % 6})
    return out


def receipt_of(params: Params, twin: bool = False) -> Receipt:
    """The instance's receipt (or its twin's): bought `bought_days` days before it was photographed (the twin two
    days earlier still, of another total), its items drawn from the instance's seed."""  # noqa: D205, D209
    date = params["twin_date" if twin else "date"]
    bought = gallery_media.date_parts(date)[0] - datetime.timedelta(days=params["bought_days"] + (2 if twin else 0))
    merchant = params["twin_merchant" if twin else "merchant"]
    salt = 0
    while True:
        rng = np.random.default_rng(stable_seed("picture_receipt", params["key"], twin, salt))
        receipt = draw_receipt(rng, merchant, bought.isoformat())
        if not twin or receipt.total_cents != receipt_of(params).total_cents:
            return receipt
        salt += 1


def photo_name(params: Params, twin: bool = False) -> str:
    """The Pixel file name of the instance's receipt photo (or its twin's)."""
    return gallery_media.file_name(params["twin_date" if twin else "date"], "photo")


def receipts_initial(params: Params) -> dict[str, Any]:
    """Photos' initial conditions: the receipt and its twin photographed on the instance's day (the day's seeded
    photos replaced)."""  # noqa: D205, D209
    items = [{"name": photo_name(params, twin), "kind": "photo", "date": params["twin_date" if twin else "date"],
              "content": receipt_lines(receipt_of(params, twin))} for twin in (False, True)]
    return {"items": items}


def viewed(state: State, name: str) -> bool:
    """Whether Photos' viewer showed item `name` last."""
    return photos_state(state)["last_opened"] == name


def open_item(name: str, date: str, elements: Elements, state: State) -> Action | None:
    """The next step to item `name` (taken at `date`) open in the viewer, from the Photos tab; None once it is."""
    if state["foreground"] == PHOTOS and photos_state(state)["open"] == name:
        return obstacle(elements, state)
    return photos_tab("photos", elements, state) or tap_cell(date, elements, state)


def read_picture(params: Params, elements: Elements, state: State, name: str | None = None,
                 date: str | None = None) -> Action | None:
    """The next step to a picture shown in the viewer (by default the instance's receipt; else item `name` taken at
    `date`); None once it was shown last."""  # noqa: D205, D209
    name, date = name or photo_name(params), date or params["date"]
    return None if viewed(state, name) else open_item(name, date, elements, state)


def copy_step(folder: str, elements: Elements, state: State) -> Action:
    """On the viewer or Copy to folder: More options, Copy to folder, the folder's row, Copy here."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    p = photos_state(state)
    if p["screen"] == "copy":
        return press(elements, text="Copy here") if p["copying"] == folder else press(elements, desc=folder)
    if p["sheet"] == "menu":
        return press(elements, text="Copy to folder", rid=SHEET_ROW)
    return in_viewer(elements, state, desc="More options")


def untouched(state: State) -> bool:
    """Whether Photos changed nothing and saved no copy."""
    p = photos_state(state)
    return not p["changed"] and not p["copies"]


def total_text(receipt: Receipt) -> str:
    """A receipt's total as it prints it ("$16.41")."""
    return gallery_prints.money(receipt.total_cents)
