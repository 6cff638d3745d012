"""Training on the instant phone: success vs wall-clock for A-RIDE (async), its ablations, DigiRL (async, sync),
Filtered BC, PPO and GRPO, in a learner-bound regime (the workers collect more than the learner can train on).

Reproduces the paper's Fig. a (success vs time), Fig. b (fraction of time above 60%/80% in three windows) and the
final table (train/test success, mean ± sample std over seeds), all on the simulated `general` suite with the small
policy, each run a real `distrl train` through `distrl_agent.runtime.train.train` with the same budget, and all runs of
one seed start from the same warm-started policy (behaviour cloning on noisy expert demonstrations, computed once per
seed and not counted in the budget), so that runs differ only in what they are compared on. Every run is paired with
A-RIDE seed by seed; the paper's claims are measured in the collection-bound regime of `benchmarks.training_slow`.

The full suite (11 runs x 3 seeds x 20 min) takes about 11.5 hours on 2 cores; `DISTRL_BENCH_TRAINING_MINUTES`,
`DISTRL_BENCH_TRAINING_SEEDS` and `DISTRL_BENCH_TRAINING_RUNS` (comma-separated names of RUNS) shrink it, and the
report's config records what ran. `DISTRL_BENCH_TRAINING_REUSE=DIR` (the `runs/` folder of an earlier output) takes
each run that finished there under the very same config instead of training it again (copied into this output), so an
interrupted or partly invalid suite re-runs only what is missing. `DISTRL_BENCH_EVAL_TASK_FILE=general_test.txt`
also evaluates every final policy on the lines of that goal list the goal parser covers (the paper's test list, when
a user supplies it), beside the suite's own test split.
"""  # noqa: D205

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.keep import UNBOUNDED
from benchmarks.result import Result, is_tiny
from benchmarks.training_parts import (
    TASK_FILE_ENV,
    Plan,
    by_task_table,
    contrast_table,
    final_table,
    gap_at_equal,
    noise_note,
    paired_table,
    pairs,
    plan_from_env,
    plot_curves,
    protocol_comparison,
    run_dir_name,
    task_file_table,
    time_to_table,
    train_runs,
)

# name -> config overrides. "DigiRL (sync)" is DigiRL's protocol and update; "async DigiRL" separates system gains
# from algorithm gains; the ablations remove one A-RIDE ingredient each; "plain entropy bonus" pays the bonus in full on
# every draw of a trajectory (the rule before `entropy_per_draw`); "unbounded" turns off the data bounds that are the
# defaults since issue 45 (producer-side admission, draws per insert and per trajectory), as the paper runs.
RUNS: dict[str, list[str]] = {
    "A-RIDE (async)": ["learner.algorithm=a-ride"],
    "DigiRL (sync)": ["learner.algorithm=digirl", "runtime.sync=true"],
    "DigiRL (async)": ["learner.algorithm=digirl"],
    "Filtered BC (async)": ["learner.algorithm=filtered-bc"],
    "A-RIDE uniform replay": ["learner.algorithm=a-ride-uniform"],
    "A-RIDE no Retrace": ["learner.algorithm=a-ride-no-retrace"],
    "A-RIDE no entropy": ["learner.algorithm=a-ride-no-entropy"],
    "A-RIDE plain entropy bonus": ["learner.algorithm=a-ride", "learner.coefficients.entropy_per_draw=false"],
    "PPO (async)": ["learner.algorithm=ppo"],
    "GRPO (async)": ["learner.algorithm=grpo"],
    # before issue 45's defaults: workers never wait, the learner draws as fast as it can, the staleness cap drops
    "A-RIDE unbounded": ["learner.algorithm=a-ride", *UNBOUNDED],
}
QUICK_RUNS = ("A-RIDE (async)", "DigiRL (sync)")
QUICK_MINUTES = 0.6
"""The quick suite's runs: 36 s each, so that the section keeps its budget (benchmarks/run.py: QUICK_BUDGET_S)."""
TINY_OVERRIDES = ["runtime.minutes=0.05", "runtime.warm_start_episodes=5", "runtime.warm_start_updates=5",
                  "runtime.eval_every_s=1", "runtime.eval_episodes=2", "runtime.workers=1", "runtime.envs_per_worker=2",
                  "runtime.episodes_per_round=2", "learner.batch_size=4", "learner.min_replay_trajectories=4"]
"""Tiny mode (`DISTRL_BENCH_TINY`): 3 s runs, 1 worker of 2 envs, 5-episode warm start, updates from 4 trajectories."""


def run_config(name: str, seed: int, minutes: float, out: Path, quick: bool) -> list[str]:
    """The overrides of run `name` (empty name: the shared warm start of `seed`)."""
    overrides = [*RUNS.get(name, []), f"runtime.minutes={minutes}", f"runtime.seed={seed}",
                 f"run_dir={out / 'runs' / run_dir_name(name, seed)}",
                 f"runtime.eval_every_s={eval_every_s(minutes)}", f"runtime.eval_episodes={40 if quick else 100}"]
    if is_tiny():
        overrides += TINY_OVERRIDES  # last, so that they win
    return overrides


