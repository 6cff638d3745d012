"""Tests of `AsyncEnvPool`: partial batches, ids, background resets, self-healing, bad input and shutdown.

Envs are `LatencyEnv`s whose slowness is a long sleep (tens of seconds) that a test never waits for, so no test
depends on how fast this machine is: a slow env is one that cannot finish before the test closes the pool.
"""

from __future__ import annotations

import functools
import os
import pickle
import signal
from typing import Any

import numpy as np
import pytest

from android_gym.testing.envs import LatencyEnv, inject_fault
from android_gym.vector import (
    AsyncEnvPool,
    EnvState,
    PoolArgumentError,
    PoolConfig,
    PoolStateError,
    PoolTimeoutError,
    WorkerCallError,
    WorkerFailedError,
)

CONFIG = PoolConfig(close_timeout_s=1.0, step_timeout_s=30.0, reset_timeout_s=30.0)
SLOW_S = 60.0  # longer than any test: an env this slow never answers while the test looks


def envs(n: int, **per_env: dict[int, Any]) -> list[functools.partial]:
    """`n` LatencyEnv factories; `per_env` maps a constructor argument to {env id: value}."""
    return [functools.partial(LatencyEnv, tag=i, **{k: v[i] for k, v in per_env.items() if i in v})
            for i in range(n)]


def is_running(pid: int | None) -> bool:
    """Whether process `pid` exists in any state (a zombie counts: it would be a leak)."""
    return pid is not None and os.path.exists(f"/proc/{pid}")


def rows_by_env(pool: AsyncEnvPool) -> dict[int, list[tuple[Any, float, bool, bool, dict]]]:
    """Receive until nothing is in flight; every row, grouped by env id, in order."""
    rows: dict[int, list] = {}
    while pool.outstanding():
        result = pool.recv(min_envs=1)
        assert len(set(result.env_ids.tolist())) == len(result)  # one row per env per recv
        for k, i in enumerate(result.env_ids.tolist()):
            rows.setdefault(i, []).append((result.obs[k], result.rewards[k], result.terminations[k],
                                           result.truncations[k], result.infos[k]))
    return rows


@pytest.fixture
def pool() -> AsyncEnvPool:
    with AsyncEnvPool(envs(4), CONFIG) as started:
        started.reset(seeds=0)
        yield started


def test_reset_returns_first_observations_sorted_by_env_id(pool: AsyncEnvPool) -> None:
    result = pool.reset(seeds=0)
    assert result.env_ids.tolist() == [0, 1, 2, 3]
    assert result.is_reset.all() and not result.dones.any() and (result.rewards == 0).all()
    assert [obs["goal"].split(" task")[0] for obs in result.obs] == [f"env {i}" for i in range(4)]
    assert [(info["tag"], info["episode"]) for info in result.infos] == [(i, 1) for i in range(4)]
    again = pool.reset(seeds=0)
    assert all(np.array_equal(a["position"], b["position"]) for a, b in zip(result.obs, again.obs, strict=True))


def test_recv_returns_partial_batch_before_slow_env() -> None:
    with AsyncEnvPool(envs(4, step_delay_s={0: SLOW_S}), CONFIG) as pool:
        pool.reset()
        pool.send([0, 0, 0, 0])
        result = pool.recv(min_envs=3)
        assert sorted(result.env_ids.tolist()) == [1, 2, 3]
        assert pool.outstanding() == [0] and pool.env_states()[0] is EnvState.STEPPING
        pool.send([1, 1], env_ids=[1, 2])  # the fast envs go on while env 0 is still busy
        assert sorted(pool.recv(min_envs=2).env_ids.tolist()) == [1, 2]


