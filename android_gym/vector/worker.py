"""One env in its own process: the worker loop (child side) and `WorkerProcess`, the parent's handle on it.

The worker serves typed commands (`android_gym.vector.protocol`) until `CloseCommand` or until its pipe closes
(the parent died). An exception in the env is reported as `Failed` with its traceback; the worker itself never
decides to restart: the pool does (it kills and respawns the process, the only way to clear a wedged env).
"""

from __future__ import annotations

import os
import signal
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

import gymnasium as gym

from android_gym.heap import return_freed_memory
from android_gym.vector.process import ChildProcess
from android_gym.vector.protocol import (
    ApplyCommand,
    ApplyDone,
    CloseCommand,
    Command,
    Failed,
    Ready,
    Reply,
    ResetCommand,
    ResetDone,
    StepCommand,
    StepDone,
)

EnvFactory = Callable[[], gym.Env]


def failure(phase: str, error: BaseException) -> Failed:
    """`error`, raised in `phase` and being handled now, as a `Failed` reply with its formatted traceback."""
    return Failed(phase, f"{type(error).__name__}: {error}", traceback.format_exc())


def _reset(env: gym.Env, seed: int | None = None, options: dict[str, Any] | None = None) -> Reply:
    try:
        obs, info = env.reset(seed=seed, options=options)
    except Exception as e:  # noqa: BLE001  (reported to the pool, which restarts this worker)
        return failure("reset", e)
    return ResetDone(obs, dict(info))


def serve(env: gym.Env, command: Command) -> Iterator[Reply]:
    """The replies to one command, each yielded as soon as it exists (a step that ends an episode yields the step,
    then, once the background reset is done, the reset). An exception in the env is yielded as `Failed`.

    A worker process sends every reply; `SyncEnvPool` takes only the first and runs a background reset later, as
    its own `ResetCommand`."""  # noqa: D205, D209
    match command:
        case StepCommand(action=action, reset_seed=reset_seed, reset_options=reset_options):
            try:
                obs, reward, terminated, truncated, info = env.step(action)
            except Exception as e:  # noqa: BLE001
                yield failure("step", e)
                return
            yield StepDone(obs, float(reward), bool(terminated), bool(truncated), dict(info))
            if terminated or truncated:
                yield _reset(env, reset_seed, reset_options)
        case ResetCommand(seed=seed, options=options):
            yield _reset(env, seed, options)
        case ApplyCommand(fn=fn, args=args, kwargs=kwargs):
            try:
                value = fn(env, *args, **kwargs)
            except Exception as e:  # noqa: BLE001
                yield failure("apply", e)
                return
            yield ApplyDone(value)
        case _:
            yield Failed("protocol", f"unknown command {command!r}", "")


def _send(conn: Connection, reply: Reply) -> None:
    try:
        conn.send(reply)
    except (OSError, EOFError):
        raise
    except Exception as e:  # noqa: BLE001  (an unpicklable obs/info: report it instead of dying silently)
        conn.send(failure(type(reply).__name__.removesuffix("Done").lower(), e))


def worker_main(index: int, env_fn: EnvFactory, conn: Connection) -> None:
    """The body of worker process `index`: build the env, then serve commands from `conn` until told to close.

    SIGINT is ignored so that Ctrl-C reaches only the parent, which then closes the pool (and so this worker).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return_freed_memory()  # a long-lived process that frees a screenshot per step (see android_gym.heap)
    try:
        env = env_fn()
    except Exception as e:  # noqa: BLE001
        try:
            conn.send(failure("factory", e))
        except (OSError, EOFError):  # the parent died while the env was being built (issue 20: no traceback)
            pass
        return
    try:
        conn.send(Ready(os.getpid(), env.observation_space, env.action_space, dict(env.metadata),
                        getattr(env, "render_mode", None)))
        while True:
            try:
                command = conn.recv()
            except (EOFError, OSError):  # the parent is gone
                return
            if isinstance(command, CloseCommand):
                return
            for reply in serve(env, command):
                _send(conn, reply)
    except (OSError, EOFError):  # the parent closed the pipe mid-reply
        return
    finally:
        try:
            env.close()
        except Exception:  # noqa: BLE001, S110  (closing on the way out must not mask why we are leaving)
            pass


class WorkerProcess(ChildProcess):
    """The parent's handle on one env's worker process (`ChildProcess` running `worker_main`). Holds no episode
    state (the pool does).

    Attributes:
        index: the env id this worker serves.
        env_fn: the factory the worker builds its env with.
        ready: the worker's `Ready` message once it has arrived (None again after each `start`).
    """  # noqa: D205

    def __init__(self, index: int, env_fn: EnvFactory, context: BaseContext) -> None:
        super().__init__(f"android_gym-pool-{index}", worker_main, (index, env_fn), context, daemon=True)
        self.index = index
        self.env_fn = env_fn
        self.ready: Ready | None = None

    def start(self) -> None:
        """Start the process; returns at once (the `Ready` message arrives later on `conn`)."""
        super().start()
        self.ready = None
