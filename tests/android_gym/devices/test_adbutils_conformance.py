"""Conformance with a client no one here wrote: every public method of adbutils' `AdbDevice` against the ADB front.

adbutils parses the replies of `wm size`, `dumpsys display|window|power|battery|package|activity`, `pm`, `getprop`,
`ifconfig`, ... with its own regular expressions, so each test drives the public API and checks the result against the
sim phone behind the front (or against a second phone given the same inputs). `UNSUPPORTED` lists the methods the
front cannot serve and why; `test_every_public_method_is_covered` keeps the two lists complete when adbutils grows.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import adbutils
import numpy as np
import pytest
from adbutils import AdbDevice, AdbError, AdbInstallError, BrightnessMode

from android_gym.sim.adb import AdbFront
from android_gym.sim.adb.dump import activity_of
from android_gym.sim.apps.clock import PACKAGE as CLOCK
from android_gym.sim.phone import SimPhone
from android_gym.ui import parse_uiautomator_xml

SETTINGS = "com.android.settings"
LAUNCHER = "com.google.android.apps.nexuslauncher"
CHROME = "com.android.chrome"

COVERED = {
    "app_clear", "app_current", "app_info", "app_start", "app_stop", "battery", "brightness_mode", "brightness_value",
    "click", "drag", "dump_hierarchy", "forward", "forward_list", "forward_port", "forward_remove",
    "forward_remove_all", "framebuffer", "get_devpath", "get_features", "get_serialno", "get_state", "getprop", "info",
    "install", "install_remote", "is_screen_on", "keyevent", "list_packages", "logcat", "open_browser", "open_shell",
    "open_transport", "package_info", "prop", "push", "reboot", "remove", "rmtree", "rotation", "screenshot",
    "send_keys", "serial", "shell", "shell2", "swipe", "switch_airplane", "switch_screen", "switch_wifi", "sync",
    "uninstall", "volume_down", "volume_mute", "volume_up", "window_size", "wlan_ip",
}
"""Methods the tests below drive and check against the phone."""

UNSUPPORTED = {
    "reverse": "the front has no `reverse:` device service (nothing on the sim phone dials out)",
    "reverse_list": "no `reverse:` service",
    "reverse_remove": "no `reverse:` service",
    "reverse_remove_all": "no `reverse:` service",
    "root": "no `root:` service (a real user build refuses too, with a message)",
    "tcpip": "no `tcpip:` service (the front already listens on TCP)",
    "create_connection": "no `tcp:`/`localabstract:` services: the sim phone runs no sockets to connect to",
    "start_recording": "no `screenrecord` on the sim (and scrcpy is a host binary); adbutils finds no recorder",
    "stop_recording": "as start_recording",
    "is_recording": "as start_recording",
    "adb_output": "runs the `adb` binary itself, not the protocol (the tests forbid a real adb)",
    "download_apk": "downloads over HTTP; nothing to do with the device",
}
"""Methods the front cannot serve, and why; the ones that reach the front fail cleanly with `AdbError`."""


@pytest.fixture
def device(front: AdbFront) -> AdbDevice:
    """The adbutils device "sim-0" through the front, with a socket timeout."""
    return adbutils.AdbClient(host="127.0.0.1", port=front.port, socket_timeout=10).device("sim-0")


@pytest.fixture
def phone(front: AdbFront) -> SimPhone:
    """The sim phone behind `device`."""
    return front.target("sim-0").phone


def twin() -> SimPhone:
    """A second phone in the same state as a fresh front's (seed 0, no perturbations), driven directly."""
    p = SimPhone()
    p.reset(0)
    return p


def _element(phone: SimPhone, text: str) -> tuple[int, int]:
    x0, y0, x1, y1 = next(e.bounds for e in phone.elements() if e.text == text)
    return (x0 + x1) // 2, (y0 + y1) // 2


def test_every_public_method_is_covered():
    """Each public name of `AdbDevice` is checked below or listed as unsupported with a reason."""
    public = {n for n in dir(AdbDevice) if not n.startswith("_")}
    assert public - COVERED - set(UNSUPPORTED) == set()
    assert not COVERED & set(UNSUPPORTED)


