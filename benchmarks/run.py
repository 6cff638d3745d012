"""The benchmark runner: runs the selected benchmarks, survives their crashes, writes JSON, Markdown and plots."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import importlib.metadata
import inspect
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from android_gym.errors import closest
from benchmarks.keep import is_soak_output, keep_runs, keep_soak_arms
from benchmarks.report import finite, report
from benchmarks.result import TINY_ENV, Result, is_tiny

BENCHMARKS: dict[str, str] = {
    "sim": "benchmarks.sim",
    "pool": "benchmarks.pool",
    "collection": "benchmarks.collection",
    "training": "benchmarks.training",
    "training-slow": "benchmarks.training_slow",
    "learner": "benchmarks.learner",
    "sb3": "benchmarks.sb3",
    "judges": "benchmarks.judges",
    "devices": "benchmarks.devices",
    "fleet": "benchmarks.fleet",
    "soak": "benchmarks.soak",
    "vlm": "benchmarks.vlm",
    "generalisation": "benchmarks.generalisation",
}
"""Benchmark name -> module exposing `run(quick: bool, out: Path) -> Result`."""
QUICK_BUDGET_S: dict[str, float] = {
    "sim": 60, "pool": 50, "collection": 90, "training": 100, "training-slow": 100, "learner": 60, "sb3": 35,
    "judges": 15, "devices": 50, "vlm": 40,
}
"""Seconds each section of the quick suite should take on 2 cores (600 in all, the suite's promise). The runner
prints each section's budget as it starts and says when a section ran over it; the report tabulates both."""
FULL_ONLY = ("fleet", "soak", "generalisation")
"""Sections the quick suite leaves to the full suite: the soak's arms train for minutes each (its quick plan took over
6 minutes alone), the fleet starts a Ray cluster and a dozen emulator layouts (its quick plan, about 4 minutes), and
generalisation warm-starts on World for minutes before its runs.
`--suite quick --only soak` still runs a quick plan, and tiny mode (the tests') runs all three."""


def suite_sections(quick: bool) -> list[str]:
    """The sections a suite runs when `--only` names none: every one, less `FULL_ONLY` in the quick suite."""
    return [name for name in BENCHMARKS if not (quick and not is_tiny() and name in FULL_ONLY)]


PACKAGES = ("distrl", "gymnasium", "numpy", "torch", "transformers", "stable-baselines3", "matplotlib", "adbutils",
            "pillow", "ray")
"""Distributions whose versions results.json records ("not installed" where absent)."""
OUTPUT_FILES = ("results.json", "report.md")
"""What marks a folder as an earlier run's output (`--force` replaces only such folders, or empty ones)."""


def machine_facts() -> dict[str, Any]:
    """Facts about the machine a result came from: OS, CPU count and model, memory (GiB), accelerator, and its speed
    on two reference workloads (`benchmarks.calibration`)."""  # noqa: D205, D209
    import torch

    from benchmarks.calibration import machine_speed

    cpu_model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu_model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")),
                             cpu_model)
    except OSError:  # not Linux: platform's answer stands
        pass
    try:
        memory_gib = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        memory_gib = None
    cuda = torch.cuda.is_available()
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "cpu_model": cpu_model, "memory_gib": memory_gib, "torch": torch.__version__, "cuda": cuda,
            "gpu": torch.cuda.get_device_name(0) if cuda else None, "speed": machine_speed()}


def versions() -> dict[str, str]:
    """Installed versions of `PACKAGES`, plus the git commit of this checkout ("unknown" outside git)."""
    found = {}
    for name in PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    try:  # a tarball or wheel install has no git: the versions above still say what ran
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                                timeout=5, cwd=Path(__file__).resolve().parent, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    found["git"] = commit or "unknown"
    return found


