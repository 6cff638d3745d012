"""Everyday phrasings of the web tasks (issue 49), mapped onto the World suite's templates."""

from __future__ import annotations

from android_gym.tasks.goals.rule import Rule

RULES: tuple[Rule, ...] = ()
