"""`SyncEnvPool`: the in-process twin of `AsyncEnvPool`, with its API, rows, errors and counters.

As Gymnasium pairs `SyncVectorEnv` with `AsyncVectorEnv`, one actor loop drives envs through `send`/`recv` whether
they run in this process (here) or one process each (`AsyncEnvPool`). The protocol is the same (see
`android_gym.vector.pool`); what differs is when the work happens:

* `send` and `reset_async` only record the command. `recv` does the work in flight: it steps every env that has an
  action in flight and runs every pending reset, one env after another in env-id order, then returns the rows (at
  most `max_envs`, oldest first; the rest stay buffered). One `send` to all envs and one `recv(min_envs=1)` return
  a row per env, as a batched in-process step should.
* A step row that ends an episode carries the final observation; the env's reset (with the `reset_seeds` and
  `reset_options` sent along with that step) runs in a later `recv`, which returns its first observation.
* Deadlines do not apply in process: nothing interrupts an env's `step` or `reset`, so `timeout_s` and the
  `PoolConfig` deadlines are ignored and a hung env hangs `recv`. An env that can hang belongs in `AsyncEnvPool`.
* Self-healing, as far as one process can: an exception in `step` or `reset` (or in the factory while rebuilding)
  never escapes `recv`. The env is closed and rebuilt from its factory, like a crashed worker: a step in flight comes
  back truncated with `info["error"]` and `info["traceback"]`, its reset row follows in a later `recv`, and `stats()`
  counts `errors` and `restarts` (never `crashes` or `timeouts`). After `PoolConfig.max_consecutive_failures`
  failures in a row `recv` raises `WorkerFailedError`, as `AsyncEnvPool` does.
* Nothing is pickled: actions, options and `apply` functions may be anything (lambdas too); rows hold the
  observations the env returned (not copies: an env must not reuse its observation buffers) and `apply` returns
  values as they are. There are no worker processes, so no `pids`.

`SyncEnvPool` validates (with `android_gym.vector.checks`, as `AsyncEnvPool` does) and delegates the work to
`android_gym.vector.in_process.InProcessRunner`.

>>> from functools import partial
>>> from android_gym.testing.envs import LatencyEnv
>>> with SyncEnvPool([partial(LatencyEnv, tag=i, episode_steps=2) for i in range(3)]) as pool:
...     first = pool.reset(seeds=0)
...     for _ in range(2):
...         pool.send([0] * 3)
...         result = pool.recv(min_envs=1)  # every env steps in this call
...     after = pool.recv()  # the second step ended every episode: the resets run now
>>> result.env_ids.tolist(), result.truncations.tolist()
([0, 1, 2], [True, True, True])
>>> after.is_reset.tolist(), [int(obs["t"][0]) for obs in after.obs]
([True, True, True], [0, 0, 0])
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
from android_gym.vector.in_process import InProcessRunner
from android_gym.vector.protocol import ApplyCommand, ApplyDone, Failed, Ready, ResetCommand, StepCommand
from android_gym.vector.types import EnvState, PoolConfig, PoolResult, PoolState
from android_gym.vector.worker import EnvFactory


class SyncEnvPool:
    """N environments in this process behind `AsyncEnvPool`'s API (see the module docstring for what differs).

    The constructor only stores its arguments; `start()` (or `reset`/`reset_async`, or `with`) builds the envs by
    calling each factory here. Not thread-safe: drive a pool from one thread.

    Args:
        env_fns: one factory per env, called at start and again after every failure.
        config: see `PoolConfig`; only `max_consecutive_failures` applies in process.

    Raises:
        PoolArgumentError: `env_fns` is empty.
    """

    def __init__(self, env_fns: Sequence[EnvFactory], config: PoolConfig | None = None) -> None:
        if len(env_fns) == 0:
            raise PoolArgumentError("`env_fns` is empty; pass one env factory per env")
        self.config = config or PoolConfig()
        self._env_fns = list(env_fns)
        self._state = PoolState.CREATED
        self._runner: InProcessRunner | None = None
        self._ready: Ready | None = None

    # -- life cycle ----------------------------------------------------------------------------------------------------
    def start(self) -> SyncEnvPool:
        """Build every env by calling its factory (a running pool is returned as is).

        Raises:
            WorkerFailedError: an env factory raised more than `config.max_consecutive_failures` times in a row
                (each failure is retried, as `AsyncEnvPool` respawns a worker).
            ConfigError: the envs disagree on their observation or action space.
            PoolStateError: the pool is closed.
        """
        if self._state is PoolState.RUNNING:
            return self
        self._require(PoolState.CREATED, "start")
        self._runner = InProcessRunner(self._env_fns, self.config)
        self._state = PoolState.RUNNING
        try:
            self._ready = self._runner.start()
        except BaseException:
            self.close()
            raise
        return self

    def close(self, timeout_s: float | None = None) -> None:
        """Close every env (an exception in an env's `close` is ignored); idempotent, fine on a never-started pool.

        Args:
            timeout_s: accepted for `AsyncEnvPool`'s signature; nothing interrupts an env's `close` in process.
        """
        was, self._state = self._state, PoolState.CLOSED
        if was is PoolState.RUNNING and self._runner is not None:
            self._runner.close()

    def __enter__(self) -> SyncEnvPool:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the async API, run in process ---------------------------------------------------------------------------------
    def reset_async(self, env_ids: Iterable[int] | None = None, seeds: int | Sequence[int | None] | None = None,
                    options: dict[str, Any] | Sequence[dict[str, Any] | None] | None = None) -> None:
        """Record new episodes for `env_ids` (default: all); the next `recv` (or `reset`) runs the resets.

        Arguments, starting and raising as `AsyncEnvPool.reset_async` (options need not be picklable).
        """
        if self._state is PoolState.CREATED:
            self.start()
        runner = self._running("reset_async")
        ids = check_ids(env_ids, self.num_envs)
        seed_list, opts = reset_arguments(ids, seeds, options)
        check_states(runner.slots, ids, (EnvState.NEEDS_RESET, EnvState.IDLE, EnvState.BROKEN), "reset")
        for i, seed, options_i in zip(ids, seed_list, opts, strict=True):
            runner.reset(runner.slots[i], ResetCommand(seed, options_i))

    def reset(self, env_ids: Iterable[int] | None = None, seeds: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | Sequence[dict[str, Any] | None] | None = None,
              timeout_s: float | None = None) -> PoolResult:
        """`reset_async`, then run those resets and return their rows (sorted by env id); other envs wait for `recv`.

        `timeout_s` is accepted for `AsyncEnvPool`'s signature and ignored (nothing interrupts a reset in process).

        Raises:
            WorkerFailedError: an env failed `config.max_consecutive_failures` times in a row (it is now broken;
                the other envs' reset rows stay buffered).
            PoolStateError, PoolArgumentError: as `reset_async`.
        """
        ids = check_ids(env_ids, self.num_envs)
        self.reset_async(ids, seeds, options)
        runner = self._running("reset")
        runner.run(ids)
        return runner.deliver([runner.slots[i] for i in sorted(ids)])

    def send(self, actions: Sequence[Any] | np.ndarray, env_ids: Iterable[int] | None = None,
             reset_seeds: Sequence[int | None] | None = None,
             reset_options: Sequence[dict[str, Any] | None] | None = None) -> None:
        """Record one action for each of `env_ids` (default: all); the next `recv` steps them.

        Arguments and raising as `AsyncEnvPool.send` (actions and options need not be picklable): `reset_seeds` and
        `reset_options` say how the next episode starts if this step ends the current one.
        """
        runner = self._running("send")
        ids = check_ids(env_ids, self.num_envs)
        per_action = per_env("actions", actions, len(ids))
        seeds = per_env_seeds("reset_seeds", reset_seeds, len(ids))
        opts = per_env("reset_options", reset_options, len(ids))
        check_states(runner.slots, ids, (EnvState.IDLE,), "send an action to")
        for i, action, seed, options in zip(ids, per_action, seeds, opts, strict=True):
            runner.step(runner.slots[i], StepCommand(action, seed, options))

    def recv(self, min_envs: int = 1, max_envs: int | None = None, timeout_s: float | None = None) -> PoolResult:
        """Step every env with an action in flight and run every pending reset (by env id), then return the rows.

        Afterwards every env that had something in flight has a row, so `min_envs` only bounds what may be asked.

        Args:
            min_envs: at most the number of envs with something in flight or buffered (checked as
                `AsyncEnvPool.recv` checks it); 0 is allowed and still does the work in flight.
            max_envs: deliver at most this many rows (the oldest); the rest stay buffered. None: no cap.
            timeout_s: accepted for `AsyncEnvPool`'s signature and ignored: nothing interrupts an in-process step.

        Returns:
            One row per env that has one (at most one per env), oldest first.

        Raises:
            PoolStateError: nothing is in flight, or fewer than `min_envs` envs are; pool not running.
            PoolArgumentError: `min_envs` < 0 or `max_envs` < 1.
            WorkerFailedError: an env failed `config.max_consecutive_failures` times in a row (it is now broken;
                the rows of this call stay buffered).
        """
        runner = self._running("recv")
        check_recv(min_envs, max_envs, self.outstanding())
        runner.run([i for i, s in enumerate(runner.slots) if s.state in (EnvState.STEPPING, EnvState.RESETTING)])
        ready = sorted((s for s in runner.slots if s.pending), key=lambda s: s.pending[0][0])
        return runner.deliver(ready[:max_envs])

    def apply(self, fn: Callable[..., Any], *args: Any, env_ids: Iterable[int] | None = None,
              **kwargs: Any) -> list[Any]:
        """Run `fn(env, *args, **kwargs)` on each env of `env_ids` (default: all), here; return the values in order.

        Each target env must be idle or not yet reset; `fn` runs on every target before the first failure raises.

        Raises:
            WorkerCallError: `fn` raised (that env is unaffected).
            PoolStateError: a target env is busy; PoolArgumentError: bad ids.
        """
        runner = self._running("apply")
        ids = check_ids(env_ids, self.num_envs)
        check_states(runner.slots, ids, (EnvState.NEEDS_RESET, EnvState.IDLE), "apply a function to",
                     allow_pending=True)
        name = getattr(fn, "__name__", repr(fn))
        replies = [runner.apply(runner.slots[i], ApplyCommand(fn, args, kwargs)) for i in ids]
        for i, reply in zip(ids, replies, strict=True):
            if isinstance(reply, Failed):
                raise WorkerCallError(i, f"{name} raised {reply.error}", reply.traceback)
        return [reply.value for reply in replies if isinstance(reply, ApplyDone)]

    # -- introspection -------------------------------------------------------------------------------------------------
    @property
    def num_envs(self) -> int:
        """The number of envs."""
        return len(self._env_fns)

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
        """Env ids with something in flight or an undelivered row (what `recv` works on and returns)."""
        return [] if self._runner is None else outstanding(self._runner.slots)

    def env_states(self) -> list[EnvState]:
        """Each env's `EnvState`, by env id (empty before start)."""
        return [] if self._runner is None else [slot.state for slot in self._runner.slots]

    def stats(self) -> dict[str, int]:
        """Counters since start, with `AsyncEnvPool.stats`'s keys: steps (step rows, fault truncations included),
        episodes (ended), resets (reset rows), restarts (envs rebuilt from their factory), crashes and timeouts
        (always 0 in process), errors (exceptions in the factory, step or reset), in_flight (envs with a command
        awaiting `recv`)."""  # noqa: D205, D209
        return pool_stats(None, []) if self._runner is None else pool_stats(self._runner.stats, self._runner.slots)

    # -- internals -----------------------------------------------------------------------------------------------------
    def _require(self, state: PoolState, call: str) -> None:
        require_state(self._state, state, call, type(self).__name__)

    def _info(self) -> Ready:
        if self._ready is None:
            raise PoolStateError("the envs' spaces are known once the pool has started; call start() first")
        return self._ready

    def _running(self, call: str) -> InProcessRunner:
        self._require(PoolState.RUNNING, call)
        assert self._runner is not None
        return self._runner
