"""A tabular actor-critic and hand-built batches, so update-rule tests can recompute every loss by hand.

`TabularPolicy` reads one integer per observation (`state`) and one goal text; π(·|s) = softmax(logits[s]), V(s) =
values[s] and V(g) = instruction_values[goal index] are plain parameter tables, so a test can write the loss of a rule
directly from its equations over these tables and compare values and gradients with the rule's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from android_gym.actions import Action
from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput
from distrl_agent.types import Batch, Trajectory, collate

GOALS = ("open the settings", "play the video", "set an alarm", "install the app")


@dataclass(frozen=True)
class TabularConfig:
    """Table sizes and the seed of the initial parameters."""

    states: int = 12
    actions: int = 3
    seed: int = 0


class TabularPolicy(Policy):
    """π(a|s) = softmax(logits[s])[a], V(s) = values[s], V(g) = instruction_values[g]; exact categorical entropy."""

    action_keys = ("a",)
    observation_keys = ("state",)

    def __init__(self, config: TabularConfig | None = None) -> None:
        super().__init__()
        self.config = config = config or TabularConfig()
        gen = torch.Generator().manual_seed(config.seed)
        self.logits = nn.Parameter(torch.randn(config.states, config.actions, generator=gen))
        self.values = nn.Parameter(0.5 * torch.randn(config.states, generator=gen))
        self.instruction_values = nn.Parameter(0.5 * torch.randn(len(GOALS), generator=gen))

    def log_probs(self) -> torch.Tensor:
        """[S, A] log π(a|s) of every state (differentiable)."""
        return torch.log_softmax(self.logits, -1)

    def preprocess(self, observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None = None) -> Inputs:
        """The state ids and goal indices."""
        goals = [o["goal"] for o in observations] if goals is None else goals
        return {"state": torch.tensor([int(o["state"]) for o in observations], dtype=torch.long),
                "goal": torch.tensor([GOALS.index(str(g)) for g in goals], dtype=torch.long)}

    def act(self, inputs: Inputs, deterministic: bool = False,
            generator: torch.Generator | None = None) -> tuple[Actions, torch.Tensor]:
        """Sample (or take the mode of) softmax(logits[s])."""
        with torch.no_grad():
            log_p = self.log_probs()[inputs["state"]]
            a = log_p.argmax(-1) if deterministic else torch.multinomial(log_p.exp(), 1, generator=generator)[:, 0]
            return {"a": a}, log_p.gather(1, a[:, None])[:, 0]

    def evaluate(self, inputs: Inputs, actions: Actions) -> PolicyOutput:
        """The log-prob of the action, the exact entropy and V(s), from the tables."""
        log_p = self.log_probs()[inputs["state"]]
        entropy = -(log_p.exp() * log_p).sum(-1)
        return PolicyOutput(log_p.gather(1, actions["a"][:, None])[:, 0], entropy, self.value(inputs))

    def value(self, inputs: Inputs) -> torch.Tensor:
        """values[s]."""
        return self.values[inputs["state"]]

    def instruction_value(self, inputs: Inputs) -> torch.Tensor:
        """instruction_values[g]."""
        return self.instruction_values[inputs["goal"]]

    def to_env_action(self, actions: Mapping[str, Any], observations: Sequence[Mapping[str, Any]]) -> list[Action]:
        """Not an env policy."""
        raise NotImplementedError("the tabular test policy never acts on an env")

    def from_env_action(self, action: Action, observation: Mapping[str, Any]) -> dict[str, int] | None:
        """Not an env policy."""
        raise NotImplementedError("the tabular test policy never clones an expert")


@dataclass(frozen=True)
class Episode:
    """One hand-written trajectory: states s_0..s_T, actions, rewards, penalties, whether it terminated, its goal."""

    states: tuple[int, ...]
    actions: tuple[int, ...]
    rewards: tuple[float, ...]
    penalties: tuple[float, ...] | None = None
    terminated: bool = True
    goal: str = GOALS[0]
    log_mu: tuple[float, ...] | None = None

    def trajectory(self, policy: TabularPolicy) -> Trajectory:
        """The episode as a `Trajectory`; log μ defaults to the policy's own log π (ρ = 1)."""
        steps = len(self.actions)
        if self.log_mu is None:
            with torch.no_grad():
                log_mu = policy.log_probs()[list(self.states[:-1]), list(self.actions)].numpy()
        else:
            log_mu = np.asarray(self.log_mu, np.float32)
        dones = np.zeros(steps, bool)
        dones[-1] = self.terminated
        return Trajectory(observations={"state": np.asarray(self.states), "goal": np.array([self.goal] * (steps + 1))},
                          actions={"a": np.asarray(self.actions)}, rewards=list(self.rewards), dones=dones,
                          log_mu=log_mu, policy_version=np.zeros(steps, np.int64), penalty=self.penalties,
                          goal=self.goal, success=bool(sum(self.rewards) > 0))


def batch_of(policy: TabularPolicy, episodes: Sequence[Episode], w_is: Sequence[float] | None = None,
             draws: Sequence[int] | None = None) -> Batch:
    """Collate `episodes` into a `Batch`, with replay importance weights `w_is` and draw counts `draws` (ones when
    None).
    """  # noqa: D205
    return collate([e.trajectory(policy) for e in episodes],
                   w_is=None if w_is is None else np.asarray(w_is, np.float32),
                   draws=None if draws is None else np.asarray(draws, np.int64))


def random_episodes(policy: TabularPolicy, seed: int, lengths: Sequence[int] = (3, 5, 2, 4, 6)) -> list[Episode]:
    """Episodes of the given lengths with random states, actions and penalties.

    Every third episode is truncated (it bootstraps), the others terminate, every other one in success; log μ is
    log π plus noise, so ρ falls on both sides of 1.
    """
    rng = np.random.default_rng(seed)
    episodes = []
    for i, length in enumerate(lengths):
        states = tuple(int(s) for s in rng.integers(0, policy.config.states, size=length + 1))
        actions = tuple(int(a) for a in rng.integers(0, policy.config.actions, size=length))
        terminated = i % 3 != 2
        rewards = [0.0] * length
        if terminated and i % 2 == 0:  # episodes 0 and 4 succeed, 1 and 3 fail, 2 is truncated
            rewards[-1] = 1.0
        with torch.no_grad():
            log_pi = policy.log_probs()[list(states[:-1]), list(actions)].numpy()
        log_mu = tuple(float(x) for x in log_pi + rng.normal(0.0, 0.7, size=length))
        penalties = tuple(float(p) for p in rng.choice([0.0, 1.0], size=length, p=[0.7, 0.3]))
        episodes.append(Episode(states, actions, tuple(rewards), penalties, terminated, GOALS[i % len(GOALS)], log_mu))
    return episodes
