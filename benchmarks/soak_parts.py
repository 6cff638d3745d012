"""The soak benchmark's parts: a flaky judge, a worker killer, a memory sampler, a replay audit, a store prefill.

Each part is small and testable alone; `benchmarks.soak` wires them around `distrl train` subprocesses.
"""

from __future__ import annotations

import csv
import json
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from android_gym.devices.adb_channel import AdbChannel
from android_gym.sim.adb.logd import BUFFER_BYTES, entry_bytes
from android_gym.sim.adb.shell import HISTORY_LIMIT
from android_gym.testing.fake_openai import FakeChatServer, Reply

JUDGE_FAULTS = {"slow": 0.05, "5xx": 0.04, "garbage": 0.03}
"""Share of judge requests answered late (past the client's per-attempt timeout), with HTTP 500/503, or with a body
that is not a chat completion: 12% in all."""


class FlakyJudge(FakeChatServer):
    """An OpenAI-compatible judge on 127.0.0.1 that says "Status: success" and fails a seeded share of requests.

    Used behind the oracle's veto (`http:<url>&oracle`): the reward is the state check's truth whenever the judge
    answers, and unknown (no reward, no termination) whenever it fails. Requests are counted, not stored (a 30-minute
    soak sends tens of thousands).

    Args:
        faults: probability of each fault kind (`JUDGE_FAULTS` keys); empty for a healthy judge.
        slow_s: how late a "slow" answer comes, seconds (set it above the client's `timeout_s`).
        seed: seeds the draws.
    """

    def __init__(self, faults: dict[str, float], slow_s: float, seed: int = 0) -> None:
        super().__init__(default=self._draw)
        self.faults, self.slow_s = dict(faults), slow_s
        self.counts: Counter[str] = Counter()
        self._rng = np.random.default_rng(seed)
        self._draw_lock = threading.Lock()

    def _enter(self, request: Any) -> None:  # count instead of keeping every request
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _draw(self, body: dict[str, Any]) -> Reply:
        with self._draw_lock:
            u = float(self._rng.random())
        self.counts["requests"] += 1
        edge = 0.0
        for kind, p in self.faults.items():
            edge += p
            if u < edge:
                self.counts[kind] += 1
                match kind:
                    case "slow":
                        return Reply(delay_s=self.slow_s)
                    case "5xx":
                        return Reply(status=503 if u < edge - p / 2 else 500, body="<html>overloaded</html>")
                    case "garbage":
                        return Reply(body='{"choices": [{"message": ')
        return Reply(content="The screen shows the goal is met. Status: success")

    @property
    def fault_rate(self) -> float:
        """Share of requests so far that were faulted."""
        return sum(self.counts[k] for k in self.faults) / max(1, self.counts["requests"])


PREFILL_TAG = "soak"
PREFILL_LINE = "prefill: the log ring of this phone starts full, as after hours of use (benchmarks/soak.py)"
"""A line of the length of the activity manager's, which fill the ring during a run."""


def prefill_phones(port: int, serials: list[str], timeout_s: float = 60.0, per_call: int = 100) -> int:
    """Fill the bounded stores of the ADB front's phones through ADB, as hours of use would: each phone's log ring
    (`logd.BUFFER_BYTES`) and shell history (`shell.HISTORY_LIMIT`) take a few hours of a run to fill, so a memory
    fit over a shorter run reads their filling as growth. Runs `log -t soak <line>` `per_call` times per shell
    request until both are full; returns the lines written per phone.

    Raises:
        android_gym.errors.DeviceError: a phone that does not answer within `timeout_s`.
        RuntimeError: a phone whose `log` fails (its status and error output are named).
    """  # noqa: D205, D209
    lines = max(BUFFER_BYTES // entry_bytes(PREFILL_TAG, PREFILL_LINE) + 1, HISTORY_LIMIT)
    command = f"log -t {PREFILL_TAG} '{PREFILL_LINE}'"
    for serial in serials:
        channel = AdbChannel(serial, "127.0.0.1", port)
        for start in range(0, lines, per_call):
            done = channel.shell("; ".join([command] * min(per_call, lines - start)), timeout_s)
            if done.exit_code != 0 or done.stderr:
                raise RuntimeError(f"prefilling {serial}: `log` failed (status {done.exit_code}): "
                                   f"{done.stderr[:200]!r}")
    return lines


def worker_processes(train: psutil.Process) -> list[psutil.Process]:
    """The rollout worker processes of a `distrl train` process (its spawned children, not the resource tracker)."""
    out = []
    try:
        children = train.children()
    except psutil.Error:
        return out
    for child in children:
        try:
            cmdline = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "spawn_main" in cmdline and "resource_tracker" not in cmdline:
            out.append(child)
    return out


class ProcessWatcher:
    """A background thread that acts on a `distrl train` process every so often, until `stop()`.

    `watch(train)` starts the thread on the first call and later calls switch it to a new train process (a resume).
    Subclasses implement `_tick()` and `_wait_s()`.
    """

    name = "soak-watcher"

    def __init__(self) -> None:
        self._train: psutil.Process | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, train: psutil.Process) -> None:
        """Act on `train` from now on (replaces the process watched before)."""
        self._train = train
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop acting (joins the thread)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._wait_s()):
            self._tick()

    def _wait_s(self) -> float:
        raise NotImplementedError

    def _tick(self) -> None:
        raise NotImplementedError


