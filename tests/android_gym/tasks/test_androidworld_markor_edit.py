"""AndroidWorld's Markor editing tasks on the suite (`markor_edit`): starts as AndroidWorld's (the notebook emptied,
the task's notes with a line break, noise notes), checks that let the asked change win and lose to near misses (a
near text AndroidWorld's fuzzy match would pass, the wrong folder or name, a note left or extra edited), and the
composite won only with both its parts.
"""  # noqa: D205

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.androidworld import markor_edit as E
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

CHANGE, DELETE_ALL, MERGE, MOVE, HEADER, EDIT, NOTE_SMS = E.TEMPLATES
State = Mapping[str, Any]


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(task: Task, seed: int = 0) -> State:
    """The phone's state right after the task's reset."""
    phone().reset(seed, task.initial)
    return phone().state()


def edited(state: State, files: Mapping[str, str | None] | None = None, folders: tuple[str, ...] = (),
           edits: tuple[dict[str, str], ...] = ()) -> State:
    """`state` with Markor's notes set (None removes one), folders added and `edits` appended to its log."""
    m = state["apps"][markor.PACKAGE]
    notes = dict(m["files"])
    for path, text in (files or {}).items():
        if text is None:
            notes.pop(path, None)
        else:
            notes[path] = text
    changed = {**m, "files": notes, "folders": sorted({*m["folders"], *folders}), "edits": [*m["edits"], *edits]}
    return {**state, "apps": {**state["apps"], markor.PACKAGE: changed}}


def renamed(state: State, old: str, new: str, text: str) -> State:
    """`state` with note `old` saved with `text` and renamed `new`."""
    return edited(state, {old: None, new: text}, edits=({"op": "save", "path": old},
                                                        {"op": "rename", "path": old, "to": new}))


def saved(state: State, path: str, text: str) -> State:
    """`state` with note `path` saved with `text`."""
    return edited(state, {path: text}, edits=({"op": "save", "path": path},))


def notes_of(state: State) -> dict[str, str]:
    """Markor's notes by path."""
    return state["apps"][markor.PACKAGE]["files"]


# -- starts -----------------------------------------------------------------------------------------------------------
def test_every_start_empties_the_seeded_notebook() -> None:
    for template in E.TEMPLATES:
        task = template.tasks("train")[0]
        state = start(task, seed=5)
        assert set(notes_of(state)) == {p for p in task.initial[markor.PACKAGE]["files"]}, template.name
        assert set(state["apps"][markor.PACKAGE]["folders"]) == set(task.initial[markor.PACKAGE]["folders"])


def test_names_and_contents_are_drawn_as_androidworld_draws_them() -> None:
    merge = MERGE.values("train")
    assert all(re.fullmatch(r"[A-Za-z0-9]{8}", p["new_file_name"]) for p in merge)
    assert all(re.fullmatch(r"[A-Za-z0-9]{20}", p[f"file{k}_content"]) for p in merge for k in (1, 2, 3))
    edits = EDIT.values("train")
    assert all(re.fullmatch(r"note_[A-Za-z0-9]{5}\.(md|txt)", p["file_name"]) for p in edits)
    assert {p["edit_type"] for p in edits} == {"header", "footer", "replace"}
    assert all(len(p["replace_text"].split("\n")) == 3 for p in edits if p["edit_type"] == "replace")
    moves = MOVE.values("train")
    assert all(p["source_folder"] != p["destination_folder"] and {p["source_folder"], p["destination_folder"]}
               <= set(E.SUBFOLDERS) for p in moves)
    counts = [len(p["notes"]) for p in DELETE_ALL.values("train")]
    assert min(counts) == 1 and max(counts) == 6
    numbers = [p["number"] for p in NOTE_SMS.values("train")]
    assert all(re.fullmatch(r"\+1\d{10}", n) for n in numbers)


# -- MarkorDeleteAllNotes ---------------------------------------------------------------------------------------------
def test_deleting_every_note_wins_and_one_left_or_a_folder_made_loses() -> None:
    task = max(DELETE_ALL.tasks("train"), key=lambda t: len(t.params["notes"]))
    state = start(task)
    notes = list(notes_of(state))
    assert len(notes) == 6 and not task.check(state)
    gone = edited(state, dict.fromkeys(notes), edits=tuple({"op": "delete", "path": p} for p in notes))
    assert task.check(gone)
    assert not task.check(edited(state, dict.fromkeys(notes[1:])))
    assert not task.check(edited(gone, folders=("Archive",), edits=({"op": "mkdir", "path": "Archive"},)))


