"""Tests of the pool benchmark's machine reference: the bare Pipe round trip its overhead target is judged against."""

from __future__ import annotations

import multiprocessing

from benchmarks.pool import pipe_round_trip_us


def test_bare_pipe_round_trip_is_timed_and_its_worker_is_gone() -> None:
    """The reference is a positive time per round trip, and its echo worker has exited when the call returns."""
    before = {p.pid for p in multiprocessing.active_children()}
    us = pipe_round_trip_us(0.05)
    assert 0 < us < 1e6
    assert {p.pid for p in multiprocessing.active_children()} == before
