"""Tests of the simulated phone's core: view tree, XML, hit-testing, keyboard, back stack, scrolling, launcher."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.device_dump import to_xml
from android_gym.sim.keyboard import keyboard_view
from android_gym.sim.layout import HEIGHT, WIDTH
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone, plain_copy
from android_gym.sim.view import View
from android_gym.ui import parse_uiautomator_xml


@pytest.fixture
def phone() -> SimPhone:
    """A reset phone without perturbations."""
    p = SimPhone(PerturbationConfig.preset("none"))
    p.reset(0)
    return p


def tap_label(phone: SimPhone, label: str) -> bool:
    """Tap the first element whose label is `label`."""
    element = next(e for e in phone.elements() if e.label == label)
    return phone.tap(*element.center)


def test_home_screen_lists_favourites_hotseat_and_search(phone):
    """The launcher shows its search bar and app icons with real package names."""
    labels = {e.label for e in phone.elements()}
    assert {"Search", "Chrome", "Settings", "Clock", "YouTube", "Play Store"} <= labels
    assert phone.foreground == "com.google.android.apps.nexuslauncher"


def test_xml_is_uiautomator_shaped_and_parses_back_to_the_same_elements(phone):
    """`xml()` has the uiautomator dump's shape and attributes, and parses to the phone's own elements."""
    xml = phone.xml()
    root = ET.fromstring(xml.encode())
    assert root.tag == "hierarchy" and root.attrib["rotation"] == "0"
    node = root.find("node")
    for attribute in ("index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
                      "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
                      "selected", "bounds"):
        assert attribute in node.attrib
    assert [(e.label, e.bounds) for e in parse_uiautomator_xml(xml)] == [(e.label, e.bounds) for e in phone.elements()]


def test_xml_escapes_quotes_newlines_and_non_bmp_characters():
    """Attribute values are escaped like Android's serializer (entities, numeric references for emoji)."""
    xml = to_xml([View("android.widget.TextView", (0, 0, 5, 5), text='say "hi"\nnow \U0001F600 & <b>')])
    assert "&quot;hi&quot;" in xml and "&#10;" in xml and "&#128512;" in xml and "&amp;" in xml and "&lt;b&gt;" in xml
    assert ET.fromstring(xml.encode()).find("node").attrib["text"] == 'say "hi"\nnow \U0001F600 & <b>'


def test_hit_prefers_the_topmost_deepest_clickable_view():
    """A clickable child wins over its clickable parent; later siblings are on top."""
    child = View("c", (10, 10, 20, 20), clickable=True)
    top = View("t", (0, 0, 30, 30), clickable=True)
    root = View("r", (0, 0, 100, 100), children=[View("p", (0, 0, 50, 50), clickable=True, children=[child]), top])
    assert root.hit(15, 15) is top
    root.children.pop()
    assert root.hit(15, 15) is child and root.hit(40, 40).cls == "p" and root.hit(80, 80) is None


def test_tapping_an_icon_opens_the_app_and_back_returns_home(phone):
    """App icons launch apps; BACK pops the back stack; BACK on the home screen has no effect."""
    assert tap_label(phone, "Settings")
    assert phone.foreground == "com.android.settings"
    assert phone.key("back") and phone.foreground == "com.google.android.apps.nexuslauncher"
    assert not phone.key("back")


def test_home_key_returns_to_launcher_from_deep_in_an_app(phone):
    """HOME clears the back stack to the launcher's home screen."""
    phone.launch("Chrome")
    assert phone.key("home") and len(phone.stack) == 1 and not phone.key("home")


def test_swipe_up_opens_drawer_and_drawer_search_filters_and_launches(phone):
    """The drawer lists every app; typing filters it; ENTER opens the first match."""
    assert phone.swipe(540, 1500, 540, 500) and phone.top.name == "drawer"
    assert {"Gmail", "Maps", "Files"} <= {e.label for e in phone.elements()}
    assert tap_label(phone, "Search apps") and phone.keyboard_up
    assert phone.type_text("gma")
    labels = {e.label for e in phone.elements() if e.package == "com.google.android.apps.nexuslauncher"}
    assert "Gmail" in labels and "Maps" not in labels
    assert phone.key("enter") and phone.foreground == "com.google.android.gm"


def test_keyboard_appears_on_focus_types_deletes_and_back_hides_it(phone):
    """A focused field brings up the keyboard; key taps type and delete; BACK hides the keyboard first."""
    phone.swipe(540, 1500, 540, 500)
    tap_label(phone, "Search apps")
    assert any(e.package == "com.google.android.inputmethod.latin" for e in phone.elements())
    for key in ("m", "a", "p"):
        assert tap_label(phone, key)
    assert tap_label(phone, "Delete")
    assert phone.top.fields["com.google.android.apps.nexuslauncher:id/search_box_input"] == "ma"
    assert phone.key("back") and not phone.keyboard_up and phone.top.name == "drawer"


