"""The typed seam (issue 48) of Maps, Settings, the Play Store and Chrome: initial conditions refused with the field
named (and the closest key for an unknown one), and states that fit their schemas after rich initial conditions."""  # noqa: D205, D209

from __future__ import annotations

from typing import get_args, get_type_hints

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.app_state import AppStateMissingError, state_of, state_problems
from android_gym.sim.apps import browser, maps, playstore, settings_pages
from android_gym.sim.apps import settings as S
from android_gym.sim.phone import DEFAULT_SYSTEM, SimPhone
from android_gym.sim.web.content import KINDS
from android_gym.tasks.app_settings import BrightnessTemplate, SilentTemplate
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.chrome import NewTabTemplate
from android_gym.tasks.forum import ForumTemplate
from android_gym.tasks.maps_tasks import MapsSearchTemplate
from android_gym.tasks.web import AddFirstToCart, WeatherQuestion
from android_gym.testing.rollout import run_episode


@pytest.mark.parametrize("package, initial, message", [
    (maps.PACKAGE, {"seeed": 3}, r"unknown config key `Maps\.seeed`; did you mean `Maps\.seeded`\?"),
    (maps.PACKAGE, {"open": {"query": "coffee", "rnak": 1}}, r"`Maps\.open\.rnak`; did you mean `Maps\.open\.rank`"),
    (S.PACKAGE, {"volume": {"ring": 0}}, r"unknown config key `Settings\.volume`; did you mean `Settings\.volumes`\?"),
    (S.PACKAGE, {"storage": {"Maps": {"cahce": 0}}}, r"`Settings\.storage\.Maps\.cahce`; did you mean .*\.cache`"),
    (playstore.PACKAGE, {"instaled": ["Spotify"]}, r"`Play Store\.instaled`; did you mean `Play Store\.installed`"),
    (browser.PACKAGE, {"tabs": 2}, r"unknown config key `Chrome\.tabs`; Known: local_pages"),
])
def test_an_unknown_initial_key_is_refused_naming_the_closest(package, initial, message) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("package, initial, message", [
    (maps.PACKAGE, {"saved": [{"list": "Favorites", "query": "tea", "rank": 8}]},
     r"`Maps\.saved\.0\.rank` must be less than or equal to 7, got 8"),
    (maps.PACKAGE, {"saved": [{"list": "Wishlist", "query": "tea", "rank": 0}]},
     r"`Maps\.saved\.0\.list` must be 'Favorites', 'Want to go' or 'Starred places'"),
    (maps.PACKAGE, {"open": {"query": "coffee", "rank": -1}}, r"`Maps\.open\.rank` must be greater than or equal to 0"),
    (maps.PACKAGE, {"open": "random"}, r"`Maps\.open` must be \"seeded\" or a result"),
    (S.PACKAGE, {"volumes": {"media": 35}}, r"`Settings\.volumes\.media` must be a multiple of 10, got 35"),
    (S.PACKAGE, {"screen_timeout": "1 hour"}, r"`Settings\.screen_timeout` must be '15 seconds', "),
    (S.PACKAGE, {"permissions": {"Clock": {"Camera": "Allow"}}},
     r"`Settings\.permissions` must be permissions Clock asks for \(Nearby devices\), got \{'Clock': \['Camera'\]\}"),
    (S.PACKAGE, {"permissions": {"Maps": {"Location": "Always"}}},
     r"`Settings\.permissions\.Maps\.Location` must be 'Allow', 'Ask every time' or \"Don't allow\""),
    (S.PACKAGE, {"connected": "Nobody's Buds"}, r"`Settings\.connected` must be a saved device \("),
    (S.PACKAGE, {"storage": {"Maps": {"cache": -1}}}, r"`Settings\.storage\.Maps\.cache` must be greater than or"),
    (playstore.PACKAGE, {"installed": ["Spotfy"]},
     r"`Play Store\.installed` must be apps the Play Store offers \(did you mean 'Spotify'\?\), got \['Spotfy'\]"),
    (playstore.PACKAGE, {"installed": ["Spotify"], "updates": ["Roblox"]},
     r"`Play Store\.updates` must be apps of `installed` \(Spotify\), got \['Roblox'\]"),
])
def test_a_bad_initial_value_is_refused_naming_the_field(package, initial, message) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


def test_maps_after_rich_initial_conditions_fits_its_schema() -> None:
    phone = SimPhone()
    phone.reset(3, {maps.PACKAGE: {"seeded": 4, "open": {"query": "Coffee", "rank": 2},
                                   "saved": [{"list": "Starred places", "query": "sushi", "rank": 7},
                                             {"list": "Want to go", "query": "sushi", "rank": 7}]}})
    phone.launch("Maps")  # it reopens on the place's page
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, maps.MapsState)
    assert mine["page"] == "place" and mine["resumed"] is not None
    assert (mine["place"], mine["resumed"]["query"], mine["resumed"]["rank"]) == (mine["resumed"]["name"], "Coffee", 2)
    assert sum(map(len, mine["lists"].values())) == 6 and set(mine["lists"]) == set(maps.LISTS)
    wrong = {**state, "apps": {**state["apps"], maps.PACKAGE: {**mine, "labels": {"Hmoe": mine["resumed"]}}}}
    assert state_problems(wrong) == [f"{maps.PACKAGE}: `labels.Hmoe.[key]` must be 'Home' or 'Work', got 'Hmoe'",
                                     f"{maps.PACKAGE}: `labels.Hmoe.query` is not a key of MapsState",
                                     f"{maps.PACKAGE}: `labels.Hmoe.rank` is not a key of MapsState"]


