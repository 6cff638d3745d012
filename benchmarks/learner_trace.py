"""What a run's learner did over its budget, condensed from its `metrics.jsonl` into a few dozen time bins.

The policy's entropy, the rolling train success and the critic's loss. A run's summary holds its evaluations; why a
rule falls (its entropy climbing while its advantages vanish, a critic that fits a small replay) is in the learner's
metrics, which a kept run does not carry (`benchmarks.keep`). `condense` makes the short form that `keep` writes
beside a kept run (`TRACE_FILE`), and `read_trace` reads a run folder's metrics when it has them, else that file.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np

from benchmarks.result import markdown_table
from benchmarks.stats import mean_std
from distrl_agent.runtime.progress import SuccessWindow

TRACE_FILE = "learner_trace.json"
"""A kept run's condensed metrics: a list of {"time_s", "version", and each `TRACE_KEYS` name} per time bin."""
TRACE_KEYS = {"losses/entropy": "entropy", "charts/train_success": "train_success", "losses/critic": "critic_loss"}
"""metrics.jsonl key -> its name in a trace. Every rule reports the three (DigiRL's critic is its value head)."""
TRACE_POINTS = 40
"""Time bins of a trace: a 10-minute run's metrics (one record a second) in 15-second means."""

Trace = list[dict[str, float]]
"""Time bins in order, each {"time_s", "version", "entropy", "train_success", "critic_loss"}; NaN: a bin had none."""


