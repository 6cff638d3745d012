"""Soak: a long `distrl train` with faults at every layer at once, against a fault-free run of the same length and seed.

The faulty arm trains the default agent on the simulated phone through the real client stacks while:
- every phone is reached over ADB (`AdbDevice` -> the sim's ADB front on loopback), and 12% of device requests are
  dropped, hung, answered with garbage or refused as offline (`FaultConfig.mixed`);
- the reward judge is an OpenAI-compatible HTTP server behind the oracle's veto (`http:<url>&oracle`) that answers
  late, with 5xx, or with garbage 12% of the time (`soak_parts.FlakyJudge`);
- rollout worker processes are SIGKILLed at random (`soak_parts.WorkerKiller`);
- halfway through, the learner process itself is SIGKILLed, and `distrl train --resume` continues the run.
The clean arm runs the same stack (ADB front, HTTP judge, same seed and length) with none of the faults. Both final
policies are then evaluated the same way, on the plain sim with the oracle (`distrl eval`), so the comparison is of
what was learned.

Reported: episodes started/finished/truncated by faults, trajectories collected/inserted/dropped by reason,
half-inserted trajectories (replay audit of the checkpoint the crash left and of the final one), rewards from unknown
verdicts, escaped exceptions (tracebacks, unexpected exits, worker deaths we did not cause), orphaned workers after
the learner kill, the slowest step and judge call against their deadlines, resident memory of every process over
time (slope per hour after warm-up), what each process holds over time free of the allocator's swings (malloc bytes
in use and Python's allocated blocks, logged by `android_gym.heap` after each trim), and final test success of both
arms.

Length: 30 minutes of training per arm in the full suite, 1.5 in the quick one, 6 seconds in tiny mode;
`DISTRL_BENCH_SOAK_MINUTES` overrides it. The full suite adds a third, "long" arm: the clean arm run for 80 minutes
(`DISTRL_BENCH_SOAK_LONG_MINUTES`; 0 skips it), for the memory target alone, since a 25-minute fit cannot tell 1%/h
from the allocator's minute-scale swings, and the bounded caches grow by design until they are full: in a 75-minute
long arm (session 15) the env processes' judge-verdict caches were estimated to reach their default 4,096 entries
after ~128 minutes, so the fit measured their filling. The long arm therefore keeps 512 verdicts
(`LONG_ARM_JUDGE_CACHE`), full within ~20 minutes, and its phones start with their log rings and shell histories
full (`soak_parts.prefill_phones`), which a run fills only after hours (80 minutes of the ADB front's Python objects
growing +6.7%/h [+3.3, +11.2] were these, found with tracemalloc; session 24). The heap logs count the caches'
entries; the fit after the caches are full needs 20 minutes past that.

Seeds: final success is a learning result, so the full suite runs the faulty and clean arms at 3 seeds (0, 1, 2;
`DISTRL_BENCH_SOAK_SEEDS` sets the count) and compares them paired by seed with a Student-t interval, against the
clean arms' seed spread. Seed 0's arms are "faulty" and "clean", seed k's "faulty_sk" and "clean_sk"; the long arm
runs at seed 0. With one pair present the interval is binomial, evaluation noise only.

`DISTRL_BENCH_SOAK_REUSE=DIR` keeps arms already finished in an earlier output folder DIR (same minutes and seed), so
the arms can run in separate sessions, and `DISTRL_BENCH_SOAK_ARMS` (comma-separated, e.g. `long` or
`faulty_s1,clean_s1`) names the arms this call may run: an arm neither listed nor reused is left out of the report,
which then holds what the arms present can tell (the memory fits of a lone long arm, say).
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from android_gym.heap import HEAP_LOG_ENV
from android_gym.sim.adb import AdbFront, FaultConfig
from benchmarks.keep import SOAK_PLAN, UNBOUNDED
from benchmarks.result import Result, env_number, is_tiny, markdown_table
from benchmarks.soak_parts import (
    JUDGE_FAULTS,
    FlakyJudge,
    HeapSample,
    MemorySampler,
    WorkerKiller,
    audit_replay,
    caches_full_at,
    memory_slopes,
    plot_memory,
    prefill_phones,
    read_heap_csv,
    read_heap_logs,
    read_memory_csv,
    write_heap_csv,
)
from benchmarks.stats import evaluation_noise, mean_std, paired_interval, sample_std, verdict
from distrl_agent.errors import CheckpointError
from distrl_agent.runtime.checkpoint import META_FILE, REPLAY_FILE, find_checkpoint

DEVICE_FAULT_RATE = 0.12
DEVICE = {"timeout_s": 1.0, "retries": 3, "connect_timeout_s": 2.0}
"""AdbDevice options: 1 s per attempt, 3 retries."""
JUDGE = {"model": "soak-judge", "timeout_s": 1.0, "deadline_s": 4.0, "max_retries": 2, "backoff_s": 0.1,
         "max_backoff_s": 0.5, "image_width": 64}
"""HttpEvaluator options: 1 s per attempt, every call over within 4 s."""
DEVICE_CALLS_PER_STEP = 8
STEP_DEADLINE_S = DEVICE["timeout_s"] * (DEVICE["retries"] + 1) * DEVICE_CALLS_PER_STEP + JUDGE["deadline_s"]
"""Bound of one env step: each of ~8 device calls exhausting its attempts, plus one judge call at its deadline."""
JUDGE_DEADLINE_S = JUDGE["deadline_s"] + 0.5  # the deadline plus the time to notice it
EVAL_ENVS = 8  # `collect._play_plan` runs evaluations on min(8, episodes) envs


def plan(quick: bool) -> dict[str, Any]:
    """Minutes per arm, seed, evaluation episodes, kill interval and sampling period of this suite."""
    tiny = is_tiny()
    minutes = 0.1 if tiny else 1.5 if quick else 30.0
    minutes = env_number("DISTRL_BENCH_SOAK_MINUTES", minutes, strict=True)
    long_minutes = env_number("DISTRL_BENCH_SOAK_LONG_MINUTES", 0.0 if tiny or quick else 80.0)
    seeds = int(env_number("DISTRL_BENCH_SOAK_SEEDS", 1 if tiny or quick else 3, kind=int, strict=True))
    return {"minutes": minutes, "long_minutes": long_minutes, "seed": 0, "seeds": seeds,
            "judge_cache_entries": None, "prefill": False,
            "eval_episodes": 2 if tiny else 100 if quick else 200,
            "orphan_wait_s": 10.0 if tiny else 60.0,
            "worker_kill_every_s": 4.0 if tiny else max(45.0, minutes * 6), "memory_every_s": 1.0 if tiny else 10.0,
            "train": _train_overrides(tiny, minutes), "tiny": tiny}


def _train_overrides(tiny: bool, minutes: float) -> list[str]:
    # env processes: a hung phone stalls only its own env, as DistRL's collector is meant for slow, faulty devices
    # the data bounds off (issue 45's defaults came after the kept arms ran): the soak measures faults, not them
    base = [f"runtime.minutes={minutes}", "runtime.max_worker_restarts=1000", "runtime.checkpoint_every_s=60",
            "runtime.eval_every_s=300", "env.env_processes=true", *UNBOUNDED]
    if tiny:
        return [*base, "runtime.workers=1", "runtime.envs_per_worker=2", "runtime.warm_start_episodes=4",
                "runtime.warm_start_updates=5", "runtime.eval_episodes=2", "runtime.checkpoint_every_s=2",
                "learner.batch_size=4", "learner.min_replay_trajectories=4"]
    # 100 demonstrations, not 400: through faulty phones one env plays them at ~2 steps/s (400 took ~16 minutes)
    return [*base, "runtime.eval_episodes=50", "runtime.warm_start_episodes=100"]


def _judge(p: dict[str, Any]) -> dict[str, Any]:
    """The HTTP judge's options, with the verdict cache's size where the plan sets one."""
    entries = p.get("judge_cache_entries")
    return JUDGE if entries is None else {**JUDGE, "cache": {"max_entries": entries}}


def _distrl() -> list[str]:
    return [sys.executable, "-c", "import sys; from distrl_agent.cli import main; sys.exit(main())"]


def _latest_time_s(run_dir: Path) -> float:
    """Training seconds of the newest metrics record (0 before the first)."""
    try:
        lines = (run_dir / "metrics.jsonl").read_text().splitlines()
    except OSError:
        return 0.0
    for line in reversed(lines):
        try:
            return float(json.loads(line).get("time_s", 0.0))
        except ValueError:  # a line cut by the kill
            continue
    return 0.0


def _workers(config: list[str]) -> tuple[int, int]:
    from distrl_agent.config import load_config

    c = load_config(overrides=config)
    return c.runtime.worker_count(), c.runtime.envs_per_worker


def run_arm(is_faulty: bool, p: dict[str, Any], out: Path, name: str | None = None) -> dict[str, Any]:
    """One arm at `p["seed"]`: train (faulty: with every fault and one learner kill + resume), then a clean evaluation.

    `name` defaults to "faulty" or "clean"; the files it writes are `soak_<name>*`.
    """
    name = name or ("faulty" if is_faulty else "clean")
    run_dir = out / f"soak_{name}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    workers, envs = _workers(p["train"])
    faults = FaultConfig.mixed(DEVICE_FAULT_RATE, seed=p["seed"], hang_s=30.0) if is_faulty else None
    record: dict[str, Any] = {"arm": name, "seed": p["seed"], "exits": [], "learner_kills": 0,
                              "orphans_after_learner_kill": 0}
    sampler = MemorySampler(p["memory_every_s"], out / f"soak_{name}_memory.csv")
    killer = WorkerKiller(p["worker_kill_every_s"], seed=p["seed"]) if is_faulty else None
    heap_dir = run_dir.parent / f"soak_{name}_heap"
    shutil.rmtree(heap_dir, ignore_errors=True)
    heap_dir.mkdir()
    previous_heap_log = os.environ.get(HEAP_LOG_ENV)
    os.environ[HEAP_LOG_ENV] = str(heap_dir)  # this process (the phones, the judge) and every process it starts
    started = time.monotonic()
    with AdbFront(devices=workers * envs + EVAL_ENVS, perturbations="default", faults=faults) as front, \
            FlakyJudge(JUDGE_FAULTS if is_faulty else {}, slow_s=2 * JUDGE["timeout_s"], seed=p["seed"]) as judge:
        if p["prefill"]:
            record["prefilled_lines"] = prefill_phones(front.port, list(front.targets))
        overrides = [*p["train"], f"runtime.seed={p['seed']}", "env.device=adb:sim-{index}",
                     f"env.device_options={json.dumps({**DEVICE, 'port': front.port})}",
                     f"env.evaluator=http:{judge.base_url}&oracle", f"env.evaluator_options={json.dumps(_judge(p))}"]
        log = (run_dir.parent / f"soak_{name}.log").open("w")
        try:
            command = [*_distrl(), "train", "--run-dir", str(run_dir), "--quiet", *overrides]
            proc = _start(command, log, sampler, killer)
            if not is_faulty or _kill_learner_halfway(proc, run_dir, p, record, log):
                if is_faulty:
                    # the phones and the judge again: a run folder's are not taken on trust (issue 43)
                    proc = _start([*_distrl(), "train", "--resume", str(run_dir), "--quiet", *overrides], log,
                                  sampler, killer)
                record["exits"].append(_wait(proc, p))
        finally:
            if killer is not None:
                killer.stop()
            sampler.stop()
            log.close()
            if previous_heap_log is None:
                os.environ.pop(HEAP_LOG_ENV, None)
            else:
                os.environ[HEAP_LOG_ENV] = previous_heap_log
        counts: dict[str, int] = {}
        for target in front.targets.values():
            for key, value in target.faults.counts.items():
                counts[key] = counts.get(key, 0) + value
        record["device_requests"] = counts.get("requests", 0)
        record["device_faults"] = sum(v for k, v in counts.items() if k not in ("requests", "delay"))
        record["judge"] = dict(judge.counts)
    record["wall_s"] = time.monotonic() - started
    record["worker_kills"] = killer.kills if killer is not None else 0
    record["summary"] = _read_json(run_dir / "summary.json")
    record["tracebacks"] = (run_dir.parent / f"soak_{name}.log").read_text().count("Traceback (most recent call last)")
    record["final_audit"] = audit_replay(_newest_checkpoint(run_dir) / REPLAY_FILE, _budgets())
    samples = sampler.samples
    record["memory"] = _memory(samples, p["minutes"])
    record["memory_samples"] = len(samples)
    heap = read_heap_logs(heap_dir, {pid: role for _, role, pid, _ in samples}, sampler.t0_wall)
    write_heap_csv(heap, out / f"soak_{name}_heap.csv")
    record.update(_heap_fits(heap, p["minutes"], samples))
    record["heap_samples"] = len(heap)
    record["eval"] = _clean_eval(run_dir, p["eval_episodes"])
    (out / f"soak_{name}.json").write_text(json.dumps(record, indent=1))
    return record


def _memory(samples: list[tuple[float, str, int, int]], minutes: float) -> dict[str, dict[str, float]]:
    """`memory_slopes` after a warm-up of 5 minutes (or a fifth of a shorter run), over at least as long; each role
    also gets `late_pct_per_h` (with `late_low`/`late_high`): the same fit over the arm's second half only, which
    tells growth that slows down (caches and allocator arenas filling) from growth that keeps its pace (a leak)."""  # noqa: D205, D209
    warmup_s = min(300.0, minutes * 60 / 5)
    out = memory_slopes(samples, warmup_s=warmup_s, min_span_s=warmup_s)
    late = memory_slopes(samples, warmup_s=minutes * 60 / 2, min_span_s=warmup_s)
    for role, m in out.items():
        if role in late:
            m.update(late_pct_per_h=late[role]["pooled_pct_per_h"], late_low_pct_per_h=late[role]["low_pct_per_h"],
                     late_high_pct_per_h=late[role]["high_pct_per_h"])
    return out


def _heap_fits(samples: list[HeapSample], minutes: float,
               rss: list[tuple[float, str, int, int]] | None = None) -> dict[str, Any]:
    """`_memory`'s fits of the heap logs: "heap" (malloc bytes in use) and "python_blocks" (allocated blocks); and
    "caches" (`caches_full_at`) with, for each role whose caches were full early enough, the same two fits from
    that moment on ("heap_after_caches", "python_blocks_after_caches"), and of the resident memory `rss` when given
    ("memory_after_caches"): growth that is not a cache filling to its cap. "Early enough" leaves at least 20
    minutes (a quarter of a shorter arm) after it."""  # noqa: D205, D209
    heap = [(t, role, pid, used) for t, role, pid, used, _, _ in samples]
    blocks = [(t, role, pid, count) for t, role, pid, _, count, _ in samples]
    out: dict[str, Any] = {"heap": _memory(heap, minutes), "python_blocks": _memory(blocks, minutes),
                           "caches": caches_full_at(samples), "heap_after_caches": {},
                           "python_blocks_after_caches": {}, "memory_after_caches": {}}
    min_span_s = min(1200.0, minutes * 60 / 4)
    kinds = [("heap_after_caches", heap), ("python_blocks_after_caches", blocks)]
    if rss is not None:
        kinds.append(("memory_after_caches", rss))
    for role, caches in out["caches"].items():
        warmup_s = max(min(300.0, minutes * 60 / 5), caches["full_at_s"])
        for kind, series in kinds:
            fit = memory_slopes([s for s in series if s[1] == role], warmup_s=warmup_s, min_span_s=min_span_s)
            out[kind].update(fit)
    return out


MEMORY_TARGET = 1.0  # %/h after warm-up


def memory_verdict(m: dict[str, float]) -> str:
    """Where a role's growth interval lies against `MEMORY_TARGET`."""
    low, high = m.get("low_pct_per_h", math.nan), m.get("high_pct_per_h", math.nan)
    if math.isnan(low) or math.isnan(high):
        return "no interval"
    if high <= MEMORY_TARGET:
        return "within target"
    return "above target" if low > MEMORY_TARGET else "not separable from the target"


