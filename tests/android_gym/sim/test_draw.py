"""Tests of the Simple Draw Pro app of the simulated phone: strokes drawn by drags, the colour and size pickers, Undo
and Redo, Clear, the Save as dialog (folder, name, format, its refusals; the file in Files' storage too), Open file,
BACK, seeding and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

from typing import get_args

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import draw as D
from android_gym.sim.apps import draw_state as DS
from android_gym.sim.apps import files as F
from android_gym.sim.apps.files_data import FOLDERS
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

KNOWN = [{"path": "Pictures/harbor.png", "date": "2026-06-01", "colors": ["#f44336", "#2196f3"], "strokes": 4},
         {"path": "Download/plan.svg", "date": "2026-05-02", "strokes": 1}]
X0, Y0 = D.CANVAS[0], D.CANVAS[1]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone (every app installed) with no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, initial)
    return phone


def known_phone(**conditions: object) -> SimPhone:
    """Simple Draw Pro open on its canvas, storage holding only the known images."""
    absent = list(DS.seeded_drawings(0))
    phone = make_phone(initial={DS.PACKAGE: {"absent": absent, "drawings": KNOWN, **conditions}})
    phone.launch("Simple Draw Pro")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def draw(phone: SimPhone) -> dict:
    """The app's state."""
    return phone.state()["apps"][DS.PACKAGE]


def save_as(phone: SimPhone, name: str, fmt: str = "png", folder: str | None = None) -> None:
    """Save, pick the folder, clear and type the name, pick the format, OK."""
    press(phone, desc="Save")
    if folder is not None:
        press(phone, rid=D.PATH_RID)
        press(phone, text=folder)
    press(phone, desc="Clear text")
    phone.type_text(name)
    press(phone, text=fmt.upper())
    press(phone, text="OK")


def test_a_drag_on_the_canvas_draws_a_stroke_in_the_brush_and_one_elsewhere_does_not():
    """Drags in any direction from the canvas draw (ends clipped to it); a drag from the tool bar draws nothing."""
    phone = known_phone()
    assert phone.swipe(200, 800, 900, 820)  # horizontal: no list to scroll, the canvas takes it
    assert phone.swipe(500, 1000, 480, 2300)  # ends below the canvas: clipped
    assert draw(phone)["canvas"] == [
        {"color": "#000000", "width": 8, "x0": 200, "y0": 800 - Y0, "x1": 900, "y1": 820 - Y0},
        {"color": "#000000", "width": 8, "x0": 500, "y0": 1000 - Y0, "x1": 480, "y1": D.CANVAS[3] - 1 - Y0}]
    assert find(phone.elements(), rid=D.CANVAS_RID).desc == "Drawing canvas, 2 strokes"
    assert not phone.swipe(200, D.CANVAS[3] + 100, 900, D.CANVAS[3] + 120)
    assert len(draw(phone)["canvas"]) == 2


def test_colour_and_size_pickers_set_the_brush_of_later_strokes():
    """Change color > Red, Brush size > 32 px; the next stroke is red and 32 px wide, the tool bar says so."""
    phone = known_phone()
    press(phone, desc="Change color")
    press(phone, desc="Red")
    press(phone, desc="Brush size")
    press(phone, text="32 px")
    assert find(phone.elements(), text="Red \u00b7 32 px") is not None
    phone.swipe(300, 700, 300, 1100)
    assert draw(phone)["canvas"][0]["color"] == "#f44336" and draw(phone)["canvas"][0]["width"] == 32
    assert draw(phone)["color"] == "#f44336" and draw(phone)["width"] == 32


def test_undo_redo_and_clear():
    """Undo takes the last stroke back, Redo restores it, a new stroke ends Redo, Clear empties the canvas."""
    phone = known_phone()
    phone.swipe(100, 700, 900, 700)
    phone.swipe(100, 900, 900, 900)
    press(phone, desc="Undo")
    assert [s["y0"] for s in draw(phone)["canvas"]] == [700 - Y0]
    press(phone, desc="Redo")
    assert [s["y0"] for s in draw(phone)["canvas"]] == [700 - Y0, 900 - Y0]
    press(phone, desc="Undo")
    phone.swipe(100, 1100, 900, 1100)
    assert not find(phone.elements(), desc="Redo").enabled
    press(phone, desc="More options")
    press(phone, text="Clear")
    assert draw(phone)["canvas"] == [] and draw(phone)["screen"] == "main"


