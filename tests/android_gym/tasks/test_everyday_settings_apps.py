"""Tests of the everyday instructions' "settings" and "apps and the store" sections (issue 49): each line parses onto
the template that checks it, with the values it names; the expert solves it under pop-ups and spinners; doing
nothing, or a near miss, does not; and values the phone does not know are refused with a reason naming them.

The issue-49 templates behind them (brightness, font size, silent, wallpaper, storage, uninstall, update all) are
played over all their own instances too, since no suite draws them.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from everyday_lines import parsed, parsed_task, play, section

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import playstore
from android_gym.sim.apps import settings as S
from android_gym.tasks.app_settings import (
    EVERYDAY_SETTINGS_TEMPLATES,
    BrightnessTemplate,
    FontSizeTemplate,
    WallpaperTemplate,
)
from android_gym.tasks.apps import EVERYDAY_APP_TEMPLATES, UninstallAppTemplate, store_neighbour
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.goals import GoalMatch, Uncovered, parse_goal
from android_gym.tasks.world.settings_tasks import TimeoutThemeTemplate, set_switch, set_volume
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]

EXPECTED: dict[str, tuple[str, str, dict[str, Any]]] = {
    # settings
    "Turn the brightness down": ("brightness", "brightness", {"direction": "down", "start": 70}),
    "Turn on dark mode": ("settings", "toggle_setting", {"setting": "dark_theme", "on": True}),
    "Turn off wifi": ("settings", "toggle_setting", {"setting": "wifi", "on": False}),
    "Turn on bluetooth": ("settings", "toggle_setting", {"setting": "bluetooth", "on": True}),
    "Put the phone on silent": ("silent", "silent_mode", {"ring": 70, "notification": 60}),
    "Turn on airplane mode": ("settings", "toggle_setting", {"setting": "airplane_mode", "on": True}),
    "Make the font bigger": ("font_size", "font_size", {"direction": "bigger", "start": "Default"}),
    "Turn off notifications for YouTube": ("app_notifications", "app_notifications", {"app": "YouTube", "on": False}),
    "Set the screen timeout to 5 minutes": ("screen_timeout", "settings_timeout_theme", {"timeout": "5 minutes"}),
    "Turn on battery saver": ("settings", "toggle_setting", {"setting": "battery_saver", "on": True}),
    "Check how much storage is left": ("storage", "storage_left", {"dark": False, "large": False}),
    "Change the wallpaper": ("wallpaper", "change_wallpaper", {"start": S.WALLPAPERS[0], "wallpaper": ""}),
    "Turn on location": ("settings", "toggle_setting", {"setting": "location", "on": True}),
    # apps and the store
    "Install Spotify": ("install_app", "install_app", {"app": "Spotify"}),
    "Uninstall Candy Crush": ("uninstall_app", "uninstall_app", {"app": "Candy Crush Saga"}),
    "Update all my apps": ("update_apps", "update_apps", {"variant": 0}),
    "Open Google Maps": ("open_app", "open_app", {"app": "Maps"}),
    "Open the camera": ("open_app", "open_app", {"app": "Camera"}),
}
"""Every covered line of the two sections: (family, template name, the parameters it must carry)."""
GAPS = {"Close all apps": "no Overview of recent apps"}
"""The lines the sim cannot check, with a piece of the reason they are uncovered."""
LINES = [*section("settings"), *section("apps and the store")]


def test_the_tables_hold_every_line_of_the_two_sections() -> None:
    """Nothing of the sections is left out of the expectations, and nothing else is in them."""
    assert sorted(LINES) == sorted([*EXPECTED, *GAPS])


@pytest.mark.parametrize("line", list(EXPECTED))
def test_each_line_parses_onto_its_template_with_its_values(line: str) -> None:
    """The family, the template and every parameter the expectation names (the rest are drawn by the rule)."""
    family, template, params = EXPECTED[line]
    match = parsed(line)
    assert (match.family, match.template.name) == (family, template)
    assert {k: match.params.get(k) for k in params} == params


@pytest.mark.parametrize("line", list(GAPS))
def test_gap_lines_are_uncovered_with_the_missing_piece(line: str) -> None:
    """Closing all apps needs an Overview screen the sim does not have: uncovered, saying so."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered) and GAPS[line] in result.reason, result


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("line", list(EXPECTED))
def test_the_expert_solves_each_line(line: str, seed: int) -> None:
    """Under the default pop-ups, spinners and dropped taps, within the template's budget."""
    episode = play(line, seed)
    assert episode.success, (line, seed, [a for a, _ in episode.log])



@pytest.mark.parametrize("line", list(EXPECTED))
def test_doing_nothing_does_not_solve_a_line(line: str) -> None:
    """No task starts solved: waiting out the budget fails."""
    episode = run_episode(parsed_task(line), seed=0, policy=lambda elements, state: Action.key(ActionType.WAIT))
    assert not episode.success


