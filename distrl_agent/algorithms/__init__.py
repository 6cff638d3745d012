"""Update rules selectable by name: A-RIDE, its ablations, DigiRL, Filtered BC, PPO, GRPO.

Each rule is `loss(policy, batch) -> LossOutput(loss, metrics, priorities or None)` plus whether its replay samples by
priority.
A rule with `prepare(policy, batch)` (PPO, GRPO) has it computed once per batch before its `epochs` gradient steps,
and its loss takes what `prepare` returned as a third argument. A rule with `groups` (GRPO) learns from groups
of episodes played from one start, which the runtimes ask their workers for (`runtime/groups.py`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from distrl_agent.algorithms.a_ride import ARideConfig, a_ride_loss
from distrl_agent.algorithms.digirl import DigiRLConfig, digirl_loss
from distrl_agent.algorithms.filtered_bc import FilteredBCConfig, filtered_bc_loss
from distrl_agent.algorithms.grpo import GroupSpec, GRPOConfig, grpo_loss, grpo_prepare
from distrl_agent.algorithms.ppo import PPOConfig, ppo_loss, ppo_prepare
from distrl_agent.errors import ConfigError


@dataclass(frozen=True)
class UpdateRule:
    """A named loss with its replay sampling mode.

    Attributes:
        name: the registry name.
        loss: (policy, batch) -> `LossOutput` (loss tensor, metrics, new priorities [B] or None).
        prioritized: whether the replay samples by priority (else uniformly).
        config: the rule's coefficient dataclass.
        epochs: gradient steps per sampled batch (1 for every rule but PPO and GRPO, where it is configurable).
        prepare: (policy, batch) -> what the loss needs computed once per batch before its epochs (proximal
            log-probs and advantages); None when the loss takes (policy, batch) only.
        groups: how the workers must play groups of episodes from one start (GRPO); None for the other rules.
        reference: whether `prepare` takes `reference=`, a frozen copy of the policy as it was at the learner's first
            update (GRPO with a KL penalty); the learner keeps and checkpoints that copy.
    """

    name: str
    loss: Callable[..., Any]
    prioritized: bool
    config: Any
    epochs: int = 1
    prepare: Callable[..., Any] | None = None
    groups: GroupSpec | None = None
    reference: bool = False


ALGORITHMS = ("a-ride", "a-ride-uniform", "a-ride-no-retrace", "a-ride-no-entropy", "digirl", "filtered-bc", "ppo",
              "grpo")


def make_update_rule(name: str, overrides: dict[str, Any] | None = None) -> UpdateRule:
    """The update rule called `name`, with coefficient `overrides` (field names of its config dataclass).

    Raises:
        ConfigError: unknown name or override key (naming the closest known one).
    """
    overrides = dict(overrides or {})
    if name not in ALGORITHMS:
        raise ConfigError(f"unknown algorithm {name!r}{_closest(name, ALGORITHMS)}; known: {', '.join(ALGORITHMS)}")
    if name.startswith("a-ride"):
        config = _build(ARideConfig, overrides)
        if name == "a-ride-no-retrace":
            config = replace(config, use_retrace=False)
        if name == "a-ride-no-entropy":
            config = replace(config, entropy_coef=0.0)
        return UpdateRule(name, partial(a_ride_loss, config=config), name != "a-ride-uniform", config)
    if name == "digirl":
        config = _build(DigiRLConfig, overrides)
        return UpdateRule(name, partial(digirl_loss, config=config), False, config)
    if name == "filtered-bc":
        config = _build(FilteredBCConfig, overrides)
        return UpdateRule(name, partial(filtered_bc_loss, config=config), False, config)
    if name == "grpo":
        config = _build(GRPOConfig, overrides)
        return UpdateRule(name, partial(grpo_loss, config=config), False, config, epochs=config.epochs,
                          prepare=partial(grpo_prepare, config=config), groups=config.groups,
                          reference=config.kl_coef > 0)
    config = _build(PPOConfig, overrides)
    return UpdateRule(name, partial(ppo_loss, config=config), False, config, epochs=config.epochs,
                      prepare=partial(ppo_prepare, config=config))


def _build(cls: type, overrides: dict[str, Any]) -> Any:
    known = set(cls.__dataclass_fields__)
    bad = sorted(set(overrides) - known)
    if bad:
        raise ConfigError(f"unknown {cls.__name__} keys {bad}{_closest(bad[0], sorted(known))}; "
                          f"known: {sorted(known)}")
    return cls(**overrides)


def _closest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


__all__ = ["ALGORITHMS", "UpdateRule", "make_update_rule"]