def eval_every_s(minutes: float) -> float:
    """Seconds between a run's test evaluations: eight a run, none closer than 15 s (tiny mode: its override's 1 s)."""
    return 1.0 if is_tiny() else max(15.0, minutes * 60 / 8)


def plan(quick: bool) -> Plan:
    """The runs, seeds and minutes of this suite, after the DISTRL_BENCH_TRAINING_* environment variables."""
    default = Plan(QUICK_RUNS if quick else tuple(RUNS), (0,) if quick else (0, 1, 2),
                   0.05 if is_tiny() else QUICK_MINUTES if quick else 20.0)
    return plan_from_env("DISTRL_BENCH_TRAINING", tuple(RUNS), default)


def run(quick: bool, out: Path) -> Result:
    """Train every configuration; `quick` runs A-RIDE and sync DigiRL for 36 seconds on one seed."""
    p = plan(quick)
    episodes = 40 if quick else 100
    result = Result(config={"runs": list(p.runs), "seeds": list(p.seeds), "minutes": p.minutes, "suite": "general",
                            "policy": "small", "eval_episodes": episodes,
                            "tiny_overrides": TINY_OVERRIDES if is_tiny() else []})
    summaries, start_by_task = train_runs(p, lambda name, seed: run_config(name, seed, p.minutes, out, quick),
                                          result, "DISTRL_BENCH_TRAINING_REUSE")
    budget = p.minutes * 60
    result.tables.append(final_table(result, summaries, budget))
    if BASELINE in summaries and len(p.seeds) > 1:
        result.tables.append(paired_table(result, summaries, BASELINE))
        result.notes.append(noise_note(summaries, episodes))
        result.tables.append(time_to_table(result, summaries, BASELINE, MAIN_JOB_LEVEL))
    if (contrasts := contrast_table(summaries, budget)) is not None:
        result.tables.append(contrasts)
    result.tables.append(by_task_table(start_by_task, summaries))
    if os.environ.get(TASK_FILE_ENV):
        table = task_file_table(result, summaries, lambda name, seed: run_config(name, seed, p.minutes, out, quick),
                                Path(os.environ[TASK_FILE_ENV]), out)
        if table:
            result.tables.append(table)
    if "A-RIDE (async)" in summaries and "DigiRL (sync)" in summaries:
        result.tables.append(protocol_comparison(result, *pairs(summaries, "A-RIDE (async)", "DigiRL (sync)"),
                                                 budget, targets=False))
    if "A-RIDE (async)" in summaries and "DigiRL (async)" in summaries:
        _compare_update_rules(result, *pairs(summaries, "A-RIDE (async)", "DigiRL (async)"))
    result.plots.append(str(plot_curves(summaries, out / "training_curves.png",
                                        "Sim `general` suite, small policy, instant phone (mean ± sample std over "
                                        "seeds)")))
    result.notes.append(f"Each run: {p.minutes} min wall-clock of RL on this machine after a warm start shared by the "
                        "runs of its seed (behaviour cloning on noisy expert demonstrations, not counted), small "
                        f"policy, sim `general` suite, test-split success of the greedy policy over {episodes} "
                        "episodes. The instant phone makes this regime learner-bound: the workers could collect far "
                        "more than the learner can train on, so under producer-side admission they wait instead "
                        "(`A-RIDE unbounded` runs without it: its workers never wait and nearly all they collect is "
                        "dropped stale). Times to a level read the evaluations, one every "
                        f"{eval_every_s(p.minutes):.0f} s. The slow-device section (`training-slow`) measures "
                        "the paper's collection-bound regime.")
    return result


BASELINE = "A-RIDE (async)"
"""The run every other is paired with, seed by seed (same warm start, same seed)."""
MAIN_JOB_LEVEL = 0.85
"""The test success each run is timed to, paired with the baseline (about where the main job ends in 20 minutes)."""


def _compare_update_rules(result: Result, a_ride: list[dict[str, Any]], digirl: list[dict[str, Any]]) -> None:
    """A-RIDE vs DigiRL's update rule on the same asynchronous runtime, at the end and at equal learner updates."""
    diff = [a["test_success"] - d["test_success"] for a, d in zip(a_ride, digirl, strict=True)]
    result.add("a_ride_minus_async_digirl_test_success", 100 * float(np.mean(diff)), "points", target=0.0)
    # each seed's two curves read at the updates the run with fewer updates made (the curves record `version`)
    if (gap := gap_at_equal(a_ride, digirl, "version")) is not None:
        result.add("a_ride_minus_async_digirl_at_equal_updates", 100 * gap, "points", target=0.0)