def about(module: ModuleType) -> str:
    """The first paragraph of a benchmark module's docstring, on one line (the report's "How to read this")."""
    doc = inspect.getdoc(module) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its waited-for children (subprocess workers, emulators).

    Beside `seconds` (wall), this is the figure a busy machine does not inflate: two sections' costs compare by it.
    Ray's actors are not children of the runner and are not counted.
    """
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(names: list[str], quick: bool, out: Path) -> dict[str, Any]:
    """Run `names` into `out`; a crashing benchmark is recorded with its traceback and the others still run.

    Writes `out/results.json` (date, the runner's config, versions, machine facts, then per benchmark its status,
    seconds (wall and CPU), figures with units and targets, tables, plots, config, notes, or its traceback) and
    `out/report.md`.
    Non-finite figures (an unbounded speed-up) are written as the strings "inf", "-inf", "nan" so that the file
    stays strict JSON.

    Returns:
        The results as written (figures as floats).
    """
    results: dict[str, Any] = {
        "suite": "quick" if quick else "full", "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "config": {"suite": "quick" if quick else "full", "benchmarks": list(names), "tiny": is_tiny(),
                   "out": str(out), "env": {k: v for k, v in os.environ.items()
                                            if k in (TINY_ENV, "ANDROID_GYM_JUDGE") or k.startswith("DISTRL_BENCH_")}},
        "versions": versions(), "machine": machine_facts(), "benchmarks": {}}
    for name in names:
        budget = QUICK_BUDGET_S.get(name) if quick and not is_tiny() else None
        print(f"[benchmarks] {name} ...{f' (budget {budget:.0f} s)' if budget else ''}", flush=True)
        start, cpu_start = time.perf_counter(), cpu_seconds()
        entry: dict[str, Any] = {}
        try:
            module = importlib.import_module(BENCHMARKS[name])
            entry["about"] = about(module)
            result: Result = module.run(quick=quick, out=out)
            entry = {"status": "ok", **entry, **result.to_json()}
        except Exception:  # noqa: BLE001  (a benchmark's crash is data for the report, not the end of the run)
            entry = {"status": "failed", **entry, "traceback": traceback.format_exc()}
            print(entry["traceback"], file=sys.stderr)
        entry["seconds"] = round(time.perf_counter() - start, 1)
        entry["cpu_seconds"] = round(cpu_seconds() - cpu_start, 1)
        if budget:
            entry["budget_s"] = budget
        results["benchmarks"][name] = entry
        over = f", OVER its {budget:.0f} s budget" if budget and entry["seconds"] > budget else ""
        print(f"[benchmarks] {name}: {entry['status']} in {entry['seconds']} s{over}", flush=True)
    (out / "results.json").write_text(json.dumps(finite(results), indent=2, default=str, allow_nan=False))
    (out / "report.md").write_text(report(results))
    return results


def main(argv: list[str] | None = None) -> int:
    """The command line: `run` benchmarks, `merge` the outputs of earlier runs, or `keep` finished runs.

    `python -m benchmarks run --suite quick|full [--only NAME ...] --out DIR [--force] [--publish]`;
    `python -m benchmarks merge SRC [SRC ...] --out DIR [--force] [--publish]`;
    `python -m benchmarks keep RUNS DEST` (`keep.py`: training runs, or the arms of a soak output).
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run benchmarks")
    p.add_argument("--suite", choices=("quick", "full"), default="quick")
    p.add_argument("--only", nargs="+", metavar="NAME", help=f"a subset of: {', '.join(BENCHMARKS)}")
    p.add_argument("--out", required=True, help="output folder (must not exist unless --force)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing output folder (an earlier run's output, or an empty folder)")
    p.add_argument("--publish", action="store_true",
                   help="also copy the report and plots to docs/benchmarks/ and refresh the tables of README.md and "
                        "docs/RESULTS.md")
    m = sub.add_parser("merge", help="merge benchmark output folders into one report (later folders win)")
    m.add_argument("sources", nargs="+", help="output folders of earlier `run`s")
    m.add_argument("--out", required=True, help="output folder for the merged report (must not exist unless --force)")
    m.add_argument("--force", action="store_true", help="replace an existing output folder (as for `run`)")
    m.add_argument("--publish", action="store_true", help="also publish the merged report (as for `run`)")
    k = sub.add_parser("keep", help="copy finished training runs or soak arms (what reuse needs) elsewhere")
    k.add_argument("runs", help="an output's runs/ or runs_slow/ folder, or the output folder of a soak run")
    k.add_argument("dest", help="where to keep them, e.g. docs/benchmarks/runs_slow or docs/benchmarks/runs_soak")
    args = parser.parse_args(argv)
    if args.command == "merge":
        return _merge_command(parser, args)
    if args.command == "keep":
        source, dest = Path(args.runs), Path(args.dest)
        try:
            kept = keep_soak_arms(source, dest) if is_soak_output(source) else keep_runs(source, dest)
        except (FileNotFoundError, ValueError) as e:
            parser.error(str(e))
        print(f"kept {len(kept)} finished run(s) in {args.dest}: {', '.join(kept) or 'none'}")
        return 0
    quick = args.suite == "quick"
    names = list(dict.fromkeys(args.only or suite_sections(quick)))  # in the order given, each once
    if not args.only and (left := [n for n in BENCHMARKS if n not in names]):
        print(f"[benchmarks] left to the full suite: {', '.join(left)} (`--only` runs them here)", flush=True)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        hints = [f"{n!r} (did you mean {close!r}?)" if (close := closest(n, BENCHMARKS)) else repr(n)
                 for n in unknown]
        parser.error(f"`--only`: unknown benchmark(s) {', '.join(hints)}; known: {', '.join(BENCHMARKS)}")
    out = Path(args.out)
    _prepare_out(parser, out, args.force)
    results = run(names, quick=quick, out=out)
    _finish(out, args.publish)
    failed = [n for n, e in results["benchmarks"].items() if e["status"] != "ok"]
    if failed:
        print(f"failed: {', '.join(failed)} (tracebacks in {out / 'report.md'})", file=sys.stderr)
    return 1 if failed else 0


