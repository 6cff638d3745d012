"""AndroidWorld's two system composites: `TurnOffWifiAndTurnOnBluetooth` ("Turn off WiFi, then enable bluetooth") and
`TurnOnWifiAndOpenApp` ("Turn on Wifi, then open the {app_name} app"), built from the single tasks of `system.py` and
`open_app.py`.

Parameters. `TurnOffWifiAndTurnOnBluetooth` has none (AndroidWorld's `generate_random_params` returns `{}`), so an
instance is how the phone starts (`variant`: the other switches and the brightness, drawn as `system.py` draws them).
`TurnOnWifiAndOpenApp` draws `app_name` as `OpenAppTaskEval` does (camera, clock, contacts, settings, dialer), and a
`variant` for the rest of the phone; train and test split on the app's name, as `OpenAppTaskEval` splits.

Starts, as AndroidWorld's `initialize_task` (which runs its parts' own): Wi-Fi on and Bluetooth off for the first,
Wi-Fi off for the second.

Checks. AndroidWorld averages its two parts' checks (0, 0.5 or 1); ours is all or nothing: both parts must hold when
the agent stops. Each part is checked as on the suite: Wi-Fi (and Bluetooth) as asked and every other system setting as
it started (another switch flipped loses), from Settings or the quick-settings shade; the app in front with no pop-up
over it and, for the camera, its permission granted. The goal's "then" sets no order AndroidWorld checks, so none is
checked here either.

Experts chain the parts' experts: the Wi-Fi switch through Settings, then the Bluetooth switch or the app.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import settings
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.open_app import APPS, OpenAppTaskEval
from android_gym.tasks.androidworld.system import (
    STARTS,
    SystemBluetoothTurnOn,
    SystemSettingTemplate,
    SystemWifiTurnOff,
    SystemWifiTurnOn,
)
from android_gym.tasks.app_settings import DEFAULT_SYSTEM
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.settings_tasks import SWITCHES


class SystemCompositeTemplate(AndroidWorldTemplate):
    """Switches to end as `targets` (each started the other way), all or nothing; the rest of the phone as drawn.

    Subclasses set `name`, `goal_template`, `targets` and `turns` (the single templates whose experts turn them).
    """

    split_key = "variant"
    targets: ClassVar[dict[str, bool]]
    turns: ClassVar[tuple[SystemSettingTemplate, ...]]

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """How the phone starts (AndroidWorld draws no parameter)."""
        return {"variant": rng.randrange(STARTS)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Each target switch the other way; the other switches and the brightness drawn from the variant.

        >>> start = TurnOffWifiAndTurnOnBluetooth().initial({"variant": 0})["system"]
        >>> start["wifi"], start["bluetooth"], TurnOnWifiAndOpenApp().initial({"variant": 0})["system"]["wifi"]
        (True, False, False)
        """
        rng = np.random.default_rng(stable_seed("androidworld", self.name, params["variant"]))
        system: dict[str, Any] = {k: bool(rng.random() < 0.5) for k in SWITCHES}
        system["brightness"] = int(rng.integers(1, 10)) * 10
        system.update({k: not v for k, v in self.targets.items()})
        return {"system": system}

    def switched(self, params: Params, state: State) -> bool:
        """Every target switch as asked, every other system setting as it started."""
        start = {**DEFAULT_SYSTEM, **self.initial(params)["system"], **self.targets}
        return all(state["system"][k] == v for k, v in start.items())

    def check(self, params: Params, state: State) -> bool:
        """The switches as asked and nothing else changed (AndroidWorld's half credit is no win here)."""
        return self.switched(params, state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The first part not yet done, played by its own expert (Settings' page, then the switch)."""
        for part in self.turns:
            if state["system"][part.key] != part.target:
                return part.expert(params, elements, state)
        return wait()


class TurnOffWifiAndTurnOnBluetooth(SystemCompositeTemplate):
    """Wi-Fi off and Bluetooth on, from Wi-Fi on and Bluetooth off; nothing else changed."""

    name, goal_template = "TurnOffWifiAndTurnOnBluetooth", "Turn off WiFi, then enable bluetooth"
    apps = (settings.PACKAGE,)
    targets = {"wifi": False, "bluetooth": True}
    turns = (SystemWifiTurnOff(), SystemBluetoothTurnOn())
    max_steps = 16  # the expert takes 10 steps: Settings, Network & internet, Internet, Wi-Fi, back, then Bluetooth


class TurnOnWifiAndOpenApp(SystemCompositeTemplate):
    """Wi-Fi on, from off, and then the named app in front (`OpenAppTaskEval`'s check); nothing else changed."""

    name, goal_template = "TurnOnWifiAndOpenApp", "Turn on Wifi, then open the {app_name} app"
    split_key = "app_name"
    apps = tuple(dict.fromkeys((settings.PACKAGE, *OpenAppTaskEval.apps)))
    targets = {"wifi": True}
    turns = (SystemWifiTurnOn(),)
    opener = OpenAppTaskEval()
    max_steps = 12  # the expert takes 4-7 steps: Wi-Fi on through Settings, then home and the app's icon (or drawer)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """One of `OpenAppTaskEval`'s five app names, and how the rest of the phone starts."""
        return {"app_name": pick(rng, list(APPS)), "variant": rng.randrange(STARTS)}

    def check(self, params: Params, state: State) -> bool:
        """Wi-Fi on, nothing else changed, and the app in front as `OpenAppTaskEval` checks it."""
        return self.switched(params, state) and self.opener.check(params, state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Wi-Fi on through Settings, then the app opened as `OpenAppTaskEval`'s expert opens it."""
        if not state["system"]["wifi"]:
            return super().expert(params, elements, state)
        return self.opener.expert(params, elements, state)


TEMPLATES: tuple[SystemCompositeTemplate, ...] = (TurnOffWifiAndTurnOnBluetooth(), TurnOnWifiAndOpenApp())
"""In AndroidWorld's registry order."""
