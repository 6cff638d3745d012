"""A machine-speed calibration measured beside every benchmark run, so results from two machines can be compared.

Absolute speeds move 3-5x between machines of the same kind while ratios measured within one run hold; the report
records these two reference workloads next to the machine's description, so that a reader can tell a slower machine
from a slower system. Each is the best of `REPEATS` timings (the least disturbed by whatever else runs).
"""

from __future__ import annotations

import time

REPEATS = 3


def python_mops(iterations: int = 1_000_000) -> float:
    """Millions of simple interpreted loop iterations per second (what the sim, the parsers and the runtime ride on)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        total = 0
        for i in range(iterations):
            total += i & 7
        best = min(best, time.perf_counter() - start)
    return iterations / best / 1e6


def torch_gflops(size: int = 256, products: int = 50) -> float:
    """GFLOP/s of float32 `size` x `size` matrix products on one thread (what the learner's updates ride on)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        a, b = torch.randn(size, size), torch.randn(size, size)
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            for _ in range(products):
                a @ b
            best = min(best, time.perf_counter() - start)
    finally:
        torch.set_num_threads(threads)
    return 2 * size**3 * products / best / 1e9


def machine_speed() -> dict[str, float]:
    """The calibration figures: {"python_mops": ..., "torch_gflops_1thread": ...} (about half a second)."""
    return {"python_mops": round(python_mops(), 2), "torch_gflops_1thread": round(torch_gflops(), 2)}
