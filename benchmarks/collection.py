"""Collection: trajectories per minute vs number of emulators, asynchronous vs synchronous (DigiRL) collection.

Reproduces the paper's Fig. d (collection throughput vs number of environments, with the Little's-law bound) and
Fig. c (trajectories collected in a fixed budget) on our own stack: real `android_gym/General-v0` environments (the
simulated phone) with the sim's heavy-tailed "emulator" latency preset, time-scaled so that emulator seconds become
hundredths of a second, each env in its own worker process of an `AsyncEnvPool`, and an instant random policy.

- async (DistRL): every env runs its episodes back to back; the collector acts on whichever envs are ready.
- sync (DigiRL multi-machine): a round starts every env on an episode with the same weights and ends when the slowest
  env's episode ends; finished envs idle until then (the learner's training time between rounds is not even counted,
  which flatters sync).
- bound: Little's law, N / (mean episode wall-clock), from the preset's mean step and reset delays and the mean
  episode length actually observed.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import Action, ActionType
from android_gym.sim.latency import LatencyConfig
from android_gym.vector import AsyncEnvPool, PoolConfig
from benchmarks.result import Result, is_tiny, markdown_table

TIME_SCALE = 0.01
PAPER_BUDGET_S = 6000.0
"""Fig. c's budget in emulator seconds (≈770 async vs ≈320 sync trajectories in the paper at 32 emulators)."""
POOL = PoolConfig(step_timeout_s=30.0, reset_timeout_s=60.0)


def _make_env(seed: int) -> gym.Env:
    return gym.make("android_gym/General-v0", screenshot_width=0, include_elements=True,
                    latency="emulator", latency_time_scale=TIME_SCALE)


def _random_action(rng: np.random.Generator) -> Action:
    # An instant, mostly harmless agent: taps anywhere, sometimes BACK; episodes run to the step budget.
    if rng.random() < 0.2:
        return Action.key(ActionType.PRESS_BACK)
    return Action.tap(float(rng.uniform(0.05, 0.95)), float(rng.uniform(0.1, 0.9)))


def collect_async(pool: AsyncEnvPool, seconds: float, rng: np.random.Generator) -> tuple[int, int]:
    """(trajectories, steps) finished in `seconds` with every env running episodes back to back."""
    first = pool.reset(seeds=[int(s) for s in rng.integers(2**31, size=pool.num_envs)])
    pool.send([_random_action(rng) for _ in first.env_ids], first.env_ids)
    trajectories = steps = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = pool.recv(min_envs=1, timeout_s=60)
        for k in range(len(result)):
            if not result.infos[k].get("is_reset"):
                steps += 1
                trajectories += bool(result.terminations[k] or result.truncations[k])
        ready = [int(e) for k, e in enumerate(result.env_ids)
                 if not (result.terminations[k] or result.truncations[k])]  # ended episodes come back as a reset row
        if ready:
            pool.send([_random_action(rng) for _ in ready], ready)
    _drain(pool)
    return trajectories, steps


def collect_sync(pool: AsyncEnvPool, seconds: float, rng: np.random.Generator) -> tuple[int, int]:
    """(trajectories, steps) finished in `seconds` of DigiRL rounds (each round waits for its slowest episode).

    A round starts every env on an episode together and ends when every env has finished its episode and its reset
    (resets run in parallel in the background, as emulators restore their snapshots in parallel).
    """
    trajectories = steps = 0
    everyone = list(range(pool.num_envs))
    pool.reset(seeds=[int(s) for s in rng.integers(2**31, size=pool.num_envs)])
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        pool.send([_random_action(rng) for _ in everyone], everyone)
        running, resetting = set(everyone), set()
        while running or resetting:
            result = pool.recv(min_envs=1, timeout_s=60)
            nxt = []
            for k, e in enumerate(result.env_ids.tolist()):
                if result.infos[k].get("is_reset"):
                    resetting.discard(e)
                    continue
                steps += 1
                if result.terminations[k] or result.truncations[k]:
                    running.discard(e)
                    resetting.add(e)
                else:
                    nxt.append(e)
            if nxt:
                pool.send([_random_action(rng) for _ in nxt], nxt)
        if time.monotonic() - start <= seconds:
            trajectories += pool.num_envs  # a round counts only if it finished within the budget
    return trajectories, steps


def _drain(pool: AsyncEnvPool) -> None:
    while pool.outstanding():
        pool.recv(min_envs=1, timeout_s=60)


def run(quick: bool, out: Path) -> Result:
    """Measure async vs sync collection for several numbers of environments (tiny mode: 2 envs for 1 s)."""
    sizes = (2,) if is_tiny() else (4, 16, 32) if quick else (4, 8, 16, 32, 64)
    seconds = 1.0 if is_tiny() else 6.0 if quick else PAPER_BUDGET_S * TIME_SCALE
    latency = LatencyConfig.coerce("emulator", TIME_SCALE)
    result = Result(config={"sizes": list(sizes), "seconds_per_measurement": seconds, "time_scale": TIME_SCALE,
                            "latency": "emulator", "policy": "instant random taps"})
    rows, curves = [], {"async": [], "sync": [], "bound": []}
    rng = np.random.default_rng(0)
    for n in sizes:
        with AsyncEnvPool([functools.partial(_make_env, i) for i in range(n)], POOL) as pool:
            a_traj, a_steps = collect_async(pool, seconds, rng)
            s_traj, s_steps = collect_sync(pool, seconds, rng)
        mean_len = a_steps / max(1, a_traj)
        bound = n * seconds / (latency.mean_reset_s + mean_len * latency.mean_step_s)
        per_min = 60.0 / seconds
        rows.append([n, f"{a_traj * per_min:.0f}", f"{s_traj * per_min:.0f}", f"{bound * per_min:.0f}",
                     f"{a_traj / bound:.0%}", f"{a_traj / max(1, s_traj):.2f}x"])
        curves["async"].append(a_traj * per_min)
        curves["sync"].append(s_traj * per_min)
        curves["bound"].append(bound * per_min)
        result.add(f"async_vs_bound/{n}_envs", 100 * a_traj / bound, "%", target=90.0)
        if n == 32:
            result.add("async_vs_sync/32_envs", a_traj / max(1, s_traj), "x", target=2.4)
            scale = PAPER_BUDGET_S * TIME_SCALE / seconds
            result.notes.append(f"Fig. c equivalent at 32 envs: {a_traj * scale:.0f} (async) vs {s_traj * scale:.0f} "
                                f"(sync) trajectories in {PAPER_BUDGET_S:.0f} emulator-seconds (paper: ≈770 vs ≈320).")
    result.tables.append(markdown_table(["envs", "async traj/min", "sync traj/min", "Little's-law bound traj/min",
                                         "async / bound", "async / sync"], rows))
    result.notes.append(f"Time scale {TIME_SCALE}: one benchmark minute is {1 / TIME_SCALE:.0f} emulator minutes.")
    result.plots.append(str(_plot(sizes, curves, out / "collection_scaling.png")))
    return result


def _plot(sizes: tuple[int, ...], curves: dict[str, list[float]], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, style in (("bound", "k--"), ("async", "o-"), ("sync", "s-")):
        ax.plot(sizes, curves[name], style, label={"bound": "Little's-law bound", "async": "async (DistRL)",
                                                    "sync": "sync (DigiRL)"}[name])
    ax.set_xlabel("environments")
    ax.set_ylabel("trajectories / benchmark minute")
    ax.set_title("Collection with the emulator latency preset")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
