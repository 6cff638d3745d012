"""Tests of the simulated emulator's gRPC services, driven through AndroidEnv's own stubs and local credentials."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

grpc = pytest.importorskip("grpc")
pytest.importorskip("android_env")

from android_env.proto import emulator_controller_pb2 as ec  # noqa: E402
from android_env.proto import emulator_controller_pb2_grpc as ec_grpc  # noqa: E402
from android_env.proto import snapshot_service_pb2 as ss  # noqa: E402
from android_env.proto import snapshot_service_pb2_grpc as ss_grpc  # noqa: E402
from google.protobuf import empty_pb2  # noqa: E402
from PIL import Image  # noqa: E402

from android_gym.devices.emulator_console import PortAllocator  # noqa: E402
from android_gym.sim.emulator.args import parse_args  # noqa: E402
from android_gym.sim.emulator.process import EmulatorProcess  # noqa: E402

DEADLINE_S = 15.0
LAUNCHER = "com.google.android.apps.nexuslauncher"
SETTINGS_ICON = (945, 750)  # the launcher's Settings icon, (810, 600, 1080, 900)
SEARCH_BAR = (540, 1780)  # the launcher's search field


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


class Client:
    """AndroidEnv's way in: a local-credentials channel to localhost:PORT and the two stubs."""

    def __init__(self, port: int) -> None:
        self.channel = grpc.secure_channel(f"localhost:{port}", grpc.local_channel_credentials(),
                                           options=[("grpc.max_receive_message_length", -1)])
        grpc.channel_ready_future(self.channel).result(timeout=DEADLINE_S)
        self.emulator = ec_grpc.EmulatorControllerStub(self.channel)
        self.snapshots = ss_grpc.SnapshotServiceStub(self.channel)

    def touch(self, *points: tuple[int, int, int]) -> None:
        """One sendTouch per (x, y, pressure) of finger 0."""
        for x, y, pressure in points:
            self.emulator.sendTouch(ec.TouchEvent(touches=[ec.Touch(x=x, y=y, pressure=pressure, identifier=0)]),
                                    timeout=DEADLINE_S)

    def key(self, keysym: int, event: str = "keypress") -> None:
        """An XKB key event, as AndroidEnv sends it on Linux."""
        self.emulator.sendKey(ec.KeyboardEvent(codeType=ec.KeyboardEvent.XKB, keyCode=keysym,
                                               eventType=ec.KeyboardEvent.KeyEventType.Value(event)),
                              timeout=DEADLINE_S)


@contextmanager
def running(tmp_path: Path, *flags: str) -> Iterator[tuple[EmulatorProcess, Client]]:
    """An in-process emulator with -grpc on free ports and a connected client; always stopped."""
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    args = parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port), *flags])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None)
    client = None
    try:
        emulator.start()
        client = Client(grpc_port)
        yield emulator, client
    finally:
        if client is not None:
            client.channel.close()
        emulator.stop()
        PortAllocator.release(console_port)


def _booted(client: Client) -> ec.EmulatorStatus:
    end = time.monotonic() + DEADLINE_S
    while not (status := client.emulator.getStatus(empty_pb2.Empty(), timeout=DEADLINE_S)).booted:
        assert time.monotonic() < end, "not booted"
        time.sleep(0.05)
    return status


@pytest.fixture
def booted(tmp_path: Path) -> Iterator[tuple[EmulatorProcess, Client]]:
    """A booted in-process emulator (boot delay 0) and its client."""
    with running(tmp_path, "-sim-boot-s", "0") as (emulator, client):
        _booted(client)
        yield emulator, client


def test_get_status_is_not_booted_before_the_delay_and_booted_after(tmp_path: Path) -> None:
    with running(tmp_path, "-sim-boot-s", "1") as (_, client):
        before = client.emulator.getStatus(empty_pb2.Empty(), timeout=DEADLINE_S)
        assert not before.booted
        after = _booted(client)
        assert after.uptime >= before.uptime
        assert after.vmConfig.numberOfCpuCores > 0 and after.vmConfig.ramSizeBytes >= 1 << 30
        assert after.vmConfig.hypervisorType == ec.VmConfiguration.KVM
        assert client.emulator.getVmState(empty_pb2.Empty(), timeout=DEADLINE_S).state == ec.VmRunState.RUNNING