def test_identity_properties_and_host_queries(device, front):
    """Serial, state, features and properties are the target's."""
    props = front.target("sim-0").props
    assert (device.serial, device.get_serialno(), device.get_state()) == ("sim-0", "sim-0", "device")
    assert device.info == {"serialno": "sim-0", "devpath": device.get_devpath(), "state": "device"}
    assert "shell_v2" in device.get_features().split(",")
    assert device.getprop("ro.build.version.sdk") == "34" and device.getprop("no.such.prop") == ""
    assert (device.prop.name, device.prop.model, device.prop.device) == (
        props["ro.product.name"], props["ro.product.model"], props["ro.product.device"])
    assert device.prop.get("ro.build.version.release") == "14"


def test_window_size_and_rotation_match_the_panel(device, phone):
    """`wm size` and `dumpsys display` give the phone's 1080x2400 portrait panel."""
    assert device.rotation() == 0
    assert tuple(device.window_size()) == (phone.width, phone.height) == (1080, 2400)
    assert tuple(device.window_size(landscape=True)) == (2400, 1080)


def test_app_start_current_and_stop_act_on_the_phone(device, phone):
    """Both `monkey` and `am start -n` open the app; app_current reads the focus; force-stop leaves it."""
    assert device.app_current().package == LAUNCHER
    device.app_start(SETTINGS)
    assert phone.foreground == SETTINGS
    package, activity = activity_of(phone).split("/")
    current = device.app_current()
    assert (current.package, current.activity) == (package, package + activity)
    device.app_stop(SETTINGS)
    assert phone.foreground == LAUNCHER
    device.app_start(CLOCK, ".DeskClock")
    assert phone.foreground == CLOCK and device.app_current().package == CLOCK
    device.app_stop(SETTINGS)  # not in front: nothing changes
    assert phone.foreground == CLOCK


def test_app_clear_resets_the_app_and_closes_it(device, phone):
    """`pm clear` wipes the app's data (its state becomes a fresh install's) and kills it."""
    phone.reset(0, {CLOCK: {"alarms": [{"hour": 7, "minute": 30}]}})
    device.app_start(CLOCK)
    assert phone.apps[CLOCK].state()["alarms"]
    device.app_clear(CLOCK)
    assert phone.apps[CLOCK].state() == twin().apps[CLOCK].state()
    assert phone.foreground == LAUNCHER


def test_packages_and_app_info(device, phone):
    """list_packages is the installed apps; app_info parses `pm path` + `dumpsys package`."""
    assert device.list_packages() == sorted(phone.apps)
    assert device.list_packages(["-s"]) == sorted(phone.apps) and device.list_packages(["-3"]) == []
    assert device.list_packages(["google"]) == sorted(p for p in phone.apps if "google" in p)
    info = device.app_info(SETTINGS)
    assert info is not None and info.package_name == SETTINGS and info.path.endswith("/base.apk")
    assert (info.version_name, info.version_code) == ("14", 34) and "SYSTEM" in info.flags
    assert info.first_install_time is not None and info.signature
    assert device.app_info("com.no.such.app") is None
    assert device.package_info(SETTINGS)["version_name"] == "14"


def test_uninstall_and_install_fail_like_a_system_image(device, phone, tmp_path):
    """System apps cannot be uninstalled; a file that is not an APK fails `pm install` with its reason."""
    assert "DELETE_FAILED_INTERNAL_ERROR" in device.uninstall(SETTINGS)
    assert SETTINGS in device.list_packages()
    fake = tmp_path / "fake.apk"
    fake.write_bytes(b"PK\x03\x04 not really an apk")
    with pytest.raises(AdbInstallError) as e:
        device.install(fake, silent=True)
    assert e.value.reason == "INSTALL_PARSE_FAILED_NOT_APK"
    with pytest.raises(AdbInstallError):
        device.install_remote("/data/local/tmp/missing.apk")
    assert sorted(phone.apps) == device.list_packages()


def test_screenshot_framebuffer_and_hierarchy_are_the_phone(device, front, phone):
    """Screenshots (any display id form) are the rendered frame; the dump parses to the phone's elements."""
    frame = front.target("sim-0").frame()
    assert np.array_equal(np.asarray(device.screenshot(error_ok=False)), frame)
    assert np.array_equal(np.asarray(device.screenshot(display_id=0, error_ok=False)), frame)
    assert np.array_equal(np.asarray(device.framebuffer().convert("RGB")), frame)
    with pytest.raises(AdbError, match="Invalid display_id"):
        device.screenshot(display_id=1)
    assert parse_uiautomator_xml(device.dump_hierarchy()) == phone.elements()


