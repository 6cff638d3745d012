"""Training: success vs wall-clock for A-RIDE (async), its ablations, DigiRL (async, sync), Filtered BC, PPO and GRPO.

Reproduces the paper's Fig. a (success vs time), Fig. b (fraction of time above 60%/80% in three windows) and the
final table (train/test success, mean ± std over seeds), all on the simulated `general` suite with the small policy,
each run a real `distrl train` through `distrl_agent.runtime.train.train` with the same budget, and all runs of one
seed start from the same warm-started policy (behaviour cloning on noisy expert demonstrations, computed once per seed
and not counted in the budget), so that runs differ only in what they are compared on.

The full suite (8 runs x 3 seeds x 20 min) takes about 8 hours on 2 cores; `DISTRL_BENCH_TRAINING_MINUTES`,
`DISTRL_BENCH_TRAINING_SEEDS` and `DISTRL_BENCH_TRAINING_RUNS` (comma-separated names of RUNS) shrink it, and the
report's config records what ran. `DISTRL_BENCH_TRAINING_REUSE=DIR` (the `runs/` folder of an earlier output) takes
each run that finished there under the very same config instead of training it again (copied into this output), so an
interrupted or partly invalid suite re-runs only what is missing.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.result import Result, is_tiny, markdown_table
from distrl_agent.config import load_config
from distrl_agent.runtime.collect import evaluate_by_task
from distrl_agent.runtime.train import EVAL_SEEDS, train, warm_start

# name -> config overrides. "DigiRL (sync)" is DigiRL's protocol and update; "async DigiRL" separates system gains
# from algorithm gains; the ablations remove one A-RIDE ingredient each.
RUNS: dict[str, list[str]] = {
    "A-RIDE (async)": ["learner.algorithm=a-ride"],
    "DigiRL (sync)": ["learner.algorithm=digirl", "runtime.sync=true"],
    "DigiRL (async)": ["learner.algorithm=digirl"],
    "Filtered BC (async)": ["learner.algorithm=filtered-bc"],
    "A-RIDE uniform replay": ["learner.algorithm=a-ride-uniform"],
    "A-RIDE no Retrace": ["learner.algorithm=a-ride-no-retrace"],
    "A-RIDE no entropy": ["learner.algorithm=a-ride-no-entropy"],
    "PPO (async)": ["learner.algorithm=ppo"],
    "GRPO (async)": ["learner.algorithm=grpo"],
}
QUICK_RUNS = ("A-RIDE (async)", "DigiRL (sync)")
TINY_OVERRIDES = ["runtime.minutes=0.05", "runtime.warm_start_episodes=5", "runtime.warm_start_updates=5",
                  "runtime.eval_every_s=1", "runtime.eval_episodes=2", "runtime.workers=1", "runtime.envs_per_worker=2",
                  "runtime.episodes_per_round=2", "learner.batch_size=4", "learner.min_replay_trajectories=4"]
"""Tiny mode (`DISTRL_BENCH_TINY`): 3 s runs, 1 worker of 2 envs, 5-episode warm start, updates from 4 trajectories."""


def time_to(curve: list[dict[str, float]], level: float) -> float:
    """Seconds until test success first reaches `level` (inf if never)."""
    return next((p["time_s"] for p in curve if p["test_success"] >= level), math.inf)


def success_at(curve: list[dict[str, float]], key: str, x: float) -> float:
    """Test success of the last evaluation at or before `x` (in `key` units: time_s or env_steps)."""
    before = [p for p in curve if p.get(key, 0) <= x]
    return before[-1]["test_success"] if before else math.nan


def gap_at_equal(runs_a: list[dict[str, Any]], runs_b: list[dict[str, Any]], key: str) -> float | None:
    """Mean over seeds of test success a - b, each pair read at the `key` (env_steps, version) both runs reached.

    None when no pair of runs has a last evaluation past 0 in `key`.
    """
    gaps = [success_at(a["curve"], key, x) - success_at(b["curve"], key, x)
            for a, b in zip(runs_a, runs_b, strict=True)
            if (x := min(a["curve"][-1].get(key, 0), b["curve"][-1].get(key, 0))) > 0]
    return float(np.mean(gaps)) if gaps else None


def sample_std(values: Any) -> float:
    """The sample standard deviation (ddof 1); NaN for fewer than two values."""
    values = np.asarray(values, float)
    return float(values.std(ddof=1)) if values.size > 1 else math.nan


def _mean_std(values: np.ndarray) -> str:
    """`mean ± sample std` in %, or the mean alone for one seed."""
    std = sample_std(values)
    return f"{100 * values.mean():.1f}" + ("" if math.isnan(std) else f" ± {100 * std:.1f}")


def paired_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, sample std, low, high) of the per-seed differences a - b, with a Student-t interval at `level`.

    The interval is NaN for fewer than two pairs (one seed cannot tell a difference from seed noise).

    >>> mean, std, low, high = paired_interval([0.8, 0.7, 0.9], [0.6, 0.6, 0.7])
    >>> round(mean, 3), round(std, 3), round(low, 3), round(high, 3)
    (0.167, 0.058, 0.023, 0.31)
    """
    from scipy.stats import t as student_t

    d = np.asarray(a, float) - np.asarray(b, float)
    mean, std = float(d.mean()), sample_std(d)
    if d.size < 2:
        return mean, std, math.nan, math.nan
    half = float(student_t.ppf(0.5 + level / 2, d.size - 1)) * std / math.sqrt(d.size)
    return mean, std, mean - half, mean + half


