"""Line plots of a benchmark's curves (throughput against size, and the like), written as PNG files."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Line:
    """One curve: its points, a matplotlib format string ("o-", "k--") and its legend label."""

    x: Sequence[float]
    y: Sequence[float]
    style: str
    label: str


def line_plot(lines: Sequence[Line], xlabel: str, ylabel: str, title: str, path: Path) -> Path:
    """Draw `lines` on one axes with a legend, save to `path` (PNG, headless) and return it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for line in lines:
        ax.plot(line.x, line.y, line.style, label=line.label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
