"""Publish a benchmark run: the report to docs/benchmarks/, every targeted figure to docs/RESULTS.md, a headline.

The report, results and plots are copied to docs/benchmarks/; docs/RESULTS.md gets every figure with a target; the
README gets the `HEADLINES` figures.

Both documents hold their generated part between the `<!-- benchmarks:start -->` and `<!-- benchmarks:end -->`
markers; the text around it is written by hand and kept.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.report import durations, figure_row, reused_kept_runs
from benchmarks.result import markdown_table

START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
PLOTS = {"training_curves.png": "training curves, instant phone (learner-bound)",
         "training_slow_curves.png": "training curves, emulator-paced phones (collection-bound)"}
"""Plots docs/RESULTS.md shows under its table when the published report has them: file -> alt text."""
README_PLOT = "training_slow_curves.png"
"""The one plot the README shows (the paper's regime)."""


@dataclass(frozen=True)
class Headline:
    """A figure the README's table shows: where it is, and the claim it measures in a reader's words."""

    benchmark: str
    figure: str
    claim: str


HEADLINES: tuple[Headline, ...] = (
    Headline("training-slow", "test_success/A-RIDE (async)",
             "A-RIDE, asynchronous, 32 emulator-paced phones: final test success (mean of the seeds)"),
    Headline("training-slow", "test_success/DigiRL (sync)", "DigiRL's synchronous protocol, same phones and time"),
    Headline("training-slow", "a_ride_vs_sync_digirl_relative_gain_lower95",
             "A-RIDE over sync DigiRL, relative gain (lower 95% bound; paper: +20%)"),
    Headline("training-slow", "collection_vs_sync_digirl_lower95",
             "trajectories collected, async over sync (lower 95% bound; paper: 2.4x)"),
    Headline("training-slow", "time_to_60pct_speedup_vs_sync_digirl_lower95",
             "time to 60% success, sync over async (lower 95% bound; paper: 3x)"),
    Headline("training", "test_success/A-RIDE (async)",
             "A-RIDE on the instant phone (learner-bound), final test success (mean of the seeds)"),
    Headline("collection", "local/async_vs_sync/32_envs", "asynchronous over lock-step collection, 32 envs"),
    Headline("fleet", "efficiency/2_nodes/8_emulators",
             "8 emulator processes over two Ray nodes: collection against Little's law"),
    *(Headline("generalisation", f"gain_over_warm_start_lower95/A-RIDE KL 0.1 (async) · emulator/{split}",
               f"A-RIDE on World as it ships (KL 0.1 to its clone), 32 emulator-paced phones, gain over its warm "
               f"start on {level} (points, lower 95% bound; AndroidWorld study, GRPO on a 7B model: +{anchor})")
      for split, level, anchor in (("test", "unseen instances", 26.1), ("unseen_templates", "unseen templates", 15.7),
                                   ("unseen_apps", "unseen apps", 8.3))),
    Headline("generalisation", "a_ride_vs_lock_step_digirl_relative_gain_lower95/test",
             "A-RIDE over lock-step DigiRL on World, 32 emulator-paced phones, unseen instances at equal wall-clock "
             "(relative gain, lower 95% bound; paper, on its tasks: +20%)"),
    Headline("sim", "emulator_speedup/elements_only", "simulated phone step over an emulator's"),
    Headline("soak", "soak/escaped_exceptions", "30-minute soak with faults at every layer: exceptions escaped"),
    Headline("soak", "soak/test_success/faulty_in_clean_seed_std",
             "soak: final success with faults, in clean-arm seed stds"),
)
"""The README's rows (at most 15): the paper's claims first, then generalisation, then the system's. A difference
between two learning runs appears only as an interval bound; the ablations with their paired intervals, the learner's
speed, the device layer's fault figures and the soak's count of unknown verdicts trained on (0) are in
docs/RESULTS.md and docs/benchmarks/report.md; a missed target stays in the README."""


def headline(results: dict[str, Any]) -> str:
    """The README's table: each of `HEADLINES` that the results hold, with its value, target, status and run."""
    rows = []
    for h in HEADLINES:
        entry = results["benchmarks"].get(h.benchmark)
        if entry is None:
            continue
        if entry.get("status") != "ok":
            rows.append([h.claim, "FAILED", "", "", run_of(results, entry)])
            continue
        figure = next((f for f in entry["figures"] if f["name"] == h.figure), None)
        if figure is not None:
            _, _, value, target, status = figure_row(h.benchmark, figure)
            rows.append([h.claim, value, target, status, run_of(results, entry)])
    return markdown_table(["claim", "value", "target", "status", "run"], rows)


def every_target(results: dict[str, Any]) -> str:
    """Every figure that carries a target, one row each, with the status spelled out."""
    rows = []
    for name, entry in results["benchmarks"].items():
        if entry.get("status") != "ok":
            rows.append([name, "FAILED", "", "", ""])
            continue
        rows += [figure_row(name, f) for f in entry["figures"] if f["target"] is not None]
    return markdown_table(["benchmark", "figure", "value", "target", "status"], rows)


_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[\w.+-]+/)+[\w.+-]*")


