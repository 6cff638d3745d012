"""`AsyncEnvPool`: N envs in worker processes, served in partial batches, reset in the background, self-healing.

The protocol (EnvPool-style, issue #3):

* `reset_async(env_ids)` or `reset()` starts episodes; `send(actions, env_ids)` starts steps. Both return at once.
* `recv(min_envs=k)` blocks until at least k envs have a result and returns every env that has one (at most one row
  per env, oldest first). Slow envs never hold up fast ones.
* A row is a step result, or the first observation of an episode (`info["is_reset"]` True, reward 0). A step row
  that ends the episode (terminated or truncated) carries the final observation and info; its env then resets on its
  own, in the background, and that reset row comes in a later `recv`. So every row that does not end an episode
  awaits exactly one action; no action is thrown away (unlike gymnasium's next-step autoreset) and no batch waits.
* Self-healing: a worker that dies, overruns its deadline (`PoolConfig.step_timeout_s`, `reset_timeout_s`) or
  raises in `step`/`reset` is killed and respawned. A step in flight comes back truncated with `info["error"]`
  (and `info["traceback"]` when there is one), and a reset row follows. Counters: `stats()`.

Each env moves through `EnvState`; misuse (sending to a busy env, receiving with nothing in flight, use after
`close`) raises `PoolStateError` and bad arguments `PoolArgumentError`, both before anything changes.
`SyncEnvPool` (`android_gym.vector.sync_pool`) is the in-process twin: the same API, rows, errors and counters.

An actor loop that acts on whatever is ready and never waits for the slowest env:

>>> from functools import partial
>>> from android_gym.testing.envs import LatencyEnv
>>> with AsyncEnvPool([partial(LatencyEnv, tag=i, episode_steps=3) for i in range(4)]) as pool:
...     first = pool.reset(seeds=0)  # one reset row per env, by env id
...     pool.send([0] * 4)
...     steps = 0
...     while steps < 20:
...         result = pool.recv(min_envs=1)
...         steps += int((~result.is_reset).sum())
...         ready = result.env_ids[~result.dones]  # an env whose episode ended resets first: no action for it now
...         if len(ready):
...             pool.send([0] * len(ready), ready)
...     stats = pool.stats()
>>> stats["steps"] >= 20 and stats["episodes"] >= 4
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from android_gym.vector.checks import (
    check_ids,
    check_recv,
    check_states,
    outstanding,
    per_env,
    per_env_seeds,
    pool_stats,
    require_state,
    reset_arguments,
)
from android_gym.vector.errors import PoolArgumentError, PoolStateError, WorkerCallError
from android_gym.vector.protocol import ApplyCommand, CloseCommand, Ready, ResetCommand, StepCommand
from android_gym.vector.supervisor import Supervisor, encode
from android_gym.vector.types import EnvState, PoolConfig, PoolResult, PoolState
from android_gym.vector.worker import EnvFactory


class AsyncEnvPool:
    """N environments, one per worker process, stepped asynchronously (see the module docstring for the protocol).

    The constructor only stores its arguments; `start()` (or `reset`/`reset_async`, or `with`) starts the workers.
    Not thread-safe: drive a pool from one thread.

    Args:
        env_fns: one factory per env, called in its worker (again after every respawn); picklable for the default
            "forkserver" start method.
        config: see `PoolConfig`.

    Raises:
        PoolArgumentError: `env_fns` is empty.
    """

    def __init__(self, env_fns: Sequence[EnvFactory], config: PoolConfig | None = None) -> None:
        if len(env_fns) == 0:
            raise PoolArgumentError("`env_fns` is empty; pass one env factory per env")
        self.config = config or PoolConfig()
        self._env_fns = list(env_fns)
        self._state = PoolState.CREATED
        self._supervisor: Supervisor | None = None
        self._ready: Ready | None = None

    # -- life cycle ----------------------------------------------------------------------------------------------------
    def start(self) -> AsyncEnvPool:
        """Start every worker and wait until every env is built (at most `config.start_timeout_s` seconds).

        Returns:
            self (a running pool is returned as is).

        Raises:
            WorkerFailedError: an env factory raised (with the worker traceback) or its process died, more than
                `config.max_consecutive_failures` times in a row (each failure respawns the worker: a phone that
                fails while the env connects is a fault to heal, a factory that always raises is an error).
            PoolTimeoutError: an env was not built in time.
            ConfigError: the envs disagree on their observation or action space.
            PoolArgumentError: an env factory cannot be pickled for the start method.
            PoolStateError: the pool is closed.
        """
        if self._state is PoolState.RUNNING:
            return self
        self._require(PoolState.CREATED, "start")
        self._supervisor = Supervisor(self._env_fns, self.config)
        self._state = PoolState.RUNNING
        try:
            self._ready = self._supervisor.start()
        except BaseException:
            self.close(timeout_s=0.0)
            raise
        return self

    def close(self, timeout_s: float | None = None) -> None:
        """Stop every worker: ask politely, then SIGKILL whatever still runs after `timeout_s` seconds.

        Idempotent; fine after crashes and on a pool that never started. Every worker is reaped (no zombies).

        Args:
            timeout_s: seconds to wait for workers to exit (default `config.close_timeout_s`; 0 kills at once).
        """
        was, self._state = self._state, PoolState.CLOSED
        if was is PoolState.RUNNING and self._supervisor is not None:
            self._supervisor.close(self.config.close_timeout_s if timeout_s is None else timeout_s,
                                   encode(CloseCommand(), "close"))

    def __enter__(self) -> AsyncEnvPool:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_state", None) is PoolState.RUNNING:
            try:
                self.close(timeout_s=0.0)
            except Exception:  # noqa: BLE001, S110  (at interpreter exit the daemon workers die with us anyway)
                pass

    # -- the async API -------------------------------------------------------------------------------------------------
    def reset_async(self, env_ids: Iterable[int] | None = None, seeds: int | Sequence[int | None] | None = None,
                    options: dict[str, Any] | Sequence[dict[str, Any] | None] | None = None) -> None:
        """Start new episodes in `env_ids` (default: all); their reset rows arrive through `recv` (or use `reset`).

        Starts the pool if it never was. Seeds and options apply to this reset only; background resets after an
        episode ends take theirs from `send` (by default none: the env's own generator continues).

        Args:
            env_ids: envs to reset; none may have anything in flight or undelivered. A broken env is revived.
            seeds: one int for all (env i gets `seeds + i`), one seed (or None) per env id, or None.
            options: one dict for all, one (or None) per env id, or None.

        Raises:
            PoolStateError: an env is busy, or the pool is closed.
            PoolArgumentError: bad ids, a seeds/options sequence of the wrong length, unpicklable options.
        """
        if self._state is PoolState.CREATED:
            self.start()
        sup = self._running("reset_async")
        ids = check_ids(env_ids, self.num_envs)
        seed_list, opts = reset_arguments(ids, seeds, options)
        check_states(sup.slots, ids, (EnvState.NEEDS_RESET, EnvState.IDLE, EnvState.BROKEN), "reset")
        payloads = [encode(ResetCommand(s, o), f"the options for env {i}")
                    for i, s, o in zip(ids, seed_list, opts, strict=True)]
        for i, payload in zip(ids, payloads, strict=True):
            sup.reset(sup.slots[i], payload)

    def reset(self, env_ids: Iterable[int] | None = None, seeds: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | Sequence[dict[str, Any] | None] | None = None,
              timeout_s: float | None = None) -> PoolResult:
        """`reset_async`, then wait for those envs' reset rows (sorted by env id); other results stay buffered.

        Raises:
            PoolTimeoutError: not every reset finished within `timeout_s` seconds (None: no limit beyond each
                reset's own `config.reset_timeout_s`).
            WorkerFailedError: an env failed `config.max_consecutive_failures` times in a row.
            PoolStateError, PoolArgumentError: as `reset_async`.
        """
        ids = check_ids(env_ids, self.num_envs)
        self.reset_async(ids, seeds, options)
        sup = self._running("reset")
        sup.wait_until(lambda: all(sup.slots[i].pending for i in ids), timeout_s, f"the resets of envs {ids}")
        return sup.deliver([sup.slots[i] for i in sorted(ids)])

    def send(self, actions: Sequence[Any] | np.ndarray, env_ids: Iterable[int] | None = None,
             reset_seeds: Sequence[int | None] | None = None,
             reset_options: Sequence[dict[str, Any] | None] | None = None) -> None:
        """Start one step in each of `env_ids` (default: all) with the matching action; returns at once.

        Args:
            actions: one action per env id (a list, or an array whose first axis runs over the env ids).
            env_ids: each must be idle: its last delivered row awaits an action and nothing is undelivered.
            reset_seeds: per env id, the seed of the background reset if this step ends the episode (None: the env's
                own generator continues). A worker respawned during the step or that reset replays the same one.
            reset_options: per env id, the options of that reset.

        Raises:
            PoolArgumentError: lengths differ, ids are out of range or repeated, an action cannot be pickled.
            PoolStateError: an env has an action or a reset in flight, or an undelivered result; pool not running.
        """
        sup = self._running("send")
        ids = check_ids(env_ids, self.num_envs)
        per_action = per_env("actions", actions, len(ids))
        seeds = per_env_seeds("reset_seeds", reset_seeds, len(ids))
        opts = per_env("reset_options", reset_options, len(ids))
        check_states(sup.slots, ids, (EnvState.IDLE,), "send an action to")
        payloads = []
        for i, action, seed, options in zip(ids, per_action, seeds, opts, strict=True):
            step = encode(StepCommand(action, seed, options), f"the action for env {i}")
            reset = (None if seed is None and options is None
                     else encode(ResetCommand(seed, options), f"the reset options for env {i}"))
            payloads.append((step, reset))
        for i, (step, reset) in zip(ids, payloads, strict=True):
            sup.step(sup.slots[i], step, reset)

    def recv(self, min_envs: int = 1, max_envs: int | None = None, timeout_s: float | None = None) -> PoolResult:
        """Wait until at least `min_envs` envs have a result, then return the rows of every env that has one.

        Args:
            min_envs: how many envs must be ready; 0 returns at once with whatever is ready (possibly nothing).
            max_envs: deliver at most this many rows (the oldest); the rest stay buffered. None: no cap.
            timeout_s: seconds to wait (None: until ready; each step's deadline still bounds the wait).

        Returns:
            One row per ready env (at most one per env), oldest first.

        Raises:
            PoolStateError: nothing is in flight, or fewer than `min_envs` envs are; pool not running.
            PoolArgumentError: `min_envs` < 0 or `max_envs` < 1.
            PoolTimeoutError: fewer than `min_envs` were ready after `timeout_s` seconds (nothing is lost).
            WorkerFailedError: an env failed `config.max_consecutive_failures` times in a row (it is now broken).
        """
        sup = self._running("recv")
        check_recv(min_envs, max_envs, self.outstanding())
        sup.wait_until(lambda: sum(1 for s in sup.slots if s.pending) >= min_envs, timeout_s,
                       f"{min_envs} envs to be ready")
        ready = sorted((s for s in sup.slots if s.pending), key=lambda s: s.pending[0][0])
        return sup.deliver(ready[:max_envs])

    def apply(self, fn: Callable[..., Any], *args: Any, env_ids: Iterable[int] | None = None,
              **kwargs: Any) -> list[Any]:
        """Run `fn(env, *args, **kwargs)` in each worker of `env_ids` (default: all); return the values in order.

        For attribute access and method calls (VectorEnv `call`/`get_attr`, SB3 `env_method`). `fn` must be
        picklable (a module-level function); each target env must be idle or not yet reset. Blocks up to
        `config.apply_timeout_s` seconds, after which a silent worker is restarted like a hung step.

        Raises:
            WorkerCallError: `fn` raised in a worker (that env is unaffected), or its worker died meanwhile.
            PoolStateError: a target env is busy; PoolArgumentError: bad ids or unpicklable arguments.
        """
        sup = self._running("apply")
        ids = check_ids(env_ids, self.num_envs)
        check_states(sup.slots, ids, (EnvState.NEEDS_RESET, EnvState.IDLE), "apply a function to", allow_pending=True)
        name = getattr(fn, "__name__", repr(fn))
        payload = encode(ApplyCommand(fn, args, kwargs), f"apply({name}, ...)")
        for i in ids:
            sup.apply(sup.slots[i], payload)
        sup.wait_until(lambda: all(sup.slots[i].apply_reply is not None for i in ids), None, f"apply({name})")
        values = []
        for i in ids:
            ok, value = sup.slots[i].apply_reply or (False, None)
            if not ok:
                raise WorkerCallError(i, f"{name} raised {value.error}", value.traceback)
            values.append(value)
        return values

    # -- introspection -------------------------------------------------------------------------------------------------
    @property
    def num_envs(self) -> int:
        """The number of envs."""
        return len(self._env_fns)

    @property
    def pids(self) -> list[int | None]:
        """The current worker process ids by env id (they change when a worker is respawned); empty before start."""
        return [] if self._supervisor is None else [slot.worker.pid for slot in self._supervisor.slots]

    @property
    def observation_space(self) -> gym.Space:
        """One env's observation space (known once started)."""
        return self._info().observation_space

    @property
    def action_space(self) -> gym.Space:
        """One env's action space (known once started)."""
        return self._info().action_space

    @property
    def metadata(self) -> dict[str, Any]:
        """One env's metadata (known once started)."""
        return self._info().metadata

    @property
    def render_mode(self) -> str | None:
        """One env's render mode (known once started)."""
        return self._info().render_mode

    @property
    def is_running(self) -> bool:
        """Whether the pool is started and not closed."""
        return self._state is PoolState.RUNNING

    def outstanding(self) -> list[int]:
        """Env ids with something in flight or an undelivered row (what `recv` can wait for)."""
        return [] if self._supervisor is None else outstanding(self._supervisor.slots)

    def env_states(self) -> list[EnvState]:
        """Each env's `EnvState`, by env id (empty before start)."""
        return [] if self._supervisor is None else [slot.state for slot in self._supervisor.slots]

    def stats(self) -> dict[str, int]:
        """Counters since start.

        Keys: steps (step rows, fault truncations included), episodes (ended), resets (reset rows), restarts
        (respawned workers), crashes (workers that died), timeouts (deadlines overrun), errors (exceptions in
        step/reset, protocol errors), in_flight (envs busy now).
        """
        if self._supervisor is None:
            return pool_stats(None, [])
        return pool_stats(self._supervisor.stats, self._supervisor.slots)

    # -- internals -----------------------------------------------------------------------------------------------------
    def _require(self, state: PoolState, call: str) -> None:
        require_state(self._state, state, call, type(self).__name__)

    def _running(self, call: str) -> Supervisor:
        self._require(PoolState.RUNNING, call)
        assert self._supervisor is not None
        return self._supervisor

    def _info(self) -> Ready:
        if self._ready is None:
            raise PoolStateError("the envs' spaces are known once the pool has started; call start() first")
        return self._ready
