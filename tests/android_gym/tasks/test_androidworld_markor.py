"""AndroidWorld's Markor tasks on the suite: names, texts and noise notes drawn as AndroidWorld draws them, and checks
that let what AndroidWorld finds win (the folder or note at the root, however the agent got there) and near misses
lose (the folder or note elsewhere or misnamed, a near text, the look-alike deleted, an extra change).
"""  # noqa: D205

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor
from android_gym.tasks.androidworld import markor as M
from android_gym.tasks.base import Task
from android_gym.testing.rollout import run_episode

FOLDER, NOTE, DELETE = M.TEMPLATES
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


def notes_of(state: State) -> dict[str, str]:
    """Markor's notes by path."""
    return state["apps"][markor.PACKAGE]["files"]


# -- names ------------------------------------------------------------------------------------------------------------
def test_names_are_an_adjective_and_a_noun_with_one_affix_and_dates_rebased() -> None:
    created = [p["file_name"] for p in NOTE.values("train")]
    deleted = [p["file_name"] for p in DELETE.values("train")]
    assert all(n.endswith((".md", ".txt")) for n in created) and {n[-3:] for n in created} == {".md", "txt"}
    assert all("." not in n for n in deleted)  # AndroidWorld's note to delete has no extension
    affix = r"(?:\d{4}_\d{2}_\d{2}|[A-Za-z0-9]{4}|copy|final|old|draft)"
    forms = (re.compile(rf"{affix}_([a-z]+)_([a-z]+)"), re.compile(rf"([a-z]+)_([a-z]+)_{affix}"))
    for name in [posixpath.splitext(n)[0] for n in created] + deleted:
        assert any((m := f.fullmatch(name)) and m.group(1) in M.ADJECTIVES and m.group(2) in M.NOUNS
                   for f in forms), name
    dates = [d for n in created + deleted for d in re.findall(r"\d{4}_\d{2}_\d{2}", n)]
    assert dates and all("2025_08_27" <= d <= "2026_06_09" for d in dates)
    assert {p["text"] for p in NOTE.values("train")} <= set(M.SENTENCES)


def test_folder_names_are_timestamps_of_the_sims_day_before_its_clock() -> None:
    names = [p["folder_name"] for split in ("train", "test") for p in FOLDER.values(split)]
    assert all(re.fullmatch(r"folder_20260610_(0[0-9])([0-5]\d)([0-5]\d)", n) for n in names)
    assert all(n[16:20] < "0941" for n in names) and len(set(names)) == len(names) > 100


def test_noise_notes_are_variants_of_the_titles_or_the_tasks_name() -> None:
    for task in FOLDER.tasks("train")[:10] + DELETE.tasks("train")[:10]:
        noise = [p for p in task.initial[markor.PACKAGE]["files"] if p != task.params.get("file_name")]
        own = task.params.get("file_name", "file")
        assert 1 <= len(noise) <= 21
        assert all(any(t[:-3] in n for t in M.NOTE_TITLES) or own in n for n in noise)
        assert all(len(text) == 20 for text in task.initial[markor.PACKAGE]["files"].values())


# -- MarkorCreateFolder -----------------------------------------------------------------------------------------------
def test_the_folder_at_the_root_wins_among_noise_notes() -> None:
    task = FOLDER.tasks("train")[0]
    name, state = task.params["folder_name"], start(task)
    assert sum(n.endswith(".md") for n in notes_of(state)) >= len(task.initial[markor.PACKAGE]["files"])
    assert not task.check(state)
    assert task.check(edited(state, folders=(name,), edits=({"op": "mkdir", "path": name},)))


def test_the_folder_elsewhere_misnamed_as_a_note_or_with_an_extra_change_loses() -> None:
    task = FOLDER.tasks("train")[0]
    name, state = task.params["folder_name"], start(task)
    made = {"op": "mkdir", "path": name}
    inside = f"{name} archive/{name}"  # AndroidWorld looks at the root only
    assert not task.check(edited(state, folders=(inside,), edits=({"op": "mkdir", "path": inside},)))
    assert not task.check(edited(state, folders=(name.upper(),), edits=({"op": "mkdir", "path": name.upper()},)))
    assert not task.check(edited(state, files={f"{name}.md": ""}, edits=({"op": "create", "path": f"{name}.md"},)))
    extra = {"op": "create", "path": f"{name}/notes.md"}
    assert not task.check(edited(state, folders=(name,), files={f"{name}/notes.md": ""}, edits=(made, extra)))


