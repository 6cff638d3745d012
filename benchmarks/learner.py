"""Learner: gradient updates and samples per second of each update rule with the small policy on one CPU core.

The replay is filled once with trajectories that the warm-started policy collected on the sim `general` suite (the
data a real run trains on; GRPO's from a worker playing groups of 4, which ships only groups whose returns differ);
each rule then runs timed updates on batches of `learner.batch_size` trajectories after a few untimed ones. An update
is one sampled batch: PPO takes `epochs` (4) gradient steps on it, the others one. Samples/s counts the trajectories
and the env steps (transitions, at the replay's mean trajectory length) drawn per second.
This is the learner alone: in `distrl train` it shares the machine with the workers.

With `DISTRL_BENCH_LEARNER_REFERENCE=<git revision>` the same timing runs, rule by rule and on the same saved data,
against that revision's code too (exported with `git archive`), and the table gives each rule's speed-up over it:
a before/after measured in one run on one machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.learner_timing import PROFILE_ENTRIES, PROFILE_UPDATES, PROFILED_RULE
from benchmarks.result import Result, is_tiny, markdown_table
from distrl_agent.config import load_config
from distrl_agent.runtime.train import warm_start
from distrl_agent.runtime.worker import Worker

RULES = ("a-ride", "a-ride-uniform", "a-ride-no-retrace", "digirl", "filtered-bc", "ppo", "grpo")
REFERENCE_ENV = "DISTRL_BENCH_LEARNER_REFERENCE"
"""A git revision whose learner the current one is timed against (unset: no comparison)."""
REPO_ROOT = Path(__file__).resolve().parents[1]
TIMING_SCRIPT = Path(__file__).with_name("learner_timing.py")


def run(quick: bool, out: Path) -> Result:
    """Time every rule on the same replay contents (tiny mode: 8 trajectories, 3 updates)."""
    tiny = is_tiny()
    episodes, updates = (8, 3) if tiny else (120, 15) if quick else (1000, 300)
    base = ["learner.max_staleness=1000000000", "runtime.seed=0"]  # no data arrives: nothing may age out
    small = ["learner.batch_size=4", "learner.min_replay_trajectories=4"] if tiny else []
    if tiny:
        base += ["runtime.warm_start_episodes=5", "runtime.warm_start_updates=5", *small]
    config = load_config(overrides=base)
    weights = warm_start(config)
    with Worker(0, config.env, 8, seed=0) as worker:
        worker.set_weights(weights, 0)
        trajectories = worker.run_episodes(episodes)
    grpo = load_config(overrides=[*base, "learner.algorithm=grpo"])
    with Worker(0, config.env, 8, seed=0, groups=grpo.learner.group_spec) as worker:
        worker.set_weights(weights, 0)
        grouped = worker.run_episodes(episodes)
    reference = os.environ.get(REFERENCE_ENV, "").strip()
    result = Result(config={"episodes_in_replay": episodes, "timed_updates": updates,
                            "batch_size": config.learner.batch_size, "threads": 1, "policy": "small",
                            "reference": reference or None})
    with tempfile.TemporaryDirectory(prefix="distrl-learner-") as tmp:
        data = Path(tmp) / "learner_data.npz"
        arrays = {f"weights/{k}": np.asarray(v) for k, v in (weights or {}).items()}
        for kind, group in (("plain", trajectories), ("grouped", grouped)):
            for i, trajectory in enumerate(group):
                arrays.update(trajectory.to_arrays(prefix=f"{kind}/{i}/"))
        np.savez(data, **arrays)
        reference_tree = export_revision(reference, Path(tmp) / "reference") if reference else None
        timings, before = {}, {}
        if reference_tree is None:  # one process for every rule (the tiny suite pays one start-up)
            timings = time_in(REPO_ROOT, data, updates, RULES, small)
        else:  # rule by rule, the reference first: both see the machine of the same minute
            for rule in RULES:
                before.update(time_in(reference_tree, data, updates, (rule,), small))
                timings.update(time_in(REPO_ROOT, data, updates, (rule,), small))
    rows = []
    for rule in RULES:
        timing = timings[rule]
        if timing is None:  # GRPO on few episodes: every group may have returned alike
            result.notes.append(f"{rule}: too few trajectories to sample from; not timed.")
            continue
        per_s = timing["batches_per_s"]
        row = [rule, f"{per_s:.1f}", f"{timing['gradient_steps_per_s']:.1f}", f"{timing['trajectories_per_s']:.0f}",
               f"{timing['transitions_per_s']:.0f}", f"{1000 / per_s:.1f}"]
        result.add(f"updates_per_s/{rule}", timing["gradient_steps_per_s"], "gradient steps/s")
        result.add(f"transitions_per_s/{rule}", timing["transitions_per_s"], "transitions/s")
        if reference_tree is not None:
            old = before[rule]
            speedup = timing["transitions_per_s"] / old["transitions_per_s"] if old else float("nan")
            row += [f"{old['transitions_per_s']:.0f}" if old else "n/a", f"{speedup:.2f}x"]
            result.add(f"speedup_over_reference/{rule}", speedup, "x")
        rows.append(row)
    headers = ["rule", "batches/s", "gradient steps/s", "trajectories/s", "transitions/s", "ms per batch"]
    if reference_tree is not None:
        headers += [f"transitions/s at {reference[:12]}", "speed-up"]
        result.notes.append(f"Speed-up: transitions/s of this commit over those of `{reference}` (its code exported "
                            "with git archive), each rule timed on the same saved replay, the reference first, in "
                            "one run.")
    result.tables.append(markdown_table(headers, rows))
    if (profile := profile_table(timings, before, reference)) is not None:
        result.tables.append(profile)
    result.notes.append(f"Replay: {len(trajectories)} trajectories, "
                        f"{sum(len(t.actions) for t in trajectories)} transitions from the warm-started policy "
                        f"(GRPO: the {len(grouped)} of {episodes} episodes its groups shipped); "
                        f"batches of {config.learner.batch_size} trajectories; torch on 1 thread; timed in a process "
                        f"{'per rule and build' if reference_tree is not None else 'for all rules'}.")
    return result


def profile_table(timings: dict[str, Any], before: dict[str, Any], reference: str) -> str | None:
    """Where the profiled rule's update spends its time: the top functions by own time (cProfile), with the
    reference's figures for the same functions when it was timed too; None when nothing was profiled."""  # noqa: D205, D209
    rule = PROFILED_RULE
    now = (timings.get(rule) or {}).get("profile")
    if not now:
        return None
    old = {name: (ms, share) for name, ms, share in ((before.get(rule) or {}).get("profile") or [])}
    names = [name for name, _, _ in now] + [name for name in old if name not in {n for n, _, _ in now}]
    mine = {name: (ms, share) for name, ms, share in now}
    rows = []
    for name in names:
        row = [f"`{name}`"]
        for table in ((old, mine) if old else (mine,)):
            ms, share = table.get(name, (None, None))
            row += ["-" if ms is None else f"{ms:.1f}", "-" if share is None else f"{100 * share:.0f}%"]
        rows.append(row)
    headers = ["function (own time)"]
    if old:
        headers += [f"ms per update at {reference[:12]}", "share"]
    headers += ["ms per update", "share"]
    caption = (f"{rule}: the top {PROFILE_ENTRIES} functions by own time under cProfile, {PROFILE_UPDATES} updates "
               "after the timed ones (the profiler slows Python calls, so the ms add up to more than the timed "
               "figure; '-': not among that build's top entries).")
    return f"{caption}\n\n{markdown_table(headers, rows)}"


def export_revision(revision: str, into: Path) -> Path:
    """The packages of git `revision` of this repository, written under `into` (what PYTHONPATH then points at).

    Raises:
        RuntimeError: `revision` is not a revision of this repository (git's message is included).
    """
    archive = into.with_suffix(".tar")
    done = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", "--format=tar", "-o", str(archive), revision,
                           "distrl_agent", "android_gym"], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{REFERENCE_ENV}={revision!r}: git archive failed: {done.stderr.strip()}")
    into.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def time_in(tree: Path, data: Path, updates: int, rules: tuple[str, ...],
            overrides: list[str]) -> dict[str, dict[str, float] | None]:
    """`learner_timing.py` on `data` for `rules`, importing the packages of `tree`; its results by rule (None: not
    timed)."""  # noqa: D205, D209
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(REPO_ROOT)])}
    done = subprocess.run([sys.executable, str(TIMING_SCRIPT), str(data), str(updates), *rules, *overrides],
                          capture_output=True, text=True, env=env, cwd=tree, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"timing {', '.join(rules)} under {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
