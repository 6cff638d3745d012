"""Tests of `benchmarks.publish`: the README block and docs/benchmarks are refreshed from a run's output."""

from __future__ import annotations

import json

import pytest

from benchmarks.publish import END, START, publish
from benchmarks.report import durations


def fake_run(out):
    """A minimal benchmark output folder: results.json, report.md and a plot."""
    out.mkdir()
    results = {"suite": "quick", "date": "2026-01-01T00:00:00", "machine": {"cpus": 2, "cpu_model": "X"},
               "benchmarks": {"sim": {"status": "ok", "seconds": 1.44, "figures": [
                   {"name": "hit", "value": 99.0, "unit": "%", "target": 98.0, "higher_is_better": True, "met": True},
                   {"name": "miss", "value": 1.0, "unit": "x", "target": 2.4, "higher_is_better": True, "met": False},
                   {"name": "info", "value": 5.0, "unit": "s", "target": None, "higher_is_better": True, "met": None},
                   {"name": "unshown", "value": "nan", "unit": "x", "target": 3.0, "higher_is_better": True,
                    "met": True},  # results.json writes NaN as "nan"; a stored `met` is not trusted
               ]}, "pool": {"status": "failed", "seconds": 754.0, "traceback": "boom"}}}
    (out / "results.json").write_text(json.dumps(results))
    (out / "report.md").write_text("# report")
    (out / "training_curves.png").write_bytes(b"\x89PNG fake")


def test_publish_replaces_only_the_marked_block_and_copies_outputs(tmp_path):
    """The block between the markers gets the targeted figures (missed ones flagged); the rest stays."""
    fake_run(tmp_path / "out")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{START}\nold table\n{END}\noutro\n")
    publish(tmp_path / "out", tmp_path, readme)
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith("\noutro\n") and "old table" not in text
    assert "| sim | hit | 99 % | ≥ 98 | met |" in text and "**MISSED**" in text and "| pool | FAILED" in text
    assert "| sim | unshown | nan x | ≥ 3 | **MISSED** |" in text
    assert "info" not in text and "docs/benchmarks/training_curves.png" in text
    assert (tmp_path / "docs/benchmarks/report.md").read_text() == "# report"


def test_publish_refuses_a_readme_without_markers(tmp_path):
    """A README without the block is an error, not a silent append."""
    fake_run(tmp_path / "out")
    (tmp_path / "README.md").write_text("no markers")
    with pytest.raises(ValueError, match="benchmarks:start"):
        publish(tmp_path / "out", tmp_path)


def test_readme_block_states_each_benchmarks_run_time_and_the_sum(tmp_path):
    """The README says how long the suite took as measured, not as hoped: every section's seconds and their sum."""
    fake_run(tmp_path / "out")
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert durations(results) == "sim 1.4 s, pool 13 min: 12.6 minutes in all"
    readme = tmp_path / "README.md"
    readme.write_text(f"{START}\n{END}\n")
    publish(tmp_path / "out", tmp_path, readme)
    assert "sim 1.4 s, pool 13 min: 12.6 minutes in all" in readme.read_text()


def test_run_time_of_a_section_rebuilt_from_kept_runs_says_so(tmp_path):
    """Seconds of a rebuild are not the runs' time: a section whose run reused kept runs is marked, in a merge too."""
    fake_run(tmp_path / "out")
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    results["benchmarks"]["pool"]["source"] = {"env": {"DISTRL_BENCH_SOAK_REUSE": "docs/benchmarks/runs_soak"}}
    assert durations(results) == "sim 1.4 s, pool 13 min (kept runs reused): 12.6 minutes in all"
    del results["benchmarks"]["pool"]["source"]
    results["config"] = {"env": {"DISTRL_BENCH_TRAINING_SEEDS": "3"}}
    assert durations(results) == "sim 1.4 s, pool 13 min: 12.6 minutes in all"
    results["config"]["env"] = {"DISTRL_BENCH_SLOW_REUSE": "runs"}
    assert durations(results) == "sim 1.4 s (kept runs reused), pool 13 min (kept runs reused): 12.6 minutes in all"
