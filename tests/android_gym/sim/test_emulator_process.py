"""Tests of `android-gym emulator`: the emulator command line, and the process end to end over its console and adbd."""

from __future__ import annotations

import os
import queue
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from android_gym.devices.emulator import Emulator as ManagedEmulator
from android_gym.devices.emulator import EmulatorConfig
from android_gym.devices.emulator_console import EmulatorConsole, PortAllocator
from android_gym.errors import ConfigError, DeviceProtocolError
from android_gym.sim.adb.adbkey import AUTH_SIGNATURE, AUTH_TOKEN, AdbKey
from android_gym.sim.emulator.args import parse_args

READY = "control console listening on port"
DEADLINE_S = 15.0
A_CNXN, A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_AUTH = (int.from_bytes(c, "little")
                                                  for c in (b"CNXN", b"OPEN", b"OKAY", b"WRTE", b"CLSE", b"AUTH"))
HEADER = struct.Struct("<6I")


# -- the command line --------------------------------------------------------------------------------------------------
def test_parse_args_reads_every_flag_form() -> None:
    a = parse_args(["-avd", "Pixel", "-port", "5560", "-grpc", "8560", "-no-window", "-no-skin", "-no-audio",
                    "-no-boot-anim", "-snapshot", "clean", "-no-snapshot-load", "-read-only", "-wipe-data",
                    "-gpu", "swiftshader_indirect", "-adb-path", "/sdk/adb", "-verbose", "-show-kernel",
                    "-feature", "-Vulkan", "-feature", "GLDirectMem", "-sim-boot-s", "2.5",
                    "-sim-perturbations", "hard", "-sim-fault", "hang", "-sim-latency", "emulator",
                    "-sim-latency-scale", "0.25", "-memory", "2048", "-no-metrics",
                    "-qemu", "-m", "2048"])
    assert (a.avd, a.console_port, a.adb_port, a.grpc_port) == ("Pixel", 5560, 5561, 8560)
    assert not (a.is_window or a.is_skin or a.is_audio or a.is_boot_anim)
    assert (a.snapshot, a.is_snapshot_load, a.is_snapshot_save, a.is_read_only, a.is_wipe_data) == \
        ("clean", False, False, True, True)
    assert (a.gpu, a.adb_path, a.is_verbose, a.is_show_kernel) == ("swiftshader_indirect", "/sdk/adb", True, True)
    assert a.features == ("-Vulkan", "GLDirectMem")
    assert (a.sim_boot_s, a.sim_perturbations, a.sim_fault) == (2.5, "hard", "hang")
    assert (a.sim_latency, a.sim_latency_scale) == ("emulator", 0.25)
    assert a.ignored == ("-memory 2048", "-no-metrics", "-qemu -m 2048")


def test_parse_args_defaults_like_the_emulator() -> None:
    a = parse_args(["@Pixel"])
    assert (a.avd, a.console_port, a.adb_port, a.grpc_port) == ("Pixel", 5554, 5555, None)
    assert a.is_window and a.is_snapshot_load and a.is_snapshot_save and not a.is_read_only
    assert (a.sim_boot_s, a.sim_perturbations, a.sim_fault, a.ignored) == (1.0, "none", None, ())
    assert (a.sim_latency, a.sim_latency_scale) == ("off", 1.0)
    assert parse_args(["-avd", "P", "-no-snapshot"]).is_snapshot_load is False
    ports = parse_args(["-avd", "P", "-ports", "5570,5590"])
    assert (ports.console_port, ports.adb_port) == (5570, 5590)


