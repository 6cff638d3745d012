"""`CustomPolicyConfig`: which user policy class to build, and its config (plain data; importing this imports no torch).

See `distrl_agent/policies/custom.py` for how the class is imported and built.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator

from android_gym.config_model import ConfigModel
from android_gym.plugins import IMPORT_PATH
from distrl_agent.errors import ConfigError


class CustomPolicyConfig(ConfigModel):
    """A user's policy class and its config.

    Attributes:
        target: "<module>:<class>", a `Policy` subclass with a `config_class`.
        config: the fields of its `config_class` (left out: that class's defaults).
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    target: str
    config: dict[str, Any] = Field(default_factory=dict)

    @field_validator("target")
    @classmethod
    def _import_path(cls, target: str) -> str:
        if not IMPORT_PATH.fullmatch(target):
            raise ValueError(f"an import path '<module>:<class>', e.g. 'my_policies:DeepCritic', got {target!r}")
        return target