def _prepare_out(parser: argparse.ArgumentParser, out: Path, force: bool) -> None:
    """Create `out`, refusing to overwrite anything but an earlier benchmark output (with --force)."""
    if out.exists():
        if not force:
            parser.error(f"`--out`: output folder {out} exists; pass --force to overwrite it, or choose another")
        if not out.is_dir() or not _is_replaceable(out):
            parser.error(f"`--out`: {out} is not an earlier benchmark output (no {' or '.join(OUTPUT_FILES)}) and "
                         "is not empty; --force replaces only those. Choose a new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)


def _merge_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from benchmarks.merge import merge

    sources = [Path(s) for s in args.sources]
    missing = [str(s) for s in sources if not (s / "results.json").is_file()]
    if missing:
        parser.error(f"merge: {', '.join(missing)} hold no results.json (not benchmark output folders)")
    out = Path(args.out)
    _prepare_out(parser, out, args.force)
    results = merge(sources, out, order=list(BENCHMARKS))
    _finish(out, args.publish)
    return 1 if any(e["status"] != "ok" for e in results["benchmarks"].values()) else 0


def _finish(out: Path, publish: bool) -> None:
    """Say where the report is, and publish it to docs/benchmarks/ and the README if asked."""
    print(f"wrote {out / 'report.md'} and {out / 'results.json'}")
    if publish:
        from benchmarks.publish import publish as publish_report

        publish_report(out, Path(__file__).resolve().parents[1])
        print("published to docs/benchmarks/, docs/RESULTS.md and README.md")


def _is_replaceable(out: Path) -> bool:
    """Whether `--force` may delete `out`: it is empty or holds an earlier run's results.json or report.md."""
    return not any(out.iterdir()) or any((out / name).is_file() for name in OUTPUT_FILES)