@pytest.mark.parametrize(("line", "named"), [
    ("Set the screen timeout to 3 minutes", "3 minutes"),
    ("Set the screen timeout to an hour", "an hour"),
    ("Uninstall YouTube", "came with the simulated phone"),
    ("Uninstall Fortnite", "fortnite"),
    ("Change the wallpaper to Mona Lisa", "mona lisa"),
])
def test_values_the_phone_does_not_know_are_refused_by_name(line: str, named: str) -> None:
    """A timeout Settings does not offer, a system app, an app the store does not list, an unknown wallpaper."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered), result
    assert named in result.reason.lower(), result.reason


@pytest.mark.parametrize(("line", "params"), [
    ("Turn up the brightness", {"direction": "up"}), ("Make the text smaller", {"direction": "smaller"}),
    ("Change the wallpaper to Night Sky", {"wallpaper": "Night Sky", "start": S.WALLPAPERS[0]}),
    ("Set the wallpaper to Blue Dunes", {"wallpaper": "Blue Dunes", "start": S.WALLPAPERS[1]}),
    ("Make the screen turn off after 30 seconds", {"timeout": "30 seconds"}),
    ("Remove the Clash of Clans app", {"app": "Clash of Clans"}),
    ("How much space do I have left on my phone", {"dark": False}),
])
def test_other_wordings_read_their_values(line: str, params: dict[str, Any]) -> None:
    """Wordings the fixture does not hold still read, with the values they name."""
    match = parse_goal(line)
    assert isinstance(match, GoalMatch), match
    assert {k: match.params.get(k) for k in params} == params


# -- the templates behind the lines ----------------------------------------------------------------------------------
@pytest.mark.parametrize("template", [*EVERYDAY_SETTINGS_TEMPLATES, *EVERYDAY_APP_TEMPLATES], ids=lambda t: t.name)
def test_the_expert_solves_every_instance_and_none_starts_solved(template: TaskTemplate) -> None:
    """Every train and test instance (under pop-ups and spinners), none solved by waiting; splits are disjoint."""
    train, test = template.values("train"), template.values("test")
    assert train and test and not [p for p in train if p in test]
    for seed, task in enumerate(template.tasks("train") + template.tasks("test")):
        assert run_episode(task, seed).success, (task.params, seed)
    waiting = run_episode(template.tasks("train")[0], 0, policy=lambda elements, state: Action.key(ActionType.WAIT))
    assert not waiting.success


def test_timeout_without_a_theme_leaves_the_theme_alone() -> None:
    """The world template's own instances keep their initial state; a timeout-only task neither sets nor checks it."""
    template = TimeoutThemeTemplate()
    own = template.grid()[0]
    assert template.initial(own) == {"system": {"dark_theme": not own["dark"]},
                                     S.PACKAGE: {"screen_timeout": S.TIMEOUTS[2]}}
    alone = {"timeout": "5 minutes"}
    assert template.initial(alone) == {S.PACKAGE: {"screen_timeout": "30 minutes"}}
    device = SimDevice("none")
    assert run_episode(Task(template, alone), 0, device=device).success
    state = device.state()
    assert state["system"]["dark_theme"] is False  # the phone's own, untouched
    assert template.check(alone, {**state, "system": {**state["system"], "dark_theme": True}})


def _wins(task: Task, policy: Policy, budget: int = 30) -> bool:
    """Whether `policy` ever wins `task` within `budget` steps (seed 0, no perturbations: more room than the task's
    own budget, so that a near miss loses by what it does, not by running out of steps); it must change the phone,
    or it would prove nothing."""  # noqa: D205, D209
    device = SimDevice("none")
    device.reset(0, task.initial)
    start, won = device.state(), False
    for _ in range(budget):
        action = policy(device.ui_elements(), device.state())
        outcome = device.perform(action)
        device.tick()
        won = won or task.check(device.state(), action if outcome.is_valid else None)
    end = device.state()
    assert end["apps"] != start["apps"] or end["system"] != start["system"], task
    return won


