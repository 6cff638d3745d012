"""Tests of the gRPC device path: an `AdbDevice` on the sim's ADB front with a fake `EmulatorController` beside it.

The fake records every touch and key and answers screenshots with a known image, so each test can tell which path a
call took: gRPC (the fake saw it) or ADB (the sim phone did).
"""

from __future__ import annotations

import logging
import socket
from collections import Counter
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

grpc = pytest.importorskip("grpc")
pytest.importorskip("android_env")

from android_env.proto import emulator_controller_pb2 as pb2  # noqa: E402
from android_env.proto import emulator_controller_pb2_grpc as pb2_grpc  # noqa: E402
from google.protobuf import empty_pb2  # noqa: E402

from android_gym.actions import Action, ActionType  # noqa: E402
from android_gym.devices import emulator_grpc  # noqa: E402
from android_gym.devices.adb import AdbDevice  # noqa: E402
from android_gym.devices.emulator import EmulatorConfig, EmulatorDevice  # noqa: E402
from android_gym.devices.emulator_grpc import EmulatorGrpc  # noqa: E402
from android_gym.errors import (  # noqa: E402
    ConfigError,
    DeviceOfflineError,
    DeviceProtocolError,
    DeviceTimeoutError,
    UnsupportedError,
)
from android_gym.sim.adb import AdbFront  # noqa: E402
from android_gym.testing.executables import emulator_executable  # noqa: E402

W, H = 1080, 2400  # the sim phone's screen
XKB_ESCAPE = 0xFF1B
SIM_GRPC = Path(__file__).resolve().parents[3] / "android_gym" / "sim" / "emulator" / "grpc_service.py"


def device(front: AdbFront, **kwargs) -> AdbDevice:
    """An `AdbDevice` on the front's phone with short deadlines."""
    return AdbDevice("sim-0", port=front.port, timeout_s=5.0, connect_timeout_s=2.0, **kwargs)


def free_port() -> int:
    """A TCP port nothing listens on (bound and released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeController(pb2_grpc.EmulatorControllerServicer):
    """An emulator's gRPC controller that records touches and keys and shows `image`; `fault` makes calls fail."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.touches: list[tuple[int, int, int]] = []
        self.keys: list[tuple[int, int, int]] = []
        self.screenshots = 0
        self.fault: grpc.StatusCode | None = None

    def getStatus(self, request, context):  # noqa: D102, N802 (the generated servicer's names)
        return pb2.EmulatorStatus(version="fake", uptime=1, booted=True)

    def getScreenshot(self, request, context):  # noqa: D102, N802
        self._maybe_fail(context)
        self.screenshots += 1
        h, w = self.image.shape[:2]
        rgba = np.concatenate([self.image, np.full((h, w, 1), 255, np.uint8)], axis=2)
        fmt = pb2.ImageFormat(format=pb2.ImageFormat.ImgFormat.RGBA8888, width=w, height=h)
        return pb2.Image(format=fmt, image=rgba.tobytes())

    def sendTouch(self, request, context):  # noqa: D102, N802
        self._maybe_fail(context)
        self.touches += [(t.x, t.y, t.pressure) for t in request.touches]
        return empty_pb2.Empty()

    def sendKey(self, request, context):  # noqa: D102, N802
        self._maybe_fail(context)
        self.keys.append((request.codeType, request.eventType, request.keyCode))
        return empty_pb2.Empty()

    def _maybe_fail(self, context) -> None:
        if self.fault is not None:
            context.abort(self.fault, f"injected {self.fault.name}")


@dataclass
class Served:
    """A running fake: its controller, port and server."""

    controller: FakeController
    port: int
    server: object = field(repr=False)


def serve(controller: FakeController, port: int = 0) -> Served:
    """Serve `controller` on 127.0.0.1 (a free port unless given) with local credentials, as the emulator does."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    pb2_grpc.add_EmulatorControllerServicer_to_server(controller, server)
    port = server.add_secure_port(f"127.0.0.1:{port}", grpc.local_server_credentials())
    server.start()
    return Served(controller, port, server)


@pytest.fixture
def fake() -> Iterator[Served]:
    """A fake controller showing a seeded random image of the sim phone's size."""
    image = np.random.default_rng(0).integers(0, 256, (H, W, 3), dtype=np.uint8)
    served = serve(FakeController(image))
    try:
        yield served
    finally:
        served.server.stop(0)


def test_screenshots_come_over_grpc_and_are_counted(front, fake):
    """Screenshots are the controller's image (full size, cached per step, resized locally), counted as gRPC."""
    dev = device(front, grpc_port=fake.port)
    dev.reset(0)
    shot = dev.screenshot()
    assert np.array_equal(shot, fake.controller.image) and fake.controller.screenshots == 1
    assert dev.screenshot(224).shape == (round(224 * H / W), 224, 3) and fake.controller.screenshots == 1  # cached
    assert dev.stats()["grpc/screenshots"] == 1 and dev.stats()["grpc/connects"] == 1
    assert "adb/screenshots" not in dev.stats()


