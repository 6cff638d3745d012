"""Tests of the Settings app's deeper pages: volumes, the screen timeout dialog, saved Bluetooth devices (connect,
disconnect, forget), App info's Force stop, Permissions and Storage & cache, back behaviour, XML, pixels, seeding,
the episode RNG and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, camera, playstore
from android_gym.sim.apps import settings as S
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with no perturbations, Settings open on its main list."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    phone.reset(seed, initial)
    phone.launch("Settings")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name} {phone.top.args}"
    return phone.tap(*element.center)


def walk(phone: SimPhone, *rows: str) -> None:
    """Tap the rows titled `rows` in turn."""
    for text in rows:
        press(phone, text=text, rid=S.ROW_TITLE_RID)


def mine(phone: SimPhone) -> dict:
    """Settings' state."""
    return phone.state()["apps"][S.PACKAGE]


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def test_volume_bars_set_their_own_volume_when_tapped():
    """Each bar of Sound & vibration sets its volume to the tapped tenth; the others stay; an edit is logged."""
    phone = make_phone(initial={S.PACKAGE: {"volumes": {"media": 50, "ring": 50}}})
    walk(phone, "Sound & vibration")
    before = mine(phone)["volumes"]
    bar = find(phone.elements(), desc="Ring volume", cls="android.widget.SeekBar")
    zone = next(e for e in phone.elements() if e.desc == "80%" and bar.bounds[1] <= e.center[1] < bar.bounds[3])
    assert phone.tap(*zone.center)
    after = mine(phone)["volumes"]
    assert after == {**before, "ring": 80} and bar.text == "50%"
    assert find(phone.elements(), desc="Ring volume", cls="android.widget.SeekBar").text == "80%"
    assert mine(phone)["edits"] == [{"op": "volume", "key": "ring", "value": 80}]
    assert not phone.tap(*zone.center)  # already there
    assert "Do Not Disturb" in labels(phone)  # still on the first screen below the five bars


def test_screen_timeout_dialog_picks_and_closes():
    """Display > Screen timeout opens a dialog of choices; a pick sets it and closes; BACK cancels."""
    phone = make_phone(initial={S.PACKAGE: {"screen_timeout": "30 seconds"}})
    walk(phone, "Display")
    assert "After 30 seconds of inactivity" in labels(phone)
    walk(phone, "Screen timeout")
    assert mine(phone)["page"] == "timeout" and find(phone.elements(), text="30 seconds").checked
    assert find(phone.elements(), text="Dark theme") is None  # the page under the dialog is covered: not listed
    phone.key("back")
    assert mine(phone)["page"] == "display" and mine(phone)["screen_timeout"] == "30 seconds"
    walk(phone, "Screen timeout")
    press(phone, text="5 minutes")
    assert mine(phone)["page"] == "display" and mine(phone)["screen_timeout"] == "5 minutes"
    assert "After 5 minutes of inactivity" in labels(phone)


def test_bluetooth_devices_connect_disconnect_and_forget():
    """Saved devices lists them; a device's page connects it (Bluetooth on), disconnects it, forgets it after the
    dialog (Cancel keeps it); BACK from the list returns to Connected devices."""  # noqa: D205, D209
    phone = make_phone(initial={"system": {"bluetooth": True}, S.PACKAGE: {"devices": ["Car Audio"],
                                                                          "connected": None}})
    walk(phone, "Connected devices")
    assert "Currently connected" not in labels(phone)
    walk(phone, "Saved devices", "Car Audio")
    assert mine(phone)["page"] == S.DEVICE and mine(phone)["device"] == "Car Audio"
    press(phone, text="Connect")
    assert mine(phone)["connected"] == "Car Audio" and find(phone.elements(), text="Disconnect") is not None
    press(phone, text="Disconnect")
    assert mine(phone)["connected"] is None
    press(phone, text="Forget")
    assert mine(phone)["page"] == "forget" and "Forget device?" in labels(phone)
    press(phone, text="Cancel")
    assert mine(phone)["page"] == S.DEVICE
    press(phone, text="Forget")
    press(phone, text="Forget device")
    assert mine(phone)["page"] == S.SAVED_DEVICES and "Car Audio" not in labels(phone)
    assert "Car Audio" not in [d["name"] for d in mine(phone)["devices"]]
    assert [e["op"] for e in mine(phone)["edits"]] == ["connect", "disconnect", "forget"]
    phone.key("back")
    assert mine(phone)["page"] == "connected"


