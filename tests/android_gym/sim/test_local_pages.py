"""Tests of Chrome's local HTML pages (`android_gym.sim.web.local`): Files' "Open with" Chrome, the maze, the multiply
form and the colours canvas driven by taps, typing and drags, a page reloaded, a missing file, and Chrome's
initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import math

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import browser as B
from android_gym.sim.apps import files as F
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.web import local as L
from android_gym.tasks.expert import find

TASK = "Download/task.html"


def page_phone(kind: str, seed: int = 12345) -> SimPhone:
    """A phone with task.html (holding page `kind`) in Download, Files open on the Download folder."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0, {F.PACKAGE: {"files": [{"path": TASK, "size_kb": 4}]},
                    B.PACKAGE: {"local_pages": [{"path": TASK, "kind": kind, "seed": seed}]}})
    phone.launch("Files")
    press(phone, desc="Internal storage")
    press(phone, text="Download")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def opened(kind: str, seed: int = 12345) -> SimPhone:
    """The page open in Chrome, from Files' Open with."""
    phone = page_phone(kind, seed)
    press(phone, text="task.html")
    press(phone, text="Chrome")
    return phone


def page(phone: SimPhone) -> dict:
    """Chrome's local page in front."""
    return phone.state()["apps"][B.PACKAGE]["local"]


def test_files_asks_which_app_opens_a_web_page_and_chrome_shows_it() -> None:
    phone = page_phone("maze")
    press(phone, text="task.html")
    assert phone.state()["apps"][F.PACKAGE]["page"] == "menu" and find(phone.elements(), text="Chrome")
    press(phone, text="Chrome")
    state = phone.state()
    assert state["foreground"] == B.PACKAGE and state["apps"][B.PACKAGE]["url"] == L.FILE_URL + TASK
    assert page(phone)["kind"] == "maze" and page(phone)["position"] == [0, 0]
    assert not [p for p in state_problems(state) if p.startswith((B.PACKAGE, F.PACKAGE))]


def test_the_maze_moves_through_open_cells_only_and_shows_success_on_the_goal() -> None:
    phone = opened("maze")
    layout = page(phone)["layout"]
    blocked = next(label for label, (dr, dc) in L.MOVES.items()
                   if not (0 <= dr < L.SIZE and 0 <= dc < L.SIZE) or layout[dr][dc] == "#")
    press(phone, text=blocked)
    assert page(phone)["position"] == [0, 0]
    while not page(phone)["success"]:
        r, c = page(phone)["position"]
        here = L.solution_length(layout, (r, c))
        press(phone, text=next(label for label, (dr, dc) in L.MOVES.items()
                               if 0 <= r + dr < L.SIZE and 0 <= c + dc < L.SIZE and layout[r + dr][c + dc] != "#"
                               and L.solution_length(layout, (r + dr, c + dc)) == here - 1))
    assert page(phone)["position"] == [3, 3] and find(phone.elements(), text="Success!") is not None


def test_opening_the_file_again_reloads_the_page() -> None:
    phone = opened("maze", seed=7)
    layout = page(phone)["layout"]
    step = "Right" if layout[0][1] != "#" else "Down"
    press(phone, text=step)
    assert page(phone)["position"] != [0, 0]
    phone.key("back")  # Chrome ran the page as an intent's new task: BACK leaves it
    assert phone.foreground != B.PACKAGE
    phone.launch("Files")
    press(phone, desc="Internal storage")
    press(phone, text="Download")
    press(phone, text="task.html")
    press(phone, text="Chrome")
    assert page(phone)["position"] == [0, 0]


def test_multiply_shows_five_numbers_then_the_form_and_checks_the_product() -> None:
    phone = opened("multiply")
    for _ in range(4):
        press(phone, text="Click Me")
    shown = page(phone)["numbers"]
    assert shown == L.numbers(12345) and not page(phone)["form"]
    press(phone, text="Click Me")
    assert page(phone)["form"] and find(phone.elements(), text="Click Me") is None
    press(phone, rid=L.ANSWER_RID)
    phone.type_text(str(math.prod(shown) + 1))
    press(phone, text="Submit")
    assert not page(phone)["success"]
    for _ in str(math.prod(shown) + 1):
        phone.key("delete")
    phone.type_text(str(math.prod(shown)))
    press(phone, text="Submit")
    assert page(phone)["success"] and find(phone.elements(), text="Success!") is not None


def test_colors_drag_strokes_in_the_ink_and_submit_wants_every_target() -> None:
    phone = opened("colors")
    targets = page(phone)["targets"]
    canvas = find(phone.elements(), rid="canvas")
    x0, y0, x1, y1 = canvas.bounds
    for color in targets[:2]:
        press(phone, desc=color, clickable=True)
        assert phone.swipe(x0 + 100, y0 + 200, x1 - 100, y0 + 260)
    press(phone, text="Submit")
    assert not page(phone)["success"] and page(phone)["used"] == targets[:2]
    press(phone, desc=targets[2], clickable=True)
    phone.swipe(x0 + 100, y1 - 200, x0 + 150, y0 + 100)  # vertical: the canvas takes it, the page does not scroll
    press(phone, text="Submit")
    assert page(phone)["success"] and phone.top.scroll == 0
    press(phone, text="Clear")
    assert page(phone)["used"] == [] and page(phone)["success"]  # Clear leaves the result, as the page does


def test_a_path_with_no_file_says_so() -> None:
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0)
    phone.launch("Chrome")
    press(phone, rid=B.URL_BAR)
    phone.type_text(L.FILE_URL + "Download/none.html")
    phone.key("enter")
    assert page(phone)["kind"] == "missing" and find(phone.elements(), text="ERR_FILE_NOT_FOUND") is not None


@pytest.mark.parametrize(("spec", "field"), [({"path": "Download/task.txt", "kind": "maze", "seed": 1}, "path"),
                                             ({"path": TASK, "kind": "chess", "seed": 1}, "kind"),
                                             ({"path": TASK, "kind": "maze", "seed": -1}, "seed")])
def test_a_bad_local_page_fails_naming_the_field(spec: dict, field: str) -> None:
    phone = SimPhone(PerturbationConfig.preset("none"))
    with pytest.raises(ConfigError, match=f"`Chrome.local_pages.0.{field}`"):
        phone.reset(0, {B.PACKAGE: {"local_pages": [spec]}})

