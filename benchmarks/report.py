"""The benchmark report: results.json made strict JSON, and the Markdown report (headline table, then each section)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from benchmarks.result import TINY_ENV, Figure, markdown_table


def durations(results: dict[str, Any]) -> str:
    """How long each benchmark ran, as measured, and the sum: "sim 1.4 s, ..., soak 76 s: 3.0 minutes in all".

    A section whose run reused kept runs (a `DISTRL_BENCH_*_REUSE` setting) says so: its seconds are the rebuild's,
    not what the runs it reports took.
    """
    parts = [f"{name} {_seconds(entry.get('seconds', 0.0))}"
             f"{' (kept runs reused)' if reused_kept_runs(results, entry) else ''}{_over(entry)}"
             for name, entry in results["benchmarks"].items()]
    total_min = sum(entry.get("seconds", 0.0) for entry in results["benchmarks"].values()) / 60
    return f"{', '.join(parts)}: {total_min:.1f} minutes in all"


def _over(entry: dict[str, Any]) -> str:
    """" (over its 60 s budget)" for a quick-suite section that took longer than its budget, else ""."""
    budget = entry.get("budget_s")
    return f" (over its {budget:.0f} s budget)" if budget and entry.get("seconds", 0.0) > budget else ""


def reused_kept_runs(results: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Whether the run behind `entry` (its merge source's, else this run's settings) reused kept runs."""
    env = entry["source"].get("env", {}) if "source" in entry else results.get("config", {}).get("env", {})
    return any(key.startswith("DISTRL_BENCH_") and key.endswith("_REUSE") for key in env)


def _seconds(s: float) -> str:
    return f"{s:.1f} s" if s < 10 else f"{s:.0f} s" if s < 600 else f"{s / 60:.0f} min"


def finite(data: Any) -> Any:
    """`data` with every non-finite float replaced by its name ("inf", "-inf", "nan")."""
    if isinstance(data, float) and not math.isfinite(data):
        return str(data)
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite(v) for v in data]
    return data


def figure_row(benchmark: str, f: dict[str, Any]) -> list[str]:
    """A headline row of a results.json figure: benchmark, figure, value with unit, target, met / **MISSED** / ""."""
    figure = Figure.from_json(f)
    target = "" if figure.target is None else f"{'≥' if figure.higher_is_better else '≤'} {figure.target:g}"
    status = {True: "met", False: "**MISSED**", None: ""}[figure.met]
    return [benchmark, figure.name, f"{figure.value:.4g} {figure.unit}", target, status]


def report(results: dict[str, Any]) -> str:
    """The Markdown report: a headline table of every figure with its target, then each benchmark's tables."""
    m, v = results["machine"], results["versions"]
    lines = [f"# Benchmark report ({results['suite']} suite{', TINY mode' if results['config']['tiny'] else ''})",
             "", f"{results['date']} — {m['cpus']} CPUs ({m['cpu_model']}), {m['memory_gib']} GiB, "
             f"Python {m['python']}, torch {m['torch']}, CUDA {'yes (' + str(m['gpu']) + ')' if m['cuda'] else 'no'}"
             f", git {v['git']}", ""]
    if speed := m.get("speed"):
        lines += [f"Machine speed (calibration, `benchmarks/calibration.py`): {speed['python_mops']:g} M Python loop "
                  f"iterations/s, {speed['torch_gflops_1thread']:g} GFLOP/s of one-thread float32 matrix products. "
                  "Absolute speeds below scale with these; ratios measured within this run do not.", ""]
    lines += [f"Run time per benchmark: {durations(results)}.", ""]
    if results["config"]["tiny"]:
        lines += [f"> **Tiny mode** (`{TINY_ENV}=1`): every benchmark ran its code paths on the smallest sizes "
                  "for seconds. These numbers prove that the suite runs, not what the system achieves; missed "
                  "targets below are expected.", ""]
    lines += ["## Headline figures", ""]
    rows = []
    for name, entry in results["benchmarks"].items():
        if entry["status"] != "ok":
            rows.append([name, "(none: the benchmark crashed; traceback in its section)", "", "", "**FAILED**"])
            continue
        rows += [figure_row(name, f) for f in entry["figures"]]
    lines += [markdown_table(["benchmark", "figure", "value", "target", "status"], rows), ""]
    for name, entry in results["benchmarks"].items():
        cpu = f", {entry['cpu_seconds']} s of CPU" if "cpu_seconds" in entry else ""
        lines += [f"## {name}", "", f"_{entry['seconds']} s{cpu}_", ""]
        if source := entry.get("source"):  # a merged report says which run each section comes from
            settings = ", ".join(f"{k}={v}" for k, v in source.get("env", {}).items())
            lines += [f"_From the {source['suite']} suite run of {source['date']} (git {source['git']}"
                      f"{'; ' + settings if settings else ''})._", ""]
        if entry.get("about"):
            lines += [f"_How to read this:_ {entry['about']} (More in `benchmarks/README.md`, section {name}.)", ""]
        if entry["status"] != "ok":
            lines += ["```", entry["traceback"].rstrip(), "```", ""]
            continue
        for note in entry["notes"]:
            lines += [note, ""]
        for table in entry["tables"]:
            lines += [table, ""]
        for plot in entry["plots"]:
            lines += [f"![{Path(plot).stem}]({Path(plot).name})", ""]
    return "\n".join(lines)