def test_get_screenshot_rgba_at_a_width_equals_the_phones_own_render(booted: tuple[EmulatorProcess, Client]) -> None:
    emulator, client = booted
    image = client.emulator.getScreenshot(ec.ImageFormat(format=ec.ImageFormat.RGBA8888, width=320),
                                          timeout=DEADLINE_S)
    w, h = image.format.width, image.format.height
    assert (w, h, image.format.rotation.rotation) == (320, 711, ec.Rotation.PORTRAIT)
    assert len(image.image) == h * w * 4
    pixels = np.frombuffer(image.image, np.uint8).reshape(h, w, 4)
    target = emulator.target
    with target.lock:
        expected = target.renderer.render(target.phone.tree(), 320, dark=bool(target.phone.system["dark_theme"]))
    np.testing.assert_array_equal(pixels[:, :, :3], expected)
    assert (pixels[:, :, 3] == 255).all()


def test_get_screenshot_native_rgba_is_what_screencap_shows(booted: tuple[EmulatorProcess, Client]) -> None:
    emulator, client = booted
    image = client.emulator.getScreenshot(ec.ImageFormat(format=ec.ImageFormat.RGBA8888), timeout=DEADLINE_S)
    assert (image.format.width, image.format.height) == (1080, 2400)
    pixels = np.frombuffer(image.image, np.uint8).reshape(2400, 1080, 4)
    np.testing.assert_array_equal(pixels[:, :, :3], emulator.target.frame())


def test_get_screenshot_rgb888_and_png_decode_to_the_same_pixels(booted: tuple[EmulatorProcess, Client]) -> None:
    _, client = booted
    rgb = client.emulator.getScreenshot(ec.ImageFormat(format=ec.ImageFormat.RGB888, height=480),
                                        timeout=DEADLINE_S)
    w, h = rgb.format.width, rgb.format.height
    assert h <= 480 and w == 216 and len(rgb.image) == w * h * 3
    png = client.emulator.getScreenshot(ec.ImageFormat(format=ec.ImageFormat.PNG, width=216), timeout=DEADLINE_S)
    decoded = np.asarray(Image.open(io.BytesIO(png.image)).convert("RGB"))
    assert decoded.shape == (h, w, 3)
    np.testing.assert_array_equal(decoded, np.frombuffer(rgb.image, np.uint8).reshape(h, w, 3))


def test_touch_down_up_on_an_icon_opens_the_app_and_a_swipe_scrolls(booted: tuple[EmulatorProcess, Client]) -> None:
    emulator, client = booted
    phone = lambda: emulator.target.phone  # noqa: E731 (a snapshot load swaps the phone)
    x, y = SETTINGS_ICON
    client.touch((x, y, 1), (x, y, 0))
    assert phone().foreground == "com.android.settings"
    assert phone().top.scroll == 0
    client.touch((540, 1800, 1), (540, 1500, 1), (540, 1100, 1), (540, 800, 0))
    assert phone().top.scroll > 0
    client.emulator.sendMouse(ec.MouseEvent(x=150, y=2330, buttons=1), timeout=DEADLINE_S)  # the nav bar's Back
    client.emulator.sendMouse(ec.MouseEvent(x=150, y=2330, buttons=0), timeout=DEADLINE_S)
    assert phone().foreground == LAUNCHER


def test_a_lift_reports_no_position_so_androidenvs_lift_at_the_origin_completes_a_tap(
        booted: tuple[EmulatorProcess, Client]) -> None:
    """AndroidEnv's LIFT action carries touch_position (0, 0): the finger leaves where it was, it does not drag."""
    emulator, client = booted
    client.touch((*SETTINGS_ICON, 1), (0, 0, 0))
    assert emulator.target.phone.foreground == "com.android.settings"
    assert "Displayed com.android.settings/" in emulator.target.run("logcat -d -s ActivityTaskManager").out.decode()


