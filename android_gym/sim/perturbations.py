"""In-the-wild perturbations of the simulated phone: pop-up dialogs, slow loads, ignored taps, layout variants."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from android_gym.errors import ConfigError, unknown_name


@dataclass(frozen=True)
class PerturbationConfig:
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

    dialog_prob: float = 0.04
    slow_load_prob: float = 0.15
    slow_load_steps: tuple[int, int] = (1, 2)
    ignored_tap_prob: float = 0.02
    sponsored: bool = True
    layout_variants: bool = True

    def __post_init__(self) -> None:
        for name in ("dialog_prob", "slow_load_prob", "ignored_tap_prob"):
            p = getattr(self, name)
            if not 0.0 <= p <= 1.0:
                raise ConfigError(f"`{name}` must be a probability in [0, 1], got {p}")
        lo, hi = self.slow_load_steps
        if not 0 <= lo <= hi:
            raise ConfigError("`slow_load_steps` must be (low, high) with 0 <= low <= high, "
                              f"got {self.slow_load_steps}")

    @classmethod
    def preset(cls, name: str) -> PerturbationConfig:
        """One of the named levels: "none", "default", "hard"."""
        if name not in PRESETS:
            raise unknown_name("perturbation level", name, list(PRESETS))
        return PRESETS[name]

    @classmethod
    def coerce(cls, value: str | dict | PerturbationConfig | None) -> PerturbationConfig:
        """Accept a preset name, a dict of fields, a config, or None (the default level)."""
        if value is None:
            return PRESETS["default"]
        if isinstance(value, PerturbationConfig):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, dict):
            known = {f.name for f in fields(cls)}
            bad = set(value) - known
            if bad:
                raise ConfigError(f"`perturbations` has unknown keys {sorted(bad)}; known: {sorted(known)}")
            return cls(**value)
        raise ConfigError(f"`perturbations` must be a level name, a dict or a PerturbationConfig, got {value!r}")

    def slow_load(self, rng: np.random.Generator) -> int:
        """Steps of spinner for a navigation that just happened (0 for an instant load)."""
        if self.slow_load_prob > 0 and rng.random() < self.slow_load_prob:
            lo, hi = self.slow_load_steps
            return int(rng.integers(lo, hi + 1))
        return 0


PRESETS: dict[str, PerturbationConfig] = {
    "none": PerturbationConfig(0.0, 0.0, (0, 0), 0.0, sponsored=False, layout_variants=False),
    "default": PerturbationConfig(),
    "hard": PerturbationConfig(0.12, 0.35, (1, 3), 0.06),
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
