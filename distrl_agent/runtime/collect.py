"""Runs without learning: `evaluate` (greedy success rate of some weights) and `collect` (throughput of a runtime).

Evaluations play a fixed, template-balanced list of tasks (`evaluation_tasks`), the same on every call.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from distrl_agent.config import EnvSection, TrainConfig
from distrl_agent.policies.build import PolicyConfig, build_seeded_policy
from distrl_agent.runtime.build import make_runtime
from distrl_agent.runtime.weights import to_numpy
from distrl_agent.runtime.worker import Worker, make_env
from distrl_agent.types import Trajectory

log = logging.getLogger("distrl")


def evaluation_tasks(env: EnvSection, split: str, episodes: int, seed: int) -> list[tuple[int, str]]:
    """`episodes` (task index, template name) pairs of `split`, spread evenly over its templates; seeded.

    The env draws a template uniformly and then an instance, so a plain sample of 100 episodes leaves each template's
    share to chance (2 to 12 episodes of 14 templates' in one of our evaluations, which moved a policy's score by
    7 points between two samples). Taking the templates in turn, each with its instances in a seeded order, estimates
    the same success rate with less variance and plays the same tasks every time.
    """
    # the task list depends on the suite and split only: a sim probe, so that no training phone is touched mid-run
    probe = make_env(env.replace(device="sim", device_options={}, evaluator="oracle",
                                         evaluator_options={}), split)
    try:
        tasks = probe.get_wrapper_attr("tasks")
    finally:
        probe.close()
    rng = np.random.default_rng(seed)
    groups: dict[str, list[int]] = {}
    for index, task in enumerate(tasks):
        groups.setdefault(task.name, []).append(index)
    queues = {name: list(rng.permutation(indices)) for name, indices in sorted(groups.items())}
    plan: list[tuple[int, str]] = []
    while len(plan) < episodes:
        for name, queue in queues.items():
            if len(plan) < episodes:
                plan.append((int(queue[len(plan) // len(queues) % len(queue)]), name))
    return plan


def evaluate_by_task(config: TrainConfig, weights: dict, version: int, split: str, episodes: int, seed: int = 12345,
                     policy_config: PolicyConfig | None = None) -> tuple[float, dict[str, float]]:
    """Greedy success rate of `weights` on `split`, overall and per template, over `evaluation_tasks` (`episodes`).

    `policy_config` is the shape of the policy `weights` belong to (default: `config.policy`'s).

    Runs in this process, without the env's latency (it changes timing, not outcomes). Episodes lost to a device
    fault count as failures.

    Returns:
        (success rate over all episodes, {template name: success rate} in name order).
    """
    played, solved = _play_plan(config, weights, version, split, episodes, seed, policy_config)
    return sum(solved.values()) / episodes, {name: solved[name] / n for name, n in sorted(played.items())}


def evaluate(config: TrainConfig, weights: dict, version: int, split: str, episodes: int, seed: int = 12345,
             policy_config: PolicyConfig | None = None) -> float:
    """Greedy success rate of `weights` on `split` over exactly `episodes` episodes (see `evaluate_by_task`)."""
    return evaluate_by_task(config, weights, version, split, episodes, seed, policy_config)[0]


def _play_plan(config: TrainConfig, weights: dict, version: int, split: str, episodes: int, seed: int,
               policy_config: PolicyConfig | None) -> tuple[Counter[str], Counter[str]]:
    """(episodes played, episodes solved) per template name."""
    plan = evaluation_tasks(config.env, split, episodes, seed)
    env = config.env.replace(latency="off", env_processes=False)
    with Worker(-1, env, min(8, episodes), split=split, seed=seed, deterministic=True,
                policy_config=policy_config or config.policy.policy_config(),
                first_env_index=config.runtime.worker_count() * config.runtime.envs_per_worker) as worker:
        worker.set_weights(weights, version)
        trajectories = worker.run_episodes(episodes, tasks=[index for index, _ in plan])
    return Counter(name for _, name in plan), Counter(t.task for t in trajectories if t.success)


def initial_weights(config: TrainConfig) -> dict[str, np.ndarray]:
    """The untrained policy's weights (seeded by `runtime.seed`), what `collect` acts with by default."""
    policy = build_seeded_policy(config.policy.policy_config(), config.runtime.seed)
    return {k: to_numpy(v) for k, v in policy.state_dict().items()}  # bfloat16 (a VLM's) as float32


def collect(config: TrainConfig, seconds: float, weights: dict | None = None,
            save_to: str | Path | None = None, settle_s: float = 0.0) -> dict[str, Any]:
    """Collect with the configured runtime for `seconds` seconds (after a warm-up); no learning.

    Throughput is measured after every worker has reported once (asynchronous) or after a one-episode warm-up round
    (synchronous), so process start-up is not counted. Admission is off: without a learner no weights version
    follows the first.

    Args:
        config: which runtime, workers, envs and protocol (`runtime.sync`).
        seconds: measured collection time.
        weights: the policy's weights (default: the untrained policy).
        save_to: an .npz file to write every collected trajectory to (keys `traj/<i>/...`, see
            `Trajectory.to_arrays`); None keeps nothing.
        settle_s: seconds of asynchronous collection discarded after the warm-up, for devices that start one by one
            (emulators booting): the first report of a worker may come before its last env has started.

    Returns:
        seconds, trajectories, env_steps, episodes, steps_per_s, trajectories_per_s, success, workers,
        envs_per_worker, runtime, sync, and the runtime's `runtime/` counters.
    """
    rt = config.runtime
    # no learner, no new versions: admission (`runtime.max_offpolicyness`) would hold every worker after its first
    # allowance, and there is nothing stale to bound
    runtime, _ = make_runtime(config.replace(runtime=rt.replace(max_offpolicyness=None)), with_learner=False)
    kept: list[Trajectory] = []
    successes: list[bool] = []
    try:
        runtime.start(0, weights if weights is not None else initial_weights(config))
        if rt.sync:
            runtime.run_round(0, 1, time.monotonic() + 600)
        else:
            warmup_deadline = time.monotonic() + 600
            while not all(runtime.book.current) and time.monotonic() < warmup_deadline:
                runtime.poll(timeout_s=0.5)
            settled_at = time.monotonic() + settle_s
            while (now := time.monotonic()) < settled_at:
                runtime.poll(timeout_s=min(0.5, settled_at - now))
        before = runtime.stats()
        start = time.monotonic()
        while (now := time.monotonic()) - start < seconds:
            if rt.sync:
                deliveries = runtime.run_round(0, rt.episodes_per_round, start + seconds)
            else:
                deliveries = runtime.poll(timeout_s=min(0.5, start + seconds - now))
            for delivery in deliveries:
                successes.extend(delivery.successes)
                if save_to is not None:
                    kept.extend(runtime.fetch(delivery.trajectories))
        elapsed = time.monotonic() - start
        after = runtime.stats()
    finally:
        runtime.close()
    steps = after["runtime/env_steps"] - before["runtime/env_steps"]
    if save_to is not None:
        arrays: dict[str, np.ndarray] = {}
        for i, trajectory in enumerate(kept):
            arrays.update(trajectory.to_arrays(prefix=f"traj/{i}/"))
        np.savez(save_to, **arrays)
    return {
        "seconds": round(elapsed, 2), "trajectories": len(successes), "env_steps": int(steps),
        "episodes": int(after["runtime/episodes"] - before["runtime/episodes"]),
        "steps_per_s": round(steps / elapsed, 1), "trajectories_per_s": round(len(successes) / elapsed, 2),
        "success": sum(successes) / len(successes) if successes else 0.0, "workers": runtime.num_workers,
        "envs_per_worker": rt.envs_per_worker, "runtime": rt.runtime, "sync": rt.sync, **after,
    }
