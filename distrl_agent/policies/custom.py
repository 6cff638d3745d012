"""Your own policy, by import path: `policy.kind=custom policy.custom.target=my_policies:DeepCritic`.

The class must be a `distrl_agent.policies.base.Policy` subclass with a `config_class` (a `ConfigModel` subclass, e.g.
`SmallPolicyConfig` for a subclass of the small policy); `policy.custom.config` holds that config's fields. Every
process that builds a policy (the learner, each rollout worker, evaluation) imports the class by its path, so its
module must be importable there (installed, or on PYTHONPATH).

A run folder or a checkpoint cannot choose such a class: it would import code (`distrl_agent.run_folder`); the user
names it on the command line or in their own config.
"""

from __future__ import annotations

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError as EnvConfigError
from android_gym.plugins import load_class
from distrl_agent.errors import ConfigError
from distrl_agent.policies.base import Policy
from distrl_agent.policies.custom_config import CustomPolicyConfig


def policy_class(target: str) -> type[Policy]:
    """The `Policy` subclass `target` names, imported now.

    Raises:
        ConfigError: it cannot be imported, is not a `Policy` subclass, or has no `config_class`.
    """
    try:
        found = load_class(target, Policy, "`policy.custom.target`")
    except EnvConfigError as e:  # the trainer's own error type, as everywhere in distrl_agent
        raise ConfigError(str(e)) from e
    config_class = getattr(found, "config_class", None)
    if not (isinstance(config_class, type) and issubclass(config_class, ConfigModel)):
        raise ConfigError(f"`policy.custom.target` {target!r} needs a `config_class` attribute: the ConfigModel its "
                          "config is (e.g. SmallPolicyConfig for a subclass of SmallPolicy)")
    return found


def build_custom_policy(config: CustomPolicyConfig) -> Policy:
    """Import the class and build it from `config.config` parsed by its `config_class`.

    Raises:
        ConfigError: see `policy_class`; or a field of `config.config` its `config_class` refuses (named).
    """
    cls = policy_class(config.target)
    inner = cls.config_class.from_data(config.config, where="policy.custom.config")  # type: ignore[attr-defined]
    return cls(inner)
