"""Update rules by name: A-RIDE, its ablations, DigiRL, Filtered BC, PPO, GRPO (`make_update_rule`).

Each rule is `loss(policy, batch) -> LossOutput(loss, metrics, priorities or None)` plus whether its replay samples by
priority.
A rule with `prepare(policy, batch)` (PPO, GRPO) has it computed once per batch before its `epochs` gradient steps,
and its loss takes what `prepare` returned as a third argument. A rule with `groups` (GRPO) learns from groups
of episodes played from one start, which the runtimes ask their workers for (`runtime/groups.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import torch

from distrl_agent.algorithms.a_ride import a_ride_loss, a_ride_prepare
from distrl_agent.algorithms.configs import (
    ALGORITHMS,
    ARideConfig,
    DigiRLConfig,
    FilteredBCConfig,
    GroupSpec,
    GRPOConfig,
    PPOConfig,
    RuleConfig,
    rule_config,
)
from distrl_agent.algorithms.digirl import digirl_loss
from distrl_agent.algorithms.filtered_bc import filtered_bc_loss, selected_steps
from distrl_agent.algorithms.grpo import grpo_loss, grpo_prepare
from distrl_agent.algorithms.ppo import ppo_loss, ppo_prepare
from distrl_agent.errors import ConfigError
from distrl_agent.types import Batch


def real_steps(batch: Batch) -> torch.Tensor:
    """The batch's real steps: what a loss made of means over steps (`masked_mean`) divides by."""
    return batch.mask.sum()


@dataclass(frozen=True)
class UpdateRule:
    """A named loss with its replay sampling mode.

    Attributes:
        name: the registry name.
        loss: (policy, batch) -> `LossOutput` (loss tensor, metrics, new priorities [B] or None).
        prioritized: whether the replay samples by priority (else uniformly).
        config: the rule's coefficients (`algorithms/configs.py`).
        epochs: gradient steps per sampled batch (1 for every rule but PPO and GRPO, where it is configurable).
        prepare: (policy, batch) -> what the loss needs computed once per batch before its epochs (proximal
            log-probs and advantages; a reference policy's log-probs); None when the loss takes (policy, batch) only.
        groups: how the workers must play groups of episodes from one start (GRPO); None for the other rules.
        reference: whether `prepare` takes `reference=`, a frozen copy of the policy as it was at the learner's first
            update (A-RIDE or GRPO with a KL penalty); the learner keeps and checkpoints that copy.
        mean_count: batch -> how many rows the loss is a mean over (its real steps; Filtered BC's imitated steps),
            with which the learner weights micro-batches' losses (`learner.micro_batch_size`); None when the loss
            does not split (`RuleConfig.micro_batch_refusal` says why).
    """

    name: str
    loss: Callable[..., Any]
    prioritized: bool
    config: RuleConfig
    epochs: int = 1
    prepare: Callable[..., Any] | None = None
    groups: GroupSpec | None = None
    reference: bool = False
    mean_count: Callable[[Batch], torch.Tensor] | None = None


def make_update_rule(name: str, coefficients: Mapping[str, Any] | RuleConfig | None = None) -> UpdateRule:
    """The update rule called `name` with its `coefficients` (its config, or fields of it; None: the defaults).

    Raises:
        ConfigError: unknown name or coefficient (naming the closest known one), or a bad value.
    """
    config = rule_config(name, coefficients)
    splits = config.micro_batch_refusal() is None
    match config:
        case ARideConfig():
            return UpdateRule(name, partial(a_ride_loss, config=config), name != "a-ride-uniform", config,
                              prepare=partial(a_ride_prepare, config=config) if config.kl_coef > 0 else None,
                              reference=config.kl_coef > 0, mean_count=real_steps)
        case DigiRLConfig():
            return UpdateRule(name, partial(digirl_loss, config=config), False, config)
        case FilteredBCConfig():
            return UpdateRule(name, partial(filtered_bc_loss, config=config), False, config,
                              mean_count=lambda batch: selected_steps(batch, config).sum())
        case GRPOConfig():
            return UpdateRule(name, partial(grpo_loss, config=config), False, config, epochs=config.epochs,
                              prepare=partial(grpo_prepare, config=config), groups=config.groups,
                              reference=config.kl_coef > 0, mean_count=real_steps if splits else None)
        case PPOConfig():
            return UpdateRule(name, partial(ppo_loss, config=config), False, config, epochs=config.epochs,
                              prepare=partial(ppo_prepare, config=config), mean_count=real_steps if splits else None)
    raise ConfigError(f"no update rule reads a {type(config).__name__}")  # a config class added without its rule


__all__ = ["ALGORITHMS", "UpdateRule", "make_update_rule"]
