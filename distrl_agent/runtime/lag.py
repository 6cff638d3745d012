"""The policy-lag histogram: how many versions behind the learner each step it trains on was.

The learner counts every sampled step into the bins of `LAG_EDGES` (counters `LAG_KEYS`, cumulative); the metrics
writer shows them in TensorBoard as one histogram of the steps trained on since its previous record.
"""

from __future__ import annotations

import numpy as np

LAG_EDGES = (0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
"""Lower edges of the policy-lag histogram: how many versions behind the learner each trained-on step was."""
LAG_KEYS = (*(f"learner/lag_steps/{lo}" if hi - lo == 1 else f"learner/lag_steps/{lo}-{hi - 1}"
               for lo, hi in zip(LAG_EDGES[:-1], LAG_EDGES[1:], strict=True)), f"learner/lag_steps/{LAG_EDGES[-1]}+")
"""Counter names of the histogram's bins: 0, 1, 2-3, 4-7, ..., 256-511, 512+."""


def lag_counts(staleness: np.ndarray) -> np.ndarray:
    """How many of `staleness` (versions behind, >= 0) fall in each bin of `LAG_EDGES` (the last bin is open).

    >>> lag_counts(np.array([0, 0, 1, 3, 600])).tolist()
    [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    bins = np.searchsorted(LAG_EDGES, np.asarray(staleness, np.int64), side="right") - 1
    return np.bincount(np.clip(bins, 0, len(LAG_EDGES) - 1), minlength=len(LAG_EDGES))


def lag_histogram(counts: np.ndarray) -> dict[str, object] | None:
    """TensorBoard's raw-histogram fields for bin `counts` (one per `LAG_EDGES` bin); None when all are 0.

    A bin's steps count at its lower edge (the open last bin's at 512); the limits are the bins' upper edges.

    >>> h = lag_histogram(np.array([2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
    >>> h["num"], h["min"], h["max"], h["sum"], h["bucket_limits"][:3]
    (3, 0.0, 1.0, 1.0, [1.0, 2.0, 4.0])
    """
    counts = np.asarray(counts, np.int64)
    if counts.sum() <= 0:
        return None
    lows = np.asarray(LAG_EDGES, np.float64)
    used = np.flatnonzero(counts)
    return {"min": float(lows[used[0]]), "max": float(lows[used[-1]]), "num": int(counts.sum()),
            "sum": float((lows * counts).sum()), "sum_squares": float((lows ** 2 * counts).sum()),
            "bucket_limits": [*map(float, LAG_EDGES[1:]), float(2 * LAG_EDGES[-1])], "bucket_counts": counts.tolist()}
