"""Collection: trajectories per minute of the distrl runtime, asynchronous vs synchronous, local and Ray.

Reproduces the paper's Fig. d (collection throughput vs number of emulators, with the Little's-law bound) and Fig. c
(trajectories collected in a fixed budget) on the real runtime, `distrl_agent.runtime.collect.collect`, acting with a
warm-started small policy: an imperfect agent whose episodes end early when it succeeds and run to the step budget
when it does not, as a real agent's do. Every env is the simulated phone with the heavy-tailed "emulator" latency
preset (1.5 s median steps, 12 s median resets), time-scaled by TIME_SCALE, in its own process.

- async (DistRL): each env runs episodes back to back; the worker acts on whichever envs are ready.
- sync (DigiRL multi-machine, `runtime.sync=true`): a round plays one episode on every env with the same weights, in
  lock-step as DigiRL's collector steps its emulators (`batch_interact_environment`: every reset and every step of the
  batch waits for the slowest emulator before the next batched action), and ends when the last episode ends.
- sync, round barrier only (`runtime.sync_lockstep=false`, at 32 envs): the same rounds, but each env plays its
  episode at its own pace; only the round's end waits. It separates the cost of per-step barriers from that of rounds.
  In both sync modes the learner's training time between rounds is not counted, which flatters sync.
- bound: Little's law, N / (mean reset + mean episode length x mean step), from the preset's mean delays and the async
  run's mean episode length; policy inference and process overheads are what keep a runtime below it.

`DISTRL_BENCH_COLLECTION_SIZES` ("4,32") and `DISTRL_BENCH_COLLECTION_RUNTIMES` ("local") shrink a suite.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from android_gym.sim.latency import LatencyConfig
from benchmarks.plots import Line, line_plot
from benchmarks.result import Result, is_tiny, markdown_table
from distrl_agent.config import TrainConfig, load_config
from distrl_agent.runtime.collect import collect
from distrl_agent.runtime.train import warm_start

TIME_SCALE = 0.05
"""Emulator seconds x TIME_SCALE = benchmark seconds (64 emulator-paced envs must fit on 2 cores with the policy)."""
PAPER_BUDGET_S = 6000.0
"""Fig. c's budget in emulator seconds (≈770 async vs ≈320 sync trajectories in the paper at 32 emulators)."""


def runtime_config(runtime: str, envs: int, sync: bool, seed: int = 0, lockstep: bool = True) -> TrainConfig:
    """One worker stepping `envs` emulator-paced sim envs, one process each (sync: one episode per env a round)."""
    return load_config(overrides=[
        f"runtime.runtime={runtime}", "runtime.workers=1", f"runtime.envs_per_worker={envs}",
        f"runtime.sync={str(sync).lower()}", f"runtime.sync_lockstep={str(lockstep).lower()}",
        f"runtime.episodes_per_round={envs}", f"runtime.seed={seed}",
        "env.latency=emulator", f"env.latency_time_scale={TIME_SCALE}",
    ])


def agent_weights(tiny: bool) -> dict[str, Any]:
    """The warm-started policy the runtimes act with (the same weights for every measurement)."""
    overrides = ["runtime.warm_start_episodes=5", "runtime.warm_start_updates=5"] if tiny else []
    weights = warm_start(load_config(overrides=overrides))
    assert weights is not None  # warm start is on in both configs
    return weights


def measure(runtime: str, envs: int, sync: bool, seconds: float, weights: dict[str, Any],
            lockstep: bool = True) -> dict[str, Any]:
    """`collect`'s summary for one runtime, size and protocol."""
    return collect(runtime_config(runtime, envs, sync, lockstep=lockstep), seconds, weights=weights)


def little_bound_per_s(envs: int, mean_episode_steps: float) -> float:
    """Trajectories per second N envs could finish if nothing but the emulator's own delays took time."""
    latency = LatencyConfig.coerce("emulator", TIME_SCALE)
    return envs / (latency.mean_reset_s + mean_episode_steps * latency.mean_step_s)