def scrub_paths(text: str, repo: Path) -> str:
    """`text` without this machine's paths: a path in the repository becomes relative to it, any other absolute path
    its last two parts (`/work/bench/aitw/general_test.txt` -> `aitw/general_test.txt`).

    >>> scrub_paths("reused from /work/bench/train_s12/runs; see /repo/docs/x.md", Path("/repo"))
    'reused from train_s12/runs; see docs/x.md'
    """  # noqa: D205
    root = str(repo.resolve()).rstrip("/") + "/"

    def shorten(match: re.Match[str]) -> str:
        path = match.group()
        if path.startswith(root):
            return path[len(root):]
        return "/".join(part for part in path.rstrip("/").split("/")[-2:] if part)

    return _ABSOLUTE_PATH.sub(shorten, text)


def run_of(results: dict[str, Any], entry: dict[str, Any]) -> str:
    """The commit and date of the run a section came from (its merge source's, else this run's); a section rebuilt
    from kept runs says so (its runs were made earlier, at commits its report's notes name)."""  # noqa: D205, D209
    source = entry.get("source") or {"git": results.get("versions", {}).get("git", "unknown"),
                                     "date": results.get("date", "")}
    kept = ", from kept runs" if reused_kept_runs(results, entry) else ""  # the runs are older than the rebuild
    return f"`{source.get('git', 'unknown')}` {str(source.get('date', ''))[:10]}{kept}".strip()


def publish(out: Path, repo: Path, readme: Path | None = None, results_doc: Path | None = None) -> None:
    """Copy `out`'s report, results and plots to `repo/docs/benchmarks`; refresh the README's and RESULTS.md's blocks.

    Raises:
        ValueError: the README or docs/RESULTS.md has no benchmark markers.
    """
    target = repo / "docs" / "benchmarks"
    target.mkdir(parents=True, exist_ok=True)
    for path in out.iterdir():
        if path.suffix in (".md", ".json"):
            (target / path.name).write_text(scrub_paths(path.read_text(), repo))
        elif path.suffix == ".png":
            shutil.copy2(path, target / path.name)
    results = json.loads((out / "results.json").read_text())
    m = results["machine"]
    about = (f"`{results['suite']}` suite ({results['date'][:10]}, {m.get('cpus')} CPUs {m.get('cpu_model', '')}, "
             "no GPU")
    summary = [START, "", f"Headline figures of the latest {about}; every figure with a target is in "
               "[docs/RESULTS.md](docs/RESULTS.md), every table in [docs/benchmarks/report.md]"
               "(docs/benchmarks/report.md)). Sections come from separate runs: each row names its commit.", "",
               headline(results), ""]
    if (target / README_PLOT).exists():
        summary += [f"![{PLOTS[README_PLOT]}](docs/benchmarks/{README_PLOT})", ""]
    full = [START, "", f"Latest {about}; every table: [benchmarks/report.md](benchmarks/report.md)). Run time per "
            f"benchmark, as measured in its run: {durations(results)}.", "", "Every figure with a target:", "",
            every_target(results), ""]
    for plot, alt in PLOTS.items():
        if (target / plot).exists():
            full += [f"![{alt}](benchmarks/{plot})", ""]
    _replace_block(readme or repo / "README.md", [*summary, END])
    _replace_block(results_doc or repo / "docs" / "RESULTS.md", [*full, END])


def _replace_block(path: Path, block: list[str]) -> None:
    text = path.read_text() if path.exists() else ""
    if START not in text or END not in text:
        raise ValueError(f"{path} has no {START} ... {END} block to replace")
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    path.write_text(before + "\n".join(block) + after)
