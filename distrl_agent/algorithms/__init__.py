"""Update rules selectable by name: A-RIDE, its ablations, DigiRL, Filtered BC.

Each rule is `loss(policy, batch) -> (loss, metrics, priorities or None)` plus whether its replay samples by priority.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from distrl_agent.algorithms.a_ride import ARideConfig, a_ride_loss
from distrl_agent.algorithms.digirl import DigiRLConfig, digirl_loss
from distrl_agent.algorithms.filtered_bc import FilteredBCConfig, filtered_bc_loss
from distrl_agent.errors import ConfigError


@dataclass(frozen=True)
class UpdateRule:
    """A named loss with its replay sampling mode.

    Attributes:
        name: the registry name.
        loss: (policy, batch) -> (loss tensor, metrics, new priorities [B] or None).
        prioritized: whether the replay samples by priority (else uniformly).
        config: the rule's coefficient dataclass.
    """

    name: str
    loss: Callable[..., Any]
    prioritized: bool
    config: Any


ALGORITHMS = ("a-ride", "a-ride-uniform", "a-ride-no-retrace", "a-ride-no-entropy", "digirl", "filtered-bc")


def make_update_rule(name: str, overrides: dict[str, Any] | None = None) -> UpdateRule:
    """The update rule called `name`, with coefficient `overrides` (field names of its config dataclass).

    Raises:
        ConfigError: unknown name or override key.
    """
    overrides = dict(overrides or {})
    if name.startswith("a-ride"):
        if name not in ALGORITHMS:
            raise ConfigError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
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
    raise ConfigError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")


def _build(cls: type, overrides: dict[str, Any]) -> Any:
    known = set(cls.__dataclass_fields__)
    bad = sorted(set(overrides) - known)
    if bad:
        raise ConfigError(f"unknown {cls.__name__} keys {bad}; known: {sorted(known)}")
    return cls(**overrides)


__all__ = ["ALGORITHMS", "UpdateRule", "make_update_rule"]
