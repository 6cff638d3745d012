"""Tests of `android_gym.devices.configs`: a `device` spec and its options become one typed device config."""

from __future__ import annotations

import pytest

from android_gym.config import EnvConfig
from android_gym.devices.configs import AdbConfig, SimDeviceConfig, parse_device
from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError, UnknownNameError


def test_adb_specs_become_adb_configs_with_their_options() -> None:
    """"adb:<serial>" fills `serial`, "adb" leaves it to the only attached device; options are AdbConfig fields."""
    config = parse_device("adb:127.0.0.1:5555", {"timeout_s": 2, "retries": 0})
    assert config == AdbConfig(serial="127.0.0.1:5555", timeout_s=2.0, retries=0)
    assert parse_device("adb", None) == AdbConfig()


def test_sim_spec_carries_the_sims_perturbations_and_scaled_latency() -> None:
    """The sim's config holds the parsed levels, with the time scale applied to the latency preset."""
    config = parse_device("sim", None, perturbations="none", latency="emulator", latency_time_scale=0.5)
    assert isinstance(config, SimDeviceConfig)
    assert config.perturbations.dialog_prob == 0.0 and config.latency.time_scale == 0.5
    assert config.latency.step_median_s == 1.5


@pytest.mark.parametrize(("spec", "options", "error", "message"), [
    ("simulator", None, ConfigError, "`device` must be 'sim', 'adb', 'adb:<serial>', 'emulator:<avd>' or"),
    ("sim", {"port": 5037}, ConfigError, "apply to 'adb:...' and 'emulator...' devices only"),
    ("adb:x", {"prot": 5037}, UnknownNameError, "did you mean `device_options.port`"),
    ("adb:x", {"retries": -1}, ConfigError, "`device_options.retries` must be greater than or equal to 0"),
])
def test_bad_specs_and_options_name_what_is_wrong(spec, options, error, message) -> None:
    """Through the env config, as `gym.make` kwargs arrive: the spec and options are checked before any device."""
    with pytest.raises(error, match=message):
        EnvConfig(device=spec, device_options=options)


def test_env_config_hands_a_device_instance_through() -> None:
    """A `Device` given to `gym.make` is used as it is; options for it are refused."""
    device = SimDevice("none")
    assert EnvConfig(device=device).device_config() is device
    with pytest.raises(ConfigError, match="not to a Device instance"):
        EnvConfig(device=device, device_options={"port": 1}).device_config()
