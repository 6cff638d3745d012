"""`EpisodeAdder`: the steps of one running episode, recorded as a worker plays it, and the `Trajectory` it becomes.

As acme's adders: the actor hands over what it chose and what came back, step by step; the adder alone knows the
trajectory's layout (T+1 observations, T actions, rewards, behaviour log-probs log mu(a_t|s_t), acting versions,
penalties, `dones` set only at a termination). Both rollout workers (in-process and over env processes) record
through it, so the layout cannot drift between them.

>>> import numpy as np
>>> adder = EpisodeAdder(observation_keys=("x",), worker_id=3)
>>> adder.add_choice({"x": np.zeros(2)}, {"kind": np.array(1)}, log_mu=-0.5, version=7)
>>> adder.add_result(reward=1.0, penalty=0.0)
>>> trajectory = adder.finish({"x": np.ones(2)}, terminated=True, goal="g", task="t")
>>> trajectory.length, trajectory.success, trajectory.policy_version.tolist(), trajectory.observations["x"].shape
(1, True, [7], (2, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

from distrl_agent.types import Trajectory


def action_row(actions: Mapping[str, torch.Tensor], row: int) -> dict[str, np.ndarray]:
    """Row `row` of a batch of policy actions, as numpy (a scalar id, or an array such as the VLM's tokens)."""
    return {k: v[row].detach().cpu().numpy().copy() for k, v in actions.items()}


class EpisodeAdder:
    """One running episode's record: a choice, then its result, per step, until `finish` makes it a `Trajectory`.

    Args:
        observation_keys: the policy's observation entries to keep (`Policy.observation_keys`).
        worker_id: tags the trajectory.
        group: its GRPO group in the worker's `GroupCollector`, -1 when the worker plays no groups.
    """

    def __init__(self, observation_keys: Sequence[str], worker_id: int, group: int = -1) -> None:
        self.observation_keys, self.worker_id, self.group = tuple(observation_keys), worker_id, group
        self.observations: list[dict[str, np.ndarray]] = []
        self.actions: list[dict[str, np.ndarray]] = []
        self.rewards: list[float] = []
        self.log_mu: list[float] = []
        self.token_log_mu: list[np.ndarray] = []  # a sequence policy's per-token log mu, one row per step
        self.versions: list[int] = []
        self.penalty: list[float] = []
        self.is_judged: list[bool] = []

    @property
    def has_acted(self) -> bool:
        """Whether a step has been chosen (an episode that has not is not yet under way)."""
        return bool(self.actions)

    @property
    def is_waiting(self) -> bool:
        """Whether the last choice still awaits its result."""
        return len(self.actions) > len(self.rewards)

    def add_choice(self, observation: Mapping[str, Any], action: dict[str, np.ndarray], log_mu: float | np.ndarray,
                   version: int) -> None:
        """The observed state and what the policy (weights `version`) chose there, with log mu of that choice: a
        number, or the log mu of each of its K tokens (a sequence policy's row of `act`; the step's is their sum)."""  # noqa: D205, D209
        self.observations.append({k: observation[k] for k in self.observation_keys})
        self.actions.append(action)
        parts = np.asarray(log_mu, np.float32)
        if parts.ndim:
            self.token_log_mu.append(parts)
        self.log_mu.append(float(parts.sum(dtype=np.float64)))
        self.versions.append(int(version))

    def add_result(self, reward: float, penalty: float, is_judged: bool = True) -> None:
        """What the last choice earned: its reward, its invalid-action penalty, and whether its verdict was known."""
        self.rewards.append(float(reward))
        self.penalty.append(float(penalty))
        self.is_judged.append(bool(is_judged))

    def unjudged_steps(self, length: int) -> int:
        """How many of the first `length` steps had an unknown verdict (a shipped trajectory must hold none)."""
        return sum(not judged for judged in self.is_judged[:length])

    def finish(self, final_observation: Mapping[str, Any], terminated: bool, goal: str, task: str) -> Trajectory:
        """The episode as a `Trajectory`: T+1 observations (`final_observation` last), `dones` set only if it
        terminated (a truncation at the step budget bootstraps)."""  # noqa: D205, D209
        keys = self.observation_keys
        observations = [*self.observations, {k: final_observation[k] for k in keys}]
        dones = np.zeros(len(self.rewards), bool)
        dones[-1] = terminated
        return Trajectory(
            observations={k: np.stack([o[k] for o in observations]) for k in keys},
            actions={k: np.array([a[k] for a in self.actions], np.int64) for k in self.actions[0]},
            rewards=np.array(self.rewards, np.float32), dones=dones, log_mu=np.array(self.log_mu, np.float32),
            policy_version=np.array(self.versions, np.int64), penalty=np.array(self.penalty, np.float32),
            goal=goal, task=task, success=bool(self.rewards[-1] > 0), worker_id=self.worker_id,
            token_log_mu=np.stack(self.token_log_mu) if self.token_log_mu else None)

    def finish_before_last(self, goal: str, task: str, cause: str) -> Trajectory | None:
        """The steps before the last one, as a truncated `Trajectory`, when the last step cannot be trusted.

        After a device fault, whether the action reached the phone is unknown; after an unknown verdict, its reward
        is. Either way the last step and what came back are left out; the state its action was chosen in, which the
        phone reported cleanly, is the bootstrap state. None when it was the episode's first step (nothing to keep).
        `cause` ("fault", "unknown_verdict") goes into `metadata["cut"]`, so an audit of the replay can tell a
        prefix from a half-inserted episode.
        """
        if len(self.actions) < 2:
            return None
        clean = EpisodeAdder(self.observation_keys, self.worker_id, self.group)
        clean.observations, clean.actions = self.observations[:-1], self.actions[:-1]
        clean.rewards, clean.penalty = self.rewards[:len(clean.actions)], self.penalty[:len(clean.actions)]
        clean.log_mu, clean.versions = self.log_mu[:-1], self.versions[:-1]
        clean.token_log_mu = self.token_log_mu[:-1]
        prefix = clean.finish(self.observations[-1], terminated=False, goal=goal, task=task)
        prefix.metadata["cut"] = cause
        return prefix
