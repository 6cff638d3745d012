"""Where a worker's actions come from: its own copy of the policy (`PolicyActor`) or the host's inference service
(`runtime/inference.py`'s `ServiceActor`), behind one small interface, `Actor`.

A worker needs four things of a policy: which observation entries to keep (`observation_keys`), how to read an
observation given the action before it (`observe`), a batched `act` that returns the actions, their behaviour
log-probabilities, the env actions and the version of the weights that chose them (`ActResult`), and a way to take
new weights (`set_weights`). Nothing else of the policy reaches the worker, so the model can live in another process.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from android_gym.actions import Action


@dataclass(frozen=True)
class ActResult:
    """One batched act, row for row with the observations acted on.

    Attributes:
        actions: the policy's action ids, key -> (B, ...) arrays (a scalar id per row, or a VLM's token row).
        log_mu: (B,) behaviour log-probabilities, or (B, K) per token for a sequence policy (zero after a row's last
            token; a row's sum is its action's).
        env_actions: the env `Action` of each row.
        version: the policy version of the weights that chose every row.
    """

    actions: dict[str, np.ndarray]
    log_mu: np.ndarray
    env_actions: list[Action]
    version: int

    def action_row(self, row: int) -> dict[str, np.ndarray]:
        """Row `row`'s action ids, as the trajectory stores them."""
        return {k: np.array(v[row]) for k, v in self.actions.items()}

    def rows(self, index: Sequence[int]) -> ActResult:
        """The result of the rows `index`, in that order (how a service hands each worker its part of a batch)."""
        picked = np.asarray(index, dtype=np.int64)
        return ActResult({k: v[picked] for k, v in self.actions.items()}, self.log_mu[picked],
                         [self.env_actions[i] for i in index], self.version)


class Actor(Protocol):
    """What a `Worker` asks of the policy it acts with (see the module docstring)."""

    observation_keys: tuple[str, ...]

    def observe(self, observation: Mapping[str, Any], previous_action: Action | None,
                previous_observation: Mapping[str, Any] | None) -> dict[str, Any]:
        """The observation as the policy reads it (`Policy.observe`)."""

    def act(self, observations: Sequence[Mapping[str, Any]], deterministic: bool) -> ActResult:
        """One action per observation, sampled (or the mode, if `deterministic`)."""

    def set_weights(self, weights: Mapping[str, Any] | None, version: int) -> None:
        """Take the weights of `version` (None: a service adopts them itself; only the version is news)."""

    def close(self) -> None:
        """Release what the actor holds (a connection); its worker is closing."""


class PolicyActor:
    """The worker's own copy of the policy (one per worker process): acts in this process.

    Args:
        policy: the policy, built from the run's policy config (put in eval mode here).
        seed: seeds action sampling.
    """

    def __init__(self, policy: Any, seed: int) -> None:
        import torch  # here: a worker that asks a service never imports torch for acting

        self.policy = policy.eval()
        self.observation_keys = tuple(policy.observation_keys)
        self.version = 0
        self._generator = torch.Generator().manual_seed(seed)

    @classmethod
    def of_config(cls, config: Any, seed: int) -> PolicyActor:
        """A fresh policy of `config` (weights come with `set_weights`)."""
        from distrl_agent.policies.build import build_policy

        return cls(build_policy(config), seed)

    def observe(self, observation: Mapping[str, Any], previous_action: Action | None,
                previous_observation: Mapping[str, Any] | None) -> dict[str, Any]:
        """`Policy.observe`."""
        return self.policy.observe(observation, previous_action, previous_observation)

    def act(self, observations: Sequence[Mapping[str, Any]], deterministic: bool) -> ActResult:
        """`preprocess`, `act` and `to_env_action` on this process's policy."""
        inputs = self.policy.preprocess(observations)
        actions, log_mu = self.policy.act(inputs, deterministic=deterministic, generator=self._generator)
        return ActResult({k: to_array(v) for k, v in actions.items()}, to_array(log_mu),
                         self.policy.to_env_action(actions, observations), self.version)

    def set_weights(self, weights: Mapping[str, Any] | None, version: int) -> None:
        """Load `weights` (whole or the trainable entries) as `version`."""
        if weights is not None:
            self.policy.load_weights(weights)
        self.version = int(version)

    def close(self) -> None:
        """Nothing to release."""


def to_array(value: Any) -> np.ndarray:
    """A tensor (any dtype numpy has, bfloat16 as float32) or array as a numpy array of its own."""
    if hasattr(value, "detach"):
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":
            value = value.float()
        return value.numpy().copy()
    return np.array(value)
