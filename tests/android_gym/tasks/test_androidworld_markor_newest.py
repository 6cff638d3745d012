"""Tests of AndroidWorld's `MarkorDeleteNewestNote` on the sim: starts drawn as AndroidWorld draws them and rebased
onto the phone's clock; deleting the top row after "Sort by" Date wins, also after opening a note without changing
it; deleting the last note made (when it is not the newest), or the newest plus a save of another, loses."""  # noqa: D205, D209

from __future__ import annotations

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor
from android_gym.tasks.androidworld.markor_edit import menu_step, on_menu
from android_gym.tasks.androidworld.markor_newest import TEMPLATES, stamps
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find
from android_gym.tasks.world.base import press
from android_gym.testing.rollout import drive

(NEWEST,) = TEMPLATES
PHONE = SimDevice("none")
INSTANCES = NEWEST.values("train") + NEWEST.values("test")


def mk(state: dict) -> dict:
    """Markor's part of a device state."""
    return state["apps"][markor.PACKAGE]


def delete(path: str):
    """A policy deleting note `path`: its More options, Delete, Delete."""
    return lambda els, st: (press(els, text="Delete", clickable=True) if on_menu(path, st, ("menu", "delete"))
                            else menu_step(path, els, st))


def start(params: dict) -> Task:
    """The phone reset to instance `params`, Markor open."""
    task = Task(NEWEST, params)
    PHONE.reset(0, task.initial)
    PHONE.phone.launch("Markor")
    return task


def test_starts_are_drawn_as_androidworld_draws_them_and_end_at_the_clock():
    """2-6 notes, clock moves within 500 minutes; the last note sits its last move before 9:41; the newest varies."""
    assert {len(p["notes"]) for p in INSTANCES} == {2, 3, 4, 5, 6}
    assert all(abs(m) <= 500 for p in INSTANCES for m in p["moves"])
    assert stamps((-20,)) == ["2026-06-10 10:01"] and stamps((20,)) == ["2026-06-10 09:21"]
    assert {NEWEST.newest(p) == p["notes"][-1] for p in INSTANCES} == {True, False}


def test_the_top_row_sorted_by_date_wins_after_only_looking():
    """Open a note and leave it unchanged, Sort by Date, delete the top row: it is the newest, the task is won."""
    params = next(p for p in INSTANCES if len(p["notes"]) >= 3)
    task = start(params)
    other = next(n for n in params["notes"] if n != NEWEST.newest(params))
    PHONE.phone.tap(*find(PHONE.ui_elements(), text=other).center)
    PHONE.phone.key("back")
    PHONE.phone.tap(*find(PHONE.ui_elements(), desc="Sort by").center)
    PHONE.phone.tap(*find(PHONE.ui_elements(), text="Date").center)
    top = next(e.text for e in PHONE.ui_elements() if e.rid == markor.TITLE_RID)
    assert top == NEWEST.newest(params)
    PHONE.phone.tap(*find(PHONE.ui_elements(), desc=f"More options for {top}").center)
    PHONE.phone.tap(*find(PHONE.ui_elements(), text="Delete").center)
    PHONE.phone.tap(*find(PHONE.ui_elements(), text="Delete", clickable=True).center)
    assert top not in mk(PHONE.state())["files"] and task.check(PHONE.state())


def test_the_last_note_made_loses_when_it_is_not_the_newest():
    """Deleting the last note AndroidWorld made, older than another, loses."""
    params = next(p for p in INSTANCES if NEWEST.newest(p) != p["notes"][-1])
    task = start(params)
    drive(PHONE, delete(params["notes"][-1]), lambda st: params["notes"][-1] not in mk(st)["files"])
    assert not task.check(PHONE.state())


def test_the_newest_deleted_with_another_note_edited_loses():
    """Deleting the newest wins; saving another note afterwards, even back to its old text (its time becomes 9:41),
    loses."""  # noqa: D205, D209
    params = next(p for p in INSTANCES if len(p["notes"]) >= 3)
    task = start(params)
    newest = NEWEST.newest(params)
    drive(PHONE, delete(newest), lambda st: newest not in mk(st)["files"])
    assert task.check(PHONE.state())
    other = next(n for n in params["notes"] if n != newest)
    text = mk(PHONE.state())["files"][other]
    for key in ("type", "delete"):  # a space saved, then taken out and saved: the text as before, the time 9:41
        PHONE.phone.tap(*find(PHONE.ui_elements(), text=other).center)
        PHONE.phone.tap(*find(PHONE.ui_elements(), rid=markor.EDITOR_RID).center)
        PHONE.phone.type_text(" ") if key == "type" else PHONE.phone.key("delete")
        PHONE.phone.key("back")
        PHONE.phone.key("back")
    state = mk(PHONE.state())
    assert state["files"][other] == text and state["modified_at"][other] == "2026-06-10 09:41"
    assert not task.check(PHONE.state())
