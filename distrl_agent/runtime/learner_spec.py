"""`LearnerSpec` and `LearnerParts`: what the learner needs of a run, and the parts built from it.

The composition root (`runtime/build.py`) builds the parts in the process that trains (this one, or the Ray learner
actor's, so that a VLM's weights load once, where they are used) and hands them to `Learner`, which holds no
`TrainConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from distrl_agent.algorithms.rules import UpdateRule, make_update_rule
from distrl_agent.config import LearnerSection
from distrl_agent.policies.base import Policy
from distrl_agent.policies.build import PolicyConfig, build_seeded_policy
from distrl_agent.replay import TrajectoryReplay
from distrl_agent.runtime.encoding_cache import EncodingCache

if TYPE_CHECKING:
    from distrl_agent.config import TrainConfig


@dataclass(frozen=True)
class LearnerSpec:
    """The learner of a run: its section of the config, its policy, its seed, the keys its checkpoints are bound to.

    Attributes:
        learner: the `learner` section (batch, rates, replay, rule and its coefficients).
        policy: the policy's config (a custom policy's names its class).
        seed: seeds the policy's initial weights and the replay's sampling (`runtime.seed`).
        state_keys: the run's config keys a checkpoint must match to be resumed (`TrainConfig.state_keys`).
    """

    learner: LearnerSection
    policy: PolicyConfig
    seed: int
    state_keys: dict[str, Any]

    @classmethod
    def of_run(cls, config: TrainConfig) -> LearnerSpec:
        """The learner of the run `config` describes."""
        return cls(config.learner, config.policy.policy_config(), config.runtime.seed, config.state_keys())


@dataclass
class LearnerParts:
    """The learner's components, built once from a `LearnerSpec` (`build`).

    Attributes:
        policy: the policy it trains (seeded, the same in any process).
        rule: the update rule.
        warmup_rule: the rule for the critic warm-up's updates: the same rule with the actor switched off (the rule
            itself when it has no critic to warm up).
        optimizer: Adam over the policy's parameters at `learner.lr`.
        replay: the trajectory replay (prioritised when the rule is).
        encodings: each replayed trajectory's encoder output, computed once.
    """

    policy: Policy
    rule: UpdateRule
    warmup_rule: UpdateRule
    optimizer: torch.optim.Optimizer
    replay: TrajectoryReplay
    encodings: EncodingCache

    @classmethod
    def build(cls, spec: LearnerSpec) -> LearnerParts:
        """Every part of the learner `spec` describes."""
        c = spec.learner
        policy = build_seeded_policy(spec.policy, spec.seed)
        policy.keep_master_weights()  # float32 weights under a low-precision backbone, before the optimiser sees them
        rule = make_update_rule(c.algorithm, c.coefficients)
        has_actor_coef = "actor_coef" in type(rule.config).model_fields
        warmup_rule = (make_update_rule(c.algorithm, c.coefficients.replace(actor_coef=0.0)) if has_actor_coef
                       else rule)
        replay = TrajectoryReplay(c.replay_capacity_steps, alpha=c.alpha if rule.prioritized else 0.0,
                                  prioritized=rule.prioritized, max_staleness=c.max_staleness,
                                  max_times_sampled=c.max_times_sampled)
        return cls(policy, rule, warmup_rule, torch.optim.Adam(policy.parameters(), lr=c.lr), replay,
                   EncodingCache(policy))
