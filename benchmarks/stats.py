"""Statistics of the benchmarks' comparisons: sample spread, seed-paired Student-t intervals, binomial noise.

Every comparison of learning results carries its seeds, a sample std and a paired interval; a difference whose interval
contains 0 is "not separable" (`verdict`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def sample_std(values: Any) -> float:
    """The sample standard deviation (ddof 1); NaN for fewer than two values."""
    values = np.asarray(values, float)
    return float(values.std(ddof=1)) if values.size > 1 else math.nan


def mean_std(values: Any, scale: float = 100.0, digits: int = 1) -> str:
    """`mean ± sample std` (times `scale`), or the mean alone for one value; "—" for none."""
    values = np.asarray(values, float)
    if values.size == 0:
        return "—"
    std = sample_std(values)
    return f"{scale * values.mean():.{digits}f}" + ("" if math.isnan(std) else f" ± {scale * std:.{digits}f}")


def paired_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, sample std, low, high) of the per-seed differences a - b, with a Student-t interval at `level`.

    The interval is NaN for fewer than two pairs (one seed cannot tell a difference from seed noise).

    >>> mean, std, low, high = paired_interval([0.8, 0.7, 0.9], [0.6, 0.6, 0.7])
    >>> round(mean, 3), round(std, 3), round(low, 3), round(high, 3)
    (0.167, 0.058, 0.023, 0.31)
    """
    from scipy.stats import t as student_t

    d = np.asarray(a, float) - np.asarray(b, float)
    if d.size == 0:
        return math.nan, math.nan, math.nan, math.nan
    mean, std = float(d.mean()), sample_std(d)
    if d.size < 2:
        return mean, std, math.nan, math.nan
    half = float(student_t.ppf(0.5 + level / 2, d.size - 1)) * std / math.sqrt(d.size)
    return mean, std, mean - half, mean + half


def verdict(low: float, high: float) -> str:
    """"separable" when the interval excludes 0, "not separable" when it contains it, "n/a" without an interval.

    A zero-width interval away from 0 (every seed's difference the same, a sample std of 0) says "every seed equal"
    instead: the t-interval then knows nothing of the evaluations' own noise, and it would call a difference of one
    episode in each seed separable (the generalisation section's first run: -1 point on each of 3 seeds).

    >>> verdict(-1.0, -1.0), verdict(-1.0000000000000002, -0.9999999999999998), verdict(-2.0, -0.5)
    ('every seed equal', 'every seed equal', 'separable')
    >>> verdict(-1.0, 2.0)
    'not separable'
    """
    if math.isnan(low) or math.isnan(high):
        return "n/a"
    if low <= 0 <= high:
        return "not separable"
    return "every seed equal" if math.isclose(low, high, rel_tol=1e-9, abs_tol=1e-12) else "separable"


def evaluation_noise(success: float, episodes: int) -> float:
    """The binomial standard deviation of one evaluation's success rate, in points, at `success` over `episodes`."""
    return 100 * math.sqrt(max(success * (1 - success), 0.0) / max(episodes, 1))
