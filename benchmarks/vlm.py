"""One copy of a VLM per host against a copy per worker (issue 46): memory and actions per second at 8 env slots.

The same tiny-architecture Idefics3 checkpoint (random weights, built offline at a size where the model, not the
Python runtime, dominates a process), the same 8 workers of one env each on the instant sim, collecting with the
initial weights for a fixed wall time, once with `runtime.inference=worker` (8 copies of the model) and once with
`host` (one inference service). Memory is the proportional set size (PSS: shared pages split between the processes
sharing them) summed over the worker processes and the service, read at the end of the window; actions per second
are the env steps the workers took over the window, after a warm-up.

Run: `python -m benchmarks.vlm [seconds]` (prints the table; not yet a section of `python -m benchmarks run`).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SLOTS = 8
WARMUP_S = 20.0


def pss_mib(pid: int) -> float:
    """The proportional set size of process `pid`, in MiB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def measure(model_dir: Path, mode: str, seconds: float, run_dir: Path) -> dict[str, Any]:
    """Collect for `seconds` with 8 workers of one env, the policy served per `mode` ("worker" or "host")."""
    from distrl_agent.config import load_config
    from distrl_agent.runtime.build import make_runtime
    from distrl_agent.runtime.collect import initial_weights

    config = load_config(overrides=[
        "policy.kind=vlm", f"policy.vlm.model_path={model_dir}", "policy.vlm.max_new_tokens=24",
        "env.screenshot_width=32", f"runtime.workers={SLOTS}", "runtime.envs_per_worker=1",
        "runtime.max_offpolicyness=null", f"runtime.inference={mode}", f"run_dir={run_dir}"])
    runtime, _ = make_runtime(config, with_learner=False)
    runtime.start(0, initial_weights(config))
    try:
        deadline = time.monotonic() + WARMUP_S
        while time.monotonic() < deadline:
            runtime.poll(0.5)
        steps0, t0 = runtime.stats()["runtime/env_steps"], time.monotonic()
        while time.monotonic() - t0 < seconds:
            runtime.poll(0.5)
        steps, elapsed = runtime.stats()["runtime/env_steps"] - steps0, time.monotonic() - t0
        workers = sum(pss_mib(p.child.pid) for p in runtime.procs)
        service = pss_mib(runtime.service.pid) if runtime.service is not None else 0.0
    finally:
        runtime.close()
    return {"mode": mode, "actions_per_s": steps / elapsed, "workers_pss_mib": workers, "service_pss_mib": service,
            "host_pss_mib": workers + service}


def main(seconds: float = 60.0) -> None:
    """Build the model, measure both modes, print the comparison."""
    from distrl_agent.policies.tiny_vlm import build_tiny_idefics3

    with tempfile.TemporaryDirectory() as tmp:
        model = build_tiny_idefics3(Path(tmp) / "model", hidden_size=512, num_layers=8)
        params = sum(p.numel() for p in __import__("transformers").AutoModelForImageTextToText
                     .from_pretrained(model).parameters())
        rows = [measure(model, mode, seconds, Path(tmp) / f"run-{mode}") for mode in ("worker", "host")]
    print(f"model: {params / 1e6:.1f} M parameters (float32), {SLOTS} workers x 1 env, {seconds:g} s each")
    for row in rows:
        print(f"{row['mode']:>6}: {row['actions_per_s']:.2f} actions/s, host PSS {row['host_pss_mib']:.0f} MiB "
              f"(workers {row['workers_pss_mib']:.0f}, service {row['service_pss_mib']:.0f})")
    per_worker, host = rows
    print(f"memory: {per_worker['host_pss_mib'] / host['host_pss_mib']:.2f}x less with one copy; actions/s: "
          f"{host['actions_per_s'] / per_worker['actions_per_s']:.2f}x")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0)