def test_tap_swipe_and_back_arrive_as_touches_and_keysyms(front, fake):
    """A tap is down/up at its pixel, a swipe down/moves/up, BACK the Escape keysym; none reaches ADB."""
    dev = device(front, grpc_port=fake.port)
    dev.reset(0)
    history = len(front.target("sim-0").history)
    assert dev.perform(Action.tap(0.5, 0.25)).is_valid
    assert fake.controller.touches == [(540, 600, 1), (540, 600, 0)]
    fake.controller.touches.clear()
    assert dev.perform(Action.swipe(0.5, 0.75, 0.5, 0.25)).is_valid
    touches = fake.controller.touches
    assert touches[0] == (540, 1800, 1) and touches[-1] == (540, 600, 0)
    assert all(p == 1 for *_, p in touches[:-1]) and len(touches) == emulator_grpc.SWIPE_STEPS + 2
    assert [y for _, y, _ in touches] == sorted((y for _, y, _ in touches), reverse=True)  # moving up
    assert dev.perform(Action(ActionType.PRESS_BACK)).is_valid
    xkb, keypress = pb2.KeyboardEvent.KeyCodeType.XKB, pb2.KeyboardEvent.KeyEventType.keypress
    assert fake.controller.keys == [(xkb, keypress, XKB_ESCAPE)]
    assert not any(argv[:1] == ["input"] for argv in front.target("sim-0").history[history:])  # none over ADB
    assert {k: dev.stats()[f"grpc/{k}"] for k in ("taps", "swipes", "keys")} == {"taps": 1, "swipes": 1, "keys": 1}


def test_text_still_goes_over_adb(front, fake):
    """TYPE is typed by `input text` on the phone, never sent to the controller."""
    focus = device(front)  # focus Chrome's address bar over ADB: the fake would swallow a gRPC tap
    focus.reset(0)
    focus.perform(Action(ActionType.OPEN_APP, text="Chrome"))
    field_index = next(e.index for e in focus.ui_elements() if e.cls.endswith("EditText"))
    assert focus.perform(Action.tap(-1, -1).with_element(field_index)).is_valid
    dev = device(front, grpc_port=fake.port, text_input="input")
    dev.start()
    assert dev.perform(Action(ActionType.TYPE, text="hello grpc")).is_valid
    screen = dev.state()["screen"]
    assert screen["fields"][screen["focus"]] == "hello grpc"
    assert fake.controller.keys == [] and fake.controller.touches == []


def test_a_stopped_controller_falls_back_to_adb_and_reconnects_at_the_next_reset(front, fake, caplog):
    """A controller gone mid-episode: that screenshot comes over ADB, later calls too, and the next reset reconnects."""
    dev = device(front, grpc_port=fake.port)
    dev.reset(0)
    assert np.array_equal(dev.screenshot(), fake.controller.image)
    fake.server.stop(0).wait()
    dev.refresh()
    with caplog.at_level(logging.WARNING, logger=emulator_grpc.__name__):
        shot = dev.screenshot()
    assert np.array_equal(shot, device(front).screenshot())  # the sim phone's own screen, over ADB
    assert dev.stats()["grpc/fallbacks"] == 1 and dev.stats()["adb/screenshots"] == 1
    assert "using ADB until the next reset" in caplog.text
    dev.perform(Action.tap(0.5, 0.5))  # the path stays off for the rest of the episode
    assert dev.stats()["adb/taps"] == 1 and dev.stats()["grpc/fallbacks"] == 1
    again = serve(fake.controller, fake.port)
    try:
        dev.reset(1)
        dev.refresh()
        assert np.array_equal(dev.screenshot(), fake.controller.image)
        assert dev.stats()["grpc/connects"] == 2 and dev.stats()["grpc/screenshots"] == 2
    finally:
        again.server.stop(0)


def test_without_a_grpc_port_nothing_is_tried_or_counted(front):
    """The default (`grpc_port` None) is the plain ADB device: no gRPC attempt, no grpc/ or adb/ counters."""
    dev = device(front)
    dev.reset(0)
    dev.screenshot()
    dev.perform(Action.tap(0.5, 0.5))
    assert not [k for k in dev.stats() if k.startswith(("grpc/", "adb/"))] and dev.grpc.client is None


