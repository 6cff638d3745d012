"""Markor and Files on the typed seam (issue 48): initial conditions validated by each app's model with the field
named (the closest key for a misspelt one), and each app's state after a rich reset fitting its schema."""  # noqa: D205, D209

from __future__ import annotations

from typing import get_args

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app_state import state_of, state_problems
from android_gym.sim.apps import files, markor
from android_gym.sim.phone import SimPhone


@pytest.mark.parametrize("package, initial, message", [
    (markor.PACKAGE, {"fils": {}}, r"unknown config key `Markor\.fils`; did you mean `Markor\.files`\?"),
    (markor.PACKAGE, {"absnet": []}, r"unknown config key `Markor\.absnet`; did you mean `Markor\.absent`\?"),
    (files.PACKAGE, {"trsh": []}, r"unknown config key `Files\.trsh`; did you mean `Files\.trash`\?"),
    (files.PACKAGE, {"files": [{"path": "a.pdf", "size": 3}]},
     r"unknown config key `Files\.files\.0\.size`; did you mean `Files\.files\.0\.size_kb`\?"),
])
def test_an_unknown_initial_key_is_refused_naming_the_closest(package: str, initial: dict, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("package, initial, message", [
    (markor.PACKAGE, {"files": {"/abs.md": ""}}, r"`Markor\.files` must be a relative, non-empty path .*'/abs\.md'"),
    (markor.PACKAGE, {"absent": ["Work/"]}, r"`Markor\.absent` must be a relative, non-empty path .*got 'Work/'"),
    (markor.PACKAGE, {"folders": [""]}, r"`Markor\.folders` must be a relative, non-empty path .*got ''"),
    (markor.PACKAGE, {"files": {"a.md": 3}}, r"`Markor\.files\.a\.md` must be a valid string, got 3"),
    (files.PACKAGE, {"files": [{"path": "/a.pdf", "size_kb": 3}]},
     r"`Files\.files\.0\.path` must be a path relative to Internal storage .*got '/a\.pdf'"),
    (files.PACKAGE, {"files": [{"path": "a.pdf"}]}, r"`Files\.files\.0\.size_kb` is required"),
    (files.PACKAGE, {"trash": [{"path": "a.pdf", "size_kb": "3"}]},
     r"`Files\.trash\.0\.size_kb` must be a valid integer, got '3'"),
    (files.PACKAGE, {"files": [{"path": "a.pdf", "size_kb": -1}]},
     r"`Files\.files\.0\.size_kb` must be greater than or equal to 0, got -1"),
    (files.PACKAGE, {"trash": [{"path": "a.pdf", "size_kb": 3, "date": "June 1"}]},
     r"`Files\.trash\.0\.date` must be a date \"YYYY-MM-DD\", got 'June 1'"),
    (files.PACKAGE, {"absent": ["Download/"]}, r"`Files\.absent` must be a path relative to Internal storage"),
])
def test_a_bad_initial_value_is_refused_naming_the_field(package: str, initial: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


def test_markor_set_up_from_rich_initial_conditions_fits_its_schema() -> None:
    phone = SimPhone()
    seeded_folders, seeded_files, _ = markor.notebook(4)
    gone = sorted(seeded_files)[0]
    phone.reset(4, {markor.PACKAGE: {"absent": [gone, "Nowhere/x.md"], "folders": ["Trips/2026"],
                                     "files": {"Deep/er/note.md": "# Hi", "top.txt": ""}}})
    phone.launch("Markor")
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, markor.MarkorState)
    assert gone not in mine["files"] and mine["files"]["Deep/er/note.md"] == "# Hi" and mine["files"]["top.txt"] == ""
    assert {"Trips", "Trips/2026", "Deep", "Deep/er", *seeded_folders} <= set(mine["folders"])
    assert mine["modified"]["Deep/er"] == mine["modified"]["top.txt"] == str(markor.DATE)
    assert mine["screen"] == "browser" and mine["folder"] == "" and mine["open"] is None and mine["edits"] == []


def test_markors_state_with_a_note_open_and_edits_logged_fits_its_schema() -> None:
    phone = SimPhone()
    phone.reset(1, {markor.PACKAGE: {"files": {"a.md": "A"}}})
    app = phone.apps[markor.PACKAGE]
    app._relocate("a.md", "b.md")
    app.edits.append({"op": "rename", "path": "a.md", "to": "b.md"})
    phone.launch("Markor")
    phone.tap(*next(e for e in phone.elements() if e.text == "b.md").center)
    mine = state_of(phone.state(), markor.MarkorState)
    assert mine["open"] == {"path": "b.md", "mode": "edit", "text": "A", "saved": True}
    assert state_problems(phone.state()) == []


def test_files_set_up_from_rich_initial_conditions_fits_its_schema() -> None:
    phone = SimPhone()
    seeded = sorted(files.seeded_files(6))
    phone.reset(6, {files.PACKAGE: {
        "absent": [seeded[0], "Download/never_there.pdf"], "folders": ["Documents/Work/2026"],
        "files": [{"path": "Trips/visa.pdf", "size_kb": 532, "date": "2026-06-01"},
                  {"path": "Download/notes.txt", "size_kb": 0}],
        "trash": [{"path": "Music/demo.mp3", "size_kb": 4000, "date": "2026-05-02"}]}})
    phone.launch("Files")
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, files.FilesState)
    by_path = {f["path"]: f for f in mine["files"]}
    assert seeded[0] not in by_path and by_path["Download/notes.txt"]["date"] == files.iso(0)
    assert by_path["Trips/visa.pdf"] == {"path": "Trips/visa.pdf", "folder": "Trips", "name": "visa.pdf",
                                         "size_kb": 532, "date": "2026-06-01"}
    assert {"Trips", "Documents/Work", "Documents/Work/2026"} <= set(mine["folders"])
    assert mine["trash"] == [{"path": "Music/demo.mp3", "name": "demo.mp3", "size_kb": 4000, "date": "2026-05-02"}]
    assert mine["page"] == "home" and mine["sort"] == "name" and mine["edits"] == []
    app = phone.apps[files.PACKAGE]
    app._relocate("copy", ["Trips/visa.pdf"], "Documents")
    app._restore(0)
    after = {"apps": {files.PACKAGE: app.state()}}  # the app's own report: the phone's is kept until the screen changes
    assert state_of(after, files.FilesState)["edits"] == [
        {"op": "copy", "path": "Trips/visa.pdf", "to": "Documents/visa.pdf"},
        {"op": "restore", "path": "Music/demo.mp3"}]
    assert state_problems(after) == []


def test_the_files_literals_are_the_apps_own_names() -> None:
    """`Category` and `Sort` list exactly `CATEGORIES` and `SORTS`, so the schema and the app cannot drift apart."""
    assert get_args(files.Category) == tuple(files.CATEGORIES)
    assert get_args(files.Sort) == tuple(files.SORTS)