@pytest.mark.parametrize(("argv", "message"), [
    (["-port", "5554"], "-avd NAME"),
    (["-avd", "P", "-port", "abc"], "`-port` takes a TCP port"),
    (["-avd", "P", "-port", "65535"], "`-port` takes a TCP port"),
    (["-avd", "P", "-ports", "5554"], "`-ports` takes `<console port>,<adb port>`"),
    (["-avd", "P", "-grpc", "-1"], "`-grpc` takes a TCP port"),
    (["-avd", "P", "-sim-boot-s", "soon"], "`-sim-boot-s` takes a number of seconds"),
    (["-avd", "P", "-sim-fault", "explode"], "`-sim-fault` takes one of crash, hang, refuse-snapshot"),
    (["-avd", "P", "-sim-perturbations", "mild"], "`-sim-perturbations` takes one of none, default, hard"),
    (["-avd", "P", "-sim-latency", "slow"], "`-sim-latency` takes one of off, emulator, fast-emulator"),
    (["-avd", "P", "-sim-latency-scale", "-1"], "`-sim-latency-scale` takes a number of seconds"),
    (["-avd", "P", "-port"], "`-port` needs a value"),
    (["-avd", "P", "stray"], "unexpected argument 'stray'"),
])
def test_parse_args_rejects_bad_input_with_the_flag_named(argv: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_args(argv)


# -- the process -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["-help", "-h", "--help", "-version"])
def test_help_and_version_answer_as_the_emulator_and_start_nothing(flag: str, capsys) -> None:
    """`-help` lists every option this emulator takes (and the ones it refuses); `-version` the version; exit 0."""
    from android_gym.sim.emulator.args import named_flags
    from android_gym.sim.emulator.process import main

    assert main([flag]) == 0
    out = capsys.readouterr().out
    if flag == "-version":
        assert out.startswith("Android emulator version 35.") and "android-gym" in out
        return
    assert out.startswith("Usage: emulator [options]")
    for option in named_flags():
        assert option in out, option


def test_list_avds_prints_the_store_and_an_avd_it_lacks_panics_as_the_emulator_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from android_gym.sim.emulator.process import main

    store = tmp_path / "avd"
    monkeypatch.setenv("ANDROID_AVD_HOME", str(store))
    assert main(["-list-avds"]) == 0 and capsys.readouterr().out == ""  # no store: nothing listed
    assert main(["-avd", "Anything", "-sim-fault", "crash"]) == 1  # without a store any name is taken (then crashes)
    assert "PANIC" not in capsys.readouterr().err
    store.mkdir()
    for name in ("Pixel_7_API_34", "Tablet"):
        (store / f"{name}.ini").write_text(f"path={store / name}.avd\n")
    assert main(["-list-avds"]) == 0 and capsys.readouterr().out == "Pixel_7_API_34\nTablet\n"
    assert main(["-avd", "Pixel_9", "-port", "5580"]) == 1
    err = capsys.readouterr().err
    assert "PANIC: Unknown AVD name [Pixel_9], use -list-avds" in err and "Pixel_7_API_34, Tablet" in err


@dataclass
class Emulator:
    """A running `android-gym emulator` process and what the test set up around it."""

    process: subprocess.Popen
    port: int
    home: Path
    lines: queue.Queue[str]

    def console(self) -> EmulatorConsole:
        """Our console client, with the token file the process wrote in the test's HOME."""
        return EmulatorConsole(self.port, timeout_s=5.0, token_path=str(self.home / ".emulator_console_auth_token"))

    def wait_exit(self) -> int:
        """The exit code, waiting at most `DEADLINE_S` seconds."""
        return self.process.wait(DEADLINE_S)


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "android_gym.sim.emulator.process", *argv]