def test_settings_after_rich_initial_conditions_fits_its_schema() -> None:
    phone = SimPhone()
    phone.reset(5, {"system": {"bluetooth": True}, playstore.PACKAGE: {"installed": ["Instagram"]},
                    S.PACKAGE: {"notifications": {"Maps": False, "Clock": True}, "volumes": {"ring": 0, "alarm": 100},
                                "screen_timeout": "1 minute", "wallpaper": "Night Sky",
                                "devices": ["Car Audio", "Beats Studio3"], "absent_devices": ["JBL Flip 5"],
                                "connected": "*", "permissions": {"Instagram": {"Camera": "Allow"},
                                                                  "Camera": {"Camera": "Don't allow"}},
                                "storage": {"Maps": {"cache": 0}, "Instagram": {"app": 90, "data": 4}}}})
    state = phone.state()
    assert state_problems(state) == []
    mine = state_of(state, S.SettingsState)
    assert mine["notifications_off"] == ["Maps"] and (mine["volumes"]["ring"], mine["volumes"]["alarm"]) == (0, 100)
    assert (mine["screen_timeout"], mine["wallpaper"]) == ("1 minute", "Night Sky")
    assert mine["connected"] in {d["name"] for d in mine["devices"]} >= {"Car Audio", "Beats Studio3"}
    assert mine["apps"]["Instagram"]["permissions"]["Camera"] == "Allow"
    assert mine["apps"]["Maps"]["storage"]["cache"] == 0
    assert mine["apps"]["Camera"]["permissions"]["Camera"] == "Don't allow"
    assert (mine["apps"]["Instagram"]["storage"]["app"], mine["apps"]["Instagram"]["storage"]["data"]) == (90, 4)


def test_settings_edits_fit_their_kinds() -> None:
    phone = SimPhone()
    phone.reset(0)
    state = phone.state()
    mine = state_of(state, S.SettingsState)
    fine = [{"op": "volume", "key": "ring", "value": 0}, {"op": "timeout", "value": "1 minute"},
            {"op": "permission", "app": "Maps", "perm": "Location", "value": "Allow"}, {"op": "forget", "device": "X"}]
    assert state_problems({**state, "apps": {**state["apps"], S.PACKAGE: {**mine, "edits": fine}}}) == []
    wrong = [{"op": "timeout", "value": "1 hour"}, {"op": "clear_cache", "device": "X"}]
    assert state_problems({**state, "apps": {**state["apps"], S.PACKAGE: {**mine, "edits": wrong}}}) == [
        f"{S.PACKAGE}: `edits.0.timeout.value` must be '15 seconds', '30 seconds', '1 minute', '2 minutes', "
        "'5 minutes', '10 minutes' or '30 minutes', got '1 hour'",
        f"{S.PACKAGE}: `edits.1.clear_cache.app` is missing (SettingsState declares it)",
        f"{S.PACKAGE}: `edits.1.clear_cache.device` is not a key of SettingsState"]


def test_the_play_store_after_rich_initial_conditions_fits_its_schema() -> None:
    phone = SimPhone()
    phone.reset(1, {playstore.PACKAGE: {"installed": ["Roblox", "Spotify"], "updates": ["Roblox"]}})
    phone.launch("Play Store")
    state = phone.state()
    assert state_problems(state) == []
    assert state_of(state, playstore.PlayStoreState) == {
        "installed": ["Roblox", "Spotify"], "installing": [], "updates": ["Roblox"], "updating": [], "updated": [],
        "page": "home", "query": None, "viewed": [], "wishlist": []}


@pytest.mark.parametrize("template", [AddFirstToCart(), WeatherQuestion(), ForumTemplate(), NewTabTemplate()],
                         ids=lambda t: t.name)
def test_chromes_state_fits_its_schema_after_an_expert_episode(template: TaskTemplate) -> None:
    """Chrome takes no initial conditions: its rich states are a cart, an answer card, a post, an incognito tab."""
    task, device = template.tasks("test")[0], SimDevice("hard")
    assert run_episode(task, seed=4, device=device).success
    state = device.state()
    assert state_problems(state) == []
    assert task.check(state)  # read through `state_of(state, BrowserState)`


def test_the_schemas_closed_sets_are_the_apps_own() -> None:
    assert get_args(get_type_hints(browser.AnswerCard)["kind"]) == KINDS
    assert get_args(settings_pages.VolumeKey) == tuple(S.VOLUMES)


def test_on_a_real_phone_system_checks_still_judge_and_app_state_reads_name_the_app() -> None:
    """A real phone reports the system and the foreground but no app state: a check of those still judges; one that
    reads an app's state raises (the env makes that an unknown verdict, never a reward)."""  # noqa: D205, D209
    real = {"foreground": maps.PACKAGE, "system": {**DEFAULT_SYSTEM, "brightness": 20}}
    brighter = BrightnessTemplate().tasks("train")[0]
    assert brighter.check(real) == (brighter.params["direction"] == "down" and brighter.params["start"] > 20)
    for template, package in ((MapsSearchTemplate(), maps.PACKAGE), (SilentTemplate(), S.PACKAGE),
                              (WeatherQuestion(), browser.PACKAGE)):
        with pytest.raises(AppStateMissingError, match=package):
            template.tasks("train")[0].check(real)
