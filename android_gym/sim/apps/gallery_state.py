"""The Photos app's typed seam: the schema of the state it reports and the model of a task's initial conditions.

Tasks read `PhotosState` (what `GalleryApp.state` reports: the media store, the albums, where the app is, the shares)
and set `PhotosInitial` (applied by `GalleryApp.set_up`). The share targets of the viewer's Share sheet
(`SHARE_TARGETS`) are here, as the shares name them. Media items themselves (`MediaItem`, their dates and the seeded
store) are `android_gym.sim.apps.gallery_media`'s; the app is `android_gym.sim.apps.gallery.GalleryApp`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, get_args

from pydantic import field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app_state import closed
from android_gym.sim.apps.gallery_media import Kind, MediaItem, date_parts

ShareTarget = Literal["Messages", "Gmail", "Nearby Share", "Copy link"]
SHARE_TARGETS: tuple[ShareTarget, ...] = get_args(ShareTarget)
Page = Literal["photos", "albums", "library", "photo", "album", "collection", "trash", "new_album", "picker", "send",
               "copy"]
Sheet = Literal["menu", "delete", "album", "share", "info"]
MAX_LINES = 60
"""The most lines a picture's content may have (three recipes written as text blocks take about 40)."""


@closed
class AlbumState(TypedDict):
    """An album: its name and the names of its items not in the trash, newest first."""

    name: str
    items: list[str]


@closed
class Share(TypedDict):
    """A share of the episode: the item and where it went; a send in Photos ("Photos") names the contact in `to`."""

    item: str
    target: Literal["Photos"] | ShareTarget
    to: NotRequired[str]


@closed
class Sending(TypedDict):
    """Send in Photos in front: the item, and the contact chosen (None before one is)."""

    item: str
    to: str | None


@closed
class Copy(TypedDict):
    """A copy saved from the viewer (Copy to folder): the item, and the file it became in the Files app's storage
    ("Download/receipt.png")."""  # noqa: D205, D209

    item: str
    path: str


@closed
class PhotosState(TypedDict):
    """What the Photos app reports (`GalleryApp.state`).

    Attributes:
        items: the media store newest first, trashed items included.
        albums: every album in the order made.
        screen: the front Photos screen's name, None when Photos has no screen on the stack.
        open: the name of the item open in the viewer in front, else None.
        album: the name of the album open in front, else None.
        sheet: the viewer's open sheet or dialog (the viewer in front), else None.
        shared: the episode's shares in order (only a send in Photos has `to`).
        sending: Send in Photos while it is in front, else None.
        last_opened: the last item opened in the viewer from a grid this episode (not from the Camera), None before.
        copies: the episode's copies to a folder, in order.
        copying: the folder chosen on Copy to folder while it is in front (None before one is chosen), else None.
        changed: sorted names of the items added, deleted for good, or whose favourite, trash or albums differ from
            the episode's start.
    """

    items: list[MediaItem]
    albums: list[AlbumState]
    screen: Page | None
    open: str | None
    album: str | None
    sheet: Sheet | None
    shared: list[Share]
    sending: Sending | None
    last_opened: str | None
    copies: list[Copy]
    copying: str | None
    changed: list[str]


class ItemSpec(ConfigModel):
    """A photo or video a task puts in the store.

    Attributes:
        name: its file name (unique in the store).
        kind: photo or video.
        date: when it was taken, reading "2026-06-09 14:05".
        favourite: whether it is starred.
        albums: the albums it is in (created when missing).
        trashed: whether it is in the trash.
        content: the lines of text the picture shows (a receipt's, `gallery_prints`), one line each; none for an
            ordinary photo.
    """

    name: str
    kind: Kind
    date: str
    favourite: bool = False
    albums: tuple[str, ...] = ()
    trashed: bool = False
    content: tuple[str, ...] = ()

    @field_validator("content")
    @classmethod
    def _lines(cls, content: tuple[str, ...]) -> tuple[str, ...]:
        if len(content) > MAX_LINES or any("\n" in line for line in content):
            raise FieldError("content", f"at most {MAX_LINES} lines, none holding a line break", content)
        return content

    @field_validator("date")
    @classmethod
    def _stamped(cls, date: str) -> str:
        try:
            day, hour, minute = date_parts(date)
            if 0 <= hour < 24 and 0 <= minute < 60 and f"{day} {hour:02d}:{minute:02d}" == date:
                return date
        except ValueError:
            pass
        raise FieldError("date", 'a date reading "2026-06-09 14:05"', date)


class PhotosInitial(ConfigModel):
    """The initial conditions a Photos task may set: the set-up, not changes (`changed` starts empty).

    Attributes:
        items: items that replace the seeded items of the days they fall on (a task fixes what those days hold).
        albums: albums created when missing (after the seeded ones), beside those the items name.
    """

    items: tuple[ItemSpec, ...] = ()
    albums: tuple[str, ...] = ()

    @field_validator("items")
    @classmethod
    def _distinct_names(cls, items: tuple[ItemSpec, ...]) -> tuple[ItemSpec, ...]:
        names = [it.name for it in items]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise FieldError("items", "items of distinct names", repeated)
        return items
