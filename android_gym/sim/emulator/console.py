"""The simulated emulator's telnet console (`ConsoleServer`) and its in-memory snapshots (`Snapshots`).

The console speaks like the real one: a banner asking for the token of ~/.emulator_console_auth_token, `auth TOKEN`,
then one command per line, each reply ending in an `OK` or `KO: reason` line. Commands: `help`, `ping`,
`avd name`, `avd status`, `avd snapshot list|save|load|delete`, `sms send NUMBER TEXT` (to the Messages app), `kill`,
`quit`/`exit`.

Snapshots live in memory for the life of the process (there is no disk): a snapshot is plain data copied out of the
`SimTarget` (a deep copy of its phone, its files, settings, IMEs and properties), and loading one swaps that state
back into the same target under its lock, so the ADB side sees the restored phone at once.
"""

from __future__ import annotations

import copy
import hmac
import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

from android_gym.errors import ConfigError
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.app import SMS_DELIVER, Intent
from android_gym.sim.phone import SimPhone
from android_gym.sim.tcp_listener import TcpListener

log = logging.getLogger(__name__)

BANNER = ("Android Console: Authentication required\r\nAndroid Console: type 'auth <auth_token>' to authenticate\r\n"
          "Android Console: you can find your <auth_token> in \r\n'{path}'\r\nOK\r\n")
WELCOME = "Android Console: type 'help' for a list of commands\r\nOK\r\n"
HELP = ("Android console commands:\r\n\r\n    help|h|?         print a list of commands\r\n"
        "    ping             check if the emulator is alive\r\n"
        "    avd              control virtual device execution\r\n"
        "    sms              SMS related commands\r\n"
        "    kill             kill the emulator instance\r\n    quit|exit        quit control session\r\n\r\n"
        "try 'help <command>' for command-specific help\r\n")
UNKNOWN = "KO: unknown command, try 'help'\r\n"
MAX_UNAUTHED_LINE_BYTES = 4096  # before `auth`: `auth <token>` is tens of bytes; a longer line is not a client's
MAX_LINE_BYTES = 64 * 1024  # after `auth`: the longest command is `sms send` (an SMS body is at most a few KB)
TOO_LONG = "KO: line too long ({limit} bytes at most {when}); closing\r\n"
BOOT_PROPS = ("sys.boot_completed", "dev.bootcomplete", "init.svc.bootanim")
"""Properties a snapshot load leaves alone: booting belongs to the process, not to the saved state."""


@dataclass(frozen=True)
class SimState:
    """What a snapshot holds of a `SimTarget`: plain data, never shared with the live target."""

    phone: SimPhone
    files: dict[str, bytes]
    settings: dict[tuple[str, str], str]
    imes: list[str]
    props: dict[str, str]


class Snapshots:
    """Named `SimState`s of one target, kept in memory (thread-safe; each load restores a fresh copy)."""

    def __init__(self) -> None:
        self._states: dict[str, SimState] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """The saved names, sorted."""
        with self._lock:
            return sorted(self._states)

    def save(self, target: SimTarget, name: str) -> None:
        """Copy `target`'s state under `name` (replacing one of that name)."""
        with target.lock:
            state = SimState(copy.deepcopy(target.phone), dict(target.files), dict(target.settings),
                             list(target.imes), dict(target.props))
        with self._lock:
            self._states[name] = state

    def load(self, target: SimTarget, name: str) -> None:
        """Swap state `name` into `target` in place (the shell and adbd keep their references to it).

        Raises:
            ConfigError: no snapshot `name`.
        """
        with self._lock:
            state = self._states.get(name)
        if state is None:
            raise ConfigError(f"snapshot '{name}' does not exist")
        target.settling.load_snapshot()
        phone = copy.deepcopy(state.phone)
        with target.lock:
            phone.version = target.phone.version + 1  # newer than any frame the target has cached
            target.phone = phone
            for live, saved in ((target.files, state.files), (target.settings, state.settings)):
                live.clear()
                live.update(saved)
            target.imes[:] = state.imes
            boot = {k: target.props[k] for k in BOOT_PROPS if k in target.props}
            target.props.clear()
            target.props.update(state.props, **boot)

    def delete(self, name: str) -> None:
        """Forget snapshot `name`.

        Raises:
            ConfigError: no snapshot `name`.
        """
        with self._lock:
            if self._states.pop(name, None) is None:
                raise ConfigError(f"snapshot '{name}' does not exist")


