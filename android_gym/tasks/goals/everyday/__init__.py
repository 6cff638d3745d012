"""Everyday instructions (issue 49): the World suite's apps as people ask for them, one module per app group.

"Set an alarm for 6:45 am tomorrow", "Text Jamie that I'm running 10 minutes late", "Add a meeting with the design
team tomorrow at 3pm": each module's `RULES` map such lines onto the World templates that check them, with the values
the line names (a contact the phone does not have yet is put on it by the task, as the templates' own tasks do). The
values in words (times, dates, durations, numbers, money) are read by `goals.when`. Measured on
`tests/android_gym/tasks/everyday_instructions.txt`, a list written before these rules.
"""

from __future__ import annotations

from android_gym.tasks.goals.everyday import (
    apps,
    calculator,
    calendar,
    clock,
    expenses,
    files,
    media,
    messages,
    music,
    notes,
    people,
    places,
    recipes,
    settings,
    web,
)
from android_gym.tasks.goals.rule import Rule

EVERYDAY_RULES: tuple[Rule, ...] = (
    *clock.RULES, *calendar.RULES, *people.RULES, *messages.RULES, *notes.RULES, *recipes.RULES,
    *calculator.RULES, *expenses.RULES, *files.RULES, *media.RULES, *music.RULES, *places.RULES,
    *settings.RULES, *apps.RULES, *web.RULES,
)
"""After the AitW-style families in `rules.RULES`: on a tie in specificity, those win."""
