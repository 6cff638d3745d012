"""Learner: gradient updates and samples per second of each update rule with the small policy on one CPU core.

The replay is filled once with trajectories that the warm-started policy collected on the sim `general` suite (the
data a real run trains on; GRPO's from a worker playing groups of 4, which ships only groups whose returns differ);
each rule then runs timed updates on batches of `learner.batch_size` trajectories after a few untimed ones. An update
is one sampled batch: PPO takes `epochs` (4) gradient steps on it, the others one. Samples/s counts the trajectories
and the env steps (transitions, at the replay's mean trajectory length) drawn per second.
This is the learner alone: in `distrl train` it shares the machine with the workers.
"""

from __future__ import annotations

import time
from pathlib import Path

import torch

from benchmarks.result import Result, is_tiny, markdown_table
from distrl_agent.config import load_config
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.train import warm_start
from distrl_agent.runtime.worker import Worker

RULES = ("a-ride", "a-ride-uniform", "a-ride-no-retrace", "digirl", "filtered-bc", "ppo", "grpo")
WARMUP_UPDATES = 5


def run(quick: bool, out: Path) -> Result:
    """Time every rule on the same replay contents (tiny mode: 8 trajectories, 3 updates)."""
    tiny = is_tiny()
    episodes, updates = (8, 3) if tiny else (300, 60) if quick else (1000, 300)
    base = ["learner.max_staleness=1000000000", "runtime.seed=0"]  # no data arrives: nothing may age out
    if tiny:
        base += ["runtime.warm_start_episodes=5", "runtime.warm_start_updates=5", "learner.batch_size=4",
                 "learner.min_replay_trajectories=4"]
    config = load_config(overrides=base)
    weights = warm_start(config)
    with Worker(0, config.env, 8, seed=0) as worker:
        worker.set_weights(weights, 0)
        trajectories = worker.run_episodes(episodes)
    grpo = load_config(overrides=[*base, "learner.algorithm=grpo"])
    with Worker(0, config.env, 8, seed=0, groups=grpo.learner.group_spec) as worker:
        worker.set_weights(weights, 0)
        grouped = worker.run_episodes(episodes)
    torch.set_num_threads(1)
    result = Result(config={"episodes_in_replay": episodes, "timed_updates": updates,
                            "batch_size": config.learner.batch_size, "threads": 1, "policy": "small"})
    rows = []
    for rule in RULES:
        rule_config = load_config(overrides=[*base, f"learner.algorithm={rule}", "learner.critic_warmup_updates=0"])
        learner = Learner(rule_config)
        learner.set_policy_weights(weights)
        learner.ingest(grouped if rule == "grpo" else trajectories)
        if not learner.is_ready:  # GRPO on few episodes: every group may have returned alike
            result.notes.append(f"{rule}: only {len(learner.replay)} trajectories to sample from; not timed.")
            continue
        learner.train_steps(WARMUP_UPDATES)
        start = time.perf_counter()
        for _ in range(updates):
            learner.update()
        per_s = updates / (time.perf_counter() - start)
        transitions_per_s = per_s * config.learner.batch_size * learner.replay.num_steps / len(learner.replay)
        steps_per_s = per_s * learner.rule.epochs
        rows.append([rule, f"{per_s:.1f}", f"{steps_per_s:.1f}", f"{per_s * config.learner.batch_size:.0f}",
                     f"{transitions_per_s:.0f}", f"{1000 / per_s:.1f}"])
        result.add(f"updates_per_s/{rule}", steps_per_s, "gradient steps/s")
        result.add(f"transitions_per_s/{rule}", transitions_per_s, "transitions/s")
    result.tables.append(markdown_table(["rule", "batches/s", "gradient steps/s", "trajectories/s", "transitions/s",
                                         "ms per batch"], rows))
    result.notes.append(f"Replay: {len(trajectories)} trajectories, "
                        f"{sum(len(t.actions) for t in trajectories)} transitions from the warm-started policy "
                        f"(GRPO: the {len(grouped)} of {episodes} episodes its groups shipped); "
                        f"batches of {config.learner.batch_size} trajectories; torch on 1 thread.")
    return result
