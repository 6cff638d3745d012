"""AndroidWorld's system composites on the suite (issue 48): `TurnOffWifiAndTurnOnBluetooth` and
`TurnOnWifiAndOpenApp`. Each test plays the phone by hand from a task's start (the quick-settings shade, Settings'
rows, the launcher) and asks the task's check: both parts done wins, in either order; one part alone (AndroidWorld's
half credit), another switch flipped on the way, the wrong app or a pop-up over the right one loses."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import pytest

from android_gym.sim.apps import camera
from android_gym.sim.perturbations import Dialog, PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.androidworld import ANDROIDWORLD_TEMPLATES
from android_gym.tasks.androidworld.system_composite import TEMPLATES
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find

WIFI_BT, WIFI_APP = TEMPLATES
LABELS = {"camera": "Camera", "clock": "Clock", "contacts": "Contacts", "settings": "Settings", "dialer": "Phone"}
"""AndroidWorld's app names and the sim's launcher labels of the same apps."""
GRANTED = {camera.PACKAGE: {"permission": "granted"}}


def started(task: Task, **initial: Any) -> SimPhone:
    """A phone without perturbations reset to the task's start (plus `initial`), on the home screen; not yet won."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(0, {**task.initial, **initial})
    assert not task.check(phone.state())
    return phone


def press(phone: SimPhone, **criteria: Any) -> None:
    """Tap the first element matching `criteria`; fail when there is none or the tap changes nothing."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    assert phone.tap(*element.center), f"tapping {criteria} changed nothing"


def tiles(phone: SimPhone, *labels: str) -> None:
    """Pull the quick-settings shade down, tap the tiles `labels` in order, and close it again."""
    assert phone.open_shade()
    for label in labels:
        press(phone, text=label)
    assert phone.close_shade()


def app_task(app_name: str) -> Task:
    """The `TurnOnWifiAndOpenApp` task (train or test) that names `app_name`."""
    return next(t for t in WIFI_APP.tasks("train") + WIFI_APP.tasks("test") if t.params["app_name"] == app_name)


def held_out(template: Any) -> Task:
    """The template's first test instance, or its last train one where its one goal keeps it out of test (issue 50)."""
    return (template.tasks("test") or template.tasks("train")[-1:])[0]


def test_both_composites_are_on_the_suite_with_androidworlds_goals() -> None:
    assert all(t in ANDROIDWORLD_TEMPLATES for t in TEMPLATES)
    assert {WIFI_BT.goal(p) for p in WIFI_BT.values("train")} == {"Turn off WiFi, then enable bluetooth"}
    assert app_task("dialer").goal == "Turn on Wifi, then open the dialer app"


def test_the_app_names_are_open_apps_five_split_by_name() -> None:
    train, test = ({p["app_name"] for p in WIFI_APP.values(s)} for s in ("train", "test"))
    assert train | test == set(LABELS) and not train & test and test


def test_the_switches_start_as_androidworlds_parts_start_them_and_the_rest_varies() -> None:
    """Wi-Fi on and Bluetooth off for the first, Wi-Fi off for the second; the other switches vary per instance."""
    bt_phones = [started(t) for t in WIFI_BT.tasks("train")[:6]]
    assert all(p.system["wifi"] and not p.system["bluetooth"] for p in bt_phones)
    assert len({p.system["auto_rotate"] for p in bt_phones} | {p.system["battery_saver"] for p in bt_phones}) > 1
    assert all(not started(t).system["wifi"] for t in WIFI_APP.tasks("train")[:6])


@pytest.mark.parametrize("order", [("Internet", "Bluetooth"), ("Bluetooth", "Internet")])
def test_wifi_off_and_bluetooth_on_win_in_either_order(order: tuple[str, str]) -> None:
    """AndroidWorld reads both switches when the agent stops, not the order the goal's "then" tells."""
    task = WIFI_BT.tasks("train")[0]
    phone = started(task)
    tiles(phone, *order)
    assert task.check(phone.state())