@contextmanager
def emulator(home: Path, *flags: str, adb_server_port: int) -> Iterator[Emulator]:
    """Start the process on a free console port with HOME=home; wait for its ready line; always kill it."""
    port = PortAllocator.allocate()
    env = {**os.environ, "HOME": str(home), "ANDROID_ADB_SERVER_PORT": str(adb_server_port)}
    process = subprocess.Popen(_command("-avd", "Sim_Pixel", "-port", str(port), "-no-window", *flags), env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    try:
        end = time.monotonic() + DEADLINE_S
        while READY not in lines.get(timeout=max(0.01, end - time.monotonic())):
            pass
        yield Emulator(process, port, home, lines)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(DEADLINE_S)
        PortAllocator.release(port)


class Adbd:
    """A minimal adb host side: CNXN (answering adbd's AUTH token with the emulator user's key), then one `shell:`
    stream at a time (OPEN, OKAY, WRTE, CLSE)."""  # noqa: D205, D209

    def __init__(self, port: int, home: Path) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5.0)
        self.home = home
        self.next_id = 1

    def write(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        """Send one message (checksum 0: version 0x01000001 skips it)."""
        self.sock.sendall(HEADER.pack(command, arg0, arg1, len(data), 0, command ^ 0xFFFFFFFF) + data)

    def read(self) -> tuple[int, int, int, bytes]:
        """Receive one message: (command, arg0, arg1, payload)."""
        command, arg0, arg1, length, _, magic = HEADER.unpack(self._exactly(HEADER.size))
        assert magic == command ^ 0xFFFFFFFF
        return command, arg0, arg1, self._exactly(length)

    def _exactly(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            assert chunk, "adbd closed the connection"
            buf += chunk
        return buf

    def connect(self) -> bytes:
        """The CNXN handshake; returns the device banner."""
        self.write(A_CNXN, 0x01000001, 256 * 1024, b"host::\0")
        command, arg0, _, banner = self.read()
        if command == A_AUTH and arg0 == AUTH_TOKEN:  # adbd trusts the key in the HOME of the user who started it
            key = AdbKey.load(self.home / ".android" / "adbkey")
            self.write(A_AUTH, AUTH_SIGNATURE, 0, key.sign(banner))
            command, _, _, banner = self.read()
        assert command == A_CNXN
        return banner

    def shell(self, line: str) -> str:
        """Run `line` over a `shell:` stream; returns its output."""
        local, self.next_id = self.next_id, self.next_id + 1
        self.write(A_OPEN, local, 0, f"shell:{line}".encode() + b"\0")
        out = b""
        while True:
            command, arg0, arg1, data = self.read()
            if command == A_WRTE:
                out += data
                self.write(A_OKAY, local, arg0)
            elif command == A_CLSE:
                if arg0:
                    self.write(A_CLSE, local, arg0)
                return out.decode()

    def close(self) -> None:
        """Hang up."""
        self.sock.close()


def _getprop_until(adbd: Adbd, value: str) -> str:
    end = time.monotonic() + DEADLINE_S
    while (got := adbd.shell("getprop sys.boot_completed").strip()) != value and time.monotonic() < end:
        time.sleep(0.1)
    return got


@pytest.fixture(scope="module")
def booting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Emulator, str, bytes]]:
    """One emulator booting in 2 s: (it, `sys.boot_completed` read right after ready, its announcement)."""
    home = tmp_path_factory.mktemp("home")
    with socket.create_server(("127.0.0.1", 0)) as adb_server:
        adb_server.settimeout(DEADLINE_S)
        with emulator(home, "-sim-boot-s", "2", adb_server_port=adb_server.getsockname()[1]) as emu:
            adbd = Adbd(emu.port + 1, emu.home)
            adbd.connect()
            before = adbd.shell("getprop sys.boot_completed").strip()
            adbd.close()
            conn, _ = adb_server.accept()
            with conn:
                announced = conn.recv(64)
            yield emu, before, announced


def test_process_writes_the_token_and_authenticates_our_console(booting: tuple[Emulator, str, bytes]) -> None:
    emu, _, _ = booting
    assert len((emu.home / ".emulator_console_auth_token").read_text().strip()) >= 16
    console = emu.console()
    assert console.send("ping") == "I am alive!"
    assert console.send("avd name") == "Sim_Pixel"
    assert console.send("avd status") == "virtual device is running"
    assert "avd" in console.send("help")
    with pytest.raises(DeviceProtocolError, match="unknown command, try 'help'"):
        console.send("avd frobnicate")


