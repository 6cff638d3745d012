"""The goal parser: plain goal lines (the AitW task-file format) become checkable tasks on the simulated phone.

`parse_goal(line)` gives a `GoalMatch` (family, template, parameters) or `Uncovered` (the reason);
`coverage(lines)` reads a whole list; `ParsedGoals` turns the matched lines into tasks worded as the list.
"""

from android_gym.tasks.goals.coverage import Coverage, coverage
from android_gym.tasks.goals.parser import GoalMatch, Uncovered, parse_goal
from android_gym.tasks.goals.template import ParsedGoals

__all__ = ["Coverage", "GoalMatch", "ParsedGoals", "Uncovered", "coverage", "parse_goal"]
