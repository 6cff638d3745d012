"""Runs without learning: `evaluate` (greedy success rate of some weights) and `collect` (throughput of a runtime)."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

from distrl_agent.config import TrainConfig
from distrl_agent.policies import SmallPolicy, SmallPolicyConfig
from distrl_agent.runtime.pool_worker import make_worker
from distrl_agent.types import Trajectory

log = logging.getLogger("distrl")


def evaluate(config: TrainConfig, weights: dict, version: int, split: str, episodes: int, seed: int = 12345,
             policy_config: SmallPolicyConfig | None = None) -> float:
    """Greedy success rate of `weights` on `split` over exactly `episodes` episodes, in this process.

    Episodes lost to a device fault count as failures.
    """
    with make_worker(-1, config.env, min(8, episodes), split=split, seed=seed, deterministic=True,
                policy_config=policy_config) as worker:
        worker.set_weights(weights, version)
        trajectories = worker.run_episodes(episodes)
    return sum(t.success for t in trajectories) / episodes


def initial_weights(config: TrainConfig) -> dict[str, np.ndarray]:
    """The untrained policy's weights (seeded by `runtime.seed`), what `collect` acts with by default."""
    import torch

    with torch.random.fork_rng():
        torch.manual_seed(config.runtime.seed)
        policy = SmallPolicy(SmallPolicyConfig())
    return {k: v.detach().cpu().numpy().copy() for k, v in policy.state_dict().items()}


def collect(config: TrainConfig, seconds: float, weights: dict | None = None,
            save_to: str | Path | None = None) -> dict[str, Any]:
    """Collect with the configured runtime for `seconds` seconds (after a warm-up); no learning.

    Throughput is measured after every worker has reported once (asynchronous) or after a one-episode warm-up round
    (synchronous), so process start-up is not counted.

    Args:
        config: which runtime, workers, envs and protocol (`runtime.sync`).
        seconds: measured collection time.
        weights: the policy's weights (default: the untrained policy).
        save_to: an .npz file to write every collected trajectory to (keys `traj/<i>/...`, see
            `Trajectory.to_arrays`); None keeps nothing.

    Returns:
        seconds, trajectories, env_steps, episodes, steps_per_s, trajectories_per_s, success, workers,
        envs_per_worker, runtime, sync, and the runtime's `runtime/` counters.
    """
    from distrl_agent.runtime.train import make_runtime

    rt = config.runtime
    runtime, _ = make_runtime(config, with_learner=False)
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