def test_keyboard_keys_do_not_overlap():
    """Every key of the soft keyboard has its own area (no key hides another)."""
    keys = keyboard_view().children
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            ax0, ay0, ax1, ay1 = a.bounds
            bx0, by0, bx1, by1 = b.bounds
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a.desc, b.desc)


def test_typing_without_focus_and_enter_without_focus_do_nothing(phone):
    """TYPE and ENTER need a focused field."""
    assert not phone.type_text("hello") and not phone.key("enter")


def test_swipe_scrolls_lists_within_their_content(phone):
    """A vertical swipe scrolls the list under the finger, and stops at the list's end."""
    phone.launch("Gmail")
    first = [e.label for e in phone.elements()]
    assert phone.swipe(540, 1800, 540, 900) and phone.top.scroll > 0
    assert [e.label for e in phone.elements()] != first
    for _ in range(20):
        phone.swipe(540, 1800, 540, 900)
    assert not phone.swipe(540, 1800, 540, 900)  # at the end: nothing moves


def test_out_of_screen_points_raise_config_error(phone):
    """Device-pixel points outside the panel are a caller error."""
    with pytest.raises(ConfigError):
        phone.tap(WIDTH, 10)
    with pytest.raises(ConfigError):
        phone.swipe(0, 0, 10, HEIGHT + 1)


def test_launch_by_label_alias_or_package_and_unknown_app_suggests(phone):
    """Apps open by label, alias or package; an unknown name suggests the closest."""
    for name in ("YouTube", "browser", "com.android.settings"):
        assert phone.launch(name)
    with pytest.raises(UnknownNameError, match="did you mean"):
        phone.launch("Gmial")


def test_initial_state_sets_system_settings_and_rejects_unknown_keys(phone):
    """`reset(initial=...)` applies system settings and refuses unknown targets and keys."""
    phone.reset(1, {"system": {"wifi": False}})
    assert phone.state()["system"]["wifi"] is False
    with pytest.raises(ConfigError):
        phone.reset(1, {"system": {"warp_drive": True}})
    with pytest.raises(ConfigError):
        phone.reset(1, {"com.example.none": {}})


def test_state_is_a_copy_the_caller_cannot_use_to_change_the_phone(phone):
    """Mutating a returned state does not change the phone."""
    state = phone.state()
    state["system"]["wifi"] = "broken"
    phone.launch("Clock")
    assert phone.state()["system"]["wifi"] is True


def built_now(phone: SimPhone) -> dict:
    """Every app's state built at once, bypassing `SimPhone.state()`'s lazy mapping: the reference it must match."""
    return {package: app.state() for package, app in phone.apps.items()}


def test_a_state_read_before_an_input_still_describes_the_phone_before_it(phone):
    """Apps' parts of `state()` are built when first read, yet a state a caller holds across inputs (an intent that
    changes an app, taps, a tick, a factory reset) reads as it would have read when it was taken; pickles and copies of
    it are plain dicts."""  # noqa: D205, D209
    import copy
    import json
    import pickle

    from android_gym.sim.app import ACTION_CALL, SMS_DELIVER, Intent

    sms = Intent(SMS_DELIVER, extras=(("number", "+15550100"), ("text", "held across the intent")))
    changes = [lambda: phone.send_intent(sms), lambda: phone.send_intent(Intent(ACTION_CALL, "tel:5550100")),
               phone.tick, lambda: tap_label(phone, "End call"),
               lambda: phone.clear_data("com.google.android.apps.messaging"), lambda: phone.reset(7)]
    for change in changes:
        expected, held = built_now(phone), phone.state()
        assert held["apps"]["com.android.settings"] == expected["com.android.settings"]  # one read before, the rest not
        change()
        assert dict(held["apps"]) == expected, change
    assert dict(phone.state()["apps"]) == built_now(phone)
    apps = phone.state()["apps"]
    for plain in (pickle.loads(pickle.dumps(apps)), copy.deepcopy(apps), plain_copy(apps)):
        assert type(plain) is dict and plain == dict(apps)
    assert json.loads(json.dumps(plain_copy(phone.state())))["apps"] == json.loads(json.dumps(dict(apps)))
    with pytest.raises(KeyError):
        apps["com.example.none"]


def test_same_seed_and_inputs_give_same_screens():
    """Determinism with perturbations on: same seed and inputs, same XML at every step."""
    phones = [SimPhone(PerturbationConfig.preset("hard")) for _ in range(2)]
    for p in phones:
        p.reset(42)
    for step in range(30):
        assert phones[0].xml() == phones[1].xml()
        for p in phones:
            p.tap(540, 600 + 40 * (step % 20))
            p.tick()