def test_rows_carry_their_env_ids(pool: AsyncEnvPool) -> None:
    pool.send([0, 2], env_ids=[2, 0])
    first = pool.recv(min_envs=2, max_envs=1)
    assert len(first) == 1 and pool.outstanding() == [i for i in (0, 2) if i not in first.env_ids]
    second = pool.recv(min_envs=1)
    sent = {2: 0, 0: 2}
    for result in (first, second):
        for k, i in enumerate(result.env_ids.tolist()):
            assert result.infos[k]["tag"] == i and result.infos[k]["action"] == sent[i]
            assert result.obs[k]["goal"].startswith(f"env {i} ") and not result.infos[k]["is_reset"]
    assert sorted([*first.env_ids, *second.env_ids]) == [0, 2]


def test_episode_end_returns_final_row_then_reset_row() -> None:
    with AsyncEnvPool(envs(2, episode_steps={0: 2, 1: 2}), CONFIG) as pool:
        pool.reset()
        for _ in range(2):
            pool.send([0, 0])
            result = pool.recv(min_envs=2)
        assert result.truncations.all() and not result.is_reset.any()
        assert [int(obs["t"][0]) for obs in result.obs] == [2, 2]  # the final observations
        with pytest.raises(PoolStateError, match="reset in flight|undelivered"):  # whether its reset row arrived
            pool.send([0], env_ids=[0])
        rows = rows_by_env(pool)
        for i in (0, 1):
            (obs, reward, terminated, truncated, info), = rows[i]
            assert info["is_reset"] and reward == 0 and not terminated and not truncated
            assert int(obs["t"][0]) == 0 and info["episode"] == 2
        assert pool.stats()["episodes"] == 2 and pool.stats()["resets"] == 4


def test_background_reset_takes_the_seed_sent_with_the_step() -> None:
    """A step that ends its episode resets with the seed sent along; without one the env's generator goes on."""
    with AsyncEnvPool(envs(2, episode_steps={0: 1, 1: 1}), CONFIG) as pool:
        first = pool.reset(seeds=[5, 5])
        pool.send([0, 0], reset_seeds=[5, None], reset_options=[{"unused": 1}, None])
        rows = rows_by_env(pool)
        for i, seeded in ((0, True), (1, False)):
            (_, _, _, truncated, _), (obs, _, _, _, info) = rows[i]
            assert truncated and info["is_reset"]
            assert info["episode"] == (1 if seeded else 2)  # LatencyEnv counts episodes from its last seeded reset
            assert np.array_equal(obs["position"], first.obs[i]["position"]) is seeded
        with pytest.raises(PoolArgumentError, match="reset_seeds"):
            pool.send([0, 0], reset_seeds=[1])


@pytest.mark.timeout(30)  # a hang guard, not a speed check: a step row held back by its reset would take SLOW_S
def test_background_reset_does_not_block_other_envs() -> None:
    with AsyncEnvPool(envs(2, episode_steps={0: 1}), CONFIG) as pool:
        pool.reset()
        pool.apply(inject_fault, "slow_reset", SLOW_S, env_ids=[0])
        pool.send([0, 0])
        done = rows_until(pool, 0)
        assert done[3]  # env 0's episode ended; its reset now takes SLOW_S
        for _ in range(5):
            if 1 not in pool.outstanding():
                pool.send([0], env_ids=[1])
            assert pool.recv(min_envs=1).env_ids.tolist() == [1]
        assert pool.env_states()[0] is EnvState.RESETTING and 0 in pool.outstanding()


def rows_until(pool: AsyncEnvPool, env_id: int) -> tuple[Any, float, bool, bool, dict]:
    """Receive until env `env_id` has a row; returns it (other envs' rows are dropped)."""
    while True:
        result = pool.recv(min_envs=1)
        for k, i in enumerate(result.env_ids.tolist()):
            if i == env_id:
                return (result.obs[k], result.rewards[k], result.terminations[k], result.truncations[k],
                        result.infos[k])


