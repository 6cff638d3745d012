"""AndroidEnv's `AdbCallParser`, unmodified, drives the simulated phone through `android-gym-adb`.

Every kind of `AdbRequest` its tasks' setup and reset steps send, answered OK and doing on the phone what it says
(but `install_apk`, which needs an APK, and `uninstall_package`, whose failure on a system app AndroidEnv raises as
it would on a phone, after restarting the ADB server).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("android_env")

from android_env.components import adb_call_parser, adb_controller, config_classes  # noqa: E402
from android_env.proto import adb_pb2  # noqa: E402

from android_gym.devices import adb_cli  # noqa: E402
from android_gym.sim.adb import AdbFront  # noqa: E402
from android_gym.testing.executables import adb_executable  # noqa: E402

OK = adb_pb2.AdbResponse.Status.OK
Request = adb_pb2.AdbRequest


@pytest.fixture
def parser(front: AdbFront, tmp_path: Path) -> Iterator[adb_call_parser.AdbCallParser]:
    """AndroidEnv's parser over an AdbController whose `adb` is `android-gym-adb`, for the front's sim-0."""
    adb = adb_executable(tmp_path / "adb")
    controller = adb_controller.AdbController(config_classes.AdbControllerConfig(
        adb_path=str(adb), adb_server_port=front.port, device_name="sim-0", default_timeout=30.0))
    yield adb_call_parser.AdbCallParser(controller)
    # AndroidEnv answers a failed command by `kill-server` + `start-server`: the front is then replaced by a server
    # android-gym-adb started, which must not outlive the test (stopping the front twice is harmless)
    adb_cli.main(["-P", str(front.port), "kill-server"])


def call(parser: adb_call_parser.AdbCallParser, **fields: object) -> adb_pb2.AdbResponse:
    response = parser.parse(Request(**fields))
    assert response.status == OK, response.error_message
    return response


def test_activities_buttons_and_the_current_activity(parser: adb_call_parser.AdbCallParser, front: AdbFront) -> None:
    phone = front.target("sim-0").phone
    started = call(parser, start_activity=Request.StartActivity(full_activity="com.android.settings/.Settings",
                                                                force_stop=True))
    assert phone.foreground == "com.android.settings" and b"Status: ok" in started.start_activity.output
    current = call(parser, get_current_activity=Request.GetCurrentActivity())
    assert current.get_current_activity.full_activity.startswith("com.android.settings/com.android.settings.")
    call(parser, press_button=Request.PressButton(button=Request.PressButton.BACK))
    assert phone.foreground != "com.android.settings"
    call(parser, start_activity=Request.StartActivity(full_activity="com.android.settings/.Settings"))
    call(parser, force_stop=Request.ForceStop(package_name="com.android.settings"))
    assert phone.foreground != "com.android.settings"
    call(parser, press_button=Request.PressButton(button=Request.PressButton.HOME))
    assert call(parser, get_orientation=Request.GetOrientationRequest()).get_orientation.orientation == 0
    call(parser, start_activity=Request.StartActivity(full_activity="com.android.settings/.Settings"))
    front_activity = call(parser, get_current_activity=Request.GetCurrentActivity()).get_current_activity
    call(parser, start_screen_pinning=Request.StartScreenPinning(full_activity=front_activity.full_activity))
    behind = parser.parse(Request(start_screen_pinning=Request.StartScreenPinning(full_activity="com.x/.Y")))
    assert behind.status == adb_pb2.AdbResponse.Status.INTERNAL_ERROR  # no such task to pin


def test_touch_text_settings_and_packages(parser: adb_call_parser.AdbCallParser, front: AdbFront) -> None:
    target = front.target("sim-0")
    x, y = next(e for e in target.phone.elements() if e.text == "Settings").center
    call(parser, tap=Request.Tap(x=int(x), y=int(y)))
    assert target.phone.foreground == "com.android.settings"
    call(parser, settings=Request.SettingsRequest(name_space=Request.SettingsRequest.Namespace.SYSTEM,
                                                  put=Request.SettingsRequest.Put(key="show_touches", value="1")))
    got = call(parser, settings=Request.SettingsRequest(name_space=Request.SettingsRequest.Namespace.SYSTEM,
                                                        get=Request.SettingsRequest.Get(key="show_touches")))
    assert got.settings.output.strip() == b"1"
    call(parser, settings=Request.SettingsRequest(name_space=Request.SettingsRequest.Namespace.SYSTEM,
                                                  delete_key=Request.SettingsRequest.Delete(key="show_touches")))
    listed = call(parser, package_manager=Request.PackageManagerRequest(
        list=Request.PackageManagerRequest.List(packages=Request.PackageManagerRequest.List.Packages())))
    assert "com.android.settings" in listed.package_manager.list.items
    dumped = call(parser, dumpsys=Request.DumpsysRequest(service="window"))
    assert b"mCurrentFocus" in dumped.dumpsys.output
    call(parser, send_broadcast=Request.SendBroadcast(action="android.intent.action.AIRPLANE_MODE"))
    generic = call(parser, generic=Request.GenericRequest(args=["shell", "getprop", "ro.build.version.sdk"]))
    assert generic.generic.output.strip() == b"34"


def test_push_pull_and_input_text(parser: adb_call_parser.AdbCallParser, front: AdbFront) -> None:
    target = front.target("sim-0")
    call(parser, push=Request.Push(content=b"level 3", path="/sdcard/save.txt"))
    assert target.files["/sdcard/save.txt"] == b"level 3"
    assert call(parser, pull=Request.Pull(path="/sdcard/save.txt")).pull.content == b"level 3"
    x, y = next(e for e in target.phone.elements() if e.rid.endswith("search_container_hotseat")).center
    call(parser, tap=Request.Tap(x=int(x), y=int(y)))
    call(parser, input_text=Request.InputText(text="weather"))
    assert "weather" in target.phone.top.fields.values()


def test_a_missing_activity_comes_back_as_an_error_status(parser: adb_call_parser.AdbCallParser) -> None:
    """`am start` reports on stderr and exits 0, as Android's does; AndroidEnv reads the "Error" in its output."""
    missing = parser.parse(Request(start_activity=Request.StartActivity(full_activity="com.example.none/.Main")))
    assert missing.status == adb_pb2.AdbResponse.Status.INTERNAL_ERROR
    assert "unable to resolve Intent" in missing.error_message


