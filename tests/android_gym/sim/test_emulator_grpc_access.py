"""Access controls of the simulated emulator's gRPC services (issue 43): the token, the allowlist, refused flags."""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

grpc = pytest.importorskip("grpc")
pytest.importorskip("android_env")

from android_env.proto import emulator_controller_pb2 as ec  # noqa: E402
from android_env.proto import emulator_controller_pb2_grpc as ec_grpc  # noqa: E402
from android_env.proto import snapshot_service_pb2 as ss  # noqa: E402
from android_env.proto import snapshot_service_pb2_grpc as ss_grpc  # noqa: E402
from google.protobuf import empty_pb2  # noqa: E402

from android_gym.devices.emulator_console import PortAllocator  # noqa: E402
from android_gym.devices.emulator_discovery import parse_discovery  # noqa: E402
from android_gym.errors import ConfigError  # noqa: E402
from android_gym.sim.emulator.args import parse_args  # noqa: E402
from android_gym.sim.emulator.process import EmulatorProcess, main  # noqa: E402

DEADLINE_S = 15.0
CONTROLLER = "/android.emulation.control.EmulatorController/"


def _free_port() -> int:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


class Stubs:
    """AndroidEnv's channel (local credentials) and both stubs; `metadata` goes on every call made through `call`."""

    def __init__(self, port: int, metadata: tuple[tuple[str, str], ...] | None = None) -> None:
        self.channel = grpc.secure_channel(f"localhost:{port}", grpc.local_channel_credentials())
        grpc.channel_ready_future(self.channel).result(timeout=DEADLINE_S)
        self.emulator = ec_grpc.EmulatorControllerStub(self.channel)
        self.snapshots = ss_grpc.SnapshotServiceStub(self.channel)
        self.metadata = metadata

    def call(self, service: str, method: str, request: Any) -> Any:
        """One unary call, or the first reply of a server-streaming one."""
        reply = getattr(getattr(self, service), method)(request, timeout=DEADLINE_S, metadata=self.metadata)
        return next(iter(reply)) if method.startswith("stream") else reply


@contextmanager
def protected(tmp_path: Path, *flags: str) -> Iterator[tuple[EmulatorProcess, int, Path]]:
    """A booted in-process emulator with `-grpc-use-token` (plus `flags`), advertising in tmp_path/running."""
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    args = parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port), "-grpc-use-token",
                       "-sim-boot-s", "0", *flags])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None, discovery=tmp_path / "running")
    try:
        emulator.start()
        assert emulator.console is not None
        end = time.monotonic() + DEADLINE_S
        while "default_boot" not in emulator.console.snapshots.names():
            assert time.monotonic() < end, "not booted"
            time.sleep(0.02)
        yield emulator, grpc_port, tmp_path / "running" / f"pid_{os.getpid()}.ini"
    finally:
        emulator.stop()
        PortAllocator.release(console_port)


# Every method either service serves, plus one it does not (streamScreenshot): the token is checked before any.
CALLS = [
    ("emulator", "getStatus", empty_pb2.Empty()),
    ("emulator", "getScreenshot", ec.ImageFormat(format=ec.ImageFormat.RGBA8888, width=64)),
    ("emulator", "sendTouch", ec.TouchEvent(touches=[ec.Touch(x=540, y=1200, pressure=1)])),
    ("emulator", "sendMouse", ec.MouseEvent(x=540, y=1200, buttons=1)),
    ("emulator", "sendKey", ec.KeyboardEvent(text="x")),
    ("emulator", "setVmState", ec.VmRunState(state=ec.VmRunState.SHUTDOWN)),
    ("emulator", "getVmState", empty_pb2.Empty()),
    ("emulator", "streamScreenshot", ec.ImageFormat()),
    ("snapshots", "ListSnapshots", ss.SnapshotFilter()),
    ("snapshots", "LoadSnapshot", ss.SnapshotPackage(snapshot_id="default_boot")),
    ("snapshots", "SaveSnapshot", ss.SnapshotPackage(snapshot_id="attacker")),
    ("snapshots", "DeleteSnapshot", ss.SnapshotPackage(snapshot_id="default_boot")),
]
# How a caller may get the header wrong, given the real token: none, another token, the token under another scheme.
WRONG: dict[str, Callable[[str], tuple[tuple[str, str], ...] | None]] = {
    "none": lambda token: None,
    "wrong token": lambda token: (("authorization", "Bearer not-the-token"),),
    "not Bearer": lambda token: (("authorization", f"Basic: {token}"),),
}