class WorkerKiller(ProcessWatcher):
    """Kills one random worker process of a train process (SIGKILL) every `mean_interval_s` seconds on average.

    Intervals are drawn uniformly in [0.5, 1.5] x `mean_interval_s`, seeded. `kills` counts the kills that landed.
    """

    name = "soak-worker-killer"

    def __init__(self, mean_interval_s: float, seed: int = 0) -> None:
        super().__init__()
        self.mean_interval_s = mean_interval_s
        self.kills = 0
        self._rng = np.random.default_rng(seed)

    def _wait_s(self) -> float:
        return self.mean_interval_s * float(self._rng.uniform(0.5, 1.5))

    def _tick(self) -> None:
        workers = worker_processes(self._train) if self._train is not None else []
        if workers:
            victim = workers[int(self._rng.integers(len(workers)))]
            try:
                victim.send_signal(signal.SIGKILL)
                self.kills += 1
            except psutil.Error:
                pass


class MemorySampler(ProcessWatcher):
    """Samples the resident memory of a train process, its descendants and this process every `every_s` seconds.

    Each tick's samples are appended to the CSV at `path` (`append_memory_csv`) and nothing is kept in memory: the
    sampler runs in the "harness" process whose own growth it measures (80 minutes of samples held as tuples were
    ~25,000 Python blocks, 2% of that process's), and a run cut short still leaves its samples.

    Attributes:
        samples: read back from `path`: (seconds since start, role, pid, RSS in bytes) with role "learner" (the
            train process), "worker" (its rollout workers), "env" (their env processes), "tracker"
            (multiprocessing's resource trackers) or "harness" (this process: the sim's phones and the judge).
    """

    name = "soak-memory"

    def __init__(self, every_s: float, path: Path) -> None:
        super().__init__()
        self.every_s, self.path = every_s, path
        path.unlink(missing_ok=True)
        self._t0 = time.monotonic()
        self.t0_wall = time.time()  # the same instant in unix time (heap logs carry unix times)
        self._me = psutil.Process()

    @property
    def samples(self) -> list[tuple[float, str, int, int]]:
        """Every sample so far, from the CSV (RSS to the MiB's hundredth)."""
        return read_memory_csv(self.path) if self.path.is_file() else []

    def _wait_s(self) -> float:
        return self.every_s

    def _tick(self) -> None:
        t = time.monotonic() - self._t0
        procs = [("harness", self._me)]
        if self._train is not None:
            try:
                procs += [("learner", self._train)] + [(_role(c, self._train.pid), c)
                                                       for c in self._train.children(recursive=True)]
            except psutil.Error:
                pass
        tick = []
        for role, proc in procs:
            try:
                tick.append((t, role, proc.pid, proc.memory_info().rss))
            except psutil.Error:
                continue
        append_memory_csv(tick, self.path)


def _role(child: psutil.Process, train_pid: int) -> str:
    try:
        if "resource_tracker" in " ".join(child.cmdline()):
            return "tracker"
        return "worker" if child.ppid() == train_pid else "env"
    except psutil.Error:
        return "worker"


