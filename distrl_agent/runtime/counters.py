"""The runtime's counters, each declared once: who counts it, how it combines, and its name in a run's figures.

A worker's `stats`, its shell's additions, a GRPO group collector's, the `WorkerBook` that sums them over workers and
their restarts, the totals carried across `--resume`, the summary and TensorBoard all read `COUNTERS`; adding a
counter is one line here plus the `+= 1` where it happens. How a value combines:

* `SUM`: adds over workers, their incarnations and resumed sessions (episodes, steps, faults, ...);
* `MAX`: the largest over every worker, incarnation and session (the slowest step);
* `GAUGE`: a live worker's state now (episodes under way, trajectories in its outbox): summed over the live workers
  only; across sessions it adds, since what one session left unfinished is lost to the next;
* `MEAN`: a mean over sessions weighted by another total (`weight`), e.g. the broadcast latency per adoption.

The learner's and the replay's counters are declared where they are counted (`Learner.counters`,
`replay.buffer._COUNTERS`) and checkpointed with them; they need no combining here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class Combine(StrEnum):
    """How a counter combines over workers, restarts and sessions (see the module docstring)."""

    SUM = "sum"
    MAX = "max"
    GAUGE = "gauge"
    MEAN = "mean"


Source = Literal["worker", "groups", "shell", "book"]
"""Who counts it: the `Worker` (`Worker.stats`), its `GroupCollector`, the `WorkerShell` around it (outbox, weight
adoption, what it holds now), or the runtime's `WorkerBook` (restarts, what it received, derived figures)."""


@dataclass(frozen=True)
class Counter:
    """One counter.

    Attributes:
        key: its name in a worker's report (`WorkerShell.stats`); None for the book's own figures.
        total: its name in a run's totals, summary, metrics.jsonl and TensorBoard; None when it only feeds another.
        combine: how it combines (`Combine`).
        source: who counts it (`Source`).
        doc: what it counts.
        scale: the total is the combined value times this (seconds to milliseconds: 1000).
        weight: for `MEAN`, the total that weights each session's mean.
    """

    key: str | None
    total: str | None
    combine: Combine
    source: Source
    doc: str
    scale: float = 1.0
    weight: str | None = None


def _worker(key: str, doc: str, combine: Combine = Combine.SUM, total: str | None = None) -> Counter:
    return Counter(key, total or f"runtime/{key}", combine, "worker", doc)


def _groups(key: str, doc: str) -> Counter:
    return Counter(key, f"runtime/{key}", Combine.SUM, "groups", doc)


def _book(total: str, doc: str, combine: Combine = Combine.SUM, weight: str | None = None) -> Counter:
    return Counter(None, f"runtime/{total}", combine, "book", doc, weight=weight)


SUM, MAX, GAUGE, MEAN = Combine.SUM, Combine.MAX, Combine.GAUGE, Combine.MEAN

