"""`return_freed_memory`: a long-lived process hands its freed heap memory back to the system every few seconds.

Why: the processes of a long run allocate and free large blocks all the time — the ADB front renders a 1080x2400
frame (7.8 MB, plus 10.4 MB as raw `screencap`) per request, on a thread per request; the learner builds a batch per
update. glibc's malloc raises its mmap threshold to the largest block freed so far (up to 32 MiB), after which such
blocks come from the arenas (one per thread, up to 8 per core) and stay resident when freed. Measured in the soak
benchmark's clean arm (issue 20): `malloc_trim(0)` took the ADB front from 1,173 to 642 MiB and the learner from
865 to 527 MiB, so about half of what they held was freed memory; over 20 minutes the learner's RSS right after a
trim stayed flat (460-580 MiB, with the replay) while its untrimmed RSS swung and climbed.

Three remedies were measured against glibc's defaults on an ADB front of 32 phones driven by 24 envs (150 s each,
same machine, one run):

| remedy                                    | mean RSS  | env steps/s |
|-------------------------------------------|-----------|-------------|
| none (glibc's defaults)                   | 1,573 MiB | 14.0        |
| mmap threshold pinned at 1 MiB            |   818 MiB |  6.8        |
| pinned threshold and 2 arenas             |   790 MiB |  7.9        |
| `malloc_trim(0)` every 10 s (this module) |   944 MiB | 16.1        |

Pinning the threshold maps and zeroes every large temporary afresh and halves the front's throughput; trimming
costs one call of ~60 ms per 10 s. On other C libraries (musl, macOS) nothing is started.

Trimming makes resident memory swing by hundreds of MB within minutes, which hides a slow leak. With
`ANDROID_GYM_HEAP_LOG=DIR` set, the trimming thread also appends, after each trim, one line "unix time, bytes in use
by malloc, Python's allocated blocks, entries of the bounded caches" to `DIR/heap-<pid>.csv`: what the process
holds, free of the allocator's swings (the soak benchmark fits its growth per process). The last column counts the
entries of every cache registered with `track_cache` (judge verdicts, web answers, rendered images...): memory that
grows by design until each cache is full, which a fit of the growth must tell from a leak.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
import threading
import time
from collections.abc import Callable

TRIM_EVERY_S = 10.0
"""Seconds between two trims (the measured setting)."""
HEAP_LOG_ENV = "ANDROID_GYM_HEAP_LOG"
"""Environment variable naming the folder of the heap logs (read at every trim; unset: no log)."""
_started_in: set[int] = set()  # pids whose trimming thread runs (a forked child must start its own)
_lock = threading.Lock()
_caches: dict[str, Callable[[], int]] = {}


def track_cache(name: str, entries: Callable[[], int]) -> None:
    """Count the entries of a bounded cache in this process's heap log (`entries()` is called after each trim,
    from the trimming thread: it must be cheap and safe to call while the cache is in use). A second call with the
    same `name` replaces the first."""  # noqa: D205, D209
    _caches[name] = entries


def cached_entries() -> int | None:
    """The entries of every cache registered with `track_cache`, together; None if one of them could not tell."""
    total = 0
    for entries in list(_caches.values()):
        try:
            total += int(entries())
        except Exception:  # noqa: BLE001  (e.g. a set resized while counted: this sample says "unknown")
            return None
    return total


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018  (glibc only; musl and macOS have no such function)
    except (OSError, AttributeError):
        return None
    return libc


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def heap_in_use() -> int | None:
    """Bytes this process holds from malloc (arena blocks in use plus mmapped blocks), or None off glibc >= 2.33.

    Unlike resident memory, this does not move when freed memory is kept or handed back.
    """
    libc = _glibc()
    mallinfo2 = getattr(libc, "mallinfo2", None) if libc is not None else None
    if mallinfo2 is None:
        return None
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return int(info.uordblks + info.hblkhd)


def log_heap(folder: str | os.PathLike[str]) -> None:
    """Append "unix time,malloc bytes in use,Python allocated blocks,cached entries" to `folder/heap-<pid>.csv`
    (best effort; the last field is empty when `cached_entries` could not tell)."""  # noqa: D205, D209
    entries = cached_entries()
    try:
        with open(os.path.join(folder, f"heap-{os.getpid()}.csv"), "a") as f:
            f.write(f"{time.time():.3f},{heap_in_use() or 0},{sys.getallocatedblocks()},"
                    f"{'' if entries is None else entries}\n")
    except OSError:  # a log must never take its process down
        pass


def trim() -> bool:
    """Hand the free memory of every malloc arena back to the system now; True if some was returned."""
    libc = _glibc()
    return bool(libc.malloc_trim(0)) if libc is not None else False


def return_freed_memory(every_s: float = TRIM_EVERY_S) -> bool:
    """Start this process's trimming thread (a daemon calling `trim` every `every_s` seconds), once per process.

    Call it at the start of a long-lived process (the `distrl train` learner, its workers and env processes, an ADB
    front); later calls in the same process do nothing, whatever their `every_s`.

    Returns:
        True if the thread runs (started now or before); False where the C library is not glibc.
    """
    if _glibc() is None:
        return False
    with _lock:
        if os.getpid() not in _started_in:
            threading.Thread(target=_trim_forever, args=(every_s,), name="android_gym-heap-trim", daemon=True).start()
            _started_in.add(os.getpid())
    return True


def _trim_forever(every_s: float) -> None:
    while True:  # a daemon: it ends with its process
        time.sleep(every_s)
        trim()
        if folder := os.environ.get(HEAP_LOG_ENV):
            log_heap(folder)
