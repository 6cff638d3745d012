"""World-suite tasks over the Camera and Photos apps (issue 17): shoot photos, selfies and videos; favourite, trash,
restore and show photos; file them into albums; and three tasks that span both apps (shoot, then favourite or file
the captures in Photos).

Initial conditions. Camera tasks start the camera in a mode and facing drawn from the instance (mostly facing away
from the asked camera) and sometimes with the permission prompt pending. Photos tasks add the photos they name with
fixed dates (replacing the seeded photos of that day) plus near misses: another photo the same day at another time,
an album whose name extends the asked one ("Beach day 2025"). Names of the added photos are a function of their date
and kind (`gallery.file_name`), so checks and experts know them from the parameters alone.

Checks read the device state only. Photos' `changed` (every item added, deleted, or whose favourite, trash or albums
differ from the start) must be exactly the asked items, so a near miss or an extra edit fails; camera tasks want
exactly the asked captures. Splits: camera tasks on (template, key, variant); Photos tasks on the day and time.

`EVERYDAY` holds templates outside the suite for the goal parser's everyday lines (issue 49): open the newest photo,
share it with a contact (`latest` gives their parameters).
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import camera, gallery
from android_gym.sim.apps.clock import format_time
from android_gym.sim.apps.people import CONTACTS_PACKAGE as CONTACTS
from android_gym.sim.apps.people import namesakes
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import app_state, back, fill, find, obstacle, swipe_up, tap, type_into, wait
from android_gym.tasks.world.messaging_expert import names, person
from android_gym.ui import UIElement

State = Mapping[str, Any]
Params = Mapping[str, Any]
Elements = Sequence[UIElement]
CAMERA, PHOTOS = camera.PACKAGE, gallery.PACKAGE
SHEET_ROW = f"{PHOTOS}:id/sheet_row"
TASK_ALBUMS = ("Lisbon trip", "Beach day", "Birthday party", "Road trip", "Wedding", "Graduation", "Camping",
               "Concert night", "Ski weekend", "Picnic", "Museum visit", "Farmers market")
"""Album names tasks ask for (none is a seeded album's name)."""
VARIANTS = 12
_COUNTS = ("a photo", "two photos", "three photos")
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
    cam = app_state(state, CAMERA)
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
    if step is not None or (state["foreground"] == PHOTOS and app_state(state, PHOTOS).get("open") == name):
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
    desc = gallery.describe({"kind": "photo", "date": date})
    cell = next((e for e in elements if e.desc == desc and e.rid == gallery.IMAGE_RID
                 and checked in (None, e.checked)), None)
    if cell is not None:
        return tap(cell)
    dates = {gallery.describe(it): it["date"] for it in app_state(state, PHOTOS)["items"]}
    shown = [dates[e.desc] for e in elements if e.rid == gallery.IMAGE_RID and e.desc in dates]
    return swipe_down() if shown and max(shown) < date else swipe_up()  # the grid is newest first


def open_photo(date: str, elements: Elements, state: State) -> Action | None:
    """The next step to the photo taken at `date` open in the viewer, from the Photos tab; None once it is open."""
    if state["foreground"] == PHOTOS and app_state(state, PHOTOS).get("open") == gallery.file_name(date, "photo"):
        return obstacle(elements, state)
    return photos_tab("photos", elements, state) or tap_cell(date, elements, state)


def in_viewer(elements: Elements, state: State, **button: Any) -> Action:
    """On the viewer: close any open sheet, else tap `button`."""
    return back() if app_state(state, PHOTOS).get("sheet") else press(elements, **button)


def add_to_album(album: str, elements: Elements, state: State) -> Action:
    """On the viewer: More options, Add to album, the album's row."""
    sheet = app_state(state, PHOTOS).get("sheet")
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
        extra = [it["date"] for it in app_state(state, PHOTOS)["items"]
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
def captures_are(state: State, count: int, kind: str, facing: str, modes: tuple[str, ...]) -> bool:
    """Exactly `count` captures, each a finished `kind` from the `facing` camera in one of `modes`."""
    cam = app_state(state, CAMERA)
    shots = cam.get("captures", [])
    return (len(shots) == count and not cam.get("recording")
            and all(c["kind"] == kind and c["facing"] == facing and c["mode"] in modes for c in shots))


def changed_only(state: State, names: list[str]) -> bool:
    """Photos' changed items are exactly `names`."""
    return app_state(state, PHOTOS).get("changed") == sorted(names)


def item_of(state: State, name: str) -> dict[str, Any]:
    """Photos' item `name` ({} once deleted for good)."""
    return next((it for it in app_state(state, PHOTOS).get("items", []) if it["name"] == name), {})


def _shots(state: State) -> list[dict[str, Any]]:
    return app_state(state, CAMERA).get("captures", [])


def _photo(date: str, **fields: Any) -> dict[str, Any]:
    return gallery.item(gallery.file_name(date, "photo"), "photo", date, **fields)


# -- Camera ------------------------------------------------------------------------------------------------------------
class CameraTemplate(TaskTemplate):
    """Shared parts of the tasks that start in the Camera: instances (key, variant), a drawn camera start, phrasings.

    Subclasses set `key_name` and `keys` (the instance's key parameter and its values), `phrasings` (formatted with
    the parameters), `facing` (the camera the task wants) and `mode` (the mode its expert shoots in).
    """

    suite = "world"
    key_name: str
    keys: tuple
    phrasings: tuple[str, ...]
    facing, mode = "back", "Photo"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (key, variant) of the split."""
        return [{self.key_name: k, "variant": v} for k in self.keys for v in range(VARIANTS)
                if split_of(f"{self.name}:{k}:{v}") == split]

    def goal(self, params: Params) -> str:
        """The instruction, phrased by the variant."""
        return self.phrasings[params["variant"] % len(self.phrasings)].format(**params)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The camera's mode, facing (away from the asked camera in two variants of three) and permission."""
        rng = np.random.default_rng(stable_seed(self.name, params["variant"]))
        facing = params.get("facing", self.facing)
        away = "front" if facing == "back" else "back"
        mode, asks, either = camera.MODES[int(rng.integers(3))], rng.random() < 0.4, camera.FACINGS[rng.integers(2)]
        return {CAMERA: {"mode": mode, "permission": "ask" if asks else "granted",
                         "facing": away if params["variant"] % 3 else either}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot in `mode` with the asked camera (until the check holds)."""
        return shoot(self.mode, params.get("facing", self.facing), elements, state)


class TakePhotoTemplate(CameraTemplate):
    """Take {a photo | two photos | three photos} with the back camera (Photo or Portrait mode)."""

    name, max_steps = "take_photo", 13
    apps = (CAMERA,)
    key_name, keys = "count", (1, 2, 3)
    phrasings = ("Take {n}", "Snap {n} with the back camera", "Use the camera to take {n}", "Open the camera and "
                 "take {n}")

    def goal(self, params: Params) -> str:
        """The instruction with the number of photos."""
        return self.phrasings[params["variant"] % 4].format(n=_COUNTS[params["count"] - 1])

    def check(self, params: Params, state: State) -> bool:
        """Exactly `count` photos from the back camera."""
        return captures_are(state, params["count"], "photo", "back", ("Photo", "Portrait"))


class TakeSelfieTemplate(CameraTemplate):
    """Take a selfie (front camera), in Portrait mode when asked."""

    name, max_steps = "take_selfie", 10
    apps = (CAMERA,)
    key_name, keys = "portrait", (False, True)
    phrasings = ("Take a selfie", "Take a picture of myself with the front camera", "Snap a selfie")
    facing = "front"

    def goal(self, params: Params) -> str:
        """The instruction; a portrait selfie names the mode."""
        if params["portrait"]:
            return ("Take a portrait selfie", "Take a selfie in Portrait mode")[params["variant"] % 2]
        return super().goal(params)

    def check(self, params: Params, state: State) -> bool:
        """Exactly one photo from the front camera (in Portrait mode when asked)."""
        return captures_are(state, 1, "photo", "front", ("Portrait",) if params["portrait"] else ("Photo", "Portrait"))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Switch to the front camera (and Portrait when asked), then shoot."""
        return shoot("Portrait" if params["portrait"] else "Photo", "front", elements, state)


class RecordVideoTemplate(CameraTemplate):
    """Record a video with the {back | front} camera: one finished video from that camera."""

    name, max_steps = "record_video", 13
    apps = (CAMERA,)
    key_name, keys = "facing", ("back", "front")
    phrasings = ("Record a video with the {facing} camera", "Use the {facing} camera to film a short video",
                 "Start and stop a video recording on the {facing} camera")
    mode = "Video"

    def goal(self, params: Params) -> str:
        """The instruction; a front-camera video is sometimes a "selfie video"."""
        if params["facing"] == "front" and params["variant"] % 4 == 3:
            return "Record a selfie video"
        return super().goal(params)

    def check(self, params: Params, state: State) -> bool:
        """Exactly one video, recorded and stopped, from the asked camera."""
        return captures_are(state, 1, "video", params["facing"], ("Video",))


# -- Camera then Photos ------------------------------------------------------------------------------------------------
class PhotoToFavoritesTemplate(CameraTemplate):
    """Take a photo and add it to favourites: one back-camera photo, starred in Photos, nothing else changed."""

    name, max_steps = "photo_to_favorites", 12
    apps = (CAMERA, PHOTOS,)
    key_name, keys = "phrasing", (0, 1, 2, 3)
    phrasings = ("Take a photo and add it to my favorites", "Snap a picture, then mark it as a favorite in Photos",
                 "Take a photo with the camera and favourite it", "Take a picture and star it in Google Photos")

    def goal(self, params: Params) -> str:
        """The instruction, by phrasing."""
        return self.phrasings[params["phrasing"]]

    def check(self, params: Params, state: State) -> bool:
        """One back-camera photo, a favourite in Photos, the only item changed."""
        if not captures_are(state, 1, "photo", "back", ("Photo", "Portrait")):
            return False
        it = item_of(state, _shots(state)[0]["name"])
        return bool(it.get("favourite") and not it["trashed"] and changed_only(state, [it["name"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot, open the capture from the thumbnail, tap the star."""
        if not _shots(state):
            return super().expert(params, elements, state)
        return (open_capture(_shots(state)[0]["name"], elements, state)
                or in_viewer(elements, state, desc="Add to favorites"))


class SelfieToAlbumTemplate(CameraTemplate):
    """Take a selfie and add it to the {album} album (which exists, next to a similarly named one)."""

    name, max_steps = "selfie_to_album", 17
    apps = (CAMERA, PHOTOS,)
    key_name, keys = "album", TASK_ALBUMS
    phrasings = ("Take a selfie and add it to the {album} album", "Snap a selfie, then put it in my {album} album",
                 "Take a picture of myself with the front camera and add it to the album {album}")
    facing = "front"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The camera's start, and the album with a near-miss namesake in Photos."""
        return {**super().initial(params), PHOTOS: {"albums": [params["album"], f"{params['album']} 2025"]}}

    def check(self, params: Params, state: State) -> bool:
        """One front-camera photo, in that album only, the only item changed."""
        if not captures_are(state, 1, "photo", "front", ("Photo", "Portrait")):
            return False
        it = item_of(state, _shots(state)[0]["name"])
        return bool(it.get("albums") == [params["album"]] and not it["trashed"] and changed_only(state, [it["name"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot a selfie, open it from the thumbnail, More options, Add to album, the album."""
        if not _shots(state):
            return super().expert(params, elements, state)
        return (open_capture(_shots(state)[0]["name"], elements, state)
                or add_to_album(params["album"], elements, state))


class PhotosToNewAlbumTemplate(CameraTemplate):
    """Take two photos and put them in a new album called {album} (a similarly named album exists)."""

    name, max_steps = "photos_to_new_album", 27
    apps = (CAMERA, PHOTOS,)
    key_name, keys = "album", TASK_ALBUMS
    phrasings = ("Take two photos and put them in a new album called {album}",
                 "Snap two pictures, then create an album named {album} with them",
                 "Use the camera to take 2 photos and make a {album} album out of them in Google Photos")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The camera's start, and the near-miss album in Photos."""
        return {**super().initial(params), PHOTOS: {"albums": [f"{params['album']} 2025"]}}

    def check(self, params: Params, state: State) -> bool:
        """Two back-camera photos, exactly them in the new album, only they changed."""
        names = sorted(c["name"] for c in _shots(state))
        album = next((a for a in app_state(state, PHOTOS).get("albums", []) if a["name"] == params["album"]), {})
        return (captures_are(state, 2, "photo", "back", ("Photo", "Portrait"))
                and sorted(album.get("items", ())) == names and changed_only(state, names))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot twice, then in Photos: Albums, New album, title, Select photos, both captures, Add."""
        if len(_shots(state)) < 2:
            return super().expert(params, elements, state)
        return new_album(params["album"], [(c["name"], c["date"]) for c in _shots(state)], elements, state)


# -- Photos ------------------------------------------------------------------------------------------------------------
class DatedPhotoTemplate(TaskTemplate):
    """Shared parts of the tasks about the photo taken on {day} at {time} (or the photos of {day}).

    Instances: day 1-9 of June, hour 8-20, minute 10 or 40 (only 10 when `by_day`: the goal names the day alone);
    the phrasing and the album (where one is used) are drawn from the instance. The day holds the target, a near miss
    at another hour, and one more photo.
    """

    suite = "world"
    phrasings: tuple[str, ...]
    by_day = False

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (day, hour, minute) of the split, with its phrasing and album."""
        out = []
        for day in range(1, 10):
            for hour in range(8, 21):
                for minute in (10,) if self.by_day else (10, 40):
                    key = f"{day}:{hour}:{minute}"
                    pick = stable_seed(self.name, key)
                    if split_of(key) == split:
                        out.append({"day": day, "hour": hour, "minute": minute,
                                    "phrasing": pick % len(self.phrasings),
                                    "album": TASK_ALBUMS[pick // 7 % len(TASK_ALBUMS)]})
        return out

    def goal(self, params: Params) -> str:
        """The instruction."""
        when = f"June {params['day']}"
        if not self.by_day:
            when += f" at {format_time(params['hour'], params['minute'])}"
        return self.phrasings[params["phrasing"]].format(when=when, album=params["album"])

    def date(self, params: Params) -> str:
        """The target photo's date."""
        return gallery.stamp(params["day"], params["hour"], params["minute"])

    def target(self, params: Params) -> str:
        """The target photo's file name."""
        return gallery.file_name(self.date(params), "photo")

    def day(self, params: Params, count: int = 3, **target: Any) -> list[dict[str, Any]]:
        """The day's first `count` photos of: the target (with `target` fields), a near miss at another hour (the
        same fields), one more photo (a favourite or not)."""  # noqa: D205, D209
        rng = np.random.default_rng(stable_seed("media_day", self.name, self.date(params)))
        near, other = (int(h) for h in rng.choice([h for h in range(7, 22) if h != params["hour"]], 2, replace=False))
        return [_photo(self.date(params), **target),
                _photo(gallery.stamp(params["day"], near, params["minute"]), **target),
                _photo(gallery.stamp(params["day"], other, int(rng.integers(60))),
                       favourite=bool(rng.random() < 0.5))][:count]


class FavoritePhotoTemplate(DatedPhotoTemplate):
    """Favourite the photo taken on {day} at {time}: starred, the only item changed."""

    name, max_steps = "favorite_photo", 10
    apps = (PHOTOS,)
    phrasings = ("Add the photo I took on {when} to my favorites", "Favorite the photo taken on {when}",
                 "Star the picture from {when} in Google Photos")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's photos, target and near miss not favourites."""
        return {PHOTOS: {"items": self.day(params)}}

    def check(self, params: Params, state: State) -> bool:
        """The target is a favourite and nothing else changed."""
        return bool(item_of(state, self.target(params)).get("favourite")
                    and changed_only(state, [self.target(params)]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the photo in the grid, open it, tap the star."""
        return (obstacle(elements, state) or open_photo(self.date(params), elements, state)
                or in_viewer(elements, state, desc="Add to favorites"))


class FavoriteDayTemplate(DatedPhotoTemplate):
    """Favourite every photo taken on {day} (three; one may already be a favourite): only they changed."""

    name, max_steps, by_day = "favorite_day", 22, True
    apps = (PHOTOS,)
    phrasings = ("Add all the photos from {when} to my favorites", "Favorite every picture I took on {when}",
                 "Mark each photo taken on {when} as a favorite")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's three photos."""
        return {PHOTOS: {"items": self.day(params)}}

    def check(self, params: Params, state: State) -> bool:
        """Every photo of the day is a favourite; the changed items are the ones that were not."""
        day = self.initial(params)[PHOTOS]["items"]
        return (all(item_of(state, it["name"]).get("favourite") for it in day)
                and changed_only(state, [it["name"] for it in day if not it["favourite"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each photo of the day that is not a favourite and tap its star."""
        todo = [it for it in self.initial(params)[PHOTOS]["items"] if not item_of(state, it["name"])["favourite"]]
        if not todo:
            return wait()
        return (obstacle(elements, state) or open_photo(todo[0]["date"], elements, state)
                or in_viewer(elements, state, desc="Add to favorites"))


class ShowPhotoTemplate(DatedPhotoTemplate):
    """Show me the photo I took on {day} at {time} (information retrieval): that photo open in the viewer."""

    name, max_steps = "show_photo", 11
    apps = (PHOTOS,)
    phrasings = ("Show me the photo I took on {when}", "Open the picture from {when}",
                 "Find the photo taken on {when} and open it")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's photos."""
        return {PHOTOS: {"items": self.day(params)}}

    def check(self, params: Params, state: State) -> bool:
        """Photos in front with the target open, and nothing changed."""
        return (state.get("foreground") == PHOTOS and app_state(state, PHOTOS).get("open") == self.target(params)
                and changed_only(state, []))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the photo in the grid and open it."""
        return obstacle(elements, state) or open_photo(self.date(params), elements, state) or back()


class AddToAlbumTemplate(DatedPhotoTemplate):
    """Add the photo taken on {day} at {time} to the {album} album (next to a similarly named album)."""

    name, max_steps = "add_photo_to_album", 15
    apps = (PHOTOS,)
    phrasings = ("Add the photo I took on {when} to the {album} album", "Put the picture from {when} in my "
                 "{album} album", "Move the photo taken on {when} to the album {album}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's photos, the album and its near-miss namesake."""
        return {PHOTOS: {"items": self.day(params), "albums": [params["album"], f"{params['album']} 2025"]}}

    def check(self, params: Params, state: State) -> bool:
        """The target is in that album only, and nothing else changed."""
        return (item_of(state, self.target(params)).get("albums") == [params["album"]]
                and changed_only(state, [self.target(params)]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the photo, More options, Add to album, the album."""
        return (obstacle(elements, state) or open_photo(self.date(params), elements, state)
                or add_to_album(params["album"], elements, state))


class RestorePhotoTemplate(DatedPhotoTemplate):
    """Restore the photo taken on {day} at {time} from the trash (a near miss of that day is in the trash too)."""

    name, max_steps = "restore_photo", 11
    apps = (PHOTOS,)
    phrasings = ("Restore the photo I took on {when} from the trash", "Recover the deleted picture from {when}",
                 "Get the photo taken on {when} back out of the trash")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's photos, target and near miss in the trash."""
        return {PHOTOS: {"items": self.day(params, trashed=True)}}

    def check(self, params: Params, state: State) -> bool:
        """The target is out of the trash (not deleted for good), and nothing else changed."""
        it = item_of(state, self.target(params))
        return bool(it and not it["trashed"] and changed_only(state, [it["name"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Library, Trash, open the photo, Restore."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]["name"] if state["foreground"] == PHOTOS else None
        if screen == "photo" and app_state(state, PHOTOS)["open"] == self.target(params):
            return in_viewer(elements, state, text="Restore")
        if screen == "trash":
            return tap_cell(self.date(params), elements, state)
        return photos_tab("library", elements, state) or press(elements, text="Trash")


class CreateAlbumTemplate(DatedPhotoTemplate):
    """Create an album called {album} with the photos from {day}: exactly that day's photos (two or three)."""

    name, max_steps, by_day = "create_album", 21, True
    apps = (PHOTOS,)
    phrasings = ("Create an album called {album} with the photos from {when}",
                 "Make a new album named {album} and add the pictures I took on {when}",
                 "Put all the photos from {when} in a new album called {album}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The day's photos (two or three) and an album whose name extends the asked one."""
        return {PHOTOS: {"items": self.day(params, 2 + params["hour"] % 2), "albums": [f"{params['album']} 2025"]}}

    def check(self, params: Params, state: State) -> bool:
        """The album exists with exactly the day's photos, and only they changed."""
        names = sorted(it["name"] for it in self.initial(params)[PHOTOS]["items"])
        album = next((a for a in app_state(state, PHOTOS).get("albums", []) if a["name"] == params["album"]), {})
        return sorted(album.get("items", ())) == names and changed_only(state, names)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Albums, New album, type the title, Select photos, pick the day's photos, Add."""
        day = [(it["name"], it["date"]) for it in self.initial(params)[PHOTOS]["items"]]
        return new_album(params["album"], day, elements, state)


class DeleteLatestTemplate(TaskTemplate):
    """Delete the most recent photo: the newest photo of today goes to the trash (a newer video may sit above it)."""

    name, suite, max_steps = "delete_latest_photo", "world", 9
    apps = (PHOTOS,)
    phrasings = ("Delete the most recent photo", "Delete the last photo I took", "Move my latest photo to the trash")

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every five-minute time from 7:00 to 9:30 today, with and without a newer video."""
        return [{"hour": h, "minute": m, "video_newer": v, "phrasing": (h + m // 5 + v) % 3}
                for h in (7, 8, 9) for m in range(0, 60, 5) for v in (False, True)
                if (h, m) <= (9, 30) and split_of(f"latest:{h}:{m}:{v}") == split]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return self.phrasings[params["phrasing"]]

    def date(self, params: Params) -> str:
        """The newest photo's date (today)."""
        return gallery.stamp(gallery.TODAY_DAY, params["hour"], params["minute"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Today: the newest photo, one an hour older, and a video five minutes newer when asked."""
        h, m = params["hour"], params["minute"]
        today = [_photo(self.date(params)), _photo(gallery.stamp(gallery.TODAY_DAY, h - 1, m))]
        if params["video_newer"]:
            date = gallery.stamp(gallery.TODAY_DAY, h + (m + 5) // 60, (m + 5) % 60)
            today.append(gallery.item(gallery.file_name(date, "video"), "video", date))
        return {PHOTOS: {"items": today}}

    def check(self, params: Params, state: State) -> bool:
        """The newest photo is in the trash (not deleted for good) and nothing else changed."""
        it = item_of(state, gallery.file_name(self.date(params), "photo"))
        return bool(it.get("trashed") and changed_only(state, [it["name"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the newest photo, Delete, confirm Move to trash."""
        step = obstacle(elements, state) or open_photo(self.date(params), elements, state)
        if step is not None:
            return step
        if app_state(state, PHOTOS)["sheet"] == "delete":
            return press(elements, text="Move to trash")
        return in_viewer(elements, state, text="Delete")


# -- everyday photos (issue 49): the goal parser's lines, not in the World suite -----------------------------------
class ShowLatestTemplate(DeleteLatestTemplate):
    """Open my most recent picture: today's newest photo open in the viewer (a newer video is no picture)."""

    name, max_steps = "show_latest_photo", 6
    phrasings = ("Open my most recent picture", "Show me the last photo I took", "Open my latest photo")

    def check(self, params: Params, state: State) -> bool:
        """Photos in front with the newest photo open, and nothing changed."""
        return (state.get("foreground") == PHOTOS and changed_only(state, [])
                and app_state(state, PHOTOS).get("open") == gallery.file_name(self.date(params), "photo"))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the newest photo at the top of the grid and open it."""
        return obstacle(elements, state) or open_photo(self.date(params), elements, state) or wait()


class ShareLatestTemplate(DeleteLatestTemplate):
    """Share the latest photo with {person}: sent in Photos to that contact (put on the phone, the only one of that
    first name), once, and nothing else changed."""  # noqa: D205, D209

    name, max_steps = "share_latest_photo", 13
    apps = (PHOTOS,)
    phrasings = ("Share the latest photo with {person}", "Send {person} the last photo I took",
                 "Send my most recent photo to {person} in Google Photos")

    def values(self, split: str) -> list[dict[str, Any]]:
        """The newest-photo instances, each with a task person."""
        return [{**p, "person": names(f"share:{p['hour']}:{p['minute']}:{p['video_newer']}", 1)[0]}
                for p in super().values(split)]

    def goal(self, params: Params) -> str:
        """The instruction with the person's name."""
        return self.phrasings[params["phrasing"]].format(person=params["person"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Today's photos, the person in Contacts, no other contact of their first name."""
        add = {"name": params["person"], "phone": person(params["person"])["number"]}
        return {**super().initial(params),
                CONTACTS: {"contacts": {"add": [add], "remove": namesakes(params["person"].split()[0])}}}

    def check(self, params: Params, state: State) -> bool:
        """One send: the newest photo, in Photos, to the person; no item changed."""
        newest = gallery.file_name(self.date(params), "photo")
        return (app_state(state, PHOTOS).get("shared") == [{"item": newest, "target": "Photos", "to": params["person"]}]
                and changed_only(state, []))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the newest photo, Share, Send in Photos, search the person, choose them, Send."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        sending = app_state(state, PHOTOS).get("sending") if state["foreground"] == PHOTOS else None
        if sending is not None:
            if sending["to"] == params["person"]:
                return press(elements, text="Send", rid=f"{PHOTOS}:id/send_button")
            # the name typed first: its row then tops the list, clear of the keyboard
            return (fill(elements, state, gallery.SEND_RID, params["person"])
                    or press(elements, desc=params["person"], rid=gallery.PERSON_RID))
        step = open_photo(self.date(params), elements, state)
        if step is not None:
            return step
        if app_state(state, PHOTOS)["sheet"] == "share":
            return press(elements, text="Send in Photos", rid=SHEET_ROW)
        return in_viewer(elements, state, text="Share")


def latest(video_newer: bool = True) -> dict[str, Any]:
    """The parameters of the newest-photo templates (`DeleteLatestTemplate` and the two above, which add "person")
    for a line that names no time: the newest photo at 9:05 today, a video five minutes newer when `video_newer`."""  # noqa: D205, D209
    return {"hour": 9, "minute": 5, "video_newer": video_newer, "phrasing": 0}


TEMPLATES: tuple[TaskTemplate, ...] = (
    TakePhotoTemplate(), TakeSelfieTemplate(), RecordVideoTemplate(), PhotoToFavoritesTemplate(),
    SelfieToAlbumTemplate(), PhotosToNewAlbumTemplate(), FavoritePhotoTemplate(), FavoriteDayTemplate(),
    ShowPhotoTemplate(), AddToAlbumTemplate(), RestorePhotoTemplate(), CreateAlbumTemplate(), DeleteLatestTemplate(),
)
"""The Camera and Photos templates of the world suite."""
EVERYDAY: tuple[TaskTemplate, ...] = (ShowLatestTemplate(), ShareLatestTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with the suite's own camera and newest-photo
templates; not in the World suite, whose tasks stay fixed."""
