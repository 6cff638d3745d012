"""A researcher's own policy, by import path (`policy.kind=custom`).

Built in the learner and the workers, trained, saved, evaluated; never chosen by a run folder or a checkpoint.
"""

from __future__ import annotations

import pytest

import distrl_agent
from android_gym.testing.modules import user_module
from distrl_agent.config import load_config
from distrl_agent.errors import ConfigError, UntrustedConfigError
from distrl_agent.policies.build import build_policy

POLICIES = '''
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.layers import mlp


class DeepCritic(SmallPolicy):
    """The small policy with three-layer value heads."""

    config_class = SmallPolicyConfig

    def __init__(self, config=None):
        super().__init__(config)
        d = self.config.hidden_dim
        self.value_head = mlp(d, d, d, 1)
        self.instruction_value_head = mlp(d, d, d, 1)


class NoConfig(SmallPolicy):
    pass
'''


@pytest.fixture
def policies_module(tmp_path) -> str:
    """The module of policies above, importable here and in worker processes (a fresh name per test)."""
    with user_module(tmp_path, "my_policies", POLICIES) as name:
        yield name


def test_a_custom_policy_is_built_from_its_class_and_config(policies_module) -> None:
    """`policy.kind=custom`: the class by import path, its `config_class` parsing `policy.custom.config`."""
    config = load_config(overrides=["policy.kind=custom", f"policy.custom.target={policies_module}:DeepCritic",
                                    "policy.custom.config={hidden_dim: 32}"])
    policy = build_policy(config.policy.policy_config())
    assert type(policy).__name__ == "DeepCritic" and policy.config.hidden_dim == 32
    assert len(policy.value_head) > len(build_policy(config.policy.small).value_head)


@pytest.mark.parametrize(("target", "message"), [
    ("not a path", "import path"),
    ("no_such_module_anywhere:Policy", "cannot import"),
    ("{m}:NoConfig", "config_class"),
    ("{m}:mlp", "not a subclass of distrl_agent.policies.base.Policy"),
])
def test_a_bad_custom_policy_is_refused_naming_it(policies_module, target, message) -> None:
    """Each mistake is a ConfigError naming `policy.custom.target`, before any process starts."""
    with pytest.raises(ConfigError, match=message):
        path = target.format(m=policies_module)
        config = load_config(overrides=["policy.kind=custom", f"policy.custom.target={path}"])
        build_policy(config.policy.policy_config())


def test_custom_kind_needs_its_target() -> None:
    """`policy.kind=custom` alone names what is missing."""
    with pytest.raises(ConfigError, match="policy.custom.target"):
        load_config(overrides=["policy.kind=custom"])


def test_a_custom_policy_trains_saves_and_evaluates(policies_module, tmp_path) -> None:
    """End to end on the local runtime: the workers build the same class, the checkpoint records it, and evaluating
    the folder needs the class named again (a checkpoint cannot choose code); named, it evaluates.
    """  # noqa: D205
    policy = ["policy.kind=custom", f"policy.custom.target={policies_module}:DeepCritic"]
    result = distrl_agent.train(
        {"runtime": {"minutes": 2, "max_updates": 4, "workers": 1, "envs_per_worker": 2, "warm_start_episodes": 4,
                     "warm_start_updates": 5, "eval_episodes": 2},
         "learner": {"batch_size": 4, "min_replay_trajectories": 4}},
        overrides=[*policy, f"run_dir={tmp_path / 'run'}"], show_progress=False)
    assert result.updates >= 4 and result.summary["runtime/trajectories_received"] > 0
    with pytest.raises(UntrustedConfigError, match="policy.custom.target"):
        distrl_agent.evaluate(result.run_dir, episodes=2)
    evaluation = distrl_agent.evaluate(result.run_dir, episodes=2, overrides=policy)
    assert evaluation.version == result.updates and 0 <= evaluation.success <= 1