def test_inputs_match_a_phone_given_the_same_inputs(device, phone):
    """Taps (pixels and fractions), swipes, drags, typed text and keys do to the phone what they do to a twin."""
    ref = twin()
    device.click(*_element(phone, "Settings"))
    ref.tap(*_element(ref, "Settings"))
    assert phone.state() == ref.state() and phone.foreground == SETTINGS
    device.swipe(540, 1800, 540, 600, duration=0.1)
    ref.swipe(540, 1800, 540, 600)
    device.keyevent("KEYCODE_HOME")
    ref.key("home")
    assert phone.state() == ref.state()
    device.drag(0.5, 0.5, 0.5, 0.2, duration=0.1)  # fractions of the window
    ref.swipe(540, 1200, 540, 480)
    assert phone.state() == ref.state()
    device.keyevent(3)
    ref.key("home")
    device.click(*_element(phone, "Search"))
    ref.tap(*_element(ref, "Search"))
    device.send_keys("hello%sworld")
    ref.type_text("hello world")
    assert phone.state() == ref.state() and phone.keyboard_up
    device.keyevent("BACK")
    ref.key("back")
    assert phone.state() == ref.state()


def test_volume_keys_leave_the_screen_alone(device, phone):
    """Volume keys are accepted (by name without KEYCODE_) and change nothing the sim shows."""
    before = phone.version
    device.volume_up()
    device.volume_down()
    device.volume_mute()
    assert phone.version == before
    assert device.shell2("input keyevent NO_SUCH_KEY", v2=True).stderr.startswith("Error: Unknown keycode")


def test_screen_wifi_airplane_and_brightness_switches(device, phone):
    """The switches change the phone; the readers (dumpsys power, ifconfig, settings) follow."""
    assert device.is_screen_on()
    device.switch_screen(False)
    assert not device.is_screen_on()
    device.switch_screen(True)
    assert device.is_screen_on()
    assert device.wlan_ip() == "10.0.2.16"
    device.switch_wifi(False)
    assert phone.system["wifi"] is False
    with pytest.raises(AdbError, match="wlan ip"):
        device.wlan_ip()
    device.switch_wifi(True)
    assert phone.system["wifi"] is True and device.wlan_ip() == "10.0.2.16"
    device.switch_airplane(True)
    assert phone.system["airplane_mode"] is True and device.shell("cmd connectivity airplane-mode") == "enabled"
    device.switch_airplane(False)
    assert phone.system["airplane_mode"] is False
    assert device.brightness_value == round(phone.system["brightness"] * 255 / 100)
    device.brightness_value = 255
    assert phone.system["brightness"] == 100 and device.brightness_value == 255
    assert device.brightness_mode == BrightnessMode.MANUAL
    device.brightness_mode = BrightnessMode.AUTO
    assert device.brightness_mode == BrightnessMode.AUTO


def test_battery_reads_dumpsys_battery_and_follows_set(device):
    """An emulator's battery: on AC, full, 25 C; `dumpsys battery set|unplug|reset` change what it reads."""
    b = device.battery()
    assert (b.ac_powered, b.usb_powered, b.present, b.level, b.scale, b.status) == (True, False, True, 100, 100, 2)
    assert (b.temperature, b.voltage, b.technology) == (25.0, 5000, "Li-ion")
    device.shell("dumpsys battery set level 42; dumpsys battery unplug")
    b = device.battery()
    assert (b.level, b.ac_powered) == (42, False)
    device.shell("dumpsys battery reset")
    assert device.battery().level == 100


def test_open_browser_opens_the_url_in_chrome(device, phone):
    """An ACTION_VIEW intent for a web address opens the browser on that page."""
    device.open_browser("www.google.com")
    assert phone.foreground == CHROME and device.app_current().package == CHROME
    assert "google.com" in phone.top.args["url"]


