"""Emulator lifecycle end to end against real `android-gym emulator` processes (issue 18, item 4).

`EmulatorPool` and `EmulatorDevice` launch the sim emulator through a small wrapper executable that records each
process it starts (its PID, in the test's tmp_path) and crashes on demand, behind an `AdbFront(devices=0)` as the ADB
server. Every test runs under the `launches` fixture, which kills whatever emulator the test left alive, even when it
failed, and then fails the test if there was one. Console tokens and emulator logs live in tmp_path.

Other test runs launch emulators on the same port range at the same time; a launch that loses a port to one of them is
relaunched on other ports and counted as `emulator/port_clashes`, so the counts below allow for those (`clashes`).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

from android_gym.actions import Action
from android_gym.devices.emulator import EmulatorConfig, EmulatorDevice
from android_gym.devices.emulator_pool import EmulatorPool
from android_gym.errors import DeviceOfflineError, EnvStateError
from android_gym.sim.adb import AdbFront

try:
    import psutil
except ImportError:  # the port checks then connect to the ports instead
    psutil = None

POOL_SIZE = 8
LAUNCHER = "com.google.android.apps.nexuslauncher"
WRAPPER = """#!{python}
import os, sys
from pathlib import Path
here = Path({here!r})
if "-list-avds" in sys.argv:  # the device's check before its first launch: a listing, not a launch
    from android_gym.sim.emulator.process import main
    sys.exit(main(sys.argv[1:]))
k = 1
while True:  # this launch's ordinal, taken atomically (pool launches run in parallel)
    try:
        os.close(os.open(here / "pids" / f"launch-{{k}}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        break
    except FileExistsError:
        k += 1
(here / "pids" / f"launch-{{k}}").write_text(str(os.getpid()))
crash = here / "crash"  # empty: every launch crashes; else the launch ordinals that crash
if crash.exists() and (not crash.read_text().split() or str(k) in crash.read_text().split()):
    sys.argv += ["-sim-fault", "crash"]
from android_gym.sim.emulator.process import main
sys.exit(main(sys.argv[1:]))
"""


class Launches:
    """The emulator processes a test started, through the wrapper executable at `binary`.

    Args:
        root: the test's tmp_path (the wrapper records PIDs under root/pids).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "pids").mkdir()
        self.binary = root / "emulator"
        self.binary.write_text(WRAPPER.format(python=sys.executable, here=str(root)))
        self.binary.chmod(0o755)

    def pids(self) -> list[int]:
        """Every PID the wrapper recorded, in launch order."""
        files = sorted(self.root.joinpath("pids").glob("launch-*"), key=lambda p: int(p.name.split("-")[1]))
        return [int(text) for text in (f.read_text() for f in files) if text]

    def alive(self) -> list[int]:
        """The recorded PIDs still running as our emulator (zombies count as dead; a reused PID is not ours)."""
        return [pid for pid in self.pids() if self.is_ours(pid)]

    def is_ours(self, pid: int) -> bool:
        """Whether `pid` is a live (non-zombie) process running this test's wrapper."""
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] != "Z" and str(self.binary).encode() in cmdline

    def crash(self, *ordinals: int) -> None:
        """Make the launches with these ordinals (1-based, every later one when none given) crash at start."""
        (self.root / "crash").write_text(" ".join(map(str, ordinals)))

    def heal(self) -> None:
        """Stop crashing launches."""
        (self.root / "crash").unlink(missing_ok=True)

    def kill_all(self) -> list[int]:
        """SIGKILL every emulator of ours still alive (its whole session); returns which were."""
        left = self.alive()
        for pid in left:
            try:
                os.killpg(pid, signal.SIGKILL)  # the emulator runs in its own session (start_new_session)
            except OSError:
                os.kill(pid, signal.SIGKILL)
        end = time.monotonic() + 10
        while self.alive() and time.monotonic() < end:
            time.sleep(0.05)
        return left


@pytest.fixture
def launches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Launches]:
    """The wrapper binary; at teardown every emulator the test left alive is killed, and the test fails for it."""
    monkeypatch.setenv("HOME", str(tmp_path))  # the emulators write, and the console reads, the token here
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # emulator logs go here too
    tracked = Launches(tmp_path)
    try:
        yield tracked
    finally:
        left = tracked.kill_all()
    assert not left, f"emulator processes left alive by the test (now killed): {left}"


