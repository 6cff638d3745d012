"""A Ray cluster of several nodes on this one machine, as `ray start` makes one over several hosts.

The head listens on 127.0.0.1 and node k on 127.0.0.(k+1): a driver attaches to the raylet of its own address, and
must find the head's there, so the nodes cannot all share one. Token authentication is on (a fresh token per cluster);
`driver_env()` is what a driver process of this cluster needs in its environment. Used by the `fleet` benchmark and
the multi-node test (`tests/distrl_agent/runtime/test_ray_fleet.py`).

Unlike the private cluster of `--runtime ray` (pinned to 127.0.0.1, see `distrl_agent.runtime.ray_auth.loopback_node`),
a multi-node Ray cluster's GCS, raylets and workers listen on every interface: Ray refuses to start a second node in
its loopback-only mode and has no bind-address setting. The token guards every call, as it does between real hosts;
run these where the machine's ports are not reachable from outside, as the recipe's firewall rules say.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RAY = str(Path(sys.executable).with_name("ray"))
FAST_HEALTH_CHECKS = {"health_check_period_ms": 1000, "health_check_failure_threshold": 3}
"""A lost node is declared dead after ~3 s instead of Ray's default ~15-30 s (a short test can see it)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoopbackCluster:
    """`nodes` Ray nodes started with `ray start --block`, each in its own session; a context manager.

    Guarantees: on entry every node is up (`ray status` lists them all) or the started ones are stopped and an
    `AssertionError` says which count did not come up; on exit each node is terminated (killed after 60 s) and the
    temporary folder holding Ray's sockets removed. Every process of a node (raylet, workers, what they launch)
    inherits `env`. Actors run at niceness 0 (Ray's default of 15 starves them beside other work).

    Args:
        nodes: how many (the head included).
        num_cpus: CPUs each node declares.
        resources: custom resources each node declares (e.g. {"emulator": 2}).
        env: variables added to this process's environment for every node.
        system_config: the head's `--system-config` entries beside the niceness.
    """

    def __init__(self, nodes: int = 2, num_cpus: int = 2, resources: Mapping[str, float] | None = None,
                 env: Mapping[str, str] | None = None, system_config: Mapping[str, Any] | None = None) -> None:
        self.count, self.num_cpus, self.resources = nodes, num_cpus, dict(resources or {})
        self.token = secrets.token_hex(32)
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {}), **self.driver_env()}
        self.env.pop("RAY_AUTH_TOKEN_PATH", None)
        self.env.pop("RAY_ADDRESS", None)
        self.system_config = {"worker_niceness": 0, **(system_config or {})}
        self.nodes: list[subprocess.Popen] = []
        self._temp: Path | None = None

    def driver_env(self) -> dict[str, str]:
        """What a driver of this cluster needs in its environment: token mode and the token."""
        return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": self.token}

    def __enter__(self) -> LoopbackCluster:
        self._temp = Path(tempfile.mkdtemp(prefix="ray-"))  # short: Ray's Unix sockets live there (108-byte limit)
        common = ["--block", f"--num-cpus={self.num_cpus}", f"--resources={json.dumps(self.resources)}",
                  "--disable-usage-stats"]
        try:
            self._start([RAY, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={self.port}",
                         "--include-dashboard=false", f"--temp-dir={self._temp}",
                         f"--system-config={json.dumps(self.system_config)}", *common])
            for k in range(1, self.count):  # they wait for the head's GCS themselves
                self._start([RAY, "start", f"--address={self.address}", f"--node-ip-address=127.0.0.{k + 1}",
                             *common])
            self.wait_nodes(self.count)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, command: list[str]) -> None:
        self.nodes.append(subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL, start_new_session=True))

    def wait_nodes(self, count: int, timeout_s: float = 90.0) -> None:
        """Return once `ray status` lists `count` nodes; AssertionError after `timeout_s`."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            status = subprocess.run([RAY, "status", f"--address={self.address}"], capture_output=True, text=True,
                                    timeout=60, env=self.env)
            if status.returncode == 0 and status.stdout.count("node_") >= count:
                return
            time.sleep(1.0)
        raise AssertionError(f"{count} Ray nodes did not come up at {self.address} within {timeout_s:g} s")

    def close(self) -> None:
        """Stop every node (the head last), then remove the temporary folder."""
        for node in reversed(self.nodes):
            if node.poll() is None:
                node.terminate()
                try:
                    node.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(node.pid, signal.SIGKILL)
                    node.wait()
        if self._temp is not None:
            shutil.rmtree(self._temp, ignore_errors=True)


@contextmanager
def environ(values: Mapping[str, str]) -> Iterator[None]:
    """`os.environ` with `values` set for the block, restored afterwards (a driver's token, an SDK's paths)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
