"""The device layer: ADB call latency, raw vs PNG, a fault run, and the emulator's gRPC path against ADB (issue 18).

Per-call latency, raw vs PNG screenshots and a 200-episode fault run go AdbDevice -> ADB host protocol -> the sim's
ADB front on loopback, so the numbers are the client stack's own overhead plus the front's encoding (the front caches
the rendered frame, as a phone's compositor has it ready): what a real emulator adds on top is its own
`screencap`/`uiautomator` time. The emulator part (`benchmarks.devices_emulator`) measures gRPC vs ADB screenshots
and env steps on `android-gym emulator` processes, and a pool of 8 of them surviving a SIGKILL.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import adbutils
import gymnasium as gym

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import Action
from android_gym.devices.adb import AdbDevice
from android_gym.sim.adb import AdbFront, FaultConfig
from benchmarks import devices_emulator
from benchmarks.result import Result, is_tiny, markdown_table
from benchmarks.sim import expert_steps_per_s

FAULT_TIMEOUT_S, FAULT_RETRIES = 0.25, 4


def latency_ms(fn: Callable[[], object], calls: int, warmup: int = 5) -> tuple[float, float]:
    """(median, p90) wall-clock milliseconds of `fn` over `calls` calls after `warmup` calls."""
    samples = devices_emulator.timed_ms(fn, calls, warmup)
    return statistics.median(samples), devices_emulator.quantile(samples, 0.9)


def call_latencies(calls: int) -> dict[str, tuple[float, float]]:
    """Median/p90 ms of each device call, fetched fresh every time (the step cache is dropped)."""
    with AdbFront(devices=1, perturbations="none") as front:
        raw = AdbDevice("sim-0", port=front.port, screenshot="raw")
        png = AdbDevice("sim-0", port=front.port, screenshot="png")
        for dev in (raw, png):
            dev.reset(0)

        def fresh(dev: AdbDevice, fn: Callable[[], object]) -> Callable[[], object]:
            def call() -> object:
                dev.refresh()
                return fn()
            return call

        client = adbutils.AdbClient(port=front.port, socket_timeout=10)
        out = {
            "screenshot raw (exec-out screencap)": latency_ms(fresh(raw, raw.screenshot), calls),
            "screenshot PNG (exec-out screencap -p)": latency_ms(fresh(png, png.screenshot), calls),
            "screenshot 224 px (raw + resize)": latency_ms(fresh(raw, lambda: raw.screenshot(224)), calls),
            "adbutils screenshot() (PNG, for reference)": latency_ms(
                lambda: client.device("sim-0").screenshot(error_ok=False), calls),
            "tap (input tap)": latency_ms(lambda: raw.perform(Action.tap(0.5, 0.02)), calls),
            "UI dump (uiautomator dump + parse)": latency_ms(fresh(raw, raw.ui_elements), calls),
            "state (sim state query)": latency_ms(fresh(raw, raw.state), calls),
        }
    return out


def step_rates(seconds: float) -> tuple[float, float]:
    """Env steps/s (expert actions, elements only) on SimDevice directly and through the ADB front."""
    rates = []
    with AdbFront(devices=1, perturbations="default") as front:
        for device in ("sim", AdbDevice("sim-0", port=front.port)):
            env = gym.make("android_gym/General-v0", device=device, screenshot_width=0)
            try:
                rates.append(expert_steps_per_s(env, seconds))
            finally:
                env.close()
    return rates[0], rates[1]


def fault_run(episodes: int, rate: float, seed: int = 0) -> dict[str, float]:
    """Expert episodes through a faulty front vs fault-free references; counts outcomes and the slowest step."""
    out = {"episodes": 0, "faulty": 0, "faulty_with_error": 0, "clean": 0, "silent_mismatches": 0,
           "escaped_exceptions": 0, "reset_failures": 0, "max_step_s": 0.0}
    faults = FaultConfig.mixed(rate, seed=seed, hang_s=3600)
    with AdbFront(devices=1, perturbations="default", faults=faults) as front:
        dev = AdbDevice("sim-0", port=front.port, timeout_s=FAULT_TIMEOUT_S, retries=FAULT_RETRIES,
                        connect_timeout_s=2)
        env = gym.make("android_gym/General-v0", device=dev, screenshot_width=0)
        ref = gym.make("android_gym/General-v0", screenshot_width=0)
        for episode in range(episodes):
            try:
                env.reset(seed=episode)
            except Exception:  # noqa: BLE001  (counted: a reset that fails after its retries is data here)
                out["reset_failures"] += 1
                continue
            ref.reset(seed=episode)
            out["episodes"] += 1
            while True:
                action = ref.unwrapped.expert_action()
                t0 = time.perf_counter()
                try:
                    _, reward, terminated, truncated, info = env.step(action)
                except Exception:  # noqa: BLE001  (the figure below must stay 0)
                    out["escaped_exceptions"] += 1
                    break
                out["max_step_s"] = max(out["max_step_s"], time.perf_counter() - t0)
                _, r_ref, t_ref, tr_ref, _ = ref.step(action)
                if "error" in info or truncated and (reward, terminated, truncated) != (r_ref, t_ref, tr_ref):
                    out["faulty"] += 1
                    out["faulty_with_error"] += "error" in info and truncated and not terminated
                    break
                if (reward, terminated, truncated) != (r_ref, t_ref, tr_ref):
                    out["silent_mismatches"] += 1
                    break
                if terminated or truncated:
                    out["clean"] += 1
                    break
        counts = front.target("sim-0").faults.counts
        out["requests"], out["injected"] = counts["requests"], front.target("sim-0").faults.faults
        env.close()
    return out


def run(quick: bool, out: Path) -> Result:
    """Measure the device layer; `quick` takes fewer samples (a fault run of 80 episodes, 200 in the full suite).

    Tiny mode (`DISTRL_BENCH_TINY`): 3 calls per figure, 0.2 s per step rate, a 10-episode fault run; the emulator
    part's sizes are `devices_emulator.Sizes.choose`.
    """
    tiny = is_tiny()
    calls = 3 if tiny else 12 if quick else 60
    fault_episodes = 10 if tiny else 80 if quick else 200
    result = Result(config={"calls_per_figure": calls, "fault_episodes": fault_episodes, "fault_rate": 0.12,
                            "fault_timeout_s": FAULT_TIMEOUT_S, "fault_retries": FAULT_RETRIES})
    lat = call_latencies(calls)
    rows = [[name, f"{median:.2f}", f"{p90:.2f}"] for name, (median, p90) in lat.items()]
    result.tables.append(markdown_table(["call (1080x2400 phone, loopback)", "median ms", "p90 ms"], rows))
    raw_ms = lat["screenshot raw (exec-out screencap)"][0]
    png_ms = lat["screenshot PNG (exec-out screencap -p)"][0]
    result.add("latency_ms/screenshot_raw", raw_ms, "ms", higher_is_better=False)
    result.add("latency_ms/screenshot_png", png_ms, "ms", higher_is_better=False)
    result.add("speedup/raw_vs_png", png_ms / raw_ms, "x", target=1.0)
    result.add("latency_ms/tap", lat["tap (input tap)"][0], "ms", higher_is_better=False)
    result.add("latency_ms/ui_dump", lat["UI dump (uiautomator dump + parse)"][0], "ms", higher_is_better=False)
    direct, over_adb = step_rates(0.2 if tiny else 1.5 if quick else 5.0)
    result.add("steps_per_s/sim_direct", direct, "steps/s")
    result.add("steps_per_s/through_adb", over_adb, "steps/s")
    faults = fault_run(fault_episodes, 0.12)
    bound_s = FAULT_TIMEOUT_S * (FAULT_RETRIES + 1) * 8  # generous: ~8 device calls per step, each retried
    result.add("faults/injected_rate", 100 * faults["injected"] / max(1, faults["requests"]), "%", target=10.0)
    result.add("faults/episodes_finished", faults["episodes"] + faults["reset_failures"], "episodes",
               target=fault_episodes)
    result.add("faults/faulty_truncated_with_error", 100 * faults["faulty_with_error"] / max(1, faults["faulty"]),
               "%", target=100.0)
    result.add("faults/escaped_exceptions", faults["escaped_exceptions"], "exceptions", target=0,
               higher_is_better=False)
    result.add("faults/silent_mismatches", faults["silent_mismatches"], "episodes", target=0, higher_is_better=False)
    result.add("faults/max_step_s", faults["max_step_s"], "s", target=bound_s, higher_is_better=False)
    result.tables.append(markdown_table([f"fault run ({fault_episodes} expert episodes, General)", "value"],
                                        [[k, f"{v:g}"] for k, v in faults.items()]))
    result.notes.append(
        f"Raw screenshots are {png_ms / raw_ms:.1f}x faster than PNG through the same stack "
        f"({raw_ms:.1f} vs {png_ms:.1f} ms median). Env steps/s (expert, elements only): {direct:,.0f} in process, "
        f"{over_adb:,.0f} through ADB. Fault run: {faults['injected']:g} of {faults['requests']:g} requests faulted "
        f"(client deadline {FAULT_TIMEOUT_S} s, hangs last an hour on the server side).")
    devices_emulator.measure(result, quick, tiny)
    return result
