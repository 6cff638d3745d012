"""Expert steps and checks the Camera and Photos templates share (`media_tasks`, `photos_tasks`,
`media_everyday_tasks`).

Each step function reads the UI elements and the sim's state and returns the next action towards a sub-goal: tap an
element (`press`), shoot in a mode with a camera (`shoot`), open a capture from the Camera's thumbnail
(`open_capture`), reach a Photos tab or a photo (`photos_tab`, `tap_cell`, `open_photo`), act on the viewer
(`in_viewer`, `add_to_album`) and make an album of chosen photos (`new_album`). The checks read the device state only:
the Camera's captures (`captures_are`, `captures`) and Photos' items (`photos_state`, `changed_only`, `item_of`);
`photo_item` builds the Photos item a task adds for a date.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import camera, gallery, gallery_media
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, find, obstacle, swipe_up, tap, type_into, wait
from android_gym.tasks.world.base import Elements, State

CAMERA, PHOTOS = camera.PACKAGE, gallery.PACKAGE
SHEET_ROW = f"{PHOTOS}:id/sheet_row"
TASK_ALBUMS = ("Lisbon trip", "Beach day", "Birthday party", "Road trip", "Wedding", "Graduation", "Camping",
               "Concert night", "Ski weekend", "Picnic", "Museum visit", "Farmers market")
"""Album names tasks ask for (none is a seeded album's name)."""
_TABS = ("photos", "albums", "library")


# -- expert steps ------------------------------------------------------------------------------------------------------
def press(elements: Elements, **criteria: Any) -> Action:
    """Tap the first element matching `criteria` (as `expert.find` takes them); wait a step when none is shown."""
    element = find(elements, **criteria)
    return tap(element) if element is not None else wait()


def shoot(mode: str, facing: str, elements: Elements, state: State) -> Action:
    """The next step towards one capture in `mode` with the `facing` camera: open Camera, allow it, switch camera
    and mode, press the shutter (a second press stops a recording)."""  # noqa: D205, D209
    step = into_app("Camera", CAMERA, elements, state)
    if step is not None:
        return step
    cam = state_of(state, camera.CameraState)
    if cam["permission"] != "granted":
        button = find(elements, text="Allow access") or find(elements, text=camera.ALLOW[0])
        return tap(button) if button is not None else wait()
    if cam["recording"] or (cam["facing"], cam["mode"]) == (facing, mode):
        return press(elements, rid=camera.SHUTTER_RID)
    if cam["facing"] != facing:
        return press(elements, desc=camera.switch_desc(cam["facing"]))
    return press(elements, text=mode, rid=f"{CAMERA}:id/mode_switcher_item")


def open_capture(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to capture `name` open in Photos' viewer, through the Camera's thumbnail; None once open."""
    step = obstacle(elements, state)
    if step is not None or (state["foreground"] == PHOTOS and photos_state(state)["open"] == name):
        return step
    if state["foreground"] == CAMERA:
        return press(elements, rid=camera.THUMBNAIL_RID)
    return back() if state["foreground"] == PHOTOS else into_app("Camera", CAMERA, elements, state)


def photos_tab(tab: str, elements: Elements, state: State) -> Action | None:
    """The next step to Photos' `tab` ("photos", "albums" or "library"); None once it is in front, unobstructed."""
    step = into_app("Photos", PHOTOS, elements, state)
    if step is not None or state["screen"]["name"] == tab:
        return step
    return press(elements, text=tab.title(), clickable=True) if state["screen"]["name"] in _TABS else back()


def tap_cell(date: str, elements: Elements, state: State, checked: bool | None = None) -> Action:
    """Tap a grid cell of a photo taken at `date` (in a picker: one `checked` or not), scrolling towards it first."""
    desc = gallery_media.describe({"kind": "photo", "date": date})
    cell = next((e for e in elements if e.desc == desc and e.rid == gallery.IMAGE_RID
                 and checked in (None, e.checked)), None)
    if cell is not None:
        return tap(cell)
    dates = {gallery_media.describe(it): it["date"] for it in photos_state(state)["items"]}
    shown = [dates[e.desc] for e in elements if e.rid == gallery.IMAGE_RID and e.desc in dates]
    return swipe_down() if shown and max(shown) < date else swipe_up()  # the grid is newest first


def open_photo(date: str, elements: Elements, state: State) -> Action | None:
    """The next step to the photo taken at `date` open in the viewer, from the Photos tab; None once it is open."""
    if state["foreground"] == PHOTOS and photos_state(state)["open"] == gallery_media.file_name(date, "photo"):
        return obstacle(elements, state)
    return photos_tab("photos", elements, state) or tap_cell(date, elements, state)


def in_viewer(elements: Elements, state: State, **button: Any) -> Action:
    """On the viewer: close any open sheet, else tap `button`."""
    return back() if photos_state(state)["sheet"] else press(elements, **button)


def add_to_album(album: str, elements: Elements, state: State) -> Action:
    """On the viewer: More options, Add to album, the album's row."""
    sheet = photos_state(state)["sheet"]
    if sheet in ("menu", "album"):
        return press(elements, text="Add to album" if sheet == "menu" else album, rid=SHEET_ROW)
    return in_viewer(elements, state, desc="More options")


def new_album(album: str, photos: list[tuple[str, str]], elements: Elements, state: State) -> Action:
    """Albums, New album, the title, Select photos, pick exactly `photos` ((name, date) pairs), Add."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    screen = state["screen"] if state["foreground"] == PHOTOS else {"name": None}
    if screen["name"] == "picker":
        selected = screen["args"]["selected"]
        missing = [d for n, d in photos if n not in selected]
        extra = [it["date"] for it in photos_state(state)["items"]
                 if it["name"] in selected and it["name"] not in dict(photos)]
        if missing or extra:
            return tap_cell((missing or extra)[0], elements, state, checked=not missing)
        return press(elements, text="Add")
    if screen["name"] == "new_album":
        if screen["fields"].get(gallery.TITLE_RID) != album or screen["focus"] is not None:
            return type_into(elements, state, gallery.TITLE_RID, album)
        return press(elements, text="Select photos")
    return photos_tab("albums", elements, state) or press(elements, text="New album")


# -- checks ------------------------------------------------------------------------------------------------------------
def photos_state(state: State) -> gallery.PhotosState:
    """Photos' part of the device state."""
    return state_of(state, gallery.PhotosState)


def captures_are(state: State, count: int, kind: str, facing: str, modes: tuple[str, ...]) -> bool:
    """Exactly `count` captures, each a finished `kind` from the `facing` camera in one of `modes`."""
    cam = state_of(state, camera.CameraState)
    shots = cam["captures"]
    return (len(shots) == count and not cam["recording"]
            and all(c["kind"] == kind and c["facing"] == facing and c["mode"] in modes for c in shots))


def changed_only(state: State, names: list[str]) -> bool:
    """Photos' changed items are exactly `names`."""
    return photos_state(state)["changed"] == sorted(names)


def item_of(state: State, name: str) -> gallery_media.MediaItem | None:
    """Photos' item `name` (trashed or not), or None once it is deleted for good (or was never there)."""
    return next((it for it in photos_state(state)["items"] if it["name"] == name), None)


def captures(state: State) -> list[camera.Capture]:
    """The Camera's captures this episode (oldest first)."""
    return state_of(state, camera.CameraState)["captures"]


def photo_item(date: str, **fields: Any) -> gallery_media.MediaItem:
    """The Photos item of a photo taken at `date` (named by `gallery_media.file_name`), with `fields` set."""
    return gallery_media.item(gallery_media.file_name(date, "photo"), "photo", date, **fields)
