"""Tests of the Settings templates of the world suite: the shared template contract (splits, goals, experts under
perturbations, budgets, apps, reset guard), near misses (a missing switch, the wrong number, app, device or camera)
rejected, and what is specific: the storage answer, the infeasible declaration, the per-seed connected device."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import camera
from android_gym.sim.apps import settings as S
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import app_state, wait
from android_gym.tasks.world import settings_tasks as T
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.media_expert import shoot
from android_gym.tasks.world.messaging_expert import namesake, person, send_text
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import (
    check_near_misses,
)
from android_gym.ui import UIElement

BY_NAME = {t.name: t for t in T.TEMPLATES}
Params = Mapping[str, Any]
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def test_the_module_has_its_templates():
    """Ten world templates: an answer, an infeasible one, two spanning another app, several of 10+ expert steps."""
    assert len(BY_NAME) == len(T.TEMPLATES) == 10 and {t.suite for t in T.TEMPLATES} == {"world"}
    assert all(t.apps and t.apps[0] == S.PACKAGE for t in T.TEMPLATES)
    assert sum(len(t.apps) > 1 for t in T.TEMPLATES) == 2
    outcomes = [t.outcome for t in T.TEMPLATES]
    assert outcomes.count("answer") == 1 and outcomes.count("infeasible") == 1
    assert sum(t.max_steps >= 17 for t in T.TEMPLATES) >= 4


# -- near misses -------------------------------------------------------------------------------------------------------
def _as(template: str, change: Callable[[Params], dict[str, Any]]) -> Callable[[Task], Policy]:
    """The policy: `template`'s expert on the task's parameters changed by `change`."""
    return lambda task: (lambda elements, state: BY_NAME[template].expert(change(task.params), elements, state))


def _flight_without_dnd(task: Task) -> Policy:
    """Airplane mode on and Bluetooth off, but Do Not Disturb left off."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        for key, want, page, label in T.FLIGHT[:2]:
            step = T.set_switch(key, want, page, label, elements, state)
            if step is not None:
                return step
        return wait()
    return act


def _flight_and_wifi(task: Task) -> Policy:
    """All three switches, and Wi-Fi flipped too."""
    wifi = not task.initial["system"]["wifi"]

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        return (T.set_switch("wifi", wifi, "internet", "Wi-Fi", elements, state)
                or task.expert_action(elements, state))
    return act


def _call_not_ring(task: Task) -> Policy:
    """The media volume right, the call volume set to the ring volume's number."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        return (T.set_volume("media", task.params["media"], elements, state)
                or T.set_volume("call", task.params["ring"], elements, state) or wait())
    return act


def _clear_storage_of_first(task: Task) -> Policy:
    """Clear Storage (not the cache) of the first app, then the second's cache."""
    app = task.params["app"]

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        page = T.settings_of(state).get("page")
        if page == "clear_storage":
            return T.press(elements, text="Delete")
        if not T.edits(state, "clear_storage"):
            return T.to_page(S.APP_STORAGE, elements, state, app=app) or T.press(elements, text="Clear storage")
        return task.template.expert({**task.params, "app": task.params["other"]}, elements, state)
    return act


def _forget_another(task: Task) -> Policy:
    """Forget the first saved device that is not the task's."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        other = next(d["name"] for d in T.settings_of(state)["devices"] if d["name"] != task.params["device"])
        return BY_NAME["settings_forget_device"].expert({**task.params, "device": other}, elements, state)
    return act


def _forget_lookalike_then_declare(task: Task) -> Policy:
    """Forget the look-alike, then declare the task impossible from Saved devices."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if T.edits(state, "forget"):
            return T.to_page(S.SAVED_DEVICES, elements, state) or impossible()
        return BY_NAME["settings_forget_device"].expert({**task.params, "device": task.params["near"]}, elements,
                                                        state)
    return act


def _grant_in_camera(task: Task) -> Policy:
    """Skip Settings: allow access in the Camera app's own prompt and take the photo."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        done = app_state(state, camera.PACKAGE).get("captures")
        return wait() if done else shoot("Photo", task.params["facing"], elements, state)
    return act


def _text_saved_not_connected(task: Task) -> Policy:
    """Text the person the name of a saved device that is not the connected one."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        s = T.settings_of(state)
        if "connected" not in s["seen"]:
            return T.to_page("connected", elements, state) or wait()
        other = next(d["name"] for d in s["devices"] if not d["connected"])
        return send_text(person(task.params["name"]), other, elements, state)
    return act


def _other(pool: Sequence[str], value: str) -> str:
    return pool[(pool.index(value) + 1) % len(pool)]


