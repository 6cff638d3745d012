"""The gRPC device path against ADB on `android-gym emulator` processes, and a pool of 8 surviving a SIGKILL (issue 18).

Everything runs in this one process against emulator processes that announce themselves to an `AdbFront(devices=0)`:
screenshots at the native size over gRPC (`EmulatorGrpc.screenshot`), raw `exec-out screencap` and PNG `screencap -p`
through `AdbDevice`; full env steps with gRPC on (`EmulatorDevice`) and off (`AdbDevice`); and an `EmulatorPool` of
8 played by expert threads for a fixed time while one emulator is SIGKILLed. Both paths serve the same rendered frame
(the sim caches it per screen state), so the measured difference is transport and encoding only.
"""

from __future__ import annotations

import math
import os
import signal
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.devices.adb import AdbDevice
from android_gym.devices.emulator import EmulatorConfig, EmulatorDevice
from android_gym.devices.emulator_discovery import find_grpc_token
from android_gym.devices.emulator_grpc import EmulatorGrpc, load_stubs
from android_gym.devices.emulator_pool import EmulatorPool
from android_gym.errors import DeviceError, UnsupportedError
from android_gym.sim.adb import AdbFront
from android_gym.testing.executables import emulator_executable
from benchmarks.result import Result, markdown_table

ENV_ID = "android_gym/General-v0"
BOOT_S = 0.1  # the sim emulator's `-sim-boot-s`: boots are not what this measures
ADB = {"timeout_s": 5.0, "connect_timeout_s": 10.0}  # AdbConfig fields of every device: a dead emulator fails fast
RECOVERY_DEADLINE_S = 60.0  # how long a thread whose device faulted may play past the deadline to prove recovery
JOIN_TIMEOUT_S = 60.0  # for a player to leave its last step once told to stop (device calls are bounded)


@dataclass(frozen=True)
class Sizes:
    """How much each part measures.

    Attributes:
        screenshot_calls: timed screenshots per path (after 3 warm-up calls).
        step_samples: timed env steps per path.
        pool_size: emulator processes in the pool.
        pool_s: seconds of expert play in the pool (the kill comes at a third of it).
    """

    screenshot_calls: int
    step_samples: int
    pool_size: int
    pool_s: float

    @classmethod
    def choose(cls, quick: bool, tiny: bool) -> Sizes:
        """Tiny: seconds in all; quick: ~30 s on 2 cores (a pool of 4); full: more samples, a 1-minute pool of 8."""
        if tiny:  # 8 s of pool: with 4, a whole test run's load once left the killed emulator unrelaunched
            return cls(screenshot_calls=3, step_samples=5, pool_size=2, pool_s=8.0)
        return cls(20, 25, 4, 12.0) if quick else cls(100, 150, 8, 60.0)


