"""`parse_saved_state`: a `TrajectoryReplay.state_dict()` read back from a file, checked before the buffer takes it.

A replay file may be truncated or tampered with (issue 43). Every array is checked for its dtype kind, its shape
(one entry per slot), its range and its agreement with the others (the ring's counts, the steps held, the sum tree's
leaves on empty slots), and every held trajectory is rebuilt, before the buffer changes: a bad file raises
`CheckpointError` naming the entry and leaves the buffer as it was, instead of failing at the next `sample`.

>>> import numpy as np
>>> from distrl_agent.replay.buffer import TrajectoryReplay
>>> replay = TrajectoryReplay(8)
>>> state = replay.state_dict()
>>> parse_saved_state(state, replay.config).ring["size"]
0
>>> state["lengths"] = np.zeros(3, np.int64)
>>> parse_saved_state(state, replay.config)
Traceback (most recent call last):
...
distrl_agent.errors.CheckpointError: `lengths` must be an integer array of shape (8,) (one entry per slot), got \
int64 (3,)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from distrl_agent.errors import CheckpointError, DistrlError
from distrl_agent.types import Trajectory

COUNTERS = ("inserted", "evicted", "dropped_stale", "downweighted_stale", "sampled", "skipped_priority_updates",
            "retired_sampled")
"""The replay's counters, as `TrajectoryReplay` counts them."""
RING = ("head", "tail", "ring_len", "size", "num_steps", "next_uid", "learner_version")
"""The replay ring's integers, in the order of the saved `ring` array."""


@dataclass
class SavedState:
    """A checked replay state: per-slot arrays, the ring, the counters and the held trajectories by slot."""

    priorities: np.ndarray
    leaves: np.ndarray
    lengths: np.ndarray
    versions: np.ndarray
    uids: np.ndarray
    draws: np.ndarray
    ring: dict[str, int]
    counters: dict[str, int]
    trajectories: list[Trajectory | None]


def parse_saved_state(state: Mapping[str, np.ndarray], config: Mapping[str, Any]) -> SavedState:
    """Check `state` (from `TrajectoryReplay.state_dict`) against the buffer `config` it is to be loaded into.

    Raises:
        CheckpointError: the state was saved with other arguments, or an entry is missing, of the wrong dtype or
            shape, out of range, or disagrees with the others; the message names it.
    """
    try:
        saved = json.loads(str(_entry(state, "config")))
    except ValueError as e:
        raise CheckpointError(f"`config` is not JSON: {e}") from e
    if saved != dict(config):
        diff = {k: (saved.get(k), v) for k, v in config.items() if saved.get(k) != v} if isinstance(saved, dict) \
            else saved
        raise CheckpointError(f"`state` was saved with other arguments (saved, current): {diff}")
    slots = int(config["max_trajectories"])
    floats = {name: _per_slot(state, name, "f", slots) for name in ("priorities", "leaves")}
    ints = {name: _per_slot(state, name, "iu", slots) for name in ("lengths", "versions", "uids")}
    # Buffers saved before draws were counted resume with every held trajectory counted as fresh.
    draws = _per_slot(state, "draws", "iu", slots) if "draws" in state else np.zeros(slots, np.int64)
    for name, values in floats.items():
        if not (np.isfinite(values).all() and (values >= 0).all()):
            raise CheckpointError(f"`{name}` must be finite and >= 0 on every slot")
    if (ints["lengths"] < 0).any() or (ints["uids"] < -1).any() or (draws < 0).any():
        raise CheckpointError("`lengths` and `draws` must be >= 0 and `uids` >= -1 (-1: an empty slot)")
    held = ints["uids"] >= 0
    ring = _ring(state, slots, held, ints["lengths"], ints["uids"], int(config["capacity_steps"]))
    if (floats["leaves"][~held] != 0).any():
        raise CheckpointError("`leaves` gives an empty slot a priority: sampling would draw a trajectory not there")
    return SavedState(floats["priorities"], floats["leaves"], ints["lengths"], ints["versions"], ints["uids"],
                      draws.astype(np.int64), ring, _counters(state),
                      _trajectories(state, slots, held, ints["lengths"]))