def _start(command: list[str], log: Any, sampler: MemorySampler, killer: WorkerKiller | None) -> subprocess.Popen:
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    sampler.watch(psutil.Process(proc.pid))
    if killer is not None:
        killer.watch(psutil.Process(proc.pid))
    return proc


def _wait(proc: subprocess.Popen, p: dict[str, Any]) -> int:
    limit_s = p["minutes"] * 60 * 2 + 900  # warm start, evaluations and the summary come on top of the budget
    try:
        return proc.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return -999  # counted as an unexpected exit: the run hung past its limit


def _kill_learner_halfway(proc: subprocess.Popen, run_dir: Path, p: dict[str, Any], record: dict[str, Any],
                          log: Any) -> bool:
    """SIGKILL the train process once it has trained half its budget and written a checkpoint; audit what it left.

    Returns False (and records the exit) when the process ended before it could be killed.
    """
    half_s = p["minutes"] * 60 / 2
    deadline = time.monotonic() + p["minutes"] * 60 * 2 + 900
    training_since = None  # the first metrics record is the evaluation that opens the training loop
    while proc.poll() is None and time.monotonic() < deadline:
        if training_since is None and (run_dir / "metrics.jsonl").exists():
            training_since = time.monotonic()
        if (training_since is not None and time.monotonic() - training_since >= half_s
                and (_newest_checkpoint(run_dir) / META_FILE).exists()):
            break
        time.sleep(0.5)
    if proc.poll() is not None:
        record["exits"].append(proc.returncode or -998)  # it ended before it could be killed: an unexpected exit
        return False
    workers = psutil.Process(proc.pid).children(recursive=True)  # rollout workers, their env processes, tracker
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    record["learner_kills"] += 1
    log.write(f"\n[soak] learner SIGKILLed at {_latest_time_s(run_dir):.0f} s of training\n")
    log.flush()
    killed_at = time.monotonic()
    while time.monotonic() - killed_at < p["orphan_wait_s"]:  # workers and env processes see their pipes close
        orphans = [w for w in workers if _is_alive(w)]
        if not orphans:
            break
        time.sleep(0.25)
    record["descendants_exit_s"] = time.monotonic() - killed_at
    record["orphans_after_learner_kill"] += len(orphans)
    for w in orphans:
        w.kill()
    record["crash_audit"] = audit_replay(_newest_checkpoint(run_dir) / REPLAY_FILE, _budgets())
    return True