def test_adb_emu_sends_a_console_command_with_the_users_token(booting: tuple[Emulator, str, bytes],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capfd: pytest.CaptureFixture[str]) -> None:
    """`android-gym-adb -s emulator-PORT emu ...` is the console's client, as `adb emu` is."""
    from android_gym.devices.adb_cli import main as adb

    emu, _, _ = booting
    monkeypatch.setenv("HOME", str(emu.home))
    assert adb(["-s", f"emulator-{emu.port}", "emu", "avd", "name"]) == 0
    assert capfd.readouterr().out == "Sim_Pixel\n"
    assert adb(["-s", "sim-0", "emu", "ping"]) == 1
    assert "emu needs an emulator" in capfd.readouterr().err


def test_process_refuses_a_wrong_token(booting: tuple[Emulator, str, bytes], tmp_path: Path) -> None:
    emu, _, _ = booting
    (tmp_path / "token").write_text("not-the-token")
    with pytest.raises(DeviceProtocolError, match="authentication token does not match"):
        EmulatorConsole(emu.port, 5.0, str(tmp_path / "token")).send("ping")


def test_process_announces_its_adb_port_to_the_adb_server(booting: tuple[Emulator, str, bytes]) -> None:
    emu, _, announced = booting
    request = f"host:emulator:{emu.port + 1}"
    assert announced == f"{len(request):04x}{request}".encode()


def test_adbd_answers_cnxn_and_boot_completes_after_the_delay(booting: tuple[Emulator, str, bytes]) -> None:
    emu, before, _ = booting
    adbd = Adbd(emu.port + 1, emu.home)
    try:
        assert adbd.connect().startswith(b"device::")
        assert before == ""
        assert _getprop_until(adbd, "1") == "1"
    finally:
        adbd.close()


def test_snapshots_save_list_load_delete_and_load_changes_what_adb_reads(
        booting: tuple[Emulator, str, bytes]) -> None:
    emu, _, _ = booting
    console, adbd = emu.console(), Adbd(emu.port + 1, emu.home)
    try:
        adbd.connect()
        adbd.shell("settings put global my_key saved; svc wifi disable")
        console.send("avd snapshot save clean")
        adbd.shell("settings put global my_key changed; svc wifi enable")
        assert adbd.shell("settings get global my_key; settings get global wifi_on").split() == ["changed", "1"]
        assert "clean" in console.send("avd snapshot list")
        console.send("avd snapshot load clean")
        assert adbd.shell("settings get global my_key; settings get global wifi_on").split() == ["saved", "0"]
        with pytest.raises(DeviceProtocolError, match="snapshot 'other' does not exist"):
            console.send("avd snapshot load other")
        console.send("avd snapshot delete clean")
        assert "clean" not in console.send("avd snapshot list")
        with pytest.raises(DeviceProtocolError, match="snapshot 'clean' does not exist"):
            console.send("avd snapshot load clean")
        assert adbd.shell("getprop sys.boot_completed").strip() in ("", "1")  # the boot is the process's, not lost
    finally:
        adbd.close()


def test_refuse_snapshot_fault_refuses_loads_and_kill_exits_0(tmp_path: Path) -> None:
    with emulator(tmp_path, "-sim-fault", "refuse-snapshot", adb_server_port=_closed_port()) as emu:
        console = emu.console()
        console.send("avd snapshot save clean")
        with pytest.raises(DeviceProtocolError, match="failed to load snapshot 'clean'"):
            console.send("avd snapshot load clean")
        assert console.send("kill") == "killing emulator, bye bye"
        assert emu.wait_exit() == 0


def test_hang_fault_never_boots_and_sigterm_exits_0(tmp_path: Path) -> None:
    with emulator(tmp_path, "-sim-boot-s", "0", "-sim-fault", "hang", adb_server_port=_closed_port()) as emu:
        adbd = Adbd(emu.port + 1, emu.home)
        try:
            adbd.connect()
            assert adbd.shell("getprop sys.boot_completed").strip() == ""
        finally:
            adbd.close()
        emu.process.terminate()
        assert emu.wait_exit() == 0