def test_a_port_with_nothing_listening_starts_on_adb_saying_why(front, caplog):
    """A dead gRPC port leaves the device on ADB, logged once though each reset tries again."""
    dev = device(front, grpc_port=free_port())
    with caplog.at_level(logging.WARNING, logger=emulator_grpc.__name__):
        dev.reset(0)
        dev.reset(1)
    assert dev.screenshot().shape == (H, W, 3)
    assert caplog.text.count("did not answer `getStatus`") == 1  # said once, though every reset retries
    assert dev.stats()["grpc/connect_failures"] == 2 and dev.stats()["adb/screenshots"] == 1


def test_without_the_grpc_packages_the_device_uses_adb_saying_why(front, fake, monkeypatch, caplog):
    """Where the stubs cannot be imported the device uses ADB, says why, and never tries to connect."""
    def missing() -> None:
        raise UnsupportedError("the gRPC device path needs `grpcio` and `android-env` (No module named 'grpc')")

    monkeypatch.setattr(emulator_grpc, "load_stubs", missing)
    dev = device(front, grpc_port=fake.port)
    with caplog.at_level(logging.WARNING, logger=emulator_grpc.__name__):
        dev.reset(0)
        dev.screenshot()
    assert "needs `grpcio`" in caplog.text and fake.controller.screenshots == 0
    assert dev.stats()["adb/screenshots"] == 1 and "grpc/connect_failures" not in dev.stats()


def test_a_timed_out_tap_raises_instead_of_tapping_again_over_adb(front, fake):
    """A tap whose reply timed out may have landed: it raises (typed) and is not repeated over ADB."""
    dev = device(front, grpc_port=fake.port)
    dev.reset(0)
    fake.controller.fault = grpc.StatusCode.DEADLINE_EXCEEDED
    history = len(front.target("sim-0").history)
    with pytest.raises(DeviceTimeoutError):
        dev.perform(Action.tap(0.5, 0.5))
    assert not any(argv[:1] == ["input"] for argv in front.target("sim-0").history[history:])
    assert dev.stats()["grpc/faults/DeviceTimeoutError"] == 1 and dev.grpc.client is None


@pytest.mark.parametrize(("code", "error"), [(grpc.StatusCode.DEADLINE_EXCEEDED, DeviceTimeoutError),
                                             (grpc.StatusCode.UNAVAILABLE, DeviceOfflineError),
                                             (grpc.StatusCode.INTERNAL, DeviceProtocolError)])
def test_client_turns_grpc_statuses_into_typed_errors(fake, code, error):
    """DEADLINE_EXCEEDED, UNAVAILABLE and other statuses become our timeout, offline and protocol errors."""
    with EmulatorGrpc(fake.port, timeout_s=2.0) as client:
        assert client.status()["booted"]
        fake.controller.fault = code
        with pytest.raises(error, match=code.name if error is DeviceProtocolError else "getScreenshot"):
            client.screenshot(W, H)


def test_client_refuses_a_screenshot_of_another_size(fake):
    """A reply whose size is not the one asked for is a protocol error, never a misshapen array."""
    with EmulatorGrpc(fake.port, timeout_s=2.0) as client, pytest.raises(DeviceProtocolError, match="asked 540x1200"):
        client.screenshot(540, 1200)


def test_client_on_a_dead_port_is_offline_at_once():
    """Connecting where nothing listens is an offline error, without waiting for the channel deadline."""
    with pytest.raises(DeviceOfflineError, match="nothing answers gRPC"):
        EmulatorGrpc(free_port(), timeout_s=2.0).connect()


@pytest.mark.skipif(not SIM_GRPC.exists(), reason="`android-gym emulator` serves no gRPC yet")
def test_an_emulator_device_on_android_gym_emulator_screenshots_and_keys_over_grpc(tmp_path, caplog):
    """`EmulatorDevice` launching `android-gym emulator` uses its gRPC: the same pixels as ADB, HOME as a keysym."""
    exe = emulator_executable(tmp_path / "emulator")
    config = EmulatorConfig(avd="pixel_7", binary=str(exe), extra_args=("-sim-boot-s", "0.3"), boot_timeout_s=20.0,
                            console_timeout_s=5.0, snapshot="default_boot")
    with AdbFront(devices=0, perturbations="none") as adb_front:
        dev = EmulatorDevice(config, port=adb_front.port, timeout_s=5.0)
        try:
            with caplog.at_level(logging.INFO, logger=emulator_grpc.__name__):
                dev.reset(0)
            assert f"over gRPC on port {dev.instance.grpc_port}" in caplog.text
            with pytest.raises(DeviceProtocolError, match="UNAUTHENTICATED"):  # launched with -grpc-use-token
                EmulatorGrpc(dev.instance.grpc_port, timeout_s=5.0).connect()
            over_grpc = dev.screenshot()
            over_adb = AdbDevice(dev.serial, port=adb_front.port, timeout_s=5.0).screenshot()
            assert np.array_equal(over_grpc, over_adb) and dev.stats()["grpc/screenshots"] == 1
            assert dev.perform(Action(ActionType.OPEN_APP, text="Settings")).is_valid  # over ADB
            assert dev.state()["foreground"] == "com.android.settings"
            assert dev.perform(Action(ActionType.PRESS_HOME)).is_valid
            assert dev.state()["foreground"].endswith("launcher") and dev.stats()["grpc/keys"] == 1
        finally:
            dev.close()


