"""Training on slow devices: the paper's regime, where collection, not the learner, bounds learning.

The sim `general` suite behind the `emulator` latency preset (steps ~1.5 s median with a heavy tail, resets ~12 s) at
its real time scale, 32 environments in one process each, one worker, the small policy on the local runtime; each run
a real `distrl train` with the same wall-clock budget from the warm start of its seed (shared with every run of that
seed, not counted). Reproduces the paper's Fig. a (test success vs wall-clock and vs trajectories collected), Fig. b
(share of evaluations at or above 60% / 80% in each third of the budget), the final table, time to 50/60/70%, and the
policy lag of the data the learner trained on.

Runs (`RUNS`): A-RIDE (asynchronous); DigiRL's protocol (lock-step rounds of one episode per environment, the learner
idle while a round is collected, then its updates, then the new weights); DigiRL's rule on the asynchronous runtime
(the system's gain apart from the rule's); A-RIDE's ablations; the staleness cap of the instant regime; A-RIDE's
entropy bonus paid on every draw of a trajectory (the rule before `entropy_per_draw`); PPO and GRPO; A-RIDE under
the instant phone's data bounds, and with the behaviour weights of AReaL (masked above 5) and of the uncapped
decoupled objective.
Rules fixed before any result was seen:
- DigiRL's updates per round follow its released configuration: `actor_epochs: 20` actor steps per
  `rollout_size: 16` trajectories (DigiRL `scripts/config/main/default.yaml`), 1.25 steps per trajectory, so a round
  of 32 trajectories is followed by 40 updates.
- No staleness cap (`learner.max_staleness` beyond any run's updates), as in the paper, whose off-policy correction
  is Retrace and the importance weights: at ~1 update/s and ~25 s episodes, the instant regime's cap of 20 versions
  would drop nearly every trajectory on arrival. "A-RIDE staleness cap 20" measures what that cap costs here.
- Real time scale (1.0). A run is collection-bound when the learner trains on what is collected several times over
  and drops almost none of it: replay ratio (trajectories sampled per trajectory collected) > 2 and < 10% of the
  collected trajectories dropped unused (stale, or beyond a worker's buffer). On the instant phone the learner samples
  each trajectory about once and ~97% are dropped unused: learner-bound.

`DISTRL_BENCH_SLOW_RUNS`, `DISTRL_BENCH_SLOW_SEEDS` and `DISTRL_BENCH_SLOW_MINUTES` shrink the suite (default: 14 runs
x 3 seeds x 10 min, about 8 hours); `DISTRL_BENCH_SLOW_REUSE=DIR` (an earlier output's `runs_slow/`) takes every run
that finished there under the same config, so a suite spreads over sessions.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.keep import UNBOUNDED
from benchmarks.result import Result, is_tiny
from benchmarks.training import RUNS as INSTANT_RUNS
from benchmarks.training_parts import (
    Plan,
    Summaries,
    by_task_table,
    contrast_table,
    dropped_unused,
    final_table,
    noise_note,
    paired_table,
    pairs,
    plan_from_env,
    plot_curves,
    plot_time_above,
    protocol_comparison,
    replay_ratio,
    run_dir_name,
    train_runs,
)
from distrl_agent.runtime.lag import LAG_KEYS

ENVS = 32
"""Environments, one process each, as the paper's 32 emulators."""
TIME_SCALE = 1.0
"""The emulator preset's delays as they are (tiny mode: 0.01)."""
DIGIRL_STEPS_PER_TRAJECTORY = 20 / 16
"""DigiRL's released config: `actor_epochs: 20` per `rollout_size: 16` trajectories collected."""
NO_CAP = 1_000_000
"""`learner.max_staleness` above any run's update count: no trajectory is dropped for its age (the paper's setting)."""
MASK_CAP = 5.0
"""The behaviour ratio above which "A-RIDE masked weights" drops a step (AReaL's `behav_imp_weight_cap` in its
examples; its default, None, is the uncapped weight)."""

