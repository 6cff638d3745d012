"""An emulator fleet over two Ray nodes on one machine (issue 47): `ray start` head and a second node on loopback with
token authentication, each running 2 emulators (`env.device=emulator:pixel_7`, the simulated emulator installed as
an SDK's); a `distrl train` over both while one emulator is SIGKILLed and later the second node's raylet. The run goes
on: the emulator is relaunched on its host, the lost node's worker and envs are dropped and counted, the surviving
worker keeps delivering (its admission share grown to the learner's need), the episode balance holds, and no emulator
is left running."""  # noqa: D205, D209

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from android_gym.testing.executables import simulated_sdk
from benchmarks.fleet import sdk_emulators
from benchmarks.ray_cluster import FAST_HEALTH_CHECKS, LoopbackCluster, free_port
from distrl_agent.config import load_config
from distrl_agent.runtime.accounting import episode_balance
from distrl_agent.runtime.callbacks import Callback
from distrl_agent.runtime.train import train

pytestmark = [pytest.mark.timeout(600),
              pytest.mark.skipif(importlib.util.find_spec("ray") is None or importlib.util.find_spec("grpc") is None,
                                 reason='needs the ray and emulator extras (pip install ".[ray,emulator]")')]
LAUNCH_RECORDER = """#!{python}
import os, sys
from pathlib import Path
if "-list-avds" not in sys.argv:
    (Path({launches!r}) / str(os.getpid())).write_text(" ".join(sys.argv))
from android_gym.sim.emulator.process import main
sys.exit(main([*sys.argv[1:], "-sim-boot-s", "0.3"]))
"""


@pytest.fixture
def sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A simulated SDK whose emulator records each launch, its host's ADB server started (and killed after)."""
    root = simulated_sdk(tmp_path / "sdk")
    (root / "launches").mkdir()
    exe = root / "emulator" / "emulator"
    exe.write_text(LAUNCH_RECORDER.format(python=sys.executable, launches=str(root / "launches")))
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
def two_nodes(sdk: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, subprocess.Popen]]:
    """A head and a second node, each with 2 CPUs and 2 `emulator`, fast health checks; (address, node 2)."""
    with LoopbackCluster(nodes=2, num_cpus=2, resources={"emulator": 2}, system_config=FAST_HEALTH_CHECKS) as cluster:
        for name, value in cluster.driver_env().items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
        yield cluster.address, cluster.nodes[1]


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
    while len(sdk_emulators(sdk)) < 4 and time.monotonic() < end and trainer.is_alive():
        time.sleep(0.5)
    assert len(sdk_emulators(sdk)) >= 4, f"the workers did not launch their emulators: {failure}"
    time.sleep(3)
    victim = sdk_emulators(sdk)[0]
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
    while sdk_emulators(sdk) and time.monotonic() < end:
        time.sleep(0.5)
    assert not sdk_emulators(sdk), [p.cmdline() for p in sdk_emulators(sdk)]
