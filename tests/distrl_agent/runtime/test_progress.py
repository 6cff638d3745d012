"""The progress bar's rolling train success (`charts/train_success`): read from the workers' counters, over a window."""

from __future__ import annotations

import pytest

from distrl_agent.runtime.progress import SUCCESS_WINDOW, Progress


def counters(episodes: float, successes: float, faulty: float = 0.0, cut: float = 0.0) -> dict[str, float]:
    return {"runtime/episodes": episodes, "runtime/successes": successes, "runtime/faulty_episodes": faulty,
            "runtime/unknown_verdict_cuts": cut}


def test_every_judged_episode_counts_not_only_those_delivered() -> None:
    # GRPO: 100 episodes ended, 25 succeeded; the uniform groups of failures never reach the learner
    progress = Progress(60.0, 0.0, enabled=False)
    progress.record(counters(100, 25))
    assert progress.success == pytest.approx(0.25)


def test_episodes_without_a_verdict_are_left_out() -> None:
    progress = Progress(60.0, 0.0, enabled=False)
    progress.record(counters(100, 30, faulty=30, cut=10))
    assert progress.success == pytest.approx(0.5)


def test_the_rate_covers_the_recent_window_only() -> None:
    progress = Progress(60.0, 0.0, enabled=False)
    for n in range(10, 2 * SUCCESS_WINDOW + 1, 10):  # the first window all successes, the second all failures
        progress.record(counters(n, min(n, SUCCESS_WINDOW)))
    assert progress.success == pytest.approx(0.0)
    progress.record(counters(2 * SUCCESS_WINDOW + 100, SUCCESS_WINDOW + 100))  # then 100 successes
    assert progress.success == pytest.approx(0.5)  # the last 200: 100 failures, 100 successes


def test_a_resumed_run_starts_its_window_at_the_earlier_sessions_totals() -> None:
    progress = Progress(60.0, 0.5, enabled=False, totals=counters(1000, 900))
    assert progress.success == 0.0
    progress.record(counters(1010, 901))  # this session: 10 episodes, 1 success
    assert progress.success == pytest.approx(0.1)


def test_no_change_in_the_counters_keeps_the_rate() -> None:
    progress = Progress(60.0, 0.0, enabled=False)
    progress.record(counters(40, 10))
    progress.record(counters(40, 10))
    assert progress.success == pytest.approx(0.25)
