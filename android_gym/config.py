"""`EnvConfig`: every knob of an android_gym environment, validated once; `gym.make` kwargs are its fields."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from numbers import Integral, Real
from typing import Any

from android_gym.errors import ConfigError, unknown_name
from android_gym.spaces import ObservationConfig

RENDER_MODES = ("rgb_array",)


@dataclass(frozen=True)
class EnvConfig:
    """Configuration of one environment.

    Attributes:
        suite: task suite ("general" or "webshop").
        split: "train" or "test" (test parameter values never appear in train).
        task: restrict to one template of the suite (e.g. "web_search"); None samples from all.
        device: "sim" (the built-in simulated phone), "adb:<serial>" / "adb:<host>:<port>" (an `AdbDevice` on the
            default ADB server; "adb" alone takes the only attached device), or a `Device` instance.
        device_options: options of the device in `device` (`AdbConfig` fields for "adb:...": e.g. {"port": 5038,
            "timeout_s": 2, "retries": 2}); None for the defaults.
        evaluator: "oracle" (exact state checks), "mllm:<local checkpoint>", "http:<OpenAI-compatible base URL>",
            combinations ("oracle|mllm:<path>": the oracle where the device has state, else the judge;
            "mllm:<path>&oracle": the judge, vetoed by the state check), or an `Evaluator` instance
            (see `android_gym.evaluators.factory`).
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
        task_file: a goal list or JSONL of your own tasks (`android_gym.tasks.files`); when set it replaces `suite`
            with the file's suite ("file:<stem>").
    """

    suite: str = "general"
    split: str = "train"
    task: str | None = None
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
    latency_time_scale: float = 1.0
    max_steps: int | None = None
    render_width: int = 360
    include_xml: bool = False
    task_file: str | None = None

    def __post_init__(self) -> None:
        if self.task_file is not None:  # the file's suite replaces `suite` (issue 7)
            from android_gym.tasks.suites import register_task_file

            object.__setattr__(self, "suite", register_task_file(str(self.task_file)))
        from android_gym.tasks.suites import suite_names  # suites load lazily (apps and content generators)

        _check_types(self)
        if self.suite not in suite_names():
            raise unknown_name("suite", self.suite, suite_names())
        if self.split not in ("train", "test"):
            raise ConfigError(f"`split` must be 'train' or 'test', got {self.split!r}")
        if self.max_steps is not None and (not isinstance(self.max_steps, int) or self.max_steps < 1):
            raise ConfigError(f"`max_steps` must be a positive int or None, got {self.max_steps!r}")
        if isinstance(self.device, str) and not (self.device in ("sim", "adb") or self.device.startswith("adb:")):
            raise ConfigError(f"`device` must be 'sim', 'adb:<serial>' or a Device instance, got {self.device!r}")
        if self.device_options is not None and not isinstance(self.device_options, Mapping):
            raise ConfigError(f"`device_options` must be a dict or None, got {self.device_options!r}")
        if self.device_options and not (isinstance(self.device, str) and self.device.startswith("adb")):
            raise ConfigError(f"`device_options` apply to 'adb:...' devices only; `device` is {self.device!r}")
        if isinstance(self.evaluator, str):
            from android_gym.evaluators.factory import parse_spec

            parse_spec(self.evaluator)  # syntax only; the judge itself is checked when the env builds it
        if self.evaluator_options is not None and not isinstance(self.evaluator_options, Mapping):
            raise ConfigError(f"`evaluator_options` must be a dict or None, got {self.evaluator_options!r}")
        if not 16 <= self.render_width <= 1080:
            raise ConfigError(f"`render_width` must be 16..1080 pixels, got {self.render_width}")
        if not 0 <= self.latency_time_scale < math.inf:  # NaN or inf would reach time.sleep()
            raise ConfigError(f"`latency_time_scale` must be a finite number >= 0, got {self.latency_time_scale}")
        _ = self.observation  # builds (and so validates) the observation fields

    @property
    def observation(self) -> ObservationConfig:
        """The observation part of the config."""
        return ObservationConfig(self.screenshot_width, self.include_elements, self.max_elements,
                                 self.element_text_len)

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> EnvConfig:
        """Build from `gym.make` kwargs; unknown keys raise `ConfigError` naming the closest field."""
        known = [f.name for f in fields(cls)]
        for key in kwargs:
            if key not in known:
                raise unknown_name("env kwarg", key, known)
        return cls(**kwargs)


_NUMBER_FIELDS = {"screenshot_width": Integral, "max_elements": Integral, "element_text_len": Integral,
                  "render_width": Integral, "latency_time_scale": Real}


def _check_types(config: EnvConfig) -> None:
    """Raise `ConfigError` for a field whose type the range checks cannot compare.

    `gym.make` kwargs are user input: `render_width="x"` raised TypeError, `suite=None` a TypeError from difflib
    (issue 20).
    """
    if not isinstance(config.suite, str):
        raise ConfigError(f"`suite` must be a suite name (str), got {config.suite!r}")
    for name, kind in _NUMBER_FIELDS.items():
        value = getattr(config, name)
        if not isinstance(value, kind):
            raise ConfigError(f"`{name}` must be {'an int' if kind is Integral else 'a number'}, got {value!r}")
