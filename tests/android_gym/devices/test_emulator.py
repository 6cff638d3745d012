"""Tests of emulator management against a fake `emulator` binary and console (see fake_emulator.py).

The fake announces itself to the sim's ADB front like a real emulator announces itself to an adb server, so launch,
boot wait, snapshot loads through the console, relaunches and pools run their real code paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from android_gym.devices import emulator_console
from android_gym.devices.configs import HEADLESS_FLAGS
from android_gym.devices.emulator import Emulator, EmulatorConfig, EmulatorDevice
from android_gym.devices.emulator_console import EmulatorConsole, PortAllocator
from android_gym.devices.emulator_pool import EmulatorPool
from android_gym.errors import ConfigError, DeviceOfflineError, DeviceProtocolError, DeviceTimeoutError
from android_gym.sim.adb import AdbFront

HERE = Path(__file__).resolve().parent


@pytest.fixture
def fake_binary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An executable `emulator` that runs fake_emulator.py, logging to $FAKE_EMULATOR_LOG."""
    exe = tmp_path / "emulator"
    exe.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(HERE)!r})\nimport fake_emulator\n"
                   "sys.exit(fake_emulator.main(sys.argv[1:]))\n")
    exe.chmod(0o755)
    monkeypatch.setenv("FAKE_EMULATOR_LOG", str(tmp_path / "emulator.log"))
    return exe


@pytest.fixture
def adb_front() -> Iterator[AdbFront]:
    """An ADB front with no devices of its own: emulators register with it when they start."""
    with AdbFront(devices=0, perturbations="none") as front:
        yield front


def events(tmp_path: Path) -> list[dict]:
    """What the fake emulators logged."""
    path = tmp_path / "emulator.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def config(binary: Path, avd: str = "pixel", **kwargs) -> EmulatorConfig:
    """An EmulatorConfig for the fake binary with short deadlines."""
    return EmulatorConfig(avd=avd, binary=str(binary), boot_timeout_s=kwargs.pop("boot_timeout_s", 10.0),
                          console_timeout_s=5.0, **kwargs)


