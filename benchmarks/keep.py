"""`python -m benchmarks keep RUNS DEST`: a training section's finished runs, kept where a later session finds them.

A reused run (`DISTRL_BENCH_TRAINING_REUSE`, `DISTRL_BENCH_SLOW_REUSE`) needs only its `summary.json` and
`config.yaml`; checkpoints, metrics and TensorBoard files stay behind. On machines whose scratch space does not
outlive a session, keep the runs in the repository (`docs/benchmarks/runs_slow/` holds the slow-device section's)
and point the reuse variable there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

KEPT_FILES = ("summary.json", "config.yaml")


def keep_runs(runs: Path, dest: Path) -> list[str]:
    """Copy every finished run under `runs` (one with both `KEPT_FILES`) into `dest/<run>/`; their names, sorted.

    Raises:
        FileNotFoundError: `runs` is not a folder.
    """
    if not runs.is_dir():
        raise FileNotFoundError(f"{runs} is not a folder of runs (an output's runs/ or runs_slow/)")
    kept = []
    for run in sorted(p for p in runs.iterdir() if p.is_dir()):
        if all((run / name).is_file() for name in KEPT_FILES):
            (dest / run.name).mkdir(parents=True, exist_ok=True)
            for name in KEPT_FILES:
                shutil.copy2(run / name, dest / run.name / name)
            kept.append(run.name)
    return kept