def _wait(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
    return Action.key(ActionType.WAIT)


def test_near_misses_of_the_new_templates_lose() -> None:
    """The wrong way, a switch too many, the wrong volume, a volume besides the wallpaper, the wrong app."""
    down = {"direction": "down", "start": 70}
    bright = BrightnessTemplate()
    assert not _wins(Task(bright, down), lambda e, s: bright.expert({**down, "direction": "up"}, e, s))
    bigger, font = {"direction": "bigger", "start": "Large"}, FontSizeTemplate()
    assert not _wins(Task(font, bigger), lambda e, s: font.expert({**bigger, "direction": "smaller"}, e, s))
    assert not _wins(Task(font, bigger), lambda e, s: set_switch("dark_theme", True, "display", "Dark theme", e, s)
                     or font.expert(bigger, e, s))
    silent = parsed_task("Put the phone on silent")
    assert not _wins(silent, lambda e, s: set_volume("ring", 0, e, s) or set_volume("media", 0, e, s) or _wait(e, s))
    wallpaper, any_other = WallpaperTemplate(), {"start": "Night Sky", "wallpaper": ""}
    assert not _wins(Task(wallpaper, any_other), lambda e, s: set_volume("media", 0, e, s)
                     or wallpaper.expert(any_other, e, s))
    uninstall, app = UninstallAppTemplate(), "Candy Crush Saga"
    neighbour = store_neighbour(app)

    def both(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:  # the neighbour first, then the app
        gone = neighbour not in state["apps"][playstore.PACKAGE]["installed"]
        return uninstall.expert({"app": app if gone else neighbour}, elements, state)
    assert not _wins(Task(uninstall, {"app": app}), both)


def test_the_store_uninstalls_after_a_confirmation_and_updates_all() -> None:
    """Uninstall asks first (Cancel keeps the app); Update all updates every pending app over two steps."""
    device = SimDevice("none")
    device.reset(0, {playstore.PACKAGE: {"installed": ["Roblox", "Spotify"], "updates": ["Roblox", "Spotify"]}})
    phone = device.phone
    store = phone.apps[playstore.PACKAGE]
    phone.launch("Play Store")
    store.handle(("open", "Roblox"), phone.top)
    store.handle(("ask_uninstall", "Roblox"), phone.top)
    assert device.state()["apps"][playstore.PACKAGE]["page"] == "uninstall"
    store.handle(("close",), phone.top)
    assert device.state()["apps"][playstore.PACKAGE]["installed"] == ["Roblox", "Spotify"]
    phone.go_home()
    phone.launch("Play Store")
    store.handle(("manage",), phone.top)
    assert store.handle(("update_all",), phone.top)
    state = device.state()["apps"][playstore.PACKAGE]
    assert state["updating"] == ["Roblox", "Spotify"] and state["updates"] == []
    phone.tick()
    phone.tick()
    state = device.state()["apps"][playstore.PACKAGE]
    assert state["updated"] == ["Roblox", "Spotify"] and not state["updating"]


def test_settings_wallpaper_page_picks_and_logs_and_storage_page_shows_the_free_space() -> None:
    """Wallpaper & style: the current one checked, a pick sets and logs it; an unknown one is refused at reset;
    Storage: used and free space, as the main list's summary says."""  # noqa: D205, D209
    device = SimDevice("none")
    device.reset(0, {S.PACKAGE: {"wallpaper": "Forest Path"}})
    phone = device.phone
    phone.launch("Settings")
    labels = [e.label for e in phone.elements()]
    assert "34% used - 84 GB free" in labels
    phone.tap(*next(e for e in phone.elements() if e.text == "Storage").center)
    labels = [e.label for e in phone.elements()]
    assert device.state()["apps"][S.PACKAGE]["page"] == "storage" and "of 128 GB - 84 GB free" in labels
    phone.key("back")
    while not any(e.text == "Wallpaper & style" for e in phone.elements()):
        assert phone.swipe(540, 1800, 540, 900)
    phone.tap(*next(e for e in phone.elements() if e.text == "Wallpaper & style").center)
    radios = {e.text: e.checked for e in phone.elements() if e.cls == "android.widget.RadioButton"}
    assert radios == {w: w == "Forest Path" for w in S.WALLPAPERS}
    phone.tap(*next(e for e in phone.elements() if e.text == "Night Sky").center)
    mine = device.state()["apps"][S.PACKAGE]
    assert mine["wallpaper"] == "Night Sky" and mine["edits"] == [{"op": "wallpaper", "value": "Night Sky"}]
    with pytest.raises(ConfigError, match="wallpaper"):
        device.reset(0, {S.PACKAGE: {"wallpaper": "Mona Lisa"}})


@pytest.mark.parametrize("seed", range(20))
def test_the_wallpaper_draw_leaves_every_seeds_volumes_and_timeout_as_they_were(seed: int) -> None:
    """The wallpaper has a stream of its own: the volumes and timeout of a seed are those drawn before it existed."""
    rng = np.random.default_rng(stable_seed("settings", seed))
    before = {f"{k}_volume": 10 * int(rng.integers(2, 10)) for k in S.VOLUMES}
    before["screen_timeout"] = S.TIMEOUTS[int(rng.integers(len(S.TIMEOUTS)))]
    values = S.seeded_values(seed)
    assert values.pop("wallpaper") in S.WALLPAPERS and values == before
