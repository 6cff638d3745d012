"""Tests of `benchmarks.learner_trace`: a run's metrics condensed, kept with the run, tabled and plotted."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks.keep import keep_runs
from benchmarks.learner_trace import TRACE_FILE, condense, dynamics_table, plot_dynamics, read_trace


def _metrics(run: Path, seconds: int = 80) -> Path:
    """A run folder whose metrics.jsonl has a record a second: no update for 5 s, then entropy = t / 100, train
    success = 0.5, critic loss only on even seconds."""  # noqa: D205, D209
    run.mkdir(parents=True, exist_ok=True)
    lines = []
    for t in range(1, seconds + 1):
        record = {"step": max(0, t - 5), "time_s": float(t), "charts/train_success": 0.5}
        if t > 5:
            record["losses/entropy"] = t / 100
            if t % 2 == 0:
                record["losses/critic"] = 1.0
        lines.append(json.dumps(record))
    (run / "metrics.jsonl").write_text("\n".join(lines) + "\n")
    (run / "summary.json").write_text("{}")
    (run / "config.yaml").write_text("{}\n")
    return run / "metrics.jsonl"


def test_condense_averages_each_time_bin_from_the_first_update(tmp_path: Path) -> None:
    trace = condense(_metrics(tmp_path / "run"), points=4)  # bins of 20 s over [0, 80]
    assert [p["time_s"] for p in trace] == [19.0, 39.0, 59.0, 80.0]
    assert [p["version"] for p in trace] == [14, 34, 54, 75]
    # the first bin holds the updates of seconds 6-19 only: before the first update there is no entropy
    assert trace[0]["entropy"] == pytest.approx(sum(range(6, 20)) / 14 / 100)
    assert trace[-1]["entropy"] == pytest.approx(sum(range(60, 81)) / 21 / 100)
    assert all(p["train_success"] == 0.5 and p["critic_loss"] == 1.0 for p in trace)


def test_the_train_success_counts_every_judged_episode_from_the_counters(tmp_path: Path) -> None:
    """A GRPO run's bar read 0.5 (its delivered groups are mixed by construction) while 1 in 5 episodes succeeded:
    the trace reads the workers' counters, over the last ~200 judged episodes, a device fault not among them."""  # noqa: D205, D209
    path = _metrics(tmp_path / "run")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for t, record in enumerate(records, 1):  # 10 episodes a second: one success in 5, then from 41 s all succeed
        record |= {"runtime/episodes": 11.0 * t, "runtime/faulty_episodes": 1.0 * t,
                   "runtime/successes": 2.0 * min(t, 40) + 10.0 * max(0, t - 40)}
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    trace = condense(path, points=4)  # bins ending at 19, 39, 59 and 80 s
    assert [round(p["train_success"], 3) for p in trace] == [0.2, 0.2, 0.2 * 0.05 + 0.95, 1.0]
    # a metrics file from before the counters keeps what the bar recorded
    assert all(p["train_success"] == 0.5 for p in condense(_metrics(tmp_path / "old"), points=4))


def test_condense_names_the_line_that_is_not_a_record(tmp_path: Path) -> None:
    path = _metrics(tmp_path / "run", seconds=10)
    path.write_text(path.read_text() + "[1, 2]\n")
    with pytest.raises(ValueError, match=r"metrics.jsonl:11 is not a JSON object"):
        condense(path)
    path.write_text("{\"time_s\": 1,\n")
    with pytest.raises(ValueError, match=r"metrics.jsonl:1 is not a JSON record"):
        condense(path)


def test_kept_runs_carry_their_trace_and_keep_it_when_kept_again(tmp_path: Path) -> None:
    """`keep` leaves the metrics behind but writes their trace; a kept run reads the same trace back (a missing
    value as NaN), and keeping the kept folder again carries the trace along."""  # noqa: D205, D209
    _metrics(tmp_path / "runs" / "A_s0")
    (tmp_path / "runs" / "A_s0" / "metrics.jsonl").write_text(
        (tmp_path / "runs" / "A_s0" / "metrics.jsonl").read_text()
        + json.dumps({"step": 80, "time_s": 200.0, "losses/entropy": 0.9}) + "\n")  # a bin of its own: gaps
    assert keep_runs(tmp_path / "runs", tmp_path / "kept") == ["A_s0"]
    kept = tmp_path / "kept" / "A_s0"
    assert not (kept / "metrics.jsonl").exists() and (kept / TRACE_FILE).is_file()
    original, read_back = read_trace(tmp_path / "runs" / "A_s0"), read_trace(kept)
    assert read_back is not None and original is not None
    assert len(read_back) == len(original) == 17  # 6-80 s in bins of 5 s, then 200 s
    assert read_back[-1]["entropy"] == 0.9 and math.isnan(read_back[-1]["train_success"])
    for a, b in zip(original, read_back, strict=True):
        assert a.keys() == b.keys()
        assert all(a[k] == pytest.approx(b[k]) or (math.isnan(a[k]) and math.isnan(b[k])) for k in a)
    assert keep_runs(tmp_path / "kept", tmp_path / "again") == ["A_s0"]
    assert (tmp_path / "again" / "A_s0" / TRACE_FILE).read_text() == (kept / TRACE_FILE).read_text()
    assert read_trace(tmp_path / "nowhere") is None


def test_a_trace_file_that_is_not_a_trace_is_refused(tmp_path: Path) -> None:
    (tmp_path / TRACE_FILE).write_text(json.dumps({"time_s": 1}))
    with pytest.raises(ValueError, match="not a list of trace points"):
        read_trace(tmp_path)


def test_dynamics_table_reads_each_run_from_its_first_to_its_last_bin(tmp_path: Path) -> None:
    rising = [{"time_s": 10.0, "entropy": 0.3, "train_success": 0.4, "critic_loss": 0.2},
              {"time_s": 600.0, "entropy": 0.7, "train_success": 0.1, "critic_loss": 0.01}]
    flat = [{"time_s": 10.0, "entropy": 0.3, "train_success": 0.3, "critic_loss": 0.05},
            {"time_s": 600.0, "entropy": 0.3, "train_success": 0.3, "critic_loss": 0.05}]
    criticless = [{**p, "critic_loss": math.nan} for p in flat]
    table = dynamics_table({"A-RIDE": [rising, rising], "DigiRL": [flat, None], "lost": [None], "GRPO": [criticless]})
    assert table is not None
    assert "| A-RIDE | 2 | 0.30 ± 0.00 → 0.70 ± 0.00 | 40 ± 0 → 10 ± 0 | 0.200 ± 0.000 → 0.010 ± 0.000 |" in table
    assert "| DigiRL | 1 | 0.30 → 0.30 | 30 → 30 | 0.050 → 0.050 |" in table and "lost" not in table
    assert "| GRPO | 1 | 0.30 → 0.30 | 30 → 30 | – (none reported) |" in table
    assert dynamics_table({"lost": [None, []]}) is None
    path = plot_dynamics({"A-RIDE": [rising], "DigiRL": [flat]}, tmp_path / "dynamics.png", "title")
    assert path.stat().st_size > 1000
