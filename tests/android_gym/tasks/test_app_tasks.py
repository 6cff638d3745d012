"""Tests of the general-suite app templates: experts under perturbations, wrong paths, reset states, splits."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import clock, playstore, youtube
from android_gym.tasks.apps import (
    APP_GENERAL_TEMPLATES,
    InstallAppTemplate,
    OpenAppTemplate,
    PlayVideoTemplate,
    SetAlarmTemplate,
    ToggleSettingTemplate,
    TurnOffAlarmTemplate,
)
from android_gym.tasks.base import SPLITS, Task, TaskTemplate
from android_gym.tasks.expert import tap, wait
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

TEMPLATES = {t.name: t for t in APP_GENERAL_TEMPLATES}
KEYS: dict[str, Callable[[Mapping[str, Any]], object]] = {
    "open_app": lambda p: p["app"],
    "toggle_setting": lambda p: (p["setting"], p["on"]),
    "set_alarm": lambda p: (p["hour"], p["minute"]),
    "turn_off_alarm": lambda p: (p["hour"], p["minute"]),
    "play_video": lambda p: p["topic"],
    "install_app": lambda p: p["app"],
}
"""Each template's split parameter."""


def spread(template: TaskTemplate, split: str, n: int) -> list[Task]:
    """`n` tasks spread evenly over the split's instances."""
    tasks = template.tasks(split)
    return [tasks[i * len(tasks) // n] for i in range(n)] if len(tasks) > n else tasks


def expert_of(task: Task, **changes: Any) -> Callable[[Sequence[UIElement], Mapping[str, Any]], Action]:
    """The expert of the same template with some parameters changed (a plausible wrong path)."""
    params = {**task.params, **changes}
    return lambda elements, state: task.template.expert(params, elements, state)


def final_state(task: Task, seed: int, policy: Callable, level: str = "none") -> dict[str, Any]:
    """Play `policy` for the task's step budget and return the device state after the last step."""
    device = SimDevice(perturbations=level)
    episode = run_episode(task, seed, policy=policy, device=device)
    assert not episode.success
    return device.state()


# -- the catalogue of templates ---------------------------------------------------------------------------------------
def test_templates_cover_general_suite_when_listed() -> None:
    """Six general templates, 10-step budgets, a few hundred instances in all."""
    assert set(TEMPLATES) == set(KEYS)
    assert all(t.suite == "general" and t.max_steps == 10 for t in APP_GENERAL_TEMPLATES)
    total = sum(len(t.values(s)) for t in APP_GENERAL_TEMPLATES for s in SPLITS)
    assert total >= 300


@pytest.mark.parametrize("name", list(KEYS))
def test_splits_disjoint_when_values_listed(name: str) -> None:
    """Train and test are non-empty, deterministic, and share no key parameter."""
    template, key = TEMPLATES[name], KEYS[name]
    train, test = template.values("train"), template.values("test")
    assert train and test and train == template.values("train")
    assert not {key(p) for p in train} & {key(p) for p in test}


@pytest.mark.parametrize("name", list(KEYS))
def test_check_false_when_reset(name: str) -> None:
    """Every instance starts unsolved, from its own initial conditions."""
    device = SimDevice(perturbations="none")
    for split in SPLITS:
        for task in TEMPLATES[name].tasks(split):
            device.reset(0, task.initial)
            assert not task.check(device.state()), task


def test_goals_read_naturally_when_formatted() -> None:
    """Goals use the 12-hour clock and plain wording."""
    assert SetAlarmTemplate().goal({"hour": 0, "minute": 5}) == "Set an alarm for 12:05 AM"
    assert TurnOffAlarmTemplate().goal({"hour": 13, "minute": 45}) == "Turn off the 1:45 PM alarm"
    assert ToggleSettingTemplate().goal({"setting": "wifi", "on": True, "variant": 0}) == "Turn on Wi-Fi"
    assert ToggleSettingTemplate().goal({"setting": "bluetooth", "on": False, "variant": 2}) == "Disable Bluetooth"
    assert OpenAppTemplate().goal({"app": "Clock"}) == "Open the Clock app"
    assert PlayVideoTemplate().goal({"topic": "origami"}) == "Play a video about origami on YouTube"
    assert InstallAppTemplate().goal({"app": "Zen Notes"}) == "Install Zen Notes from the Play Store"


# -- experts -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["default", "hard"])
@pytest.mark.parametrize("name", list(KEYS))
def test_expert_solves_instances_when_perturbed(name: str, level: str) -> None:
    """The expert solves spread-out train and test instances within 10 steps under pop-ups, spinners, lost taps."""
    for split in SPLITS:
        for i, task in enumerate(spread(TEMPLATES[name], split, 4)):
            episode = run_episode(task, seed=100 + i, perturbations=level)
            assert episode.success, (task, episode.log)


# -- wrong paths -------------------------------------------------------------------------------------------------------
def test_open_app_fails_when_other_app_opened() -> None:
    """Opening another app is not success."""
    task = OpenAppTemplate().tasks("train")[0]
    other = next(a for a in ("Clock", "Gmail") if a != task.params["app"])
    final_state(task, 1, expert_of(task, app=other))


def test_toggle_setting_fails_when_wrong_or_extra_switch_changed() -> None:
    """Toggling another setting fails, and so does toggling the right one plus another."""
    task = next(t for t in ToggleSettingTemplate().tasks("train") if t.params["setting"] == "bluetooth")
    state = final_state(task, 1, expert_of(task, setting="location", on=not task.initial["system"]["location"]))
    assert state["system"]["location"] != task.initial["system"]["location"]
    state["system"]["bluetooth"] = task.params["on"]
    assert not task.check(state)
    state["system"]["location"] = task.initial["system"]["location"]
    assert task.check(state)


def test_set_alarm_fails_when_time_wrong() -> None:
    """An alarm 12 hours off or 5 minutes off does not count."""
    task = SetAlarmTemplate().tasks("test")[7]
    hour, minute = task.params["hour"], task.params["minute"]
    state = final_state(task, 2, expert_of(task, hour=(hour + 12) % 24))
    assert any(a["hour"] == (hour + 12) % 24 for a in state["apps"][clock.PACKAGE]["alarms"])
    final_state(task, 2, expert_of(task, minute=(minute + 5) % 60))


def test_turn_off_alarm_fails_when_other_alarm_changed() -> None:
    """Turning off or deleting another alarm is not success."""
    task = TurnOffAlarmTemplate().tasks("train")[3]
    alarms = task.initial[clock.PACKAGE]["alarms"]
    other = next(a for a in alarms[1:] if a["enabled"]) if any(a["enabled"] for a in alarms[1:]) else None
    state = {"apps": {clock.PACKAGE: {"alarms": [{**alarms[0], "enabled": False}, *alarms[2:]]}}}
    assert not task.check(state)  # the target is off but a distractor was deleted
    if other is not None:
        final_state(task, 3, expert_of(task, hour=other["hour"], minute=other["minute"]))


def test_play_video_fails_when_ad_or_other_topic_played() -> None:
    """Playing a sponsored result, or a video about another topic, is not success."""
    task, seed = next((t, s) for t in PlayVideoTemplate().tasks("train") for s in range(50)
                      if youtube.videos(t.params["topic"], s)[0]["ad"])

    def tap_ad(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if state["screen"]["name"] == "player":
            return wait()  # stay on the ad
        ad = next((e for e in elements if e.rid == youtube.CARD_RID and e.desc.startswith("Sponsored")), None)
        return tap(ad) if ad is not None else task.expert_action(elements, state)

    state = final_state(task, seed, tap_ad, level={"dialog_prob": 0.0, "slow_load_prob": 0.0,
                                                   "ignored_tap_prob": 0.0})
    assert state["apps"][youtube.PACKAGE]["playing"]["ad"] is True
    final_state(task, seed, expert_of(task, topic="volcanoes" if task.params["topic"] != "volcanoes" else "surfing"))


def test_play_video_fails_when_paused() -> None:
    """A paused video does not count; the expert resumes it."""
    task = PlayVideoTemplate().tasks("test")[0]
    playing = {"title": f"{task.params['topic'].title()} Live Stream", "query": task.params["topic"], "rank": 1,
               "ad": False}
    assert task.check({"apps": {youtube.PACKAGE: {"playing": {**playing, "paused": False}}}})
    assert not task.check({"apps": {youtube.PACKAGE: {"playing": {**playing, "paused": True}}}})


def test_install_app_fails_when_other_app_installed() -> None:
    """Installing a different (e.g. similarly named) app is not success."""
    task = InstallAppTemplate().tasks("test")[5]
    other = next(n for n, _ in playstore.search(task.params["app"]) if n != task.params["app"])
    state = final_state(task, 4, expert_of(task, app=other))
    assert state["apps"][playstore.PACKAGE]["installed"] == [other]