def test_shell_forms_and_exit_status(device):
    """The forms of shell (string, list, bytes, stream), shell2 (v1 and v2 exit status) and open_shell."""
    assert device.shell(["echo", "a b"]) == "a b"
    assert device.shell("echo x", encoding=None) == b"x\n"
    r1, r2 = device.shell2("echo out; false"), device.shell2("echo out; false", v2=True)
    assert (r1.returncode, r1.output, r2.returncode, r2.stdout) == (1, "out\n", 1, "out\n")
    with device.open_shell("echo streamed") as c:
        assert c.read_until_close() == "streamed\n"
    with device.shell("echo s", stream=True) as c:
        assert c.read_until_close() == "s\n"


def test_shell2_v1_exit_status_after_stderr(device):
    """`shell2` over shell v1 appends `; echo X4EXIT:$?`: the error text must come before the marker."""
    assert device.shell2("nosuchcommand").returncode == 127


def test_files_sync_remove_and_rmtree(device, tmp_path):
    """push/pull/stat/list/exists through sync, and remove/rmtree through `rm`."""
    assert device.sync.push(b"abc", "/data/local/tmp/d/a.txt") == 3
    with pytest.warns(DeprecationWarning):  # adbutils' own alias of sync.push, still public
        device.push(str(_local(tmp_path, "b.txt", b"bb")), "/data/local/tmp/d/b.txt")
    assert device.sync.read_text("/data/local/tmp/d/a.txt") == "abc"
    assert device.sync.stat("/data/local/tmp/d/b.txt").size == 2 and device.sync.exists("/data/local/tmp/d")
    assert sorted(f.path for f in device.sync.list("/data/local/tmp/d")) == ["a.txt", "b.txt"]
    assert device.sync.pull("/data/local/tmp/d", tmp_path / "pulled") == 5
    assert (tmp_path / "pulled" / "a.txt").read_bytes() == b"abc"
    device.remove("/data/local/tmp/d/a.txt")
    assert not device.sync.exists("/data/local/tmp/d/a.txt")
    device.rmtree("/data/local/tmp/d")
    assert not device.sync.exists("/data/local/tmp/d/b.txt")


def _local(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_forwards(device):
    """forward, forward_list, forward_port, forward_remove(_all) are accepted (the front lists no forwards)."""
    device.forward("tcp:45678", "tcp:7912")
    assert isinstance(device.forward_list(), list)
    assert device.forward_port(7912) > 0
    device.forward_remove("tcp:45678")
    device.forward_remove_all()


def test_reboot_and_logcat(device, phone, tmp_path):
    """A reboot brings the phone home; adbutils' logcat clears the log, then follows it into a file until stopped.

    The file gets the activity manager's line for an app started meanwhile, and none from before the clear.
    """
    device.app_start(SETTINGS)
    device.reboot()
    assert phone.foreground == LAUNCHER
    log = tmp_path / "logcat.txt"
    event = device.logcat(log, clear=True)
    device.app_start(SETTINGS)
    deadline = time.monotonic() + 5
    while "Displayed com.android.settings/" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    event.stop_nowait()  # adbutils' reader checks its stop flag after each line: a real phone logs all the time,
    device.shell("log -t conformance bye")  # the sim only when something happens
    event.stop(timeout=5)
    text = log.read_text()
    assert "I/ActivityTaskManager(  540): Displayed com.android.settings/" in text  # adbutils' `-v time` lines
    assert LAUNCHER not in text  # logged before the clear


@pytest.mark.parametrize("call", [
    lambda d: d.reverse("tcp:5000", "tcp:5001"), lambda d: d.reverse_list(), lambda d: d.reverse_remove("tcp:5000"),
    lambda d: d.reverse_remove_all(), lambda d: d.root(), lambda d: d.tcpip(5555),
    lambda d: d.create_connection(adbutils.Network.TCP, 7912),
])
def test_unsupported_services_fail_cleanly(device, call):
    """Device services the front lacks are refused with adb's FAIL, which adbutils raises as `AdbError`."""
    with pytest.raises(AdbError):
        call(device)


@pytest.mark.skipif(shutil.which("scrcpy") is not None, reason="adbutils would use the host's scrcpy")
def test_screen_recording_finds_no_recorder(device):
    """No `screenrecord` on the sim: adbutils says it has no recorder."""
    with pytest.raises(AdbError, match="no valid screenrecord client"):
        device.is_recording()
