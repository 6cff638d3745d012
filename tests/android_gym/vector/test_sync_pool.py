"""Tests of `SyncEnvPool`: the contract it shares with `AsyncEnvPool` (for the same seeds and actions, the rows,
counters and errors of a reference played on plain envs), then its own: a whole batch per `recv`, buffering,
background resets in a later `recv`, in-process faults and misuse.
"""  # noqa: D205

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from android_gym.testing.envs import LatencyEnv, inject_fault
from android_gym.vector import (
    AsyncEnvPool,
    EnvState,
    PoolArgumentError,
    PoolConfig,
    PoolResult,
    PoolStateError,
    SyncEnvPool,
    WorkerCallError,
    WorkerFailedError,
)

CONFIG = {"start_method": "fork", "close_timeout_s": 1.0, "step_timeout_s": 30.0, "reset_timeout_s": 30.0}
POOLS = {"async": AsyncEnvPool, "sync": SyncEnvPool}
EPISODES = 3  # per env, in the contract's play
EPISODE_STEPS = (3, 8, 20)  # env 0 and 1 are always truncated, env 2 always reaches (1, 1) in time (terminated)
Pool = AsyncEnvPool | SyncEnvPool


def envs(n: int, **per_env: dict[int, Any]) -> list[functools.partial]:
    """`n` LatencyEnv factories; `per_env` maps a constructor argument to {env id: value}."""
    return [functools.partial(LatencyEnv, tag=i, **{k: v[i] for k, v in per_env.items() if i in v})
            for i in range(n)]


@pytest.fixture(params=list(POOLS))
def make_pool(request: pytest.FixtureRequest) -> Callable[..., Pool]:
    """Builds a pool of the parametrized kind from env factories and `PoolConfig` fields (over `CONFIG`)."""
    def make(env_fns: list, **config: Any) -> Pool:
        return POOLS[request.param](env_fns, PoolConfig(**{**CONFIG, **config}))
    return make


# -- the contract: the rows of a reference played on plain envs, on both pools -------------------------------------
def policy(obs: dict) -> int:
    """Right until the right edge, then up."""
    return 2 if obs["flags"][0] else 0


def start_of(env_id: int, episode: int) -> tuple[int | None, dict | None]:
    """The reset seed and options of episode `episode` (0: the first) of env `env_id`: a mix of seeded, unseeded
    (the env's generator goes on), with and without a task option."""  # noqa: D205, D209
    seed = None if episode % 2 else 100 * env_id + episode
    return seed, ({"task": 10 * env_id + episode} if (env_id + episode) % 2 else None)


def row(obs: dict, reward: float, terminated: bool, truncated: bool, info: dict) -> tuple:
    """A row in comparable form, without what differs by process (`pid`, the traceback, the error's prefix)."""
    info = {k: v for k, v in info.items() if k not in ("pid", "traceback")}
    if "error" in info:  # "env 1 (worker pid 7): its step raised ..." / "env 1 (in process): its step raised ..."
        info["error"] = info["error"].split("): ", 1)[1]
    return (obs["goal"], obs["position"].tolist(), int(obs["t"][0]), obs["flags"].tolist(), float(reward),
            bool(terminated), bool(truncated), info)


