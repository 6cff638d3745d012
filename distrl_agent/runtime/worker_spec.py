"""`WorkerSpec`: what one rollout worker needs of a run, built by the driver and sent to the worker's process or
actor instead of the whole `TrainConfig`."""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection
from distrl_agent.runtime.admission import Admission
from distrl_agent.runtime.inference import ServiceAddress

if TYPE_CHECKING:  # the spec is built where torch may not be imported yet
    from distrl_agent.config import TrainConfig
    from distrl_agent.policies.build import PolicyConfig
    from distrl_agent.runtime.shell import WorkerShell


@dataclass(frozen=True)
class WorkerSpec:
    """One rollout worker of a run: its envs, seed, policy and protocol.

    Attributes:
        index: the worker's number (its envs are `env.device_for(index * envs + i)`).
        env: which environments it makes.
        envs: how many.
        seed: seeds its env resets and action sampling.
        policy: the policy's config (the learner's shape, so the worker loads its weights).
        sync: synchronous rounds (DigiRL) rather than continuous collection.
        lockstep: in sync rounds, step the environments in lock-step (`runtime.sync_lockstep`).
        groups: GRPO's groups, or None.
        fault_prefixes: ship the clean steps before a device fault (`runtime.fault_prefixes`).
        unknown_prefixes: ship the steps before an unknown verdict (rules that bootstrap truncated episodes).
        outbox_capacity: finished trajectories held while the learner is not reading.
        admission: its producer-side staleness bound (`runtime/admission.py`), or None.
        service: the host's inference service to act through (`runtime/inference.py`; the runtime that starts it
            sets it), or None: the worker builds its own copy of the policy.
    """

    index: int
    env: EnvSection
    envs: int
    seed: int
    policy: PolicyConfig
    sync: bool
    lockstep: bool
    groups: GroupSpec | None
    fault_prefixes: bool
    unknown_prefixes: bool
    outbox_capacity: int
    admission: Admission | None = None
    service: ServiceAddress | None = None

    @classmethod
    def of_run(cls, index: int, config: TrainConfig, service: ServiceAddress | None = None) -> WorkerSpec:
        """Worker `index` of the run `config` describes (acting through `service`, if given)."""
        rt = config.runtime
        return cls(index=index, env=config.env, envs=rt.envs_per_worker, seed=rt.seed * 1000 + index,
                   policy=config.policy.policy_config(), sync=rt.sync, lockstep=rt.sync and rt.sync_lockstep,
                   groups=config.learner.group_spec, fault_prefixes=rt.fault_prefixes,
                   unknown_prefixes=config.learner.coefficients.bootstraps_truncation,
                   outbox_capacity=rt.worker_buffer_trajectories,
                   admission=Admission.of_run(config, rt.worker_count()), service=service)

    def shell(self) -> WorkerShell:
        """The worker in its shell, not started (call `start()` in the worker's process: it makes the envs)."""
        from distrl_agent.runtime.inference import ServiceActor
        from distrl_agent.runtime.shell import WorkerShell  # here, in the worker: it pulls in the envs
        from distrl_agent.runtime.worker import Worker

        worker = Worker(self.index, self.env, self.envs, seed=self.seed, policy_config=self.policy,
                        lockstep=self.lockstep, groups=self.groups, fault_prefixes=self.fault_prefixes,
                        unknown_prefixes=self.unknown_prefixes, admission=self.admission,
                        actor=None if self.service is None else ServiceActor(self.service))
        return WorkerShell(worker, self.outbox_capacity)