# -- MarkorCreateNote -------------------------------------------------------------------------------------------------
def test_the_note_with_the_text_wins_trailing_space_aside() -> None:
    task = NOTE.tasks("train")[0]
    name, text, state = task.params["file_name"], task.params["text"], start(task)
    assert name not in notes_of(state) and "{}_draft{}".format(*posixpath.splitext(name)) in notes_of(state)
    assert task.check(edited(state, {name: text + "\n"}, edits=({"op": "create", "path": name},
                                                                {"op": "save", "path": name})))


@pytest.mark.parametrize("ext", [".md", ".txt"])
def test_a_near_text_another_extension_or_folder_or_an_edited_draft_loses(ext: str) -> None:
    """AndroidWorld's fuzzy match would let the lower-cased text pass; the check here wants the text itself."""
    task = next(t for t in NOTE.tasks("train") if t.params["file_name"].endswith(ext))
    name, text, state = task.params["file_name"], task.params["text"], start(task)
    other = name[: -len(ext)] + (".txt" if ext == ".md" else ".md")
    draft = name[: -len(ext)] + "_draft" + ext

    def made(path: str, body: str = text) -> State:
        return edited(state, {path: body}, edits=({"op": "create", "path": path}, {"op": "save", "path": path}))

    assert task.check(made(name))
    assert not task.check(made(name, text.lower()))
    assert not task.check(made(name, text[:-1]))
    assert not task.check(made(other))
    assert not task.check(made(f"Work/{name}"))
    both = edited(made(name), {draft: "TODO\n" + text}, edits=({"op": "save", "path": draft},))
    assert not task.check(both)


# -- MarkorDeleteNote -------------------------------------------------------------------------------------------------
def look_alike(task: Task) -> str:
    """A noise note whose name holds the task's note's name (at least one is put there)."""
    return next(p for p in task.initial[markor.PACKAGE]["files"] if task.params["file_name"] in p
                and p != task.params["file_name"])


def test_deleting_the_note_wins_even_after_editing_it() -> None:
    task = DELETE.tasks("train")[0]
    name, state = task.params["file_name"], start(task)
    assert name in notes_of(state) and not task.check(state)
    assert task.check(edited(state, {name: None}, edits=({"op": "delete", "path": name},)))
    assert task.check(edited(state, {name: None}, edits=({"op": "save", "path": name},
                                                         {"op": "delete", "path": name})))


def test_deleting_the_look_alike_or_more_renaming_or_moving_the_note_loses() -> None:
    task = DELETE.tasks("train")[0]
    name, state = task.params["file_name"], start(task)
    twin = look_alike(task)
    assert not task.check(edited(state, {twin: None}, edits=({"op": "delete", "path": twin},)))
    assert not task.check(edited(state, {name: None, twin: None}, edits=({"op": "delete", "path": name},
                                                                         {"op": "delete", "path": twin})))
    text = notes_of(state)[name]
    assert not task.check(edited(state, {name: None, f"{name}.md": text},
                                 edits=({"op": "rename", "path": name, "to": f"{name}.md"},)))
    assert not task.check(edited(state, {name: None, f"Work/{name}": text},
                                 edits=({"op": "move", "path": name, "to": f"Work/{name}"},)))


def test_the_expert_finds_the_note_in_a_long_list() -> None:
    """With up to 21 noise notes the root runs past two screens: the expert scrolls either way to the note."""
    tasks = sorted(DELETE.tasks("test"), key=lambda t: len(t.initial[markor.PACKAGE]["files"]), reverse=True)[:3]
    for seed, task in enumerate(tasks):
        assert len(task.initial[markor.PACKAGE]["files"]) > 12
        assert run_episode(task, seed=seed, device=phone()).success
        assert [e["op"] for e in phone().state()["apps"][markor.PACKAGE]["edits"]] == ["delete"]
