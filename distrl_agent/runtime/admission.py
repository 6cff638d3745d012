"""`Admission`: the producer-side staleness bound (AReaL's), obeyed by each worker before it starts an episode.

A worker starts an episode only while what it has admitted stays within its share of what the learner consumes within
η updates of the newest weights it holds:

    admitted_w       = episodes started - episodes lost (cut by a fault or an unknown verdict with nothing shipped,
                       or dropped with their GRPO group: the learner never sees them)
    allowed_w(v)     = ceil((η + (v - v0_w) / E + 1) · R / W), rounded up to whole GRPO groups

with v the version the worker holds, v0_w the version of its first weights (a restarted worker starts afresh), E the
versions one update makes (PPO's epochs, 1 for the other rules), W the number of workers and R the trajectories the
learner consumes per update: `learner.batch_size`, divided by `learner.max_samples_per_insert` when that rate limit is
on (each trajectory then drawn that many times). η counts updates, as AReaL's versions do (one per training step,
whatever its minibatches): PPO's four epochs on a batch are one update. Summed over the workers: what the fleet has
running or delivered never exceeds what the learner trains on within η updates (with groups, by less than a group
per worker, see below), so the learner's own cap (`learner.max_staleness` >= η · E versions) is a safety net. A worker
that may start nothing idles until newer weights arrive, giving the CPU back to the learner instead of making data to
drop.

No deadlock: at the first version the fleet may deliver (η + 1) · R trajectories, and the learner needs
`learner.min_replay_trajectories` to start (a config with fewer is refused); each update then raises every allowance.
With GRPO's groups that holds only if every group admitted finishes: a worker admits a group whole (its members count
as admitted until each starts, and start whenever their slots are ready), and is held for newer weights only once no
reset is on its way (`Worker._admissible`, `Worker.is_held`); and only if a member lost to a fault, which frees less
than a group, still lets the next group in: a worker opens a group while any room is left, going over its allowance
by less than a group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distrl_agent.config import TrainConfig


@dataclass(frozen=True)
class Admission:
    """One worker's admission rule (see the module docstring).

    Attributes:
        eta: η, the updates of head start the fleet's data may have over the learner (`runtime.max_offpolicyness`).
        per_update: this worker's share of R, the trajectories the learner consumes per update (R / W).
        versions_per_update: E, the weights versions one update makes (PPO's epochs; 1 for the other rules).
        group_size: GRPO's G: the allowance is rounded up to whole groups, and a worker admits groups whole, so
            that a group, which ships only once all its members have ended, is never left waiting for members its
            worker may not start (1: no groups).
    """

    eta: int
    per_update: float
    versions_per_update: int = 1
    group_size: int = 1

    @classmethod
    def of_run(cls, config: TrainConfig, workers: int) -> Admission | None:
        """The rule of each of `workers` workers of the run `config` describes; None when admission is off (no η, or
        synchronous rounds, which bound themselves)."""  # noqa: D205, D209
        eta = config.runtime.max_offpolicyness
        if eta is None or config.runtime.sync:
            return None
        groups, learner = config.learner.group_spec, config.learner
        return cls(eta, learner.consumed_per_update() / max(1, workers), learner.versions_per_update(),
                   1 if groups is None else groups.size)

    def allowed(self, version: int, first_version: int) -> int:
        """Episodes the worker may have admitted while it holds `version` (its first weights were `first_version`)."""
        updates = max(0, version - first_version) / self.versions_per_update
        share = (self.eta + updates + 1) * self.per_update
        return self.group_size * math.ceil(share / self.group_size)
