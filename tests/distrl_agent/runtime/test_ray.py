"""Tests of `distrl_agent.runtime.ray` on a local two-CPU Ray cluster (skipped when Ray is not installed)."""

from __future__ import annotations

import dataclasses
import importlib.util
import ipaddress
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from distrl_agent.config import load_config
from distrl_agent.errors import ClusterError
from distrl_agent.runtime.build import worker_specs
from distrl_agent.runtime.checkpoint import TENSORS_FILE
from distrl_agent.runtime.collect import initial_weights
from distrl_agent.runtime.learner_spec import LearnerSpec
from distrl_agent.runtime.ray import PRIVATE_SYSTEM_CONFIG, RayRuntime, import_ray
from distrl_agent.runtime.ray_auth import check_cluster_auth, require_token_mode
from distrl_agent.runtime.train import train

pytestmark = pytest.mark.timeout(900)
"""Each training test here runs a Ray cluster's processes beside the rest of the suite: 20-50 s quietly, but beside a
2-process CPU burner one passed pytest's default 300 s (issue 43), and a test interrupted inside `ray.wait` leaves the
module's cluster broken for the tests after it. The training budgets (6 minutes) are far above what a quiet run takes
(under a minute), so under load the step or update cap, not the clock, still ends each run."""
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason='needs the ray extra (pip install ".[ray]")')
TINY = ["runtime.runtime=ray", "runtime.workers=1", "runtime.envs_per_worker=2",
        "runtime.worker_resources={emulator: 1}"]
REPO = Path(__file__).resolve().parents[3]
# One harmless call per Ray gRPC service. Ray checks the token before it runs a method, and a server without the
# service answers UNIMPLEMENTED, so the first answer other than UNIMPLEMENTED says whether the token is enforced.
TOKENLESS_PROBES = (
    ("/ray.rpc.NodeInfoGcsService/GetClusterId", b""),  # GCS
    ("/ray.rpc.NodeManagerService/GetNodeStats", b""),  # raylet: node manager
    ("/ray.rpc.CoreWorkerService/NumPendingTasks", b""),  # driver and workers
    ("/ray.rpc.ObjectManagerService/Pull", b"\n\x1c" + os.urandom(28) + b"\x12\x1c" + os.urandom(28)),  # 2 ids
)
JOIN = """import sys
from distrl_agent.config import load_config
from distrl_agent.errors import ClusterError
from distrl_agent.runtime.build import worker_specs
from distrl_agent.runtime.ray import RayRuntime
config = load_config(overrides=sys.argv[1:])
try:
    RayRuntime(worker_specs(config), config.runtime).connect()
except ClusterError as e:
    print(e)
    sys.exit(3)
"""


@pytest.fixture(scope="module")
def ray_cluster():
    """A private cluster with token authentication and a fresh token: 2 CPUs, 2 `emulator` resources."""
    ray = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAY_AUTH_MODE", "token")
        mp.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))  # never the user's ~/.ray/auth_token
        mp.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
        require_token_mode(ray, None)  # Ray read RAY_AUTH_MODE at `import ray`: make it read it again
        from ray._raylet import AuthenticationTokenLoader

        # Ray caches the first token it read in this process: a module that ran a cluster before this one in the same
        # xdist worker (the Ray fleet's) left its token there, which this cluster's GCS refuses (as RayRuntime does)
        AuthenticationTokenLoader.instance().reset_cache()
        ray.init(address="local", num_cpus=2, resources={"emulator": 2}, include_dashboard=False,
                 object_store_memory=200 << 20, log_to_driver=False, _system_config=PRIVATE_SYSTEM_CONFIG)
        try:
            yield ray
        finally:
            ray.shutdown()


def _poll_until(runtime: RayRuntime, condition, timeout_s: float = 240) -> list:
    deliveries, deadline = [], time.monotonic() + timeout_s
    while not condition(deliveries) and time.monotonic() < deadline:
        deliveries += runtime.poll(timeout_s=0.5)
    assert condition(deliveries), f"timed out waiting for the workers: {runtime.stats()} {runtime.book.last_error}"
    return deliveries