def reference(fault: tuple[int, int] | None) -> tuple[dict[int, list[tuple]], dict[str, int]]:
    """What the protocol promises for `play`, played env by env on plain `LatencyEnv`s: each env's rows and the
    counters. `fault` (env id, step number): that step raises, so it is truncated and the env rebuilt."""  # noqa: D205, D209
    rows: dict[int, list[tuple]] = {}
    stats = Counter({"steps": 0, "episodes": 0, "resets": 0, "restarts": 0, "crashes": 0, "timeouts": 0, "errors": 0,
                     "in_flight": 0})
    for i, steps_per_episode in enumerate(EPISODE_STEPS):
        def make(i: int = i, steps_per_episode: int = steps_per_episode) -> LatencyEnv:
            return LatencyEnv(tag=i, episode_steps=steps_per_episode)
        env, out, episodes, steps = make(), rows.setdefault(i, []), 0, 0
        seed, options = start_of(i, 0)
        obs, info = env.reset(seed=seed, options=options)
        out.append(row(obs, 0.0, False, False, {**info, "is_reset": True}))
        stats["resets"] += 1
        while episodes < EPISODES:
            if fault == (i, steps):
                error = f"env {i} (reference): its step raised RuntimeError: injected fault in env {i}"
                out.append(row(obs, 0.0, False, True, {"error": error, "is_reset": False}))
                env, done = make(), True
                stats["errors"] += 1
                stats["restarts"] += 1
            else:
                obs, reward, terminated, truncated, info = env.step(policy(obs))
                out.append(row(obs, reward, terminated, truncated, {**info, "is_reset": False}))
                done = terminated or truncated
            steps += 1
            stats["steps"] += 1
            if done:
                episodes += 1
                stats["episodes"] += 1
                seed, options = start_of(i, episodes)
                obs, info = env.reset(seed=seed, options=options)
                out.append(row(obs, 0.0, False, False, {**info, "is_reset": True}))
                stats["resets"] += 1
    return rows, dict(stats)


def play(pool: Pool, fault: tuple[int, int] | None) -> dict[int, list[tuple]]:
    """Play `EPISODES` episodes per env on `pool`, acting on whatever is ready; each env's rows, in order.

    Each step carries the seed and options of the env's next episode. `fault`: as `reference` (injected with
    `apply` just before that step).
    """
    starts = [start_of(i, 0) for i in range(pool.num_envs)]
    result = pool.reset(seeds=[s for s, _ in starts], options=[o for _, o in starts])
    rows: dict[int, list[tuple]] = {i: [] for i in range(pool.num_envs)}
    last_obs: dict[int, dict] = {}
    episodes, steps = [0] * pool.num_envs, [0] * pool.num_envs
    while True:
        ready = []
        assert len(set(result.env_ids.tolist())) == len(result)  # at most one row per env per recv
        for k, i in enumerate(result.env_ids.tolist()):
            rows[i].append(row(result.obs[k], result.rewards[k], result.terminations[k], result.truncations[k],
                               result.infos[k]))
            if result.dones[k]:
                episodes[i] += 1
            elif episodes[i] < EPISODES:
                last_obs[i] = result.obs[k]
                ready.append(i)
        for i in ready:
            if fault == (i, steps[i]):
                pool.apply(inject_fault, "raise", env_ids=[i])
            steps[i] += 1
        if ready:
            starts = [start_of(i, episodes[i] + 1) for i in ready]
            pool.send([policy(last_obs[i]) for i in ready], ready, reset_seeds=[s for s, _ in starts],
                      reset_options=[o for _, o in starts])
        if not pool.outstanding():
            return rows
        result = pool.recv(min_envs=1)


# The faulty step (env 1's 11th, in its second episode) is followed by a seeded episode: an unseeded reset of a
# rebuilt env would draw fresh entropy.
@pytest.mark.parametrize("fault", [None, (1, 10)], ids=["clean", "step raises"])
def test_rows_and_counters_match_the_reference_on_both_pools(make_pool, fault) -> None:
    expected_rows, expected_stats = reference(fault)
    assert {r[6] for rows in expected_rows.values() for r in rows} == {False, True}  # truncations happen
    assert any(r[5] for r in expected_rows[2])  # and terminations
    assert any("error" in r[7] for r in expected_rows[1]) is (fault is not None)
    env_fns = [functools.partial(LatencyEnv, tag=i, episode_steps=n) for i, n in enumerate(EPISODE_STEPS)]
    with make_pool(env_fns) as pool:
        assert play(pool, fault) == expected_rows
        assert pool.stats() == expected_stats


def test_env_failing_every_reset_is_marked_broken_on_both_pools(make_pool) -> None:
    with make_pool(envs(2, fail_resets={1: True}), max_consecutive_failures=2) as pool:
        with pytest.raises(WorkerFailedError, match="failed 3 times in a row; last: its reset raised RuntimeError: "
                                                    "env 1 cannot reset") as caught:
            pool.reset()
        assert caught.value.index == 1 and "RuntimeError" in caught.value.traceback
        assert pool.env_states()[1] is EnvState.BROKEN
        assert (pool.stats()["restarts"], pool.stats()["errors"]) == (2, 3)
        assert pool.recv().env_ids.tolist() == [0]  # env 0's reset row waited in the buffer
        with pytest.raises(PoolStateError, match="failed too often"):
            pool.send([0], env_ids=[1])


