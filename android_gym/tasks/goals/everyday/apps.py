"""Everyday phrasings of the apps tasks (issue 49), mapped onto the templates that check them.

"Install Spotify", "Open Google Maps" and "Open the camera" are read by the AitW-style families of `rules`
(install_app, open_app). This module reads uninstalling a store app (put on the phone by the task, as the line takes
it to be there), updating every app from the Play Store, and reports closing all apps as a gap: the simulated phone
keeps no Overview of recent apps to close them from.

>>> UNINSTALLABLE.read("candy crush")
'Candy Crush Saga'
>>> UNINSTALLABLE.read("YouTube")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
android_gym.tasks.goals.slots.UnknownValue: 'YouTube' came with the simulated phone: only apps installed from the ...
"""

from __future__ import annotations

from dataclasses import dataclass

from android_gym.sim.apps import playstore
from android_gym.tasks.apps import UninstallAppTemplate, UpdateAppsTemplate
from android_gym.tasks.goals.rule import Rule, gap, rule
from android_gym.tasks.goals.slots import APP_ALIASES, OPEN_APPS, Names, UnknownValue
from android_gym.tasks.goals.text import words


@dataclass(frozen=True)
class StoreInstalled:
    """Reads a store app or game the phone may have installed (by name or alias); a system app is refused by name."""

    names: Names

    def read(self, text: str) -> str:
        """The store app `text` names.

        Raises:
            UnknownValue: a system app (they cannot be uninstalled), or an app the store does not know.
        """
        try:
            return str(self.names.read(text))
        except UnknownValue:
            key = " ".join(w for w in words(text) if w not in ("the", "my", "app"))
            if key in OPEN_APPS or key in APP_ALIASES:
                raise UnknownValue(f"{text!r} came with the simulated phone: only apps installed from the Play Store "
                                   "can be uninstalled") from None
            raise

    def vocabulary(self) -> set[str]:
        """The words of the store's app and game names and their aliases."""
        return self.names.vocabulary()


UNINSTALLABLE = StoreInstalled(Names("app installed from the Play Store",
                                     {a: a for a in (*playstore.BRAND_APPS, *playstore.GAMES)}, {
    "candy crush": "Candy Crush Saga", "angry birds": "Angry Birds 2", "clash": "Clash of Clans",
    "subway surfer": "Subway Surfers", "amazon": "Amazon Shopping",
    "x": "Twitter", "weather channel": "The Weather Channel", "prime": "Prime Video", "alexa": "Amazon Alexa",
}, strip=("app", "game")))
"""The reader of `{installed_app}`: the well-known store apps and games (`UninstallAppTemplate`'s)."""
_READERS = {"installed_app": UNINSTALLABLE}

RULES: tuple[Rule, ...] = (
    rule("uninstall_app", UninstallAppTemplate(), (
        "uninstall [the] {installed_app} [app|game] [from [my|the] phone]",
        "(remove|delete) the {installed_app} (app|game) [from [my|the] phone]",
        "get rid of [the] {installed_app} (app|game)",
    ), lambda s: {"app": s["installed_app"]}, readers=_READERS),
    rule("update_apps", UpdateAppsTemplate(), (
        "update (all|all of|every one of) [my|the] apps [on [my|the] phone|in the play store|from the play store]",
        "update [my|the] apps",
        "update every app [on [my|the] phone]",
        "(install|get|download) all [the] [app] updates",
        "update everything in the play store",
    ), lambda s: {"variant": 0}),
    gap("close_apps", "the simulated phone has no Overview of recent apps to close apps from", (
        "close all [of] [my|the] [open|running|recent|background] apps",
        "(close|kill|quit|exit) (every|each) [open|running] app",
        "(clear|close|swipe away) [all] [my|the] recent apps",
        "close everything [that is open|thats open]",
    )),
)
"""The apps lines the AitW-style families do not read."""
