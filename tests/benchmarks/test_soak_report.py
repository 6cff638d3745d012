"""Tests of the soak's report from arm records (no arm runs here): seeds, the paired comparison, the fault totals.

The records are the shape `soak.run_arm` writes, cut to what the report reads; each test would fail if the report
compared the wrong arms, flipped a difference, or counted a fault in one arm only.
"""

from __future__ import annotations

import json
import math

import pytest
from scipy.stats import t as student_t

from benchmarks import soak
from benchmarks.result import TINY_ENV, Result


def _record(name: str, success: float, **counts: float) -> dict:
    """An arm's record: a summary with `counts` (runtime/learner keys), a clean evaluation at `success`."""
    return {"arm": name, "seed": soak.arm_seed(name), "exits": [0], "summary": {"updates": 10, **counts},
            "eval": {"success": success}, "final_audit": {"half_inserted": 0, "missing": 0}}


def _plan(seeds: int) -> dict:
    return {"minutes": 30.0, "long_minutes": 0.0, "seed": 0, "seeds": seeds, "eval_episodes": 200}


def _figures(result: Result) -> dict:
    return {figure.name: figure for figure in result.figures}


def test_three_seeds_are_compared_paired_by_seed_with_a_student_t_interval() -> None:
    """Faulty minus clean per seed, its mean and t half-width; the arms of one seed are paired, not mixed."""
    success = {0: (0.745, 0.83), 1: (0.70, 0.76), 2: (0.80, 0.79)}
    arms = {soak.arm_name(kind, seed): _record(soak.arm_name(kind, seed), s[k])
            for seed, s in success.items() for k, kind in enumerate(("faulty", "clean"))}
    result = Result(config={})
    soak.report(arms, _plan(3), result)
    figures = _figures(result)
    d = [f - c for f, c in success.values()]
    mean = sum(d) / 3
    std = math.sqrt(sum((x - mean) ** 2 for x in d) / 2)
    half = student_t.ppf(0.975, 2) * std / math.sqrt(3)
    difference = figures["soak/test_success/faulty_minus_clean"]
    assert difference.value == pytest.approx(100 * mean)
    assert difference.target == pytest.approx(-100 * half)  # met exactly when the interval's upper end is >= 0
    assert figures["soak/test_success/clean"].value == pytest.approx(100 * (0.83 + 0.76 + 0.79) / 3)
    clean = [c for _, c in success.values()]
    clean_mean = sum(clean) / 3
    assert figures["soak/test_success/clean_seed_std"].value == pytest.approx(
        100 * math.sqrt(sum((c - clean_mean) ** 2 for c in clean) / 2))
    spread = figures["soak/test_success/faulty_in_clean_seed_std"]  # faulty mean 74.8 vs clean 79.3 +- 3.5
    assert spread.value == pytest.approx((sum(f for f, _ in success.values()) / 3 - clean_mean)
                                         / math.sqrt(sum((c - clean_mean) ** 2 for c in clean) / 2))
    assert spread.met is False and spread.target == -1.0
    note = next(n for n in result.notes if n.startswith("Final test success"))
    assert "paired by seed over 3 seeds" in note and "not separable" in note
    assert "seed 1: 70.0 vs 76.0" in note


def test_a_seed_with_one_arm_missing_is_left_out_of_the_pairs() -> None:
    arms = {name: _record(name, s) for name, s in
            (("faulty", 0.7), ("clean", 0.8), ("faulty_s1", 0.6), ("clean_s2", 0.9))}
    assert soak.success_pairs(arms, 3) == {0: (0.7, 0.8)}


def test_one_seed_falls_back_to_a_binomial_interval_that_says_it_is_evaluation_noise() -> None:
    result = Result(config={})
    soak.report({"faulty": _record("faulty", 0.745), "clean": _record("clean", 0.83)}, _plan(1), result)
    difference = _figures(result)["soak/test_success/faulty_minus_clean"]
    half = 1.96 * math.sqrt(0.745 * 0.255 / 200 + 0.83 * 0.17 / 200)
    assert difference.value == pytest.approx(-8.5) and difference.target == pytest.approx(-100 * half)
    assert difference.met is False  # -8.5 points is below the -8.0 the interval allows
    assert "soak/test_success/clean_seed_std" not in _figures(result)
    assert any("evaluation noise only" in note for note in result.notes)