def _listeners() -> list[tuple[str, str, int]]:
    """(process name, ip, port) of each listening TCP socket of this process and its descendants (the cluster)."""
    found = []
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            found += [(process.name(), c.laddr.ip, c.laddr.port) for c in process.net_connections(kind="inet")
                      if c.status == psutil.CONN_LISTEN]
        except psutil.NoSuchProcess:
            continue
    return found


def _plain_ip(ip: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    address = ipaddress.ip_address(ip)
    return getattr(address, "ipv4_mapped", None) or address  # ::ffff:127.0.0.1 is loopback too


def _tokenless_call(ip: str, port: int) -> str:
    """What the listener at ip:port does with calls that carry no token: "refused ...", "answered ..." or "unknown"."""
    import grpc

    host = "127.0.0.1" if _plain_ip(ip).is_unspecified else str(_plain_ip(ip))
    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    with grpc.insecure_channel(target, options=[("grpc.enable_http_proxy", 0)]) as channel:
        for method, request in TOKENLESS_PROBES:
            try:
                channel.unary_unary(method)(request, timeout=5)
                return f"answered {method} without a token"
            except grpc.RpcError as e:
                if e.code() == grpc.StatusCode.UNAUTHENTICATED:
                    return f"refused {method}"
                if e.code() != grpc.StatusCode.UNIMPLEMENTED:
                    break  # not gRPC: try HTTP (Ray's runtime-env agent)
    try:
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"http://{target}/", timeout=5):
            return "answered HTTP without a token"
    except urllib.error.HTTPError as e:
        return f"refused HTTP ({e.code})" if e.code in (401, 403) else f"answered HTTP {e.code} without a token"
    except OSError as e:
        return f"unknown: neither a Ray gRPC service nor HTTP ({e}); add a probe for it"


def test_import_ray_without_ray_names_the_extra(monkeypatch) -> None:
    """Without Ray installed the error says which extra to install."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=r'pip install "\.\[ray\]"'):
        import_ray()


@needs_ray
def test_import_ray_older_than_token_auth_names_the_version(monkeypatch) -> None:
    """A Ray without token authentication (< 2.52) is refused, naming the version found."""
    monkeypatch.setattr(import_ray(), "__version__", "2.51.0")
    with pytest.raises(ClusterError, match=r"Ray >= 2\.52 .*found ray 2\.51\.0"):
        import_ray()


@needs_ray
def test_private_cluster_with_auth_mode_disabled_is_refused(monkeypatch) -> None:
    """RAY_AUTH_MODE=disabled would serve an unauthenticated cluster on every interface: refused, saying why."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with pytest.raises(ClusterError, match=r"RAY_AUTH_MODE='disabled': .* without token authentication"):
        require_token_mode(import_ray(), None)


@needs_ray
def test_joining_without_auth_mode_token_is_refused(monkeypatch) -> None:
    """Ray never turns token auth on for an explicit address: joining needs RAY_AUTH_MODE=token, and says so."""
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with pytest.raises(ClusterError, match=r"RAY_AUTH_MODE is unset here \(expected 'token'\).*ray get-auth-token"):
        require_token_mode(import_ray(), "10.0.0.1:6379")


def test_cluster_answering_without_a_token_is_refused() -> None:
    """A GCS that answers a call without a token (an open cluster; here a loopback stand-in) is not joined."""
    grpc = pytest.importorskip("grpc")
    answer = grpc.unary_unary_rpc_method_handler(lambda request, context: b"")
    server = grpc.server(ThreadPoolExecutor(max_workers=1),
                         handlers=[grpc.method_handlers_generic_handler("ray.rpc.NodeInfoGcsService",
                                                                        {"GetClusterId": answer})])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with pytest.raises(ClusterError, match="answers without a token, so anyone who can reach it"):
            check_cluster_auth(f"127.0.0.1:{port}", 5, {"authorization": "Bearer any"})
    finally:
        server.stop(0)


