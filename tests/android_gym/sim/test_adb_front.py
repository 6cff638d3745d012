"""Tests of the sim's ADB front through adbutils.

Host services, shell v1/v2, exec, sync, framebuffer, the shell interpreter and the Android commands' output shapes,
emulator registration, faults, and `android-gym serve-adb`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import adbutils
import numpy as np
import pytest

from android_gym.cli import main as cli_main
from android_gym.devices import adb_shell as sh
from android_gym.errors import ConfigError
from android_gym.sim.adb import AdbFront, FaultConfig, SimTarget
from android_gym.sim.adb.faults import FaultInjector
from android_gym.sim.adb.shell import Shell, parse
from android_gym.ui import parse_uiautomator_xml


@pytest.fixture(autouse=True)
def isolated_adb(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep adbutils from ever starting a real adb daemon in these tests."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def front() -> Iterator[AdbFront]:
    """Two phones without perturbations on a free loopback port."""
    with AdbFront(devices=2, perturbations="none") as f:
        yield f


@pytest.fixture
def client(front: AdbFront) -> adbutils.AdbClient:
    """An adbutils client of the front with a socket timeout."""
    return adbutils.AdbClient(port=front.port, socket_timeout=5)


def test_host_services_answer_like_an_adb_server(client, front):
    """Version 41, both phones listed with tags, per-device features and state."""
    assert client.server_version() == 41
    infos = client.list(extended=True)
    assert [(i.serial, i.state) for i in infos] == [("sim-0", "device"), ("sim-1", "device")]
    assert infos[1].tags["model"] == "android_gym_sim" and infos[1].tags["transport_id"] == "2"
    d = client.device("sim-1")
    assert d.get_state() == "device" and "shell_v2" in d.get_features()
    assert d.get_serialno() == "sim-1"


def test_devices_are_independent(client, front):
    """A tap on one phone leaves the other untouched."""
    client.device("sim-0").shell("monkey -p com.android.settings 1")
    assert front.target("sim-0").phone.foreground == "com.android.settings"
    assert front.target("sim-1").phone.foreground == "com.google.android.apps.nexuslauncher"


def test_shell_v1_v2_and_exec(client):
    """v2 separates stderr and reports the exit status; v1 merges; exec is a raw stdout pipe."""
    d = client.device("sim-0")
    r = d.shell2("echo out; nosuchcmd; exit 3", v2=True)
    assert (r.stdout, r.returncode) == ("out\n", 3) and "inaccessible or not found" in r.stderr
    assert d.shell("echo a; echo b >&2") == "a\nb"
    raw = d.shell("screencap", encoding=None)
    assert sh.decode_raw_screencap(raw).shape == (2400, 1080, 3)


def test_screenshot_png_framebuffer_and_raw_agree(client, front):
    """The PNG screenshot of adbutils, the framebuffer service and raw screencap are the same pixels."""
    d = client.device("sim-0")
    png = np.asarray(d.screenshot(error_ok=False).convert("RGB"))
    fb = np.asarray(d.framebuffer().convert("RGB"))
    raw = sh.decode_raw_screencap(d.shell("screencap", encoding=None))
    assert np.array_equal(png, fb) and np.array_equal(png, raw)
    assert np.array_equal(raw, front.target("sim-0").frame())


def test_sync_push_pull_stat_list(client):
    """Files pushed come back byte for byte; STAT and LIST see them; missing files fail cleanly."""
    sync = client.device("sim-0").sync
    payload = bytes(range(256)) * 1000
    sync.push(payload, "/data/local/tmp/blob.bin")
    assert sync.read_bytes("/data/local/tmp/blob.bin") == payload
    assert sync.stat("/data/local/tmp/blob.bin").size == len(payload)
    assert [f.path for f in sync.list("/data/local/tmp")] == ["blob.bin"]
    with pytest.raises(adbutils.AdbError, match="does not exist"):
        sync.read_bytes("/nope")


def test_uiautomator_dump_has_the_real_shape(client, front):
    """One-line dump, several top-level windows, modern attributes; parses to the phone's elements."""
    out = client.device("sim-0").shell("uiautomator dump && cat /sdcard/window_dump.xml")
    assert out.startswith("UI hierchary dumped to: /sdcard/window_dump.xml\n<?xml")
    xml = out.split("\n", 1)[1]
    assert xml.count('<node index="0"') >= 2 and 'visible-to-user="true"' in xml and 'display-id="0"' in xml
    assert parse_uiautomator_xml(xml) == front.target("sim-0").phone.elements()


