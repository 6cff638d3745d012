"""What a benchmark returns: named figures with units and targets, Markdown tables, and plot files."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Figure:
    """One measured number.

    Attributes:
        name: what was measured ("steps_per_s/elements").
        value: the measurement.
        unit: its unit ("steps/s", "%", "s", "MiB").
        target: the number it must reach (None when informative only).
        higher_is_better: direction of the target.
    """

    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = True

    @property
    def met(self) -> bool | None:
        """Whether the target is met (None without a target)."""
        if self.target is None:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target


@dataclass
class Result:
    """A benchmark's output: figures, Markdown tables, plot paths, the config it ran with, and notes."""

    figures: list[Figure] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, name: str, value: float, unit: str, target: float | None = None,
            higher_is_better: bool = True) -> Figure:
        """Record a figure and return it."""
        fig = Figure(name, float(value), unit, target, higher_is_better)
        self.figures.append(fig)
        return fig

    def to_json(self) -> dict[str, Any]:
        """Plain data for results.json."""
        return {"figures": [{**asdict(f), "met": f.met} for f in self.figures], "tables": self.tables,
                "plots": self.plots, "config": self.config, "notes": self.notes}


def markdown_table(header: list[str], rows: list[list[Any]]) -> str:
    """A GitHub Markdown table.

    >>> print(markdown_table(["a", "b"], [[1, 2.5]]))
    | a | b |
    |---|---|
    | 1 | 2.5 |
    """
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
