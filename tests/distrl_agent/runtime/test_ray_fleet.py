"""An emulator fleet over two Ray nodes on one machine (issue 47): `ray start` head and a second node on loopback with
token authentication, each running 2 emulators (`env.device=emulator:pixel_7`, the simulated emulator installed as
an SDK's); a `distrl train` over both while one emulator is SIGKILLed and later the second node's raylet. The run goes
on: the emulator is relaunched on its host, the lost node's worker and envs are dropped and counted, the surviving
worker keeps delivering (its admission share grown to the learner's need), the episode balance holds, and no emulator
is left running."""  # noqa: D205, D209

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from distrl_agent.config import load_config
from distrl_agent.runtime.accounting import episode_balance
from distrl_agent.runtime.callbacks import Callback
from distrl_agent.runtime.train import train

pytestmark = [pytest.mark.timeout(600),
              pytest.mark.skipif(importlib.util.find_spec("ray") is None or importlib.util.find_spec("grpc") is None,
                                 reason='needs the ray and emulator extras (pip install ".[ray,emulator]")')]
RAY = str(Path(sys.executable).with_name("ray"))
HEAD_CONFIG = '{"worker_niceness": 0, "health_check_period_ms": 1000, "health_check_failure_threshold": 3}'
"""A lost node is declared dead after ~3 s instead of Ray's default ~15-30 s, so the run sees it in a short test."""
LAUNCH_RECORDER = """#!{python}
import os, sys
from pathlib import Path
if "-list-avds" not in sys.argv:
    (Path({launches!r}) / str(os.getpid())).write_text(" ".join(sys.argv))
from android_gym.sim.emulator.process import main
sys.exit(main([*sys.argv[1:], "-sim-boot-s", "0.3"]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def our_emulators(sdk: Path) -> list[psutil.Process]:
    """Live emulator processes launched from this test's SDK."""
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        cmdline = p.info["cmdline"] or []
        if p.info["status"] != psutil.STATUS_ZOMBIE and any(str(sdk) in part for part in cmdline) and \
                "-avd" in cmdline:
            found.append(p)
    return found


