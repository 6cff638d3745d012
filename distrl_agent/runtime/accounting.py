"""Where a run's episodes went, from its summary: the balance that must close, and the lines `distrl train` prints.

Each term of `episode_balance` is counted on its own by the workers and the runtime (`WorkerBook`), so a run whose
balance does not close has lost or double-counted episodes somewhere: `unaccounted` is a check, not a remainder.
"""

from __future__ import annotations

from distrl_agent.runtime.counters import episodes_lost


def episode_balance(summary: dict) -> dict[str, float]:
    """Where every episode the workers started went, from a run's summary; `unaccounted` must be 0.

    started = unfinished at the end + lost in progress with killed workers + finished (as of each worker's last
    report: `runtime/discarded_partial_episodes` estimates what a killed worker really had under way), and each
    finished episode is
    not shipped (a fault or an unknown verdict without a prefix to ship, a dropped GRPO group, a group still
    incomplete), dropped by a full worker buffer, lost with a killed worker, in flight, or received by the learner.
    Each term is counted on its own, so `unaccounted` is a check, not a remainder (runs before these counters: NaN).

    >>> b = episode_balance({"runtime/episodes_started": 10, "runtime/unfinished_episodes": 2, "runtime/episodes": 8,
    ...                      "runtime/faulty_episodes": 1, "runtime/trajectories_received": 7})
    >>> b["not_shipped"], b["unaccounted"]
    (1.0, 0.0)
    """
    get = lambda key: float(summary.get(f"runtime/{key}", 0.0))  # noqa: E731
    if "runtime/episodes_started" not in summary:
        return {"unaccounted": float("nan")}
    not_shipped = episodes_lost(get) + get("held_in_groups")
    balance = {
        "started": get("episodes_started"), "unfinished": get("unfinished_episodes"),
        "lost_in_progress": get("lost_in_progress"), "finished": get("episodes"),
        "not_shipped": not_shipped, "dropped": get("dropped_trajectories"), "lost_finished": get("lost_with_workers"),
        "in_flight": get("trajectories_in_flight"), "received": get("trajectories_received"),
    }
    started_gap = balance["started"] - balance["unfinished"] - balance["lost_in_progress"] - balance["finished"]
    finished_gap = (balance["finished"] - not_shipped - balance["dropped"] - balance["lost_finished"]
                    - balance["in_flight"] - balance["received"])
    balance["unaccounted"] = abs(started_gap) + abs(finished_gap)
    return balance


def episode_accounting(summary: dict) -> str:
    """One line saying where every started episode went (`episode_balance`).

    >>> print(episode_accounting({"runtime/episodes_started": 380, "runtime/unfinished_episodes": 16,
    ...                           "runtime/episodes": 364, "runtime/faulty_episodes": 4,
    ...                           "runtime/trajectories_received": 360}))
    episodes: 380 started; 16 unfinished at the end, 0 lost in progress with killed workers, 364 finished: 4 not \
shipped (faults, unknown verdicts, GRPO group filters), 0 dropped by full worker buffers, 0 lost with killed workers, \
0 in flight at the end, 360 received by the learner; unaccounted: 0
    """
    b = episode_balance(summary)
    if "started" not in b:
        return "episodes: this run predates the episode counters"
    return (f"episodes: {b['started']:,.0f} started; {b['unfinished']:,.0f} unfinished at the end, "
            f"{b['lost_in_progress']:,.0f} lost in progress with killed workers, {b['finished']:,.0f} finished: "
            f"{b['not_shipped']:,.0f} not shipped (faults, unknown verdicts, GRPO group filters), {b['dropped']:,.0f} "
            f"dropped by full worker buffers, {b['lost_finished']:,.0f} lost with killed workers, "
            f"{b['in_flight']:,.0f} in flight at the end, {b['received']:,.0f} received by the learner; "
            f"unaccounted: {b['unaccounted']:,.0f}")


def replay_accounting(summary: dict) -> str:
    """Where the finished episodes of a run went: the workers' buffers, the staleness cap, eviction, sampling.

    >>> print(replay_accounting({"runtime/episodes": 1873, "runtime/faulty_episodes": 0,
    ...                          "runtime/dropped_trajectories": 1135, "replay/inserted": 514,
    ...                          "replay/dropped_stale": 450, "replay/evicted": 0, "replay/sampled": 1542,
    ...                          "replay/samples_per_inserted": 3.0}))
    replay: of 1,873 episodes, 0 cut by faults, 1,135 dropped by full worker buffers before the learner saw them; \
514 inserted, 450 dropped as stale (learner.max_staleness), 0 evicted (learner.replay_capacity_steps); \
1,542 samples drawn, 3.00 per inserted trajectory
    >>> replay_accounting({"runtime/episodes": 100, "runtime/faulty_episodes": 40, "runtime/fault_prefixes": 31})[:78]
    'replay: of 100 episodes, 40 cut by faults (31 of them shipped up to the fault)'
    """
    count = {k: int(summary.get(k, 0)) for k in ("runtime/episodes", "runtime/faulty_episodes",
                                                   "runtime/fault_prefixes", "runtime/dropped_trajectories",
                                                   "replay/inserted", "replay/dropped_stale", "replay/evicted",
                                                   "replay/sampled", "replay/retired_sampled")}
    prefixes = (f" ({count['runtime/fault_prefixes']:,} of them shipped up to the fault)"
                if count["runtime/fault_prefixes"] else "")
    retired = (f", {count['replay/retired_sampled']:,} retired after their last allowed draw "
               "(learner.max_times_sampled)" if count["replay/retired_sampled"] else "")
    return (f"replay: of {count['runtime/episodes']:,} episodes, {count['runtime/faulty_episodes']:,} cut by faults"
            f"{prefixes}, "
            f"{count['runtime/dropped_trajectories']:,} dropped by full worker buffers before the learner saw them; "
            f"{count['replay/inserted']:,} inserted, {count['replay/dropped_stale']:,} dropped as stale "
            f"(learner.max_staleness), {count['replay/evicted']:,} evicted (learner.replay_capacity_steps)"
            f"{retired}; "
            f"{count['replay/sampled']:,} samples drawn, {summary.get('replay/samples_per_inserted', 0.0):.2f} per "
            "inserted trajectory")


def group_accounting(summary: dict) -> str | None:
    """Where the groups of a GRPO run went (None when the workers played no groups).

    >>> print(group_accounting({"runtime/groups_released": 90, "runtime/groups_uniform": 30,
    ...                         "runtime/groups_too_small": 1, "runtime/group_members_lost": 5}))
    groups: 90 released to the learner, 30 dropped as uniform (every member returned the same: no signal), \
1 dropped with fewer than 2 members left; 5 members lost to faults
    >>> group_accounting({"runtime/episodes": 10}) is None
    True
    """
    keys = ("runtime/groups_released", "runtime/groups_uniform", "runtime/groups_too_small",
            "runtime/group_members_lost")
    count = {k: int(summary.get(k, 0)) for k in keys}
    if not any(count.values()):
        return None
    return (f"groups: {count[keys[0]]:,} released to the learner, {count[keys[1]]:,} dropped as uniform (every "
            f"member returned the same: no signal), {count[keys[2]]:,} dropped with fewer than 2 members left; "
            f"{count[keys[3]]:,} members lost to faults")
