"""Tests of the Camera and Photos apps: screens, state transitions, back behaviour, seeded data, XML and pixels."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps.camera import PACKAGE as CAMERA
from android_gym.sim.apps.camera import SHUTTER_RID, THUMBNAIL_RID, CameraApp
from android_gym.sim.apps.gallery import IMAGE_RID, TITLE_RID, GalleryApp
from android_gym.sim.apps.gallery import PACKAGE as PHOTOS
from android_gym.sim.apps.gallery_media import describe, stamp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.render.theme import LIGHT
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(CameraApp, GalleryApp)
ALLOWED = {"permission": "granted", "mode": "Photo", "facing": "back"}


def make_phone(seed: int = 3, initial: dict | None = None, apps: tuple = APPS) -> SimPhone:
    """A reset phone with both apps and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=apps)
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def cam(phone: SimPhone) -> dict:
    """The Camera's state."""
    return phone.state()["apps"][CAMERA]


def photos(phone: SimPhone) -> dict:
    """The Photos app's state."""
    return phone.state()["apps"][PHOTOS]


def camera_phone(**settings: str) -> SimPhone:
    """A phone with the Camera open, granted, in Photo mode on the back camera (unless `settings` say otherwise)."""
    phone = make_phone(initial={CAMERA: {**ALLOWED, **settings}})
    phone.launch("Camera")
    return phone


# -- Camera ------------------------------------------------------------------------------------------------------------
def test_camera_prompt_blocks_the_shutter_until_allowed_and_back_denies() -> None:
    """A pending permission shows the system prompt; Deny shows a notice that asks again; BACK on the prompt denies."""
    phone = camera_phone(permission="ask")
    assert "Allow Camera to take pictures and record video?" in labels(phone)
    shutter = phone.tree().find(lambda v: v.rid == SHUTTER_RID)  # drawn under the prompt, not listed: covered
    assert find(phone.elements(), rid=SHUTTER_RID) is None and not shutter.enabled
    assert not phone.tap(*shutter.center) and cam(phone)["captures"] == []
    press(phone, text="Deny")
    assert cam(phone)["permission"] == "denied" and "Allow access" in labels(phone)
    press(phone, text="Allow access")
    assert cam(phone)["permission"] == "ask"
    assert phone.key("back") and cam(phone)["permission"] == "denied" and phone.foreground == CAMERA
    press(phone, text="Allow access")
    press(phone, text="While using the app")
    assert cam(phone)["permission"] == "granted" and find(phone.elements(), rid=SHUTTER_RID).enabled


def test_camera_photos_record_mode_and_facing_and_reach_photos() -> None:
    """A back photo, then a front Portrait photo: two captures with distinct names, newest first in Photos."""
    phone = camera_phone()
    press(phone, desc="Take photo")
    press(phone, desc="Switch to front camera")
    assert cam(phone)["facing"] == "front" and "Switch to back camera" in labels(phone)
    press(phone, text="Portrait")
    assert find(phone.elements(), text="Portrait").selected
    press(phone, desc="Take photo")
    shots = cam(phone)["captures"]
    assert [(c["kind"], c["facing"], c["mode"]) for c in shots] == [("photo", "back", "Photo"),
                                                                     ("photo", "front", "Portrait")]
    assert shots[0]["name"] != shots[1]["name"] and shots[1]["name"].endswith(".PORTRAIT.jpg")
    assert shots[0]["date"] == stamp(10, 9, 41)  # the phone's clock on the simulated today
    items = photos(phone)["items"]
    assert [it["name"] for it in items[:2]] == [shots[1]["name"], shots[0]["name"]]
    assert photos(phone)["changed"] == sorted(c["name"] for c in shots)


def test_camera_video_records_until_stopped_and_back_or_home_saves_it() -> None:
    """Start recording hides the mode switcher and counts steps; Stop saves a video; BACK or HOME mid-recording too."""
    phone = camera_phone(facing="front")
    press(phone, text="Video")
    press(phone, desc="Start recording")
    assert cam(phone)["recording"] and "Photo" not in labels(phone) and cam(phone)["captures"] == []
    phone.tick()
    phone.tick()
    assert find(phone.elements(), desc="Recording").text == "00:02"
    press(phone, desc="Stop recording")
    assert not cam(phone)["recording"]
    assert [(c["kind"], c["facing"], c["mode"]) for c in cam(phone)["captures"]] == [("video", "front", "Video")]
    assert cam(phone)["captures"][0]["name"].endswith(".mp4")
    press(phone, desc="Start recording")
    assert phone.key("back") and phone.foreground != CAMERA and len(cam(phone)["captures"]) == 2
    phone.launch("Camera")
    press(phone, desc="Start recording")
    phone.key("home")
    assert cam(phone)["recording"]
    phone.tick()  # the app notices it is in the background
    assert not cam(phone)["recording"] and len(cam(phone)["captures"]) == 3


