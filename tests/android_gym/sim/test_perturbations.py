"""Tests of the in-the-wild perturbations: pop-ups, slow loads, ignored taps, presets, and the latency model."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.latency import LatencyConfig
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone


def test_popups_appear_cover_the_screen_and_dismiss():
    """With dialog_prob 1, a pop-up appears after a step in an app, covers it, swallows taps,; its button dismisses it.

    Covered: the app's views are no longer listed, as a real dump leaves out the windows under a modal one.
    """
    phone = SimPhone(PerturbationConfig(dialog_prob=1.0, slow_load_prob=0.0, ignored_tap_prob=0.0))
    phone.reset(0)
    phone.launch("Gmail")
    rid = "com.google.android.gm:id/viewified_conversation_item_view"
    row = next(e for e in phone.elements() if e.rid == rid)
    phone.tick()
    assert phone.dialog is not None and phone.state()["dialog"] == phone.dialog.kind
    assert all(e.rid != rid for e in phone.elements()) and all(e.package != "com.android.systemui"
                                                               for e in phone.elements())
    assert not phone.tap(*row.center)  # the modal swallows it
    button = next(e for e in phone.elements() if e.rid == "android:id/button1")
    assert phone.tap(*button.center) and phone.dialog is None


def test_popups_never_appear_on_the_home_screen():
    """Pop-ups belong to apps: the launcher never shows one."""
    phone = SimPhone(PerturbationConfig(dialog_prob=1.0))
    phone.reset(0)
    for _ in range(10):
        phone.tick()
    assert phone.dialog is None


def test_back_dismisses_a_popup():
    """BACK closes a pop-up before anything else."""
    phone = SimPhone(PerturbationConfig(dialog_prob=1.0))
    phone.reset(0)
    phone.launch("Clock")
    phone.tick()
    assert phone.key("back") and phone.dialog is None and phone.foreground == "com.google.android.deskclock"


def test_slow_load_shows_spinner_for_drawn_steps_then_content():
    """A slow navigation shows a spinner for 1..k steps during which content taps do nothing."""
    phone = SimPhone(PerturbationConfig(dialog_prob=0.0, slow_load_prob=1.0, slow_load_steps=(2, 2)))
    phone.reset(0)
    phone.find_app("Chrome").search_intent()
    phone.type_text("weather in paris")
    phone.key("enter")
    assert phone.top.loading == 2 and any(e.desc == "Loading" for e in phone.elements())
    phone.tick()
    phone.tick()
    assert phone.top.loading == 0 and not any(e.desc == "Loading" for e in phone.elements())


def test_ignored_taps_drop_about_the_configured_fraction():
    """With ignored_tap_prob p, about a fraction p of effective taps do nothing."""
    phone = SimPhone(PerturbationConfig(dialog_prob=0.0, slow_load_prob=0.0, ignored_tap_prob=0.3))
    phone.reset(0)
    dropped = 0
    for _ in range(300):
        icon = next(e for e in phone.elements() if e.label == "Settings")
        if phone.tap(*icon.center):
            phone.key("home")
        else:
            dropped += 1
    assert 0.2 < dropped / 300 < 0.4


@pytest.mark.parametrize("bad", [{"dialog_prob": 1.5}, {"ignored_tap_prob": -0.1}, {"slow_load_steps": (3, 1)}])
def test_bad_perturbation_values_raise(bad):
    """Probabilities outside [0, 1] and inverted ranges are refused with the field's name."""
    with pytest.raises(ConfigError, match=next(iter(bad))):
        PerturbationConfig(**bad)


def test_presets_and_coercion():
    """Levels by name, dicts of fields, and unknown names with a suggestion."""
    assert PerturbationConfig.coerce("none").dialog_prob == 0.0
    assert PerturbationConfig.coerce({"dialog_prob": 0.5}).dialog_prob == 0.5
    assert PerturbationConfig.coerce(None) == PerturbationConfig.preset("default")
    with pytest.raises(UnknownNameError, match="hard"):
        PerturbationConfig.coerce("hrd")
    with pytest.raises(ConfigError):
        PerturbationConfig.coerce({"warp": 1})


def test_latency_preset_is_heavy_tailed_with_the_documented_mean():
    """The emulator preset's draws match its lognormal mean and have a tail well above the median."""
    latency = LatencyConfig.coerce("emulator")
    rng = np.random.default_rng(0)
    draws = np.array([latency.step_s(rng) for _ in range(20_000)])
    assert abs(draws.mean() / latency.mean_step_s - 1) < 0.05
    assert np.quantile(draws, 0.99) > 4 * np.median(draws)
    assert LatencyConfig.coerce("emulator", time_scale=0.01).mean_step_s == pytest.approx(latency.mean_step_s / 100)
    assert LatencyConfig.coerce("off").is_off


def test_sim_device_sleeps_latency_without_changing_what_it_shows():
    """Latency only adds sleeps: the same seed gives the same screens with or without it."""
    slept: list[float] = []
    slow = SimDevice("default", "emulator", sleep=slept.append)
    fast = SimDevice("default", "off")
    for device in (slow, fast):
        device.reset(5)
        device.tick()
    assert slow.ui_xml() == fast.ui_xml()
    assert len(slept) == 2 and all(s > 0 for s in slept)
