"""`make_runtime`: the one place that builds the runtime (local or Ray) and its learner from a `TrainConfig`."""

from __future__ import annotations

from distrl_agent.config import TrainConfig
from distrl_agent.runtime.base import LearnerHandle, Runtime
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.local import LocalRuntime


def make_runtime(config: TrainConfig, with_learner: bool = True) -> tuple[Runtime, LearnerHandle | None]:
    """The composition root: the transport named by `runtime.runtime` and its learner (in-process, or an actor).

    Raises:
        ClusterError: the Ray runtime was asked for and Ray is missing or its address does not answer.
    """
    if config.runtime.runtime == "ray":
        from distrl_agent.runtime.ray import RayRuntime

        ray_runtime = RayRuntime(config)
        return ray_runtime, ray_runtime.make_learner(Learner) if with_learner else None
    return LocalRuntime(config), Learner(config) if with_learner else None