def test_android_command_outputs_parse_with_the_device_parsers(client):
    """The outputs of wm size, dumpsys window, getprop, dumpsys alarm and settings have the real shapes."""
    d = client.device("sim-0")
    assert sh.parse_wm_size(d.shell("wm size")) == (1080, 2400)
    d.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert sh.parse_focus(d.shell("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'"))[0] == \
        "com.android.settings"
    assert sh.parse_getprop(d.shell("getprop"))["ro.build.version.sdk"] == "34"
    assert d.shell("settings get global wifi_on") == "1"
    d.shell("settings put global wifi_on 0")
    assert d.shell("settings get global wifi_on") == "0" and d.shell("settings get secure nothing") == "null"
    assert sh.parse_alarms(d.shell("dumpsys alarm")) == []
    assert d.shell("dumpsys nosuchservice") == "Can't find service: nosuchservice"


def test_alarms_show_in_dumpsys_alarm(front, client):
    """Enabled Clock alarms become RTC_WAKEUP entries of the clock package."""
    front.target("sim-0").phone.reset(0, {"com.google.android.deskclock": {"alarms": [{"hour": 7, "minute": 30}]}})
    (alarm,) = sh.parse_alarms(client.device("sim-0").shell("dumpsys alarm"))
    assert alarm["package"] == "com.google.android.deskclock" and alarm["type"] == "RTC_WAKEUP"


@pytest.mark.parametrize(("line", "argvs"), [
    ("a 'b c' \"d $X\" e\\ f", [["a", "b c", "d 1", "e f"]]),
    ("a;b && c || d | e", [["a"], ["b"], ["d"], ["e"]]),  # b fails: && c is skipped, || runs the pipeline
    ("echo $(echo x y) \"$(echo 'x  y')\"", [["echo", "x", "y"], ["echo", "x  y"], ["echo", "x", "y", "x  y"]]),
    ("X=2; echo ${X}$X", [["echo", "22"]]),
])
def test_shell_interpreter_splits_and_executes_like_sh(line, argvs):
    """Quoting, operators, substitutions and variables follow sh (the basis of the injection tests)."""
    def program(shell: Shell, argv: list[str], stdin: bytes) -> tuple[bytes, bytes, int]:
        return " ".join(argv[1:]).encode() + b"\n", b"", 1 if argv[0] == "b" else 0

    programs = dict.fromkeys("abcde", program)
    programs["echo"] = programs["a"]
    sh_ = Shell(programs, env={"X": "1"})
    sh_.run(line)
    assert sh_.history == argvs


def test_shell_history_keeps_the_newest_commands_up_to_its_limit(monkeypatch):
    """A phone serving requests for days keeps a bounded history: the newest HISTORY_LIMIT argvs, oldest first."""
    import android_gym.sim.adb.shell as shell_module

    monkeypatch.setattr(shell_module, "HISTORY_LIMIT", 5)
    sh_ = Shell({"echo": lambda shell, argv, stdin: (b"", b"", 0)})
    for i in range(12):
        sh_.run(f"echo {i}")
    assert sh_.history == [["echo", str(i)] for i in range(7, 12)]


def test_shell_syntax_errors_do_not_run_anything():
    """An unterminated quote or stray operator runs nothing and exits 2."""
    for line in ["echo 'open", "echo (x)", "| echo", "echo $(echo"]:
        s = Shell({"echo": lambda sh_, argv, stdin: (b"", b"", 0)})
        assert s.run(line).code == 2 and s.history == []
    assert parse("") == []


@pytest.mark.parametrize(("line", "code"), [("exit 3", 3), ("exit ²", 0), ("exit " + "9" * 5000, 0), ("exit x", 0)])
def test_shell_exit_takes_ascii_status_codes_and_ignores_the_rest(line, code):
    """`exit N` exits N; a status that is not a short ASCII number (superscript digits, 5,000 digits) exits 0."""
    assert Shell({}).run(line).code == code


def test_input_text_follows_android_percent_rule(client, front):
    """`input text` turns %s into a space and refuses non-ASCII like Android's InputShellCommand."""
    d = client.device("sim-0")
    d.shell("monkey -p com.android.chrome 1")
    phone = front.target("sim-0").phone
    field = next(e for e in phone.elements() if e.cls.endswith("EditText"))
    d.shell(f"input tap {field.center[0]} {field.center[1]}")
    d.shell("input text 'a%sb%%sc'")
    assert phone.top.fields[phone.top.focus] == "a b% c"
    d.shell("input keyevent KEYCODE_DEL")  # and 67: the character before the cursor, as agents clear a field
    d.shell("input keyevent 67")
    assert phone.top.fields[phone.top.focus] == "a b%"
    r = d.shell2("input text 'é'", v2=True)
    assert r.returncode == 255 and "NullPointerException" in r.stderr


