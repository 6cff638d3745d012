"""Fuzz tests of the goal parser (`android_gym.tasks.goals`): any text a task file holds parses or is uncovered.

`parse_goal` promises to never raise: every line becomes a `GoalMatch` (whose task's goal, initial conditions and
check are usable) or an `Uncovered` with a reason. Lines are drawn from arbitrary unicode, from goal-like word
soups built of the parser's own vocabulary (so that phrasings match and slot readers run on odd values), and from
goals with glued or split words.
"""

from __future__ import annotations

from hypothesis import event, example, given
from hypothesis import strategies as st

from android_gym.tasks.goals import GoalMatch, ParsedGoals, Uncovered, parse_goal
from android_gym.tasks.goals.parser import known_words

VOCABULARY = sorted(known_words())
goal_soup = st.lists(st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=8),
                               st.sampled_from(["'", "?", ",", "5pm", "7:30", "a3", "ebay.com", "-", "the", "on"])),
                     max_size=14).map(" ".join)
glued = goal_soup.map(lambda s: s.replace(" ", "", 2))


@given(st.one_of(st.text(max_size=300), goal_soup, glued))
@example("Set an alarm for 13pm")
@example("Go to ebay.com, search for '', and select the first entry")
@example("What's the weather like in ?")
@example("How much does a 99999999999999999999 bedroom apartment rent for in Paris?")
@example("x" * 600)
def test_any_line_parses_or_is_uncovered_with_a_reason(line: str) -> None:
    """`parse_goal` never raises; a match is a usable task (initial conditions, a check that runs)."""
    result = parse_goal(line)
    assert isinstance(result, GoalMatch | Uncovered)
    if isinstance(result, Uncovered):
        event("uncovered")
        assert result.reason
        return
    event(f"family {result.family}")
    task = ParsedGoals(result.template, "file:fuzz", [{"goal": line, "params": result.params}]).tasks("train")[0]
    assert task.goal == line and task.max_steps >= 1
    assert isinstance(task.initial, dict)
