"""`train(config)`: the main job — warm start, collection, updates, evaluation, checkpoints, metrics, a summary.

`run_loop` wires the dataflow, the same for both runtimes (local, Ray) and both protocols (asynchronous, sync).

Outputs in `run_dir`: config.yaml (the resolved config), metrics.jsonl (+ tb/ when tensorboard is installed),
checkpoint/ (learner weights, optimiser, replay, counters, RNG, and run_state.json; rewritten every
`runtime.checkpoint_every_s` seconds, on Ctrl-C or a worker failure, and at the end), summary.json, and
warm_start.safetensors when the run cloned (`runtime.warm_start_from` takes it).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from android_gym.safe_files import refuse_links, write_text
from android_gym.tasks import suites
from distrl_agent.config import TrainConfig
from distrl_agent.policies.build import build_seeded_policy
from distrl_agent.runtime.base import LearnerHandle, Runtime
from distrl_agent.runtime.build import make_runtime
from distrl_agent.runtime.callbacks import Callback, CallbackList
from distrl_agent.runtime.checkpoint import find_checkpoint, read_run_state, save_checkpoint
from distrl_agent.runtime.checkpoint_files import CURRENT
from distrl_agent.runtime.collect import evaluate, evaluate_by_task
from distrl_agent.runtime.counters import combine_sessions
from distrl_agent.runtime.progress import MetricsWriter, Progress, RunState
from distrl_agent.runtime.run_dir import RUN_FILES, prepare_run_dir
from distrl_agent.runtime.warm_start import (
    behaviour_clone,
    collect_demonstrations,
    load_start_weights,
    save_warm_start,
    weights_digest,
)
from distrl_agent.runtime.weights import trainable_weights

log = logging.getLogger("distrl")
EVAL_SEEDS = {"train": 777, "test": 778, "unseen_templates": 779, "unseen_apps": 780}
"""Evaluation seeds per split: the periodic test evaluations and the final one play the same episodes, so the points of
the learning curve and the summary's test success differ only by what the policy learned."""
WAIT_S = 0.5  # the longest the learner blocks on collection while it has nothing to train on
DRAIN_S = 30.0  # the longest the end of a run waits for the workers to hand over what they hold
METRICS_EVERY_S = 1.0  # one metrics.jsonl record per this many seconds


def warm_start(config: TrainConfig, show_progress: bool = False) -> dict[str, Any] | None:
    """Behaviour cloning from noisy expert demonstrations; the cloned weights, or None when disabled."""
    rt = config.runtime
    if rt.warm_start_episodes <= 0:
        return None
    policy = build_seeded_policy(config.policy.policy_config(), rt.seed)  # the learner's initial policy
    policy.keep_master_weights()  # cloning trains it: float32 weights under a low-precision backbone
    demos = collect_demonstrations(config.env, rt.warm_start_episodes, rt.warm_start_noise, policy, rt.seed,
                                   show_progress=show_progress, labels=rt.warm_start_labels)
    nll = behaviour_clone(policy, demos, rt.warm_start_updates, seed=rt.seed, show_progress=show_progress,
                          anneal=rt.warm_start_anneal)
    policy.copy_actor_encoder_to_critic()  # the critic starts from the cloned features, not from noise
    log.info("warm start: %d demonstration steps, final NLL %.3f", len(demos), nll)
    return trainable_weights(policy)