def test_emulator_registration_and_liveness(front, client):
    """`host:emulator:<port>` adds emulator-<port-1> while something listens on the port."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    with client.make_connection() as c:
        c.send_command(f"host:emulator:{port}")
    deadline = time.monotonic() + 5
    while f"emulator-{port - 1}" not in front.targets and time.monotonic() < deadline:
        time.sleep(0.01)
    assert client.device(f"emulator-{port - 1}").shell("getprop sys.boot_completed") == "1"
    listener.close()
    assert f"emulator-{port - 1}" not in [i.serial for i in client.list()]


def test_connect_and_disconnect_remote_devices(front, client):
    """A remote target is listed only between `adb connect` and `adb disconnect`."""
    front.add(SimTarget("10.0.0.7:5555", "none", is_connected=False))
    assert "10.0.0.7:5555" not in [i.serial for i in client.list()]
    assert client.connect("10.0.0.7:5555") == "connected to 10.0.0.7:5555"
    assert client.connect("10.0.0.7:5555") == "already connected to 10.0.0.7:5555"
    assert client.device("10.0.0.7:5555").get_state() == "device"
    assert client.disconnect("10.0.0.7:5555") == "disconnected 10.0.0.7:5555"
    assert "failed to connect" in client.connect("10.0.0.8:5555")


def test_unknown_serial_and_unknown_service_fail_cleanly(client):
    """FAIL replies carry adb's messages."""
    with pytest.raises(adbutils.AdbError, match="device 'nope' not found"):
        client.device("nope").shell("echo")
    with client.device("sim-0").open_transport() as c:
        c.send_command("tcpfoo:1234")
        with pytest.raises(adbutils.AdbError, match="unknown service"):
            c.check_okay()


def test_faults_are_seeded_and_counted():
    """The same seed draws the same fates; counts add up."""
    a, b = (FaultInjector(FaultConfig.mixed(0.5, seed=3)) for _ in range(2))
    fates = [a.draw() for _ in range(200)]
    assert fates == [b.draw() for _ in range(200)]
    assert a.faults == sum(f is not None for f in fates) and a.counts["requests"] == 200
    with pytest.raises(ConfigError):
        FaultConfig(drop=0.7, hang=0.7)


def test_offline_fault_shows_in_the_device_list(front, client):
    """After an offline fault the device is listed offline for a few requests, then recovers."""
    target = front.target("sim-0")
    target.faults = FaultInjector(FaultConfig(offline=1.0, offline_requests=2))
    with pytest.raises(adbutils.AdbError, match="offline"):
        client.device("sim-0").shell("echo")
    assert ("sim-0", "offline") in [(i.serial, i.state) for i in client.list()]
    target.faults = FaultInjector()
    for _ in range(2):
        with pytest.raises(adbutils.AdbError, match="offline"):
            client.device("sim-0").shell("echo")
    assert client.device("sim-0").shell("echo ok") == "ok"


def test_serve_adb_cli_serves_until_killed(tmp_path):
    """`android-gym serve-adb --port 0` serves phones and returns 0 after `adb kill-server` (host:kill)."""
    ready = tmp_path / "ready.json"
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(cli_main(
        ["serve-adb", "--port", "0", "--devices", "2", "--perturbations", "none", "--ready-file", str(ready)])))
    thread.start()
    deadline = time.monotonic() + 10
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    port = json.loads(ready.read_text())["port"]
    c = adbutils.AdbClient(port=port, socket_timeout=5)
    assert [i.serial for i in c.list()] == ["sim-0", "sim-1"]
    assert c.device("sim-1").shell("wm size") == "Physical size: 1080x2400"
    c.server_kill()
    thread.join(10)
    assert result == [0]


def test_phones_of_a_front_share_one_renderer_and_draw_what_their_own_would(front: AdbFront) -> None:
    """One set of render caches per front (a front of 24 phones held gigabytes of caches, issue 20), same pixels.

    The second phone is put on another screen first, so the shared caches hold entries of both screens.
    """
    from android_gym.sim.render import Renderer

    first, second = front.target("sim-0"), front.target("sim-1")
    assert first.renderer is second.renderer and SimTarget("own", "none").renderer is not first.renderer
    second.run("input keyevent KEYCODE_HOME")
    second.run("input swipe 540 1800 540 600 300")
    for target in (second, first):
        own = Renderer().render(target.phone.tree(), target.phone.width, dark=bool(target.phone.system["dark_theme"]))
        assert np.array_equal(target.frame(), own)