COUNTERS: tuple[Counter, ...] = (
    _worker("started", "episodes that took a first step", total="runtime/episodes_started"),
    _worker("episodes", "episodes that ended (of those started)"),
    _worker("steps", "environment steps", total="runtime/env_steps"),
    _worker("successes", "episodes that ended with a reward"),
    _worker("faulty_episodes", "episodes cut by a device fault (never shipped whole)"),
    _worker("fault_prefixes", "faulted episodes whose clean steps shipped, truncated (`runtime.fault_prefixes`)"),
    _worker("unknown_verdicts", "steps the judge could not tell (device faults aside)"),
    _worker("unknown_verdict_cuts", "episodes ended at a step with an unknown verdict"),
    _worker("unknown_verdict_prefixes", "of those, episodes whose earlier steps shipped, truncated"),
    _worker("unknown_verdict_labels", "steps with an unknown verdict inside shipped trajectories: must stay 0"),
    _worker("reset_failures", "env resets or steps that raised, each followed by a fresh env and a retry"),
    _worker("admission_waits", "steps at which admission kept a free slot idle (`runtime.max_offpolicyness`)"),
    _worker("step_s_max", "the slowest env step, seconds from action to result", MAX),
    _worker("judge_s_max", "the slowest judge call, seconds", MAX),
    _groups("groups_released", "GRPO groups shipped whole to the learner"),
    _groups("groups_uniform", "groups dropped because every member returned the same (no signal)"),
    _groups("groups_too_small", "groups dropped with fewer than 2 members left"),
    _groups("group_members_lost", "group members lost to faults"),
    _groups("group_members_dropped", "members of dropped groups"),
    Counter("shipped", "runtime/trajectories_shipped", SUM, "shell", "trajectories put in the outbox (or handed "
            "over by a synchronous round)"),
    Counter("sent", None, SUM, "shell", "trajectories taken from the outbox by the transport"),
    Counter("dropped_trajectories", "runtime/dropped_trajectories", SUM, "shell",
            "oldest trajectories dropped by a full outbox (`runtime.worker_buffer_trajectories`)"),
    Counter("adopted", "runtime/weights_adopted", SUM, "shell", "weight versions adopted (a worker's first aside)"),
    Counter("latency_s_sum", None, SUM, "shell", "broadcast latencies of those adoptions, summed (seconds)"),
    Counter("latency_s_max", "runtime/broadcast_latency_ms_max", MAX, "shell",
            "the longest broadcast latency, from the learner's publication to the worker's first action with it",
            scale=1000.0),
    Counter("in_progress", "runtime/unfinished_episodes", GAUGE, "shell", "episodes under way"),
    Counter("held_in_groups", "runtime/held_in_groups", GAUGE, "shell", "finished trajectories waiting for their "
            "group"),
    Counter("buffered", None, GAUGE, "shell", "trajectories in the outbox"),
    _book("trajectories_received", "trajectories the runtime received from the workers"),
    _book("trajectories_in_flight", "trajectories in live workers' outboxes or pipes, not yet read (0 after a "
          "drain)"),
    _book("lost_in_progress", "episodes a killed worker's last report had under way"),
    _book("lost_with_workers", "finished trajectories a killed worker held (outbox, group, pipe)"),
    _book("stale_round_trajectories", "trajectories of a synchronous round answered for an older version"),
    _book("worker_restarts", "worker restarts after a crash or a kill"),
    _book("workers_dropped", "workers dropped with their envs when their Ray node left the cluster"),
    _book("inference_restarts", "restarts of the host's inference service after it died (`runtime.inference`)"),
    _book("discarded_partial_episodes", "episodes under way in workers that died"),
    _book("broadcast_latency_ms_mean", "mean broadcast latency per adopted version, milliseconds", MEAN,
          weight="runtime/weights_adopted"),
)
"""Every runtime counter, in the order the totals list them."""


def keys(source: Source, combine: Combine | None = None) -> tuple[str, ...]:
    """The report keys `source` counts (of one `combine` rule, or all)."""
    return tuple(c.key for c in COUNTERS if c.source == source and c.key and (combine is None or c.combine == combine))


def reported(combine: Combine) -> tuple[str, ...]:
    """Every report key (worker, groups, shell) that combines by `combine`."""
    return tuple(c.key for c in COUNTERS if c.key and c.combine == combine)


def initial(source: Source) -> dict[str, float]:
    """`source`'s counters at zero: integers for counts, floats for maxima (a fresh worker's `stats`)."""
    return {c.key: 0.0 if c.combine == MAX else 0 for c in COUNTERS if c.source == source and c.key}


def episodes_lost(count: Callable[[str], float]) -> float:
    """Finished episodes that never reach the learner: cut by a fault or an unknown verdict with nothing shipped, or
    dropped with their GRPO group. `count(key)` reads a worker counter (a worker's `stats`, or a run's totals).

    >>> episodes_lost({"faulty_episodes": 3, "fault_prefixes": 1, "group_members_dropped": 2}.get)
    4
    """  # noqa: D205
    get = lambda key: count(key) or 0  # noqa: E731  (a counter a worker without groups never reported)
    return (get("faulty_episodes") - get("fault_prefixes") + get("unknown_verdict_cuts")
            - get("unknown_verdict_prefixes") + get("group_members_dropped"))


_BY_TOTAL = {c.total: c for c in COUNTERS if c.total}


def combine_sessions(before: dict[str, float], now: dict[str, float]) -> dict[str, float]:
    """The totals of previous sessions combined with this session's, each by its rule (`--resume`).

    A total not declared here (a figure of an older run) adds up.

    >>> combine_sessions({"runtime/env_steps": 10, "runtime/step_s_max": 2.0},
    ...                  {"runtime/env_steps": 5, "runtime/step_s_max": 1.5})
    {'runtime/env_steps': 15.0, 'runtime/step_s_max': 2.0}
    """
    out: dict[str, float] = {}
    for name in [*before, *(k for k in now if k not in before)]:
        counter = _BY_TOTAL.get(name)
        old, new = float(before.get(name, 0.0)), float(now.get(name, 0.0))
        match counter:
            case Counter(combine=Combine.MAX):
                out[name] = max(old, new)
            case Counter(combine=Combine.MEAN, weight=str(weight)):
                w_old, w_new = float(before.get(weight, 0.0)), float(now.get(weight, 0.0))
                out[name] = (old * w_old + new * w_new) / (w_old + w_new) if w_old + w_new else 0.0
            case _:
                out[name] = old + new
    return out