@pytest.mark.parametrize("credentials", list(WRONG), ids=list(WRONG))
def test_every_method_refuses_a_caller_without_the_token_and_acts_on_nothing(tmp_path: Path,
                                                                             credentials: str) -> None:
    """Before issue 43 a tokenless client got screenshots, keys and DeleteSnapshot("default_boot") here."""
    with protected(tmp_path) as (emulator, port, _):
        assert emulator.grpc_token is not None
        stubs = Stubs(port, WRONG[credentials](emulator.grpc_token))
        try:
            for service, method, request in CALLS:
                with pytest.raises(grpc.RpcError) as refused:
                    stubs.call(service, method, request)
                assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED, (method, refused.value.details())
        finally:
            stubs.channel.close()
        assert emulator.console is not None and emulator.console.snapshots.names() == ["default_boot"]
        assert not emulator.stopped.is_set() and emulator.grpc is not None and emulator.grpc.denied == len(CALLS)
        with emulator.target.lock:
            assert emulator.target.phone.foreground.endswith("launcher")  # no touch, mouse or key landed


def test_the_token_from_the_discovery_file_opens_every_service(tmp_path: Path) -> None:
    with protected(tmp_path) as (emulator, port, discovery):
        token = parse_discovery(discovery.read_text())["grpc.token"]
        assert token == emulator.grpc_token and len(token) >= 64
        stubs = Stubs(port, (("authorization", f"Bearer {token}"),))
        try:
            assert stubs.call("emulator", "getStatus", empty_pb2.Empty()).booted
            shot = stubs.call("emulator", "getScreenshot", ec.ImageFormat(format=ec.ImageFormat.RGBA8888, width=64))
            assert len(shot.image) == shot.format.width * shot.format.height * 4
            assert stubs.call("snapshots", "DeleteSnapshot", ss.SnapshotPackage(snapshot_id="default_boot")).success
            assert emulator.console is not None and emulator.console.snapshots.names() == []
        finally:
            stubs.channel.close()


def test_the_discovery_file_is_created_owner_only_and_never_chmoded(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Under umask 0 a file made with the default mode then chmod'ed would be world-readable for an instant."""
    chmods: list[str] = []
    real_chmod = os.chmod
    monkeypatch.setattr(os, "chmod", lambda path, mode, **kw: (chmods.append(str(path)), real_chmod(path, mode, **kw)))
    old_umask = os.umask(0)
    try:
        with protected(tmp_path) as (_, port, discovery):
            props = parse_discovery(discovery.read_text())
            assert stat.S_IMODE(discovery.stat().st_mode) == 0o600
            assert stat.S_IMODE(discovery.parent.stat().st_mode) == 0o700
            assert props["grpc.port"] == str(port) and props["avd.name"] == "Sim" and props["grpc.token"]
    finally:
        os.umask(old_umask)
    assert str(discovery) not in chmods
    assert not discovery.exists()  # removed when the emulator stops


def test_without_the_token_flag_the_service_is_open_as_the_real_emulators_and_advertises_no_token(
        tmp_path: Path) -> None:
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    args = parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port), "-sim-boot-s", "0"])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None, discovery=tmp_path / "running")
    try:
        emulator.start()
        props = parse_discovery((tmp_path / "running" / f"pid_{os.getpid()}.ini").read_text())
        assert props["grpc.port"] == str(grpc_port) and "grpc.token" not in props
        stubs = Stubs(grpc_port)
        assert stubs.call("emulator", "getVmState", empty_pb2.Empty()).state == ec.VmRunState.RUNNING
        stubs.channel.close()
    finally:
        emulator.stop()
        PortAllocator.release(console_port)


