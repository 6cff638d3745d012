"""The benchmark runner: runs the selected benchmarks, survives their crashes, writes JSON, Markdown and plots."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import shutil
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from benchmarks.result import Result, markdown_table

BENCHMARKS: dict[str, str] = {
    "sim": "benchmarks.sim",
    "pool": "benchmarks.pool",
    "collection": "benchmarks.collection",
    "training": "benchmarks.training",
    "sb3": "benchmarks.sb3",
    "judges": "benchmarks.judges",
    "devices": "benchmarks.devices",
}
"""Benchmark name -> module exposing `run(quick: bool, out: Path) -> Result`."""


def machine_facts() -> dict[str, Any]:
    """Facts about the machine a result came from."""
    import numpy
    import torch

    import android_gym

    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "torch": torch.__version__, "numpy": numpy.__version__, "android_gym": android_gym.__version__,
            "cuda": torch.cuda.is_available()}


def run(names: list[str], quick: bool, out: Path) -> dict[str, Any]:
    """Run `names` into `out`; a crashing benchmark is recorded with its traceback and the others still run."""
    results: dict[str, Any] = {"suite": "quick" if quick else "full", "date": dt.datetime.now(dt.UTC).isoformat(),
                               "machine": machine_facts(), "benchmarks": {}}
    for name in names:
        print(f"[benchmarks] {name} ...", flush=True)
        start = time.perf_counter()
        try:
            module = importlib.import_module(BENCHMARKS[name])
            result: Result = module.run(quick=quick, out=out)
            entry = {"status": "ok", **result.to_json()}
        except Exception:  # noqa: BLE001  (a benchmark's crash is data for the report, not the end of the run)
            entry = {"status": "failed", "traceback": traceback.format_exc()}
            print(entry["traceback"], file=sys.stderr)
        entry["seconds"] = round(time.perf_counter() - start, 1)
        results["benchmarks"][name] = entry
        print(f"[benchmarks] {name}: {entry['status']} in {entry['seconds']} s", flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=2, default=str))
    (out / "report.md").write_text(report(results))
    return results


def report(results: dict[str, Any]) -> str:
    """The Markdown report: a headline table of every figure with its target, then each benchmark's tables."""
    m = results["machine"]
    lines = [f"# Benchmark report ({results['suite']} suite)", "",
             f"{results['date']} — {m['cpus']} CPUs, Python {m['python']}, torch {m['torch']}, "
             f"CUDA {'yes' if m['cuda'] else 'no'}", "", "## Headline figures", ""]
    rows = []
    for name, entry in results["benchmarks"].items():
        if entry["status"] != "ok":
            rows.append([name, "FAILED (see below)", "", "", ""])
            continue
        for f in entry["figures"]:
            target = "" if f["target"] is None else f"{'≥' if f['higher_is_better'] else '≤'} {f['target']:g}"
            met = {True: "met", False: "**MISSED**", None: ""}[f["met"]]
            rows.append([name, f["name"], f"{f['value']:.4g} {f['unit']}", target, met])
    lines += [markdown_table(["benchmark", "figure", "value", "target", "status"], rows), ""]
    for name, entry in results["benchmarks"].items():
        lines += [f"## {name}", "", f"_{entry['seconds']} s_", ""]
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


def main(argv: list[str] | None = None) -> int:
    """`python -m benchmarks run --suite quick|full [--only NAME ...] --out DIR [--force]`."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run benchmarks")
    p.add_argument("--suite", choices=("quick", "full"), default="quick")
    p.add_argument("--only", nargs="+", metavar="NAME", help=f"a subset of: {', '.join(BENCHMARKS)}")
    p.add_argument("--out", required=True, help="output folder (must not exist unless --force)")
    p.add_argument("--force", action="store_true", help="overwrite an existing output folder")
    args = parser.parse_args(argv)
    names = args.only or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; known: {', '.join(BENCHMARKS)}")
    out = Path(args.out)
    if out.exists():
        if not args.force:
            parser.error(f"output folder {out} exists; pass --force to overwrite it")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    results = run(names, quick=args.suite == "quick", out=out)
    print(f"wrote {out / 'report.md'} and {out / 'results.json'}")
    return 0 if all(e["status"] == "ok" for e in results["benchmarks"].values()) else 1
