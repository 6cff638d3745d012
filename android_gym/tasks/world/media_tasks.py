"""World-suite tasks over the Camera and Photos apps (issue 17): shoot photos, selfies and videos, and three tasks that
span both apps (shoot, then favourite or file the captures in Photos); `TEMPLATES` lists them with the Photos-only
templates of `photos_tasks`.

Initial conditions. Camera tasks start the camera in a mode and facing drawn from the instance (mostly facing away
from the asked camera) and sometimes with the permission prompt pending; the tasks that go on to Photos add an album
whose name extends the asked one ("Beach day 2025") as a near miss.

Checks read the device state only. Photos' `changed` (every item added, deleted, or whose favourite, trash or albums
differ from the start) must be exactly the asked items, so a near miss or an extra edit fails; camera tasks want
exactly the asked captures. Splits: camera tasks on (template, key, variant); Photos tasks on the day and time.

The expert steps and checks these share live in `media_expert`; the everyday-only Photos templates (issue 49) in
`media_everyday_tasks`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import camera
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.media_expert import (
    CAMERA,
    PHOTOS,
    TASK_ALBUMS,
    Elements,
    State,
    add_to_album,
    captures,
    captures_are,
    changed_only,
    in_viewer,
    item_of,
    new_album,
    open_capture,
    photos_state,
    shoot,
)
from android_gym.tasks.world.photos_tasks import (
    AddToAlbumTemplate,
    CreateAlbumTemplate,
    DeleteLatestTemplate,
    FavoriteDayTemplate,
    FavoritePhotoTemplate,
    RestorePhotoTemplate,
    ShowPhotoTemplate,
)

VARIANTS = 12
_COUNTS = ("a photo", "two photos", "three photos")


# -- Camera ------------------------------------------------------------------------------------------------------------
class CameraTemplate(WorldTemplate):
    """Shared parts of the tasks that start in the Camera: instances (key, variant), a drawn camera start, phrasings.

    Subclasses set `key_name` and `keys` (the instance's key parameter and its values), `phrasings` (formatted with
    the parameters), `facing` (the camera the task wants) and `mode` (the mode its expert shoots in).
    """

    suite = "world"
    key_name: str
    keys: tuple
    phrasings: tuple[str, ...]
    facing, mode = "back", "Photo"

    def grid(self) -> list[dict[str, Any]]:
        """Every (key, variant)."""
        return [{self.key_name: k, "variant": v} for k in self.keys for v in range(VARIANTS)]

    def split_value(self, params: Params) -> object:
        """The instance's key and variant."""
        return f"{self.name}:{params[self.key_name]}:{params['variant']}"

    def rewordings(self, params: Params) -> list[Params]:
        """The same task in every phrasing: the variant picks the wording (and the camera's start), the key is the
        task, unless the key is only the wording ("phrasing"), which names no task of its own."""  # noqa: D205, D209
        keys = self.keys if self.key_name == "phrasing" else (params[self.key_name],)
        return [{**params, self.key_name: k, "variant": v} for k in keys for v in range(VARIANTS)]

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
        it = item_of(state, captures(state)[0]["name"])
        return it is not None and it["favourite"] and not it["trashed"] and changed_only(state, [it["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot, open the capture from the thumbnail, tap the star."""
        if not captures(state):
            return super().expert(params, elements, state)
        return (open_capture(captures(state)[0]["name"], elements, state)
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
        it = item_of(state, captures(state)[0]["name"])
        return (it is not None and it["albums"] == [params["album"]] and not it["trashed"]
                and changed_only(state, [it["name"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot a selfie, open it from the thumbnail, More options, Add to album, the album."""
        if not captures(state):
            return super().expert(params, elements, state)
        return (open_capture(captures(state)[0]["name"], elements, state)
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
        names = sorted(c["name"] for c in captures(state))
        album = next((a["items"] for a in photos_state(state)["albums"] if a["name"] == params["album"]), None)
        return (captures_are(state, 2, "photo", "back", ("Photo", "Portrait"))
                and album is not None and sorted(album) == names and changed_only(state, names))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Shoot twice, then in Photos: Albums, New album, title, Select photos, both captures, Add."""
        if len(captures(state)) < 2:
            return super().expert(params, elements, state)
        return new_album(params["album"], [(c["name"], c["date"]) for c in captures(state)], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    TakePhotoTemplate(), TakeSelfieTemplate(), RecordVideoTemplate(), PhotoToFavoritesTemplate(),
    SelfieToAlbumTemplate(), PhotosToNewAlbumTemplate(), FavoritePhotoTemplate(), FavoriteDayTemplate(),
    ShowPhotoTemplate(), AddToAlbumTemplate(), RestorePhotoTemplate(), CreateAlbumTemplate(), DeleteLatestTemplate(),
)
"""The Camera and Photos templates of the world suite."""
