"""Judge accuracy against the sim's oracle, calls saved by caching, and judge latency (issue #6).

1. Episodes: the expert and a noisy agent (the expert with 80% of its actions replaced by random ones) play tasks of
   the general suite (and webshop in the full run) on the simulated phone. Each episode's final screen (360 px wide),
   previous action and device state are kept; the oracle (`task.check(state)`) gives the true outcome.
2. Every judge sees every final screen — the model judges without the device state — and is scored against the truth:
   confusion matrix, accuracy (unknown verdicts count as wrong), balanced accuracy (the mean of the true-positive and
   true-negative rates: 50% for a judge that always says the same), precision, recall, seconds per call.
   Judges: the oracle (exact by construction; its figure is the time per call, judged as a share of one sim step
   timed in the same run, so that the target survives a change of machine), a tiny random-weight Idefics3
   checkpoint built on the fly (its accuracy is CHANCE: it proves the pipeline, not a model), and any judge a user
   plugs in: `ANDROID_GYM_JUDGE="http:http://localhost:8000/v1"` with `ANDROID_GYM_JUDGE_OPTIONS='{"model": "..."}'`
   (JSON), or `run(..., judges=[(spec, options)])`.
3. Calls saved: expert episodes in the env, the judge called at every step through `CachingEvaluator`, each task
   attempted 4 times with different world seeds (as in training, where tasks recur); the first round alone is
   reported too.
4. Batching: 8 envs' final screens judged by the tiny checkpoint as one batch vs one by one (best of several
   repeats), with and without the shared-prefix reuse.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import ActionType, action_space
from android_gym.evaluators.base import Evaluator, Observation, OracleEvaluator, Verdict, action_text
from android_gym.evaluators.cache import CachingEvaluator
from android_gym.evaluators.factory import make_evaluator
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig
from android_gym.tasks.base import Task
from android_gym.testing.tiny_vlm import build_tiny_idefics3
from benchmarks.result import Result, is_tiny, markdown_table
from benchmarks.sim import throughput

SUITES = {"general": "android_gym/General-v0", "webshop": "android_gym/WebShop-v0"}
SCREEN_WIDTH_PX = 360
NOISE = 0.8
"""Probability that the noisy agent replaces the expert's action by a random one."""
BATCH_ENVS = 8
ORACLE_SHARE_TARGET = 10.0
"""The oracle's verdict may cost at most this % of the elements-only sim step it judges (it runs after every step)."""


@dataclass
class Case:
    """One final screen to judge and its true outcome."""

    task: Task
    observation: Observation
    truth: bool
    agent: str


def collect(env_id: str, agent: str, episodes: int, seed: int) -> list[Case]:
    """Play `episodes` episodes with the expert or the noisy agent; keep each final screen, state and truth."""
    env = gym.make(env_id, screenshot_width=0, render_width=SCREEN_WIDTH_PX)
    space = action_space()
    space.seed(seed)
    rng = np.random.default_rng(seed)
    cases = []
    for episode in range(episodes):
        env.reset(seed=seed * 100_000 + episode)
        done, info = False, {}
        while not done:
            action: Any = env.unwrapped.expert_action()
            if agent == "noisy" and rng.random() < NOISE:
                action = space.sample()
                action["action_type"] = int(rng.choice([a.value for a in ActionType if a.value <= 4]))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        device, task = env.unwrapped.device, env.unwrapped.task
        state = device.state()
        shot = device.screenshot(SCREEN_WIDTH_PX)
        cases.append(Case(task, Observation(state, shot, action_text(info["action"])), task.check(state), agent))
    env.close()
    return cases


def score(judge: Evaluator, cases: Sequence[Case], with_state: bool, batch: int = BATCH_ENVS) -> dict[str, float]:
    """Judge every case (in batches of `batch`) and compare with the truth; `with_state` shows the device state."""
    verdicts: list[Verdict] = []
    start = time.perf_counter()
    for i in range(0, len(cases), batch):
        chunk = cases[i:i + batch]
        verdicts += judge.judge_batch([(c.task, c.observation if with_state else
                                        Observation(None, c.observation.screenshot, c.observation.last_action))
                                       for c in chunk])
    seconds = time.perf_counter() - start
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "unknown": 0}
    for case, verdict in zip(cases, verdicts, strict=True):
        if verdict.success is None:
            counts["unknown"] += 1
        else:
            counts[("t" if verdict.success == case.truth else "f") + ("p" if verdict.success else "n")] += 1
    n = len(cases)
    predicted, actual = counts["tp"] + counts["fp"], counts["tp"] + counts["fn"]
    negatives = counts["tn"] + counts["fp"] + sum(1 for c, v in zip(cases, verdicts, strict=True)
                                                  if v.success is None and not c.truth)
    positives = n - negatives
    balanced = 0.5 * (counts["tp"] / max(1, positives) + counts["tn"] / max(1, negatives))
    return {**counts, "n": n, "accuracy": (counts["tp"] + counts["tn"]) / n, "balanced_accuracy": balanced,
            "precision": counts["tp"] / predicted if predicted else float("nan"),
            "recall": counts["tp"] / actual if actual else float("nan"),
            "unknown_rate": counts["unknown"] / n, "s_per_call": seconds / n}