RUNS: dict[str, list[str]] = {
    **{name: INSTANT_RUNS[name] for name in ("A-RIDE (async)", "DigiRL (sync)", "DigiRL (async)",
                                             "A-RIDE uniform replay", "A-RIDE no Retrace", "A-RIDE no entropy")},
    "A-RIDE staleness cap 20": [*INSTANT_RUNS["A-RIDE (async)"], "learner.max_staleness=20"],
    **{name: INSTANT_RUNS[name] for name in ("A-RIDE plain entropy bonus", "PPO (async)", "GRPO (async)")},
    # the instant phone's default bounds (issue 45) on slow phones: they starve the learner here (docs/TRAINING.md)
    "A-RIDE bounded staleness": [*INSTANT_RUNS["A-RIDE (async)"], "runtime.max_offpolicyness=3",
                                 "learner.max_samples_per_insert=4", "learner.max_times_sampled=4"],
    # the behaviour weights of the 2025 systems (ALGORITHM.md): where data lags most, as AReaL masks (its examples'
    # cap of 5) and as the decoupled objective is written, against the paper's truncation at 1. "A-RIDE truncated
    # weights" is A-RIDE (async) made beside them, from the same warm starts: the kept A-RIDE (async) runs started from
    # clones of an earlier build (the sim's dumps changed since, and with them the clones: `start_notes`)
    "A-RIDE truncated weights": [*INSTANT_RUNS["A-RIDE (async)"], "learner.coefficients.behaviour_weight=truncate"],
    "A-RIDE masked weights": [*INSTANT_RUNS["A-RIDE (async)"], "learner.coefficients.behaviour_weight=mask",
                              f"learner.coefficients.rho_bar_max={MASK_CAP}"],
    "A-RIDE uncapped weights": [*INSTANT_RUNS["A-RIDE (async)"], "learner.coefficients.behaviour_weight=uncapped"],
}
"""name -> config overrides on top of the slow-device setting (`run_config`, which turns the data bounds off, as the
paper runs): the instant section's runs but Filtered BC, the instant regime's staleness cap as a run of its own, A-RIDE
with the entropy bonus paid in full on every draw of a trajectory (as before `entropy_per_draw`; ALGORITHM.md, item
9), A-RIDE under the instant phone's default bounds, and A-RIDE with AReaL's masked and with uncapped behaviour
weights."""
QUICK_RUNS = ("A-RIDE (async)", "DigiRL (sync)")
QUICK_MINUTES = 0.5
"""The quick suite's runs: 30 s each, so that the section keeps its budget (benchmarks/run.py: QUICK_BUDGET_S)."""
BASELINE = "A-RIDE (async)"
TINY_OVERRIDES = ["runtime.warm_start_episodes=5", "runtime.warm_start_updates=5", "runtime.eval_episodes=2",
                  "learner.batch_size=4", "learner.min_replay_trajectories=4", "runtime.max_env_steps=60"]
"""Tiny mode (`DISTRL_BENCH_TINY`): 2 envs at 1% of the emulator delays, 5-episode warm start, batches of 4, each run
ending after 60 env steps (within its 12 s), so that both protocols collect and train however slow the machine."""


def plan(quick: bool) -> Plan:
    """The runs, seeds and minutes of this suite, after the DISTRL_BENCH_SLOW_* environment variables."""
    default = Plan(QUICK_RUNS if quick else tuple(RUNS), (0,) if quick else (0, 1, 2),
                   0.2 if is_tiny() else QUICK_MINUTES if quick else 10.0)
    return plan_from_env("DISTRL_BENCH_SLOW", tuple(RUNS), default)


def run_config(name: str, seed: int, minutes: float, out: Path, quick: bool) -> list[str]:
    """The overrides of run `name` (empty name: the shared warm start of `seed`): the slow-device setting, then the
    run's own overrides, then tiny mode's."""  # noqa: D205, D209
    envs, scale = (2, 0.01) if is_tiny() else (ENVS, TIME_SCALE)
    updates_per_round = math.ceil(envs * DIGIRL_STEPS_PER_TRAJECTORY) if "runtime.sync=true" in RUNS.get(name, []) \
        else 4
    overrides = ["env.latency=emulator", f"env.latency_time_scale={scale}", "runtime.workers=1",
                 f"runtime.envs_per_worker={envs}", f"runtime.episodes_per_round={envs}",
                 f"learner.updates_per_round={updates_per_round}", f"learner.max_staleness={NO_CAP}", *UNBOUNDED,
                 *RUNS.get(name, []), f"runtime.minutes={minutes}", f"runtime.seed={seed}",
                 f"run_dir={out / 'runs_slow' / run_dir_name(name, seed)}",
                 f"runtime.eval_every_s={max(15.0, minutes * 60 / 12)}",
                 f"runtime.eval_episodes={30 if quick else 100}"]
    return overrides + TINY_OVERRIDES if is_tiny() else overrides


