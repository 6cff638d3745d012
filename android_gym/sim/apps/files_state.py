"""The Files app's typed seam: the schema of the state it reports (`FilesState`) and its initial conditions.

Tasks read `FilesState` (with `state_of`) and set `FilesInitial` (files, folders and Trash put on the phone before an
episode); `android_gym.sim.apps.files.FilesApp` reports the one and applies the other. Paths are relative to Internal
storage, as in `android_gym.sim.apps.files_data`.
"""

from __future__ import annotations

import datetime
from typing import Literal, NotRequired

from pydantic import Field, ValidationInfo, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app_state import closed, refuse_absolute_paths
from android_gym.sim.apps.files_data import iso

PATH = "a path relative to Internal storage like 'Download/a.pdf'"
"""What a path of the initial conditions must be."""

Page = Literal["home", "category", "folder", "search", "file", "trash", "picker", "menu", "rename", "mkdir", "confirm",
               "info", "sort"]
Category = Literal["Downloads", "Images", "Videos", "Audio", "Documents"]
"""A `files_data.CATEGORIES` key."""
Sort = Literal["name", "name_desc", "date", "date_old", "size", "size_small"]
"""A `files_data.SORTS` key."""


@closed
class FileEntry(TypedDict):
    """A file: its path, folder ("" for the root) and name, its size in kB, its date ("YYYY-MM-DD")."""

    path: str
    folder: str
    name: str
    size_kb: int
    date: str


@closed
class TrashEntry(TypedDict):
    """A file in the Trash: the path it was trashed from, its name, its size in kB, its date ("YYYY-MM-DD")."""

    path: str
    name: str
    size_kb: int
    date: str


@closed
class FileEdit(TypedDict):
    """One edit of the episode's log: what was done to which path (and the new path, for rename, move, copy only)."""

    op: Literal["rename", "move", "copy", "trash", "restore", "delete", "mkdir"]
    path: str
    to: NotRequired[str]


@closed
class FilesState(TypedDict):
    """What Files reports (`FilesApp.state`); paths are relative to Internal storage.

    Attributes:
        page: the front Files screen's name, None when Files has no screen on the stack.
        category: the open category (or that of the open file, when it was opened from one), else None.
        files: every file, by path.
        folders: every folder's path, sorted.
        trash: the files in the Trash, in the order trashed.
        sort: the lists' order.
        folder: the folder browsed in front, else None.
        query: the search text while search is in front, else None.
        selected: the paths selected on the list in front (or under its pop-up), None outside selection mode.
        opened: the file whose page or info is in front, else None.
        last_opened: the last file whose page or info was shown this episode, None before.
        edits: the episode's edits in order.
    """

    page: Page | None
    category: Category | None
    files: list[FileEntry]
    folders: list[str]
    trash: list[TrashEntry]
    sort: Sort
    folder: str | None
    query: str | None
    selected: list[str] | None
    opened: str | None
    last_opened: str | None
    edits: list[FileEdit]


class FileSpec(ConfigModel):
    """A file a task puts on the phone (or in the Trash).

    Attributes:
        path: where it is (for the Trash: where it was), like "Download/a.pdf".
        size_kb: its size in kB.
        date: its modified date, "YYYY-MM-DD" (default: today).
    """

    path: str
    size_kb: int = Field(ge=0)
    date: str = iso(0)

    @field_validator("path")
    @classmethod
    def _relative_path(cls, path: str) -> str:
        refuse_absolute_paths("path", [path], PATH)
        return path

    @field_validator("date")
    @classmethod
    def _iso_date(cls, date: str) -> str:
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise FieldError("date", 'a date "YYYY-MM-DD"', date) from None
        return date


class FilesInitial(ConfigModel):
    """The files a task starts from: the episode's seeded ones, changed in this order.

    Attributes:
        absent: file paths removed (a path not there is ignored).
        folders: folders added (with their parents).
        files: files added (their folders created with them), replacing any at their paths.
        trash: files put in the Trash (empty at reset), in this order.
    """

    absent: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    files: tuple[FileSpec, ...] = ()
    trash: tuple[FileSpec, ...] = ()

    @field_validator("absent", "folders")
    @classmethod
    def _relative_paths(cls, paths: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        refuse_absolute_paths(str(info.field_name), paths, PATH)
        return paths
