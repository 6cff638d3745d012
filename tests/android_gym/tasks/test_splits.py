"""Tests of the goal rule of the train/test split (issue 50: an instance is unseen when its goal text was never seen
in training), its report, and the errors for a split a suite does not have."""  # noqa: D205, D209

from __future__ import annotations

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.errors import ConfigError, UnknownNameError
from android_gym.tasks import suites
from android_gym.tasks.base import SPLITS, split_of
from android_gym.tasks.split_report import format_report, split_report
from android_gym.tasks.splits import MIN_GOALS_FOR_TEST, split_by_goal
from android_gym.tasks.world.base import WorldTemplate
from android_gym.tasks.world.media_tasks import CameraTemplate


@pytest.mark.parametrize("suite", ["world", "androidworld"])
def test_no_goal_is_in_train_and_test_of_any_template(suite: str) -> None:
    """Per template, the goals of "train" and "test" are disjoint (the report counts them from the goals alone)."""
    rows = split_report(suite)
    assert len(rows) == len(suites.templates(suite))
    leaking = [(r.template, r.shared_goals) for r in rows if r.shared_goals]
    assert not leaking, leaking
    for row in rows:  # and the report's counts are the templates' own
        template = next(t for t in suites.templates(suite) if t.name == row.template)
        assert row.instances == {s: len(template.values(s)) for s in SPLITS}


@pytest.mark.parametrize("suite", ["world", "androidworld"])
def test_every_seen_template_trains_and_one_with_enough_goals_is_tested(suite: str) -> None:
    rows = [r for r in split_report(suite) if r.split == "seen"]
    assert all(r.instances["train"] for r in rows), [r.template for r in rows if not r.instances["train"]]
    assert not [r.template for r in rows if r.lacks_test]
    assert any(r.distinct_goals < MIN_GOALS_FOR_TEST and not r.instances["test"] for r in rows)  # the rule bites


def test_a_world_instance_reworded_is_in_the_same_split() -> None:
    """No phrasing of a test instance's parameters is a goal of train (rewording does not make an instance unseen)."""
    checked = 0
    for template in suites.templates("world"):
        if not isinstance(template, WorldTemplate):
            continue
        train_goals = {template.goal(p) for p in template.values("train")}
        for params in template.values("test"):
            reworded = {template.goal(r) for r in template.rewordings(params)}
            assert not reworded & train_goals, (template.name, sorted(reworded & train_goals)[:2])
            checked += len(reworded) > 1
    assert checked > 1000


def test_instances_chained_by_a_shared_goal_are_one_unit_and_keep_the_key_split_otherwise() -> None:
    """A goal that hides the key folds its instances together; goals that show it keep `split_of` of the key."""
    keys = [f"k{i}" for i in range(40)]
    shown = split_by_goal([{"k": k} for k in keys], goals=lambda p: [f"Open {p['k']}"], key=lambda p: p["k"])
    assert {p["k"] for p in shown["test"]} == {k for k in keys if split_of(k) == "test"}
    # z and x share goal A, x and y goal B: the three are one unit, placed by its smallest key (x, whose split is
    # not the others'), wherever that key sits in the grid
    x = next(k for k in sorted(keys) if split_of(k) == "test")
    y, z = [k for k in sorted(keys) if k > x and split_of(k) == "train"][:2]
    rest = [{"k": k, "g": k} for k in keys if k not in (x, y, z)]
    grid = [{"k": z, "g": "A"}, {"k": x, "g": "A|B"}, {"k": y, "g": "B"}, *rest]
    parts = split_by_goal(grid, goals=lambda p: p["g"].split("|"), key=lambda p: p["k"])
    assert [p["k"] for p in parts["test"] if p["k"] in (x, y, z)] == [z, x, y]


def test_the_guards_keep_a_train_instance_and_a_test_one_when_there_are_enough_goals() -> None:
    test_keys = [k for k in (f"v{i}" for i in range(200)) if split_of(k) == "test"]
    train_keys = [k for k in (f"v{i}" for i in range(200)) if split_of(k) == "train"]
    all_test = split_by_goal(test_keys[:3], goals=lambda k: [k], key=str)
    assert all_test == {"train": test_keys[:3], "test": []}  # three goals: too few to hold one out, all train
    many = split_by_goal(test_keys[:6], goals=lambda k: [k], key=str)
    assert len(many["test"]) == 1 and len(many["train"]) == 5
    none_test = split_by_goal(train_keys[:6], goals=lambda k: [k], key=str)
    assert len(none_test["test"]) == 1 and len(none_test["train"]) == 5
    one_goal = split_by_goal(train_keys[:9], goals=lambda k: ["Take one photo."], key=str)
    assert one_goal == {"train": train_keys[:9], "test": []}


def test_the_report_prints_a_row_per_template_and_the_totals() -> None:
    rows = split_report("world")
    text = format_report(rows)
    assert len(text.splitlines()) == len(rows) + 2
    total = text.splitlines()[-1].split()
    assert total[0] == "total" and int(total[-1]) == 0
    assert int(total[1]) == sum(r.instances["train"] for r in rows)


def test_a_split_the_suite_lacks_is_refused_with_the_splits_it_has() -> None:
    with pytest.raises(UnknownNameError, match="split of suite 'general' 'nope'.*Known: test, train$"):
        gym.make("android_gym/General-v0", split="nope")
    with pytest.raises(ConfigError, match="no 'unseen_apps' split; its splits: train, test"):
        gym.make("android_gym/General-v0", split="unseen_apps")
    with pytest.raises(UnknownNameError, match="did you mean 'unseen_templates'.*unseen_apps, unseen_templates"):
        suites.tasks("world", "unseen_template")
    with pytest.raises(ConfigError, match="its splits: train, test"):
        suites.check_split("unseen_templates", "webshop")
    suites.check_split("unseen_apps", "world")  # a split the suite has passes


def test_a_camera_task_reworded_by_its_variant_stays_in_one_split() -> None:
    """A Camera template's variant picks the wording: every variant of one task (its key) is in one split."""
    cameras = [t for t in suites.templates("world") if isinstance(t, CameraTemplate) and t.key_name != "phrasing"]
    assert len(cameras) >= 4
    for template in cameras:
        where = {(p[template.key_name], s) for s in SPLITS for p in template.values(s)}
        assert len(where) == len({key for key, _ in where}), (template.name, sorted(where))
    selfie = next(t for t in cameras if t.name == "take_selfie")
    assert {s for s in SPLITS if selfie.values(s)} == set(SPLITS)  # five goals: one kind of selfie is held out