def oracle_us_per_call(cases: Sequence[Case], repeats: int) -> float:
    """Microseconds per `OracleEvaluator.judge` call on the sim's final states (best of `repeats` passes)."""
    oracle = OracleEvaluator()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for case in cases:
            oracle.judge(case.task, case.observation)
        best = min(best, (time.perf_counter() - start) / len(cases))
    return best * 1e6


class _CountingOracle(Evaluator):
    """The oracle behind a screenshot judge's interface: counts the calls a model judge would have received."""

    needs_screenshot = True

    def __init__(self) -> None:
        self.calls = 0
        self._oracle = OracleEvaluator()

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The oracle's verdict; one call counted."""
        self.calls += 1
        return self._oracle.judge(task, observation)


def calls_saved(tasks_per_round: int, rounds: int, seed: int = 0) -> tuple[float, float, int]:
    """(saved fraction over all rounds, saved fraction of the first round, judge requests) on expert episodes."""
    judge = CachingEvaluator(_CountingOracle())
    env = gym.make(SUITES["general"], evaluator=judge, screenshot_width=0, render_width=SCREEN_WIDTH_PX)
    chosen = np.random.default_rng(seed).choice(len(env.unwrapped.tasks), size=tasks_per_round, replace=False)
    first_round = 0.0
    for attempt in range(rounds):
        for index in chosen:
            env.reset(seed=1000 * attempt + int(index), options={"task": int(index)})
            done = False
            while not done:
                _, _, terminated, truncated, _ = env.step(env.unwrapped.expert_action())
                done = terminated or truncated
        if attempt == 0:
            first_round = judge.stats()["cache/saved_fraction"]
    stats = judge.stats()
    env.close()
    return stats["cache/saved_fraction"], first_round, int(stats["cache/requests"])


def batch_ratio(judge: MllmEvaluator, cases: Sequence[Case], repeats: int,
                envs: int = BATCH_ENVS) -> tuple[float, float, float]:
    """(batched / sequential time, sequential s per call, batched s per call) for `envs` requests."""
    items = [(c.task, Observation(None, c.observation.screenshot, c.observation.last_action))
             for c in cases[:envs]]
    judge.judge_batch(items)  # warm-up (first-call allocations)
    sequential = batched = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            judge.judge(*item)
        sequential = min(sequential, time.perf_counter() - start)
        start = time.perf_counter()
        judge.judge_batch(items)
        batched = min(batched, time.perf_counter() - start)
    return batched / sequential, sequential / len(items), batched / len(items)


def plugged_judges(judges: Sequence[tuple[str, dict[str, Any] | None]] | None) -> list[tuple[str, dict[str, Any]]]:
    """The judges given as an argument, else the one in `ANDROID_GYM_JUDGE` (+ JSON `ANDROID_GYM_JUDGE_OPTIONS`)."""
    if judges is not None:
        return [(spec, dict(options or {})) for spec, options in judges]
    spec = os.environ.get("ANDROID_GYM_JUDGE")
    return [(spec, json.loads(os.environ.get("ANDROID_GYM_JUDGE_OPTIONS") or "{}"))] if spec else []


