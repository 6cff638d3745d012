"""Groups of episodes played from one start, for GRPO: which reset each episode gets, and when a group ships.

GRPO (Shao et al. 2024, arXiv:2402.03300) needs no critic: it plays G episodes of the same task from the same
initial state and scores each against the others, A_i = (R_i - mean R) / (std R + eps). A worker makes such groups
itself with a `GroupCollector`: its draws k*G .. k*G+G-1 form group k, whose members all reset with group k's seed
(the same seed gives the same task and the same simulated world, `AndroidEnv.reset`), and it holds finished episodes
until every member of their group has ended, then releases the survivors with their returns and the group's return
statistics in `metadata["group"]`. The advantage itself is computed by the update rule (`algorithms/grpo.py`) from
those.

Each episode's return is `GroupSpec.episode_return` (with GRPO's shortest-path length penalty, if set).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.runtime import counters
from distrl_agent.types import Trajectory


@dataclass
class _OpenGroup:
    started: int = 0
    ended: int = 0
    survivors: list[Trajectory] | None = None


class GroupCollector:
    """Assigns a worker's episodes to groups and holds them until their group is complete, then releases it.

    `draw()` gives the group of the next episode to start: the k-th draw joins group k // size. A group is complete
    when all `size` members have started and ended. An episode cut by a fault, or abandoned
    before it ended, ends without a trajectory: its group goes on without it. A complete group is released when at
    least `min_members` survived and their returns differ; otherwise it carries no signal (every advantage would be
    0) and is dropped, counted in `stats`.

    Each released trajectory gets `metadata["group"] = {"id", "members", "return", "mean", "std"}`: the group's id
    (worker and number), how many members survived, this member's return (`GroupSpec.episode_return`), and the mean
    and sample standard deviation (ddof 1) of the survivors' returns.

    Args:
        spec: the group size and the return's length penalty.
        worker_id: the worker's number, part of each group's id.
        min_members: survivors a group needs to be released.
        stats: the dict to count into (the worker's counters; default a new one).

    Attributes:
        stats: `groups_released`, `groups_uniform` (dropped: every member returned the same),
            `groups_too_small` (dropped: fewer than `min_members` survived), `group_members_lost` (ended without a
            trajectory), `group_members_dropped` (trajectories of the dropped groups).
    """

    COUNTERS = counters.keys("groups")

    def __init__(self, spec: GroupSpec, worker_id: int, min_members: int = 2, stats: dict | None = None) -> None:
        if not 2 <= min_members <= spec.size:
            raise ValueError(f"`min_members` must be in [2, size={spec.size}], got {min_members}")
        self.spec, self.size, self.worker_id, self.min_members = spec, spec.size, worker_id, min_members
        self.stats = {} if stats is None else stats
        for key in self.COUNTERS:
            self.stats.setdefault(key, 0)
        self._open: dict[int, _OpenGroup] = {}
        self._draws = 0

    @property
    def held(self) -> int:
        """Finished trajectories waiting for the rest of their group."""
        return sum(len(g.survivors or []) for g in self._open.values())

    def draw(self) -> int:
        """The group of the next episode to start (counted as one of its members started)."""
        group = self._draws // self.size
        self._draws += 1
        self.started(group)
        return group

    def started(self, group: int) -> None:
        """A member of `group` has been given its reset."""
        entry = self._open.setdefault(group, _OpenGroup(survivors=[]))
        entry.started += 1
        if entry.started > self.size:
            raise RuntimeError(f"group {group} started {entry.started} members, more than its size {self.size}")

    def ended(self, group: int, trajectory: Trajectory | None) -> list[Trajectory]:
        """A member of `group` ended (None: lost to a fault or abandoned); returns the group if it is now complete."""
        entry = self._open.get(group)
        if entry is None or entry.ended >= entry.started:
            raise RuntimeError(f"group {group} has no member running to end")
        entry.ended += 1
        if trajectory is None:
            self.stats["group_members_lost"] += 1
        else:
            entry.survivors.append(trajectory)
        if entry.started < self.size or entry.ended < entry.started:
            return []
        del self._open[group]
        return self._release(group, entry.survivors)

    def _release(self, group: int, members: list[Trajectory]) -> list[Trajectory]:
        if len(members) < self.min_members:
            self.stats["groups_too_small"] += 1
            self.stats["group_members_dropped"] += len(members)
            return []
        returns = np.array([self.spec.episode_return(t) for t in members])
        std = float(returns.std(ddof=1))
        if std == 0.0:
            self.stats["groups_uniform"] += 1
            self.stats["group_members_dropped"] += len(members)
            return []
        self.stats["groups_released"] += 1
        info = {"id": f"{self.worker_id}:{group}", "members": len(members), "mean": float(returns.mean()), "std": std}
        for t, episode_return in zip(members, returns.tolist(), strict=True):
            t.metadata["group"] = {**info, "return": episode_return}
        return members
