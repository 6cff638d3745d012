"""The General and WebShop suites keep the parts of the template contract that fit them
(android_gym/testing/template_checks.py): disjoint splits, an expert that wins under perturbations, and nothing won
at reset. Their goals keep AitW's one wording per family (the paper's task lists word each family one way), so the
World suite's several-wordings rule is not theirs, and they declare no `apps`."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.tasks import suites
from android_gym.tasks.base import TaskTemplate
from android_gym.testing import template_checks as checks

AITW = [*suites.templates("general"), *suites.templates("webshop")]


@cache
def device(level: str) -> SimDevice:
    """One phone per perturbation level for the module (each episode resets it)."""
    return SimDevice(level)


@pytest.mark.parametrize("template", AITW, ids=lambda t: f"{t.suite}/{t.name}")
def test_splits_are_disjoint_in_one_wording(template: TaskTemplate) -> None:
    checks.check_splits_and_goals(template, phrasings=1)


@pytest.mark.parametrize("level", ["default", "hard"])
@pytest.mark.parametrize("template", AITW, ids=lambda t: f"{t.suite}/{t.name}")
def test_expert_solves_train_and_test_under_perturbations(template: TaskTemplate, level: str) -> None:
    checks.check_expert_solves(template, device(level))


@pytest.mark.parametrize("template", AITW, ids=lambda t: f"{t.suite}/{t.name}")
def test_no_task_is_solved_at_reset(template: TaskTemplate) -> None:
    checks.check_reset_guard(template, device("none"))
