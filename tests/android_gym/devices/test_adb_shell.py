"""Tests of the Android shell helpers: parsers on real captured outputs, text quoting, raw screenshots, app names."""

from __future__ import annotations

import shlex

import numpy as np
import pytest

from android_gym.devices import adb_shell as sh
from android_gym.errors import DeviceProtocolError
from android_gym.sim.adb.commands import android_input_text
from android_gym.ui import parse_uiautomator_xml

NASTY = ["it's \"quoted\"", "a; reboot", "x && rm -rf /", "$(id) `id` ${HOME} $HOME", "50%s off", "100% sure %",
         "back\\slash", "semi;colon|pipe&amp>redir<in", "#comment", "~user *glob? [a-z]", "  spaces  "]


def test_wm_size_reads_physical_and_prefers_override(real):
    """Real `wm size` captures: the override size wins over the physical one."""
    assert sh.parse_wm_size((real / "shell/wm_size__awesome-adb.txt").read_text()) == (1080, 1920)
    assert sh.parse_wm_size((real / "shell/wm_size__douban-adb-test-docstring.txt").read_text()) == (1080, 2340)
    assert sh.parse_wm_size((real / "shell/wm_size_override__awesome-adb.txt").read_text()) == (480, 1024)


def test_wm_size_garbage_is_protocol_error():
    """Output without a size is a protocol error naming what was printed."""
    with pytest.raises(DeviceProtocolError, match="wm size"):
        sh.parse_wm_size("Error: no display")


@pytest.mark.parametrize(("name", "expected"), [
    ("dumpsys_window_focus__phoneagent-androidworld-report.txt",
     ("com.google.android.apps.nexuslauncher", "com.google.android.apps.nexuslauncher.NexusLauncherActivity")),
    ("dumpsys_window_focus_multidisplay_nullfocus__appium-adb-tests.txt",
     ("com.example.android", "com.example.android.activity.main.MainActivity")),
    ("dumpsys_window_windows_android13__uiautomator2-issue952.txt", None),
])
def test_focus_parser_on_real_dumpsys_window(real, name, expected):
    """Focus comes from the last non-null mCurrentFocus; Android 13 dumps without one give None, not a guess."""
    focus = sh.parse_focus((real / "shell" / name).read_text())
    if expected is None:
        assert focus is None or focus[0] == "tv.danmaku.bili"
    else:
        assert focus == expected


def test_focus_parser_on_old_format_window_dump(real):
    """The Android 4 format (`Window{hash name paused=false}` with no user) yields no app instead of garbage."""
    focus = sh.parse_focus((real / "shell/dumpsys_window_windows__androidviewclient-mocks.txt").read_text())
    assert focus is None or "." in focus[0]


def test_getprop_parser_handles_indented_real_listing(real):
    """Every `[key]: [value]` line is read whatever its indentation, double spaces inside values kept."""
    props = sh.parse_getprop((real / "shell/getprop__flutter-issue4009.txt").read_text())
    assert props["ro.boot.hardware"] == "hammerhead"
    assert props["ro.adb.secure"] == "1"
    assert all(k.startswith(("ro.", "rild.", "dalvik.", "persist.", "init.", "gsm.", "net.", "sys.",
                             "wifi.", "dev.", "drm.", "keyguard.", "media.", "qcom.", "debug.", "service."))
               or k for k in props)


def test_alarm_parser_on_real_dumpsys_alarm(real):
    """Alarms carry type, package, trigger time (ms) and tag."""
    alarms = sh.parse_alarms((real / "shell/dumpsys_alarm__bootlaces-issue100.txt").read_text())
    assert alarms[0] == {"type": "RTC_WAKEUP", "package": "com.candroid.lacedboots", "when_ms": 1609719708402,
                         "tag": "*walarm*:com.candroid.lacedboots/com.candroid.bootlaces.BootReceiver"}
    assert {a["type"] for a in alarms} >= {"RTC_WAKEUP", "ELAPSED_WAKEUP"}


def test_settings_value_of_real_capture(real):
    """`settings get` prints the bare value (no newline in the capture); "null" is an unset key."""
    assert sh.parse_settings_value((real / "shell/settings_get_global_wifi_on__appium-adb-tests-on.txt").read_text()) \
        == "1"
    assert sh.parse_settings_value("null\n") is None