def test_a_connected_device_shows_only_while_bluetooth_is_on():
    """The connected device heads Connected devices; with Bluetooth off it is not connected and Connect is disabled."""
    phone = make_phone(initial={"system": {"bluetooth": True}, S.PACKAGE: {"devices": ["JBL Flip 5"],
                                                                          "connected": "JBL Flip 5"}})
    walk(phone, "Connected devices")
    assert "Currently connected" in labels(phone) and mine(phone)["connected"] == "JBL Flip 5"
    phone.system["bluetooth"] = False
    phone.key("back")
    walk(phone, "Connected devices")
    assert "Currently connected" not in labels(phone) and mine(phone)["connected"] is None
    walk(phone, "Saved devices", "JBL Flip 5")
    assert not find(phone.elements(), text="Connect").enabled


def _app_info(phone: SimPhone, app: str) -> None:
    walk(phone, "Apps", "See all apps")
    for _ in range(4):
        if find(phone.elements(), text=app, rid=S.ROW_TITLE_RID) is not None:
            break
        phone.swipe(540, 1700, 540, 860)
    walk(phone, app)


def test_force_stop_asks_then_disables_the_button():
    """Force stop opens "Force stop?"; OK stops the app and greys the button out."""
    phone = make_phone()
    _app_info(phone, "Chrome")
    press(phone, text="Force stop")
    assert mine(phone)["page"] == "force_stop" and "If you force stop an app, it may misbehave." in labels(phone)
    press(phone, text="OK")
    assert mine(phone)["page"] == S.APP_INFO and mine(phone)["apps"]["Chrome"]["stopped"]
    assert not find(phone.elements(), text="Force stop").enabled
    assert mine(phone)["edits"] == [{"op": "force_stop", "app": "Chrome"}]


def test_permissions_page_sorts_and_sets_each_permission():
    """Permissions lists the app's permissions under Allowed / Ask every time / Not allowed; one opens three radio
    buttons whose pick moves it; the camera permission of Camera is the Camera app's own."""  # noqa: D205, D209
    phone = make_phone(initial={S.PACKAGE: {"permissions": {"Camera": {"Microphone": "Allow", "Location": "Allow"}}},
                                camera.PACKAGE: {"permission": "denied"}})
    _app_info(phone, "Camera")
    walk(phone, "Permissions")
    shown = [e.text for e in phone.elements() if e.rid == S.ROW_TITLE_RID or e.text.lower().endswith("allowed")]
    assert shown.index("Allowed") < shown.index("Microphone") and shown.index("Not allowed") < shown.index("Camera")
    walk(phone, "Camera")
    assert mine(phone)["page"] == S.PERMISSION and find(phone.elements(), text="Don't allow").checked
    press(phone, text="Allow")
    assert phone.state()["apps"][camera.PACKAGE]["permission"] == "granted"
    assert mine(phone)["apps"]["Camera"]["permissions"]["Camera"] == "Allow"
    phone.key("back")
    walk(phone, "Microphone")
    press(phone, text="Ask every time")
    assert mine(phone)["apps"]["Camera"]["permissions"]["Microphone"] == "Ask every time"
    assert [e["perm"] for e in mine(phone)["edits"]] == ["Camera", "Microphone"]


def test_storage_page_clears_cache_at_once_and_storage_after_asking():
    """Clear cache empties the cache; Clear storage asks "Delete app data?" and then empties data too."""
    phone = make_phone(initial={S.PACKAGE: {"storage": {"Maps": {"app": 100, "data": 40, "cache": 12}}}})
    _app_info(phone, "Maps")
    assert "152 MB used in internal storage" in labels(phone)
    walk(phone, "Storage & cache")
    assert "152 MB" in labels(phone) and "12 MB" in labels(phone)
    press(phone, text="Clear cache")
    assert mine(phone)["apps"]["Maps"]["storage"] == {"app": 100, "data": 40, "cache": 0}
    assert not find(phone.elements(), text="Clear cache").enabled and "0 B" in labels(phone)
    press(phone, text="Clear storage")
    assert "Delete app data?" in labels(phone)
    press(phone, text="Delete")
    assert mine(phone)["apps"]["Maps"]["storage"] == {"app": 100, "data": 0, "cache": 0}
    assert [e["op"] for e in mine(phone)["edits"]] == ["clear_cache", "clear_storage"]