def _allowlist(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "emulator_access.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_an_allowlist_opens_its_unprotected_methods_and_limits_the_token_to_its_allowed_ones(tmp_path: Path) -> None:
    allowlist = _allowlist(tmp_path, {
        "unprotected": [f"{CONTROLLER}getStatus"],
        "allowlist": [{"iss": "android-studio", "allowed": [f"{CONTROLLER}get.*"],
                       "protected": [f"{CONTROLLER}sendKey"]},
                      {"iss": "someone-else", "allowed": [".*"]}],
    })
    with protected(tmp_path, "-grpc-allowlist", allowlist) as (emulator, port, _):
        anyone, holder = Stubs(port), Stubs(port, (("authorization", f"Bearer {emulator.grpc_token}"),))
        try:
            assert anyone.call("emulator", "getStatus", empty_pb2.Empty()).booted  # unprotected
            with pytest.raises(grpc.RpcError) as refused:
                anyone.call("emulator", "getVmState", empty_pb2.Empty())
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert holder.call("emulator", "getVmState", empty_pb2.Empty()).state == ec.VmRunState.RUNNING
            for service, method, request in [("emulator", "sendKey", ec.KeyboardEvent(text="x")),  # JWT-only
                                             ("snapshots", "ListSnapshots", ss.SnapshotFilter())]:  # not listed
                with pytest.raises(grpc.RpcError) as refused:
                    holder.call(service, method, request)
                assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, method
        finally:
            anyone.channel.close()
            holder.channel.close()


@pytest.mark.parametrize("data, message", [
    ("{not json", "not JSON"),
    ({"unprotected": ["(unclosed"]}, "invalid regular expression"),
    ({"allowlist": [{"allowed": [".*"]}]}, "needs an \"iss\""),
    ({"allowlist": [{"iss": "android-studio", "allowed": ".*"}]}, "must be a list"),
])
def test_a_bad_allowlist_stops_the_start_and_serves_nothing(tmp_path: Path, data: Any, message: str) -> None:
    console_port, grpc_port = PortAllocator.allocate(), _free_port()
    args = parse_args(["-avd", "Sim", "-port", str(console_port), "-grpc", str(grpc_port), "-grpc-use-token",
                       "-grpc-allowlist", _allowlist(tmp_path, data)])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None, discovery=tmp_path / "running")
    try:
        with pytest.raises(ConfigError, match=message):
            emulator.start()
        assert emulator.stopped.is_set() and not list((tmp_path / "running").glob("*.ini"))
    finally:
        emulator.stop()
        PortAllocator.release(console_port)


@pytest.mark.parametrize("flags, message", [
    (["-grpc", "8554", "-grpc-use-jwt"], "`-grpc-use-jwt` is not supported by the simulated emulator"),
    (["-grpc", "8554", "-grpc-tls-cer", "c.pem"], "`-grpc-tls-cer` is not supported"),
    (["-grpc", "8554", "-grpc-tls-key", "k.pem"], "`-grpc-tls-key` is not supported"),
    (["-grpc-use-token"], "no `-grpc PORT` was given"),
    (["-grpc", "8554", "-grpc-allowlist", "a.json"], "add `-grpc-use-token`"),
])
def test_access_flags_the_sim_cannot_honour_are_errors_at_start_up(flags: list[str], message: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Never a warning, never ignored: the process exits 1 before serving anything."""
    # `-sim-fault crash` ends a start that got past the flags at once: only the message tells them apart.
    assert main(["-avd", "Sim", "-port", "5554", "-sim-fault", "crash", *flags]) == 1
    assert message in capsys.readouterr().err


def test_the_token_flag_without_a_discovery_directory_is_refused(tmp_path: Path) -> None:
    args = parse_args(["-avd", "Sim", "-port", str(PortAllocator.allocate()), "-grpc", str(_free_port()),
                       "-grpc-use-token"])
    emulator = EmulatorProcess(args, tmp_path, adb_server_port=None)
    try:
        with pytest.raises(ConfigError, match="discovery directory"):
            emulator.start()
    finally:
        emulator.stop()
        PortAllocator.release(args.console_port)