def run_loop(config: TrainConfig, learner: LearnerHandle, runtime: Runtime, state: RunState, writer: MetricsWriter,
             progress: Progress, run_dir: Path) -> RunState:
    """Run the actor-learner dataflow until the budget is spent (`spent_fraction`); returns the state to checkpoint.

        workers --Delivery--> learner.ingest --> learner.train_steps(K) --> learner.weights() --> runtime.publish
           ^                                                                                         |
           +------------------ newest version, adopted by every worker between env steps ------------+

    Asynchronous: workers never wait (they keep the newest weights they have); the learner polls without waiting
    whenever its replay can train, so it never waits on collection while it has data.
    Synchronous (DigiRL): publish v -> every worker plays `episodes_per_round` episodes with v -> ingest all of
    them -> train -> publish v' -> ...; no worker starts round v' before the learner has published v'.
    Points of the learning curve are evaluated when due (the learner waits meanwhile), or with
    `runtime.eval_deferred` from copies of the weights once the workers are drained, outside the budget.
    On any exception (a worker that keeps crashing, Ctrl-C) a checkpoint is written before it propagates.
    """
    rt, clock = config.runtime, _Clock(time.monotonic(), config.runtime)
    version = learner.get_version()
    runtime.start(version, learner.weights())  # every worker starts with the learner's weights
    is_ready, metrics, lr_now = False, {}, None
    env_steps = state.totals.get("runtime/env_steps", 0.0)
    episodes = state.totals.get("runtime/episodes", 0.0)
    deferred: list[_CurvePoint] = []  # `runtime.eval_deferred`: played once the budget is spent
    try:
        while spent_fraction(config, clock.session(state), version, env_steps) < 1.0 and not writer.stop_requested:
            now = time.monotonic()
            if clock.is_due("eval", now, rt.eval_every_s):  # the learning curve (async workers keep collecting)
                # the learner's weights are copies (`to_numpy`): a deferred point keeps the version it was due with
                point = _CurvePoint(runtime.fetch(learner.weights()), version, clock.session(state), env_steps,
                                    episodes)
                if rt.eval_deferred:
                    deferred.append(point)
                else:
                    _evaluate_into(config, state, writer, point)
            if clock.is_due("checkpoint", now, rt.checkpoint_every_s):  # a crash loses at most this much
                state.checkpoints += 1
                save_checkpoint(learner, snapshot(state, clock.session_s(), runtime.stats()), run_dir)
                writer.checkpointed(version, run_dir / CURRENT)
            if (scale := lr_scale(config, clock.session(state), version, env_steps)) != lr_now:  # in 1% steps
                learner.set_lr_scale(lr_now := scale)
            tick = time.monotonic()
            # 1. collection: a synchronous round, or whatever has arrived
            if rt.sync:
                deliveries = runtime.run_round(version, rt.episodes_per_round, clock.deadline(state))
            else:
                deliveries = runtime.poll(timeout_s=0.0 if is_ready else WAIT_S)
            waited = time.monotonic() - tick
            # 2. ingestion: whole trajectories only (local: the objects; Ray: refs the learner actor resolves)
            for delivery in deliveries:
                learner.ingest(delivery.trajectories)
            # 3. training: K updates once the replay is warm
            train_tick = time.monotonic()
            step_metrics = learner.train_steps(config.learner.updates_per_round)
            state.learner_busy_s += time.monotonic() - train_tick
            # 4. publication: one copy of the new version for every worker
            is_ready = bool(step_metrics)  # no update made (replay not ready, rate-limited): wait for collection
            if step_metrics:
                metrics, version = step_metrics, int(step_metrics["learner/version"])
                publish_tick = time.monotonic()
                runtime.publish(version, learner.weights())
                state.publish_s += time.monotonic() - publish_tick
                state.publishes += 1
            if rt.sync or not step_metrics:  # blocked on collection with nothing to train
                state.learner_wait_s += waited
            state.loop_s += time.monotonic() - tick
            # 5. reporting (bar at most once a second, metrics.jsonl once per METRICS_EVERY_S)
            session_stats = runtime.stats()
            stats = {**combine_sessions(state.totals, session_stats), **state.metrics()}
            env_steps, episodes = stats["runtime/env_steps"], stats["runtime/episodes"]
            progress.record(stats)
            progress.show(spent_fraction(config, clock.session(state), version, env_steps), clock.session_s(),
                          session_stats["runtime/env_steps"], stats, version,
                          state.curve[-1]["test_success"] if state.curve else None)
            if metrics and clock.is_due("metrics", time.monotonic(), METRICS_EVERY_S):
                writer.write(version, clock.session(state), {**metrics, "charts/train_success": progress.success,
                                                             **stats})
        # the end: what the workers still hold goes into the replay (trained on after a resume), none is left behind
        for delivery in runtime.drain(DRAIN_S):
            learner.ingest(delivery.trajectories)
    except BaseException as e:
        log.warning("training stopped (%s); writing a checkpoint to resume from", type(e).__name__)
        try:
            state.checkpoints += 1
            save_checkpoint(learner, snapshot(state, clock.session_s(), runtime.stats()), run_dir)
        except Exception:  # noqa: BLE001  (the original error matters more)
            log.exception("could not write the checkpoint")
        raise
    final = snapshot(state, clock.session_s(), runtime.stats())  # before the deferred points: they take no budget
    for point in tqdm(deferred, desc="deferred evaluations", unit="point", disable=progress.bar.disable,
                      leave=False):
        _evaluate_into(config, final, writer, point)
    return final