def _entry(state: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    if name not in state:
        raise CheckpointError(f"`state` lacks `{name}`: it is not a complete TrajectoryReplay state")
    return np.asarray(state[name])


def _per_slot(state: Mapping[str, np.ndarray], name: str, kinds: str, slots: int) -> np.ndarray:
    array = _entry(state, name)
    if array.dtype.kind not in kinds or array.shape != (slots,):
        what = "a float" if kinds == "f" else "an integer"
        raise CheckpointError(f"`{name}` must be {what} array of shape ({slots},) (one entry per slot), got "
                              f"{array.dtype} {array.shape}")
    return array.astype(np.float64 if kinds == "f" else np.int64)


def _ring(state: Mapping[str, np.ndarray], slots: int, held: np.ndarray, lengths: np.ndarray, uids: np.ndarray,
          capacity_steps: int) -> dict[str, int]:
    array = _entry(state, "ring")
    if array.dtype.kind not in "iu" or array.shape != (len(RING),):
        raise CheckpointError(f"`ring` must be {len(RING)} integers ({', '.join(RING)}), got {array.dtype} "
                              f"{array.shape}")
    ring = dict(zip(RING, (int(v) for v in array), strict=True))
    steps = int(lengths[held].sum())
    problems = [
        f"head {ring['head']} and tail {ring['tail']} must be slots in [0, {slots})"
        if not (0 <= ring["head"] < slots and 0 <= ring["tail"] < slots) else "",
        f"ring_len {ring['ring_len']} must be in [size, {slots}]" if not ring["size"] <= ring["ring_len"] <= slots
        else "",
        f"size {ring['size']} must count the held slots ({int(held.sum())})" if ring["size"] != held.sum() else "",
        f"num_steps {ring['num_steps']} must be the held steps ({steps}), at most {capacity_steps}"
        if not ring["num_steps"] == steps <= capacity_steps else "",
        f"next_uid {ring['next_uid']} must exceed every uid" if held.any() and ring["next_uid"] <= uids.max()
        else "",
        f"learner_version {ring['learner_version']} must be >= 0" if ring["learner_version"] < 0 else "",
    ]
    if problems := [p for p in problems if p]:
        raise CheckpointError(f"`ring` disagrees with the slots: {'; '.join(problems)}")
    return ring


def _counters(state: Mapping[str, np.ndarray]) -> dict[str, int]:
    try:
        saved = json.loads(str(_entry(state, "counters")))
    except ValueError as e:
        raise CheckpointError(f"`counters` is not JSON: {e}") from e
    if not isinstance(saved, dict) or not all(type(saved.get(k, 0)) is int and saved.get(k, 0) >= 0 for k in COUNTERS):
        raise CheckpointError(f"`counters` must map {', '.join(COUNTERS)} to counts >= 0, got {saved!r:.200}")
    return {k: saved.get(k, 0) for k in COUNTERS}  # counters added since the file was written start at 0


def _trajectories(state: Mapping[str, np.ndarray], slots: int, held: np.ndarray,
                  lengths: np.ndarray) -> list[Trajectory | None]:
    per_slot: dict[int, dict[str, np.ndarray]] = {}
    for key, array in state.items():  # one pass over the keys, not one per trajectory
        if key.startswith("traj/"):
            slot, _, rest = key[len("traj/") :].partition("/")
            if not (slot.isdigit() and int(slot) < slots and held[int(slot)]):
                raise CheckpointError(f"`{key}` belongs to no held slot")
            per_slot.setdefault(int(slot), {})[rest] = array
    trajectories: list[Trajectory | None] = [None] * slots
    for slot in np.flatnonzero(held):
        try:
            trajectory = Trajectory.from_arrays(per_slot.get(int(slot), {}))
        except (DistrlError, KeyError, ValueError, TypeError, AttributeError, IndexError) as e:
            raise CheckpointError(f"the trajectory in slot {slot} (`traj/{slot}/...`) is malformed: "
                                  f"{type(e).__name__}: {e}") from e
        if trajectory.length != lengths[slot]:
            raise CheckpointError(f"the trajectory in slot {slot} has {trajectory.length} steps, `lengths` says "
                                  f"{lengths[slot]}")
        trajectories[slot] = trajectory
    return trajectories