def generic(parser: adb_call_parser.AdbCallParser, args: list[str]) -> str:
    """A `GenericRequest`, as AndroidWorld's adb utilities send most of theirs; its output text (status OK)."""
    return call(parser, generic=Request.GenericRequest(args=args)).generic.output.decode()


def test_androidworlds_adb_commands_do_what_it_expects(parser: adb_call_parser.AdbCallParser,
                                                        front: AdbFront) -> None:
    """The shell commands AndroidWorld's `env/adb_utils.py` issues (its list, read from its source), each with the
    effect or the output its code parses."""  # noqa: D205, D209
    phone = front.target("sim-0").phone
    generic(parser, ["shell", "monkey", "-p", "com.android.settings", "1"])
    assert phone.foreground == "com.android.settings"
    generic(parser, ["shell", "am", "start", "-a", "android.intent.action.VIEW", "-d", "content://contacts/people/"])
    assert phone.foreground == "com.google.android.contacts"
    recents = generic(parser, ["shell", "dumpsys", "activity", "recents"])
    for task in re.findall(r"Task\{\S+ #(\d+)", recents):  # each recent task swiped away
        generic(parser, ["shell", "am", "stack", "remove", task])
    assert phone.foreground == "com.google.android.apps.nexuslauncher"
    for uri, package in (("content://com.android.calendar", "com.google.android.calendar"),
                         ("mailto:", "com.google.android.gm"),
                         ("content://media/external/images/media/", "com.google.android.apps.photos")):
        generic(parser, ["shell", "am", "start", "-a", "android.intent.action.VIEW", "-d", uri])
        assert phone.foreground == package, uri
    generic(parser, ["shell", "am", "start", "-a", "android.intent.action.CALL", "-d", "tel:5550123"])
    assert re.search(r"mCallState=(\d)", generic(parser, ["shell", "dumpsys", "telephony.registry"]))[1] == "2"
    generic(parser, ["shell", "input", "keyevent", "KEYCODE_ENDCALL"])
    assert re.search(r"mCallState=(\d)", generic(parser, ["shell", "dumpsys", "telephony.registry"]))[1] == "0"
    assert int(generic(parser, ["shell", "getprop ro.build.version.sdk"])) == 34
    generic(parser, ["shell", "settings", "put", "global", "airplane_mode_on", "1"])
    assert generic(parser, ["shell", "settings", "get", "global", "airplane_mode_on"]).strip() == "1"
    generic(parser, ["shell", "svc", "wifi", "disable"])
    assert not phone.system["wifi"]
    generic(parser, ["shell", "pm", "grant", "com.android.chrome", "android.permission.CAMERA"])
    assert re.search(r"Physical size: (\d+)x(\d+)", generic(parser, ["shell", "wm size"])).groups() == ("1080", "2400")
    frame = generic(parser, ["shell", "dumpsys", "input", "|", "grep", "logicalFrame"])
    assert re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", frame) == [("1080", "2400")]
    rotation = generic(parser, ["shell", "dumpsys", "window", "|", "grep", "mCurrentRotation"])
    assert re.findall(r"mCurrentRotation=ROTATION_(\d+)", rotation) == ["0"]
    generic(parser, ["shell", "input", "swipe", "540", "1800", "540", "600", "300"])
    generic(parser, ["shell", "uiautomator", "dump", "/sdcard/window_dump.xml"])
    assert generic(parser, ["shell", "cat", "/sdcard/window_dump.xml"]).startswith("<?xml")
    assert generic(parser, ["shell", "whoami"]).strip() == "shell"
