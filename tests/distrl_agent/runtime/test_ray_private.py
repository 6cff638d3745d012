"""Tests of the private Ray cluster's own doors (issue 43): its token file is 0600 and its listeners bind loopback."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from distrl_agent.errors import ClusterError
from distrl_agent.runtime.ray_auth import private_token_file

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason='needs the ray extra (pip install ".[ray]")')
REPO = Path(__file__).resolve().parents[3]
START_PRIVATE = """import ipaddress, json, os, stat
from pathlib import Path
import psutil
from distrl_agent.config import load_config
from distrl_agent.runtime.build import worker_specs
from distrl_agent.runtime.ray import RayRuntime, import_ray
config = load_config(overrides=["runtime.runtime=ray", "runtime.workers=1"])
RayRuntime(worker_specs(config), config.runtime).connect()
ray = import_ray()
ray.get(ray.remote(lambda: 1).remote())  # a worker process listens too
me = psutil.Process()
listeners = []
for process in [me, *me.children(recursive=True)]:
    try:
        listeners += [(process.name(), c.laddr.ip, c.laddr.port) for c in process.net_connections(kind="inet")
                      if c.status == psutil.CONN_LISTEN]
    except psutil.NoSuchProcess:
        pass
token = Path.home() / ".ray" / "auth_token"
print(json.dumps({"mode": stat.S_IMODE(token.stat().st_mode), "token": token.read_text(), "listeners": listeners,
                  "nodes": [n["NodeManagerAddress"] for n in ray.nodes()],
                  "niceness": [os.nice(0), ray.get(ray.remote(lambda: os.nice(0)).remote())]}))
ray.shutdown()
"""


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh HOME, with no Ray token in the environment."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_missing_token_file_is_created_0600_with_a_fresh_token(home) -> None:
    """No token yet: ~/.ray/auth_token is created owner-only, 64 hex digits as Ray writes them."""
    path = private_token_file()
    assert path == home / ".ray" / "auth_token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(path.read_text()) == 64 and int(path.read_text(), 16) >= 0
    assert private_token_file() == path and stat.S_IMODE(path.stat().st_mode) == 0o600  # kept, not rewritten


def test_token_file_readable_by_others_is_closed_to_them_with_a_warning(home, caplog) -> None:
    """A 0644 token (as Ray 2.60 leaves it) becomes 0600, keeps its value, and the user is told."""
    (home / ".ray").mkdir()
    path = home / ".ray" / "auth_token"
    path.write_text("ab" * 32)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING):
        private_token_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "ab" * 32
    assert "readable by other users" in caplog.text


def test_token_file_planted_as_a_link_is_refused(home) -> None:
    """A link at the token path (to a file another user reads) is refused, not written through."""
    (home / ".ray").mkdir()
    target = home / "public.txt"
    target.write_text("")
    (home / ".ray" / "auth_token").symlink_to(target)
    with pytest.raises(ClusterError, match="is a symbolic link.*planted"):
        private_token_file()
    assert target.read_text() == ""


def test_token_in_the_environment_needs_no_file(home, monkeypatch) -> None:
    """RAY_AUTH_TOKEN carries the token: no file is made."""
    monkeypatch.setenv("RAY_AUTH_TOKEN", "cd" * 32)
    assert private_token_file() is None and not (home / ".ray").exists()


@needs_ray
def test_private_cluster_token_is_0600_and_every_listener_is_loopback(tmp_path) -> None:
    """`distrl train --runtime ray` without an address: token file 0600, GCS/raylet/workers on 127.0.0.1 only, and
    its workers at the driver's niceness (Ray's default, 15, starved them beside other work)."""  # noqa: D205, D209
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", START_PRIVATE], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["mode"] == 0o600 and len(found["token"]) == 64
    assert found["nodes"] == ["127.0.0.1"]
    names = {name for name, _, _ in found["listeners"]}
    assert "gcs_server" in names and "raylet" in names, found["listeners"]
    beyond = [entry for entry in found["listeners"] if entry[1] not in ("127.0.0.1", "::ffff:127.0.0.1", "::1")]
    assert not beyond, f"private-cluster listeners beyond loopback: {beyond}"
    driver, worker = found["niceness"]
    assert worker == driver, f"Ray workers run at niceness {worker}, the driver at {driver}: the run's own work starves"