# -- MarkorMoveNote ---------------------------------------------------------------------------------------------------
def test_the_note_moved_to_the_destination_wins_elsewhere_copied_or_edited_loses() -> None:
    task = MOVE.tasks("train")[0]
    p, state = task.params, start(task)
    src = f"{p['source_folder']}/{p['file_name']}"
    dest, text = f"{p['destination_folder']}/{p['file_name']}", notes_of(state)[src]

    def moved(to: str, body: str = text) -> State:
        return edited(state, {src: None, to: body}, edits=({"op": "move", "path": src, "to": to},))

    assert task.check(moved(dest))
    assert not task.check(moved(p["file_name"]))  # to the root
    assert not task.check(moved(f"{p['destination_folder']}/{p['source_folder']}/{p['file_name']}"))
    assert not task.check(edited(state, {dest: text}, edits=({"op": "create", "path": dest},)))  # a copy
    assert not task.check(moved(dest, text + "!"))
    twin = next(n for n in notes_of(state) if n.startswith(p["source_folder"]) and n != src)
    assert not task.check(edited(moved(dest), {twin: None}, edits=({"op": "delete", "path": twin},)))


def test_the_expert_moves_the_note_with_one_edit() -> None:
    task = MOVE.tasks("test")[0]
    assert run_episode(task, seed=2, device=phone()).success
    assert [e["op"] for e in phone().state()["apps"][markor.PACKAGE]["edits"]] == ["move"]


# -- MarkorMergeNotes -------------------------------------------------------------------------------------------------
def test_the_merged_note_under_the_bare_name_wins_an_extension_a_near_text_or_a_source_edited_loses() -> None:
    task = MERGE.tasks("train")[0]
    p, state = task.params, start(task)
    one, two, three = (p[f"file{k}_content"] for k in (1, 2, 3))
    new, merged = p["new_file_name"], f"{one}\n\n{two}\n\n{three}"

    def made(path: str, body: str) -> State:
        return edited(state, {path: body}, edits=({"op": "create", "path": path}, {"op": "save", "path": path}))

    assert task.check(made(new, merged + "\n"))
    via_draft = edited(made(f"{new}.md", merged), {f"{new}.md": None, new: merged},
                       edits=({"op": "rename", "path": f"{new}.md", "to": new},))
    assert task.check(via_draft)
    assert not task.check(made(f"{new}.md", merged))  # AndroidWorld reads the bare name
    assert not task.check(made(new, f"{one}\n{two}\n{three}"))  # no blank lines between
    assert not task.check(made(new, f"{two}\n\n{one}\n\n{three}"))  # another order
    assert not task.check(made(new, merged[:-1]))  # a character short: AndroidWorld's fuzzy match would pass it
    assert not task.check(edited(via_draft, {f"{new}.md": merged}))  # the draft left beside it
    source = p["file1_name"]
    assert not task.check(edited(via_draft, {source: None}, edits=({"op": "delete", "path": source},)))


# -- MarkorEditNote ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["header", "footer", "replace"])
def test_the_edit_of_the_goals_kind_wins_and_its_near_misses_lose(kind: str) -> None:
    task = next(t for t in EDIT.tasks("train") if t.params["edit_type"] == kind)
    p, state = task.params, start(task)
    name, old = p["file_name"], p["original"]
    assert notes_of(state)[name] == old + "\n" and not task.check(state)
    assert task.goal.startswith(f"Edit {name} in Markor. ") and p.get(kind, p.get("replace_text")) in task.goal
    if kind == "header":
        good, near = f"{p['header']}\n{old}", [f"{old}\n{p['header']}", f"{p['header']} {old}", p["header"]]
    elif kind == "footer":
        good, near = f"{old}\n{p['footer']}", [f"{p['footer']}\n{old}", f"{old} {p['footer']}", p["footer"]]
    else:
        lines = p["replace_text"].split("\n")
        good, near = p["replace_text"], ["\n".join(lines[:2]), f"{old}\n{p['replace_text']}", " ".join(lines)]
    assert task.check(saved(state, name, good + "\n"))
    assert all(not task.check(saved(state, name, text)) for text in near)
    assert not task.check(saved(state, name, good.lower()))  # AndroidWorld's fuzzy match would pass this
    twin = next(n for n in notes_of(state) if n != name)
    assert not task.check(saved(saved(state, name, good), twin, "x"))


