"""Tests of the suites' three levels of generalisation (held-out values, templates and apps), the templates' declared
apps and tags, and the errors for split names a user gets wrong."""  # noqa: D205, D209

from __future__ import annotations

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.errors import ConfigError, UnknownNameError
from android_gym.tasks import suites
from android_gym.tasks.split_report import split_report
from android_gym.tasks.splits import MIN_GOALS_FOR_TEST


@pytest.mark.parametrize("suite", ["world", "androidworld"])
def test_held_out_splits_partition_the_templates_by_level(suite: str) -> None:
    """Train and test share templates; the unseen-template split holds the named ones, the unseen-app split every
    template touching a held-out app; together they are the suite, and no trained template touches a held-out app."""  # noqa: D205, D209
    by_split = {s: suites.tasks(suite, s) for s in suites.SUITE_SPLITS}
    names = {s: {t.template.name for t in tasks} for s, tasks in by_split.items()}
    held = suites.HELD_OUT[suite]
    # held-out values: the same templates, less those with too few goals to hold one out (issue 50)
    few = {r.template for r in split_report(suite) if r.distinct_goals < MIN_GOALS_FOR_TEST}
    assert names["test"] <= names["train"] and names["train"] - names["test"] <= few
    assert names["unseen_templates"] == set(held.templates)
    assert names["unseen_apps"] and all(set(t.template.apps) & set(held.apps) for t in by_split["unseen_apps"])
    assert not names["train"] & (names["unseen_templates"] | names["unseen_apps"])
    assert not names["unseen_templates"] & names["unseen_apps"]
    every = {t.name for t in suites.templates(suite)}
    assert names["train"] | names["unseen_templates"] | names["unseen_apps"] == every
    for template in suites.templates(suite):  # the trained templates never touch a held-out app
        if template.name in names["train"]:
            assert not set(template.apps) & set(held.apps), template.name
    assert all(t.split == s for s, tasks in by_split.items() for t in tasks)


def test_an_unseen_split_holds_all_of_its_templates_values() -> None:
    """Both parameter splits of a held-out template are in its unseen split."""
    forward = next(t for t in suites.templates("world") if t.name == "forward_email")
    assert len(suites.tasks("world", "unseen_templates", "forward_email")) == \
        len(forward.values("train")) + len(forward.values("test"))


def test_suites_without_held_out_sets_and_bad_split_names_are_refused_clearly() -> None:
    with pytest.raises(ConfigError, match="holds out no templates.*its splits: train, test.*world"):
        suites.tasks("general", "unseen_templates")
    with pytest.raises(UnknownNameError, match="did you mean 'unseen_apps'"):
        suites.tasks("world", "unseen_app")
    with pytest.raises(ConfigError, match="'forward_email' of suite 'world' is in split 'unseen_templates', not"):
        suites.tasks("world", "train", "forward_email")
    with pytest.raises(ConfigError, match="in split 'train' and 'test', not 'unseen_apps'"):
        suites.tasks("world", "unseen_apps", "send_text")
    with pytest.raises(UnknownNameError, match="did you mean 'test'"):
        gym.make("android_gym/World-v0", split="tset")


def test_an_env_on_an_unseen_split_draws_only_its_templates() -> None:
    env = gym.make("android_gym/World-v0", split="unseen_apps", screenshot_width=0)
    _, info = env.reset(seed=0)
    assert info["split"] == "unseen_apps"
    assert {t.template.name for t in env.unwrapped.tasks} == {t.template.name for t in
                                                               suites.tasks("world", "unseen_apps")}
    env.close()


def test_a_template_is_tagged_cross_app_exactly_when_it_declares_several_apps() -> None:
    """The "cross-app" tag follows the declared apps (which the World contract's budget check holds to the apps the
    expert uses, over 16 episodes: `template_checks.check_budget_and_apps`)."""  # noqa: D205, D209
    for template in suites.templates("world"):
        assert ("cross-app" in template.tags) == (len(template.apps) > 1), template.name


def test_tasks_listing_shows_splits_tiers_and_tags(capsys: pytest.CaptureFixture[str]) -> None:
    from android_gym.cli import main

    assert main(["tasks", "--suite", "world"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("world: ") and out.splitlines()[0].endswith(" unseen_apps tasks")
    row = next(line for line in out.splitlines() if line.strip().startswith("contact_number_answer"))
    assert "train" in row and "easy" in row and "Contacts,answer" in row
    row = next(line for line in out.splitlines() if line.strip().startswith("tasks_add_task"))
    assert "unseen_apps" in row and "Tasks" in row
    row = next(line for line in out.splitlines() if line.strip().startswith("call_contact"))
    assert "Contacts,Phone,cross-app" in row


def test_a_tier_restricts_the_tasks_and_a_wrong_one_is_named() -> None:
    hard = suites.tasks("world", "train", tier="hard")
    assert hard and {t.template.tier for t in hard} == {"hard"}
    assert len(hard) < len(suites.tasks("world", "train"))
    env = gym.make("android_gym/World-v0", tier="easy", screenshot_width=0)
    assert {t.template.tier for t in env.unwrapped.tasks} == {"easy"}
    env.close()
    with pytest.raises(UnknownNameError, match="did you mean 'hard'"):
        gym.make("android_gym/World-v0", tier="hrad")
    with pytest.raises(ConfigError, match="no task in split 'train' of tier 'hard'"):
        suites.tasks("world", "train", "call_contact", tier="hard")


@pytest.mark.parametrize("suite", ["general", "webshop", "world"])  # AndroidWorld's: test_androidworld_suite.py
def test_every_goal_fits_the_observation_space(suite: str) -> None:
    ids = {"general": "General", "webshop": "WebShop", "world": "World"}
    env = gym.make(f"android_gym/{ids[suite]}-v0", screenshot_width=0)
    space = env.observation_space["goal"]
    for split in suites.splits_of(suite):
        for task in suites.tasks(suite, split):
            assert space.contains(task.goal), (task.name, len(task.goal))
    env.close()


def test_every_template_has_a_known_outcome_and_world_ones_declare_their_apps() -> None:
    from android_gym.tasks.base import OUTCOMES

    for suite in ("general", "webshop", "world"):
        assert all(t.outcome in OUTCOMES for t in suites.templates(suite))
    assert all(t.apps for t in suites.templates("world"))
