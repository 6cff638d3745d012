"""The notification shade: pulled from the status bar over anything, its tiles, notifications and ways out."""

from __future__ import annotations

import adbutils
import pytest

from android_gym.sim import phone as phone_module
from android_gym.sim.adb import AdbFront
from android_gym.sim.layout import HEIGHT, NAV_BAR_H, STATUS_BAR_H, WIDTH
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.shade import PULL_PX, SYSTEM_UI
from android_gym.ui import parse_uiautomator_xml

LAUNCHER = "com.google.android.apps.nexuslauncher"


@pytest.fixture
def phone() -> SimPhone:
    """A phone without perturbations, reset with seed 3."""
    p = SimPhone(PerturbationConfig.preset("none"))
    p.reset(3)
    return p


def pull(phone: SimPhone, travel: float = 1200) -> bool:
    """A swipe from the status bar down by `travel` pixels."""
    return phone.swipe(WIDTH / 2, STATUS_BAR_H / 2, WIDTH / 2, STATUS_BAR_H / 2 + travel)


def tap_view(phone: SimPhone, **match: str) -> bool:
    """Tap the centre of the first view whose attributes equal `match`."""
    view = phone.tree().find(lambda v: all(getattr(v, k) == x for k, x in match.items()))
    assert view is not None, match
    x0, y0, x1, y1 = view.bounds
    return phone.tap((x0 + x1) / 2, (y0 + y1) / 2)


def test_a_pull_from_the_status_bar_opens_the_shade_and_nothing_else_does(phone):
    """Only a long enough vertical pull that starts on the status bar opens it; the app underneath stays as it was."""
    phone.launch("Settings")
    assert not pull(phone, PULL_PX - 10) and not phone.shade_open  # springs back
    phone.swipe(WIDTH / 2, STATUS_BAR_H + 40, WIDTH / 2, 1500)  # below the bar: the list's scroll, if any
    assert not phone.shade_open
    assert pull(phone) and phone.shade_open
    state = phone.state()
    assert state["shade"]["open"] and state["foreground"] == "com.android.settings"
    assert not pull(phone)  # already open


def test_notifications_are_seeded_and_leave_the_episode_rng_alone(monkeypatch):
    """Same seed, same notifications (3 to 6, from installed apps); the episode's RNG is not drawn from, so every
    pop-up and spinner of an episode is what it was before the shade existed."""  # noqa: D205, D209
    a, b, c, bare = (SimPhone(PerturbationConfig.preset("none")) for _ in range(4))
    a.reset(11)
    b.reset(11)
    c.reset(12)
    assert a.notifications == b.notifications and 3 <= len(a.notifications) <= 6
    assert {n.package for n in a.notifications + c.notifications} <= set(a.apps)
    assert a.notifications != c.notifications
    monkeypatch.setattr(phone_module, "draw_notifications", lambda seed, installed: [])
    bare.reset(11)
    assert bare.notifications == [] and a.rng.random() == bare.rng.random()


def test_tiles_switch_system_settings_and_show_their_state(phone):
    """A tile flips its setting (the status bar follows); its checked state is what the setting says."""
    pull(phone)
    assert tap_view(phone, text="Bluetooth")
    assert phone.system["bluetooth"] and phone.shade_open
    tile = phone.tree().find(lambda v: v.text == "Bluetooth")
    assert tile.checked and tile.desc == "Bluetooth, on"
    phone.close_shade()
    assert phone.tree().find(lambda v: v.desc == "Bluetooth on.") is not None
    pull(phone)
    assert tap_view(phone, text="Internet") and not phone.system["wifi"]


def test_a_notification_opens_its_app_and_is_dismissed(phone):
    """Tapping a notification launches its app, closes the shade and removes that notification only."""
    first, *rest = phone.notifications
    pull(phone)
    assert tap_view(phone, desc=f"{first.app} notification: {first.title}")
    assert not phone.shade_open and phone.foreground == first.package
    assert phone.notifications == rest


def test_clear_all_empties_the_shade(phone):
    """"Clear all" dismisses every notification and puts the shade away; reopened, it says so."""
    pull(phone)
    assert tap_view(phone, text="Clear all")
    assert phone.notifications == [] and not phone.shade_open
    pull(phone)
    assert phone.tree().find(lambda v: v.text == "No notifications") is not None
    assert phone.tree().find(lambda v: v.text == "Clear all") is None


@pytest.mark.parametrize("way_out", ["scrim", "swipe up", "back", "home", "nav back"])
def test_every_way_out_closes_the_shade(phone, way_out):
    """Below the panel, a swipe up, Back (key or button) and Home close it; Home also goes home."""
    phone.launch("Chrome")
    pull(phone)
    match way_out:
        case "scrim":
            assert phone.tap(WIDTH / 2, HEIGHT - NAV_BAR_H - 50)
        case "swipe up":
            assert phone.swipe(WIDTH / 2, 1500, WIDTH / 2, 300)
        case "back":
            assert phone.key("back")
        case "home":
            assert phone.key("home")
        case "nav back":
            assert tap_view(phone, desc="Back")
    assert not phone.shade_open
    assert phone.foreground == (LAUNCHER if way_out == "home" else "com.android.chrome")


def test_the_shade_covers_a_pop_up_and_holds_back_new_ones_and_typing():
    """Over a pop-up, the shade takes the touches; while it is open no pop-up appears and nothing can be typed."""
    p = SimPhone(PerturbationConfig(dialog_prob=1.0, slow_load_prob=0.0))
    p.reset(0)
    p.launch("Chrome")
    p.tick()
    assert p.dialog is not None
    pull(p)
    assert p.shade_open and p.dialog is not None
    p.key("back")  # the shade first
    assert not p.shade_open and p.dialog is not None
    p.key("back")  # then the pop-up
    pull(p)
    p.tick()
    assert p.dialog is None and p.shade_open
    p.close_shade()
    field = p.tree().find(lambda v: v.cls == "android.widget.EditText")
    assert field is not None
    x0, y0, x1, y1 = field.bounds
    p.tap((x0 + x1) / 2, (y0 + y1) / 2)
    assert p.keyboard_up
    pull(p)
    assert not p.keyboard_up and not p.type_text("hello") and not p.key("enter")


def test_the_shade_in_uiautomator_xml(phone):
    """The dump lists the shade's views under the System UI package: tiles as checkable, notifications clickable."""
    pull(phone)
    elements = parse_uiautomator_xml(phone.xml())
    shade = [e for e in elements if e.package == SYSTEM_UI]
    assert any(e.text == "Clear all" and e.clickable for e in shade)
    assert any(e.text == "Do Not Disturb" and e.checkable and not e.checked for e in shade)
    rows = [e.desc for e in shade if " notification: " in e.desc and e.clickable]
    assert rows == [f"{n.app} notification: {n.title}" for n in phone.notifications]


def test_the_shade_over_adb(monkeypatch, tmp_path):
    """Through the ADB front: `input swipe` from the status bar and Android's `cmd statusbar` open and close it."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.setenv("HOME", str(tmp_path))
    with AdbFront(devices=1, perturbations="none") as front:
        device = adbutils.AdbClient(port=front.port, socket_timeout=5).device("sim-0")
        phone = front.target("sim-0").phone
        device.shell(f"input swipe 540 20 540 {20 + PULL_PX + 200}")
        assert phone.shade_open
        device.shell("cmd statusbar collapse")
        assert not phone.shade_open
        device.shell("cmd statusbar expand-notifications")
        assert phone.shade_open
        assert "usage: cmd statusbar" in device.shell("cmd statusbar explode")
