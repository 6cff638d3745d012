"""AndroidWorld's `OpenAppTaskEval`: "Open the {app_name} app. Clear any pop-ups that may appear by granting all
permissions that are required.".

AndroidWorld draws `app_name` from its five apps (camera, clock, contacts, settings, dialer) and checks that the app's
package owns the activity in front when the agent stops. The sim has all five (AndroidWorld's dialer is the Phone app,
its camera the Pixel Camera), so the name is drawn from the same list, by AndroidWorld's name; train and test split on
it. The check reads the phone: that app in front with no pop-up over it (a runtime-permission prompt in front is the
permission controller's activity, which fails AndroidWorld's check too), and for the camera, whose first open asks for
the camera permission on some phones, that permission granted, as the goal asks; another app in front loses. The
expert launches the app from the home screen or the app drawer and grants what the camera asks.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import camera, clock, contacts, dialer, settings
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.apps import open_app
from android_gym.tasks.expert import find, tap, wait
from android_gym.tasks.world.base import Elements, Params, State

APPS: dict[str, tuple[str, str]] = {
    "camera": ("Camera", camera.PACKAGE), "clock": ("Clock", clock.PACKAGE),
    "contacts": ("Contacts", contacts.PACKAGE), "settings": ("Settings", settings.PACKAGE),
    "dialer": ("Phone", dialer.PACKAGE),
}
"""AndroidWorld's app name -> the sim's launcher label and package, in AndroidWorld's order."""


class OpenAppTaskEval(AndroidWorldTemplate):
    """Open the {app_name} app: it ends in front, unobstructed, with the camera's permission granted."""

    name, split_key = "OpenAppTaskEval", "app_name"
    goal_template = ("Open the {app_name} app. Clear any pop-ups that may appear by granting all permissions that are"
                     " required.")
    apps = tuple(package for _, package in APPS.values())
    max_steps = 6  # the expert takes 1-3 steps: an icon on the home screen, or the drawer first; the camera's prompt

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """One of AndroidWorld's five app names."""
        return {"app_name": pick(rng, list(APPS))}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The phone as the episode draws it (the camera asks for its permission on about half of the phones)."""
        return {}

    def check(self, params: Params, state: State) -> bool:
        """The app in front with no pop-up over it; the camera's permission granted."""
        package = APPS[params["app_name"]][1]
        granted = package != camera.PACKAGE or state_of(state, camera.CameraState)["permission"] == "granted"
        return state["foreground"] == package and not state.get("dialog") and granted

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Launch the app by its launcher icon; allow the camera what it asks."""
        label, package = APPS[params["app_name"]]
        if state["foreground"] != package:
            return open_app(label, elements, state)
        if package == camera.PACKAGE and state_of(state, camera.CameraState)["permission"] != "granted":
            button = find(elements, text=camera.ALLOW[0]) or find(elements, text="Allow access")
            return tap(button) if button is not None else wait()
        return wait()


TEMPLATES = (OpenAppTaskEval(),)
