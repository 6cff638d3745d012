"""`InProcessRunner`: `SyncEnvPool`'s engine room, the in-process counterpart of `Supervisor`.

It owns the envs and each env's state machine (`EnvState`), runs the commands in flight when told to, and heals
failures as `Supervisor` does, with a rebuild from the env's factory in place of a respawned worker. Each command
runs through the worker's own `serve`, so a reply here is exactly what a worker process would send first.
`SyncEnvPool` validates and delegates.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from android_gym.errors import ConfigError
from android_gym.vector.checks import STATS_KEYS
from android_gym.vector.errors import WorkerFailedError
from android_gym.vector.protocol import (
    ApplyCommand,
    Failed,
    Ready,
    Reply,
    ResetCommand,
    ResetDone,
    StepCommand,
    StepDone,
)
from android_gym.vector.types import EnvState, PoolConfig, PoolResult, Row
from android_gym.vector.worker import EnvFactory, failure, serve


@dataclass(eq=False)
class LocalSlot:
    """One env: the env itself (None once a failure discarded it), where its episode stands, its command in flight
    (a `StepCommand` while STEPPING, a `ResetCommand` while RESETTING) and its undelivered rows."""  # noqa: D205, D209

    index: int
    env: gym.Env | None = None
    failures_in_row: int = 0
    state: EnvState = EnvState.NEEDS_RESET
    command: StepCommand | ResetCommand | None = None
    pending: deque[tuple[int, Row]] = field(default_factory=deque)  # (arrival number, row), not yet delivered
    last_obs: Any = None


class InProcessRunner:
    """Runs N envs in this process; every method is called by `SyncEnvPool` after it has validated its arguments."""

    def __init__(self, env_fns: Sequence[EnvFactory], config: PoolConfig) -> None:
        self.config = config
        self.env_fns = list(env_fns)
        self.slots = [LocalSlot(i) for i in range(len(env_fns))]
        self.stats = dict.fromkeys(STATS_KEYS, 0)
        self.errors: list[WorkerFailedError] = []
        self._arrivals = 0

    # -- start and stop ------------------------------------------------------------------------------------------------
    def start(self) -> Ready:
        """Build every env, retrying a factory that raises; returns env 0's `Ready`. Raises as `SyncEnvPool.start`."""
        first: Ready | None = None
        for slot in self.slots:
            env = self._build_first(slot)
            if first is None:
                first = Ready(os.getpid(), env.observation_space, env.action_space, dict(env.metadata),
                              getattr(env, "render_mode", None))
            if (env.observation_space, env.action_space) != (first.observation_space, first.action_space):
                raise ConfigError(f"env {slot.index} has other spaces than env 0 ({env.observation_space} vs "
                                  f"{first.observation_space}); a pool holds copies of one env")
        assert first is not None
        return first

    def close(self) -> None:
        """Close every env that is built."""
        for slot in self.slots:
            self._discard_env(slot)

    # -- commands ------------------------------------------------------------------------------------------------------
    def step(self, slot: LocalSlot, command: StepCommand) -> None:
        """Record `command` for an idle env; `run` steps it."""
        slot.state, slot.command = EnvState.STEPPING, command

    def reset(self, slot: LocalSlot, command: ResetCommand) -> None:
        """Record `command` (reviving a broken env, which the reset rebuilds first); `run` resets it."""
        if slot.state is EnvState.BROKEN:
            slot.failures_in_row = 0
            self.stats["restarts"] += 1
        slot.state, slot.command = EnvState.RESETTING, command

    def apply(self, slot: LocalSlot, command: ApplyCommand) -> Reply:
        """Run `command` on an idle (or not yet reset) env at once: `ApplyDone`, or `Failed` if its function raised."""
        return self._first_reply(slot, command)

    def run(self, ids: Sequence[int]) -> None:
        """Do the command in flight of each env of `ids`, in this order; then raise the first `WorkerFailedError`.

        A step runs once; if it ended the episode or failed, the env's reset runs in a later call (the "background"
        reset). A reset runs until it succeeds or its env breaks (a failed reset is retried at once, as a respawned
        worker replays it).
        """
        for i in ids:
            slot = self.slots[i]
            if slot.state is EnvState.STEPPING:
                self._handle(slot, self._first_reply(slot, slot.command))
                continue
            while slot.state is EnvState.RESETTING:
                self._handle(slot, self._first_reply(slot, slot.command))
        if self.errors:
            errors, self.errors = self.errors, []
            for other in errors[1:]:
                errors[0].add_note(f"also: {other}")
            raise errors[0]

    def deliver(self, slots: Sequence[LocalSlot]) -> PoolResult:
        """Pop the oldest row of each slot into a `PoolResult`."""
        return PoolResult.from_rows([slot.pending.popleft()[1] for slot in slots], [slot.index for slot in slots])

    # -- internals -----------------------------------------------------------------------------------------------------
    def _build_first(self, slot: LocalSlot) -> gym.Env:
        """Build `slot`'s env, retrying a factory that raises (a phone that fails while the env connects) up to
        `config.max_consecutive_failures` times, as `Supervisor` respawns a worker at start."""  # noqa: D205, D209
        while (failed := self._build(slot)) is not None:
            slot.failures_in_row += 1
            self.stats["errors"] += 1
            if slot.failures_in_row > self.config.max_consecutive_failures:
                error = WorkerFailedError(slot.index, f"the env factory raised {failed.error}", failed.traceback)
                error.add_note(f"env {slot.index} failed {slot.failures_in_row} times in a row at start")
                raise error
            self.stats["restarts"] += 1
        assert slot.env is not None
        return slot.env

    def _build(self, slot: LocalSlot) -> Failed | None:
        """Build `slot`'s env from its factory; the failure if the factory raised."""
        try:
            slot.env = self.env_fns[slot.index]()
        except Exception as e:  # noqa: BLE001  (a fault to heal, as a worker reports Failed("factory"))
            return failure("factory", e)
        return None

    def _first_reply(self, slot: LocalSlot, command: StepCommand | ResetCommand | ApplyCommand | None) -> Reply:
        """A worker's first reply to `command` (a step's background reset is left to a later `run`), building the
        env first if a failure discarded it."""  # noqa: D205, D209
        if slot.env is None and (failed := self._build(slot)) is not None:
            return failed
        assert slot.env is not None
        try:
            with contextlib.closing(serve(slot.env, command)) as replies:
                return next(replies)
        except Exception as e:  # noqa: BLE001  (a reward or info that does not convert: a worker would die of it)
            return failure(type(command).__name__.removesuffix("Command").lower(), e)

    def _handle(self, slot: LocalSlot, reply: Reply) -> None:
        match reply:
            case StepDone() if isinstance(step := slot.command, StepCommand):
                slot.failures_in_row = 0
                self.stats["steps"] += 1
                reply.info["is_reset"] = False
                self._push(slot, Row(reply.obs, reply.reward, reply.terminated, reply.truncated, reply.info))
                if reply.terminated or reply.truncated:
                    self.stats["episodes"] += 1
                    slot.state, slot.command = EnvState.RESETTING, ResetCommand(step.reset_seed, step.reset_options)
                else:
                    slot.state, slot.command = EnvState.IDLE, None
            case ResetDone() if slot.state is EnvState.RESETTING:
                slot.failures_in_row = 0
                self.stats["resets"] += 1
                reply.info["is_reset"] = True
                self._push(slot, Row(reply.obs, 0.0, False, False, reply.info))
                slot.state, slot.command = EnvState.IDLE, None
            case Failed():
                self._fail(slot, f"its {reply.phase} raised {reply.error}", reply.traceback)
            case _:
                self._fail(slot, f"protocol error: {type(reply).__name__} while {slot.state.value}", "")

    def _fail(self, slot: LocalSlot, reason: str, traceback: str) -> None:
        """Discard the env, truncate a step in flight, and have the next reset rebuild it (unless it fails too
        often, when it breaks)."""  # noqa: D205, D209
        command = slot.command
        self._discard_env(slot)
        self.stats["errors"] += 1
        slot.failures_in_row += 1
        if isinstance(command, StepCommand):
            self._push_truncation(slot, f"env {slot.index} (in process): {reason}", traceback)
            command = ResetCommand(command.reset_seed, command.reset_options)  # the reset the step asked for
        if slot.failures_in_row > self.config.max_consecutive_failures:
            slot.state, slot.command = EnvState.BROKEN, None
            self.errors.append(WorkerFailedError(slot.index, f"failed {slot.failures_in_row} times in a row; last: "
                                                 f"{reason}", traceback))
            return
        self.stats["restarts"] += 1
        slot.state, slot.command = EnvState.RESETTING, command

    @staticmethod
    def _discard_env(slot: LocalSlot) -> None:
        env, slot.env = slot.env, None
        if env is not None:
            try:
                env.close()
            except Exception:  # noqa: BLE001, S110  (a failed env may fail to close too; it is dropped either way)
                pass

    def _push(self, slot: LocalSlot, row: Row) -> None:
        self._arrivals += 1
        slot.pending.append((self._arrivals, row))
        slot.last_obs = row.obs

    def _push_truncation(self, slot: LocalSlot, error: str, traceback: str) -> None:
        info: dict[str, Any] = {"error": error, "is_reset": False}
        if traceback:
            info["traceback"] = traceback
        self.stats["steps"] += 1
        self.stats["episodes"] += 1
        self._push(slot, Row(slot.last_obs, 0.0, False, True, info))