def quantile(samples: list[float], q: float) -> float:
    """The `q` quantile of `samples` as the existing device figures take it: the sorted sample at index int(q n).

    >>> quantile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), quantile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99)
    (3.0, 5.0)
    """
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed_ms(fn: Callable[[], object], calls: int, warmup: int = 3) -> list[float]:
    """Wall-clock milliseconds of each of `calls` calls of `fn`, after `warmup` untimed ones."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        samples.append(1000 * (time.perf_counter() - t0))
    return samples


def screenshot_latencies(device: EmulatorDevice, adb_port: int, calls: int) -> tuple[dict[str, list[float]], bool]:
    """Samples (ms) of a native-size screenshot per path on `device`'s emulator, and whether all three agree.

    gRPC is `EmulatorGrpc.screenshot` on the emulator's gRPC port; raw and PNG go through `AdbDevice`s with no gRPC
    port (ADB only), each fetching anew every call (the step cache is dropped).
    """
    assert device.instance is not None and device.serial is not None
    width, height = device.screen_size
    raw = AdbDevice(device.serial, port=adb_port, screenshot="raw", **ADB)
    png = AdbDevice(device.serial, port=adb_port, screenshot="png", **ADB)

    def fresh(dev: AdbDevice) -> Callable[[], np.ndarray]:
        def call() -> np.ndarray:
            dev.refresh()
            return dev.screenshot()
        return call

    port = device.instance.grpc_port
    with EmulatorGrpc(port, ADB["timeout_s"], token=find_grpc_token(port)) as client:  # launched with -grpc-use-token
        def grpc_call() -> np.ndarray:
            return client.screenshot(width, height)

        try:
            images = [grpc_call(), fresh(raw)(), fresh(png)()]
            samples = {"grpc": timed_ms(grpc_call, calls), "raw": timed_ms(fresh(raw), calls),
                       "png": timed_ms(fresh(png), calls)}
        finally:
            raw.close()
            png.close()
    return samples, all(np.array_equal(images[0], image) for image in images[1:])


def step_latencies(device: EmulatorDevice, adb_port: int, steps: int) -> dict[str, tuple[list[float], dict[str, int]]]:
    """Samples (ms) of full env steps with expert actions, and the device's counters: ADB only, then gRPC on.

    ADB only is an `AdbDevice` on the same emulator without a gRPC port; gRPC on is `device` itself (its default).
    The gRPC env runs last: closing it kills the emulator.
    """
    assert device.serial is not None
    out = {}
    for name, dev in (("adb", AdbDevice(device.serial, port=adb_port, **ADB)), ("grpc", device)):
        env = gym.make(ENV_ID, device=dev)
        try:
            env.reset(seed=0)
            samples, episode = [], 0
            while len(samples) < steps:
                action = env.unwrapped.expert_action()
                t0 = time.perf_counter()
                _, _, terminated, truncated, _ = env.step(action)
                samples.append(1000 * (time.perf_counter() - t0))
                if terminated or truncated:
                    episode += 1
                    env.reset(seed=episode)
            out[name] = (samples, dev.stats())
        finally:
            env.close()
    return out


@dataclass
class Kill:
    """When a pool's emulator was SIGKILLed (time.monotonic s; None before): set by the killer, read by its player."""

    at: float | None = None


def play(env: gym.Env, first_seed: int, deadline: float, kill: Kill, stop: threading.Event, out: Counter[str]) -> None:
    """Expert episodes on `env` until `deadline` (time.monotonic seconds) or `stop`, counted into `out`.

    Counts `episodes` and `successes` (finished by the deadline), `faulted` (episodes a fault ended: truncated with
    `info["error"]`, or the expert's own read of the screen failed), `survived` (1 once an episode begun after
    `kill.at` finished cleanly: the env recovered from the kill), `escaped_exceptions`. Once `kill.at` is set, the
    thread plays past the deadline (up to `RECOVERY_DEADLINE_S`) until it survived; those episodes are not counted
    in `episodes`. `stop` ends the thread before its next reset or step (so that no closed env relaunches an emulator).
    """
    seed = first_seed
    while not stop.is_set():
        began = time.monotonic()
        is_recovering = kill.at is not None and not out["survived"]
        if began >= deadline and not (is_recovering and began < deadline + RECOVERY_DEADLINE_S):
            return
        try:
            env.reset(seed=seed)  # after a fault: the env's restart, or EmulatorDevice's relaunch of a dead process
        except Exception:  # noqa: BLE001  (counted: the env's own restart and retry should have covered it)
            out["escaped_exceptions"] += 1
            return
        seed += 1
        is_done = False
        while not is_done:
            if stop.is_set():
                return
            try:
                action = env.unwrapped.expert_action()
            except DeviceError:  # the expert reads the device too: a dead emulator can fail here first
                is_faulted, is_done, is_success = True, True, False
                continue
            try:
                _, _, terminated, truncated, info = env.step(action)
            except Exception:  # noqa: BLE001  (this figure must stay 0: faults become truncated steps)
                out["escaped_exceptions"] += 1
                return
            is_faulted, is_done, is_success = "error" in info, terminated or truncated, bool(info["success"])
        if time.monotonic() < deadline:
            out["episodes"] += 1
            out["successes"] += is_success
        out["faulted"] += is_faulted
        if not is_faulted and kill.at is not None and began > kill.at:
            out["survived"] = 1


