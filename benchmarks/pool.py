"""The async env pool against lock-step vector envs, with the sim's emulator latency preset (issue #3).

Every env is a `LatencyEnv` whose step and reset sleep for delays drawn from
`LatencyConfig.coerce("emulator", time_scale=TIME_SCALE)` (lognormal, heavy-tailed), episodes last `EPISODE_STEPS`
steps, and the policy is instant (action 0). For N = 4, 8, 16, 32 envs it reports steps/s of

(a) gymnasium's `SyncVectorEnv` (one process, lock-step), (b) gymnasium's `AsyncVectorEnv` (processes, lock-step),
both with same-step autoreset so that no action is spent on resets; (c) `AsyncEnvPool` driven asynchronously
(`recv(min_envs=1)`, then at once `send` to every env that is ready); (d) Little's-law bound N / (mean seconds an env
spends per step), with a reset's cost spread over its episode: `mean_step_s + mean_reset_s / EPISODE_STEPS`.

The pool's efficiency is its env utilisation: the delays its envs completed over the time they took to complete
them (each env's clock stops at its last result). That is throughput over the bound of the delays actually drawn,
free of the sampling noise of a few seconds of lognormal draws (the bound from the preset's mean is reported
beside it). Also: the pool's overhead per step with zero latency, judged against a bare `multiprocessing` Pipe round
trip of the same step reply measured in the same run (what any process-per-env design pays at least, and a
reference that moves with the machine), the memory (RSS and PSS) of its worker processes, and how long a user's script
takes from its imports to the first observations of 4 envs (`startup_s`, target 3 s).
"""

from __future__ import annotations

import functools
import multiprocessing.connection
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from android_gym.sim.latency import LatencyConfig
from android_gym.testing.envs import LatencyEnv
from android_gym.vector import AsyncEnvPool, PoolConfig
from android_gym.vector.vector_env import EnvFactory
from benchmarks.result import Result, is_tiny, markdown_table

TIME_SCALE = 0.01
"""Emulator seconds -> benchmark seconds: a 1.5 s median step becomes 15 ms, a 12 s median reset 120 ms."""
EPISODE_STEPS = 10
"""Steps per episode (the general suite's budget)."""
SIZES = (4, 8, 16, 32)
WARMUP_S = 1.0
"""Seconds the pool runs before its clock starts (longer than an episode, so that resets are in steady state)."""
POOL_CONFIG = PoolConfig(step_timeout_s=30.0, reset_timeout_s=60.0, close_timeout_s=5.0)
OVERHEAD_OVER_PIPE_TARGET = 4.0
"""The pool's round trip may cost at most this many bare Pipe round trips (its messages, supervision and buffering
on top of the two pickles and two context switches every process-per-env design pays)."""


def latency_envs(n: int, latency: str = "emulator", time_scale: float = TIME_SCALE) -> list[functools.partial]:
    """`n` LatencyEnv factories with the preset's delays (env i draws from its own seeded generator)."""
    return [functools.partial(LatencyEnv, latency=latency, time_scale=time_scale, episode_steps=EPISODE_STEPS, tag=i)
            for i in range(n)]


def bound_steps_per_s(n: int) -> float:
    """Little's law: N envs, each busy `mean_step_s + mean_reset_s / EPISODE_STEPS` seconds per step."""
    latency = LatencyConfig.coerce("emulator", TIME_SCALE)
    return n / (latency.mean_step_s + latency.mean_reset_s / EPISODE_STEPS)


