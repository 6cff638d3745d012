"""The emulator console client and the allocator of emulator ports.

`EmulatorConsole` drives the Android emulator's telnet console (snapshot loads, kill, ping) under deadlines;
`PortAllocator` hands out console/ADB/gRPC ports for emulator instances that never clash within a process.
"""

from __future__ import annotations

import atexit
import os
import socket
import stat
import tempfile
import threading
import time
from pathlib import Path

from android_gym.devices.configs import GRPC_OFFSET  # gRPC port = console port + 3000 (8554 for 5554)
from android_gym.errors import ConfigError, DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError

FIRST_CONSOLE_PORT, LAST_CONSOLE_PORT = 5554, 5682  # the emulator's own range; the ADB port is console + 1


class EmulatorConsole:
    """One command at a time to the console on `127.0.0.1:port`, authenticated with the user's token.

    Args:
        port: the console port (the number in "emulator-5554").
        timeout_s: deadline of each command (connect, banner, auth, reply), seconds.
        token_path: the auth token file; None means ~/.emulator_console_auth_token (read when needed).
    """

    def __init__(self, port: int, timeout_s: float = 10.0, token_path: str | None = None) -> None:
        self.port, self.timeout_s, self.token_path = port, timeout_s, token_path

    def send(self, command: str) -> str:
        """Run `command` ("avd snapshot load clean", "kill", "ping") and return its reply text before "OK".

        Raises:
            DeviceOfflineError: nothing listens on the port (the emulator is gone).
            DeviceTimeoutError: no complete reply within `timeout_s`.
            DeviceProtocolError: the console answered "KO: ..." or garbage.
        """
        if "\n" in command or "\r" in command:
            raise ConfigError(f"`command` must be one line, got {command!r}")
        end = time.monotonic() + self.timeout_s
        what = f"emulator console {self.port} `{command}`"
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout_s) as sock:
                buf = bytearray()
                banner = self._until_ok(sock, buf, end, what)
                if "Authentication required" in banner:
                    self._send(sock, f"auth {self._token()}")
                    self._until_ok(sock, buf, end, what)
                self._send(sock, command)
                return self._until_ok(sock, buf, end, what, closing=command == "kill")
        except ConnectionRefusedError as e:
            raise DeviceOfflineError(f"{what}: nothing listens on port {self.port} (is the emulator running?)") from e
        except TimeoutError as e:
            raise DeviceTimeoutError(f"{what} did not answer within {self.timeout_s:g} s") from e
        except OSError as e:
            raise DeviceOfflineError(f"{what}: {e}") from e

    def _token(self) -> str:
        path = Path(self.token_path or os.path.join(os.path.expanduser("~"), ".emulator_console_auth_token"))
        try:
            return path.read_text().strip()
        except OSError as e:
            raise DeviceProtocolError(f"the emulator console asks for a token but {path} cannot be read ({e})") from e

    @staticmethod
    def _send(sock: socket.socket, line: str) -> None:
        sock.sendall(line.encode("utf-8") + b"\r\n")

    def _until_ok(self, sock: socket.socket, buf: bytearray, end: float, what: str, closing: bool = False) -> str:
        """Read lines until "OK" (returning what came before) or "KO: reason" (raising)."""
        lines: list[str] = []
        while True:
            while b"\n" not in buf:
                left = end - time.monotonic()
                if left <= 0:
                    raise DeviceTimeoutError(f"{what} did not answer within {self.timeout_s:g} s")
                sock.settimeout(left)
                chunk = sock.recv(4096)
                if not chunk:
                    if closing:
                        return "\n".join(lines)
                    raise DeviceOfflineError(f"{what}: the console closed the connection")
                buf += chunk
            raw, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if line == "OK" or line.startswith("OK:"):
                return "\n".join(lines + ([line[3:].strip()] if line.startswith("OK:") else []))
            if line.startswith("KO"):
                raise DeviceProtocolError(f"{what} failed: {line}")
            lines.append(line)


class PortAllocator:
    """Hands out even console ports whose console, ADB and gRPC ports are all free, never twice on this machine.

    A port is reserved in this process and, across processes of this user, by a claim file in a private directory
    (`claims_dir`: created 0700, used only if it is a real directory this user owns): two trainers, or a test worker
    and a benchmark, launching emulators at once would otherwise both find the same ports free before either bound
    them, and one emulator's client would reach the other's (seen as an UNAUTHENTICATED gRPC reply from an emulator
    that asks for a token). A claim whose process has ended is stale and taken over.
    """

    _reserved: set[int] = set()
    _lock = threading.Lock()

    @classmethod
    def allocate(cls, first: int = FIRST_CONSOLE_PORT, last: int = LAST_CONSOLE_PORT) -> int:
        """A free console port in [first, last] (even), reserved until `release` (or this process ends).

        Raises:
            DeviceOfflineError: every port pair in the range is taken.
        """
        candidates = list(range(first + first % 2, last + 1, 2))
        # Each process starts its scan at its own place (by pid), so that processes rarely contend for one claim.
        start = os.getpid() % len(candidates) if candidates else 0
        with cls._lock:
            for port in candidates[start:] + candidates[:start]:
                if port in cls._reserved:
                    continue
                if all(is_port_free(p) for p in (port, port + 1, port + GRPC_OFFSET)) and claim(port):
                    cls._reserved.add(port)
                    return port
        raise DeviceOfflineError(f"no free emulator console port pair in {first}..{last}; stop some emulators")

    @classmethod
    def release(cls, port: int) -> None:
        """Give `port` back."""
        with cls._lock:
            if port in cls._reserved:
                cls._reserved.discard(port)
                unclaim(port)


CLAIMS_BASE = Path(tempfile.gettempdir())
"""Where `claims_dir` lives, fixed when this module is imported: every process of the user must find the claims in one
place, even one that later points `tempfile` elsewhere for its own files (a test redirecting emulator logs did, and
its emulators took ports another process held)."""


def claims_dir() -> Path | None:
    """This user's directory of port claims (created 0700), or None when it cannot be trusted (not a directory this
    user owns with mode 0700, e.g. a symlink another user planted): then ports are reserved in-process only."""  # noqa: D205, D209
    path = CLAIMS_BASE / f"android-gym-ports-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) != 0o700:
        return None
    return path


def claim(name: int | str) -> bool:
    """Claim `name` (a port, a host slot's "slot-N") for this process across processes; False when a live process
    holds it. True without a claim file where `claims_dir` cannot be trusted: callers keep an in-process set too."""  # noqa: D205, D209
    directory = claims_dir()
    if directory is None:
        return True
    path = directory / str(name)
    for _ in range(2):  # a stale claim is removed once, then claimed afresh
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            if _holder_alive(path):
                return False
            path.unlink(missing_ok=True)
            continue
        except OSError:
            return True  # the claim cannot be written: fall back to the in-process reservation
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
    return False


def _holder_alive(path: Path) -> bool:
    """Whether the process named in claim file `path` is running (an unreadable claim counts as held)."""
    try:
        pid = int(path.read_text().strip() or "0")
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def unclaim(name: int | str) -> None:
    """Remove this process's claim of `name`, if it holds one."""
    directory = claims_dir()
    if directory is None:
        return
    path = directory / str(name)
    try:
        if int(path.read_text().strip()) == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


@atexit.register
def _release_all() -> None:
    for port in list(PortAllocator._reserved):
        unclaim(port)


def is_port_free(port: int) -> bool:
    """Whether 127.0.0.1:`port` can be bound as the emulator's servers bind (connections in TIME_WAIT do not count)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False
