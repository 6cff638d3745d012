"""Publish a benchmark run: report and plots to docs/benchmarks/, headline table to the README.

The README's table sits between the `<!-- benchmarks:start -->` and `<!-- benchmarks:end -->` markers.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from benchmarks.report import durations, figure_row
from benchmarks.result import markdown_table

START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
PLOTS = {"training_curves.png": "training curves, instant phone (learner-bound)",
         "training_slow_curves.png": "training curves, emulator-paced phones (collection-bound)"}
"""Plots the README shows under its table when the published report has them: file -> alt text."""


def headline(results: dict[str, Any]) -> str:
    """The figures that carry a target, one row each, with the status spelled out."""
    rows = []
    for name, entry in results["benchmarks"].items():
        if entry.get("status") != "ok":
            rows.append([name, "FAILED", "", "", ""])
            continue
        rows += [figure_row(name, f) for f in entry["figures"] if f["target"] is not None]
    return markdown_table(["benchmark", "figure", "value", "target", "status"], rows)


def publish(out: Path, repo: Path, readme: Path | None = None) -> None:
    """Copy `out`'s report, results and plots to `repo/docs/benchmarks` and refresh the README's block.

    Raises:
        ValueError: the README has no benchmark markers.
    """
    target = repo / "docs" / "benchmarks"
    target.mkdir(parents=True, exist_ok=True)
    for path in out.iterdir():
        if path.suffix in (".md", ".json", ".png"):
            shutil.copy2(path, target / path.name)
    results = json.loads((out / "results.json").read_text())
    m = results["machine"]
    block = [START, "",
             f"Latest `{results['suite']}` suite ({results['date'][:10]}, {m.get('cpus')} CPUs "
             f"{m.get('cpu_model', '')}, no GPU; full report: [docs/benchmarks/report.md](docs/benchmarks/report.md)). "
             f"Run time per benchmark, as measured in its run: {durations(results)}.", "",
             "Every figure with a target:", "", headline(results), ""]
    for plot, alt in PLOTS.items():
        if (target / plot).exists():
            block += [f"![{alt}](docs/benchmarks/{plot})", ""]
    block.append(END)
    readme = readme or repo / "README.md"
    text = readme.read_text()
    if START not in text or END not in text:
        raise ValueError(f"{readme} has no {START} ... {END} block to replace")
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    readme.write_text(before + "\n".join(block) + after)
