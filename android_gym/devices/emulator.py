"""Android emulators (AVDs) as devices: headless launch, boot wait, snapshot resets, health, relaunch, pools.

`Emulator` owns one emulator process: ports allocated without clashes (`PortAllocator`), `-no-window -no-audio
-no-boot-anim -read-only -no-snapshot-save`, a boot wait on `sys.boot_completed` with a deadline, kill. `EmulatorDevice`
is an `AdbDevice` that launches (or attaches to) an emulator, resets by loading a snapshot through the console,
reports a dead emulator as `DeviceOfflineError` and relaunches it at the next reset (bounded), and restarts it every
`restart_every` episodes. `EmulatorPool` (emulator_pool.py) launches N of them staggered, booting in parallel.

An emulator this module launches runs with `-grpc-use-token` by default (`EmulatorConfig.grpc_use_token`, issue 43):
its gRPC port then answers only the holder of the token it writes to its discovery file (owner-only), which the
device's gRPC path reads; other local processes get UNAUTHENTICATED (they still reach ADB and the console as before).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from android_gym.devices.adb import AdbConfig, AdbDevice
from android_gym.devices.adb_channel import AdbChannel
from android_gym.devices.configs import EmulatorConfig
from android_gym.devices.emulator_console import GRPC_OFFSET, EmulatorConsole, PortAllocator, is_port_free
from android_gym.devices.emulator_discovery import process_start
from android_gym.errors import ConfigError, DeviceError, DeviceOfflineError, DeviceTimeoutError, unknown_name

log = logging.getLogger(__name__)
KILL_TIMEOUT_S = 10.0
BOOT_POLL_S = 0.25
PORT_CLASH_RETRIES = 5  # launches on fresh ports when another process took one of ours, beyond `max_relaunches`


class Emulator:
    """One emulator process on its own console/ADB/gRPC ports.

    Args:
        config: what to launch.
        adb_port: the ADB server the emulator announces itself to.
        adb_host: that server's host.
    """

    def __init__(self, config: EmulatorConfig, adb_port: int, adb_host: str = "127.0.0.1") -> None:
        self.config, self.adb_port, self.adb_host = config, adb_port, adb_host
        self.console_port: int | None = None
        self.process: subprocess.Popen | None = None
        self.keeper: subprocess.Popen | None = None  # stops the emulator if this process dies (emulator_keeper)
        self.log_path: Path | None = None

    @property
    def serial(self) -> str:
        """"emulator-<console port>"."""
        if self.console_port is None:
            raise ConfigError("the emulator has no port yet; call launch() first")
        return f"emulator-{self.console_port}"

    @property
    def grpc_port(self) -> int:
        """The port of the emulator's gRPC `EmulatorController` (`-grpc`: console port + `GRPC_OFFSET`)."""
        return int(self.serial.split("-")[1]) + GRPC_OFFSET

    @property
    def console(self) -> EmulatorConsole:
        """The console of this instance."""
        return EmulatorConsole(int(self.serial.split("-")[1]), self.config.console_timeout_s,
                               self.config.console_token_path)

    def launch(self) -> None:
        """Start the process on freshly allocated ports (its output goes to `log_path`).

        Raises:
            ConfigError: no emulator binary can be found (nothing was reserved).
            DeviceOfflineError: the binary cannot be run, or every console port is taken (the ports are released).
        """
        c = self.config
        executable = c.executable()  # before reserving a port: a ConfigError here must not keep one reserved
        self.console_port = PortAllocator.allocate()
        token_flag = ["-grpc-use-token"] if c.grpc_use_token else []
        argv = [executable, "-avd", c.avd, "-port", str(self.console_port),
                "-grpc", str(self.grpc_port), *token_flag, *c.flags, *c.extra_args]
        fd, name = tempfile.mkstemp(prefix=f"emulator-{self.console_port}-", suffix=".log")
        self.log_path = Path(name)
        env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(self.adb_port)}
        if c.sdk_root:
            env["ANDROID_SDK_ROOT"] = c.sdk_root
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=fd, stderr=subprocess.STDOUT,
                                            env=env, start_new_session=True)
        except OSError as e:
            PortAllocator.release(self.console_port)
            self.log_path.unlink(missing_ok=True)
            raise DeviceOfflineError(f"cannot run the emulator `{argv[0]}`: {e}") from e
        finally:
            os.close(fd)
        self.keeper = _keep(self.process.pid)
        log.info("launched %s: %s", self.serial, " ".join(argv))

    def wait_booted(self, sleep: Callable[[float], None] = time.sleep) -> None:
        """Block until the emulator is online and `sys.boot_completed` is 1, or `boot_timeout_s` passes.

        Raises:
            DeviceOfflineError: the process exited (the message carries its log tail).
            DeviceTimeoutError: not booted in time (a stuck boot).
        """
        channel = AdbChannel(self.serial, self.adb_host, self.adb_port)
        end = time.monotonic() + self.config.boot_timeout_s
        while True:
            if not self.is_running():
                raise DeviceOfflineError(f"{self.serial} ({self.config.avd}) exited with code "
                                         f"{self.process.returncode if self.process else None}: {self.log_tail()}")
            try:
                left = max(0.1, min(5.0, end - time.monotonic()))
                if channel.shell("getprop sys.boot_completed", left).text.strip() == "1":
                    return
            except DeviceError:
                pass  # not announced yet, or still starting adbd
            if time.monotonic() >= end:
                raise DeviceTimeoutError(f"{self.serial} ({self.config.avd}) did not finish booting within "
                                         f"{self.config.boot_timeout_s:g} s (boot_timeout_s)")
            sleep(BOOT_POLL_S)

    def is_running(self) -> bool:
        """Whether the process is alive."""
        return self.process is not None and self.process.poll() is None

    def load_snapshot(self, name: str) -> None:
        """Load snapshot `name` through the console (raises `DeviceError` subclasses on failure)."""
        self.console.send(f"avd snapshot load {name}")

    def kill(self) -> None:
        """Stop the emulator: console `kill`, then SIGTERM, then SIGKILL, each bounded; frees its ports (idempotent).

        The log is deleted too, unless the process had exited on its own with an error (kept for a post-mortem, its
        path logged), so that relaunching for days leaves no file per launch behind.
        """
        is_crashed = self.process is not None and self.process.poll() not in (None, 0)
        if self.process is not None and self.process.poll() is None:
            try:
                self.console.send("kill")
                self.process.wait(KILL_TIMEOUT_S)
            except (DeviceError, subprocess.TimeoutExpired):
                self.process.terminate()
                try:
                    self.process.wait(KILL_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(KILL_TIMEOUT_S)
        if self.console_port is not None:
            PortAllocator.release(self.console_port)
        _let_go(self.keeper)
        self.process, self.keeper = None, None
        if is_crashed and self.log_path is not None:
            log.warning("%s exited on its own; its output is in %s", self.serial, self.log_path)
            self.log_path = None
        self.discard_log()

    def has_lost_a_port(self) -> bool:
        """Whether the process exited over a port another process took: one of its ports is listened on now, or its
        output says a port was in use (the taker may be gone already)."""  # noqa: D205, D209
        if self.console_port is None or self.process is None or self.is_running():
            return False
        ports = (self.console_port, self.console_port + 1, self.grpc_port)
        return any(not is_port_free(p) for p in ports) or "already in use" in self.log_tail(2000).lower()

    def discard_log(self) -> None:
        """Delete the output file (nothing in it is worth keeping)."""
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None

    def log_tail(self, n: int = 400) -> str:
        """The last `n` characters of the emulator's output."""
        try:
            return self.log_path.read_text(errors="replace")[-n:] if self.log_path else ""
        except OSError:
            return ""


class EmulatorDevice(AdbDevice):
    """An emulator as a Device: launched (or attached to) on `start()`, snapshot-reset, relaunched on failure.

    Guarantees: `start()` makes at most `1 + max_relaunches` launch attempts, each bounded by `boot_timeout_s`;
    `close()` kills an emulator this device launched (never one it attached to); `stats()` adds emulator counters.
    When the emulator this device launched exits on its own (a crash, a SIGKILL), every later device call raises
    `DeviceOfflineError` (the env truncates the episode) until `reset()` or `start()` relaunches it: an episode never
    continues silently on a freshly booted phone. The death is counted as `emulator/crashes`, the relaunch as
    `emulator/relaunches`.
    A launched emulator's screenshots, touches and keys go over its gRPC port while it answers (else ADB); to use
    gRPC when attaching, pass `grpc_port` (8554 for emulator-5554). The gRPC token of an emulator run with
    `-grpc-use-token` is read from its discovery file at each connect, or given as `grpc_token`.

    Args:
        emulator: what to launch; None attaches to the running emulator named by `serial` ("emulator-5554").
        serial: attach target (with `emulator=None`).
        snapshot: snapshot for resets when attaching (launching uses `emulator.snapshot`).
        sleep: how to wait between staggered launches and boot polls (tests inject a fake).
        grpc_token: the attached emulator's gRPC token (None: its discovery file's `grpc.token`, if any).
        **adb: `AdbConfig` fields (port, timeout_s, ...).
    """

    def __init__(self, emulator: EmulatorConfig | None = None, serial: str | None = None,
                 snapshot: str | None = None, sleep: Callable[[float], None] = time.sleep,
                 grpc_token: str | None = None, **adb: Any) -> None:
        if emulator is None and not (serial or "").startswith("emulator-"):
            raise ConfigError(f"pass `emulator` to launch one, or an emulator `serial` to attach; got {serial!r}")
        super().__init__(serial, **adb)
        self.grpc.token = grpc_token
        self.emulator_config = emulator
        self.snapshot = snapshot or (emulator.snapshot if emulator else None)
        self.instance: Emulator | None = None
        self.episodes = 0
        self._sleep = sleep
        self.emulator_counters: Counter[str] = Counter()
        self._crashed: Emulator | None = None  # the dead instance already counted in `crashes`
        self._is_relaunch_due = False  # close() found the emulator dead: the next launch is a relaunch
        self._is_checked = False  # the ADB server is up and the AVD listed (checked before the first launch)

    @property
    def channel(self) -> AdbChannel:
        """As `AdbDevice.channel`, but a dead emulator of this device's raises instead of being relaunched.

        Raises:
            DeviceOfflineError: the emulator this device launched has exited; `reset()` or `start()` relaunches it.
        """
        if self._is_crashed():
            assert self.instance is not None and self.instance.process is not None
            raise DeviceOfflineError(f"{self.instance.serial} ({self.instance.config.avd}) exited with code "
                                     f"{self.instance.process.returncode}; reset() relaunches it")
        return super().channel

    def start(self) -> None:
        """Launch the emulator if this device owns none running (relaunching a dead one), wait for boot, connect.

        Before the first launch: the ADB server the emulator announces itself to is started if none answers, and
        the AVD is looked for in the emulator's `-list-avds` (a name it does not list is a `ConfigError`, at once).
        """
        if self.emulator_config is not None and (self.instance is None or not self.instance.is_running()):
            self._is_crashed()  # count a death nobody has noticed yet
            super().close()  # the old connection and gRPC channel lead to the dead process
            if not self._is_checked:
                self.connector.reach_server()
                check_avd(self.emulator_config)
                self._is_checked = True
            self._launch()
        super().start()

    def _is_crashed(self) -> bool:
        """Whether the emulator this device launched has exited on its own (counted once per process)."""
        instance = self.instance
        if instance is None or instance.process is None or instance.is_running():
            return False
        if self._crashed is not instance:
            self._crashed = instance
            self.emulator_counters["crashes"] += 1
            log.warning("%s (%s) exited with code %s", instance.serial, instance.config.avd,
                        instance.process.returncode)
        return True

    def _launch(self) -> None:
        """Launch and boot, at most `1 + max_relaunches` times, plus up to `PORT_CLASH_RETRIES` lost port races."""
        c = self.emulator_config
        assert c is not None
        failures = clashes = 0
        is_clash_retry = False
        while True:
            if not is_clash_retry and (self.instance is not None or self._is_relaunch_due):
                self.emulator_counters["relaunches"] += 1
            if self.instance is not None:
                self.instance.kill()
            self._is_relaunch_due = False
            self.instance = Emulator(c, self.connector.port, self.config.host)
            try:
                self.instance.launch()
                self.emulator_counters["launches"] += 1
                self.instance.wait_booted(self._sleep)
                self.config = _with_serial(self.config, self.instance.serial, self.instance.grpc_port)
                self.connector.config = self.config
                self.connector.disconnect()
                return
            except DeviceError as e:
                if "PANIC" in self.instance.log_tail(2000):  # the emulator refused its arguments or AVD: no retry
                    tail = self.instance.log_tail(2000)
                    self.instance.kill()
                    raise ConfigError(f"the emulator refused to start {c.avd}: "
                                      f"{tail[tail.index('PANIC'):].splitlines()[0]}") from e
                # Other processes allocate from the same port range: one may bind a port between our check and our
                # emulator's bind. That is no fault of the emulator's, so it does not use up a relaunch.
                is_clash_retry = clashes < PORT_CLASH_RETRIES and self.instance.has_lost_a_port()
                if is_clash_retry:
                    clashes += 1
                    self.emulator_counters["port_clashes"] += 1
                    log.warning("another process took a port of %s; launching on other ports", self.instance.serial)
                    self.instance.discard_log()
                    continue
                failures += 1
                self.emulator_counters["boot_failures"] += 1
                log.warning("launch %d of %s failed: %s", failures, c.avd, e)
                if failures > c.max_relaunches:
                    self.instance.kill()
                    raise type(e)(f"{c.avd} failed to boot {failures} times; last: {e}") from e

    def close(self) -> None:
        """Disconnect, and kill the emulator if this device launched it (idempotent)."""
        super().close()
        if self.instance is not None:
            self._is_relaunch_due = self._is_crashed()
            self.instance.kill()
            self.emulator_counters["kills"] += 1
            self.instance = None

    def reset(self, seed: int, initial: dict[str, dict[str, Any]] | None = None) -> None:
        """Start an episode: periodic restart if due, snapshot load, HOME, `system` conditions.

        The snapshot is the task's `initial["snapshot"]["name"]`, else the configured one; it is loaded through the
        emulator console, after which the ADB connection is re-established.
        """
        rest = dict(initial or {})
        snapshot = rest.pop("snapshot", {}).get("name") or self.snapshot
        self.episodes += 1
        every = self.emulator_config.restart_every if self.emulator_config else 0
        if every and self.episodes > 1 and (self.episodes - 1) % every == 0:
            self.emulator_counters["periodic_restarts"] += 1
            self.close()
        self.start()
        if snapshot:
            self._console().send(f"avd snapshot load {snapshot}")
            self.emulator_counters["snapshot_loads"] += 1
            super().close()  # the device was replaced under the ADB connection: reconnect and re-probe
        super().reset(seed, rest)

    def _console(self) -> EmulatorConsole:
        if self.instance is not None:
            return self.instance.console
        serial = self.serial or ""
        timeout = self.emulator_config.console_timeout_s if self.emulator_config else self.config.timeout_s
        return EmulatorConsole(int(serial.split("-")[1]), timeout)

    def health(self) -> bool:
        """Process alive (when owned) and the device answers; never raises, never launches an emulator."""
        if self.emulator_config is not None and self.instance is None:
            return False  # not launched yet, or closed
        if self.instance is not None and not self.instance.is_running():
            self._is_crashed()
            return False
        return super().health()

    def stats(self) -> dict[str, int]:
        """ADB counters plus emulator/… counters (launches, relaunches, boot_failures, snapshot_loads, ...)."""
        return {**super().stats(), **{f"emulator/{k}": v for k, v in self.emulator_counters.items()}}


def _keep(pid: int) -> subprocess.Popen | None:
    """Start the watchdog that stops emulator `pid` if this process dies (None: it cannot start; logged)."""
    started = process_start(pid)
    if started is None:
        log.warning("cannot read when emulator pid %d started: it is not watched against this process's death", pid)
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", "android_gym.devices.emulator_keeper", str(pid), repr(started)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as e:
        log.warning("cannot start the watchdog of emulator pid %d (%s)", pid, e)
        return None


def _let_go(keeper: subprocess.Popen | None) -> None:
    """Close the watchdog's pipe (its emulator is stopped already) and reap it."""
    if keeper is None:
        return
    try:
        keeper.stdin.close()
        keeper.wait(KILL_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        keeper.kill()
        keeper.wait(KILL_TIMEOUT_S)


def check_avd(config: EmulatorConfig, timeout_s: float = 60.0) -> None:
    """Refuse an AVD the emulator does not list (`emulator -list-avds`), naming the ones it does.

    An empty listing proves nothing (the simulated emulator without an AVD store takes any name), so only a listing
    without the name is refused; an emulator that panics over the name at launch is refused there too.

    Raises:
        ConfigError: the binary cannot run, or lists AVDs but not `config.avd`.
    """
    exe = config.executable()
    try:
        listing = subprocess.run([exe, "-list-avds"], capture_output=True, text=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ConfigError(f"cannot run `{exe} -list-avds` ({e}): check `device_options.emulator_path` or "
                          "`sdk_root`") from e
    names = [line.strip() for line in listing.stdout.splitlines() if line.strip() and " " not in line.strip()]
    if names and config.avd not in names:
        raise unknown_name(f"AVD (from `{exe} -list-avds`; create it with `avdmanager create avd`)", config.avd,
                           names)


def _with_serial(config: AdbConfig, serial: str, grpc_port: int | None) -> AdbConfig:
    return config.replace(serial=serial, grpc_port=grpc_port)
