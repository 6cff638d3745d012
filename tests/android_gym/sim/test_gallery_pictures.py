"""Tests of Photos' readable pictures and Copy to folder: seeded receipts, content in the pixels only, the copy page
driven by taps, BACK, and the initial conditions' refusals."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, files_data
from android_gym.sim.apps.files import PACKAGE as FILES
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.apps.gallery import IMAGE_RID
from android_gym.sim.apps.gallery import PACKAGE as PHOTOS
from android_gym.sim.apps.gallery_media import describe
from android_gym.sim.apps.gallery_prints import Receipt, receipt_lines
from android_gym.tasks.expert import find

RECEIPT = receipt_lines(Receipt("Corner Bakery", "2026-06-03", (("Latte", 450), ("Sandwich", 725))))
OTHER = receipt_lines(Receipt("Maple Books", "2026-06-03", (("Notebook", 520),)))
DATE = "2026-06-03 12:30"


def make_device(content: list[str] = RECEIPT, seed: int = 0) -> SimDevice:
    """A phone without perturbations holding receipt.png (taken on June 3 at 12:30) with `content`."""
    device = SimDevice("none")
    device.reset(seed, {PHOTOS: {"items": [{"name": "receipt.png", "kind": "photo", "date": DATE,
                                            "content": content}]}})
    return device


def press(device: SimDevice, **criteria: object) -> None:
    """Tap the first element matching `criteria`; fail if none."""
    element = find(device.ui_elements(), **criteria)
    assert element is not None, f"no element {criteria} on {device.phone.top.name}"
    device.phone.tap(*element.center)


def photos(device: SimDevice) -> dict:
    """The Photos app's state."""
    return device.state()["apps"][PHOTOS]


def open_receipt(device: SimDevice) -> None:
    """Launch Photos and open receipt.png from the grid (scrolling down to June 3)."""
    device.phone.launch("Photos")
    desc = describe({"kind": "photo", "date": DATE})
    for _ in range(8):
        if find(device.ui_elements(), desc=desc, rid=IMAGE_RID) is not None:
            break
        device.phone.swipe(540, 1800, 540, 700)
    press(device, desc=desc, rid=IMAGE_RID)


def test_a_fresh_phone_holds_receipts_and_a_recipe_card_fixed_by_its_seed() -> None:
    """Three seeded photos carry content (two receipts with a total, a recipe card); the same seed, the same ones."""
    device = SimDevice("none")
    device.reset(4)
    readable = [it for it in photos(device)["items"] if it["content"]]
    assert len(readable) == 3 and all(it["kind"] == "photo" for it in readable)
    assert sum(any(line.startswith("TOTAL") for line in it["content"]) for it in readable) == 2
    device.reset(4)
    assert [it for it in photos(device)["items"] if it["content"]] == readable


def test_open_picture_shows_its_lines_in_the_pixels_but_not_in_the_tree() -> None:
    """The viewer's image differs between two receipts while no element or XML node carries a line of either."""
    shots = []
    for content in (RECEIPT, OTHER):
        device = make_device(content)
        open_receipt(device)
        assert photos(device)["open"] == "receipt.png" and photos(device)["last_opened"] == "receipt.png"
        text = " ".join(e.label for e in device.ui_elements()) + device.ui_xml()
        assert not any(line in text for line in content)
        shots.append(device.screenshot(224).astype(int))
    rows = slice(int(224 * 2400 / 1080 * 0.25), int(224 * 2400 / 1080 * 0.6))  # the picture's upper half
    assert np.abs(shots[0][rows] - shots[1][rows]).sum() > 0


def test_copy_to_folder_saves_a_copy_in_the_files_storage() -> None:
    """More options, Copy to folder, Download, Copy here: Files holds Download/receipt.png, Photos logs the copy;
    a second copy there is named as Files names a taken name."""  # noqa: D205, D209
    device = make_device()
    open_receipt(device)
    for _ in range(2):
        press(device, desc="More options")
        press(device, text="Copy to folder")
        assert photos(device)["screen"] == "copy" and photos(device)["copying"] is None
        press(device, text="Copy here")  # disabled before a folder is chosen
        assert photos(device)["screen"] == "copy"
        press(device, desc="Download")
        assert photos(device)["copying"] == "Download"
        press(device, text="Copy here")
        assert photos(device)["screen"] == "photo"
    paths = [f["path"] for f in device.state()["apps"][FILES]["files"]]
    assert {"Download/receipt.png", "Download/receipt (1).png"} <= set(paths)
    assert photos(device)["copies"] == [{"item": "receipt.png", "path": "Download/receipt.png"},
                                        {"item": "receipt.png", "path": "Download/receipt (1).png"}]
    assert photos(device)["changed"] == []


def test_back_from_copy_to_folder_copies_nothing() -> None:
    """BACK on Copy to folder, a folder chosen, returns to the viewer and saves nothing."""
    device = make_device()
    open_receipt(device)
    press(device, desc="More options")
    press(device, text="Copy to folder")
    press(device, desc="DCIM")
    press(device, desc="DCIM")  # a second tap unchooses
    assert photos(device)["copying"] is None
    device.phone.key("back")
    assert photos(device)["screen"] == "photo" and photos(device)["copies"] == []
    assert "Download/receipt.png" not in {f["path"] for f in device.state()["apps"][FILES]["files"]}


@pytest.mark.parametrize(("content", "field"), [(["one", "two\nlines"], "content"), ([], "date")])
def test_a_bad_picture_is_refused_naming_the_field(content: list[str], field: str) -> None:
    """A line with a line break, or a date that does not read "2026-06-09 14:05", fails naming the field."""
    device = SimDevice("none")
    date = DATE if field == "content" else "June 3"
    with pytest.raises(ConfigError, match=field):
        device.reset(0, {PHOTOS: {"items": [{"name": "a.png", "kind": "photo", "date": date, "content": content}]}})


def test_folders_listed_are_the_files_apps() -> None:
    """Copy to folder lists the storage's folders, a folder a task adds to Files among them."""
    device = SimDevice("none")
    device.reset(0, {FILES: {"folders": ["Download/Receipts"]},
                     PHOTOS: {"items": [{"name": "receipt.png", "kind": "photo", "date": DATE}]}})
    open_receipt(device)
    press(device, desc="More options")
    press(device, text="Copy to folder")
    shown = {e.desc for e in device.ui_elements() if e.desc}
    assert {*files_data.FOLDERS[:4], "Download/Receipts"} <= shown


def test_simple_gallery_names_open_photos_and_a_phone_without_files_still_logs_the_copy() -> None:
    """AndroidWorld's gallery names open Photos; without the Files app the copy is logged, its folders the defaults."""
    device = SimDevice("none", apps=tuple(app for app in DEFAULT_APPS if app is not FilesApp))
    device.reset(0, {PHOTOS: {"items": [{"name": "receipt.png", "kind": "photo", "date": DATE}]}})
    assert device.phone.find_app("Simple Gallery Pro").package == PHOTOS
    open_receipt(device)
    press(device, desc="More options")
    press(device, text="Copy to folder")
    press(device, desc="Download")
    press(device, text="Copy here")
    assert photos(device)["copies"] == [{"item": "receipt.png", "path": "Download/receipt.png"}]
