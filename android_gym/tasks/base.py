"""The Task contract: a goal, its initial conditions, a state-based success check, and an expert that solves it.

A `TaskTemplate` is a parameterised family ("set an alarm for {time}"); a `Task` is one instance of it. Templates
split their parameter values into train and test so that test values never appear in train; the World and
AndroidWorld suites split so that no goal text (in any phrasing) is in both (`tasks/splits.py`), since an instance
is unseen only when its goal was never seen.

A template's `outcome` says what success is. "state": the device state reaches the goal (an alarm is set). "answer":
the agent declares the task complete with an answer (STATUS_TASK_COMPLETE with text) that matches the one the device
state holds (`answer(params, state)`). "infeasible": the agent declares the task impossible while the state confirms
it is (`check(params, state)`: the contact the goal names does not exist) and shows the agent looked where it would be
(`looked(params, state)`: the search for the name in front), so a declaration made blind, a guess, earns nothing.
Success never rests on the agent's claim alone: answers and impossibility are both checked against the state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.sim.app import stable_seed
from android_gym.tasks.expert import obstacle
from android_gym.ui import UIElement

SPLITS = ("train", "test")
TEST_FRACTION_MOD = 5  # one value in five goes to the test split


def split_of(value: object) -> str:
    """The split a parameter value belongs to: a stable hash puts one value in five in "test".

    >>> split_of("paris") in SPLITS
    True
    """
    return "test" if stable_seed("split", value) % TEST_FRACTION_MOD == 0 else "train"


TIERS = ("easy", "medium", "hard")
OUTCOMES = ("state", "answer", "infeasible")
"""What a template's success is (`TaskTemplate.outcome`; see the module docstring)."""
_WORD = re.compile(r"[^0-9a-z]+")


def normalise_answer(text: str) -> str:
    """`text` as answers are compared: case-folded, punctuation and spacing reduced to single spaces.

    >>> normalise_answer("  (650) 555-0123. ")
    '650 555 0123'
    """
    return _WORD.sub(" ", text.casefold()).strip()


def answers_match(given: str, truth: str) -> bool:
    """Whether the agent's answer `given` says `truth`: equal once normalised, or, for a number (a phone number, a
    count), the same digits. A longer text that merely contains the truth does not match (an agent could otherwise
    answer with the whole screen).

    >>> answers_match("650-555-0123", "(650) 555-0123"), answers_match("Ana Costa", "ana costa")
    (True, True)
    >>> answers_match("3", "2"), answers_match("It is (650) 555-0123", "(650) 555-0123")
    (False, False)
    """  # noqa: D205
    a, b = normalise_answer(given), normalise_answer(truth)
    if not a or not b:
        return False
    if a == b:
        return True
    digits = b.replace(" ", "")
    return digits.isdigit() and a.replace(" ", "") == digits


def tier_of(max_steps: int) -> str:
    """A template's difficulty from its step budget, as AndroidWorld's follows the steps a task needs: easy up to 12
    steps (an expert needs ~6), medium up to 20 (~11), hard beyond.

    >>> [tier_of(n) for n in (10, 12, 13, 20, 27)]
    ['easy', 'easy', 'medium', 'medium', 'hard']
    """  # noqa: D205, D209
    return "easy" if max_steps <= 12 else "medium" if max_steps <= 20 else "hard"


