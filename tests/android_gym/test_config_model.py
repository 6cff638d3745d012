"""Tests of `android_gym.config_model`: the one mechanism every config of both packages validates through."""

from __future__ import annotations

import pickle
from typing import Annotated, ClassVar, Literal

import pytest
from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError, build_field
from android_gym.errors import ConfigError


class Inner(ConfigModel):
    """A nested config with a range, a choice and a tuple."""

    width: Annotated[int, Field(ge=1)] = 8
    mode: Literal["fast", "exact"] = "fast"
    size: tuple[int, int] | None = None


class Outer(ConfigModel):
    """A config holding `Inner`, a float, a bool and a cross-field check."""

    inner: Inner = Field(default_factory=Inner)
    scale: float = 1.0
    enabled: bool = True

    @model_validator(mode="after")
    def _check(self) -> Outer:
        if not self.enabled and self.scale != 1.0:
            raise FieldError("scale", "1.0 while `enabled` is false", self.scale)
        return self


class OwnError(ValueError):
    """Stands for distrl_agent's ConfigError."""


class Chooser(ConfigModel):
    """A config whose `part` is typed by `kind` (as `learner.coefficients` by `learner.algorithm`)."""

    error_type: ClassVar[type[Exception]] = OwnError
    kind: str = "inner"
    part: Inner | None = None

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data):
        if isinstance(data, dict):
            return {**data, "part": build_field(Inner, data.get("part"), "part")}
        return data


@pytest.mark.parametrize(("data", "message"), [
    ({"inner": {"widht": 2}}, "unknown config key `top.inner.widht`; did you mean `top.inner.width`?"),
    ({"inner": {"width": 0}}, "`top.inner.width` must be greater than or equal to 1, got 0"),
    ({"inner": {"mode": "fsat"}}, "`top.inner.mode` must be 'fast' or 'exact' (did you mean 'fast'?), got 'fsat'"),
    ({"inner": 3}, "`top.inner` must be a valid dictionary or instance of Inner, got 3"),
    ({"enabled": 1}, "`top.enabled` must be a valid boolean, got 1"),
    ({"inner": {"width": "8"}}, "`top.inner.width` must be a valid integer, got '8'"),
    ({"enabled": False, "scale": 2.0}, "`top.scale` must be 1.0 while `enabled` is false, got 2.0"),
])
def test_from_data_names_the_dotted_key_of_the_first_problem(data, message) -> None:
    """Every kind of problem reads the same: dotted key, what was expected, what arrived."""
    with pytest.raises(ConfigError) as info:
        Outer.from_data(data, where="top")
    assert str(info.value).startswith(message)


def test_from_data_accepts_int_for_float_and_list_for_tuple() -> None:
    """YAML writes `2` for 2.0 and has no tuples: both are read, and nothing else is coerced."""
    config = Outer.from_data({"scale": 2, "inner": {"size": [3, 4]}})
    assert config.scale == 2.0 and isinstance(config.scale, float) and config.inner.size == (3, 4)


def test_direct_construction_raises_config_error_not_pydantic() -> None:
    """`Inner(width=0)` raises the package's ConfigError, as `from_data` does."""
    with pytest.raises(ConfigError, match="`width` must be greater than or equal to 1"):
        Inner(width=0)


def test_to_data_round_trips_and_replace_validates() -> None:
    """`to_data` is plain data that loads back equal; `replace` checks the changed value; configs pickle."""
    config = Outer.from_data({"inner": {"width": 3, "size": [1, 2]}, "scale": 0.5})
    data = config.to_data()
    assert data == {"inner": {"width": 3, "mode": "fast", "size": [1, 2]}, "scale": 0.5, "enabled": True}
    assert Outer.from_data(data) == config
    assert config.replace(scale=2.0).scale == 2.0 and config.scale == 0.5
    with pytest.raises(ConfigError, match="`width`"):
        config.inner.replace(width=-1)
    assert pickle.loads(pickle.dumps(config)) == config
    with pytest.raises(Exception, match="frozen"):
        config.scale = 3.0


def test_none_gives_defaults_and_an_instance_passes_through() -> None:
    """`from_data(None)` is the default config; a config of the class is returned as it is."""
    assert Outer.from_data(None) == Outer()
    inner = Inner(width=5)
    assert Inner.from_data(inner) is inner


def test_sub_config_built_in_a_validator_keeps_its_dotted_key_and_the_error_type() -> None:
    """`build_field` inside a validator: the message names `root.part.width`, raised as the model's own type."""
    with pytest.raises(OwnError, match="unknown config key `root.part.widht`; did you mean `root.part.width`"):
        Chooser.from_data({"part": {"widht": 1}}, where="root")
    with pytest.raises(OwnError, match="`root.part.width` must be greater than or equal to 1"):
        Chooser.from_data({"part": {"width": 0}}, where="root")
    assert Chooser.from_data({"part": {"width": 2}}).part == Inner(width=2)
