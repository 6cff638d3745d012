"""AndroidWorld's system tasks on the suite (issue 48): Wi-Fi, Bluetooth and the brightness turned one way, or found
already that way (the Verify twins). Each test plays the phone by hand from a task's start (Settings' rows, the
quick-settings shade) and asks the task's check: what wins, and which near miss loses (the slider one step short,
another switch flipped, the setting switched the wrong way, a page that does not show the setting)."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import pytest

from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.androidworld import ANDROIDWORLD_TEMPLATES
from android_gym.tasks.androidworld.system import TEMPLATES
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find

BY_NAME = {t.name: t for t in TEMPLATES}
STARTS = {  # AndroidWorld's `initialize_task`: (setting, its value at the start, the value the goal asks)
    "SystemBluetoothTurnOff": ("bluetooth", True, False), "SystemBluetoothTurnOffVerify": ("bluetooth", False, False),
    "SystemBluetoothTurnOn": ("bluetooth", False, True), "SystemBluetoothTurnOnVerify": ("bluetooth", True, True),
    "SystemBrightnessMax": ("brightness", 0, 100), "SystemBrightnessMaxVerify": ("brightness", 100, 100),
    "SystemBrightnessMin": ("brightness", 100, 0), "SystemBrightnessMinVerify": ("brightness", 0, 0),
    "SystemWifiTurnOff": ("wifi", True, False), "SystemWifiTurnOffVerify": ("wifi", False, False),
    "SystemWifiTurnOn": ("wifi", False, True), "SystemWifiTurnOnVerify": ("wifi", True, True),
}
TURNS = [n for n, (_, start, target) in STARTS.items() if start != target]
VERIFIES = [n for n, (_, start, target) in STARTS.items() if start == target]
ROUTE = {"wifi": ("Network & internet", "Internet"), "bluetooth": ("Connected devices", "Connection preferences",
                                                                    "Bluetooth"),
         "brightness": ("Display", "Brightness level")}
"""Setting -> the Settings rows tapped from the main list to the page that sets it."""
TILE = {"wifi": "Internet", "bluetooth": "Bluetooth"}


def started(name: str, split: str = "train", index: int = 0) -> tuple[Task, SimPhone]:
    """A task of template `name` and a phone without perturbations reset to its start (the home screen)."""
    task = BY_NAME[name].tasks(split)[index]
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0, task.initial)
    assert not task.check(phone.state())
    return task, phone


def press(phone: SimPhone, **criteria: Any) -> None:
    """Tap the first element matching `criteria`; fail when there is none or the tap changes nothing."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    assert phone.tap(*element.center), f"tapping {criteria} changed nothing"


def walk(phone: SimPhone, key: str, task: Task) -> list[bool]:
    """Open Settings and walk to the page that sets `key`, noting after each screen whether `task` is won."""
    phone.launch("Settings")
    won = [task.check(phone.state())]
    for row in ROUTE[key]:
        press(phone, text=row)
        won.append(task.check(phone.state()))
    return won


def set_there(phone: SimPhone, key: str, value: bool | int) -> None:
    """On the setting's page: tap its switch (when it is not at `value`) or the slider's `value`% zone."""
    if key == "brightness":
        press(phone, desc=f"{value}%")
    elif phone.system[key] != value:
        press(phone, text={"wifi": "Wi-Fi", "bluetooth": "Use Bluetooth"}[key])


def test_the_system_templates_are_on_the_suite_in_androidworlds_order() -> None:
    settings = {template.name for template in TEMPLATES}  # SystemCopyToClipboard is the clipboard module's
    names = [t.name for t in ANDROIDWORLD_TEMPLATES if t.name in settings]
    assert names == sorted(STARTS)


@pytest.mark.parametrize("name, goal", [
    ("SystemWifiTurnOn", "Turn wifi on."), ("SystemWifiTurnOffVerify", "Turn wifi off."),
    ("SystemBluetoothTurnOn", "Turn bluetooth on."), ("SystemBluetoothTurnOffVerify", "Turn bluetooth off."),
    ("SystemBrightnessMax", "Turn brightness to the max value."),
    ("SystemBrightnessMinVerify", "Turn brightness to the min value."),
])
def test_the_goal_is_androidworlds_template_filled_as_its_class_draws_it(name: str, goal: str) -> None:
    assert {BY_NAME[name].goal(p) for p in BY_NAME[name].values("train") + BY_NAME[name].values("test")} == {goal}


