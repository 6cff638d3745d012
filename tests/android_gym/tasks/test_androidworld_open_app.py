"""AndroidWorld's `OpenAppTaskEval` on the suite (issue 48): its five app names, and the check played by hand from
the home screen: the named app in front wins; another app, a pop-up over it, or the camera's permission refused
loses."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import pytest

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import camera
from android_gym.sim.perturbations import Dialog, PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.androidworld import ANDROIDWORLD_TEMPLATES
from android_gym.tasks.androidworld.open_app import TEMPLATES
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find
from android_gym.testing.rollout import run_episode

TEMPLATE = TEMPLATES[0]
LABELS = {"camera": "Camera", "clock": "Clock", "contacts": "Contacts", "settings": "Settings", "dialer": "Phone"}
"""AndroidWorld's app names and the sim's launcher labels of the same apps."""


def task_for(app_name: str) -> Task:
    """The task (train or test) that names `app_name`."""
    return next(t for t in TEMPLATE.tasks("train") + TEMPLATE.tasks("test") if t.params["app_name"] == app_name)


def started(task: Task, **initial: Any) -> SimPhone:
    """A phone without perturbations reset to the task's start (plus `initial`), on the home screen."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0, {**task.initial, **initial})
    assert not task.check(phone.state())
    return phone


def press(phone: SimPhone, **criteria: Any) -> None:
    """Tap the first element matching `criteria`; fail when there is none or the tap changes nothing."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    assert phone.tap(*element.center), f"tapping {criteria} changed nothing"


def test_the_template_is_on_the_suite_and_draws_androidworlds_five_names_split_by_name() -> None:
    assert TEMPLATE in ANDROIDWORLD_TEMPLATES
    train, test = ({p["app_name"] for p in TEMPLATE.values(s)} for s in ("train", "test"))
    assert train | test == set(LABELS) and not train & test and test
    assert task_for("dialer").goal == ("Open the dialer app. Clear any pop-ups that may appear by granting all "
                                       "permissions that are required.")


@pytest.mark.parametrize("app_name", sorted(LABELS))
def test_the_named_app_in_front_wins_and_every_other_of_the_five_loses(app_name: str) -> None:
    """AndroidWorld's name ("dialer") opens the sim's app ("Phone"); any other app in front is no win."""
    task = task_for(app_name)
    for other, label in LABELS.items():
        phone = started(task, **{camera.PACKAGE: {"permission": "granted"}})
        assert phone.launch(label)
        assert task.check(phone.state()) is (other == app_name), label


def test_a_pop_up_over_the_app_loses_until_it_is_cleared() -> None:
    task = task_for("clock")
    phone = started(task)
    assert phone.launch("Clock")
    phone.dialog = Dialog("permission", "Allow Clock to send you notifications?", "",
                          (("Allow", False), ("Don\u2019t allow", True)), "com.google.android.permissioncontroller")
    assert not task.check(phone.state())
    press(phone, text="Allow")
    assert phone.foreground == "com.google.android.deskclock" and task.check(phone.state())


@pytest.mark.parametrize("answer, wins", [(camera.ALLOW[0], True), (camera.ALLOW[1], True), (camera.ALLOW[2], False)])
def test_the_camera_wins_once_its_permission_prompt_is_answered_by_granting(answer: str, wins: bool) -> None:
    """The goal asks to grant what is required: the prompt open loses, either grant wins, Deny loses (the camera is in
    front, but without its permission) until "Allow access" is granted."""  # noqa: D205, D209
    task = task_for("camera")
    phone = started(task, **{camera.PACKAGE: {"permission": "ask"}})
    assert phone.launch("Camera") and phone.foreground == camera.PACKAGE
    assert not task.check(phone.state())
    press(phone, text=answer)
    assert task.check(phone.state()) is wins
    if not wins:
        assert state_of(phone.state(), camera.CameraState)["permission"] == "denied"
        press(phone, text="Allow access")
        press(phone, text=camera.ALLOW[0])
        assert task.check(phone.state())


def test_the_expert_grants_the_cameras_permission_when_asked() -> None:
    task = task_for("camera")
    asked = next(s for s in range(40) if _permission_at(task, s) == "ask")
    episode = run_episode(task, seed=asked, perturbations="none")
    assert episode.success and episode.steps >= 2  # one tap to open, one to grant


def _permission_at(task: Task, seed: int) -> str:
    """The camera permission a phone reset at `seed` to the task's start has (seeded per phone)."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, task.initial)
    return state_of(phone.state(), camera.CameraState)["permission"]
