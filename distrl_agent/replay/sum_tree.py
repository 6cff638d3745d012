"""A sum tree over a fixed number of slots: O(log n) priority update, prefix-sum search and proportional sampling.

Proportional prioritised replay (Schaul et al., arXiv:1511.05952) samples slot i with probability p_i / sum_j p_j.
The tree stores whatever non-negative number it is given; the replay buffer stores p(tau)^alpha in it.

Leaves live at `[size, size + capacity)` of flat arrays whose node k has children 2k and 2k+1 (root at 1), `size`
being `capacity` rounded up to a power of two. Every internal node is recomputed from its two children, never
updated by a difference, so sums do not drift and the tree is a pure function of its leaves (a reloaded tree samples
exactly like the saved one). Next to the sums it keeps the max and the min positive priority of each subtree.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from distrl_agent.errors import ConfigError, DataError, ReplayError


class SumTree:
    """Priorities of `capacity` slots with proportional sampling.

    Guarantees: a slot whose priority is 0 is never returned by `find`, `find_many` or `sample`. Priorities are
    float64, unit-free (whatever the caller stores).

    >>> tree = SumTree(4)
    >>> tree.update_many([0, 1, 2, 3], [1.0, 2.0, 3.0, 4.0])
    >>> tree.total, tree.max, tree.min
    (10.0, 4.0, 1.0)
    >>> tree.find(0.5), tree.find(1.0), tree.find(5.9), tree.find(9.99)
    (0, 1, 2, 3)
    >>> tree.update(3, 0.0)
    >>> tree.find(9.99), tree.total
    (2, 6.0)
    >>> tree.sample(3, np.random.default_rng(0)).tolist()
    [1, 1, 2]
    """

    def __init__(self, capacity: int) -> None:
        if not isinstance(capacity, int | np.integer) or capacity < 1:
            raise ConfigError(f"`capacity` must be an int >= 1 (number of slots), got {capacity!r}")
        self._capacity = int(capacity)
        self._size = 1 << (self._capacity - 1).bit_length()  # leaves, a power of two >= capacity
        self._depth = self._size.bit_length() - 1
        self._sum = np.zeros(2 * self._size, np.float64)
        self._max = np.zeros(2 * self._size, np.float64)
        self._min = np.full(2 * self._size, np.inf, np.float64)  # min positive priority; inf where none

    @property
    def capacity(self) -> int:
        """The number of slots."""
        return self._capacity

    @property
    def total(self) -> float:
        """Sum of all priorities."""
        return float(self._sum[1])

    @property
    def max(self) -> float:
        """The largest priority (0.0 when every slot is 0)."""
        return float(self._max[1])

    @property
    def min(self) -> float:
        """The smallest positive priority (0.0 when every slot is 0)."""
        value = float(self._min[1])
        return value if np.isfinite(value) else 0.0

    @property
    def priorities(self) -> np.ndarray:
        """A copy of the `capacity` leaf priorities."""
        return self._sum[self._size : self._size + self._capacity].copy()

    def get(self, indices: ArrayLike) -> np.ndarray:
        """The priorities of `indices` (an array of the same shape)."""
        return self._sum[self._check_indices(indices) + self._size]

    def update(self, index: int, priority: float) -> None:
        """Set the priority of one slot in O(log n).

        Raises:
            ReplayError: `index` is outside [0, capacity).
            DataError: `priority` is negative, NaN or inf.
        """
        self.update_many([index], [priority])

    def update_many(self, indices: ArrayLike, priorities: ArrayLike) -> None:
        """Set several priorities; with repeated indices the last one wins. O(k log n), vectorised per tree level.

        Raises:
            ReplayError: an index is outside [0, capacity).
            DataError: a priority is negative, NaN or inf, or the two arguments have different lengths.
        """
        slots = self._check_indices(indices).ravel()
        values = np.asarray(priorities, np.float64).ravel()
        if values.shape != slots.shape:
            raise DataError(f"`priorities` has {values.size} entries for {slots.size} `indices`")
        if not (np.isfinite(values).all() and (values >= 0).all()):
            raise DataError(
                f"`priorities` must be finite and >= 0, got {values[~(values >= 0) | ~np.isfinite(values)]}"
            )
        if slots.size == 0:
            return
        if slots.size > 1:
            _, last = np.unique(slots[::-1], return_index=True)  # keep the last write to each slot
            keep = slots.size - 1 - last
            slots, values = slots[keep], values[keep]
        nodes = slots + self._size
        self._sum[nodes] = values
        self._max[nodes] = values
        self._min[nodes] = np.where(values > 0, values, np.inf)
        if nodes.size == 1:  # the common single update: scalar walk to the root, no array overhead
            total, largest, smallest = self._sum, self._max, self._min
            node = int(nodes[0]) // 2
            while node:
                left = 2 * node
                total[node] = total[left] + total[left + 1]
                largest[node] = max(largest[left], largest[left + 1])
                smallest[node] = min(smallest[left], smallest[left + 1])
                node //= 2
            return
        for _ in range(self._depth):
            nodes = nodes // 2  # repeated parents are recomputed to the same value, so no dedup is needed
            self._refresh(nodes)

    def set_all(self, priorities: ArrayLike) -> None:
        """Replace every priority at once and rebuild the tree bottom-up in O(n).

        Raises:
            DataError: `priorities` does not have `capacity` entries, or one is negative, NaN or inf.
        """
        values = np.asarray(priorities, np.float64).ravel()
        if values.size != self._capacity:
            raise DataError(f"`priorities` must have {self._capacity} entries (one per slot), got {values.size}")
        self.clear()
        self.update_many(np.arange(self._capacity), values)

    def clear(self) -> None:
        """Set every priority to 0."""
        self._sum[:] = 0.0
        self._max[:] = 0.0
        self._min[:] = np.inf

    def find(self, prefix: float) -> int:
        """The slot i with sum(p[:i]) <= prefix < sum(p[:i+1]), skipping zero-priority slots. O(log n).

        A prefix below 0 or at/above `total` (floating-point round-off) gives the first/last positive slot.

        Raises:
            ReplayError: every priority is 0.
        """
        return int(self.find_many(np.array([prefix], np.float64))[0])

    def find_many(self, prefixes: ArrayLike) -> np.ndarray:
        """`find` for an array of prefixes at once (int64 array of the same shape).

        Raises:
            ReplayError: every priority is 0.
        """
        if not self._sum[1] > 0:
            raise ReplayError("cannot search a sum tree whose priorities are all 0; update some priorities first")
        remaining = np.array(prefixes, np.float64)
        nodes = np.ones(remaining.shape, np.int64)
        for _ in range(self._depth):
            left = 2 * nodes
            left_sum, right_sum = self._sum[left], self._sum[left + 1]
            # Going right needs a positive right subtree, so round-off never lands on an empty slot.
            go_right = ((remaining >= left_sum) & (right_sum > 0)) | (left_sum <= 0)
            remaining = np.where(go_right, remaining - left_sum, remaining)
            nodes = np.where(go_right, left + 1, left)
        return nodes - self._size

    def sample(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """Draw `count` slots (int64 [count]) with probability p_i / total each, stratified.

        Stratified: one uniform draw in each of `count` equal segments of [0, total), which lowers the variance of
        the batch composition compared with independent draws.

        Raises:
            ConfigError: `count` < 1.
            ReplayError: every priority is 0.
        """
        if count < 1:
            raise ConfigError(f"`count` must be >= 1, got {count}")
        total = self._sum[1]
        return self.find_many((np.arange(count) + rng.random(count)) * (total / count))

    def _refresh(self, nodes: np.ndarray) -> None:
        """Recompute the aggregates of `nodes` from their two children."""
        left, right = 2 * nodes, 2 * nodes + 1
        self._sum[nodes] = self._sum[left] + self._sum[right]
        self._max[nodes] = np.maximum(self._max[left], self._max[right])
        self._min[nodes] = np.minimum(self._min[left], self._min[right])

    def _check_indices(self, indices: ArrayLike) -> np.ndarray:
        slots = np.asarray(indices)
        if slots.size and (slots.dtype.kind not in "iu" or slots.min() < 0 or slots.max() >= self._capacity):
            raise ReplayError(f"`indices` must be ints in [0, {self._capacity}), got {slots}")
        return slots.astype(np.int64, copy=False)