@pytest.fixture
def sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An SDK whose emulator is the simulated one (recording each launch) and whose adb is `android-gym-adb`."""
    from android_gym.testing.executables import adb_executable

    root = tmp_path / "sdk"
    (root / "emulator").mkdir(parents=True)
    (root / "launches").mkdir()
    exe = root / "emulator" / "emulator"
    exe.write_text(LAUNCH_RECORDER.format(python=sys.executable, launches=str(root / "launches")))
    exe.chmod(0o755)
    adb_executable(root / "platform-tools" / "adb")
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(root))
    monkeypatch.setenv("HOME", str(tmp_path))  # console tokens, discovery files
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(free_port()))
    # The host's ADB server is started before Ray, as the recipe says: one a Ray worker started would be killed with
    # that worker (Ray kills what a dead worker leaves running), taking every other worker's phones of the host along.
    subprocess.run([str(root / "platform-tools" / "adb"), "start-server"], capture_output=True, timeout=60,
                   check=True)
    yield root
    subprocess.run([str(root / "platform-tools" / "adb"), "kill-server"], capture_output=True, timeout=30,
                   check=False)


@pytest.fixture
def two_nodes(sdk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, subprocess.Popen]]:
    """A head and a second node (`ray start --block`), each with 2 CPUs and 2 `emulator`; (address, node 2)."""
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    monkeypatch.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
    monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    port = free_port()
    temp = Path(tempfile.mkdtemp(prefix="ray-"))  # short: Ray's Unix sockets live there (108-byte path limit)
    common = ["--block", "--num-cpus=2", '--resources={"emulator": 2}',
              "--disable-usage-stats"]
    head = subprocess.Popen([RAY, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
                             "--include-dashboard=false",
                             f"--temp-dir={temp}", f"--system-config={HEAD_CONFIG}", *common],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    second = None
    try:
        address = f"127.0.0.1:{port}"
        _wait_nodes(address, 1)
        # Another loopback address: a driver attaches to the raylet of its own IP, and must find the head's there.
        second = subprocess.Popen([RAY, "start", f"--address={address}", "--node-ip-address=127.0.0.2", *common],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        _wait_nodes(address, 2)
        yield address, second
    finally:
        for node in (second, head):
            if node is not None and node.poll() is None:
                node.terminate()
                try:
                    node.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(node.pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)


def _wait_nodes(address: str, count: int, timeout_s: float = 90.0) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        status = subprocess.run([RAY, "status", f"--address={address}"], capture_output=True, text=True, timeout=60)
        if status.returncode == 0 and status.stdout.count("node_") >= count:
            return
        time.sleep(1.0)
    raise AssertionError(f"{count} Ray nodes did not come up at {address} within {timeout_s:g} s")


class EndsAfterTheDrop(Callback):
    """Ends the run `AFTER_S` seconds after a worker was dropped (the budget is only a ceiling), noting the episodes
    finished by then, so the test shows the run went on with the other node."""  # noqa: D205, D209

    AFTER_S = 10.0

    def __init__(self) -> None:
        self.dropped_at: float | None = None
        self.episodes_at_drop: float | None = None

    def on_metrics(self, step: int, elapsed_s: float, metrics) -> bool | None:  # noqa: ANN001, D102
        if self.dropped_at is None and metrics.get("runtime/workers_dropped", 0) >= 1:
            self.dropped_at, self.episodes_at_drop = elapsed_s, metrics.get("runtime/episodes", 0.0)
        return None if self.dropped_at is None or elapsed_s < self.dropped_at + self.AFTER_S else False


def test_a_fleet_over_two_nodes_survives_a_dead_emulator_and_a_lost_node(two_nodes, sdk: Path,
                                                                        tmp_path: Path) -> None:
    address, second = two_nodes
    config = load_config(overrides=[
        "runtime.runtime=ray", f"runtime.address={address}", "runtime.workers=2", "runtime.envs_per_worker=2",
        "runtime.worker_resources={emulator: 2}", "runtime.max_worker_restarts=3", "runtime.minutes=4",
        "runtime.warm_start_episodes=4", "runtime.warm_start_updates=5", "runtime.eval_episodes=2",
        "env.device=emulator:pixel_7", "env.device_options={snapshot: default_boot, boot_timeout_s: 60}",
        "learner.batch_size=4", "learner.min_replay_trajectories=4", f"run_dir={tmp_path / 'run'}"])
    summary: dict = {}
    failure: list[BaseException] = []
    after_drop = EndsAfterTheDrop()

    def run() -> None:
        try:
            summary.update(train(config, show_progress=False, callbacks=[after_drop]))
        except BaseException as e:  # noqa: BLE001  (re-raised in the test's thread)
            failure.append(e)

    trainer = threading.Thread(target=run)
    trainer.start()
    end = time.monotonic() + 120
    while len(our_emulators(sdk)) < 4 and time.monotonic() < end and trainer.is_alive():
        time.sleep(0.5)
    assert len(our_emulators(sdk)) >= 4, f"the workers did not launch their emulators: {failure}"
    time.sleep(3)
    victim = our_emulators(sdk)[0]
    victim.send_signal(signal.SIGKILL)  # an emulator crash: relaunched on its host at its next reset
    time.sleep(8)
    raylets = [p for p in psutil.Process(second.pid).children(recursive=True) if p.name().startswith("raylet")]
    assert raylets, "the second node has no raylet"
    for raylet in raylets:
        raylet.send_signal(signal.SIGKILL)  # the host is lost
    trainer.join(300)
    assert not trainer.is_alive() and not failure, failure
    launches = len(list((sdk / "launches").iterdir()))
    assert launches >= 5, f"{launches} emulator launches: the killed one was not relaunched"
    assert summary["runtime/workers_dropped"] == 1 and summary["updates"] > 0
    assert after_drop.episodes_at_drop is not None and summary["runtime/episodes"] > after_drop.episodes_at_drop
    assert episode_balance(summary)["unaccounted"] == 0  # the lost node's episodes counted, none double
    end = time.monotonic() + 30  # the watchdogs stop what the lost node's worker launched
    while our_emulators(sdk) and time.monotonic() < end:
        time.sleep(0.5)
    assert not our_emulators(sdk), [p.cmdline() for p in our_emulators(sdk)]