WRONG: dict[str, list[Callable[[Task], Policy]]] = {
    "settings_flight_mode": [_flight_without_dnd, _flight_and_wifi],
    "settings_volumes": [_as("settings_volumes", lambda p: {**p, "ring": (p["ring"] + 10) % 110}), _call_not_ring],
    "settings_deny_camera_mic": [_as("settings_deny_camera_mic", lambda p: {**p, "app": _other(T.CAM_MIC_APPS[:5],
                                                                                                p["app"])}),
                                 lambda task: lambda e, s: T.permit(task.params["app"], "Camera", "Don't allow", e, s)
                                 or wait()],
    "settings_clear_caches": [_clear_storage_of_first,
                              _as("settings_clear_caches", lambda p: {**p, "other": _other(T.CACHE_APPS, p["other"])})],
    "settings_forget_device": [_forget_another],
    "settings_timeout_theme": [_as("settings_timeout_theme", lambda p: {**p, "timeout": _other(S.TIMEOUTS,
                                                                                               p["timeout"])}),
                               _as("settings_timeout_theme", lambda p: {**p, "dark": not p["dark"]})],
    "settings_app_storage": [_as("settings_app_storage", lambda p: {**p, "app": _other(T.CACHE_APPS, p["app"])})],
    "settings_forget_missing_device": [_forget_lookalike_then_declare],
    "settings_camera_then_photo": [_grant_in_camera, _as("settings_camera_then_photo", lambda p: {
        **p, "facing": "back" if p["facing"] == "front" else "front"})],
    "settings_text_connected_device": [_text_saved_not_connected, _as("settings_text_connected_device", lambda p: {
        **p, "name": namesake(p["name"])})],
}
"""Per template, policies that take a neighbouring path: a missing or extra switch, the wrong number, app, device,
timeout, theme, camera or person."""


@pytest.mark.parametrize("template", T.TEMPLATES, ids=lambda t: t.name)
def test_a_near_miss_does_not_solve(template: TaskTemplate):
    """Each wrong path changes the phone but never wins, on the first train and test task."""
    check_near_misses(template, SimDevice("none"), WRONG[template.name])


# -- specific behaviour ------------------------------------------------------------------------------------------------
def test_the_storage_answer_is_the_apps_total_and_needs_it_untouched():
    """The answer is the Total the page shows; another app's total or a longer text fails; a clear voids it."""
    task = BY_NAME["settings_app_storage"].tasks("train")[0]
    device = SimDevice("none")
    episode = run_episode(task, seed=3, device=device)
    assert episode.success and episode.log[-1][0].action_type == ActionType.STATUS_TASK_COMPLETE
    state = device.state()
    sizes = T.settings_of(state)["apps"][task.params["app"]]["storage"]
    truth = f"{sum(sizes.values())} MB"
    assert task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=truth))
    other = T.settings_of(state)["apps"][_other(T.CACHE_APPS, task.params["app"])]["storage"]
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=f"{sum(other.values())} MB"))
    assert not task.check(state, Action(ActionType.STATUS_TASK_COMPLETE, text=f"It uses {truth}"))
    cleared = {**state, "apps": {**state["apps"], S.PACKAGE: {**T.settings_of(state), "edits": [
        {"op": "clear_cache", "app": task.params["app"]}]}}}
    assert task.template.answer(task.params, cleared) is None


def test_the_answer_differs_across_seeds():
    """An app's total storage is drawn per episode, so it cannot be memorised."""
    task = BY_NAME["settings_app_storage"].tasks("train")[0]
    device = SimDevice("none")
    answers = set()
    for seed in range(6):
        device.reset(seed, task.initial)
        answers.add(task.template.answer(task.params, device.state()))
    assert len(answers) > 3


def test_declaring_the_missing_device_counts_only_on_saved_devices():
    """Impossible is right on Saved devices, not on the main list (a blind guess)."""
    task = BY_NAME["settings_forget_missing_device"].tasks("train")[0]
    device = SimDevice("none")
    device.reset(0, task.initial)
    device.phone.launch("Settings")
    assert not task.check(device.state(), impossible())
    assert task.params["near"] in [d["name"] for d in T.settings_of(device.state())["devices"]]
    assert run_episode(task, seed=0, device=device).success


def test_the_connected_device_varies_with_the_seed():
    """The text template's connected device is drawn per episode among the saved devices."""
    task = BY_NAME["settings_text_connected_device"].tasks("train")[0]
    device = SimDevice("none")
    seen = set()
    for seed in range(8):
        device.reset(seed, task.initial)
        seen.add(T.settings_of(device.state())["connected"])
    assert None not in seen and len(seen) > 3


def test_camera_permission_from_settings_reaches_the_camera():
    """After the Settings part the Camera shows no prompt and no "Allow access": the shutter is enabled."""
    task = BY_NAME["settings_camera_then_photo"].tasks("train")[0]
    device = SimDevice("none")
    device.reset(1, task.initial)
    for _ in range(12):
        state = device.state()
        if app_state(state, camera.PACKAGE)["permission"] == "granted":
            break
        device.perform(task.expert_action(device.ui_elements(), state))
        device.tick()
    device.phone.launch("Camera")
    assert T.find(device.ui_elements(), rid=camera.SHUTTER_RID).enabled
    assert T.find(device.ui_elements(), text="Allow access") is None
