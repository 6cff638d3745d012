"""Everyday phrasings of the Files tasks (issue 49), onto `files_tasks` and `files_everyday_tasks`.

"Delete the file report_old.pdf", "Move the photo from Downloads to Pictures", "Rename notes.txt to
meeting-notes.txt", "Find the PDF I downloaded yesterday", "Create a folder called Taxes 2026": the file names,
folders, kinds and days are the line's own; the task puts the files it names on the phone (in the folder of their
kind, `files_everyday_tasks.home_of`, when the line names none) and takes off whatever would make them ambiguous
(`"the photo"` is the only picture of its folder). A folder name the user capitalised arrives lower-cased, so the new
folder's name is checked in any case.

    >>> FILE.read("report_old.pdf"), FOLDER.read("downloads"), KIND.read("PDF"), FOLDER_NAME.read("taxes 2026")
    ('report_old.pdf', 'Download', 'pdf', 'Taxes 2026')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from android_gym.sim.apps import files as F
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Names, Parsed, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.goals.when import DATE_WORDS, TODAY, parse_date
from android_gym.tasks.world.files_everyday_tasks import (
    CreateFolderTemplate,
    DeleteFileTemplate,
    FindDownloadTemplate,
    MoveFileTemplate,
    everyday_params,
)
from android_gym.tasks.world.files_expert import EXTS
from android_gym.tasks.world.files_tasks import RenameFileTemplate

EXTENSIONS = frozenset({*EXTS, *(e for kinds in F.CATEGORIES.values() for e in kinds)})
"""The kinds of file the phone holds (a file name must end in one)."""
OLDEST_DAYS = 179
"""The oldest download a line may ask for, in days: the phone's files go back about half a year."""


@dataclass(frozen=True)
class FileName:
    """A file name with an extension the phone knows ("report_old.pdf", "meeting-notes.txt")."""

    def read(self, text: str) -> str:
        """The name as written (the line's words are lower case, as such names usually are)."""
        name = " ".join(words(text))
        if re.fullmatch(r"[\w\-. ]+\.\w+", name) is None:
            raise UnknownValue(f"{text!r} is not a file name (a name and an extension, like report.pdf)")
        if F.ext_of(name) not in EXTENSIONS:
            raise UnknownValue(f"the simulated phone holds no .{F.ext_of(name)} files ({text!r}); it knows "
                               f"{', '.join(sorted(EXTENSIONS))}")
        return name

    def vocabulary(self) -> set[str]:
        """File names bring no words."""
        return set()


@dataclass(frozen=True)
class FolderName:
    """A new folder's name: the line's words, the first letter capitalised ("taxes 2026" -> "Taxes 2026")."""

    def read(self, text: str) -> str:
        """The name."""
        name = " ".join(words(text))
        if not name:
            raise UnknownValue("an empty folder name")
        return name[0].upper() + name[1:]

    def vocabulary(self) -> set[str]:
        """Any words: none of its own."""
        return set()


FILE, FOLDER_NAME = FileName(), FolderName()
FOLDER = Names("folder", {f: f for f in F.FOLDERS}, {
    "downloads": "Download", "my downloads": "Download", "download folder": "Download", "documents": "Documents",
    "docs": "Documents", "pictures": "Pictures", "camera": "DCIM", "camera roll": "DCIM", "movies": "Movies",
    "videos": "Movies", "recordings": "Recordings", "voice recordings": "Recordings",
}, strip=("folder",))
KIND = Names("kind of file", {"photo": "jpg", "picture": "jpg", "pic": "jpg", "image": "jpg", "pdf": "pdf",
                              "zip": "zip", "video": "mp4", "song": "mp3", "document": "docx", "text": "txt",
                              "apk": "apk", "app installer": "apk"}, strip=("file",))
DATE = Parsed("date", parse_date, tuple(DATE_WORDS))
_READERS = {"file": FILE, "new_file": FILE, "src": FOLDER, "dest": FOLDER, "folder": FOLDER, "kind": KIND,
            "date": DATE, "folder_name": FOLDER_NAME}


def _rename(slots: Slots) -> dict[str, Any]:
    old, new = slots["file"], slots["new_file"]
    if F.ext_of(old) != F.ext_of(new):  # the rename dialog edits the name and keeps the extension
        raise UnknownValue(f"Files keeps a file's extension when renaming: {old!r} cannot become {new!r}")
    return everyday_params("files_rename", name=old, new=new)


def _move(slots: Slots) -> dict[str, Any]:
    if slots["src"] == slots["dest"]:
        raise UnknownValue(f"a move from {slots['src']} to the same folder changes nothing")
    if "file" in slots:
        return everyday_params("files_move", name=slots["file"], src=slots["src"], dest=slots["dest"])
    return everyday_params("files_move", ext=slots["kind"], src=slots["src"], dest=slots["dest"])


def _find(slots: Slots) -> dict[str, Any]:
    days = (TODAY - slots["date"]).days
    if not 0 <= days <= OLDEST_DAYS:
        raise UnknownValue(f"nothing is downloaded on {slots['date']:%B %d, %Y} (the phone's files go back "
                           f"{OLDEST_DAYS} days from today, {TODAY:%B %d})")
    return everyday_params("files_find_download", ext=slots["kind"], days=days)


RULES: tuple[Rule, ...] = (
    rule("files", DeleteFileTemplate(), (
        "(delete|remove|trash) [the|my] file [called|named] {file} [in files|from files]",
        "move [the] file {file} to [the] trash",
    ), lambda s: everyday_params("files_delete", name=s["file"]), readers=_READERS),
    rule("files", MoveFileTemplate(), (  # "the photo": the task makes it the only picture of {src}
        "move [the|my] {kind} from [the|my] {src} to [the|my] {dest} [folder]",
        "move [the] file {file} from [the|my] {src} to [the|my] {dest} [folder]",
        "move {file} from [the|my] {src} to [the|my] {dest} [folder]",
    ), _move, readers=_READERS),
    rule("files", RenameFileTemplate(), (
        "rename [the] [file] {file} to {new_file}",
        "change the name of [the] [file] {file} to {new_file}",
    ), _rename, readers=_READERS),
    rule("files", FindDownloadTemplate(), (  # found: its page (or File info) open in Files
        "(find|open|show me) the {kind} [file] [that] i downloaded {date}",
        "(find|open|show me) the {kind} [file] (from|downloaded) {date}",
    ), _find, readers=_READERS),
    rule("files", CreateFolderTemplate(), (
        "(create|make|add) a [new] folder (called|named) {folder_name}",
    ), lambda s: everyday_params("files_create_folder", new=s["folder_name"]), readers=_READERS),
    rule("files", CreateFolderTemplate(), (
        "(create|make|add) a [new] folder (called|named) {folder_name} in [the|my] {folder}",
    ), lambda s: everyday_params("files_create_folder", new=s["folder_name"], where=s["folder"]),
        readers=_READERS),
)
"""Files: delete, move, rename and find files; create folders."""
