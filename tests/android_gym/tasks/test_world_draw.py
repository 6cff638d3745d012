"""The World suite's Simple Draw Pro tasks: what wins and which near miss loses (a save in another folder, format or
colour, a second file saved; an answer counting Download's decoys or the twin's strokes; a text naming an older
drawing), each on the state a task starts from, changed as an agent would change it."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import draw_state as DS
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import Task
from android_gym.tasks.world import draw_tasks as T
from android_gym.tasks.world.messaging_expert import person

State = Mapping[str, Any]
SAVE, COUNT, STROKES, LATEST = T.TEMPLATES


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def saved(state: State, path: str, colors: tuple[str, ...]) -> State:
    """`state` after the canvas, one stroke per colour, was saved to `path` (appended to the log of saves)."""
    d = state["apps"][DS.PACKAGE]
    strokes = [{"color": c, "width": 8, "x0": 1, "y0": 2, "x1": 300, "y1": 400} for c in colors]
    new = {"path": path, "folder": path.rsplit("/", 1)[0], "name": path.rsplit("/", 1)[1],
           "format": path.rsplit(".", 1)[1], "date": "2026-06-10", "strokes": strokes}
    files = [new, *(f for f in d["files"] if f["path"] != path)]
    return {**state, "apps": {**state["apps"], DS.PACKAGE: {**d, "files": files, "saved": [*d["saved"], path]}}}


def answered(text: str) -> Action:
    """The agent's answer."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


def test_a_drawing_saved_in_pictures_under_the_name_with_the_ink_wins_and_near_misses_lose() -> None:
    task = SAVE.tasks("train")[0]
    p, ink = task.params, DS.COLORS[task.params["ink"]]
    state = start(task)
    right = f"Pictures/{p['file']}"
    assert not task.check(state)
    assert task.check(saved(state, right, ("#000000", ink)))
    assert not task.check(saved(state, f"Download/{p['file']}", (ink,)))  # another folder
    assert not task.check(saved(state, f"Pictures/{p['file']}.png", (ink,)))  # the extension typed into the name
    assert not task.check(saved(state, right, ("#000000",)))  # not in the colour asked
    assert not task.check(saved(saved(state, right, (ink,)), "Pictures/other.png", (ink,)))  # a second file


def test_the_count_of_pictures_leaves_out_downloads_decoys() -> None:
    task = COUNT.tasks("train")[-1]  # its few goals all train (issue 50): the last instance
    state = start(task)
    count, decoys = task.params["count"], task.params["decoys"]
    assert task.check(state, answered(str(count)))
    assert not task.check(state, answered(str(count + decoys)))
    assert not task.check(saved(state, "Pictures/x.png", ("#000000",)), answered(str(count)))  # nothing may be saved


def test_the_stroke_count_is_the_drawings_not_its_twins() -> None:
    task = STROKES.tasks("train")[1]
    state = start(task)
    assert task.check(state, answered(str(task.params["strokes"])))
    assert not task.check(state, answered(str(task.params["twin_strokes"])))


def test_the_text_names_the_newest_drawing_not_an_older_one() -> None:
    task = LATEST.tasks("train")[0]
    state = start(task)
    name = task.params["person"]
    number = person(name)["number"]

    def texted(body: str) -> State:
        m, sent = state["apps"][M.PACKAGE], [{"name": name, "number": number, "text": body}]
        return {**state, "apps": {**state["apps"], M.PACKAGE: {**m, "sent": sent}}}

    assert task.check(texted(f"It's {task.params['latest']}"))
    assert not task.check(texted(task.params["older"]))
    assert not task.check(state)
