"""Tests of the OsmAnd templates of the World suite: what is particular to them (the contract runs in
test_world_contract.py): near misses lose (the default group, a look-alike town, the old marker kept, a route out of
order or misnamed, the marker on the twin event's town) and answers read the planner and the group's header, not the
distance from the phone or the look-alike group."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import osmand_data as D
from android_gym.sim.apps.osmand import NOW
from android_gym.tasks.base import Task
from android_gym.tasks.world.osmand_expert import coords, plan_route, save_favorite, save_plan, set_marker
from android_gym.tasks.world.osmand_tasks import TEMPLATES, TOWNS
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

BY_NAME = {t.name: t for t in TEMPLATES}
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
PHONE = SimDevice("none")


def test_the_module_has_its_templates():
    """Six templates: two answers, one with Calendar, each on OsmAnd."""
    assert len(BY_NAME) == 6 and [t.outcome for t in TEMPLATES].count("answer") == 2
    assert sum(len(t.apps) > 1 for t in TEMPLATES) == 1 and all("net.osmand" in t.apps for t in TEMPLATES)


def other_town(town: str) -> str:
    """The town after `town` in the list (a wrong place)."""
    return TOWNS[(TOWNS.index(town) + 1) % len(TOWNS)]


def test_favorite_near_misses_lose():
    """The default group, or the right group on another town, loses."""
    def default_group(task: Task) -> Policy:
        return lambda els, st: save_favorite(task.params["town"], coords(task.params["town"]), "Favorites", els, st)

    def wrong_town(task: Task) -> Policy:
        town = other_town(task.params["town"])
        return lambda els, st: save_favorite(town, coords(town), task.params["group"], els, st)

    checks.check_near_misses(BY_NAME["osmand_favorite_in_group"], PHONE, [default_group, wrong_town])


def test_swap_marker_near_misses_lose():
    """A marker on the new town with the old one kept loses."""
    def keep_old(task: Task) -> Policy:
        return lambda els, st: set_marker(task.params["town"], coords(task.params["town"]), els, st)

    checks.check_near_misses(BY_NAME["osmand_swap_marker"], PHONE, [keep_old])


def test_route_near_misses_lose():
    """The three towns out of order, or in order under the default name, lose."""
    def shuffled(task: Task) -> Policy:
        p = task.params
        return lambda els, st: (plan_route([(p[k], p[k]) for k in ("a", "c", "b")], els, st)
                                or save_plan(p["track"], els, st))

    def default_name(task: Task) -> Policy:
        p = task.params
        return lambda els, st: (plan_route([(p[k], p[k]) for k in ("a", "b", "c")], els, st)
                                or save_plan(f"Plan {NOW}", els, st))

    checks.check_near_misses(BY_NAME["osmand_save_route"], PHONE, [shuffled, default_name])


def test_event_marker_on_the_twin_events_town_loses():
    """A marker on the twin event's town (its location) loses."""
    def twin(task: Task) -> Policy:
        town = task.params["twin_town"]
        return lambda els, st: set_marker(f"{town}, Liechtenstein", coords(town), els, st)

    checks.check_near_misses(BY_NAME["osmand_event_marker"], PHONE, [twin])


def test_answers_are_the_planner_distance_and_the_groups_own_count():
    """The expert's answers win; the distance from the phone and the look-alike group's count do not."""
    for name, wrong in (("osmand_distance", lambda p: D.distance_label(D.distance_m(D.HERE, coords(p["b"])))),
                        ("osmand_group_count", lambda p: str(p["count"] + p["near"]))):
        task = BY_NAME[name].tasks("train")[0]
        episode = run_episode(task, seed=2, device=PHONE)
        assert episode.success
        given = episode.log[-1][0].text
        assert given == BY_NAME[name].answer(task.params, PHONE.state())
        assert not task.check(PHONE.state(), Action(ActionType.STATUS_TASK_COMPLETE, text=wrong(task.params)))
