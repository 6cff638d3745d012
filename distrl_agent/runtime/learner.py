"""`Learner`: ingests trajectories into the replay, runs the selected update rule, versions and checkpoints weights.

No transport here: the local and Ray runtimes wrap the same class.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from distrl_agent.algorithms import make_update_rule
from distrl_agent.config import TrainConfig
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies import SmallPolicy, SmallPolicyConfig
from distrl_agent.replay import TrajectoryReplay
from distrl_agent.types import Trajectory, collate


class Learner:
    """The central learner.

    Guarantees: `version` increases by one per gradient step; a trajectory with NaN/inf or malformed arrays is dropped
    and counted (`stats()["learner/rejected"]`), never inserted; a non-finite loss skips the step (counted) so weights
    never become NaN.
    """

    def __init__(self, config: TrainConfig, policy_config: SmallPolicyConfig | None = None) -> None:
        c = config.learner
        self.config = config
        self.policy = SmallPolicy(policy_config or SmallPolicyConfig())
        self.rule = make_update_rule(c.algorithm, c.coefficients)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=c.lr)
        self.replay = TrajectoryReplay(c.replay_capacity_steps, alpha=c.alpha if self.rule.prioritized else 0.0,
                                       prioritized=self.rule.prioritized, max_staleness=c.max_staleness)
        self.rng = np.random.default_rng(config.runtime.seed)
        self.version = 0
        self.counters = {"learner/updates": 0, "learner/rejected": 0, "learner/skipped_nonfinite": 0,
                         "learner/ingested": 0}

    # -- data ----------------------------------------------------------------------------------------------------------
    def ingest(self, trajectories: Sequence[Trajectory]) -> int:
        """Insert trajectories (at max priority); returns how many were accepted."""
        accepted = 0
        for traj in trajectories:
            try:
                traj.validate()
            except DataError:
                self.counters["learner/rejected"] += 1
                continue
            accepted += self.replay.add(traj, self.version) >= 0
        self.counters["learner/ingested"] += accepted
        return accepted

    @property
    def is_ready(self) -> bool:
        """Whether the replay holds enough trajectories to train."""
        return len(self.replay) >= max(1, self.config.learner.min_replay_trajectories)

    # -- training ------------------------------------------------------------------------------------------------------
    def update(self) -> dict[str, float]:
        """One gradient step on a (prioritised) batch; refreshes the sampled trajectories' priorities."""
        c = self.config.learner
        frac = min(1.0, self.counters["learner/updates"] / max(1, c.beta_anneal_updates))
        beta = c.beta_start + frac * (c.beta_end - c.beta_start)
        sample = self.replay.sample(c.batch_size, self.rng, beta=beta, learner_version=self.version)
        batch = sample.to_batch()
        self.policy.train()
        loss, metrics, priorities = self.rule.loss(self.policy, batch)
        if not torch.isfinite(loss):
            self.counters["learner/skipped_nonfinite"] += 1
            return metrics
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        metrics["losses/grad_norm"] = float(torch.nn.utils.clip_grad_norm_(self.policy.parameters(), c.max_grad_norm))
        self.optimizer.step()
        self.version += 1
        self.counters["learner/updates"] += 1
        self.replay.set_learner_version(self.version)
        if priorities is not None and self.rule.prioritized:
            self.replay.update_priorities(sample.indices, priorities, sample.uids)
            if self.counters["learner/updates"] % c.refresh_every_updates == 0:
                self.replay.refresh_all(self._priorities)
        metrics["replay/beta"] = beta
        return metrics

    def _priorities(self, trajectories: list[Trajectory]) -> np.ndarray:
        with torch.no_grad():
            _, _, priorities = self.rule.loss(self.policy, collate(trajectories, learner_version=self.version))
        return priorities

    def weights(self) -> dict[str, np.ndarray]:
        """The current weights as numpy arrays (cheap to pickle to workers)."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.policy.state_dict().items()}

    def stats(self) -> dict[str, Any]:
        """Counters of the learner and its replay."""
        return {**self.counters, "learner/version": self.version, **self.replay.stats()}

    # -- checkpoints ---------------------------------------------------------------------------------------------------
    def save(self, directory: str | Path) -> None:
        """Write weights, optimiser, replay, counters and RNG state to `directory` (replaced atomically per file)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        torch.save({"policy": self.policy.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "policy_config": self.policy.config.__dict__, "algorithm": self.rule.name}, d / "learner.pt.tmp")
        (d / "learner.pt.tmp").replace(d / "learner.pt")
        self.replay.save(d / "replay.npz")
        state = {"version": self.version, "counters": self.counters, "rng": self.rng.bit_generator.state}
        (d / "state.json.tmp").write_text(json.dumps(state))
        (d / "state.json.tmp").replace(d / "state.json")

    def load(self, directory: str | Path) -> None:
        """Restore everything `save` wrote.

        Raises:
            CheckpointError: missing files, another algorithm, or weights of another policy shape.
        """
        d = Path(directory)
        try:
            blob = torch.load(d / "learner.pt", weights_only=False)
            state = json.loads((d / "state.json").read_text())
        except (OSError, ValueError) as e:
            raise CheckpointError(f"cannot read a learner checkpoint in {d}: {e}") from e
        if blob.get("algorithm") != self.rule.name:
            raise CheckpointError(f"checkpoint in {d} was trained with {blob.get('algorithm')!r}, this run uses "
                                  f"{self.rule.name!r}")
        self.policy.load_state_dict(blob["policy"])
        self.optimizer.load_state_dict(blob["optimizer"])
        self.replay.load(d / "replay.npz")
        self.version = int(state["version"])
        self.counters.update(state["counters"])
        self.rng.bit_generator.state = state["rng"]
