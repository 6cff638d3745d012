"""The composition root: the one place that builds a run's learner and runtime (local or Ray) from its `TrainConfig`.

Below it nothing holds the whole config: the learner gets its parts and a `LearnerSpec`, the runtimes their worker
specs and the `runtime` section, each worker its `WorkerSpec`.
"""

from __future__ import annotations

from distrl_agent.config import TrainConfig
from distrl_agent.runtime.base import LearnerHandle, Runtime
from distrl_agent.runtime.inference import ServiceAddress, ServiceSpec
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.learner_spec import LearnerParts, LearnerSpec
from distrl_agent.runtime.local import LocalRuntime
from distrl_agent.runtime.worker_spec import WorkerSpec


def build_learner(config: TrainConfig) -> Learner:
    """The in-process learner of the run `config` describes, its parts built here."""
    spec = LearnerSpec.of_run(config)
    return Learner(LearnerParts.build(spec), spec)


def worker_specs(config: TrainConfig, service: ServiceAddress | None = None) -> list[WorkerSpec]:
    """One spec per rollout worker of the run (`runtime.worker_count()` of them), acting through `service` if given."""
    return [WorkerSpec.of_run(i, config, service) for i in range(config.runtime.worker_count())]


def service_spec(config: TrainConfig, address: ServiceAddress | None = None) -> ServiceSpec:
    """The host's inference service of the run (`runtime.inference`), at `address` (default: a fresh private one)."""
    return ServiceSpec(address or ServiceAddress.fresh(), config.policy.policy_config(),
                       seed=config.runtime.seed * 1000 + 999)


def make_runtime(config: TrainConfig, with_learner: bool = True) -> tuple[Runtime, LearnerHandle | None]:
    """The transport named by `runtime.runtime` and its learner (in-process, or an actor built where it runs).

    Raises:
        ClusterError: the Ray runtime was asked for and Ray is missing or its address does not answer.
    """
    if config.runtime.runtime == "ray":
        from distrl_agent.runtime.ray import RayRuntime  # Ray is an extra

        service = service_spec(config, ServiceAddress.per_node()) if config.inference_on_host() else None
        ray_runtime = RayRuntime(worker_specs(config, service and service.address), config.runtime, service)
        return ray_runtime, ray_runtime.make_learner(LearnerSpec.of_run(config)) if with_learner else None
    service = service_spec(config) if config.inference_on_host() else None
    runtime = LocalRuntime(worker_specs(config, service and service.address), config.runtime, service)
    return runtime, build_learner(config) if with_learner else None