def test_save_as_writes_the_name_with_the_formats_extension_in_the_folder():
    """The dialog opens on Pictures with a proposed name; the folder, name and format chosen give the path."""
    phone = known_phone()
    phone.swipe(100, 700, 900, 700)
    press(phone, desc="Save")
    assert find(phone.elements(), rid=D.NAME_RID).text == D.default_name(1)
    assert find(phone.elements(), rid=D.PATH_RID).text == "Internal storage/Pictures"
    phone.key("back")
    save_as(phone, "lorem_sketch", "svg", folder="Documents")
    state = draw(phone)
    assert state["saved"] == ["Documents/lorem_sketch.svg"] and state["screen"] == "main"
    new = next(f for f in state["files"] if f["path"] == "Documents/lorem_sketch.svg")
    assert new["format"] == "svg" and new["name"] == "lorem_sketch.svg" and len(new["strokes"]) == 1
    assert state["files"][0] == new and state["folder"] == "Documents"  # newest first; the dialog remembers
    assert any(f["path"] == "Documents/lorem_sketch.svg" for f in phone.state()["apps"][F.PACKAGE]["files"])


def test_save_refuses_an_empty_name_and_another_files_path():
    """An empty name and an existing file's path leave the dialog up with an error; nothing is written."""
    phone = known_phone()
    press(phone, desc="Save")
    press(phone, desc="Clear text")
    press(phone, text="OK")
    assert find(phone.elements(), rid=D.ERROR_RID).text == "The filename cannot be empty"
    phone.type_text("harbor")
    press(phone, text="OK")
    assert find(phone.elements(), rid=D.ERROR_RID).text == "A file with that name already exists"
    assert draw(phone)["saved"] == [] and draw(phone)["naming"] == "harbor"


def test_open_file_loads_a_drawing_and_save_overwrites_it():
    """Open file lists the images newest first; one opened fills the canvas, and Save writes back to it."""
    phone = known_phone()
    press(phone, desc="More options")
    press(phone, text="Open file")
    names = [e.text for e in phone.elements() if e.rid == f"{DS.PACKAGE}:id/file_name"]
    assert names == ["harbor.png", "plan.svg"]
    press(phone, text="harbor.png")
    assert len(draw(phone)["canvas"]) == 4 and draw(phone)["current"] == "Pictures/harbor.png"
    phone.swipe(100, 700, 900, 700)
    press(phone, desc="Save")
    assert find(phone.elements(), rid=D.NAME_RID).text == "harbor"
    press(phone, text="OK")
    harbor = next(f for f in draw(phone)["files"] if f["path"] == "Pictures/harbor.png")
    assert len(harbor["strokes"]) == 5 and draw(phone)["saved"] == ["Pictures/harbor.png"]


def test_back_closes_the_pop_ups_then_leaves_the_app():
    """BACK closes the folder picker, then the dialog, then the app."""
    phone = known_phone()
    press(phone, desc="Save")
    press(phone, rid=D.PATH_RID)
    for screen in ("save", "main"):
        phone.key("back")
        assert draw(phone)["screen"] == screen
    phone.key("back")
    assert phone.foreground != DS.PACKAGE


def test_seeded_drawings_fill_storage_per_seed_and_fit_the_schema():
    """A fresh phone has 2-6 images, the same for a seed and not for every seed; the state fits its schema."""
    phone = make_phone(3)
    files = draw(phone)["files"]
    assert 2 <= len(files) <= 6 and files == draw(make_phone(3))["files"]
    assert len({repr(draw(make_phone(s))["files"]) for s in range(4)}) > 1
    assert not [p for p in state_problems(phone.state()) if p.startswith(DS.PACKAGE)]
    assert get_args(DS.Folder) == FOLDERS


@pytest.mark.parametrize(("conditions", "field"), [
    ({"drawings": [{"path": "Pictures/cat.gif"}]}, "path"),
    ({"drawings": [{"path": "/sdcard/Pictures/cat.png"}]}, "path"),
    ({"drawings": [{"path": "Pictures/cat.png", "colors": ["#123456"]}]}, "colors"),
    ({"color": "red"}, "color"),
    ({"width": 7}, "width"),
    ({"folder": "Photos"}, "folder"),
    ({"colour": "#000000"}, "colour"),
])
def test_a_bad_initial_condition_fails_naming_the_field(conditions: dict, field: str):
    """Each bad value (or unknown key) is refused with its field named."""
    with pytest.raises(ConfigError, match=f"`Simple Draw Pro\\.([a-z]+\\.[0-9]\\.)?{field}`"):
        make_phone(initial={DS.PACKAGE: conditions})
