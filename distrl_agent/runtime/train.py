"""`train(config)`: the main job — warm start, asynchronous (or synchronous) collection, A-RIDE updates, evaluation,
checkpoints, metrics and a final summary."""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from pathlib import Path
from typing import Any

import torch
import yaml
from tqdm import tqdm

from distrl_agent.config import TrainConfig
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.local import LocalRuntime
from distrl_agent.runtime.warm_start import behaviour_clone, collect_demonstrations
from distrl_agent.runtime.worker import Worker

log = logging.getLogger("distrl")


class MetricsWriter:
    """JSONL metrics (always) and TensorBoard scalars (when tensorboard is installed)."""

    def __init__(self, run_dir: Path) -> None:
        self.file = (run_dir / "metrics.jsonl").open("a")
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb: Any = SummaryWriter(str(run_dir / "tb"))
        except ImportError:
            self.tb = None

    def write(self, step: int, elapsed_s: float, metrics: dict[str, float]) -> None:
        """Append one record."""
        self.file.write(json.dumps({"step": step, "time_s": round(elapsed_s, 2), **metrics}) + "\n")
        self.file.flush()
        if self.tb is not None:
            for k, v in metrics.items():
                if isinstance(v, (int, float)):
                    self.tb.add_scalar(k, v, step)

    def close(self) -> None:
        """Flush and close."""
        self.file.close()
        if self.tb is not None:
            self.tb.close()


def evaluate(config: TrainConfig, weights: dict, version: int, split: str, episodes: int, seed: int = 12345) -> float:
    """Greedy success rate of `weights` on `split` over `episodes` episodes, in this process."""
    worker = Worker(-1, config.env, min(8, episodes), split=split, seed=seed, deterministic=True)
    worker.start()
    worker.set_weights(weights, version)
    trajectories = worker.run_episodes(episodes)
    worker.close()
    return sum(t.success for t in trajectories) / len(trajectories)


def train(config: TrainConfig, resume: str | None = None) -> dict[str, Any]:
    """Run training to the wall-clock budget; returns the summary (also written to run_dir/summary.json)."""
    run_dir = Path(config.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    torch.manual_seed(config.runtime.seed)
    torch.set_num_threads(1)
    learner = Learner(config)
    writer = MetricsWriter(run_dir)
    start = time.monotonic()
    if resume:
        learner.load(Path(resume) / "checkpoint")
        log.info("resumed from %s at version %d", resume, learner.version)
    elif config.runtime.warm_start_episodes > 0:
        rt = config.runtime
        demos = collect_demonstrations(config.env, rt.warm_start_episodes, rt.warm_start_noise, learner.policy,
                                       rt.seed)
        nll = behaviour_clone(learner.policy, demos, rt.warm_start_updates, seed=rt.seed)
        log.info("warm start: %d demonstration steps, final NLL %.3f", len(demos), nll)
    runtime = LocalRuntime(config)
    runtime.start()
    budget_s = config.runtime.minutes * 60
    recent = deque(maxlen=200)
    curve: list[dict[str, float]] = []
    totals = {"episodes": 0, "steps": 0}
    worker_stats: dict[int, dict] = {}
    last_eval = -float("inf")
    runtime.broadcast(learner.version, learner.weights())
    bar = tqdm(total=int(budget_s), unit="s", desc="distrl train", dynamic_ncols=True, mininterval=1.0)
    try:
        while (elapsed := time.monotonic() - start) < budget_s:
            if elapsed - last_eval >= config.runtime.eval_every_s:
                rate = evaluate(config, learner.weights(), learner.version, "test",
                                min(config.runtime.eval_episodes, 50))
                curve.append({"time_s": round(elapsed, 1), "version": learner.version, "test_success": rate})
                writer.write(learner.version, elapsed, {"charts/test_success": rate})
                last_eval = time.monotonic() - start
            if config.runtime.sync:
                runtime.broadcast(learner.version, learner.weights())
                runtime.command_round(config.runtime.episodes_per_round)
                pending = set(range(runtime.num_workers))
                messages = []
                while pending and time.monotonic() - start < budget_s:
                    got = runtime.poll(timeout=1.0)
                    messages += got
                    pending -= {m[1] for m in got}
            else:  # never wait on collection while the replay can train
                messages = runtime.poll(timeout=0.0 if learner.is_ready else 1.0)
            for _, index, trajectories, stats in messages:
                learner.ingest(trajectories)
                recent.extend(t.success for t in trajectories)
                worker_stats[index] = stats
            totals["episodes"] = sum(s.get("episodes", 0) for s in worker_stats.values())
            totals["steps"] = sum(s.get("steps", 0) for s in worker_stats.values())
            metrics: dict[str, float] = {}
            if learner.is_ready:
                for _ in range(config.learner.updates_per_round):
                    metrics = learner.update()
                if not config.runtime.sync:
                    runtime.broadcast(learner.version, learner.weights())
            elapsed = time.monotonic() - start
            success = sum(recent) / len(recent) if recent else 0.0
            if metrics:
                writer.write(learner.version, elapsed, {**metrics, "charts/train_success": success,
                                                        "runtime/env_steps": totals["steps"],
                                                        "runtime/episodes": totals["episodes"]})
            bar.n = int(min(elapsed, budget_s))
            bar.set_postfix(steps=totals["steps"], episodes=totals["episodes"], success=f"{success:.2f}",
                            test=f"{curve[-1]['test_success']:.2f}" if curve else "-", updates=learner.version,
                            steps_per_s=f"{totals['steps'] / max(elapsed, 1e-9):.0f}", refresh=False)
            bar.refresh()
    finally:
        bar.close()
        runtime.close()
    learner.save(run_dir / "checkpoint")
    weights = learner.weights()
    summary = {
        "algorithm": config.learner.algorithm, "minutes": round((time.monotonic() - start) / 60, 2),
        "updates": learner.version, "env_steps": totals["steps"], "episodes": totals["episodes"],
        "worker_restarts": runtime.restarts,
        "train_success": evaluate(config, weights, learner.version, "train", config.runtime.eval_episodes, 777),
        "test_success": evaluate(config, weights, learner.version, "test", config.runtime.eval_episodes, 778),
        "curve": curve, **{k: v for k, v in learner.stats().items() if isinstance(v, (int, float))},
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    writer.close()
    return summary
