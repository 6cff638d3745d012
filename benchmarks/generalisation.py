"""Generalisation on the World suite (issue 50): does RL on phone tasks carry over to instances, templates and apps it
never trained on?

Every run trains on World's train split (`distrl train` through `distrl_agent.runtime.train.train`, the small policy
that copies text from screens and remembers the episode) from the warm start of its seed (behaviour cloning on noisy
expert play, shared by every run of the seed, not counted), and is evaluated greedily on the three levels of
AndroidWorld's protocol: unseen instances (the test split: the train templates with goals never trained on), unseen
templates and unseen apps (`android_gym.tasks.suites.HELD_OUT`). Each evaluation of the learning curve plays all
three (`runtime.eval_splits`), so a curve per level comes with every run.

Runs (`RUNS`): A-RIDE, DigiRL (asynchronous, and its lock-step protocol), PPO and GRPO, each in two regimes
(`REGIMES`): the instant phone (the `training` section's setting) and slow phones behind the emulator latency
preset (the `training-slow` section's: 32 environments, DigiRL's updates per round, no staleness cap), the paper's.

Figures, every one paired by seed with a 95% Student-t interval over the seeds: each run's gain over its warm start
per level (the headline is A-RIDE's; the 2026 AndroidWorld generalisation study's GRPO on a 7B model, +26.1 / +15.7 /
+8.3 points, is the anchor to read it against, not a target), the warm start itself (≤ 40% on unseen instances keeps
headroom), per tier (easy / medium / hard), each run against A-RIDE, and A-RIDE against DigiRL's lock-step protocol
at equal wall-clock on slow phones (the paper's +20% claim, here on unseen instances). Why a rule moves as it does:
each run's learner over its budget (policy entropy, rolling train success, critic loss; `benchmarks.learner_trace`),
first against last, and a figure per regime.

`DISTRL_BENCH_GENERALISATION_RUNS` (names `<run> · <regime>` of `run_names(variants=True)`: `VARIANTS` run only when
named), `..._SEEDS` and `..._MINUTES` shrink the plan (default: 5 rules x 2 regimes x 3 seeds x 10 minutes, about
7 hours with the evaluations, which are played after each run);
`DISTRL_BENCH_GENERALISATION_REUSE=DIR` (an earlier output's `runs_generalisation/`) takes every run that finished
there under the same config, so the section spreads over sessions.
"""  # noqa: D205

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import training, training_slow
from benchmarks.learner_trace import Trace, dynamics_table, plot_dynamics, read_trace
from benchmarks.result import Result, is_tiny, markdown_table
from benchmarks.stats import mean_std, paired_interval, verdict
from benchmarks.training_parts import (
    REGIME_HEADERS,
    Plan,
    Summaries,
    draw_curves,
    pairs,
    plan_from_env,
    ratio_interval,
    regime_cells,
    run_dir_name,
    success_at,
    train_runs,
)
from distrl_agent.config import TrainConfig
from distrl_agent.runtime.collect import evaluate_by_task
from distrl_agent.runtime.train import EVAL_SEEDS

ENV_ID = "android_gym/World-v0"
LEVELS: dict[str, str] = {"test": "unseen instances", "unseen_templates": "unseen templates",
                          "unseen_apps": "unseen apps"}