@pytest.mark.parametrize("tile", ["Internet", "Bluetooth"])
def test_one_part_alone_loses(tile: str) -> None:
    """AndroidWorld's half credit (0.5) is no win: Wi-Fi off without Bluetooth on, or Bluetooth on with Wi-Fi on."""
    task = held_out(WIFI_BT)
    phone = started(task)
    tiles(phone, tile)
    assert not task.check(phone.state())


def test_another_switch_flipped_on_the_way_loses() -> None:
    task = WIFI_BT.tasks("train")[1]
    phone = started(task)
    tiles(phone, "Internet", "Bluetooth", "Auto-rotate")
    assert not task.check(phone.state())
    tiles(phone, "Auto-rotate")  # put back as it started: won again
    assert task.check(phone.state())


def test_wifi_turned_through_settings_and_bluetooth_through_its_page_wins() -> None:
    task = WIFI_BT.tasks("train")[2]
    phone = started(task)
    assert phone.launch("Settings")
    for row in ("Network & internet", "Internet", "Wi-Fi"):
        press(phone, text=row)
    assert not task.check(phone.state())
    assert phone.go_home() and phone.launch("Settings")
    for row in ("Connected devices", "Connection preferences", "Bluetooth", "Use Bluetooth"):
        press(phone, text=row)
    assert task.check(phone.state())


@pytest.mark.parametrize("app_name", sorted(LABELS))
def test_wifi_on_and_the_named_app_in_front_wins_and_every_other_app_loses(app_name: str) -> None:
    task = app_task(app_name)
    for other, label in LABELS.items():
        phone = started(task, **GRANTED)
        tiles(phone, "Internet")
        assert phone.launch(label)
        assert task.check(phone.state()) is (other == app_name), label


@pytest.mark.parametrize("app_name", ["clock", "settings"])
def test_the_app_opened_with_wifi_still_off_loses(app_name: str) -> None:
    """Half of AndroidWorld's score is no win: the app in front is not enough."""
    task = app_task(app_name)
    phone = started(task, **GRANTED)
    assert phone.launch(LABELS[app_name])
    assert not task.check(phone.state())


def test_wifi_turned_on_in_settings_opens_the_settings_app_on_the_way() -> None:
    """For "settings", Settings left in front after the Wi-Fi switch is both parts done."""
    task = app_task("settings")
    phone = started(task)
    assert phone.launch("Settings")
    for row in ("Network & internet", "Internet"):
        press(phone, text=row)
    assert not task.check(phone.state())
    press(phone, text="Wi-Fi")
    assert task.check(phone.state())


def test_an_extra_switch_or_a_pop_up_over_the_app_loses() -> None:
    task = app_task("clock")
    phone = started(task)
    tiles(phone, "Internet", "Battery Saver")
    assert phone.launch("Clock")
    assert not task.check(phone.state())
    tiles(phone, "Battery Saver")  # put back as it started; a pop-up comes up over the clock before the check reads
    phone.dialog = Dialog("permission", "Allow Clock to send you notifications?", "",
                          (("Allow", False), ("Don\u2019t allow", True)), "com.google.android.permissioncontroller")
    assert not task.check(phone.state())
    press(phone, text="Allow")
    assert task.check(phone.state())


@pytest.mark.parametrize("permission", ["ask", "denied"])
def test_the_camera_wins_once_its_permission_is_granted(permission: str) -> None:
    """The camera's prompt open, or the camera in front without its permission, loses; granting it wins."""
    task = app_task("camera")
    phone = started(task, **{camera.PACKAGE: {"permission": permission}})
    tiles(phone, "Internet")
    assert phone.launch("Camera")
    assert not task.check(phone.state())
    if permission == "ask":
        press(phone, text=camera.ALLOW[0])
        assert phone.foreground == camera.PACKAGE and task.check(phone.state())
