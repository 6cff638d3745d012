"""The errors of `android_gym.vector`: misuse of the pool's async API, bad arguments, timeouts, failed workers.

Every class derives from `android_gym.errors.AndroidGymError`, so `except AndroidGymError` still catches them all,
and from the matching builtin (`ValueError`, `RuntimeError`, `TimeoutError`) for callers that only know those.
"""

from __future__ import annotations

from android_gym.errors import AndroidGymError, EnvStateError


class PoolError(AndroidGymError):
    """Base of every error raised by `AsyncEnvPool` and its adapters."""


class PoolStateError(PoolError, EnvStateError):
    """The pool's async API was used in the wrong state; the pool is unchanged and the message says what to do.

    Raised for: `send` to an env that has an action or a reset in flight (or an undelivered result), `recv` with
    nothing in flight, `recv(min_envs=k)` with fewer than k envs in flight, use before `start()` or after `close()`.
    """


class PoolArgumentError(PoolError, ValueError):
    """An argument of a pool call is malformed (lengths differ, env ids out of range or repeated); pool unchanged."""


class PoolTimeoutError(PoolError, TimeoutError):
    """A blocking pool call ran past its `timeout_s`; results that did arrive stay buffered for the next `recv`."""


class WorkerFailedError(PoolError):
    """A worker failed in a way the pool cannot heal by itself.

    Raised when one env fails more than `PoolConfig.max_consecutive_failures` times in a row: at `start()` (its
    factory raised or its process died, each time respawned), or later (each failure is a crash, a hang past its
    deadline, or an exception in `step`/`reset`); a running env is then marked broken until the next `reset_async`
    of it. `SyncEnvPool` raises it alike for an env whose factory, step or reset keeps raising (it rebuilds the env
    where `AsyncEnvPool` respawns a worker).

    Attributes:
        index: the env id (worker index) that failed.
        traceback: the worker-side traceback, or "" when the process died without one (killed, segfault).
    """

    def __init__(self, index: int, message: str, traceback: str = "") -> None:
        super().__init__(f"env {index}: {message}" + (f"\n--- worker traceback ---\n{traceback}" if traceback else ""))
        self.index = index
        self.traceback = traceback


class WorkerCallError(PoolError):
    """A function run in a worker with `AsyncEnvPool.apply` raised; the worker and its episode are unaffected.

    Attributes:
        index: the env id whose worker raised.
        traceback: the worker-side traceback.
    """

    def __init__(self, index: int, message: str, traceback: str = "") -> None:
        super().__init__(f"env {index}: {message}" + (f"\n--- worker traceback ---\n{traceback}" if traceback else ""))
        self.index = index
        self.traceback = traceback
