"""`AndroidWorldTemplate`: one of AndroidWorld's tasks on the simulated phone, named and phrased as AndroidWorld has it,
its parameters drawn as AndroidWorld draws them, and played and checked by the World template that does the same
thing on the sim (`like`).

AndroidWorld gives each task one goal template (`CameraTakePhoto`: "Take one photo."; `ContactsAddContact`: "Create
a new contact for {name}. Their number is {number}.") and a `generate_random_params` that draws a fresh instance per
episode. Here a template draws `instances` parameter sets once, from a seed of its own (`draw(rng)`, our code for
AndroidWorld's generator), and splits them into train and test on `split_key` by the goal rule every suite follows
(`android_gym.tasks.splits`), so a test instance's goal never appears in training. A task without parameters (take a
photo) draws how the phone starts instead (the camera's mode and facing), which AndroidWorld leaves to whatever the
emulator was showing; its one goal makes it a training template only.

The World template (`like`) keeps its initial conditions, check, expert and budget: `world_params` translates an
AndroidWorld instance into its parameters. Its check is at least as strict as AndroidWorld's (docs/ANDROIDWORLD.md
says, per task, what each side reads).
"""  # noqa: D205, D209

from __future__ import annotations

import difflib
import functools
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.splits import split_by_goal
from android_gym.tasks.world.base import Elements, Params, State


class AndroidWorldTemplate(TaskTemplate):
    """An AndroidWorld task played and checked through the World template `like`.

    Subclasses set `name` (AndroidWorld's task name), `goal_template` (AndroidWorld's, formatted with the drawn
    parameters), `like`, `split_key`, and implement `draw` (one instance) and `world_params`.
    """

    suite = "androidworld"
    like: ClassVar[TaskTemplate | None] = None
    """The World template that plays and checks an instance; None for a template with its own initial conditions,
    check and expert (then the base's defaults stand for what it does not write: no answer, nothing to look at)."""
    goal_template: ClassVar[str]
    split_key: ClassVar[str]
    instances: ClassVar[int] = 120
    """Parameter sets drawn per template (both splits; duplicates drawn again are kept once)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        like = cls.__dict__.get("like")
        if like is not None:  # the World template's apps and outcome hold for the same play, and its budget unless set
            cls.apps, cls.outcome = like.apps, like.outcome
            if "max_steps" not in cls.__dict__:
                cls.max_steps = like.max_steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """One instance's parameters, drawn as AndroidWorld's `generate_random_params` draws them."""
        raise NotImplementedError

    def world_params(self, params: Params) -> dict[str, Any]:
        """The parameters of `like` that play and check the instance `params` (by default the instance's own)."""
        return dict(params)

    def values(self, split: str) -> list[dict[str, Any]]:
        """The drawn instances of `split`, in drawing order.

        The goal rule (`split_by_goal`, issue 50) on `split_key`: instances with one goal text (AndroidWorld's fixed
        goals, "Take one photo.") share a split, so such a template trains only.
        """
        return [dict(p) for p in self._splits.get(split, ())]

    @functools.cached_property
    def _splits(self) -> dict[str, list[dict[str, Any]]]:
        """Every split's instances, drawn once per template (a suite of 116 took 5 s to draw, for every call)."""
        rng = random.Random(stable_seed("androidworld", self.name))
        drawn: dict[str, dict[str, Any]] = {}
        for _ in range(self.instances):
            params = self.draw(rng)
            drawn.setdefault(repr(sorted(params.items())), params)
        return split_by_goal(list(drawn.values()), goals=lambda p: [self.goal(p)],
                             key=lambda p: f"{self.name}:{p[self.split_key]}")

    def goal(self, params: Params) -> str:
        """AndroidWorld's goal text for the instance."""
        return self.goal_template.format(**params)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """`like`'s initial conditions for the instance."""
        if self.like is None:
            return super().initial(params)
        return self.like.initial(self.world_params(params))

    def check(self, params: Params, state: State) -> bool:
        """`like`'s check of the instance."""
        if self.like is None:
            return super().check(params, state)
        return self.like.check(self.world_params(params), state)

    def answer(self, params: Params, state: State) -> str | None:
        """`like`'s answer for the instance."""
        if self.like is None:
            return super().answer(params, state)
        return self.like.answer(self.world_params(params), state)

    def looked(self, params: Params, state: State) -> bool:
        """`like`'s test that the agent looked where the goal's thing would be."""
        if self.like is None:
            return super().looked(params, state)
        return self.like.looked(self.world_params(params), state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """`like`'s expert, playing the instance."""
        if self.like is None:
            return super().expert(params, elements, state)
        return self.like.expert(self.world_params(params), elements, state)


def pick(rng: random.Random, pool: Sequence[Any]) -> Any:
    """One value of `pool` drawn by `rng` (AndroidWorld draws with Python's `random` too)."""
    return pool[rng.randrange(len(pool))]


FUZZY_RATIO = 0.9
"""AndroidWorld's `fuzzy_match`: texts match when difflib's similarity of their lower-cased forms is at least this."""


def fuzzy_match(a: str, b: str) -> bool:
    """Whether `a` and `b` match as AndroidWorld's fuzzy comparison has it (case ignored, ratio >= `FUZZY_RATIO`).

    >>> fuzzy_match("Code audit", "code audit"), fuzzy_match("Code audit", "Code review")
    (True, False)
    """
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= FUZZY_RATIO
