"""Tests of the training sections' plans and comparison helpers (the runs themselves are in the tiny suite)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from benchmarks import training_slow
from benchmarks.result import Result
from benchmarks.training import QUICK_RUNS, RUNS, plan, run_config
from benchmarks.training_parts import (
    Plan,
    contrast_table,
    fraction_above,
    gap_at_equal,
    protocol_comparison,
    reusable_summary,
    start_notes,
    success_at,
    time_to,
    time_to_table,
    train_runs,
)
from distrl_agent.config import load_config

CURVE = [{"time_s": 0.0, "env_steps": 0, "test_success": 0.4}, {"time_s": 60.0, "env_steps": 5000, "test_success": 0.7},
         {"time_s": 120.0, "env_steps": 9000, "test_success": 0.5}]


def test_plan_defaults_and_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("DISTRL_BENCH_TINY", "DISTRL_BENCH_TRAINING_RUNS", "DISTRL_BENCH_TRAINING_SEEDS",
                "DISTRL_BENCH_TRAINING_MINUTES"):
        monkeypatch.delenv(key, raising=False)
    assert plan(quick=True) == Plan(QUICK_RUNS, (0,), 0.6)
    assert plan(quick=False) == Plan(tuple(RUNS), (0, 1, 2), 20.0)
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_RUNS", "A-RIDE (async), Filtered BC (async)")
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_SEEDS", "2")
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_MINUTES", "3.5")
    assert plan(quick=False) == Plan(("A-RIDE (async)", "Filtered BC (async)"), (0, 1), 3.5)


def test_plan_rejects_unknown_run_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISTRL_BENCH_TRAINING_RUNS", "A-RIDE (async),PPO")
    with pytest.raises(ValueError, match=r"DISTRL_BENCH_TRAINING_RUNS names unknown runs \['PPO'\]"):
        plan(quick=False)


@pytest.mark.parametrize(("name", "value"), [("DISTRL_BENCH_SLOW_SEEDS", "three"), ("DISTRL_BENCH_SLOW_SEEDS", "0"),
                                             ("DISTRL_BENCH_SLOW_SEEDS", "2.5"), ("DISTRL_BENCH_SLOW_MINUTES", "ten"),
                                             ("DISTRL_BENCH_SLOW_MINUTES", "0"), ("DISTRL_BENCH_SLOW_MINUTES", "nan")])
def test_plan_refuses_values_that_are_not_numbers_naming_the_variable(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                      value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"{name}='{value}' is not"):
        training_slow.plan(quick=False)


def test_slow_runs_follow_the_stated_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """32 emulator-paced envs at real time; DigiRL's rounds of 32 followed by 40 updates; no staleness cap but one."""
    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)
    for key in ("DISTRL_BENCH_SLOW_RUNS", "DISTRL_BENCH_SLOW_SEEDS", "DISTRL_BENCH_SLOW_MINUTES"):
        monkeypatch.delenv(key, raising=False)
    assert training_slow.plan(quick=False) == Plan(tuple(training_slow.RUNS), (0, 1, 2), 10.0)
    configs = {name: load_config(overrides=training_slow.run_config(name, 0, 10.0, tmp_path, quick=False))
               for name in training_slow.RUNS}
    for name, config in configs.items():
        assert (config.env.latency, config.env.latency_time_scale, config.env.uses_processes) == \
            ("emulator", 1.0, True), name
        assert (config.runtime.workers, config.runtime.envs_per_worker) == (1, 32), name
        assert config.learner.max_staleness == (20 if "cap 20" in name else training_slow.NO_CAP), name
        assert config.learner.updates_per_round == (40 if config.runtime.sync else 4), name
    assert [n for n, c in configs.items() if c.runtime.sync] == ["DigiRL (sync)"]
    assert configs["DigiRL (sync)"].runtime.episodes_per_round == 32
    weights = {name: (c.learner.coefficients.behaviour_weight, c.learner.coefficients.rho_bar_max)
               for name, c in configs.items() if c.learner.algorithm == "a-ride"}
    assert weights.pop("A-RIDE masked weights") == ("mask", training_slow.MASK_CAP)
    assert weights.pop("A-RIDE uncapped weights")[0] == "uncapped"
    assert set(weights.values()) == {("truncate", 1.0)}  # every other A-RIDE run: the paper's truncation at 1
    # the weights' baseline is A-RIDE (async) itself, made again beside them from the same warm starts
    def run(name: str) -> dict:
        return {k: v for k, v in configs[name].model_dump().items() if k != "run_dir"}

    assert run("A-RIDE truncated weights") == run("A-RIDE (async)")


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
    source = str(earlier.parent)
    assert reusable_summary(now, source) is None  # it never finished
    (earlier / "summary.json").write_text(json.dumps({"test_success": 0.8}))
    assert reusable_summary(run_config("A-RIDE (async)", 1, 6.0, tmp_path / "now", quick=False), source) is None
    assert reusable_summary(run_config("DigiRL (async)", 1, 5.0, tmp_path / "now", quick=False), source) is None
    assert reusable_summary(now, source) == {"test_success": 0.8}
    assert (tmp_path / "now" / "runs" / earlier.name / "summary.json").exists()  # copied into this output
    assert reusable_summary(now, None) is None


