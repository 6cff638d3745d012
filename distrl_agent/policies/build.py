"""Policies by name: the config's `policy.kind` ("small", "vlm" or "custom") to a policy config and a policy.

Workers, the learner, the warm start and evaluation all build their policy here, from the same frozen config, so a
worker's copy always accepts the learner's `state_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from distrl_agent.errors import ConfigError
from distrl_agent.policies.base import Policy
from distrl_agent.policies.custom import build_custom_policy
from distrl_agent.policies.custom_config import CustomPolicyConfig
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_config import VLMPolicyConfig

PolicyConfig = SmallPolicyConfig | VLMPolicyConfig | CustomPolicyConfig
"""The config of any policy `build_policy` makes."""
POLICY_KINDS: dict[str, tuple[type, Any]] = {
    "small": (SmallPolicyConfig, SmallPolicy),
    "vlm": (VLMPolicyConfig, VLMPolicy),
    "custom": (CustomPolicyConfig, build_custom_policy),
}
"""kind -> (config class, what builds a policy from it: a policy class, or the custom policies' importer)."""


def make_policy_config(kind: str, fields: Mapping[str, Any] | PolicyConfig | None,
                       where: str = "policy") -> PolicyConfig:
    """The config of policy `kind` from plain data (its fields) or a config of that kind.

    Args:
        kind: a key of `POLICY_KINDS`.
        fields: the config's fields (the VLM needs `model_path`); None for the defaults.
        where: the dotted config key of the policy section, for error messages.

    Raises:
        ConfigError: an unknown kind, an unknown or missing field (named, with the closest known one), a bad value.
    """
    if kind not in POLICY_KINDS:
        raise ConfigError(f"`{where}.kind` {kind!r} is unknown; known: {', '.join(POLICY_KINDS)}")
    cls = POLICY_KINDS[kind][0]
    if kind == "vlm" and not isinstance(fields, VLMPolicyConfig) and "model_path" not in (fields or {}):
        raise ConfigError(f"`{where}.kind=vlm` needs `{where}.vlm.model_path` (a local checkpoint directory with its "
                          "processor)")
    return cls.from_data(fields, where=f"{where}.{kind}")


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


def build_seeded_policy(config: PolicyConfig, seed: int) -> Policy:
    """`build_policy(config)` with initial weights drawn from `seed` alone: the same in any process (the learner's, a
    Ray actor's, the warm start's), and the caller's torch random state left as it was."""  # noqa: D205, D209
    import torch

    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return build_policy(config)
