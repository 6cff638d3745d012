"""`android-gym-adb`: the `adb` command line over any ADB server, for tools that run an `adb` binary.

AndroidEnv's `AdbController` and `AdbLogStream`, test scripts and shell recipes call `adb -P PORT -s SERIAL shell ...`
as a program; where Android's platform-tools are not installed, this command stands in for it. It speaks the ADB
host protocol to the server at `-H`/`-P` (default 127.0.0.1 and $ANDROID_ADB_SERVER_PORT or 5037): a real adb server
or the sim's ADB front. When nothing listens there (and the address is loopback) it starts `android-gym serve-adb`
on that port, serving no phone of its own (emulators announce themselves to it), as `adb` starts its daemon; the
server lives until `kill-server`, and logs to `<tmp>/android-gym-<uid>/adb.log` (as adb to `/tmp/adb.<uid>.log`): a
folder only its user can enter (0700, refused if another user made it), the log opened with `O_NOFOLLOW`, so a link
planted in the shared temp folder is refused, never appended through (issue 43).

Commands, with adb's output and exit status: `devices [-l]`, `version`, `start-server`, `kill-server`,
`wait-for-device` (and `wait-for-any-device`, then an optional command), `get-state`, `get-serialno`, `shell CMD...`
(the remote exit status, over shell protocol v2 where the device has it; output streamed as it comes), `exec-out`,
`logcat [ARGS]` (streamed until the reader or the device stops), `push LOCAL... REMOTE`, `pull REMOTE [LOCAL]`,
`install APK` / `uninstall PKG` (through `pm`), `connect` / `disconnect`, `emu CMD...` (the emulator's console).
Interactive shells are not offered.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from android_gym.devices.adb_channel import AdbChannel, call_adbutils
from android_gym.errors import AndroidGymError, DeviceError, UnsafePathError
from android_gym.safe_files import open_append, private_dir

VERSION_TEXT = "Android Debug Bridge version 1.0.41\nVersion 35.0.2-android-gym\n"
"""What `adb version` prints (1.0.41: the host protocol version 0x29 the sim's front answers)."""
HELP_TEXT = """\
global options:
 -e                       use the emulator (the only one)
 -d                       use the USB device (the only one)
 -s SERIAL                use the device with this serial (overrides $ANDROID_SERIAL)
 -H                       name of the adb server host [default=localhost]
 -P                       port of the adb server [default=5037, or $ANDROID_ADB_SERVER_PORT]

general commands:
 devices [-l]             list connected devices (-l for long output)
 help                     show this help message
 version                  show version num

networking:
 connect HOST[:PORT]      connect to a device via TCP/IP [default port=5555]
 disconnect [HOST[:PORT]] disconnect from the given TCP/IP device, or all

file transfer:
 push LOCAL... REMOTE     copy local files/directories to device
 pull REMOTE [LOCAL]      copy files/dirs from device

shell:
 shell COMMAND...         run remote shell command (no interactive shell here)
 exec-out COMMAND         run a command on the device, with its raw binary output

app installation:
 install PACKAGE          push a single package to the device and install it
 uninstall PACKAGE        remove this app package from the device

debugging:
 logcat [ARGS]            show the device's log (streamed until stopped)

scripting:
 wait-for-device [CMD]    wait for a device to be online, then run CMD
 get-state                print offline | bootloader | device
 get-serialno             print SERIAL_NUMBER

internal debugging:
 start-server             ensure that there is a server running
 kill-server              kill the server if it is running

emulator:
 emu COMMAND              run an emulator console command

environment variables:
 $ANDROID_SERIAL          serial number to connect to (see -s)
 $ANDROID_ADB_SERVER_PORT port of the adb server (see -P)
"""
"""What `adb help` prints after the version lines: adb's own layout, listing what this adb implements."""
REQUEST_TIMEOUT_S = 10.0
"""Deadline of one request to the server (a command's own output then takes as long as it takes)."""
SERVER_START_TIMEOUT_S = 20.0
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class AdbUsageError(AndroidGymError, ValueError):
    """A command line `adb` would refuse (its message is printed after "adb: ")."""


@dataclass
class Options:
    """The global options: the server's address and the device selection (`-s`, `-e`, `-d`)."""

    host: str = "127.0.0.1"
    port: int = 5037
    serial: str | None = None
    select: str | None = None  # "emulator" (-e) or "usb" (-d) when no serial is given

    def channel(self) -> AdbChannel:
        """A channel to the selected device (None serial: the server's only one)."""
        return AdbChannel(self.device_serial(), self.host, self.port)

    def server(self) -> AdbChannel:
        """A channel for host requests."""
        return AdbChannel(self.serial, self.host, self.port)

    def device_serial(self) -> str | None:
        """The serial `-s`/$ANDROID_SERIAL names, or the only emulator (-e) / non-emulator (-d), or None."""
        if self.serial is not None or self.select is None:
            return self.serial
        listed = [line.split("\t")[0] for line in self.server().host_request("host:devices", REQUEST_TIMEOUT_S)
                  .splitlines() if line.strip()]
        chosen = [s for s in listed if s.startswith("emulator-") == (self.select == "emulator")]
        if len(chosen) != 1:
            raise AdbUsageError(f"more than one {self.select}" if chosen else f"no {self.select} found")
        return chosen[0]

    def host_query(self, query: str) -> str:
        """A per-device host query ("get-state") for the selected device."""
        serial = self.device_serial()
        prefix = "host:" if serial is None else f"host-serial:{serial}:"
        return self.server().host_request(prefix + query, REQUEST_TIMEOUT_S)


def parse_globals(args: list[str]) -> tuple[Options, list[str]]:
    """The global options before the command, and the command's words.

    Raises:
        AdbUsageError: an unknown option, an option without its value, or a port that is not a number.
    """
    opts = Options(port=_port(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"), "ANDROID_ADB_SERVER_PORT"),
                   serial=os.environ.get("ANDROID_SERIAL") or None)
    words = list(args)
    while words and words[0].startswith("-"):
        flag = words.pop(0)
        if flag in ("-e", "-d"):
            opts.select = "emulator" if flag == "-e" else "usb"
            continue
        if flag not in ("-s", "-P", "-H"):
            raise AdbUsageError(f"unknown option {flag} (this adb takes -s SERIAL, -P PORT, -H HOST, -e, -d)")
        if not words:
            raise AdbUsageError(f"option {flag} needs a value")
        value = words.pop(0)
        if flag == "-s":
            opts.serial = value
        elif flag == "-P":
            opts.port = _port(value, "-P")
        else:
            opts.host = value
    return opts, words


def _port(value: str, what: str) -> int:
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise AdbUsageError(f"{what} must be a TCP port number, got {value!r}")
    return int(value)


# -- the server --------------------------------------------------------------------------------------------------
def server_running(opts: Options) -> bool:
    """Whether something accepts connections at the server's address."""
    try:
        with socket.create_connection((opts.host, opts.port), timeout=2.0):
            return True
    except OSError:
        return False


def log_path() -> Path:
    """The server's log, `<tmp>/android-gym-<uid>/adb.log`; the folder is made 0700 if missing.

    Raises:
        UnsafePathError: the folder is a link, belongs to another user, or is not a folder (the message says what
            to remove).
    """
    return private_dir(Path(tempfile.gettempdir()) / f"android-gym-{os.getuid()}") / "adb.log"


def ensure_server(opts: Options) -> None:
    """Start `android-gym serve-adb` on the server's port if nothing listens there (loopback only), as adb does.

    Raises:
        DeviceError: nothing listens at a non-loopback address, the server did not come up in time, or its log
            cannot be written safely (a planted link or another user's folder: refused, never followed).
    """
    if server_running(opts):
        return
    if opts.host not in _LOOPBACK:
        raise DeviceError(f"cannot connect to daemon at tcp:{opts.host}:{opts.port}: connection refused")
    print(f"* daemon not running; starting now at tcp:{opts.port}", file=sys.stderr, flush=True)
    try:
        log_file = log_path()
        log = open_append(log_file)
    except UnsafePathError as e:
        raise DeviceError(f"not starting the ADB server: its log is unsafe: {e}") from e
    with tempfile.TemporaryDirectory() as tmp, log:
        ready = Path(tmp) / "ready.json"
        process = subprocess.Popen(  # noqa: S603  (our own module, fixed arguments)
            [sys.executable, "-m", "android_gym.cli", "serve-adb", "--devices", "0", "--host", "127.0.0.1",
             "--port", str(opts.port), "--ready-file", str(ready)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        end = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _is_ready(ready):  # the server writes the file once it serves
            if process.poll() is not None or time.monotonic() > end:
                if process.poll() is None:
                    process.kill()
                raise DeviceError(f"could not start the ADB server on port {opts.port} (see {log_file})")
            time.sleep(0.05)
    print("* daemon started successfully", file=sys.stderr, flush=True)


def _is_ready(path: Path) -> bool:
    """Whether `serve-adb` has written its ready file whole (it may be caught half-written)."""
    try:
        return "port" in json.loads(path.read_text())
    except (OSError, ValueError):
        return False


# -- commands ----------------------------------------------------------------------------------------------------
def cmd_devices(opts: Options, args: list[str]) -> int:
    """`devices [-l]`."""
    listing = opts.server().host_request("host:devices-l" if "-l" in args else "host:devices", REQUEST_TIMEOUT_S)
    sys.stdout.write("List of devices attached\n" + listing + "\n")
    return 0


def cmd_version(opts: Options, args: list[str]) -> int:
    """`version`."""
    sys.stdout.write(VERSION_TEXT + f"Installed as {sys.argv[0]}\n")
    return 0


def usage() -> str:
    """The version lines, then `HELP_TEXT` (what `adb help` prints)."""
    return VERSION_TEXT + f"Installed as {sys.argv[0]}\n\n" + HELP_TEXT


def cmd_help(opts: Options, args: list[str]) -> int:
    """`help` after global options."""
    sys.stdout.write(usage())
    return 0


def cmd_start_server(opts: Options, args: list[str]) -> int:
    """`start-server` (the server was started, if needed, before this runs)."""
    return 0


def cmd_kill_server(opts: Options, args: list[str]) -> int:
    """`kill-server`: stop the server (nothing to do when none runs)."""
    if not server_running(opts):
        return 0
    opts.server().host_command("host:kill", REQUEST_TIMEOUT_S)
    end = time.monotonic() + REQUEST_TIMEOUT_S
    while server_running(opts):  # as adb, return once the server is gone (its port free for the next one)
        if time.monotonic() > end:
            raise DeviceError(f"the ADB server at {opts.host}:{opts.port} took the kill but still listens after "
                              f"{REQUEST_TIMEOUT_S:g} s")
        time.sleep(0.05)
    return 0


def cmd_get_state(opts: Options, args: list[str]) -> int:
    """`get-state`: "device", "offline", ..."""
    print(opts.host_query("get-state"))
    return 0


def cmd_get_serialno(opts: Options, args: list[str]) -> int:
    """`get-serialno`."""
    print(opts.host_query("get-serialno"))
    return 0


def cmd_wait_for_device(opts: Options, args: list[str]) -> int:
    """`wait-for-device [COMMAND...]`: poll until the device is online, then run the rest as a command."""
    while True:
        try:
            if opts.host_query("get-state") == "device":
                break
        except (DeviceError, AdbUsageError):
            pass
        time.sleep(0.2)
    return run_command(opts, args) if args else 0


def cmd_shell(opts: Options, args: list[str]) -> int:
    """`shell [-n] [-T] [-x] COMMAND...`: the words joined by spaces, as adb joins them."""
    words = list(args)
    while words[:1] and words[0] in ("-n", "-T", "-t", "-tt", "-x"):
        words.pop(0)
    if not words:
        raise AdbUsageError("interactive shells are not offered by android-gym-adb; pass a command")
    return run_shell(opts, " ".join(words))


def cmd_exec_out(opts: Options, args: list[str]) -> int:
    """`exec-out COMMAND...`: raw stdout, binary-safe."""
    with opts.channel().open("exec:" + " ".join(args), REQUEST_TIMEOUT_S) as sock:
        _copy(sock, sys.stdout.buffer)
    return 0


def cmd_logcat(opts: Options, args: list[str]) -> int:
    """`logcat [ARGS...]`: as adb sends it (`export ANDROID_LOG_TAGS="''" ; exec logcat 'ARG'...`)."""
    return run_shell(opts, "export ANDROID_LOG_TAGS=\"''\" ; exec logcat" + "".join(f" {shlex.quote(a)}"
                                                                                     for a in args))


def cmd_push(opts: Options, args: list[str]) -> int:
    """`push [--sync] LOCAL... REMOTE` (into REMOTE when it is a folder)."""
    paths = [a for a in args if not a.startswith("-")]
    if len(paths) < 2:
        raise AdbUsageError("push requires an argument: push LOCAL... REMOTE")
    *sources, remote = paths
    device = _adbutils_device(opts)
    for source in sources:
        if not Path(source).is_file():
            raise AdbUsageError(f"cannot stat '{source}': No such file or directory")
        started = time.monotonic()
        size = call_adbutils(lambda: device.sync.push(Path(source), remote), f"push {source} {remote}")  # noqa: B023
        print(f"{source}: 1 file pushed, 0 skipped. {_rate(size, started)}")
    return 0


def cmd_pull(opts: Options, args: list[str]) -> int:
    """`pull REMOTE [LOCAL]` (a file)."""
    paths = [a for a in args if not a.startswith("-")]
    if not paths or len(paths) > 2:
        raise AdbUsageError("pull requires an argument: pull REMOTE [LOCAL]")
    remote = paths[0]
    local = Path(paths[1]) if len(paths) == 2 else Path(Path(remote).name)
    if local.is_dir():
        local = local / Path(remote).name
    device = _adbutils_device(opts)
    if not call_adbutils(lambda: device.sync.stat(remote), f"pull {remote}").mode & stat.S_IFREG:
        raise AdbUsageError(f"failed to stat remote object '{remote}': No such file or directory")
    started = time.monotonic()
    size = call_adbutils(lambda: device.sync.pull(remote, local), f"pull {remote}")
    print(f"{remote}: 1 file pulled, 0 skipped. {_rate(size, started)}")
    return 0


def cmd_install(opts: Options, args: list[str]) -> int:
    """`install [-r] [-t] [-g] [-d] APK`: pushed to /data/local/tmp, then `pm install` (its output, its verdict)."""
    flags = [a for a in args if a.startswith("-")]
    apks = [a for a in args if not a.startswith("-")]
    if len(apks) != 1:
        raise AdbUsageError("install requires one APK: install [-r] [-t] [-g] [-d] APK")
    staged = f"/data/local/tmp/{Path(apks[0]).name}"
    cmd_push(opts, [apks[0], staged])
    return _pm(opts, f"pm install {' '.join(flags)} {shlex.quote(staged)}".replace("  ", " "),
               f"failed to install {apks[0]}")


def cmd_uninstall(opts: Options, args: list[str]) -> int:
    """`uninstall [-k] PACKAGE`."""
    packages = [a for a in args if not a.startswith("-")]
    if len(packages) != 1:
        raise AdbUsageError("uninstall requires one package: uninstall [-k] PACKAGE")
    return _pm(opts, f"pm uninstall {shlex.quote(packages[0])}", f"failed to uninstall {packages[0]}")


def cmd_connect(opts: Options, args: list[str]) -> int:
    """`connect HOST[:PORT]`."""
    if len(args) != 1:
        raise AdbUsageError("usage: adb connect HOST[:PORT]")
    address = args[0] if ":" in args[0] else f"{args[0]}:5555"
    print(opts.server().host_request(f"host:connect:{address}", REQUEST_TIMEOUT_S))
    return 0


def cmd_disconnect(opts: Options, args: list[str]) -> int:
    """`disconnect [HOST[:PORT]]`."""
    print(opts.server().host_request(f"host:disconnect:{args[0] if args else ''}", REQUEST_TIMEOUT_S))
    return 0


def cmd_emu(opts: Options, args: list[str]) -> int:
    """`emu COMMAND...`: one command to the emulator's console (the port in its serial, "emulator-5554")."""
    from android_gym.devices.emulator_console import EmulatorConsole

    serial = opts.device_serial() or _only_device(opts)
    if not serial.startswith("emulator-") or not serial[len("emulator-"):].isdigit():
        raise AdbUsageError(f"emu needs an emulator; {serial!r} is not one")
    reply = EmulatorConsole(int(serial[len("emulator-"):]), timeout_s=REQUEST_TIMEOUT_S).send(" ".join(args))
    sys.stdout.write(reply + ("\n" if reply and not reply.endswith("\n") else ""))
    return 0


COMMANDS: dict[str, Callable[[Options, list[str]], int]] = {
    "devices": cmd_devices, "version": cmd_version, "start-server": cmd_start_server,
    "kill-server": cmd_kill_server, "get-state": cmd_get_state, "get-serialno": cmd_get_serialno,
    "wait-for-device": cmd_wait_for_device, "wait-for-any-device": cmd_wait_for_device, "shell": cmd_shell,
    "exec-out": cmd_exec_out, "logcat": cmd_logcat, "push": cmd_push, "pull": cmd_pull, "install": cmd_install,
    "uninstall": cmd_uninstall, "connect": cmd_connect, "disconnect": cmd_disconnect, "emu": cmd_emu,
    "help": cmd_help,
}
NO_SERVER_NEEDED = ("version", "help", "kill-server", "emu")  # emu talks to the console itself


def run_command(opts: Options, words: list[str]) -> int:
    """Run one command (`words[0]`) with its arguments; its exit status."""
    command, args = words[0], words[1:]
    handler = COMMANDS.get(command)
    if handler is None:
        raise AdbUsageError(f"unknown command {command} (`adb help` lists the commands)")
    if command not in NO_SERVER_NEEDED:
        ensure_server(opts)
    return handler(opts, args)


def run_shell(opts: Options, command: str) -> int:
    """Run `command` on the device, streaming its output; the remote exit status (0 over the legacy protocol)."""
    channel = opts.channel()
    features = opts.host_query("features")
    if "shell_v2" not in features.split(","):
        with channel.open(f"shell:{command}", REQUEST_TIMEOUT_S) as sock:
            _copy(sock, sys.stdout.buffer)
        return 0
    with channel.open(f"shell,v2,raw:{command}", REQUEST_TIMEOUT_S) as sock:
        return _copy_v2(sock)


def _copy(sock: socket.socket, out: BinaryIO) -> None:
    while chunk := sock.recv(65536):
        out.write(chunk)
        out.flush()


def _copy_v2(sock: socket.socket) -> int:
    """Shell protocol v2 packets to stdout / stderr as they come; the exit packet's status (1 if none came)."""
    reader = sock.makefile("rb")
    while len(header := reader.read(5)) == 5:
        kind, length = header[0], struct.unpack("<I", header[1:])[0]
        data = reader.read(length)
        if kind == 3:
            return data[0] if data else 1
        out = sys.stdout.buffer if kind == 1 else sys.stderr.buffer
        out.write(data)
        out.flush()
    return 1  # the device went away before the command ended


def _pm(opts: Options, command: str, failure: str) -> int:
    result = opts.channel().shell(command, timeout_s=60.0)
    text = (result.stdout + result.stderr).decode("utf-8", "replace")
    if result.exit_code == 0 and "Success" in text:
        sys.stdout.write(text)
        return 0
    sys.stderr.write(f"adb: {failure}: {text.strip()}\n")
    return 1


def _adbutils_device(opts: Options):  # noqa: ANN202  (an adbutils.AdbDevice; imported lazily)
    import adbutils

    return adbutils.AdbClient(opts.host, opts.port, socket_timeout=60.0).device(opts.device_serial()
                                                                                or _only_device(opts))


def _only_device(opts: Options) -> str:
    return opts.server().host_request("host:get-serialno", REQUEST_TIMEOUT_S)


def _rate(size: int, started: float) -> str:
    seconds = max(time.monotonic() - started, 1e-3)
    return f"{size / seconds / 1e6:.1f} MB/s ({size} bytes in {seconds:.3f}s)"


def main(argv: list[str] | None = None) -> int:
    """Entry point of `android-gym-adb` (and `android-gym adb`).

    As adb: `help`, `--help` and `-h` print the usage (exit 0), `--version` is `version`, and no command at all
    prints the usage to stderr with exit 1.
    """
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["--help"], ["-h"], ["help"]):
        sys.stdout.write(usage())
        return 0
    if args[:1] == ["--version"]:
        args = ["version", *args[1:]]
    try:
        opts, words = parse_globals(args)
        if not words:
            sys.stderr.write(usage())
            return 1
        return run_command(opts, words)
    except (AdbUsageError, DeviceError) as e:
        sys.stderr.write(f"adb: error: {e}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (`| head`) left
        return 141