def fraction_above(curve: list[dict[str, float]], level: float, start_s: float, end_s: float) -> float:
    """Fraction of evaluations in [start_s, end_s) whose test success is >= `level` (the paper's Fig. b measure)."""
    points = [p for p in curve if start_s <= p["time_s"] < end_s]
    return sum(p["test_success"] >= level for p in points) / len(points) if points else 0.0


def run_config(name: str, seed: int, minutes: float, out: Path, quick: bool) -> list[str]:
    """The overrides of run `name` (empty name: the shared warm start of `seed`)."""
    overrides = [*RUNS.get(name, []), f"runtime.minutes={minutes}", f"runtime.seed={seed}",
                 f"run_dir={out / 'runs' / (name.replace(' ', '_').replace('(', '').replace(')', '') + f'_s{seed}')}",
                 f"runtime.eval_every_s={max(15.0, minutes * 60 / 8)}", f"runtime.eval_episodes={40 if quick else 100}"]
    if is_tiny():
        overrides += TINY_OVERRIDES  # last, so that they win
    return overrides


def plan(quick: bool) -> tuple[tuple[str, ...], tuple[int, ...], float]:
    """(runs, seeds, minutes per run) of this suite, after the DISTRL_BENCH_TRAINING_* environment variables."""
    names = QUICK_RUNS if quick else tuple(RUNS)
    seeds = 1 if quick else 3
    minutes = 0.05 if is_tiny() else 2.0 if quick else 20.0
    if value := os.environ.get("DISTRL_BENCH_TRAINING_RUNS"):
        names = tuple(n.strip() for n in value.split(",") if n.strip())
        unknown = [n for n in names if n not in RUNS]
        if unknown:
            raise ValueError(f"DISTRL_BENCH_TRAINING_RUNS names unknown runs {unknown}; known: {list(RUNS)}")
    seeds = int(os.environ.get("DISTRL_BENCH_TRAINING_SEEDS", seeds))
    minutes = float(os.environ.get("DISTRL_BENCH_TRAINING_MINUTES", minutes))
    return names, tuple(range(seeds)), minutes


def reusable_summary(overrides: list[str]) -> dict[str, Any] | None:
    """The summary of this run from `DISTRL_BENCH_TRAINING_REUSE`, copied into the run's own run_dir; None to train.

    A run is reused only if it finished (summary.json) and its saved config equals this one but for `run_dir`.
    """
    source = os.environ.get("DISTRL_BENCH_TRAINING_REUSE")
    config = load_config(overrides=overrides)
    if not source:
        return None
    earlier = Path(source) / Path(config.run_dir).name
    if not (earlier / "summary.json").exists() or not (earlier / "config.yaml").exists():
        return None
    saved = load_config(earlier / "config.yaml").to_dict()
    if {**saved, "run_dir": None} != {**config.to_dict(), "run_dir": None}:
        return None
    if earlier.resolve() != Path(config.run_dir).resolve():
        shutil.copytree(earlier, config.run_dir, dirs_exist_ok=True)
    return json.loads((earlier / "summary.json").read_text())


