"""The file system that the Files app (Files by Google) browses: what is seeded where, and pure helpers over its paths.

Files are drawn per episode from `stable_seed("files", ..., phone.seed)` (never the episode RNG): each category's
`files_in` lie in Internal storage's folders (Downloads in Download, images in DCIM and Pictures, videos in Movies,
audio in Music and Recordings, documents in Documents), with sizes and dates. Paths are relative to Internal storage
("Download/invoice_march.pdf"); its root is "". The categories are views over the files (Downloads: the Download
folder; the others by extension).

The file system itself is two plain containers the app owns: `files` ({path: {"size_kb", "date": "YYYY-MM-DD"}}) and
`folders` (a set of paths). The helpers here read or grow them (`mkdirs`, `free_path`, `subfolders`, `sort_paths`)
and turn sizes, dates and folders into the text Files shows (`size_label`, `date_label`, `crumbs`).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from android_gym.sim.app import stable_seed
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.apps.markor import base, join, parent  # the same relative paths ("" is the root)

CATEGORIES = {"Downloads": ("pdf", "zip", "apk", "jpg"), "Images": ("jpg", "png"), "Videos": ("mp4",),
              "Audio": ("mp3", "m4a"), "Documents": ("pdf", "docx", "txt")}
KINDS = {name: kinds for name, kinds in CATEGORIES.items() if name != "Downloads"}
"""The extensions each category other than Downloads lists, wherever the file is."""
HOMES = {"Downloads": "Download", "jpg": "DCIM", "png": "Pictures", "mp4": "Movies", "mp3": "Music",
         "m4a": "Recordings", "Documents": "Documents"}
"""Where a seeded file lies: a Downloads file in Download, else the folder of its extension (documents together)."""
FOLDERS = ("Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Pictures", "Recordings")
STEMS = ("boarding_pass", "invoice_march", "IMG_2041", "recipe", "lecture_notes", "tickets", "resume", "holiday",
         "podcast_ep12", "screen_recording", "manual", "receipt", "lease_agreement", "photo_backup", "song_demo")
"""The names seeded files are drawn from (an extension is added per category)."""
SORTS = {"name": "Name (A to Z)", "name_desc": "Name (Z to A)", "date": "Date (newest first)",
         "date_old": "Date (oldest first)", "size": "Size (largest first)", "size_small": "Size (smallest first)"}
ROOT_LABEL = "Internal storage"
DATE = datetime.date(*TODAY[:3])


def files_in(category: str, seed: int) -> list[dict[str, Any]]:
    """The seeded files of a category this episode: {"name", "size_kb", "category"}, six of them."""
    # Python's generator, not numpy's: drawn for every category at each reset, where numpy's per-call overhead showed
    rng = random.Random(stable_seed("files", category, seed))
    kinds = CATEGORIES[category]
    return [{"name": f"{STEMS[i]}.{rng.choice(kinds)}", "size_kb": rng.randrange(12, 90_000), "category": category}
            for i in rng.sample(range(len(STEMS)), 6)]


def seeded_files(seed: int) -> dict[str, dict[str, Any]]:
    """Episode `seed`'s files: {path: {"size_kb", "date": "YYYY-MM-DD"}}, dated up to 180 days back."""
    out: dict[str, dict[str, Any]] = {}
    for category in CATEGORIES:
        rng = random.Random(stable_seed("files", "dates", category, seed))
        for f in files_in(category, seed):
            ext = ext_of(f["name"])
            folder = HOMES.get(category) or HOMES[ext]
            out[join(folder, f["name"])] = {"size_kb": f["size_kb"], "date": iso(rng.randrange(180))}
    return out


def ext_of(name: str) -> str:
    """A file name's extension without the dot ("" for none).

    >>> ext_of("a.tar.pdf"), ext_of("notes")
    ('pdf', '')
    """
    return name.rpartition(".")[2].lower() if "." in name else ""


