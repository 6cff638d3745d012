"""Fault injection for the ADB front: dropped connections, hangs, garbage replies, devices going offline.

A `FaultInjector` draws one fate per device-service request from a seeded generator, so a fault run is reproducible
from its seed (requests from one client arrive in a fixed order). Tests assert on `FaultInjector.counts`.

>>> inj = FaultInjector(FaultConfig(drop=0.5, seed=1))
>>> [inj.draw() for _ in range(6)].count("drop") == inj.counts["drop"]
True
"""

from __future__ import annotations

import threading
from typing import Annotated

import numpy as np
from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError

KINDS = ("drop", "drop_late", "hang", "garbage", "garbage_late", "offline", "delay")
"""Fault kinds, in draw order: `drop` closes before the command runs, `drop_late` after it ran but before its
output; `garbage` replies noise instead of OKAY, `garbage_late` sends OKAY then noise instead of the output; `hang`
stops answering for `hang_s`; `offline` makes the device offline for `offline_requests` requests; `delay` answers
correctly after `delay_s` (slowness, not a fault)."""


Probability = Annotated[float, Field(ge=0, le=1)]


class FaultConfig(ConfigModel):
    """Probabilities (per device-service request) and durations of injected faults.

    Attributes:
        drop, drop_late, hang, garbage, garbage_late, offline, delay: probability of each kind (sum <= 1).
        hang_s: how long a hang lasts, seconds (set it far above the client's timeout; the front's shutdown
            ends hangs early).
        delay_s: extra latency of a `delay`, seconds.
        offline_requests: requests refused with "device offline" after an `offline` fault.
        seed: seeds the draws.
    """

    drop: Probability = 0.0
    drop_late: Probability = 0.0
    hang: Probability = 0.0
    garbage: Probability = 0.0
    garbage_late: Probability = 0.0
    offline: Probability = 0.0
    delay: Probability = 0.0
    hang_s: Annotated[float, Field(ge=0)] = 3600.0
    delay_s: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 0.05
    offline_requests: Annotated[int, Field(ge=0)] = 2
    seed: int = 0

    @model_validator(mode="after")
    def _one_fate_per_request(self) -> FaultConfig:
        probs = [getattr(self, k) for k in KINDS]
        if sum(probs) > 1.0 + 1e-9:
            raise ConfigError(f"fault probabilities must sum to <= 1, got {dict(zip(KINDS, probs, strict=True))}")
        return self

    @classmethod
    def mixed(cls, rate: float, seed: int = 0, **overrides: float) -> FaultConfig:
        """Disconnects, hangs, garbage and offline spells sharing `rate` (e.g. 0.12 = 12% of requests faulty)."""
        share = {"drop": 0.25, "drop_late": 0.1, "hang": 0.2, "garbage": 0.15, "garbage_late": 0.2, "offline": 0.1}
        return cls(**{k: rate * v for k, v in share.items()}, seed=seed, **overrides)  # type: ignore[arg-type]

    @property
    def rate(self) -> float:
        """Probability that a request is faulty (delays excluded)."""
        return sum(getattr(self, k) for k in KINDS if k != "delay")


class FaultInjector:
    """Draws the fate of each request; thread-safe; counts every draw.

    Attributes:
        counts: {"requests": n, kind: n, ...}.
    """

    def __init__(self, config: FaultConfig | None = None) -> None:
        self.config = config or FaultConfig()
        self._rng = np.random.default_rng(self.config.seed)
        self._lock = threading.Lock()
        self._probs = np.array([getattr(self.config, k) for k in KINDS])
        self.counts = {"requests": 0, **{k: 0 for k in KINDS}}

    @property
    def enabled(self) -> bool:
        """Whether any fault can be drawn."""
        return bool(self._probs.sum() > 0)

    def draw(self) -> str | None:
        """The fate of the next request: a kind from `KINDS`, or None for a normal answer."""
        with self._lock:
            self.counts["requests"] += 1
            if not self.enabled:
                return None
            u = float(self._rng.random())
            edge = 0.0
            for kind, p in zip(KINDS, self._probs, strict=True):
                edge += p
                if u < edge:
                    self.counts[kind] += 1
                    return kind
            return None

    def garbage(self, n: int = 64) -> bytes:
        """`n` bytes of noise (never starting with OKAY or FAIL)."""
        with self._lock:
            data = self._rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        return b"\x00" + data[1:] if data[:4] in (b"OKAY", b"FAIL") else data

    @property
    def faults(self) -> int:
        """Faults drawn so far (delays excluded)."""
        return sum(v for k, v in self.counts.items() if k not in ("requests", "delay"))