@needs_ray
def test_unreachable_address_fails_within_timeout() -> None:
    """An address where nothing answers raises ClusterError naming it and the timeout."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    config = load_config(overrides=[*TINY, f"runtime.address=127.0.0.1:{port}", "runtime.connect_timeout_s=1"])
    start = time.monotonic()
    with pytest.raises(ClusterError, match=rf":{port}' did not answer within 1\.0 s"):
        RayRuntime(worker_specs(config), config.runtime).connect()
    assert time.monotonic() - start < 30


@needs_ray
def test_cluster_listeners_beyond_loopback_refuse_calls_without_token(ray_cluster) -> None:
    """Issue 20: each listener of the cluster is on loopback, or refuses a call without the token (token mode on)."""
    from ray._private.authentication.authentication_utils import is_token_auth_enabled

    ray_cluster.get([ray_cluster.remote(lambda: os.getpid()).remote() for _ in range(2)])  # workers listen too
    listeners = _listeners()
    assert "gcs_server" in {name for name, _, _ in listeners}, f"the cluster's processes were not found: {listeners}"
    verdicts = {f"{name} {ip}:{port}": _tokenless_call(ip, port)
                for name, ip, port in listeners if not _plain_ip(ip).is_loopback}
    unauthenticated = {listener: verdict for listener, verdict in verdicts.items() if not verdict.startswith("refused")}
    assert not unauthenticated, f"listeners beyond loopback that serve calls without a token: {unauthenticated}"
    assert is_token_auth_enabled(), f"the cluster runs without token authentication; listeners: {verdicts}"


@needs_ray
@pytest.mark.parametrize(("auth_env", "missing"), [
    ({}, r"RAY_AUTH_MODE is unset here \(expected 'token'\)"),
    ({"RAY_AUTH_MODE": "token"}, r"RAY_AUTH_MODE=token but no Ray token was found"),
    ({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "0" * 32}, r"the cluster refused this machine's Ray token"),
], ids=["no-auth-mode", "no-token", "wrong-token"])
def test_joining_token_cluster_without_its_token_names_what_is_missing(ray_cluster, tmp_path, auth_env,
                                                                       missing) -> None:
    """`connect` from a process without the cluster's token fails fast, naming RAY_AUTH_MODE and the token sources."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_AUTH")}
    env.update(auth_env, HOME=str(tmp_path))  # no ~/.ray/auth_token
    gcs = ray_cluster.get_runtime_context().gcs_address
    joined = subprocess.run([sys.executable, "-c", JOIN, *TINY, f"runtime.address={gcs}",
                             "runtime.connect_timeout_s=10"], env=env, cwd=REPO, capture_output=True, text=True,
                            timeout=120)
    assert joined.returncode == 3, f"rc {joined.returncode}\n{joined.stdout}\n{joined.stderr[-3000:]}"
    message = joined.stdout
    assert gcs in message and "RAY_AUTH_TOKEN" in message and "ray get-auth-token" in message, message
    assert re.search(missing, message), message