def run(quick: bool, out: Path) -> Result:
    """Train every run of the plan at emulator speed; `quick`: A-RIDE and sync DigiRL, 30 seconds, one seed."""
    p = plan(quick)
    episodes = 30 if quick else 100
    result = Result(config={"runs": list(p.runs), "seeds": list(p.seeds), "minutes": p.minutes, "suite": "general",
                            "policy": "small", "envs": 2 if is_tiny() else ENVS, "latency": "emulator",
                            "time_scale": 0.01 if is_tiny() else TIME_SCALE, "eval_episodes": episodes,
                            "digirl_updates_per_trajectory": DIGIRL_STEPS_PER_TRAJECTORY,
                            "tiny_overrides": TINY_OVERRIDES if is_tiny() else []})
    summaries, start_by_task = train_runs(p, lambda name, seed: run_config(name, seed, p.minutes, out, quick),
                                          result, "DISTRL_BENCH_SLOW_REUSE")
    budget = p.minutes * 60
    result.tables.append(final_table(result, summaries, budget))
    if summaries.get(BASELINE) and summaries.get("DigiRL (sync)"):
        result.tables.append(protocol_comparison(result, *pairs(summaries, BASELINE, "DigiRL (sync)"), budget,
                                                 targets=True))
    if summaries.get(BASELINE) and len(p.seeds) > 1:
        result.tables.append(paired_table(result, summaries, BASELINE))
        result.notes.append(noise_note(summaries, episodes))
    if (contrasts := contrast_table(summaries, budget)) is not None:
        result.tables.append(contrasts)
    result.tables.append(by_task_table(start_by_task, summaries))
    result.notes.append(regime_note(summaries))
    title = f"Sim `general` suite behind the emulator preset, {result.config['envs']} envs, small policy"
    result.plots += [
        str(plot_curves(summaries, out / "training_slow_curves.png", f"{title} (mean ± sample std over seeds)",
                        (("time_s", 1 / 60, "wall-clock (min)"), ("episodes", 1.0, "trajectories collected")))),
        str(plot_time_above(summaries, budget, out / "training_slow_time_above.png", title)),
        str(plot_lag(summaries, out / "training_slow_policy_lag.png")),
    ]
    result.notes.append(f"Each run: {p.minutes} min wall-clock after the warm start of its seed; test-split success "
                        f"of the greedy policy over {episodes} episodes, evaluated in the learner's process on the "
                        "instant phone (latency changes timing, not outcomes) every "
                        f"{max(15.0, budget / 12):.0f} s.")
    return result


def is_collection_bound(summary: dict[str, Any]) -> bool:
    """The stated rule: replay ratio > 2 and fewer than 10% of the collected trajectories dropped unused."""
    return replay_ratio(summary) > 2 and dropped_fraction(summary) < 0.1


def dropped_fraction(summary: dict[str, Any]) -> float:
    """The share of collected trajectories never trained on: dropped as stale, or beyond a worker's buffer."""
    return dropped_unused(summary) / max(summary.get("episodes", 0), 1)


def regime_note(summaries: Summaries) -> str:
    """Which runs were collection-bound by the stated rule (`is_collection_bound`), in numbers."""
    runs = [r for by_seed in summaries.values() for r in by_seed.values()]
    if not runs:
        return "No run finished, so the regime is not measured."
    ratios, dropped = [replay_ratio(r) for r in runs], [dropped_fraction(r) for r in runs]
    bound = sum(is_collection_bound(r) for r in runs)
    return (f"Regime: the learner sampled {min(ratios):.1f}-{max(ratios):.1f} trajectories per trajectory collected "
            f"and {100 * min(dropped):.0f}-{100 * max(dropped):.0f}% of the collected trajectories were dropped "
            f"unused; {bound} of {len(runs)} runs are collection-bound by the stated rule (replay ratio > 2, < 10% "
            "dropped: more data, not more updates, is what they lack).")


def lag_fractions(runs: list[dict[str, Any]]) -> np.ndarray:
    """The share of trained-on steps in each policy-lag bin (`LAG_KEYS`), pooled over `runs`."""
    counts = np.array([sum(r.get(key, 0) for r in runs) for key in LAG_KEYS], float)
    return counts / counts.sum() if counts.sum() else counts


def plot_lag(summaries: Summaries, path: Path) -> Path:
    """Histogram of the policy lag (versions behind the learner) of every step each run trained on."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n, runs in summaries.items() if runs]
    fig, ax = plt.subplots(figsize=(11, 4.2))
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        ax.bar(np.arange(len(LAG_KEYS)) + (i - (len(names) - 1) / 2) * width,
               100 * lag_fractions(list(summaries[name].values())), width, label=name)
    ax.set_xticks(range(len(LAG_KEYS)), [key.rsplit("/", 1)[1] for key in LAG_KEYS])
    ax.set_xlabel("policy lag of a trained-on step (learner versions behind)")
    ax.set_ylabel("% of trained-on steps")
    ax.legend(fontsize=7)
    ax.set_title("Policy lag of the data each run trained on (pooled over seeds)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
