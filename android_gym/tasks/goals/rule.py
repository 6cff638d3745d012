"""`Rule`: one goal family's phrasings, the template that checks its goals, and how slot values become parameters.

Rules live in `rules` (the AitW-style families of the built-in suites) and in `everyday/` (the World suite's apps, as
people word what they want of them); `parse_goal` reads a line against all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.goals.phrasing import Phrasing, PhrasingError
from android_gym.tasks.goals.slots import READERS

Slots = Mapping[str, Any]


class SlotReader(Protocol):
    """Reads the words a `{slot}` matched into a value, or raises `slots.UnknownValue` saying what it did not know."""

    def read(self, text: str) -> Any:
        """The value `text` names."""

    def vocabulary(self) -> set[str]:
        """The words the reader knows (for `text.repair`)."""


@dataclass(frozen=True)
class Rule:
    """One family's phrasings, the template that checks its goals, and how slot values become its parameters."""

    family: str
    template: TaskTemplate
    phrasings: tuple[Phrasing, ...]
    build: Callable[[Slots], dict[str, Any]]
    fallback: bool = False
    """Read a line with this rule only when no other rule does (a catch-all such as a plain web search)."""
    gap: str | None = None
    """Set for a family the simulated phone cannot check yet: a line it matches is uncovered with this reason."""
    readers: Mapping[str, SlotReader] = field(default_factory=dict)
    """Readers of this rule's own slots; other slots are read by `slots.READERS`."""


def rule(family: str, template: TaskTemplate, phrasings: tuple[str, ...],
         build: Callable[[Slots], dict[str, Any]] = dict, fallback: bool = False,
         readers: Mapping[str, SlotReader] | None = None) -> Rule:
    """A `Rule` with its phrasings compiled.

    Raises:
        PhrasingError: a phrasing does not compile, or names a slot that neither `readers` nor `slots.READERS` reads.
    """
    compiled = tuple(Phrasing(p) for p in phrasings)
    readers = dict(readers or {})
    for phrasing in compiled:
        unread = [s for s in phrasing.slots if s not in readers and s not in READERS]
        if unread:
            raise PhrasingError(f"{family}: phrasing {phrasing.text!r} has slots no reader reads: {unread}")
    return Rule(family, template, compiled, build, fallback, readers=readers)


def gap(family: str, reason: str, phrasings: tuple[str, ...]) -> Rule:
    """A family goal lists hold that the sim cannot check; its lines are reported uncovered with `reason`."""
    return Rule(family, TaskTemplate(), tuple(Phrasing(p) for p in phrasings), dict, gap=reason)
