"""Tests of `benchmarks.publish`: the README headline, docs/RESULTS.md and docs/benchmarks come from a run's output."""

from __future__ import annotations

import json

import pytest

from benchmarks.publish import END, HEADLINES, START, publish
from benchmarks.report import durations


def fake_run(out):
    """A minimal benchmark output folder: results.json, report.md and a plot."""
    out.mkdir()
    results = {"suite": "quick", "date": "2026-01-01T00:00:00", "machine": {"cpus": 2, "cpu_model": "X"},
               "versions": {"git": "abc1234"},
               "benchmarks": {"sim": {"status": "ok", "seconds": 1.44, "figures": [
                   {"name": "emulator_speedup/elements_only", "value": 1108.4, "unit": "x", "target": 1000.0,
                    "higher_is_better": True, "met": True},
                   {"name": "hit", "value": 99.0, "unit": "%", "target": 98.0, "higher_is_better": True, "met": True},
                   {"name": "miss", "value": 1.0, "unit": "x", "target": 2.4, "higher_is_better": True, "met": False},
                   {"name": "info", "value": 5.0, "unit": "s", "target": None, "higher_is_better": True, "met": None},
                   {"name": "unshown", "value": "nan", "unit": "x", "target": 3.0, "higher_is_better": True,
                    "met": True},  # results.json writes NaN as "nan"; a stored `met` is not trusted
               ]}, "collection": {"status": "failed", "seconds": 754.0, "traceback": "boom"}}}
    (out / "results.json").write_text(json.dumps(results))
    (out / "report.md").write_text("# report")
    (out / "training_curves.png").write_bytes(b"\x89PNG fake")


def docs(tmp_path):
    """A README and a docs/RESULTS.md with hand-written text around their generated blocks."""
    (tmp_path / "docs").mkdir(exist_ok=True)
    for path in (tmp_path / "README.md", tmp_path / "docs" / "RESULTS.md"):
        path.write_text(f"intro\n{START}\nold table\n{END}\noutro\n")
    return tmp_path / "README.md", tmp_path / "docs" / "RESULTS.md"


def test_publish_replaces_only_the_marked_blocks_and_copies_outputs(tmp_path):
    """The README gets the headline claims with their runs; RESULTS.md every targeted figure; the rest stays."""
    fake_run(tmp_path / "out")
    readme, results_doc = docs(tmp_path)
    publish(tmp_path / "out", tmp_path)
    text, full = readme.read_text(), results_doc.read_text()
    for doc in (text, full):
        assert doc.startswith("intro\n") and doc.endswith("\noutro\n") and "old table" not in doc
    assert "| simulated phone step over an emulator's | 1108 x | ≥ 1000 | met | `abc1234` 2026-01-01 |" in text
    assert "| asynchronous over lock-step collection, 32 envs | FAILED |" in text
    assert "hit" not in text and "training_curves.png" not in text  # the headline only
    assert "| sim | hit | 99 % | ≥ 98 | met |" in full and "**MISSED**" in full and "| collection | FAILED" in full
    assert "| sim | unshown | nan x | ≥ 3 | **MISSED** |" in full
    assert "info" not in full and "(benchmarks/training_curves.png)" in full
    assert (tmp_path / "docs/benchmarks/report.md").read_text() == "# report"


def test_the_readme_headline_stays_short() -> None:
    """At most 15 rows, each naming a claim once."""
    assert len(HEADLINES) <= 15 and len({h.claim for h in HEADLINES}) == len(HEADLINES)


def test_publish_refuses_documents_without_markers(tmp_path):
    """A README or RESULTS.md without the block is an error, not a silent append."""
    fake_run(tmp_path / "out")
    readme, results_doc = docs(tmp_path)
    readme.write_text("no markers")
    with pytest.raises(ValueError, match="README.md has no <!-- benchmarks:start"):
        publish(tmp_path / "out", tmp_path)
    readme, results_doc = docs(tmp_path)
    results_doc.unlink()
    with pytest.raises(ValueError, match="RESULTS.md has no <!-- benchmarks:start"):
        publish(tmp_path / "out", tmp_path)


def test_readme_block_states_each_benchmarks_run_time_and_the_sum(tmp_path):
    """RESULTS.md says how long the suite took as measured, not as hoped: every section's seconds and their sum."""
    fake_run(tmp_path / "out")
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert durations(results) == "sim 1.4 s, collection 13 min: 12.6 minutes in all"
    _, results_doc = docs(tmp_path)
    publish(tmp_path / "out", tmp_path)
    assert "sim 1.4 s, collection 13 min: 12.6 minutes in all" in results_doc.read_text()


def test_run_time_of_a_section_rebuilt_from_kept_runs_says_so(tmp_path):
    """Seconds of a rebuild are not the runs' time: a section whose run reused kept runs is marked, in a merge too."""
    fake_run(tmp_path / "out")
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    results["benchmarks"]["collection"]["source"] = {"env": {"DISTRL_BENCH_SOAK_REUSE": "docs/benchmarks/runs_soak"}}
    assert durations(results) == "sim 1.4 s, collection 13 min (kept runs reused): 12.6 minutes in all"
    del results["benchmarks"]["collection"]["source"]
    results["config"] = {"env": {"DISTRL_BENCH_TRAINING_SEEDS": "3"}}
    assert durations(results) == "sim 1.4 s, collection 13 min: 12.6 minutes in all"
    results["config"]["env"] = {"DISTRL_BENCH_SLOW_REUSE": "runs"}
    assert durations(results) == ("sim 1.4 s (kept runs reused), collection 13 min (kept runs reused): "
                                  "12.6 minutes in all")


def test_published_files_carry_no_machine_paths(tmp_path):
    """Paths of this machine in a report or results.json become relative (or their last two parts) when published."""
    fake_run(tmp_path / "out")
    docs(tmp_path)
    (tmp_path / "out" / "report.md").write_text(f"reused from /work/bench/train_s12/runs; plot {tmp_path}/docs/a.png"
                                                "; judge http://localhost:8000/v1")
    publish(tmp_path / "out", tmp_path)
    text = (tmp_path / "docs/benchmarks/report.md").read_text()
    assert text == "reused from train_s12/runs; plot docs/a.png; judge http://localhost:8000/v1"


def test_a_quick_section_over_its_budget_says_so(tmp_path):
    """The quick suite's budget per section (benchmarks/run.py) shows in the run times when a section ran over it."""
    fake_run(tmp_path / "out")
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    results["benchmarks"]["sim"]["budget_s"] = 60.0
    results["benchmarks"]["collection"]["budget_s"] = 60.0
    assert durations(results) == "sim 1.4 s, collection 13 min (over its 60 s budget): 12.6 minutes in all"