def stem(name: str) -> str:
    """A file name without its extension.

    >>> stem("a.tar.pdf"), stem("notes")
    ('a.tar', 'notes')
    """
    return name.rpartition(".")[0] if "." in name else name


def iso(days_ago: int) -> str:
    """The date `days_ago` days before the sim's today, "YYYY-MM-DD"."""
    return str(DATE - datetime.timedelta(days=days_ago))


def size_label(size_kb: int) -> str:
    """A size as Files shows it.

    >>> size_label(532), size_label(45_123), size_label(1_000)
    ('532 kB', '45.12 MB', '1.00 MB')
    """
    return f"{size_kb} kB" if size_kb < 1000 else f"{size_kb / 1000:.2f} MB"


def date_label(date: str) -> str:
    """A date as Files shows it.

    >>> date_label("2026-06-03")
    'Jun 3, 2026'
    """
    d = datetime.date.fromisoformat(date)
    return f"{d:%b} {d.day}, {d.year}"


def crumbs(folder: str) -> str:
    """A folder as the path bar shows it.

    >>> crumbs("Documents/Work"), crumbs("")
    ('Internal storage / Documents / Work', 'Internal storage')
    """
    return " / ".join([ROOT_LABEL, *(folder.split("/") if folder else [])])


def in_category(path: str, category: str) -> bool:
    """Whether a category lists the file: Downloads the Download folder's, the others by extension.

    Raises:
        KeyError: `category` is not a `CATEGORIES` key.
    """
    return path.startswith("Download/") if category == "Downloads" else ext_of(path) in KINDS[category]


def mkdirs(folders: set[str], folder: str) -> None:
    """Add `folder` and its missing ancestors to `folders` (the root "" is never added).

    >>> folders = {"Documents"}
    >>> mkdirs(folders, "Documents/Work/2026")
    >>> sorted(folders)
    ['Documents', 'Documents/Work', 'Documents/Work/2026']
    """
    while folder and folder not in folders:
        folders.add(folder)
        folder = parent(folder)


def free_path(files: dict[str, Any], folders: set[str], folder: str, name: str) -> str:
    """`name` in `folder`, made unique with " (1)", " (2)"... as Files does when it is taken.

    >>> free_path({"Download/a.pdf": {}, "Download/a (1).pdf": {}}, set(), "Download", "a.pdf")
    'Download/a (2).pdf'
    """
    stem_, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
    path, k = join(folder, name), 0
    while path in files or path in folders:
        k += 1
        path = join(folder, f"{stem_} ({k}){dot}{ext}")
    return path


def subfolders(folders: set[str], here: str) -> list[str]:
    """The folders directly inside `here`, by name regardless of case.

    >>> subfolders({"b", "A", "A/c"}, "")
    ['A', 'b']
    """
    return sorted((f for f in folders if parent(f) == here), key=str.casefold)


def sort_paths(paths: list[str], files: dict[str, dict[str, Any]], sort: str) -> list[str]:
    """`paths` (keys of `files`) in the order of `sort`, a `SORTS` key; ties keep path order.

    >>> files = {"a.pdf": {"date": "2026-01-02", "size_kb": 5}, "B.pdf": {"date": "2026-01-01", "size_kb": 9}}
    >>> sort_paths(list(files), files, "name"), sort_paths(list(files), files, "date")
    (['a.pdf', 'B.pdf'], ['a.pdf', 'B.pdf'])
    >>> sort_paths(list(files), files, "size_small")
    ['a.pdf', 'B.pdf']

    Raises:
        KeyError: `sort` does not start with "name", "date" or "size".
    """
    key = {"name": lambda p: base(p).casefold(), "date": lambda p: files[p]["date"],
           "size": lambda p: files[p]["size_kb"]}[sort.split("_")[0]]
    paths = sorted(sorted(paths), key=key)
    return paths[::-1] if sort in ("name_desc", "date", "size") else paths
