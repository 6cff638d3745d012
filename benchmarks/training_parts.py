"""What both training sections share: plans, runs with reuse, curve readers, paired statistics and figures.

The plan comes from the environment; the figures are Fig. a, Fig. b and the by-template table.

A section's runs are `Summaries`: run name -> seed -> the `summary.json` of that `distrl train`. Every comparison
pairs two runs seed by seed, over the seeds both finished (a crashed run leaves its seed out of its pairs only).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import yaml

from benchmarks.keep import WARM_START_FILE
from benchmarks.result import Result, env_number, markdown_table
from benchmarks.stats import evaluation_noise, mean_std, paired_interval, verdict
from distrl_agent.config import TrainConfig, load_config
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
from distrl_agent.runtime.collect import evaluate_by_task
from distrl_agent.runtime.train import EVAL_SEEDS, train, warm_start
from distrl_agent.runtime.warm_start import save_warm_start, weights_digest

Summaries = dict[str, dict[int, dict[str, Any]]]
"""run name -> seed -> summary of that run."""
T = TypeVar("T")


# -- the plan --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What a section trains: run names (in table order), seeds, and minutes of wall-clock per run."""

    runs: tuple[str, ...]
    seeds: tuple[int, ...]
    minutes: float


def plan_from_env(prefix: str, known: Sequence[str], default: Plan) -> Plan:
    """`default`, with `{prefix}_RUNS` (comma-separated names of `known`), `{prefix}_SEEDS` (a count) and
    `{prefix}_MINUTES` from the environment.

    Raises:
        ValueError: naming the variable, for an unknown run name, a count that is not an integer >= 1, or minutes
            that are not a number > 0.
    """  # noqa: D205
    runs = default.runs
    if value := os.environ.get(f"{prefix}_RUNS"):
        runs = tuple(n.strip() for n in value.split(",") if n.strip())
        if unknown := [n for n in runs if n not in known]:
            raise ValueError(f"{prefix}_RUNS names unknown runs {unknown}; known: {list(known)}")
    seeds = env_number(f"{prefix}_SEEDS", len(default.seeds), int, minimum=1)
    minutes = env_number(f"{prefix}_MINUTES", default.minutes, float, minimum=0.0, strict=True)
    return Plan(runs, tuple(range(int(seeds))), float(minutes))


def run_dir_name(name: str, seed: int) -> str:
    """The folder of run `name`, seed `seed`, under the section's `runs/` (empty name: the shared warm start)."""
    return name.replace(" ", "_").replace("(", "").replace(")", "").replace(",", "") + f"_s{seed}"


# -- training the runs -----------------------------------------------------------------------------------------------
def reusable_summary(overrides: list[str], source: str | None) -> dict[str, Any] | None:
    """The summary of this run from the `runs/` folder `source` of an earlier output, copied into the run's own
    run_dir; None to train (no source, or no finished run there under the very same config but for `run_dir`).
    """  # noqa: D205
    config = load_config(overrides=overrides)
    if (earlier := earlier_run(config, source, "summary.json")) is None:
        return None
    return json.loads((earlier / "summary.json").read_text())