@pytest.mark.parametrize("when", ["idle", "mid_step"])
def test_killed_worker_truncates_its_episode_and_is_respawned(when: str) -> None:
    """The episode of a worker killed during (or before) a step is truncated; the respawned env starts the next one
    with the reset its step asked for."""  # noqa: D205, D209
    with AsyncEnvPool(envs(3), CONFIG) as pool:
        pool.reset()
        old_pid = pool.pids[1]
        if when == "mid_step":
            pool.apply(inject_fault, "hang", SLOW_S, env_ids=[1])
            pool.send([0], env_ids=[1], reset_seeds=[7])
        os.kill(old_pid, signal.SIGKILL)
        pool.send([0, 0], env_ids=[0, 2])
        if when == "idle":
            pool.send([0], env_ids=[1], reset_seeds=[7])
        rows = rows_by_env(pool)
        (_, _, _, truncated, info), (reset_obs, _, _, _, reset_info) = rows[1]
        assert truncated and "SIGKILL" in info["error"] and reset_info["is_reset"]
        expected, _ = LatencyEnv(tag=1).reset(seed=7)
        assert reset_info["episode"] == 1 and np.array_equal(reset_obs["position"], expected["position"])
        for i in (0, 2):
            assert len(rows[i]) == 1 and not rows[i][0][3] and "error" not in rows[i][0][4]
        assert pool.pids[1] != old_pid and not is_running(old_pid)
        assert reset_info["pid"] == pool.pids[1]
        stats = pool.stats()
        assert (stats["crashes"], stats["restarts"], stats["timeouts"]) == (1, 1, 0)
        pool.send([0], env_ids=[1])  # the respawned env serves like the others
        assert not pool.recv(min_envs=1).truncations.any()


def test_hung_step_is_killed_at_its_deadline() -> None:
    with AsyncEnvPool(envs(2), PoolConfig(close_timeout_s=1.0, step_timeout_s=0.5)) as pool:
        pool.reset()
        pool.apply(inject_fault, "hang", SLOW_S, env_ids=[0])
        pool.send([0, 0])
        rows = rows_by_env(pool)
        (_, _, _, truncated, info), (_, _, _, _, reset_info) = rows[0]
        assert truncated and "deadline" in info["error"] and reset_info["is_reset"]
        assert not rows[1][0][3]
        assert pool.stats()["timeouts"] == 1 and pool.stats()["restarts"] == 1
        pool.send([0, 0])
        assert not pool.recv(min_envs=2).truncations.any()


def test_hung_background_reset_is_killed_and_retried() -> None:
    config = PoolConfig(close_timeout_s=1.0, reset_timeout_s=0.5)
    with AsyncEnvPool(envs(2, episode_steps={0: 1}), config) as pool:
        pool.reset()
        pool.apply(inject_fault, "slow_reset", SLOW_S, env_ids=[0])
        pool.send([0], env_ids=[0])
        (_, _, _, truncated, _), (_, _, _, _, reset_info) = rows_by_env(pool)[0]
        assert truncated and reset_info["is_reset"] and reset_info["episode"] == 1  # a fresh worker's first episode
        assert pool.stats()["timeouts"] == 1 and pool.stats()["restarts"] == 1


def test_exception_in_step_truncates_with_traceback(pool: AsyncEnvPool) -> None:
    pool.apply(inject_fault, "raise", env_ids=[2])
    pool.send([0], env_ids=[2])
    (_, _, _, truncated, info), (_, _, _, _, reset_info) = rows_by_env(pool)[2]
    assert truncated and "RuntimeError: injected fault in env 2" in info["error"]
    assert "Traceback" in info["traceback"] and reset_info["is_reset"]
    assert pool.stats()["errors"] == 1


def test_env_failing_every_reset_is_marked_broken() -> None:
    config = PoolConfig(close_timeout_s=1.0, max_consecutive_failures=2)
    with AsyncEnvPool(envs(2, fail_resets={1: True}), config) as pool:
        with pytest.raises(WorkerFailedError, match="cannot reset") as caught:
            pool.reset()
        assert caught.value.index == 1 and "RuntimeError" in caught.value.traceback
        assert pool.env_states()[1] is EnvState.BROKEN
        assert pool.stats()["restarts"] == 2 and pool.stats()["errors"] == 3
        assert pool.recv().env_ids.tolist() == [0]  # env 0's reset row waited in the buffer
        pool.send([0], env_ids=[0])
        assert pool.recv().env_ids.tolist() == [0]
        with pytest.raises(PoolStateError, match="failed too often"):
            pool.send([0], env_ids=[1])


