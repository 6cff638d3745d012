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


@pytest.mark.skipif(heap.heap_in_use() is None, reason="glibc >= 2.33 (mallinfo2) only")
def test_heap_in_use_follows_allocations_not_resident_memory() -> None:
    """Allocating 40 MB raises the bytes in use by about that much; freeing brings them back down."""
    import numpy as np

    before = heap.heap_in_use()
    block = np.ones(40_000_000, np.uint8)
    during = heap.heap_in_use()
    del block
    after = heap.heap_in_use()
    assert 39e6 < during - before < 42e6
    assert abs(after - before) < 1e6


_LOGGER = """
import sys, time
from android_gym import heap
cache = {}
heap.track_cache("test cache", lambda: len(cache))
heap.return_freed_memory(every_s=0.05)
for i in range(5):
    cache[i] = i
    time.sleep(0.1)
heap.track_cache("broken", lambda: 1 // 0)  # a count that fails: the samples say "unknown", the log goes on
time.sleep(0.2)
"""


@pytest.mark.skipif(heap.heap_in_use() is None, reason="glibc >= 2.33 (mallinfo2) only")
def test_trimming_thread_logs_the_heap_where_asked(tmp_path) -> None:
    """With ANDROID_GYM_HEAP_LOG set, each trim appends time, bytes in use, Python blocks and the entries of the
    tracked caches to heap-<pid>.csv."""  # noqa: D205, D209
    import os

    env = {**os.environ, heap.HEAP_LOG_ENV: str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _LOGGER], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    (log,) = tmp_path.glob("heap-*.csv")
    rows = [line.split(",") for line in log.read_text().splitlines()]
    assert len(rows) >= 5
    assert all(float(b[0]) > float(a[0]) for a, b in zip(rows, rows[1:], strict=False))
    assert all(int(in_use) > 1e6 and int(blocks) > 1e3 for _, in_use, blocks, _ in rows)
    counts = [int(entries) for *_, entries in rows if entries]
    assert counts == sorted(counts) and counts[0] <= 1 and counts[-1] == 5  # the cache filling, as it happened
    assert rows[-1][3] == ""  # after the broken count: unknown, not 0
