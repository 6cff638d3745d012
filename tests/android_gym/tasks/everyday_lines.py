"""What the everyday-instruction tests share: the fixture's sections, and a parsed line played by the expert."""

from __future__ import annotations

from pathlib import Path

from android_gym.tasks.base import Task
from android_gym.tasks.goals import GoalMatch, ParsedGoals, parse_goal
from android_gym.testing.rollout import Episode, run_episode

FIXTURE = Path(__file__).with_name("everyday_instructions.txt")
"""The everyday list (issue 49): written before the parser work, never reworded to parse."""


def section(title: str) -> list[str]:
    """The lines under the fixture's comment `# {title}` (up to the next comment line)."""
    lines, inside = [], False
    for raw in FIXTURE.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#"):
            inside = line[1:].strip() == title
            continue
        if inside and line:
            lines.append(line)
    if not lines:
        raise KeyError(f"no section {title!r} in {FIXTURE.name}")
    return lines


def parsed(line: str) -> GoalMatch:
    """The parse of `line`, which must be covered (the assertion names the reason when it is not)."""
    match = parse_goal(line)
    assert isinstance(match, GoalMatch), f"{line!r}: {match.reason}"  # type: ignore[union-attr]
    return match


def parsed_task(line: str) -> Task:
    """The task `line` parses into, worded as the line (as a task file builds it)."""
    match = parsed(line)
    entry = {"goal": line, "family": match.family, "params": match.params, "line": 1}
    (task,) = ParsedGoals(match.template, "everyday", [entry]).tasks("train")
    return task


def play(line: str, seed: int = 0, perturbations: str = "default") -> Episode:
    """The expert's episode on the task `line` parses into (as a task file would run it)."""
    return run_episode(parsed_task(line), seed=seed, perturbations=perturbations)
