"""Tests of `AdbDevice` against the sim's ADB front: observations, inputs, bad input, and typed errors."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.adb import AdbConfig, AdbDevice
from android_gym.devices.sim import SimDevice
from android_gym.errors import (
    ConfigError,
    DeviceOfflineError,
    DeviceProtocolError,
    DeviceTimeoutError,
    UnknownNameError,
    UnsupportedError,
)
from android_gym.sim.adb import AdbFront, SimTarget
from android_gym.sim.adb.shell import Result


def device(front: AdbFront, serial: str = "sim-0", **kwargs) -> AdbDevice:
    """An `AdbDevice` on `front` with short deadlines."""
    return AdbDevice(serial, port=front.port, timeout_s=kwargs.pop("timeout_s", 5.0),
                     connect_timeout_s=kwargs.pop("connect_timeout_s", 2.0), **kwargs)


def free_port() -> int:
    """A TCP port nothing listens on (bound and released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A server that accepts connections and never answers (a hung ADB server); yields its port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield sock.getsockname()[1]
    stop.set()
    sock.close()
    for conn in held:
        conn.close()


def test_screenshot_raw_png_and_sim_render_are_identical(front):
    """Raw RGBA, PNG and the sim's own render of the same screen are the same pixels."""
    raw = device(front, screenshot="raw").screenshot()
    png = device(front, screenshot="png").screenshot()
    sim = SimDevice("none")
    sim.reset(0)
    assert raw.shape == (2400, 1080, 3) and raw.dtype == np.uint8
    assert np.array_equal(raw, png) and np.array_equal(raw, sim.screenshot())


def test_screenshot_resizes_keeping_aspect(front):
    """A requested width gives the observation encoder's height rule."""
    assert device(front).screenshot(224).shape == (round(224 * 2400 / 1080), 224, 3)


def test_auto_screenshot_falls_back_to_png_when_raw_is_garbage(front):
    """A device whose raw screencap prints garbage still gives a correct screenshot (via PNG), and counts it."""
    front.target("sim-0").canned["screencap"] = Result(b"not an image at all" * 4, b"", 0)
    dev = device(front)
    assert np.array_equal(dev.screenshot(), device(front, screenshot="png").screenshot())
    assert dev.stats()["screenshot_fallbacks"] == 1


def test_truncated_png_is_a_protocol_error(front):
    """A cut-off PNG raises (adbutils would return a black image or a bare OSError)."""
    png = front.target("sim-0").png()
    front.target("sim-0").canned["screencap -p"] = Result(png[: len(png) // 2], b"", 0)
    with pytest.raises(DeviceProtocolError, match="not a complete PNG"):
        device(front, screenshot="png", retries=0).screenshot()


def test_black_screenshot_is_an_error_unless_allowed(front):
    """An all-black frame (screen off) is a fault by default, never silently returned."""
    from android_gym.devices.adb_shell import encode_raw_screencap

    front.target("sim-0").canned["screencap"] = Result(encode_raw_screencap(np.zeros((8, 4, 3), np.uint8)), b"", 0)
    with pytest.raises(DeviceProtocolError, match="black"):
        device(front, screenshot="raw", retries=0).screenshot()
    assert not device(front, screenshot="raw", black_is_error=False).screenshot().any()


def test_elements_and_state_match_the_sim_device(front):
    """UI elements parsed from the dump and the reported state equal SimDevice's for the same seed."""
    dev, sim = device(front), SimDevice("none")
    dev.reset(5, {"system": {"wifi": False}})
    sim.reset(5, {"system": {"wifi": False}})
    assert dev.ui_elements() == sim.ui_elements()
    assert dev.state() == sim.state()
    assert dev.screen_size == (1080, 2400) and dev.is_simulated


def test_inputs_reach_the_phone(front):
    """Tap, keys and OPEN_APP act on the phone; element lists are snapshots per step."""
    dev = device(front)
    dev.reset(0)
    first = dev.ui_elements()
    assert dev.ui_elements() is first  # cached until something may change
    assert dev.perform(Action(ActionType.OPEN_APP, text="Settings")).is_valid
    assert dev.state()["foreground"] == "com.android.settings"
    dev.perform(Action(ActionType.PRESS_HOME))
    assert dev.state()["foreground"] == "com.google.android.apps.nexuslauncher"
    assert dev.ui_elements() is not first


def test_open_unknown_app_is_an_invalid_action(front):
    """An app that is not installed is the agent's mistake: invalid, not a fault."""
    outcome = device(front).perform(Action(ActionType.OPEN_APP, text="Flight Simulator"))
    assert not outcome.is_valid and "not installed" in outcome.reason


def test_point_outside_the_screen_is_invalid_and_sends_nothing(front):
    """Coordinates outside [0, 1] never reach the device."""
    dev = device(front)
    dev.reset(0)
    before = len(front.target("sim-0").history)
    outcome = dev.perform(Action(ActionType.DUAL_POINT, (1.5, 0.2), (1.5, 0.2)))
    assert not outcome.is_valid and "outside" in outcome.reason
    assert not any(argv[0] == "input" for argv in front.target("sim-0").history[before:])


def test_non_ascii_text_without_ime_is_invalid_not_a_fault(front):
    """`input text` cannot type Unicode: the action is invalid with a reason naming the fix."""
    dev = device(front, text_input="input")
    outcome = dev.perform(Action(ActionType.TYPE, text="café"))
    assert not outcome.is_valid and "ADBKeyBoard" in outcome.reason


def test_unknown_serial_is_offline_with_the_attached_list(front):
    """An unknown serial fails at once, listing what is attached."""
    with pytest.raises(DeviceOfflineError, match=r"not found.*sim-0"):
        device(front, "sim-9").start()


def test_no_adb_server_is_offline_without_hanging():
    """Nothing on the port (and adbutils' adb replaced by /bin/false): a clear offline error."""
    with pytest.raises(DeviceOfflineError, match="no ADB server"):
        AdbDevice("emulator-5554", port=free_port(), retries=0).start()


def test_hung_server_times_out(silent_server):
    """A server that never answers cannot block past the deadline (a hang here would fail the suite's timeout)."""
    with pytest.raises(DeviceTimeoutError, match=r"within 0\.2 s"):
        AdbDevice("emulator-5554", port=silent_server, timeout_s=0.2, retries=1).start()


def test_garbage_server_is_a_protocol_error():
    """A server that answers noise is a protocol error naming the garbage."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)

    def answer() -> None:
        for _ in range(4):
            try:
                conn = sock.accept()[0]
            except OSError:
                return
            conn.recv(100)
            conn.sendall(b"\x89PNG garbage garbage")
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    try:
        with pytest.raises(DeviceProtocolError, match="garbage"):
            AdbDevice("emulator-5554", port=sock.getsockname()[1], timeout_s=2, retries=0).start()
    finally:
        sock.close()


def test_device_stuck_booting_times_out(front):
    """`sys.boot_completed` never reaching 1 ends in a timeout naming the boot."""
    front.target("sim-0").props["sys.boot_completed"] = "0"
    with pytest.raises(DeviceTimeoutError, match="booting"):
        device(front, connect_timeout_s=0.3, retries=0).start()


def test_remote_serial_is_connected_and_reconnected_on_heal(front):
    """A "host:port" device appears after `adb connect`; close()+start() (the env's heal) connects it again."""
    front.add(SimTarget("10.1.2.3:5555", "none", is_connected=False))
    dev = device(front, "10.1.2.3:5555")
    dev.reset(0)
    assert dev.health()
    front.target("10.1.2.3:5555").is_connected = False  # the TCP transport dropped
    assert not dev.health()
    dev.close()
    dev.start()
    assert dev.health() and dev.stats()["connects"] == 2


def test_real_device_state_and_reset_use_android_commands(front):
    """A device that is not the sim: HOME + settings at reset, state from dumpsys/settings, no app initial state."""
    target = front.target("sim-0")
    target.props["ro.android_gym.sim"] = ""
    dev = device(front)
    dev.reset(0, {"system": {"wifi": False, "bluetooth": True}})
    state = dev.state()
    assert state["foreground"] == "com.google.android.apps.nexuslauncher"
    assert state["system"]["wifi"] is False and state["system"]["bluetooth"] is True
    assert ["settings", "put", "global", "wifi_on", "0"] in target.history
    with pytest.raises(UnsupportedError, match="snapshot"):
        dev.reset(0, {"com.google.android.deskclock": {"alarms": []}})


def test_real_outputs_drive_size_and_focus(front, real):
    """Canned real captures (override size, Android 14 focus) are what the device layer reads."""
    target = front.target("sim-0")
    target.props["ro.android_gym.sim"] = ""
    probe = ("getprop ro.android_gym.sim; echo @@; getprop sys.boot_completed; echo @@; wm size; echo @@; "
             "settings get secure default_input_method")
    size = (real / "shell/wm_size_override__awesome-adb.txt").read_text()
    target.canned[probe] = Result(f"\n@@\n1\n@@\n{size}@@\nnull\n".encode(), b"", 0)
    dev = device(front)
    assert dev.screen_size == (480, 1024)
    assert not dev.perform(Action(ActionType.TYPE, text="é")).is_valid  # no ADB keyboard on this "phone"


def test_bad_config_values_raise_config_errors():
    """Invalid and misspelt options fail at construction, naming the field."""
    with pytest.raises(ConfigError, match="timeout_s"):
        AdbConfig(timeout_s=0)
    with pytest.raises(ConfigError, match="screenshot"):
        AdbDevice("x", screenshot="jpeg")
    with pytest.raises(UnknownNameError, match="timeout_s"):
        AdbDevice("x", timeout=3)


def test_env_accepts_adb_serial_strings(front, monkeypatch):
    """`device="adb:<serial>"` builds an AdbDevice on the default server ($ANDROID_ADB_SERVER_PORT)."""
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(front.port))
    env = gym.make("android_gym/General-v0", device="adb:sim-0", screenshot_width=0)
    obs, info = env.reset(seed=1)
    assert isinstance(env.unwrapped.device, AdbDevice) and info["goal"]
    env.close()
    with pytest.raises(ConfigError, match="adb:<serial>"):
        gym.make("android_gym/General-v0", device="usb")


def test_overlong_text_is_an_invalid_action_and_types_nothing(front):
    """A TYPE action past TYPE_MAX_CHARS is invalid (issue 43: typed text was unbounded); nothing reaches the phone."""
    from android_gym.devices.adb import TYPE_MAX_CHARS

    dev = device(front)
    before = len(front.target("sim-0").history)
    outcome = dev.perform(Action(ActionType.TYPE, text="a" * (TYPE_MAX_CHARS + 1)))
    assert not outcome.is_valid and f"at most {TYPE_MAX_CHARS}" in outcome.reason
    assert not any(argv[0] in ("input", "am") for argv in front.target("sim-0").history[before:])


def test_ui_dump_read_stops_at_its_cap(front, monkeypatch):
    """A device answering a dump of more than UI_DUMP_MAX_BYTES is a protocol error; the read stops at the cap."""
    from android_gym.devices import adb as adb_module

    monkeypatch.setattr(adb_module, "UI_DUMP_MAX_BYTES", 64 * 1024)
    dump = f"uiautomator dump {adb_module.DUMP_PATH} >/dev/null && cat {adb_module.DUMP_PATH}"
    front.target("sim-0").canned[dump] = Result(b"<?xml" + b"x" * (1 << 20), b"", 0)
    with pytest.raises(DeviceProtocolError, match=f"exceeds {64 * 1024} bytes"):
        device(front, retries=0).ui_elements()