@needs_ray
def test_joining_token_cluster_with_its_token_connects(ray_cluster, tmp_path) -> None:
    """`connect` from another process with RAY_AUTH_MODE=token and the cluster's token joins it."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_AUTH")}
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=os.environ["RAY_AUTH_TOKEN"], HOME=str(tmp_path))
    gcs = ray_cluster.get_runtime_context().gcs_address
    joined = subprocess.run([sys.executable, "-c", JOIN, *TINY, f"runtime.address={gcs}",
                             "runtime.connect_timeout_s=30"], env=env, cwd=REPO, capture_output=True, text=True,
                            timeout=120)
    assert joined.returncode == 0, f"rc {joined.returncode}\n{joined.stdout}\n{joined.stderr[-3000:]}"


@needs_ray
def test_ray_train_async_end_to_end_on_emulator_hosts(ray_cluster, tmp_path) -> None:
    """`train` with runtime=ray: worker actors on `emulator` resources, the learner actor checkpoints to run_dir."""
    config = load_config(overrides=[*TINY, "runtime.minutes=6", "runtime.max_env_steps=600",
                                    "runtime.warm_start_episodes=4",
                                    "runtime.warm_start_updates=5", "runtime.eval_episodes=4",
                                    "learner.batch_size=4", "learner.min_replay_trajectories=4", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["runtime"] == "ray" and summary["updates"] > 0 and summary["env_steps"] >= 600
    assert summary["runtime/weights_adopted"] > 0 and summary["learner/ingested"] > 0
    assert (tmp_path / "checkpoint" / TENSORS_FILE).exists()
    deadline = time.monotonic() + 30  # actors are released asynchronously after `ray.kill`
    while ray_cluster.available_resources().get("emulator") != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ray_cluster.available_resources().get("emulator") == 2


@needs_ray
def test_ray_train_ppo_runs_its_epochs_in_the_learner_actor(ray_cluster, tmp_path) -> None:
    """PPO on the Ray runtime: the learner actor takes `epochs` (4) gradient steps on each sampled batch."""
    config = load_config(overrides=[*TINY, "runtime.minutes=6", "runtime.max_updates=8", "learner.algorithm=ppo",
                                    "learner.critic_warmup_updates=0", "runtime.eval_episodes=4",
                                    "runtime.warm_start_episodes=4", "runtime.warm_start_updates=5",
                                    "learner.batch_size=4", "learner.min_replay_trajectories=4", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["runtime"] == "ray" and summary["algorithm"] == "ppo" and summary["minutes"] < 6
    assert summary["updates"] >= 8 and summary["updates"] % 4 == 0 and summary["learner/ingested"] > 0


@needs_ray
def test_ray_train_grpo_in_sync_rounds_learns_from_whole_groups(ray_cluster, tmp_path) -> None:
    """GRPO on the Ray runtime in DigiRL's synchronous rounds: the worker actor plays groups, the learner gets them."""
    config = load_config(overrides=[*TINY, "runtime.minutes=6", "runtime.max_updates=4", "learner.algorithm=grpo",
                                    "learner.coefficients={group_size: 2}", "runtime.sync=true",
                                    "runtime.episodes_per_round=8", "runtime.eval_episodes=4",
                                    # a policy that sometimes succeeds: groups of all failures teach GRPO nothing
                                    # (dropped), and with 4 demonstrations they were most groups (22 s, now ~8 s)
                                    "runtime.warm_start_episodes=24", "runtime.warm_start_updates=40",
                                    "learner.batch_size=4", "learner.min_replay_trajectories=4", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["runtime"] == "ray" and summary["algorithm"] == "grpo" and summary["minutes"] < 6
    assert summary["updates"] >= 4 and summary["runtime/groups_released"] >= 2 and summary["learner/rejected"] == 0


@needs_ray
def test_a_resource_no_node_has_is_refused_at_start(ray_cluster, tmp_path) -> None:
    """Workers asking for a resource the cluster lacks entirely would wait forever: refused, naming the setting."""
    config = load_config(overrides=[*TINY, "runtime.worker_resources={pixel_farm: 1}", f"run_dir={tmp_path}"])
    runtime = RayRuntime(worker_specs(config), config.runtime)
    try:
        with pytest.raises(ClusterError, match="'pixel_farm' that `runtime.worker_resources` asks for"):
            runtime.start(0, initial_weights(config))
        assert not runtime.actors
    finally:
        runtime.close()


def test_a_gpu_policy_on_a_driver_node_without_a_gpu_is_refused_before_the_learner_starts(ray_cluster) -> None:
    """The learner stays beside the driver (its checkpoints); a policy on "cuda" there needs that node's GPU."""
    config = load_config(overrides=TINY)
    spec = LearnerSpec.of_run(config)
    runtime = RayRuntime(worker_specs(config), config.runtime)
    try:
        with pytest.raises(ClusterError, match="declares no GPU: run `distrl train` on the GPU host"):
            runtime.make_learner(dataclasses.replace(spec, policy=types.SimpleNamespace(device="cuda")))
        assert runtime.learner_actor is None
    finally:
        runtime.close()


@needs_ray
def test_ray_worker_killed_is_restarted_by_ray(ray_cluster, tmp_path) -> None:
    """SIGKILL of a worker actor: Ray restarts it, the driver counts it and collection resumes."""
    config = load_config(overrides=[*TINY, f"run_dir={tmp_path}"])
    runtime = RayRuntime(worker_specs(config), config.runtime)
    runtime.start(0, initial_weights(config))
    try:
        _poll_until(runtime, lambda d: len(d) >= 1)
        runtime.kill_worker(0)
        after = _poll_until(runtime, lambda d: runtime.restarts == 1 and len(d) >= 1)
        stats = runtime.stats()
        assert stats["runtime/worker_restarts"] == 1 and stats["runtime/discarded_partial_episodes"] == 2
        for trajectory in runtime.fetch(after[-1].trajectories):
            trajectory.validate()
    finally:
        runtime.close()


@needs_ray
def test_ray_sync_rounds_use_the_published_version(ray_cluster, tmp_path) -> None:
    """Sync mode on two worker actors: each round's episodes all carry the version published for it."""
    config = load_config(overrides=[*TINY, "runtime.workers=2", "runtime.sync=true", f"run_dir={tmp_path}"])
    runtime = RayRuntime(worker_specs(config), config.runtime)
    weights = initial_weights(config)
    runtime.start(2, weights)
    try:
        for version in (2, 6):
            runtime.publish(version, weights)
            deliveries = runtime.run_round(version, 3, time.monotonic() + 300)
            assert sorted(d.worker for d in deliveries) == [0, 1]
            trajectories = [t for d in deliveries for t in runtime.fetch(d.trajectories)]
            assert len(trajectories) == 6
            assert {int(v) for t in trajectories for v in t.policy_version} == {version}
    finally:
        runtime.close()


@needs_ray
def test_ray_workers_act_through_one_service_per_node(ray_cluster, tmp_path) -> None:
    """runtime.inference=host on Ray: one service actor on the node holds the policy, the two worker actors hold none
    (no torch) and get only version numbers; each version reaches the data through the service."""  # noqa: D205, D209
    from distrl_agent.runtime.build import service_spec
    from distrl_agent.runtime.inference import ServiceAddress

    config = load_config(overrides=[*TINY, "runtime.workers=2", "runtime.envs_per_worker=1",
                                    "runtime.inference=host", f"run_dir={tmp_path}"])
    service = service_spec(config, ServiceAddress.per_node())
    runtime = RayRuntime(worker_specs(config, service.address), config.runtime, service)
    weights = initial_weights(config)
    runtime.start(0, weights)
    try:
        first = _poll_until(runtime, lambda d: len(d) >= 1)
        assert len(runtime.services) == 1
        versions = {int(v) for d in first for t in runtime.fetch(d.trajectories) for v in t.policy_version}
        assert versions == {0}
        for actor in runtime.actors:
            with open(f"/proc/{ray_cluster.get(actor.pid.remote())}/maps") as maps:
                assert not any("libtorch" in line for line in maps)  # the workers hold no model
        runtime.publish(1, weights)
        _poll_until(runtime, lambda d: any(1 in t.policy_version for x in d for t in runtime.fetch(x.trajectories)))
        (served,) = runtime.services.values()
        stats = ray_cluster.get(served.stats.remote())
        assert stats["clients"] == 2 and stats["versions_adopted"] == 2 and stats["failed"] == 0
    finally:
        runtime.close()
    assert runtime.services == {}
    assert not list(Path(os.path.dirname(os.path.dirname(service.address.path))).glob(
        os.path.basename(os.path.dirname(service.address.path)).replace("{node}", "*")))  # its socket folder is gone