def run(quick: bool, out: Path, judges: Sequence[tuple[str, dict[str, Any] | None]] | None = None) -> Result:
    """Measure judge accuracy, calls saved and latency; `quick` plays fewer episodes and repeats less.

    Tiny mode (`DISTRL_BENCH_TINY`): 2 episodes per agent (4 screens), batches of 2, one repeat, 2 tasks x 2
    rounds.
    """
    tiny_mode = is_tiny()
    episodes = 2 if tiny_mode else 40 if quick else 100
    envs = 2 if tiny_mode else BATCH_ENVS
    suites = ["general"] if quick else list(SUITES)
    result = Result(config={"episodes_per_agent_and_suite": episodes, "suites": suites, "noise": NOISE,
                            "screen_width_px": SCREEN_WIDTH_PX, "torch_threads": _torch_threads()})
    cases = [case for suite in suites for agent, seed in (("expert", 1), ("noisy", 2))
             for case in collect(SUITES[suite], agent, episodes, seed)]
    positives = sum(c.truth for c in cases)
    result.notes.append(f"{len(cases)} final screens ({positives} successes, {len(cases) - positives} failures) "
                        f"from the expert and a noisy agent ({NOISE:.0%} random actions) on {', '.join(suites)}; "
                        "ground truth: the sim's oracle. Model judges see the screen and the previous action only.")
    rows = []
    oracle_us = oracle_us_per_call(cases, 1 if tiny_mode else 20 if quick else 100)
    sim_step_us = 1e6 / throughput(SUITES["general"], 0, 0.2 if tiny_mode else 1.0)
    result.add("oracle/share_of_sim_step", 100 * oracle_us / sim_step_us, "%", target=ORACLE_SHARE_TARGET,
               higher_is_better=False)
    result.add("oracle/us_per_call", oracle_us, "µs")
    result.notes.append(f"Oracle: {oracle_us:.1f} µs a verdict against {sim_step_us:.0f} µs an elements-only sim step "
                        "of the general suite, timed in this run.")
    rows.append(_row("oracle (state checks)", score(OracleEvaluator(), cases, with_state=True), oracle_us * 1e-6))

    rounds = 2 if tiny_mode else 4
    saved, saved_first, requests = calls_saved(2 if tiny_mode else 10 if quick else 30, rounds)
    result.add("cache/calls_saved_expert", 100 * saved, "%", target=50.0)
    result.notes.append(f"Caching on expert episodes (judge called every step, {requests} requests, each task "
                        f"attempted {rounds} times with different seeds): {saved:.0%} of calls avoided; first attempts "
                        f"alone: {saved_first:.0%}.")

    with tempfile.TemporaryDirectory() as folder:
        path = build_tiny_idefics3(Path(folder) / "tiny_idefics3")
        tiny = MllmEvaluator(MllmJudgeConfig(path=str(path)))
        metrics = score(tiny, cases, with_state=False)
        rows.append(_row("tiny Idefics3, random weights (chance)", metrics, metrics["s_per_call"]))
        result.add("tiny_mllm/balanced_accuracy", 100 * metrics["balanced_accuracy"], "%")
        repeats = 1 if tiny_mode else 3 if quick else 10
        ratio, sequential_s, batched_s = batch_ratio(tiny, cases, repeats, envs)
        result.add(f"tiny_mllm/batched_over_sequential_{envs}", ratio, "x", target=1.0, higher_is_better=False)
        result.add("tiny_mllm/ms_per_call_sequential", 1000 * sequential_s, "ms")
        plain = MllmEvaluator(MllmJudgeConfig(path=str(path), reuse_prefix=False))
        plain_ratio, plain_sequential_s, plain_batched_s = batch_ratio(plain, cases, max(1, repeats // 2),
                                                                      envs)
        result.tables.append(markdown_table(
            [f"tiny Idefics3, {envs} envs", "one by one (ms/call)", f"one batch of {envs} (ms/call)",
             "batched / sequential"],
            [["shared-prefix reuse (default)", f"{1000 * sequential_s:.1f}", f"{1000 * batched_s:.1f}",
              f"{ratio:.2f}"],
             ["no prefix reuse", f"{1000 * plain_sequential_s:.1f}", f"{1000 * plain_batched_s:.1f}",
              f"{plain_ratio:.2f}"]]))
        tiny.close()
        plain.close()
    result.notes.append("The tiny checkpoint has random weights: its accuracy is chance (it gives nearly the same "
                        "answer to every screen, so its balanced accuracy is about 50%); it measures the pipeline's "
                        "cost and batching, not judging skill.")

    for spec, options in plugged_judges(judges):
        judge = make_evaluator(spec, {**options, "share": False})
        try:
            metrics = score(judge, cases, with_state=False)
        finally:
            judge.close()
        rows.append(_row(spec, metrics, metrics["s_per_call"]))
        name = re.sub(r"[^A-Za-z0-9.-]+", "_", spec).strip("_")[:60]
        result.add(f"judge/{name}/accuracy", 100 * metrics["accuracy"], "%")
        result.add(f"judge/{name}/balanced_accuracy", 100 * metrics["balanced_accuracy"], "%")
        result.add(f"judge/{name}/s_per_call", metrics["s_per_call"], "s")
    result.tables.insert(0, markdown_table(
        ["judge", "TP", "FP", "FN", "TN", "unknown", "accuracy", "balanced acc.", "precision", "recall",
         "time per call"], rows))
    return result


def _row(name: str, m: dict[str, float], seconds: float) -> list[Any]:
    per_call = f"{seconds * 1e6:.1f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.1f} ms"
    return [name, m["tp"], m["fp"], m["fn"], m["tn"], m["unknown"], f"{m['accuracy']:.1%}",
            f"{m['balanced_accuracy']:.1%}", f"{m['precision']:.1%}", f"{m['recall']:.1%}", per_call]


def _torch_threads() -> int:
    import torch

    return torch.get_num_threads()