def _newest_checkpoint(run_dir: Path) -> Path:
    """The checkpoint a resume would load (after a kill it may still be a `checkpoint.new-*` folder); where there is
    none yet, `run_dir/checkpoint`, which the audit then reports as missing."""  # noqa: D205, D209
    try:
        return find_checkpoint(run_dir)
    except CheckpointError:
        return run_dir / "checkpoint"


def _is_alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


@functools.cache
def _budgets() -> dict[str, int]:
    import gymnasium as gym

    import android_gym  # noqa: F401  (registers the env ids)

    budgets = {}
    for split in ("train", "test"):
        env = gym.make("android_gym/General-v0", split=split, screenshot_width=0)
        budgets.update({t.name: t.max_steps for t in env.unwrapped.tasks})
        env.close()
    return budgets


def _clean_eval(run_dir: Path, episodes: int) -> dict[str, Any]:
    """`distrl eval` of the run's final checkpoint on the plain sim with the oracle (no faults, no ADB)."""
    out = run_dir / "eval_clean.json"
    command = [*_distrl(), "eval", "--checkpoint", str(run_dir), "--split", "test", "--episodes", str(episodes),
               "--out", str(out), "env.device=sim", "env.device_options={}", "env.evaluator=oracle",
               "env.evaluator_options={}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        return {"error": done.stderr[-2000:]}
    return _read_json(out)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _reused(name: str, p: dict[str, Any]) -> dict[str, Any] | None:
    source = os.environ.get("DISTRL_BENCH_SOAK_REUSE")
    if not source:
        return None
    record = _read_json(Path(source) / f"soak_{name}.json")
    config = _read_json(Path(source) / SOAK_PLAN)
    key = "long_minutes" if name == "long" else "minutes"
    same_long_plan = name != "long" or (config.get("long_judge_cache", 4096) == LONG_ARM_JUDGE_CACHE
                                        and config.get("long_prefill", False))
    same_seed = config.get("seed") == p["seed"] and record.get("seed", 0) == arm_seed(name)  # before seeds: 0
    if record and config.get(key) == p[key] and same_seed and same_long_plan:
        return record
    return None


LONG_ARM_JUDGE_CACHE = 512
"""Verdicts the long arm's judge cache keeps (default 4,096): full within ~20 minutes instead of ~2 hours, so the fit
after the caches are full sees an hour of what is not a cache."""


def _long_plan(p: dict[str, Any]) -> dict[str, Any]:
    """The plan of the long arm: the clean arm's, `long_minutes` long, with a smaller judge cache and its phones'
    bounded stores full from the start."""  # noqa: D205, D209
    minutes = p["long_minutes"]
    return {**p, "minutes": minutes, "train": _train_overrides(p["tiny"], minutes),
            "judge_cache_entries": LONG_ARM_JUDGE_CACHE, "prefill": True}


def run(quick: bool, out: Path) -> Result:
    """Run the planned arms that `DISTRL_BENCH_SOAK_ARMS` allows (or reuse them) and report."""
    p = plan(quick)
    runnable = runnable_arms(p)  # a bad selector is refused before any arm runs
    unplanned = [name for name in runnable if name not in planned_arms(p)]
    if unplanned:
        why = (f"the {'quick' if quick else 'full'} suite plans no long arm; use `--suite full` or set "
               "DISTRL_BENCH_SOAK_LONG_MINUTES" if "long" in unplanned else
               f"it runs {p['seeds']} seed(s) (0 to {p['seeds'] - 1}); set DISTRL_BENCH_SOAK_SEEDS")
        raise ValueError(f"DISTRL_BENCH_SOAK_ARMS names {', '.join(unplanned)}, which this plan does not run: {why}")
    out.mkdir(parents=True, exist_ok=True)
    result = Result(config={k: v for k, v in p.items() if k != "train"} | {
        "train_overrides": p["train"], "device_fault_rate": DEVICE_FAULT_RATE, "device": DEVICE, "judge": JUDGE,
        "judge_faults": JUDGE_FAULTS, "step_deadline_s": STEP_DEADLINE_S, "judge_deadline_s": JUDGE_DEADLINE_S})
    arms = {}
    for name in planned_arms(p):
        reused = _reused(name, p)
        if reused is not None:
            source = Path(os.environ["DISTRL_BENCH_SOAK_REUSE"])
            result.notes.append(f"{name} arm reused from {source}.")
            (out / f"soak_{name}.json").write_text(json.dumps(reused, indent=1))
            for kind in ("memory", "heap"):
                csv_name = f"soak_{name}_{kind}.csv"
                if (source / csv_name).is_file() and source.resolve() != out.resolve():
                    shutil.copy(source / csv_name, out / csv_name)
        if reused is None and name not in runnable:
            result.notes.append(f"{name} arm not run: `DISTRL_BENCH_SOAK_ARMS` leaves it out and no reused run holds "
                                "it.")
            continue
        arm_plan = _long_plan(p) if name == "long" else {**p, "seed": arm_seed(name)}
        arms[name] = reused or run_arm(name.startswith("faulty"), arm_plan, out, name)
        (out / SOAK_PLAN).write_text(json.dumps({**{k: p[k] for k in ("minutes", "long_minutes", "seed")},
                                                 "long_judge_cache": LONG_ARM_JUDGE_CACHE, "long_prefill": True}))
    series = {name: read_memory_csv(out / f"soak_{name}_memory.csv") for name in arms
              if (out / f"soak_{name}_memory.csv").is_file()}
    for name, samples in series.items():  # refitted from the raw samples: reused arms get today's estimates too
        arms[name]["memory"] = _memory(samples, p["long_minutes"] if name == "long" else p["minutes"])
        if (out / f"soak_{name}_heap.csv").is_file():
            arms[name].update(_heap_fits(read_heap_csv(out / f"soak_{name}_heap.csv"),
                                         p["long_minutes"] if name == "long" else p["minutes"], samples))
    report(arms, p, result)
    if series:
        result.plots.append(str(plot_memory(series, out / "soak_memory.png")))
    return result


ARM_NAME = re.compile(r"(faulty|clean)(_s[1-9][0-9]*)?|long")
"""An arm's name: "faulty" and "clean" at seed 0, "faulty_sK" and "clean_sK" at seed K, "long" (seed 0)."""


def arm_name(kind: str, seed: int) -> str:
    """The name of the `kind` ("faulty" or "clean") arm at `seed`: seed 0's keep the names they had before seeds.

    >>> arm_name("faulty", 0), arm_name("clean", 2), arm_seed("clean_s2"), arm_seed("long")
    ('faulty', 'clean_s2', 2, 0)
    """
    return kind if seed == 0 else f"{kind}_s{seed}"


def arm_seed(name: str) -> int:
    """The seed of the arm called `name` (see `arm_name`)."""
    _, _, seed = name.partition("_s")
    return int(seed) if seed else 0


def planned_arms(p: dict[str, Any]) -> tuple[str, ...]:
    """The arms of this plan: faulty and clean at each seed, and long when `long_minutes` is set."""
    pairs = tuple(arm_name(kind, seed) for seed in range(p["seeds"]) for kind in ("faulty", "clean"))
    return (*pairs, "long") if p["long_minutes"] > 0 else pairs


def runnable_arms(p: dict[str, Any]) -> tuple[str, ...]:
    """The arms `DISTRL_BENCH_SOAK_ARMS` lets this call run (all planned by default); a malformed name is refused."""
    value = os.environ.get("DISTRL_BENCH_SOAK_ARMS", "").strip()
    if not value:
        return planned_arms(p)
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    unknown = [name for name in names if not ARM_NAME.fullmatch(name)]
    if unknown or not names:
        raise ValueError(f"DISTRL_BENCH_SOAK_ARMS={value!r}: expected a comma-separated list of arms: faulty, clean, "
                         "long, or faulty_sK and clean_sK for seed K >= 1")
    return names


def _counts(record: dict[str, Any]) -> dict[str, float]:
    s = record["summary"]
    episodes = s.get("runtime/episodes", 0)
    faulty = s.get("runtime/faulty_episodes", 0)
    return {
        "episodes started": episodes + s.get("runtime/discarded_partial_episodes", 0),
        "episodes finished": episodes - faulty,
        "episodes truncated by a fault": faulty,
        "episodes lost with a killed worker": s.get("runtime/discarded_partial_episodes", 0),
        "trajectories collected": episodes - faulty,
        "trajectories dropped: worker outbox full": s.get("runtime/dropped_trajectories", 0),
        "trajectories reaching the learner": s.get("learner/received",  # runs before it existed: a lower bound
                                                   s.get("learner/ingested", 0) + s.get("learner/rejected", 0)),
        "trajectories rejected as malformed": s.get("learner/rejected", 0),
        "trajectories inserted": s.get("replay/inserted", 0),
        "trajectories dropped: stale": s.get("replay/dropped_stale", 0),
        "trajectories evicted": s.get("replay/evicted", 0),
        "learner updates": s.get("learner/updates", s.get("updates", 0)),
        "worker kills (ours)": record.get("worker_kills", 0),
        "worker restarts": s.get("runtime/worker_restarts", 0),
        "learner kills + resumes": record.get("learner_kills", 0),
        "orphaned workers after the learner kill": record.get("orphans_after_learner_kill", 0),
        "seconds until the killed learner's processes were gone": record.get("descendants_exit_s", 0.0),
        "device requests": record.get("device_requests", 0),
        "device faults injected": record.get("device_faults", 0),
        "judge requests": record.get("judge", {}).get("requests", 0),
        "judge faults injected": sum(record.get("judge", {}).get(k, 0) for k in JUDGE_FAULTS),
        "steps with an unknown verdict (each a completed task: the oracle vetoes the rest)":
            s.get("runtime/unknown_verdicts", 0),
        # arms run before issue 43 counted neither (n/a): they trained on unknown verdicts as failures
        "episodes ended at an unknown verdict": s.get("runtime/unknown_verdict_cuts", math.nan),
        "unknown-verdict steps shipped with a label": s.get("runtime/unknown_verdict_labels", math.nan),
        "half-inserted trajectories (crash checkpoint)": record.get("crash_audit", {}).get("half_inserted", 0),
        "half-inserted trajectories (final checkpoint)": record.get("final_audit", {}).get("half_inserted", 0),
        "escaped exceptions": escaped(record),
        "slowest step (s)": s.get("runtime/step_s_max", 0.0),
        "slowest judge call (s)": s.get("runtime/judge_s_max", 0.0),
        "final test success, clean eval (%)": 100 * record.get("eval", {}).get("success", float("nan")),
    }


def escaped(record: dict[str, Any]) -> int:
    """Escaped exceptions of an arm: tracebacks, unexpected exits, deaths we did not cause, a run that left nothing.

    Tracebacks count in the logs; exits other than 0 besides our learner kill; worker restarts beyond our kills; and
    a run that left no summary or no final checkpoint.
    """
    unexpected_exits = sum(code != 0 for code in record.get("exits", []))
    restarts = record["summary"].get("runtime/worker_restarts", 0)
    deaths_not_ours = max(0, int(restarts) - int(record.get("worker_kills", 0)))
    lost_run = (not record["summary"]) + record.get("final_audit", {}).get("missing", 0)  # no summary, no checkpoint
    return int(record.get("tracebacks", 0)) + unexpected_exits + deaths_not_ours + lost_run


def report(arms: dict[str, dict[str, Any]], p: dict[str, Any], result: Result) -> None:
    """Tables and figures of the arms present (see the module docstring for what each means)."""
    counted = {name: _counts(record) for name, record in arms.items() if name != "long"}
    if counted:
        keys = next(iter(counted.values()))
        rows = [[key, *(_fmt(c[key]) for c in counted.values())] for key in keys]
        labels = [f"{name.partition('_')[0]}, seed {arm_seed(name)}" for name in counted]
        result.tables.append(markdown_table([f"soak, {p['minutes']:g} min per arm", *labels], rows))
    mem_rows = []
    for name, record in arms.items():
        for role, m in sorted(record.get("memory", {}).items()):
            interval = (f"{m['pooled_pct_per_h']:+.2f} [{m['low_pct_per_h']:+.2f}, {m['high_pct_per_h']:+.2f}]"
                        if "pooled_pct_per_h" in m else "n/a")
            late = (f"{m['late_pct_per_h']:+.2f} [{m['late_low_pct_per_h']:+.2f}, {m['late_high_pct_per_h']:+.2f}]"
                    if "late_pct_per_h" in m else "n/a")
            mem_rows.append([name, role, f"{m['processes']:.0f}", f"{m['mean_rss_mib']:.0f}",
                             f"{m['peak_rss_mib']:.0f}", f"{m['slope_pct_per_h']:+.2f}", f"{m['max_pct_per_h']:+.2f}",
                             interval, memory_verdict(m), late])
    result.tables.append(markdown_table(["arm", "process", "processes fitted", "mean RSS MiB", "peak RSS MiB",
                                         "slope %/h (weighted)", "steepest %/h", "within-process %/h [95%]",
                                         f"vs {MEMORY_TARGET:g}%/h", "second half %/h [95%]"], mem_rows))
    judged = "long" if "long" in arms else "clean"  # the longest fault-free arm: the fairest fit of growth
    if judged in arms:
        _memory_figures(arms[judged], judged, result)
    if faulty := {name: c for name, c in counted.items() if name.startswith("faulty")}:
        _fault_figures(faulty, result)
        _success_figures(arms, p, result)
    result.notes.append(f"Deadlines: a step {STEP_DEADLINE_S:.0f} s (each of ~{DEVICE_CALLS_PER_STEP} device calls "
                        f"exhausting {DEVICE['retries'] + 1} attempts of {DEVICE['timeout_s']} s, plus a judge call), "
                        f"a judge call {JUDGE_DEADLINE_S} s (`deadline_s` {JUDGE['deadline_s']} s + 0.5 s).")


def _memory_figures(arm: dict[str, Any], judged: str, result: Result) -> None:
    """Resident-memory and heap growth of the longest fault-free arm, against `MEMORY_TARGET`."""
    for role, m in sorted(arm.get("memory", {}).items()):
        if "pooled_pct_per_h" in m and role != "tracker":  # multiprocessing's resource tracker: 13 MiB, flat
            result.add(f"soak/memory_slope/{role}", m["pooled_pct_per_h"], "%/h")
            # the target holds when the whole interval is within it, not the point estimate
            result.add(f"soak/memory_slope_upper95/{role}", m["high_pct_per_h"], "%/h", target=MEMORY_TARGET,
                       higher_is_better=False)
    heap_rows = []
    for role in sorted(set(arm.get("heap", {})) | set(arm.get("python_blocks", {}))):
        h, caches = arm.get("heap", {}).get(role, {}), arm.get("caches", {}).get(role)
        cells = [judged, role, _interval(h), _interval(arm.get("python_blocks", {}).get(role, {})),
                 f"{h['mean_rss_mib']:.0f}" if "mean_rss_mib" in h else "",
                 f"{caches['entries_at_end']:,.0f}" if caches else "n/a",
                 f"{caches['full_at_s'] / 60:.0f}" if caches else "n/a",
                 _interval(arm.get("heap_after_caches", {}).get(role, {})),
                 _interval(arm.get("python_blocks_after_caches", {}).get(role, {})),
                 _interval(arm.get("memory_after_caches", {}).get(role, {}))]
        if role != "tracker":
            if "high_pct_per_h" in h:
                result.add(f"soak/heap_slope_upper95/{role}", h["high_pct_per_h"], "%/h", target=MEMORY_TARGET,
                           higher_is_better=False)
            if "high_pct_per_h" in (after := arm.get("heap_after_caches", {}).get(role, {})):
                result.add(f"soak/heap_slope_after_caches_upper95/{role}", after["high_pct_per_h"], "%/h",
                           target=MEMORY_TARGET, higher_is_better=False)
            if "high_pct_per_h" in (after := arm.get("memory_after_caches", {}).get(role, {})):
                result.add(f"soak/memory_slope_after_caches_upper95/{role}", after["high_pct_per_h"], "%/h",
                           target=MEMORY_TARGET, higher_is_better=False)
        heap_rows.append(cells)
    if heap_rows:
        result.tables.append(markdown_table(
            ["arm", "process", "malloc bytes in use %/h [95%]", "Python blocks %/h [95%]", "mean in use MiB",
             "cached entries at end", "caches full at min", "malloc after caches full %/h [95%]",
             "Python blocks after caches full %/h [95%]", "RSS after caches full %/h [95%]"], heap_rows))
        result.notes.append("Heap: what each process holds, logged after each 10-s trim (`android_gym.heap`), fitted "
                            "like the resident memory. Resident memory swings by hundreds of MB as freed memory is "
                            "kept and handed back; bytes in use do not, so a leak shows here first. Python's small "
                            "objects live outside malloc, hence the allocated-blocks column. The bounded caches "
                            "(judge verdicts, web answers, shop results, rendered images, policy text) grow by "
                            "design until full: the log counts their entries, a role's caches are full once every "
                            "process holds 99% of its final count, and the last three columns fit from then on (n/a: "
                            "full too late to leave 20 minutes, a quarter of a shorter arm).")
    result.notes.append("Memory: growth after warm-up (5 minutes, or a fifth of a shorter arm) in % of each "
                        "process's mean RSS per hour, fitted within processes, with a 95% block-bootstrap interval "
                        f"(5-minute blocks); the metrics are the {judged} arm's. A role is within the "
                        f"{MEMORY_TARGET:g}%/h target when its whole interval is.")


def _interval(m: dict[str, float]) -> str:
    """A fit's "estimate [low, high]" in %/h, or n/a."""
    if "pooled_pct_per_h" not in m:
        return "n/a"
    return f"{m['pooled_pct_per_h']:+.2f} [{m['low_pct_per_h']:+.2f}, {m['high_pct_per_h']:+.2f}]"


LARGEST_OVER_ARMS = ("slowest step (s)", "slowest judge call (s)",
                     "seconds until the killed learner's processes were gone")
"""Counts that combine over the faulty arms as their largest; the others add up (final success is paired by seed)."""


def _fault_figures(faulty: dict[str, dict[str, float]], result: Result) -> None:
    """What the faults did over every faulty arm present (rates, kills, audits, deadlines), against the targets."""
    total = {key: (max if key in LARGEST_OVER_ARMS else sum)(c[key] for c in faulty.values())
             for key in next(iter(faulty.values())) if not key.startswith("final test success")}
    result.add("soak/device_fault_rate", 100 * total["device faults injected"] / max(1, total["device requests"]), "%",
               target=10.0)
    result.add("soak/judge_fault_rate", 100 * total["judge faults injected"] / max(1, total["judge requests"]), "%",
               target=10.0)
    result.add("soak/worker_kills", total["worker kills (ours)"], "kills")
    result.add("soak/learner_kills_resumed", total["learner kills + resumes"], "kills", target=1.0)
    for key, name in (("half-inserted trajectories (crash checkpoint)", "half_inserted/crash"),
                      ("half-inserted trajectories (final checkpoint)", "half_inserted/final"),
                      ("unknown-verdict steps shipped with a label", "unknown_verdict_labels"),
                      ("escaped exceptions", "escaped_exceptions"),
                      ("orphaned workers after the learner kill", "orphans_after_learner_kill")):
        if math.isnan(total[key]):
            result.notes.append(f"soak/{name} not measured: a kept faulty arm predates its counter ({key})")
            continue
        result.add(f"soak/{name}", total[key], "count", target=0.0, higher_is_better=False)
    result.add("soak/slowest_step_over_deadline", total["slowest step (s)"] / STEP_DEADLINE_S, "x", target=1.0,
               higher_is_better=False)
    result.add("soak/slowest_judge_over_deadline", total["slowest judge call (s)"] / JUDGE_DEADLINE_S, "x",
               target=1.0, higher_is_better=False)


def success_pairs(arms: dict[str, dict[str, Any]], seeds: int) -> dict[int, tuple[float, float]]:
    """Seed -> (faulty, clean) final test success, for each seed whose two arms are present and evaluated."""
    pairs = {}
    for seed in range(seeds):
        a, b = (arms.get(arm_name(kind, seed), {}).get("eval", {}).get("success") for kind in ("faulty", "clean"))
        if a is not None and b is not None:
            pairs[seed] = (a, b)
    return pairs


def _success_figures(arms: dict[str, dict[str, Any]], p: dict[str, Any], result: Result) -> None:
    """Final success of the faulty arms against the clean ones: paired by seed with a Student-t interval when two or
    more seeds have both arms, else a binomial interval (evaluation noise only). Targets: not separably worse and,
    with seeds, the faulty mean within one sample std of the clean arms' mean (the clean run's seed spread)."""  # noqa: D205, D209
    pairs = success_pairs(arms, p["seeds"])
    if not pairs:
        return
    a, b = (np.array([pair[k] for pair in pairs.values()]) for k in (0, 1))
    n = p["eval_episodes"]
    if len(pairs) >= 2:
        mean, std, low, high = paired_interval(a, b)
        half_width, how = mean - low, f"paired by seed over {len(pairs)} seeds, Student t"
        per_seed = ", ".join(f"seed {s}: {100 * f:.1f} vs {100 * c:.1f}" for s, (f, c) in pairs.items())
        spread = (f" Clean arms' seed spread: {mean_std(b)} % (range {100 * b.min():.1f}-{100 * b.max():.1f}); "
                  f"faulty {mean_std(a)} %; faulty vs clean by seed: {per_seed}; the differences' sample std "
                  f"{100 * std:.1f} points.")
        clean_std = sample_std(b)
        result.add("soak/test_success/clean_seed_std", 100 * clean_std, "points")
        # the yardstick: the faulty arms' mean within one sample std of the clean arms' mean
        result.add("soak/test_success/faulty_in_clean_seed_std", mean / max(clean_std, 1e-9), "clean std",
                   target=-1.0)
    else:
        mean = float(a[0] - b[0])
        half_width = 1.96 * math.hypot(evaluation_noise(a[0], n), evaluation_noise(b[0], n)) / 100
        low, high, spread = mean - half_width, mean + half_width, ""
        how = "binomial, one seed per arm: evaluation noise only, not the seed spread"
    result.add("soak/test_success/faulty", 100 * a.mean(), "%")
    result.add("soak/test_success/clean", 100 * b.mean(), "%")
    result.add("soak/test_success/faulty_minus_clean", 100 * mean, "points", target=-100 * half_width)
    result.notes.append(f"Final test success (clean eval, {n} balanced test episodes per arm): faulty "
                        f"{100 * a.mean():.1f}% vs clean {100 * b.mean():.1f}%, difference {100 * mean:+.1f} points, "
                        f"95% interval [{100 * low:+.1f}, {100 * high:+.1f}] ({how}): {verdict(low, high)}.{spread} "
                        "The targets: faults leave the run no separably worse than the clean one and, with seeds, "
                        "the faulty mean within one seed std of the clean arms'.")


def _fmt(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) and not value.is_integer() else f"{value:,.0f}"