@pytest.mark.parametrize("text", NASTY)
def test_input_text_commands_type_exactly_the_text(text):
    """Through sh word splitting and `input text`'s %s rule, the typed characters are exactly the input."""
    typed = ""
    for command in sh.input_text_commands(text):
        argv = shlex.split(command)
        assert argv[:2] == ["input", "text"] and len(argv) == 3  # one argument: nothing leaked into the shell
        typed += android_input_text(argv[2])
    assert typed == text


def test_input_text_refuses_what_input_cannot_type():
    """Non-ASCII needs the ADB keyboard; the error says so."""
    with pytest.raises(ValueError, match="ADBKeyBoard"):
        sh.input_text_commands("café")


def test_adb_keyboard_command_is_base64_only():
    """The broadcast payload has no shell metacharacters whatever the text."""
    command = sh.adb_keyboard_command("`$(reboot)`; ünïcødé\n😀")
    assert shlex.split(command)[-1].isascii() and ";" not in command.split("msg ")[1]


@pytest.mark.parametrize("header", [12, 16])
def test_raw_screencap_roundtrip_for_both_header_sizes(header):
    """Pre- and post-Android 9 headers decode to the same pixels."""
    rgb = np.random.default_rng(0).integers(0, 256, (5, 4, 3), dtype=np.uint8)
    assert np.array_equal(sh.decode_raw_screencap(sh.encode_raw_screencap(rgb, colour_space=header == 16)), rgb)


def test_raw_screencap_bgra_format_is_swapped():
    """Format 5 (BGRA) comes back as RGB."""
    data = (1).to_bytes(4, "little") * 2 + (5).to_bytes(4, "little") + bytes([10, 20, 30, 255])
    assert sh.decode_raw_screencap(data).tolist() == [[[30, 20, 10]]]


@pytest.mark.parametrize("data", [b"", b"\x00" * 11, b"garbage!" * 40,
                                  sh.encode_raw_screencap(np.zeros((4, 4, 3), np.uint8))[:-1]])
def test_raw_screencap_garbage_is_an_error_never_black(data):
    """Short, truncated or nonsense data raises instead of becoming a black image."""
    with pytest.raises(DeviceProtocolError):
        sh.decode_raw_screencap(data)


def test_resolve_app_uses_known_names_then_package_suffix():
    """Known names map to installed packages; unknown names resolve to None."""
    installed = {"com.android.settings", "com.google.android.deskclock", "org.example.notes"}
    assert sh.resolve_app("Clock", installed) == "com.google.android.deskclock"
    assert sh.resolve_app("notes", installed) == "org.example.notes"
    assert sh.resolve_app("My App", installed, {"my app": "org.example.notes"}) == "org.example.notes"
    assert sh.resolve_app("Camera", installed) is None


def test_state_parser_maps_settings_to_system_keys():
    """A state query's output becomes foreground + system settings with the sim's key names and units."""
    sections = ["  mCurrentFocus=Window{1 u0 com.android.settings/com.android.settings.Settings}\n"]
    sections += [{"wifi_on": "0", "screen_brightness": "255", "font_scale": "1.15", "ui_night_mode": "2"}
                 .get(s.name, "null") + "\n" for s in sh.SETTINGS]
    state = sh.parse_state("@@android_gym@@\n".join(sections))
    assert state["foreground"] == "com.android.settings"
    assert state["system"]["wifi"] is False and state["system"]["brightness"] == 100
    assert state["system"]["font_size"] == "Large" and state["system"]["dark_theme"] is True
    assert state["system"]["bluetooth"] is None


@pytest.mark.parametrize("name", ["login_with_statusbar_window_1080x2400.xml",
                                  "shopping_avito_search_keyboard_multiwindow_ru_1080x1920.xml",
                                  "youtube_home_emoji_1080x1794.xml"])
def test_real_dumps_parse_after_cat_through_a_shell(real, name):
    """Real dumps (CRLF, doubled CR, numeric references) survive the trip `AdbDevice` makes them take."""
    raw = (real / "uiautomator" / name).read_bytes().decode("utf-8")
    elements = parse_uiautomator_xml(raw)
    assert elements and all(e.bounds[2] > e.bounds[0] for e in elements)