def run(quick: bool, out: Path) -> Result:
    """Train every configuration; `quick` runs A-RIDE and sync DigiRL for two minutes on one seed."""
    names, seeds, minutes = plan(quick)
    result = Result(config={"runs": list(names), "seeds": list(seeds), "minutes": minutes, "suite": "general",
                            "policy": "small", "tiny_overrides": TINY_OVERRIDES if is_tiny() else []})
    summaries: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    start_by_task: list[dict[str, float]] = []  # the warm start's test success per template, one dict per seed
    for seed in seeds:
        config = load_config(overrides=run_config("", seed, minutes, out, quick))
        start = warm_start(config)
        assert start is not None  # every run config warm-starts
        start_by_task.append(evaluate_by_task(config, start, 0, "test", config.runtime.eval_episodes,
                                              EVAL_SEEDS["test"])[1])
        for name in names:
            overrides = run_config(name, seed, minutes, out, quick)
            if (summary := reusable_summary(overrides)) is None:
                summary = train(load_config(overrides=overrides), initial_weights=start)
            else:
                result.notes.append(f"{name}, seed {seed}: reused from {os.environ['DISTRL_BENCH_TRAINING_REUSE']}.")
            summaries[name].append(summary)
    rows = []
    budget = minutes * 60
    for name, runs in summaries.items():
        test = np.array([r["test_success"] for r in runs])
        train_ = np.array([r["train_success"] for r in runs])
        t60 = [time_to(r["curve"], 0.6) for r in runs]
        thirds = [np.mean([fraction_above(r["curve"], 0.6, budget * i / 3, budget * (i + 1) / 3) for r in runs])
                  for i in range(3)]
        rows.append([name, _mean_std(train_), _mean_std(test),
                     "never" if all(math.isinf(t) for t in t60) else f"{np.mean([t for t in t60 if t < math.inf]):.0f}",
                     " / ".join(f"{100 * f:.0f}%" for f in thirds), f"{np.mean([r['env_steps'] for r in runs]):.0f}",
                     f"{np.mean([r['updates'] for r in runs]):.0f}"])
        result.add(f"test_success/{name}", 100 * test.mean(), "%")
    result.tables.append(markdown_table(
        ["run", "train success % (mean ± sample std)", "test success %", "time to 60% test (s)",
         "time above 60% (thirds)", "env steps", "updates"], rows))
    if BASELINE in summaries and len(seeds) > 1:
        result.tables.append(paired_table(result, summaries))
    result.tables.append(by_task_table(start_by_task, summaries))
    if "A-RIDE (async)" in summaries and "DigiRL (sync)" in summaries:
        _compare(result, summaries["A-RIDE (async)"], summaries["DigiRL (sync)"], budget)
    if "A-RIDE (async)" in summaries and "DigiRL (async)" in summaries:
        _compare_update_rules(result, summaries["A-RIDE (async)"], summaries["DigiRL (async)"])
    result.plots.append(str(_plot(summaries, out / "training_curves.png")))
    result.notes.append(f"Each run: {minutes} min wall-clock of RL on this machine after a warm start shared by the "
                        "runs of its seed (behaviour cloning on noisy expert demonstrations, not counted), small "
                        "policy, sim `general` suite, test-split success of the greedy policy.")
    return result


BASELINE = "A-RIDE (async)"
"""The run every other is paired with, seed by seed (same warm start, same seed)."""


def paired_table(result: Result, summaries: dict[str, list[dict[str, Any]]]) -> str:
    """Final test success of each run minus A-RIDE's, paired by seed: mean, sample std, 95% t-interval, verdict.

    Adds `test_success_minus_a_ride/<run>` (points) to `result`.
    """
    base = [r["test_success"] for r in summaries[BASELINE]]
    rows = []
    for name, runs in summaries.items():
        if name == BASELINE:
            continue
        mean, std, low, high = paired_interval([r["test_success"] for r in runs], base)
        verdict = "n/a" if math.isnan(low) else "not separable" if low <= 0 <= high else "separable"
        rows.append([name, f"{100 * mean:+.1f}", f"{100 * std:.1f}", f"[{100 * low:+.1f}, {100 * high:+.1f}]",
                     verdict])
        result.add(f"test_success_minus_a_ride/{name}", 100 * mean, "points")
    return markdown_table([f"run minus {BASELINE}, test points, paired by seed", "mean", "sample std",
                           "95% interval (t)", "verdict"], rows)


def by_task_table(start: list[dict[str, float]], summaries: dict[str, list[dict[str, Any]]]) -> str:
    """Final test success per template (mean over seeds, %): the warm start, then each run — which tasks RL added."""
    columns = {"warm start": start, **{n: [r["test_success_by_task"] for r in runs] for n, runs in summaries.items()}}
    templates = sorted({t for per_seed in columns.values() for d in per_seed for t in d})
    rows = [[t.split("/")[-1], *(f"{100 * np.mean([d.get(t, math.nan) for d in per_seed]):.0f}"
                                 for per_seed in columns.values())] for t in templates]
    return markdown_table(["template", *columns], rows)


