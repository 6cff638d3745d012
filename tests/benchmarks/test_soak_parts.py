"""Tests of `benchmarks.soak_parts`: the flaky judge's faults, the worker killer, memory slopes, the replay audit."""

from __future__ import annotations

import multiprocessing as mp
import time

import numpy as np
import psutil
import pytest

from android_gym.evaluators.base import Observation
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.tasks import suites
from benchmarks.soak_parts import (
    FlakyJudge,
    WorkerKiller,
    append_memory_csv,
    audit_replay,
    caches_full_at,
    memory_slopes,
    plot_memory,
    prefill_phones,
    read_heap_csv,
    read_heap_logs,
    read_memory_csv,
    worker_processes,
    write_heap_csv,
)
from distrl_agent.replay import TrajectoryReplay
from distrl_agent.types import Trajectory

SCREEN = np.zeros((32, 16, 3), np.uint8)


def build_trajectory(length: int, rng: np.random.Generator, is_terminated: bool = True) -> Trajectory:
    """A valid `length`-step trajectory of the template "general/settings", done at its end if `is_terminated`."""
    dones = np.zeros(length, bool)
    dones[-1] = is_terminated
    return Trajectory(observations={"x": rng.random((length + 1, 2), dtype=np.float32)},
                      actions={"kind": rng.integers(0, 3, size=length)}, rewards=dones.astype(np.float32),
                      dones=dones, log_mu=np.full(length, -1.0), policy_version=np.zeros(length, np.int64),
                      penalty=np.zeros(length), goal="open the settings", task="general/settings",
                      success=is_terminated, worker_id=0)


def _verdict(judge: FlakyJudge, **options):
    config = HttpJudgeConfig(base_url=judge.base_url, model="m", timeout_s=0.3, deadline_s=1.0, max_retries=0,
                             **options)
    task = suites.tasks("general", "train")[0]
    with HttpEvaluator(config) as evaluator:
        return evaluator.judge(task, Observation(None, SCREEN, "tap"))


@pytest.mark.parametrize("kind", ["slow", "5xx", "garbage"])
def test_each_judge_fault_makes_the_verdict_unknown(kind) -> None:
    """A request the judge faults (late, 5xx, garbage) gives an unknown verdict, never a success."""
    with FlakyJudge({kind: 1.0}, slow_s=0.6) as judge:
        verdict = _verdict(judge)
        assert verdict.success is None and judge.counts[kind] == 1 and judge.fault_rate == 1.0


def test_healthy_judge_says_success_and_fault_shares_follow_the_config() -> None:
    """Without faults the judge's answer parses as success; with 30% faults, about 30% of draws are faulted."""
    with FlakyJudge({}, slow_s=0.6) as judge:
        assert _verdict(judge).success is True
    judge = FlakyJudge({"5xx": 0.2, "garbage": 0.1}, slow_s=0.6, seed=3)
    replies = [judge._draw({}) for _ in range(2000)]
    assert judge.counts["requests"] == 2000 and 0.26 < judge.fault_rate < 0.34
    assert sum(r.status >= 500 for r in replies) == judge.counts["5xx"]


def _sleep_forever() -> None:
    time.sleep(600)


def test_worker_killer_kills_spawned_workers_of_the_watched_process() -> None:
    """Spawned children of the watched process are its workers; the killer SIGKILLs them and counts each kill."""
    child = mp.get_context("spawn").Process(target=_sleep_forever, daemon=True)
    child.start()
    try:
        # spawn returns after fork, before exec: until exec the child's command line is still ours
        deadline = time.monotonic() + 10
        while child.pid not in [p.pid for p in worker_processes(psutil.Process())] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert child.pid in [p.pid for p in worker_processes(psutil.Process())]
        killer = WorkerKiller(mean_interval_s=0.1, seed=0)
        killer.watch(psutil.Process())
        child.join(timeout=10)
        killer.stop()
        assert not child.is_alive() and child.exitcode == -9 and killer.kills >= 1
    finally:
        if child.is_alive():
            child.kill()


