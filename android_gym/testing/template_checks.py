"""The contract every task template keeps, as checks a test (ours or a user's) calls on one template.

Like Gymnasium's `check_env`: each check plays or inspects the template and raises `AssertionError` naming the task
and seed that broke the contract. The contract (android_gym/tasks/base.py says it in full):

- `check_splits_and_goals`: train exists, and test where the template has enough goals to hold some out; they share
  neither parameters nor goal texts (issue 50: a test goal is never seen in training); the goal has several
  phrasings and no unfilled field;
- `check_expert_solves`: the expert solves sampled train and test tasks within the budget on the given device, and
  every app's state at the end fits the app's schema (`android_gym.sim.app_state`);
- `check_reset_guard`: over many seeds nothing is solved at reset, the start is valid (`Task.reset_problem`) and
  every app's state fits its schema;
- `check_budget_and_apps`: `max_steps` is about 1.5x the expert's unperturbed length plus 3, and the expert uses
  exactly the apps the template declares (the launcher aside);
- `check_near_misses`: policies that take a neighbouring path (the wrong person, a shorter clip) never win.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import SCHEMAS, state_problems
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import tap
from android_gym.testing.rollout import ActionSource, run_episode
from android_gym.ui import UIElement

NearMiss = Callable[[Task], ActionSource]
"""Builds, for one task, a policy that takes a path near the right one and must not win."""


def playing(template: TaskTemplate, expert: TaskTemplate | None = None, **changed: Any) -> NearMiss:
    """A near miss: `expert`'s expert (default the template's own) playing the task with some parameters changed,
    each to a value or to a function of the task's parameters (the twin contact, the other day).

    >>> from android_gym.tasks.suites import templates
    >>> near = playing(templates("world")[0], name=lambda p: "someone else")
    >>> near.__name__.endswith("with ['name']")
    True
    """  # noqa: D205
    def make(task: Task) -> ActionSource:
        params = {**task.params, **{k: v(task.params) if callable(v) else v for k, v in changed.items()}}
        return Task(expert or template, params, task.split).expert_action
    make.__name__ = f"{template.name} with {sorted(changed)}"
    return make


def slipping(task: Task, when: Callable[[Mapping[str, Any]], bool], rid: str) -> tuple[ActionSource, list[int]]:
    """The task's expert with one slip: the first time `when(state)` holds, a tap on the element `rid` (a warm start's
    noisy step, say); the list counts the slips made, so a test can check that the slip happened.

    An expert keeps the contract when it still solves the task after the slip (closing what the slip opened).
    """  # noqa: D205
    slips: list[int] = []

    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if not slips and when(state):
            slips.append(1)
            return tap(next(e for e in elements if e.rid == rid))
        return task.expert_action(elements, state)

    return act, slips


def sample(template: TaskTemplate, split: str, n: int) -> list[Task]:
    """`n` distinct tasks of `split` drawn at random (fixed per template and split), all of them when it has fewer.

    Random rather than every k-th: a stride can be a multiple of a template's period of variants (4 variants per
    key, 84 tasks, every 14th pick: the same variant each time) and then never see the others.
    """
    tasks = template.tasks(split)
    rng = np.random.default_rng(stable_seed("sample", template.name, split))
    return [tasks[i] for i in sorted(rng.choice(len(tasks), size=min(n, len(tasks)), replace=False))]


def check_splits_and_goals(template: TaskTemplate, phrasings: int = 3) -> None:
    """Train exists, and test where the template has `MIN_GOALS_FOR_TEST` distinct goals or more; they share no
    parameters and no goal text (`android_gym.tasks.splits`: an instance is unseen when its goal never was).

    Over the train split the goal comes in at least `phrasings` wordings (the goal less its parameters' values).
    """  # noqa: D205
    from android_gym.tasks.splits import MIN_GOALS_FOR_TEST  # the rule's own threshold

    train, test = template.values("train"), template.values("test")
    train_goals, test_goals = {template.goal(p) for p in train}, {template.goal(p) for p in test}
    needs_test = len(train_goals | test_goals) >= MIN_GOALS_FOR_TEST
    assert train and (test or not needs_test), f"{template.name}: train has {len(train)} values, test {len(test)}"
    shared = {repr(sorted(p.items())) for p in train} & {repr(sorted(p.items())) for p in test}
    assert not shared, f"{template.name}: parameters in both splits: {sorted(shared)[:3]}"
    both = sorted(train_goals & test_goals)
    assert not both, f"{template.name}: goals in both splits: {both[:3]}"
    goals = [template.goal(p) for p in train[:400]]
    unfilled = [g for g in goals if "{" in g]
    assert not unfilled, f"{template.name}: an unfilled field in {unfilled[:2]}"
    wordings = {_wording(goal, p) for goal, p in zip(goals, train, strict=False)}
    assert len(wordings) >= phrasings, f"{template.name}: {len(wordings)} wordings of {phrasings}: {sorted(wordings)}"


def _wording(goal: str, params: Mapping[str, Any]) -> str:
    """The goal with its parameters' values taken out: what stays is how it is worded."""
    for value in sorted(_leaves(params), key=len, reverse=True):
        goal = goal.replace(value, "_")
    return re.sub(r"\d+", "#", goal)


def _leaves(value: Any) -> set[str]:
    """The texts (of two characters or more) of a parameter value, through nested lists and dicts."""
    if isinstance(value, Mapping):
        return {leaf for v in value.values() for leaf in _leaves(v)}
    if isinstance(value, list | tuple):
        return {leaf for v in value for leaf in _leaves(v)}
    text = str(value)
    return {text} if len(text) > 1 else set()


def check_expert_solves(template: TaskTemplate, device: SimDevice, train: int = 3, test: int = 2,
                        first_seed: int = 41) -> None:
    """The expert solves `train` + `test` sampled tasks on `device` (its perturbations as configured)."""
    for i, task in enumerate(sample(template, "train", train) + sample(template, "test", test)):
        episode = run_episode(task, seed=first_seed + i, device=device)
        assert episode.success, f"{task}: the expert failed at seed {first_seed + i} in {episode.steps} steps"
        _assert_states_fit(task, first_seed + i, device.state())


def check_reset_guard(template: TaskTemplate, device: SimDevice, seeds: int = 12) -> None:
    """Over `seeds` seeds and instances of both splits, nothing is solved right after reset and the start is valid."""
    tasks = sample(template, "train", seeds // 2) + sample(template, "test", seeds - seeds // 2)
    for seed in range(seeds):
        task = tasks[seed % len(tasks)]
        device.reset(seed, task.initial)
        state = device.state()
        problem = task.reset_problem(state)
        assert problem is None, f"{task} seed {seed}: {problem}"
        _assert_states_fit(task, seed, state)
        assert not task.check(state), f"{task} seed {seed}: solved at reset"
        if template.outcome == "state":
            assert not template.check(task.params, state), f"{task} seed {seed}: its check holds at reset"


def check_budget_and_apps(template: TaskTemplate, device: SimDevice, train: int = 12, test: int = 4) -> list[int]:
    """`max_steps` follows the expert's length on `device` (unperturbed), and the expert stays in its apps.

    The budget lies between 1.5x the median expert length + 1 and 1.5x the longest + 4. A chain of templates (one
    with `parts`) takes its parts' budgets, each sized for that part's longest instances, which rarely meet in one
    chain: its budget must only cover 1.5x its median + 1 and stay within the sum of its parts' budgets.

    Returns:
        The expert's step counts, one per sampled task.
    """
    steps, seen = [], set()
    for seed, task in enumerate(sample(template, "train", train) + sample(template, "test", test)):
        episode = run_episode(task, seed=seed, device=device, policy=_watching(task, seen))
        assert episode.success, f"{task}: the expert failed at seed {seed}"
        seen.add(device.state()["foreground"])  # the app its last action opened (a call, a shared photo)
        steps.append(episode.steps)
    low, high = 1.5 * statistics.median(steps) + 1, 1.5 * max(steps) + 4
    if getattr(template, "parts", None):
        high = sum(part.max_steps for part in template.parts)
    assert low <= template.max_steps <= high, f"{template.name}: max_steps {template.max_steps} for expert {steps}"
    used = seen - {LAUNCHER}
    assert used == set(template.apps), f"{template.name}: the expert used {sorted(used)}, declares {template.apps}"
    return steps


def check_near_misses(template: TaskTemplate, device: SimDevice, near_misses: Iterable[NearMiss],
                      seed: int = 0) -> None:
    """Each near-miss policy loses on the first train task and the first test one (or the last train one).

    A template whose few goals all train (`android_gym.tasks.splits`) has no test task. A near miss must do
    something (change an app's state), or it would prove nothing; answer templates are exempt, since answering the
    wrong thing changes nothing.
    """
    for make in near_misses:
        for task in (template.tasks("train")[0], (template.tasks("test") or template.tasks("train")[-1:])[0]):
            device.reset(seed, task.initial)
            start = device.state()["apps"]
            episode = run_episode(task, seed=seed, device=device, policy=make(task))
            assert not episode.success, f"{task} seed {seed}: a near miss ({_name(make)}) won"
            assert template.outcome == "answer" or device.state()["apps"] != start, (
                f"{task}: the near miss ({_name(make)}) changed nothing, so it tests nothing")


def _assert_states_fit(task: Task, seed: int, state: Mapping[str, Any]) -> None:
    """The state of every app the task sets up or uses fits its schema; the other apps hold the episode's seeded
    defaults, which the apps' own contract checks (`tests/android_gym/sim/test_app_state_contract.py`), and reading
    them all was half of this check's cost with 32 apps."""  # noqa: D205, D209
    packages = set(task.template.apps) | set(task.initial) - {"system", "clipboard"}
    problems = state_problems(state, {package: schema for schema, package in SCHEMAS.items() if package in packages})
    assert not problems, f"{task} seed {seed}: app states that do not fit their schemas: {problems[:5]}"


def _name(make: NearMiss) -> str:
    return getattr(make, "__name__", repr(make))


def _watching(task: Task, seen: set[str]) -> ActionSource:
    """The task's expert, noting every app in front when it acts."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        seen.add(state["foreground"])
        return task.expert_action(elements, state)
    return act
