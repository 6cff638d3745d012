"""Tests of `distrl_agent.config`: loading, overrides, and errors that name the offending key."""

from __future__ import annotations

import pytest

from distrl_agent.config import TrainConfig, load_config
from distrl_agent.errors import ConfigError


def test_load_config_applies_dotted_overrides_to_sections() -> None:
    """Overrides reach nested fields and are parsed as YAML values."""
    config = load_config(overrides=["runtime.workers=3", "learner.lr=0.01", "runtime.sync=true",
                                    "runtime.worker_resources={emulator: 1}", "run_dir=/tmp/x"])
    assert config.runtime.workers == 3
    assert config.learner.lr == 0.01
    assert config.runtime.sync is True
    assert config.runtime.worker_resources == {"emulator": 1}
    assert config.run_dir == "/tmp/x"


def test_load_config_round_trips_through_yaml_file(tmp_path) -> None:
    """A saved resolved config loads back to an equal config."""
    config = load_config(overrides=["learner.algorithm=digirl", "runtime.minutes=2"])
    path = tmp_path / "config.yaml"
    path.write_text(config.to_yaml())
    assert load_config(path) == config


def test_load_config_accepts_int_for_float_field() -> None:
    """An int where a float is expected is accepted (YAML writes 1 for 1.0)."""
    assert load_config(overrides=["runtime.minutes=1"]).runtime.minutes == 1.0


@pytest.mark.parametrize(("override", "key"), [
    ("runtime.wokers=2", "`runtime.wokers`"),
    ("lerner.lr=0.1", "`lerner`"),
])
def test_load_config_rejects_unknown_key_with_suggestion(override: str, key: str) -> None:
    """An unknown key is named and the closest known one suggested."""
    with pytest.raises(ConfigError, match="did you mean") as info:
        load_config(overrides=[override])
    assert key in str(info.value)


@pytest.mark.parametrize(("override", "key"), [
    ("runtime.workers=two", "runtime.workers"),
    ("runtime.sync=1", "runtime.sync"),
    ("learner.lr=-1", "learner.lr"),
    ("learner.lr=.inf", "learner.lr"),
    ("learner.max_grad_norm=.nan", "learner.max_grad_norm"),
    ("learner.batch_size=0", "learner.batch_size"),
    ("learner.beta_start=2", "learner.beta_start"),
    ("runtime.minutes=0", "runtime.minutes"),
    ("runtime.runtime=slurm", "runtime.runtime"),
    ("runtime.warm_start_noise=1.5", "runtime.warm_start_noise"),
    ("runtime.worker_resources={emulator: 0}", "runtime.worker_resources.emulator"),
    ("runtime.checkpoint_every_s=-5", "runtime.checkpoint_every_s"),
    ("env.env_id=android_gym/Genral-v0", "env.env_id"),
    ("env.perturbations=hrd", "env.perturbations"),
    ("learner.algorithm=a-rid", "learner.algorithm"),
    ("learner.coefficients={gama: 0.5}", "learner.coefficients"),
    ("runtime=3", "runtime"),
])
def test_load_config_rejects_bad_value_naming_key(override: str, key: str) -> None:
    """A bad type or out-of-range value raises ConfigError naming the dotted key."""
    with pytest.raises(ConfigError, match=f"`{key}"):
        load_config(overrides=[override])


def test_load_config_rejects_malformed_override() -> None:
    """An override without `=` says what it should look like."""
    with pytest.raises(ConfigError, match="section.key=value"):
        load_config(overrides=["runtime.workers"])


def test_load_config_rejects_unreadable_file(tmp_path) -> None:
    """A missing file and a non-mapping file raise ConfigError naming the file."""
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_config(tmp_path / "list.yaml")


def test_state_keys_cover_env_and_learner_but_not_runtime() -> None:
    """The keys a checkpoint depends on exclude the runtime section (workers may change on resume)."""
    keys = TrainConfig().state_keys()
    assert "learner.lr" in keys and "env.env_id" in keys and "learner.coefficients" in keys
    assert not any(k.startswith("runtime.") for k in keys)
