"""The Task contract: a goal, its initial conditions, a state-based success check, and an expert that solves it.

A `TaskTemplate` is a parameterised family ("set an alarm for {time}"); a `Task` is one instance of it. Templates
split their parameter values into train and test so that test values never appear in train.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
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
      * `check(params, state)` — whether `state` (the device's `state()`) shows success;
      * `expert(params, elements, state)` — the next expert action from the current UI elements and state;
      * optionally `initial(params)` — initial conditions for the device reset ({"system": {...}, package: {...}}).
    """

    name: ClassVar[str]
    suite: ClassVar[str]
    max_steps: ClassVar[int] = 10

    @property
    def tier(self) -> str:
        """"easy", "medium" or "hard", from the step budget (which follows the expert's length): see `tier_of`."""
        return tier_of(self.max_steps)

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
    arguments. `check` must be false on the state right after reset (the env asserts it).
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

    def check(self, state: Mapping[str, Any]) -> bool:
        """Whether `state` shows success."""
        return bool(self.template.check(self.params, state))

    def expert_action(self, elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """The expert's next action."""
        return self.template.expert(self.params, elements, state)

    def __repr__(self) -> str:
        return f"Task({self.name!r}, goal={self.goal!r}, split={self.split!r})"


def pick(values: Sequence[Any], rng: np.random.Generator) -> Any:
    """A uniformly drawn element of `values`."""
    return values[int(rng.integers(len(values)))]