def test_memory_slopes_measure_growth_after_warm_up_per_process() -> None:
    """A process growing 2% of its size per hour after a warm-up ramp reads ~2 %/h; a flat one ~0."""
    samples = []
    for t in np.arange(0, 7200, 10.0):
        ramp = 100e6 * min(1.0, t / 600)  # warm-up: the first 600 s double the size
        samples.append((t, "learner", 1, int(100e6 + ramp + 200e6 * 0.02 * (t - 600) / 3600 * (t > 600))))
        samples.append((t, "worker", 2, int(50e6)))
    slopes = memory_slopes(samples, warmup_s=900, min_span_s=600)
    assert slopes["learner"]["slope_pct_per_h"] == pytest.approx(2.0, rel=0.1)
    assert abs(slopes["worker"]["slope_pct_per_h"]) < 1e-6 and slopes["worker"]["processes"] == 1
    assert slopes["learner"]["peak_rss_mib"] == pytest.approx(max(s[3] for s in samples) / 2**20)
    assert "learner" not in memory_slopes(samples, warmup_s=900, min_span_s=10_000)  # too short to fit


def test_pooled_memory_slope_has_an_interval_that_separates_growth_from_swings() -> None:
    """Growth under noise reads as growth, its interval excluding 0; minute-scale swings give an interval around 0.

    Processes that come and go at different but flat sizes are not a trend.
    """
    rng = np.random.default_rng(1)
    times = np.arange(0, 7200, 10.0)
    growing = [(t, "env", 1, int(100e6 * (1 + 0.05 * t / 3600 + rng.normal(0, 0.01)))) for t in times]
    swinging = [(t, "worker", 2, int(100e6 * (1 + 0.1 * ((t % 600) / 600 - 0.5)))) for t in times]  # a sawtooth
    successive = [(t, "learner", 10 + int(t // 1800), int(100e6 + 30e6 * (t // 1800))) for t in times]
    slopes = memory_slopes(growing + swinging + successive, warmup_s=300, min_span_s=600)
    env, worker, learner = slopes["env"], slopes["worker"], slopes["learner"]
    assert env["pooled_pct_per_h"] == pytest.approx(4.8, rel=0.1) and 0 < env["low_pct_per_h"] < 4.8 < env[
        "high_pct_per_h"]
    assert worker["low_pct_per_h"] < 0 < worker["high_pct_per_h"] and abs(worker["pooled_pct_per_h"]) < 1
    assert learner["processes"] == 4 and learner["pooled_pct_per_h"] == pytest.approx(0.0, abs=1e-9)


def test_replay_audit_counts_only_trajectories_cut_short(tmp_path) -> None:
    """Whole episodes (terminated, or at the step budget) pass; an episode cut before either is half-inserted."""
    rng = np.random.default_rng(0)
    replay = TrajectoryReplay(1000)
    replay.add(build_trajectory(4, rng))  # terminated
    at_budget = build_trajectory(10, rng, is_terminated=False)
    cut = build_trajectory(3, rng, is_terminated=False)
    replay.add(at_budget)
    replay.save(tmp_path / "whole.npz")
    assert audit_replay(tmp_path / "whole.npz", {"general/settings": 10}) == {
        "trajectories": 2, "half_inserted": 0, "non_finite": 0}
    replay.add(cut)
    replay.save(tmp_path / "cut.npz")
    assert audit_replay(tmp_path / "cut.npz", {"general/settings": 10})["half_inserted"] == 1
    prefix = build_trajectory(3, rng, is_terminated=False)  # shipped up to a fault or an unknown verdict
    prefix.metadata["cut"] = "unknown_verdict"
    replay.add(prefix)
    replay.save(tmp_path / "prefix.npz")
    assert audit_replay(tmp_path / "prefix.npz", {"general/settings": 10})["half_inserted"] == 1  # the cut one only


def test_memory_sampler_records_the_watched_process_and_this_one(tmp_path) -> None:
    """Each tick appends samples of this process ("harness") and the watched one ("learner") to its CSV; `stop` ends
    the sampling."""  # noqa: D205, D209
    from benchmarks.soak_parts import MemorySampler

    sampler = MemorySampler(every_s=0.05, path=tmp_path / "memory.csv")
    sampler.watch(psutil.Process())
    time.sleep(0.4)
    sampler.stop()
    count = len(sampler.samples)
    assert {role for _, role, _, _ in sampler.samples} >= {"harness", "learner"}
    assert all(rss > 0 for *_, rss in sampler.samples) and count >= 4
    time.sleep(0.15)
    assert len(sampler.samples) == count


def test_memory_samples_round_trip_through_csv_and_plot(tmp_path) -> None:
    """The raw samples survive the CSV (to the MiB's hundredth) and refit to the same slope; the plot is a PNG."""
    samples = [(float(t), role, pid, int((400 + 0.5 * t + 30 * pid) * 2**20))
               for t in range(0, 1200, 10) for role, pid in (("learner", 1), ("worker", 2), ("worker", 3))]
    append_memory_csv(samples[:100], tmp_path / "memory.csv")  # in two calls, as the sampler appends
    append_memory_csv(samples[100:], tmp_path / "memory.csv")
    back = read_memory_csv(tmp_path / "memory.csv")
    assert [(t, r, p) for t, r, p, _ in back] == [(t, r, p) for t, r, p, _ in samples]
    assert max(abs(a[3] - b[3]) for a, b in zip(back, samples, strict=True)) <= 0.01 * 2**20
    assert memory_slopes(back, 300, 300)["learner"]["slope_pct_per_h"] == pytest.approx(
        memory_slopes(samples, 300, 300)["learner"]["slope_pct_per_h"], rel=1e-3)
    png = plot_memory({"faulty": back, "clean": samples}, tmp_path / "memory.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_heap_logs_join_the_sampler_by_pid_and_clock_and_refit_through_csv(tmp_path) -> None:
    """Each process's heap log becomes samples of its sampled role on the sampler's clock; other processes' logs and a
    line cut by a kill are left out; a steady 2%/h growth in bytes in use is what the fit reports."""  # noqa: D205, D209
    from benchmarks.soak import _heap_fits

    t0 = 1_700_000_000.0
    mib = 2**20
    for pid in (11, 12, 99):
        lines = [f"{t0 + t:.3f},{int(500 * mib * (1 + 0.02 * t / 3600))},{100_000 + pid},{pid}"
                 for t in range(0, 3600, 10)]
        (tmp_path / f"heap-{pid}.csv").write_text("\n".join(lines) + "\n1700000000.0,12\n1700003600.000,5242")
    samples = read_heap_logs(tmp_path, {11: "learner", 12: "worker"}, t0)
    assert {(role, pid) for _, role, pid, _, _, _ in samples} == {("learner", 11), ("worker", 12)}
    assert samples[0][0] == 0.0 and len(samples) == 2 * 360
    write_heap_csv(samples, tmp_path / "heap.csv")
    back = read_heap_csv(tmp_path / "heap.csv")
    assert [(t, r, p, b, e) for t, r, p, _, b, e in back] == [(t, r, p, b, e) for t, r, p, _, b, e in samples]
    fits = _heap_fits(back, 60.0)
    assert fits["heap"]["learner"]["pooled_pct_per_h"] == pytest.approx(2.0, abs=0.05)
    assert fits["python_blocks"]["worker"]["pooled_pct_per_h"] == pytest.approx(0.0, abs=1e-9)


def test_logs_of_before_the_cache_count_still_read(tmp_path) -> None:
    """A three-field line (written before the cached-entries column) reads with entries -1, and so does a CSV
    without the column; neither counts as a cache."""  # noqa: D205, D209
    (tmp_path / "heap-7.csv").write_text("100.0,2000,300\n110.0,2000,301\n")
    samples = read_heap_logs(tmp_path, {7: "env"}, 100.0)
    assert samples == [(0.0, "env", 7, 2000, 300, -1), (10.0, "env", 7, 2000, 301, -1)]
    (tmp_path / "old.csv").write_text("time_s,role,pid,heap_mib,python_blocks\n0.0,env,7,1.0,300\n")
    assert read_heap_csv(tmp_path / "old.csv") == [(0.0, "env", 7, 2**20, 300, -1)]
    assert caches_full_at(samples) == {}


def test_growth_of_a_filling_cache_is_told_from_growth_after_it_is_full() -> None:
    """Blocks that grow with a cache until it reaches its cap (30 min) and stay flat after: the whole-arm fit shows
    growth, the fit after the caches are full shows none; a role whose cache fills until the end gets no such fit
    (n/a), and a leak after the caches are full still shows."""  # noqa: D205, D209
    from benchmarks.soak import _heap_fits

    samples = []
    for t in range(0, 7200, 10):
        entries = min(t, 1800) * 4096 // 1800  # full at 30 min
        samples.append((float(t), "env", 1, 100 << 20, 200_000 + 7 * entries, entries))
        samples.append((float(t), "harness", 2, 100 << 20, 200_000 + 7 * t, t))  # fills to the end
        samples.append((float(t), "learner", 3, int((100 << 20) * (1 + 0.05 * t / 3600)), 200_000, entries))
    full = caches_full_at(samples)
    assert full["env"]["full_at_s"] == pytest.approx(1800, abs=30) and full["env"]["entries_at_end"] == 4096
    assert full["harness"]["full_at_s"] > 7000
    # resident memory that rises with the env's cache and keeps rising by 3% of its start per hour after it is full
    rss = [(float(t), "env", 1, int((200 << 20) * (1 + 0.2 * min(t, 1800) / 1800 + 0.03 * t / 3600)))
           for t in range(0, 7200, 10)]
    fits = _heap_fits(samples, 120.0, rss)
    # 3% of the start per hour is 3 / 1.2375 % of the mean over minutes 30-120
    assert fits["memory_after_caches"]["env"]["pooled_pct_per_h"] == pytest.approx(3.0 / 1.2375, rel=0.02)
    assert _heap_fits(samples, 120.0)["memory_after_caches"] == {}  # no resident memory given
    assert fits["python_blocks"]["env"]["pooled_pct_per_h"] > 1.0  # the cache filling, fitted from minute 5
    assert fits["python_blocks_after_caches"]["env"]["pooled_pct_per_h"] == pytest.approx(0.0, abs=0.01)
    assert "harness" not in fits["python_blocks_after_caches"]
    # 5% of the start per hour is 5 / 1.0625 % of the mean over minutes 30-120 (the fit's unit)
    assert fits["heap_after_caches"]["learner"]["pooled_pct_per_h"] == pytest.approx(5.0 / 1.0625, rel=0.02)


def test_prefill_leaves_every_phones_log_ring_and_shell_history_full_through_adb() -> None:
    """The long arm's phones start as after hours of use, so its memory fit does not read their filling as growth."""
    from android_gym.errors import DeviceError
    from android_gym.sim.adb import AdbFront
    from android_gym.sim.adb.logd import entry_bytes
    from android_gym.sim.adb.shell import HISTORY_LIMIT

    with AdbFront(devices=2, perturbations="none") as front:
        lines = prefill_phones(front.port, ["sim-0", "sim-1"])
        for serial in ("sim-0", "sim-1"):
            target = front.target(serial)
            entries = target.logd.since(0)[0]
            assert target.logd.budget_bytes - target.logd.nbytes < entry_bytes(entries[-1].tag, entries[-1].message)
            assert len(target.history) == HISTORY_LIMIT <= lines
            assert target.history[-1][:3] == ["log", "-t", "soak"]
        with pytest.raises(DeviceError, match="sim-9"):
            prefill_phones(front.port, ["sim-9"], timeout_s=5.0)
