"""Tests of the long Breezy Weather and Feeder World templates beyond the contract: the expert's end state wins, the
ways a person writes it (the other unit, the number before the city, another tag case) win too, and near misses lose:
an item left out, one extra, another city's or today's high, a twin article, the wrong feed or city touched."""  # noqa: D205, D209

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import SCHEMAS
from android_gym.sim.apps import feeder_data as FD
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import weather_data as WD
from android_gym.tasks.base import Task
from android_gym.tasks.world import weather_feeder_long_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

ADD, NOTE, TEXTS, RAIN, SUB, SAVE, LATEST, TASKS = T.TEMPLATES
MARKOR, TASKS_APP = SCHEMAS[markor.MarkorState], SCHEMAS[todo.TasksState]


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def solved(template: Any, k: int = 0) -> tuple[Task, dict[str, Any]]:
    """Train task `k` of `template` played by its expert to a win; a copy of the end state."""
    task = template.tasks("train")[k]
    assert run_episode(task, 0, device=device()).success
    return task, copy.deepcopy(device().state())


def wins(task: Task, state: dict[str, Any]) -> bool:
    """Whether `state` wins `task`."""
    return task.check(state, None)


def app(state: dict[str, Any], package: str) -> dict[str, Any]:
    """An app's part of `state` (to change a copy)."""
    return state["apps"][package]


def high(state: dict[str, Any], city: str, offset: int, unit: str = "°C") -> int:
    """`city`'s high `offset` days ahead, in `unit`."""
    loc = next(c for c in app(state, WD.PACKAGE)["locations"] if c["city"] == city)
    return T.shown(loc["daily"][offset]["high_c"], unit)


# -- Breezy Weather --------------------------------------------------------------------------------------------------
def test_add_two_wants_both_cities_the_drop_and_both_units():
    task, state = solved(ADD)
    p = task.params
    assert wins(task, state)
    w = app(state, WD.PACKAGE)
    for key, value in (("added", [p["first"]]), ("removed", [p["third"], p["fourth"]]), ("wind_unit", "km/h"),
                       ("temperature_unit", p["unit"])):
        near = copy.deepcopy(state)
        app(near, WD.PACKAGE)[key] = value
        assert not wins(task, near), key
    assert w["added"] and not wins(task, {**state, "apps": {**state["apps"], WD.PACKAGE: {**w, "added": [
        *w["added"], p["fourth"]]}}})
    checks.check_near_misses(ADD, device(), [playing(ADD, third=lambda q: q["fourth"])])


def test_highs_note_accepts_either_unit_and_order_and_refuses_today_or_a_city_left_out():
    task, state = solved(NOTE)
    cities = task.params["cities"]
    assert wins(task, state)
    files = app(state, MARKOR)["files"]
    note = task.params["note"]
    files[note] = "\n".join(f"{high(state, c, 1, '°F')} F in {c}" for c in cities)
    assert wins(task, state)
    files[note] = "\n".join(f"{c}: {high(state, c, 1)} C" for c in cities[:3])
    assert not wins(task, state)
    files[note] = "\n".join(f"{c} {high(state, c, 1)}" for c in reversed(cities)) + f"\n{cities[0]} today 99"
    assert not wins(task, state)
    city = next(c for c in cities if high(state, c, 0) != high(state, c, 1))
    files[note] = "\n".join(f"{c}: {high(state, c, 0 if c == city else 1)} C" for c in cities)
    assert not wins(task, state)