"""World's split -> the level of generalisation it measures."""
TIERS = ("easy", "medium", "hard")
ANCHOR_POINTS: dict[str, float] = {"test": 26.1, "unseen_templates": 15.7, "unseen_apps": 8.3}
"""The 2026 AndroidWorld generalisation study's gains (GRPO, a 7B model), in points: what to read ours against."""
WARM_START_CEILING = 40.0
"""The warm start's success on unseen instances stays at or under this (%), so that RL has headroom."""
RULES = ("A-RIDE (async)", "DigiRL (sync)", "DigiRL (async)", "PPO (async)", "GRPO (async)")
VARIANTS: dict[str, tuple[str, list[str]]] = {
    "A-RIDE KL 0.1 (async)": ("A-RIDE (async)", ["learner.coefficients.kl_coef=0.1"]),
    "A-RIDE no entropy (async)": ("A-RIDE (async)", ["learner.coefficients.entropy_coef=0"]),
    "A-RIDE advantage only (async)": ("A-RIDE (async)", ["learner.coefficients.entropy_coef=0",
                                                          "learner.coefficients.penalty_coef=0"]),
    "A-RIDE trust region (async)": ("A-RIDE (async)", ["learner.coefficients.trust_region=0.2"]),
}
"""Rules of `RULES` with settings of their own: measured when `DISTRL_BENCH_GENERALISATION_RUNS` names them, not in
the default plan, and compared with A-RIDE like the rules. On World A-RIDE's policy drifts from its clone (entropy
0.34 -> 0.54 nats, train success 34 -> 13%) while DigiRL's holds its entropy (~0.34) and success: A-RIDE held near its
warm start by a KL penalty; A-RIDE without the entropy bonus (a first run climbed as far, 0.28 -> 0.50 nats: not the
bonus); and A-RIDE on its advantages alone, neither the bonus nor the invalid-action penalty (a first run held its
entropy, 0.30 -> 0.31, and fell as far: distrl_agent/ALGORITHM.md, "the paper's regime on World"); and A-RIDE whose
actor stops pushing an action once its ratio to the behaviour policy left [0.8, 1.2] (`trust_region`): its episodes
are replayed 50-60 times with no such bound, and a trust region may let it gain where the KL penalty only holds."""
PAPER_RULE: dict[str, list[str]] = {"A-RIDE (async)": ["learner.coefficients.kl_coef=0"]}
"""Settings that keep a rule the paper's where World's defaults differ (`SUITE_COEFFICIENTS`: A-RIDE's KL penalty,
measured here as "A-RIDE KL 0.1 (async)"); a variant's own settings come after and win."""
REGIMES = ("instant", "emulator")
BASELINE = "A-RIDE (async)"
QUICK_MINUTES = 1.0
QUICK_OVERRIDES = ["runtime.warm_start_episodes=100", "runtime.warm_start_updates=300"]
"""The quick plan's warm start (World's is 4,000 episodes and 4,000 updates: 8 minutes): a code-path check only."""
TINY_OVERRIDES = ["runtime.warm_start_episodes=4", "runtime.warm_start_updates=4", "runtime.eval_episodes=4",
                  "runtime.eval_every_s=2"]
"""Tiny mode (`DISTRL_BENCH_TINY`): on top of each regime's tiny settings, a 4-episode warm start and evaluations of
4 episodes per split (one per template at most: a code-path check)."""


def run_name(rule: str, regime: str) -> str:
    """The name of `rule` trained in `regime` (a plan entry, a table row)."""
    return f"{rule} · {regime}"


def run_names(variants: bool = False) -> tuple[str, ...]:
    """Every run of the default plan, regime by regime; with `variants`, the `VARIANTS` too (runs one may name)."""
    rules = (*RULES, *VARIANTS) if variants else RULES
    return tuple(run_name(rule, regime) for regime in REGIMES for rule in rules)


def plan(quick: bool) -> Plan:
    """The runs, seeds and minutes, after the DISTRL_BENCH_GENERALISATION_* environment variables."""
    quick_runs = (run_name(BASELINE, "instant"), run_name("DigiRL (sync)", "instant"))
    default = Plan(quick_runs if quick or is_tiny() else run_names(), (0,) if quick else (0, 1) if is_tiny()
                   else (0, 1, 2), 0.1 if is_tiny() else QUICK_MINUTES if quick else 10.0)
    return plan_from_env("DISTRL_BENCH_GENERALISATION", run_names(variants=True), default)


def run_config(name: str, seed: int, minutes: float, out: Path, quick: bool) -> list[str]:
    """The overrides of run `name` (`run_name`; empty: the shared warm start of `seed`, in the instant setting).

    The regime's section builds the setting (`training.run_config` or `training_slow.run_config`); then A-RIDE kept
    the paper's rule (`PAPER_RULE`), the variant's own settings, World, the
    run's folder, an evaluation of every level about 8 times a run, played after the run (`runtime.eval_deferred`:
    inline, World's 300 episodes a point would take a third of the learner's 10 minutes, and the workers of DigiRL's
    sync rounds would wait for them while asynchronous ones kept collecting), and tiny mode's settings last.
    """
    rule, _, regime = name.partition(" · ")
    base, own = VARIANTS.get(rule, (rule, []))
    regime_config = training_slow.run_config if regime == "emulator" else training.run_config
    episodes = 20 if quick else 100
    overrides = [*regime_config(base, seed, minutes, out, quick), *PAPER_RULE.get(base, []), *own,
                 f"env.env_id={ENV_ID}",
                 f"run_dir={run_folder(name, seed, out)}",
                 f"runtime.eval_splits=[{','.join(LEVELS)}]", f"runtime.eval_every_s={max(30.0, minutes * 60 / 8)}",
                 f"runtime.eval_episodes={episodes}", "runtime.eval_deferred=true"]
    return overrides + (TINY_OVERRIDES if is_tiny() else QUICK_OVERRIDES if quick else [])