def spent_fraction(config: TrainConfig, elapsed_s: float, updates: float = 0, env_steps: float = 0) -> float:
    """How much of the run's budget is spent: the largest of its time, update and env-step fractions, at most 1.

    `runtime.minutes` always counts; `runtime.max_updates` and `runtime.max_env_steps` only when set.
    """
    rt = config.runtime
    fractions = [elapsed_s / max(rt.minutes * 60, 1e-9)]
    if rt.max_updates is not None:
        fractions.append(updates / rt.max_updates)
    if rt.max_env_steps is not None:
        fractions.append(env_steps / rt.max_env_steps)
    return min(1.0, max(fractions))


def lr_scale(config: TrainConfig, elapsed_s: float, updates: float = 0, env_steps: float = 0) -> float:
    """The learning-rate multiplier at this point of the run (linear from 1 to `learner.lr_final_fraction`).

    The point is `spent_fraction`: a run capped by updates or env steps anneals over that cap, not over the clock.
    Rounded to 1% steps, so a Ray learner actor is told at most 100 times.
    """
    progress = spent_fraction(config, elapsed_s, updates, env_steps)
    return round(1.0 - (1.0 - config.learner.lr_final_fraction) * progress, 2)


class _Clock:
    """The session's timers: the budget deadline and the periodic evaluation, checkpoint and metrics records."""

    def __init__(self, start: float, rt: Any) -> None:
        self.start, self.budget_s = start, rt.minutes * 60
        self.last = {"eval": -float("inf"), "checkpoint": start, "metrics": start}  # evaluate once at the start

    def deadline(self, state: RunState) -> float:
        """When this session's share of the budget runs out (time.monotonic())."""
        return self.start + max(0.0, self.budget_s - state.elapsed_s)

    def session_s(self) -> float:
        """Seconds since the session started."""
        return time.monotonic() - self.start

    def session(self, state: RunState) -> float:
        """Seconds since the run started (previous sessions included)."""
        return state.elapsed_s + self.session_s()

    def is_due(self, name: str, now: float, every_s: float) -> bool:
        """Whether `every_s` seconds have passed since `name` was last due (and restart its timer if so)."""
        if now - self.last[name] < every_s:
            return False
        self.last[name] = now
        return True


@dataclass(frozen=True)
class _CurvePoint:
    """Where the run was when a point of the learning curve was due: the weights to evaluate, and the x-axes."""

    weights: dict[str, Any]
    version: int
    elapsed_s: float
    env_steps: float
    episodes: float