def earlier_run(config: TrainConfig, source: str | None, product: str,
                inputs: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Path | None:
    """The folder of `source` (an earlier output's runs folder) holding `product` of this very run (the same config
    but for `run_dir`; with `inputs`, the same of what `inputs` keeps of a config: what the product depends on),
    copied into the run's own run_dir; None when there is none."""  # noqa: D205, D209
    if not source:
        return None
    earlier = Path(source) / Path(str(config.run_dir)).name
    if not (earlier / product).exists() or not (earlier / "config.yaml").exists():
        return None
    # The file as written, not loaded: loading fills fields added since with today's defaults, and a run made before
    # a rule gained an option would pass for one made with it.
    saved = yaml.safe_load((earlier / "config.yaml").read_text())
    if not isinstance(saved, dict):
        return None
    keep = inputs or (lambda c: c)
    if not same_run(keep({**saved, "run_dir": None}), keep({**config.to_dict(), "run_dir": None})):
        return None
    if earlier.resolve() != Path(str(config.run_dir)).resolve():
        shutil.copytree(earlier, str(config.run_dir), dirs_exist_ok=True)
    return earlier


def warm_start_inputs(config: dict[str, Any]) -> dict[str, Any]:
    """What of a config (as a dict) a warm start depends on: the env, the policy, the seed and the `warm_start_*`
    settings; not the learner nor the run's length or evaluations, which a later plan may change.

    >>> warm_start_inputs({"env": {"suite": "world"}, "learner": {"lr": 1e-4},
    ...                    "runtime": {"minutes": 6, "seed": 1, "warm_start_updates": 9}})
    {'env': {'suite': 'world'}, 'policy': None, 'runtime': {'seed': 1, 'warm_start_updates': 9}}
    """  # noqa: D205
    runtime = config.get("runtime") or {}
    return {"env": config.get("env"), "policy": config.get("policy"),
            "runtime": {k: v for k, v in runtime.items() if k == "seed" or k.startswith("warm_start_")}}


def shared_warm_start(config: TrainConfig, source: str | None) -> dict[str, Any]:
    """The warm start of `config` (a seed's, shared by its runs): the one an earlier output made under the same
    config (`source`, its runs folder), or a new one, saved with its config for later sessions to take.

    Reusing it keeps a reused run paired with the very weights it started from, and saves World's minutes of cloning.
    """  # noqa: D205
    from safetensors.numpy import load_file

    if (earlier := earlier_run(config, source, WARM_START_FILE, warm_start_inputs)) is not None:
        return load_file(earlier / WARM_START_FILE)
    weights = warm_start(config)
    assert weights is not None  # every run config warm-starts
    folder = Path(str(config.run_dir))
    folder.mkdir(parents=True, exist_ok=True)
    save_warm_start(weights, folder)
    (folder / "config.yaml").write_text(config.to_yaml())
    return weights


NEUTRAL_ADDITIONS: dict[str, Any] = {
    "runtime.fault_prefixes": False, "runtime.max_offpolicyness": None, "runtime.eval_splits": ["test"],
    "runtime.inference": "auto", "runtime.warm_start_labels": "taken", "runtime.warm_start_anneal": False,
    "runtime.warm_start_from": None, "runtime.eval_deferred": False,
    "policy.custom": None, "policy.small.copy_from_screen": False, "policy.small.memory_steps": 0,
    "policy.small.memory_texts": 64,  # read only with memory_steps > 0
    "learner.max_times_sampled": None, "learner.micro_batch_size": None,
    "learner.coefficients.behaviour_weight": "truncate", "learner.coefficients.ratio_level": "sequence",
    "learner.coefficients.entropy_per_draw": False, "learner.coefficients.kl_coef": 0.0,
    "learner.coefficients.trust_region": None,
}
"""Config keys added after runs were kept, each with the value that behaves as the code did before it existed: a
saved config without the key describes the same run as one with that value. A key added to the config needs its entry
here (a test checks the kept runs in docs/benchmarks)."""


def same_run(saved: Any, now: Any, path: str = "") -> bool:
    """Whether a saved config (as written) describes the run `now` would make.

    Equal values only, except for `NEUTRAL_ADDITIONS`: a key added since, absent from the saved file, holding now the
    value that behaves as before it existed. Any other added key, or a neutral one set otherwise, makes the run
    different.

    >>> same_run({"policy": {"kind": "small"}}, {"policy": {"kind": "small", "custom": None}})
    True
    >>> same_run({"learner": {"lr": 1e-4}}, {"learner": {"lr": 1e-4, "new_option": 0.5}})
    False
    >>> same_run({"runtime": {}}, {"runtime": {"fault_prefixes": True}})
    False
    """
    if isinstance(saved, dict) and isinstance(now, dict):
        added = {key for key in now.keys() - saved.keys()
                 if f"{path}{key}" in NEUTRAL_ADDITIONS and now[key] == NEUTRAL_ADDITIONS[f"{path}{key}"]}
        return (saved.keys() == now.keys() - added
                and all(same_run(saved[key], now[key], f"{path}{key}.") for key in saved))
    return saved == now


def test_by_task(config: TrainConfig, weights: dict[str, Any]) -> dict[str, float]:
    """Test success per template of `weights` (the run's evaluation episodes and seed): a warm start's figures."""
    return evaluate_by_task(config, weights, 0, "test", config.runtime.eval_episodes, EVAL_SEEDS["test"])[1]


def train_runs(plan: Plan, overrides: Callable[[str, int], list[str]], result: Result, reuse_var: str,
               evaluate_start: Callable[[TrainConfig, dict[str, Any]], T] = test_by_task,  # type: ignore[assignment]
               ) -> tuple[Summaries, list[T]]:
    """Train every run of `plan`, each seed's runs from the same warm start (computed once per seed, not counted).

    A run that finished under the same config in `os.environ[reuse_var]` (an earlier output's `runs/`) is reused, and
    so is a seed's warm start (`shared_warm_start`); a run that crashes is recorded in `result.notes` with its
    traceback and the others go on, and so is a seed whose runs did not all start from its warm start (`start_notes`:
    a reused run cloned on another build).

    Returns:
        (the summaries, `evaluate_start` of each seed's warm start: by default its test success per template).
    """
    summaries: Summaries = {name: {} for name in plan.runs}
    start_figures: list[T] = []
    source = os.environ.get(reuse_var)
    reused: list[str] = []
    start_digests: dict[int, str] = {}
    for seed in plan.seeds:
        config = load_config(overrides=overrides("", seed))
        start = shared_warm_start(config, source)
        start_figures.append(evaluate_start(config, start))
        start_digests[seed] = weights_digest(start)
        for name in plan.runs:
            run_overrides = overrides(name, seed)
            if (summary := reusable_summary(run_overrides, source)) is not None:
                reused.append(f"{name} s{seed}")
            else:
                try:
                    summary = train(load_config(overrides=run_overrides), initial_weights=start)
                except Exception:  # noqa: BLE001  (one crashed run is data; the rest of the suite still runs)
                    result.notes.append(f"{name}, seed {seed}: **crashed**, left out of its comparisons:\n\n"
                                        f"```\n{traceback.format_exc().rstrip()}\n```")
                    continue
            summaries[name][seed] = summary
    if reused:
        result.notes.append(f"Reused from {source} (finished there under the same config): {', '.join(reused)}.")
    result.notes += start_notes(summaries, start_digests)
    return summaries, start_figures


TASK_FILE_ENV = "DISTRL_BENCH_EVAL_TASK_FILE"
"""A goal list (AitW's General test list, say) the final policies are also evaluated on, over its covered lines."""


def task_file_table(result: Result, summaries: Summaries, overrides: Callable[[str, int], list[str]], path: Path,
                    out: Path) -> str:
    """Success of every run's final policy on the goals of `path` the goal parser covers (mean ± sample std).

    The covered lines are written to `out/covered_<stem>.txt` and evaluated like the test split (the run's
    `runtime.eval_episodes` greedy episodes, the same evaluation seeds); uncovered lines have no check and are left
    out (their count is noted).
    """
    from android_gym.tasks.files import file_coverage
    from android_gym.tasks.goals import GoalMatch

    report = file_coverage(path)
    covered = [r.line for r in report.results if isinstance(r, GoalMatch)]
    if not covered:
        result.notes.append(f"{path}: no line is covered by the goal parser, so no task-file evaluation.")
        return ""
    target = out / f"covered_{path.stem}.txt"
    target.write_text("\n".join(covered) + "\n")
    rows = []
    episodes = 0
    for name, by_seed in summaries.items():
        rates = []
        for seed in sorted(by_seed):
            run_overrides = overrides(name, seed)
            run_dir = Path(next(o for o in run_overrides if o.startswith("run_dir=")).split("=", 1)[1])
            saved = read_policy(find_checkpoint(run_dir))
            config = load_config(overrides=[*run_overrides, f"env.task_file={target}"])
            episodes = config.runtime.eval_episodes
            rate, _ = evaluate_by_task(config, saved.weights, saved.version, "test", episodes, EVAL_SEEDS["test"],
                                       saved.config)
            rates.append(100 * rate)
            result.add(f"task_file_success/{path.stem}/{name}/seed{seed}", 100 * rate, "%")
        if rates:
            std = np.std(rates, ddof=1) if len(rates) > 1 else math.nan
            rows.append([name, f"{np.mean(rates):.1f} ± {std:.1f}" if len(rates) > 1 else f"{rates[0]:.1f}",
                         len(rates)])
    result.notes.append(f"{path}: the final policies were also evaluated on its {len(covered)} covered lines (of "
                        f"{report.total}; {episodes} greedy episodes each, in `{target.name}`).")
    return markdown_table([f"run: success on {path.stem} (covered lines), %", "mean ± sample std", "seeds"], rows)


# -- reading curves --------------------------------------------------------------------------------------------------
def time_to(curve: list[dict[str, float]], level: float) -> float:
    """Seconds until test success first reaches `level` (inf if never)."""
    return next((p["time_s"] for p in curve if p["test_success"] >= level), math.inf)


def success_at(curve: list[dict[str, float]], key: str, x: float, value: str = "test_success") -> float:
    """`value` (test success; a curve per level also holds `<split>_success`) of the last evaluation at or before `x`
    (in `key` units: time_s, env_steps, episodes) that has it."""  # noqa: D205, D209
    before = [p for p in curve if p.get(key, 0) <= x and value in p]
    return before[-1][value] if before else math.nan


def fraction_above(curve: list[dict[str, float]], level: float, start_s: float, end_s: float) -> float:
    """Fraction of evaluations in [start_s, end_s) whose test success is >= `level` (the paper's Fig. b measure)."""
    points = [p for p in curve if start_s <= p["time_s"] < end_s]
    return sum(p["test_success"] >= level for p in points) / len(points) if points else 0.0


def pairs(summaries: Summaries, a: str, b: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The summaries of runs `a` and `b` over the seeds both have, in seed order."""
    seeds = sorted(summaries[a].keys() & summaries[b].keys())
    return [summaries[a][s] for s in seeds], [summaries[b][s] for s in seeds]


def gap_at_equal(runs_a: list[dict[str, Any]], runs_b: list[dict[str, Any]], key: str) -> float | None:
    """Mean over seeds of test success a - b, each pair read at the `key` (env_steps, episodes, version) both runs
    reached.

    None when no pair of runs has a last evaluation past 0 in `key`.
    """  # noqa: D205
    gaps = gaps_at_equal(runs_a, runs_b, key)
    return float(np.mean(gaps)) if gaps else None


def gaps_at_equal(runs_a: list[dict[str, Any]], runs_b: list[dict[str, Any]], key: str) -> list[float]:
    """Per seed, test success a - b read at the `key` both runs reached (pairs that reached nothing left out)."""
    return [success_at(a["curve"], key, x) - success_at(b["curve"], key, x)
            for a, b in zip(runs_a, runs_b, strict=True)
            if (x := min(a["curve"][-1].get(key, 0), b["curve"][-1].get(key, 0))) > 0]


def paired_rows(summaries: Summaries, baseline: str, value: Callable[[dict[str, Any]], float], scale: float = 100.0,
                ) -> list[list[str]]:
    """One row per run but `baseline`: the paired per-seed difference run - baseline of `value`, with its sample std,
    95% t-interval and verdict (times `scale`)."""  # noqa: D205, D209
    rows = []
    for name in summaries:
        if name == baseline or not summaries[name]:
            continue
        runs, base = pairs(summaries, name, baseline)
        mean, std, low, high = paired_interval([value(r) for r in runs], [value(r) for r in base])
        rows.append([name, str(len(runs)), f"{scale * mean:+.1f}", f"{scale * std:.1f}",
                     f"[{scale * low:+.1f}, {scale * high:+.1f}]", verdict(low, high)])
    return rows


def paired_table(result: Result, summaries: Summaries, baseline: str, figure_prefix: str = "") -> str:
    """Final test success of each run minus `baseline`'s, paired by seed: mean, sample std, 95% t-interval, verdict.

    Adds `{figure_prefix}test_success_minus_a_ride/<run>` (points) to `result`.
    """
    rows = paired_rows(summaries, baseline, lambda r: r["test_success"])
    for row in rows:
        result.add(f"{figure_prefix}test_success_minus_a_ride/{row[0]}", float(row[2]), "points")
    return markdown_table([f"run minus {baseline}, test points, paired by seed", "seeds", "mean", "sample std",
                           "95% interval (t)", "verdict"], rows)


def time_to_table(result: Result, summaries: Summaries, baseline: str, level: float) -> str:
    """Time to `level` test success of each run and of `baseline`, paired by seed: the difference run - baseline in
    seconds over the seeds where both got there, with its sample std, 95% t-interval and verdict, and how many runs of
    each never got there (left out of the difference: a censored time is not a time).

    Adds `time_to_<level>pct_test/<run>` (s, mean over the runs that got there) to `result`, the baseline's over all
    its seeds.
    """  # noqa: D205
    percent = round(100 * level)

    def add_figure(name: str, times: list[float]) -> None:
        if finite := [t for t in times if math.isfinite(t)]:
            result.add(f"time_to_{percent}pct_test/{name}", float(np.mean(finite)), "s", higher_is_better=False)

    add_figure(baseline, [time_to(r["curve"], level) for r in summaries.get(baseline, {}).values()])
    rows = []
    for name in summaries:
        if name == baseline or not summaries[name]:
            continue
        runs, base = pairs(summaries, name, baseline)
        t_run, t_base = ([time_to(r["curve"], level) for r in side] for side in (runs, base))
        both = [(a, b) for a, b in zip(t_run, t_base, strict=True) if math.isfinite(a) and math.isfinite(b)]
        mean, std, low, high = paired_interval([a for a, _ in both], [b for _, b in both])
        rows.append([name, f"{len(both)} of {len(runs)}", _seconds(t_base), _seconds(t_run),
                     f"{mean:+.0f}" if both else "", f"{std:.0f}" if len(both) > 1 else "",
                     f"[{low:+.0f}, {high:+.0f}]" if len(both) > 1 else "", verdict(low, high)])
        add_figure(name, t_run)
    return markdown_table([f"run minus {baseline}, time to {percent}% test (s), paired by seed",
                           "seeds where both got there", baseline, "run", "mean", "sample std", "95% interval (t)",
                           "verdict"], rows)


def by_task_table(start: list[dict[str, float]], summaries: Summaries) -> str:
    """Final test success per template (mean over seeds, %): the warm start, then each run — which tasks RL added."""
    columns = {"warm start": start, **{n: [r["test_success_by_task"] for r in runs.values()]
                                       for n, runs in summaries.items() if runs}}
    templates = sorted({t for per_seed in columns.values() for d in per_seed for t in d})
    rows = [[t.split("/")[-1], *(f"{100 * np.mean([d.get(t, math.nan) for d in per_seed]):.0f}"
                                 for per_seed in columns.values())] for t in templates]
    return markdown_table(["template", *columns], rows)


# -- figures ---------------------------------------------------------------------------------------------------------
BANDED_RUNS = 3
"""Runs of a curve plot drawn with their seed band (the plan's first: the main comparison); the rest as lines."""


def plot_curves(summaries: Summaries, path: Path, title: str,
                axes_spec: Sequence[tuple[str, float, str]] = (("time_s", 1 / 60, "wall-clock (min)"),
                                                                ("env_steps", 1e-3, "env steps collected (thousands)")),
                ) -> Path:
    """Fig. a: test success against each x of `axes_spec` ((curve key, scale, label) per panel), mean ± sample std
    over seeds, each run's evaluations step-held onto a common grid."""  # noqa: D205, D209
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(axes_spec), figsize=(6 * len(axes_spec), 4.2), sharey=True, squeeze=False)
    for ax, (key, scale, label) in zip(axes[0], axes_spec, strict=True):
        draw_curves(ax, summaries, key, scale)
        ax.axhline(60, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(label)
    axes[0][0].set_ylabel(f"test success (%); bands: ± sample std of the first {BANDED_RUNS} runs")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def draw_curves(ax: Any, summaries: Summaries, x_key: str, scale: float, y_key: str = "test_success") -> None:
    """Each run's curve of `y_key` (%) against `x_key` (times `scale`) on `ax`: the mean over seeds, each seed's
    evaluations step-held onto a common grid, the first `BANDED_RUNS` runs with a ± sample std band."""  # noqa: D205, D209
    for name, by_seed in summaries.items():
        runs = list(by_seed.values())
        points = sorted({p.get(x_key, 0) for r in runs for p in r["curve"]})
        if not points:
            continue
        grid = np.array(points, dtype=float)
        curves = []
        for r in runs:
            x = np.array([p.get(x_key, 0) for p in r["curve"]], dtype=float)
            y = np.array([p.get(y_key, math.nan) for p in r["curve"]], dtype=float)
            curves.append(y[np.maximum(0, np.searchsorted(x, grid, side="right") - 1)])
        mean = np.mean(curves, 0)
        std = np.std(curves, 0, ddof=1) if len(curves) > 1 else np.zeros_like(mean)
        is_banded = list(summaries).index(name) < BANDED_RUNS
        ax.plot(grid * scale, 100 * mean, label=name, lw=1.8 if is_banded else 1.1, ls="-" if is_banded else "--")
        if is_banded:  # ten overlapping bands hid every curve: only the main comparison's are drawn
            ax.fill_between(grid * scale, np.clip(100 * (mean - std), 0, 100), np.clip(100 * (mean + std), 0, 100),
                            alpha=0.15)
    ax.set_ylim(0, 100)


def plot_time_above(summaries: Summaries, budget_s: float, path: Path, title: str) -> Path:
    """Fig. b: per run, the fraction of evaluations at or above 60% (left) and 80% (right) test success in each
    third of the budget, mean over seeds with the sample std as error bars."""  # noqa: D205, D209
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n, runs in summaries.items() if runs]
    shares = {level: {name: np.array([[fraction_above(r["curve"], level, budget_s * k / 3, budget_s * (k + 1) / 3)
                                       for k in range(3)] for r in summaries[name].values()])
                      for name in names} for level in (0.6, 0.8)}
    levels = [level for level, by_name in shares.items() if any(v.any() for v in by_name.values())] or [0.6]
    fig, axes = plt.subplots(1, len(levels), figsize=(6 * len(levels), 4.2), sharey=True, squeeze=False)
    width = 0.8 / max(len(names), 1)
    for ax, level in zip(axes[0], levels, strict=True):
        for i, name in enumerate(names):
            per_seed = 100 * shares[level][name]
            mean = per_seed.mean(0)
            std = per_seed.std(0, ddof=1) if len(per_seed) > 1 else np.zeros(3)
            below, above = np.minimum(std, mean), np.minimum(std, 100 - mean)  # a share stays within 0-100%
            ax.bar(np.arange(3) + (i - (len(names) - 1) / 2) * width, mean, width, yerr=np.stack([below, above]),
                   capsize=2, label=name)
        ax.set_xticks(range(3), ["first third", "second third", "last third"])
        ax.set_title(f"evaluations at or above {100 * level:.0f}% test success")
        ax.set_ylim(0, 100)
    axes[0][0].set_ylabel("% of evaluations (± sample std, clipped to 0-100)")
    axes[0][0].legend(fontsize=7)
    if len(levels) < 2:
        title += " (no run reached 80%: that panel is left out)"
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# -- the paper's headline comparison ---------------------------------------------------------------------------------
def ratio_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float]:
    """(geometric mean, low, high) of the per-seed ratios a / b: a t-interval on their logs, exponentiated.

    Pairs where either value is not finite and > 0 are left out; the interval is NaN for fewer than two pairs.

    >>> ratio, low, high = ratio_interval([2.0, 4.0, 3.0], [1.0, 1.0, 1.0])
    >>> round(ratio, 2), round(low, 2), round(high, 2)
    (2.88, 1.21, 6.85)
    """
    logs = [math.log(x / y) for x, y in zip(a, b, strict=True) if 0 < x < math.inf and 0 < y < math.inf]
    mean, _, low, high = paired_interval(logs, [0.0] * len(logs), level)
    return math.exp(mean) if logs else math.nan, math.exp(low), math.exp(high)


def protocol_comparison(result: Result, a_ride: list[dict[str, Any]], digirl: list[dict[str, Any]],
                        budget_s: float, targets: bool) -> str:
    """The paper's headline comparison of A-RIDE (async) with DigiRL (sync), seed-paired, as a table and figures.

    Rows: final test success (difference, points), relative gain, the time at or above 60% test (Fig. b's efficiency,
    a ratio), time to 60% test (speed-up), trajectories collected (ratio), and test success at equal trajectories
    collected. Differences carry a 95% t-interval; ratios a 95% interval on their per-seed logs. `targets` attaches
    the paper's claims (+20% relative, 3x efficiency, 3x sooner to 60%, 2.4x collection), which hold in the paper's
    collection-bound regime, not on the instant phone: each to a `..._lower95` figure, the low end of the interval,
    so that a claim is met only when the seeds show it (the point estimate stands beside it, without a target).
    """
    def claim(name: str, estimate: float, lower95: float, unit: str, value: float) -> None:
        result.add(name, estimate, unit)
        if targets:
            result.add(f"{name}_lower95", lower95, unit, target=value)

    rows = []
    a_test, d_test = [r["test_success"] for r in a_ride], [r["test_success"] for r in digirl]
    mean, std, low, high = paired_interval(a_test, d_test)
    result.add("a_ride_minus_sync_digirl_test_success", 100 * mean, "points")
    rows.append(["final test success (points)", mean_std(a_test), mean_std(d_test), f"{100 * mean:+.1f}",
                 f"[{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high)])
    # a sync round that starts before the deadline ends after it: read both curves at the budget as well
    a_at, d_at = ([success_at(r["curve"], "time_s", budget_s) for r in runs] for runs in (a_ride, digirl))
    mean, _, low, high = paired_interval(a_at, d_at)
    result.add("a_ride_minus_sync_digirl_test_at_budget", 100 * mean, "points")
    rows.append(["test success at the budget (last evaluation within it; points)", mean_std(a_at), mean_std(d_at),
                 f"{100 * mean:+.1f}", f"[{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high)])
    rows.append(["minutes run (a sync round that starts in the budget ends past it)",
                 mean_std([r["minutes"] for r in a_ride], 1.0, 2), mean_std([r["minutes"] for r in digirl], 1.0, 2),
                 "", "", ""])
    if np.mean(d_test) > 0:
        gain = 100 * (np.mean(a_test) / np.mean(d_test) - 1)
        ratio, low, high = ratio_interval(a_test, d_test)
        claim("a_ride_vs_sync_digirl_relative_gain", float(gain), 100 * (low - 1), "%", 20.0)
        rows.append(["relative gain (%)", "", "", f"{gain:+.1f}", f"[{100 * (low - 1):+.1f}, {100 * (high - 1):+.1f}]",
                     verdict(low - 1, high - 1)])
    f_a = [fraction_above(r["curve"], 0.6, 0.0, budget_s) for r in a_ride]
    f_d = [fraction_above(r["curve"], 0.6, 0.0, budget_s) for r in digirl]
    result.add("fraction_of_time_above_60pct/A-RIDE", 100 * float(np.mean(f_a)), "%")
    result.add("fraction_of_time_above_60pct/DigiRL (sync)", 100 * float(np.mean(f_d)), "%")
    ratio, low, high = ratio_interval(f_a, f_d)
    if np.mean(f_d) > 0:  # seeds whose DigiRL run never reached 60% drop out of the interval (a conservative one)
        fig_b = f"{np.mean(f_a) / np.mean(f_d):.2f}x"
        claim("efficiency_vs_sync_digirl", float(np.mean(f_a) / np.mean(f_d)), low, "x", 3.0)
    elif min(f_a) > 0:  # A-RIDE got there in every seed and DigiRL in none: the ratio is unbounded in each seed
        fig_b = "unbounded (DigiRL never there)"
        claim("efficiency_vs_sync_digirl", math.inf, math.inf, "x", 3.0)
    else:  # no claim either way
        fig_b = "n/a (DigiRL never there, nor an A-RIDE run)" if np.mean(f_a) > 0 else "n/a (neither run got there)"
    rows.append(["evaluations at or above 60% (Fig. b, whole budget; ratio)", mean_std(f_a), mean_std(f_d), fig_b,
                 f"[{low:.2f}, {high:.2f}]" if math.isfinite(low) else "",
                 verdict(math.log(low), math.log(high)) if low > 0 else "n/a"])
    t_a, t_d = [time_to(r["curve"], 0.6) for r in a_ride], [time_to(r["curve"], 0.6) for r in digirl]
    # A DigiRL run that never reached 60% is censored at its end: it would have taken longer, so the speed-up computed
    # with its run time is a lower bound. An A-RIDE run that never got there leaves its seed out.
    censored = [math.isinf(d) and math.isfinite(a) for a, d in zip(t_a, t_d, strict=True)]
    t_d_bound = [60 * r["minutes"] if cut else d for r, d, cut in zip(digirl, t_d, censored, strict=True)]
    ratio, low, high = ratio_interval(t_d_bound, t_a)
    if math.isfinite(ratio):
        claim("time_to_60pct_speedup_vs_sync_digirl", ratio, low, "x", 3.0)
    rows.append(["time to 60% test (s; speed-up)", _seconds(t_a), _seconds(t_d),
                 "n/a (a run never reached 60%)" if not math.isfinite(ratio) else
                 f"≥ {ratio:.2f}x ({sum(censored)} DigiRL run(s) never reached 60%: censored at their end)"
                 if any(censored) else f"{ratio:.2f}x",
                 f"[{low:.2f}, {high:.2f}]", verdict(math.log(low), math.log(high)) if low > 0 else "n/a"])
    e_a, e_d = [r["episodes"] for r in a_ride], [r["episodes"] for r in digirl]
    ratio, low, high = ratio_interval(e_a, e_d)
    if math.isfinite(ratio):
        claim("collection_vs_sync_digirl", ratio, low, "x", 2.4)
    rows.append(["trajectories collected (ratio)", mean_std(e_a, 1.0, 0), mean_std(e_d, 1.0, 0),
                 f"{ratio:.2f}x", f"[{low:.2f}, {high:.2f}]",
                 verdict(math.log(low), math.log(high)) if low > 0 else "n/a"])
    if gaps := gaps_at_equal(a_ride, digirl, "episodes"):
        mean, _, low, high = paired_interval(gaps, [0.0] * len(gaps))
        result.add("a_ride_minus_sync_digirl_at_equal_trajectories", 100 * mean, "points")
        rows.append(["test success at equal trajectories collected (points)", "", "", f"{100 * mean:+.1f}",
                     f"[{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high)])
    return markdown_table([f"A-RIDE (async) vs DigiRL (sync), {len(a_ride)} seed-paired runs", "A-RIDE",
                           "DigiRL (sync)", "A-RIDE vs DigiRL", "95% interval", "verdict"], rows)


def _seconds(values: list[float]) -> str:
    """Mean ± sample std of the finite `values` in seconds, with how many runs never got there."""
    finite = [v for v in values if math.isfinite(v)]
    never = len(values) - len(finite)
    return (mean_std(finite, 1.0, 0) if finite else "never") + (f" ({never} never)" if never and finite else "")


CONTRASTS: tuple[tuple[str, str, str], ...] = (
    ("asynchronous system (DigiRL's rule on both)", "DigiRL (async)", "DigiRL (sync)"),
    ("A-RIDE's update rule (both asynchronous)", "A-RIDE (async)", "DigiRL (async)"),
    ("prioritised replay", "A-RIDE (async)", "A-RIDE uniform replay"),
    ("Retrace targets", "A-RIDE (async)", "A-RIDE no Retrace"),
    ("entropy bonus", "A-RIDE (async)", "A-RIDE no entropy"),
    ("no staleness cap", "A-RIDE (async)", "A-RIDE staleness cap 20"),
    ("AReaL's masked behaviour weights (vs truncated)", "A-RIDE masked weights", "A-RIDE truncated weights"),
    ("uncapped behaviour weights (vs truncated)", "A-RIDE uncapped weights", "A-RIDE truncated weights"),
)
"""(ingredient, run with it, run without it): what each ingredient of A-RIDE (async) vs DigiRL (sync) is worth."""


def contrast_table(summaries: Summaries, budget_s: float) -> str | None:
    """Per ingredient of `CONTRASTS` whose two runs both ran: its worth in final test points and in Fig. b's
    evaluations at or above 60% (points of the budget), seed-paired with 95% t-intervals; None if none ran."""  # noqa: D205, D209
    rows = []
    for ingredient, with_it, without in CONTRASTS:
        if not summaries.get(with_it) or not summaries.get(without):
            continue
        a, b = pairs(summaries, with_it, without)
        cells = [ingredient, f"{with_it} − {without}", str(len(a))]
        for value in (lambda r: r["test_success"], lambda r: fraction_above(r["curve"], 0.6, 0.0, budget_s)):
            mean, _, low, high = paired_interval([value(r) for r in a], [value(r) for r in b])
            cells += [f"{100 * mean:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high)]
        rows.append(cells)
    if not rows:
        return None
    return markdown_table(["ingredient", "runs compared", "seeds", "final test points (95% t)", "verdict",
                           "evaluations ≥ 60%, points (95% t)", "verdict"], rows)


# -- the final table -------------------------------------------------------------------------------------------------
def final_table(result: Result, summaries: Summaries, budget_s: float) -> str:
    """Per run, mean over seeds: train/test success (± sample std), time to 50/60/70% test, the share of evaluations
    at or above 60% in each third of the budget (Fig. b), then the regime: trajectories collected, updates, replay
    ratio, the learner's idle fraction and the trajectories dropped as stale.

    Adds `test_success/<run>` (%) and `replay_ratio/<run>` to `result`.
    """  # noqa: D205
    rows = []
    for name, by_seed in summaries.items():
        runs = list(by_seed.values())
        if not runs:
            rows.append([name, "crashed", *[""] * 9])
            continue
        test = np.array([r["test_success"] for r in runs])
        times = []
        for level in (0.5, 0.6, 0.7):
            reached = [t for r in runs if math.isfinite(t := time_to(r["curve"], level))]
            times.append(f"{np.mean(reached):.0f}" + (f" ({len(runs) - len(reached)} never)"
                                                      if len(reached) < len(runs) else "") if reached else "never")
        thirds = [np.mean([fraction_above(r["curve"], 0.6, budget_s * i / 3, budget_s * (i + 1) / 3) for r in runs])
                  for i in range(3)]
        rows.append([name, mean_std([r["train_success"] for r in runs]), mean_std(test), " / ".join(times),
                     " / ".join(f"{100 * f:.0f}%" for f in thirds), *regime_cells(runs)])
        result.add(f"test_success/{name}", 100 * test.mean(), "%")
        result.add(f"replay_ratio/{name}", float(np.mean([replay_ratio(r) for r in runs])), "x")
    return markdown_table(["run", "train success % (mean ± sample std)", "test success %",
                           "time to 50 / 60 / 70% test (s)", "evaluations ≥ 60% (thirds)", *REGIME_HEADERS], rows)


REGIME_HEADERS = ("trajectories collected", "updates", "replay ratio", "learner idle", "dropped stale")
"""The columns of `regime_cells`."""


def regime_cells(runs: list[dict[str, Any]]) -> list[str]:
    """How a rule used its data, mean over `runs` (summaries): trajectories collected, updates, replay ratio
    (`replay_ratio`), the learner's idle fraction, and trajectories dropped unused (`dropped_unused`)."""  # noqa: D205, D209
    return [f"{np.mean([r['episodes'] for r in runs]):.0f}", f"{np.mean([r['updates'] for r in runs]):.0f}",
            f"{np.mean([replay_ratio(r) for r in runs]):.2f}",
            f"{100 * np.mean([r.get('runtime/learner_idle_fraction', 0.0) for r in runs]):.0f}%",
            f"{np.mean([dropped_unused(r) for r in runs]):.0f}"]


def dropped_unused(summary: dict[str, Any]) -> float:
    """Trajectories dropped as stale (by the learner's replay) or beyond a worker's buffer."""
    return summary.get("replay/dropped_stale", 0.0) + summary.get("runtime/dropped_trajectories", 0.0)


def replay_ratio(summary: dict[str, Any]) -> float:
    """Trajectories the learner sampled per trajectory the workers collected (> 1: data reused; < 1: data unused)."""
    return summary.get("replay/sampled", 0.0) / max(summary.get("episodes", 0), 1)


def run_start(summary: dict[str, Any], by_digest: bool) -> str | None:
    """What a run started from: its start weights' digest (`by_digest`), else its first test evaluation at version 0
    (summaries from before the digest); None when it has neither."""  # noqa: D205, D209
    if by_digest:
        return f"weights {summary['start_weights_sha256'][:12]}"
    curve = summary.get("curve") or []
    if curve and curve[0].get("version") == 0:
        return f"first evaluation {100 * curve[0]['test_success']:.0f}%"
    return None


def start_notes(summaries: Summaries, section_starts: dict[int, str] | None = None) -> list[str]:
    """One note per seed whose runs did not all start from the same weights (a kept run cloned on another build of the
    sim or the policy): a difference across those runs mixes in their starts'. Compared by digest where every run of
    the seed has one (and with `section_starts`, seed -> the digest of the warm start this report evaluates), else by
    the first evaluation, which tells different starts apart only when they score differently."""  # noqa: D205, D209
    notes = []
    for seed in sorted({s for by_seed in summaries.values() for s in by_seed}):
        runs = {name: by_seed[seed] for name, by_seed in summaries.items() if seed in by_seed}
        by_digest = all(r.get("start_weights_sha256") for r in runs.values())
        starts: dict[str, list[str]] = {}
        if by_digest and seed in (section_starts or {}):
            starts[f"weights {section_starts[seed][:12]}"] = ["the warm start this report evaluates"]
        for name, summary in runs.items():
            if (start := run_start(summary, by_digest)) is not None:
                starts.setdefault(start, []).append(name)
        if len(starts) > 1:
            groups = "; ".join(f"{', '.join(names)} from {start}" for start, names in starts.items())
            notes.append(f"Seed {seed}'s runs started from different warm starts ({groups}): a paired difference "
                         "across those groups mixes in their starts'; within a group the pairs are exact.")
    return notes


def noise_note(summaries: Summaries, episodes: int) -> str:
    """How noisy one evaluation point is (binomial), to read the paired differences against."""
    rates = [r["test_success"] for runs in summaries.values() for r in runs.values()]
    p = float(np.mean(rates)) if rates else 0.5
    one = evaluation_noise(p, episodes)
    return (f"Evaluation noise: one test evaluation of {episodes} episodes at {100 * p:.0f}% success has a binomial "
            f"sd of {one:.1f} points, {math.sqrt(2) * one:.1f} for the difference of two runs' evaluations; a paired "
            "interval over seeds carries this noise as well as the seeds'. Intervals are Student-t over the per-seed "
            "differences (ratios: over their logs). Verdicts: \"separable\" when the 95% interval excludes 0 (a "
            "ratio's: 1), \"not separable\" when it contains it.")
