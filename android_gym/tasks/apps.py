"""General-suite app tasks (AitW "General"-like): open apps, toggle settings, alarms, YouTube, Play Store installs;
and, for issue 49's everyday goals (not drawn by the suite), uninstalling a store app and updating all apps.

Splits. Every template splits on its key parameter with `split_of`: the app label, the (setting, on/off) combination
as "wifi:on", the alarm time as "HH:MM", the video topic, the store app name. Settings have only 16 combinations, so
each one is played from several initial conditions (the other switches drawn per instance) and phrasings; a
combination is either train or test, never both (test: Wi-Fi on, airplane mode off, dark theme off).

Experts read the UI elements (what a real device reports) plus the device state, and go past pop-ups and spinners
first; a dropped tap is simply retried on the next step, since the screen has not changed.
"""  # noqa: D205

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import clock, playstore, settings, youtube
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, home, obstacle, swipe_up, tap, type_into, wait
from android_gym.ui import UIElement

State = Mapping[str, Any]
Elements = Sequence[UIElement]

APP_PACKAGES = {
    "Settings": settings.PACKAGE, "Clock": clock.PACKAGE, "YouTube": youtube.PACKAGE, "Play Store": playstore.PACKAGE,
    "Chrome": "com.android.chrome", "Gmail": "com.google.android.gm", "Maps": "com.google.android.apps.maps",
    "Photos": "com.google.android.apps.photos",
    "Camera": "com.google.android.GoogleCamera", "Phone": "com.google.android.dialer",
    "Messages": "com.google.android.apps.messaging", "Calendar": "com.google.android.calendar",
    "Contacts": "com.google.android.contacts", "Files": "com.google.android.apps.nbu.files",
}
"""Apps the open-app template's own instances target: launcher label -> package."""
LAUNCHABLE = {**APP_PACKAGES, "Calculator": "com.google.android.calculator",
              "YT Music": "com.google.android.apps.youtube.music"}
"""Every app an open-app task may name (goal lists ask for more apps than the suite's instances)."""


def open_app(label: str, elements: Elements, state: State) -> Action:
    """The next step towards app `label` in front: HOME, then its launcher icon, opening the app drawer if needed."""
    if state["foreground"] != LAUNCHER:
        return home()
    icon = find(elements, desc=label, clickable=True)
    return tap(icon) if icon is not None else swipe_up()  # up on the home screen opens the drawer, then scrolls it


def into_app(label: str, package: str, elements: Elements, state: State) -> Action | None:
    """The next step past a pop-up or towards app `label` (`package`) in front; None once it is there, unobstructed."""
    step = obstacle(elements, state)
    if step is not None:
        return step
    return open_app(label, elements, state) if state["foreground"] != package else None


def swipe_down() -> Action:
    """Scroll a list back up (finger moves down the middle of the screen)."""
    return Action.swipe(0.5, 0.35, 0.5, 0.7)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