def run_folder(name: str, seed: int, out: Path) -> Path:
    """Where run `name` (`run_name`; empty: the seed's warm start) of `seed` trains, under the output `out`."""
    return out / "runs_generalisation" / run_dir_name(name.replace(" · ", " "), seed)


# -- the warm start's figures ----------------------------------------------------------------------------------------
def evaluate_levels(config: TrainConfig, weights: dict[str, Any]) -> dict[str, tuple[float, dict[str, float]]]:
    """Per level's split: (success, success per template) of `weights`, as a run's final evaluation plays it."""
    episodes = config.runtime.eval_episodes
    return {split: evaluate_by_task(config, weights, 0, split, episodes, EVAL_SEEDS[split]) for split in LEVELS}


def final_levels(summary: dict[str, Any]) -> dict[str, tuple[float, dict[str, float]]]:
    """A run's final evaluation in `evaluate_levels`' shape."""
    return {split: (summary[f"{split}_success"], summary[f"{split}_success_by_task"]) for split in LEVELS}


def tier_means(by_task: dict[str, float]) -> dict[str, float]:
    """Per tier, the mean success of its templates (NaN for a tier with none evaluated)."""
    from android_gym.tasks.suites import templates

    tier_of = {f"world/{t.name}": t.tier for t in templates("world")}
    return {tier: float(np.mean(rates)) if (rates := [r for name, r in by_task.items() if tier_of.get(name) == tier])
            else math.nan for tier in TIERS}


# -- tables ----------------------------------------------------------------------------------------------------------
def gains_table(result: Result, summaries: Summaries, starts: list[dict[str, tuple[float, dict[str, float]]]],
                seeds: tuple[int, ...]) -> str:
    """Each run's final success minus its seed's warm start, per level: mean ± sample std, 95% t-interval, verdict.

    Adds `gain_over_warm_start/<run>/<level split>` (points), and for A-RIDE's runs (the paper's rule and its
    variants, World's default among them) the low end of its interval (`gain_over_warm_start_lower95/...`: the gain
    the seeds show).
    """
    start_of = dict(zip(seeds, starts, strict=True))
    rows = []
    for name, by_seed in summaries.items():
        if not by_seed:
            continue
        for split, level in LEVELS.items():
            final = [by_seed[s][f"{split}_success"] for s in sorted(by_seed)]
            start = [start_of[s][split][0] for s in sorted(by_seed)]
            mean, std, low, high = paired_interval(final, start)
            result.add(f"gain_over_warm_start/{name}/{split}", 100 * mean, "points")
            if name.startswith("A-RIDE ") and math.isfinite(low):  # the headline, as the seeds bound it
                result.add(f"gain_over_warm_start_lower95/{name}/{split}", 100 * low, "points")
            rows.append([name, level, str(len(final)), mean_std(start), mean_std(final), f"{100 * mean:+.1f}",
                         f"{100 * std:.1f}", f"[{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high),
                         f"+{ANCHOR_POINTS[split]}"])
    return markdown_table(["run", "level", "seeds", "warm start %", "final %", "gain (points)", "sample std",
                           "95% interval (t)", "verdict", "anchor (GRPO, 7B)"], rows)


def warm_start_table(result: Result, starts: list[dict[str, tuple[float, dict[str, float]]]]) -> str:
    """The warm start per level and tier (mean ± sample std over seeds); its unseen-instance figure carries the
    headroom ceiling."""  # noqa: D205, D209
    rows = []
    for split, level in LEVELS.items():
        overall = [s[split][0] for s in starts]
        tiers = [tier_means(s[split][1]) for s in starts]
        result.add(f"warm_start/{split}", 100 * float(np.mean(overall)), "%",
                   target=WARM_START_CEILING if split == "test" else None, higher_is_better=False)
        rows.append([level, mean_std(overall), *(mean_std([t[tier] for t in tiers]) for tier in TIERS)])
    return markdown_table(["warm start (behaviour cloning, no RL)", "success % (mean ± sample std over seeds)",
                           *(f"{tier} templates" for tier in TIERS)], rows)


def data_table(summaries: Summaries) -> str | None:
    """How each run used its data (`regime_cells`, mean over seeds): on World a rule's result follows how often it
    replays its few long episodes. None when no run finished."""  # noqa: D205, D209
    rows = [[name, str(len(by_seed)), *regime_cells(list(by_seed.values()))]
            for name, by_seed in summaries.items() if by_seed]
    return markdown_table(["run: its data, mean over seeds", "seeds", *REGIME_HEADERS], rows) if rows else None