def condense(metrics: Path, points: int = TRACE_POINTS) -> Trace:
    """The learner's records of `metrics` (a run's metrics.jsonl) in `points` equal bins of wall-clock: per bin with
    records, the mean of each `TRACE_KEYS` value, the bin's last time and version. Records before the first update
    (no entropy yet) are left out; [] when there are none.

    The train success is recomputed from the workers' counters the records carry (`rolling_success`), so that the
    traces of runs made before the bar counted every judged episode read the same as those after; a file without
    the counters keeps its `charts/train_success`.

    Raises:
        ValueError: a line that is not a JSON object (a metrics file is ours: one record a line).
    """  # noqa: D205
    rows = []
    for number, line in enumerate(metrics.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{metrics}:{number} is not a JSON record ({e.msg})") from None
        if not isinstance(row, dict):
            raise ValueError(f"{metrics}:{number} is not a JSON object")
        if isinstance(row.get("losses/entropy"), int | float) and isinstance(row.get("time_s"), int | float):
            rows.append(row)
    if not rows:
        return []
    times = np.array([r["time_s"] for r in rows], float)
    edges = np.linspace(0.0, times.max(), points + 1)
    bins = np.clip(np.searchsorted(edges, times, side="right") - 1, 0, points - 1)
    success = rolling_success(rows)
    trace = []
    for where in np.unique(bins):
        members = np.flatnonzero(bins == where)
        chosen, last = [rows[i] for i in members], int(members[-1])
        point = {"time_s": round(float(rows[last]["time_s"]), 1), "version": int(rows[last].get("step", 0))}
        for key, name in TRACE_KEYS.items():
            values = [r[key] for r in chosen if isinstance(r.get(key), int | float)]
            point[name] = float(np.mean(values)) if values else math.nan
        if success is not None:  # as the counters stood at the bin's end
            point["train_success"] = success[last]
        trace.append(point)
    return trace


def rolling_success(rows: list[dict]) -> list[float] | None:
    """Per record, the success rate of the last ~`SUCCESS_WINDOW` judged episodes as its counters
    (`runtime/episodes`, `runtime/successes`, ...) stood (`SuccessWindow`, as the bar reads it), every episode the
    workers ended counted, held back or not; NaN before any; None when a record lacks the counters (a metrics file
    older than them)."""  # noqa: D205, D209
    counted = ("runtime/episodes", "runtime/successes")
    if not all(isinstance(r.get(key), int | float) for r in rows for key in counted):
        return None
    window, rates = SuccessWindow(), []
    for row in rows:
        window.record(row)
        rates.append(math.nan if (rate := window.rate) is None else rate)
    return rates


def read_trace(run_dir: Path) -> Trace | None:
    """The run's trace: condensed from its metrics.jsonl, else its kept `TRACE_FILE`; None when it has neither."""
    if (run_dir / "metrics.jsonl").is_file():
        return condense(run_dir / "metrics.jsonl")
    if not (run_dir / TRACE_FILE).is_file():
        return None
    trace = json.loads((run_dir / TRACE_FILE).read_text())
    if not isinstance(trace, list) or not all(isinstance(p, dict) and isinstance(p.get("time_s"), int | float)
                                              for p in trace):
        raise ValueError(f"{run_dir / TRACE_FILE} is not a list of trace points with a time_s each")
    return [{k: v if isinstance(v, int | float) else math.nan for k, v in p.items()} for p in trace]


def keep_trace(run_dir: Path, dest: Path) -> None:
    """Write the run's trace (`read_trace`) into `dest/TRACE_FILE`, gaps as null; nothing when it has none."""
    if (trace := read_trace(run_dir)) is not None:
        (dest / TRACE_FILE).write_text(json.dumps([{k: None if math.isnan(v) else v for k, v in p.items()}
                                                   for p in trace]))


def dynamics_table(traces: dict[str, list[Trace | None]]) -> str | None:
    """Per run name (traces of its seeds): entropy, train success and critic loss in its first and last time bins,
    mean ± sample std over seeds; None when no run has a trace."""  # noqa: D205, D209
    rows = []
    for name, runs in traces.items():
        runs = [t for t in runs if t]
        if not runs:
            continue
        cells = [name, str(len(runs))]
        for key, scale, digits in (("entropy", 1.0, 2), ("train_success", 100.0, 0), ("critic_loss", 1.0, 3)):
            first, last = ([v for t in runs if not math.isnan(v := t[at][key])] for at in (0, -1))
            cells.append(f"{mean_std(first, scale, digits)} → {mean_std(last, scale, digits)}" if first or last
                         else "– (none reported)")  # GRPO has no critic
        rows.append(cells)
    if not rows:
        return None
    return markdown_table([f"run: the learner, its first → last 1/{TRACE_POINTS} of the run with updates", "seeds",
                           "policy entropy (nats)", "train success % (rolling)", "critic loss"], rows)


def plot_dynamics(traces: dict[str, list[Trace | None]], path: Path, title: str) -> Path:
    """Entropy and rolling train success against wall-clock, one line per run name (the mean over its seeds' traces,
    each held onto a common grid of minutes)."""  # noqa: D205, D209
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for name, runs in traces.items():
        runs = [t for t in runs if t]
        if not runs:
            continue
        grid = np.linspace(0.0, max(t[-1]["time_s"] for t in runs), 60)
        for ax, key, scale in ((axes[0], "entropy", 1.0), (axes[1], "train_success", 100.0)):
            held = []
            for t in runs:  # a grid point takes the bin that ends at or after it; nothing before the first update
                times, values = np.array([p["time_s"] for p in t]), np.array([p[key] for p in t] + [math.nan])
                held.append(values[np.where(grid < times[0], len(t), np.searchsorted(times, grid).clip(0, len(t) - 1))])
            with warnings.catch_warnings():  # a grid point before every seed's first update: NaN, not drawn
                warnings.simplefilter("ignore", RuntimeWarning)
                mean = np.nanmean(held, 0)
            ax.plot(grid / 60, scale * mean, label=f"{name} ({len(runs)} seeds)")
    axes[0].set_ylabel("policy entropy (nats, mean over the batch's steps)")
    axes[1].set_ylabel("train success % (rolling, sampled actions)")
    for ax in axes:
        ax.set_xlabel("wall-clock (min)")
    axes[1].set_ylim(0, 100)
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
