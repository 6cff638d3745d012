"""What a suite's splits hold, per template: instances and distinct goals per split, and the goals "train" and "test"
share (issue 50: there must be none). Goals only: nothing is reset or played, so a whole suite reports in seconds.

>>> rows = split_report("world")
>>> sum(r.shared_goals for r in rows), all(r.instances["train"] for r in rows if r.split == "seen")
(0, True)
"""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass

from android_gym.tasks.base import SPLITS
from android_gym.tasks.splits import MIN_GOALS_FOR_TEST
from android_gym.tasks.suites import split_of_template, templates


@dataclass(frozen=True)
class TemplateSplits:
    """One template's share of its suite's splits.

    Attributes:
        template: the template's name.
        split: "seen" when it serves "train" and "test", else the unseen split that holds all of it.
        instances: per split of `SPLITS`, its instances (parameter dicts) there.
        goals: per split of `SPLITS`, its distinct goal texts there.
        shared_goals: goal texts in both "train" and "test" (0 when the split means what it says).
    """

    template: str
    split: str
    instances: dict[str, int]
    goals: dict[str, int]
    shared_goals: int

    @property
    def distinct_goals(self) -> int:
        """Distinct goal texts over both splits."""
        return self.goals["train"] + self.goals["test"] - self.shared_goals

    @property
    def lacks_test(self) -> bool:
        """Whether a seen template with `MIN_GOALS_FOR_TEST` goals or more has no test instance (the rule could not
        give it one: its goals are one unit)."""  # noqa: D205, D209
        return self.split == "seen" and self.distinct_goals >= MIN_GOALS_FOR_TEST and not self.instances["test"]


def split_report(suite: str) -> list[TemplateSplits]:
    """Per template of `suite` (in suite order), its instances and distinct goals per split and the goals shared.

    Raises:
        UnknownNameError: unknown `suite` (with the closest name).
    """
    rows = []
    for template in templates(suite):
        goals = {split: [template.goal(p) for p in template.values(split)] for split in SPLITS}
        rows.append(TemplateSplits(template.name, split_of_template(suite, template),
                                   {split: len(goals[split]) for split in SPLITS},
                                   {split: len(set(goals[split])) for split in SPLITS},
                                   len(set(goals["train"]) & set(goals["test"]))))
    return rows


def format_report(rows: list[TemplateSplits]) -> str:
    """`rows` as a text table (one line per template, then the totals), for a terminal or a report."""
    lines = [f"{'template':48} {'split':16} {'train':>6} {'test':>6} {'goals tr':>8} {'goals te':>8} {'shared':>6}"]
    for r in rows:
        lines.append(f"{r.template[:48]:48} {r.split:16} {r.instances['train']:6d} {r.instances['test']:6d} "
                     f"{r.goals['train']:8d} {r.goals['test']:8d} {r.shared_goals:6d}")
    sums = [sum(r.instances[s] for r in rows) for s in SPLITS] + [sum(r.goals[s] for r in rows) for s in SPLITS]
    lines.append(f"{'total':48} {'':16} {sums[0]:6d} {sums[1]:6d} {sums[2]:8d} {sums[3]:8d} "
                 f"{sum(r.shared_goals for r in rows):6d}")
    return "\n".join(lines)
