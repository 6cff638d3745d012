"""Every World template keeps the template contract (android_gym/testing/template_checks.py): disjoint splits and
several phrasings, an expert that wins under perturbations, no task won at reset, a budget sized from the expert,
and the apps it declares being the apps its expert uses. Each module's own test file tests what is particular to it
(answers read from the screen, near misses, seeded data)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.tasks import suites
from android_gym.tasks.base import TaskTemplate
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode

WORLD = suites.templates("world")


@cache
def device(level: str) -> SimDevice:
    """One phone per perturbation level for the module (each episode resets it)."""
    return SimDevice(level)


def test_the_suite_has_its_shape() -> None:
    """Distinct names; every template declares its apps; answers, infeasible tasks, chains and hard tiers exist."""
    names = [t.name for t in WORLD]
    assert len(names) == len(set(names)) >= 100
    assert all(t.suite == "world" and t.apps for t in WORLD)
    outcomes = [t.outcome for t in WORLD]
    assert outcomes.count("answer") >= 6 and outcomes.count("infeasible") >= 5
    assert sum(len(t.apps) > 1 for t in WORLD) >= 20 and sum(t.tier == "hard" for t in WORLD) >= 15


@pytest.mark.parametrize("template", WORLD, ids=lambda t: t.name)
def test_splits_are_disjoint_and_goals_vary(template: TaskTemplate) -> None:
    checks.check_splits_and_goals(template)


@pytest.mark.parametrize("level", ["hard"])  # the default level's pop-ups, loads and lost taps, more often
@pytest.mark.parametrize("template", WORLD, ids=lambda t: t.name)
def test_expert_solves_train_and_test_under_perturbations(template: TaskTemplate, level: str) -> None:
    checks.check_expert_solves(template, device(level))


@pytest.mark.parametrize("template", WORLD, ids=lambda t: t.name)
def test_no_task_is_solved_at_reset(template: TaskTemplate) -> None:
    checks.check_reset_guard(template, device("none"))


@pytest.mark.parametrize("template", WORLD, ids=lambda t: t.name)
def test_budget_follows_the_expert_and_the_expert_stays_in_its_apps(template: TaskTemplate) -> None:
    checks.check_budget_and_apps(template, device("none"))


DECLARED = [t for t in WORLD if t.outcome != "state"]


@pytest.mark.parametrize("template", DECLARED, ids=lambda t: t.name)
def test_a_declared_outcome_is_won_only_by_its_own_declaration(template: TaskTemplate) -> None:
    """At reset neither waiting, the other declaration nor a made-up answer wins; the expert ends declaring."""
    wrong = [None, Action.key(ActionType.WAIT), Action(ActionType.STATUS_TASK_COMPLETE, text="done"),
             Action.key(ActionType.STATUS_TASK_IMPOSSIBLE if template.outcome == "answer"
                        else ActionType.STATUS_TASK_COMPLETE)]
    phone = device("none")
    for seed, task in enumerate(checks.sample(template, "train", 6) + checks.sample(template, "test", 4)):
        phone.reset(seed, task.initial)
        state = phone.state()
        assert not any(task.check(state, action) for action in wrong), f"{task} seed {seed}"
    episode = run_episode(task, seed=1, device=phone)
    declaration = {"answer": ActionType.STATUS_TASK_COMPLETE, "infeasible": ActionType.STATUS_TASK_IMPOSSIBLE}
    assert episode.success and episode.log[-1][0].action_type == declaration[template.outcome]