def _compare(result: Result, a_ride: list[dict[str, Any]], digirl: list[dict[str, Any]], budget: float) -> None:
    """The paper's two headline comparisons: final test success (+20% relative) and training efficiency (3x)."""
    a_test = float(np.mean([r["test_success"] for r in a_ride]))
    d_test = float(np.mean([r["test_success"] for r in digirl]))
    result.add("a_ride_minus_sync_digirl_test_success", 100 * (a_test - d_test), "points")
    if d_test > 0:
        result.add("a_ride_vs_sync_digirl_relative_gain", 100 * (a_test / d_test - 1), "%", target=20.0)
    else:
        result.notes.append("Sync DigiRL scored 0% on the test split, so the relative gain is not measurable; "
                            f"A-RIDE scored {100 * a_test:.1f}%.")
    # Efficiency as the paper measures it (Fig. b): the fraction of wall-clock spent at or above 60% test success.
    f_a = float(np.mean([fraction_above(r["curve"], 0.6, 0.0, budget) for r in a_ride]))
    f_d = float(np.mean([fraction_above(r["curve"], 0.6, 0.0, budget) for r in digirl]))
    result.add("fraction_of_time_above_60pct/A-RIDE", 100 * f_a, "%")
    result.add("fraction_of_time_above_60pct/DigiRL (sync)", 100 * f_d, "%")
    if f_d > 0:
        result.add("efficiency_vs_sync_digirl", f_a / f_d, "x", target=3.0)
    else:
        result.notes.append(f"Sync DigiRL never evaluated at or above 60% test success; A-RIDE spent {100 * f_a:.0f}% "
                            "of its evaluations there, so the efficiency ratio is unbounded.")
    # "At equal steps": each seed's two curves read at the env steps the shorter of the two runs collected.
    if (gap := gap_at_equal(a_ride, digirl, "env_steps")) is not None:
        result.add("a_ride_minus_sync_digirl_at_equal_env_steps", 100 * gap, "points", target=0.0)
        result.notes.append("At equal env steps means at the steps the sync run collected: on the instant sim the "
                            "learner, not collection, bounds both protocols, so async runs collect several times more "
                            "steps per update and this figure favours sync; compare A-RIDE with DigiRL (async) for "
                            "the update rules at equal updates.")
    t_a = float(np.mean([time_to(r["curve"], 0.6) for r in a_ride]))
    t_d = float(np.mean([time_to(r["curve"], 0.6) for r in digirl]))
    if math.isfinite(t_a) and math.isfinite(t_d):
        result.add("time_to_60pct_speedup_vs_sync_digirl", t_d / max(t_a, 1e-9), "x")


def _compare_update_rules(result: Result, a_ride: list[dict[str, Any]], digirl: list[dict[str, Any]]) -> None:
    """A-RIDE vs DigiRL's update rule on the same asynchronous runtime, at the end and at equal learner updates."""
    diff = [a["test_success"] - d["test_success"] for a, d in zip(a_ride, digirl, strict=True)]
    result.add("a_ride_minus_async_digirl_test_success", 100 * float(np.mean(diff)), "points", target=0.0)
    # each seed's two curves read at the updates the run with fewer updates made (the curves record `version`)
    if (gap := gap_at_equal(a_ride, digirl, "version")) is not None:
        result.add("a_ride_minus_async_digirl_at_equal_updates", 100 * gap, "points", target=0.0)


def _plot(summaries: dict[str, list[dict[str, Any]]], path: Path) -> Path:
    """Fig. a: test success vs wall-clock (left) and vs env steps collected (right), mean ± std over seeds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, key, scale, label in ((axes[0], "time_s", 1 / 60, "wall-clock (min)"),
                                  (axes[1], "env_steps", 1e-3, "env steps collected (thousands)")):
        for name, runs in summaries.items():
            points = sorted({p.get(key, 0) for r in runs for p in r["curve"]})
            if not points:
                continue
            grid = np.array(points, dtype=float)
            curves = []
            for r in runs:  # step-hold each run's evaluations onto the common grid
                x = np.array([p.get(key, 0) for p in r["curve"]], dtype=float)
                y = np.array([p["test_success"] for p in r["curve"]])
                curves.append(y[np.maximum(0, np.searchsorted(x, grid, side="right") - 1)])
            mean, std = np.mean(curves, 0), np.std(curves, 0)
            ax.plot(grid * scale, 100 * mean, label=name)
            ax.fill_between(grid * scale, 100 * (mean - std), 100 * (mean + std), alpha=0.15)
        ax.axhline(60, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(label)
    axes[0].set_ylabel("test success (%)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Sim `general` suite, small policy, 2 CPU cores (mean ± std over seeds)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
