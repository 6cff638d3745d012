"""The generalisation section (issue 50): its plan, its paired figures, and a tiny run through every code path."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks import generalisation as section
from benchmarks.learner_trace import read_trace
from benchmarks.result import TINY_ENV, Result
from distrl_agent.config import SUITE_WARM_STARTS, load_config
from distrl_agent.errors import ConfigError


def levels(test: float, templates: float, apps: float, by_task: dict[str, float] | None = None,
           ) -> dict[str, tuple[float, dict[str, float]]]:
    """A warm start's figures in `evaluate_levels`' shape."""
    return {"test": (test, by_task or {}), "unseen_templates": (templates, {}), "unseen_apps": (apps, {})}


def summary(test: float, templates: float, apps: float, curve: list[dict] | None = None) -> dict:
    """A run's summary with the keys the section reads."""
    return {"test_success": test, "unseen_templates_success": templates, "unseen_apps_success": apps,
            "test_success_by_task": {}, "unseen_templates_success_by_task": {}, "unseen_apps_success_by_task": {},
            "curve": curve or []}


def test_plan_names_each_rule_in_each_regime(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in (TINY_ENV, "DISTRL_BENCH_GENERALISATION_RUNS", "DISTRL_BENCH_GENERALISATION_SEEDS"):
        monkeypatch.delenv(key, raising=False)
    full = section.plan(quick=False)
    assert len(full.runs) == len(section.RULES) * len(section.REGIMES) and full.seeds == (0, 1, 2)
    assert "GRPO (async) · emulator" in full.runs and "DigiRL (sync) · instant" in full.runs
    assert not any(name.startswith("A-RIDE KL") for name in full.runs)  # a variant runs when named
    monkeypatch.setenv("DISTRL_BENCH_GENERALISATION_RUNS", "A-RIDE KL 0.1 (async) · instant")
    assert section.plan(quick=False).runs == ("A-RIDE KL 0.1 (async) · instant",)
    monkeypatch.setenv("DISTRL_BENCH_GENERALISATION_RUNS", "A-RIDE (async) · instant,PPO (async)")
    with pytest.raises(ValueError, match=r"unknown runs \['PPO \(async\)'\]; known: .*'PPO \(async\) · instant'"):
        section.plan(quick=False)


def test_a_variant_is_its_rule_with_its_own_settings(tmp_path: Path) -> None:
    """A variant is A-RIDE in the regime's setting plus its own setting (the KL penalty; no entropy bonus), in a folder
    of its own."""  # noqa: D205, D209
    for regime in section.REGIMES:
        variant = load_config(overrides=section.run_config(f"A-RIDE KL 0.1 (async) · {regime}", 2, 10.0, tmp_path,
                                                           quick=False))
        rule = load_config(overrides=section.run_config(f"A-RIDE (async) · {regime}", 2, 10.0, tmp_path, quick=False))
        assert variant.learner.coefficients.kl_coef == 0.1 and rule.learner.coefficients.kl_coef == 0.0
        assert variant.replace(learner=rule.learner, run_dir=rule.run_dir) == rule
        assert Path(str(variant.run_dir)).name == f"A-RIDE_KL_0.1_async_{regime}_s2"
        unbonused = load_config(overrides=section.run_config(f"A-RIDE no entropy (async) · {regime}", 2, 10.0,
                                                             tmp_path, quick=False))
        assert unbonused.learner.coefficients.entropy_coef == 0.0 and rule.learner.coefficients.entropy_coef > 0
        assert unbonused.replace(learner=rule.learner, run_dir=rule.run_dir) == rule
        alone = load_config(overrides=section.run_config(f"A-RIDE advantage only (async) · {regime}", 2, 10.0,
                                                         tmp_path, quick=False)).learner.coefficients
        assert (alone.entropy_coef, alone.penalty_coef) == (0.0, 0.0) and rule.learner.coefficients.penalty_coef > 0
        bounded = load_config(overrides=section.run_config(f"A-RIDE trust region (async) · {regime}", 2, 10.0,
                                                           tmp_path, quick=False)).learner.coefficients
        assert (bounded.trust_region, bounded.kl_coef) == (0.2, 0.0) and rule.learner.coefficients.trust_region is None


def test_runs_train_on_world_and_evaluate_every_level_in_their_regime(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TINY_ENV, raising=False)
    slow = load_config(overrides=section.run_config("DigiRL (sync) · emulator", 1, 10.0, tmp_path, quick=False))
    fast = load_config(overrides=section.run_config("PPO (async) · instant", 1, 10.0, tmp_path, quick=False))
    start = load_config(overrides=section.run_config("", 1, 10.0, tmp_path, quick=False))
    for config in (slow, fast, start):
        assert config.env.suite == "world" and config.runtime.eval_splits == tuple(section.LEVELS)
        # World's own warm start, the same for every run of a seed
        assert config.runtime.warm_start_episodes == SUITE_WARM_STARTS["world"]["warm_start_episodes"]
        # the learning curve played after the run: no rule's budget or workers wait for it
        assert config.runtime.eval_deferred
    assert slow.env.latency == "emulator" and slow.runtime.sync and slow.learner.algorithm == "digirl"
    assert fast.env.latency == "off" and not fast.runtime.sync and fast.learner.algorithm == "ppo"
    assert start.env.latency == "off"  # the shared warm start clones demonstrations without the emulator's delays
    assert Path(str(slow.run_dir)).name == "DigiRL_sync_emulator_s1" != Path(str(fast.run_dir)).name


def test_gain_over_the_warm_start_pairs_each_seed_with_its_own_warm_start() -> None:
    """Each seed's final success minus its own seed's warm start: gains of exactly 10 points have no spread."""
    starts = [levels(0.10, 0.0, 0.0), levels(0.30, 0.05, 0.0), levels(0.20, 0.0, 0.10)]
    runs = {"A-RIDE (async) · instant": {0: summary(0.20, 0.10, 0.0), 1: summary(0.40, 0.15, 0.0),
                                         2: summary(0.30, 0.0, 0.10)},
            "A-RIDE KL 0.1 (async) · emulator": {0: summary(0.10, 0.0, 0.0), 1: summary(0.30, 0.05, 0.0),
                                                 2: summary(0.20, 0.0, 0.10)},
            "DigiRL (sync) · emulator": {0: summary(0.10, 0.0, 0.0), 1: summary(0.30, 0.05, 0.0),
                                         2: summary(0.20, 0.0, 0.10)}}
    result = Result()
    table = section.gains_table(result, runs, starts, (0, 1, 2))
    figures = {f.name: f.value for f in result.figures}
    assert figures["gain_over_warm_start/A-RIDE (async) · instant/test"] == pytest.approx(10.0)
    assert figures["gain_over_warm_start/A-RIDE (async) · instant/unseen_templates"] == pytest.approx(20 / 3)
    assert figures["gain_over_warm_start/A-RIDE (async) · instant/unseen_apps"] == pytest.approx(0.0)
    assert figures["gain_over_warm_start_lower95/A-RIDE (async) · instant/test"] == pytest.approx(10.0)
    assert figures["gain_over_warm_start_lower95/A-RIDE (async) · instant/unseen_templates"] < 20 / 3
    # World's default A-RIDE (the README's headline) is bounded too; the other rules are compared, not headlined
    assert figures["gain_over_warm_start_lower95/A-RIDE KL 0.1 (async) · emulator/test"] == pytest.approx(0.0, abs=1e-9)
    assert figures["gain_over_warm_start/DigiRL (sync) · emulator/test"] == pytest.approx(0.0, abs=1e-9)
    assert not any(name.startswith("gain_over_warm_start_lower95/DigiRL") for name in figures)
    row = next(line for line in table.splitlines() if "unseen instances" in line)
    assert "+10.0 | 0.0 | [+10.0, +10.0] | every seed equal" in row  # paired: no seed noise left
    row = next(line for line in table.splitlines() if "unseen apps" in line)
    assert "not separable" in row


def test_gain_skips_seeds_a_run_lost() -> None:
    """A crashed seed leaves its warm start out of the pairs instead of shifting the others."""
    starts = [levels(0.10, 0, 0), levels(0.50, 0, 0)]
    result = Result()
    section.gains_table(result, {"GRPO (async) · instant": {1: summary(0.55, 0, 0)}}, starts, (0, 1))
    assert {f.name: f.value for f in result.figures}["gain_over_warm_start/GRPO (async) · instant/test"] == \
        pytest.approx(5.0)


def test_warm_start_headroom_is_a_ceiling_on_unseen_instances() -> None:
    result = Result()
    section.warm_start_table(result, [levels(0.30, 0.1, 0.0), levels(0.40, 0.1, 0.0)])
    test = next(f for f in result.figures if f.name == "warm_start/test")
    assert test.value == pytest.approx(35.0) and test.target == 40.0 and not test.higher_is_better
    assert next(f for f in result.figures if f.name == "warm_start/unseen_apps").target is None


def test_tiers_average_their_templates() -> None:
    from android_gym.tasks.suites import templates

    by_tier: dict[str, list[str]] = {}
    for template in templates("world"):
        by_tier.setdefault(template.tier, []).append(f"world/{template.name}")
    easy, hard = by_tier["easy"][:2], by_tier["hard"][:1]
    means = section.tier_means({easy[0]: 1.0, easy[1]: 0.5, hard[0]: 0.25})
    assert means["easy"] == 0.75 and means["hard"] == 0.25 and math.isnan(means["medium"])


def test_lock_step_comparison_reads_both_runs_at_the_budget() -> None:
    """A lock-step round that ends past the budget does not count: each run is read at its last evaluation within it."""
    def curve(within: float, after: float) -> list[dict]:
        return [{"time_s": 30.0, "test_success": within / 2, "unseen_templates_success": 0.0,
                 "unseen_apps_success": 0.0},
                {"time_s": 60.0, "test_success": within, "unseen_templates_success": 0.1, "unseen_apps_success": 0.0},
                {"time_s": 75.0, "test_success": after, "unseen_templates_success": 0.9, "unseen_apps_success": 0.9}]

    a_ride = {s: summary(0.9, 0.9, 0.9, curve(0.4 + s / 10, 0.9)) for s in range(3)}
    lock_step = {s: summary(0.9, 0.9, 0.9, curve(0.2 + s / 10, 0.9)) for s in range(3)}
    result = Result()
    table = section.lock_step_comparison(result, {"A-RIDE (async) · emulator": a_ride,
                                                  "DigiRL (sync) · emulator": lock_step}, budget_s=60.0)
    figures = {f.name: f.value for f in result.figures}
    assert figures["a_ride_minus_lock_step_digirl_at_budget/test"] == pytest.approx(20.0)
    assert figures["a_ride_minus_lock_step_digirl_at_budget/unseen_templates"] == pytest.approx(0.0)
    # geometric mean of 0.4/0.2, 0.5/0.3, 0.6/0.4
    ratio = math.exp(sum(math.log(a / d) for a, d in ((0.4, 0.2), (0.5, 0.3), (0.6, 0.4))) / 3)
    assert figures["a_ride_vs_lock_step_digirl_relative_gain/test"] == pytest.approx(100 * (ratio - 1))
    assert figures["a_ride_vs_lock_step_digirl_relative_gain_lower95/test"] < 100 * (ratio - 1)  # the README's row
    assert table is not None and "n/a (a run at 0)" in table  # unseen apps: both at 0 within the budget
    # runs of the budget's length are read at their final evaluation, which comes after the curve's last point
    for runs, final in ((a_ride, 0.7), (lock_step, 0.35)):
        for run in runs.values():
            run.update(minutes=1.0, test_success=final)
    result = Result()
    section.lock_step_comparison(result, {"A-RIDE (async) · emulator": a_ride, "DigiRL (sync) · emulator": lock_step},
                                 budget_s=60.0)
    assert {f.name: f.value for f in result.figures}["a_ride_minus_lock_step_digirl_at_budget/test"] == \
        pytest.approx(35.0)


def test_eval_splits_name_what_the_suite_has() -> None:
    with pytest.raises(ConfigError, match=r"names \['unseen_app'\], not splits of suite 'world'; its splits: "
                                          r"\['train', 'test', 'unseen_templates', 'unseen_apps'\]"):
        load_config(overrides=["env.env_id=android_gym/World-v0", "runtime.eval_splits=[test,unseen_app]"])
    with pytest.raises(ConfigError, match="not splits of suite 'general'"):
        load_config(overrides=["runtime.eval_splits=[test,unseen_apps]"])
    with pytest.raises(ConfigError, match='must hold "test"'):
        load_config(overrides=["env.env_id=android_gym/World-v0", "runtime.eval_splits=[unseen_apps]"])


def test_tiny_section_trains_each_regime_and_reports_every_level(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """One seed, A-RIDE on the instant phone and DigiRL's lock-step protocol on slow phones, end to end."""
    monkeypatch.setenv(TINY_ENV, "1")
    monkeypatch.setenv("DISTRL_BENCH_GENERALISATION_RUNS", "A-RIDE (async) · instant,DigiRL (sync) · emulator")
    monkeypatch.setenv("DISTRL_BENCH_GENERALISATION_SEEDS", "1")
    result = section.run(quick=False, out=tmp_path)
    assert not [n for n in result.notes if "crashed" in n], result.notes
    names = {f.name for f in result.figures}
    for split in section.LEVELS:
        assert f"warm_start/{split}" in names
        assert f"gain_over_warm_start/A-RIDE (async) · instant/{split}" in names
        assert f"gain_over_warm_start/DigiRL (sync) · emulator/{split}" in names
    run_dir = tmp_path / "runs_generalisation" / "A-RIDE_async_instant_s0"
    saved = json.loads((run_dir / "summary.json").read_text())
    assert saved["curve"] and all({"unseen_templates_success", "unseen_apps_success"} <= point.keys()
                                  for point in saved["curve"])
    assert set(saved["unseen_apps_success_by_task"]) <= {f"world/{t}" for t in _unseen_apps_templates()}
    assert (tmp_path / "generalisation_instant.png").exists() and (tmp_path / "generalisation_emulator.png").exists()
    # the learner's entropy and train success over the run, from its metrics: table and figure once it has updated
    # (a 6-second run on a busy machine may make none)
    trace = read_trace(run_dir)
    assert trace is not None
    if trace:
        assert any(t.startswith("| run: the learner") for t in result.tables)
        assert (tmp_path / "generalisation_learner_instant.png").exists()
    assert any(t.startswith("| run: its data") for t in result.tables)


def test_data_table_says_how_often_each_rule_replays_what_it_collected() -> None:
    """Replay ratio = trajectories sampled per trajectory collected, averaged over seeds; drops count both places."""
    def used(episodes: int, sampled: float, stale: float, overflow: float, idle: float) -> dict:
        return {**summary(0.1, 0.0, 0.0), "episodes": episodes, "updates": 600, "replay/sampled": sampled,
                "replay/dropped_stale": stale, "runtime/dropped_trajectories": overflow,
                "runtime/learner_idle_fraction": idle}

    table = section.data_table({"A-RIDE (async) · emulator": {0: used(300, 18000.0, 0, 0, 0.0),
                                                              1: used(400, 20000.0, 0, 0, 0.1)},
                                "PPO (async) · instant": {0: used(5000, 20000.0, 100, 20, 0.02)},
                                "GRPO (async) · instant": {}})
    assert table is not None
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines()[2:]}
    assert rows["A-RIDE (async) · emulator"] == "| A-RIDE (async) · emulator | 2 | 350 | 600 | 55.00 | 5% | 0 |"
    assert rows["PPO (async) · instant"] == "| PPO (async) · instant | 1 | 5000 | 600 | 4.00 | 2% | 120 |"
    assert "GRPO (async) · instant" not in rows  # crashed or not run: nothing to average
    assert section.data_table({"GRPO (async) · instant": {}}) is None


def _unseen_apps_templates() -> list[str]:
    from android_gym.tasks.suites import split_of_template, templates

    return [t.name for t in templates("world") if split_of_template("world", t) == "unseen_apps"]


def test_a_run_whose_metrics_cannot_be_read_is_named_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "metrics.jsonl").write_text('{"time_s": 1, "losses/entropy": 0.3}\n{"time_s": 2, "los')
    result = Result(config={})
    assert section.learner_trace(result, tmp_path) is None
    assert result.notes == [f"No learner trace for {tmp_path.name}: {tmp_path / 'metrics.jsonl'}:2 is not a JSON "
                            "record (Unterminated string starting at)."]


def test_todays_plan_makes_the_runs_kept_in_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kept run is the run its name makes today, so the section's reporting pass reuses it rather than training
    it again, and a default changed since (World's KL penalty for A-RIDE) cannot relabel a kept run."""  # noqa: D205, D209
    import yaml

    from benchmarks.training_parts import same_run

    monkeypatch.delenv(TINY_ENV, raising=False)
    docs = Path(__file__).resolve().parents[2] / "docs" / "benchmarks"
    checked = 0
    for name in section.run_names(variants=True):
        for seed in (0, 1, 2):
            folder = section.run_folder(name, seed, docs)
            if not (folder / "config.yaml").exists():
                continue
            saved = yaml.safe_load((folder / "config.yaml").read_text())
            now = load_config(overrides=section.run_config(name, seed, 10.0, docs, quick=False)).to_dict()
            assert same_run({**saved, "run_dir": None}, {**now, "run_dir": None}), folder.name
            checked += 1
    assert checked >= 21  # A-RIDE in both regimes, the emulator's four rules and the KL variant, 3 seeds each