# -- MarkorChangeNoteContent ------------------------------------------------------------------------------------------
def test_the_new_content_under_the_new_name_wins_half_the_job_or_a_near_text_loses() -> None:
    task = CHANGE.tasks("train")[0]
    p, state = task.params, start(task)
    old, new, text = p["original_name"], p["new_name"], p["updated_content"]
    assert old in notes_of(state) and new not in notes_of(state)
    assert task.check(renamed(state, old, new, text + "\n"))
    assert not task.check(renamed(state, old, new, notes_of(state)[old]))  # renamed, content kept
    assert not task.check(saved(state, old, text))  # new content, name kept
    assert not task.check(renamed(state, old, new, text.swapcase()))  # fuzzy (case ignored) would pass
    assert not task.check(renamed(state, old, f"Work/{new}", text))
    both = edited(saved(state, old, text), {new: text}, edits=({"op": "create", "path": new},))
    assert not task.check(both)  # a copy under the new name, the old one kept


# -- MarkorAddNoteHeader ----------------------------------------------------------------------------------------------
def test_the_header_a_blank_line_and_the_old_text_exactly_win_under_the_new_name() -> None:
    task = HEADER.tasks("train")[0]
    p, state = task.params, start(task)
    old, new, head, body = p["original_name"], p["new_name"], p["header"], p["original_content"]
    assert task.check(renamed(state, old, new, f"{head}\n\n{body}\n"))
    assert not task.check(renamed(state, old, new, f"{head}\n\n{body}"))  # AndroidWorld matches exactly
    assert not task.check(renamed(state, old, new, f"{head}\n{body}\n"))  # no blank line
    assert not task.check(renamed(state, old, new, f"{body}\n\n{head}\n"))
    assert not task.check(saved(state, old, f"{head}\n\n{body}\n"))  # not renamed


def test_the_expert_deletes_and_retypes_then_renames() -> None:
    task = HEADER.tasks("test")[0]
    assert run_episode(task, seed=4, device=phone()).success
    ops = [e["op"] for e in phone().state()["apps"][markor.PACKAGE]["edits"]]
    assert ops == ["save", "rename"]


# -- MarkorCreateNoteAndSms -------------------------------------------------------------------------------------------
def texted(state: State, *sent: tuple[str, str], front: str = M.PACKAGE) -> State:
    """`state` with texts `sent` ((number, text) pairs) sent from Messages, and `front` in front."""
    ms = {**state["apps"][M.PACKAGE], "sent": [{"name": n, "number": n, "text": t} for n, t in sent]}
    return {**state, "foreground": front, "apps": {**state["apps"], M.PACKAGE: ms}}


def test_the_note_and_the_text_win_together_and_either_alone_loses() -> None:
    """AndroidWorld gives 0.5 for one part; here it is all or nothing."""
    task = NOTE_SMS.tasks("train")[0]
    p, state = task.params, start(task)
    name, text, number = p["file_name"], p["text"], p["number"]
    note = edited(state, {name: text}, edits=({"op": "create", "path": name}, {"op": "save", "path": name}))
    assert task.check(texted(note, (number, text)))
    assert task.check(texted(note, (number[2:], text)))  # Simple SMS adds the "+1"
    assert not task.check(note)
    assert not task.check(texted(state, (number, text)))
    assert not task.check(texted(note, (number, text), front=markor.PACKAGE))  # AndroidWorld wants the SMS app
    assert not task.check(texted(note, (number[:-1] + "0" if number[-1] != "0" else number[:-1] + "1", text)))
    assert not task.check(texted(note, (number, text), (number, text)))
    assert not task.check(texted(note, (number, text.rstrip(".") + " today.")))