@pytest.fixture
def adb_front() -> Iterator[AdbFront]:
    """An ADB server with no phones of its own: the emulators announce themselves to it."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


def config(launches: Launches, **kwargs) -> EmulatorConfig:
    """The wrapped sim emulator, booting in 0.2 s, reset by its "default_boot" snapshot, with short deadlines."""
    return EmulatorConfig(**{"avd": "pixel_7", "binary": str(launches.binary), "extra_args": ("-sim-boot-s", "0.2"),
                             "snapshot": "default_boot", "boot_timeout_s": 30.0, "console_timeout_s": 5.0,
                             "max_relaunches": 1, **kwargs})


def listeners(launches: Launches, ports: list[int]) -> dict[int, int | None]:
    """Which of `ports` have a listening TCP socket, each with its owner's PID (None: unknown).

    Sockets of other processes are left out (other test runs may take a port as soon as ours frees it); with no
    psutil to tell owners apart, any listener counts.
    """
    if psutil is None:
        found: dict[int, int | None] = {}
        for port in ports:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                found[port] = None
            except OSError:
                pass
        return found
    return {c.laddr.port: c.pid for c in psutil.net_connections("tcp")
            if c.status == psutil.CONN_LISTEN and c.laddr.port in ports and (c.pid is None or launches.is_ours(c.pid))}


def ports_of(device: EmulatorDevice) -> list[int]:
    """The console, ADB and gRPC ports of the device's emulator."""
    assert device.instance is not None and device.instance.console_port is not None
    return [device.instance.console_port, device.instance.console_port + 1, device.instance.grpc_port]


def clashes(stats: dict[str, int]) -> int:
    """Launches redone because another process took a port (0 on a quiet machine)."""
    return stats.get("emulator/port_clashes", 0)


def tap_settings(device: EmulatorDevice) -> None:
    """Tap the launcher's Settings icon (over gRPC) and check Settings opened on that emulator's phone."""
    elements = device.ui_elements()
    index = next(i for i, e in enumerate(elements) if e.text == "Settings")
    outcome = device.perform(Action.tap(-1, -1).with_element(index))
    assert outcome.is_valid and device.state()["foreground"] == "com.android.settings"


def test_a_pool_of_8_boots_on_distinct_ports_resets_by_snapshot_plays_and_closes_clean(launches, adb_front):
    """8 instances: distinct, clash-free ports served by their own process; snapshot reset and a tap each; on
    close every process exits 0, no port listens, no log is left."""  # noqa: D205, D209
    pool = EmulatorPool(config(launches), size=POOL_SIZE, stagger_s=0.05, adb={"port": adb_front.port, "timeout_s": 5})
    try:
        devices = pool.start()
        processes = [d.instance.process for d in devices]
        ports = [ports_of(d) for d in devices]
        assert len({p for trio in ports for p in trio}) == 3 * POOL_SIZE
        assert sorted(p.pid for p in processes) == sorted(launches.alive())
        for seed, (device, trio, process) in enumerate(zip(devices, ports, processes, strict=True)):
            owners = listeners(launches, trio)
            assert set(owners) == set(trio) and set(owners.values()) <= {process.pid, None}
            device.reset(seed)
            assert device.state()["foreground"] == LAUNCHER
            tap_settings(device)
            device.reset(1)  # back to the snapshot's launcher
            assert device.state()["foreground"] == LAUNCHER
        stats = pool.stats()
        assert stats["emulator/launches"] == POOL_SIZE + clashes(stats)
        assert stats["emulator/snapshot_loads"] == 2 * POOL_SIZE
        assert stats["grpc/taps"] == POOL_SIZE and "emulator/crashes" not in stats
        with pytest.raises(EnvStateError, match="close"):
            pool.start()  # a second start would orphan the first 8
    finally:
        pool.close()
    assert [p.wait(10) for p in processes] == [0] * POOL_SIZE  # each ended by its console's `kill`
    assert not launches.alive() and not pool.devices
    assert not listeners(launches, [p for trio in ports for p in trio])
    assert not list(launches.root.glob("emulator-*.log"))


