"""Every app's `state()` hands out containers of its own: the phone passes them to every reader without copying, so a
reader that mutates what it got must not reach the app (nor the next reader)."""  # noqa: D205, D209

from __future__ import annotations

import copy
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import DEFAULT_APPS
from android_gym.tasks import suites


def wreck(value: Any) -> None:
    """Mutate every container inside `value` (depth first): clear dicts and lists, after wrecking their items."""
    if isinstance(value, dict):
        for item in value.values():
            wreck(item)
        value.clear()
        value["wrecked"] = True
    elif isinstance(value, list):
        for item in value:
            wreck(item)
        value.clear()
        value.append("wrecked")
    elif isinstance(value, set):
        value.clear()


def busy_phone(template: str, steps: int) -> SimDevice:
    """A phone some way into the expert's play of a World template (so its apps hold data and open screens)."""
    task = next(t for t in suites.templates("world") if t.name == template).tasks("train")[0]
    device = SimDevice("none")
    device.reset(7, task.initial)
    for _ in range(steps):
        device.perform(task.expert_action(device.ui_elements(), device.state()))
        device.tick()
    return device


@pytest.mark.parametrize("template, steps", [
    ("send_email_then_take_photo_then_favourite_contact", 18),
    ("call_contact_then_send_email_then_markor_create_folder", 8), ("tasks_add_task_then_send_text", 12),
    ("favorite_day", 6), ("dial_number_then_markor_append_line", 22), ("restore_photo", 4),
])
def test_mutating_an_apps_state_reaches_neither_the_app_nor_the_next_reader(template: str, steps: int) -> None:
    device = busy_phone(template, steps)
    apps = device.phone.apps
    assert {type(app) for app in apps.values()} == set(DEFAULT_APPS)
    for package, app in apps.items():
        first = app.state()
        kept = copy.deepcopy(first)
        wreck(first)
        assert app.state() == kept, package
