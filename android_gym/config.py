"""`EnvConfig`: every knob of an android_gym environment, validated once; `gym.make` kwargs are its fields."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import Field, ValidationInfo, field_validator, model_validator

from android_gym.config_model import ConfigModel
from android_gym.devices.configs import DeviceConfig, parse_device
from android_gym.devices.host_slots import fill
from android_gym.errors import ConfigError, unknown_name
from android_gym.sim.latency import LatencyConfig
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.spaces import ObservationConfig

if TYPE_CHECKING:
    from android_gym.devices.base import Device
    from android_gym.evaluators.base import Evaluator
    from android_gym.evaluators.factory import EvaluatorConfig

RENDER_MODES = ("rgb_array",)


class EnvConfig(ConfigModel):
    """Configuration of one environment.

    Attributes:
        suite: task suite ("general", "webshop" or "world").
        split: "train" or "test" (test parameter values never appear in train), or, for suites that hold templates
            and apps out of both (World), "unseen_templates" or "unseen_apps" (see `tasks.suites.SUITE_SPLITS`).
        task: restrict to one template of the suite (e.g. "web_search"); None samples from all.
        tier: restrict to the templates of one tier ("easy", "medium" or "hard", from the step budget); None keeps
            every tier.
        device: "sim" (the built-in simulated phone), "adb:<serial>" / "adb:<host>:<port>" (an `AdbDevice` on the
            default ADB server; "adb" alone takes the only attached device), "emulator:<avd>" (launch one),
            "emulator@<console-port>" (attach to one), or a `Device` instance. `{slot}` and `{port}` in a spec
            stand for this env's slot on its machine and that slot's emulator console port
            (`devices.host_slots`: "emulator@{port}").
        device_options: options of the device in `device` (`AdbConfig` fields for "adb:...": e.g. {"port": 5038,
            "timeout_s": 2, "retries": 2}; for an emulator also `EmulatorConfig` fields); None for the defaults.
        evaluator: "oracle" (exact state checks), "mllm:<local checkpoint>", "http:<OpenAI-compatible base URL>",
            combinations ("oracle|mllm:<path>": the oracle where the device has state, else the judge;
            "mllm:<path>&oracle": the judge, vetoed by the state check), "py:<module>:<class>" (your own
            `Evaluator` subclass, built with the options as keyword arguments), or an `Evaluator` instance (see
            `android_gym.evaluators.factory`).
        evaluator_options: options of the judge in `evaluator` (e.g. {"model": "...", "timeout_s": 10} for http,
            {"device": "cuda", "mode": "generate"} for mllm, {"cache": False}); None for the defaults.
        screenshot_width: observation screenshot width in pixels; 0 for none (UI elements only, fastest).
        include_elements: include the fixed-size UI-element arrays in observations.
        max_elements: rows of the element arrays.
        element_text_len: bytes of label per element.
        perturbations: sim pop-ups/spinners/ignored taps level: "none", "default", "hard", or a dict.
        latency: sim wall-clock delays: "off", "emulator", "fast-emulator", or a dict.
        latency_time_scale: multiplies every latency delay (benchmarks shrink emulator time to fit a minute).
        max_steps: step budget override; None uses the task's (10 general, 20 webshop).
        render_width: width of `render()` frames in pixels.
        include_xml: put the uiautomator XML in `info["ui_xml"]` every step (costs ~0.1 ms per changed screen).
        task_file: a goal list or JSONL of your own tasks (`android_gym.tasks.files`); when set, the env registers
            the file as a suite when it is built and uses it instead of `suite` (its config then reads
            `suite="file:<stem>"`); the config itself registers nothing.
        parse_goals: read a plain goal list with the goal parser (`android_gym.tasks.goals`), so that the lines it
            covers get the simulated phone's state checks and experts; None (default) parses exactly when the
            device is the simulated phone, whose state those checks read (on other devices, judge the goals with
            a model: `evaluator="mllm:..."`).

    `gym.make` kwargs are its fields: `EnvConfig.from_data(kwargs)` (or `EnvConfig(**kwargs)`) checks every one's
    type and value, the device, device options and evaluator spec included (nothing connects or loads).

    Raises:
        ConfigError: a wrong type or value, naming the field; `UnknownNameError` for an unknown field, suite or
            preset (with the closest name).
    """

    suite: str = "general"
    split: str = "train"
    task: str | None = None
    tier: str | None = None
    device: Any = "sim"
    device_options: Mapping[str, Any] | None = None
    evaluator: Any = "oracle"
    evaluator_options: Mapping[str, Any] | None = None
    screenshot_width: int = 224
    include_elements: bool = True
    max_elements: int = 48
    element_text_len: int = 32
    perturbations: Any = "default"
    latency: Any = "off"
    latency_time_scale: float = Field(default=1.0, ge=0, allow_inf_nan=False)  # NaN or inf would reach time.sleep()
    max_steps: int | None = Field(default=None, ge=1)
    render_width: int = Field(default=360, ge=16, le=1080)
    include_xml: bool = False
    task_file: str | None = None
    parse_goals: bool | None = None

    @field_validator("task_file", mode="before")
    @classmethod
    def _path_as_text(cls, value: Any) -> Any:
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @field_validator("perturbations", "latency")
    @classmethod
    def _preset_or_fields(cls, value: Any, info: ValidationInfo) -> Any:
        # checked for every device (a typo is no less one on ADB)
        (LatencyConfig if info.field_name == "latency" else PerturbationConfig).coerce(value)
        return value

    @model_validator(mode="after")
    def _check(self) -> EnvConfig:
        from android_gym.tasks.base import TIERS
        from android_gym.tasks.suites import check_split, suite_names  # suites load lazily (apps and content)

        if self.task_file is None and self.suite not in suite_names():  # a task file brings its own suite
            raise unknown_name("suite", self.suite, suite_names())
        check_split(self.split, None if self.task_file is not None else self.suite)  # names the suite's own splits
        if self.tier is not None and self.tier not in TIERS:
            raise unknown_name("tier", self.tier, TIERS)
        self.device_config()  # the specs and their options, checked now; the env builds from them
        self.evaluator_config()
        _ = self.observation  # builds (and so checks) the observation fields
        return self

    def evaluator_config(self) -> EvaluatorConfig | Evaluator:
        """The judge `evaluator` names, as a typed config (`EvaluatorConfig`: nothing loaded), or the instance given.

        Raises:
            ConfigError: a bad spec, unknown or misplaced options (with the closest name), a bad option value.
        """
        from android_gym.evaluators.base import Evaluator  # the judges load when a config names one, not on import
        from android_gym.evaluators.factory import parse_evaluator

        if isinstance(self.evaluator, Evaluator):
            if self.evaluator_options:
                raise ConfigError("`evaluator_options` only apply to evaluator specs (strings), not to instances")
            return self.evaluator
        return parse_evaluator(self.evaluator, self.evaluator_options)

    def device_config(self, slot: int = 0) -> DeviceConfig | Device:
        """The device `device` names, as a typed config (`SimDeviceConfig`, `AdbConfig`), or the instance given.

        Args:
            slot: the host slot `{slot}` and `{port}` in the spec stand for (`devices.host_slots`; the env claims one).

        Raises:
            ConfigError: a spec that names no device, options for the sim, an unknown or bad option.
        """
        from android_gym.devices.base import Device

        if isinstance(self.device, Device):
            if self.device_options:
                raise ConfigError("`device_options` apply to 'adb:...' specs only, not to a Device instance")
            return self.device
        return parse_device(fill(self.device, slot), self.device_options, self.perturbations, self.latency,
                            self.latency_time_scale)

    @property
    def observation(self) -> ObservationConfig:
        """The observation part of the config."""
        return ObservationConfig(screenshot_width=self.screenshot_width, include_elements=self.include_elements,
                                 max_elements=self.max_elements, element_text_len=self.element_text_len)

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> EnvConfig:
        """`from_data(kwargs)`: build from `gym.make` kwargs; unknown keys raise `UnknownNameError` (closest field)."""
        return cls.from_data(kwargs)
