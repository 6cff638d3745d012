"""In-the-wild perturbations of the simulated phone: pop-up dialogs, slow loads, ignored taps, layout variants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError, unknown_name


class PerturbationConfig(ConfigModel):
    """How wild the simulated phone is; every field is independently switchable.

    Attributes:
        dialog_prob: chance per agent step that a pop-up (cookie banner, permission prompt, sign-in nag,
            rate-this-app) covers the screen; it must be dismissed before anything else responds.
        slow_load_prob: chance that a page navigation (browser, stores, video search) shows a spinner first.
        slow_load_steps: the spinner lasts a uniformly drawn number of agent steps in this closed range.
        ignored_tap_prob: chance that a tap is dropped (the screen does not respond), as flaky emulators do.
        sponsored: whether shopping and search result lists carry sponsored entries at seeded positions.
        layout_variants: whether sites pick one of several layouts (seeded per site and episode).
    """

    dialog_prob: float = Field(default=0.04, ge=0, le=1)
    slow_load_prob: float = Field(default=0.15, ge=0, le=1)
    slow_load_steps: tuple[int, int] = (1, 2)
    ignored_tap_prob: float = Field(default=0.02, ge=0, le=1)
    sponsored: bool = True
    layout_variants: bool = True

    @model_validator(mode="after")
    def _check_range(self) -> PerturbationConfig:
        lo, hi = self.slow_load_steps
        if not 0 <= lo <= hi:
            raise FieldError("slow_load_steps", "(low, high) with 0 <= low <= high", self.slow_load_steps)
        return self

    @classmethod
    def preset(cls, name: str) -> PerturbationConfig:
        """One of the named levels: "none", "default", "hard"."""
        if name not in PRESETS:
            raise unknown_name("perturbation level", name, list(PRESETS))
        return PRESETS[name]

    @classmethod
    def coerce(cls, value: str | Mapping | PerturbationConfig | None) -> PerturbationConfig:
        """Accept a preset name, a dict of fields, a config, or None (the default level).

        Raises:
            UnknownNameError: an unknown level (with the closest one).
            ConfigError: an unknown field, a bad value, or a value of another type.
        """
        if value is None:
            return PRESETS["default"]
        if isinstance(value, PerturbationConfig):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, Mapping):
            return cls.from_data(value, where="perturbations")
        raise ConfigError(f"`perturbations` must be a level name, a dict or a PerturbationConfig, got {value!r}")

    def slow_load(self, rng: np.random.Generator) -> int:
        """Steps of spinner for a navigation that just happened (0 for an instant load)."""
        if self.slow_load_prob > 0 and rng.random() < self.slow_load_prob:
            lo, hi = self.slow_load_steps
            return int(rng.integers(lo, hi + 1))
        return 0


PRESETS: dict[str, PerturbationConfig] = {
    "none": PerturbationConfig(dialog_prob=0.0, slow_load_prob=0.0, slow_load_steps=(0, 0), ignored_tap_prob=0.0,
                               sponsored=False, layout_variants=False),
    "default": PerturbationConfig(),
    "hard": PerturbationConfig(dialog_prob=0.12, slow_load_prob=0.35, slow_load_steps=(1, 3), ignored_tap_prob=0.06),
}


@dataclass(frozen=True)
class Dialog:
    """A modal pop-up. `buttons` are (label, is_dismissive); any button closes it."""

    kind: str
    title: str
    message: str
    buttons: tuple[tuple[str, bool], ...]
    package: str


def draw_dialog(rng: np.random.Generator, foreground: str, app_label: str, is_browser: bool) -> Dialog:
    """A random pop-up suited to the foreground app (cookie banners only appear on web pages)."""
    kinds = ["permission", "signin", "rate"] + (["cookies", "cookies"] if is_browser else [])
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "cookies":
        return Dialog(kind, "We value your privacy",
                      "We use cookies to personalise content and ads and to analyse our traffic.",
                      (("Accept all", True), ("Reject all", True)), foreground)
    if kind == "permission":
        return Dialog(kind, f"Allow {app_label} to send you notifications?", "",
                      (("Allow", False), ("Don\u2019t allow", True)), "com.google.android.permissioncontroller")
    if kind == "signin":
        return Dialog(kind, f"Sign in to {app_label}", "Sign in to sync your history and get recommendations.",
                      (("Sign in", False), ("No thanks", True)), foreground)
    return Dialog(kind, f"Enjoying {app_label}?", "Tap a star to rate it on Google Play.",
                  (("Rate now", False), ("Not now", True)), foreground)