def test_every_key_we_send_over_grpc_is_read_back_as_its_keycode() -> None:
    """The keysym EmulatorGrpc sends for a keycode is one the simulated emulator maps back to it, not a character."""
    from android_gym.devices.xkb import KEYCODE_BY_KEYSYM, KEYSYM_BY_KEYCODE, keysym_text

    for keycode, keysym in KEYSYM_BY_KEYCODE.items():
        assert emulator_grpc.xkb_keysym(keycode) == keysym
        assert KEYCODE_BY_KEYSYM[keysym] == keycode and keysym_text(keysym) is None


@pytest.fixture
def protected_emulator(tmp_path: Path) -> Iterator[tuple[int, str, Path]]:
    """An in-process `android-gym emulator` with `-grpc-use-token`: (gRPC port, its token, its discovery dir)."""
    from android_gym.devices.emulator_console import PortAllocator
    from android_gym.sim.emulator.args import parse_args
    from android_gym.sim.emulator.process import EmulatorProcess

    console_port, grpc_port = PortAllocator.allocate(), free_port()
    args = parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port), "-grpc-use-token",
                       "-sim-boot-s", "0"])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None, discovery=tmp_path / "running")
    try:
        emulator.start()
        assert emulator.grpc_token is not None
        yield grpc_port, emulator.grpc_token, tmp_path / "running"
    finally:
        emulator.stop()
        PortAllocator.release(console_port)


def test_a_client_without_the_emulators_token_is_refused_saying_so(protected_emulator) -> None:
    port, token, _ = protected_emulator
    for sent, client in (("no token", EmulatorGrpc(port, 5.0)), ("a token", EmulatorGrpc(port, 5.0, token="x"))):
        with pytest.raises(DeviceProtocolError, match=f"UNAUTHENTICATED.*we sent {sent}.*-grpc-use-token"):
            client.connect()
        client.close()
    with EmulatorGrpc(port, 5.0, token=token) as client:
        assert client.screenshot(108, 240).shape == (240, 108, 3)


def test_the_grpc_path_reads_the_token_from_the_discovery_file_of_the_port_it_dials(protected_emulator,
                                                                                     tmp_path: Path) -> None:
    port, _, discovery = protected_emulator
    counters: Counter[str] = Counter()
    found = emulator_grpc.GrpcPath(5.0, counters, discovery=discovery)
    assert found.open(port) and found.call("screenshots", lambda g: g.screenshot(108, 240))[0]
    found.close()
    (elsewhere := tmp_path / "elsewhere").mkdir()
    lost = emulator_grpc.GrpcPath(5.0, counters, discovery=elsewhere)
    with pytest.raises(ConfigError, match="no discovery file in .*elsewhere names port .*device_options.grpc_token"):
        lost.open(port)  # a setting to fix, said when the device starts: not a silent fall back to ADB


def test_an_attached_emulator_device_sends_the_grpc_token_it_was_given(protected_emulator, tmp_path: Path) -> None:
    port, token, _ = protected_emulator
    (elsewhere := tmp_path / "elsewhere").mkdir()
    dev = EmulatorDevice(serial="emulator-5554", grpc_token=token, grpc_port=port, timeout_s=5.0)
    dev.grpc.discovery = elsewhere  # no discovery file to fall back on: only the given token can open the port
    try:
        assert dev.grpc.open(port) and dev.grpc.call("screenshots", lambda g: g.screenshot(108, 240))[0]
    finally:
        dev.grpc.close()


def test_client_refuses_a_reply_larger_than_its_cap_and_reads_one_within_it(fake):
    """A reply over `max_reply_bytes` is a protocol error naming the cap; the default reads a phone's screenshot.

    gRPC refuses the reply before buffering it (issue 43: the channel took any size).
    """
    image_bytes = W * H * 4
    with EmulatorGrpc(fake.port, timeout_s=5.0, max_reply_bytes=image_bytes // 2) as client:
        assert client.status()["booted"]  # small replies pass
        with pytest.raises(DeviceProtocolError, match=f"RESOURCE_EXHAUSTED.*over {image_bytes // 2} bytes"):
            client.screenshot(W, H)
    assert emulator_grpc.MAX_REPLY_BYTES >= 2160 * 4800 * 4 + 64 * 1024
    with EmulatorGrpc(fake.port, timeout_s=5.0) as client:
        assert client.screenshot(W, H).shape == (H, W, 3)