def test_camera_thumbnail_opens_the_capture_in_photos_and_back_returns() -> None:
    """No thumbnail before a capture; after one it opens that capture in Photos' viewer; BACK comes back."""
    phone = camera_phone()
    assert find(phone.elements(), rid=THUMBNAIL_RID) is None
    press(phone, desc="Take photo")
    press(phone, rid=THUMBNAIL_RID)
    assert phone.foreground == PHOTOS and photos(phone)["open"] == cam(phone)["captures"][0]["name"]
    assert not cam(phone)["open"]
    press(phone, desc="Navigate up")
    assert phone.foreground == CAMERA and phone.top.name == "viewfinder"


def test_camera_works_without_the_photos_app() -> None:
    """Without a Photos app, captures are kept by the Camera and the thumbnail does nothing."""
    phone = make_phone(initial={CAMERA: ALLOWED}, apps=tuple(a for a in DEFAULT_APPS if a.package != PHOTOS))
    phone.launch("Camera")
    press(phone, desc="Take photo")
    assert len(cam(phone)["captures"]) == 1
    assert not press(phone, rid=THUMBNAIL_RID) and phone.foreground == CAMERA


def test_camera_flash_cycles_and_apply_refuses_unknown_keys() -> None:
    """The flash button cycles off, auto, on; `apply` takes only known keys and values."""
    phone = camera_phone()
    start = cam(phone)["flash"]
    press(phone, desc=f"Flash {start}")
    press(phone, desc=f"Flash {cam(phone)['flash']}")
    press(phone, desc=f"Flash {cam(phone)['flash']}")
    assert cam(phone)["flash"] == start
    for bad in ({"zoom": 2}, {"mode": "Night Sight"}, {"facing": "side"}):
        with pytest.raises(ConfigError):
            make_phone(initial={CAMERA: bad})


# -- Photos ------------------------------------------------------------------------------------------------------------
def test_photos_grid_is_newest_first_under_day_headers_without_trash() -> None:
    """The grid lists the untrashed items newest first, each described like Google Photos, under day headers."""
    phone = make_phone()
    phone.launch("Photos")
    state = photos(phone)
    shown = [it for it in state["items"] if not it["trashed"]]
    assert [it["date"] for it in state["items"]] == sorted((it["date"] for it in state["items"]), reverse=True)
    cells = [e.desc for e in phone.elements() if e.rid == IMAGE_RID]
    assert cells == [describe(it) for it in shown[:len(cells)]] and len(cells) >= 8
    assert cells[0].startswith(("Photo taken on Jun 10, 2026 ", "Video taken on Jun 10, 2026 "))
    assert labels(phone).index("Today") < labels(phone).index(cells[0]) < labels(phone).index("Yesterday")
    assert not {describe(it) for it in state["items"] if it["trashed"]} & set(cells)
    while phone.swipe(540, 1700, 540, 800):
        pass
    last = [e.desc for e in phone.elements() if e.rid == IMAGE_RID][-1]
    assert last == describe(shown[-1])


def test_photos_viewer_favourite_share_info_and_trash_with_confirmation() -> None:
    """The star toggles; Share and Info sheets; Delete asks "Move to trash?", Cancel keeps, confirming trashes."""
    phone = make_phone()
    phone.launch("Photos")
    first = next(it for it in photos(phone)["items"] if not it["trashed"])
    press(phone, desc=describe(first), rid=IMAGE_RID)
    assert photos(phone)["open"] == first["name"] and photos(phone)["screen"] == "photo"
    star = "Remove from favorites" if first["favourite"] else "Add to favorites"
    press(phone, desc=star)
    assert photos(phone)["items"][0]["favourite"] is not first["favourite"]
    assert photos(phone)["changed"] == [first["name"]]
    press(phone, text="Share")
    press(phone, text="Messages")
    assert photos(phone)["shared"] == [{"item": first["name"], "target": "Messages"}]
    press(phone, text="Info")
    assert first["name"] in labels(phone) and photos(phone)["sheet"] == "info"
    assert phone.key("back") and photos(phone)["sheet"] is None and photos(phone)["open"] == first["name"]
    press(phone, text="Delete")
    assert "Move to trash?" in labels(phone)
    press(phone, text="Cancel")
    assert not photos(phone)["items"][0]["trashed"]
    press(phone, text="Delete")
    press(phone, text="Move to trash")
    assert photos(phone)["items"][0]["trashed"] and photos(phone)["screen"] == "photos"
    assert describe(first) not in [e.desc for e in phone.elements()]