def test_store_apps_get_app_info_data_once_installed():
    """An app installed from the Play Store has permissions and sizes; it cannot be opened from App info."""
    phone = make_phone(initial={playstore.PACKAGE: {"installed": ["Instagram"]},
                                S.PACKAGE: {"permissions": {"Instagram": {"Camera": "Allow"}}}})
    assert mine(phone)["apps"]["Instagram"]["permissions"]["Camera"] == "Allow"
    _app_info(phone, "Instagram")
    assert not find(phone.elements(), text="Open").enabled
    assert "Instagram" not in make_phone().state()["apps"][S.PACKAGE]["apps"]


def test_xml_lists_what_the_page_shows():
    """The dump parses and holds the page's rows, buttons and the header's resource-id."""
    phone = make_phone(initial={S.PACKAGE: {"storage": {"Clock": {"app": 20, "data": 3, "cache": 1}}}})
    _app_info(phone, "Clock")
    walk(phone, "Storage & cache")
    parsed = parse_uiautomator_xml(phone.xml())
    texts = {e.text for e in parsed}
    assert {"Storage & cache", "Clock", "Clear storage", "Clear cache", "Total", "24 MB"} <= texts
    assert find(parsed, rid=S.HEADER_RID).text == "Clock"
    assert find(parsed, desc="Navigate up") is not None


def test_pixels_are_drawn_where_the_views_are():
    """A volume bar and a device's buttons are drawn (not blank); the Forget dialog dims the page."""
    device = SimDevice("none")
    device.reset(0, {S.PACKAGE: {"devices": ["Car Audio"]}})
    device.phone.launch("Settings")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    device.phone.tap(*find(device.ui_elements(), text="Sound & vibration").center)
    assert region(find(device.ui_elements(), desc="Media volume", cls="android.widget.SeekBar").bounds).std() > 20
    device.phone.key("back")
    for text in ("Connected devices", "Saved devices", "Car Audio"):
        device.phone.tap(*find(device.ui_elements(), text=text, rid=S.ROW_TITLE_RID).center)
    forget = find(device.ui_elements(), text="Forget").bounds
    assert region(forget).std() > 20
    header = find(device.ui_elements(), rid=S.HEADER_RID).bounds
    before = region(header).mean()
    device.phone.tap(*find(device.ui_elements(), text="Forget").center)
    assert region(header).mean() < before - 20


def test_seeded_data_is_stable_per_seed_and_varies_across_seeds():
    """Volumes, timeout, devices and app data are the same for a seed and differ across seeds."""
    def seeded(seed: int) -> dict:
        s = SimPhone(PerturbationConfig.preset("none"))
        s.reset(seed)
        st = s.state()["apps"][S.PACKAGE]
        return {k: st[k] for k in ("volumes", "screen_timeout", "devices", "apps")}

    assert seeded(5) == seeded(5)
    drawn = [seeded(seed) for seed in range(6)]
    for key in ("volumes", "devices", "apps"):
        assert len({repr(d[key]) for d in drawn}) > 3, key
    assert len({d["screen_timeout"] for d in drawn}) > 1


def test_the_app_leaves_the_episode_rng_alone():
    """Using the new pages draws no episode randomness: the generator matches an untouched phone's."""
    used, plain = make_phone(9, {S.PACKAGE: {"devices": ["Car Audio"], "connected": "*"}}), SimPhone(
        PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    walk(used, "Sound & vibration")
    used.key("back")
    walk(used, "Connected devices", "Saved devices", "Car Audio")
    for _ in range(3):
        used.key("back")
    _app_info(used, "Maps")
    walk(used, "Permissions")
    used.state()
    assert used.rng.bit_generator.state == plain.rng.bit_generator.state
    assert used.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial", [{"volume": 3}, {"volumes": {"bass": 30}}, {"volumes": {"media": 35}},
                                     {"screen_timeout": "1 hour"}, {"connected": "Nobody's Buds"},
                                     {"permissions": {"Clock": {"Camera": "Allow"}}},
                                     {"permissions": {"Camera": {"Camera": "Always"}}},
                                     {"storage": {"Maps": {"photos": 3}}}, {"storage": {"Maps": {"cache": -1}}}])
def test_apply_refuses_unknown_keys_and_bad_values(initial: dict):
    """Unknown keys, volumes off the scale, unknown timeouts, devices, permissions, states and sizes."""
    with pytest.raises(ConfigError):
        make_phone(initial={S.PACKAGE: initial})