def test_factory_error_fails_start_with_worker_traceback() -> None:
    pool = AsyncEnvPool([functools.partial(LatencyEnv, episode_steps=0)] * 2, CONFIG)
    with pytest.raises(WorkerFailedError, match="episode_steps") as caught:
        pool.start()
    assert caught.value.index == 0 and "ConfigError" in caught.value.traceback
    assert not any(is_running(pid) for pid in pool.pids)
    with pytest.raises(PoolStateError, match="closed"):
        pool.reset()


def test_factory_failing_at_start_is_respawned_until_it_builds(tmp_path) -> None:
    """A phone that fails while its env connects (the soak's injected faults) heals at start like a failed step."""
    counter = str(tmp_path / "builds")
    config = PoolConfig(close_timeout_s=1.0, max_consecutive_failures=3)
    with AsyncEnvPool(envs(2, fail_first_builds={1: 2}, build_counter={1: counter}), config) as pool:
        first = pool.reset(seeds=0)
        assert sorted(first.env_ids.tolist()) == [0, 1]
        assert pool.stats()["restarts"] == 2 and pool.stats()["errors"] == 2
    with open(counter, "rb") as f:
        assert len(f.read()) == 3  # two failed constructions, then the one that built


def test_factory_failing_more_than_the_limit_fails_start_saying_how_often(tmp_path) -> None:
    config = PoolConfig(close_timeout_s=1.0, max_consecutive_failures=2)
    pool = AsyncEnvPool(envs(1, fail_first_builds={0: 5}, build_counter={0: str(tmp_path / "builds")}), config)
    with pytest.raises(WorkerFailedError, match="construction 3 of the first 5") as caught:
        pool.start()
    assert "failed 3 times in a row at start" in "".join(caught.value.__notes__)


def test_unpicklable_factory_raises_argument_error() -> None:
    with pytest.raises(PoolArgumentError, match="env_fns"):
        AsyncEnvPool([lambda: LatencyEnv()], CONFIG).start()


BAD_CALLS = {
    "lengths differ": (lambda p: p.send([0, 0], env_ids=[0]), PoolArgumentError),
    "id out of range": (lambda p: p.send([0], env_ids=[4]), PoolArgumentError),
    "negative id": (lambda p: p.send([0], env_ids=[-1]), PoolArgumentError),
    "repeated id": (lambda p: p.send([0, 0], env_ids=[1, 1]), PoolArgumentError),
    "bare int id": (lambda p: p.send([0], env_ids=1), PoolArgumentError),
    "action in flight": (lambda p: p.send([0], env_ids=[3]), PoolStateError),
    "one busy among all": (lambda p: p.send([0, 0, 0, 0]), PoolStateError),
    "unpicklable action": (lambda p: p.send([lambda: 0], env_ids=[0]), PoolArgumentError),
    "min_envs above in flight": (lambda p: p.recv(min_envs=2), PoolStateError),
    "negative min_envs": (lambda p: p.recv(min_envs=-1), PoolArgumentError),
    "max_envs zero": (lambda p: p.recv(min_envs=1, max_envs=0), PoolArgumentError),
    "reset while stepping": (lambda p: p.reset_async(env_ids=[3]), PoolStateError),
    "seeds length": (lambda p: p.reset_async(env_ids=[0, 1], seeds=[1]), PoolArgumentError),
    "apply to busy env": (lambda p: p.apply(inject_fault, "hang", env_ids=[3]), PoolStateError),
    "unpicklable apply": (lambda p: p.apply(lambda env: env, env_ids=[0]), PoolArgumentError),
}


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_bad_input_raises_and_leaves_pool_unchanged(pool: AsyncEnvPool, name: str) -> None:
    pool.send([0], env_ids=[3])  # env 3 has an action in flight; envs 0-2 are idle
    states, stats = pool.env_states(), pool.stats()
    call, error = BAD_CALLS[name]
    with pytest.raises(error):
        call(pool)
    assert pool.env_states() == states and pool.stats() == stats
    assert pool.recv(min_envs=1).env_ids.tolist() == [3]  # and it still works
    pool.send([0, 0, 0, 0])
    assert len(pool.recv(min_envs=4)) == 4