def test_factory_failing_at_start_is_retried_until_it_builds_on_both_pools(make_pool, tmp_path) -> None:
    counter = str(tmp_path / "builds")
    with make_pool(envs(2, fail_first_builds={1: 2}, build_counter={1: counter}), max_consecutive_failures=3) as pool:
        assert pool.reset(seeds=0).env_ids.tolist() == [0, 1]
        assert (pool.stats()["restarts"], pool.stats()["errors"]) == (2, 2)


def test_factory_always_failing_fails_start_and_closes_on_both_pools(make_pool) -> None:
    pool = make_pool([functools.partial(LatencyEnv, episode_steps=0)] * 2, max_consecutive_failures=1)
    with pytest.raises(WorkerFailedError, match="episode_steps") as caught:
        pool.start()
    assert caught.value.index == 0 and "ConfigError" in caught.value.traceback
    assert "failed 2 times in a row at start" in "".join(caught.value.__notes__)
    with pytest.raises(PoolStateError, match="closed"):
        pool.reset()


BAD_CALLS = {
    "lengths differ": lambda p: p.send([0, 0], env_ids=[0]),
    "id out of range": lambda p: p.send([0], env_ids=[4]),
    "repeated id": lambda p: p.send([0, 0], env_ids=[1, 1]),
    "bare int id": lambda p: p.send([0], env_ids=1),
    "seed not an int": lambda p: p.send([0], env_ids=[0], reset_seeds=["x"]),
    "action in flight": lambda p: p.send([0], env_ids=[3]),
    "one busy among all": lambda p: p.send([0, 0, 0, 0]),
    "min_envs above in flight": lambda p: p.recv(min_envs=2),
    "negative min_envs": lambda p: p.recv(min_envs=-1),
    "max_envs zero": lambda p: p.recv(min_envs=1, max_envs=0),
    "reset while stepping": lambda p: p.reset_async(env_ids=[3]),
    "seeds length": lambda p: p.reset_async(env_ids=[0, 1], seeds=[1]),
    "apply to busy env": lambda p: p.apply(inject_fault, "hang", env_ids=[3]),
}


def misuse(pool: Pool) -> list[tuple[str, str]]:
    """Each bad call on `pool` (env 3 stepping, envs 0-2 idle): the error's type and message. Checks that each left
    the pool unchanged and working."""  # noqa: D205, D209
    with pool:
        pool.reset(seeds=0)
        pool.send([0], env_ids=[3])
        states, stats = pool.env_states(), pool.stats()
        errors = []
        for call in BAD_CALLS.values():
            with pytest.raises((PoolArgumentError, PoolStateError)) as caught:
                call(pool)
            errors.append((type(caught.value).__name__, str(caught.value)))
            assert pool.env_states() == states and pool.stats() == stats
        assert pool.recv(min_envs=1).env_ids.tolist() == [3]
        pool.send([0, 0, 0, 0])
        assert len(pool.recv(min_envs=4)) == 4
        return errors


def test_misuse_raises_the_same_errors_on_both_pools() -> None:
    errors = {kind: misuse(cls(envs(4), PoolConfig(**CONFIG))) for kind, cls in POOLS.items()}
    assert errors["sync"] == errors["async"]
    assert [kind for kind, _ in errors["sync"]] == ["PoolArgumentError"] * 5 + ["PoolStateError"] * 3 + \
        ["PoolArgumentError"] * 2 + ["PoolStateError", "PoolArgumentError", "PoolStateError"]


# -- SyncEnvPool's own behaviour -----------------------------------------------------------------------------------
def as_rows(result: PoolResult) -> list[tuple[int, bool, bool]]:
    """(env id, is_reset, done) per row."""
    return list(zip(result.env_ids.tolist(), result.is_reset.tolist(), result.dones.tolist(), strict=True))


