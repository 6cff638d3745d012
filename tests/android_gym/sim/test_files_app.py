"""Tests of the Files app of the simulated phone: the Browse page, folders and categories over one set of files,
rename, Trash (move, restore, delete forever), Move to / Copy to with a new folder, selection, sort, search, info,
back, XML, pixels, seeding, the episode RNG and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import files as F
from android_gym.sim.apps.files import FilesApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(FilesApp)
KNOWN = [{"path": "Download/visa.pdf", "size_kb": 532, "date": "2026-06-01"},
         {"path": "Download/big_video.mp4", "size_kb": 88_000, "date": "2026-05-02"},
         {"path": "Download/notes.txt", "size_kb": 12_345, "date": "2026-06-09"}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Files installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone(extra: list[dict] | None = None) -> SimPhone:
    """Files open on Internal storage's Download folder, which holds only the known files (and `extra`)."""
    absent = [p for p in F.seeded_files(0) if p.startswith("Download/")]
    phone = make_phone(initial={F.PACKAGE: {"absent": absent, "files": KNOWN + (extra or [])}})
    phone.launch("Files")
    press(phone, desc=F.ROOT_LABEL)
    press(phone, text="Download")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def fs(phone: SimPhone) -> dict:
    """The Files state."""
    return phone.state()["apps"][F.PACKAGE]


def paths(phone: SimPhone) -> set[str]:
    """Every file's path."""
    return {f["path"] for f in fs(phone)["files"]}


def names(phone: SimPhone) -> list[str]:
    """The file names listed on screen, in order."""
    return [e.text for e in phone.elements() if e.rid == F.TITLE_RID]


def test_browse_page_lists_categories_storage_and_trash():
    """Home shows the five categories with counts, Internal storage and Trash; a category keeps the old state keys."""
    phone = make_phone(5)
    phone.launch("Files")
    labels = [e.label for e in phone.elements()]
    assert all(c in labels for c in F.CATEGORIES) and F.ROOT_LABEL in labels and "Trash" in labels
    press(phone, desc="Downloads")
    state = fs(phone)
    assert (state["page"], state["category"]) == ("category", "Downloads")
    assert set(names(phone)) == {f["name"] for f in F.files_in("Downloads", 5)}
    phone.key("back")
    press(phone, desc="Images")
    assert names(phone) and all(n.endswith((".jpg", ".png")) for n in names(phone))


def test_folders_hold_the_files_and_a_file_opens():
    """Internal storage lists the folders; Download its files with size and date; a row opens the file's page."""
    phone = known_phone()
    assert fs(phone)["folder"] == "Download" and names(phone) == ["big_video.mp4", "notes.txt", "visa.pdf"]
    assert find(phone.elements(), text="532 kB \u00b7 Jun 1, 2026") is not None
    press(phone, text="notes.txt")
    assert fs(phone)["page"] == "file" and fs(phone)["opened"] == "Download/notes.txt"
    assert find(phone.elements(), text="12.35 MB \u00b7 Jun 9, 2026") is not None
    phone.key("back")
    phone.key("back")
    assert set(F.FOLDERS) <= set(names(phone))


def test_rename_keeps_the_extension_and_refuses_a_taken_name():
    """The dialog edits the stem; a taken name shows an error; OK renames in place and logs it."""
    phone = known_phone([{"path": "Download/taken.pdf", "size_kb": 40}])
    press(phone, desc="More options for visa.pdf")
    press(phone, text="Rename")
    assert phone.top.fields[F.NAME_RID] == "visa" and find(phone.elements(), text=".pdf") is not None
    press(phone, desc="Clear text")
    press(phone, text="OK")
    assert phone.top.args["error"] == "Enter a name"
    phone.type_text("taken")
    press(phone, text="OK")
    assert phone.top.args["error"] == "A file with this name already exists"
    assert find(phone.elements(), rid=f"{F.PACKAGE}:id/textinput_error") is not None
    press(phone, desc="Clear text")
    phone.type_text("visa_2026")
    phone.key("enter")
    assert "Download/visa_2026.pdf" in paths(phone) and "Download/visa.pdf" not in paths(phone)
    assert fs(phone)["edits"][-1] == {"op": "rename", "path": "Download/visa.pdf", "to": "Download/visa_2026.pdf"}