def memory_slopes(samples: list[tuple[float, str, int, int]], warmup_s: float, min_span_s: float,
                  block_s: float = 300.0, reps: int = 1000, seed: int = 0) -> dict[str, dict[str, float]]:
    """Per role: resident memory growth after warm-up, in % of the process's mean RSS per hour, with an interval.

    Each process is kept from `warmup_s` seconds after its first sample, if its samples then span at least
    `min_span_s` seconds. Two estimates per role:
    - `slope_pct_per_h`: a least-squares line per process, the span-weighted mean over the role's processes (`max`:
      the steepest);
    - `pooled_pct_per_h`: one slope for the role, fitted within processes (each process's RSS in % of its own mean,
      its times centred on its own mean: processes that come and go do not fake a trend), with a 95% interval
      `low_pct_per_h`..`high_pct_per_h` from a moving-block bootstrap over time (blocks of `block_s` seconds, drawn
      with replacement, `reps` times), because RSS swings by the minute (allocator and garbage-collector cycles) and
      neighbouring samples are not independent.

    Returns:
        {role: {"slope_pct_per_h", "max_pct_per_h", "pooled_pct_per_h", "low_pct_per_h", "high_pct_per_h",
        "processes", "mean_rss_mib", "peak_rss_mib"}}.
    """
    by_pid: dict[tuple[str, int], list[tuple[float, int]]] = {}
    for t, role, pid, rss in samples:
        if rss > 0:  # a zombie reports 0
            by_pid.setdefault((role, pid), []).append((t, rss))
    rng = np.random.default_rng(seed)
    out: dict[str, dict[str, float]] = {}
    for role in sorted({role for role, _ in by_pid}):
        fits, peak, means, pooled = [], 0, [], []
        for (r, pid), series in by_pid.items():
            if r != role:
                continue
            peak = max(peak, max(rss for _, rss in series))
            start = series[0][0] + warmup_s
            kept = [(t, rss) for t, rss in series if t >= start]
            if len(kept) < 3 or kept[-1][0] - kept[0][0] < min_span_s:
                continue
            t, rss = np.array([k[0] for k in kept]), np.array([k[1] for k in kept], float)
            slope_per_s = np.polyfit(t, rss, 1)[0]
            fits.append((100 * 3600 * slope_per_s / rss.mean(), t[-1] - t[0]))
            means.append(rss.mean())
            pooled.append((t, 100 * 3600 * (rss / rss.mean() - 1), np.full(len(t), pid)))
        if fits:
            weights = np.array([span for _, span in fits])
            times, pct, pids = (np.concatenate(column) for column in zip(*pooled, strict=True))
            estimate, low, high = _within_slope_interval(times, pct, pids, block_s, reps, rng)
            out[role] = {"slope_pct_per_h": float(np.average([s for s, _ in fits], weights=weights)),
                         "max_pct_per_h": float(max(s for s, _ in fits)), "pooled_pct_per_h": estimate,
                         "low_pct_per_h": low, "high_pct_per_h": high, "processes": float(len(fits)),
                         "mean_rss_mib": float(np.mean(means) / 2**20), "peak_rss_mib": float(peak / 2**20)}
    return out


def _within_slope(t: np.ndarray, y: np.ndarray, groups: np.ndarray) -> float:
    """Least-squares slope of y on t with an intercept per group (each group's t and y centred on its own means)."""
    _, index = np.unique(groups, return_inverse=True)
    counts = np.bincount(index)
    tc = t - (np.bincount(index, t) / counts)[index]
    yc = y - (np.bincount(index, y) / counts)[index]
    denominator = float(tc @ tc)
    return float(tc @ yc / denominator) if denominator > 0 else float("nan")


def _within_slope_interval(t: np.ndarray, y: np.ndarray, groups: np.ndarray, block_s: float, reps: int,
                           rng: np.random.Generator) -> tuple[float, float, float]:
    """`_within_slope` (y in % per hour of t in seconds: the result is in %/h) and its 95% block-bootstrap interval."""
    estimate = _within_slope(t, y, groups)
    block = np.floor((t - t.min()) / block_s).astype(int)
    members = [np.flatnonzero(block == b) for b in np.unique(block)]
    draws = []
    for _ in range(reps):
        rows = np.concatenate([members[i] for i in rng.integers(len(members), size=len(members))])
        draws.append(_within_slope(t[rows], y[rows], groups[rows]))
    draws = np.array(draws)
    draws = draws[np.isfinite(draws)]
    if draws.size == 0:
        return estimate, float("nan"), float("nan")
    low, high = np.percentile(draws, [2.5, 97.5])
    return estimate, float(low), float(high)