def test_highs_texts_go_to_each_person_with_their_own_city():
    task, state = solved(TEXTS)
    p = task.params
    assert wins(task, state)
    sent = app(state, M.PACKAGE)["sent"]
    assert len(sent) == 3
    by_text = {s["number"]: s["text"] for s in sent}
    first, second = (T.person(p[k])["number"] for k in ("person", "person2"))
    swapped = copy.deepcopy(state)
    for s in app(swapped, M.PACKAGE)["sent"]:
        s["text"] = by_text[second] if s["number"] == first else by_text[first] if s["number"] == second else s["text"]
    assert high(state, p["first"], 1) == high(state, p["second"], 1) or not wins(task, swapped)
    extra = copy.deepcopy(state)
    app(extra, M.PACKAGE)["sent"].append({**sent[0]})
    assert not wins(task, extra)
    fahrenheit = copy.deepcopy(state)
    for s in app(fahrenheit, M.PACKAGE)["sent"]:
        city = next(c for c in p["cities"] if c in s["text"])
        s["text"] = f"It'll be {high(state, city, 1, '°F')}F in {city} tomorrow"
    assert wins(task, fahrenheit)


def test_rain_tasks_need_both_due_dates():
    task, state = solved(RAIN)
    assert wins(task, state)
    inbox = app(state, TASKS_APP)["lists"]["Inbox"]
    mine = [t for t in inbox if t["title"] in (task.params["item"], task.params["item2"])]
    assert len(mine) == 2
    mine[1]["due"] = "2026-06-30"
    assert not wins(task, state)
    mine[1]["due"], mine[0]["completed"] = RAIN.rainy(state, task.params["second"]), True
    assert not wins(task, state)


# -- Feeder ----------------------------------------------------------------------------------------------------------
def test_subscribe_two_wants_both_feeds_under_the_tag_and_that_drop_alone():
    task, state = solved(SUB)
    assert wins(task, state)
    f = app(state, FD.PACKAGE)
    for feed in f["feeds"]:
        if feed["url"] == task.params["url"]:
            feed["tag"] = task.params["tag"].upper()
    assert wins(task, state)
    f["added"] = [task.params["url"]]
    assert not wins(task, state)
    checks.check_near_misses(SUB, device(), [playing(SUB, drop=lambda q: T.nth(T.FEEDS, T.FEEDS.index(q["drop"]) + 1)),
                                             playing(SUB, tag="Hobbies and more")])


def test_save_three_refuses_a_twin_and_a_feed_left_unread():
    task, state = solved(SAVE)
    assert wins(task, state)
    unread = copy.deepcopy(state)
    next(a for a in app(unread, FD.PACKAGE)["articles"] if a["feed"] == task.params["read"])["read"] = False
    assert not wins(task, unread)
    twin = T.nth(T.TITLES, task.params["idx"][2])[1]
    checks.check_near_misses(SAVE, device(), [playing(SAVE, c=twin)])


def test_latest_two_note_wants_both_titles_and_links_and_no_twin():
    task, state = solved(LATEST)
    assert wins(task, state)
    arts = {a["title"]: a for a in app(state, FD.PACKAGE)["articles"]}
    files, note = app(state, MARKOR)["files"], task.params["note"]
    text = files[note]
    files[note] = text + "\n" + arts[task.params["twin2"]]["link"]
    assert not wins(task, state)
    files[note] = text.replace(arts[task.params["title2"]]["link"], "")
    assert not wins(task, state)
    files[note] = f"{text}\n(both unread so far)"
    assert wins(task, state)


def test_saved_to_tasks_wants_a_task_per_saved_article_and_no_twin():
    task, state = solved(TASKS, 1)
    assert wins(task, state)
    lists = app(state, TASKS_APP)["lists"]
    reads = [t for t in lists["Inbox"] if t["title"].startswith("Read ")]
    assert len(reads) == len(task.params["idx"])
    dropped = copy.deepcopy(state)
    app(dropped, TASKS_APP)["lists"]["Inbox"] = [t for t in lists["Inbox"] if t is not reads[0]]
    assert not wins(task, dropped)
    twin = f"Read {T.nth(T.TITLES, task.params['idx'][0])[1]}"
    checks.check_near_misses(TASKS, device(), [playing(TASKS, idx=lambda q: q["idx"][:1])])
    extra = copy.deepcopy(state)
    app(extra, TASKS_APP)["edits"].append({**app(extra, TASKS_APP)["edits"][0], "title": twin})
    assert not wins(task, extra)