def test_trash_asks_first_restores_and_deletes_forever():
    """Move to Trash asks "Move 1 file to Trash?"; Cancel keeps it; Trash restores it or deletes it forever."""
    phone = known_phone()
    press(phone, desc="More options for notes.txt")
    press(phone, text="Move to Trash")
    assert find(phone.elements(), text="Move 1 file to Trash?") is not None
    press(phone, text="Cancel")
    assert "Download/notes.txt" in paths(phone)
    press(phone, desc="More options for notes.txt")
    press(phone, text="Move to Trash")
    press(phone, text="Move to Trash")
    assert "Download/notes.txt" not in paths(phone) and fs(phone)["trash"][0]["path"] == "Download/notes.txt"
    phone.key("back")
    phone.key("back")
    press(phone, desc="Trash")
    press(phone, desc="More options for notes.txt")
    press(phone, text="Restore")
    assert "Download/notes.txt" in paths(phone) and fs(phone)["trash"] == []
    phone.key("back")
    press(phone, desc=F.ROOT_LABEL)
    press(phone, text="Download")
    press(phone, desc="More options for visa.pdf")
    press(phone, text="Move to Trash")
    press(phone, text="Move to Trash")
    phone.key("back")
    phone.key("back")
    press(phone, desc="Trash")
    press(phone, desc="More options for visa.pdf")
    press(phone, text="Delete forever")
    assert find(phone.elements(), text="Delete 1 file forever?") is not None
    press(phone, text="Delete")
    assert fs(phone)["trash"] == [] and [e["op"] for e in fs(phone)["edits"]] == ["trash", "restore", "trash",
                                                                                "delete"]


def test_select_two_and_move_them_into_a_new_folder():
    """Select, tap a second row, More options, Move to, a folder, New folder, Create (it opens), Move here."""
    phone = known_phone()
    press(phone, desc="More options for visa.pdf")
    press(phone, text="Select")
    press(phone, text="notes.txt")
    assert fs(phone)["selected"] == ["Download/visa.pdf", "Download/notes.txt"]
    assert find(phone.elements(), text="2 selected") is not None
    press(phone, desc="More options")
    press(phone, text="Move to")
    assert find(phone.elements(), text="Move 2 items to") is not None
    press(phone, text="Documents")
    press(phone, text="New folder")
    phone.type_text("Trip")
    press(phone, text="Create")
    assert phone.top.name == "picker" and phone.top.args["folder"] == "Documents/Trip"
    phone.key("back")  # up a folder, then back in
    assert phone.top.args["folder"] == "Documents"
    press(phone, text="Trip")
    press(phone, text="Move here")
    assert {"Documents/Trip/visa.pdf", "Documents/Trip/notes.txt"} <= paths(phone)
    assert "Download/visa.pdf" not in paths(phone) and fs(phone)["selected"] is None
    assert [e["op"] for e in fs(phone)["edits"]] == ["mkdir", "move", "move"]


def test_copy_to_keeps_the_original_and_a_taken_name_gets_a_number():
    """Copy to puts a copy (dated today) in the folder; copying again names it "visa (1).pdf"."""
    phone = known_phone()
    for _ in range(2):
        press(phone, desc="More options for visa.pdf")
        press(phone, text="Copy to")
        press(phone, text="Documents")
        press(phone, text="Copy here")
    assert {"Download/visa.pdf", "Documents/visa.pdf", "Documents/visa (1).pdf"} <= paths(phone)
    copy = next(f for f in fs(phone)["files"] if f["path"] == "Documents/visa.pdf")
    assert copy["size_kb"] == 532 and copy["date"] == F.iso(0)