def append_memory_csv(samples: list[tuple[float, str, int, int]], path: Path) -> None:
    """Append samples to the CSV at `path` (seconds, role, pid, RSS in MiB; the header first when the file is new),
    so slopes can be refitted and plotted later."""  # noqa: D205, D209
    new = not path.is_file() or path.stat().st_size == 0
    with path.open("a", newline="") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(["time_s", "role", "pid", "rss_mib"])
        writer.writerows((round(t, 1), role, pid, round(rss / 2**20, 2)) for t, role, pid, rss in samples if rss > 0)


def read_memory_csv(path: Path) -> list[tuple[float, str, int, int]]:
    """Samples written by `append_memory_csv` (RSS back in bytes)."""
    with path.open(newline="") as f:
        return [(float(r["time_s"]), r["role"], int(r["pid"]), int(float(r["rss_mib"]) * 2**20))
                for r in csv.DictReader(f)]


HeapSample = tuple[float, str, int, int, int, int]
"""(seconds since the sampler started, role, pid, malloc bytes in use, Python allocated blocks, entries of the
process's bounded caches or -1 where the log did not tell)."""


def read_heap_logs(folder: Path, roles: dict[int, str], t0_wall: float) -> list[HeapSample]:
    """The lines `android_gym.heap` logged in `folder` (one file per process), for the processes of `roles`.

    Args:
        folder: the `ANDROID_GYM_HEAP_LOG` folder of an arm.
        roles: pid -> role, as the memory sampler saw them (logs of other processes are left out).
        t0_wall: the sampler's start in unix time, so both series share one clock.
    """
    out: list[HeapSample] = []
    for path in sorted(folder.glob("heap-*.csv")):
        pid = int(path.stem.split("-", 1)[1])
        if pid not in roles:
            continue
        for line in path.read_text().splitlines(keepends=True):
            parts = line.rstrip("\n").split(",")
            if not line.endswith("\n") or len(parts) not in (3, 4):  # a line cut by a kill is left out
                continue
            entries = int(parts[3]) if len(parts) == 4 and parts[3] else -1  # 3 fields: a log of before the count
            out.append((float(parts[0]) - t0_wall, roles[pid], pid, int(parts[1]), int(parts[2]), entries))
    return sorted(out)


def write_heap_csv(samples: list[HeapSample], path: Path) -> None:
    """Heap samples as CSV (seconds, role, pid, malloc MiB in use, Python blocks, cached entries), for refits and
    plots later."""  # noqa: D205, D209
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["time_s", "role", "pid", "heap_mib", "python_blocks", "cached_entries"])
        writer.writerows((round(t, 1), role, pid, round(heap / 2**20, 3), blocks, entries)
                         for t, role, pid, heap, blocks, entries in samples)


def read_heap_csv(path: Path) -> list[HeapSample]:
    """Samples written by `write_heap_csv` (bytes again; a file written before the cache column: entries -1)."""
    with path.open(newline="") as f:
        return [(float(r["time_s"]), r["role"], int(r["pid"]), int(float(r["heap_mib"]) * 2**20),
                 int(r["python_blocks"]), int(r.get("cached_entries") or -1)) for r in csv.DictReader(f)]


