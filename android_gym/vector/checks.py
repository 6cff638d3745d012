"""The argument and state checks that `AsyncEnvPool` and `SyncEnvPool` share, so that both word misuse alike.

Every check raises (`PoolArgumentError` for a malformed argument, `PoolStateError` for a call the pool's state does
not allow) before the pool changes, and says what to do next. The pools keep one `EnvSlot` per env.

>>> check_ids(None, 3)
[0, 1, 2]
>>> reset_arguments([0, 2], 10, {"task": 1})  # one int seeds env i with 10 + i
([10, 12], [{'task': 1}, {'task': 1}])
>>> per_env("actions", [0, 1], 3)
Traceback (most recent call last):
    ...
android_gym.vector.errors.PoolArgumentError: `actions` has 2 entries but `env_ids` has 3; pass one per env id
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any, Protocol

import numpy as np

from android_gym.vector.errors import PoolArgumentError, PoolStateError
from android_gym.vector.types import IN_FLIGHT, EnvState, PoolState

STATS_KEYS = ("steps", "episodes", "resets", "restarts", "crashes", "timeouts", "errors")
"""The counters of a pool's `stats()` (besides `in_flight`), as both pools count them."""


class EnvSlot(Protocol):
    """What the checks read of one env of a pool: where it stands and its undelivered rows."""

    state: EnvState
    pending: Sized


def require_state(current: PoolState, wanted: PoolState, call: str, pool: str) -> None:
    """Raise `PoolStateError` unless the pool (of class name `pool`) is in state `wanted` for `call()`."""
    if current is not wanted:
        hint = {PoolState.CREATED: f"call start() (or use `with {pool}(...) as pool`) first",
                PoolState.CLOSED: "the pool is closed; create a new one"}.get(current, "")
        raise PoolStateError(f"{call}() needs a {wanted.value} pool, but it is {current.value}; {hint}")


def check_ids(env_ids: Iterable[int] | None, num_envs: int) -> list[int]:
    """The env ids as a list of ints (None: all `num_envs`); `PoolArgumentError` if out of range or repeated."""
    if env_ids is None:
        return list(range(num_envs))
    if isinstance(env_ids, (int, np.integer, str, bytes)):
        raise PoolArgumentError(f"`env_ids` must be a sequence of ints, got {env_ids!r}; wrap one id in a list")
    ids = list(env_ids)
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < num_envs:
            raise PoolArgumentError(f"`env_ids` must hold ints in 0..{num_envs - 1}, got {i!r}")
    if len(set(ids)) != len(ids):
        raise PoolArgumentError(f"`env_ids` repeats an id: {ids}; each env takes one command at a time")
    return [int(i) for i in ids]


def per_env(name: str, values: Any, n: int) -> list[Any]:
    """`values` (argument `name`) as a list of `n` entries, one per env id (None: `n` Nones)."""
    if values is None:
        return [None] * n
    if isinstance(values, (dict, str, bytes)) or not hasattr(values, "__len__"):
        raise PoolArgumentError(f"`{name}` must be a sequence with one entry per env id, got {type(values)}")
    if len(values) != n:
        raise PoolArgumentError(f"`{name}` has {len(values)} entries but `env_ids` has {n}; pass one per env id")
    return list(values)


def reset_arguments(ids: list[int], seeds: int | Sequence[int | None] | None,
                    options: dict[str, Any] | Sequence[dict[str, Any] | None] | None,
                    ) -> tuple[list[int | None], list[dict[str, Any] | None]]:
    """The seed and the options of each env id's reset, as `reset_async` takes them.

    Args:
        ids: the checked env ids.
        seeds: one int for all (env i gets `seeds + i`), one seed (or None) per env id, or None.
        options: one dict for all, one (or None) per env id, or None.
    """
    seed_list = [int(seeds) + i for i in ids] if isinstance(seeds, (int, np.integer)) else seeds
    opts = [options] * len(ids) if options is None or isinstance(options, dict) else options
    return per_env_seeds("seeds", seed_list, len(ids)), per_env("options", opts, len(ids))


def per_env_seeds(name: str, values: Any, n: int) -> list[int | None]:
    """`per_env`, each entry an int seed or None; `PoolArgumentError` (naming argument `name`) for anything else."""
    seeds = per_env(name, values, n)
    try:
        return [None if s is None else int(s) for s in seeds]
    except (TypeError, ValueError) as e:
        raise PoolArgumentError(f"`{name}` must hold ints or None, got {seeds!r}") from e


def check_states(slots: Sequence[EnvSlot], ids: list[int], allowed: tuple[EnvState, ...], verb: str,
                 allow_pending: bool = False) -> None:
    """Raise `PoolStateError` unless every env of `ids` is in an `allowed` state (and has no undelivered row)."""
    for i in ids:
        slot = slots[i]
        if slot.pending and not allow_pending:
            raise PoolStateError(f"cannot {verb} env {i}: it has an undelivered result; recv() it first")
        if slot.state not in allowed:
            why = {EnvState.STEPPING: "an action in flight; recv() its result first",
                   EnvState.RESETTING: "a reset in flight (its episode ended, or reset_async was called); recv() "
                                       "its reset row first",
                   EnvState.NEEDS_RESET: "no episode yet; reset it first",
                   EnvState.BROKEN: "failed too often in a row; reset_async() it to try again"}
            raise PoolStateError(f"cannot {verb} env {i}: it has {why.get(slot.state, slot.state.value)}")


def check_recv(min_envs: int, max_envs: int | None, outstanding_ids: list[int]) -> None:
    """Raise unless `recv(min_envs, max_envs)` can return: valid bounds and at least `min_envs` envs outstanding."""
    if isinstance(min_envs, bool) or not isinstance(min_envs, (int, np.integer)) or min_envs < 0:
        raise PoolArgumentError(f"`min_envs` must be an int >= 0, got {min_envs!r}")
    if max_envs is not None and (isinstance(max_envs, bool) or max_envs < 1):
        raise PoolArgumentError(f"`max_envs` must be None or an int >= 1, got {max_envs!r}")
    if not outstanding_ids:
        raise PoolStateError("recv() with nothing in flight: call send() or reset_async() first")
    if min_envs > len(outstanding_ids):
        raise PoolStateError(f"recv(min_envs={min_envs}) but only envs {outstanding_ids} have something in flight; "
                             "lower `min_envs` or send to more envs first")


def outstanding(slots: Sequence[EnvSlot]) -> list[int]:
    """Env ids with something in flight or an undelivered row (what `recv` can return)."""
    return [i for i, s in enumerate(slots) if s.pending or s.state in IN_FLIGHT]


def pool_stats(counters: Mapping[str, int] | None, slots: Sequence[EnvSlot]) -> dict[str, int]:
    """`counters` (keys `STATS_KEYS`; None: all zero) plus `in_flight`, the number of envs busy now."""
    if counters is None:
        return dict.fromkeys((*STATS_KEYS, "in_flight"), 0)
    return {**counters, "in_flight": sum(1 for s in slots if s.state in IN_FLIGHT)}