def test_a_sigkilled_emulator_truncates_the_episode_and_the_next_reset_relaunches_it(launches, adb_front):
    """SIGKILL mid-episode: the step truncates with a DeviceOfflineError; the next reset plays on a new process."""
    device = EmulatorDevice(config(launches), port=adb_front.port, timeout_s=5)
    env = gym.make("android_gym/General-v0", device=device, screenshot_width=0)
    try:
        env.reset(seed=0)
        killed = device.instance.process
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(10)
        _, reward, terminated, truncated, info = env.step(Action.tap(0.5, 0.5))
        assert truncated and not terminated and reward == 0.0
        assert info["error"].startswith("DeviceOfflineError") and "exited with code -9" in info["error"]
        assert not listeners(launches, ports_of(device))  # a dead emulator's ports are free
        env.reset(seed=1)
        assert device.instance.process.pid != killed.pid and launches.alive() == [device.instance.process.pid]
        _, _, _, truncated, info = env.step(Action.tap(0.5, 0.5))
        assert not truncated and "error" not in info
        stats = device.stats()
        assert (stats["emulator/crashes"], stats["emulator/relaunches"]) == (1, 1)
        assert stats["emulator/launches"] == 2 + clashes(stats)
        assert env.unwrapped.stats["device_faults"] == 1
        ports = ports_of(device)
    finally:
        env.close()
    assert not launches.alive() and not listeners(launches, ports)


def test_a_relaunch_after_a_crash_is_bounded_by_max_relaunches_and_counted(launches, adb_front):
    """A dead emulator is never relaunched behind a device call; reset relaunches it at most 1 + max_relaunches
    times, then raises; a later reset relaunches it again."""  # noqa: D205, D209
    device = EmulatorDevice(config(launches, max_relaunches=1), port=adb_front.port, timeout_s=5)
    try:
        device.reset(0)
        first = device.instance.process
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        with pytest.raises(DeviceOfflineError, match="exited with code -9; reset"):
            device.perform(Action.tap(0.5, 0.5))
        with pytest.raises(DeviceOfflineError, match="exited with code -9"):
            device.screenshot()
        assert not device.health() and len(launches.pids()) == 1 + clashes(device.stats())  # no relaunch behind them
        launches.crash()
        with pytest.raises(DeviceOfflineError, match="failed to boot 2 times"):
            device.reset(1)
        assert len(launches.pids()) == 3 + clashes(device.stats()) and not launches.alive()
        launches.heal()
        device.reset(2)
        tap_settings(device)
        stats = device.stats()
        assert stats["emulator/crashes"] == 1 and stats["emulator/boot_failures"] == 2
        assert stats["emulator/relaunches"] == 3 and stats["emulator/launches"] == 4 + clashes(stats)
    finally:
        device.close()
    assert not launches.alive()


def test_restart_every_2_relaunches_after_every_2_episodes(launches, adb_front):
    """Five episodes with `restart_every=2`: processes a, a, b, b, c, each old one gone, its ports free."""
    device = EmulatorDevice(config(launches, restart_every=2), port=adb_front.port, timeout_s=5)
    pids: list[int] = []
    try:
        for seed in range(5):
            device.reset(seed)
            pids.append(device.instance.process.pid)
            assert launches.alive() == [pids[-1]]
            assert device.state()["foreground"] == LAUNCHER
        assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4] != pids[0]
        stats = device.stats()
        assert stats["emulator/launches"] == 3 + clashes(stats) and stats["emulator/periodic_restarts"] == 2
        assert "emulator/relaunches" not in stats
        ports = ports_of(device)
    finally:
        device.close()
    assert not launches.alive() and not listeners(launches, ports)
    device.close()  # idempotent


def test_a_pool_whose_instance_fails_to_boot_kills_every_instance(launches, adb_front):
    """One of three launches crashes (no relaunch allowed): start() raises naming it, and leaves no emulator."""
    launches.crash(2)
    pool = EmulatorPool(config(launches, max_relaunches=0), size=3, stagger_s=0.05, adb={"port": adb_front.port})
    with pytest.raises(DeviceOfflineError, match="of the pool of 3 .*1 failed; all were killed"):
        with pool:
            pytest.fail("the pool started although an instance crashed")
    assert len(launches.pids()) >= 3 and not launches.alive() and not pool.devices
