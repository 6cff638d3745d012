"""Tests of AndroidWorld's Files tasks on the suite: `FilesDeleteFile` and `FilesMoveFile`. The goals and draws
(a folder of AndroidWorld's 12 and its extension, 1 to 20 noise files beside the file), and the checks played through
Files: the file trashed wins, a noise file trashed instead or as well loses; the file moved wins, a copy left behind,
another destination or a noise file moved as well loses."""  # noqa: D205, D209

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import files as F
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.files import base, join
from android_gym.tasks.androidworld import files
from android_gym.tasks.base import Task
from android_gym.tasks.world.base import press
from android_gym.tasks.world.files_expert import FILES, files_of, picker_to
from android_gym.testing.rollout import drive

DELETE, MOVE = files.TEMPLATES
State = Mapping[str, Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone with Files for the module (each test resets it)."""
    return SimDevice("none", apps=with_apps(F.FilesApp))


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def trash(phone: SimDevice, path: str) -> None:
    """Move `path` to the Trash through Files."""
    def step(elements, state):
        screen = state["screen"]
        if state["foreground"] == FILES and screen["name"] == "confirm":
            return press(elements, text="Move to Trash")
        return files.file_menu(path, "Move to Trash", elements, state)
    drive(phone, step, lambda s: path not in files_of(s))


def send(phone: SimDevice, path: str, folder: str, label: str = "Move to") -> None:
    """Move (or copy, `label` "Copy to") `path` into `folder` through Files."""
    def step(elements, state):
        if state["foreground"] == FILES and state["screen"]["name"] == "picker":
            return picker_to(folder, elements, state) or press(elements, text=label.replace(" to", " here"))
        return files.file_menu(path, label, elements, state)
    drive(phone, step, lambda s: join(folder, base(path)) in files_of(s))


@pytest.mark.parametrize("split", ["train", "test"])
def test_delete_goal_names_the_file_with_its_folders_extension_among_noise(split) -> None:
    for task in DELETE.tasks(split)[:10]:
        p = task.params
        assert task.goal == (f"Delete the file {p['file_name']} from the Android filesystem located in the "
                             f"{p['subfolder']} folder within the sdk_gphone_x86_64 storage area.")
        ext = posixpath.splitext(files.FOLDER_FILES[p["subfolder"]][0])[1]
        assert p["file_name"].endswith(ext) and 2 <= len(p["files"]) <= 21
    task = DELETE.tasks(split)[0]
    on_phone = files_of(started(task).state())
    assert all(f["path"] in on_phone for f in task.params["files"])


def test_folders_are_androidworlds_twelve_and_the_move_names_a_destination_file() -> None:
    drawn = [p for split in ("train", "test") for p in MOVE.values(split)]
    assert len(files.FOLDERS) == 12 and {p["source_folder"] for p in drawn} == set(files.FOLDERS)
    assert all(p["source_folder"] != p["destination_folder"] for p in drawn)
    assert all(p["file_name"] in files.FOLDER_FILES[p["destination_folder"]] for p in drawn)
    p = drawn[0]
    assert MOVE.goal(p) == (f"Move the file {p['file_name']} from {p['source_folder']} within the sdk_gphone_x86_64 "
                            f"storage area to the {p['destination_folder']} within the same sdk_gphone_x86_64 storage "
                            "area in the Android filesystem.")


@pytest.mark.parametrize("split", ["train", "test"])
def test_trashing_the_file_wins_and_a_noise_file_besides_loses(split) -> None:
    task = DELETE.tasks(split)[0]
    phone = started(task)
    target, noise = (f["path"] for f in task.params["files"][:2])
    trash(phone, target)
    assert task.check(phone.state())
    trash(phone, noise)
    assert not task.check(phone.state())


def test_trashing_a_noise_file_instead_loses() -> None:
    task = DELETE.tasks("train")[1]
    phone = started(task)
    trash(phone, task.params["files"][1]["path"])
    assert not task.check(phone.state())


@pytest.mark.parametrize("split", ["train", "test"])
def test_moving_the_file_wins_and_a_noise_file_moved_too_loses(split) -> None:
    task = MOVE.tasks(split)[0]
    phone = started(task)
    src, dest = task.params["source_folder"], task.params["destination_folder"]
    assert join(dest, task.params["file_name"]) not in files_of(phone.state())
    send(phone, join(src, task.params["file_name"]), dest)
    assert task.check(phone.state())
    send(phone, task.params["files"][1]["path"], dest)
    assert not task.check(phone.state())


def test_a_copy_left_behind_or_another_destination_loses() -> None:
    task = MOVE.tasks("train")[1]
    src, dest = task.params["source_folder"], task.params["destination_folder"]
    path = join(src, task.params["file_name"])
    phone = started(task)
    send(phone, path, dest, label="Copy to")
    assert not task.check(phone.state())
    phone = started(task)
    other = next(f for f in files.FOLDERS if f not in (src, dest) and f in phone.state()["apps"][FILES]["folders"])
    send(phone, path, other)
    assert not task.check(phone.state())