def test_apply_error_is_reported_with_worker_traceback(pool: AsyncEnvPool) -> None:
    with pytest.raises(WorkerCallError, match="inject_fault raised ConfigError") as caught:
        pool.apply(inject_fault, "no-such-fault", env_ids=[1])
    assert caught.value.index == 1 and "Traceback" in caught.value.traceback
    assert pool.apply(pickle.dumps, env_ids=[0])[0]  # the env is fine (and picklable)


def test_recv_with_nothing_in_flight_raises(pool: AsyncEnvPool) -> None:
    with pytest.raises(PoolStateError, match="nothing in flight"):
        pool.recv()


def test_recv_timeout_keeps_results_buffered() -> None:
    with AsyncEnvPool(envs(2, step_delay_s={0: SLOW_S}), CONFIG) as pool:
        pool.reset()
        pool.send([0], env_ids=[0])
        with pytest.raises(PoolTimeoutError, match="0.2 s"):
            pool.recv(timeout_s=0.2)
        assert pool.outstanding() == [0]
        assert len(pool.recv(min_envs=0)) == 0


def test_use_before_start_and_after_close_raises() -> None:
    pool = AsyncEnvPool(envs(2), CONFIG)
    for call in (lambda: pool.send([0, 0]), pool.recv, lambda: pool.observation_space):
        with pytest.raises(PoolStateError, match="start"):
            call()
    pool.start()
    pool.close()
    pool.close()  # idempotent
    for call in (lambda: pool.send([0, 0]), pool.recv, pool.reset, pool.start):
        with pytest.raises(PoolStateError, match="closed"):
            call()


def test_empty_env_fns_raise() -> None:
    with pytest.raises(PoolArgumentError, match="empty"):
        AsyncEnvPool([])


def test_close_ends_every_worker_after_crash_and_hang() -> None:
    pool = AsyncEnvPool(envs(4), CONFIG).start()
    pool.reset()
    first_pids = list(pool.pids)
    os.kill(first_pids[0], signal.SIGKILL)
    pool.send([0], env_ids=[0])  # env 0's crash is noticed and its worker respawned
    pool.apply(inject_fault, "hang", SLOW_S, env_ids=[1])
    pool.send([0, 0], env_ids=[1, 2])  # env 1 hangs in its step
    pool.close(timeout_s=0.5)
    assert not any(is_running(pid) for pid in [*first_pids, *pool.pids])


def test_context_manager_closes_on_exception() -> None:
    with pytest.raises(RuntimeError, match="boom"), AsyncEnvPool(envs(3), CONFIG) as pool:
        pids = pool.pids
        pool.reset()
        pool.send([0, 0, 0])
        raise RuntimeError("boom")
    assert not pool.is_running and not any(is_running(pid) for pid in pids)


def test_pool_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="step_timeout_s"):
        PoolConfig(step_timeout_s=0)
    with pytest.raises(KeyError, match="did you mean `pool_config.start_method`"):
        PoolConfig.from_data({"start_methd": "fork"}, where="pool_config")


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_other_start_methods_serve_and_heal(start_method: str) -> None:
    config = PoolConfig(start_method=start_method, close_timeout_s=1.0)
    with AsyncEnvPool(envs(2), config) as pool:
        pool.reset(seeds=0)
        os.kill(pool.pids[0], signal.SIGKILL)
        pool.send([0, 0])
        rows = rows_by_env(pool)
        assert rows[0][0][3] and "error" in rows[0][0][4] and not rows[1][0][3]
        pids = pool.pids
    assert not any(is_running(pid) for pid in pids)