def _evaluate_into(config: TrainConfig, state: RunState, writer: MetricsWriter, point: _CurvePoint) -> None:
    """One point of the learning curve: greedy success on "test" and on each other split of `runtime.eval_splits`
    (`<split>_success` in the point, `charts/<split>_success` in the metrics)."""  # noqa: D205, D209
    weights, version, elapsed_s = point.weights, point.version, point.elapsed_s
    rate, by_task = evaluate_by_task(config, weights, version, "test", config.runtime.eval_episodes,
                                     EVAL_SEEDS["test"])
    others = {f"{split}_success": evaluate(config, weights, version, split, config.runtime.eval_episodes,
                                           EVAL_SEEDS[split])
              for split in config.runtime.eval_splits if split != "test"}
    state.curve.append({"time_s": round(elapsed_s, 1), "env_steps": int(point.env_steps),
                        "episodes": int(point.episodes), "version": version, "test_success": rate, **others})
    if others:
        writer.write(version, elapsed_s, {f"charts/{name}": value for name, value in others.items()})
    writer.evaluation(version, elapsed_s, rate, by_task)


def snapshot(state: RunState, session_s: float, runtime_stats: dict[str, float]) -> RunState:
    """`state` as it should be saved now: elapsed time and counters including this session's."""
    return replace(state, elapsed_s=state.elapsed_s + session_s, curve=list(state.curve),
                   totals=combine_sessions(state.totals, runtime_stats))


def configured_start(config: TrainConfig, run_dir: Path, show_progress: bool) -> dict[str, Any] | None:
    """The weights a new run starts from: `runtime.warm_start_from`'s, else a clone of the expert (saved in `run_dir`
    for later runs to take); None: a cold start (`runtime.warm_start_episodes` 0)."""  # noqa: D205, D209
    if config.runtime.warm_start_from is not None:
        weights = load_start_weights(config.runtime.warm_start_from, config.policy.policy_config())
        log.info("started from %s (no cloning)", config.runtime.warm_start_from)
        return weights
    if (weights := warm_start(config, show_progress)) is not None:
        log.info("warm start saved to %s (runtime.warm_start_from= takes it next time)",
                 save_warm_start(weights, run_dir))
    return weights


