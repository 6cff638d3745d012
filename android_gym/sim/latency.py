"""Wall-clock latency of a device: per-step and per-reset delays drawn from a configurable distribution.

The simulated phone answers in microseconds; real emulators take 0.5-5 s a step with a heavy tail and tens of
seconds a reset. System benchmarks (the async pool, the runtime) need the real costs, so a `SimDevice` can sleep, and a
phone served over ADB and gRPC (the simulated emulator's `-sim-latency`) can take its time to settle (`Settling`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping

import numpy as np
from pydantic import Field

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError, unknown_name


class LatencyConfig(ConfigModel):
    """Lognormal delays, scaled by `time_scale`.

    Attributes:
        step_median_s: median seconds per agent step (action + screenshot).
        step_sigma: lognormal shape of step delays (0 = constant; 0.8 gives a heavy tail, p99 about 6x the median).
        reset_median_s: median seconds per episode reset.
        reset_sigma: lognormal shape of reset delays.
        time_scale: multiplies every delay (benchmarks use e.g. 0.01 to fit a minute).

    Every field is a finite number >= 0 (NaN or inf would reach `time.sleep()`).

    >>> LatencyConfig.coerce("emulator", time_scale=0.01).mean_step_s < 0.03
    True
    """

    step_median_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    step_sigma: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    reset_median_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    reset_sigma: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    time_scale: float = Field(default=1.0, ge=0, allow_inf_nan=False)

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
    def coerce(cls, value: str | Mapping | LatencyConfig | None, time_scale: float | None = None) -> LatencyConfig:
        """A preset name ("off", "emulator", "fast-emulator"), a dict of fields, a config, or None (off).

        Args:
            value: what `gym.make(..., latency=...)` received.
            time_scale: replaces the config's `time_scale` when given.

        Raises:
            UnknownNameError: an unknown preset (with the closest one).
            ConfigError: an unknown field, a bad value, or a value of another type.
        """
        if value is None:
            value = "off"
        if isinstance(value, str):
            if value not in LATENCY_PRESETS:
                raise unknown_name("latency preset", value, list(LATENCY_PRESETS))
            value = LATENCY_PRESETS[value]
        elif isinstance(value, Mapping):
            value = cls.from_data(value, where="latency")
        elif not isinstance(value, LatencyConfig):
            raise ConfigError(f"`latency` must be a preset name, a dict or a LatencyConfig, got {value!r}")
        return value if time_scale is None else value.replace(time_scale=time_scale)


LATENCY_PRESETS: dict[str, LatencyConfig] = {
    "off": LatencyConfig(),
    # An Android emulator driven over ADB with a screenshot per step (DistRL/DigiRL report ~1-3 s steps with stragglers,
    # and tens of seconds to restore a snapshot).
    "emulator": LatencyConfig(step_median_s=1.5, step_sigma=0.8, reset_median_s=12.0, reset_sigma=0.5),
    "fast-emulator": LatencyConfig(step_median_s=0.5, step_sigma=0.5, reset_median_s=4.0, reset_sigma=0.3),
}


class Settling:
    """The device side of latency, for phones served over ADB and gRPC (the simulated emulator): how long the phone
    takes to settle after an input, and to load a snapshot.

    An input (a tap, a swipe, a key, text, a launch) starts a settle of one step delay (`LatencyConfig.step_s`)
    unless one is under way; a screen read (a screenshot, a UI dump) waits until the phone has settled; a snapshot
    load takes one reset delay. An agent step (one action, then its observation's reads) thus costs one step delay
    however many calls it makes, and a reset one reset delay, as with `SimDevice`'s latency: the Little's-law bound
    N / (mean reset + episode length x mean step) holds for such phones too. Thread-safe; off costs nothing.

    Args:
        latency: the delays (`LatencyConfig.coerce` input; "off" by default).
        seed: seeds the delays' draws.
        clock, sleep: time source and wait (tests inject a fake clock).

    >>> clock = [0.0]
    >>> s = Settling({"step_median_s": 2.0}, clock=lambda: clock[0], sleep=lambda d: clock.__setitem__(0, clock[0] + d))
    >>> s.touched(); clock[0] += 0.5; s.touched(); s.wait_settled(); clock[0]  # the second input started nothing
    2.0
    """  # noqa: D205

    def __init__(self, latency: str | Mapping | LatencyConfig | None = "off", seed: int = 0,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        self.latency = LatencyConfig.coerce(latency)
        self._rng = np.random.default_rng([int(seed), 11])
        self._clock, self._sleep = clock, sleep
        self._settled_at = 0.0
        self._lock = threading.Lock()

    def touched(self) -> None:
        """An input reached the phone: it settles one step delay from now, unless it is settling already."""
        if self.latency.is_off:
            return
        with self._lock:
            now = self._clock()
            if now >= self._settled_at:
                self._settled_at = now + self.latency.step_s(self._rng)

    def wait_settled(self) -> None:
        """Block until the phone has settled after its last input (at once when it has)."""
        if self.latency.is_off:
            return
        with self._lock:
            wait_s = self._settled_at - self._clock()
        if wait_s > 0:
            self._sleep(wait_s)

    def load_snapshot(self) -> None:
        """Take one reset delay (a snapshot being restored); the phone is settled afterwards."""
        if self.latency.is_off:
            return
        with self._lock:
            delay_s = self.latency.reset_s(self._rng)
            self._settled_at = 0.0
        self._sleep(delay_s)
