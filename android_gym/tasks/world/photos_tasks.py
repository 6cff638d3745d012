"""World-suite tasks over the Photos app alone (issue 17): favourite, show, trash and restore photos, and file them
into albums; the Camera's tasks and the World suite's list of these templates are `media_tasks`'.

Tasks add the photos they name with fixed dates (replacing the seeded photos of that day) plus near misses: another
photo the same day at another time, an album whose name extends the asked one ("Beach day 2025"). Names of the added
photos are a function of their date and kind (`gallery_media.file_name`), so checks and experts know them from the
parameters alone. Checks want Photos' `changed` to be exactly the asked items. Splits are on the day and time.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import gallery_media
from android_gym.sim.apps.clock import format_time
from android_gym.sim.apps.gallery_media import MediaItem
from android_gym.tasks.expert import back, obstacle, wait
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.media_expert import (
    PHOTOS,
    TASK_ALBUMS,
    Elements,
    State,
    add_to_album,
    changed_only,
    in_viewer,
    item_of,
    new_album,
    open_photo,
    photo_item,
    photos_state,
    photos_tab,
    press,
    tap_cell,
)


def _favourite(it: MediaItem | None) -> bool:
    """Whether `it` (an item, None once deleted for good) is a favourite."""
    return it is not None and it["favourite"]


class DatedPhotoTemplate(WorldTemplate):
    """Shared parts of the tasks about the photo taken on {day} at {time} (or the photos of {day}).

    Instances: day 1-9 of June, hour 8-20, minute 10 or 40 (only 10 when `by_day`: the goal names the day alone);
    the phrasing and the album (where one is used) are drawn from the instance. The day holds the target, a near miss
    at another hour, and one more photo.
    """

    suite = "world"
    phrasings: tuple[str, ...]
    by_day = False

    def grid(self) -> list[dict[str, Any]]:
        """Every (day, hour, minute), with its phrasing and album."""
        out = []
        for day in range(1, 10):
            for hour in range(8, 21):
                for minute in (10,) if self.by_day else (10, 40):
                    pick = stable_seed(self.name, f"{day}:{hour}:{minute}")
                    out.append({"day": day, "hour": hour, "minute": minute, "phrasing": pick % len(self.phrasings),
                                "album": TASK_ALBUMS[pick // 7 % len(TASK_ALBUMS)]})
        return out

    def split_value(self, params: Params) -> object:
        """The photo's day and time."""
        return f"{params['day']}:{params['hour']}:{params['minute']}"

    def goal(self, params: Params) -> str:
        """The instruction."""
        when = f"June {params['day']}"
        if not self.by_day:
            when += f" at {format_time(params['hour'], params['minute'])}"
        return self.phrasings[params["phrasing"]].format(when=when, album=params["album"])

    def date(self, params: Params) -> str:
        """The target photo's date."""
        return gallery_media.stamp(params["day"], params["hour"], params["minute"])

    def target(self, params: Params) -> str:
        """The target photo's file name."""
        return gallery_media.file_name(self.date(params), "photo")

    def day(self, params: Params, count: int = 3, **target: Any) -> list[MediaItem]:
        """The day's first `count` photos of: the target (with `target` fields), a near miss at another hour (the
        same fields), one more photo (a favourite or not)."""  # noqa: D205, D209
        rng = np.random.default_rng(stable_seed("media_day", self.name, self.date(params)))
        near, other = (int(h) for h in rng.choice([h for h in range(7, 22) if h != params["hour"]], 2, replace=False))
        return [photo_item(self.date(params), **target),
                photo_item(gallery_media.stamp(params["day"], near, params["minute"]), **target),
                photo_item(gallery_media.stamp(params["day"], other, int(rng.integers(60))),
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
        it = item_of(state, self.target(params))
        return it is not None and it["favourite"] and changed_only(state, [self.target(params)])

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
        return (all(_favourite(item_of(state, it["name"])) for it in day)
                and changed_only(state, [it["name"] for it in day if not it["favourite"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each photo of the day that is not a favourite and tap its star."""
        todo = [it for it in self.initial(params)[PHOTOS]["items"] if not _favourite(item_of(state, it["name"]))]
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
        return (state.get("foreground") == PHOTOS and photos_state(state)["open"] == self.target(params)
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
        it = item_of(state, self.target(params))
        return it is not None and it["albums"] == [params["album"]] and changed_only(state, [self.target(params)])

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
        return it is not None and not it["trashed"] and changed_only(state, [it["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Library, Trash, open the photo, Restore."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]["name"] if state["foreground"] == PHOTOS else None
        if screen == "photo" and photos_state(state)["open"] == self.target(params):
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
        album = next((a["items"] for a in photos_state(state)["albums"] if a["name"] == params["album"]), None)
        return album is not None and sorted(album) == names and changed_only(state, names)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Albums, New album, type the title, Select photos, pick the day's photos, Add."""
        day = [(it["name"], it["date"]) for it in self.initial(params)[PHOTOS]["items"]]
        return new_album(params["album"], day, elements, state)


class DeleteLatestTemplate(WorldTemplate):
    """Delete the most recent photo: the newest photo of today goes to the trash (a newer video may sit above it)."""

    name, suite, max_steps = "delete_latest_photo", "world", 9
    apps = (PHOTOS,)
    phrasings = ("Delete the most recent photo", "Delete the last photo I took", "Move my latest photo to the trash")

    def grid(self) -> list[dict[str, Any]]:
        """Every five-minute time from 7:00 to 9:30 today, with and without a newer video."""
        return [{"hour": h, "minute": m, "video_newer": v, "phrasing": (h + m // 5 + v) % 3}
                for h in (7, 8, 9) for m in range(0, 60, 5) for v in (False, True) if (h, m) <= (9, 30)]

    def split_value(self, params: Params) -> object:
        """The newest photo's time and whether a video is newer."""
        return f"latest:{params['hour']}:{params['minute']}:{params['video_newer']}"

    def goal(self, params: Params) -> str:
        """The instruction."""
        return self.phrasings[params["phrasing"]]

    def date(self, params: Params) -> str:
        """The newest photo's date (today)."""
        return gallery_media.stamp(gallery_media.TODAY_DAY, params["hour"], params["minute"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Today: the newest photo, one an hour older, and a video five minutes newer when asked."""
        h, m = params["hour"], params["minute"]
        today = [photo_item(self.date(params)), photo_item(gallery_media.stamp(gallery_media.TODAY_DAY, h - 1, m))]
        if params["video_newer"]:
            date = gallery_media.stamp(gallery_media.TODAY_DAY, h + (m + 5) // 60, (m + 5) % 60)
            today.append(gallery_media.item(gallery_media.file_name(date, "video"), "video", date))
        return {PHOTOS: {"items": today}}

    def check(self, params: Params, state: State) -> bool:
        """The newest photo is in the trash (not deleted for good) and nothing else changed."""
        it = item_of(state, gallery_media.file_name(self.date(params), "photo"))
        return it is not None and it["trashed"] and changed_only(state, [it["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the newest photo, Delete, confirm Move to trash."""
        step = obstacle(elements, state) or open_photo(self.date(params), elements, state)
        if step is not None:
            return step
        if photos_state(state)["sheet"] == "delete":
            return press(elements, text="Move to trash")
        return in_viewer(elements, state, text="Delete")
