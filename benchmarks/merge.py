"""Merge benchmark outputs: the quick suite for most benchmarks and longer runs of a few, in one report.

`python -m benchmarks merge --out DIR SRC [SRC ...] [--publish]` takes each SRC's results.json in order (a benchmark
that appears in several comes from the last), records where each benchmark came from (its suite, date, git commit and
DISTRL_BENCH_* settings; a section of an earlier merge keeps the run it came from), copies the plots, and writes
results.json and report.md to DIR as `run` would.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.report import finite, report


def merge(sources: list[Path], out: Path, order: Sequence[str] = ()) -> dict[str, Any]:
    """Merge the results in `sources` (later ones win per benchmark) into `out`; returns the merged results.

    The benchmarks are listed in `order` (the runner's own order), then any others in the order the sources hold them.

    Raises:
        FileNotFoundError: a source has no results.json.
        ValueError: no source given, or the sources mix tiny and real runs.
    """
    if not sources:
        raise ValueError("give at least one benchmark output folder to merge")
    loaded = []
    for source in sources:
        path = source / "results.json"
        if not path.is_file():
            raise FileNotFoundError(f"{source} holds no results.json: not a benchmark output folder")
        loaded.append((source, json.loads(path.read_text())))
    if len({bool(r["config"]["tiny"]) for _, r in loaded}) > 1:
        raise ValueError("the sources mix tiny-mode and real runs; merge only real runs (or only tiny ones)")
    out.mkdir(parents=True, exist_ok=True)
    last = loaded[-1][1]
    suites = dict.fromkeys(suite for _, r in loaded for suite in _base_suites(r["suite"]))
    merged: dict[str, Any] = {
        "suite": " + ".join(suites) + " (merged)", "date": last["date"],
        "config": {"tiny": bool(last["config"]["tiny"]), "merged_from": [str(s) for s, _ in loaded]},
        "versions": last["versions"], "machine": last["machine"], "benchmarks": {}}
    for source, results in loaded:
        for name, entry in results["benchmarks"].items():
            entry = dict(entry)
            # A section of a merged report already names the run that measured it: that run, not this merge's
            # last one, is its provenance when the merged folder is merged again (as publishing onto docs does).
            entry.setdefault("source", {"folder": str(source), "suite": results["suite"], "date": results["date"],
                                        "git": results["versions"].get("git", "unknown"),
                                        "env": results["config"].get("env", {})})
            plots = []
            for plot in entry.get("plots", []):
                name_only = Path(plot).name
                if (source / name_only).is_file():
                    shutil.copy2(source / name_only, out / name_only)
                plots.append(str(out / name_only))
            entry["plots"] = plots
            merged["benchmarks"].pop(name, None)  # re-insert: the order follows the sources
            merged["benchmarks"][name] = entry
    rank = {name: i for i, name in enumerate(order)}
    merged["benchmarks"] = dict(sorted(merged["benchmarks"].items(), key=lambda kv: rank.get(kv[0], len(rank))))
    (out / "results.json").write_text(json.dumps(finite(merged), indent=2, default=str, allow_nan=False))
    (out / "report.md").write_text(report(merged))
    return merged


def _base_suites(suite: str) -> list[str]:
    """The plain suites behind a suite label: a merge of merges names each suite once, not its history.

    >>> _base_suites("quick + full (merged) + full (merged)"), _base_suites("full")
    (['quick', 'full', 'full'], ['full'])
    """
    return [part.removesuffix(" (merged)") for part in suite.split(" + ")]