def test_photos_trash_restores_and_deletes_forever() -> None:
    """Library > Trash lists trashed items; Restore brings one back; Delete forever removes it after a confirm."""
    phone = make_phone()
    phone.launch("Photos")
    press(phone, text="Library")
    press(phone, text="Trash")
    trashed = [it for it in photos(phone)["items"] if it["trashed"]]
    assert len(trashed) == 2 and [e.desc for e in phone.elements() if e.rid == IMAGE_RID] == [
        describe(it) for it in trashed]
    press(phone, desc=describe(trashed[0]), rid=IMAGE_RID)
    assert "Add to favorites" not in labels(phone) and "Remove from favorites" not in labels(phone)
    press(phone, text="Restore")
    assert photos(phone)["screen"] == "trash" and photos(phone)["changed"] == [trashed[0]["name"]]
    press(phone, desc=describe(trashed[1]), rid=IMAGE_RID)
    press(phone, text="Delete")
    assert "Delete forever?" in labels(phone)
    press(phone, text="Delete", rid="android:id/button1")
    names = [it["name"] for it in photos(phone)["items"]]
    assert trashed[1]["name"] not in names and "Trash is empty" in labels(phone)
    assert photos(phone)["changed"] == sorted(it["name"] for it in trashed)


def test_photos_new_album_takes_a_title_and_picked_photos() -> None:
    """Albums > New album: type a title, Select photos, pick two (a second tap unpicks), Add shows the album."""
    phone = make_phone()
    phone.launch("Photos")
    press(phone, text="Albums")
    press(phone, text="New album")
    press(phone, rid=TITLE_RID)
    assert phone.keyboard_up
    phone.type_text("Beach day")
    phone.key("enter")
    press(phone, text="Select photos")
    assert not find(phone.elements(), text="Add").enabled
    cells = [e for e in phone.elements() if e.rid == IMAGE_RID][:3]
    for cell in (*cells, cells[2]):
        phone.tap(*cell.center)
    assert find(phone.elements(), desc=cells[0].desc, rid=IMAGE_RID).checked and "2 selected" in labels(phone)
    press(phone, text="Add")
    state = photos(phone)
    assert state["screen"] == "album" and state["album"] == "Beach day"
    album = next(a for a in state["albums"] if a["name"] == "Beach day")
    assert [describe(next(it for it in state["items"] if it["name"] == n)) for n in album["items"]] == [
        c.desc for c in cells[:2]]
    assert phone.key("back") and photos(phone)["screen"] == "albums" and "Beach day" in labels(phone)


def test_photos_adds_to_an_album_from_the_viewer_and_from_the_album() -> None:
    """More options > Add to album files the open photo; an album's Add photos files picked ones."""
    phone = make_phone(initial={PHOTOS: {"albums": ["Picnic"]}})
    phone.launch("Photos")
    first, second = [it for it in photos(phone)["items"] if not it["trashed"]][:2]
    press(phone, desc=describe(first), rid=IMAGE_RID)
    press(phone, desc="More options")
    press(phone, text="Add to album")
    press(phone, text="Picnic")
    assert photos(phone)["items"][0]["albums"][-1] == "Picnic" and photos(phone)["sheet"] is None
    phone.key("back")
    press(phone, text="Albums")
    press(phone, text="Picnic")
    assert photos(phone)["album"] == "Picnic" and [e.desc for e in phone.elements() if e.rid == IMAGE_RID] == [
        describe(first)]
    press(phone, desc="Add photos")
    press(phone, desc=describe(second), rid=IMAGE_RID)
    press(phone, text="Add")
    picnic = next(a for a in photos(phone)["albums"] if a["name"] == "Picnic")
    assert picnic["items"] == [first["name"], second["name"]] and photos(phone)["screen"] == "album"


