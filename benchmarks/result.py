"""What a benchmark returns: named figures with units and targets, Markdown tables, and plot files."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

TINY_ENV = "DISTRL_BENCH_TINY"
"""Environment variable that shrinks every benchmark to seconds (see `is_tiny`)."""


def is_tiny() -> bool:
    """Whether the tiny mode is on: `DISTRL_BENCH_TINY` set to anything but "", "0", "false" or "no".

    In tiny mode every benchmark runs the same code paths as the quick suite with the fewest sizes, episodes and
    seconds, so that the whole suite takes seconds: its numbers prove that the code runs, not how fast it is. The
    runner records the mode in results.json and in the report's title.

    Returns:
        True when tiny mode is on.
    """
    return os.environ.get(TINY_ENV, "").strip().lower() not in ("", "0", "false", "no")


def env_number(name: str, default: float, kind: Callable[[str], float] = float, minimum: float = 0.0,
               strict: bool = False) -> float:
    """The environment variable `name` read as `kind` (int or float), `default` when unset or empty.

    Raises:
        ValueError: naming the variable and its value, when it is not a finite `kind` >= `minimum` (> with `strict`).
    """
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = kind(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < minimum or (strict and number == minimum):
        bound = f"> {minimum:g}" if strict else f">= {minimum:g}"
        raise ValueError(f"{name}={value!r} is not {'an integer' if kind is int else 'a number'} {bound}")
    return number


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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Figure:
        """The figure a results.json entry describes (its stored `met` is recomputed, not trusted).

        A non-finite value, which results.json stores as the string "nan", "inf" or "-inf", is a float again.

        >>> Figure.from_json({"name": "x", "value": "nan", "unit": "x", "target": 3.0, "higher_is_better": True}).met
        False
        """
        return cls(data["name"], float(data["value"]), data["unit"], data["target"], data["higher_is_better"])

    @property
    def met(self) -> bool | None:
        """Whether the target is met (None without a target); a value equal to the target up to float rounding meets it.

        >>> Figure("gain", 100 * (0.9 / 0.75 - 1), "%", target=20.0).met  # 19.999999999999996
        True
        """
        if self.target is None:
            return None
        slack = 1e-9 * max(1.0, abs(self.target))  # float rounding only: 0.9 / 0.75 - 1 is not exactly 0.2
        return self.value >= self.target - slack if self.higher_is_better else self.value <= self.target + slack


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
        """Record a figure and return it.

        Raises:
            ValueError: `unit` is empty (every figure in results.json carries its unit; counts name what they count).
        """
        if not unit.strip():
            raise ValueError(f"`unit` of figure {name!r} is empty; give its unit (e.g. 's', '%', 'episodes')")
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