def lockstep_steps_per_s(kind: str, n: int, seconds: float) -> float:
    """Steps/s of gymnasium's Sync- or AsyncVectorEnv stepping all `n` envs together.

    At least `EPISODE_STEPS` batches, so that the measurement holds one round of resets per `EPISODE_STEPS` steps,
    as in steady state (fewer batches would leave resets out and flatter the lock-step envs).
    """
    fns = latency_envs(n)
    if kind == "sync":
        envs = SyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    else:  # no shared memory: gymnasium 1.4's shared-memory Text returns garbage
        envs = AsyncVectorEnv(fns, shared_memory=False, autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        envs.reset(seed=0)
        actions = np.zeros(n, np.int64)
        batches, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds or batches < EPISODE_STEPS:
            envs.step(actions)
            batches += 1
        return batches * n / (time.perf_counter() - start)
    finally:
        envs.close()


def pool_steps_per_s(n: int, seconds: float, warmup_s: float = WARMUP_S) -> tuple[float, float]:
    """(steps/s, env utilisation) of the pool driven asynchronously with an instant policy for `seconds`.

    Utilisation: the delays each env completed over the time it took, from its first result after the clock
    started to its last (so that neither the command each env has in flight when the clock starts nor the one when
    it stops, drawn but not yet done, biases anything). `warmup_s`: seconds before the clock starts.
    """
    with AsyncEnvPool(latency_envs(n), POOL_CONFIG) as pool:
        pool.reset(seeds=0)
        pool.send(np.zeros(n, np.int64))
        start = time.perf_counter() + warmup_s  # every env starts a fresh episode: skip to the steady state first
        steps, delay_s, first_s, last_s = 0, np.zeros(n), np.full(n, np.nan), np.zeros(n)
        while time.perf_counter() < start + seconds:
            result = pool.recv(min_envs=1)
            now = time.perf_counter()
            for k, env_id in enumerate(result.env_ids.tolist()):
                info = result.infos[k]
                if now < start:
                    continue
                steps += not info["is_reset"]
                if np.isnan(first_s[env_id]):
                    first_s[env_id] = now  # this env's clock starts here
                else:
                    delay_s[env_id] += info["delay_s"]
                    last_s[env_id] = now
            ready = result.env_ids[~result.dones]  # a finished episode's env resets first; its reset row comes later
            if len(ready):
                pool.send([0] * len(ready), ready)
        wall_s = time.perf_counter() - start
    busy = ~np.isnan(first_s)
    return steps / wall_s, float(delay_s[busy].sum() / (last_s[busy] - first_s[busy]).sum())


def overhead_us(seconds: float, direct_steps: int = 20_000) -> tuple[float, float]:
    """(round-trip overhead per step with one zero-latency env, parent CPU per step with 8 envs), microseconds.

    The round trip is the pool's wall time per step minus the env's own in-process step time (timed over
    `direct_steps` steps).
    """
    env = LatencyEnv(episode_steps=10**9)
    env.reset(seed=0)
    start, count = time.perf_counter(), direct_steps
    for _ in range(count):
        env.step(0)
    direct_s = (time.perf_counter() - start) / count
    results = []
    for n in (1, 8):
        with AsyncEnvPool([functools.partial(LatencyEnv, episode_steps=10**9, tag=i) for i in range(n)],
                          POOL_CONFIG) as pool:
            pool.reset(seeds=0)
            pool.send([0] * n)
            steps, start, cpu = 0, time.perf_counter(), time.process_time()
            while time.perf_counter() - start < seconds:
                result = pool.recv(min_envs=1)
                steps += len(result)
                pool.send([0] * len(result), result.env_ids)
            wall_s, cpu_s = time.perf_counter() - start, time.process_time() - cpu
        results.append((wall_s / steps - direct_s, cpu_s / steps))
    return 1e6 * results[0][0], 1e6 * results[1][1]


def pipe_round_trip_us(seconds: float) -> float:
    """Microseconds per bare Pipe round trip: an action out to a worker process, a `LatencyEnv` step reply back.

    The worker is started like the pool's (`POOL_CONFIG.start_method`) and does nothing but echo, so this is the floor
    of any design that keeps each env in its own process.
    """
    env = LatencyEnv(episode_steps=10**9)
    env.reset(seed=0)
    reply = env.step(0)
    context = get_context(POOL_CONFIG.start_method)
    parent, child = context.Pipe(duplex=True)
    worker = context.Process(target=_echo, args=(child, reply), daemon=True)
    worker.start()
    child.close()
    try:
        parent.send(0)
        parent.recv()  # the worker is up
        trips, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            parent.send(0)
            parent.recv()
            trips += 1
        return 1e6 * (time.perf_counter() - start) / trips
    finally:
        parent.send(None)
        worker.join(timeout=5.0)
        if worker.is_alive():
            worker.kill()
        parent.close()


def _echo(conn: multiprocessing.connection.Connection, reply: Any) -> None:
    while conn.recv() is not None:
        conn.send(reply)


def _memory_mib(pid: int) -> tuple[float, float]:
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if parts[0] in ("Rss:", "Pss:"):
                fields[parts[0]] = int(parts[1]) / 1024
    return fields["Rss:"], fields["Pss:"]


def memory_per_env_mib(env_fns: list[Any], steps: int = 5) -> tuple[float, float]:
    """(mean RSS, mean PSS) in MiB of the pool's workers after a reset and a few random steps each."""
    with AsyncEnvPool(env_fns, POOL_CONFIG) as pool:
        pool.reset(seeds=0)
        space = pool.action_space
        space.seed(0)
        for _ in range(steps):
            pool.send([space.sample() for _ in env_fns])
            while pool.outstanding():  # the steps, and the background resets of episodes that ended
                pool.recv(min_envs=1)
        rows = [_memory_mib(pid) for pid in pool.pids if pid is not None]
    return float(np.mean([r[0] for r in rows])), float(np.mean([r[1] for r in rows]))


STARTUP_SCRIPT = """import time
t = time.perf_counter()
import gymnasium as gym
import android_gym
if __name__ == "__main__":
    envs = gym.make_vec("android_gym/General-v0", num_envs={n})
    envs.reset(seed=0)
    print(time.perf_counter() - t)
    envs.close()
"""
STARTUP_TARGET_S = 3.0
"""A user's script: from `import gymnasium` to the first observations of 4 envs (issue 44)."""


def startup_s(n: int, repeats: int) -> float:
    """Median seconds a fresh script takes from its imports to `make_vec(..., num_envs=n)`'s first `reset`.

    Each run is a new Python process, as a user's script is (bytecode caching as Python's default, whatever this
    process was started with).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "first_pool.py"
        script.write_text(STARTUP_SCRIPT.format(n=n))
        times = []
        for _ in range(repeats + 1):  # the first run may compile bytecode: not counted
            done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                                  env=env, check=True)
            times.append(float(done.stdout.strip().splitlines()[-1]))
    return float(np.median(times[1:]))


def _android_env_fns(n: int) -> list[EnvFactory] | None:
    try:
        import android_gym.tasks.apps  # noqa: F401
        import android_gym.tasks.web  # noqa: F401
    except ImportError:
        return None
    return [EnvFactory("android_gym.env:AndroidEnv", {"screenshot_width": 224})] * n


def run(quick: bool, out: Path | None = None) -> Result:
    """Measure everything; `quick` uses ~1 s per measurement (the full suite ~5 s). `out` is unused (no plots).

    Tiny mode (`DISTRL_BENCH_TINY`): 2 envs, 0.2 s per measurement, no warm-up, 2 envs per memory figure.
    """
    tiny = is_tiny()
    seconds = 0.2 if tiny else 1.2 if quick else 5.0
    sizes = (2,) if tiny else (4, 16, 32) if quick else SIZES
    warmup_s = 0.0 if tiny else WARMUP_S
    memory_envs = 2 if tiny else 8
    result = Result(config={"latency": "emulator", "time_scale": TIME_SCALE, "episode_steps": EPISODE_STEPS,
                            "seconds_per_measurement": seconds, "sizes": list(sizes), "warmup_s": warmup_s,
                            "start_method": POOL_CONFIG.start_method})
    rows = []
    for n in sizes:
        sync = lockstep_steps_per_s("sync", n, seconds)
        async_ = lockstep_steps_per_s("async", n, seconds)
        pool, utilisation = pool_steps_per_s(n, seconds, warmup_s)
        bound = bound_steps_per_s(n)
        result.add(f"steps_per_s/sync_vector_env/N={n}", sync, "steps/s")
        result.add(f"steps_per_s/async_vector_env/N={n}", async_, "steps/s")
        result.add(f"steps_per_s/pool/N={n}", pool, "steps/s")
        result.add(f"steps_per_s/bound/N={n}", bound, "steps/s")
        result.add(f"pool_efficiency/N={n}", 100 * utilisation, "%", target=90.0)
        if n == sizes[-1]:
            result.add(f"speedup_vs_lockstep_async/N={n}", pool / async_, "x", target=2.0)
            result.add(f"speedup_vs_lockstep_sync/N={n}", pool / sync, "x")
        rows.append([n, f"{sync:,.0f}", f"{async_:,.0f}", f"{pool:,.0f}", f"{bound:,.0f}",
                     f"{100 * utilisation:.1f}%", f"{100 * pool / bound:.1f}%", f"{pool / async_:.2f}x",
                     f"{pool / sync:.1f}x"])
    table = markdown_table(["N", "(a) SyncVectorEnv", "(b) AsyncVectorEnv", "(c) pool", "(d) bound N/latency",
                            "pool efficiency (utilisation)", "pool / preset bound", "pool / (b)", "pool / (a)"], rows)
    overhead_s = seconds if tiny else 0.6 if quick else 3.0
    roundtrip_us, parent_cpu_us = overhead_us(overhead_s, 1_000 if tiny else 20_000)
    pipe_us = pipe_round_trip_us(overhead_s)
    result.add("pool_overhead/round_trip_over_bare_pipe", roundtrip_us / pipe_us, "x",
               target=OVERHEAD_OVER_PIPE_TARGET, higher_is_better=False)
    result.add("pool_overhead_us_per_step/round_trip", roundtrip_us, "us")
    result.add("pool_overhead_us_per_step/bare_pipe_round_trip", pipe_us, "us")
    result.add("pool_overhead_us_per_step/parent_cpu_N=8", parent_cpu_us, "us")
    memory_rows = []
    rss, pss = memory_per_env_mib(latency_envs(memory_envs, "off"))
    result.add("memory_per_env/latency_env_rss", rss, "MiB")
    memory_rows.append(["LatencyEnv", f"{rss:.1f}", f"{pss:.1f}"])
    android_fns = _android_env_fns(2 if tiny else 4)
    if android_fns is not None:
        rss, pss = memory_per_env_mib(android_fns)
        result.add("memory_per_env/android_env_rss", rss, "MiB")
        result.add("memory_per_env/android_env_pss", pss, "MiB")
        memory_rows.append(["AndroidEnv (general, 224-px screenshots)", f"{rss:.1f}", f"{pss:.1f}"])
    start_envs = 2 if tiny else 4
    result.add(f"startup_s/make_vec_{start_envs}_envs", startup_s(start_envs, 1 if tiny else 3), "s",
               target=None if tiny else STARTUP_TARGET_S, higher_is_better=False)
    result.tables += [table, markdown_table(["pool overhead per step", "µs"], [
        ["round trip, 1 env, zero latency (minus the env's own step)", f"{roundtrip_us:.0f}"],
        ["bare Pipe round trip of the same reply (reference)", f"{pipe_us:.0f}"],
        ["parent CPU, 8 envs, zero latency", f"{parent_cpu_us:.0f}"]]),
        markdown_table(["worker env", "RSS MiB / env", "PSS MiB / env"], memory_rows)]
    result.notes.append(
        f"Emulator latency preset x{TIME_SCALE} (step median {1.5 * TIME_SCALE * 1e3:.0f} ms, sigma 0.8; reset median "
        f"{12 * TIME_SCALE * 1e3:.0f} ms, sigma 0.5), {EPISODE_STEPS}-step episodes, instant policy, "
        f"{seconds:g} s per measurement. Lock-step baselines use same-step autoreset (no action spent on a reset). "
        "Pool efficiency = the delays each env completed / the time it took (until its last result): throughput "
        "over the bound of the delays actually drawn. 'pool / preset bound' uses the preset's mean instead; it is "
        "subject to sampling noise and, over a few seconds, to every env starting with a fresh episode.")
    print("\n\n".join(result.tables))  # the benchmark's report on stdout; the runner also writes it to report.md
    return result
