"""Policies that act on `android_gym` observations: the `Policy` contract, the small fast UI policy, the VLM policy.

`Policy` (base.py) is what workers and the learner program against; `SmallPolicy` (small.py) is the CPU-trainable
factorised policy over UI-element arrays; `VLMPolicy` (vlm.py) is the AutoUI-style `transformers` policy that reads
screenshots and writes action text; `build_policy` (build.py) makes either from its config (`policy.kind`).
"""

from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput
from distrl_agent.policies.build import POLICY_KINDS, PolicyConfig, build_policy, make_policy_config, policy_kind
from distrl_agent.policies.factorised import ACTION_KEYS, FactorisedDistribution, Mode
from distrl_agent.policies.small import SmallPolicy, element_at
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.vlm import VLM_ACTION_KEYS, VLMPolicy, VLMPolicyConfig, previous_action_text

__all__ = [
    "ACTION_KEYS",
    "Actions",
    "FactorisedDistribution",
    "Inputs",
    "Mode",
    "POLICY_KINDS",
    "Policy",
    "PolicyConfig",
    "PolicyOutput",
    "SmallPolicy",
    "SmallPolicyConfig",
    "VLMPolicy",
    "VLMPolicyConfig",
    "VLM_ACTION_KEYS",
    "build_policy",
    "element_at",
    "make_policy_config",
    "policy_kind",
    "previous_action_text",
]
