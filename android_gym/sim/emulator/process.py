"""`android-gym emulator`: a simulated phone run as an Android emulator process (`main(argv) -> int`).

It takes the emulator's command line (`args.py`), writes ~/.emulator_console_auth_token if missing, serves adbd on
the ADB port (`AdbdEndpoint`) and the console on the console port (`ConsoleServer`), both on 127.0.0.1 only,
announces `host:emulator:<adb port>` to the ADB server on $ANDROID_ADB_SERVER_PORT (5037 by default), and sets
`sys.boot_completed` to 1 after `-sim-boot-s` seconds. It runs until the console's `kill`, SIGTERM or SIGINT, then
closes everything and exits 0. Bad arguments and the `-sim-fault crash` fault exit 1 with an `emulator: ERROR:` line.

Snapshots are in memory (see `console.py`); the booted phone is saved as "default_boot" (and as `-snapshot NAME`
when absent), the factory state a manager reloads per episode; `-snapshot NAME` loads NAME at boot when held, and since
there is no disk, `-read-only`, `-no-snapshot` and `-no-snapshot-save` have nothing left to stop (the real emulator
would skip writing the quickboot snapshot at exit).

With `-grpc PORT` it also serves the emulator's gRPC services (EmulatorController, SnapshotService; see
`grpc_service.py`) on 127.0.0.1:PORT, sharing the console's snapshots, and advertises itself as the emulator does, in
`pid_<pid>.ini` of the discovery directory (`devices/emulator_discovery.py`; removed at exit). With `-grpc-use-token`
it generates a random token, writes it there as `grpc.token` (the file created 0600) and serves only calls that carry
it (`grpc_access.py`, issue 43); `-grpc-allowlist FILE` opens or closes methods as the real emulator's access JSON
does. Without `grpcio` and `android-env` installed it logs that the service needs `pip install 'distrl[emulator]'`
and runs without it, unless a token was asked for: then it refuses to start (a port left open is worse than none).
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from android_gym.devices.emulator_discovery import advertise, discovery_dir
from android_gym.errors import ConfigError
from android_gym.sim.adb.adbd import AdbdEndpoint
from android_gym.sim.adb.adbkey import AuthorizedKeys
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.emulator.args import (
    HELP_FLAGS,
    HELP_TEXT,
    VERSION_FLAGS,
    VERSION_TEXT,
    EmulatorArgs,
    avd_home,
    check_avd,
    list_avds,
    parse_args,
)
from android_gym.sim.emulator.console import ConsoleServer
from android_gym.sim.latency import LatencyConfig

if TYPE_CHECKING:
    from android_gym.sim.emulator.grpc_service import GrpcServer

log = logging.getLogger("android_gym.sim.emulator")
TOKEN_FILE = ".emulator_console_auth_token"
GRPC_TOKEN_BYTES = 48  # 64 URL-safe characters, as long as the real emulator's 64-character token
ANNOUNCE_TIMEOUT_S = 2.0
DEFAULT_ADB_SERVER_PORT = 5037
BOOTING_PROPS = {"sys.boot_completed": "", "dev.bootcomplete": "", "init.svc.bootanim": "running"}
BOOTED_PROPS = {"sys.boot_completed": "1", "dev.bootcomplete": "1", "init.svc.bootanim": "stopped"}


class EmulatorProcess:
    """One simulated emulator: a `SimTarget` behind adbd, a console and gRPC, booting after `args.sim_boot_s` s.

    Guarantees: `start()` serves every port before it returns (or raises `OSError` when one is taken, or
    `ConfigError` when the gRPC access it was asked for cannot be set up, having closed what it opened); `stop()` is
    idempotent and removes the discovery file; `wait()` returns once `stop()` ran or the console got `kill`. With
    `-grpc-use-token`, `grpc_token` holds the token once `start()` returned, and the discovery file holds it too.

    Args:
        args: the parsed command line.
        home: the directory holding the console token file (the user's home in `main`).
        adb_server_port: the ADB server to announce to (None: announce to nobody).
        discovery: the discovery directory to advertise in (`discovery_dir()` in `main`); None advertises nowhere,
            and then `-grpc-use-token` is refused (no client could find the token).
    """

    def __init__(self, args: EmulatorArgs, home: Path, adb_server_port: int | None,
                 discovery: Path | None = None) -> None:
        self.args, self.home, self.adb_server_port, self.discovery = args, home, adb_server_port, discovery
        self.grpc_token: str | None = None
        self.discovery_path: Path | None = None
        self.target = SimTarget(f"emulator-{args.console_port}", perturbations=args.sim_perturbations,
                                latency=LatencyConfig.coerce(args.sim_latency, args.sim_latency_scale),
                                latency_seed=args.console_port)
        self.adbd: AdbdEndpoint | None = None
        self.console: ConsoleServer | None = None
        self.grpc: GrpcServer | None = None
        self.stopped = threading.Event()
        self._boot_timer: threading.Timer | None = None

    def start(self) -> None:
        """Write the token, serve adbd and the console, start the boot clock, announce to the ADB server."""
        a = self.args
        for flag in a.ignored:
            log.warning("ignoring option %s: the simulated emulator does not model it", flag)
        token_path = self.home / TOKEN_FILE
        with self.target.lock:
            self.target.props.update(BOOTING_PROPS)
        # adbd asks for AUTH and trusts the user's adb key, as an emulator image trusts the host's adbkey.pub (#43)
        self.adbd = AdbdEndpoint(self.target, "127.0.0.1", a.adb_port,
                                 authorized_keys=AuthorizedKeys.of_user(self.home / ".android" / "adbkey"))
        self.console = ConsoleServer(self.target, a.avd, a.console_port, _token(token_path), str(token_path),
                                     on_kill=self.stop, is_refusing_snapshots=a.sim_fault == "refuse-snapshot")
        try:
            self.adbd.start()
            self.console.start()
            if a.grpc_port is not None:
                self.grpc = self._grpc_server(a.grpc_port, self.console)
                if self.grpc is not None:
                    self.grpc.start()
                    self._advertise(a.grpc_port)
        except (OSError, ConfigError):
            self.stop()
            raise
        if a.snapshot and a.is_snapshot_load and a.snapshot in self.console.snapshots.names():
            self.console.snapshots.load(self.target, a.snapshot)
            log.info("loaded snapshot %s", a.snapshot)
        if a.sim_fault != "hang":
            self._boot_timer = threading.Timer(a.sim_boot_s, self._boot_completed)
            self._boot_timer.daemon = True
            self._boot_timer.start()
        if self.adb_server_port is not None:
            _announce(self.adb_server_port, a.adb_port)
        log.info("control console listening on port %d, ADB on port %d", a.console_port, a.adb_port)

    def _grpc_server(self, port: int, console: ConsoleServer) -> GrpcServer | None:
        """The gRPC services over this process's target and console snapshots (None: grpc or android_env missing).

        Raises:
            ConfigError: a token was asked for but cannot be served or advertised, or the allowlist is bad.
        """
        a = self.args
        if a.is_grpc_token and self.discovery is None:
            raise ConfigError("`-grpc-use-token` needs a discovery directory to write the token to; pass "
                              "`discovery` to EmulatorProcess")
        try:
            from android_gym.sim.emulator import grpc_access, grpc_service
        except ImportError as e:  # the optional extra (issue 18): the emulator still serves its console and adbd
            if a.is_grpc_token:
                raise ConfigError(f"`-grpc-use-token` asks for a protected gRPC service on port {port}, which needs "
                                  f"`pip install 'distrl[emulator]'` ({e})") from e
            log.warning("the gRPC service on port %d needs `pip install 'distrl[emulator]'` (%s); serving the "
                        "console and ADB without it", port, e)
            return None
        policy = None
        if a.is_grpc_token:
            self.grpc_token = secrets.token_urlsafe(GRPC_TOKEN_BYTES)
            policy = grpc_access.AccessPolicy.load(self.grpc_token, a.grpc_allowlist)
        else:
            log.warning("*** No gRPC protection active: any local process may call port %d; consider launching "
                        "with -grpc-use-token ***", port)
        controller = grpc_service.EmulatorControllerServicer(self.target, self.stop, self.stopped.is_set)
        snapshots = grpc_service.SnapshotServicer(self.target, console.snapshots, console.is_refusing_snapshots)
        return grpc_service.GrpcServer(controller, snapshots, port, policy)

    def _advertise(self, grpc_port: int) -> None:
        """Write this process's discovery file (with `grpc.token` when there is one), as the emulator does."""
        if self.discovery is None:
            return
        a = self.args
        props = {"port.serial": str(a.console_port), "port.adb": str(a.adb_port), "avd.name": a.avd,
                 "grpc.port": str(grpc_port)}
        if self.grpc_token is not None:
            props["grpc.token"] = self.grpc_token
        path = self.discovery / f"pid_{os.getpid()}.ini"
        with _ADVERTISED_LOCK:
            if path in _ADVERTISED:  # another EmulatorProcess of this process advertises there
                raise ConfigError(f"{path} is already this process's discovery file: give each in-process emulator "
                                  "a discovery directory of its own")
            try:
                self.discovery_path = advertise(self.discovery, props)
            except (OSError, ConfigError) as e:
                if self.grpc_token is None:  # only discovery is lost: clients given the port still reach it
                    log.warning("cannot advertise in %s: %s", self.discovery, e)
                    return
                raise ConfigError(f"cannot write the gRPC token to the discovery directory {self.discovery}: {e}; "
                                  "no client could authenticate") from e
            _ADVERTISED.add(self.discovery_path)
        log.info("advertised in %s", self.discovery_path)

    def _boot_completed(self) -> None:
        # The phone boots to its factory state, which is what the emulator's quickboot snapshot holds: keep it as
        # "default_boot" (and as the -snapshot name, when this process has none of that name), so that a manager's
        # per-episode `avd snapshot load` is a factory reset. Saved before `sys.boot_completed` turns 1: a manager
        # that loads it as soon as it sees the boot must find it (a load keeps the live boot properties).
        if self.console is not None:
            for name in dict.fromkeys(("default_boot", self.args.snapshot or "default_boot")):
                if name not in self.console.snapshots.names():
                    self.console.snapshots.save(self.target, name)
        with self.target.lock:
            self.target.props.update(BOOTED_PROPS)
        log.info("boot completed after %g s", self.args.sim_boot_s)

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until stopped (or `timeout_s` seconds); returns whether it stopped."""
        return self.stopped.wait(timeout_s)

    def stop(self) -> None:
        """Stop the boot clock and every server, remove the discovery file (idempotent)."""
        if self._boot_timer is not None:
            self._boot_timer.cancel()
        for server in (self.grpc, self.console, self.adbd):
            if server is not None:
                server.stop()
        with _ADVERTISED_LOCK:
            path, self.discovery_path = self.discovery_path, None
            if path is not None:
                path.unlink(missing_ok=True)
                _ADVERTISED.discard(path)
        self.stopped.set()

    def __enter__(self) -> EmulatorProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_ADVERTISED: set[Path] = set()  # discovery files EmulatorProcesses of this process wrote (one per pid, as the real one)
_ADVERTISED_LOCK = threading.Lock()


def _token(path: Path) -> str:
    """The console token, written (owner-only) when missing, as the real emulator does at startup.

    Emulators of one user starting at once share the file: it is written whole under another name and linked into
    place only if still absent, so one token wins and no emulator reads a half-written file or fails on the race.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, draft = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # created 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(12))
            os.link(draft, path)
        except FileExistsError:
            pass  # another emulator's token came first: use it
        finally:
            os.unlink(draft)
    return path.read_text().strip()


def _announce(server_port: int, adb_port: int) -> None:
    """Send `host:emulator:<adb_port>` to the ADB server; failure is logged and ignored (the real one retries)."""
    request = f"host:emulator:{adb_port}".encode()
    try:
        with socket.create_connection(("127.0.0.1", server_port), timeout=ANNOUNCE_TIMEOUT_S) as sock:
            sock.sendall(f"{len(request):04x}".encode() + request)
    except OSError as e:
        log.debug("no ADB server on port %d to announce to (%s)", server_port, e)


def _adb_server_port(text: str | None) -> int:
    """$ANDROID_ADB_SERVER_PORT as a port (5037 when unset or not a number, as adb itself falls back)."""
    try:
        return int(text) if text else DEFAULT_ADB_SERVER_PORT
    except ValueError:
        log.warning("ANDROID_ADB_SERVER_PORT=%r is not a port; announcing to %d", text, DEFAULT_ADB_SERVER_PORT)
        return DEFAULT_ADB_SERVER_PORT


def _configure_logging(is_verbose: bool) -> None:
    """`emulator: LEVEL: message` lines: errors on stderr, the rest on stdout (where the emulator writes them)."""
    form = logging.Formatter("emulator: %(levelname)s: %(message)s")
    out, err = logging.StreamHandler(sys.stdout), logging.StreamHandler(sys.stderr)
    out.addFilter(lambda record: record.levelno < logging.ERROR)
    err.setLevel(logging.ERROR)
    for handler in (out, err):
        handler.setFormatter(form)
        log.addHandler(handler)
    log.setLevel(logging.DEBUG if is_verbose else logging.INFO)
    log.propagate = False


def main(argv: list[str]) -> int:
    """Run the emulator until `kill`, SIGTERM or SIGINT; 0 then, 1 on bad arguments, a taken port or `crash`.

    `-help` prints the usage, `-version` the version, and `-list-avds` the AVD store's names, and each exits 0, as
    the emulator does.
    """
    if any(word in HELP_FLAGS for word in argv):
        print(HELP_TEXT, end="", flush=True)
        return 0
    if any(word in VERSION_FLAGS for word in argv):
        print(VERSION_TEXT, end="", flush=True)
        return 0
    if "-list-avds" in argv:
        print("".join(f"{name}\n" for name in list_avds(avd_home(os.environ))), end="", flush=True)
        return 0
    try:
        args = parse_args(argv)
        check_avd(args.avd, avd_home(os.environ))
    except ConfigError as e:
        print(f"emulator: ERROR: {e}", file=sys.stderr, flush=True)
        return 1
    _configure_logging(args.is_verbose)
    if args.sim_fault == "crash":
        log.error("the emulator crashed while starting (sim fault crash)")
        return 1
    emulator = EmulatorProcess(args, Path.home(), _adb_server_port(os.environ.get("ANDROID_ADB_SERVER_PORT")),
                               discovery_dir())
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: emulator.stopped.set())
    try:
        emulator.start()
    except OSError as e:
        log.error("cannot serve console port %d / ADB port %d / gRPC port %s: %s", args.console_port, args.adb_port,
                  args.grpc_port, e)
        return 1
    except ConfigError as e:  # gRPC access that cannot be set up: never serve the port unprotected instead
        log.error("%s", e)
        return 1
    try:
        while not emulator.wait(0.5):
            pass
    finally:
        emulator.stop()
    log.info("emulator stopped")
    return 0


def script() -> int:
    """The `android-gym-emulator` executable (one path, for managers that take an emulator binary)."""
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