@pytest.mark.parametrize("name", sorted(STARTS))
def test_the_setting_starts_as_androidworld_starts_it_and_the_rest_of_the_phone_as_drawn(name: str) -> None:
    """A task that turns a setting starts it the other way, a Verify task already as asked; the other switches vary
    with the instance, so the starts are not all one phone."""  # noqa: D205, D209
    key, start, _ = STARTS[name]
    phones = [started(name, index=i)[1] for i in range(6)]
    assert all(phone.system[key] == start for phone in phones)
    others = {tuple(sorted((k, v) for k, v in phone.system.items() if k != key)) for phone in phones}
    assert len(others) > 1


@pytest.mark.parametrize("name", TURNS)
def test_a_turn_task_wins_through_settings_at_the_last_tap_and_not_before(name: str) -> None:
    key, _, target = STARTS[name]
    task, phone = started(name)
    assert not any(walk(phone, key, task))  # on the page, not yet set: a Verify-like look does not win it
    set_there(phone, key, target)
    assert task.check(phone.state())


@pytest.mark.parametrize("name", [n for n in TURNS if STARTS[n][0] != "brightness"])
def test_a_switch_turned_from_the_shade_wins_without_settings(name: str) -> None:
    """The goal names no app: the quick-settings tile wins, and the shade closed again still wins."""
    key, _, _ = STARTS[name]
    task, phone = started(name)
    assert phone.open_shade()
    press(phone, text=TILE[key])
    assert task.check(phone.state())
    assert phone.close_shade() and phone.foreground != "com.android.settings" and task.check(phone.state())


@pytest.mark.parametrize("name, short", [("SystemBrightnessMax", 90), ("SystemBrightnessMin", 10)])
def test_the_brightness_one_step_short_of_the_end_loses(name: str, short: int) -> None:
    """AndroidWorld reads 255 or 1 exactly: 90 % (10 %) is not the maximum (minimum)."""
    task, phone = started(name)
    walk(phone, "brightness", task)
    set_there(phone, "brightness", short)
    assert phone.system["brightness"] == short and not task.check(phone.state())
    set_there(phone, "brightness", STARTS[name][2])
    assert task.check(phone.state())


@pytest.mark.parametrize("name", TURNS)
def test_a_turn_task_with_another_switch_flipped_on_the_way_loses(name: str) -> None:
    """Airplane mode (Auto-rotate for the brightness tasks) flipped from the shade besides the setting: an extra
    change, so no win; flipped back, the task is won."""  # noqa: D205, D209
    key, _, target = STARTS[name]
    task, phone = started(name)
    other = "Auto-rotate" if key == "brightness" else "Airplane mode"
    assert phone.open_shade()
    press(phone, text=other)
    assert phone.close_shade()
    walk(phone, key, task)
    set_there(phone, key, target)
    assert not task.check(phone.state())
    assert phone.open_shade()
    press(phone, text=other)
    assert task.check(phone.state())


@pytest.mark.parametrize("name", VERIFIES)
def test_a_verify_task_wins_on_the_first_settings_page_that_shows_the_setting(name: str) -> None:
    """Settings' main list does not show it; Network & internet ("Wi-Fi On"), Connection preferences ("Bluetooth
    Off") or Display ("100%") do, and win."""  # noqa: D205, D209
    key, _, _ = STARTS[name]
    task, phone = started(name)
    won = walk(phone, key, task)
    first = {"wifi": 1, "bluetooth": 2, "brightness": 1}[key]
    assert won == [False] * first + [True] * (len(won) - first)


@pytest.mark.parametrize("name", VERIFIES)
def test_a_verify_task_with_the_setting_switched_the_wrong_way_loses(name: str) -> None:
    """On the setting's own page, switched (or slid) away from the goal: AndroidWorld's check fails, so does ours;
    set back, it wins again."""  # noqa: D205, D209
    key, start, _ = STARTS[name]
    task, phone = started(name)
    walk(phone, key, task)
    set_there(phone, key, (50 if key == "brightness" else not start))
    assert not task.check(phone.state())
    set_there(phone, key, start)
    assert task.check(phone.state())


@pytest.mark.parametrize("name", VERIFIES)
def test_a_verify_task_with_another_setting_changed_loses(name: str) -> None:
    key, _, _ = STARTS[name]
    task, phone = started(name)
    walk(phone, key, task)
    phone.set_system("dark_theme", not phone.system["dark_theme"])
    assert not task.check(phone.state())


@pytest.mark.parametrize("name", VERIFIES)
def test_a_verify_task_is_won_from_the_shade_only_for_a_setting_with_a_tile(name: str) -> None:
    """The shade shows the Wi-Fi and Bluetooth tiles (a look that wins) but no brightness; another app's page
    does not show the setting either."""  # noqa: D205, D209
    key, _, _ = STARTS[name]
    task, phone = started(name)
    phone.launch("Clock")
    assert not task.check(phone.state())
    assert phone.open_shade()
    assert task.check(phone.state()) is (key in TILE)