def test_fault_figures_count_every_faulty_arm() -> None:
    """A half-inserted trajectory or an escaped exception in the second seed's arm fails its target too."""
    arms = {"faulty": _record("faulty", 0.7, **{"runtime/step_s_max": 2.0, "runtime/unknown_verdict_labels": 0}),
            "clean": _record("clean", 0.8),
            "faulty_s1": _record("faulty_s1", 0.7,
                                 **{"runtime/unknown_verdict_labels": 1, "runtime/step_s_max": 40.0}),
            "clean_s1": _record("clean_s1", 0.8)}
    arms["faulty_s1"]["final_audit"]["half_inserted"] = 2
    arms["faulty_s1"]["tracebacks"] = 1
    for name in ("faulty", "faulty_s1"):
        arms[name].update(device_requests=1000, device_faults=120, learner_kills=1)
    result = Result(config={})
    soak.report(arms, _plan(2), result)
    figures = _figures(result)
    assert figures["soak/half_inserted/final"].value == 2
    assert figures["soak/unknown_verdict_labels"].value == 1
    assert figures["soak/escaped_exceptions"].value == 1
    assert figures["soak/learner_kills_resumed"].value == 2
    assert figures["soak/device_fault_rate"].value == pytest.approx(12.0)
    assert figures["soak/slowest_step_over_deadline"].value == pytest.approx(40.0 / soak.STEP_DEADLINE_S)
    assert "| soak, 30 min per arm | faulty, seed 0 | clean, seed 0 | faulty, seed 1 | clean, seed 1 |" in \
        result.tables[0]


def test_the_full_suite_plans_three_seeds_of_faulty_and_clean_arms(monkeypatch) -> None:
    for name in ("DISTRL_BENCH_SOAK_MINUTES", "DISTRL_BENCH_SOAK_LONG_MINUTES", "DISTRL_BENCH_SOAK_SEEDS", TINY_ENV):
        monkeypatch.delenv(name, raising=False)
    assert soak.planned_arms(soak.plan(quick=False)) == (
        "faulty", "clean", "faulty_s1", "clean_s1", "faulty_s2", "clean_s2", "long")
    assert soak.planned_arms(soak.plan(quick=True)) == ("faulty", "clean")
    monkeypatch.setenv("DISTRL_BENCH_SOAK_SEEDS", "0")
    with pytest.raises(ValueError, match="DISTRL_BENCH_SOAK_SEEDS"):
        soak.plan(quick=False)


@pytest.mark.parametrize("selector", ["faulty_s0", "clean_1", "faulty,slow", ","])
def test_a_malformed_arm_name_is_refused(monkeypatch, selector) -> None:
    monkeypatch.setenv("DISTRL_BENCH_SOAK_ARMS", selector)
    with pytest.raises(ValueError, match="faulty_sK and clean_sK"):
        soak.runnable_arms(_plan(3))


def test_an_arm_of_a_seed_the_plan_does_not_run_is_refused_before_anything_runs(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(TINY_ENV, "1")
    monkeypatch.setenv("DISTRL_BENCH_SOAK_ARMS", "faulty_s1")
    with pytest.raises(ValueError, match="runs 1 seed"):
        soak.run(quick=True, out=tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("name", "record_seed", "reused"), [
    ("clean_s1", 1, True),
    ("clean_s1", 2, False),  # a record of another seed under this name
    ("clean", None, True),  # kept before seeds: seed 0
    ("clean_s1", None, False),
])
def test_a_kept_arm_is_reused_only_at_its_own_seed(monkeypatch, tmp_path, name, record_seed, reused) -> None:
    record = {"arm": name} | ({} if record_seed is None else {"seed": record_seed})
    (tmp_path / f"soak_{name}.json").write_text(json.dumps(record))
    (tmp_path / "soak_plan.json").write_text(json.dumps({"minutes": 30.0, "long_minutes": 80.0, "seed": 0}))
    monkeypatch.setenv("DISTRL_BENCH_SOAK_REUSE", str(tmp_path))
    assert (soak._reused(name, _plan(3)) is not None) == reused


def test_arm_without_the_label_counter_reports_no_figure_rather_than_zero() -> None:
    """A kept arm from before the counter existed: the figure is left out with a note, never reported as 0 met."""
    arms = {"faulty": _record("faulty", 0.7), "clean": _record("clean", 0.8)}
    arms["faulty"].update(device_requests=1000, device_faults=120, learner_kills=1)
    result = Result(config={})
    soak.report(arms, _plan(1), result)
    assert "soak/unknown_verdict_labels" not in _figures(result)
    assert any("soak/unknown_verdict_labels not measured" in note for note in result.notes)
    assert "| unknown-verdict steps shipped with a label | n/a | n/a |" in result.tables[0]
