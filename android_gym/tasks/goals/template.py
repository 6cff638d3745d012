"""`ParsedGoals`: the lines of a goal list that one template covers, as tasks of that template worded as the list.

Each task's goal is the line as written (the agent sees the list's wording, typos included); its initial
conditions, state check and expert are those of the template the parser matched, with the parsed parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.base import TaskTemplate
from android_gym.ui import UIElement


class ParsedGoals(TaskTemplate):
    """Goal-list lines parsed onto `inner`; a task's params are {"goal", "family", "params", "line"}.

    The name is the inner template's, so a file's tasks are drawn template first like a built-in suite's; the step
    budget is the inner template's too.
    """

    def __init__(self, inner: TaskTemplate, suite: str, entries: Sequence[Mapping[str, Any]]) -> None:
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]  # instance attributes override the ClassVars
        self.suite = suite  # type: ignore[misc]
        self.max_steps = inner.max_steps  # type: ignore[misc]
        self.outcome = inner.outcome  # type: ignore[misc]  # an answer or an infeasible goal stays one
        self.entries = [dict(e) for e in entries]

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every parsed line: a plain goal list has no splits, so each line is in both."""
        return list(self.entries)

    def goal(self, params: Mapping[str, Any]) -> str:
        """The line as the list writes it."""
        return str(params["goal"])

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The inner template's initial conditions."""
        return self.inner.initial(params["params"])

    def has_check(self, params: Mapping[str, Any]) -> bool:
        """Parsed lines always carry the inner template's state check."""
        return True

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The inner template's check."""
        return self.inner.check(params["params"], state)

    def answer(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> str | None:
        """The inner template's answer ("answer" templates only)."""
        return self.inner.answer(params["params"], state)

    def looked(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The inner template's `looked` ("infeasible" templates)."""
        return self.inner.looked(params["params"], state)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """The inner template's expert."""
        return self.inner.expert(params["params"], elements, state)