def tier_table(summaries: Summaries, starts: list[dict[str, tuple[float, dict[str, float]]]]) -> str:
    """Final success per level and tier, each run and the warm start (mean over seeds of the tier's template mean)."""
    columns: dict[str, list[dict[str, tuple[float, dict[str, float]]]]] = {"warm start": starts}
    columns.update({name: [final_levels(r) for r in by_seed.values()] for name, by_seed in summaries.items()
                    if by_seed})
    rows = []
    for name, per_seed in columns.items():
        cells = [name]
        for split in LEVELS:
            tiers = [tier_means(levels[split][1]) for levels in per_seed]
            cells.append(" / ".join(f"{100 * np.nanmean([t[tier] for t in tiers]):.0f}"
                                    if any(not math.isnan(t[tier]) for t in tiers) else "–" for tier in TIERS))
        rows.append(cells)
    return markdown_table(["run: success % per tier (easy / medium / hard)", *LEVELS.values()], rows)


def versus_baseline_table(result: Result, summaries: Summaries, regime: str) -> str | None:
    """Each rule minus A-RIDE in `regime`, per level, paired by seed (final success, points); None without A-RIDE."""
    baseline = run_name(BASELINE, regime)
    if not summaries.get(baseline):
        return None
    rows = []
    for rule in (*RULES, *VARIANTS):
        name = run_name(rule, regime)
        if rule == BASELINE or not summaries.get(name):
            continue
        runs, base = pairs(summaries, name, baseline)
        cells = [rule, str(len(runs))]
        for split in LEVELS:
            mean, _, low, high = paired_interval([r[f"{split}_success"] for r in runs],
                                                 [r[f"{split}_success"] for r in base])
            result.add(f"minus_a_ride/{regime}/{rule}/{split}", 100 * mean, "points")
            cells += [f"{100 * mean:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]", verdict(low, high)]
        rows.append(cells)
    if not rows:
        return None
    return markdown_table([f"{regime}: rule minus A-RIDE, final points (95% t)", "seeds",
                           *(cell for level in LEVELS.values() for cell in (level, "verdict"))], rows)


def lock_step_comparison(result: Result, summaries: Summaries, budget_s: float) -> str | None:
    """A-RIDE against DigiRL's lock-step protocol on slow phones at equal wall-clock: each level's success at the
    budget (the last evaluation within it), the difference and the relative gain, paired by seed."""  # noqa: D205, D209
    a_name, d_name = run_name(BASELINE, "emulator"), run_name("DigiRL (sync)", "emulator")
    if not summaries.get(a_name) or not summaries.get(d_name):
        return None
    a_runs, d_runs = pairs(summaries, a_name, d_name)
    rows = []
    for split, level in LEVELS.items():
        a_at = [success_at_level(r, split, budget_s) for r in a_runs]
        d_at = [success_at_level(r, split, budget_s) for r in d_runs]
        mean, _, low, high = paired_interval(a_at, d_at)
        ratio, r_low, r_high = ratio_interval(a_at, d_at)
        gain = f"{100 * (ratio - 1):+.0f}% [{100 * (r_low - 1):+.0f}, {100 * (r_high - 1):+.0f}]" \
            if math.isfinite(ratio) else "n/a (a run at 0)"
        result.add(f"a_ride_minus_lock_step_digirl_at_budget/{split}", 100 * mean, "points")
        if split == "test" and math.isfinite(ratio):
            result.add("a_ride_vs_lock_step_digirl_relative_gain/test", 100 * (ratio - 1), "%")
            if r_low > 0 and math.isfinite(r_low):  # the headline, as the seeds bound it
                result.add("a_ride_vs_lock_step_digirl_relative_gain_lower95/test", 100 * (r_low - 1), "%")
        rows.append([level, mean_std(a_at), mean_std(d_at), f"{100 * mean:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]",
                     verdict(low, high), gain,
                     verdict(math.log(r_low), math.log(r_high)) if r_low > 0 and math.isfinite(r_high) else "n/a"])
    return markdown_table([f"slow phones, at {budget_s / 60:g} min: {len(a_runs)} seed-paired runs", "A-RIDE %",
                           "DigiRL (lock-step) %", "difference, points (95% t)", "verdict",
                           "relative gain (95%, over log-ratios)", "verdict"], rows)