def pool_run(config: EmulatorConfig, adb_port: int, size: int, seconds: float) -> dict[str, float]:
    """Expert play on `size` emulators for `seconds`, one thread each, the last one SIGKILLed a third of the way in.

    Returns the pool's start time, episodes per minute, summed `play` counters, and the devices' `emulator/launches`,
    `relaunches`, `crashes`, `boot_failures` and `grpc/fallbacks` summed by `EmulatorPool.stats()`.
    """
    pool = EmulatorPool(config, size, stagger_s=0.0, adb={**ADB, "port": adb_port})
    envs: list[gym.Env] = []
    threads: list[threading.Thread] = []
    counts = [Counter[str]() for _ in range(size)]
    kill = Kill()  # the last emulator's: its player alone learns of it
    stop = threading.Event()
    try:
        t0 = time.perf_counter()
        devices = pool.start()
        start_s = time.perf_counter() - t0
        envs = [gym.make(ENV_ID, device=device) for device in devices]
        begin = time.monotonic()
        deadline = begin + seconds
        threads = [threading.Thread(target=play, daemon=True,
                                    args=(env, 1_000_000 * i, deadline, kill if i == size - 1 else Kill(), stop,
                                          counts[i]))
                   for i, env in enumerate(envs)]
        for thread in threads:
            thread.start()
        time.sleep(seconds / 3)
        victim = devices[-1].instance
        killed = victim is not None and victim.process is not None and victim.is_running()
        if killed:
            os.kill(victim.process.pid, signal.SIGKILL)
            kill.at = time.monotonic()  # after the kill: an episode begun later surely ran on a relaunched emulator
        time.sleep(max(0.0, deadline - time.monotonic()))
        for thread in threads:
            thread.join(max(0.0, deadline + RECOVERY_DEADLINE_S - time.monotonic()))
        stats = pool.stats()
    finally:
        stop.set()
        for thread in threads:  # each is past its episode within a device call's deadlines
            thread.join(JOIN_TIMEOUT_S)
        for env in envs:  # closes each device, which kills its emulator
            env.close()
        pool.close()
    total: Counter[str] = sum(counts, Counter())
    return {"emulators": size, "start_s": start_s, "seconds": seconds, "killed": int(killed),
            "episodes_per_min": 60 * total["episodes"] / seconds,
            **{k: total[k] for k in ("episodes", "successes", "faulted", "survived", "escaped_exceptions")},
            **{k: stats.get(f"emulator/{k}", 0) for k in ("launches", "relaunches", "crashes", "boot_failures")},
            "grpc_fallbacks": stats.get("grpc/fallbacks", 0),
            "hung_threads": sum(t.is_alive() for t in threads)}


def measure(result: Result, quick: bool, tiny: bool) -> None:
    """Add the emulator figures, tables and notes to `result` (a note only, when grpc or android_env is missing)."""
    try:
        load_stubs()
    except UnsupportedError as e:
        result.notes.append(f"Emulator gRPC section skipped: {e}")
        return
    sizes = Sizes.choose(quick, tiny)
    result.config.update({"emulator_screenshot_calls": sizes.screenshot_calls,
                          "emulator_step_samples": sizes.step_samples, "emulator_pool_size": sizes.pool_size,
                          "emulator_pool_s": sizes.pool_s})
    with tempfile.TemporaryDirectory(prefix="bench-emulator-") as folder, \
            AdbFront(devices=0, perturbations="none") as front:
        config = EmulatorConfig(avd="pixel_7", binary=str(emulator_executable(Path(folder) / "emulator")),
                                extra_args=("-sim-boot-s", str(BOOT_S)), boot_timeout_s=30.0, console_timeout_s=5.0)
        device = EmulatorDevice(config, port=front.port, **ADB)
        try:
            device.start()
            screen = device.screen_size
            shots, is_identical = screenshot_latencies(device, front.port, sizes.screenshot_calls)
            steps = step_latencies(device, front.port, sizes.step_samples)
        finally:
            device.close()
        pool = pool_run(config, front.port, sizes.pool_size, sizes.pool_s)
    _report_screenshots(result, shots, is_identical, screen)
    _report_steps(result, steps)
    _report_pool(result, pool)