def test_emu_sms_send_delivers_a_text_the_messages_app_shows_unread_on_top(
        booted: tuple[EmulatorProcess, Client], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    """`adb emu sms send NUMBER TEXT` (how AndroidWorld seeds incoming texts) reaches the phone's Messages app."""
    from android_gym.devices.adb_cli import main as adb
    from android_gym.sim.apps.messages import PACKAGE as MESSAGES

    emulator, _ = booted
    monkeypatch.setenv("HOME", str(tmp_path))  # the console token the process wrote
    serial = f"emulator-{emulator.args.console_port}"
    version = emulator.target.phone.version
    assert adb(["-s", serial, "emu", "sms", "send", "+15550101", "Dinner", "at", "8?"]) == 0
    top = emulator.target.phone.apps[MESSAGES].state()["threads"][0]
    assert top["number"] == "+15550101" and top["unread"] and top["messages"][-1] == {"from_me": False,
                                                                                     "text": "Dinner at 8?"}
    assert emulator.target.phone.version > version  # the conversation list is redrawn
    assert adb(["-s", serial, "emu", "sms", "send", "not-a-number", "hi"]) == 1
    assert "bad phone number" in capfd.readouterr().err


def test_send_key_escape_goes_back_and_text_types_into_the_focused_field(
        booted: tuple[EmulatorProcess, Client]) -> None:
    emulator, client = booted
    phone = emulator.target.phone
    client.touch((*SEARCH_BAR, 1), (*SEARCH_BAR, 0))
    assert phone.top.focus == "search-query"
    client.emulator.sendKey(ec.KeyboardEvent(text="hi"), timeout=DEADLINE_S)
    client.key(ord("!"))
    client.key(ord("x"), "keyup")  # only keydown and keypress act
    assert phone.top.fields["search-query"] == "hi!"
    client.key(0xFF08)  # BackSpace: DEL, the character before the cursor
    assert phone.top.fields["search-query"] == "hi"
    client.key(0xFF1B)  # Escape: BACK, which first drops the focus
    assert phone.top.focus is None and phone.top.fields["search-query"] == "hi"
    client.key(0xFF50)  # Home: HOME, a fresh home screen
    assert not phone.top.fields.get("search-query")
    client.touch((*SETTINGS_ICON, 1), (*SETTINGS_ICON, 0))
    assert phone.foreground == "com.android.settings"
    client.key(0xFF1B, "keydown")
    assert phone.foreground == LAUNCHER


def test_snapshot_save_list_load_round_trip_restores_the_foreground(booted: tuple[EmulatorProcess, Client]) -> None:
    emulator, client = booted
    saved = client.snapshots.SaveSnapshot(ss.SnapshotPackage(snapshot_id="home"), timeout=DEADLINE_S)
    assert saved.success and saved.snapshot_id == "home"
    listed = client.snapshots.ListSnapshots(ss.SnapshotFilter(statusFilter=ss.SnapshotFilter.All),
                                            timeout=DEADLINE_S)
    assert {"home", "default_boot"} <= {s.snapshot_id for s in listed.snapshots}
    client.touch((*SETTINGS_ICON, 1), (*SETTINGS_ICON, 0))
    assert emulator.target.phone.foreground == "com.android.settings"
    loaded = client.snapshots.LoadSnapshot(ss.SnapshotPackage(snapshot_id="home"), timeout=DEADLINE_S)
    assert loaded.success and not loaded.err
    assert emulator.target.phone.foreground == LAUNCHER
    deleted = client.snapshots.DeleteSnapshot(ss.SnapshotPackage(snapshot_id="home"), timeout=DEADLINE_S)
    assert deleted.success and "home" not in emulator.console.snapshots.names()


def test_loading_a_missing_snapshot_fails_naming_it(booted: tuple[EmulatorProcess, Client]) -> None:
    _, client = booted
    reply = client.snapshots.LoadSnapshot(ss.SnapshotPackage(snapshot_id="nope"), timeout=DEADLINE_S)
    assert not reply.success and "'nope'" in reply.err.decode()


def test_refuse_snapshot_fault_fails_every_load(tmp_path: Path) -> None:
    with running(tmp_path, "-sim-boot-s", "0", "-sim-fault", "refuse-snapshot") as (_, client):
        _booted(client)
        reply = client.snapshots.LoadSnapshot(ss.SnapshotPackage(snapshot_id="default_boot"), timeout=DEADLINE_S)
        assert not reply.success and "refuse-snapshot" in reply.err.decode()


def test_unserved_rpcs_answer_unimplemented(booted: tuple[EmulatorProcess, Client]) -> None:
    _, client = booted
    with pytest.raises(grpc.RpcError) as raised:
        client.emulator.getBattery(empty_pb2.Empty(), timeout=DEADLINE_S)
    assert raised.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_set_vm_state_shutdown_ends_the_process_with_exit_code_0(tmp_path: Path) -> None:
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    env = {**os.environ, "HOME": str(tmp_path), "ANDROID_ADB_SERVER_PORT": str(_free_port())}
    process = subprocess.Popen([sys.executable, "-m", "android_gym.sim.emulator.process", "-avd", "Sim", "-port",
                                str(console_port), "-grpc", str(grpc_port), "-sim-boot-s", "0"], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = Client(grpc_port)
        _booted(client)
        client.emulator.setVmState(ec.VmRunState(state=ec.VmRunState.SHUTDOWN), timeout=DEADLINE_S)
        client.channel.close()
        assert process.wait(DEADLINE_S) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(DEADLINE_S)
        PortAllocator.release(console_port)


def test_without_grpc_installed_the_process_logs_the_extra_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    import android_gym.sim.emulator as package

    monkeypatch.delattr(package, "grpc_service", raising=False)
    monkeypatch.setitem(sys.modules, "android_gym.sim.emulator.grpc_service", None)  # import raises ImportError
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    emulator = EmulatorProcess(parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port)]),
                               tmp_path, adb_server_port=None)
    try:
        with caplog.at_level("WARNING", logger="android_gym.sim.emulator"):
            emulator.start()
        assert emulator.grpc is None and emulator.console is not None
        assert "pip install 'distrl[emulator]'" in caplog.text
    finally:
        emulator.stop()
        PortAllocator.release(console_port)