def success_at_level(summary: dict[str, Any], split: str, budget_s: float) -> float:
    """`split`'s success at `budget_s` seconds: the final evaluation of a run that ended within the budget (1%
    tolerance), else the last evaluation of its curve within it (the final one when none is)."""  # noqa: D205, D209
    if summary.get("minutes", math.inf) * 60 <= budget_s * 1.01:
        return summary[f"{split}_success"]
    value = success_at(summary["curve"], "time_s", budget_s, f"{split}_success")
    return summary[f"{split}_success"] if math.isnan(value) else value


def learner_trace(result: Result, run_dir: Path) -> Trace | None:
    """The run's `read_trace`; None, with a note naming the file, when its metrics cannot be read (a torn line)."""
    try:
        return read_trace(run_dir)
    except ValueError as e:
        result.notes.append(f"No learner trace for {run_dir.name}: {e}.")
        return None


def plot_levels(summaries: Summaries, regime: str, path: Path) -> Path:
    """Learning curves of `regime`'s runs, one panel per level: success against wall-clock, mean ± sample std."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = {name.partition(" · ")[0]: by_seed for name, by_seed in summaries.items()
              if name.endswith(f" · {regime}") and by_seed}
    fig, axes = plt.subplots(1, len(LEVELS), figsize=(5.5 * len(LEVELS), 4.2), sharey=True, squeeze=False)
    for ax, (split, level) in zip(axes[0], LEVELS.items(), strict=True):
        draw_curves(ax, chosen, "time_s", 1 / 60, f"{split}_success")
        ax.set_title(level)
        ax.set_xlabel("wall-clock (min)")
    # World's rates sit under 40%: on a 0-100 axis every curve lay flat along the bottom, so the axis ends at the data
    top = max((ax.dataLim.y1 for ax in axes[0] if ax.has_data()), default=100.0)
    axes[0][0].set_ylim(0, min(100.0, 10 * math.ceil(max(top, 1.0) * 1.15 / 10)))
    axes[0][0].set_ylabel("greedy success (%); bands: ± sample std")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"World suite, small policy, {regime} phone: learning curves per level of generalisation")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def run(quick: bool, out: Path) -> Result:
    """Train the plan's runs on World's train split and evaluate every level; see the module docstring."""
    p = plan(quick)
    overrides: Callable[[str, int], list[str]] = lambda name, seed: run_config(name, seed, p.minutes, out, quick)  # noqa: E731
    result = Result(config={"runs": list(p.runs), "seeds": list(p.seeds), "minutes": p.minutes, "suite": "world",
                            "policy": "small", "levels": list(LEVELS), "tiny_overrides": TINY_OVERRIDES if is_tiny()
                            else []})
    summaries, starts = train_runs(p, overrides, result, "DISTRL_BENCH_GENERALISATION_REUSE", evaluate_levels)
    result.tables.append(warm_start_table(result, starts))
    result.tables.append(gains_table(result, summaries, starts, p.seeds))
    traces = {name: [learner_trace(result, run_folder(name, seed, out)) for seed in runs]
              for name, runs in summaries.items()}
    for regime in REGIMES:
        if (table := versus_baseline_table(result, summaries, regime)) is not None:
            result.tables.append(table)
        if any(name.endswith(f" · {regime}") and runs for name, runs in summaries.items()):
            result.plots.append(str(plot_levels(summaries, regime, out / f"generalisation_{regime}.png")))
        if any(name.endswith(f" · {regime}") and any(runs) for name, runs in traces.items()):
            result.plots.append(str(plot_dynamics(
                {name.partition(" · ")[0]: runs for name, runs in traces.items() if name.endswith(f" · {regime}")},
                out / f"generalisation_learner_{regime}.png",
                f"World suite, small policy, {regime} phone: the learner over the budget (mean over seeds)")))
    if (table := dynamics_table(traces)) is not None:
        result.tables.append(table)
    if (table := data_table(summaries)) is not None:
        result.tables.append(table)
    if (table := lock_step_comparison(result, summaries, p.minutes * 60)) is not None:
        result.tables.append(table)
    result.tables.append(tier_table(summaries, starts))
    episodes = 20 if quick else 100
    result.notes.append(f"Each run: {p.minutes:g} min of RL on World's train split after the warm start of its seed "
                        f"(shared by every run of the seed, not counted); greedy evaluations of {episodes} episodes "
                        "per level, spread evenly over the level's templates, the same episodes at every evaluation. "
                        "Intervals are Student-t over the per-seed differences (relative gains: over their logs); "
                        "\"not separable\" when the 95% interval contains 0. A tier's figure is the mean of its "
                        "templates' success rates.")
    return result
