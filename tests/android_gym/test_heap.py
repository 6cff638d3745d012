"""`android_gym.heap`: freed memory goes back to the system once the trimming thread runs (glibc only)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from android_gym import heap

# In a fresh process: free one 16 MiB block (glibc then raises its mmap threshold to 16 MiB, so 4 MiB blocks come from
# the heap), allocate 16 blocks of 4 MiB, free every other one (holes between live blocks: no trim of the heap's top
# can return them, and free() alone does not), then report how much of the freed 32 MiB is still resident 1 s later.
_PROBE = """
import json, sys, time
import numpy as np, psutil
from android_gym import heap
started = heap.return_freed_memory(every_s=0.1) if sys.argv[1] == "trimmed" else False
rss = lambda: psutil.Process().memory_info().rss
big = np.ones(16 << 20, np.uint8); del big
blocks = [np.ones(4 << 20, np.uint8) for _ in range(16)]
before = rss()
del blocks[::2]
time.sleep(1.0)
print(json.dumps({"started": started, "again": heap.return_freed_memory(), "threads": sorted(
    t.name for t in __import__("threading").enumerate() if t.name.startswith("android_gym-heap")),
    "kept_mib": 32 - (before - rss()) / 2**20}))
"""


def _probe(mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(heap._glibc() is None, reason="glibc's allocator only")
def test_trimming_returns_freed_holes_and_starts_once() -> None:
    default, trimmed = _probe("default"), _probe("trimmed")
    assert default["kept_mib"] > 24, "glibc kept nothing without trimming: the probe no longer makes holes"
    assert trimmed["started"] is True and trimmed["again"] is True
    assert trimmed["threads"] == ["android_gym-heap-trim"]  # the second call started no second thread
    assert trimmed["kept_mib"] < 4
