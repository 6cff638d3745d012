"""Simple Draw Pro's typed seam and its per-episode images: the state tasks read (`DrawState`), the initial conditions
they set (`DrawInitial`), the palette, brush sizes and formats, and the drawings already in storage.

The images are drawn per episode from `stable_seed("draw", phone.seed)` (never from the episode RNG): 2-6 drawings
in Pictures (a few in Download), named from `POOL`, dated in the 120 days before the sim's today, each of 1-6 strokes
in the palette's colours. A file is {"format", "date": "YYYY-MM-DD", "strokes": [stroke]}, by its path relative to
Internal storage ("Pictures/cat.png"); a stroke is {"color": "#rrggbb", "width" (px), "x0", "y0", "x1", "y1"}
(its ends in canvas pixels).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from typing import Any, Literal, get_args

from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, iso_day, refuse_absolute_paths
from android_gym.sim.apps.files_data import DATE, FOLDERS

PACKAGE = "com.simplemobiletools.draw.pro"
Format = Literal["png", "svg", "jpg"]
FORMATS: tuple[Format, ...] = get_args(Format)
"""The formats the Save dialog offers, in its order (each is the file's extension)."""
Size = Literal[4, 8, 16, 32, 48]
SIZES: tuple[Size, ...] = get_args(Size)
"""Brush sizes offered, in device pixels."""
Folder = Literal["Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Pictures", "Recordings"]
COLORS = {"Black": "#000000", "Gray": "#9e9e9e", "Red": "#f44336", "Pink": "#e91e63", "Purple": "#9c27b0",
          "Blue": "#2196f3", "Cyan": "#00bcd4", "Green": "#4caf50", "Yellow": "#ffeb3b", "Orange": "#ff9800",
          "Brown": "#795548", "White": "#ffffff"}
"""The palette: each colour's name (what its swatch says) and its value."""
POOL = ("cat", "house_plan", "sunset", "doodle", "flower", "robot", "map_sketch", "portrait", "boat", "tree",
        "logo_idea", "mountains", "signature", "garden_layout", "spaceship", "birthday_card")
CANVAS_W, CANVAS_H = 1080, 1730
"""The canvas's size in device pixels (`draw.CANVAS`): where seeded strokes lie."""



def color_name(value: str) -> str:
    """The palette's name of a colour value, or the value itself.

    >>> color_name("#f44336"), color_name("#123456")
    ('Red', '#123456')
    """
    return next((name for name, v in COLORS.items() if v == value), value)


def stroke_count_label(n: int) -> str:
    """What the canvas tells accessibility services about itself.

    >>> stroke_count_label(0), stroke_count_label(1), stroke_count_label(3)
    ('Drawing canvas, empty', 'Drawing canvas, 1 stroke', 'Drawing canvas, 3 strokes')
    """
    return "Drawing canvas, empty" if n == 0 else f"Drawing canvas, {n} stroke{'' if n == 1 else 's'}"


def strokes_of(key: str, colors: tuple[str, ...], count: int) -> list[dict[str, Any]]:
    """`count` strokes seeded by `key`, cycling through `colors`."""
    rng = random.Random(stable_seed("draw-strokes", key))
    return [{"color": colors[k % len(colors)], "width": rng.choice(SIZES), "x0": rng.randrange(CANVAS_W),
             "y0": rng.randrange(CANVAS_H), "x1": rng.randrange(CANVAS_W), "y1": rng.randrange(CANVAS_H)}
            for k in range(count)]


def seeded_drawings(seed: int) -> dict[str, dict[str, Any]]:
    """Episode `seed`'s images, oldest first: {path: {"format", "date", "strokes"}}."""
    rng = random.Random(stable_seed("draw", seed))
    out = {}
    names = rng.sample(POOL, rng.randrange(2, 7))
    ages = sorted(rng.sample(range(1, 120), len(names)), reverse=True)
    for name, age in zip(names, ages, strict=True):
        folder = "Download" if rng.random() < 0.2 else "Pictures"
        path = f"{folder}/{name}.{rng.choice(FORMATS)}"
        colors = tuple(rng.sample(sorted(COLORS.values()), rng.randrange(1, 4)))
        out[path] = {"format": path.rsplit(".", 1)[1], "date": str(DATE - datetime.timedelta(days=age)),
                     "strokes": strokes_of(path, colors, rng.randrange(1, 7))}
    return out


# -- the typed seam ---------------------------------------------------------------------------------------------------
Page = Literal["main", "menu", "color", "size", "save", "folder", "open"]


@closed
class StrokeState(TypedDict):
    """A stroke: its colour ("#rrggbb"), width in px and ends in canvas pixels."""

    color: str
    width: int
    x0: int
    y0: int
    x1: int
    y1: int


@closed
class DrawingState(TypedDict):
    """An image in storage: its path ("Pictures/cat.png"), folder, name with extension, format, date, strokes."""

    path: str
    folder: str
    name: str
    format: Format
    date: str
    strokes: list[StrokeState]


@closed
class DrawState(TypedDict):
    """What Simple Draw Pro reports (`DrawApp.state`).

    Attributes:
        canvas: the strokes on the canvas, oldest first.
        color: the brush's colour ("#rrggbb").
        width: the brush's size in px.
        folder: the folder the Save dialog opens on (the last one saved to).
        files: every image in storage, newest first (as Open file lists them).
        saved: the paths written this episode, in order (a file saved twice is listed twice).
        current: the file the canvas was opened from or last saved to, None for a new drawing.
        screen: the front Simple Draw Pro screen's name, None when the app has none on the stack.
        naming: the file name in the open Save dialog, or None.
        browsed: whether Open file's list was shown this episode.
    """

    canvas: list[StrokeState]
    color: str
    width: Size
    folder: Folder
    files: list[DrawingState]
    saved: list[str]
    current: str | None
    screen: Page | None
    naming: str | None
    browsed: bool


def _check_color(field: str, value: str) -> str:
    if value not in COLORS.values():
        raise FieldError(field, f"a palette colour ({', '.join(COLORS.values())})", value)
    return value


class DrawingSpec(ConfigModel):
    """An image a task puts in storage.

    Attributes:
        path: where it is, "<folder>/<name>.<png|svg|jpg>" relative to Internal storage.
        date: the day it was saved ("YYYY-MM-DD"; default the sim's today).
        colors: the colours of its strokes, cycled (palette values).
        strokes: how many strokes it has.
    """

    path: str
    date: str = str(DATE)
    colors: tuple[str, ...] = ("#000000",)
    strokes: int = Field(default=3, ge=0)

    @field_validator("path")
    @classmethod
    def _image_path(cls, path: str) -> str:
        expected = "an image path like 'Pictures/cat.png' (a storage folder, a name, .png, .svg or .jpg)"
        refuse_absolute_paths("path", [path], expected)
        folder, _, name = path.rpartition("/")
        if folder not in FOLDERS or name.rpartition(".")[2] not in FORMATS or not name.rpartition(".")[0]:
            raise FieldError("path", expected, path)
        return path

    @field_validator("date")
    @classmethod
    def _iso_day(cls, date: str) -> str:
        return iso_day("date", date)

    @field_validator("colors")
    @classmethod
    def _palette(cls, colors: tuple[str, ...]) -> tuple[str, ...]:
        if not colors:
            raise FieldError("colors", "at least one palette colour", colors)
        return tuple(_check_color("colors", c) for c in colors)

    def content(self) -> dict[str, Any]:
        """The file as the app keeps it."""
        return {"format": self.path.rsplit(".", 1)[1], "date": self.date,
                "strokes": strokes_of(self.path, self.colors, self.strokes)}


class DrawInitial(ConfigModel):
    """The initial conditions a Simple Draw Pro task may set, applied in this order (the set-up: nothing counts as
    saved).

    Attributes:
        seeded: whether the episode's seeded images are in storage (False: only `drawings` are).
        absent: paths of seeded images removed (a path not there is ignored).
        drawings: images added (replacing any at their paths; listed by date among the seeded ones).
        color: the brush's colour (a palette value).
        width: the brush's size in px.
        folder: the folder the Save dialog opens on.
    """  # noqa: D205

    seeded: bool = True
    absent: tuple[str, ...] = ()
    drawings: tuple[DrawingSpec, ...] = ()
    color: str = "#000000"
    width: Size = 8
    folder: Folder = "Pictures"

    @field_validator("color")
    @classmethod
    def _palette(cls, color: str) -> str:
        return _check_color("color", color)
