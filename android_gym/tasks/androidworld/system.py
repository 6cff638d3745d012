"""AndroidWorld's system tasks: Wi-Fi, Bluetooth and the screen brightness turned one way (`SystemWifiTurnOn`,
`SystemBluetoothTurnOff`, `SystemBrightnessMax`, ...) or found already that way (the `...Verify` twins).

Goals. AndroidWorld's templates are "Turn wifi {on_or_off}.", "Turn bluetooth {on_or_off}." and "Turn brightness to
the {max_or_min} value."; each of these classes fixes its parameter (`SystemWifiTurnOn` always draws "on"), so the goal
here is the template filled with it, and an instance is how the phone starts instead (`variant`): Settings' eight
switches (Wi-Fi, Bluetooth, airplane mode, dark theme, ...) and the brightness, drawn per variant, but for the task's
own setting.

Starts, as AndroidWorld's `initialize_task`: a task that turns a setting starts with it the other way (Wi-Fi off for
`SystemWifiTurnOn`, the brightness at its minimum for `SystemBrightnessMax`); a Verify task starts with it already as
the goal asks. AndroidWorld's brightness is `screen_brightness` 255 at the maximum and 1 at the minimum (the slider's
lowest on a Pixel); the sim's slider goes 0-100 % in tens, so the maximum is 100 % and the minimum 0 %.

Checks. AndroidWorld reads the one setting when the agent stops (`wifi_on` 1 or 2, `bluetooth_on` 1 or 0,
`screen_brightness` 255 or 1). Ours reads the phone's system settings: that setting as asked and every other one as it
started, so flipping another switch on the way loses. AndroidWorld wins a Verify task by stopping without breaking what
is already right; a sim task is won on a state, and one whose start is its goal would be won before the agent acts.
So a Verify task is won once the agent looks at the setting while it is as asked (and nothing else changed): Settings
in front on a page that shows it (Wi-Fi: Network & internet or Internet; Bluetooth: Connection preferences or
Bluetooth; brightness: Display or Brightness level), or, for Wi-Fi and Bluetooth, the quick-settings shade pulled
down over its tiles. Switching the setting the wrong way (and leaving it) loses, as in AndroidWorld.

Experts walk Settings by the World suite's route (`world.settings_tasks.to_page`) to the setting's page, then tap its
switch or the slider's end; a Verify expert stops on the page.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import settings
from android_gym.sim.apps.settings_pages import PAGES
from android_gym.sim.shade import QUICK_TILES
from android_gym.tasks.androidworld.base import AndroidWorldTemplate
from android_gym.tasks.app_settings import others_unchanged
from android_gym.tasks.expert import find, obstacle, tap, wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.settings_tasks import SWITCHES, reach_row, settings_of, to_page

STARTS = 60
"""Phone starts drawn from per task (`variant`: the other switches and the brightness follow from it)."""
BRIGHTNESS_MAX, BRIGHTNESS_MIN = 100, 0
"""The slider's ends, in % (AndroidWorld's `screen_brightness` 255 and 1)."""
PAGE = {"wifi": "internet", "bluetooth": "bluetooth", "brightness": "brightness"}
"""Setting -> the Settings page that sets it."""
SWITCH_ROW = {"wifi": "Wi-Fi", "bluetooth": "Use Bluetooth"}
"""Setting -> the title of its switch row."""


def showing_pages(key: str) -> frozenset[str]:
    """The Settings pages that show system setting `key`: its switch or slider, or a row summary that reads it.

    >>> sorted(showing_pages("wifi")), sorted(showing_pages("brightness"))
    (['internet', 'network'], ['brightness', 'display'])
    """
    return frozenset(page for page, (_, rows) in PAGES.items()
                     if any((r.kind in ("switch", "slider") and r.key == key) or f"{{{key}}}" in r.summary
                            for r in rows))


def looking_at(key: str, state: State) -> bool:
    """Whether the screen shows system setting `key`, unobstructed: a Settings page that shows it in front, or the
    quick-settings shade (for a setting with a tile)."""  # noqa: D205, D209
    if state.get("dialog"):
        return False
    if state["shade"]["open"]:
        return any(tile_key == key for _, tile_key, _ in QUICK_TILES)
    return state["foreground"] == settings.PACKAGE and settings_of(state)["page"] in showing_pages(key)


class SystemSettingTemplate(AndroidWorldTemplate):
    """One system setting (`key`) to end at `target`, started at `start`: a Verify task when they are equal.

    Subclasses set `name`, `goal_template`, `key`, `target` and `start`. The budget follows the expert's Settings
    walk: the default 10 steps for a turn (4-5 steps), 6-7 for a Verify task (2-3 steps).
    """

    split_key = "variant"
    apps = (settings.PACKAGE,)
    key: ClassVar[str]
    target: ClassVar[bool | int]
    start: ClassVar[bool | int]

    @property
    def verify(self) -> bool:
        """Whether the setting starts as the goal asks (AndroidWorld's Verify twin)."""
        return self.start == self.target

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """How the phone starts (AndroidWorld fixes the task's one parameter)."""
        return {"variant": rng.randrange(STARTS)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The setting at `start`; the other switches and the brightness drawn from the variant."""
        rng = np.random.default_rng(stable_seed("androidworld", self.name, params["variant"]))
        system: dict[str, Any] = {k: bool(rng.random() < 0.5) for k in SWITCHES}
        system["brightness"] = int(rng.integers(1, 10)) * 10
        system[self.key] = self.start
        return {"system": system}

    def check(self, params: Params, state: State) -> bool:
        """The setting at `target`, every other system setting as it started; a Verify task also wants it on screen."""
        done = state["system"][self.key] == self.target and others_unchanged(self.key, self.initial(params), state)
        return done and (not self.verify or looking_at(self.key, state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The setting's page in Settings, then its switch or the slider's end (a Verify expert stops there)."""
        step = to_setting(self.key, elements, state)
        if step is not None:
            return step
        if state["system"][self.key] == self.target:
            return wait()
        if self.key in SWITCH_ROW:  # the switch row is the page's first
            row = find(elements, text=SWITCH_ROW[self.key])
            return tap(row) if row is not None else wait()
        bar = find(elements, desc="Brightness level", cls="android.widget.SeekBar")
        zone = None if bar is None else next(
            (e for e in elements if e.desc == f"{self.target}%" and bar.bounds[1] <= e.center[1] < bar.bounds[3]), None)
        return tap(zone) if zone is not None else wait()


def to_setting(key: str, elements: Elements, state: State) -> Action | None:
    """The next step to the Settings page that sets `key`, unobstructed; None once it is in front.

    The Internet page is one row below Network & internet, off the World route (`to_page` knows no "internet").
    """
    if key != "wifi":
        return to_page(PAGE[key], elements, state)
    if state["foreground"] == settings.PACKAGE and settings_of(state)["page"] == PAGE[key]:
        return obstacle(elements, state)
    return to_page("network", elements, state) or reach_row("Internet", elements, state)


WIFI = "Turn wifi {on_or_off}."
BLUETOOTH = "Turn bluetooth {on_or_off}."
BRIGHTNESS = "Turn brightness to the {max_or_min} value."
"""AndroidWorld's three templates, verbatim."""


def _on_off(template: str, on: bool) -> str:
    return template.format(on_or_off="on" if on else "off")


class SystemBluetoothTurnOff(SystemSettingTemplate):
    """Turn Bluetooth off, from on."""

    name, goal_template = "SystemBluetoothTurnOff", _on_off(BLUETOOTH, False)
    key, target, start = "bluetooth", False, True


class SystemBluetoothTurnOffVerify(SystemSettingTemplate):
    """Turn Bluetooth off, already off: look at it."""

    name, goal_template = "SystemBluetoothTurnOffVerify", _on_off(BLUETOOTH, False)
    key, target, start = "bluetooth", False, False
    max_steps = 7  # the expert takes 3 steps: Settings, Connected devices, Connection preferences


class SystemBluetoothTurnOn(SystemSettingTemplate):
    """Turn Bluetooth on, from off."""

    name, goal_template = "SystemBluetoothTurnOn", _on_off(BLUETOOTH, True)
    key, target, start = "bluetooth", True, False


class SystemBluetoothTurnOnVerify(SystemSettingTemplate):
    """Turn Bluetooth on, already on: look at it."""

    name, goal_template = "SystemBluetoothTurnOnVerify", _on_off(BLUETOOTH, True)
    key, target, start = "bluetooth", True, True
    max_steps = 7  # the expert takes 3 steps: Settings, Connected devices, Connection preferences


class SystemBrightnessMax(SystemSettingTemplate):
    """Brightness to the maximum, from the minimum."""

    name, goal_template = "SystemBrightnessMax", BRIGHTNESS.format(max_or_min="max")
    key, target, start = "brightness", BRIGHTNESS_MAX, BRIGHTNESS_MIN


class SystemBrightnessMaxVerify(SystemSettingTemplate):
    """Brightness to the maximum, already there: look at it."""

    name, goal_template = "SystemBrightnessMaxVerify", BRIGHTNESS.format(max_or_min="max")
    key, target, start = "brightness", BRIGHTNESS_MAX, BRIGHTNESS_MAX
    max_steps = 6  # the expert takes 2 steps: Settings, then Display reads the level


class SystemBrightnessMin(SystemSettingTemplate):
    """Brightness to the minimum, from the maximum."""

    name, goal_template = "SystemBrightnessMin", BRIGHTNESS.format(max_or_min="min")
    key, target, start = "brightness", BRIGHTNESS_MIN, BRIGHTNESS_MAX


class SystemBrightnessMinVerify(SystemSettingTemplate):
    """Brightness to the minimum, already there: look at it."""

    name, goal_template = "SystemBrightnessMinVerify", BRIGHTNESS.format(max_or_min="min")
    key, target, start = "brightness", BRIGHTNESS_MIN, BRIGHTNESS_MIN
    max_steps = 6  # the expert takes 2 steps: Settings, then Display reads the level


class SystemWifiTurnOff(SystemSettingTemplate):
    """Turn Wi-Fi off, from on."""

    name, goal_template = "SystemWifiTurnOff", _on_off(WIFI, False)
    key, target, start = "wifi", False, True


class SystemWifiTurnOffVerify(SystemSettingTemplate):
    """Turn Wi-Fi off, already off: look at it."""

    name, goal_template = "SystemWifiTurnOffVerify", _on_off(WIFI, False)
    key, target, start = "wifi", False, False
    max_steps = 6  # the expert takes 2 steps: Settings, then Network & internet reads "Wi-Fi Off"


class SystemWifiTurnOn(SystemSettingTemplate):
    """Turn Wi-Fi on, from off."""

    name, goal_template = "SystemWifiTurnOn", _on_off(WIFI, True)
    key, target, start = "wifi", True, False


class SystemWifiTurnOnVerify(SystemSettingTemplate):
    """Turn Wi-Fi on, already on: look at it."""

    name, goal_template = "SystemWifiTurnOnVerify", _on_off(WIFI, True)
    key, target, start = "wifi", True, True
    max_steps = 6  # the expert takes 2 steps: Settings, then Network & internet reads "Wi-Fi On"


TEMPLATES: tuple[SystemSettingTemplate, ...] = (
    SystemBluetoothTurnOff(), SystemBluetoothTurnOffVerify(), SystemBluetoothTurnOn(), SystemBluetoothTurnOnVerify(),
    SystemBrightnessMax(), SystemBrightnessMaxVerify(), SystemBrightnessMin(), SystemBrightnessMinVerify(),
    SystemWifiTurnOff(), SystemWifiTurnOffVerify(), SystemWifiTurnOn(), SystemWifiTurnOnVerify(),
)
"""In AndroidWorld's registry order."""