def run(quick: bool, out: Path) -> Result:
    """Measure async and sync collection for several numbers of envs; the full suite also on a local Ray cluster."""
    tiny = is_tiny()
    sizes = (2,) if tiny else (4, 32) if quick else (4, 8, 16, 32, 64)
    runtimes = ("local",) if tiny or quick else ("local", "ray")
    if value := os.environ.get("DISTRL_BENCH_COLLECTION_SIZES"):  # e.g. "4,32" to shrink a suite
        if not all(v.strip().isdigit() and int(v) >= 1 for v in value.split(",")):
            raise ValueError(f"DISTRL_BENCH_COLLECTION_SIZES={value!r} is not a comma-separated list of env counts "
                             ">= 1 (e.g. \"4,32\")")
        sizes = tuple(int(v) for v in value.split(","))
    if value := os.environ.get("DISTRL_BENCH_COLLECTION_RUNTIMES"):  # "local", "ray" or "local,ray"
        runtimes = tuple(v.strip() for v in value.split(",") if v.strip())
        if unknown := [r for r in runtimes if r not in ("local", "ray")]:
            raise ValueError(f"DISTRL_BENCH_COLLECTION_RUNTIMES names unknown runtimes {unknown}; known: local, ray")
    seconds = 2.0 if tiny else 6.0 if quick else 40.0
    result = Result(config={"sizes": list(sizes), "runtimes": list(runtimes), "seconds_per_measurement": seconds,
                            "time_scale": TIME_SCALE, "latency": "emulator", "workers": 1,
                            "policy": "warm-started small policy (noisy-expert behaviour cloning)"})
    weights = agent_weights(tiny)
    barrier_size = 2 if tiny else 32
    rows, curves = [], {}
    for runtime in runtimes:
        for n in sizes:
            a = measure(runtime, n, False, seconds, weights)
            s = measure(runtime, n, True, seconds, weights)
            mean_len = a["env_steps"] / max(1, a["episodes"])
            bound = little_bound_per_s(n, mean_len)
            a_rate, s_rate = a["trajectories_per_s"], s["trajectories_per_s"]
            ratio = a_rate / s_rate if s_rate > 0 else math.inf
            barrier = "-"
            if n == barrier_size:
                b_rate = measure(runtime, n, True, seconds, weights, lockstep=False)["trajectories_per_s"]
                barrier = f"{60 * b_rate:.0f} ({a_rate / b_rate:.2f}x)" if b_rate > 0 else "0"
                if b_rate > 0:
                    result.add(f"{runtime}/async_vs_round_barrier_sync/{n}_envs", a_rate / b_rate, "x")
            rows.append([runtime, n, f"{60 * a_rate:.0f}", f"{60 * s_rate:.0f}", f"{60 * bound:.0f}",
                         f"{a_rate / bound:.0%}", f"{ratio:.2f}x", barrier, f"{mean_len:.1f}", f"{a['success']:.0%}",
                         f"{a['runtime/broadcast_latency_ms_mean']:.1f}"])
            for name, value in (("async", a_rate), ("sync", s_rate), ("bound", bound)):
                curves.setdefault(runtime, {}).setdefault(name, []).append(60 * value)
            result.add(f"{runtime}/async_vs_bound/{n}_envs", 100 * a_rate / bound, "%", target=90.0)
            result.add(f"{runtime}/async_vs_sync/{n}_envs", ratio, "x", target=2.4 if n == 32 else None)
            if n == 32:
                scale = PAPER_BUDGET_S * TIME_SCALE
                result.notes.append(f"Fig. c equivalent ({runtime}, 32 envs): {a_rate * scale:.0f} (async) vs "
                                    f"{s_rate * scale:.0f} (sync) trajectories in {PAPER_BUDGET_S:.0f} "
                                    "emulator-seconds (paper: ≈770 vs ≈320).")
    result.tables.append(markdown_table(
        ["runtime", "envs", "async traj/min", "sync (lock-step) traj/min", "Little's-law bound traj/min",
         "async / bound", "async / sync", "sync, round barrier only: traj/min (async / it)", "mean episode steps",
         "agent success", "weight broadcast latency (ms)"], rows))
    result.notes.append(f"Time scale {TIME_SCALE}: one benchmark minute is {1 / TIME_SCALE:.0f} emulator minutes; "
                        f"each figure is {seconds:.0f} s of collection after a warm-up (process and cluster start-up "
                        "not counted).")
    result.plots.append(str(_plot(sizes, curves, out / "collection_scaling.png")))
    return result


def _plot(sizes: tuple[int, ...], curves: dict[str, dict[str, list[float]]], path: Path) -> Path:
    labels = {"bound": "Little's-law bound", "async": "async (DistRL)", "sync": "sync (DigiRL, lock-step)"}
    lines = []
    for runtime, by_mode in curves.items():
        for name, style in (("bound", "k--"), ("async", "o-"), ("sync", "s-")):
            if name == "bound" and runtime != next(iter(curves)):
                continue  # one bound line is enough
            label = labels[name] if name == "bound" else f"{labels[name]}, {runtime}"
            if name != "bound" and runtime != "local":
                style = style.replace("-", ":")  # Ray dotted (the bound keeps its dashes)
            lines.append(Line(sizes, by_mode[name], style, label))
    return line_plot(lines, "environments", "trajectories / benchmark minute",
                     f"Collection with the emulator latency preset (x{TIME_SCALE} time)", path)
