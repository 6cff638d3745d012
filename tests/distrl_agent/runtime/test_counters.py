"""The runtime counters are declared once (runtime/counters.py): what workers, shells and group collectors report is
exactly what is declared, every declared total reaches the run's totals, and each combines across workers, restarts
and resumed sessions by its declared rule."""  # noqa: D205, D209

from __future__ import annotations

import time

import pytest

from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection, load_config
from distrl_agent.runtime import counters
from distrl_agent.runtime.base import WorkerBook
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.counters import COUNTERS, Combine, combine_sessions
from distrl_agent.runtime.shell import WorkerShell
from distrl_agent.runtime.worker import Worker


def test_a_shell_reports_exactly_the_declared_counters() -> None:
    """A shell around a worker that plays groups reports every declared key, and nothing undeclared."""
    shell = WorkerShell(Worker(0, EnvSection(), 2, seed=1, groups=GroupSpec(2)), outbox_capacity=4)
    shell.start()
    try:
        shell.offer(0, build_learner(load_config()).weights(), time.time())
        for _ in range(5):
            shell.collect_step()
        reported = set(shell.stats()) - {"version"}
    finally:
        shell.close()
    declared = {c.key for c in COUNTERS if c.key}
    assert reported == declared, (sorted(reported - declared), sorted(declared - reported))


def test_every_declared_total_is_in_the_books_totals_once() -> None:
    totals = WorkerBook(2, max_restarts=1, envs_per_worker=1).totals()
    names = [c.total for c in COUNTERS if c.total]
    assert len(names) == len(set(names)) and list(totals) == names


def test_counts_add_over_restarts_maxima_stay_and_gauges_are_the_live_workers() -> None:
    """A worker that reported, died and came back: its counts add, the max is kept, its dead incarnation's gauges
    are not counted (they are lost in progress instead)."""  # noqa: D205, D209
    book = WorkerBook(num_workers=1, max_restarts=1, envs_per_worker=2)
    first = {**counters.initial("worker"), "started": 5, "episodes": 3, "step_s_max": 2.0, "shipped": 3,
             "dropped_trajectories": 0, "in_progress": 2, "held_in_groups": 0}
    book.update(0, first)
    book.retire(0, in_progress=2)
    book.update(0, {**counters.initial("worker"), "started": 4, "episodes": 3, "step_s_max": 0.5, "in_progress": 1})
    totals = book.totals()
    assert totals["runtime/episodes_started"] == 9 and totals["runtime/episodes"] == 6
    assert totals["runtime/step_s_max"] == 2.0
    assert totals["runtime/unfinished_episodes"] == 1 and totals["runtime/lost_in_progress"] == 2


def test_sessions_combine_by_each_counters_rule() -> None:
    """Across `--resume`: counts and gauges add, maxima are kept, the mean latency is weighted by adoptions."""
    before = {"runtime/env_steps": 10.0, "runtime/weights_adopted": 1.0, "runtime/broadcast_latency_ms_mean": 4.0,
              "runtime/broadcast_latency_ms_max": 4.0, "runtime/unfinished_episodes": 2.0,
              "runtime/step_s_max": 3.0}
    now = {"runtime/env_steps": 5.0, "runtime/weights_adopted": 3.0, "runtime/broadcast_latency_ms_mean": 8.0,
           "runtime/broadcast_latency_ms_max": 9.0, "runtime/unfinished_episodes": 1.0, "runtime/step_s_max": 1.0,
           "runtime/a_figure_of_a_newer_run": 2.0}
    total = combine_sessions(before, now)
    assert total["runtime/env_steps"] == 15.0 and total["runtime/weights_adopted"] == 4.0
    assert total["runtime/broadcast_latency_ms_mean"] == pytest.approx(7.0)
    assert total["runtime/broadcast_latency_ms_max"] == 9.0 and total["runtime/step_s_max"] == 3.0
    assert total["runtime/unfinished_episodes"] == 3.0 and total["runtime/a_figure_of_a_newer_run"] == 2.0


def test_every_count_adds_up_across_a_resume() -> None:
    """Each summed total is carried through `--resume` (a count left out would restart at 0 there)."""
    book = WorkerBook(num_workers=1, max_restarts=0, envs_per_worker=1)
    book.update(0, dict.fromkeys(WorkerBook.SUMMED, 1.0))
    session = book.totals()
    total = combine_sessions(session, session)
    kept = {c.total for c in COUNTERS if c.combine in (Combine.MAX, Combine.MEAN)}
    assert {k for k in session if total[k] != 2 * session[k]} <= kept
    assert total["runtime/fault_prefixes"] == 2.0


def test_a_fresh_workers_counters_are_its_declared_ones_at_zero() -> None:
    stats = counters.initial("worker")
    assert set(stats) == {c.key for c in COUNTERS if c.source == "worker"} and not any(stats.values())
    assert isinstance(stats["step_s_max"], float) and isinstance(stats["steps"], int)
