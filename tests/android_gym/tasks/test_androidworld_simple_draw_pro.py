"""AndroidWorld's Simple Draw Pro task on the suite: names drawn as AndroidWorld draws them, and a check that lets
what AndroidWorld counts win (the named image in Pictures, whatever it shows) and what it does not lose (another
folder, another format, the extension typed into the name)."""  # noqa: D205, D209

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import draw_state as DS
from android_gym.tasks.androidworld import simple_draw_pro as A
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

(DRAWING,) = A.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def saved(state: State, path: str, strokes: int = 0) -> State:
    """`state` after a canvas of `strokes` strokes was saved to `path`."""
    d = state["apps"][DS.PACKAGE]
    new = {"path": path, "folder": path.rsplit("/", 1)[0], "name": path.rsplit("/", 1)[1],
           "format": path.rsplit(".", 1)[1], "date": "2026-06-10",
           "strokes": [{"color": "#000000", "width": 8, "x0": 0, "y0": 0, "x1": 99, "y1": 99}] * strokes}
    return {**state, "apps": {**state["apps"], DS.PACKAGE: {**d, "files": [new, *d["files"]],
                                                             "saved": [*d["saved"], path]}}}


def test_names_are_a_word_a_random_file_name_and_an_extension() -> None:
    names = [p["file_name"] for p in DRAWING.values("train") + DRAWING.values("test")]
    assert len(names) > 100 and all(re.fullmatch(r"[a-z]+_[A-Za-z0-9_]+\.(png|svg|jpg)", n) for n in names)
    assert {n.split("_")[0] for n in names} == set(A.WORDS)
    assert {n.rsplit(".", 1)[1] for n in names} == {"png", "svg", "jpg"}
    assert not {p["file_name"] for p in DRAWING.values("train")} & {p["file_name"] for p in DRAWING.values("test")}


def test_storage_starts_empty_and_the_dialog_on_the_drawn_folder() -> None:
    task = next(t for t in DRAWING.tasks("train") if t.params["start"] != "Pictures")
    d = start(task)["apps"][DS.PACKAGE]
    assert d["files"] == [] and d["folder"] == task.params["start"]


def test_the_named_image_in_pictures_wins_even_blank() -> None:
    """AndroidWorld reads only that the file exists: an empty canvas saved under the name wins."""
    task = DRAWING.tasks("test")[0]
    state = start(task)
    assert not task.check(state)
    assert task.check(saved(state, f"Pictures/{task.params['file_name']}"))
    assert task.check(saved(state, f"Pictures/{task.params['file_name']}", strokes=3))


def test_another_folder_format_or_the_extension_typed_in_loses() -> None:
    task = DRAWING.tasks("train")[0]
    name = task.params["file_name"]
    stem, ext = name.rsplit(".", 1)
    other = next(f for f in DS.FORMATS if f != ext)
    state = start(task)
    for path in (f"Download/{name}", f"Pictures/{stem}.{other}", f"Pictures/{name}.{ext}", f"DCIM/{name}"):
        assert not task.check(saved(state, path, strokes=2)), path


def test_the_expert_picks_pictures_when_the_dialog_opens_elsewhere() -> None:
    task = next(t for t in DRAWING.tasks("test") if t.params["start"] != "Pictures")
    episode = run_episode(task, seed=2, device=phone())
    assert episode.success
    assert phone().state()["apps"][DS.PACKAGE]["saved"] == [f"Pictures/{task.params['file_name']}"]