def test_photos_back_returns_to_the_photos_tab_and_keeps_the_grid_scrolled() -> None:
    """BACK from Albums or Library goes to the Photos tab; from the viewer, to the grid where it was."""
    phone = make_phone()
    phone.launch("Photos")
    for tab in ("Albums", "Library"):
        press(phone, text=tab)
        assert phone.key("back") and photos(phone)["screen"] == "photos" and phone.foreground == PHOTOS
    phone.swipe(540, 1700, 540, 900)
    scroll = phone.top.scroll
    press(phone, rid=IMAGE_RID)
    assert phone.key("back") and phone.top.scroll == scroll > 0
    assert phone.key("back") and phone.foreground != PHOTOS


def test_photos_apply_replaces_the_days_it_names_and_refuses_bad_input() -> None:
    """Given items replace that day's seeded ones and create their albums; bad keys, kinds and dates raise."""
    given = {"name": "PXL_20260604_101000000.jpg", "kind": "photo", "date": stamp(4, 10, 10), "albums": ["Camping"]}
    phone = make_phone(initial={PHOTOS: {"items": [given]}})
    state = photos(phone)
    assert [it["name"] for it in state["items"] if it["date"].startswith("2026-06-04")] == [given["name"]]
    assert {"name": "Camping", "items": [given["name"]]} in state["albums"] and state["changed"] == []
    for bad in ({"videos": []}, {"items": [{**given, "kind": "gif"}]}, {"items": [{**given, "date": "June 4"}]},
                {"items": [{**given, "colour": "red"}]}, {"items": [given, given]}):
        with pytest.raises(ConfigError):
            make_phone(initial={PHOTOS: bad})


# -- both apps ---------------------------------------------------------------------------------------------------------
def test_initial_data_is_seeded_per_episode() -> None:
    """Same seed, same media, albums and camera start; another seed, other ones."""
    a, b, c = make_phone(5), make_phone(5), make_phone(6)
    for package in (CAMERA, PHOTOS):
        assert a.state()["apps"][package] == b.state()["apps"][package]
    assert a.state()["apps"][PHOTOS]["items"] != c.state()["apps"][PHOTOS]["items"]
    starts = {tuple(make_phone(s).state()["apps"][CAMERA][k] for k in ("permission", "mode", "facing"))
              for s in range(12)}
    assert len(starts) > 3


def test_apps_leave_the_episode_rng_alone() -> None:
    """A phone with both apps draws the same episode randomness as one with the default apps, even after building."""
    mine, bare = make_phone(9), make_phone(9, apps=DEFAULT_APPS)
    mine.launch("Camera")
    mine.tree()
    mine.launch("Photos")
    mine.tree()
    mine.state()
    # the generator's whole state: a bounded integer draw uses half a word and keeps the rest buffered, so one
    # extra draw can leave the next random() equal
    assert mine.rng.bit_generator.state == bare.rng.bit_generator.state
    assert mine.rng.random() == bare.rng.random()


@pytest.mark.parametrize("app", ["Camera", "Photos"])
def test_xml_lists_what_the_screens_show(app: str) -> None:
    """The uiautomator dump parses and lists the shutter and mode switcher, or the tabs and photo cells."""
    phone = make_phone(initial={CAMERA: ALLOWED})
    phone.launch(app)
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.label, e.rid, e.bounds) for e in parsed] == [(e.label, e.rid, e.bounds) for e in phone.elements()]
    wanted = {"Take photo", "Portrait", "Photo", "Video"} if app == "Camera" else {"Photos", "Albums", "Library"}
    assert wanted <= {e.label for e in parsed}
    if app == "Photos":
        assert sum(e.rid == IMAGE_RID for e in parsed) >= 8


@pytest.mark.parametrize("app, rid", [("Camera", SHUTTER_RID), ("Photos", IMAGE_RID)])
def test_screens_are_drawn_where_views_are(app: str, rid: str) -> None:
    """A screenshot is not blank where the shutter or the first photo cell is, and differs from the launcher."""
    device = SimDevice("none", apps=APPS)
    device.reset(3, {CAMERA: ALLOWED})
    home = device.screenshot(270).copy()
    device.phone.launch(app)
    target = find(device.ui_elements(), rid=rid)
    shot = device.screenshot(270)
    s = 270 / device.phone.width
    x0, y0, x1, y1 = (round(v * s) for v in target.bounds)
    patch = shot[y0:y1, x0:x1]
    assert (patch != np.array(LIGHT.bg)).any() and patch.std() > 5 and not np.array_equal(shot, home)