def train(config: TrainConfig, resume: str | Path | None = None, show_progress: bool = True,
          initial_weights: dict[str, Any] | None = None, overwrite: bool = False,
          callbacks: Sequence[Callback] = ()) -> dict[str, Any]:
    """Run training until its budget is spent; returns the summary (also written to run_dir/summary.json).

    The budget is `runtime.minutes` of wall clock, or fewer when `runtime.max_updates` or `runtime.max_env_steps`
    is reached first.

    Args:
        config: the run.
        resume: a run directory whose checkpoint to continue (same env and learner config; runtime may differ);
            the budget counts the time, updates and env steps already spent.
        show_progress: draw the progress bar.
        initial_weights: start from these policy weights instead of the configured warm start or
            `runtime.warm_start_from` (benchmarks give every run of a comparison the same starting policy); ignored
            when resuming. A run that clones saves its clone in `run_dir` (`WARM_START_FILE`).
        overwrite: a `run_dir` holding an earlier run loses that run's files instead of being refused.
        callbacks: `Callback`s called at the run's events (`distrl_agent.runtime.callbacks`); one returning False
            from `on_metrics` stops the run early.

    Raises:
        CheckpointError: `resume` holds no checkpoint, or one written under another config.
        RunDirError: `run_dir` holds an earlier run (and neither `resume` nor `overwrite` says what to do with it).
        WorkerError: a worker kept crashing (a checkpoint is written first, so the run can be resumed).
        ClusterError: the Ray runtime cannot start.
    """
    hooks = CallbackList(callbacks)
    checkpoint = find_checkpoint(resume) if resume is not None else None  # before anything is created
    config = prepare_run_dir(config, resume, overwrite)
    run_dir = Path(str(config.run_dir))
    run_dir.mkdir(parents=True, exist_ok=True)
    refuse_links(run_dir, RUN_FILES)  # before anything starts: a planted link would redirect our writes
    torch.manual_seed(config.runtime.seed)
    torch.set_num_threads(1)
    runtime, learner = make_runtime(config)
    state = RunState()
    if checkpoint is not None:
        learner.load(str(checkpoint.resolve()))
        state = read_run_state(checkpoint)
        state.resumes += 1
        log.info("resumed from %s at version %d after %.1f min", checkpoint, learner.get_version(),
                 state.elapsed_s / 60)
    else:  # a resumed run keeps the start its first session recorded
        start = initial_weights if initial_weights is not None else configured_start(config, run_dir, show_progress)
        if start is not None:
            learner.set_policy_weights(start)
        # the weights in hand; only a cold start asks the learner for its initial ones
        state.start_weights = weights_digest(start if start is not None else runtime.fetch(learner.weights()))
    spent = spent_fraction(config, state.elapsed_s, learner.get_version(), state.totals.get("runtime/env_steps", 0.0))
    if resume is not None and spent >= 1.0:
        rt = config.runtime
        log.warning("the budget (runtime.minutes=%s, max_updates=%s, max_env_steps=%s) is already spent; "
                    "raise it to train longer", rt.minutes, rt.max_updates, rt.max_env_steps)
    write_text(run_dir / "config.yaml", config.to_yaml())  # after a resume's config check passed
    writer = MetricsWriter(run_dir, hooks)
    hooks.on_start(config)
    progress = Progress(config.runtime.minutes * 60, spent, enabled=show_progress, totals=state.totals)
    final = state
    try:
        final = run_loop(config, learner, runtime, state, writer, progress, run_dir)
    except BaseException:  # run_loop has written a checkpoint if it got as far as training
        runtime.close()
        writer.close()
        progress.close()
        raise
    progress.close()
    final.checkpoints += 1
    save_checkpoint(learner, final, run_dir)
    writer.checkpointed(learner.get_version(), run_dir / CURRENT)
    weights, version = runtime.fetch(learner.weights()), learner.get_version()
    learner_stats = {k: v for k, v in learner.stats().items() if isinstance(v, (int, float))}
    runtime.close()
    rt = config.runtime
    log.info("final evaluation: %d greedy episodes on each split", rt.eval_episodes)
    test_success, test_by_task = evaluate_by_task(config, weights, version, "test", rt.eval_episodes,
                                                  EVAL_SEEDS["test"])
    summary = {
        "algorithm": config.learner.algorithm, "runtime": rt.runtime, "sync": rt.sync,
        "minutes": round(final.elapsed_s / 60, 2), "updates": version,
        "env_steps": int(final.totals["runtime/env_steps"]), "episodes": int(final.totals["runtime/episodes"]),
        "worker_restarts": int(final.totals["runtime/worker_restarts"]), "resumes": final.resumes,
        "start_weights_sha256": final.start_weights,
        "train_success": evaluate(config, weights, version, "train", rt.eval_episodes, EVAL_SEEDS["train"]),
        "test_success": test_success, "test_success_by_task": test_by_task,
        "curve": final.curve, **learner_stats, **final.totals, **final.metrics(),
        "runtime/steps_per_s": final.totals["runtime/env_steps"] / max(final.loop_s, 1e-9),
        "replay/samples_per_inserted": (learner_stats.get("replay/sampled", 0.0)
                                        / max(learner_stats.get("replay/inserted", 0.0), 1.0)),
    }
    for split in suites.splits_of(config.env.suite)[2:]:  # the generalisation splits a suite holds out (World)
        summary[f"{split}_success"], summary[f"{split}_success_by_task"] = evaluate_by_task(
            config, weights, version, split, rt.eval_episodes, EVAL_SEEDS[split])
    writer.write(version, final.elapsed_s, {k if "/" in k else f"summary/{k}": v for k, v in summary.items()
                                            if isinstance(v, (int, float))})  # grouped: no top-level tags
    writer.close()
    write_text(run_dir / "summary.json", json.dumps(summary, indent=2))
    hooks.on_end(summary)
    return summary