def _peak_rss_bytes(pid: int) -> int:
    """The process's peak resident set (VmHWM), bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM in /proc/{pid}/status")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads peak memory from /proc")
def test_an_oversized_request_is_refused_resource_exhausted_and_the_servers_peak_memory_stays_bounded(
        tmp_path: Path) -> None:
    """Issue 43: a 512 MB message was accepted. Now a request over MAX_RECEIVE_BYTES (4 MiB) is refused before it is
    buffered: the token holder's 64 MiB LoadSnapshot gets RESOURCE_EXHAUSTED and the server's peak RSS grows by far
    less than the message, and the service goes on answering."""  # noqa: D205, D209
    from android_gym.devices.emulator_discovery import parse_discovery
    from android_gym.sim.emulator.grpc_service import MAX_RECEIVE_BYTES

    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    process = subprocess.Popen([sys.executable, "-m", "android_gym.sim.emulator.process", "-avd", "Sim", "-port",
                                str(console_port), "-grpc", str(grpc_port), "-grpc-use-token", "-sim-boot-s", "0"],
                               env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    channel = None
    try:
        discovery = tmp_path / "run" / "avd" / "running" / f"pid_{process.pid}.ini"
        end = time.monotonic() + DEADLINE_S
        while "grpc.token" not in (props := parse_discovery(discovery.read_text() if discovery.exists() else "")):
            assert time.monotonic() < end and process.poll() is None, "the emulator never advertised its token"
            time.sleep(0.05)
        metadata = (("authorization", f"Bearer {props['grpc.token']}"),)
        channel = grpc.secure_channel(f"localhost:{grpc_port}", grpc.local_channel_credentials(),
                                      options=[("grpc.max_send_message_length", -1)])
        snapshots = ss_grpc.SnapshotServiceStub(channel)
        snapshots.ListSnapshots(ss.SnapshotFilter(), timeout=DEADLINE_S, metadata=metadata)  # warm: threads, buffers
        before = _peak_rss_bytes(process.pid)
        oversized = ss.SnapshotPackage(snapshot_id="huge", payload=bytes(64 * 1024 * 1024))
        with pytest.raises(grpc.RpcError) as refused:
            snapshots.LoadSnapshot(oversized, timeout=DEADLINE_S, metadata=metadata)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        grown = _peak_rss_bytes(process.pid) - before
        assert grown < 2 * MAX_RECEIVE_BYTES, f"the server's peak RSS grew by {grown / 2 ** 20:.1f} MiB"
        fits = ss.SnapshotPackage(snapshot_id="fits", payload=bytes(MAX_RECEIVE_BYTES // 2))
        assert not snapshots.LoadSnapshot(fits, timeout=DEADLINE_S, metadata=metadata).success  # read, no such one
    finally:
        if channel is not None:
            channel.close()
        process.terminate()
        process.wait(timeout=10)
        PortAllocator.release(console_port)
