"""`TrajectoryReplay`: a circular buffer of whole trajectories, bounded in steps, with prioritised sampling (DPER).

A-RIDE's Distributed Prioritized Experience Replay (DistRL, arXiv:2410.14803) at the trajectory level:

    P(tau) = p(tau)^alpha / sum_tau' p(tau')^alpha          (sum tree, O(log n) sample and update)
    w_IS   = (N * P(tau))^(-beta) / max w                   (max over the buffer, so w_IS lies in (0, 1])

New trajectories enter at the current maximum priority; the learner refreshes sampled priorities after each update
(`update_priorities`) and all of them periodically (`refresh_all`). Trajectories are kept in insertion order in a ring
of slots; to fit a new one, the oldest are evicted until the steps fit `capacity_steps`. Staleness is the learner
version minus the behaviour version; a trajectory's behaviour version is the oldest version that acted in it.

Not thread-safe: one owner (the learner) calls it.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from android_gym.errors import closest
from distrl_agent.errors import CheckpointError, ConfigError, DataError, ReplayError
from distrl_agent.replay.saved_state import COUNTERS as _COUNTERS
from distrl_agent.replay.saved_state import RING as _RING
from distrl_agent.replay.saved_state import parse_saved_state
from distrl_agent.replay.sum_tree import SumTree
from distrl_agent.types import SampledBatch, Trajectory

STALE_MODES = ("drop", "downweight")


class TrajectoryReplay:
    """Prioritised (or uniform) replay of whole trajectories.

    Args:
        capacity_steps: the most steps held at once; the oldest trajectories are evicted to fit new ones.
        alpha: priority exponent; 0 samples uniformly over trajectories.
        prioritized: False samples uniformly whatever `alpha` (the "no prioritisation" ablation); priorities are
            still recorded.
        max_trajectories: number of slots (defaults to `capacity_steps`, enough for one-step trajectories).
        max_staleness: versions a trajectory may lag the learner by; None disables the cap.
        stale_mode: "drop" removes trajectories beyond the cap (at insertion and whenever the learner version
            advances); "downweight" keeps them and multiplies their w_IS by `stale_decay ** (staleness - cap)`.
        stale_decay: the per-version factor of "downweight", in (0, 1].
        initial_priority: the priority given to the first trajectory (later ones take the current maximum).
        max_times_sampled: a trajectory drawn this many times is retired before the next draw (Reverb's
            `max_times_sampled`), counted in `replay/retired_sampled`: used data leaves as used, not by the
            staleness cap or eviction; None (default) keeps it until one of those.

    Raises:
        ConfigError: an argument is out of range (the message names it).
    """

    def __init__(
        self,
        capacity_steps: int = 10_000,
        *,
        alpha: float = 0.6,
        prioritized: bool = True,
        max_trajectories: int | None = None,
        max_staleness: int | None = None,
        stale_mode: str = "drop",
        stale_decay: float = 0.5,
        initial_priority: float = 1.0,
        max_times_sampled: int | None = None,
    ) -> None:
        if capacity_steps < 1:
            raise ConfigError(f"`capacity_steps` must be >= 1, got {capacity_steps}")
        if not (np.isfinite(alpha) and alpha >= 0):
            raise ConfigError(f"`alpha` must be finite and >= 0 (0 = uniform), got {alpha}")
        if max_staleness is not None and max_staleness < 0:
            raise ConfigError(f"`max_staleness` must be >= 0 versions or None, got {max_staleness}")
        if stale_mode not in STALE_MODES:
            hint = f"did you mean {close!r}? " if (close := closest(stale_mode, STALE_MODES)) else ""
            raise ConfigError(f"`stale_mode` {stale_mode!r} is unknown; {hint}Known: {', '.join(STALE_MODES)}")
        if not 0 < stale_decay <= 1:
            raise ConfigError(f"`stale_decay` must be in (0, 1], got {stale_decay}")
        if not (np.isfinite(initial_priority) and initial_priority > 0):
            raise ConfigError(f"`initial_priority` must be finite and > 0, got {initial_priority}")
        if max_times_sampled is not None and max_times_sampled < 1:
            raise ConfigError(f"`max_times_sampled` must be >= 1 draws or None, got {max_times_sampled}")
        slots = capacity_steps if max_trajectories is None else max_trajectories
        if slots < 1:
            raise ConfigError(f"`max_trajectories` must be >= 1, got {max_trajectories}")
        self.config = {
            "capacity_steps": int(capacity_steps),
            "alpha": float(alpha),
            "prioritized": bool(prioritized),
            "max_trajectories": int(slots),
            "max_staleness": None if max_staleness is None else int(max_staleness),
            "stale_mode": stale_mode,
            "stale_decay": float(stale_decay),
            "initial_priority": float(initial_priority),
        }
        if max_times_sampled is not None:  # only when set: buffers saved before it existed load unchanged
            self.config["max_times_sampled"] = int(max_times_sampled)
        self._tree = SumTree(int(slots))
        self._trajectories: list[Trajectory | None] = [None] * slots
        self._priorities = np.zeros(slots, np.float64)  # raw p(tau); 0 on empty slots
        self._lengths = np.zeros(slots, np.int64)
        self._versions = np.zeros(slots, np.int64)  # behaviour version (oldest step) per slot
        self._uids = np.full(slots, -1, np.int64)
        self._draws = np.zeros(slots, np.int64)  # times each held trajectory has been sampled
        self._ring = dict.fromkeys(_RING, 0)
        self._counters = dict.fromkeys(_COUNTERS, 0)

    def __len__(self) -> int:
        """The number of trajectories held."""
        return self._ring["size"]

    def usable(self) -> int:
        """Trajectories a next `sample` may draw: those held, less those drawn `max_times_sampled` times already."""
        return len(self) - int(self._used_up().sum())

    @property
    def num_steps(self) -> int:
        """The number of steps held (<= `capacity_steps`)."""
        return self._ring["num_steps"]

    @property
    def learner_version(self) -> int:
        """The learner version staleness is measured against."""
        return self._ring["learner_version"]

    def set_learner_version(self, version: int) -> None:
        """Advance the learner version; in "drop" mode, drop every trajectory now beyond `max_staleness`.

        Raises:
            ReplayError: `version` is lower than the current one.
        """
        if version < self._ring["learner_version"]:
            raise ReplayError(f"`version` went backwards: {version} < {self._ring['learner_version']}")
        self._ring["learner_version"] = int(version)
        cap = self.config["max_staleness"]
        if cap is None or self.config["stale_mode"] != "drop":
            return
        occupied = self._uids >= 0
        for slot in np.flatnonzero(occupied & (version - self._versions > cap)):
            self._remove(int(slot))
            self._counters["dropped_stale"] += 1

    def add(self, trajectory: Trajectory, learner_version: int | None = None) -> int:
        """Validate and insert a trajectory at the current maximum priority, evicting the oldest ones to fit.

        Args:
            trajectory: the episode; it is stored by reference, so do not mutate it afterwards.
            learner_version: the learner's version now (advances `learner_version` first); None keeps it.

        Returns:
            The slot it went into, or -1 when it was dropped as stale (counted in `replay/dropped_stale`).

        Raises:
            DataError: the trajectory is malformed (see `Trajectory.validate`).
            ReplayError: it alone is longer than `capacity_steps`.
        """
        trajectory.validate()
        length = trajectory.length
        if length > self.config["capacity_steps"]:
            raise ReplayError(
                f"`trajectory` has {length} steps, more than `capacity_steps`={self.config['capacity_steps']}"
            )
        if learner_version is not None:
            self.set_learner_version(learner_version)
        cap = self.config["max_staleness"]
        staleness = self.learner_version - trajectory.behaviour_version
        if cap is not None and self.config["stale_mode"] == "drop" and staleness > cap:
            self._counters["dropped_stale"] += 1
            return -1
        priority = float(self._priorities.max()) if len(self) else self.config["initial_priority"]
        priority = priority if priority > 0 else self.config["initial_priority"]
        ring, slots = self._ring, self._tree.capacity
        while ring["num_steps"] + length > self.config["capacity_steps"] or ring["ring_len"] == slots:
            self._evict_oldest()
        slot = ring["tail"]
        ring["tail"] = (slot + 1) % slots
        ring["ring_len"] += 1
        ring["size"] += 1
        ring["num_steps"] += length
        self._trajectories[slot] = trajectory
        self._lengths[slot] = length
        self._versions[slot] = trajectory.behaviour_version
        self._uids[slot] = ring["next_uid"]
        ring["next_uid"] += 1
        self._set_priorities(np.array([slot]), np.array([priority]))
        self._counters["inserted"] += 1
        return slot

    def sample(
        self, batch_size: int, rng: np.random.Generator, beta: float = 0.4, learner_version: int | None = None
    ) -> SampledBatch:
        """Draw `batch_size` trajectories (with replacement, stratified) with probability P(tau).

        Args:
            batch_size: B >= 1.
            rng: the only source of randomness: the same buffer state and rng state give the same batch.
            beta: the IS exponent beta_IS >= 0 (annealed toward 1 by the caller).
            learner_version: advances `learner_version` first when given.

        Raises:
            ConfigError: `batch_size` < 1 or `beta` < 0.
            ReplayError: the buffer is empty.
        """
        if batch_size < 1:
            raise ConfigError(f"`batch_size` must be >= 1, got {batch_size}")
        if not beta >= 0:
            raise ConfigError(f"`beta` must be >= 0, got {beta}")
        if learner_version is not None:
            self.set_learner_version(learner_version)
        self._retire_used()
        if not len(self):
            raise ReplayError("cannot sample from an empty replay; add trajectories first")
        slots = self._tree.sample(batch_size, rng)
        total = self._tree.total
        probabilities = self._tree.get(slots) / total
        w_is = (len(self) * probabilities) ** (-beta) / (len(self) * self._tree.min / total) ** (-beta)
        staleness_tau = self.learner_version - self._versions[slots]
        cap = self.config["max_staleness"]
        if cap is not None and self.config["stale_mode"] == "downweight":
            excess = np.maximum(staleness_tau - cap, 0)
            w_is = w_is * self.config["stale_decay"] ** excess
            self._counters["downweighted_stale"] += int((excess > 0).sum())
        trajectories = [self._trajectories[slot] for slot in slots]
        np.add.at(self._draws, slots, 1)
        self._counters["sampled"] += batch_size
        return SampledBatch(
            trajectories=trajectories,  # type: ignore[arg-type]  # sampled slots are never empty
            indices=slots,
            uids=self._uids[slots].copy(),
            w_is=w_is.astype(np.float32),
            draws=self._draws[slots].copy(),
            probabilities=probabilities,
            staleness=[self.learner_version - traj.policy_version for traj in trajectories],  # type: ignore[union-attr]
            learner_version=self.learner_version,
        )

    def update_priorities(self, indices: ArrayLike, priorities: ArrayLike, uids: ArrayLike | None = None) -> int:
        """Set new raw priorities p(tau) of sampled trajectories; returns how many were applied.

        Slots emptied since sampling, and, when `uids` (from the `SampledBatch`) are given, slots reused by a newer
        trajectory, are skipped and counted in `replay/skipped_priority_updates`.

        Raises:
            DataError: a priority is negative, NaN or inf, or the lengths differ.
            ReplayError: an index is not a slot.
        """
        slots = np.asarray(indices, np.int64).ravel()
        values = np.asarray(priorities, np.float64).ravel()
        if values.shape != slots.shape:
            raise DataError(f"`priorities` has {values.size} entries for {slots.size} `indices`")
        if not (np.isfinite(values).all() and (values >= 0).all()):
            raise DataError(f"`priorities` must be finite and >= 0, got {values}")
        if slots.size and (slots.min() < 0 or slots.max() >= self._tree.capacity):
            raise ReplayError(f"`indices` must be slots in [0, {self._tree.capacity}), got {slots}")
        live = self._uids[slots] >= 0
        if uids is not None:
            live &= self._uids[slots] == np.asarray(uids, np.int64).ravel()
        self._counters["skipped_priority_updates"] += int((~live).sum())
        self._set_priorities(slots[live], values[live])
        return int(live.sum())

    def refresh_all(self, fn: Callable[[Sequence[Trajectory], np.ndarray], ArrayLike], chunk_size: int = 64) -> int:
        """Recompute every priority: `fn(trajectories, uids) -> priorities`, on chunks of up to `chunk_size`.

        `uids` are the chunk's insertion serials (as `SampledBatch.uids`), for caches keyed by them.

        Returns:
            The number of trajectories refreshed.

        Raises:
            DataError: `fn` returned the wrong number of priorities or invalid ones.
        """
        slots = np.flatnonzero(self._uids >= 0)
        for start in range(0, slots.size, chunk_size):
            chunk = slots[start : start + chunk_size]
            trajectories = [self._trajectories[s] for s in chunk]
            values = np.asarray(fn(trajectories, self._uids[chunk].copy()), np.float64).ravel()  # type: ignore[arg-type]
            if values.size != chunk.size:
                raise DataError(f"`fn` returned {values.size} priorities for {chunk.size} trajectories")
            self.update_priorities(chunk, values)
        return int(slots.size)

    def live_uids(self) -> np.ndarray:
        """The insertion serial numbers (`SampledBatch.uids`) of the trajectories held now."""
        return self._uids[self._uids >= 0].copy()

    def count(self, name: str) -> int:
        """One counter (`inserted`, `sampled`, `dropped_stale`, ...), without computing the gauges of `stats`."""
        return int(self._counters[name])

    def stats(self) -> dict[str, float]:
        """Counters and gauges under the `replay/` namespace."""
        live = self._priorities[self._uids >= 0]
        return {
            **{f"replay/{name}": float(value) for name, value in self._counters.items()},
            "replay/trajectories": float(len(self)),
            "replay/steps": float(self.num_steps),
            "replay/fill": self.num_steps / self.config["capacity_steps"],
            "replay/learner_version": float(self.learner_version),
            "replay/priority_max": float(live.max()) if live.size else 0.0,
            "replay/priority_mean": float(live.mean()) if live.size else 0.0,
        }

    def state_dict(self) -> dict[str, np.ndarray]:
        """Everything needed to resume, as numpy arrays only (no pickled objects)."""
        state = {
            "config": np.array(json.dumps(self.config)),
            "counters": np.array(json.dumps(self._counters)),
            "ring": np.array([self._ring[name] for name in _RING], np.int64),
            "priorities": self._priorities.copy(),
            "leaves": self._tree.priorities,
            "lengths": self._lengths.copy(),
            "versions": self._versions.copy(),
            "uids": self._uids.copy(),
            "draws": self._draws.copy(),
        }
        for slot in np.flatnonzero(self._uids >= 0):
            state.update(self._trajectories[slot].to_arrays(prefix=f"traj/{slot}/"))  # type: ignore[union-attr]
        return state

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        """Restore a `state_dict()` into this buffer, which must have been built with the same arguments.

        The whole state is checked first (`saved_state.parse_saved_state`): a bad one leaves the buffer unchanged.

        Raises:
            CheckpointError: the configuration differs or the state is incomplete, corrupt or inconsistent.
        """
        saved = parse_saved_state(state, self.config)
        self._tree.set_all(saved.leaves)
        self._priorities, self._lengths, self._versions = saved.priorities, saved.lengths, saved.versions
        self._uids, self._draws, self._ring, self._counters = saved.uids, saved.draws, saved.ring, saved.counters
        self._trajectories = saved.trajectories

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write `state_dict()` to `path` as an uncompressed .npz, atomically (a fresh temp file, then a rename).

        The temp file is created with `O_EXCL | O_NOFOLLOW`: a link planted at its name is removed, never written
        through (issue 43). `runtime.checkpoint.save_checkpoint` fsyncs it with the rest of the checkpoint.

        Raises:
            CheckpointError: a trajectory cannot be stored without pickle, or the file cannot be written.
        """
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        try:
            state = self.state_dict()
            tmp.unlink(missing_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, **state)
            os.replace(tmp, path)
        except (OSError, DataError) as exc:
            tmp.unlink(missing_ok=True)
            raise CheckpointError(f"could not save the replay to {str(path)!r}: {exc}") from exc

    def load(self, path: str | os.PathLike[str]) -> None:
        """Restore a buffer written by `save` (read with `allow_pickle=False`), checked before the buffer changes.

        Raises:
            CheckpointError: the file is missing, truncated, not an .npz of plain arrays, from a buffer with other
                arguments, or inconsistent (the message names the file and the entry).
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                state = {name: data[name] for name in data.files}
        except (OSError, ValueError, EOFError, MemoryError, zipfile.BadZipFile, zlib.error) as exc:
            raise CheckpointError(f"could not read a replay from {str(path)!r}: {type(exc).__name__}: {exc}") from exc
        try:
            self.load_state_dict(state)
        except CheckpointError as exc:
            raise CheckpointError(f"the replay in {str(path)!r} cannot be restored: {exc}") from exc

    def _set_priorities(self, slots: np.ndarray, values: np.ndarray) -> None:
        self._priorities[slots] = values
        if self.config["prioritized"]:
            self._tree.update_many(slots, values ** self.config["alpha"])
        else:
            self._tree.update_many(slots, np.ones_like(values))

    def _evict_oldest(self) -> None:
        ring = self._ring
        head = ring["head"]
        if self._uids[head] >= 0:  # stale drops leave holes in the ring; skip them
            self._remove(head)
            self._counters["evicted"] += 1
        ring["head"] = (head + 1) % self._tree.capacity
        ring["ring_len"] -= 1

    def _retire_used(self) -> None:
        """Remove every trajectory already drawn `max_times_sampled` times (it stayed in place for the batch that
        drew it the last time, so that batch's priorities still find it)."""  # noqa: D205, D209
        for slot in np.flatnonzero(self._used_up()):
            self._remove(int(slot))
            self._counters["retired_sampled"] += 1

    def _used_up(self) -> np.ndarray:
        """Per slot, whether it holds a trajectory already drawn `max_times_sampled` times (none without a limit)."""
        limit = self.config.get("max_times_sampled")
        if limit is None:
            return np.zeros(self._uids.shape, bool)
        return (self._uids >= 0) & (self._draws >= limit)

    def _remove(self, slot: int) -> None:
        self._ring["size"] -= 1
        self._ring["num_steps"] -= int(self._lengths[slot])
        self._trajectories[slot] = None
        self._priorities[slot] = 0.0
        self._lengths[slot] = 0
        self._uids[slot] = -1
        self._draws[slot] = 0
        self._tree.update(slot, 0.0)
