"""Tests of `distrl_agent.runtime.base.WorkerBook`: counters that survive restarts, and the restart cap."""

from __future__ import annotations

import pytest

from distrl_agent.errors import WorkerError
from distrl_agent.runtime.base import WorkerBook


def test_totals_keep_counters_of_dead_incarnations() -> None:
    """A restarted worker's counters restart from zero; the totals keep what its predecessor did."""
    book = WorkerBook(2, max_restarts=3, envs_per_worker=4)
    book.update(0, {"steps": 100, "episodes": 10, "adopted": 2, "latency_s_sum": 0.02, "latency_s_max": 0.015})
    book.update(1, {"steps": 50, "episodes": 5})
    book.retire(0, book.in_progress(is_sync=False, round_episodes=None))
    book.update(0, {"steps": 7, "episodes": 1})
    totals = book.totals()
    assert totals["runtime/env_steps"] == 157 and totals["runtime/episodes"] == 16
    assert totals["runtime/worker_restarts"] == 1 and totals["runtime/discarded_partial_episodes"] == 4
    assert totals["runtime/broadcast_latency_ms_mean"] == pytest.approx(10.0)
    assert totals["runtime/broadcast_latency_ms_max"] == pytest.approx(15.0)


def test_in_progress_depends_on_protocol_and_round() -> None:
    """Async deaths lose every slot; sync deaths lose the round's busy slots, or nothing between rounds."""
    book = WorkerBook(1, max_restarts=1, envs_per_worker=8)
    assert book.in_progress(is_sync=False, round_episodes=None) == 8
    assert book.in_progress(is_sync=True, round_episodes=3) == 3
    assert book.in_progress(is_sync=True, round_episodes=None) == 0


def test_retire_beyond_max_restarts_raises_worker_error_with_last_error() -> None:
    """A worker that keeps dying fails the run with its index and last traceback."""
    book = WorkerBook(1, max_restarts=1, envs_per_worker=1)
    book.last_error[0] = "Traceback: boom"
    book.retire(0, 1)
    with pytest.raises(WorkerError, match="(?s)worker 0 died 2 times.*boom"):
        book.retire(0, 1)


def test_a_dropped_worker_keeps_its_counters_counts_no_restart_and_the_last_one_ends_the_run() -> None:
    """A worker whose node left: its counters stay in the totals, its slots are discarded, it is counted as dropped
    (once, however often its failure is seen), not as restarted; dropping every worker fails the run."""  # noqa: D205, D209
    book = WorkerBook(2, max_restarts=0, envs_per_worker=3)
    book.update(1, {"steps": 40, "episodes": 4})
    book.drop(1, book.in_progress(is_sync=False, round_episodes=None))
    book.drop(1, 3)
    totals = book.totals()
    assert totals["runtime/env_steps"] == 40 and totals["runtime/workers_dropped"] == 1
    assert totals["runtime/worker_restarts"] == 0 and totals["runtime/discarded_partial_episodes"] == 3
    book.last_error[0] = "node 7f lost"
    with pytest.raises(WorkerError, match="(?s)every worker is gone.*node 7f lost"):
        book.drop(0, 0)


def test_both_learners_implement_every_call_of_the_handle_themselves() -> None:
    """The in-process learner and the Ray proxy each define every `LearnerHandle` call (none falls through to the
    protocol's empty body, and nothing reaches the actor by attribute lookup)."""  # noqa: D205, D209
    from distrl_agent.runtime.base import LearnerHandle
    from distrl_agent.runtime.learner import Learner
    from distrl_agent.runtime.ray_actors import RayLearner

    calls = {name for name, value in vars(LearnerHandle).items() if callable(value) and not name.startswith("_")}
    assert {"ingest", "train_steps", "weights", "save", "load"} <= calls
    for cls in (Learner, RayLearner):
        assert LearnerHandle in cls.__mro__
        assert not [name for name in calls if name not in vars(cls)], cls.__name__
    assert "__getattr__" not in vars(RayLearner)
