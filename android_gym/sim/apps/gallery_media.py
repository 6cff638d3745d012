"""The Photos app's media store: item dates and names, the item dict, and the items and albums seeded per episode.

Items are drawn per episode from `stable_seed("gallery", phone.seed)` (never the episode RNG) by `library`. Dates fall
in June 2026, up to the simulated today (`calendar.TODAY`); every item is a `MediaItem` dict (`item`) whose date
reads "2026-06-09 10:15" (`stamp`). Names are Pixel file names fixed by
the date (`file_name`), so tasks know them from their parameters. The app that shows and edits the store is
`android_gym.sim.apps.gallery.GalleryApp`.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal

import numpy as np
from typing_extensions import TypedDict

from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.apps.clock import format_time
from android_gym.sim.apps.gallery_prints import seeded_prints

YEAR, MONTH, TODAY_DAY = TODAY[0], TODAY[1], TODAY[2]
SEEDED_ALBUMS = ("Family", "Garden", "Pets", "Recipes", "Receipts", "Hiking", "Screenshots")
Kind = Literal["photo", "video"]
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@closed
class MediaItem(TypedDict):
    """A photo or video of the store: file name, kind, date ("2026-06-09 14:05"), star, albums (in the order it
    joined them), whether it is in the trash, and the lines of text the picture shows (a receipt's; [] for an
    ordinary photo: `gallery_prints`)."""  # noqa: D205, D209

    name: str
    kind: Kind
    date: str
    favourite: bool
    albums: list[str]
    trashed: bool
    content: list[str]


# -- dates and names ---------------------------------------------------------------------------------------------------
def stamp(day: int, hour: int, minute: int) -> str:
    """An item's date: day `day` of June 2026 at `hour`:`minute` (24-hour).

    >>> stamp(9, 14, 5)
    '2026-06-09 14:05'
    """
    return f"{YEAR}-{MONTH:02d}-{day:02d} {hour:02d}:{minute:02d}"


def date_parts(date: str) -> tuple[datetime.date, int, int]:
    """An item's date as (day, hour, minute).

    Raises:
        ValueError: `date` does not read "2026-06-09 14:05".

    >>> date_parts("2026-06-09 14:05")
    (datetime.date(2026, 6, 9), 14, 5)
    """
    day, time = date.split(" ")
    hour, minute = (int(p) for p in time.split(":"))
    return datetime.date.fromisoformat(day), hour, minute


def taken(date: str) -> str:
    """A date as Google Photos writes it.

    >>> taken("2026-06-09 14:05")
    'Jun 9, 2026 2:05 PM'
    """
    d, hour, minute = date_parts(date)
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year} {format_time(hour, minute)}"


def describe(item: dict[str, Any]) -> str:
    """The content-desc of an item's image: "Photo taken on Jun 9, 2026 2:05 PM" (or "Video taken on ...")."""
    return f"{item['kind'].title()} taken on {taken(item['date'])}"


def day_label(date: str) -> str:
    """The grid's header for the day of `date`: "Today", "Yesterday" or "Mon, Jun 8"."""
    d = date_parts(date)[0]
    ago = (datetime.date(YEAR, MONTH, TODAY_DAY) - d).days
    return "Today" if ago == 0 else "Yesterday" if ago == 1 else f"{_DAYS[d.weekday()]}, {_MONTHS[d.month - 1]} {d.day}"


def file_name(date: str, kind: str, salt: object = 0) -> str:
    """A Pixel file name for an item taken at `date`: "PXL_20260609_140532117.jpg" (".mp4" for a video).

    The seconds and milliseconds come from `stable_seed(date, salt)`, so distinct salts give distinct names.
    """
    d, hour, minute = date_parts(date)
    extra = stable_seed("pxl", date, salt)
    return f"PXL_{d:%Y%m%d}_{hour:02d}{minute:02d}{extra % 60:02d}{extra // 60 % 1000:03d}" + \
        (".mp4" if kind == "video" else ".jpg")


def duration(name: str) -> str:
    """A video's length as the grid shows it ("0:27"), fixed by its name."""
    seconds = 5 + stable_seed("duration", name) % 115
    return f"{seconds // 60}:{seconds % 60:02d}"


def item(name: str, kind: Kind, date: str, favourite: bool = False, albums: tuple[str, ...] = (),
         trashed: bool = False, content: tuple[str, ...] = ()) -> MediaItem:
    """A media item as the store holds it."""
    return {"name": name, "kind": kind, "date": date, "favourite": favourite, "albums": list(albums),
            "trashed": trashed, "content": list(content)}


def library(seed: int) -> tuple[list[MediaItem], list[str]]:
    """Episode `seed`'s items (22-30 over June 1 to today, about one in seven a video, a few favourites, two in the
    trash, three photos readable: two receipts and a recipe card) and albums (three, of two to five items each)."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("gallery", seed))
    items: list[MediaItem] = []
    seen: set[str] = set()
    count = int(rng.integers(22, 31))
    while len(items) < count:
        day = int(rng.integers(1, TODAY_DAY + 1))
        # today's photos are all older than 9:00, so the Camera's captures (at the phone's 9:41) stand apart
        date = stamp(day, int(rng.integers(7, 9 if day == TODAY_DAY else 22)), int(rng.integers(60)))
        kind = "video" if rng.random() < 0.15 else "photo"
        favourite = bool(rng.random() < 0.15)
        if date not in seen:  # one item per minute, so every description names one item
            seen.add(date)
            items.append(item(file_name(date, kind), kind, date, favourite))
    albums = [SEEDED_ALBUMS[int(i)] for i in rng.permutation(len(SEEDED_ALBUMS))[:3]]
    for album in albums:
        for i in rng.choice(count, size=int(rng.integers(2, 6)), replace=False):
            items[int(i)]["albums"].append(album)
    for i in rng.choice(count, size=2, replace=False):
        items[int(i)]["trashed"] = True
    prints = seeded_prints(seed, [(it["name"], it["date"]) for it in items if it["kind"] == "photo"])
    for it in items:
        it["content"] = prints.get(it["name"], [])
    return items, albums


def newest_first(items: list[MediaItem]) -> list[MediaItem]:
    """`items` by date, newest first; of two taken the same minute, the one added later comes first."""
    return sorted(reversed(items), key=lambda it: it["date"], reverse=True)
