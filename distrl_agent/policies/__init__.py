"""Policies that act on `android_gym` observations: the `Policy` contract and the small fast UI policy.

`Policy` (base.py) is what workers and the learner program against; `SmallPolicy` (small.py) is the CPU-trainable
factorised policy over UI-element arrays.
"""

from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput
from distrl_agent.policies.factorised import ACTION_KEYS, FactorisedDistribution, Mode
from distrl_agent.policies.small import SmallPolicy, SmallPolicyConfig, element_at

__all__ = [
    "ACTION_KEYS",
    "Actions",
    "FactorisedDistribution",
    "Inputs",
    "Mode",
    "Policy",
    "PolicyOutput",
    "SmallPolicy",
    "SmallPolicyConfig",
    "element_at",
]