def test_reuse_refuses_a_run_made_before_its_rule_gained_an_option(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A saved config without a field that exists now is another config, even where today's default fills it in."""
    import yaml

    from distrl_agent.config import load_config

    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)
    overrides = run_config("A-RIDE (async)", 1, 5.0, tmp_path / "earlier", quick=False)
    earlier = Path(load_config(overrides=overrides).run_dir)
    earlier.mkdir(parents=True)
    saved = load_config(overrides=overrides).to_dict()
    del saved["learner"]["coefficients"]["entropy_per_draw"]  # as written before A-RIDE had the option
    (earlier / "config.yaml").write_text(yaml.safe_dump(saved))
    (earlier / "summary.json").write_text(json.dumps({"test_success": 0.8}))
    now = run_config("A-RIDE (async)", 1, 5.0, tmp_path / "now", quick=False)
    loaded = load_config(earlier / "config.yaml").to_dict()  # loading fills the missing field with today's default
    assert {**loaded, "run_dir": None} == {**load_config(overrides=now).to_dict(), "run_dir": None}
    assert reusable_summary(now, str(earlier.parent)) is None


def test_kept_runs_are_reused_without_their_checkpoints_and_unfinished_ones_are_left(tmp_path, capsys,
                                                                                   monkeypatch) -> None:
    """`python -m benchmarks keep` copies what reuse reads, and only from finished runs."""
    from benchmarks.run import main

    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)
    earlier_overrides = run_config("A-RIDE (async)", 0, 5.0, tmp_path / "earlier", quick=False)
    finished = Path(load_config(overrides=earlier_overrides).run_dir)
    (finished / "checkpoint").mkdir(parents=True)
    (finished / "checkpoint" / "weights.safetensors").write_bytes(b"big")
    (finished / "config.yaml").write_text(load_config(overrides=earlier_overrides).to_yaml())
    (finished / "summary.json").write_text(json.dumps({"test_success": 0.7}))
    (unfinished := finished.parent / "DigiRL_sync_s0").mkdir()
    (unfinished / "config.yaml").write_text("{}")
    assert main(["keep", str(finished.parent), str(tmp_path / "kept")]) == 0
    assert "kept 1 finished run(s)" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "kept" / finished.name).iterdir()) == ["config.yaml", "summary.json"]
    assert not (tmp_path / "kept" / "DigiRL_sync_s0").exists()
    now = run_config("A-RIDE (async)", 0, 5.0, tmp_path / "now", quick=False)
    assert reusable_summary(now, str(tmp_path / "kept")) == {"test_success": 0.7}
    with pytest.raises(SystemExit):
        main(["keep", str(tmp_path / "absent"), str(tmp_path / "kept")])
    assert "is not a folder of runs" in capsys.readouterr().err