def test_crash_fault_and_bad_arguments_exit_1_with_an_error_line(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    crash = subprocess.run(_command("-avd", "P", "-port", "5554", "-sim-fault", "crash"), env=env,
                           capture_output=True, text=True, timeout=DEADLINE_S)
    assert crash.returncode == 1 and "emulator: ERROR: the emulator crashed" in crash.stderr
    bad = subprocess.run(_command("-avd", "P", "-port", "fifty"), env=env, capture_output=True, text=True,
                         timeout=DEADLINE_S)
    assert bad.returncode == 1
    assert bad.stderr.startswith("emulator: ERROR: option `-port` takes a TCP port")
    assert not (tmp_path / ".emulator_console_auth_token").exists()  # neither started


def test_our_emulator_manager_launches_drives_and_kills_it_unchanged(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    binary = tmp_path / "emulator"
    binary.write_text(f'#!/bin/sh\nexec {sys.executable} -m android_gym.sim.emulator.process "$@"\n')
    binary.chmod(0o755)
    monkeypatch.setenv("HOME", str(tmp_path))
    config = EmulatorConfig(avd="Sim_Pixel", binary=str(binary), console_timeout_s=5.0,
                            console_token_path=str(tmp_path / ".emulator_console_auth_token"))
    managed = ManagedEmulator(config, adb_port=_closed_port())
    try:
        managed.launch()
        end = time.monotonic() + DEADLINE_S
        while READY not in managed.log_tail(4000) and managed.is_running() and time.monotonic() < end:
            time.sleep(0.05)
        assert managed.console.send("avd name") == "Sim_Pixel"
        with pytest.raises(DeviceProtocolError, match="snapshot 'clean' does not exist"):
            managed.load_snapshot("clean")
        managed.console.send("avd snapshot save clean")
        managed.load_snapshot("clean")
        process = managed.process
        managed.kill()
        assert process is not None and process.returncode == 0
    finally:
        if managed.process is not None and managed.process.poll() is None:
            managed.process.kill()
            managed.process.wait(DEADLINE_S)
        managed.kill()
        if managed.log_path is not None:
            managed.log_path.unlink(missing_ok=True)


def _closed_port() -> int:
    """A port nothing listens on (the announcement fails quietly)."""
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


# -- the console's bounds (issue 43) -------------------------------------------------------------------------------


def _read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


@pytest.mark.parametrize("is_authed", [False, True], ids=["before auth", "after auth"])
def test_the_console_closes_a_connection_whose_line_is_over_its_bound(is_authed: bool) -> None:
    """A line longer than the bound (4 KiB before `auth`, 64 KiB after) is answered `KO: line too long` and the
    connection closed, where the console used to buffer a line of any length; a line within the bound is served."""  # noqa: D205, D209
    from android_gym.sim.adb.target import SimTarget
    from android_gym.sim.emulator.console import MAX_LINE_BYTES, MAX_UNAUTHED_LINE_BYTES, ConsoleServer

    port = PortAllocator.allocate()
    console = ConsoleServer(SimTarget("emulator-test"), "Sim", port, "secret", "/nowhere", on_kill=lambda: None)
    limit = MAX_LINE_BYTES if is_authed else MAX_UNAUTHED_LINE_BYTES
    try:
        console.start()
        with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S) as sock:
            buf = b""
            while not buf.endswith(b"OK\r\n"):
                buf += sock.recv(4096)
            if is_authed:
                sock.sendall(b"auth secret\r\n")
                assert sock.recv(4096).endswith(b"OK\r\n")
            # Within the bound: an answer, and the connection stays open.
            sock.sendall(b"x" * (limit - 2) + b"\r\n")
            assert sock.recv(4096).startswith(b"KO: unknown command")
            # One byte over it, no newline: the console stops reading there (exactly what was sent: a clean close).
            sock.sendall(b"y" * (limit + 1))
            assert _read_until_closed(sock).startswith(b"KO: line too long")
    finally:
        console.stop()
        PortAllocator.release(port)
