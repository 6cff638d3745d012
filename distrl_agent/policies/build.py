"""Policies by name: the config's `policy.kind` ("small" or "vlm") to a policy config and a policy.

Workers, the learner, the warm start and evaluation all build their policy here, from the same frozen config, so a
worker's copy always accepts the learner's `state_dict`.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from typing import Any

from distrl_agent.errors import ConfigError
from distrl_agent.policies.base import Policy
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.vlm import VLMPolicy, VLMPolicyConfig

PolicyConfig = SmallPolicyConfig | VLMPolicyConfig
"""The config of any policy `build_policy` makes."""
POLICY_KINDS: dict[str, tuple[type, type[Policy]]] = {
    "small": (SmallPolicyConfig, SmallPolicy),
    "vlm": (VLMPolicyConfig, VLMPolicy),
}
"""kind -> (config dataclass, policy class)."""


def make_policy_config(kind: str, fields: Mapping[str, Any], where: str = "policy") -> PolicyConfig:
    """The config dataclass of policy `kind` from plain data (YAML lists become the tuples the dataclasses hold).

    Args:
        kind: a key of `POLICY_KINDS`.
        fields: the dataclass's fields (the VLM needs `model_path`).
        where: the dotted config key of `fields`, for error messages.

    Raises:
        ConfigError: an unknown kind, an unknown or missing field (named, with the closest known one), a bad value.
    """
    if kind not in POLICY_KINDS:
        raise ConfigError(f"`{where}.kind` {kind!r} is unknown; known: {', '.join(POLICY_KINDS)}")
    cls = POLICY_KINDS[kind][0]
    known = {f.name: f for f in dataclasses.fields(cls)}
    for key in fields:
        if key not in known:
            close = difflib.get_close_matches(str(key), list(known), 1)
            raise ConfigError(f"unknown key `{where}.{kind}.{key}`{f'; did you mean `{close[0]}`?' if close else ''}"
                              f" Known: {', '.join(known)}")
    missing = [name for name, f in known.items() if name not in fields
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        hint = " (a local checkpoint directory with its processor)" if missing[0] == "model_path" else ""
        raise ConfigError(f"`{where}.kind={kind}` needs `{where}.{kind}.{missing[0]}`{hint}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    try:
        return cls(**values)
    except (ConfigError, TypeError, ValueError) as e:
        raise ConfigError(f"`{where}.{kind}`: {e}") from e


def policy_kind(config: PolicyConfig) -> str:
    """The kind whose config dataclass `config` is."""
    for kind, (cls, _) in POLICY_KINDS.items():
        if isinstance(config, cls):
            return kind
    raise ConfigError(f"{type(config).__name__} is not the config of a known policy ({', '.join(POLICY_KINDS)})")


def build_policy(config: PolicyConfig) -> Policy:
    """A fresh policy from its config (random heads: seed torch first for reproducible weights).

    Raises:
        CheckpointError: a VLM config whose `model_path` holds no usable checkpoint.
    """
    return POLICY_KINDS[policy_kind(config)][1](config)