def test_one_send_to_all_then_one_recv_returns_every_row() -> None:
    with SyncEnvPool(envs(4)) as pool:
        pool.reset(seeds=0)
        pool.send([0, 1, 2, 3])
        assert pool.env_states() == [EnvState.STEPPING] * 4 and pool.stats()["in_flight"] == 4  # nothing ran yet
        result = pool.recv(min_envs=1)
        assert as_rows(result) == [(i, False, False) for i in range(4)]
        assert [info["action"] for info in result.infos] == [0, 1, 2, 3]
        assert pool.outstanding() == [] and pool.stats()["steps"] == 4


def test_max_envs_buffers_the_rest_oldest_first() -> None:
    with SyncEnvPool(envs(4)) as pool:
        pool.reset(seeds=0)
        pool.send([0, 0, 0, 0])
        assert pool.recv(max_envs=3).env_ids.tolist() == [0, 1, 2]
        assert pool.outstanding() == [3] and pool.env_states()[3] is EnvState.IDLE  # stepped, not delivered
        with pytest.raises(PoolStateError, match="undelivered"):
            pool.send([0], env_ids=[3])
        pool.send([0, 0], env_ids=[1, 0])
        assert pool.recv().env_ids.tolist() == [3, 0, 1]  # the buffered row is the oldest; then by env id


def test_episode_end_returns_the_final_row_then_the_reset_row_in_a_later_recv() -> None:
    with SyncEnvPool(envs(2, episode_steps={0: 1, 1: 1})) as pool:
        pool.reset(seeds=0)
        pool.send([0, 0], reset_seeds=[7, None], reset_options=[{"task": 5}, None])
        ended = pool.recv()
        assert as_rows(ended) == [(0, False, True), (1, False, True)]
        assert [int(obs["t"][0]) for obs in ended.obs] == [1, 1]  # the final observations
        assert pool.env_states() == [EnvState.RESETTING] * 2 and pool.stats()["resets"] == 2
        with pytest.raises(PoolStateError, match="reset in flight"):
            pool.send([0], env_ids=[0])
        started = pool.recv()
        assert as_rows(started) == [(0, True, False), (1, True, False)] and (started.rewards == 0).all()
        expected, _ = LatencyEnv(tag=0).reset(seed=7)
        assert started.obs[0]["goal"] == "env 0 task 5" and started.infos[0]["episode"] == 1
        assert np.array_equal(started.obs[0]["position"], expected["position"])
        assert started.infos[1]["episode"] == 2  # unseeded: env 1's generator went on
        assert pool.stats()["episodes"] == 2 and pool.stats()["resets"] == 4


class ClosingEnv(LatencyEnv):
    """A LatencyEnv that remembers being closed."""

    closed = False

    def close(self) -> None:
        """Remember it."""
        self.closed = True


def counting_factory(plan: dict[str, int]) -> Callable[[], ClosingEnv]:
    """A factory that counts its calls in `plan["builds"]` and raises once they exceed `plan["good_builds"]`."""
    def make() -> ClosingEnv:
        plan["builds"] += 1
        if plan["builds"] > plan["good_builds"]:
            raise RuntimeError(f"build {plan['builds']} fails")
        return ClosingEnv(tag=0)
    return make


def test_raising_step_truncates_then_the_rebuilt_env_resets_in_a_later_recv() -> None:
    plan = {"builds": 0, "good_builds": 2}
    with SyncEnvPool([counting_factory(plan), functools.partial(ClosingEnv, tag=1)]) as pool:
        pool.reset(seeds=0)
        old = pool.apply(lambda env: env, env_ids=[0])[0]
        pool.apply(inject_fault, "raise", env_ids=[0])
        pool.send([0, 0], reset_seeds=[3, None])
        result = pool.recv()
        assert as_rows(result) == [(0, False, True), (1, False, False)]
        info = result.infos[0]
        assert info["error"] == "env 0 (in process): its step raised RuntimeError: injected fault in env 0"
        assert "Traceback" in info["traceback"] and "injected fault" in info["traceback"]
        assert int(result.obs[0]["t"][0]) == 0  # the last observation it had
        assert old.closed and pool.env_states()[0] is EnvState.RESETTING and plan["builds"] == 1  # rebuilt lazily
        stats = pool.stats()
        assert (stats["errors"], stats["restarts"], stats["steps"], stats["episodes"]) == (1, 1, 2, 1)
        reset = pool.recv()
        assert as_rows(reset) == [(0, True, False)] and plan["builds"] == 2
        expected, _ = LatencyEnv(tag=0).reset(seed=3)  # the reset its step asked for
        assert np.array_equal(reset.obs[0]["position"], expected["position"])
        assert pool.apply(lambda env: env, env_ids=[0])[0] is not old
        pool.send([0], env_ids=[0])
        assert not pool.recv().truncations.any()
        envs_now = pool.apply(lambda env: env)
    assert all(env.closed for env in envs_now)