class ConsoleServer:
    """The console on `127.0.0.1:port`, one thread per connection.

    Guarantees: a command runs only after `auth` with `token` (an empty token turns authentication off, as an empty
    token file does for the real emulator); `kill` answers, closes that connection and then calls `on_kill`. Lines
    are bounded (issue 43): a line longer than `MAX_UNAUTHED_LINE_BYTES` before `auth` (`MAX_LINE_BYTES` after) is
    answered `KO: line too long` and the connection is closed, so no client makes the console buffer more.
    Constructing starts nothing; `start()` binds, `stop()` closes the listener and every connection.

    Args:
        target: the phone whose state snapshots save and load.
        avd: the name `avd name` answers.
        port: the TCP port.
        token: the auth token.
        token_path: where the banner says the token is.
        on_kill: called once per `kill`.
        is_refusing_snapshots: every snapshot load answers KO (the `refuse-snapshot` sim fault).
        snapshots: the snapshot store (a fresh empty one by default).
    """

    def __init__(self, target: SimTarget, avd: str, port: int, token: str, token_path: str,
                 on_kill: Callable[[], None], is_refusing_snapshots: bool = False,
                 snapshots: Snapshots | None = None) -> None:
        self.target, self.avd = target, avd
        self.token, self.token_path, self.on_kill = token, token_path, on_kill
        self.is_refusing_snapshots = is_refusing_snapshots
        self.snapshots = snapshots if snapshots is not None else Snapshots()
        self._listener = TcpListener(self._session, "127.0.0.1", port, name="emulator-console")

    def start(self) -> ConsoleServer:
        """Bind and accept connections (idempotent); raises `OSError` when the port is taken."""
        self._listener.start()
        return self

    def stop(self) -> None:
        """Close the listener and every connection (idempotent)."""
        self._listener.close()

    def _session(self, sock: socket.socket) -> None:
        is_authed, is_killed = not self.token, False
        try:
            with sock, sock.makefile("rwb", buffering=0) as f:
                f.write((WELCOME if is_authed else BANNER.format(path=self.token_path)).encode())
                while True:
                    limit = MAX_LINE_BYTES if is_authed else MAX_UNAUTHED_LINE_BYTES
                    raw = f.readline(limit + 1)  # reads at most limit + 1 bytes, however long the line
                    if not raw:
                        break
                    if len(raw) > limit and not raw.endswith(b"\n"):
                        when = "per command" if is_authed else "before auth"
                        log.warning("console: closing a connection that sent a line over %d bytes %s", limit, when)
                        f.write(TOO_LONG.format(limit=limit, when=when).encode())
                        break
                    words = raw.decode("utf-8", "replace").split()
                    if is_authed:
                        reply = self.reply(words)
                    else:
                        reply, is_authed = self._unauthed(words)
                    if reply is None:  # quit / exit
                        return
                    f.write(reply.encode())
                    if is_authed and words == ["kill"]:
                        is_killed = True
                        break
        except OSError:
            pass
        if is_killed:
            self.on_kill()

    def _unauthed(self, words: list[str]) -> tuple[str | None, bool]:
        match words:
            case ["auth", token] if hmac.compare_digest(token.encode(), self.token.encode()):
                return WELCOME, True
            case ["auth", *_]:
                return f"KO: authentication token does not match {self.token_path}\r\n", False
            case ["help" | "h" | "?", *_]:
                return "    help|h|?         print a list of commands\r\n    auth             user authentication\r\n" \
                       "    quit|exit        quit control session\r\nOK\r\n", False
            case ["quit" | "exit"]:
                return None, False
        return UNKNOWN, False

    def reply(self, words: list[str]) -> str | None:
        """The reply to one authenticated command line split into words (None: close the session)."""
        match words:
            case []:
                return ""
            case ["help" | "h" | "?", *_]:
                return HELP + "OK\r\n"
            case ["ping"]:
                return "I am alive!\r\nOK\r\n"
            case ["avd", "name"]:
                return f"{self.avd}\r\nOK\r\n"
            case ["avd", "status"]:
                return "virtual device is running\r\nOK\r\n"
            case ["avd", "snapshot", "list"]:
                return self._list()
            case ["avd", "snapshot", ("save" | "load" | "delete") as verb, name]:
                return self._snapshot(verb, name)
            case ["sms", "send", number, *text] if text:
                return self._sms(number, " ".join(text))
            case ["kill"]:
                log.info("console: killing emulator")
                return "OK: killing emulator, bye bye\r\n"
            case ["quit" | "exit"]:
                return None
        return UNKNOWN

    def _sms(self, number: str, text: str) -> str:
        """An incoming SMS from `number` (digits and a leading +, as the emulator takes them) to the Messages app."""
        if not number.lstrip("+").isdigit():
            return f"KO: bad phone number '{number}'\r\n"
        with self.target.lock:
            delivered = self.target.phone.send_intent(Intent(SMS_DELIVER, extras=(("number", number), ("text", text))))
        return "OK\r\n" if delivered is not None else "KO: this phone has no SMS app\r\n"

    def _list(self) -> str:
        rows = [f"{i:<10}{name:<20}{'0':>8} {'1970-01-01 00:00:00':>20}   00:00:00.000\r\n"
                for i, name in enumerate(self.snapshots.names(), start=1)]
        return ("List of snapshots present on all disks:\r\n"
                "ID        TAG                 VM SIZE                DATE       VM CLOCK\r\n"
                + "".join(rows) + "OK\r\n")

    def _snapshot(self, verb: str, name: str) -> str:
        if verb == "load" and self.is_refusing_snapshots:
            return f"KO: failed to load snapshot '{name}' (sim fault refuse-snapshot)\r\n"
        try:
            match verb:
                case "save":
                    self.snapshots.save(self.target, name)
                case "load":
                    self.snapshots.load(self.target, name)
                case "delete":
                    self.snapshots.delete(name)
        except ConfigError as e:
            return f"KO: {e}\r\n"
        log.info("console: snapshot %s %s", verb, name)
        return "OK\r\n"
