"""Time the learner's update rules on a saved replay: the part of the learner benchmark that runs in its own process.

    python benchmarks/learner_timing.py DATA.npz UPDATES RULE [RULE ...]     (prints one JSON object)

It imports only what every version of the learner has had (`load_config`, `Learner`, `Trajectory.from_arrays`), so
the benchmark runs this same file against another checkout of the code (`PYTHONPATH=<that tree>`): the reference
build the learner's speed is compared with, timed in the same run on the same data (`benchmarks/learner.py`).
DATA.npz holds `weights/<key>` (the starting policy) and `plain/<i>/...` and `grouped/<i>/...` trajectories (GRPO's).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

WARMUP_UPDATES = 5
BASE = ["learner.max_staleness=1000000000", "runtime.seed=0", "learner.critic_warmup_updates=0"]


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
              extra: list[str]) -> dict[str, float] | None:
    """Batches/s and transitions/s of `rule` over `updates` timed updates, or None when its replay cannot train."""
    from distrl_agent.config import load_config
    from distrl_agent.runtime.learner import Learner

    config = load_config(overrides=[*BASE, *extra, f"learner.algorithm={rule}"])
    learner = Learner(config)
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
    return {"batches_per_s": per_s, "gradient_steps_per_s": per_s * learner.rule.epochs,
            "trajectories_per_s": per_s * config.learner.batch_size,
            "transitions_per_s": per_s * config.learner.batch_size * mean_length,
            "replay_trajectories": float(len(learner.replay))}


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