def caches_full_at(samples: list[HeapSample], share: float = 0.99) -> dict[str, dict[str, float]]:
    """Per role: when its processes' bounded caches stopped growing, and how many entries they hold at the end.

    A process's caches count as full from its first sample holding `share` of its last known entry count: a cache
    at its cap stays there (least recently used entries make room), one still filling at the end reaches the share
    only at the end. The role's time is its latest process's.

    Returns:
        {role: {"full_at_s", "entries_at_end" (mean over processes), "processes"}}, for roles with known counts.
    """
    series: dict[tuple[str, int], list[tuple[float, int]]] = {}
    for t, role, pid, _, _, entries in samples:
        if entries >= 0:
            series.setdefault((role, pid), []).append((t, entries))
    out: dict[str, dict[str, float]] = {}
    for (role, _), points in sorted(series.items()):
        last = points[-1][1]
        full_at = next(t for t, entries in points if entries >= share * last)
        row = out.setdefault(role, {"full_at_s": full_at, "entries_at_end": 0.0, "processes": 0.0})
        row["full_at_s"] = max(row["full_at_s"], full_at)
        row["entries_at_end"] += last
        row["processes"] += 1
    for row in out.values():
        row["entries_at_end"] /= row["processes"]
    return out


PLOT_COLUMNS = 3
"""Panels per row of the memory plot (seven arms in one row made a 4620-pixel-wide image)."""


def plot_memory(arms: dict[str, list[tuple[float, str, int, int]]], path: Path) -> Path:
    """Resident memory over time, one panel per arm: the sum over each role's processes, in MiB."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(PLOT_COLUMNS, len(arms))
    rows = -(-len(arms) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.3 * cols, 3.1 * rows), sharey=True, squeeze=False)
    flat = list(axes.flat)
    for ax, (name, samples) in zip(flat, arms.items(), strict=False):
        totals: dict[str, dict[float, float]] = {}
        for t, role, _, rss in samples:
            by_time = totals.setdefault(role, {})
            by_time[t] = by_time.get(t, 0.0) + rss / 2**20
        for role, by_time in sorted(totals.items()):
            times = sorted(by_time)
            ax.plot([t / 60 for t in times], [by_time[t] for t in times], label=role)
        ax.set_title(f"{name} arm", fontsize=10)
        ax.set_xlabel("minutes")
        ax.grid(alpha=0.3)
    for ax in flat[len(arms):]:  # no empty panels
        fig.delaxes(ax)
    for row in axes:
        row[0].set_ylabel("RSS per role (MiB)")
    flat[0].legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def audit_replay(path: Path, budgets: dict[str, int]) -> dict[str, int]:
    """Whole-trajectory check of a replay checkpoint (replay.npz, read without pickle).

    A stored trajectory is whole when its per-step arrays agree in length T, it has T+1 observations, it is done
    only at its last step, and it ended there: done (terminated), at its task's step budget (`budgets`: template
    name -> max steps), or before a step a worker could not trust (`metadata["cut"]`: a device fault or an unknown
    verdict, whose clean prefix it shipped). Anything else is a half-inserted trajectory.

    Returns:
        {"trajectories": n, "half_inserted": n, "non_finite": n}, plus "missing": 1 when there is no file.
    """
    if not path.exists():
        return {"trajectories": 0, "half_inserted": 0, "non_finite": 0, "missing": 1}
    with np.load(path, allow_pickle=False) as data:
        per_slot: dict[str, dict[str, np.ndarray]] = {}
        for key in data.files:
            if key.startswith("traj/"):
                slot, _, rest = key[len("traj/"):].partition("/")
                per_slot.setdefault(slot, {})[rest] = data[key]
    half = non_finite = 0
    for arrays in per_slot.values():
        steps = {k: len(v) for k, v in arrays.items() if k in ("rewards", "dones", "log_mu", "policy_version")}
        t = steps.get("rewards", -1)
        observations = [v for k, v in arrays.items() if k.startswith("obs/")]
        dones = arrays.get("dones", np.zeros(0, bool))
        meta = json.loads(str(arrays["header"])) if "header" in arrays else {}
        budget = budgets.get(str(meta.get("task", "")), max(budgets.values(), default=0))
        is_whole = (len(steps) == 4 and len(set(steps.values())) == 1 and t > 0 and observations
                    and all(len(o) == t + 1 for o in observations)
                    and not dones[:-1].any()
                    and (bool(dones[-1]) or t >= budget or meta.get("metadata", {}).get("cut") is not None))
        half += not is_whole
        non_finite += not (np.isfinite(arrays.get("rewards", [np.nan])).all()
                           and np.isfinite(arrays.get("log_mu", [np.nan])).all())
    return {"trajectories": len(per_slot), "half_inserted": half, "non_finite": non_finite}
