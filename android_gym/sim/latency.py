"""Wall-clock latency of a device: per-step and per-reset delays drawn from a configurable distribution.

The simulated phone answers in microseconds; real emulators take 0.5-5 s a step with a heavy tail and tens of
seconds a reset. System benchmarks (the async pool, the runtime) need the real costs, so a `SimDevice` can sleep.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_gym.errors import ConfigError, unknown_name


@dataclass(frozen=True)
class LatencyConfig:
    """Lognormal delays, scaled by `time_scale`.

    Attributes:
        step_median_s: median seconds per agent step (action + screenshot).
        step_sigma: lognormal shape of step delays (0 = constant; 0.8 gives a heavy tail, p99 about 6x the median).
        reset_median_s: median seconds per episode reset.
        reset_sigma: lognormal shape of reset delays.
        time_scale: multiplies every delay (benchmarks use e.g. 0.01 to fit a minute).
    """

    step_median_s: float = 0.0
    step_sigma: float = 0.0
    reset_median_s: float = 0.0
    reset_sigma: float = 0.0
    time_scale: float = 1.0

    def __post_init__(self) -> None:
        for name in ("step_median_s", "step_sigma", "reset_median_s", "reset_sigma", "time_scale"):
            if getattr(self, name) < 0:
                raise ConfigError(f"`{name}` must be >= 0, got {getattr(self, name)}")

    @property
    def is_off(self) -> bool:
        """Whether every delay is zero."""
        return self.time_scale == 0 or (self.step_median_s == 0 and self.reset_median_s == 0)

    @property
    def mean_step_s(self) -> float:
        """Expected seconds per step (lognormal mean), after scaling."""
        return self.step_median_s * float(np.exp(self.step_sigma**2 / 2)) * self.time_scale

    @property
    def mean_reset_s(self) -> float:
        """Expected seconds per reset, after scaling."""
        return self.reset_median_s * float(np.exp(self.reset_sigma**2 / 2)) * self.time_scale

    def step_s(self, rng: np.random.Generator) -> float:
        """One step's delay in seconds."""
        return self._draw(rng, self.step_median_s, self.step_sigma)

    def reset_s(self, rng: np.random.Generator) -> float:
        """One reset's delay in seconds."""
        return self._draw(rng, self.reset_median_s, self.reset_sigma)

    def _draw(self, rng: np.random.Generator, median: float, sigma: float) -> float:
        if median == 0 or self.time_scale == 0:
            return 0.0
        return float(median * np.exp(sigma * rng.standard_normal()) * self.time_scale)

    @classmethod
    def coerce(cls, value: str | dict | LatencyConfig | None, time_scale: float | None = None) -> LatencyConfig:
        """A preset name ("off", "emulator", "fast-emulator"), a dict of fields, a config, or None (off)."""
        if value is None:
            value = "off"
        if isinstance(value, str):
            if value not in LATENCY_PRESETS:
                raise unknown_name("latency preset", value, list(LATENCY_PRESETS))
            value = LATENCY_PRESETS[value]
        elif isinstance(value, dict):
            value = cls(**value)
        elif not isinstance(value, LatencyConfig):
            raise ConfigError(f"`latency` must be a preset name, a dict or a LatencyConfig, got {value!r}")
        if time_scale is not None:
            value = LatencyConfig(value.step_median_s, value.step_sigma, value.reset_median_s, value.reset_sigma,
                                  time_scale)
        return value


LATENCY_PRESETS: dict[str, LatencyConfig] = {
    "off": LatencyConfig(),
    # An Android emulator driven over ADB with a screenshot per step (DistRL/DigiRL report ~1-3 s steps with stragglers,
    # and tens of seconds to restore a snapshot).
    "emulator": LatencyConfig(step_median_s=1.5, step_sigma=0.8, reset_median_s=12.0, reset_sigma=0.5),
    "fast-emulator": LatencyConfig(step_median_s=0.5, step_sigma=0.5, reset_median_s=4.0, reset_sigma=0.3),
}
