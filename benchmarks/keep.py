"""`python -m benchmarks keep RUNS DEST`: finished runs, kept where a later session finds them.

A reused training run (`DISTRL_BENCH_TRAINING_REUSE`, `DISTRL_BENCH_SLOW_REUSE`, `DISTRL_BENCH_GENERALISATION_REUSE`)
needs only its `summary.json` and `config.yaml`, and a reused warm start its weights and config; checkpoints and
TensorBoard files stay behind, and the metrics go condensed (`benchmarks.learner_trace.TRACE_FILE`: the learner's
entropy, train success and critic loss over the budget, which the generalisation section reads). A reused soak arm
(`DISTRL_BENCH_SOAK_REUSE`) needs its record, its memory and heap samples and the plan it ran under; its run folder
stays behind. On machines whose scratch space does not outlive a session, keep the runs in the repository
(`docs/benchmarks/runs_slow/` holds the slow-device section's, `docs/benchmarks/runs_soak/` the soak's arms) and point
the reuse variable there.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchmarks.learner_trace import keep_trace
from distrl_agent.runtime.run_dir import WARM_START_FILE

UNBOUNDED = ["runtime.max_offpolicyness=null", "learner.max_samples_per_insert=0", "learner.max_times_sampled=null"]
"""The data bounds off, as before they became the defaults (issue 45) and as the paper runs: workers never held, each
trajectory drawn until the staleness cap or eviction removes it. The kept slow-device runs and soak arms ran so."""

KEPT_FILES = ("summary.json", "config.yaml")
"""A finished run's files; a seed's warm start is its `WARM_START_FILE` beside its config in the folder
`run_dir_name("", seed)` (tensors only: loading runs no code)."""


def keep_runs(runs: Path, dest: Path) -> list[str]:
    """Copy every finished run under `runs` (one with both `KEPT_FILES`, and its metrics condensed into `TRACE_FILE`),
    and every seed's warm start (its `WARM_START_FILE` and config), into `dest/<run>/`; their names, sorted.

    Raises:
        FileNotFoundError: `runs` is not a folder.
    """  # noqa: D205
    if not runs.is_dir():
        raise FileNotFoundError(f"{runs} is not a folder of runs (an output's runs/ or runs_slow/)")
    kept = []
    for run in sorted(p for p in runs.iterdir() if p.is_dir()):
        for names in (KEPT_FILES, (WARM_START_FILE, "config.yaml")):
            if all((run / name).is_file() for name in names):
                (dest / run.name).mkdir(parents=True, exist_ok=True)
                for name in names:
                    shutil.copy2(run / name, dest / run.name / name)
                if names == KEPT_FILES:
                    keep_trace(run, dest / run.name)
                kept.append(run.name)
                break
    return kept


SOAK_PLAN = "soak_plan.json"
"""The file that marks a soak output folder (`benchmarks/soak.py` writes it after each arm)."""


def is_soak_output(folder: Path) -> bool:
    """Whether `folder` is the output of a soak run (it holds `SOAK_PLAN`)."""
    return (folder / SOAK_PLAN).is_file()


def keep_soak_arms(out: Path, dest: Path) -> list[str]:
    """Copy every finished soak arm in the output folder `out` (its `soak_<arm>.json` and sample CSVs) into `dest`.

    The plan goes with them, so reuse can check the arms' minutes and seed; arms already in `dest` stay beside the
    new ones (an arm of the same name is replaced). Returns the arms kept, as `soak_<arm>`.

    Raises:
        FileNotFoundError: `out` is not a soak output folder.
        ValueError: `dest` keeps arms of another plan (other minutes, seed or judge cache): mixing them would
            report arms that did not run alike.
    """
    if not is_soak_output(out):
        raise FileNotFoundError(f"{out} is not a soak output folder (no {SOAK_PLAN})")
    plan = json.loads((out / SOAK_PLAN).read_text())
    if (dest / SOAK_PLAN).is_file() and (kept_plan := json.loads((dest / SOAK_PLAN).read_text())) != plan:
        raise ValueError(f"{dest} keeps soak arms of another plan ({kept_plan}; these ran under {plan}): keep them "
                         "in another folder")
    arms = sorted(p.stem for p in out.glob("soak_*.json") if p.name != SOAK_PLAN)
    dest.mkdir(parents=True, exist_ok=True)
    for arm in arms:
        for name in (f"{arm}.json", f"{arm}_memory.csv", f"{arm}_heap.csv"):
            if (out / name).is_file():
                shutil.copy2(out / name, dest / name)
    shutil.copy2(out / SOAK_PLAN, dest / SOAK_PLAN)
    return arms
