"""Fleet: collection over emulator processes on one and two Ray nodes of this machine (issue 47).

DistRL's setup is a learner and workers over several hosts, each worker driving the emulators of its own host. This
section runs that setup on one machine: a Ray cluster of two nodes started with `ray start` (`benchmarks.ray_cluster`:
token authentication, loopback), every env an `emulator:fleet` device, that is an `android-gym emulator` process
launched from a simulated SDK exactly as an SDK's emulator is launched (ports from the host's allocator, gRPC with a
token, the boot snapshot reloaded per episode), whose phone takes a real emulator's time (`-sim-latency emulator`,
time-scaled by TIME_SCALE: after an input it settles for a step delay, a snapshot load takes a reset delay; see
`android_gym.sim.latency.Settling`).

For each emulator count N, one worker drives all N on one node, then one worker per node drives N/2 each (workers land
by the `fleet_host` resource, one per node), collecting with the warm-started small policy
(`distrl_agent.runtime.collect.collect`, as in the collection section) for `seconds` after a warm-up. The bound is
Little's law: N / (mean reset + mean episode steps x mean step), from the preset's mean delays and the run's own mean
episode length; what keeps a run below it is everything else a step costs (ADB and gRPC calls, the policy, Ray).
Efficiency counts env steps against the same bound times the mean episode length: the same expectation as counting
trajectories, from ten times the events (a 30-second window holds a handful of trajectories per emulator).
Last, one emulator of a two-node run is SIGKILLed and its relaunch timed: from the kill until its replacement, launched
at its env's next reset, answers `sys.boot_completed` over ADB.

The two nodes share this machine's cores: the two-node figures measure the runtime's cross-node machinery (a raylet
per node, trajectories and weights crossing between them), not more hardware.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil

from android_gym.sim.latency import LatencyConfig
from android_gym.testing.executables import simulated_sdk
from benchmarks.collection import agent_weights
from benchmarks.plots import Line, line_plot
from benchmarks.ray_cluster import LoopbackCluster, environ, free_port
from benchmarks.result import Result, env_number, is_tiny, markdown_table
from distrl_agent.config import TrainConfig, load_config
from distrl_agent.runtime.collect import collect

TIME_SCALE = 0.25
"""Emulator seconds x TIME_SCALE = benchmark seconds: a step's mean 2.1 s becomes 0.52 s, a reset's 13.6 s 3.4 s.
Tiny mode (the tests') runs at TINY_TIME_SCALE, `DISTRL_BENCH_FLEET_TIME_SCALE` sets another."""
TINY_TIME_SCALE = 0.02
NODES = (1, 2)
BOOT_S = 0.3
"""The simulated emulator's boot time (`-sim-boot-s`): a real one's minutes are not what this section measures."""
BOOT_TIMEOUT_S = 120.0
"""`boot_timeout_s` of every emulator: the manager's bound on a (re)launch, which the relaunch figure is held to."""
AVD = "fleet"


def plan(quick: bool) -> dict[str, Any]:
    """Emulator counts, seconds per measurement, the warm-up the runs discard, and the time scale.

    `DISTRL_BENCH_FLEET_SIZES` ("2,8") and `DISTRL_BENCH_FLEET_TIME_SCALE` replace the counts and the scale.
    """
    tiny = is_tiny()
    p = ({"sizes": [2], "seconds": 2.0, "settle_s": 0.5} if tiny else
         {"sizes": [2, 8], "seconds": 30.0, "settle_s": 10.0} if quick else
         {"sizes": [2, 4, 8, 16], "seconds": 90.0, "settle_s": 15.0})
    if value := os.environ.get("DISTRL_BENCH_FLEET_SIZES"):
        sizes = [v.strip() for v in value.split(",")]
        if not all(v.isdigit() and int(v) >= 2 and int(v) % 2 == 0 for v in sizes):
            raise ValueError(f"DISTRL_BENCH_FLEET_SIZES={value!r} is not a comma-separated list of even emulator "
                             "counts >= 2 (each is split over two nodes), e.g. \"2,8\"")
        p["sizes"] = [int(v) for v in sizes]
    p["time_scale"] = env_number("DISTRL_BENCH_FLEET_TIME_SCALE", TINY_TIME_SCALE if tiny else TIME_SCALE,
                                 strict=True)
    return p


def little_bound_per_s(emulators: int, mean_episode_steps: float, time_scale: float) -> float:
    """Trajectories per second `emulators` phones could finish if nothing but their own delays took time."""
    latency = LatencyConfig.coerce("emulator", time_scale)
    return emulators / (latency.mean_reset_s + mean_episode_steps * latency.mean_step_s)


def sdk_emulators(sdk: Path) -> list[psutil.Process]:
    """The live emulator processes launched from the SDK at `sdk` (zombies left out)."""
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        cmdline = p.info["cmdline"] or []
        if p.info["status"] != psutil.STATUS_ZOMBIE and "-avd" in cmdline and any(str(sdk) in part for part in cmdline):
            found.append(p)
    return found


def bound_standard_error(steps: int, episodes: int, mean_episode_steps: float, time_scale: float) -> float:
    """Relative standard error of the bound from the delays' own draws: a window holds `steps` step delays and
    `episodes` reset delays, whose means scatter around the preset's (lognormal: coefficient of variation
    sqrt(exp(sigma^2) - 1)), and the window's true bound with them; an efficiency within two of these of 100% is at
    the bound.

    >>> round(bound_standard_error(1000, 100, 10.0, 0.25), 3)
    0.028
    """  # noqa: D205
    latency = LatencyConfig.coerce("emulator", time_scale)

    def spread(mean: float, sigma: float, draws: int) -> float:
        return mean * math.sqrt(math.exp(sigma**2) - 1) / math.sqrt(max(1, draws))

    reset = spread(latency.mean_reset_s, latency.reset_sigma, episodes)
    stepping = mean_episode_steps * spread(latency.mean_step_s, latency.step_sigma, steps)
    return math.hypot(reset, stepping) / (latency.mean_reset_s + mean_episode_steps * latency.mean_step_s)


class Fleet:
    """The simulated SDK, its host's ADB server and the two-node cluster, for as long as the `with` block lasts.

    Guarantees: on exit the cluster is stopped and the ADB server killed; `emulators()` lists the SDK's emulator
    processes still alive (none, once every run has closed its envs).
    """

    def __init__(self, folder: Path, time_scale: float) -> None:
        self.folder = folder
        self.sdk = simulated_sdk(folder / "sdk", "-sim-boot-s", str(BOOT_S), "-sim-latency", "emulator",
                                 "-sim-latency-scale", str(time_scale))
        self.adb_port = free_port()
        self.env = {"HOME": str(folder), "ANDROID_SDK_ROOT": str(self.sdk),
                    "ANDROID_ADB_SERVER_PORT": str(self.adb_port)}  # tokens and discovery files stay in `folder`
        self.cluster = LoopbackCluster(nodes=max(NODES), num_cpus=2, resources={"fleet_host": 1}, env=self.env)

    def __enter__(self) -> Fleet:
        # the host's ADB server first, as the recipe says: one a Ray worker started would die with that worker
        self.adb("start-server")
        try:
            self.cluster.__enter__()
        except BaseException:
            self.adb("kill-server")
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.cluster.close()
        finally:
            self.adb("kill-server")

    def adb(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run the SDK's adb against this fleet's ADB server."""
        return subprocess.run([str(self.sdk / "platform-tools" / "adb"), *args], capture_output=True, text=True,
                              timeout=60, env=self.cluster.env, check=False)

    def config(self, emulators: int, nodes: int, seed: int = 0) -> TrainConfig:
        """Collection by one worker per node, `emulators` launched between them."""
        options = {"sdk_root": str(self.sdk), "snapshot": "default_boot", "boot_timeout_s": BOOT_TIMEOUT_S,
                   "port": self.adb_port}
        return load_config(overrides=[
            "runtime.runtime=ray", f"runtime.address={self.cluster.address}", f"runtime.workers={nodes}",
            f"runtime.envs_per_worker={emulators // nodes}", "runtime.worker_resources={fleet_host: 1}",
            f"runtime.seed={seed}", f"env.device=emulator:{AVD}", f"env.device_options={json.dumps(options)}"])

    def emulators(self) -> list[psutil.Process]:
        """The SDK's emulator processes alive now."""
        return sdk_emulators(self.sdk)

    def collect(self, emulators: int, nodes: int, seconds: float, settle_s: float,
                weights: dict[str, Any]) -> dict[str, Any]:
        """`collect`'s summary for one layout, run with this fleet's cluster token in the environment."""
        with environ(self.cluster.driver_env()):
            return collect(self.config(emulators, nodes), seconds, weights=weights, settle_s=settle_s)


def _console_port(process: psutil.Process) -> str | None:
    """The console port an emulator process was started on (None once it has exited)."""
    try:
        cmdline = process.cmdline()
    except psutil.Error:  # it exited while we looked
        return None
    for flag in ("-port", "-ports"):
        if flag in cmdline and cmdline.index(flag) + 1 < len(cmdline):
            return cmdline[cmdline.index(flag) + 1].split(",")[0]
    return None


class Relauncher(threading.Thread):
    """Kills one emulator once `emulators` run, then times its replacement's boot (`relaunch_s`, None if none)."""

    def __init__(self, fleet: Fleet, emulators: int, after_s: float, deadline_s: float) -> None:
        super().__init__(daemon=True)
        self.fleet, self.count, self.after_s, self.deadline_s = fleet, emulators, after_s, deadline_s
        self.relaunch_s: float | None = None
        self.killed: str | None = None

    def run(self) -> None:  # noqa: D102
        end = time.monotonic() + self.deadline_s
        while len(self.fleet.emulators()) < self.count and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(self.after_s)
        victims = self.fleet.emulators()
        if not victims:
            return
        victim, port = victims[0], _console_port(victims[0])
        victim.kill()
        killed_at, self.killed = time.monotonic(), port
        while time.monotonic() < end:
            # the process table first: each adb call starts a Python process, only worth it once a replacement runs
            if any(p.pid != victim.pid and _console_port(p) == port for p in self.fleet.emulators()):
                booted = self.fleet.adb("-s", f"emulator-{port}", "shell", "getprop", "sys.boot_completed")
                if booted.stdout.strip() == "1":
                    self.relaunch_s = time.monotonic() - killed_at
                    return
            time.sleep(0.1)


def run(quick: bool, out: Path) -> Result:
    """Trajectories per minute vs emulators on one and two nodes, against Little's law; then a relaunch timed."""
    p = plan(quick)
    scale = p["time_scale"]
    result = Result(config={**p, "nodes": list(NODES), "latency": "emulator",
                            "boot_s": BOOT_S, "boot_timeout_s": BOOT_TIMEOUT_S, "cpus_per_node": 2,
                            "policy": "warm-started small policy (noisy-expert behaviour cloning)"})
    weights = agent_weights(is_tiny())
    rows, curves, orphans = [], {nodes: [] for nodes in NODES}, 0
    bounds: list[float] = []
    out.mkdir(parents=True, exist_ok=True)
    with Fleet(out / "fleet_sdk", scale) as fleet:
        for n in p["sizes"]:
            for nodes in NODES:
                s = fleet.collect(n, nodes, p["seconds"], p["settle_s"], weights)
                orphans += len(fleet.emulators())
                mean_len = s["env_steps"] / max(1, s["episodes"])
                bound = little_bound_per_s(n, mean_len, scale)
                rate = s["trajectories_per_s"]
                # counted in env steps: ~10x the events of trajectories, the same expectation (steps = L x episodes)
                efficiency = s["steps_per_s"] / (bound * mean_len)
                curves[nodes].append(60 * rate)
                if nodes == 1:
                    bounds.append(60 * bound)
                noise = bound_standard_error(s["env_steps"], s["episodes"], mean_len, scale)
                rows.append([n, nodes, f"{60 * rate:.1f}", f"{60 * bound:.1f}",
                             f"{efficiency:.0%} ± {2 * noise * efficiency:.0%}", s["trajectories"],
                             f"{mean_len:.1f}", f"{s['success']:.0%}", int(s.get("runtime/faulty_episodes", 0))])
                result.add(f"efficiency/{nodes}_node{'s' if nodes > 1 else ''}/{n}_emulators", 100 * efficiency, "%",
                           target=90.0 if nodes == 2 and n == 8 else None)
                result.add(f"traj_per_min/{nodes}_node{'s' if nodes > 1 else ''}/{n}_emulators", 60 * rate,
                           "traj/min")
                print(f"[fleet] {n} emulators on {nodes} node(s): {60 * rate:.1f} traj/min, {efficiency:.0%} of "
                      f"Little's bound ({s['trajectories']} trajectories)", file=sys.stderr, flush=True)
        relaunch = _relaunch(fleet, p, weights)
        orphans += len(fleet.emulators())
    orphans += len(fleet.emulators())  # the cluster stopped: whatever its workers launched must be gone too
    result.add("relaunch_s", math.inf if relaunch["relaunch_s"] is None else relaunch["relaunch_s"], "s",
               target=BOOT_TIMEOUT_S, higher_is_better=False)
    result.add("escaped_exceptions", relaunch["escaped"], "count", target=0, higher_is_better=False)
    result.add("orphan_emulators", orphans, "count", target=0, higher_is_better=False)
    result.tables.append(markdown_table(
        ["emulators", "nodes", "traj/min", "Little's-law bound traj/min", "efficiency (± 2 s.e. of the delays)",
         "trajectories",
         "mean episode steps", "agent success", "faulty episodes"], rows))
    result.notes.append(
        f"Time scale {scale:g}: the emulator preset's mean step {LatencyConfig.coerce('emulator').mean_step_s:.2f} s "
        f"and reset {LatencyConfig.coerce('emulator').mean_reset_s:.1f} s become "
        f"{LatencyConfig.coerce('emulator', scale).mean_step_s:.2f} s and "
        f"{LatencyConfig.coerce('emulator', scale).mean_reset_s:.2f} s; each figure is {p['seconds']:g} s of "
        f"collection after a warm-up ({p['settle_s']:g} s more discarded once every worker has reported). Both nodes "
        "are this machine's (2 CPUs declared each): the two-node rows measure the runtime across raylets, not more "
        "cores. The delays are random (heavy-tailed steps): a window's own draws move its true bound, by the ± "
        "given (two standard errors), so an efficiency above 100% within it is at the bound.")
    result.notes.append(
        f"Relaunch: emulator-{relaunch['killed']} SIGKILLed during a two-node run of {relaunch['emulators']} "
        f"emulators; its replacement answered sys.boot_completed after "
        f"{'never' if relaunch['relaunch_s'] is None else format(relaunch['relaunch_s'], '.1f') + ' s'} (the manager's "
        f"bound: boot_timeout_s {BOOT_TIMEOUT_S:g} s; the simulated boot takes {BOOT_S:g} s, a real one minutes); "
        f"{relaunch['faulty']} episode(s) truncated by the kill; {orphans} emulator(s) left running after the runs.")
    result.plots.append(str(_plot(p["sizes"], curves, bounds, scale, out / "fleet_scaling.png")))
    return result


def _relaunch(fleet: Fleet, p: dict[str, Any], weights: dict[str, Any]) -> dict[str, Any]:
    """A two-node run of the smallest size with one emulator SIGKILLed once all run; its replacement timed."""
    n = p["sizes"][0]
    seconds = max(p["seconds"], 5.0)
    killer = Relauncher(fleet, n, after_s=1.0, deadline_s=seconds + 120)
    killer.start()
    escaped, faulty = 0, 0
    try:
        summary = fleet.collect(n, max(NODES), seconds, 0.0, weights)
        faulty = int(summary.get("runtime/faulty_episodes", 0))
    except Exception as e:  # noqa: BLE001  (counted: the figure says whether a kill escaped the runtime)
        escaped = 1
        print(f"[fleet] the relaunch run failed: {e!r}", file=sys.stderr)
    killer.join(timeout=120)
    return {"relaunch_s": killer.relaunch_s, "killed": killer.killed, "emulators": n, "escaped": escaped,
            "faulty": faulty}


def _plot(sizes: list[int], curves: dict[int, list[float]], bounds: list[float], scale: float, path: Path) -> Path:
    lines = [Line(sizes, bounds, "k--", "Little's-law bound")]
    for nodes, style in zip(NODES, ("o-", "s:"), strict=True):
        lines.append(Line(sizes, curves[nodes], style, f"{nodes} node{'s' if nodes > 1 else ''} (a worker each)"))
    return line_plot(lines, "emulators", "trajectories / benchmark minute",
                     f"Emulator fleet over Ray nodes (emulator latency x{scale:g})", path)