class Sleeps:
    """A sleep that records what was asked and waits only briefly."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        """Record `seconds`, sleep at most 20 ms."""
        import time

        self.calls.append(seconds)
        time.sleep(min(seconds, 0.02))


def test_pool_launches_staggered_headless_instances_on_distinct_ports(fake_binary, adb_front, tmp_path):
    """N instances: headless read-only flags, distinct console/gRPC ports, launches `stagger_s` apart, all usable."""
    sleeps = Sleeps()
    pool = EmulatorPool(config(fake_binary), size=2, stagger_s=7.0, adb={"port": adb_front.port}, sleep=sleeps)
    try:
        devices = pool.start()
        launches = [e for e in events(tmp_path) if "argv" in e]
        ports = [e["argv"][e["argv"].index("-port") + 1] for e in launches]
        assert len(set(ports)) == 2 and all(set(HEADLESS_FLAGS) <= set(e["argv"]) for e in launches)
        assert all(e["argv"][e["argv"].index("-grpc") + 1] != p for e, p in zip(launches, ports, strict=True))
        assert 7.0 in sleeps.calls
        for d in devices:
            d.reset(0)
            assert d.serial.startswith("emulator-") and d.health()
        assert pool.stats()["emulator/launches"] == 2
    finally:
        pool.close()
    assert all(not _alive(e["pid"]) for e in launches)


def test_reset_loads_the_snapshot_through_the_console(fake_binary, adb_front, tmp_path):
    """Every reset loads the configured snapshot (or the task's) with `avd snapshot load`."""
    dev = EmulatorDevice(config(fake_binary, snapshot="clean"), port=adb_front.port)
    try:
        dev.reset(0)
        dev.reset(1, {"snapshot": {"name": "wifi_off"}})
        loads = [e["snapshot"] for e in events(tmp_path) if "snapshot" in e]
        assert loads == ["clean", "wifi_off"] and dev.stats()["emulator/snapshot_loads"] == 2
    finally:
        dev.close()


def test_stuck_boot_times_out_after_bounded_relaunches(fake_binary, adb_front, tmp_path):
    """A boot that never completes is killed and relaunched at most `max_relaunches` times, then a timeout."""
    dev = EmulatorDevice(config(fake_binary, "stuck", boot_timeout_s=0.5, max_relaunches=1), port=adb_front.port)
    with pytest.raises(DeviceTimeoutError, match="did not finish booting within 0.5 s"):
        dev.start()
    launches = [e for e in events(tmp_path) if "argv" in e]
    clashes = dev.stats().get("emulator/port_clashes", 0)  # another process took a port first: retried, not counted
    assert len(launches) == 2 + clashes and dev.stats()["emulator/boot_failures"] == 2
    assert all(not _alive(e["pid"]) for e in launches)


def test_crashing_emulator_is_offline_with_its_log(fake_binary, adb_front):
    """A process that exits during boot is reported with its exit code and log tail."""
    dev = EmulatorDevice(config(fake_binary, "crash", max_relaunches=0), port=adb_front.port)
    with pytest.raises(DeviceOfflineError, match="fake crash"):
        dev.start()


def test_flaky_first_launch_is_relaunched(fake_binary, adb_front):
    """One crash then a good boot: the device comes up, counting one relaunch."""
    dev = EmulatorDevice(config(fake_binary, "flaky"), port=adb_front.port)
    try:
        dev.start()
        assert dev.health() and dev.stats()["emulator/relaunches"] == 1
    finally:
        dev.close()


def test_periodic_restart_relaunches_every_n_episodes(fake_binary, adb_front):
    """`restart_every=2`: three episodes, two launches."""
    dev = EmulatorDevice(config(fake_binary, restart_every=2), port=adb_front.port)
    try:
        for seed in range(3):
            dev.reset(seed)
        stats = dev.stats()
        assert stats["emulator/launches"] == 2 and stats["emulator/periodic_restarts"] == 1
    finally:
        dev.close()


def test_pool_heals_a_dead_instance(fake_binary, adb_front):
    """A killed emulator fails its health probe and the pool relaunches it."""
    pool = EmulatorPool(config(fake_binary), size=1, stagger_s=0, adb={"port": adb_front.port})
    try:
        (dev,) = pool.start()
        dev.instance.process.kill()
        dev.instance.process.wait(5)
        assert not dev.health()
        assert pool.heal() == 1 and dev.health()
    finally:
        pool.close()


def test_attach_by_serial_loads_snapshots_and_never_kills(fake_binary, adb_front, tmp_path):
    """Attaching to a running emulator uses its console for snapshots and leaves the process alone on close."""
    owner = Emulator(config(fake_binary), adb_front.port)
    owner.launch()
    try:
        owner.wait_booted()
        dev = EmulatorDevice(serial=owner.serial, snapshot="clean", port=adb_front.port, timeout_s=5)
        dev.reset(0)
        dev.close()
        assert owner.is_running()
        assert [e["snapshot"] for e in events(tmp_path) if "snapshot" in e] == ["clean"]
        with pytest.raises(DeviceProtocolError, match="does not exist"):
            owner.load_snapshot("missing")
    finally:
        owner.kill()


def test_console_of_a_gone_emulator_is_offline():
    """Nothing on the console port: an offline error, not a hang."""
    port = PortAllocator.allocate()
    try:
        with pytest.raises(DeviceOfflineError, match="nothing listens"):
            EmulatorConsole(port, timeout_s=1).send("ping")
    finally:
        PortAllocator.release(port)


def test_port_allocator_never_repeats_a_reserved_port():
    """Two allocations without release differ; a released port can come back."""
    a, b = PortAllocator.allocate(), PortAllocator.allocate()
    try:
        assert a != b and a % 2 == 0 and b % 2 == 0
    finally:
        PortAllocator.release(a)
        PortAllocator.release(b)


def test_a_port_another_live_process_claimed_is_skipped_and_a_dead_ones_claim_is_taken_over(monkeypatch, tmp_path):
    """Reservations hold across processes (a test worker and a benchmark launching emulators at once): a port whose
    claim names a running process is not handed out; one whose process has ended is; release removes the claim."""  # noqa: D205, D209
    monkeypatch.setattr(emulator_console, "CLAIMS_BASE", tmp_path)
    port = PortAllocator.allocate()  # a free triple, claimed by this process
    PortAllocator.release(port)
    claims = emulator_console.claims_dir()
    assert claims is not None and not (claims / str(port)).exists()
    (claims / str(port)).write_text(str(os.getppid()))  # a live process (our parent) holds it
    with pytest.raises(DeviceOfflineError, match="no free"):
        PortAllocator.allocate(port, port)
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (claims / str(port)).write_text(finished.stdout.strip())  # a process that has ended held it
    assert PortAllocator.allocate(port, port) == port
    assert (claims / str(port)).read_text() == str(os.getpid())
    PortAllocator.release(port)
    assert not (claims / str(port)).exists()


def test_claims_stay_where_every_process_looks_when_a_process_moves_its_temp_dir(monkeypatch, tmp_path):
    """A process that points `tempfile` elsewhere (for its logs) still claims ports where the others look: the
    lifecycle tests did, and their emulators took a port the AndroidEnv test's process held (UNAUTHENTICATED)."""  # noqa: D205, D209
    before = emulator_console.claims_dir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert before is not None and emulator_console.claims_dir() == before and tmp_path not in before.parents


def test_config_validation_and_sdk_lookup(monkeypatch, tmp_path):
    """Bad values raise ConfigError; the binary comes from $ANDROID_SDK_ROOT when not given."""
    with pytest.raises(ConfigError, match="avd"):
        EmulatorConfig(avd="")
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path))
    assert EmulatorConfig(avd="x").executable() == str(tmp_path / "emulator" / "emulator")
    with pytest.raises(ConfigError, match="emulator `serial`"):
        EmulatorDevice(serial="R58M123")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie child counts as dead
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


@pytest.mark.parametrize("kwargs, is_token", [({}, True), ({"grpc_use_token": False}, False)],
                         ids=["default", "turned off"])
def test_an_emulator_is_launched_with_grpc_token_auth_unless_turned_off(fake_binary, adb_front, tmp_path, kwargs,
                                                                        is_token):
    """Phones only for their owner (issue 43): `-grpc-use-token` right after the gRPC port, by default."""
    emulator = Emulator(config(fake_binary, **kwargs), adb_port=adb_front.port)
    emulator.launch()
    try:
        end = time.monotonic() + 10
        while not (launches := [e for e in events(tmp_path) if "argv" in e]):
            assert time.monotonic() < end, "the fake emulator never logged its argv"
            time.sleep(0.05)
        argv = launches[0]["argv"]
        assert ("-grpc-use-token" in argv) == is_token
        if is_token:
            assert argv[argv.index("-grpc") + 2] == "-grpc-use-token"
    finally:
        emulator.kill()