def test_selection_back_sort_search_and_info():
    """BACK leaves selection mode; Sort by size reorders; search finds by name; File info shows size, date, path."""
    phone = known_phone()
    press(phone, desc="More options")
    press(phone, text="Select all")
    assert len(fs(phone)["selected"]) == 3
    phone.key("back")
    assert fs(phone)["selected"] is None and fs(phone)["folder"] == "Download"
    press(phone, desc="Sort")
    press(phone, text="Size (smallest first)")
    assert fs(phone)["sort"] == "size_small" and names(phone) == ["visa.pdf", "notes.txt", "big_video.mp4"]
    phone.key("back")
    phone.key("back")
    press(phone, desc="Search")
    phone.type_text("vis")
    assert names(phone) == ["visa.pdf"] and fs(phone)["query"] == "vis"
    press(phone, desc="More options for visa.pdf")
    press(phone, text="File info")
    labels = [e.label for e in phone.elements()]
    assert {"532 kB", "Jun 1, 2026", "/storage/emulated/0/Download/visa.pdf"} <= set(labels)
    assert fs(phone)["opened"] == fs(phone)["last_opened"] == "Download/visa.pdf"
    press(phone, text="Close")
    assert fs(phone)["page"] == "search"


@pytest.mark.parametrize("steps", [[], [F.ROOT_LABEL], [F.ROOT_LABEL, "Download"], ["Trash"],
                                   [F.ROOT_LABEL, "Download", "More options for visa.pdf"],
                                   [F.ROOT_LABEL, "Download", "More options for visa.pdf", "Rename"]])
def test_xml_parses_and_lists_what_the_screen_shows(steps: list[str]):
    """The uiautomator dump parses to the phone's own elements and lists the screen's texts."""
    phone = make_phone(initial={F.PACKAGE: {"files": KNOWN[:1]}})
    phone.launch("Files")
    for step in steps:
        press(phone, **({"desc": step} if find(phone.elements(), desc=step) else {"text": step}))
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {0: "Categories", 1: "Download", 2: "visa.pdf", 1.5: "Trash is empty", 3: "Copy to", 4: "Clear text"}
    key = 1.5 if steps == ["Trash"] else len(steps)
    assert expected[key] in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """A row's name is drawn (not blank), and the Trash dialog dims the screen."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {F.PACKAGE: {"files": KNOWN}})
    device.phone.launch("Files")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    press(device.phone, desc=F.ROOT_LABEL)
    press(device.phone, text="Download")
    title = find(device.ui_elements(), text="visa.pdf").bounds
    before = region(title)
    assert before.std() > 20
    press(device.phone, desc="More options for visa.pdf")
    press(device.phone, text="Move to Trash")
    assert region(title).mean() < before.mean() - 20  # the scrim behind the dialog


def test_files_are_seeded_per_episode():
    """The same seed gives the same files; other seeds other names, sizes and dates; every folder is there."""
    def files(seed: int) -> list[dict]:
        return fs(make_phone(seed))["files"]

    assert files(5) == files(5)
    assert len({repr(files(s)) for s in range(6)}) == 6
    assert all(f["folder"] in F.FOLDERS and f["date"] <= str(F.DATE) for f in files(3))
    assert F.files_in("Downloads", 5)[0]["name"] in {f["name"] for f in files(5) if f["folder"] == "Download"}


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with Files draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Files")
    press(mine, desc=F.ROOT_LABEL)
    press(mine, text="Download")
    first = names(mine)[0]
    press(mine, desc=f"More options for {first}")
    press(mine, text="Move to Trash")
    press(mine, text="Move to Trash")
    mine.tree()
    mine.state()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial", [{"documents": []}, {"files": [{"path": "/abs.pdf", "size_kb": 3}]},
                                     {"files": [{"path": "a.pdf"}]}, {"trash": [{"path": "", "size_kb": 1}]},
                                     {"absent": ["Download/"]}])
def test_apply_refuses_unknown_keys_and_bad_values(initial: dict):
    """Unknown keys, absolute or empty paths and files without a size are refused."""
    with pytest.raises(ConfigError):
        make_phone(initial={F.PACKAGE: initial})


def test_state_is_fresh_data_the_reader_may_mutate():
    """Mutating what state() returned reaches neither the app nor the next reader."""
    app = known_phone().apps[F.PACKAGE]
    first = app.state()
    first["files"].clear()
    first["edits"].append({"op": "x"})
    assert app.state()["files"] and app.state()["edits"] == []