def test_gap_at_equal_reads_both_curves_where_the_shorter_run_ended() -> None:
    longer = {"curve": [*CURVE, {"time_s": 180.0, "env_steps": 20000, "test_success": 0.9}]}
    shorter = {"curve": [{"time_s": 0.0, "env_steps": 0, "test_success": 0.2},
                         {"time_s": 60.0, "env_steps": 6000, "test_success": 0.6}]}
    assert gap_at_equal([longer], [shorter], "env_steps") == pytest.approx(0.7 - 0.6)  # both read at 6000 steps
    assert gap_at_equal([{"curve": CURVE[:1]}], [shorter], "env_steps") is None


def _summary(test: float, episodes: int, first_above_s: float) -> dict:
    """A finished run whose test success is 0.5 until `first_above_s`, then `test`, over a 300 s budget."""
    curve = [{"time_s": t, "episodes": episodes * t // 300, "test_success": 0.5 if t < first_above_s else test}
             for t in range(0, 300, 30)]
    return {"test_success": test, "train_success": test, "episodes": episodes, "updates": 100, "curve": curve,
            "minutes": 5.0}


def test_protocol_comparison_pairs_seeds_and_attaches_the_papers_targets_only_when_asked() -> None:
    a_ride = [_summary(0.8, 900, 60), _summary(0.75, 1000, 90), _summary(0.85, 800, 60)]
    digirl = [_summary(0.6, 300, 240), _summary(0.65, 300, 210), _summary(0.62, 320, 240)]
    result = Result()
    table = protocol_comparison(result, a_ride, digirl, 300.0, targets=True)
    figures = {f.name: f for f in result.figures}
    assert figures["a_ride_minus_sync_digirl_test_success"].value == pytest.approx(100 * (0.8 - 0.623333), abs=1e-3)
    # the claims are judged on the low end of their interval; the point estimates carry no target
    assert figures["a_ride_vs_sync_digirl_relative_gain_lower95"].target == 20.0
    assert figures["a_ride_vs_sync_digirl_relative_gain"].target is None
    assert (figures["a_ride_vs_sync_digirl_relative_gain_lower95"].value
            < figures["a_ride_vs_sync_digirl_relative_gain"].value)
    # Fig. b: A-RIDE at or above 60% in 8, 7, 8 of 10 evaluations; DigiRL in 2, 3, 2
    assert figures["efficiency_vs_sync_digirl"].value == pytest.approx((23 / 30) / (7 / 30))
    assert figures["time_to_60pct_speedup_vs_sync_digirl"].value == pytest.approx((240 * 210 * 240 / (60 * 90 * 60))
                                                                                  ** (1 / 3))
    assert figures["collection_vs_sync_digirl_lower95"].target == 2.4
    assert 1.0 < figures["collection_vs_sync_digirl_lower95"].value < figures["collection_vs_sync_digirl"].value
    assert figures["a_ride_minus_sync_digirl_test_at_budget"].value == pytest.approx(100 * (0.8 - 0.623333), abs=1e-3)
    assert table.count("| separable |") == 6
    flipped = Result()
    protocol_comparison(flipped, digirl, a_ride, 300.0, targets=False)
    assert all(f.target is None for f in flipped.figures)
    assert {f.name: f.value for f in flipped.figures}["a_ride_minus_sync_digirl_test_success"] < 0


def test_a_digirl_run_that_never_reaches_60_percent_bounds_the_claims_from_below() -> None:
    """Time to 60% is censored at the end of a DigiRL run that never got there: the speed-up is a lower bound.

    When no DigiRL run got there and every A-RIDE run did, Fig. b's ratio is unbounded, not missing.
    """
    a_ride = [_summary(0.8, 900, 60), _summary(0.75, 1000, 90), _summary(0.85, 800, 60)]
    never = [_summary(0.55, 300, 0), _summary(0.58, 300, 0), _summary(0.5, 300, 0)]  # 0.5, then below 0.6
    result = Result()
    table = protocol_comparison(result, a_ride, never, 300.0, targets=True)
    figures = {f.name: f for f in result.figures}
    assert figures["time_to_60pct_speedup_vs_sync_digirl"].value == pytest.approx((300 * 300 * 300 / (60 * 90 * 60))
                                                                                  ** (1 / 3))
    assert "≥ 4.37x (3 DigiRL run(s) never reached 60%: censored at their end)" in table
    assert math.isinf(figures["efficiency_vs_sync_digirl_lower95"].value)
    assert figures["efficiency_vs_sync_digirl_lower95"].target == 3.0
    half = Result()  # one A-RIDE run never got there either: Fig. b's ratio is not claimed
    half_table = protocol_comparison(half, [*a_ride[:2], _summary(0.5, 800, 0)], never, 300.0, targets=True)
    assert "efficiency_vs_sync_digirl_lower95" not in {f.name for f in half.figures}
    assert "n/a (DigiRL never there, nor an A-RIDE run)" in half_table and "unbounded" not in half_table
    assert "unbounded (DigiRL never there)" in table and "nan" not in table


def test_contrast_table_lists_the_ingredients_whose_two_runs_ran() -> None:
    summaries = {"A-RIDE (async)": {0: _summary(0.8, 900, 60), 1: _summary(0.7, 900, 60)},
                 "A-RIDE uniform replay": {0: _summary(0.7, 900, 60), 1: _summary(0.7, 900, 60)},
                 "DigiRL (async)": {1: _summary(0.6, 900, 60)}, "DigiRL (sync)": {}}
    table = contrast_table(summaries, 300.0)
    assert table is not None and "prioritised replay" in table and "| +5.0 [" in table
    assert "asynchronous system" not in table  # DigiRL (sync) has no finished run
    assert "| 1 |" in table  # A-RIDE's rule over DigiRL's: the one seed both finished
    assert contrast_table({"A-RIDE (async)": summaries["A-RIDE (async)"]}, 300.0) is None


def test_time_to_a_level_is_paired_over_the_seeds_where_both_runs_got_there() -> None:
    """The main job's time to 85%: a run that never got there is counted as such and left out of the difference."""
    summaries = {"A-RIDE (async)": {0: _summary(0.9, 900, 60), 1: _summary(0.9, 900, 90), 2: _summary(0.9, 900, 60)},
                 "A-RIDE unbounded": {0: _summary(0.9, 900, 120), 1: _summary(0.9, 900, 180),
                                      2: _summary(0.8, 900, 60)},
                 "DigiRL (sync)": {}}
    result = Result()
    table = time_to_table(result, summaries, "A-RIDE (async)", 0.85)
    figures = {f.name: f for f in result.figures}
    assert figures["time_to_85pct_test/A-RIDE (async)"].value == pytest.approx(70.0)  # its 3 seeds: 60, 90, 60
    assert figures["time_to_85pct_test/A-RIDE unbounded"].value == pytest.approx(150.0)  # seed 2 never got there
    assert not figures["time_to_85pct_test/A-RIDE unbounded"].higher_is_better
    assert [f.name for f in result.figures].count("time_to_85pct_test/A-RIDE (async)") == 1
    # seeds 0 and 1: +60 and +90 s, a t-interval of one degree of freedom
    assert "| A-RIDE unbounded | 2 of 3 | 70 ± 17 | 150 ± 42 (1 never) | +75 | 21 | [-116, +266] | not separable |" \
        in table
    assert "DigiRL (sync)" not in table


def test_a_seeds_warm_start_is_saved_kept_and_taken_again_only_under_its_config(tmp_path: Path, capsys,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A later session reuses the very warm start its reused runs started from, instead of cloning again."""
    import benchmarks.training_parts as parts
    from benchmarks.run import main

    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)
    cloned: list[int] = []

    def fake_warm_start(config):
        cloned.append(config.runtime.seed)
        return {"actor.w": np.full((2, 3), float(config.runtime.seed), np.float32)}

    monkeypatch.setattr(parts, "warm_start", fake_warm_start)
    first = load_config(overrides=run_config("", 1, 5.0, tmp_path / "first", quick=False))
    weights = parts.shared_warm_start(first, None)
    assert cloned == [1] and (Path(first.run_dir) / "warm_start.safetensors").is_file()
    assert main(["keep", str(Path(first.run_dir).parent), str(tmp_path / "kept")]) == 0
    assert sorted(p.name for p in (tmp_path / "kept" / "_s1").iterdir()) == ["config.yaml", "warm_start.safetensors"]
    # a later plan with longer runs and another learning rate: the warm start does not depend on them
    again = load_config(overrides=[*run_config("", 1, 10.0, tmp_path / "again", quick=False), "learner.lr=3e-4"])
    taken = parts.shared_warm_start(again, str(tmp_path / "kept"))
    assert cloned == [1] and np.array_equal(taken["actor.w"], weights["actor.w"])
    other = load_config(overrides=[*run_config("", 1, 5.0, tmp_path / "other", quick=False),
                                   "runtime.warm_start_updates=7"])
    parts.shared_warm_start(other, str(tmp_path / "kept"))  # another warm start: cloned anew
    policy = load_config(overrides=[*run_config("", 1, 5.0, tmp_path / "policy", quick=False),
                                    "policy.small.hidden_dim=48"])
    parts.shared_warm_start(policy, str(tmp_path / "kept"))  # another policy: cloned anew
    assert cloned == [1, 1, 1]
    capsys.readouterr()


def test_a_crashed_run_is_recorded_and_the_suite_goes_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import benchmarks.training_parts as parts

    monkeypatch.delenv("DISTRL_BENCH_TINY", raising=False)

    def fake_train(config, initial_weights):
        if config.learner.algorithm == "digirl":
            raise RuntimeError("worker 0 kept crashing")
        return {"test_success": 0.7, "seed": config.runtime.seed}

    monkeypatch.setattr(parts, "warm_start", lambda config: {"w": np.zeros(2, np.float32)})
    monkeypatch.setattr(parts, "evaluate_by_task", lambda *args: (0.5, {"general/open_app": 0.5}))
    monkeypatch.setattr(parts, "train", fake_train)
    result = Result()
    summaries, start = train_runs(Plan(("A-RIDE (async)", "DigiRL (async)"), (0, 1), 1.0),
                                  lambda name, seed: run_config(name, seed, 1.0, tmp_path, False), result, "UNSET_VAR")
    assert summaries == {"A-RIDE (async)": {0: {"test_success": 0.7, "seed": 0}, 1: {"test_success": 0.7, "seed": 1}},
                         "DigiRL (async)": {}}
    assert len(start) == 2 and len(result.notes) == 2
    assert all("DigiRL (async), seed" in n and "**crashed**" in n and "worker 0 kept crashing" in n
               for n in result.notes)


def test_collection_bound_means_data_reused_and_not_dropped() -> None:
    """The slow section's stated rule: replay ratio > 2 and < 10% of the collected trajectories dropped unused."""
    slow = {"episodes": 100, "replay/sampled": 3000.0, "replay/dropped_stale": 5.0, "runtime/dropped_trajectories": 0}
    assert training_slow.is_collection_bound(slow)
    assert not training_slow.is_collection_bound({**slow, "runtime/dropped_trajectories": 10.0})  # 15% dropped
    assert not training_slow.is_collection_bound({**slow, "replay/sampled": 150.0})  # each sampled 1.5 times
    instant = {"episodes": 11258, "replay/sampled": 12096.0, "replay/dropped_stale": 3429.0,
               "runtime/dropped_trajectories": 7554.0}  # A-RIDE on the instant phone, 5 min (measured)
    assert not training_slow.is_collection_bound(instant)


def test_the_training_plots_stay_readable(tmp_path) -> None:
    """Bands only for the main comparison, shares and their error bars within 0-100%, no empty 80% panel."""
    from PIL import Image

    from benchmarks.training_parts import plot_curves, plot_time_above

    def run(values: list[float]) -> dict:
        return {"curve": [{"time_s": 60.0 * i, "env_steps": 100 * i, "test_success": v} for i, v in enumerate(values)]}

    summaries = {f"run {k}": {seed: run([0.1, 0.3 + 0.05 * seed, 0.5 + 0.1 * seed]) for seed in range(3)}
                 for k in range(10)}
    curves = plot_curves(summaries, tmp_path / "curves.png", "ten runs")
    shares = plot_time_above(summaries, 180.0, tmp_path / "above.png", "nobody reaches 80%")
    assert Image.open(curves).width <= 1600
    assert Image.open(shares).width < Image.open(plot_time_above(
        {"a": {0: run([0.9, 0.9, 0.9]), 1: run([0.1, 0.9, 0.9])}}, 180.0, tmp_path / "both.png", "80% too")).width


def _dotted(tree: dict, prefix: str = "") -> set[str]:
    keys = set()
    for key, value in tree.items():
        keys |= _dotted(value, f"{prefix}{key}.") if isinstance(value, dict) and value else {f"{prefix}{key}"}
    return keys


def test_every_key_added_since_a_run_was_kept_says_how_the_code_behaved_before_it() -> None:
    """A config key added after runs were kept needs its before-value in NEUTRAL_ADDITIONS, or no kept run is ever
    reused again (a new coefficient once made the generalisation section retrain a run it had)."""  # noqa: D205, D209
    import yaml

    from benchmarks.training_parts import NEUTRAL_ADDITIONS

    kept = sorted((Path(__file__).resolve().parents[2] / "docs" / "benchmarks").glob("runs_*/*/config.yaml"))
    assert kept, "no kept runs found under docs/benchmarks"
    for path in kept:
        saved = _dotted(yaml.safe_load(path.read_text()))
        added = _dotted(load_config(path).to_dict()) - saved
        assert added <= set(NEUTRAL_ADDITIONS), f"{path}: {sorted(added - set(NEUTRAL_ADDITIONS))}"


def _started(first: float, digest: str | None = None) -> dict:
    """A run whose first evaluation (version 0) scored `first`, started from weights with `digest` (None: a summary
    from before the digest)."""  # noqa: D205, D209
    run = {"curve": [{"time_s": 0.0, "version": 0, "test_success": first}], "test_success": 0.7}
    return run if digest is None else {**run, "start_weights_sha256": digest}


def test_a_seed_whose_runs_started_from_different_weights_is_named() -> None:
    same = {"A-RIDE": {0: _started(0.57, "a" * 64)}, "DigiRL": {0: _started(0.57, "a" * 64)}}
    assert start_notes(same, {0: "a" * 64}) == []
    # by digest: equal first evaluations do not hide different weights, and the report's own start is one of them
    differ = {"A-RIDE": {0: _started(0.57, "a" * 64), 1: _started(0.5, "c" * 64)},
              "masked": {0: _started(0.57, "b" * 64), 1: _started(0.5, "c" * 64)}}
    (note,) = start_notes(differ, {0: "b" * 64, 1: "c" * 64})
    assert note.startswith("Seed 0's runs started from different warm starts")
    assert "A-RIDE from weights aaaaaaaaaaaa" in note
    assert "the warm start this report evaluates, masked from weights bbbbbbbbbbbb" in note
    # kept runs from before the digest: told apart by their first evaluation, when it differs
    older = {"A-RIDE": {2: _started(0.15)}, "bounded": {2: _started(0.13, "d" * 64)}}
    (note,) = start_notes(older)
    assert "A-RIDE from first evaluation 15%" in note and "bounded from first evaluation 13%" in note
    assert start_notes({"A-RIDE": {2: _started(0.15)}, "bounded": {2: _started(0.15)}}) == []
