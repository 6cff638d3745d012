"""Shared fixtures of the distrl_agent tests: a factory of small, valid, seeded trajectories."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from distrl_agent.types import Trajectory

TrajectoryFactory = Callable[..., Trajectory]


def build_trajectory(
    length: int,
    rng: np.random.Generator,
    *,
    version: int = 0,
    is_terminated: bool = True,
    goal: str = "open the settings",
) -> Trajectory:
    """A valid trajectory of `length` steps with numeric and text observations and actions."""
    rewards = np.zeros(length, np.float32)
    dones = np.zeros(length, bool)
    if is_terminated:
        rewards[-1], dones[-1] = 1.0, True
    return Trajectory(
        observations={
            "screenshot": rng.integers(0, 256, size=(length + 1, 4, 3, 3), dtype=np.uint8),
            "goal": np.array([goal] * (length + 1)),
        },
        actions={
            "action_type": rng.integers(0, 7, size=length),
            "touch": rng.random((length, 2), dtype=np.float32),
            "text": np.array(["hi"] * length),
        },
        rewards=rewards,
        dones=dones,
        log_mu=np.log(rng.uniform(0.05, 1.0, size=length)),
        policy_version=np.full(length, version),
        penalty=rng.choice([0.0, 1.0], size=length),
        goal=goal,
        task="general/settings",
        success=is_terminated,
        worker_id=3,
        metadata={"seed": 7},
    )


@pytest.fixture
def make_trajectory() -> TrajectoryFactory:
    """`make_trajectory(length, rng=None, **kwargs)`: a valid trajectory (seeded by `length` unless `rng` given)."""

    def factory(length: int, rng: np.random.Generator | None = None, **kwargs: object) -> Trajectory:
        return build_trajectory(length, rng if rng is not None else np.random.default_rng(length), **kwargs)

    return factory