def _report_screenshots(result: Result, shots: dict[str, list[float]], is_identical: bool,
                        size: tuple[int, int]) -> None:
    median = {path: quantile(samples, 0.5) for path, samples in shots.items()}
    labels = {"grpc": "gRPC getScreenshot (RGBA8888)", "raw": "ADB exec-out screencap (raw)",
              "png": "ADB exec-out screencap -p (PNG)"}
    rows = [[labels[p], f"{median[p]:.2f}", f"{quantile(s, 0.99):.2f}"] for p, s in shots.items()]
    result.tables.append(markdown_table([f"screenshot {size[0]}x{size[1]} (emulator process, loopback)",
                                         "median ms", "p99 ms"], rows))
    for path in shots:
        result.add(f"latency_ms/emulator_screenshot_{path}", median[path], "ms", higher_is_better=False)
    vs_png = result.add("grpc_screenshot_speedup_vs_png", median["png"] / median["grpc"], "x", target=5.0)
    vs_raw = result.add("grpc_screenshot_speedup_vs_raw", median["raw"] / median["grpc"], "x")
    result.add("emulator_screenshots_identical", float(is_identical), "bool", target=1.0)
    result.notes.append(
        f"gRPC screenshots are {vs_png.value:.2f}x PNG screencap and {vs_raw.value:.2f}x raw screencap here "
        f"({median['grpc']:.1f} vs {median['png']:.1f} and {median['raw']:.1f} ms median at {size[0]}x{size[1]}). "
        "A real emulator's costs differ: its `screencap` runs in the guest and PNG-encodes a photo-like frame "
        "(hundreds of ms), where gRPC reads the host framebuffer; the sim serves one cached rendered frame on every "
        "path and its flat UI PNG-encodes fast, so what is measured is transport and encoding. No real adb binary "
        "is installed here: the ADB client is our AdbDevice over the sim's ADB front, which forwards to each "
        "emulator's adbd.")


def _report_steps(result: Result, steps: dict[str, tuple[list[float], dict[str, int]]]) -> None:
    rows = []
    for path, (samples, stats) in steps.items():
        grpc_calls = sum(v for k, v in stats.items() if k.startswith("grpc/") and "/faults/" not in k
                         and k not in ("grpc/connects", "grpc/connect_failures", "grpc/fallbacks"))
        rows.append([{"adb": "gRPC off (AdbDevice, ADB only)", "grpc": "gRPC on (EmulatorDevice)"}[path],
                     f"{quantile(samples, 0.5):.2f}", f"{quantile(samples, 0.9):.2f}", len(samples), grpc_calls])
        result.add(f"latency_ms/emulator_step_{path}", quantile(samples, 0.5), "ms", higher_is_better=False)
        result.add(f"latency_ms/emulator_step_{path}_p90", quantile(samples, 0.9), "ms", higher_is_better=False)
    result.tables.append(markdown_table(["env step (General, expert actions)", "median ms", "p90 ms", "steps",
                                         "calls over gRPC"], rows))
    grpc_ms, adb_ms = quantile(steps["grpc"][0], 0.5), quantile(steps["adb"][0], 0.5)
    result.add("speedup/emulator_step_grpc_vs_adb", adb_ms / grpc_ms, "x")


def _report_pool(result: Result, pool: dict[str, Any]) -> None:
    result.tables.append(markdown_table([f"pool of {pool['emulators']} emulators, {pool['seconds']:g} s of expert "
                                         "play, one SIGKILLed", "value"],
                                        [[k, f"{v:.4g}" if isinstance(v, float) else v] for k, v in pool.items()]))
    result.add("emulator_pool/episodes_per_min", pool["episodes_per_min"], "episodes/min")
    result.add("emulator_pool/start_s", pool["start_s"], "s", higher_is_better=False)
    result.add("emulator_pool/relaunches", pool["relaunches"], "relaunches", target=pool["killed"])
    result.add("emulator_pool/faults_survived", pool["survived"], "faults", target=pool["killed"])
    result.add("emulator_pool/escaped_exceptions", pool["escaped_exceptions"], "exceptions", target=0,
               higher_is_better=False)
    success = 100 * pool["successes"] / pool["episodes"] if pool["episodes"] else math.nan
    result.add("emulator_pool/success", success, "%")
    after = "then played a clean episode" if pool["survived"] else "did NOT play a clean episode after it"
    result.notes.append(
        f"Emulator pool: {pool['emulators']} `android-gym emulator` processes ({BOOT_S:g} s sim boot) started in "
        f"{pool['start_s']:.1f} s and were played by one expert thread each in this process: "
        f"{pool['episodes_per_min']:.0f} episodes/min. The SIGKILL cost {pool['faulted']} faulted episode(s) and "
        f"{pool['relaunches']} relaunch(es); its env {after} (a kill between episodes is absorbed by the next reset, "
        "which relaunches the dead emulator, so 0 faulted episodes is possible). The client's Python threads share "
        "one GIL, so the rate is a floor for these emulators.")
