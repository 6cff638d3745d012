"""Tests of the training benchmark's plan and comparison helpers (the runs themselves are in the tiny suite)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks.training import (
    QUICK_RUNS,
    RUNS,
    fraction_above,
    gap_at_equal,
    plan,
    reusable_summary,
    run_config,
    success_at,
    time_to,
)

CURVE = [{"time_s": 0.0, "env_steps": 0, "test_success": 0.4}, {"time_s": 60.0, "env_steps": 5000, "test_success": 0.7},
         {"time_s": 120.0, "env_steps": 9000, "test_success": 0.5}]


def test_plan_defaults_and_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("DISTRL_BENCH_TINY", "DISTRL_BENCH_TRAINING_RUNS", "DISTRL_BENCH_TRAINING_SEEDS",
                "DISTRL_BENCH_TRAINING_MINUTES"):
        monkeypatch.delenv(key, raising=False)
    assert plan(quick=True) == (QUICK_RUNS, (0,), 2.0)
    assert plan(quick=False) == (tuple(RUNS), (0, 1, 2), 20.0)
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_RUNS", "A-RIDE (async), Filtered BC (async)")
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_SEEDS", "2")
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_MINUTES", "3.5")
    assert plan(quick=False) == (("A-RIDE (async)", "Filtered BC (async)"), (0, 1), 3.5)


def test_plan_rejects_unknown_run_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_RUNS", "A-RIDE (async),PPO")
    with pytest.raises(ValueError, match=r"unknown runs \['PPO'\]"):
        plan(quick=False)


def test_curve_readers_hold_the_last_evaluation() -> None:
    assert time_to(CURVE, 0.6) == 60.0 and math.isinf(time_to(CURVE, 0.9))
    assert success_at(CURVE, "env_steps", 8999) == 0.7 and success_at(CURVE, "time_s", 120.0) == 0.5
    assert math.isnan(success_at(CURVE, "env_steps", -1))
    assert fraction_above(CURVE, 0.6, 0.0, 180.0) == pytest.approx(1 / 3)
    assert fraction_above(CURVE, 0.6, 200.0, 300.0) == 0.0  # no evaluation in the window


def test_reuse_takes_only_finished_runs_of_the_same_config(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from distrl_agent.config import load_config

    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)
    earlier_overrides = run_config("A-RIDE (async)", 1, 5.0, tmp_path / "earlier", quick=False)
    earlier = Path(load_config(overrides=earlier_overrides).run_dir)
    earlier.mkdir(parents=True)
    (earlier / "config.yaml").write_text(load_config(overrides=earlier_overrides).to_yaml())
    now = run_config("A-RIDE (async)", 1, 5.0, tmp_path / "now", quick=False)
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_REUSE", str(earlier.parent))
    assert reusable_summary(now) is None  # it never finished
    (earlier / "summary.json").write_text(json.dumps({"test_success": 0.8}))
    assert reusable_summary(run_config("A-RIDE (async)", 1, 6.0, tmp_path / "now", quick=False)) is None
    assert reusable_summary(run_config("DigiRL (async)", 1, 5.0, tmp_path / "now", quick=False)) is None
    assert reusable_summary(now) == {"test_success": 0.8}
    assert (tmp_path / "now" / "runs" / earlier.name / "summary.json").exists()  # copied into this output
    monkeypatch.delenv("DISTRL_BENCH_TRAINING_REUSE")
    assert reusable_summary(now) is None


def test_gap_at_equal_reads_both_curves_where_the_shorter_run_ended() -> None:
    longer = {"curve": [*CURVE, {"time_s": 180.0, "env_steps": 20000, "test_success": 0.9}]}
    shorter = {"curve": [{"time_s": 0.0, "env_steps": 0, "test_success": 0.2},
                         {"time_s": 60.0, "env_steps": 6000, "test_success": 0.6}]}
    assert gap_at_equal([longer], [shorter], "env_steps") == pytest.approx(0.7 - 0.6)  # both read at 6000 steps
    assert gap_at_equal([{"curve": CURVE[:1]}], [shorter], "env_steps") is None