class TaskTemplate:
    """A family of tasks. Subclasses fill in the five methods; instances are stateless.

    Subclasses set `name`, `suite`, `max_steps`, and implement:
      * `values(split)` — every parameter dict of that split (deterministic order, hundreds in total per suite);
      * `goal(params)` — the instruction text;
      * `check(params, state)` — whether `state` (the device's `state()`) shows success ("state" outcome) or that the
        task is indeed impossible ("infeasible" outcome);
      * `answer(params, state)` — for the "answer" outcome: the correct answer as the state holds it (None when the
        state no longer holds one: the agent changed what it was asked about);
      * `looked(params, state)` — for the "infeasible" outcome: whether the agent is looking where the goal's thing
        would be (the declaration counts only then);
      * `expert(params, elements, state)` — the next expert action from the current UI elements and state;
      * optionally `initial(params)` — initial conditions for the device reset ({"system": {...}, package: {...}}).
    They may set `outcome` (see the module docstring) and `apps`, the packages a task is done in (the launcher and
    system UI aside): `tags` and the held-out-app split read them.
    """

    name: ClassVar[str]
    suite: ClassVar[str]
    max_steps: ClassVar[int] = 10
    outcome: ClassVar[str] = "state"
    apps: ClassVar[tuple[str, ...]] = ()

    @property
    def tier(self) -> str:
        """"easy", "medium" or "hard", from the step budget (which follows the expert's length): see `tier_of`."""
        return tier_of(self.max_steps)

    @property
    def tags(self) -> tuple[str, ...]:
        """The template's apps (by package), then "cross-app" when it spans several, "answer" or "infeasible"."""
        kinds = (self.outcome,) if self.outcome != "state" else ()
        return (*self.apps, *(("cross-app",) if len(self.apps) > 1 else ()), *kinds)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every parameter dict of `split`."""
        raise NotImplementedError

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction shown to the agent."""
        raise NotImplementedError

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Initial conditions applied at reset (none by default)."""
        return {}

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Whether the device state shows the goal reached."""
        raise NotImplementedError

    def looked(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """For the "infeasible" outcome: whether the state shows the agent looked where the goal's thing would be."""
        return True

    def answer(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> str | None:
        """The correct answer, read from the device state ("answer" templates only)."""
        raise NotImplementedError(f"{type(self).__name__} has outcome {self.outcome!r}, not 'answer'")

    def answer_matches(self, params: Mapping[str, Any], given: str, truth: str) -> bool:
        """Whether the agent's answer `given` says `truth` ("answer" templates): `answers_match` unless a template
        compares otherwise (AndroidWorld's lists of titles, in any order)."""  # noqa: D205, D209
        return answers_match(given, truth)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """The expert's next action."""
        raise NotImplementedError

    def tasks(self, split: str) -> list[Task]:
        """Every task of this template in `split`."""
        return [Task(self, p, split) for p in self.values(split)]


@dataclass(frozen=True, eq=False)
class Task:
    """One task instance: a template with parameters, in a split.

    Guarantees: `goal`, `max_steps`, `initial` are fixed; `check` and `expert_action` are pure functions of their
    arguments. `reset_problem` must be None on the state right after reset (the env asserts it).
    """

    template: TaskTemplate
    params: Mapping[str, Any] = field(default_factory=dict)
    split: str = "train"

    @property
    def name(self) -> str:
        """"suite/template"."""
        return f"{self.template.suite}/{self.template.name}"

    @property
    def goal(self) -> str:
        """The instruction text."""
        return self.template.goal(self.params)

    @property
    def max_steps(self) -> int:
        """The step budget."""
        return self.template.max_steps

    @property
    def initial(self) -> dict[str, dict[str, Any]]:
        """Initial device conditions."""
        return self.template.initial(self.params)

    def check(self, state: Mapping[str, Any], action: Action | None = None) -> bool:
        """Whether the step that left the device in `state`, by performing `action`, succeeds.

        A "state" task succeeds whatever the action; an "answer" task when `action` declares the task complete with
        an answer matching the state's; an "infeasible" task when `action` declares it impossible, the state shows it
        is, and the agent is looking where the thing would be.
        """
        match self.template.outcome:
            case "answer":
                if action is None or action.action_type != ActionType.STATUS_TASK_COMPLETE:
                    return False
                truth = self.template.answer(self.params, state)
                return truth is not None and self.template.answer_matches(self.params, action.text, truth)
            case "infeasible":
                return (action is not None and action.action_type == ActionType.STATUS_TASK_IMPOSSIBLE
                        and bool(self.template.check(self.params, state))
                        and bool(self.template.looked(self.params, state)))
            case _:
                return bool(self.template.check(self.params, state))

    def reset_problem(self, state: Mapping[str, Any]) -> str | None:
        """What is wrong with `state` as this task's starting point, or None: a "state" task already solved, an
        "answer" task whose state holds no answer, an "infeasible" task that is feasible."""  # noqa: D205, D209
        match self.template.outcome:
            case "answer":
                return None if self.template.answer(self.params, state) else "has no answer in the state"
            case "infeasible":
                return None if self.template.check(self.params, state) else "is feasible (its check says otherwise)"
            case _:
                return "is already solved" if self.template.check(self.params, state) else None

    def expert_action(self, elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """The expert's next action: past a pop-up or a spinner first (nothing is read or tapped through a modal
        pop-up: what it covers is not on the screen's element list), then the template's."""  # noqa: D205, D209
        return obstacle(elements, state) or self.template.expert(self.params, elements, state)

    def __repr__(self) -> str:
        return f"Task({self.name!r}, goal={self.goal!r}, split={self.split!r})"


def pick(values: Sequence[Any], rng: np.random.Generator) -> Any:
    """A uniformly drawn element of `values`."""
    return values[int(rng.integers(len(values)))]
