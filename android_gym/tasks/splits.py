"""The train/test rule of the suites whose templates share "train" and "test" (issue 50): an instance is unseen when
its goal text was never seen in training.

A template proposes a split per instance (`split_of` of its split value: a title, a name, a key) as before; the rule
then makes the proposal mean what it says. Instances are joined into one unit when they share a goal text in any of
their phrasings (`goals(params)`: the goal the instance shows, then the same parameters reworded), so an instance
reworded, or one whose goal does not show the parameter that differs, lands where its twins land. A unit goes where
`split_of` puts its smallest split value, so templates whose goals never collided keep the membership they had. Two
guards keep every template usable: a template always has a train instance, and one with at least
`MIN_GOALS_FOR_TEST` distinct goals (and two units) always has a test one.

>>> phrasings = ("Fly to {t}", "Book a flight to {t}")
>>> grid = [{"t": t, "day": d, "p": d % 2} for t in ("paris", "rome", "oslo", "lima", "kyiv", "pune") for d in (1, 2)]
>>> def goals(p):  # the shown goal, then both phrasings of the same parameters
...     return [phrasings[p["p"]].format(**p), *(f.format(**p) for f in phrasings)]
>>> parts = split_by_goal(grid, goals, key=lambda p: p["day"])  # the key ("day") is not in the goal
>>> [len(parts[s]) for s in SPLITS], {p["t"] for p in parts["train"]} & {p["t"] for p in parts["test"]}
([10, 2], set())
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from android_gym.sim.app import stable_seed
from android_gym.tasks.base import SPLITS, split_of

P = TypeVar("P", bound=Mapping[str, Any])

MIN_GOALS_FOR_TEST = 5
"""A template with at least this many distinct goals keeps a test instance (fewer: all of it may train)."""


def _units(goal_lists: Sequence[Sequence[str]]) -> list[list[int]]:
    """Indices grouped so that two instances sharing any goal text are in one group (union-find), in first-seen
    order."""  # noqa: D205, D209
    parent = list(range(len(goal_lists)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, texts in enumerate(goal_lists):
        for text in texts:
            j = owner.setdefault(text, i)
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(goal_lists)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def split_by_goal(grid: Sequence[P], goals: Callable[[P], Iterable[str]],
                  key: Callable[[P], object]) -> dict[str, list[P]]:
    """`grid` (every instance of one template) cut into "train" and "test" so that no goal text is in both.

    Args:
        grid: the instances, in the template's order (kept within each split).
        goals: an instance's goal texts: first the one it shows, then every rewording of the same parameters.
        key: the value `split_of` hashes for an instance (its template's split key).

    Returns:
        {"train": [...], "test": [...]}; instances sharing a goal text (through any chain of them) are in one split.
    """
    goal_lists = [list(goals(p)) for p in grid]
    units = _units(goal_lists)
    keys = [min(str(key(grid[i])) for i in unit) for unit in units]
    where = [split_of(k) for k in keys]
    distinct = len({texts[0] for texts in goal_lists if texts})
    wants_test = distinct >= MIN_GOALS_FOR_TEST and len(units) >= 2
    if "train" not in where or ("test" not in where and wants_test):
        # guards: one unit (the lowest hash, so the choice is stable) is the test part, the rest train
        first = min(range(len(units)), key=lambda u: stable_seed("split", keys[u]))
        where = ["test" if u == first and wants_test else "train" for u in range(len(units))]
    split_at = {i: where[u] for u, unit in enumerate(units) for i in unit}
    return {s: [p for i, p in enumerate(grid) if split_at[i] == s] for s in SPLITS}
