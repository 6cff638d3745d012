"""Time the learner's update rules on a saved replay: the part of the learner benchmark that runs in its own process.

    python benchmarks/learner_timing.py DATA.npz UPDATES RULE [RULE ...]     (prints one JSON object)

It imports only what every version of the learner has had (`load_config`, `build_learner` or before it
`Learner(config)`, `Trajectory.from_arrays`), so the benchmark runs this same file against another checkout of the code
(`PYTHONPATH=<that tree>`): the reference build the learner's speed is compared with, timed in the same run on the
same data (`benchmarks/learner.py`).
DATA.npz holds `weights/<key>` (the starting policy) and `plain/<i>/...` and `grouped/<i>/...` trajectories (GRPO's).
"""

from __future__ import annotations

import cProfile
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

WARMUP_UPDATES = 5
PROFILED_RULE = "a-ride"
"""The rule whose updates are also profiled (after the timing, so that the profiler's overhead is not timed)."""
PROFILE_UPDATES = 30
PROFILE_ENTRIES = 12
BASE = ["learner.max_staleness=1000000000", "runtime.seed=0", "learner.critic_warmup_updates=0"]
NO_DRAW_LIMITS = ["learner.max_samples_per_insert=0", "learner.max_times_sampled=null"]
"""Off in the timing (the defaults since issue 45 would retire the fixed replay's data after 4 draws each)."""


def load(path: Path) -> tuple[dict[str, np.ndarray], dict[str, list]]:
    """(weights, {"plain": trajectories, "grouped": trajectories}) from a DATA.npz."""
    from distrl_agent.types import Trajectory

    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    weights = {k.removeprefix("weights/"): v for k, v in arrays.items() if k.startswith("weights/")}
    sets: dict[str, list] = {}
    for kind in ("plain", "grouped"):
        indices = sorted({int(k.split("/")[1]) for k in arrays if k.startswith(f"{kind}/")})
        sets[kind] = [Trajectory.from_arrays(arrays, prefix=f"{kind}/{i}/") for i in indices]
    return weights, sets


def time_rule(rule: str, updates: int, weights: dict[str, np.ndarray], sets: dict[str, list],
              extra: list[str]) -> dict[str, Any] | None:
    """Batches/s and transitions/s of `rule` over `updates` timed updates, or None when its replay cannot train.

    `PROFILED_RULE` also returns `profile`: where its next updates spend their time (`top_entries`).
    """
    from distrl_agent.config import load_config

    try:
        from distrl_agent.runtime.build import build_learner
    except ImportError:  # a reference build from before the composition root built the learner's parts
        from distrl_agent.runtime.learner import Learner as build_learner

    overrides = [*BASE, *extra, f"learner.algorithm={rule}"]
    try:  # timed updates draw from the replay directly: no limit on draws may empty it
        config = load_config(overrides=[*overrides, *NO_DRAW_LIMITS])
    except ValueError as e:  # a build from before those settings, where they were off (ConfigError is a ValueError)
        if not any(key.split("=")[0] in str(e) for key in NO_DRAW_LIMITS):
            raise
        config = load_config(overrides=overrides)
    learner = build_learner(config)
    learner.set_policy_weights(weights)
    learner.ingest(sets["grouped" if rule == "grpo" else "plain"])
    if not learner.is_ready:
        return None
    learner.train_steps(WARMUP_UPDATES)
    start = time.perf_counter()
    for _ in range(updates):
        learner.update()
    per_s = updates / (time.perf_counter() - start)
    mean_length = learner.replay.num_steps / len(learner.replay)
    out: dict[str, Any] = {"batches_per_s": per_s, "gradient_steps_per_s": per_s * learner.rule.epochs,
                           "trajectories_per_s": per_s * config.learner.batch_size,
                           "transitions_per_s": per_s * config.learner.batch_size * mean_length,
                           "replay_trajectories": float(len(learner.replay))}
    if rule == PROFILED_RULE:
        profiled = min(updates, PROFILE_UPDATES)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(profiled):
            learner.update()
        profiler.disable()
        out["profile"] = top_entries(pstats.Stats(profiler), profiled)
    return out


def top_entries(stats: pstats.Stats, updates: int) -> list[list[Any]]:
    """The `PROFILE_ENTRIES` functions with the most own time: [name, ms per update, share of all own time].

    Names are `package/module.py:function` (torch's C++ entries as cProfile names them), so that the same function
    lines up between two checkouts.
    """
    own = {key: value[2] for key, value in stats.stats.items()}  # type: ignore[attr-defined]
    total = sum(own.values()) or 1.0
    top = sorted(own.items(), key=lambda item: item[1], reverse=True)[:PROFILE_ENTRIES]
    return [[_name(filename, function), 1000 * seconds / updates, seconds / total]
            for (filename, _, function), seconds in top]


def _name(filename: str, function: str) -> str:
    """`distrl_agent/replay/buffer.py:sample`, `torch/nn/functional.py:linear`, or a builtin's own name."""
    for root in ("distrl_agent/", "android_gym/"):
        if root in filename:
            return f"{root}{filename.rsplit(root, 1)[1]}:{function}"
    if "site-packages/" in filename:
        return f"{filename.rsplit('site-packages/', 1)[1]}:{function}"
    return function if filename == "~" else f"{Path(filename).name}:{function}"


def main(argv: list[str]) -> int:
    """Time each rule named in `argv` (after the data file and the update count); print the results as JSON."""
    import torch

    torch.set_num_threads(1)
    data, updates, rules = Path(argv[0]), int(argv[1]), argv[2:]
    extra = [a for a in rules if "=" in a]  # config overrides ride along (the tiny suite's smaller batches)
    weights, sets = load(data)
    print(json.dumps({rule: time_rule(rule, updates, weights, sets, extra) for rule in rules if "=" not in rule}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