class OpenAppTemplate(TaskTemplate):
    """Open the {app} app: success when the app is in front."""

    name, suite = "open_app", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """One instance per app label of the split."""
        return [{"app": a} for a in APP_PACKAGES if split_of(a) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Open the {params['app']} app"

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The app's package is in front."""
        return state["foreground"] == LAUNCHABLE[params["app"]]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Launch it from the home screen or the drawer."""
        return obstacle(elements, state) or open_app(params["app"], elements, state)


SETTINGS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "wifi": ("Wi-Fi", ("Network & internet", "Internet"), "Wi-Fi"),
    "bluetooth": ("Bluetooth", ("Connected devices", "Connection preferences", "Bluetooth"), "Use Bluetooth"),
    "airplane_mode": ("airplane mode", ("Network & internet",), "Airplane mode"),
    "dark_theme": ("dark theme", ("Display",), "Dark theme"),
    "battery_saver": ("Battery Saver", ("Battery", "Battery Saver"), "Use Battery Saver"),
    "do_not_disturb": ("Do Not Disturb", ("Sound & vibration", "Do Not Disturb"), "Use Do Not Disturb"),
    "location": ("location", ("Location",), "Use location"),
    "auto_rotate": ("auto-rotate", ("Display",), "Auto-rotate screen"),
}
"""System key -> (name in the goal, titles of the pages to walk through from the main list, switch row label)."""
_PHRASES = (("Turn on", "Turn off"), ("Switch on", "Switch off"), ("Enable", "Disable"))
SETTING_VARIANTS = 9  # initial conditions x phrasings per (setting, on/off) combination


class ToggleSettingTemplate(TaskTemplate):
    """Turn on Wi-Fi, disable Bluetooth, ...: the setting ends as asked and no other switch changed."""

    name, suite = "toggle_setting", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (setting, on/off) combination of the split, times `SETTING_VARIANTS` starting conditions."""
        return [{"setting": k, "on": on, "variant": v} for k in SETTINGS for on in (True, False)
                if split_of(f"{k}:{'on' if on else 'off'}") == split for v in range(SETTING_VARIANTS)]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction, phrased by the variant."""
        verb = _PHRASES[params["variant"] % len(_PHRASES)][0 if params["on"] else 1]
        return f"{verb} {SETTINGS[params['setting']][0]}"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The target switch in the opposite position; the other switches drawn from the variant."""
        rng = np.random.default_rng(stable_seed("toggle_setting", params["setting"], params["on"], params["variant"]))
        system = {k: bool(rng.random() < 0.5) for k in SETTINGS}
        system[params["setting"]] = not params["on"]
        return {"system": system}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The setting is as asked and every other switch is as it started."""
        start = self.initial(params)["system"]
        return all(state["system"][k] == (params["on"] if k == params["setting"] else v) for k, v in start.items())

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Walk the Settings pages by their titles and tap the switch row."""
        step = into_app("Settings", settings.PACKAGE, elements, state)
        if step is not None:
            return step
        _, path, switch = SETTINGS[params["setting"]]
        if state["system"][params["setting"]] == params["on"]:
            return wait()
        title_view = find(elements, rid=f"{settings.PACKAGE}:id/title")
        pages = ("Settings", *path)
        if title_view is None or title_view.text not in pages:  # the search page or a wrong page
            return back()
        depth = pages.index(title_view.text)
        label = path[depth] if depth < len(path) else switch
        row = next((e for e in elements if e.text == label and e.rid != title_view.rid), None)
        if row is not None:
            return tap(row)
        # Every target row is at most one swipe below the top of its page.
        return swipe_down() if state["screen"]["scroll"] > 0 else swipe_up()


def _times(step_min: int) -> list[tuple[int, int]]:
    return [(h, m) for h in range(24) for m in range(0, 60, step_min)]


def _time_key(params: Mapping[str, Any]) -> str:
    return f"{params['hour']:02d}:{params['minute']:02d}"


def _distractors(kind: str, hour: int, minute: int) -> list[dict[str, Any]]:
    """One or two other alarms (seeded by the time), never at the target time."""
    rng = np.random.default_rng(stable_seed(kind, hour, minute))
    out: list[dict[str, Any]] = []
    while len(out) < 1 + int(rng.integers(2)):
        h, m = int(rng.integers(24)), 5 * int(rng.integers(12))
        if (h, m) != (hour, minute) and all((a["hour"], a["minute"]) != (h, m) for a in out):
            out.append({"hour": h, "minute": m, "enabled": bool(rng.random() < 0.6), "label": ""})
    return out


def _alarm_tab(elements: Elements, state: State) -> Action | None:
    """The step to the Clock's Alarm tab (None when already there)."""
    if state["foreground"] != clock.PACKAGE:
        return open_app("Clock", elements, state)
    name = state["screen"]["name"]
    if name == "picker":
        return tap(find(elements, text="Cancel")) if find(elements, text="Cancel") else back()
    if name != "alarm":
        tab = find(elements, text="Alarm", clickable=True)
        return tap(tab) if tab is not None else back()
    return None


class SetAlarmTemplate(TaskTemplate):
    """Set an alarm for {h}:{mm} {AM|PM}: success when an enabled alarm exists at that time."""

    name, suite = "set_alarm", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every 5-minute time of the day in the split."""
        return [p for h, m in _times(5) if split_of(_time_key(p := {"hour": h, "minute": m})) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction (12-hour clock)."""
        return f"Set an alarm for {clock.format_time(params['hour'], params['minute'])}"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """A few other alarms already there."""
        return {clock.PACKAGE: {"alarms": _distractors("set_alarm", params["hour"], params["minute"])}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """An enabled alarm at exactly that hour (0-23) and minute."""
        return any(a["enabled"] and (a["hour"], a["minute"]) == (params["hour"], params["minute"])
                   for a in state_of(state, clock.ClockState)["alarms"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Add alarm, then on the dial: hour, minute, AM/PM, OK."""
        step = obstacle(elements, state)
        if step is None and state["foreground"] == clock.PACKAGE and state["screen"]["name"] == "picker":
            return self._pick(params, elements, state["screen"]["args"])
        step = step or _alarm_tab(elements, state)
        if step is not None:
            return step
        add = find(elements, desc="Add alarm")
        return tap(add) if add is not None else wait()

    @staticmethod
    def _pick(params: Mapping[str, Any], elements: Elements, draft: Mapping[str, Any]) -> Action:
        hour12, pm = (params["hour"] - 1) % 12 + 1, params["hour"] >= 12
        if draft["hour"] != hour12:
            want = (clock.HOURS_RID, "hour", str(hour12))
        elif draft["minute"] != params["minute"]:
            want = (clock.MINUTES_RID, "minute", f"{params['minute']:02d}")
        else:
            target = find(elements, text="PM" if pm else "AM") if draft["pm"] != pm else find(elements, text="OK")
            return tap(target) if target is not None else wait()
        rid, mode, text = want
        target = find(elements, rid=rid) if draft["mode"] != mode else find(elements, rid=clock.FACE_RID, text=text)
        return tap(target) if target is not None else wait()


class TurnOffAlarmTemplate(TaskTemplate):
    """Turn off the {time} alarm: that alarm no longer rings (off or deleted) and the others are untouched."""

    name, suite = "turn_off_alarm", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every quarter-hour time of the day in the split (same split rule as `SetAlarmTemplate`)."""
        return [p for h, m in _times(15) if split_of(_time_key(p := {"hour": h, "minute": m})) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Turn off the {clock.format_time(params['hour'], params['minute'])} alarm"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The target alarm on, plus one or two others."""
        target = {"hour": params["hour"], "minute": params["minute"], "enabled": True, "label": ""}
        return {clock.PACKAGE: {"alarms": [target, *_distractors("turn_off_alarm", params["hour"],
                                                                  params["minute"])]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """No enabled alarm at the time, and every other alarm still there as it started."""
        when = (params["hour"], params["minute"])
        alarms = state_of(state, clock.ClockState)["alarms"]
        others = [a for a in self.initial(params)[clock.PACKAGE]["alarms"] if (a["hour"], a["minute"]) != when]
        return (not any(a["enabled"] and (a["hour"], a["minute"]) == when for a in alarms)
                and all(a in alarms for a in others))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Go to the Alarm tab and flip that alarm's switch."""
        step = obstacle(elements, state) or _alarm_tab(elements, state)
        if step is not None:
            return step
        switch = find(elements, desc=f"{clock.format_time(params['hour'], params['minute'])} alarm")
        return tap(switch) if switch is not None and switch.checked else swipe_up()


class PlayVideoTemplate(TaskTemplate):
    """Play a video about {topic} on YouTube: an organic video whose title has the topic's words plays."""

    name, suite = "play_video", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every topic of the split."""
        return [{"topic": t} for t in youtube.TOPICS if split_of(t) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Play a video about {params['topic']} on YouTube"

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The player is in front, not paused, showing an organic video about the topic."""
        playing = state_of(state, youtube.YouTubeState)["playing"]
        return bool(playing and not playing["ad"] and not playing["paused"]
                    and _words(params["topic"]) <= _words(playing["title"]))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Search the topic, then tap the first result that is not sponsored."""
        step = into_app("YouTube", youtube.PACKAGE, elements, state)
        if step is not None:
            return step
        topic, page = params["topic"], state["screen"]["name"]
        if page == "search":
            return type_into(elements, state, youtube.SEARCH_RID, topic)
        if page == "results" and state["screen"]["args"]["query"] == topic:
            card = next((e for e in elements if e.rid == youtube.CARD_RID and "Sponsored" not in e.desc
                         and _words(topic) <= _words(e.desc)), None)
            return tap(card) if card is not None else swipe_up()
        playing = state_of(state, youtube.YouTubeState)["playing"]
        if page == "player" and playing and not playing["ad"] and _words(topic) <= _words(playing["title"]):
            button = find(elements, rid=youtube.PLAY_PAUSE_RID)  # the right video, paused: resume it
            return tap(button) if button is not None else wait()
        if page in ("results", "player"):
            return back()
        search = find(elements, desc="Search", clickable=True)
        return tap(search) if search is not None else back()


class InstallAppTemplate(TaskTemplate):
    """Install {app} from the Play Store: success once it is installed (installs take a couple of steps)."""

    name, suite = "install_app", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every store app of the split."""
        return [{"app": a} for a in playstore.CATALOGUE_APPS if split_of(a) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Install {params['app']} from the Play Store"

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The app is installed."""
        return params["app"] in state_of(state, playstore.PlayStoreState)["installed"]

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Search its name, tap its Install button (not a sponsored app's), wait for the install."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        name = params["app"]
        store = state_of(state, playstore.PlayStoreState)
        if name in store["installing"] or name in store["installed"]:
            return wait()
        if state["foreground"] != playstore.PACKAGE:
            return open_app("Play Store", elements, state)
        page, args = state["screen"]["name"], state["screen"]["args"]
        if page == "search":
            return type_into(elements, state, playstore.SEARCH_RID, name)
        if (page == "results" and args["query"].lower() == name.lower()) or (page == "details" and
                                                                            args["name"] == name):
            button = find(elements, desc=f"Install {name}")
            return tap(button) if button is not None else swipe_up()
        if page in ("results", "details"):
            return back()
        bar = find(elements, rid=f"{playstore.PACKAGE}:id/search_bar")
        return tap(bar) if bar is not None else back()


def to_listing(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to app `name`'s page in the Play Store, found by searching its name; None once it is in front."""
    step = into_app("Play Store", playstore.PACKAGE, elements, state)
    if step is not None:
        return step
    page, args = state["screen"]["name"], state["screen"]["args"]
    if page == "details" and args["name"] == name:
        return None
    if page == "search":
        return type_into(elements, state, playstore.SEARCH_RID, name)
    if page == "results" and args["query"].lower() == name.lower():
        row = find(elements, desc=name)  # its own row: a sponsored one reads "Sponsored - ..."
        return tap(row) if row is not None else swipe_up()
    if page != "home":
        return back()
    bar = find(elements, rid=f"{playstore.PACKAGE}:id/search_bar")
    return tap(bar) if bar is not None else back()


def store_neighbour(app: str) -> str:
    """The store app installed beside `app` by the uninstall and update tasks: the next well-known app or game.

    >>> store_neighbour("Candy Crush Saga")
    'Clash of Clans'
    """
    known = sorted({*playstore.BRAND_APPS, *playstore.GAMES}, key=str.lower)
    return known[(known.index(app) + 1) % len(known)]


class UninstallAppTemplate(TaskTemplate):
    """Uninstall {app}: the store app (installed before the episode, beside another) is gone, the other stays.

    An everyday goal names an app the phone has ("Uninstall Candy Crush"): the task puts it on the phone first, as the
    notification tasks do. Experts open its page in the Play Store, tap Uninstall and confirm.
    """

    name, suite, apps = "uninstall_app", "general", (playstore.PACKAGE,)
    max_steps = 14  # a search, the app's page (each may load slowly), and the confirmation

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every well-known store app and game of the split."""
        return [{"app": a} for a in sorted({*playstore.BRAND_APPS, *playstore.GAMES}) if split_of(f"rm:{a}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Uninstall {params['app']}"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The app and its neighbour installed."""
        return {playstore.PACKAGE: {"installed": [params["app"], store_neighbour(params["app"])]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """The app neither installed nor installing; its neighbour still installed."""
        store = state_of(state, playstore.PlayStoreState)
        return (params["app"] not in store["installed"] + store["installing"]
                and store_neighbour(params["app"]) in store["installed"])

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Its page in the store, Uninstall, then Uninstall in the confirmation."""
        if self.check(params, state):
            return wait()
        if state["foreground"] == playstore.PACKAGE and state["screen"]["name"] == "uninstall":
            confirm = find(elements, text="Uninstall", clickable=True)
            return tap(confirm) if confirm is not None else wait()
        step = to_listing(params["app"], elements, state)
        if step is not None:
            return step
        button = find(elements, desc=f"Uninstall {params['app']}")
        return tap(button) if button is not None else wait()


class UpdateAppsTemplate(TaskTemplate):
    """Update all my apps: every store app with an update available is updated, and all are still installed.

    Four store apps are installed, two or three of them with an update available.
    """

    name, suite, apps = "update_apps", "general", (playstore.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Twelve variants: which apps are installed, and which of them wait for an update."""
        return [{"variant": v} for v in range(12) if split_of(f"update:{v}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return "Update all my apps"

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Four store apps installed (drawn by the variant), the first two or three with an update available."""
        rng = np.random.default_rng(stable_seed("update_apps", params["variant"]))
        known = sorted({*playstore.BRAND_APPS, *playstore.GAMES})
        installed = [known[int(i)] for i in rng.permutation(len(known))[:4]]
        return {playstore.PACKAGE: {"installed": installed, "updates": installed[:2 + params["variant"] % 2]}}

    def check(self, params: Mapping[str, Any], state: State) -> bool:
        """No update left available or under way, each of them updated, and every installed app still there."""
        store, start = state_of(state, playstore.PlayStoreState), self.initial(params)[playstore.PACKAGE]
        return (not store["updates"] and not store["updating"] and set(start["updates"]) <= set(store["updated"])
                and set(start["installed"]) <= set(store["installed"]))

    def expert(self, params: Mapping[str, Any], elements: Elements, state: State) -> Action:
        """Play Store > the account button (Manage apps & device) > Update all; then wait for the updates."""
        store = state_of(state, playstore.PlayStoreState)
        step = obstacle(elements, state)
        if step is not None or not store["updates"]:
            return step or wait()
        if state["foreground"] != playstore.PACKAGE:
            return open_app("Play Store", elements, state)
        page = state["screen"]["name"]
        target = {"manage": find(elements, desc="Update all", clickable=True),
                  "home": find(elements, desc="Manage apps & device", clickable=True)}.get(page)
        if page not in ("manage", "home"):
            return back()
        return tap(target) if target is not None else wait()


APP_GENERAL_TEMPLATES: tuple[TaskTemplate, ...] = (
    OpenAppTemplate(), ToggleSettingTemplate(), SetAlarmTemplate(), TurnOffAlarmTemplate(), PlayVideoTemplate(),
    InstallAppTemplate(),
)
"""The general-suite app templates, 10 steps each (AitW General's budget)."""
EVERYDAY_APP_TEMPLATES: tuple[TaskTemplate, ...] = (UninstallAppTemplate(), UpdateAppsTemplate())
"""The issue-49 store templates (not drawn by a suite: adding them to General would change General-v0's tasks)."""