def test_failures_in_a_row_raise_worker_failed_then_reset_async_revives() -> None:
    plan = {"builds": 0, "good_builds": 1}
    with SyncEnvPool([counting_factory(plan)], PoolConfig(max_consecutive_failures=2)) as pool:
        pool.reset(seeds=0)
        pool.apply(inject_fault, "raise", env_ids=[0])
        pool.send([0])
        assert pool.recv().truncations.tolist() == [True]  # failure 1; the rebuild waits for the next recv
        with pytest.raises(WorkerFailedError, match="failed 3 times in a row; last: its factory raised "
                                                    "RuntimeError: build 3 fails") as caught:
            pool.recv()  # failures 2 and 3: the rebuilds of its reset
        assert caught.value.index == 0 and "build 3 fails" in caught.value.traceback
        assert pool.env_states() == [EnvState.BROKEN] and pool.outstanding() == []
        assert (pool.stats()["errors"], pool.stats()["restarts"]) == (3, 2)
        with pytest.raises(PoolStateError, match="nothing in flight"):
            pool.recv()
        plan["good_builds"] = 10
        assert as_rows(pool.reset(seeds=1)) == [(0, True, False)]
        assert pool.stats()["restarts"] == 3 and pool.env_states() == [EnvState.IDLE]


def test_misuse_raises_state_errors() -> None:
    pool = SyncEnvPool(envs(2))
    for call in (lambda: pool.send([0, 0]), pool.recv, lambda: pool.observation_space):
        with pytest.raises(PoolStateError, match=r"start\(\)"):
            call()
    pool.reset(seeds=0)  # starts the pool
    with pytest.raises(PoolStateError, match="nothing in flight"):
        pool.recv()
    pool.send([0], env_ids=[0])
    with pytest.raises(PoolStateError, match="cannot send an action to env 0: it has an action in flight"):
        pool.send([0], env_ids=[0])
    pool.reset_async(env_ids=[1])
    with pytest.raises(PoolStateError, match="cannot send an action to env 1: it has a reset in flight"):
        pool.send([0], env_ids=[1])
    assert pool.outstanding() == [0, 1]
    pool.close()
    pool.close()  # idempotent
    for call in (lambda: pool.send([0, 0]), pool.recv, pool.reset, pool.start, lambda: pool.apply(len)):
        with pytest.raises(PoolStateError, match="closed"):
            call()


def test_apply_runs_any_function_in_process_and_reports_its_error() -> None:
    with SyncEnvPool(envs(2), PoolConfig(apply_timeout_s=1e-9)) as pool:  # no deadline applies in process
        assert pool.apply(lambda env, k: env.unwrapped.tag * k, 10) == [0, 10]
        with pytest.raises(WorkerCallError, match="inject_fault raised ConfigError") as caught:
            pool.apply(inject_fault, "no-such-fault", env_ids=[1])
        assert caught.value.index == 1 and "Traceback" in caught.value.traceback
        pool.reset(seeds=0)
        pool.send([lambda: 0, 0])  # nothing is pickled: LatencyEnv's step turns what it gets into an int
        result = pool.recv(timeout_s=0.0)  # accepted and ignored
        assert as_rows(result) == [(0, False, True), (1, False, False)] and "int()" in result.infos[0]["error"]
        assert pool.observation_space == LatencyEnv().observation_space and pool.metadata == LatencyEnv.metadata
